/**
 * The Streamable HTTP transport of protocol revision 2026-07-28 (basic/transports/streamable-http),
 * on `node:http`: one MCP endpoint that accepts POST, one JSON-RPC message per request.
 *
 * - Bound to 127.0.0.1 by default. `Host` and `Origin` are checked against allow-lists
 *   (DNS-rebinding protection, § Security & Endpoint): 403 otherwise.
 * - GET and DELETE (the sessions and standalone stream of earlier revisions) → 405.
 * - A body over `maxBodyBytes` → 413; a body that is not `application/json` → 415.
 * - Request metadata headers (§ Request Metadata, § Server Validation): `MCP-Protocol-Version`
 *   must be present and equal the body's `io.modelcontextprotocol/protocolVersion`; `Mcp-Method`
 *   must equal `method`; `Mcp-Name` must equal `params.name` (tools/call, prompts/get) or
 *   `params.uri` (resources/read), after Base64-sentinel decoding; `Mcp-Param-{Name}` headers of
 *   the called tool's `x-mcp-header` parameters must match the arguments. Otherwise `-32020`, 400.
 * - Status codes: 400 for `-32700`, `-32600`, `-32602`, `-32020`, `-32021`, `-32022`; 404 for
 *   `-32601`; 500 for `-32603`; 202 without a body for an accepted notification; else 200.
 * - A response is JSON, unless the handler sends a notification first (progress, log messages,
 *   `subscriptions/listen`): then the response is an SSE stream of those notifications ended by
 *   the response. Closing the stream cancels the request (§ Cancellation).
 * - A body that is not UTF-8 → `-32700`, 400; a UTF-8 byte order mark starting it is ignored.
 * - Limits (see {@link HttpOptions}): time to receive headers and the whole request, idle
 *   keep-alive time, open connections, listen backlog, open `subscriptions/listen` streams (one
 *   more → `-32603`, 503), and an optional time limit per request (→ `-32603`, 500).
 * - {@link HttpServer.close} shuts down gracefully: no new connections or requests (503), open
 *   `subscriptions/listen` streams get their result, requests in flight get `shutdownGraceMs`
 *   to finish, then every request still running is answered `-32603` "Server shutting down".
 */
import { setMaxListeners } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { DispatchResponse, OutgoingNotification, TransportDispatcher } from "./dispatcher.js";
import { isPlainObject, own } from "./json.js";

/** Options of {@link serveHttp} and {@link createHttpHandler}. */
export interface HttpOptions {
  /** Default: 3000. 0 picks a free port. */
  readonly port?: number;
  /** Default: "127.0.0.1". */
  readonly host?: string;
  /** The MCP endpoint's path. Default: "/mcp". */
  readonly path?: string;
  /** Host names (without port) a request's `Host` may name. Default: localhost, 127.0.0.1, [::1]. */
  readonly allowedHosts?: readonly string[];
  /** Origins a request's `Origin` may be (`http://localhost:5173`); a missing `Origin` is allowed. Default: http(s) origins on the allowed hosts, any port. */
  readonly allowedOrigins?: readonly string[];
  /** Largest accepted body, in bytes. Default: 4 MiB. */
  readonly maxBodyBytes?: number;
  /** SSE keep-alive comment interval on open streams, in milliseconds. Default: 15000. */
  readonly keepAliveMs?: number;
  /** The `inputSchema` of a tool by name, for `Mcp-Param-{Name}` checks; without it those headers are not checked. */
  readonly toolInputSchema?: (name: string) => unknown;
  /** A request running longer than this is aborted and answered `-32603` "Request timed out after N ms" (`subscriptions/listen` excepted). Default: none. */
  readonly requestTimeoutMs?: number;
  /** Open `subscriptions/listen` streams at once; one more is answered `-32603` with status 503. Default: 256. */
  readonly maxSubscriptions?: number;
  /** On {@link HttpServer.close}: how long requests in flight may still finish before they are aborted and answered `-32603`. Default: 5000. */
  readonly shutdownGraceMs?: number;
  /** Time to receive a request's headers (node:http `headersTimeout`); then 408 and the connection is closed. Default: 10000. */
  readonly headersTimeoutMs?: number;
  /** Time to receive a whole request, headers and body (node:http `requestTimeout`); then 408 and the connection is closed. Default: 30000. */
  readonly receiveTimeoutMs?: number;
  /** How long an idle keep-alive connection is kept open (node:http `keepAliveTimeout`). Default: 5000. */
  readonly keepAliveTimeoutMs?: number;
  /** Open connections at once (node:http `maxConnections`); one more is closed as soon as it is accepted. Default: 512. */
  readonly maxConnections?: number;
  /** Connections the system queues before they are accepted (`listen` backlog; the system may cap it, Linux at `net.core.somaxconn`). Default: 2048. */
  readonly backlog?: number;
}

/** A running HTTP server. */
export interface HttpServer {
  readonly server: Server;
  /** `http://host:port/path` of the MCP endpoint. */
  readonly url: string;
  /** Shuts down gracefully (see {@link HttpOptions.shutdownGraceMs}); resolves when every connection is closed. */
  close(): Promise<void>;
}

const PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
/** The method a legacy client (2025-11-25 and earlier) opens with (draft basic/versioning). */
const LEGACY_HANDSHAKE = "initialize";
/** Methods whose `Mcp-Name` header mirrors a params member (§ Standard Request Headers). */
const NAME_SOURCES: ReadonlyMap<string, string> = new Map([
  ["tools/call", "name"],
  ["prompts/get", "name"],
  ["resources/read", "uri"],
]);
const BAD_REQUEST = new Set([-32700, -32600, -32602, -32020, -32021, -32022]);
const LISTEN = "subscriptions/listen";
const SHUTTING_DOWN = "Server shutting down";
const DEFAULT_HOSTS = ["localhost", "127.0.0.1", "[::1]"];

/** The HTTP status of a JSON-RPC response. */
export function statusOf(response: DispatchResponse): number {
  if (!("error" in response)) return 200;
  const code = response.error.code;
  if (BAD_REQUEST.has(code)) return 400;
  if (code === -32601) return 404;
  if (code === -32603) return 500;
  return 200;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/** `host:port` or `[v6]:port` → the host name; `undefined` for a value that is no `host[:port]`. */
function hostName(host: string): string | undefined {
  const m = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::\d{1,5})?$/.exec(host.trim());
  return m === null ? undefined : m[1]!.toLowerCase();
}

const SENTINEL = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/;

/**
 * A header value after the Base64 sentinel (`=?base64?…?=`, § Value Encoding) is decoded;
 * `undefined` for a malformed sentinel or characters a header value may not hold.
 */
export function decodeHeaderValue(value: string): string | undefined {
  if (!/^[\t\x20-\x7e]*$/.test(value)) return undefined;
  if (value.startsWith("=?base64?") && value.endsWith("?=")) {
    const m = SENTINEL.exec(value);
    if (m === null || m[1]!.length % 4 !== 0) return undefined;
    const bytes = Buffer.from(m[1]!, "base64");
    const text = new TextDecoder("utf-8", { fatal: true });
    try {
      return text.decode(bytes);
    } catch {
      return undefined;
    }
  }
  return value.trim();
}

/** The primitive value at `x-mcp-header` parameters of an `inputSchema`: header name → property path (§ Custom Headers from Tool Parameters). */
function mcpParamHeaders(schema: unknown, path: readonly string[] = [], out = new Map<string, readonly string[]>()): Map<string, readonly string[]> {
  if (!isPlainObject(schema) || path.length > 32) return out;
  const properties = own(schema, "properties");
  if (!isPlainObject(properties)) return out;
  for (const key of Object.keys(properties)) {
    const sub: unknown = properties[key];
    if (!isPlainObject(sub)) continue;
    const name = own(sub, "x-mcp-header");
    if (typeof name === "string" && name !== "") out.set(name.toLowerCase(), [...path, key]);
    mcpParamHeaders(sub, [...path, key], out);
  }
  return out;
}

function headerText(v: unknown): string | undefined {
  if (typeof v === "string") return v;
  if (typeof v === "boolean") return String(v);
  if (typeof v === "number" && Number.isSafeInteger(v)) return String(v);
  return undefined;
}

/** What is wrong with the request metadata headers of a parsed request, or `undefined`. */
function headerMismatch(req: IncomingMessage, message: { readonly [key: string]: unknown }, options: HttpOptions): string | undefined {
  const method = own(message, "method");
  const rawParams = own(message, "params");
  const params: { readonly [key: string]: unknown } = isPlainObject(rawParams) ? rawParams : {};
  const rawMeta = own(params, "_meta");
  const bodyVersion = isPlainObject(rawMeta) ? own(rawMeta, PROTOCOL_VERSION_KEY) : undefined;
  // A legacy client's opening request (no per-request _meta version) carries none of the modern
  // headers: the dispatcher answers it (a modern-only one with -32022 naming the versions it serves).
  if (method === LEGACY_HANDSHAKE && bodyVersion === undefined) return undefined;
  const version = header(req, "mcp-protocol-version");
  if (typeof bodyVersion === "string") {
    if (version === undefined) return "the MCP-Protocol-Version header is missing";
    if (version.trim() !== bodyVersion) return `MCP-Protocol-Version header ${JSON.stringify(version)} does not match the body's ${JSON.stringify(bodyVersion)}`;
  }
  const mcpMethod = header(req, "mcp-method");
  if (mcpMethod === undefined) return "the Mcp-Method header is missing";
  if (mcpMethod.trim() !== method) return `Mcp-Method header ${JSON.stringify(mcpMethod)} does not match the body's method`;
  const source = typeof method === "string" ? NAME_SOURCES.get(method) : undefined;
  const bodyName = source === undefined ? undefined : own(params, source);
  if (typeof bodyName === "string") {
    const raw = header(req, "mcp-name");
    if (raw === undefined) return "the Mcp-Name header is missing";
    const name = decodeHeaderValue(raw);
    if (name === undefined) return "the Mcp-Name header is malformed";
    if (name !== bodyName) return `Mcp-Name header does not match the body's params.${source}`;
  }
  if (method === "tools/call" && typeof bodyName === "string" && options.toolInputSchema !== undefined) {
    const rawArgs = own(params, "arguments");
    const args = isPlainObject(rawArgs) ? rawArgs : {};
    for (const [name, path] of mcpParamHeaders(options.toolInputSchema(bodyName))) {
      let value: unknown = args;
      for (const key of path) value = isPlainObject(value) ? own(value, key) : undefined;
      const raw = header(req, "mcp-param-" + name);
      if (value === undefined || value === null) {
        // The client omits the header when the argument is absent: a header without its argument disagrees with the body.
        if (raw !== undefined) return `the Mcp-Param-${name} header names an argument the body does not have`;
        continue;
      }
      if (raw === undefined) return `the Mcp-Param-${name} header is missing`;
      const decoded = decodeHeaderValue(raw);
      if (decoded === undefined) return `the Mcp-Param-${name} header is malformed`;
      // Integers compare numerically (42.0 is 42), only written as decimal numbers, and only in the range a double holds exactly.
      const same =
        typeof value === "number"
          ? Number.isSafeInteger(value) && /^-?\d+(?:\.0+)?$/.test(decoded) && Number.isSafeInteger(Number(decoded)) && Number(decoded) === value
          : decoded === headerText(value);
      if (!same) return `Mcp-Param-${name} header does not match the arguments`;
    }
  }
  return undefined;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  let text: string;
  try {
    text = JSON.stringify(body);
  } catch {
    // The dispatcher only answers JSON data; this is a last line of defence.
    status = 500;
    text = JSON.stringify({ jsonrpc: "2.0", error: { code: -32603, message: "Internal error" } });
  }
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

function forbidden(res: ServerResponse, why: string): void {
  sendJson(res, 403, { jsonrpc: "2.0", error: { code: -32600, message: "Forbidden: " + why } });
}

/** Reads the body, or answers 413 and resolves `undefined` when it is too large. */
function readBody(req: IncomingMessage, res: ServerResponse, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const declared = Number(header(req, "content-length"));
    if (Number.isFinite(declared) && declared > limit) {
      res.setHeader("connection", "close");
      sendJson(res, 413, { jsonrpc: "2.0", error: { code: -32600, message: `Invalid request: the body is larger than ${limit} bytes` } });
      req.resume();
      resolve(undefined);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on("data", (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        done = true;
        res.setHeader("connection", "close");
        sendJson(res, 413, { jsonrpc: "2.0", error: { code: -32600, message: `Invalid request: the body is larger than ${limit} bytes` } });
        req.resume();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (!done) resolve(Buffer.concat(chunks));
    });
    req.on("error", () => {
      if (!done) resolve(undefined);
      done = true;
    });
  });
}

/** One HTTP request being served: whether it reached the dispatcher, and its own deadline when it has a time limit. */
interface Exchange {
  readonly res: ServerResponse;
  timed: AbortController | undefined;
  /** Resolves when the response is finished or its connection closed. */
  readonly done: Promise<void>;
  dispatched: boolean;
}

/** The request listener and what a graceful shutdown needs of it. */
interface Endpoint {
  readonly listener: (req: IncomingMessage, res: ServerResponse) => void;
  /** Refuses new requests, ends listen streams, waits `shutdownGraceMs` for requests in flight, then answers the rest `-32603`. */
  shutdown(): Promise<void>;
}

/** A `node:http` request listener serving `dispatcher` at the MCP endpoint (without graceful shutdown: {@link serveHttp} has it). */
export function createHttpHandler(dispatcher: TransportDispatcher, options: HttpOptions = {}): (req: IncomingMessage, res: ServerResponse) => void {
  return endpoint(dispatcher, options).listener;
}

function endpoint(dispatcher: TransportDispatcher, options: HttpOptions): Endpoint {
  const path = options.path ?? "/mcp";
  const hosts = new Set((options.allowedHosts ?? DEFAULT_HOSTS).map((h) => h.toLowerCase()));
  const limit = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const keepAliveMs = options.keepAliveMs ?? 15000;
  const maxSubscriptions = options.maxSubscriptions ?? 256;
  const requestTimeoutMs = options.requestTimeoutMs;
  const shutdownGraceMs = options.shutdownGraceMs ?? 5000;
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  const exchanges = new Set<Exchange>();
  // Every request's deadline: aborted when the shutdown's grace period is over. A request with a time limit gets its own.
  const shutdown = new AbortController();
  setMaxListeners(0, shutdown.signal);
  let streams = 0; // open subscriptions/listen streams
  let closing = false;
  const originAllowed = (origin: string): boolean => {
    if (options.allowedOrigins !== undefined) return options.allowedOrigins.includes(origin);
    try {
      const url = new URL(origin);
      // Only an origin (scheme://host[:port]), nothing after it.
      return url.origin === origin.toLowerCase() && (url.protocol === "http:" || url.protocol === "https:") && hosts.has(url.hostname.toLowerCase());
    } catch {
      return false;
    }
  };
  /** 503 with a JSON-RPC error, the connection closed after it. */
  const unavailable = (res: ServerResponse, id: unknown, message: string): void => {
    if (res.headersSent) {
      res.end();
      return;
    }
    res.setHeader("connection", "close");
    const error = { code: -32603, message };
    sendJson(res, 503, typeof id === "string" || typeof id === "number" ? { jsonrpc: "2.0", id, error } : { jsonrpc: "2.0", error });
  };

  const serve = async (req: IncomingMessage, res: ServerResponse, exchange: Exchange): Promise<void> => {
    if (closing) return unavailable(res, undefined, SHUTTING_DOWN);
    const host = header(req, "host");
    const name = host === undefined ? undefined : hostName(host);
    if (name === undefined || !hosts.has(name)) return forbidden(res, "the Host header is not allowed");
    const origin = header(req, "origin");
    if (origin !== undefined && !originAllowed(origin)) return forbidden(res, "the Origin header is not allowed");
    let url: URL;
    try {
      url = new URL(req.url ?? "/", "http://localhost");
    } catch {
      return sendJson(res, 400, { jsonrpc: "2.0", error: { code: -32600, message: "Invalid request: the request target is malformed" } });
    }
    if (url.pathname !== path) return sendJson(res, 404, { jsonrpc: "2.0", error: { code: -32601, message: "Not found: the MCP endpoint is " + path } });
    if (req.method !== "POST") {
      res.writeHead(405, { allow: "POST", "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32600, message: "Method not allowed: the MCP endpoint accepts POST" } }));
      return;
    }
    const type = header(req, "content-type") ?? "";
    if (!/^application\/json\s*(?:;|$)/i.test(type.trim())) {
      sendJson(res, 415, { jsonrpc: "2.0", error: { code: -32600, message: "Unsupported media type: send application/json" } });
      req.resume();
      return;
    }
    const bytes = await readBody(req, res, limit);
    // Answered already: too large, or 503 when the shutdown's grace period ended while the body was arriving.
    if (bytes === undefined || res.writableEnded) return;
    let body: string;
    try {
      // A leading byte order mark is dropped by the decoder.
      body = utf8.decode(bytes);
    } catch {
      return sendJson(res, 400, { jsonrpc: "2.0", error: { code: -32700, message: "Parse error: the message is not valid UTF-8" } });
    }
    let message: unknown;
    try {
      message = JSON.parse(body);
    } catch {
      const response = (await dispatcher.handle(body))!;
      return sendJson(res, statusOf(response), response);
    }
    const id = isPlainObject(message) ? own(message, "id") : undefined;
    const request = isPlainObject(message) && typeof own(message, "method") === "string" && (typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id))) ? message : undefined;
    // Only a well-formed request is held to its headers; anything else gets the dispatcher's own answer.
    if (request !== undefined) {
      const problem = headerMismatch(req, request, options);
      if (problem !== undefined) {
        const error = { code: -32020, message: "Header mismatch: " + problem };
        return sendJson(res, 400, { jsonrpc: "2.0", id, error });
      }
    }
    if (closing) return unavailable(res, id, SHUTTING_DOWN);
    const listen = request !== undefined && own(request, "method") === LISTEN;
    if (listen && streams >= maxSubscriptions) return unavailable(res, id, `Too many open ${LISTEN} streams (at most ${maxSubscriptions}); close one first`);
    const controller = new AbortController();
    let sse = false;
    let keepAlive: ReturnType<typeof setInterval> | undefined;
    res.on("close", () => {
      if (!res.writableFinished) controller.abort(new Error("the client closed the response stream"));
      if (keepAlive !== undefined) clearInterval(keepAlive);
    });
    const notify = (notification: OutgoingNotification) => {
      if (res.writableEnded || controller.signal.aborted) return;
      if (!sse) {
        sse = true;
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", "x-accel-buffering": "no" });
        keepAlive = setInterval(() => res.write(":\n\n"), keepAliveMs);
        keepAlive.unref();
      }
      res.write("event: message\ndata: " + JSON.stringify(notification) + "\n\n");
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    if (requestTimeoutMs !== undefined && !listen && request !== undefined) {
      const timed = (exchange.timed = new AbortController());
      timer = setTimeout(() => timed.abort(`Request timed out after ${requestTimeoutMs} ms`), requestTimeoutMs);
    }
    exchange.dispatched = true;
    if (listen) streams++;
    let response: DispatchResponse | undefined;
    try {
      response = await dispatcher.handle(message, {
        channel: {},
        signal: controller.signal,
        deadline: (exchange.timed ?? shutdown).signal,
        notify,
        transport: { kind: "http", request: req },
      });
    } finally {
      if (listen) streams--;
      if (timer !== undefined) clearTimeout(timer);
    }
    if (keepAlive !== undefined) clearInterval(keepAlive);
    if (res.writableEnded || controller.signal.aborted) return;
    if (closing && !res.headersSent) res.setHeader("connection", "close");
    if (response === undefined) {
      if (sse) res.end();
      else {
        res.writeHead(202);
        res.end();
      }
      return;
    }
    if (sse) {
      res.end("event: message\ndata: " + JSON.stringify(response) + "\n\n");
      return;
    }
    sendJson(res, statusOf(response), response);
  };

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const exchange: Exchange = {
      res,
      timed: undefined,
      done: new Promise<void>((resolve) => res.once("close", () => resolve())),
      dispatched: false,
    };
    exchanges.add(exchange);
    void exchange.done.then(() => exchanges.delete(exchange));
    serve(req, res, exchange).catch(() => {
      if (!res.headersSent) sendJson(res, 500, { jsonrpc: "2.0", error: { code: -32603, message: "Internal error" } });
      else res.end();
    });
  };

  const close = async (): Promise<void> => {
    closing = true;
    // No more requests can reach a stream: each ends with its subscriptions/listen result.
    dispatcher.closeSubscriptions();
    const settled = () => Promise.all([...exchanges].map((e) => e.done));
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([settled(), new Promise<void>((resolve) => (graceTimer = setTimeout(resolve, shutdownGraceMs)))]);
    clearTimeout(graceTimer);
    // In the dispatcher: answered -32603 at once; still receiving its body: 503.
    shutdown.abort(SHUTTING_DOWN);
    for (const exchange of exchanges) {
      if (exchange.dispatched) exchange.timed?.abort(SHUTTING_DOWN);
      else unavailable(exchange.res, undefined, SHUTTING_DOWN);
    }
    // The answers are written at once; a client that does not read them does not hold the shutdown up for more than a second.
    let flushTimer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([settled(), new Promise<void>((resolve) => (flushTimer = setTimeout(resolve, 1000)))]);
    clearTimeout(flushTimer);
  };

  return { listener, shutdown: close };
}

/** Serves `dispatcher` over Streamable HTTP; resolves once listening. */
export function serveHttp(dispatcher: TransportDispatcher, options: HttpOptions = {}): Promise<HttpServer> {
  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  const requestTimeout = options.receiveTimeoutMs ?? 30_000;
  const { listener, shutdown } = endpoint(dispatcher, options);
  const server = createServer(
    {
      headersTimeout,
      requestTimeout,
      // node:http checks both every 30 s by default, letting a slow client stay that much past its limit.
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(Math.min(headersTimeout, requestTimeout) / 4))),
    },
    listener,
  );
  server.keepAliveTimeout = options.keepAliveTimeoutMs ?? 5000;
  server.maxConnections = options.maxConnections ?? 512;
  const host = options.host ?? "127.0.0.1";
  let closing: Promise<void> | undefined;
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port: options.port ?? 3000, host, backlog: options.backlog ?? 2048 }, () => {
      server.off("error", reject);
      const address = server.address() as AddressInfo;
      const shown = host.includes(":") ? `[${host}]` : host;
      resolve({
        server,
        url: `http://${shown}:${address.port}${options.path ?? "/mcp"}`,
        close: () =>
          (closing ??= new Promise<void>((done) => {
            // Stops accepting connections, and closes the idle keep-alive ones.
            server.close(() => done());
            server.closeIdleConnections();
            void shutdown().then(() => server.closeAllConnections());
          })),
      });
    });
  });
}
