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
 * Legacy rows (issue 11): `tools/call` of the same tool, protocol revision 2025-11-25, on a
 * session opened with `initialize` (and `notifications/initialized`) before anything is timed,
 * requests without the modern `_meta`:
 * - ours: the dual-era dispatcher (`generate()` of the draft and 2025-11-25 schemas, its
 *   top-level `dispatch.ts`), `handle(object | JSON string, { channel })` on one channel;
 * - SDK `serveStdio` with `legacy: 'serve'` (its default) over an in-memory `Transport`: the
 *   connection pinned to a 2025-era instance by the `initialize`;
 * - SDK `createMcpHandler(factory).fetch(Request)` in its default `legacy: 'stateless'` mode:
 *   a fresh instance per request, answered as an SSE stream (the body's `data:` line is parsed).
 * Legacy responses are verified as the modern ones, and must carry no `resultType` (2025-11-25
 * results have none).
 *
 * Every modern request carries `params._meta` with the protocol version and (empty) client
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
 * Run alone (on the committed `generated/draft`, and a fresh dual-era output for the legacy
 * rows): `npm run bench` once (it builds dist-bench/), then `node --expose-gc
 * dist-bench/bench/dispatch.js [--rounds 9] [--slice-ms 200] [--warmup-ms 200]`.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { McpServer, createMcpHandler, type JSONRPCMessage, type Transport } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import * as z from "zod";
import { loadGenerated, transpileGenerated } from "./generated.js";
import { parseOptions } from "./options.js";
import { COMMITTED_DIR, ROOT, SPEC_DIR } from "./paths.js";
import { int, percent, ratio, table } from "./report.js";
import { median, spread } from "./stats.js";
import type { TimingOptions } from "./timing.js";

/** This file's folder (`dist-bench/bench/`), where `gen-child.js` is. */
const HERE = dirname(fileURLToPath(import.meta.url));

const PROTOCOL_VERSION = "2026-07-28";
/** The legacy revision of the legacy rows. */
const LEGACY_VERSION = "2025-11-25";
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
/** `modern`: per-request `_meta`, no session; `legacy`: a 2025-11-25 session opened with `initialize`. */
type Era = "modern" | "legacy";

/** One request: its JSON text and a separately parsed object of it. */
interface Message {
  readonly id: number;
  readonly method: Method;
  readonly era: Era;
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
  }): { handle(message: unknown, context?: { readonly channel?: object }): Promise<unknown> };
}

/** One way of serving a request: sends it, awaits the answer, returns the response as an object. */
interface Contender {
  readonly name: string;
  /** What one request covers, printed under the table. */
  readonly note: string;
  readonly sdk: boolean;
  readonly era: Era;
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

function buildRing(method: Method, firstId: number, era: Era = "modern"): Message[] {
  return Array.from({ length: RING }, (_, i) => {
    const id = firstId + i;
    const call = { name: ECHO.name, arguments: { text: TEXT } };
    const params =
      era === "legacy"
        ? method === "tools/list"
          ? {}
          : call
        : method === "tools/list"
          ? { _meta: META }
          : { ...call, _meta: META };
    const text = JSON.stringify({ jsonrpc: "2.0", id, method, params });
    return { id, method, era, text, object: JSON.parse(text) as { [key: string]: unknown } };
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
    // A 2025-11-25 result has no resultType (the modern one's member is dropped for legacy clients).
    if (request.era === "legacy" && "resultType" in result) ok = false;
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

/**
 * An in-memory `Transport` for the SDK's `serveStdio`: `request` delivers a request object and
 * resolves with the response of its id; `notify` delivers a notification.
 */
function memoryConnection() {
  const pending = new Map<unknown, (message: JSONRPCMessage) => void>();
  const transport: Transport = {
    async start() {},
    async close() {
      transport.onclose?.();
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
  return {
    transport,
    request: (message: { readonly [key: string]: unknown }) =>
      new Promise<unknown>((resolve, reject) => {
        const deliver = transport.onmessage;
        if (deliver === undefined) return reject(new Error("serveStdio has not started the transport"));
        pending.set(message["id"], resolve);
        deliver(message as unknown as JSONRPCMessage);
      }),
    notify(message: { readonly [key: string]: unknown }): void {
      transport.onmessage?.(message as unknown as JSONRPCMessage);
    },
  };
}

/** The `initialize` request a 2025-11-25 client opens with (no modern `_meta`), and its `initialized` notification. */
const INITIALIZE = {
  jsonrpc: "2.0",
  id: "initialize",
  method: "initialize",
  params: { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: { name: "bench", version: "1.0.0" } },
} as const;
const INITIALIZED = { jsonrpc: "2.0", method: "notifications/initialized" } as const;

/** Throws unless `response` answers `initialize` with the legacy revision. */
function verifyInitialize(who: string, response: unknown): void {
  const version = (response as { result?: { protocolVersion?: unknown } } | undefined)?.result?.protocolVersion;
  if (version !== LEGACY_VERSION) throw new Error(`${who}: initialize answered ${JSON.stringify(response)}`);
}

/**
 * The legacy contenders, each on a session opened (`initialize`, `notifications/initialized`)
 * before anything is timed: ours (the dual-era `dispatch.js` in `dualDir`) and the SDK's.
 */
async function legacyContenders(dualDir: string, errors: unknown[]) {
  const mod = (await import(pathToFileURL(join(dualDir, "dispatch.js")).href)) as Partial<DispatchModule>;
  if (typeof mod.createServerDispatcher !== "function") throw new Error(`${join(dualDir, "dispatch.js")} exports no createServerDispatcher`);
  const dispatcher = mod.createServerDispatcher({
    serverInfo: SERVER_INFO,
    tools: [{ definition: ECHO, call: async (args) => ({ content: [{ type: "text", text: args["text"] as string }] }) }],
    onError: (error) => errors.push(error),
  });
  /** One legacy session of ours: its channel object, passed (in one context object) with every request. */
  const session = async (who: string) => {
    const context = { channel: {} };
    verifyInitialize(who, await withTimeout(dispatcher.handle(INITIALIZE, context), 10_000, `${who}: no answer to initialize`));
    await dispatcher.handle(INITIALIZED, context);
    return context;
  };
  const objectSession = await session("ours handle(object), legacy");
  const textSession = await session("ours handle(JSON string), legacy");

  const onerror = (error: Error) => errors.push(error);
  const connection = memoryConnection();
  const stdio = serveStdio(buildSdkServer, { transport: connection.transport, legacy: "serve", onerror });
  verifyInitialize("SDK serveStdio, legacy", await withTimeout(connection.request(INITIALIZE), 10_000, "SDK serveStdio: no answer to initialize"));
  connection.notify(INITIALIZED);

  // The documented HTTP entry in its default legacy mode: stateless, a fresh instance per request.
  const http = createMcpHandler(buildSdkServer, { onerror });
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": LEGACY_VERSION,
  } as const;

  const list: Contender[] = [
    {
      name: "ours handle(object), legacy session",
      note: "the dual-era dispatcher: the request as a parsed object in, with the session's channel; the response object out",
      sdk: false,
      era: "legacy",
      serve: (request) => dispatcher.handle(request.object, objectSession),
    },
    {
      name: "ours handle(JSON string), legacy session",
      note: "the dual-era dispatcher: the request as JSON text in (handle parses it), with the session's channel",
      sdk: false,
      era: "legacy",
      serve: (request) => dispatcher.handle(request.text, textSession),
    },
    {
      name: "SDK serveStdio, legacy session",
      note: "serveStdio() (legacy: 'serve') over an in-memory Transport: the 2025-era McpServer the initialize pinned, objects in and out",
      sdk: true,
      era: "legacy",
      serve: (request) => connection.request(request.object),
    },
    {
      name: "SDK createMcpHandler().fetch, legacy stateless",
      note: "the documented entry, legacy: 'stateless' (its default): a new McpServer per request, no session; the SSE body's data line parsed",
      sdk: true,
      era: "legacy",
      async serve(request) {
        const response = await http.fetch(new Request("http://localhost/mcp", { method: "POST", headers, body: request.text }));
        const body = await response.text();
        const data = /^data: (.*)$/m.exec(body)?.[1];
        if (response.status !== 200 || data === undefined) throw new Error(`createMcpHandler (legacy) answered ${response.status}: ${body}`);
        return JSON.parse(data) as unknown;
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
  const connection = memoryConnection();
  const stdio = serveStdio(buildSdkServer, { transport: connection.transport, legacy: "reject", onerror });

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
      era: "modern",
      serve: (request) => dispatcher.handle(request.object),
    },
    {
      name: "ours handle(JSON string)",
      note: "the request as JSON text in (handle parses it), the response object out",
      sdk: false,
      era: "modern",
      serve: (request) => dispatcher.handle(request.text),
    },
    {
      name: "SDK serveStdio",
      note: "serveStdio() over an in-memory Transport: one long-lived McpServer, objects in and out",
      sdk: true,
      era: "modern",
      serve: (request) => connection.request(request.object),
    },
    {
      name: "SDK createMcpHandler().fetch",
      note: "the documented entry: a new McpServer per request; builds the Request, reads and parses the body",
      sdk: true,
      era: "modern",
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
export async function benchDispatch(compiledDir: string, source: string, options: TimingOptions, dual?: DualEra): Promise<void> {
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
  const legacy = await openLegacy(dual, errors);
  try {
    const rings = { "tools/list": buildRing("tools/list", 1), "tools/call": buildRing("tools/call", 1 + RING) };
    const workloads: Workload[] = [
      ...list.flatMap((contender) => METHODS.map((method) => ({ contender, method, ring: rings[method], next: 0 }))),
      ...legacy.workloads,
    ];
    for (const w of workloads.filter((w) => w.contender.era === "modern"))
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
        "",
        ...legacyReport(legacy, (k, of) => stat(k, "tools/call", of)),
      ].join("\n"),
    );
  } finally {
    await close();
    await legacy.close();
  }
}

/** The legacy table (timed in the same interleaved rounds as the modern rows), or why it was not run. */
function legacyReport(
  legacy: { readonly workloads: readonly Workload[]; readonly skipped: string | undefined; readonly source: string | undefined },
  stat: (k: Contender, of: keyof Slice) => number[],
): string[] {
  const title = `Legacy: tools/call, protocol ${LEGACY_VERSION}, on a session opened with initialize (no modern _meta; the same echo tool)`;
  if (legacy.skipped !== undefined) return [title, `  NOT RUN: ${legacy.skipped}`];
  const list = legacy.workloads.map((w) => w.contender);
  const cpu = (k: Contender) => median(stat(k, "opsPerCpuSecond"));
  return [
    title,
    `  ours: the dual-era dispatcher (${legacy.source ?? "?"}); timed in the same rounds as the rows above; no resultType in any result`,
    "",
    ...table([
      ["contender", "tools/call req/CPU-s", "", "tools/call req/wall-s"],
      ...list.map((k) => {
        const rounds = stat(k, "opsPerCpuSecond");
        return [k.name, int(median(rounds)), `±${percent(spread(rounds) / 2)}`, int(median(stat(k, "opsPerWallSecond")))];
      }),
    ]),
    ...list.map((k) => `  ${k.name}: ${k.note}`),
    "",
    ...table([
      ["ratio, ours ÷ SDK, legacy (requests per CPU-second)", "tools/call"],
      ...list.filter((a) => !a.sdk).flatMap((a) => list.filter((b) => b.sdk).map((b) => [`${a.name} ÷ ${b.name}`, ratio(cpu(a) / cpu(b))])),
    ]),
  ];
}

/** Where the dual-era dispatcher comes from: its transpiled folder (holding `dispatch.js`) and a label; or why there is none. */
export type DualEra = { readonly compiledDir: string; readonly source: string } | { readonly failed: string };

/**
 * Generates the dual-era output (the draft, then 2025-11-25, `--docs tags`) with `gen-child.js`
 * in a child process (so the generator's memory never weighs on the timed process) into
 * `tmp/dual`, and transpiles it into `tmp/dual-compiled`. Never throws: a failure is returned.
 */
export function prepareDualEra(tmp: string): DualEra {
  const sourceDir = join(tmp, "dual");
  const child = spawnSync(process.execPath, [join(HERE, "gen-child.js"), SPEC_DIR, "draft,2025-11-25", sourceDir], { encoding: "utf8" });
  if (child.status !== 0) return { failed: `generating the dual-era output (draft, 2025-11-25) failed: ${(child.stderr || child.stdout).trim().split("\n")[0] ?? ""}` };
  const compiledDir = join(tmp, "dual-compiled");
  transpileGenerated(sourceDir, compiledDir);
  return { compiledDir, source: "fresh generate() of the draft and 2025-11-25 schemas" };
}

/** The legacy workloads, prechecked (`PRECHECK` verified requests each); none, with the reason, when they cannot run. */
async function openLegacy(dual: DualEra | undefined, errors: unknown[]) {
  const none = (skipped: string) => ({ workloads: [] as Workload[], skipped, source: undefined as string | undefined, close: async () => {} });
  if (dual === undefined) return none("no dual-era output was given");
  if ("failed" in dual) return none(dual.failed);
  let opened: Awaited<ReturnType<typeof legacyContenders>> | undefined;
  try {
    opened = await legacyContenders(dual.compiledDir, errors);
    const ring = buildRing("tools/call", 1 + 2 * RING, "legacy");
    const workloads: Workload[] = opened.list.map((contender) => ({ contender, method: "tools/call", ring, next: 0 }));
    for (const w of workloads)
      for (let i = 0; i < PRECHECK; i++) {
        const request = w.ring[i % RING] as Message;
        const answer = w.contender.serve(request);
        verify(request, await (i === 0 ? withTimeout(answer, 10_000, `${w.contender.name}: no answer to ${request.method}`) : answer));
      }
    if (errors.length > 0) throw errors[0];
    const close = opened.close;
    return { workloads, skipped: undefined, source: dual.source, close };
  } catch (error) {
    // The modern figures still run; the reason is printed where the legacy table would be.
    errors.length = 0;
    await opened?.close().catch(() => {});
    return none(error instanceof Error ? error.message : String(error));
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
    await benchDispatch(compiled, "committed generated/draft", options, prepareDualEra(tmp));
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
