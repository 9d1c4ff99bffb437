/**
 * The generated dispatcher (`dispatch.ts`) and the scaffold's transports: raw JSON-RPC
 * messages into `handle()`, over stdio and over Streamable HTTP, each with the exact answer
 * expected; cancellation, duplicate ids, capability errors, handler failures, subscriptions;
 * hostile messages; and the dispatcher of a revision with an `initialize` handshake.
 */
import { writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import { compileDiagnostics, generateInto, ROOT, SPEC_DIR } from "./support/corpus.js";

type Json = { [key: string]: unknown };
type Response = { jsonrpc: "2.0"; id?: string | number; result?: Json; error?: { code: number; message: string; data?: unknown } };
interface Dispatcher {
  handle(message: unknown, context?: object): Promise<Response | undefined>;
  publish(method: string, params?: Json): number;
  closeSubscriptions(): void;
  capabilities: Json;
  findTool(name: string): Json | undefined;
}
interface DispatchModule {
  createServerDispatcher(options: Json): Dispatcher;
  HandlerError: new (code: number, message: string, data?: unknown) => Error;
  toolError(text: string): Json;
  checkToolArguments(schema: unknown, args: unknown): string | undefined;
  checkStructuredContent(schema: unknown, value: unknown): string | undefined;
  DISPATCH_PROTOCOL_VERSION: string;
}
interface HttpModule {
  serveHttp(dispatcher: Dispatcher, options?: Json): Promise<{ url: string; close(): Promise<void> }>;
  decodeHeaderValue(value: string): string | undefined;
  createHttpHandler(dispatcher: Dispatcher, options?: Json): unknown;
}
interface StdioModule {
  serveStdio(dispatcher: Dispatcher, options: Json): { closed: Promise<void> };
}

const VERSION = "2026-07-28";
const META = { "io.modelcontextprotocol/protocolVersion": VERSION, "io.modelcontextprotocol/clientCapabilities": {} };
const SERVER_INFO = { name: "test-server", version: "1.0.0" };
const COMPLETE = { resultType: "complete", _meta: { "io.modelcontextprotocol/serverInfo": SERVER_INFO } };
const CACHED = { ttlMs: 0, cacheScope: "private" };
const ECHO = {
  name: "echo",
  description: "Echoes text",
  inputSchema: { type: "object", properties: { text: { type: "string", "x-mcp-header": "Text" } }, required: ["text"] },
};

/** Generates the draft's modules; loads them, and the runtime's transports, through vitest. */
async function load(): Promise<{ dispatch: DispatchModule; http: HttpModule; stdio: StdioModule }> {
  const dir = await generateInto("dispatch", { schema: { specDir: SPEC_DIR, version: "draft" }, docs: "none" });
  return {
    dispatch: (await import(join(dir, "dispatch.ts"))) as DispatchModule,
    http: (await import(join(ROOT, "runtime", "http.ts"))) as HttpModule,
    stdio: (await import(join(ROOT, "runtime", "stdio.ts"))) as StdioModule,
  };
}

let m: { dispatch: DispatchModule; http: HttpModule; stdio: StdioModule };
let logged: { error: unknown; info: Json }[] = [];

/** The dispatcher the message table runs against: an echo tool, a few handlers that misbehave on purpose. */
function makeDispatcher(extra: Json = {}): Dispatcher {
  const { createServerDispatcher, HandlerError } = m.dispatch;
  return createServerDispatcher({
    serverInfo: SERVER_INFO,
    tools: [{ definition: ECHO, call: (args: { text: string }) => ({ content: [{ type: "text", text: args.text }] }) }],
    handlers: {
      "resources/list": () => {
        throw new Error("secret database password in /etc/secret");
      },
      "resources/templates/list": () => {
        throw new HandlerError(-32050, "templates are resting", { retryAfterMs: 10 });
      },
      "resources/read": (params: { uri: string }) => {
        if (params.uri === "test://bad") return { contents: "not an array" };
        if (params.uri === "test://empty-input") return { resultType: "input_required" };
        if (params.uri === "test://elicit")
          return {
            resultType: "input_required",
            inputRequests: { name: { method: "elicitation/create", params: { mode: "form", message: "Name?", requestedSchema: { type: "object", properties: {} } } } },
          };
        throw new HandlerError(-32602, "Resource not found", { uri: params.uri });
      },
      "completion/complete": (_params: unknown, context: { requireClientCapabilities(c: Json): void }) => {
        context.requireClientCapabilities({ sampling: {} });
        return { completion: { values: [] } };
      },
    },
    onError: (error: unknown, info: Json) => logged.push({ error, info }),
    ...extra,
  });
}

const request = (id: unknown, method: string, params: Json = {}) => ({ jsonrpc: "2.0", id, method, params: { _meta: META, ...params } });

/** Raw message → the exact response (`undefined`: no response). */
const TABLE: { name: string; message: unknown; expected: Response | undefined }[] = [
  { name: "text that is not JSON", message: "{oops", expected: { jsonrpc: "2.0", error: { code: -32700, message: "Parse error: the message is not JSON" } } },
  {
    name: "a batch",
    message: JSON.stringify([request(1, "tools/list")]),
    expected: { jsonrpc: "2.0", error: { code: -32600, message: "Invalid request: batches are not supported" } },
  },
  {
    name: "id null",
    message: '{"jsonrpc":"2.0","id":null,"method":"tools/list"}',
    expected: { jsonrpc: "2.0", error: { code: -32600, message: "Invalid request: id must be a string or an integer" } },
  },
  {
    // JSON allows it; JavaScript reads it rounded, and an answer would carry another id (helper-107).
    name: "id an integer past 2^53",
    message: '{"jsonrpc":"2.0","id":9007199254740993,"method":"tools/list"}',
    expected: { jsonrpc: "2.0", error: { code: -32600, message: "Invalid request: id must be a string or an integer (of at most 2^53 - 1 either side of zero, which JavaScript reads exactly)" } },
  },
  { name: "no id: a notification, never answered", message: '{"jsonrpc":"2.0","method":"tools/list"}', expected: undefined },
  {
    name: "no method",
    message: '{"jsonrpc":"2.0","id":3,"params":{}}',
    expected: { jsonrpc: "2.0", id: 3, error: { code: -32600, message: "Invalid request: method must be a string" } },
  },
  {
    name: "wrong jsonrpc",
    message: '{"jsonrpc":"1.0","id":"a","method":"tools/list"}',
    expected: { jsonrpc: "2.0", id: "a", error: { code: -32600, message: 'Invalid request: jsonrpc must be "2.0"' } },
  },
  {
    name: "not an object",
    message: "42",
    expected: { jsonrpc: "2.0", error: { code: -32600, message: "Invalid request: a message is a JSON object" } },
  },
  {
    name: "an unknown method",
    message: JSON.stringify(request(7, "nope/nope")),
    expected: { jsonrpc: "2.0", id: 7, error: { code: -32601, message: 'Method not found: "nope/nope"' } },
  },
  {
    name: "a method this revision removed",
    message: JSON.stringify(request(8, "logging/setLevel", { level: "info" })),
    expected: { jsonrpc: "2.0", id: 8, error: { code: -32601, message: 'Method not found: "logging/setLevel"' } },
  },
  {
    name: "initialize as a modern request (with the per-request _meta version): a removed method, -32601",
    message: JSON.stringify(request(29, "initialize", { protocolVersion: "2026-07-28", capabilities: {}, clientInfo: { name: "c", version: "1" } })),
    expected: { jsonrpc: "2.0", id: 29, error: { code: -32601, message: 'Method not found: "initialize"' } },
  },
  {
    name: "a legacy client's initialize: -32022 naming the versions served (draft basic/versioning)",
    message: JSON.stringify({ jsonrpc: "2.0", id: 28, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } } }),
    expected: {
      jsonrpc: "2.0",
      id: 28,
      error: {
        code: -32022,
        message: 'Unsupported protocol version: "2025-11-25"; this server supports 2026-07-28 (per-request _meta, without the initialize handshake)',
        data: { supported: ["2026-07-28"], requested: "2025-11-25" },
      },
    },
  },
  {
    name: "a method whose capability is not advertised",
    message: JSON.stringify(request(9, "prompts/list")),
    expected: { jsonrpc: "2.0", id: 9, error: { code: -32601, message: 'Method not found: "prompts/list" (the server does not advertise prompts)' } },
  },
  {
    name: "tools/call of a tool the server does not have",
    message: JSON.stringify(request(10, "tools/call", { name: "nope", arguments: {} })),
    expected: { jsonrpc: "2.0", id: 10, error: { code: -32602, message: 'Unknown tool: "nope"' } },
  },
  {
    // pagination: invalid cursors SHOULD be -32602; the built-in list gives every tool on one page, so no cursor is its own.
    name: "the built-in tools/list given a cursor it never gave",
    message: JSON.stringify(request(30, "tools/list", { cursor: "" })),
    expected: { jsonrpc: "2.0", id: 30, error: { code: -32602, message: "Invalid cursor: this server lists all its tools on one page and gave no cursor; list them without one" } },
  },
  {
    name: "tools/call with arguments failing inputSchema",
    message: JSON.stringify(request(11, "tools/call", { name: "echo", arguments: { text: 5 } })),
    expected: {
      jsonrpc: "2.0",
      id: 11,
      result: { content: [{ type: "text", text: 'Invalid arguments for tool "echo": /text: expected string, got integer' }], isError: true, ...COMPLETE },
    },
  },
  {
    name: "tools/call",
    message: JSON.stringify(request(12, "tools/call", { name: "echo", arguments: { text: "hi" } })),
    expected: { jsonrpc: "2.0", id: 12, result: { content: [{ type: "text", text: "hi" }], ...COMPLETE } },
  },
  {
    name: "params failing the schema",
    message: JSON.stringify(request(13, "tools/call", { name: 5 })),
    expected: {
      jsonrpc: "2.0",
      id: 13,
      error: { code: -32602, message: "Invalid params: /params/name: expected string, got 5", data: { issues: [{ path: "/params/name", message: "expected string, got 5" }] } },
    },
  },
  {
    name: "a request without the required _meta keys",
    message: '{"jsonrpc":"2.0","id":14,"method":"server/discover","params":{}}',
    expected: {
      jsonrpc: "2.0",
      id: 14,
      error: {
        code: -32602,
        message:
          "Invalid request _meta: missing required key io.modelcontextprotocol/protocolVersion; missing required key io.modelcontextprotocol/clientCapabilities",
        data: {
          problems: [
            { key: "io.modelcontextprotocol/protocolVersion", problem: "missing", message: "missing required key io.modelcontextprotocol/protocolVersion" },
            {
              key: "io.modelcontextprotocol/clientCapabilities",
              problem: "missing",
              message: "missing required key io.modelcontextprotocol/clientCapabilities",
            },
          ],
        },
      },
    },
  },
  {
    name: "an unsupported protocol version",
    message: JSON.stringify({ jsonrpc: "2.0", id: 15, method: "tools/list", params: { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": "1999-01-01" } } }),
    expected: {
      jsonrpc: "2.0",
      id: 15,
      error: { code: -32022, message: 'Unsupported protocol version: "1999-01-01"', data: { supported: [VERSION], requested: "1999-01-01" } },
    },
  },
  {
    name: "server/discover",
    message: JSON.stringify(request("d", "server/discover")),
    expected: {
      jsonrpc: "2.0",
      id: "d",
      result: {
        supportedVersions: [VERSION],
        capabilities: { resources: {}, completions: {}, tools: {} },
        ...CACHED,
        ...COMPLETE,
      },
    },
  },
  {
    name: "tools/list, with caching fields and serverInfo filled in",
    message: JSON.stringify(request(16, "tools/list")),
    expected: { jsonrpc: "2.0", id: 16, result: { tools: [ECHO], ...CACHED, ...COMPLETE } },
  },
  {
    name: "a handler that throws: -32603, nothing of it on the wire",
    message: JSON.stringify(request(17, "resources/list")),
    expected: { jsonrpc: "2.0", id: 17, error: { code: -32603, message: "Internal error" } },
  },
  {
    name: "a handler that throws HandlerError",
    message: JSON.stringify(request(18, "resources/templates/list")),
    expected: { jsonrpc: "2.0", id: 18, error: { code: -32050, message: "templates are resting", data: { retryAfterMs: 10 } } },
  },
  {
    name: "resource not found",
    message: JSON.stringify(request(19, "resources/read", { uri: "test://missing" })),
    expected: { jsonrpc: "2.0", id: 19, error: { code: -32602, message: "Resource not found", data: { uri: "test://missing" } } },
  },
  {
    name: "a malformed result: a server bug, -32603",
    message: JSON.stringify(request(20, "resources/read", { uri: "test://bad" })),
    expected: { jsonrpc: "2.0", id: 20, error: { code: -32603, message: "Internal error" } },
  },
  {
    name: "an InputRequiredResult with neither inputRequests nor requestState: -32603",
    message: JSON.stringify(request(23, "resources/read", { uri: "test://empty-input" })),
    expected: { jsonrpc: "2.0", id: 23, error: { code: -32603, message: "Internal error" } },
  },
  {
    name: "a handler needing a client capability the request did not declare",
    message: JSON.stringify(request(21, "completion/complete", { ref: { type: "ref/prompt", name: "p" }, argument: { name: "a", value: "" } })),
    expected: {
      jsonrpc: "2.0",
      id: 21,
      error: { code: -32021, message: "Missing required client capability: sampling", data: { requiredCapabilities: { sampling: {} } } },
    },
  },
  {
    name: "an input request for a client capability the request did not declare",
    message: JSON.stringify(request(22, "resources/read", { uri: "test://elicit" })),
    expected: {
      jsonrpc: "2.0",
      id: 22,
      error: { code: -32021, message: "Missing required client capability: elicitation", data: { requiredCapabilities: { elicitation: {} } } },
    },
  },
];

beforeAll(async () => {
  m = await load();
});

describe("handle(): raw messages and their exact answers", () => {
  for (const row of TABLE) {
    it(row.name, async () => {
      logged = [];
      expect(await makeDispatcher().handle(row.message)).toEqual(row.expected);
    });
  }

  it("tells onError about server-side failures, with the exception, and nothing about client mistakes", async () => {
    logged = [];
    const d = makeDispatcher();
    await d.handle(request(1, "resources/list"));
    await d.handle(request(2, "resources/read", { uri: "test://bad" }));
    await d.handle(request(3, "nope"));
    await d.handle("{oops");
    expect(logged.map((l) => l.info)).toEqual([
      { method: "resources/list", id: 1, reason: "handler-threw" },
      { method: "resources/read", id: 2, reason: "invalid-result" },
    ]);
    expect(String(logged[0]!.error)).toContain("secret database password");
    expect(String(logged[1]!.error)).toContain("/contents");
  });

  it("lets an InputRequiredResult through when the client declared the capability", async () => {
    const message = { jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: "test://elicit", _meta: { ...META, "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } } } };
    const response = await makeDispatcher().handle(message);
    expect(response?.result?.["resultType"]).toBe("input_required");
    expect(response?.result).not.toHaveProperty("ttlMs");
  });

  it("marks the result of a retry (inputResponses or requestState) immediately stale and private, whatever options.cache and the handler say (helper-129: a resources/read answered after a PIN was asked went out public for an hour, and the SDK v2 client served it again without asking)", async () => {
    const asked = { resultType: "input_required", inputRequests: { pin: { method: "elicitation/create", params: { mode: "form", message: "PIN?", requestedSchema: { type: "object", properties: {} } } } } };
    const d = makeDispatcher({
      cache: { ttlMs: 3_600_000, cacheScope: "public" },
      handlers: {
        "resources/read": (_params: unknown, context: { inputResponses?: Json; requestState?: string }) =>
          context.inputResponses === undefined && context.requestState === undefined ? asked : { contents: [], ttlMs: 60_000, cacheScope: "public" },
      },
    });
    const meta = { ...META, "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } };
    const read = (id: number, extra: Json) => d.handle({ jsonrpc: "2.0", id, method: "resources/read", params: { uri: "bank://balance", _meta: meta, ...extra } });
    expect((await read(1, {}))?.result).not.toHaveProperty("ttlMs");
    const answers = { pin: { action: "accept", content: { pin: "1234" } } };
    for (const [id, extra] of [[2, { inputResponses: answers }], [3, { requestState: "s" }], [4, { inputResponses: answers, requestState: "s" }]] as const) {
      expect((await read(id, extra))?.result).toMatchObject({ resultType: "complete", ttlMs: 0, cacheScope: "private" });
    }
    // A first request is unchanged: the handler's own fields, else options.cache.
    expect((await makeDispatcher({ cache: { ttlMs: 5, cacheScope: "public" }, handlers: { "resources/read": () => ({ contents: [] }) } }).handle(request(5, "resources/read", { uri: "x://y" })))?.result).toMatchObject({ ttlMs: 5, cacheScope: "public" });
  });

  it("refuses an id already in flight on the same channel, without disturbing the first; other channels are separate", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const d = makeDispatcher({ handlers: { "tools/list": async () => (await gate, { tools: [] }) } });
    const channel = {};
    const first = d.handle(request(1, "tools/list"), { channel });
    const duplicate = await d.handle(request(1, "tools/list"), { channel });
    expect(duplicate).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32600, message: "Invalid request: id 1 is already in flight" } });
    const elsewhere = d.handle(request(1, "tools/list"), { channel: {} });
    // A string id "1" and a number id 1 are different ids (both in flight at once), and a message prints each as JSON does.
    const stringId = d.handle(request("1", "tools/list"), { channel });
    const stringDuplicate = await d.handle(request("1", "tools/list"), { channel });
    expect(stringDuplicate).toEqual({ jsonrpc: "2.0", id: "1", error: { code: -32600, message: 'Invalid request: id "1" is already in flight' } });
    release();
    expect((await first)?.result?.["tools"]).toEqual([]);
    expect((await elsewhere)?.result?.["tools"]).toEqual([]);
    expect((await stringId)?.result?.["tools"]).toEqual([]);
  });

  it("notifications/cancelled aborts the handler's signal and suppresses its late response", async () => {
    let aborted = false;
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => (started = resolve));
    const d = makeDispatcher({
      handlers: {
        "tools/list": (_p: unknown, context: { signal: AbortSignal }) =>
          new Promise((resolve) => {
            started();
            context.signal.addEventListener("abort", () => {
              aborted = true;
              resolve({ tools: [] });
            });
          }),
      },
    });
    const channel = {};
    const pending = d.handle(request(5, "tools/list"), { channel });
    await running;
    expect(await d.handle({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 5, reason: "user" } }, { channel })).toBeUndefined();
    expect(await pending).toBeUndefined();
    expect(aborted).toBe(true);
  });

  it("sends request-scoped notifications through the transport's notify, only while the request is open", async () => {
    const sent: Json[] = [];
    let late: (() => void) | undefined;
    const d = makeDispatcher({
      handlers: {
        "tools/list": (_p: unknown, context: { notify(method: string, params: Json): void }) => {
          context.notify("notifications/progress", { progressToken: "t", progress: 1, total: 2 });
          late = () => context.notify("notifications/progress", { progressToken: "t", progress: 2, total: 2 });
          return { tools: [] };
        },
      },
    });
    await d.handle(request(1, "tools/list", { _meta: { ...META, progressToken: "t" } }), { notify: (n: Json) => sent.push(n) });
    late!();
    expect(sent).toEqual([{ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "t", progress: 1, total: 2 } }]);
  });

  it("a method it lacks, asked with a _meta version that is no string, is told what is wrong with the _meta, not that the method is not found (helper-115)", async () => {
    const d = makeDispatcher();
    const malformed = { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": 42 } };
    for (const method of ["initialize", "foo/bar"]) {
      const answer = (await d.handle({ jsonrpc: "2.0", id: 1, method, params: malformed })) as { error?: { code: number; message: string } };
      expect([method, answer.error?.code, answer.error?.message]).toEqual([method, -32602, "Invalid request _meta: io.modelcontextprotocol/protocolVersion is malformed: expected string"]);
    }
    // With a version that is a string, a method the revision lacks is not found, as before.
    expect(((await d.handle(request(2, "foo/bar"))) as { error?: { code: number } }).error?.code).toBe(-32601);
  });

  it("gives the handler the request's progressToken: a string, a number, or undefined when it gave none", async () => {
    const tokens: unknown[] = [];
    const d = makeDispatcher({
      handlers: {
        "tools/list": (_p: unknown, context: { progressToken: unknown }) => {
          tokens.push(context.progressToken);
          return { tools: [] };
        },
      },
    });
    await d.handle(request(1, "tools/list", { _meta: { ...META, progressToken: "t" } }));
    await d.handle(request(2, "tools/list", { _meta: { ...META, progressToken: 7 } }));
    await d.handle(request(3, "tools/list"));
    expect(tokens).toEqual(["t", 7, undefined]);
  });

  it("options.capabilities leaving out a handler's capability: onError hears of it once, when the dispatcher is made, and the method is -32601", async () => {
    const reports: [string, Json][] = [];
    const onError = (error: Error, info: Json) => reports.push([error.message, info]);
    const d = makeDispatcher({ capabilities: { completions: {} }, onError });
    expect(reports).toEqual([
      [
        "options.capabilities leaves out resources, so the resources/list handler is never called (resources/list is answered -32601): add resources to options.capabilities, or leave options.capabilities out to derive the capabilities from the handlers",
        { method: "resources/list", reason: "unadvertised-handler" },
      ],
      ...["resources/templates/list", "resources/read"].map((method) => [
        `options.capabilities leaves out resources, so the ${method} handler is never called (${method} is answered -32601): add resources to options.capabilities, or leave options.capabilities out to derive the capabilities from the handlers`,
        { method, reason: "unadvertised-handler" },
      ]),
      [
        "options.capabilities leaves out tools, so the tools of options.tools are never listed or called (tools/list is answered -32601): add tools to options.capabilities, or leave options.capabilities out to derive the capabilities from the handlers",
        { method: "tools/list", reason: "unadvertised-handler" },
      ],
    ]);
    expect((await d.handle(request(1, "resources/read", { uri: "test://missing" })))?.error?.code).toBe(-32601);
    expect(reports).toHaveLength(4);
    // Listed, or derived: nothing to say.
    makeDispatcher({ capabilities: { completions: {}, resources: {}, tools: {} }, onError });
    makeDispatcher({ onError });
    expect(reports).toHaveLength(4);
  });

  it("subscriptions/listen: acknowledges what the server can honour, delivers published notifications, ends with a result", async () => {
    const d = makeDispatcher({ capabilities: { tools: { listChanged: true }, resources: {} } });
    const sent: Json[] = [];
    const pending = d.handle(request(9, "subscriptions/listen", { notifications: { toolsListChanged: true, promptsListChanged: true } }), {
      notify: (n: Json) => sent.push(n),
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(sent).toEqual([
      {
        jsonrpc: "2.0",
        method: "notifications/subscriptions/acknowledged",
        params: { _meta: { "io.modelcontextprotocol/subscriptionId": 9 }, notifications: { toolsListChanged: true } },
      },
    ]);
    expect(d.publish("notifications/prompts/list_changed")).toBe(0);
    expect(d.publish("notifications/tools/list_changed")).toBe(1);
    expect(sent[1]).toEqual({ jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: { "io.modelcontextprotocol/subscriptionId": 9 } } });
    d.closeSubscriptions();
    expect(await pending).toEqual({
      jsonrpc: "2.0",
      id: 9,
      result: { resultType: "complete", _meta: { "io.modelcontextprotocol/subscriptionId": 9, "io.modelcontextprotocol/serverInfo": SERVER_INFO } },
    });
    expect(d.publish("notifications/tools/list_changed")).toBe(0);
  });

  it("answers -32603 (with the id, logged) for results and error data that are not JSON data: too deep for JSON.stringify, bigint, cycles, NaN, class instances", async () => {
    logged = [];
    const cyclic: Json = { content: [] };
    cyclic["self"] = cyclic;
    const shared = { type: "text", text: "same object twice is fine" };
    let deep: Json = {};
    for (let i = 0; i < 5000; i++) deep = { a: deep };
    const results: unknown[] = [
      { content: [], structuredContent: deep },
      { content: [], structuredContent: { id: 9007199254740993n } },
      cyclic,
      { content: [], structuredContent: { n: Number.NaN } },
      { content: [], structuredContent: { at: new Date(0) } },
    ];
    const { HandlerError } = m.dispatch;
    for (const [i, result] of results.entries()) {
      const d = makeDispatcher({ tools: [{ definition: { ...ECHO, inputSchema: { type: "object" } }, call: () => result }] });
      expect(await d.handle(request(i, "tools/call", { name: "echo", arguments: {} }))).toEqual({ jsonrpc: "2.0", id: i, error: { code: -32603, message: "Internal error" } });
    }
    const ok = makeDispatcher({ tools: [{ definition: { ...ECHO, inputSchema: { type: "object" } }, call: () => ({ content: [shared, shared] }) }] });
    expect((await ok.handle(request(9, "tools/call", { name: "echo", arguments: {} })))?.result?.["content"]).toEqual([shared, shared]);
    const badData = makeDispatcher({
      handlers: {
        "tools/list": () => {
          throw new HandlerError(-32050, "bad data", { n: 1n });
        },
      },
    });
    expect(await badData.handle(request(10, "tools/list"))).toEqual({ jsonrpc: "2.0", id: 10, error: { code: -32603, message: "Internal error" } });
    expect(logged.map((l) => l.info["reason"])).toEqual(Array(6).fill("invalid-result"));
    expect(String(logged[5]!.error)).toBe("TypeError: the tools/list handler threw a HandlerError whose data is not JSON data");
    // A code that is no integer, or a message that is no string, is named in what onError gets, not taken for the handler's own failure.
    const noText = Object.defineProperty(new HandlerError(-32050, "x"), "message", { value: 7 });
    for (const [error, why] of [
      [new HandlerError(1.5, "x"), "code 1.5 is not an integer"],
      [new HandlerError("-32050" as unknown as number, "x"), "code (a string) is not an integer"],
      [noText, "message is not a string"],
    ] as const) {
      logged.length = 0;
      const wrong = makeDispatcher({ handlers: { "tools/list": () => Promise.reject(error) } });
      expect(await wrong.handle(request(12, "tools/list"))).toEqual({ jsonrpc: "2.0", id: 12, error: { code: -32603, message: "Internal error" } });
      expect(logged.map((l) => [String(l.error), l.info["reason"]])).toEqual([["TypeError: the tools/list handler threw a HandlerError whose " + why, "invalid-result"]]);
    }
    // A HandlerError's code read once: a getter answering a second read with a bigint cannot reach the answer.
    let reads = 0;
    const shifting = new HandlerError(-32050, "shifting");
    Object.defineProperty(shifting, "code", { get: () => (reads++ === 0 ? -32050 : 1n) });
    const shifty = makeDispatcher({ handlers: { "tools/list": () => Promise.reject(shifting) } });
    const answer = await shifty.handle(request(11, "tools/list"));
    expect(answer).toEqual({ jsonrpc: "2.0", id: 11, error: { code: -32050, message: "shifting" } });
    expect(JSON.parse(JSON.stringify(answer))).toEqual(answer);
  });

  it("answers a cancelled request at once, frees its id, even when the handler ignores its signal", async () => {
    const d = makeDispatcher({ handlers: { "tools/list": () => new Promise(() => {}) } });
    const channel = {};
    const pending = d.handle(request(1, "tools/list"), { channel });
    await new Promise((r) => setTimeout(r, 5));
    await d.handle({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } }, { channel });
    // The id is free again at once: the next request with it is not refused as a duplicate (it hangs like the first, so cancel it too).
    const again = d.handle(request(1, "tools/list"), { channel });
    expect(await pending).toBeUndefined();
    await new Promise((r) => setTimeout(r, 5));
    await d.handle({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } }, { channel });
    expect(await again).toBeUndefined();
  });

  it("answers hostile messages without throwing: deep nesting, __proto__ methods and keys, cycles, getters that throw", async () => {
    const d = makeDispatcher();
    let deep: Json = {};
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    const cyclic: Json = { jsonrpc: "2.0", id: 6, method: "tools/call" };
    cyclic["params"] = { _meta: META, name: "echo", arguments: cyclic };
    const getter = Object.defineProperty({ jsonrpc: "2.0", id: 2 }, "method", {
      enumerable: true,
      get() {
        throw new Error("boom");
      },
    });
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    const sparse: unknown[] = [];
    sparse.length = 2 ** 32 - 1;
    const answers = await Promise.all([
      d.handle(request(1, "tools/call", { name: "echo", arguments: { text: "x", deep } })),
      d.handle(request(2, "__proto__")),
      d.handle(request(3, "constructor")),
      d.handle(request(4, "tools/call", { name: "__proto__", arguments: {} })),
      d.handle('{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"__proto__":{"x":1},"_meta":' + JSON.stringify(META) + "}}"),
      d.handle(cyclic),
      d.handle(getter),
      d.handle("[".repeat(200_000)),
      // helper-90: these made handle() reject (a revoked Proxy cannot be asked whether it is an array; a batch element's getter).
      d.handle(revoked.proxy),
      d.handle([revoked.proxy]),
      d.handle(Object.defineProperty([1], "0", { get: () => { throw new Error("boom"); } })),
      // helper-91: copying these ran out of memory (an iterator that never ends; a length of 2^32 - 1).
      d.handle(Object.assign([request(8, "tools/list")], { [Symbol.iterator]: function* () { for (;;) yield 1; } })),
      d.handle(sparse),
    ]);
    expect(answers.map((a) => a?.error?.code ?? (a?.result ? "result" : a))).toEqual([
      "result",
      -32601,
      -32601,
      -32602,
      "result",
      // the cyclic arguments lack `text`: a tool error the model can read
      "result",
      -32603,
      -32700,
      -32603,
      -32603,
      -32603,
      -32600,
      -32600,
    ]);
  });
});

describe("handler types", () => {
  it("infer each handler's params and result from its method; resultType and caching fields may be left out", async () => {
    const dir = await generateInto("dispatch-types", { schema: { specDir: SPEC_DIR, version: "draft" }, docs: "none" });
    writeFileSync(
      join(dir, "handlers.ts"),
      [
        'import { defineHandlers } from "./dispatch.js";',
        'export const ok = defineHandlers({ "tools/list": async () => ({ tools: [] }), "tools/call": async (p) => ({ content: [{ type: "text", text: p.name }] }) });',
        "// @ts-expect-error tools must be an array",
        'export const notArray = defineHandlers({ "tools/list": async () => ({ tools: 5 }) });',
        "// @ts-expect-error content is required",
        'export const noContent = defineHandlers({ "tools/call": async () => ({ isError: true }) });',
        "// @ts-expect-error an input-required result names its resultType",
        'export const untagged = defineHandlers({ "tools/call": async () => ({ inputRequests: {} }) });',
        'export const tagged = defineHandlers({ "tools/call": async () => ({ resultType: "input_required", inputRequests: {} }) });',
        "// The progress token is typed as a notification's progressToken takes it (helper-110: only context.meta, unknown, had it).",
        'export const progress = defineHandlers({ "tools/call": async (_p, context) => { if (context.progressToken !== undefined) context.notify("notifications/progress", { progressToken: context.progressToken, progress: 1 }); return { content: [] }; } });',
        "",
      ].join("\n"),
    );
    expect(compileDiagnostics(dir, { exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true }).map((d) => d.text)).toEqual([]);
  });

  it("parseResult's type narrows its value to that schema type (helper-107: value stayed the union of the method's results)", async () => {
    const dir = await generateInto("methods-narrowing", { schema: { specDir: SPEC_DIR, version: "draft" }, docs: "none" });
    writeFileSync(
      join(dir, "client.ts"),
      [
        'import { parseResult } from "./methods.js";',
        'import type * as T from "./types.js";',
        "export function read(x: unknown): string {",
        '  const r = parseResult("tools/call", x);',
        '  if (r.ok && r.type === "CallToolResult") { const v: T.CallToolResult = r.value; return v.content.length.toString(); }',
        '  if (r.ok && r.type === "InputRequiredResult") { const v: T.InputRequiredResult = r.value; return v.resultType; }',
        "  if (r.ok && r.type === null) { const v: unknown = r.value; return typeof v; }",
        '  return r.ok ? "?" : r.issues.length.toString();',
        "}",
        "export function wrong(x: unknown): boolean {",
        '  const r = parseResult("tools/call", x);',
        "  // @ts-expect-error tools/call does not answer with a ListToolsResult",
        '  return r.ok && r.type === "ListToolsResult";',
        "}",
        "export function list(x: unknown): number {",
        '  const r = parseResult("tools/list", x);',
        "  // One result type: no test is needed.",
        "  return r.ok && r.type !== null ? r.value.tools.length : 0;",
        "}",
        "",
      ].join("\n"),
    );
    expect(compileDiagnostics(dir, { exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true }).map((d) => d.text)).toEqual([]);
  });
});

describe("a tool's structuredContent against its outputSchema (server/tools § Output Schema)", () => {
  const WEATHER_OUT = { type: "object", properties: { city: { type: "string" }, days: { type: "integer", minimum: 1 }, note: { type: "string" } }, required: ["city", "days"] };
  /** A dispatcher whose `weather` tool, with an outputSchema, returns what the call's `give` argument names. */
  const weatherServer = (options: Json = {}) => {
    const logged: [string, Json][] = [];
    const results: { [give: string]: Json } = {
      right: { content: [{ type: "text", text: "Paris: 3 days" }], structuredContent: { city: "Paris", days: 3 } },
      wrong: { content: [{ type: "text", text: "Paris" }], structuredContent: { city: "Paris", days: "3" } },
      none: { content: [{ type: "text", text: "Paris" }] },
      failed: { content: [{ type: "text", text: "no forecast for Atlantis" }], isError: true },
      "not an object": { content: [], structuredContent: ["Paris"] },
      // JSON.stringify leaves out a property whose value is undefined (helper-130).
      "days unset": { content: [{ type: "text", text: "Paris" }], structuredContent: { city: "Paris", days: undefined } },
      "note unset": { content: [{ type: "text", text: "Paris: 3 days" }], structuredContent: { city: "Paris", days: 3, note: undefined } },
      // A getter that throws as the check reads it.
      throwing: Object.defineProperty({ content: [] }, "structuredContent", {
        enumerable: true,
        get: () => {
          throw new Error("no weather today");
        },
      }) as Json,
    };
    const d = m.dispatch.createServerDispatcher({
      serverInfo: SERVER_INFO,
      onError: (error: unknown, info: Json) => logged.push([String(error), info]),
      tools: [
        {
          definition: { name: "weather", inputSchema: { type: "object", properties: { give: { type: "string" } } }, outputSchema: WEATHER_OUT },
          call: async (args: { give: string }) => results[args.give],
        },
      ],
      ...options,
    });
    const call = (id: number, give: string) => d.handle(request(id, "tools/call", { name: "weather", arguments: { give } }));
    return { call, logged };
  };

  it("answers -32603 and tells onError (invalid-result) when a result lacks structuredContent or it fails the schema; a conforming result and a tool error pass (helper-125: sent as it was, every client refused the call, nothing logged)", async () => {
    const { call, logged } = weatherServer();
    expect((await call(1, "right"))?.result?.["structuredContent"]).toEqual({ city: "Paris", days: 3 });
    expect((await call(2, "failed"))?.result?.["isError"]).toBe(true);
    expect(logged).toEqual([]);
    for (const [id, give] of [[3, "wrong"], [4, "none"], [5, "not an object"]] as const) expect(await call(id, give)).toEqual({ jsonrpc: "2.0", id, error: { code: -32603, message: "Internal error" } });
    expect(logged).toEqual([
      ['TypeError: the "weather" tool returned a result its outputSchema does not allow: its structuredContent: /days: expected integer, got string', { method: "tools/call", id: 3, reason: "invalid-result" }],
      ['TypeError: the "weather" tool returned a result its outputSchema does not allow: it has no structuredContent', { method: "tools/call", id: 4, reason: "invalid-result" }],
      ['TypeError: the "weather" tool returned a result its outputSchema does not allow: its structuredContent: expected object, got array', { method: "tools/call", id: 5, reason: "invalid-result" }],
    ]);
  });

  it("reads a property whose value is undefined as absent, as JSON.stringify sends it (helper-130: an optional one was refused, a required one passed and reached the client missing)", async () => {
    const { call, logged } = weatherServer();
    expect((await call(1, "note unset"))?.result?.["structuredContent"]).toEqual({ city: "Paris", days: 3 });
    expect(await call(2, "days unset")).toEqual({ jsonrpc: "2.0", id: 2, error: { code: -32603, message: "Internal error" } });
    expect(logged).toEqual([
      ['TypeError: the "weather" tool returned a result its outputSchema does not allow: its structuredContent: missing required property "days"', { method: "tools/call", id: 2, reason: "invalid-result" }],
    ]);
  });

  it("a result whose structuredContent throws when read is a malformed result: -32603, told to onError as invalid-result (helper-128: handler-threw)", async () => {
    const { call, logged } = weatherServer();
    expect(await call(1, "throwing")).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "Internal error" } });
    expect(logged).toEqual([["Error: no weather today", { method: "tools/call", id: 1, reason: "invalid-result" }]]);
  });

  it("sends the result as it is when results are not checked (validateResults: false)", async () => {
    const { call, logged } = weatherServer({ validateResults: false });
    expect((await call(1, "wrong"))?.result?.["structuredContent"]).toEqual({ city: "Paris", days: "3" });
    expect((await call(2, "none"))?.result?.["content"]).toEqual([{ type: "text", text: "Paris" }]);
    expect(logged).toEqual([]);
  });

  it("checkStructuredContent names each problem as checkToolArguments does, and the value as a whole as structured content", () => {
    const { checkStructuredContent } = m.dispatch;
    expect(checkStructuredContent(WEATHER_OUT, { city: "Paris", days: 0 })).toBe("/days: must be at least 1");
    expect(checkStructuredContent(WEATHER_OUT, { city: "Paris" })).toBe('missing required property "days"');
    // A `const` compared deeper than the check follows, at the root.
    const nested = (): unknown => {
      let deep: unknown = "x";
      for (let i = 0; i < 70; i++) deep = [deep];
      return deep;
    };
    expect(checkStructuredContent({ const: nested() }, nested())).toBe("the schema or the structured content nest more than 64 levels deep, deeper than the check follows");
  });
});

describe("checkToolArguments", () => {
  it("checks the common JSON Schema keywords and names the JSON Pointer of the first problem", () => {
    const { checkToolArguments } = m.dispatch;
    const schema = {
      type: "object",
      properties: { n: { type: "integer", minimum: 1 }, tags: { type: "array", items: { enum: ["a", "b"] }, maxItems: 2 }, "a/b": { const: true } },
      required: ["n"],
      additionalProperties: false,
    };
    expect(checkToolArguments(schema, { n: 1, tags: ["a"], "a/b": true })).toBeUndefined();
    expect(checkToolArguments(schema, {})).toBe('missing required property "n"');
    // A property named "" is at the pointer "/", which no longer also stands for the root.
    expect(checkToolArguments({ type: "object", properties: { "": { type: "string" } }, required: ["x"] }, { "": 5 })).toBe('missing required property "x"; /: expected string, got integer');
    expect(checkToolArguments(schema, { n: 0 })).toBe("/n: must be at least 1");
    expect(checkToolArguments(schema, { n: 1.5 })).toBe("/n: expected integer, got number");
    expect(checkToolArguments(schema, { n: 1, tags: ["c"] })).toBe('/tags/0: expected one of ["a","b"]');
    expect(checkToolArguments(schema, { n: 1, tags: ["a", "a", "a"] })).toBe("/tags: must have at most 2 items");
    expect(checkToolArguments(schema, { n: 1, "a/b": false })).toBe("/a~1b: expected true");
    expect(checkToolArguments(schema, { n: 1, extra: 1 })).toBe("/extra: is not an allowed property");
    expect(checkToolArguments({ anyOf: [{ type: "string" }, { type: "integer" }] }, true)).toBe("matches none of the allowed schemas");
    expect(checkToolArguments({ type: "string", pattern: "^[a-z]+$" }, "ABC")).toBe('must match the pattern "^[a-z]+$"');
    // A pattern written for engines that allow `\_` compiles without the u flag; one that compiles nowhere fails.
    expect(checkToolArguments({ type: "string", pattern: "^[a-z\\_]+$" }, "a_b")).toBeUndefined();
    expect(checkToolArguments({ type: "string", pattern: "^[a-z\\_]+$" }, "../etc")).toBe('must match the pattern "^[a-z\\\\_]+$"');
    expect(checkToolArguments({ type: "string", pattern: "(" }, "x")).toBe('the schema\'s pattern "(" cannot be compiled');
    // Keywords it does not know, and schemas that are not objects, do not reject.
    expect(checkToolArguments({ $ref: "#/nowhere", format: "email" }, "x")).toBeUndefined();
    expect(checkToolArguments("not a schema", { a: 1 })).toBeUndefined();
  });

  it("reads prefixItems and items as 2020-12 does, an earlier draft's items array with additionalItems, and min/maxProperties: the verdicts are ajv's (helper-90: valid tuples were refused)", () => {
    const { checkToolArguments } = m.dispatch;
    const point = { type: "array", prefixItems: [{ type: "number" }, { type: "number" }], items: false };
    const row = { type: "array", prefixItems: [{ type: "string" }], items: { type: "number" } };
    const sized = { type: "object", minProperties: 1, maxProperties: 2 };
    const cases2020: [object, unknown][] = [
      [point, [1, 2]],
      [point, [1]],
      [point, [1, 2, 3]],
      [point, ["a", 2]],
      [row, ["label", 1, 2]],
      [row, ["label", 1, "x"]],
      [row, [1]],
      [{ type: "array", prefixItems: [{ const: 1 }] }, [1, "anything"]],
      [sized, {}],
      [sized, { a: 1 }],
      [sized, { a: 1, b: 2, c: 3 }],
    ];
    const cases07: [object, unknown][] = [
      [{ type: "array", items: [{ type: "string" }], additionalItems: { type: "number" } }, ["a", 1]],
      [{ type: "array", items: [{ type: "string" }], additionalItems: { type: "number" } }, ["a", "b"]],
      [{ type: "array", items: [{ type: "string" }], additionalItems: false }, ["a", 1]],
      [{ type: "array", items: [{ type: "string" }] }, ["a", 1]],
      // A schema naming draft-07: prefixItems means nothing there, and items is every element's (helper-91).
      [{ $schema: "http://json-schema.org/draft-07/schema#", type: "array", prefixItems: [{ type: "string" }], items: { type: "number" } }, ["a"]],
      [{ $schema: "http://json-schema.org/draft-07/schema#", type: "array", prefixItems: [{ type: "string" }], items: { type: "number" } }, [1]],
      [{ $schema: "http://json-schema.org/draft-07/schema#", type: "array", items: [{ type: "string" }], prefixItems: [{ type: "number" }] }, ["a"]],
    ];

    const verdicts = (ajv: Ajv, cases: [object, unknown][]) =>
      cases.map(([schema, value]) => [JSON.stringify(schema), JSON.stringify(value), checkToolArguments(schema, value) === undefined, ajv.validate(schema, value)]);
    for (const row of [...verdicts(new Ajv2020({ strict: false }), cases2020), ...verdicts(new Ajv({ strict: false }), cases07)]) expect(row[2]).toBe(row[3]);
    expect(checkToolArguments(point, [1, 2, 3])).toBe("/2: no value is allowed here");
    expect(checkToolArguments(row, ["label", 1, "x"])).toBe("/2: expected number, got string");
    expect(checkToolArguments(sized, { a: 1, b: 2, c: 3 })).toBe("must have at most 2 properties");
    // Past 100 problems, "and more": the walk stops there, so it does not know how many (helper-94: 150 were "and 1 more").
    const many = checkToolArguments({ type: "object", additionalProperties: { type: "string" } }, Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`k${i}`, i])));
    expect([many!.split("; ").length, many!.endsWith("; and more"), many!.startsWith("/k0: expected string, got integer; /k1: expected string, got integer")]).toEqual([101, true, true]);
    // Draft-04's boolean exclusive bounds (helper-92: 5 passed { minimum: 5, exclusiveMinimum: true }).
    expect(checkToolArguments({ type: "number", minimum: 5, exclusiveMinimum: true }, 5)).toBe("must be more than 5");
    expect(checkToolArguments({ type: "number", maximum: 5, exclusiveMaximum: true }, 5)).toBe("must be less than 5");
    expect(checkToolArguments({ type: "number", minimum: 5, exclusiveMinimum: true, maximum: 6, exclusiveMaximum: false }, 6)).toBeUndefined();
    // The meta-schema's URL with a trailing #/ names it too, as ajv reads it (helper-93).
    expect(checkToolArguments({ $schema: "http://json-schema.org/draft-07/schema#/", type: "array", prefixItems: [{ type: "string" }], items: { type: "number" } }, [1])).toBeUndefined();
    // A $schema that only mentions a draft's name is no draft (ajv refuses an unknown one): 2020-12 reads it (helper-92).
    expect(checkToolArguments({ $schema: "https://example.com/schemas/2019-09-tools.json", type: "array", prefixItems: [{ type: "string" }] }, [1])).toBe("/0: expected string, got integer");
  });

  it("refuses a part nested deeper than it follows, whatever a not or anyOf around it would make of it (helper-107: a value forbidden under not passed past 64 levels)", () => {
    const { checkToolArguments } = m.dispatch;
    const nest = (v: unknown, n: number): unknown => (n === 0 ? v : nest([v], n - 1));
    const tooDeep = "/x: the schema or the value nests more than 64 levels deep, deeper than the check follows";
    // A value not: { const } forbids (an equal value, as one parsed from a request is), and the same nested shallow enough to be checked.
    expect(checkToolArguments({ type: "object", properties: { x: { not: { const: nest("rm -rf /", 70) } } } }, { x: nest("rm -rf /", 70) })).toBe(tooDeep);
    expect(checkToolArguments({ type: "object", properties: { x: { not: { const: nest("rm -rf /", 10) } } } }, { x: nest("rm -rf /", 10) })).toBe("/x: matches a schema it must not match");
    expect(checkToolArguments({ type: "object", properties: { x: { not: { const: nest("rm -rf /", 10) } } } }, { x: nest("ls", 10) })).toBeUndefined();
    // not nested 65 times around a string type: no verdict, so a refusal, not a pass.
    let schema: unknown = { type: "string" };
    for (let i = 0; i < 65; i++) schema = { not: schema };
    expect(checkToolArguments({ type: "object", properties: { x: schema } }, { x: "s" })).toBe(tooDeep);
    // A deep schema under anyOf: no longer "matches none" of schemas it would match.
    let deep: unknown = { type: "string" };
    for (let i = 0; i < 70; i++) deep = { allOf: [deep] };
    expect(checkToolArguments({ type: "object", properties: { x: { anyOf: [deep] } } }, { x: "s" })).toBe(tooDeep);
    // Whatever the member's place in an anyOf (helper-109: one before it that passed hid it); at the root, no path.
    expect(checkToolArguments({ type: "object", properties: { x: { anyOf: [{}, deep] } } }, { x: "s" })).toBe(tooDeep);
    expect(checkToolArguments({ not: { const: nest("a", 70) } }, nest("a", 70))).toBe("the schema or the arguments nest more than 64 levels deep, deeper than the check follows");
    // A patternProperties pattern that compiles nowhere fails, as a pattern does (helper-109: it was passed over).
    expect(checkToolArguments({ type: "object", patternProperties: { "(": { type: "string" } } }, { "(x": 5 })).toBe('the schema\'s patternProperties pattern "(" cannot be compiled');
    expect(checkToolArguments({ type: "object", patternProperties: { "(": { type: "string" } } }, {})).toBeUndefined();
    // The same verdicts as ajv below the limit: 30 levels of not around a type pass or fail as they should.
    let even: unknown = { type: "string" };
    for (let i = 0; i < 30; i++) even = { not: even };
    expect(checkToolArguments({ type: "object", properties: { x: even } }, { x: "s" })).toBeUndefined();
    expect(checkToolArguments({ type: "object", properties: { x: even } }, { x: 1 })).toBe("/x: matches a schema it must not match");
  });
});

/** One message over HTTP with the request metadata headers computed from the body (or given). */
/** POSTs `body` to `url` with the request metadata headers it calls for, and `headers`; `requestTarget` replaces the URL's path on the request line. */
function post(url: string, body: string, headers: Record<string, string | undefined> = {}, requestTarget?: string): Promise<{ status: number; type: string; body: string; acceptEncoding?: string }> {
  let parsed: Json = {};
  try {
    parsed = JSON.parse(body) as Json;
  } catch {
    // not JSON: no headers from the body
  }
  const params = (parsed["params"] ?? {}) as Json;
  const name = parsed["method"] === "resources/read" ? params["uri"] : params["name"];
  const version = ((params["_meta"] ?? {}) as Json)["io.modelcontextprotocol/protocolVersion"];
  const all: Record<string, string | undefined> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": typeof version === "string" ? version : VERSION,
    "mcp-method": typeof parsed["method"] === "string" ? parsed["method"] : undefined,
    "mcp-name": typeof name === "string" ? name : undefined,
    ...headers,
  };
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: target.hostname, port: target.port, path: requestTarget ?? target.pathname, method: "POST", headers: Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined)) },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => (text += d));
        const acceptEncoding = res.headers["accept-encoding"];
        res.on("end", () => resolve({ status: res.statusCode ?? 0, type: String(res.headers["content-type"] ?? ""), body: text, ...(acceptEncoding === undefined ? {} : { acceptEncoding }) }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** The HTTP status the draft transport assigns to each answer. */
function expectedStatus(expected: Response | undefined): number {
  if (expected === undefined) return 202;
  const code = expected.error?.code;
  if (code === undefined) return 200;
  if ([-32700, -32600, -32602, -32020, -32021, -32022].includes(code)) return 400;
  // -32603 is the answer to the request, in-band (helper-84: the SDK v2 client takes a 500 for a transport failure).
  return code === -32601 ? 404 : 200;
}

describe("Streamable HTTP transport", () => {
  // A request every server answers, and the message of an error answer: the Host and Origin checks' tests read them.
  const discover = JSON.stringify(request(1, "server/discover"));
  const message = (r: { body: string }) => (JSON.parse(r.body) as Response).error?.message;

  it("answers the message table with the same JSON-RPC bodies, and the draft's status codes", async () => {
    const server = await m.http.serveHttp(makeDispatcher(), { port: 0 });
    try {
      for (const row of TABLE) {
        const body = typeof row.message === "string" ? row.message : JSON.stringify(row.message);
        const response = await post(server.url, body);
        expect(response.status, row.name).toBe(expectedStatus(row.expected));
        expect(response.body === "" ? undefined : JSON.parse(response.body), row.name).toEqual(row.expected);
      }
    } finally {
      await server.close();
    }
  });

  it("answers a legacy client's initialize (none of the modern headers) with 400 and -32022 naming the versions served, not a header error", async () => {
    const server = await m.http.serveHttp(makeDispatcher(), { port: 0 });
    try {
      const body = JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "c", version: "1" } } });
      const response = await post(server.url, body, { "mcp-protocol-version": undefined, "mcp-method": undefined, "mcp-name": undefined });
      expect(response.status).toBe(400);
      expect((JSON.parse(response.body) as Response).error).toMatchObject({ code: -32022, data: { supported: [VERSION], requested: "2025-06-18" } });
    } finally {
      await server.close();
    }
  });

  it("checks Host, Origin, method, media type, body size and the request metadata headers", async () => {
    const server = await m.http.serveHttp(makeDispatcher(), { port: 0, maxBodyBytes: 2000, toolInputSchema: () => ECHO.inputSchema });
    const call = (text: unknown) => JSON.stringify(request(2, "tools/call", { name: "echo", arguments: { text } }));
    const code = (r: { body: string }) => (JSON.parse(r.body) as Response).error?.code;
    try {
      expect((await post(server.url, discover)).status).toBe(200);
      expect((await post(server.url, discover, { host: "evil.example.com" })).status).toBe(403);
      expect((await post(server.url, discover, { origin: "http://evil.example.com" })).status).toBe(403);
      expect((await post(server.url, discover, { origin: "http://localhost:5173" })).status).toBe(200);
      expect((await post(server.url, discover, { "content-type": "text/plain" })).status).toBe(415);
      expect((await post(server.url, JSON.stringify(request(3, "server/discover", { pad: "x".repeat(3000) })))).status).toBe(413);
      const missingMethod = await post(server.url, discover, { "mcp-method": undefined });
      expect([missingMethod.status, code(missingMethod)]).toEqual([400, -32020]);
      const wrongMethod = await post(server.url, discover, { "mcp-method": "tools/list" });
      expect([wrongMethod.status, code(wrongMethod)]).toEqual([400, -32020]);
      const wrongVersion = await post(server.url, discover, { "mcp-protocol-version": "2025-11-25" });
      expect([wrongVersion.status, code(wrongVersion)]).toEqual([400, -32020]);
      const wrongName = await post(server.url, call("x"), { "mcp-name": "other", "mcp-param-text": "x" });
      expect([wrongName.status, code(wrongName)]).toEqual([400, -32020]);
      // Mcp-Name and Mcp-Param-* may carry the Base64 sentinel; values are compared after decoding.
      expect((await post(server.url, call("héllo"), { "mcp-name": "=?base64?ZWNobw==?=", "mcp-param-text": "=?base64?aMOpbGxv?=" })).status).toBe(200);
      const missingParam = await post(server.url, call("x"));
      expect([missingParam.status, code(missingParam)]).toEqual([400, -32020]);
      const badParam = await post(server.url, call("x"), { "mcp-param-text": "=?base64?eA?=" });
      expect([badParam.status, code(badParam)]).toEqual([400, -32020]);
      // A header for an argument the body does not have, and a name that differs only by spaces, disagree with the body.
      const noArgument = JSON.stringify(request(5, "tools/call", { name: "echo", arguments: {} }));
      const extraParam = await post(server.url, noArgument, { "mcp-param-text": "x" });
      expect([extraParam.status, code(extraParam)]).toEqual([400, -32020]);
      const spaced = await post(server.url, JSON.stringify(request(6, "tools/call", { name: " echo", arguments: { text: "x" } })), { "mcp-name": "echo", "mcp-param-text": "x" });
      expect([spaced.status, code(spaced)]).toEqual([400, -32020]);
      expect((await post(server.url, discover, { host: "[::1]evil.com" })).status).toBe(403);
      expect((await post(server.url, discover, { origin: "http://localhost:5173/path" })).status).toBe(403);
      expect((await post(server.url, discover, { "content-type": "application/json-patch+json" })).status).toBe(415);
      // A body with a content coding is not decoded: 415, naming the one taken (helper-84: gzip was read as text, -32700,
      // and a plain body labelled br was taken).
      for (const coding of ["gzip", "br", "identity, gzip"]) {
        const coded = await post(server.url, discover, { "content-encoding": coding });
        expect([coded.status, code(coded), coded.acceptEncoding]).toEqual([415, -32600, "identity"]);
      }
      expect((await post(server.url, discover, { "content-encoding": "identity" })).status).toBe(200);
      // A request target in absolute form is checked by its host, which stands for Host (RFC 9112 § 3.2.2; helper-84: served).
      const absolute = (host: string) => post(server.url, discover, {}, `http://${host}/mcp`);
      const foreign = await absolute("evil.example.com");
      expect([foreign.status, (JSON.parse(foreign.body) as Response).error?.message]).toEqual([
        403,
        'Forbidden: the host of the request target "evil.example.com" is not allowed (serveHttp\'s allowedHosts names the hosts answered; by default localhost, 127.0.0.1, [::1])',
      ]);
      expect((await absolute(new URL(server.url).host)).status).toBe(200);
      // A path that starts with two slashes is a path, not a host (helper-86: //evil.example.com/mcp was served as /mcp).
      expect((await post(server.url, discover, {}, "//evil.example.com/mcp")).status).toBe(404);
      // A transfer coding node:http does not decode is not taken for text (helper-86: -32700, not valid UTF-8).
      const transfer = await post(server.url, discover, { "transfer-encoding": "gzip, chunked" });
      expect([transfer.status, code(transfer)]).toEqual([501, -32600]);
      expect((await post(server.url, discover, { "transfer-encoding": "chunked" })).status).toBe(200);
      // Two Host lines, an allowed one first, are 400 (RFC 9112 § 3.2); node:http keeps the first (helper-101: served).
      const target = new URL(server.url);
      const twoHosts = await new Promise<{ status: number; body: string; connection: string | undefined }>((resolve, reject) => {
        const lines = ["Host", target.host, "Host", "evil.example.com", "Content-Type", "application/json", "Accept", "application/json, text/event-stream"];
        const headers = [...lines, "Mcp-Protocol-Version", VERSION, "Mcp-Method", "server/discover"];
        const req = httpRequest({ host: target.hostname, port: target.port, path: target.pathname, method: "POST", headers }, (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (d: string) => (text += d));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text, connection: res.headers.connection }));
        });
        req.on("error", reject);
        req.end(discover);
      });
      expect(twoHosts).toEqual({
        status: 400,
        body: JSON.stringify({ jsonrpc: "2.0", error: { code: -32600, message: "Bad request: more than one Host header (RFC 9112 section 3.2)" } }),
        connection: "close",
      });
    } finally {
      await server.close();
    }
  });

  it("a -32020 about an Mcp-Param header names it as the tool's x-mcp-header writes it (helper-125: Mcp-Param-text for \"Text\")", async () => {
    const server = await m.http.serveHttp(makeDispatcher(), { port: 0, toolInputSchema: () => ECHO.inputSchema });
    try {
      const call = (args: Json) => JSON.stringify(request(2, "tools/call", { name: "echo", arguments: args }));
      expect(message(await post(server.url, call({ text: "x" })))).toBe("Header mismatch: the Mcp-Param-Text header is missing");
      expect(message(await post(server.url, call({ text: "x" }), { "mcp-param-text": "y" }))).toBe("Header mismatch: Mcp-Param-Text header does not match the arguments");
      expect(message(await post(server.url, call({}), { "mcp-param-text": "y" }))).toBe("Header mismatch: the Mcp-Param-Text header names an argument the body does not have");
      // The header itself is found whatever its case.
      expect((await post(server.url, call({ text: "x" }), { "MCP-PARAM-TEXT": "x" })).status).toBe(200);
    } finally {
      await server.close();
    }
    // A name with "_", which nginx drops by default, says so (helper-150: the -32020 gave no clue why a header the client sent was missing).
    const tenant = { type: "object", properties: { text: { type: "string", "x-mcp-header": "Tenant_Id" } } };
    const proxied = await m.http.serveHttp(makeDispatcher(), { port: 0, toolInputSchema: () => tenant });
    try {
      const call = JSON.stringify(request(3, "tools/call", { name: "echo", arguments: { text: "x" } }));
      expect(message(await post(proxied.url, call))).toBe(
        'Header mismatch: the Mcp-Param-Tenant_Id header is missing (proxies drop header names with "_" by default: nginx needs underscores_in_headers on)',
      );
    } finally {
      await proxied.close();
    }
  });

  it("a 403 for the Host names the default hosts only when allowedHosts was not given, never configured ones", async () => {
    const byDefault = await m.http.serveHttp(makeDispatcher(), { port: 0 });
    try {
      const refused = await post(byDefault.url, discover, { host: "evil.example.com" });
      expect([refused.status, message(refused)]).toEqual([
        403,
        'Forbidden: the Host header "evil.example.com" is not allowed (serveHttp\'s allowedHosts names the hosts answered; by default localhost, 127.0.0.1, [::1])',
      ]);
    } finally {
      await byDefault.close();
    }
    const configured = await m.http.serveHttp(makeDispatcher(), { port: 0, allowedHosts: ["mcp.internal.example", "127.0.0.1"] });
    try {
      expect((await post(configured.url, discover)).status).toBe(200);
      const refused = await post(configured.url, discover, { host: "localhost" });
      expect([refused.status, message(refused)]).toEqual([403, 'Forbidden: the Host header "localhost" is not allowed (serveHttp\'s allowedHosts names the hosts answered)']);
    } finally {
      await configured.close();
    }
  });

  it("a 403 for the Origin names it and where the origins answered are set (helper-150: it said only that the Origin header is not allowed)", async () => {
    const byDefault = await m.http.serveHttp(makeDispatcher(), { port: 0 });
    try {
      const refused = await post(byDefault.url, discover, { origin: "https://mcp.example.com" });
      expect([refused.status, message(refused)]).toEqual([
        403,
        'Forbidden: the Origin header "https://mcp.example.com" is not allowed (an http(s) origin is answered when its host is: serveHttp\'s allowedHosts names the hosts answered; by default localhost, 127.0.0.1, [::1])',
      ]);
    } finally {
      await byDefault.close();
    }
    const configured = await m.http.serveHttp(makeDispatcher(), { port: 0, allowedOrigins: ["http://localhost:5173"] });
    try {
      expect((await post(configured.url, discover, { origin: "http://localhost:5173" })).status).toBe(200);
      const refused = await post(configured.url, discover, { origin: "http://localhost:5174" });
      expect([refused.status, message(refused)]).toEqual([403, 'Forbidden: the Origin header "http://localhost:5174" is not allowed (serveHttp\'s allowedOrigins names the origins answered)']);
    } finally {
      await configured.close();
    }
  });

  it("answers a Host name with an underscore that allowedHosts names (helper-150: a Docker service or nginx upstream name was 403 whatever was allowed)", async () => {
    const server = await m.http.serveHttp(makeDispatcher(), { port: 0, allowedHosts: ["mcp_backend", "127.0.0.1"] });
    try {
      expect((await post(server.url, discover, { host: "mcp_backend" })).status).toBe(200);
      expect((await post(server.url, discover, { host: "MCP_backend:3000" })).status).toBe(200);
      expect((await post(server.url, discover, { host: "other_backend" })).status).toBe(403);
    } finally {
      await server.close();
    }
  });

  it("refuses an allowedHosts entry that is no host name, which no Host could match (helper-150: every request was 403, saying to name it)", () => {
    expect(() => m.http.serveHttp(makeDispatcher(), { port: 0, allowedHosts: ["mcp.example.com:8443"] })).toThrow(
      new RangeError('serveHttp\'s allowedHosts gives "mcp.example.com:8443", which is no host name: name a host as a Host header does, without a scheme or port (mcp.example.com)'),
    );
    expect(() => m.http.createHttpHandler(makeDispatcher(), { allowedHosts: ["https://mcp.example.com"], allowedHostsSetting: "the server's --allow-host" })).toThrow(
      new RangeError('the server\'s --allow-host gives "https://mcp.example.com", which is no host name: name a host as a Host header does, without a scheme or port (mcp.example.com)'),
    );
    // An IPv6 address has neither a scheme nor a port to drop: it is named in brackets, without a zone (helper-152: said to drop them).
    for (const [given, named] of [["fd00::5", "[fd00::5]"], ["fe80::1%eth0", "[fe80::1]"], ["[fe80::1%25eth0]", "[fe80::1]"]]) {
      expect(() => m.http.createHttpHandler(makeDispatcher(), { allowedHosts: [given!] })).toThrow(
        new RangeError(`createHttpHandler's allowedHosts gives "${given}", which is no host name: name an IPv6 address in brackets, without a zone, as a Host header does (${named})`),
      );
    }
    expect(() => m.http.createHttpHandler(makeDispatcher(), { allowedHosts: ["[fd00::5]:8443"] })).toThrow(
      new RangeError('createHttpHandler\'s allowedHosts gives "[fd00::5]:8443", which is no host name: name a host as a Host header does, without a scheme or port (mcp.example.com)'),
    );
    // Names as a Host gives them are taken, whatever their case; so are the defaults.
    expect(() => m.http.createHttpHandler(makeDispatcher(), { allowedHosts: ["MCP.example.com", "mcp_backend", "[::1]", "127.0.0.1"] })).not.toThrow();
  });

  it("refuses GET and DELETE with 405; answers a notification with 202 and no body", async () => {
    const server = await m.http.serveHttp(makeDispatcher(), { port: 0 });
    try {
      for (const method of ["GET", "DELETE"]) {
        const status = await new Promise<number>((resolve) => httpRequest(server.url, { method }, (res) => resolve(res.statusCode ?? 0)).end());
        expect(status).toBe(405);
      }
      // A message that is no well-formed request gets the dispatcher's answer, headers or not.
      const nullId = await post(server.url, '{"jsonrpc":"2.0","id":null,"method":"tools/list"}', { "mcp-method": undefined, "mcp-protocol-version": undefined });
      expect([nullId.status, JSON.parse(nullId.body)]).toEqual([400, { jsonrpc: "2.0", error: { code: -32600, message: "Invalid request: id must be a string or an integer" } }]);
      const note = await post(server.url, '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}', { "mcp-method": "notifications/cancelled" });
      expect([note.status, note.body]).toEqual([202, ""]);
    } finally {
      await server.close();
    }
  });

  it("streams SSE when a handler sends notifications before its result", async () => {
    const d = makeDispatcher({
      handlers: {
        "tools/list": (_p: unknown, context: { notify(method: string, params: Json): void }) => {
          context.notify("notifications/progress", { progressToken: "p", progress: 1 });
          return { tools: [] };
        },
      },
    });
    const server = await m.http.serveHttp(d, { port: 0 });
    try {
      const response = await post(server.url, JSON.stringify(request(4, "tools/list", { _meta: { ...META, progressToken: "p" } })));
      expect(response.type).toBe("text/event-stream");
      const events = response.body
        .split("\n")
        .filter((l) => l.startsWith("data: "))
        .map((l) => JSON.parse(l.slice(6)) as Json);
      expect(events.map((e) => e["method"] ?? e["id"])).toEqual(["notifications/progress", 4]);
    } finally {
      await server.close();
    }
  });

  it("decodes the Base64 sentinel and refuses malformed ones", () => {
    const { decodeHeaderValue } = m.http;
    expect(decodeHeaderValue("=?base64?SGVsbG8=?=")).toBe("Hello");
    expect(decodeHeaderValue("=?base64?SGVsbG8?=")).toBeUndefined();
    expect(decodeHeaderValue("=?base64?SGVs!!!bG8=?=")).toBeUndefined();
    expect(decodeHeaderValue("SGVsbG8=")).toBe("SGVsbG8=");
    expect(decodeHeaderValue("  padded  ")).toBe("padded");
    expect(decodeHeaderValue("bad\u0001")).toBeUndefined();
  });
});

describe("stdio transport", () => {
  it("answers the message table line by line with the same bodies, and keeps running after malformed lines", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const server = m.stdio.serveStdio(makeDispatcher(), { input, output });
    let text = "";
    output.on("data", (d: Buffer) => (text += d.toString()));
    for (const row of TABLE) {
      const line = typeof row.message === "string" ? row.message : JSON.stringify(row.message);
      input.write(line + "\r\n");
      input.write("\n");
    }
    input.end();
    await server.closed;
    const lines = text.trimEnd().split("\n").map((l) => JSON.parse(l) as Response);
    const expected = TABLE.map((r) => r.expected).filter((e) => e !== undefined);
    // Answers arrive as each request finishes; compare them by content, whatever their key order.
    const canonical = (v: unknown): unknown =>
      Array.isArray(v) ? v.map(canonical) : typeof v === "object" && v !== null ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical((v as Json)[k])])) : v;
    const key = (r: Response) => JSON.stringify(canonical(r));
    expect(lines.map(key).sort()).toEqual(expected.map(key).sort());
  });
});

describe("stdio transport limits", () => {
  it("answers a line over the limit with -32600 without holding it, then goes on; a bare CR is JSON whitespace", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const server = m.stdio.serveStdio(makeDispatcher(), { input, output, maxLineBytes: 1000 });
    let text = "";
    output.on("data", (d: Buffer) => (text += d.toString()));
    for (let i = 0; i < 10; i++) input.write("x".repeat(500));
    input.write("\n");
    input.write(JSON.stringify(request(1, "server/discover")).replace('"id":1', '"id":\r1') + "\n");
    input.end();
    await server.closed;
    const lines = text.trimEnd().split("\n").map((l) => JSON.parse(l) as Response);
    expect(lines[0]).toEqual({ jsonrpc: "2.0", error: { code: -32600, message: "Invalid request: the message is longer than 1000 bytes" } });
    expect(lines[1]?.id).toBe(1);
    expect(lines).toHaveLength(2);
  });

  it("counts the limit without the CR of a CRLF line end, even when the CR ends one chunk and the LF starts the next", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const message = JSON.stringify(request(7, "server/discover"));
    const server = m.stdio.serveStdio(makeDispatcher(), { input, output, maxLineBytes: Buffer.byteLength(message) });
    let text = "";
    output.on("data", (d: Buffer) => (text += d.toString()));
    input.write(message + "\r\n");
    input.write(message.replace('"id":7', '"id":8') + "\r");
    input.write("\n");
    input.write(message.replace('"id":7', '"id":9') + " \r\n");
    input.end();
    await server.closed;
    const answers = text.trimEnd().split("\n").map((l) => JSON.parse(l) as Response);
    expect(answers.map((a) => a.id ?? a.error?.code).sort()).toEqual([-32600, 7, 8]);
  });

  it("keeps serving after a handler returns something JSON cannot carry", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const d = makeDispatcher({ tools: [{ definition: { ...ECHO, inputSchema: { type: "object" } }, call: () => ({ content: [], structuredContent: { id: 1n } }) }] });
    const server = m.stdio.serveStdio(d, { input, output });
    let text = "";
    output.on("data", (c: Buffer) => (text += c.toString()));
    input.write(JSON.stringify(request(1, "tools/call", { name: "echo", arguments: {} })) + "\n");
    input.write(JSON.stringify(request(2, "server/discover")) + "\n");
    input.end();
    await server.closed;
    const answers = text.trimEnd().split("\n").map((l) => JSON.parse(l) as Response);
    expect(answers.map((a) => [a.id, a.error?.code ?? "result"]).sort()).toEqual([
      [1, -32603],
      [2, "result"],
    ]);
  });
});

describe("a revision with an initialize handshake (2025-11-25)", () => {
  it("answers initialize and ping itself, and checks params against that revision's schema", async () => {
    const dir = await generateInto("dispatch-2025-11-25", { schema: { specDir: SPEC_DIR, version: "2025-11-25" }, docs: "none" });
    const { createServerDispatcher } = (await import(join(dir, "dispatch.ts"))) as DispatchModule;
    const d = createServerDispatcher({ serverInfo: SERVER_INFO, supportedProtocolVersions: ["2025-11-25", "2025-06-18"], handlers: { "tools/list": () => ({ tools: [] }) } });
    const init = (version: string) => ({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "c", version: "1" } },
    });
    expect(await d.handle(init("2025-06-18"))).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: SERVER_INFO },
    });
    expect((await d.handle(init("1999-01-01")))?.result?.["protocolVersion"]).toBe("2025-11-25");
    expect(await d.handle({ jsonrpc: "2.0", id: 2, method: "ping" })).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
    expect(await d.handle({ jsonrpc: "2.0", id: 3, method: "tools/list" })).toEqual({ jsonrpc: "2.0", id: 3, result: { tools: [] } });
    expect((await d.handle({ jsonrpc: "2.0", id: 4, method: "tools/list", params: { cursor: 5 } }))?.error?.code).toBe(-32602);
    expect(await d.handle({ jsonrpc: "2.0", method: "notifications/initialized" })).toBeUndefined();
  });
});

describe("a 2025-11-25 tool with an outputSchema, called task-augmented", () => {
  it("sends its CreateTaskResult (a tools/call result of 2025-11-25, with no content or structuredContent) while results are checked (helper-128: answered -32603, 'it has no structuredContent')", async () => {
    const dir = await generateInto("dispatch-2025-11-25-task", { schema: { specDir: SPEC_DIR, version: "2025-11-25" }, docs: "none" });
    const { createServerDispatcher } = (await import(join(dir, "dispatch.ts"))) as DispatchModule;
    const task = { taskId: "t-1", status: "working", createdAt: "2025-01-01T00:00:00Z", lastUpdatedAt: "2025-01-01T00:00:00Z", ttl: null };
    const errors: unknown[] = [];
    const d = createServerDispatcher({
      serverInfo: SERVER_INFO,
      onError: (error: unknown) => errors.push(error),
      tools: [
        {
          definition: { name: "slow", inputSchema: { type: "object", properties: { asTask: { type: "boolean" } } }, outputSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] }, execution: { taskSupport: "optional" } },
          call: (args: Json) => (args["asTask"] === true ? { task } : { content: [], structuredContent: { n: 1 } }),
        },
      ],
    });
    const channel = {};
    await d.handle({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } } }, { channel });
    await d.handle({ jsonrpc: "2.0", method: "notifications/initialized" }, { channel });
    const call = (id: number, asTask: boolean, extra: Json) => d.handle({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "slow", arguments: { asTask }, ...extra } }, { channel });
    expect(await call(1, true, { task: { ttl: 60000 } })).toEqual({ jsonrpc: "2.0", id: 1, result: { task } });
    expect((await call(2, false, {}))?.result).toEqual({ content: [], structuredContent: { n: 1 } });
    expect(errors).toEqual([]);
  });
});
