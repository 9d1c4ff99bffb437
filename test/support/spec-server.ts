/**
 * Test support for `spec fetch`: `.tar.gz` archives shaped as GitHub serves the spec
 * repository (a pax global header whose comment is the commit, one top folder
 * `modelcontextprotocol-<sha>/`), built on the fly from the corpus folder (read in place) or
 * from entries a test makes up (hostile ones included), and a loopback HTTP server on
 * 127.0.0.1 that serves them by ref. The server closes itself after `lifetimeMs`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { Header, Pax } from "tar";

/** One entry of a made-up archive, its path relative to the top folder unless `raw`. */
export interface TarEntry {
  readonly path: string;
  readonly type?: "File" | "Directory" | "SymbolicLink" | "Link";
  readonly body?: Buffer;
  readonly linkpath?: string;
  /** Use `path` as it is, without the top folder in front. */
  readonly raw?: boolean;
  /** The entry's mode bits (default `0o644` for files, `0o755` for folders). */
  readonly mode?: number;
}

function block(buffer: Buffer): Buffer {
  const padding = (512 - (buffer.length % 512)) % 512;
  return padding === 0 ? buffer : Buffer.concat([buffer, Buffer.alloc(padding)]);
}

/** A gzip-compressed tar of `entries` under `<top>/`, with a pax global header naming `commit` (none when `commit` is undefined). */
export function tarGz(top: string, entries: readonly TarEntry[], commit: string | undefined): Buffer {
  const parts: Buffer[] = [];
  if (commit !== undefined) parts.push(new Pax({ comment: commit }, true).encode());
  const mtime = new Date("2026-01-01T00:00:00Z");
  for (const entry of [{ path: "", type: "Directory" as const }, ...entries]) {
    const type = entry.type ?? "File";
    const path = "raw" in entry && entry.raw ? entry.path : `${top}/${entry.path}${type === "Directory" && entry.path !== "" ? "/" : ""}`;
    const body = type === "File" ? (("body" in entry ? entry.body : undefined) ?? Buffer.alloc(0)) : Buffer.alloc(0);
    const linkpath = "linkpath" in entry ? entry.linkpath : undefined;
    const header = new Header({ path: path === `${top}/` ? `${top}/` : path, type, size: body.length, mode: entry.mode ?? (type === "Directory" ? 0o755 : 0o644), mtime, uid: 0, gid: 0, ...(linkpath ? { linkpath } : {}) });
    const headerBlock = Buffer.alloc(512);
    header.encode(headerBlock);
    if (header.needPax) parts.push(new Pax({ path, ...(linkpath ? { linkpath } : {}) }).encode());
    parts.push(headerBlock, block(body));
  }
  parts.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(parts));
}

/** The files of a spec folder to archive (`schema/`, `docs/`, `LICENSE`), sorted, read in place. */
export function corpusEntries(specDir: string, replace: Readonly<Record<string, Buffer>> = {}): TarEntry[] {
  const entries: TarEntry[] = [];
  const walk = (relative: string) => {
    const full = join(specDir, relative);
    if (statSync(full).isDirectory()) {
      entries.push({ path: relative, type: "Directory" });
      for (const name of readdirSync(full).sort()) walk(`${relative}/${name}`);
    } else {
      entries.push({ path: relative, body: replace[relative] ?? readFileSync(full) });
    }
  };
  for (const name of ["LICENSE", "docs", "schema"]) if (existsSync(join(specDir, name))) walk(name);
  return entries;
}

/** How the server answers one ref. */
export type Route =
  | { readonly kind: "archive"; readonly body: Buffer }
  /** Sends the full Content-Length (none when `chunked`: Transfer-Encoding: chunked), then only the first `bytes` bytes, then drops the connection. */
  | { readonly kind: "truncated"; readonly body: Buffer; readonly bytes: number; readonly chunked?: true }
  | { readonly kind: "status"; readonly status: number }
  /** Drops the connection without an answer `resets` times, then serves `body`. */
  | { readonly kind: "reset"; resets: number; readonly body: Buffer };

export interface SpecServer {
  /** The base URL: the archive of ref R is `<baseUrl>/R`. */
  readonly baseUrl: string;
  /** Requests served, by path. */
  readonly requests: string[];
  readonly routes: Map<string, Route>;
  close(): Promise<void>;
}

/** Starts the loopback server; it closes itself after `lifetimeMs` whatever happens. */
export async function startSpecServer(lifetimeMs = 120_000): Promise<SpecServer> {
  const routes = new Map<string, Route>();
  const requests: string[] = [];
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = decodeURIComponent((request.url ?? "/").replace(/^\/tar\.gz\//, ""));
    requests.push(path);
    const route = routes.get(path) ?? { kind: "status", status: 404 };
    // One request per connection: no idle keep-alive socket for the client to reuse as the server closes it.
    if (route.kind === "reset" && route.resets > 0) {
      route.resets--;
      request.socket.destroy();
    } else if (route.kind === "status") {
      response.writeHead(route.status, { "content-type": "text/plain", connection: "close" }).end("not found\n");
    } else if (route.kind === "archive" || route.kind === "reset") {
      response.writeHead(200, { "content-type": "application/x-gzip", "content-length": String(route.body.length), connection: "close" }).end(route.body);
    } else {
      response.writeHead(200, { "content-type": "application/x-gzip", ...(route.chunked ? {} : { "content-length": String(route.body.length), connection: "close" }) });
      response.write(route.body.subarray(0, route.bytes), () => response.destroy());
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const timer = setTimeout(() => server.close(), lifetimeMs);
  timer.unref();
  const { port } = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${port}/tar.gz`,
    requests,
    routes,
    close: () =>
      new Promise<void>((resolve) => {
        clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port nothing listens on (listened on, then closed). */
export async function refusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
