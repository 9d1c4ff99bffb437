/**
 * `npm run reliability`: the scaffolded server under load and faults, run as an operator runs
 * it (a built project, a separate Node process, loopback only). Not part of `npm test`: it
 * takes a minute or two.
 *
 * 1. Scaffolds the draft into a scratch folder with a handlers file of its own (tools that echo,
 *    sleep, or never settle) and builds it with this repository's TypeScript.
 * 2. (a) stdio backpressure: a writer pushes 200 000, then 600 000 mixed lines as fast as the
 *    server takes them, while the reader reads 10 KB/s for `--slow-seconds`, then reads at full
 *    speed until every answer is in. The server's peak RSS (VmHWM) must not grow with the input.
 *    (b) stdin closed while a handler never settles: exit code, time, and the answer.
 *    (c) SIGTERM with 50 requests in flight over HTTP (half finish in 1 s, half never): answered count.
 *    (d) 500 slowloris connections (headers sent a byte a second): time until each is dropped,
 *    and normal requests served meanwhile.
 *
 * Options: `--transports <dir>` builds the server with the stdio.ts, http.ts and main.ts of that
 * folder instead (to compare with an earlier version); `--slow-seconds N` (default 10);
 * `--keep` keeps the scratch folder.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import { once } from "node:events";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { cpus, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { scaffoldFiles } from "../generator/scaffold/index.js";
import { ROOT, SPEC_DIR, VERSION } from "./paths.js";

const PROTOCOL = "2026-07-28";
const META = { "io.modelcontextprotocol/protocolVersion": PROTOCOL, "io.modelcontextprotocol/clientCapabilities": {} };

const HANDLERS = `/** Tools for the reliability run: echo, sleep for \`ms\`, never settle (the last two write "called" to stderr). */
import type { ServerDispatcherOptions } from "./generated/dispatch.js";

const schema = { type: "object" as const, properties: { ms: { type: "integer" }, text: { type: "string" } } };
const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });

export const handlers = {};

export const options: Partial<Omit<ServerDispatcherOptions, "serverInfo" | "handlers">> = {
  tools: [
    { definition: { name: "echo", inputSchema: schema }, call: (args) => text(String(args["text"] ?? "")) },
    {
      definition: { name: "slow", inputSchema: schema },
      call: async (args) => {
        process.stderr.write("called\\n");
        await new Promise((resolve) => setTimeout(resolve, Number(args["ms"] ?? 1000)));
        return text("slept");
      },
    },
    {
      definition: { name: "never", inputSchema: schema },
      call: () => {
        process.stderr.write("called\\n");
        return new Promise(() => {});
      },
    },
  ],
};
`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const n = (x: number) => x.toLocaleString("en-US");

interface Options {
  readonly transports: string | undefined;
  readonly slowSeconds: number;
  readonly keep: boolean;
}

function parse(argv: readonly string[]): Options {
  const value = (name: string) => {
    const i = argv.indexOf(name);
    return i === -1 ? undefined : argv[i + 1];
  };
  const slowSeconds = Number(value("--slow-seconds") ?? 10);
  if (!Number.isFinite(slowSeconds) || slowSeconds < 0) throw new Error("--slow-seconds takes a number of seconds");
  return { transports: value("--transports"), slowSeconds, keep: argv.includes("--keep") };
}

/** Scaffolds and builds the server; answers the path of its `main.js`. */
async function build(dir: string, options: Options): Promise<string> {
  const files = await scaffoldFiles({ schema: { specDir: SPEC_DIR, version: VERSION }, name: "reliability-server", docs: "none" });
  for (const file of files) {
    mkdirSync(dirname(join(dir, file.path)), { recursive: true });
    writeFileSync(join(dir, file.path), file.path === "src/handlers.ts" ? HANDLERS : file.contents);
  }
  if (options.transports !== undefined) for (const f of ["stdio.ts", "http.ts", "main.ts"]) copyFileSync(join(options.transports, f), join(dir, "src", f));
  rmSync(join(dir, "test"), { recursive: true });
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  const tsc = spawnSync(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", join(dir, "tsconfig.json")], { encoding: "utf8" });
  if (tsc.status !== 0) throw new Error("the scaffolded server does not build:\n" + tsc.stdout + tsc.stderr);
  return join(dir, "dist", "src", "main.js");
}

/** Peak resident set size of a live process, in kB (`VmHWM`), or 0 once it has exited. */
function peakRss(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m === null ? 0 : Number(m[1]);
  } catch {
    return 0;
  }
}

function start(main: string, args: string[] = []): { child: ChildProcessWithoutNullStreams; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [main, ...args], { stdio: "pipe" });
  child.stderr.resume();
  child.stdin.on("error", () => {});
  const exited = once(child, "exit").then(([code]) => code as number | null);
  return { child, exited };
}

/** Line `i` of the mixed stdio input, and whether it is answered. */
function mixedLine(i: number): [string, boolean] {
  switch (i % 6) {
    case 0:
      return [JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/list", params: { _meta: META } }), true];
    case 1:
      return [JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/call", params: { _meta: META, name: "echo", arguments: { text: "line " + i } } }), true];
    case 2:
      return [JSON.stringify({ jsonrpc: "2.0", id: i, method: "server/discover", params: { _meta: META } }), true];
    case 3:
      return ["{not json " + i, true];
    case 4:
      return [JSON.stringify({ jsonrpc: "2.0", id: i, method: "nope/nope", params: { _meta: META } }), true];
    default:
      return [JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: i } }), false];
  }
}

/** (a) `lines` mixed lines through a 10 KB/s reader for `slowSeconds`, then a fast one. */
async function stdioBackpressure(main: string, lines: number, slowSeconds: number): Promise<string> {
  const started = Date.now();
  const { child, exited } = start(main);
  let written = 0;
  let expected = 0;
  // The writer: as fast as the server takes lines (it stops reading when its output is full).
  const writer = (async () => {
    const batch: string[] = [];
    while (written < lines) {
      const [text, answered] = mixedLine(written++);
      if (answered) expected++;
      batch.push(text);
      if (batch.length === 100 || written === lines) {
        if (!child.stdin.write(batch.join("\n") + "\n")) await once(child.stdin, "drain");
        batch.length = 0;
      }
    }
    child.stdin.end();
  })();
  // The reader: 1 KB every 100 ms while slow.
  let readBytes = 0;
  let answers = 0;
  const count = (chunk: Buffer) => {
    readBytes += chunk.length;
    for (const byte of chunk) if (byte === 0x0a) answers++;
  };
  child.stdout.pause();
  let peakSlow = 0;
  const slowUntil = Date.now() + slowSeconds * 1000;
  while (Date.now() < slowUntil) {
    await sleep(100);
    const available = child.stdout.readableLength;
    const chunk = available > 0 ? (child.stdout.read(Math.min(1024, available)) as Buffer | null) : null;
    if (chunk !== null) count(chunk);
    peakSlow = Math.max(peakSlow, peakRss(child.pid!));
  }
  const writtenSlow = written;
  const answersSlow = answers;
  child.stdout.on("data", count);
  child.stdout.resume();
  let peak = peakSlow;
  const sampler = setInterval(() => (peak = Math.max(peak, peakRss(child.pid!))), 100);
  await writer;
  const code = await exited;
  clearInterval(sampler);
  const elapsed = Date.now() - started;
  return (
    `${n(lines).padStart(7)} lines: while slow (${slowSeconds} s at 10 KB/s) the server took ${n(writtenSlow)} lines and ${n(answersSlow)} answers were read; ` +
    `peak RSS ${mb(peakSlow)} then, ${mb(peak)} over the whole run; ${n(answers)}/${n(expected)} answers; exit ${code}; ${s(elapsed)}`
  );
}

/** (b) stdin closed while a handler never settles. */
async function stdinClosed(main: string): Promise<string> {
  const { child, exited } = start(main);
  const out: string[] = [];
  createInterface({ input: child.stdout }).on("line", (l) => out.push(l));
  const started = Date.now();
  child.stdin.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { _meta: META, name: "never", arguments: {} } }) + "\n");
  const code = await Promise.race([exited, sleep(30_000).then(() => "still running after 30 s")]);
  if (typeof code === "string") child.kill("SIGKILL");
  const answer = out.map((l) => JSON.parse(l) as { id?: unknown; error?: { code: number; message: string } }).find((r) => r.id === 1);
  const answered = answer === undefined ? "no" : `yes (${answer.error === undefined ? "a result" : `${answer.error.code} ${JSON.stringify(answer.error.message)}`})`;
  return `exit code ${code} after ${s(Date.now() - started)}; request answered: ${answered}`;
}

/** POSTs one JSON-RPC message on a connection of its own. */
function post(url: string, message: { method: string; params?: { name?: string } }): Promise<{ status: number; body: string }> {
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": PROTOCOL, "mcp-method": message.method };
  if (message.params?.name !== undefined) headers["mcp-name"] = message.params.name;
  const target = new URL(url);
  return new Promise((resolve) => {
    const req = httpRequest({ host: target.hostname, port: target.port, path: target.pathname, method: "POST", headers, agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      res.on("error", () => resolve({ status: 0, body }));
    });
    req.on("error", () => resolve({ status: 0, body: "" }));
    req.end(JSON.stringify(message));
  });
}

async function startHttp(main: string): Promise<{ child: ChildProcessWithoutNullStreams; exited: Promise<number | null>; url: string; calls: () => number }> {
  const child = spawn(process.execPath, [main, "--http", "--port", "0"], { stdio: "pipe" });
  const exited = once(child, "exit").then(([code]) => code as number | null);
  const lines = createInterface({ input: child.stderr });
  const [line] = (await once(lines, "line")) as [string];
  const url = /listening on (\S+)/.exec(line)?.[1];
  if (url === undefined) throw new Error("the server did not start: " + line);
  let calls = 0;
  lines.on("line", (l) => (calls += l === "called" ? 1 : 0));
  return { child, exited, url, calls: () => calls };
}

const toolCall = (id: number, name: string, args: { [key: string]: unknown } = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { _meta: META, name, arguments: args },
});

/** (c) SIGTERM with 50 requests in flight over HTTP. */
async function sigterm(main: string): Promise<string> {
  const { child, exited, url, calls } = await startHttp(main);
  const requests = Array.from({ length: 50 }, (_, i) => post(url, i % 2 === 0 ? toolCall(i, "slow", { ms: 1000 }) : toolCall(i, "never")));
  // Signalled once all 50 are in their handlers.
  for (const until = Date.now() + 10_000; calls() < 50 && Date.now() < until; ) await sleep(20);
  const inHandlers = calls();
  const started = Date.now();
  child.kill("SIGTERM");
  const answers = await Promise.race([Promise.all(requests), sleep(30_000).then(() => undefined)]);
  const code = await Promise.race([exited, sleep(30_000).then(() => "still running after 30 s")]);
  if (typeof code === "string") child.kill("SIGKILL");
  if (answers === undefined) return "requests still unanswered after 30 s";
  const results = answers.filter((a) => a.status === 200).length;
  const errors = answers.filter((a) => a.status !== 0 && a.status !== 200);
  const dropped = answers.filter((a) => a.status === 0).length;
  const why = [...new Set(errors.map((e) => (JSON.parse(e.body) as { error?: { message?: string } }).error?.message))].join(", ");
  return `signalled with ${inHandlers} in their handlers; ${50 - dropped}/50 answered (${results} results, ${errors.length} errors${why === "" ? "" : ` ${JSON.stringify(why)}`}, ${dropped} dropped); exit code ${code} ${s(Date.now() - started)} after the signal`;
}

/** (d) 500 slowloris connections, and normal requests meanwhile. */
async function slowloris(main: string): Promise<string> {
  const { child, exited, url } = await startHttp(main);
  const target = new URL(url);
  const started = Date.now();
  const dropped: number[] = [];
  const sockets = Array.from({ length: 500 }, () => {
    const socket = connect(Number(target.port), target.hostname);
    socket.on("error", () => {});
    socket.resume();
    socket.once("close", () => dropped.push(Date.now() - started));
    socket.write("POST /mcp HTTP/1.1\r\nHost: localhost\r\n");
    return socket;
  });
  // A header byte a second on each: never a complete request.
  const drip = setInterval(() => {
    for (const socket of sockets) if (!socket.destroyed) socket.write("X");
  }, 1000);
  const latencies: number[] = [];
  let failed = 0;
  let id = 0;
  while (dropped.length < sockets.length && Date.now() - started < 60_000) {
    const t = Date.now();
    const r = await post(url, { jsonrpc: "2.0", id: ++id, method: "tools/list", params: { _meta: META } } as { method: string });
    if (r.status === 200) latencies.push(Date.now() - t);
    else failed++;
    await sleep(200);
  }
  clearInterval(drip);
  const byServer = [...dropped];
  for (const socket of sockets) socket.destroy();
  child.kill("SIGTERM");
  await exited;
  byServer.sort((a, b) => a - b);
  latencies.sort((a, b) => a - b);
  const at = (xs: number[], q: number) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? NaN;
  const drops =
    byServer.length === 0
      ? "none dropped by the server within 60 s"
      : `${byServer.length}/500 dropped by the server after ${s(byServer[0]!)}–${s(byServer[byServer.length - 1]!)} (median ${s(at(byServer, 0.5))})`;
  return `${drops}; meanwhile ${latencies.length}/${latencies.length + failed} normal requests served (latency median ${at(latencies, 0.5)} ms, max ${latencies[latencies.length - 1] ?? NaN} ms)`;
}

async function main(options: Options): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "mcp-reliability-"));
  try {
    const t = Date.now();
    const server = await build(dir, options);
    process.stdout.write(
      `reliability: the scaffolded server (${VERSION}${options.transports === undefined ? "" : `, transports from ${options.transports}`}), built in ${s(Date.now() - t)}; Node ${process.version}, ${cpus().length} CPUs\n`,
    );
    process.stdout.write(`(a) stdio, mixed lines (tools/list, tools/call, server/discover, not JSON, unknown method, notification):\n`);
    for (const lines of [200_000, 600_000]) process.stdout.write(`    ${await stdioBackpressure(server, lines, options.slowSeconds)}\n`);
    process.stdout.write(`(b) stdin closed while a handler never settles: ${await stdinClosed(server)}\n`);
    process.stdout.write(`(c) SIGTERM with 50 requests in flight over HTTP: ${await sigterm(server)}\n`);
    process.stdout.write(`(d) 500 slowloris connections: ${await slowloris(server)}\n`);
  } finally {
    if (options.keep) process.stderr.write(`kept ${dir}\n`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

await main(parse(process.argv.slice(2)));
