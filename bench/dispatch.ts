/**
 * Requests per second of the generated dispatcher (`createServerDispatcher().handle()` of the
 * generated `dispatch.ts`, protocol revision 2026-07-28) beside `@modelcontextprotocol/server`
 * serving the same revision, on the same `tools/list` and `tools/call` requests to one `echo`
 * tool (`{ text: string }` in, one text content out).
 *
 * Rows (one request at a time, each awaited before the next):
 * - ours `handle(object)`: the request as an already parsed object, the response object back;
 * - ours `handle(JSON string)`: the request as JSON text (parsed by `handle`), the response object back;
 * - SDK `serveStdio` over an in-memory `Transport`: one long-lived `McpServer` pinned to the
 *   connection, request objects in, response objects out (no JSON, no HTTP). The closest
 *   public analogue of `handle(message)`;
 * - SDK `createMcpHandler(factory).fetch(Request)`: the documented entry, a new `McpServer`
 *   per request (as the SDK requires); timed from building the `Request` (from the JSON
 *   text, with the headers the SDK requires) to reading the response body text.
 *
 * Every request carries `params._meta` with the protocol version and (empty) client
 * capabilities. Requests come from a ring of pre-built messages with distinct ids (each
 * object parsed from its own JSON text, as if it came off the wire); the same ring feeds
 * every row. Every response, in the pre-check and in every timed slice, is verified to be a
 * successful result for the request's id (not an error, not `isError`, the tool listed,
 * the text echoed); for the `fetch` row that takes a status and content-type check and a
 * `JSON.parse` of the body, for the others a few property reads. Any failure, and any
 * error reported to the SDK's `onerror` or the dispatcher's `onError`, aborts the bench.
 *
 * Timing follows `timing.ts`: a warm-up per workload (`PRECHECK` verified requests, then a
 * warm-up slice), then interleaved rounds of
 * fixed slices in rotated order; the median over the rounds of requests per CPU-second of
 * this process (the headline, used for the ratios) and per wall-second. Unlike `timing.ts`,
 * a slice starts with a minor GC, not a full one (see `collectGarbage` below).
 *
 * Run alone (on the committed `generated/draft`): `npm run build && node --expose-gc
 * dist-bench/bench/dispatch.js [--rounds 9] [--slice-ms 200] [--warmup-ms 200]`.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { McpServer, createMcpHandler, type JSONRPCMessage, type Transport } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import * as z from "zod";
import { loadGenerated } from "./generated.js";
import { parseOptions } from "./options.js";
import { COMMITTED_DIR, ROOT } from "./paths.js";
import { int, percent, ratio, table } from "./report.js";
import { median, spread } from "./stats.js";
import type { TimingOptions } from "./timing.js";

const PROTOCOL_VERSION = "2026-07-28";
const META = {
  "io.modelcontextprotocol/protocolVersion": PROTOCOL_VERSION,
  "io.modelcontextprotocol/clientCapabilities": {},
} as const;
const SERVER_INFO = { name: "bench", version: "1.0.0" } as const;
const ECHO = {
  name: "echo",
  description: "Echo the text back",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
} as const;
const TEXT = "hello";

/** Pre-built requests per method; ids are distinct within a ring and between the two rings. */
const RING = 1024;
/** Requests between two reads of the clock in a slice. */
const BATCH = 16;
/**
 * Verified requests per workload before anything is timed; also the warm-up (before the
 * warm-up slice): the SDK's `fetch` row needs some 3 000 requests to reach its steady speed
 * (with 100 ms of warm-up alone it measured at about half of it).
 */
const PRECHECK = 4000;

type Method = "tools/list" | "tools/call";
const METHODS: readonly Method[] = ["tools/list", "tools/call"];

/** One request: its JSON text and a separately parsed object of it. */
interface Message {
  readonly id: number;
  readonly method: Method;
  readonly text: string;
  readonly object: { readonly [key: string]: unknown };
}

/** What the bench needs of the generated `dispatch.ts`. */
interface DispatchModule {
  createServerDispatcher(options: {
    readonly serverInfo: { readonly name: string; readonly version: string };
    readonly tools: readonly {
      readonly definition: typeof ECHO;
      call(args: { readonly [key: string]: unknown }, context: unknown): Promise<unknown>;
    }[];
    readonly onError: (error: unknown, info: unknown) => void;
  }): { handle(message: unknown): Promise<unknown> };
}

/** One way of serving a request: sends it, awaits the answer, returns the response as an object. */
interface Contender {
  readonly name: string;
  /** What one request covers, printed under the table. */
  readonly note: string;
  readonly sdk: boolean;
  serve(request: Message): Promise<unknown>;
}

/** One contender on one method's requests. */
interface Workload {
  readonly contender: Contender;
  readonly method: Method;
  readonly ring: readonly Message[];
  next: number;
}

interface Slice {
  readonly opsPerCpuSecond: number;
  readonly opsPerWallSecond: number;
}

function buildRing(method: Method, firstId: number): Message[] {
  return Array.from({ length: RING }, (_, i) => {
    const id = firstId + i;
    const params =
      method === "tools/list" ? { _meta: META } : { name: ECHO.name, arguments: { text: TEXT }, _meta: META };
    const text = JSON.stringify({ jsonrpc: "2.0", id, method, params });
    return { id, method, text, object: JSON.parse(text) as { [key: string]: unknown } };
  });
}

/** Throws unless `response` is a successful result to `request`. */
function verify(request: Message, response: unknown): void {
  const r = response as { jsonrpc?: unknown; id?: unknown; error?: unknown; result?: unknown } | null | undefined;
  const result = r?.result as { [key: string]: unknown } | undefined;
  let ok = r?.jsonrpc === "2.0" && r.id === request.id && r.error === undefined && typeof result === "object";
  if (ok && result !== undefined) {
    if (request.method === "tools/list") {
      const tools = result["tools"] as { name?: unknown }[] | undefined;
      ok = Array.isArray(tools) && tools.length === 1 && tools[0]?.name === ECHO.name;
    } else {
      const content = result["content"] as { type?: unknown; text?: unknown }[] | undefined;
      ok =
        result["isError"] !== true &&
        Array.isArray(content) &&
        content.length === 1 &&
        content[0]?.type === "text" &&
        content[0].text === TEXT;
    }
  }
  if (!ok) throw new Error(`bad response to ${request.method} (id ${request.id}): ${JSON.stringify(response)}`);
}

/** An `McpServer` with the `echo` tool, as the SDK documents it (a zod input schema). */
function buildSdkServer(): McpServer {
  const server = new McpServer(SERVER_INFO, { capabilities: { tools: {} } });
  server.registerTool(
    ECHO.name,
    { description: ECHO.description, inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  return server;
}

/** Starts the four contenders; `close` ends the SDK's servers. */
async function contenders(compiledDir: string, errors: unknown[]) {
  const mod = (await import(pathToFileURL(join(compiledDir, "dispatch.js")).href)) as Partial<DispatchModule>;
  if (typeof mod.createServerDispatcher !== "function")
    throw new Error(`${join(compiledDir, "dispatch.js")} exports no createServerDispatcher`);
  const dispatcher = mod.createServerDispatcher({
    serverInfo: SERVER_INFO,
    tools: [
      {
        definition: ECHO,
        call: async (args) => ({ content: [{ type: "text", text: args["text"] as string }] }),
      },
    ],
    onError: (error) => errors.push(error),
  });

  // The SDK swallows what `onerror` throws: collect, and fail after the slice.
  const onerror = (error: Error) => errors.push(error);

  // Long-lived: serveStdio pins one server to a connection; the connection is an in-memory Transport.
  const pending = new Map<unknown, (message: JSONRPCMessage) => void>();
  const wire: Transport = {
    async start() {},
    async close() {
      wire.onclose?.();
    },
    async send(message) {
      const id = "id" in message ? message.id : undefined;
      const resolve = pending.get(id);
      if (resolve !== undefined) {
        pending.delete(id);
        resolve(message);
      }
    },
  };
  const stdio = serveStdio(buildSdkServer, { transport: wire, legacy: "reject", onerror });

  // The documented HTTP entry: the factory runs once per request.
  const http = createMcpHandler(buildSdkServer, { onerror });
  const headers = {
    "tools/list": {
      "content-type": "application/json",
      "mcp-protocol-version": PROTOCOL_VERSION,
      "mcp-method": "tools/list",
    },
    "tools/call": {
      "content-type": "application/json",
      "mcp-protocol-version": PROTOCOL_VERSION,
      "mcp-method": "tools/call",
      "mcp-name": ECHO.name,
    },
  } as const;

  const list: Contender[] = [
    {
      name: "ours handle(object)",
      note: "the request as a parsed object in, the response object out",
      sdk: false,
      serve: (request) => dispatcher.handle(request.object),
    },
    {
      name: "ours handle(JSON string)",
      note: "the request as JSON text in (handle parses it), the response object out",
      sdk: false,
      serve: (request) => dispatcher.handle(request.text),
    },
    {
      name: "SDK serveStdio",
      note: "serveStdio() over an in-memory Transport: one long-lived McpServer, objects in and out",
      sdk: true,
      serve: (request) =>
        new Promise((resolve, reject) => {
          const deliver = wire.onmessage;
          if (deliver === undefined) return reject(new Error("serveStdio has not started the transport"));
          pending.set(request.id, resolve);
          deliver(request.object as JSONRPCMessage);
        }),
    },
    {
      name: "SDK createMcpHandler().fetch",
      note: "the documented entry: a new McpServer per request; builds the Request, reads and parses the body",
      sdk: true,
      async serve(request) {
        const response = await http.fetch(
          new Request("http://localhost/mcp", { method: "POST", headers: headers[request.method], body: request.text }),
        );
        const body = await response.text();
        const type = response.headers.get("content-type");
        if (response.status !== 200 || type !== "application/json")
          throw new Error(`createMcpHandler answered ${response.status} (${String(type)}): ${body}`);
        return JSON.parse(body) as unknown;
      },
    },
  ];
  return {
    list,
    async close() {
      await http.close();
      await stdio.close();
    },
  };
}

/**
 * `global.gc` when Node runs with `--expose-gc`. Each slice starts with a minor collection
 * (a scavenge: no slice inherits another's young garbage), not the full one `timing.ts`
 * uses: after a forced full collection V8 scavenges about three times as often for a while,
 * which cut the SDK's allocation-heavy rows to less than half (theirs, not ours), measured.
 */
const collectGarbage = (globalThis as { gc?: (options: { type: "minor" | "major" }) => void }).gc;

async function runSlice(w: Workload, sliceMs: number) {
  collectGarbage?.({ type: "minor" });
  let ops = 0;
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  const deadline = start + sliceMs;
  let now = start;
  do {
    for (let k = 0; k < BATCH; k++) {
      const request = w.ring[w.next] as Message;
      w.next = (w.next + 1) % RING;
      verify(request, await w.contender.serve(request));
    }
    ops += BATCH;
    now = performance.now();
  } while (now < deadline);
  const cpu = process.cpuUsage(cpuStart);
  return { ops, wallMs: now - start, cpuMs: Math.max((cpu.user + cpu.system) / 1000, 1e-3) };
}

/**
 * Measures and prints the dispatch section. `compiledDir` holds the generated files
 * transpiled to `.js` (as `loadGenerated` leaves them); `source` says where they came from.
 */
export async function benchDispatch(compiledDir: string, source: string, options: TimingOptions): Promise<void> {
  const errors: unknown[] = [];
  const checkErrors = () => {
    if (errors.length > 0) {
      const first = errors[0];
      throw new Error(
        `dispatch: ${errors.length} server-side error(s) reported, first: ${first instanceof Error ? first.stack : String(first)}`,
      );
    }
  };
  const { list, close } = await contenders(compiledDir, errors);
  try {
    const rings = { "tools/list": buildRing("tools/list", 1), "tools/call": buildRing("tools/call", 1 + RING) };
    const workloads: Workload[] = list.flatMap((contender) =>
      METHODS.map((method) => ({ contender, method, ring: rings[method], next: 0 })),
    );
    for (const w of workloads)
      for (let i = 0; i < PRECHECK; i++) {
        const request = w.ring[i % RING] as Message;
        const answer = w.contender.serve(request);
        verify(
          request,
          await (i === 0 ? withTimeout(answer, 10_000, `${w.contender.name}: no answer to ${request.method}`) : answer),
        );
      }
    checkErrors();

    for (const w of workloads) await runSlice(w, options.warmupMs);
    const slices = new Map<Workload, Slice[]>(workloads.map((w) => [w, []]));
    let cpuMs = 0;
    let wallMs = 0;
    let requests = 0;
    for (let round = 0; round < options.rounds; round++) {
      for (let i = 0; i < workloads.length; i++) {
        const w = workloads[(i + round) % workloads.length] as Workload;
        const s = await runSlice(w, options.sliceMs);
        slices.get(w)?.push({ opsPerCpuSecond: (s.ops * 1000) / s.cpuMs, opsPerWallSecond: (s.ops * 1000) / s.wallMs });
        cpuMs += s.cpuMs;
        wallMs += s.wallMs;
        requests += s.ops;
      }
      checkErrors();
    }

    const stat = (k: Contender, method: Method, of: keyof Slice) => {
      const w = workloads.find((x) => x.contender === k && x.method === method);
      return (w === undefined ? [] : (slices.get(w) ?? [])).map((s) => s[of]);
    };
    const cell = (k: Contender, method: Method, of: keyof Slice) => {
      const rounds = stat(k, method, of);
      return [int(median(rounds)), `±${percent(spread(rounds) / 2)}`];
    };
    const ours = list.filter((k) => !k.sdk);
    const sdk = list.filter((k) => k.sdk);
    const vs = (a: Contender, b: Contender, method: Method) =>
      ratio(median(stat(a, method, "opsPerCpuSecond")) / median(stat(b, method, "opsPerCpuSecond")));
    const resultsChecked = process.env["NODE_ENV"] !== "production";
    console.log(
      [
        "",
        `Dispatch: generated createServerDispatcher().handle() (${source}, default options${resultsChecked ? "" : ", NODE_ENV=production: results not checked"})`,
        `  beside @modelcontextprotocol/server ${version("@modelcontextprotocol/server")} (zod ${version("zod")}), protocol ${PROTOCOL_VERSION}, one request at a time`,
        `  requests: tools/list, and tools/call of an echo tool ({ text: string } → one text content); every one carries the _meta`,
        `  protocol version and client capabilities; every response verified (a result, not an error, not isError) before and while timed`,
        `  median of ${options.rounds} interleaved rounds × ${options.sliceMs} ms, minor GC before each slice: ${collectGarbage ? "yes" : "no (run node with --expose-gc)"}; ± is half the max–min spread`,
        `  CPU time / wall time of the slices: ${percent(cpuMs / wallMs)}; ${int(requests)} timed requests, after ${int(PRECHECK)} verified warm-up requests per row`,
        "",
        ...table([
          [
            "contender",
            "tools/list req/CPU-s",
            "",
            "tools/call req/CPU-s",
            "",
            "tools/list req/wall-s",
            "tools/call req/wall-s",
          ],
          ...list.map((k) => [
            k.name,
            ...cell(k, "tools/list", "opsPerCpuSecond"),
            ...cell(k, "tools/call", "opsPerCpuSecond"),
            cell(k, "tools/list", "opsPerWallSecond")[0] as string,
            cell(k, "tools/call", "opsPerWallSecond")[0] as string,
          ]),
        ]),
        ...list.map((k) => `  ${k.name}: ${k.note}`),
        "",
        ...table([
          ["ratio, ours ÷ SDK (requests per CPU-second)", "tools/list", "tools/call"],
          ...ours.flatMap((a) =>
            sdk.map((b) => [`${a.name} ÷ ${b.name}`, vs(a, b, "tools/list"), vs(a, b, "tools/call")]),
          ),
        ]),
      ].join("\n"),
    );
  } finally {
    await close();
  }
}

/** `promise`, or a rejection after `ms` (so a server that never answers fails the bench instead of hanging it). */
async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function version(name: string): string {
  try {
    return (JSON.parse(readFileSync(join(ROOT, "node_modules", name, "package.json"), "utf8")) as { version: string })
      .version;
  } catch {
    return "?";
  }
}

/** Run alone: `node --expose-gc dist-bench/bench/dispatch.js [--rounds N] [--slice-ms N] [--warmup-ms N]` on the committed output. */
async function standalone(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const tmp = mkdtempSync(join(tmpdir(), "mcp-bench-dispatch-"));
  const load = loadavg()[0] ?? 0;
  try {
    const compiled = join(tmp, "compiled");
    await loadGenerated(COMMITTED_DIR, compiled);
    await benchDispatch(compiled, "committed generated/draft", options);
    console.log(`\nLoad average (1 min): ${load.toFixed(2)} at start, ${(loadavg()[0] ?? 0).toFixed(2)} at end.`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  try {
    await standalone();
  } catch (error) {
    console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
