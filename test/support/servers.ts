/**
 * Servers as processes, for the tests that talk to them with real clients and the conformance
 * suite: a scaffolded project built with the repository's modules (no `npm install`), and a
 * server started over Streamable HTTP on a free 127.0.0.1 port.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { cli } from "./cli.js";
import { ROOT, scratchDir } from "./corpus.js";

/**
 * Compiles a scaffolded project with the repository's TypeScript and @types/node (linked in as
 * its node_modules): seconds, where the project's own `npm install` takes a minute. Throws with
 * the compiler's output when it fails.
 */
export function buildWithRepoModules(project: string): void {
  symlinkSync(join(ROOT, "node_modules"), join(project, "node_modules"), "dir");
  const tsc = spawnSync(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", join(project, "tsconfig.json")], {
    encoding: "utf8",
  });
  if (tsc.status !== 0 || tsc.stdout + tsc.stderr !== "") throw new Error(`tsc -p ${project} failed:\n${tsc.stdout}${tsc.stderr}`);
}

/**
 * Scaffolds a project into `test/.tmp/<name>/<folder>` with `flags` (after the folder), builds it
 * as {@link buildWithRepoModules} does, and answers its folder.
 */
export async function scaffoldBuilt(name: string, flags: readonly string[], folder = "server"): Promise<string> {
  const dir = join(scratchDir(name), folder);
  const { code, stderr } = await cli("scaffold", dir, ...flags);
  if (code !== 0) throw new Error(`scaffold ${flags.join(" ")} exited ${code}:\n${stderr}`);
  buildWithRepoModules(dir);
  return dir;
}

/** A server process listening over Streamable HTTP. */
export interface HttpServer {
  readonly url: string;
  readonly process: ChildProcess;
  /** Everything the server wrote to stderr so far (for failure messages). */
  stderr(): string;
  /** Ends the process (SIGTERM, then SIGKILL after 3 s) and waits for it. */
  stop(): Promise<void>;
}

/**
 * Starts `node args…` and waits (at most `timeoutMs`) for its stderr line `listening on <url>`,
 * which the scaffold's `src/main.ts --http` and test/support/reference-server.mjs print.
 */
export async function startHttpServer(node: string, args: readonly string[], timeoutMs = 15_000): Promise<HttpServer> {
  const child = spawn(node, [...args], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  const lines = createInterface({ input: child.stderr! });
  lines.on("line", (line) => (stderr += `${line}\n`));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, "exit");
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
    await exited;
    clearTimeout(timer);
  };
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening on" line within ${timeoutMs} ms; stderr:\n${stderr}`)), timeoutMs);
    lines.on("line", (line) => {
      const found = /listening on (\S+)/.exec(line)?.[1];
      if (found !== undefined) {
        clearTimeout(timer);
        resolve(found);
      }
    });
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${signal ?? code}) before listening; stderr:\n${stderr}`));
    });
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { url, process: child, stderr: () => stderr, stop };
}
