/**
 * Dual-era serving (issue 11, runtime core): one dispatcher made of the draft's revision table
 * (the handler revision) and the 2025-11-25 one, driven with raw JSON-RPC messages. Legacy
 * clients open with `initialize` and get a session on their channel (negotiated per the
 * 2025-11-25 lifecycle), results adapted to their revision and checked against the published
 * 2025-11-25 `schema.json`, `InputRequiredResult` turned into server→client requests answered
 * through `handle()`, log levels, resource subscriptions, `closeChannel`; modern clients are
 * served as before, on the same dispatcher at the same time; and a stdio server process serving
 * both eras end to end.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { PassThrough } from "node:stream";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import {
  createDispatcher,
  HandlerError,
  type CoreDispatcher,
  type DispatcherOptions,
  type DispatchErrorObject,
  type DispatchRevision,
  type HandleContext,
  type OutgoingMessage,
  type RequestContextCore,
} from "../runtime/dispatcher.js";
import { retainedBytes } from "../runtime/json.js";
import { serveStdio } from "../runtime/stdio.js";
import { ajvOracle, readSchemaJson, type AjvOracle } from "./support/ajv-oracle.js";
import { generateInto, ROOT, scratchDir, SPEC_DIR, typecheck } from "./support/corpus.js";

type Json = { [key: string]: unknown };
type Response = { jsonrpc: "2.0"; id?: string | number; result?: Json; error?: { code: number; message: string; data?: unknown } };
/** The core dispatcher, its answers read loosely (a test looks at `result` or `error` without narrowing first). */
interface Dispatcher extends Omit<CoreDispatcher, "handle"> {
  handle(message: unknown, context?: HandleContext): Promise<Response | undefined>;
}
const create = (revisions: DispatchRevision | readonly DispatchRevision[], options: DispatcherOptions) => createDispatcher(revisions, options) as unknown as Dispatcher;

const MODERN_VERSION = "2026-07-28";
const LEGACY_VERSION = "2025-11-25";
const META = { "io.modelcontextprotocol/protocolVersion": MODERN_VERSION, "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } };
const SERVER_INFO = { name: "dual", version: "1.0.0" };
const CAPABILITIES = { tools: { listChanged: true }, resources: { subscribe: true, listChanged: true }, logging: {}, prompts: {} };
const ECHO = { name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } };
const ASK = { name: "ask", inputSchema: { type: "object", properties: {} } };
const NAME_REQUEST = {
  method: "elicitation/create",
  params: { mode: "form", message: "Your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
};

let MODERN: DispatchRevision;
let LEGACY: DispatchRevision;
/** ajv over the published 2025-11-25 `schema.json`: what a legacy client may receive. */
let legacySchema: AjvOracle;
let modernDir = "";
let legacyDir = "";

beforeAll(async () => {
  modernDir = await generateInto("dual-era/modern", { schema: { specDir: SPEC_DIR, version: "draft" }, docs: "none" });
  legacyDir = await generateInto("dual-era/legacy", { schema: { specDir: SPEC_DIR, version: LEGACY_VERSION }, docs: "none" });
  MODERN = ((await import(join(modernDir, "dispatch.ts"))) as { DISPATCH_REVISION: DispatchRevision }).DISPATCH_REVISION;
  LEGACY = ((await import(join(legacyDir, "dispatch.ts"))) as { DISPATCH_REVISION: DispatchRevision }).DISPATCH_REVISION;
  legacySchema = ajvOracle(readSchemaJson(join(SPEC_DIR, "schema", LEGACY_VERSION, "schema.json")));
});

/** The contract's table for the legacy revision of a multi-revision output (what GEN fills in): its legacy builtins named. */
function legacyTable(): DispatchRevision {
  return {
    ...LEGACY,
    builtins: { ...LEGACY.builtins, setLevel: "logging/setLevel", subscribe: "resources/subscribe", unsubscribe: "resources/unsubscribe" },
    initializedNotification: "notifications/initialized",
  };
}

let logged: { error: unknown; info: Json }[] = [];

/** A dual-era dispatcher: an echo tool, a tool that asks the user's name (an `InputRequiredResult`), resources, a logging handler. */
function dual(extra: Partial<DispatcherOptions> = {}, revisions: readonly DispatchRevision[] = [MODERN, legacyTable()]): Dispatcher {
  logged = [];
  return create(revisions, {
    serverInfo: SERVER_INFO,
    capabilities: CAPABILITIES,
    tools: [
      { definition: ECHO, call: (args: Json) => ({ content: [{ type: "text", text: String(args["text"]) }] }) },
      {
        definition: ASK,
        call: (_args: Json, context: RequestContextCore) => {
          const responses = context.inputResponses as { name?: { action: string; content?: { name?: string } } } | undefined;
          if (responses?.name === undefined) return { resultType: "input_required", inputRequests: { name: NAME_REQUEST }, requestState: "asked-once" };
          return { content: [{ type: "text", text: "Hello " + String(responses.name.content?.name) + " (" + String(context.requestState) + ")" }] };
        },
      },
    ] as never,
    handlers: {
      "resources/list": () => ({ resources: [{ uri: "test://a", name: "a" }] }),
      "prompts/list": (_params: Json, context: RequestContextCore) => {
        // A handler that logs: what reaches a legacy client depends on the level it set.
        for (const level of ["debug", "info", "warning", "error"]) context.notify("notifications/message", { level, data: level });
        context.notify("notifications/subscriptions/acknowledged", { notifications: {} });
        return { prompts: [] };
      },
    },
    onError: (error: unknown, info: unknown) => logged.push({ error, info: info as Json }),
    ...extra,
  });
}

const initialize = (id: number | string, protocolVersion: string, capabilities: Json = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion, capabilities, clientInfo: { name: "legacy-client", version: "1.0.0" } },
});
const legacy = (id: number | string, method: string, params?: Json) => ({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });
const modern = (id: number | string, method: string, params: Json = {}) => ({ jsonrpc: "2.0", id, method, params: { _meta: META, ...params } });

/** A legacy client on its own channel: what the server sent it (request streams and pushes), and a `send` that passes them. */
function legacyClient(d: Dispatcher) {
  const channel = {};
  const sent: OutgoingMessage[] = [];
  const pushed: OutgoingMessage[] = [];
  /** Answers server→client requests as they arrive (none: they wait). */
  let answer: ((request: OutgoingMessage & { id: string | number }) => Json | undefined) | undefined;
  const notify = (message: OutgoingMessage) => {
    sent.push(message);
    if ("id" in message && answer !== undefined) {
      const reply = answer(message);
      if (reply !== undefined) void d.handle({ jsonrpc: "2.0", id: message.id, ...reply }, { channel });
    }
  };
  const push = (message: OutgoingMessage) => (pushed.push(message), true);
  return {
    channel,
    sent,
    pushed,
    answerWith(f: typeof answer) {
      answer = f;
    },
    /** `signal`: the transport's, aborted when the client's connection for this message goes (an HTTP POST dropped). */
    send: (message: unknown, signal?: AbortSignal) => d.handle(message, { channel, notify, push, ...(signal === undefined ? {} : { signal }) }),
    async open(version = LEGACY_VERSION, capabilities: Json = { elicitation: {} }) {
      const response = await d.handle(initialize(0, version, capabilities), { channel, notify, push });
      await d.handle({ jsonrpc: "2.0", method: "notifications/initialized" }, { channel, notify, push });
      return response;
    },
  };
}

/** What `promise` settles to within `ms`, or "still waiting": for a round that must end without the client's help. */
function settledWithin<T>(promise: Promise<T>, ms: number): Promise<T | "still waiting"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([promise.finally(() => clearTimeout(timer)), new Promise<"still waiting">((resolve) => (timer = setTimeout(() => resolve("still waiting"), ms)))]);
}

/** The error of a round given up before its server→client request went out, for `why`. */
const givenUpBecause = (why: string) => ({
  code: -32603,
  message: "Internal error: the client never sent notifications/initialized, so no request could be sent to it: " + why,
});

/** What ajv says of a value under a 2025-11-25 type (empty: valid). */
function legacyErrors(type: string, value: unknown): unknown[] {
  return [...legacySchema.validate(type, value).errors];
}

describe("legacy initialize: a session on the channel, negotiated per the 2025-11-25 lifecycle", () => {
  it("answers the requested version when a legacy revision serves it, else the latest legacy version served; the result is a 2025-11-25 InitializeResult", async () => {
    const d = dual({}, [MODERN, legacyTable()]);
    const channel = {};
    const first = await d.handle(initialize(1, LEGACY_VERSION), { channel });
    expect(first).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { protocolVersion: LEGACY_VERSION, capabilities: CAPABILITIES, serverInfo: SERVER_INFO },
    });
    expect(legacyErrors("InitializeResult", first?.result)).toEqual([]);
    expect(d.sessionOf(channel)).toEqual({ protocolVersion: LEGACY_VERSION, clientCapabilities: {}, clientInfo: { name: "legacy-client", version: "1.0.0" } });
    // Not served: an older legacy version, a modern one asked through initialize, nonsense → the latest legacy version served.
    for (const asked of ["2025-06-18", MODERN_VERSION, "1999-01-01"]) {
      expect((await d.handle(initialize(2, asked), { channel: {} }))?.result?.["protocolVersion"]).toBe(LEGACY_VERSION);
    }
    // Served by the 2025-11-25 tables when the server lists it.
    const wider = create([MODERN, legacyTable()], { serverInfo: SERVER_INFO, supportedProtocolVersions: [MODERN_VERSION, LEGACY_VERSION, "2025-06-18"] });
    const older = {};
    expect((await wider.handle(initialize(3, "2025-06-18"), { channel: older }))?.result?.["protocolVersion"]).toBe("2025-06-18");
    expect(wider.sessionOf(older)?.protocolVersion).toBe("2025-06-18");
    expect((await wider.handle(initialize(4, "2024-01-01"), { channel: {} }))?.result?.["protocolVersion"]).toBe(LEGACY_VERSION);
  });

  it("opensSession: an initialize request without the modern per-request version key, only when a legacy revision is served", () => {
    const d = dual();
    expect(d.opensSession(initialize(1, LEGACY_VERSION))).toBe(true);
    expect(d.opensSession(JSON.stringify(initialize(1, LEGACY_VERSION)))).toBe(true);
    expect(d.opensSession(modern(1, "initialize", { protocolVersion: LEGACY_VERSION }))).toBe(false);
    expect(d.opensSession({ jsonrpc: "2.0", method: "initialize", params: {} })).toBe(false);
    expect(d.opensSession(legacy(1, "tools/list"))).toBe(false);
    expect(d.opensSession("{oops")).toBe(false);
    expect(create(MODERN, { serverInfo: SERVER_INFO }).opensSession(initialize(1, LEGACY_VERSION))).toBe(false);
  });

  it("a modern-only dispatcher still answers a legacy initialize with -32022 naming the versions, and opens no session", async () => {
    const d = create(MODERN, { serverInfo: SERVER_INFO });
    const channel = {};
    expect((await d.handle(initialize(1, LEGACY_VERSION), { channel }))?.error).toMatchObject({ code: -32022, data: { supported: [MODERN_VERSION], requested: LEGACY_VERSION } });
    expect(d.sessionOf(channel)).toBeUndefined();
  });

  it("a failed initialize (params failing the 2025-11-25 schema) opens no session", async () => {
    const d = dual();
    const channel = {};
    const response = await d.handle({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: LEGACY_VERSION } }, { channel });
    expect(response?.error?.code).toBe(-32602);
    expect(d.sessionOf(channel)).toBeUndefined();
  });

  it("later requests on the channel: ping, and the session's revision checks the params", async () => {
    const d = dual();
    const client = legacyClient(d);
    // A ping may come before the session is open (2025-11-25 basic/lifecycle); it opens none.
    expect(await client.send(legacy(0, "ping"))).toEqual({ jsonrpc: "2.0", id: 0, result: {} });
    expect(d.sessionOf(client.channel)).toBeUndefined();
    await client.open();
    expect(d.sessionOf(client.channel)?.initialized).toBe(true);
    expect(await client.send(legacy(1, "ping"))).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect((await client.send(legacy(2, "tools/call", { name: 5 })))?.error?.code).toBe(-32602);
    // A modern-only method is not one of 2025-11-25's.
    expect((await client.send(legacy(3, "server/discover")))?.error).toEqual({ code: -32601, message: 'Method not found: "server/discover"' });
  });
  it("messages written right after initialize, before its answer, are served by the session it opens (review 11: finding 2)", async () => {
    const d = dual();
    const client = legacyClient(d);
    const opened = client.send(initialize(1, LEGACY_VERSION, { elicitation: {} }));
    const pinged = client.send(legacy(2, "ping"));
    void client.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const listed = client.send(legacy(3, "tools/list"));
    const [init, ping, list] = await Promise.all([opened, pinged, listed]);
    expect(init?.result?.["protocolVersion"]).toBe(LEGACY_VERSION);
    expect(ping).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
    expect(list?.result).toEqual({ tools: [ECHO, ASK] });
    expect(legacyErrors("ListToolsResult", list?.result)).toEqual([]);
    expect(d.sessionOf(client.channel)).toMatchObject({ protocolVersion: LEGACY_VERSION, initialized: true, clientCapabilities: { elicitation: {} } });
  });

  it("an initialize that fails opens no session, for the messages written after it either", async () => {
    const d = dual({ handlers: { initialize: () => Promise.reject(new HandlerError(-32603, "not now")) } });
    const client = legacyClient(d);
    const opened = client.send(initialize(1, LEGACY_VERSION));
    const pinged = client.send(legacy(2, "ping"));
    expect((await opened)?.error?.message).toBe("not now");
    expect(await pinged).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
    expect(d.sessionOf(client.channel)).toBeUndefined();
  });
});

describe("tools widened by 2026-07-28, to a legacy client", () => {
  it("what 2026-07-28 widened in tools is narrowed for a 2025-11-25 client: structuredContent not an object, an outputSchema not of type object, boolean property schemas (before: -32603, and no tools at all)", async () => {
    const ARRAY_OUT = { name: "numbers", inputSchema: { type: "object", properties: { any: true, none: false, n: { type: "number" } } }, outputSchema: { type: "array", items: { type: "number" } } };
    const UNTYPED_OUT = { name: "untyped", inputSchema: { type: "object" }, outputSchema: { properties: { a: { type: "string" } } } };
    const OBJECT_OUT = { name: "object", inputSchema: { type: "object" }, outputSchema: { type: "object", properties: { a: true } } };
    const d = dual({
      tools: [
        { definition: ARRAY_OUT, call: () => ({ content: [{ type: "text", text: "[1,2]" }], structuredContent: [1, 2] }) },
        { definition: UNTYPED_OUT, call: () => ({ content: [{ type: "text", text: "null" }], structuredContent: null }) },
        { definition: OBJECT_OUT, call: () => ({ content: [{ type: "text", text: '{"a":1}' }], structuredContent: { a: 1 } }) },
      ] as never,
    });
    const client = legacyClient(d);
    await client.open();
    const listed = await client.send(legacy(1, "tools/list"));
    expect(listed?.result).toEqual({
      tools: [
        { name: "numbers", inputSchema: { type: "object", properties: { any: {}, none: { not: {} }, n: { type: "number" } } } },
        { name: "untyped", inputSchema: { type: "object" } },
        { name: "object", inputSchema: { type: "object" }, outputSchema: { type: "object", properties: { a: {} } } },
      ],
    });
    expect(legacyErrors("ListToolsResult", listed?.result)).toEqual([]);
    for (const [id, name] of [[2, "numbers"], [3, "untyped"]] as const) {
      const called = await client.send(legacy(id, "tools/call", { name, arguments: {} }));
      expect(called?.result).not.toHaveProperty("structuredContent");
      expect(legacyErrors("CallToolResult", called?.result)).toEqual([]);
    }
    expect((await client.send(legacy(4, "tools/call", { name: "object", arguments: {} })))?.result).toEqual({ content: [{ type: "text", text: '{"a":1}' }], structuredContent: { a: 1 } });
    expect(logged).toEqual([]);
    // A modern client gets the tools and results as written; the definitions are not changed.
    const modern = await d.handle({ jsonrpc: "2.0", id: 5, method: "tools/list", params: { _meta: META } });
    expect((modern?.result?.["tools"] as Json[]).map(({ name, inputSchema, outputSchema }) => ({ name, inputSchema, outputSchema }))).toEqual([ARRAY_OUT, UNTYPED_OUT, OBJECT_OUT]);
    expect((await d.handle({ jsonrpc: "2.0", id: 6, method: "tools/call", params: { name: "numbers", arguments: {}, _meta: META } }))?.result?.["structuredContent"]).toEqual([1, 2]);
  });
});

describe("content blocks an older legacy revision lacks", () => {
  it("a resource_link or audio block goes to a 2024-11-05 client as a text block saying what it was, told to onError once; not the whole answer -32603 (helper-157)", async () => {
    const dir = await generateInto("dual-era/2024-11-05-content", { schema: { specDir: SPEC_DIR, version: "2024-11-05" }, docs: "none" });
    const oldest = ((await import(join(dir, "dispatch.ts"))) as { DISPATCH_REVISION: DispatchRevision }).DISPATCH_REVISION;
    const link = { type: "resource_link", uri: "file:///notes/a.txt", name: "a.txt" };
    const audio = { type: "audio", data: "AAAA", mimeType: "audio/wav" };
    const content = [{ type: "text", text: "see" }, link, audio];
    const d = dual(
      {
        tools: [{ definition: { name: "links", inputSchema: { type: "object", properties: {} } }, call: () => ({ content }) }] as never,
        handlers: { "prompts/get": () => ({ messages: [{ role: "user", content: { type: "text", text: "hi" } }, { role: "assistant", content: link }] }) },
        capabilities: { tools: {}, prompts: {} },
      },
      [MODERN, oldest],
    );
    const client = legacyClient(d);
    expect((await client.open("2024-11-05", {}))?.result?.["protocolVersion"]).toBe("2024-11-05");
    const call = await client.send(legacy(1, "tools/call", { name: "links", arguments: {} }));
    expect(call?.result?.["content"]).toEqual([
      { type: "text", text: "see" },
      { type: "text", text: "a.txt: file:///notes/a.txt" },
      { type: "text", text: "(audio content left out: protocol 2024-11-05 has no such content)" },
    ]);
    expect(legacyErrors("CallToolResult", call?.result)).toEqual([]);
    expect((await client.send(legacy(2, "prompts/get", { name: "p" })))?.result?.["messages"]).toEqual([
      { role: "user", content: { type: "text", text: "hi" } },
      { role: "assistant", content: { type: "text", text: "a.txt: file:///notes/a.txt" } },
    ]);
    await client.send(legacy(3, "tools/call", { name: "links", arguments: {} }));
    // Told once per method and types, not at each call; the handler's own objects are as it made them.
    expect(logged.map((l) => String((l.error as Error).message))).toEqual([
      "tools/call to a 2024-11-05 client turns content it cannot take into text: audio, resource_link",
      "prompts/get to a 2024-11-05 client turns content it cannot take into text: resource_link",
    ]);
    expect(content).toEqual([{ type: "text", text: "see" }, link, audio]);
    // A modern client gets the blocks as they are.
    expect((await d.handle(modern(4, "tools/call", { name: "links", arguments: {} })))?.result?.["content"]).toEqual(content);
  });

  it("a block the handler revision refuses too (a type no revision has, a resource_link without its uri) is -32603 to a legacy client as to a modern one, not turned into text", async () => {
    const dir = await generateInto("dual-era/2024-11-05-content", { schema: { specDir: SPEC_DIR, version: "2024-11-05" }, docs: "none" });
    const oldest = ((await import(join(dir, "dispatch.ts"))) as { DISPATCH_REVISION: DispatchRevision }).DISPATCH_REVISION;
    let content: Json[] = [];
    const d = dual({ tools: [{ definition: { name: "bad", inputSchema: { type: "object", properties: {} } }, call: () => ({ content }) }] as never, capabilities: { tools: {} } }, [MODERN, oldest]);
    const client = legacyClient(d);
    await client.open("2024-11-05", {});
    for (const block of [{ type: "nonsense" }, { type: "resource_link", name: "a.txt" }, { type: "audio", mimeType: "audio/wav" }]) {
      content = [block];
      expect(await client.send(legacy(1, "tools/call", { name: "bad", arguments: {} }))).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "Internal error" } });
      expect(await d.handle(modern(2, "tools/call", { name: "bad", arguments: {} }))).toEqual({ jsonrpc: "2.0", id: 2, error: { code: -32603, message: "Internal error" } });
    }
    expect(logged.filter((l) => String((l.error as Error).message).includes("into text"))).toEqual([]);
  });

  it("more such blocks than a validation lists (100) are all turned into text, not the whole answer -32603", async () => {
    const dir = await generateInto("dual-era/2024-11-05-content", { schema: { specDir: SPEC_DIR, version: "2024-11-05" }, docs: "none" });
    const oldest = ((await import(join(dir, "dispatch.ts"))) as { DISPATCH_REVISION: DispatchRevision }).DISPATCH_REVISION;
    const links = Array.from({ length: 250 }, (_, i) => ({ type: "resource_link", uri: "file:///notes/" + String(i), name: String(i) }));
    const d = dual(
      {
        tools: [{ definition: { name: "links", inputSchema: { type: "object", properties: {} } }, call: () => ({ content: links }) }] as never,
        handlers: { "prompts/get": () => ({ messages: links.map((content) => ({ role: "user", content })) }) },
        capabilities: { tools: {}, prompts: {} },
      },
      [MODERN, oldest],
    );
    const client = legacyClient(d);
    await client.open("2024-11-05", {});
    const texts = links.map((l) => ({ type: "text", text: l.name + ": " + l.uri }));
    const call = await client.send(legacy(1, "tools/call", { name: "links", arguments: {} }));
    expect(call?.result?.["content"]).toEqual(texts);
    expect(legacyErrors("CallToolResult", call?.result)).toEqual([]);
    expect((await client.send(legacy(2, "prompts/get", { name: "p" })))?.result?.["messages"]).toEqual(texts.map((content) => ({ role: "user", content })));
    expect(logged.map((l) => String((l.error as Error).message))).toEqual([
      "tools/call to a 2024-11-05 client turns content it cannot take into text: resource_link",
      "prompts/get to a 2024-11-05 client turns content it cannot take into text: resource_link",
    ]);
  });
});

describe("a tool's structuredContent against its outputSchema, to a legacy client", () => {
  it("is checked when the handler writes the handler revision's resultType complete (helper-128: a legacy client got structuredContent the schema refuses, nothing logged)", async () => {
    const OUT = { name: "count", inputSchema: { type: "object" }, outputSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] } };
    const d = dual({ tools: [{ definition: OUT, call: () => ({ resultType: "complete", content: [], structuredContent: { n: "three" } }) }] as never });
    const client = legacyClient(d);
    await client.open();
    expect(await client.send(legacy(1, "tools/call", { name: "count", arguments: {} }))).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "Internal error" } });
    expect(await d.handle(modern(2, "tools/call", { name: "count", arguments: {} }))).toEqual({ jsonrpc: "2.0", id: 2, error: { code: -32603, message: "Internal error" } });
    expect(logged.map((l) => [String(l.error), l.info["reason"]])).toEqual([
      ['TypeError: the "count" tool returned a result its outputSchema does not allow: its structuredContent: /n: expected integer, got string', "invalid-result"],
      ['TypeError: the "count" tool returned a result its outputSchema does not allow: its structuredContent: /n: expected integer, got string', "invalid-result"],
    ]);
  });
});

describe("tools a legacy client cannot take", () => {
  it("a property named __proto__ (a definition read from JSON) stays a property when the boolean schemas beside it are narrowed", async () => {
    const definition = JSON.parse('{"name":"proto","inputSchema":{"type":"object","properties":{"__proto__":{"type":"string"},"b":true}}}') as Json;
    const d = dual({ tools: [{ definition, call: () => ({ content: [] }) }] as never });
    const client = legacyClient(d);
    await client.open();
    const listed = await client.send(legacy(1, "tools/list"));
    expect(JSON.stringify(listed?.result)).toBe('{"tools":[{"name":"proto","inputSchema":{"type":"object","properties":{"__proto__":{"type":"string"},"b":{}}}}]}');
    expect(logged).toEqual([]);
  });

  it("a tool whose schema the 2025-11-25 schema refuses even narrowed (properties not an object) is left out of a legacy tools/list, not the whole list answered -32603; a modern client gets it", async () => {
    const BAD = [
      { name: "array-properties", inputSchema: { type: "object", properties: [true] } },
      { name: "null-property", inputSchema: { type: "object", properties: { a: null } } },
      { name: "required-string", inputSchema: { type: "object", required: "a" } },
    ];
    const GOOD = { name: "good", inputSchema: { type: "object", properties: { a: true } } };
    const d = dual({ tools: [...BAD, GOOD].map((definition) => ({ definition, call: () => ({ content: [] }) })) as never });
    const client = legacyClient(d);
    await client.open();
    const listed = await client.send(legacy(1, "tools/list"));
    expect(listed?.result).toEqual({ tools: [{ name: "good", inputSchema: { type: "object", properties: { a: {} } } }] });
    expect(legacyErrors("ListToolsResult", listed?.result)).toEqual([]);
    expect(logged.length).toBe(1);
    // The same tools left out again, of this client's list and of another's: said once.
    expect((await client.send(legacy(3, "tools/list")))?.result).toEqual(listed?.result);
    const other = legacyClient(d);
    await other.open();
    expect((await other.send(legacy(1, "tools/list")))?.result).toEqual(listed?.result);
    expect(logged.length).toBe(1);
    logged.length = 0;
    const modern = await d.handle({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: META } });
    expect((modern?.result?.["tools"] as Json[]).map((t) => t["name"])).toEqual([...BAD.map((t) => t.name), "good"]);
  });

  it("more unfit tools than a validation reports issues for (over 100): still left out one by one, not the whole legacy list answered -32603", async () => {
    const many = Array.from({ length: 150 }, (_, i) => ({ name: "bad-" + String(i), inputSchema: { type: "object", properties: { a: null } } }));
    const wide = { name: "wide", inputSchema: { type: "object", properties: Object.fromEntries(Array.from({ length: 120 }, (_, i) => ["p" + String(i), null])) } };
    const GOOD = { name: "good", inputSchema: { type: "object", properties: { a: true } } };
    const d = dual({ tools: [...many, wide, GOOD].map((definition) => ({ definition, call: () => ({ content: [] }) })) as never });
    const client = legacyClient(d);
    await client.open();
    const listed = await client.send(legacy(1, "tools/list"));
    expect(listed?.error).toBeUndefined();
    expect(listed?.result).toEqual({ tools: [{ name: "good", inputSchema: { type: "object", properties: { a: {} } } }] });
    expect(logged.length).toBe(1);
    logged.length = 0;
  });
});

describe("handlers written once: results adapted to the legacy revision", () => {
  it("a legacy tools/call result has no resultType, ttlMs, cacheScope or modern _meta, and validates against the 2025-11-25 schema", async () => {
    const d = dual({ cache: { ttlMs: 1000, cacheScope: "public" } });
    const client = legacyClient(d);
    await client.open();
    const called = await client.send(legacy(1, "tools/call", { name: "echo", arguments: { text: "hi" } }));
    expect(called).toEqual({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "hi" }] } });
    expect(legacyErrors("CallToolResult", called?.result)).toEqual([]);
    expect(legacyErrors("JSONRPCResponse", called)).toEqual([]);
    // The oracle does refuse: the same result with a member of the wrong type.
    expect(legacyErrors("CallToolResult", { ...called?.result, isError: "yes" })).not.toEqual([]);
    const listed = await client.send(legacy(2, "tools/list"));
    expect(listed).toEqual({ jsonrpc: "2.0", id: 2, result: { tools: [ECHO, ASK] } });
    expect(legacyErrors("ListToolsResult", listed?.result)).toEqual([]);
    const resources = await client.send(legacy(3, "resources/list"));
    expect(resources?.result).toEqual({ resources: [{ uri: "test://a", name: "a" }] });
    // The same handlers, to a modern client: completed as before.
    expect((await d.handle(modern(4, "tools/list")))?.result).toEqual({
      tools: [ECHO, ASK],
      resultType: "complete",
      ttlMs: 1000,
      cacheScope: "public",
      _meta: { "io.modelcontextprotocol/serverInfo": SERVER_INFO },
    });
  });

  it("resultDrop, when the table gives it, says what is deleted", async () => {
    const echo = { definition: ECHO, call: () => ({ content: [], extra: 1, kept: 2 }) };
    const withExtra = create([MODERN, { ...legacyTable(), resultDrop: { "tools/call": ["resultType", "extra"] } }], { serverInfo: SERVER_INFO, tools: [echo] as never });
    const other = legacyClient(withExtra);
    await other.open();
    expect((await other.send(legacy(1, "tools/call", { name: "echo", arguments: { text: "x" } })))?.result).toEqual({ content: [], kept: 2 });
  });

  it("a result the legacy revision cannot carry is answered -32603 and logged (checked with the legacy parseResult)", async () => {
    const d = dual({ handlers: { "resources/list": () => ({ resources: [{ uri: 5 }] }) } });
    const client = legacyClient(d);
    await client.open();
    expect(await client.send(legacy(1, "resources/list"))).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "Internal error" } });
    expect(logged.map((l) => l.info)).toEqual([{ method: "resources/list", id: 1, reason: "invalid-result" }]);
  });

  it("the handler context says which era and revision it serves, with the session's capabilities (requireClientCapabilities works)", async () => {
    const contexts: RequestContextCore[] = [];
    const d = dual({
      handlers: {
        "resources/list": (_p: Json, c: RequestContextCore) => {
          contexts.push(c);
          c.requireClientCapabilities({ roots: {} });
          return { resources: [] };
        },
      },
    });
    const client = legacyClient(d);
    await client.open(LEGACY_VERSION, { sampling: {} });
    expect((await client.send(legacy(1, "resources/list")))?.error).toEqual({
      code: -32021,
      message: "Missing required client capability: roots",
      data: { requiredCapabilities: { roots: {} } },
    });
    expect(contexts[0]).toMatchObject({ era: "legacy", protocolVersion: LEGACY_VERSION, clientCapabilities: { sampling: {} }, clientInfo: { name: "legacy-client" } });
    await d.handle(modern(2, "resources/list"));
    expect(contexts[1]).toMatchObject({ era: "modern", protocolVersion: MODERN_VERSION });
  });
});

describe("a legacy session's identity and end, for per-session state", () => {
  it("context.legacySession is one object per session (undefined for modern requests), and onSessionClosed is told of it once when it ends: closed, replaced, or its initialize failed (helper-149: timers could not be stopped)", async () => {
    const seen: (object | undefined)[] = [];
    const closed: { session: object; why: string; protocolVersion: string; clientInfo: unknown }[] = [];
    const d = dual({
      handlers: {
        "resources/list": (_p: Json, c: RequestContextCore) => {
          seen.push(c.legacySession);
          return { resources: [] };
        },
      },
      onSessionClosed: (session, info) => closed.push({ session, ...info }),
    });
    const a = legacyClient(d);
    const b = legacyClient(d);
    await a.open();
    await b.open();
    await a.send(legacy(1, "resources/list"));
    await a.send(legacy(2, "resources/list"));
    await b.send(legacy(1, "resources/list"));
    await d.handle(modern(3, "resources/list"));
    const [a1, a2, b1, m] = seen;
    expect([typeof a1, a1 === a2, a1 === b1, m, Object.isFrozen(a1)]).toEqual(["object", true, false, undefined, true]);
    expect(closed).toEqual([]);
    d.closeChannel(a.channel);
    d.closeChannel(a.channel);
    expect(closed).toEqual([{ session: a1, why: "the session closed", protocolVersion: LEGACY_VERSION, clientInfo: { name: "legacy-client", version: "1.0.0" } }]);
    expect(closed[0]!.session === a1).toBe(true);
    // Another initialize on b's connection ends b's session; the new one is another object.
    await b.open();
    await b.send(legacy(2, "resources/list"));
    expect(closed.slice(1)).toEqual([{ session: b1, why: "the client initialized the session again", protocolVersion: LEGACY_VERSION, clientInfo: { name: "legacy-client", version: "1.0.0" } }]);
    expect(closed[1]!.session === b1).toBe(true);
    expect(seen[4] !== b1 && seen[4] !== undefined).toBe(true);
    // An initialize the schema refuses opens no session, so there is none to tell of.
    const c = legacyClient(d);
    expect((await c.send({ ...initialize(0, LEGACY_VERSION), params: { protocolVersion: LEGACY_VERSION } }))?.error?.code).toBe(-32602);
    expect(closed.length).toBe(2);
    expect(logged).toEqual([]);
    // One that succeeds after a failed one: its session is told of when the dispatcher's channel closes.
    await c.open();
    d.closeChannel(c.channel, "stdio input ended");
    expect(closed.slice(2).map((x) => x.why)).toEqual(["stdio input ended"]);
  });

  it("over stdio, the session ends when the input does: onSessionClosed is told once the lines read are served", async () => {
    const closed: string[] = [];
    const { input, answered, server } = stdioServer(dual({ onSessionClosed: (_s, { why }) => closed.push(why) }));
    input.write(OPENING_LINES + JSON.stringify(legacy(2, "tools/list")) + "\n");
    input.end();
    await within(server.closed);
    expect(answered(2)?.["result"]).toBeDefined();
    expect(closed).toEqual(["Server shutting down"]);
  });

  it("a notification only a legacy revision has (notifications/roots/list_changed) takes a typed handler in a multi-revision output, which sees its session (helper-149: a dual-era server could not handle it)", async () => {
    const dir = await generateInto("dual-era/legacy-notifications", { schema: [{ specDir: SPEC_DIR, version: "draft" }, { specDir: SPEC_DIR, version: LEGACY_VERSION }], docs: "none" });
    writeFileSync(
      join(dir, "use.ts"),
      [
        'import { defineHandlers, type LegacyNotificationMethod } from "./dispatch.js";',
        'export const changed: LegacyNotificationMethod = "notifications/roots/list_changed";',
        "export const handlers = defineHandlers({",
        '  "notifications/roots/list_changed": (params, context) => void [params?.["_meta"], context.legacySession, context.method],',
        "});",
        "// @ts-expect-error a notification no revision served takes from clients",
        'defineHandlers({ "notifications/nope": () => undefined });',
        "",
      ].join("\n"),
    );
    expect(typecheck(dir)).toEqual([]);
    const { createServerDispatcher } = (await import(join(dir, "dispatch.ts"))) as { createServerDispatcher: (options: DispatcherOptions) => Dispatcher };
    const seen: (object | undefined)[] = [];
    const d = createServerDispatcher({
      serverInfo: SERVER_INFO,
      handlers: {
        "notifications/roots/list_changed": (_params: unknown, context: { legacySession: object | undefined }) => void seen.push(context.legacySession),
        "resources/list": (_params: unknown, context: RequestContextCore) => (seen.push(context.legacySession), { resources: [] }),
      },
    });
    const client = legacyClient(d);
    await client.open(LEGACY_VERSION, { roots: { listChanged: true } });
    await client.send(legacy(1, "resources/list"));
    await client.send({ jsonrpc: "2.0", method: "notifications/roots/list_changed" });
    expect(seen.length).toBe(2);
    expect(typeof seen[0] === "object" && seen[0] === seen[1]).toBe(true);
  });

  it("what onSessionClosed throws goes to onError as session-listener-threw, and the session ends all the same", async () => {
    const d = dual({
      onSessionClosed: () => {
        throw new Error("cleanup failed");
      },
    });
    const a = legacyClient(d);
    await a.open();
    d.closeChannel(a.channel);
    expect(logged.map((l) => [(l.error as Error).message, l.info])).toEqual([["cleanup failed", { method: "initialize", reason: "session-listener-threw" }]]);
    expect((await a.send(legacy(1, "tools/list")))?.result).toBeUndefined();
  });

  it("what an async onSessionClosed rejects with goes to onError as session-listener-threw too, not to the process as an unhandled rejection (which ends it)", async () => {
    const d = dual({
      onSessionClosed: async () => {
        await Promise.resolve();
        throw new Error("async cleanup failed");
      },
    });
    const a = legacyClient(d);
    await a.open();
    d.closeChannel(a.channel);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(logged.map((l) => [(l.error as Error).message, l.info])).toEqual([["async cleanup failed", { method: "initialize", reason: "session-listener-threw" }]]);
  });
});

describe("InputRequiredResult to a legacy client: server→client requests, responses through handle()", () => {
  it("elicitation round trip: the request goes over the request's stream, the client's answer comes back through handle(), the handler runs again with inputResponses and requestState", async () => {
    const d = dual();
    const client = legacyClient(d);
    await client.open();
    client.answerWith(() => ({ result: { action: "accept", content: { name: "Ada" } } }));
    const answered = await client.send(legacy(7, "tools/call", { name: "ask", arguments: {} }));
    expect(answered).toEqual({ jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: "Hello Ada (asked-once)" }] } });
    expect(legacyErrors("CallToolResult", answered?.result)).toEqual([]);
    const asked = client.sent.filter((m) => "id" in m);
    expect(asked).toEqual([{ jsonrpc: "2.0", id: expect.any(Number), method: "elicitation/create", params: NAME_REQUEST.params }]);
    expect(legacyErrors("ElicitRequest", asked[0])).toEqual([]);
    // A modern client gets the InputRequiredResult itself, to retry.
    expect((await d.handle(modern(8, "tools/call", { name: "ask", arguments: {} })))?.result?.["resultType"]).toBe("input_required");
  });

  it("the handler sees inputResponses in its params and its context, with resultType filled in (the handler revision's types)", async () => {
    const seen: { params: Json; inputResponses: unknown; requestState: unknown }[] = [];
    const d = dual({
      handlers: {
        "prompts/get": (params: Json, c: RequestContextCore) => {
          seen.push({ params, inputResponses: c.inputResponses, requestState: c.requestState });
          if (c.inputResponses === undefined) return { resultType: "input_required", inputRequests: { name: NAME_REQUEST, roots: { method: "roots/list" } } };
          return { messages: [] };
        },
      },
      capabilities: { ...CAPABILITIES, prompts: {} },
    });
    const client = legacyClient(d);
    await client.open(LEGACY_VERSION, { elicitation: {}, roots: {} });
    client.answerWith((r) => (r.method === "roots/list" ? { result: { roots: [] } } : { result: { action: "decline" } }));
    expect((await client.send(legacy(1, "prompts/get", { name: "p" })))?.result).toEqual({ messages: [] });
    // As a modern client sends them (2026-07-28 InputResponse: ElicitResult and ListRootsResult have no resultType), nothing added (helper-125).
    expect(seen[1]?.params).toEqual({ name: "p", inputResponses: { name: { action: "decline" }, roots: { roots: [] } } });
    expect(seen[1]?.inputResponses).toEqual(seen[1]?.params["inputResponses"]);
    expect(seen[1]?.requestState).toBeUndefined();
  });

  it("a mode or feature the client did not declare is -32021, in both eras: url elicitation, form elicitation to a url-only client, sampling with tools (review 11: finding 4)", async () => {
    const URL_REQUEST = { method: "elicitation/create", params: { mode: "url", message: "Sign in", url: "https://example.com/sign-in", elicitationId: "e1" } };
    const SAMPLING_WITH_TOOLS = {
      method: "sampling/createMessage",
      params: { messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 10, tools: [{ name: "t", inputSchema: { type: "object" } }] },
    };
    const asks: { [name: string]: Json } = { url: URL_REQUEST, form: NAME_REQUEST, sampling: SAMPLING_WITH_TOOLS };
    const d = dual({
      handlers: {
        "prompts/get": (params: Json, c: RequestContextCore) =>
          c.inputResponses === undefined ? { resultType: "input_required", inputRequests: { it: asks[String(params["name"])] } } : { messages: [] },
      },
      capabilities: { ...CAPABILITIES, prompts: {} },
    });
    const missing = (requiredCapabilities: Json, named: string) => ({ code: -32021, message: "Missing required client capability: " + named, data: { requiredCapabilities } });
    const formOnly = legacyClient(d);
    await formOnly.open(LEGACY_VERSION, { elicitation: {}, sampling: {} });
    expect((await formOnly.send(legacy(1, "prompts/get", { name: "url" })))?.error).toEqual(missing({ elicitation: { url: {} } }, "elicitation.url"));
    expect((await formOnly.send(legacy(2, "prompts/get", { name: "sampling" })))?.error).toEqual(missing({ sampling: { tools: {} } }, "sampling.tools"));
    const urlOnly = legacyClient(d);
    await urlOnly.open(LEGACY_VERSION, { elicitation: { url: {} } });
    expect((await urlOnly.send(legacy(3, "prompts/get", { name: "form" })))?.error).toEqual(missing({ elicitation: { form: {} } }, "elicitation.form"));
    expect([...formOnly.sent, ...urlOnly.sent].filter((m) => "id" in m)).toEqual([]);
    // Declared: sent.
    urlOnly.answerWith(() => ({ result: { action: "cancel" } }));
    expect((await urlOnly.send(legacy(4, "prompts/get", { name: "url" })))?.result).toEqual({ messages: [] });
    expect(urlOnly.sent.filter((m) => "id" in m).map((m) => m.params?.["mode"])).toEqual(["url"]);
    // A modern client: the same rule on its InputRequiredResult.
    const modernMeta = (capabilities: Json) => ({ _meta: { ...META, "io.modelcontextprotocol/clientCapabilities": capabilities } });
    expect((await d.handle({ jsonrpc: "2.0", id: 5, method: "prompts/get", params: { name: "url", ...modernMeta({ elicitation: {} }) } }))?.error).toEqual(
      missing({ elicitation: { url: {} } }, "elicitation.url"),
    );
    expect((await d.handle({ jsonrpc: "2.0", id: 6, method: "prompts/get", params: { name: "sampling", ...modernMeta({ sampling: {} }) } }))?.error).toEqual(
      missing({ sampling: { tools: {} } }, "sampling.tools"),
    );
    expect((await d.handle({ jsonrpc: "2.0", id: 7, method: "prompts/get", params: { name: "url", ...modernMeta({ elicitation: { url: {} } }) } }))?.result?.["resultType"]).toBe(
      "input_required",
    );
  });

  it("a url elicitation written against the handler revision (which has no elicitationId) reaches a 2025-11-25 client with the elicitationId that revision requires", async () => {
    const URL_REQUEST = { method: "elicitation/create", params: { mode: "url", message: "Sign in", url: "https://example.com/sign-in" } };
    const d = dual({
      handlers: {
        "prompts/get": (params: Json, c: RequestContextCore) =>
          c.inputResponses === undefined ? { resultType: "input_required", inputRequests: { it: params["name"] === "own" ? { ...URL_REQUEST, params: { ...URL_REQUEST.params, elicitationId: "mine" } } : URL_REQUEST } } : { messages: [] },
      },
      capabilities: { ...CAPABILITIES, prompts: {} },
    });
    const client = legacyClient(d);
    await client.open(LEGACY_VERSION, { elicitation: { url: {} } });
    client.answerWith(() => ({ result: { action: "accept" } }));
    expect((await client.send(legacy(1, "prompts/get", { name: "url" })))?.result).toEqual({ messages: [] });
    expect((await client.send(legacy(2, "prompts/get", { name: "url" })))?.result).toEqual({ messages: [] });
    expect((await client.send(legacy(3, "prompts/get", { name: "own" })))?.result).toEqual({ messages: [] });
    const asked = client.sent.filter((m) => m.method === "elicitation/create");
    const ids = asked.map((m) => ("params" in m ? m.params?.["elicitationId"] : undefined));
    expect(ids).toHaveLength(3);
    expect(typeof ids[0]).toBe("string");
    expect(ids[0]).not.toEqual(ids[1]);
    expect(ids[2]).toBe("mine");
    // Unique beyond this dispatcher too (helper-122: "elicitation-1" again in each process, and beside a handler's own):
    // a random part, the same within one dispatcher, another in the next.
    expect(ids[0]).toMatch(/^elicitation-[0-9a-f]{32}-\d+$/);
    expect(String(ids[0]).split("-")[1]).toBe(String(ids[1]).split("-")[1]);
    const other = legacyClient(dual({ handlers: { "prompts/get": (_: Json, c: RequestContextCore) => (c.inputResponses === undefined ? { resultType: "input_required", inputRequests: { it: URL_REQUEST } } : { messages: [] }) }, capabilities: { ...CAPABILITIES, prompts: {} } }));
    await other.open(LEGACY_VERSION, { elicitation: { url: {} } });
    other.answerWith(() => ({ result: { action: "accept" } }));
    expect((await other.send(legacy(1, "prompts/get", { name: "url" })))?.result).toEqual({ messages: [] });
    const otherId = other.sent.filter((m) => m.method === "elicitation/create").map((m) => ("params" in m ? m.params?.["elicitationId"] : undefined))[0];
    expect(otherId).toMatch(/^elicitation-[0-9a-f]{32}-1$/);
    expect(otherId).not.toEqual(ids[0]);
    for (const m of asked) expect(legacyErrors("ElicitRequest", m)).toEqual([]);
    expect(logged).toEqual([]);
    // The handler's own object is not changed.
    expect(URL_REQUEST.params).not.toHaveProperty("elicitationId");
  });

  it("no server→client request goes out before the client sent notifications/initialized: the round waits for it, within its time limit (review 11: finding 7)", async () => {
    const d = dual();
    const client = legacyClient(d);
    await client.send(initialize(0, LEGACY_VERSION, { elicitation: {} }));
    client.answerWith(() => ({ result: { action: "accept", content: { name: "Late" } } }));
    const called = client.send(legacy(1, "tools/call", { name: "ask", arguments: {} }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(client.sent.filter((m) => "id" in m)).toEqual([]);
    await client.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    expect((await called)?.result).toEqual({ content: [{ type: "text", text: "Hello Late (asked-once)" }] });
    expect(client.sent.filter((m) => "id" in m).map((m) => m.method)).toEqual(["elicitation/create"]);

    const never = dual({ inputTimeoutMs: 50 });
    const silent = legacyClient(never);
    await silent.send(initialize(0, LEGACY_VERSION, { elicitation: {} }));
    expect((await silent.send(legacy(1, "tools/call", { name: "ask", arguments: {} })))?.error).toEqual({
      code: -32603,
      message: "Internal error: the client never sent notifications/initialized, so no request could be sent to it: the client did not answer within 50 ms",
    });
    expect(silent.sent).toEqual([]);
  });

  it("a round waiting for notifications/initialized of a session that a second initialize in flight replaced is given up at once, not at its time limit, as is one asking after (helper-39)", async () => {
    const asked = { content: [{ type: "text", text: "Hello Late (asked-once)" }] };
    // Written as a client may write them: initialize, a call that elicits, initialize again, with 0–8 turns of
    // the microtask queue before the second. Depending on how far the call got, it is given up waiting for the first
    // session to be initialized or when it asks; it is never left waiting for a session that will not open.
    const outcomes = new Set<string>();
    for (let turns = 0; turns <= 8; turns++) {
      const d = dual({ inputTimeoutMs: 60_000 });
      const client = legacyClient(d);
      client.answerWith(() => ({ result: { action: "accept", content: { name: "Late" } } }));
      const first = client.send(initialize(0, LEGACY_VERSION, { elicitation: {} }));
      const called = client.send(legacy(1, "tools/call", { name: "ask", arguments: {} }));
      for (let i = 0; i < turns; i++) await Promise.resolve();
      const second = client.send(initialize(2, LEGACY_VERSION, { elicitation: {} }));
      expect((await first)?.result).toMatchObject({ protocolVersion: LEGACY_VERSION });
      expect((await second)?.result).toMatchObject({ protocolVersion: LEGACY_VERSION });
      await client.send({ jsonrpc: "2.0", method: "notifications/initialized" });
      const outcome = await settledWithin(called, 2000);
      const seen = typeof outcome === "string" ? outcome : outcome === undefined ? "unanswered" : "result" in outcome ? outcome.result : outcome.error;
      // Given up, whether it was waiting for the first session's notifications/initialized or asks once the second opened:
      // it arrived in the first session, whose client's answers the second one's cannot be (before, a call that got far
      // enough was served by the second session's client).
      expect({ turns, seen }).toEqual({
        turns,
        seen: { code: -32603, message: expect.stringMatching(/^Internal error: (?:the client never sent notifications\/initialized, so no request could be sent to it|no answer to elicitation\/create \(id \d+\)): the client initialized the session again$/) },
      });
      outcomes.add(typeof seen === "object" && "message" in seen && String(seen.message).includes("never sent") ? "given up waiting" : "given up asking");
      // The session the second initialize opened serves the client as usual.
      expect((await client.send(legacy(3, "tools/call", { name: "ask", arguments: {} })))?.result).toEqual(asked);
    }
    expect([...outcomes].sort()).toEqual(["given up asking", "given up waiting"]);
  });

  it("a missing client capability is -32021; an error answer, a malformed answer, too many rounds are -32603 or -32602", async () => {
    const d = dual();
    const noElicitation = legacyClient(d);
    await noElicitation.open(LEGACY_VERSION, {});
    expect((await noElicitation.send(legacy(1, "tools/call", { name: "ask", arguments: {} })))?.error).toEqual({
      code: -32021,
      message: "Missing required client capability: elicitation",
      data: { requiredCapabilities: { elicitation: {} } },
    });
    expect(noElicitation.sent.filter((m) => "id" in m)).toEqual([]);

    const refusing = legacyClient(d);
    await refusing.open();
    refusing.answerWith(() => ({ error: { code: -32601, message: "Method not found" } }));
    expect((await refusing.send(legacy(2, "tools/call", { name: "ask", arguments: {} })))?.error).toEqual({
      code: -32603,
      message: "The client answered elicitation/create with error -32601: Method not found",
    });

    const malformed = legacyClient(d);
    await malformed.open();
    malformed.answerWith(() => ({ result: { action: "maybe" } }));
    expect((await malformed.send(legacy(3, "tools/call", { name: "ask", arguments: {} })))?.error?.code).toBe(-32602);

    const forever = dual({
      maxInputRounds: 3,
      tools: [{ definition: ASK, call: () => ({ resultType: "input_required", inputRequests: { name: NAME_REQUEST } }) }] as never,
    });
    const patient = legacyClient(forever);
    await patient.open();
    patient.answerWith(() => ({ result: { action: "cancel" } }));
    expect((await patient.send(legacy(4, "tools/call", { name: "ask", arguments: {} })))?.error).toEqual({
      code: -32603,
      message: "Internal error: the request needed more than 3 rounds of input",
    });
    expect(patient.sent.filter((m) => "id" in m)).toHaveLength(2);
  });

  it("a malformed InputRequiredResult is -32603 at once for a legacy client, as for a modern one: the handler is not called again", async () => {
    // Each result, the method whose handler returns it, and what onError is told of it (for either client).
    const results: readonly (readonly [string, Json, string])[] = [
      ["tools/call", { resultType: "input_required" }, "an InputRequiredResult needs inputRequests or requestState (or both)"],
      ["tools/call", { resultType: "input_required", inputRequests: "name" }, '/inputRequests: expected object, got "name"'],
      ["tools/call", { resultType: "input_required", requestState: 7 }, "/requestState: expected string, got 7"],
      // "Servers MUST NOT send InputRequiredResult responses on any other client requests" (draft basic/patterns/mrtr)
      ["prompts/list", { resultType: "input_required", inputRequests: { name: NAME_REQUEST } }, "/resultType: prompts/list cannot answer input_required"],
    ];
    for (const [method, result, problem] of results) {
      const what = method + " " + JSON.stringify(result);
      let calls = 0;
      const answer = () => (calls++, result);
      const d = dual(method === "tools/call" ? { tools: [{ definition: ASK, call: answer }] as never } : { handlers: { [method]: answer } });
      const params = method === "tools/call" ? { name: "ask", arguments: {} } : {};
      const modern = await d.handle({ jsonrpc: "2.0", id: 1, method, params: { _meta: META, ...params } });
      const client = legacyClient(d);
      await client.open();
      const legacyAnswer = await client.send(legacy(2, method, params));
      expect({ what, modern: modern?.error, legacy: legacyAnswer?.error, calls }).toEqual({
        what,
        modern: { code: -32603, message: "Internal error" },
        legacy: { code: -32603, message: "Internal error" },
        calls: 2,
      });
      expect(client.sent.filter((m) => "id" in m)).toEqual([]);
      const told = logged.map(({ error, info }) => [info["reason"], error instanceof Error ? error.message : String(error)]);
      const said = ["invalid-result", "the " + method + " handler returned a malformed result: " + problem];
      expect({ what, told }).toEqual({ what, told: [said, said] });
    }
  });

  it("asks a 2025-06-18 client for a form elicitation without `mode`, which that revision does not define; a url one keeps its members", async () => {
    // A multi-revision output of the draft and 2025-06-18: its 2025-06-18 table carries requestDrop.
    const dir = await generateInto("dual-era/draft-2025-06-18", { schema: [{ specDir: SPEC_DIR, version: "draft" }, { specDir: SPEC_DIR, version: "2025-06-18" }], docs: "none" });
    const { createServerDispatcher } = (await import(join(dir, "dispatch.ts"))) as { createServerDispatcher: (options: DispatcherOptions) => Dispatcher };
    const URL_REQUEST = { method: "elicitation/create", params: { mode: "url", message: "Sign in", url: "https://example.com/sign-in" } };
    const d = createServerDispatcher({
      serverInfo: SERVER_INFO,
      tools: [
        { definition: ASK, call: (_args: Json, context: RequestContextCore) => (context.inputResponses === undefined ? { resultType: "input_required", inputRequests: { name: NAME_REQUEST } } : { content: [] }) },
        { definition: { ...ASK, name: "sign-in" }, call: () => ({ resultType: "input_required", inputRequests: { url: URL_REQUEST } }) },
      ] as never,
    });
    const client = legacyClient(d);
    expect((await client.open("2025-06-18"))?.result?.["protocolVersion"]).toBe("2025-06-18");
    client.answerWith(() => ({ result: { action: "accept", content: { name: "Ada" } } }));
    expect((await client.send(legacy(1, "tools/call", { name: "ask", arguments: {} })))?.result).toEqual({ content: [] });
    const { mode, ...rest } = NAME_REQUEST.params;
    expect(mode).toBe("form");
    expect(client.sent.filter((m) => m.method === "elicitation/create").map((m) => ("params" in m ? m.params : undefined))).toEqual([rest]);
    // The handler's own object is not changed.
    expect(NAME_REQUEST.params.mode).toBe("form");
    // A url elicitation means something else without its mode: it is not rewritten, and a 2025-06-18 client that declared no url mode is not asked.
    expect((await client.send(legacy(2, "tools/call", { name: "sign-in", arguments: {} })))?.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: { url: {} } } } });

    // A 2025-11-25 client (of a draft + 2025-11-25 server) gets the request as the handler wrote it.
    const current = legacyClient(dual());
    await current.open(LEGACY_VERSION);
    current.answerWith(() => ({ result: { action: "accept", content: { name: "Ada" } } }));
    expect((await current.send(legacy(1, "tools/call", { name: "ask", arguments: {} })))?.result).toBeDefined();
    expect(current.sent.filter((m) => m.method === "elicitation/create").map((m) => ("params" in m ? m.params : undefined))[0]).toEqual(NAME_REQUEST.params);
  });

  it("bounds what legacy sessions keep of their initialize: 64 KiB of capabilities and clientInfo a session (-32602), 64 MiB over all of them (-32603) until one ends (helper-95: sessions kept any 4 MiB, and 46 ran the server out of memory)", async () => {
    const d = dual();
    const opening = (pad: string) => legacyClient(d).send(initialize(0, LEGACY_VERSION, { experimental: { pad: { text: pad } } }));
    // The estimate as retainedBytes makes it, of what the session would keep (unit-tested in runtime.test.ts).
    const kept = (pad: string) => retainedBytes([{ experimental: { pad: { text: pad } } }, { name: "legacy-client", version: "1.0.0" }]);
    const over = "x".repeat(65_536);
    expect(kept(over)).toBeGreaterThan(65_536);
    expect(await opening(over)).toEqual({
      jsonrpc: "2.0",
      id: 0,
      error: { code: -32602, message: "Invalid params: capabilities and clientInfo hold more than 65536 bytes, which is what a session keeps of them at most" },
    });
    // Many sessions each just under the cap (one string shared by all, so this test holds little): refused once 64 MiB are kept.
    const pad = "x".repeat(65_536 - kept("") - 1);
    expect(kept(pad)).toBe(65_535);
    const fit = Math.floor(2 ** 26 / kept(pad));
    const clients = [];
    for (let i = 0; i < fit; i++) {
      const client = legacyClient(d);
      expect((await client.send(initialize(0, LEGACY_VERSION, { experimental: { pad: { text: pad } } })))?.result).toBeDefined();
      clients.push(client);
    }
    const busy = (kept: number) => ({
      jsonrpc: "2.0",
      id: 0,
      error: { code: -32603, message: `Server busy: the open legacy sessions keep ${kept} bytes of client capabilities and clientInfo, of at most 67108864 in all; try again later` },
    });
    expect(await opening(pad)).toEqual(busy(fit * kept(pad)));
    // A small initialize still fits beside them while there is room; a session that ends gives its bytes back.
    const small = legacyClient(d);
    expect((await small.open())?.result).toBeDefined();
    expect(await opening(pad)).toEqual(busy(fit * kept(pad) + retainedBytes([{ elicitation: {} }, { name: "legacy-client", version: "1.0.0" }])));
    d.closeChannel(clients[0]!.channel);
    expect((await opening(pad))?.result).toBeDefined();
    // A session initialized again counts its new initialize only.
    const again = clients[1]!;
    expect((await again.send(initialize(1, LEGACY_VERSION, {})))?.result).toBeDefined();
    expect((await opening(pad))?.result).toBeDefined();
  });

  it("closeChannel rejects what is pending: the request waiting for the client's answer is answered -32603; the session is gone", async () => {
    const d = dual();
    const client = legacyClient(d);
    await client.open();
    const pending = client.send(legacy(1, "tools/call", { name: "ask", arguments: {} }));
    await until(() => client.sent.some((m) => "id" in m));
    d.closeChannel(client.channel);
    expect(await pending).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32603, message: expect.stringMatching(/^Internal error: no answer to elicitation\/create \(id \d+\): the session closed$/) } });
    // A transport shutting down says so (helper-61).
    const other = legacyClient(d);
    await other.open();
    const waiting = other.send(legacy(2, "tools/call", { name: "ask", arguments: {} }));
    await until(() => other.sent.some((m) => "id" in m));
    d.closeChannel(other.channel, "Server shutting down");
    expect((await waiting)?.error?.message).toMatch(/^Internal error: no answer to elicitation\/create \(id \d+\): Server shutting down$/);
    expect(d.sessionOf(client.channel)).toBeUndefined();
    // A late answer to the request given up on is ignored.
    const asked = client.sent.find((m) => "id" in m) as { id: number };
    expect(await d.handle({ jsonrpc: "2.0", id: asked.id, result: { action: "accept" } }, { channel: client.channel })).toBeUndefined();
  });

  /**
   * A dual-era dispatcher whose `ask` tool, at its first call, says it is `running` and waits to be `release`d, then asks
   * for the user's name (an `InputRequiredResult`); later calls ask at once, and a retry with the answer completes.
   */
  function heldAsk(handlers?: DispatcherOptions["handlers"]): { d: Dispatcher; release: () => void; running: Promise<void> } {
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => (started = resolve));
    let calls = 0;
    const d = dual({
      inputTimeoutMs: 5000,
      ...(handlers === undefined ? {} : { handlers }),
      tools: [
        {
          definition: ASK,
          call: async (_args: Json, context: RequestContextCore) => {
            if (context.inputResponses !== undefined) return { content: [{ type: "text", text: "answered" }] };
            if (++calls === 1) {
              started();
              await released;
            }
            return { resultType: "input_required", inputRequests: { name: NAME_REQUEST } };
          },
        },
      ] as never,
    });
    return { d, release, running };
  }

  // A request still running when its session ends, asking for input after, is answered -32603 at once: the new session's
  // client is not asked; the new session's own requests ask it.
  it.each([
    { end: "its channel closes, then an initialize opens a new session on it", close: true, why: "the session closed" },
    { end: "the client initializes the session again (stdio: one channel, no close)", close: false, why: "the client initialized the session again" },
  ])("a request still running when $end asks no one later; the new session's requests ask", async ({ close, why }) => {
    const { d, release, running } = heldAsk();
    const client = legacyClient(d);
    await client.open();
    const old = client.send(legacy(1, "tools/call", { name: "ask", arguments: {} }));
    await within(running);
    if (close) d.closeChannel(client.channel);
    expect((await client.open())?.result).toBeDefined();
    release();
    expect(await settledWithin(old, 1000)).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32603, message: `Internal error: no answer to elicitation/create (id 1): ${why}` },
    });
    expect(client.sent.filter((m) => "id" in m)).toEqual([]);
    const fresh = client.send(legacy(2, "tools/call", { name: "ask", arguments: {} }));
    await within(until(() => client.sent.some((m) => "id" in m)));
    expect(client.sent.find((m) => "id" in m)).toMatchObject({ method: "elicitation/create" });
    d.closeChannel(client.channel);
    expect((await fresh)?.error?.code).toBe(-32603);
  });

  it("a request of a session outlived by an initialize that never opened asks no later session's client, nor after a close", async () => {
    // An initialize that fails (here: its POST dropped) leaves the session it would have replaced open; the requests that
    // session served before it are still that session's when a later initialize replaces it, or the channel closes.
    for (const end of ["initialize", "close"] as const) {
      const { d, release, running } = heldAsk();
      const client = legacyClient(d);
      await client.open();
      const old = client.send(legacy(1, "tools/call", { name: "ask", arguments: {} }));
      await within(running);
      const dropped = new AbortController();
      const failed = client.send(initialize(7, LEGACY_VERSION, { elicitation: {} }), dropped.signal);
      dropped.abort();
      expect(await failed).toBeUndefined();
      const why = end === "initialize" ? "the client initialized the session again" : "the session closed";
      if (end === "initialize") expect((await client.open(LEGACY_VERSION, {}))?.result).toBeDefined();
      else d.closeChannel(client.channel);
      release();
      expect({ end, outcome: await settledWithin(old, 1000) }).toEqual({
        end,
        outcome: { jsonrpc: "2.0", id: 1, error: { code: -32603, message: expect.stringMatching(new RegExp(`^Internal error: no answer to elicitation/create \\(id \\d+\\): ${why}$`)) } },
      });
      expect(client.sent.filter((m) => "id" in m)).toEqual([]);
    }
  });

  it("initializes that keep failing leave the open session's requests theirs: one running through 17 failures still asks its client, and holds nothing per failure", async () => {
    const { d, release, running } = heldAsk();
    const client = legacyClient(d);
    client.answerWith(() => ({ result: { action: "accept", content: { name: "Ann" } } }));
    await client.open();
    const old = client.send(legacy(1, "tools/call", { name: "ask", arguments: {} }));
    await within(running);
    for (let i = 0; i < 17; i++) {
      const dropped = new AbortController();
      const failed = client.send(initialize(100 + i, LEGACY_VERSION, { elicitation: {} }), dropped.signal);
      dropped.abort();
      expect(await failed).toBeUndefined();
    }
    // A request of the session after them, and the one running through them: both are the open session's, and ask.
    expect((await settledWithin(client.send(legacy(2, "tools/call", { name: "ask", arguments: {} })), 1000)) as Json).toMatchObject({ id: 2, result: { content: [{ text: "answered" }] } });
    release();
    expect((await settledWithin(old, 1000)) as Json).toMatchObject({ id: 1, result: { content: [{ text: "answered" }] } });
  });

  it("a request of an open session that asks for input while an initialize is in flight waits for nothing of that initialize: it asks, and when that initialize fails it is answered", async () => {
    // An initialize the server is slow to answer (a handler of its own), then dropped: the session it would have replaced is still open.
    let answerInitialize: () => void = () => {};
    let initializes = 0;
    const { d, release, running } = heldAsk({
      initialize: async (params: Json) => {
        if (++initializes === 2) await new Promise<void>((resolve) => (answerInitialize = resolve));
        return { protocolVersion: params["protocolVersion"], capabilities: CAPABILITIES, serverInfo: SERVER_INFO };
      },
    });
    const client = legacyClient(d);
    client.answerWith(() => ({ result: { action: "accept", content: { name: "Ann" } } }));
    expect((await client.open())?.result).toBeDefined();
    const old = client.send(legacy(1, "tools/call", { name: "ask", arguments: {} }));
    await within(running);
    const dropped = new AbortController();
    const failed = client.send(initialize(7, LEGACY_VERSION, { elicitation: {}, sampling: {} }), dropped.signal);
    release();
    // Its session is open and initialized: the request asks its client at once (before, it waited for the initialize's notifications/initialized).
    await within(until(() => client.sent.some((m) => "id" in m)));
    dropped.abort();
    answerInitialize();
    expect(await failed).toBeUndefined();
    expect(await settledWithin(old, 1000)).toMatchObject({ id: 1, result: { content: [{ text: "answered" }] } });
    expect(d.sessionOf(client.channel)).toMatchObject({ clientCapabilities: { elicitation: {} }, initialized: true });
    expect(d.sessionOf(client.channel)?.clientCapabilities).toEqual({ elicitation: {} });
  });

  it("a request served by an initialize in flight that never opens (failed, or replaced by another) asks no one later: the open session did not declare what that initialize did", async () => {
    for (const end of ["failed", "replaced"] as const) {
      const answers: (() => void)[] = [];
      let initializes = 0;
      const { d, release, running } = heldAsk({
        initialize: async (params: Json) => {
          if (++initializes > 1) await new Promise<void>((resolve) => answers.push(resolve));
          return { protocolVersion: params["protocolVersion"], capabilities: CAPABILITIES, serverInfo: SERVER_INFO };
        },
      });
      const client = legacyClient(d);
      client.answerWith(() => ({ result: { action: "accept", content: { name: "Ann" } } }));
      // The open session declares no elicitation; the initialize after it does, and the request that follows it is served by it.
      expect((await client.open(LEGACY_VERSION, {}))?.result).toBeDefined();
      const first = new AbortController();
      const opening = client.send(initialize(7, LEGACY_VERSION, { elicitation: {} }), first.signal);
      const served = client.send(legacy(1, "tools/call", { name: "ask", arguments: {} }));
      await within(running);
      const second = new AbortController();
      const replacing = end === "replaced" ? client.send(initialize(8, LEGACY_VERSION, {}), second.signal) : undefined;
      second.abort();
      first.abort();
      for (const answer of answers) answer();
      expect(await opening).toBeUndefined();
      expect(await replacing).toBeUndefined();
      expect(d.sessionOf(client.channel)?.clientCapabilities).toEqual({});
      release();
      const why = end === "failed" ? "the initialize it followed was not answered with a result, so its session never opened" : "the client initialized the session again";
      expect({ end, outcome: await settledWithin(served, 1000) }).toEqual({
        end,
        outcome: { jsonrpc: "2.0", id: 1, error: { code: -32603, message: expect.stringMatching(new RegExp(`^Internal error: no answer to elicitation/create \\(id \\d+\\): ${why}$`)) } },
      });
      expect(client.sent.filter((m) => "id" in m)).toEqual([]);
      // The open session's own requests still ask (a client that declared nothing is refused by its capabilities: -32021).
      expect((await client.send(legacy(2, "tools/call", { name: "ask", arguments: {} })))?.error?.code).toBe(-32021);
    }
  });

  it("cancellation of the original request and the wait's time limit give up the pending request", async () => {
    const d = dual({ inputTimeoutMs: 50 });
    const client = legacyClient(d);
    await client.open();
    expect((await client.send(legacy(1, "tools/call", { name: "ask", arguments: {} })))?.error).toEqual({
      code: -32603,
      message: expect.stringContaining("the client did not answer within 50 ms"),
    });
    // The client is told to stop working on the request given up on, on the stream of the request that asked for it.
    const first = client.sent.find((m) => "id" in m) as { id: number };
    const cancellations = client.sent.filter((m) => m.method === "notifications/cancelled");
    expect(cancellations).toEqual([
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: first.id, reason: "the client did not answer within 50 ms" } },
    ]);
    expect(client.pushed).toEqual([]);
    expect(legacyErrors("CancelledNotification", cancellations[0])).toEqual([]);
    const cancelled = client.send(legacy(2, "tools/call", { name: "ask", arguments: {} }));
    await until(() => client.sent.filter((m) => "id" in m).length === 2);
    await client.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2 } });
    expect(await cancelled).toBeUndefined();
  });

  it("a round abandoned (an answer that fails, closeChannel, a second initialize) cancels the sibling requests still pending, on the request's stream (review 11: finding 11)", async () => {
    const d = dual({
      handlers: {
        "prompts/get": (_params: Json, c: RequestContextCore) =>
          c.inputResponses === undefined ? { resultType: "input_required", inputRequests: { name: NAME_REQUEST, roots: { method: "roots/list" } } } : { messages: [] },
      },
      capabilities: { ...CAPABILITIES, prompts: {} },
    });
    const cancelledIds = (client: ReturnType<typeof legacyClient>) =>
      client.sent.filter((m) => m.method === "notifications/cancelled").map((m) => [m.params?.["requestId"], m.params?.["reason"]]);
    const asked = (client: ReturnType<typeof legacyClient>, method: string) => (client.sent.find((m) => m.method === method) as { id: number }).id;

    const failing = legacyClient(d);
    await failing.open(LEGACY_VERSION, { elicitation: {}, roots: {} });
    const first = failing.send(legacy(1, "prompts/get", { name: "p" }));
    await within(until(() => failing.sent.filter((m) => "id" in m).length === 2));
    await failing.send({ jsonrpc: "2.0", id: asked(failing, "elicitation/create"), error: { code: -1, message: "declined" } });
    expect((await first)?.error?.code).toBe(-32603);
    expect(cancelledIds(failing)).toEqual([[asked(failing, "roots/list"), "another input failed"]]);
    expect(failing.pushed).toEqual([]);

    const closed = legacyClient(d);
    await closed.open(LEGACY_VERSION, { elicitation: {}, roots: {} });
    const second = closed.send(legacy(1, "prompts/get", { name: "p" }));
    await within(until(() => closed.sent.filter((m) => "id" in m).length === 2));
    d.closeChannel(closed.channel);
    expect((await second)?.error?.code).toBe(-32603);
    expect(cancelledIds(closed)).toEqual([
      [asked(closed, "elicitation/create"), "the session closed"],
      [asked(closed, "roots/list"), "the session closed"],
    ]);

    const again = legacyClient(d);
    await again.open(LEGACY_VERSION, { elicitation: {}, roots: {} });
    const third = again.send(legacy(1, "prompts/get", { name: "p" }));
    await within(until(() => again.sent.filter((m) => "id" in m).length === 2));
    await again.send(initialize(2, LEGACY_VERSION));
    expect((await third)?.error?.code).toBe(-32603);
    expect(cancelledIds(again).map(([, reason]) => reason)).toEqual(["the client initialized the session again", "the client initialized the session again"]);
  });

  it("a request whose stream is gone (an HTTP POST the client dropped) has the cancellation of its elicitation sent through the session's push (helper-52)", async () => {
    const d = dual();
    const client = legacyClient(d);
    await client.open(LEGACY_VERSION, { elicitation: {} });
    const stream = new AbortController();
    const onStream: OutgoingMessage[] = [];
    // As the HTTP transport's: a stream that ended carries nothing, and says so.
    const notify = (message: OutgoingMessage) => !stream.signal.aborted && onStream.push(message) > 0;
    const push = (message: OutgoingMessage) => client.pushed.push(message) > 0;
    const call = d.handle(legacy(1, "tools/call", { name: "ask", arguments: {} }), { channel: client.channel, notify, push, signal: stream.signal });
    await within(until(() => onStream.some((m) => m.method === "elicitation/create")));
    const asked = onStream.find((m) => m.method === "elicitation/create") as { id: number };
    stream.abort(new Error("the client closed the response stream"));
    expect(await within(call)).toBeUndefined();
    expect(client.pushed.filter((m) => m.method === "notifications/cancelled").map((m) => m.params?.["requestId"])).toEqual([asked.id]);
  });

  it("messages written with the initialize, before its answer, keep what they started when it succeeds: a tool's elicitation is not cancelled (helper-38 finding 3)", async () => {
    // An initialize that takes a while to answer (as a server doing work at startup would), so the tool asks before it is answered.
    let slowInitialize: () => void = () => {};
    const initializeWaits = new Promise<void>((resolve) => (slowInitialize = resolve));
    const d = dual({
      handlers: {
        initialize: async () => {
          await initializeWaits;
          return { protocolVersion: LEGACY_VERSION, capabilities: CAPABILITIES, serverInfo: SERVER_INFO };
        },
      } as never,
    });
    const client = legacyClient(d);
    // The initialize is answered once the tool has asked; the client answers the tool after that.
    client.answerWith((request) => {
      if (request.method === "elicitation/create") slowInitialize();
      return undefined;
    });
    // As a stdio client writing three lines at once: none awaits the one before.
    const opened = client.send(initialize(0, LEGACY_VERSION, { elicitation: {} }));
    const initializedSent = client.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const asked = client.send(legacy(1, "tools/call", { name: "ask", arguments: {} }));
    expect((await within(opened))?.result?.["protocolVersion"]).toBe(LEGACY_VERSION);
    await initializedSent;
    const elicitation = client.sent.find((m) => m.method === "elicitation/create") as { id: number };
    await client.send({ jsonrpc: "2.0", id: elicitation.id, result: { action: "accept", content: { name: "Ada" } } });
    expect((await within(asked))?.result).toMatchObject({ content: [{ type: "text", text: "Hello Ada (asked-once)" }] });
    expect(client.sent.filter((m) => m.method === "notifications/cancelled")).toEqual([]);
  });

  it("a tool asking a legacy client for a request its revision lacks (elicitation/create of 2025-03-26) gets -32021 naming the revision, not an internal error", async () => {
    const dir = await generateInto("dual-era/2025-03-26", { schema: { specDir: SPEC_DIR, version: "2025-03-26" }, docs: "none" });
    const older = ((await import(join(dir, "dispatch.ts"))) as { DISPATCH_REVISION: DispatchRevision }).DISPATCH_REVISION;
    const table = { ...older, builtins: { ...older.builtins, setLevel: "logging/setLevel", subscribe: "resources/subscribe", unsubscribe: "resources/unsubscribe" }, initializedNotification: "notifications/initialized" };
    const d = dual({}, [MODERN, table]);
    const client = legacyClient(d);
    // As the SDK v1 client does: it declares elicitation whatever version it ends up speaking.
    expect((await client.open("2025-03-26", { elicitation: {} }))?.result?.["protocolVersion"]).toBe("2025-03-26");
    const asked = await client.send(legacy(1, "tools/call", { name: "ask", arguments: {} }));
    expect(asked?.error).toEqual({
      code: -32021,
      message: "Missing required client capability: protocol 2025-03-26 has no elicitation/create",
      data: { requiredCapabilities: { elicitation: {} } },
    });
    expect(client.sent).toEqual([]);
    expect(logged).toEqual([]);
  });

  it("responses: an unknown id, or one from another channel, is ignored and never answered", async () => {
    const d = dual();
    expect(await d.handle({ jsonrpc: "2.0", id: 99, result: {} })).toBeUndefined();
    expect(await d.handle({ jsonrpc: "2.0", id: 99, error: { code: -1, message: "x" } }, { channel: {} })).toBeUndefined();
    const client = legacyClient(d);
    await client.open();
    const pending = client.send(legacy(1, "tools/call", { name: "ask", arguments: {} }));
    await until(() => client.sent.some((m) => "id" in m));
    const asked = client.sent.find((m) => "id" in m) as { id: number };
    expect(await d.handle({ jsonrpc: "2.0", id: asked.id, result: { action: "accept", content: { name: "Eve" } } }, { channel: {} })).toBeUndefined();
    expect(await d.handle({ jsonrpc: "2.0", id: asked.id, result: { action: "accept", content: { name: "Bo" } } }, { channel: client.channel })).toBeUndefined();
    expect((await pending)?.result).toEqual({ content: [{ type: "text", text: "Hello Bo (asked-once)" }] });
  });

  it("a malformed response (neither result nor error, as JSON leaves a result: undefined; a result or error not an object) fails its round at once with -32602, and is not answered: an answer would carry the id the client's own request may have (helper-156: -32600 with that id, and the round waited its time limit)", async () => {
    const d = dual();
    const replies: readonly (readonly [Json, string])[] = [
      [{}, "the response has neither result nor error"],
      [{ result: null }, "its result is not an object"],
      [{ error: "refused" }, "its error is not an object"],
    ];
    for (const [reply, why] of replies) {
      const client = legacyClient(d);
      await client.open();
      const pending = client.send(legacy(1, "tools/call", { name: "ask", arguments: {} }));
      await until(() => client.sent.some((m) => "id" in m));
      const asked = client.sent.find((m) => "id" in m) as { id: number };
      expect(await d.handle({ jsonrpc: "2.0", id: asked.id, ...reply }, { channel: client.channel })).toBeUndefined();
      expect(await settledWithin(pending, 1000)).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32602, message: "Invalid elicitation/create result from the client: " + why } });
    }
    // An id no server→client request awaits: a message with neither is an invalid request, as before.
    expect((await d.handle({ jsonrpc: "2.0", id: 7 }))?.error?.code).toBe(-32600);
  });
});

describe("a handler's notifications: what reaches the client", () => {
  /** A handler that logs at two levels and sends progress: twice the same value, another token, an invalid one, then a valid one. */
  const talker = {
    "prompts/list": (_params: Json, context: RequestContextCore) => {
      for (const level of ["debug", "warning"]) context.notify("notifications/message", { level, data: level });
      context.notify("notifications/progress", { progressToken: "p", progress: 1 });
      context.notify("notifications/progress", { progressToken: "p", progress: 1 });
      context.notify("notifications/progress", { progressToken: "q", progress: 2 });
      context.notify("notifications/progress", { progressToken: "p", progress: "2" });
      context.notify("notifications/progress", { progressToken: "p", progress: 2 });
      return { prompts: [] };
    },
  };
  const sentBy = async (d: Dispatcher, message: Json): Promise<unknown[]> => {
    const sent: OutgoingMessage[] = [];
    await d.handle(message, { notify: (n) => void sent.push(n) });
    return sent.map((n) => n.params);
  };
  const reasons = () => logged.map((l) => String((l.error as Error).message).replace(/^a notifications\/[\w/]+ notification for a [\d-]+ client: /, ""));

  it("modern: log messages only at or above the request's logLevel, progress only with its own token and growing; the rest reported", async () => {
    const d = dual({ handlers: talker, capabilities: { ...CAPABILITIES, prompts: {} } });
    const withMeta = (meta: Json) => modern(1, "prompts/list", { _meta: { ...META, ...meta } });
    expect(await sentBy(d, withMeta({ progressToken: "p", "io.modelcontextprotocol/logLevel": "warning" }))).toEqual([
      { level: "warning", data: "warning" },
      { progressToken: "p", progress: 1 },
      { progressToken: "p", progress: 2 },
    ]);
    expect(reasons()).toEqual([
      "its progress (1) does not increase on the last one sent (1)",
      'its progressToken is not the request\'s ("p")',
      '/params/progress: expected number, got "2"',
    ]);
    expect(logged.map((l) => l.info)).toEqual(Array(3).fill({ method: "prompts/list", id: 1, reason: "invalid-outgoing" }));
    // No logLevel: no log message at all (draft server/utilities/logging), and that is no fault; no progressToken: no progress.
    logged = [];
    expect(await sentBy(d, withMeta({}))).toEqual([]);
    // Progress from a method whose request gave no token: told of once for the method, not at each call (helper-157).
    const noToken = "the request gave no progressToken (check context.progressToken first; told of once for prompts/list)";
    expect(reasons()).toEqual([noToken, '/params/progress: expected number, got "2"']);
    logged = [];
    expect(await sentBy(d, withMeta({}))).toEqual([]);
    expect(reasons()).toEqual(['/params/progress: expected number, got "2"']);
    // Without the logging capability advertised, a log message is the server's fault.
    const quiet = dual({ handlers: talker, capabilities: { prompts: {} } });
    // Said once, when the dispatcher is made: the tools it was given are out of reach.
    expect(logged.map((l) => l.info)).toEqual([{ method: "tools/list", reason: "unadvertised-handler" }]);
    logged = [];
    expect(await sentBy(quiet, withMeta({ "io.modelcontextprotocol/logLevel": "debug", progressToken: 7 }))).toEqual([]);
    // A setting, not a fault of each call: told of once however many log messages the handlers send (helper-155: 13 stack traces in one run).
    expect(reasons().slice(0, 1)).toEqual([
      "the server does not advertise logging (options.capabilities, which replaces the capabilities derived from the handlers: list them all); such notifications are dropped, told of this once",
    ]);
    expect(reasons().slice(1, 3)).toEqual(['its progressToken is not the request\'s (7)', 'its progressToken is not the request\'s (7)']);
    logged = [];
    await sentBy(quiet, withMeta({ "io.modelcontextprotocol/logLevel": "debug", progressToken: 7 }));
    expect(reasons().filter((r) => r.includes("logging"))).toEqual([]);
  });

  it("legacy: a handler called again for a round of input may report its progress from the start again; the client gets it growing, and nothing is reported", async () => {
    /** Reports progress from 1 on each call, as it would for each request of a modern client (a retry is a request of its own). */
    const steps = {
      definition: ASK,
      call: (_args: Json, context: RequestContextCore) => {
        const token = context.progressToken!;
        context.notify("notifications/progress", { progressToken: token, progress: 1, message: context.inputResponses === undefined ? "asking" : "asked" });
        if (context.inputResponses === undefined) return { resultType: "input_required", inputRequests: { name: NAME_REQUEST } };
        context.notify("notifications/progress", { progressToken: token, progress: 2 });
        // Within one call, progress that does not grow is still the handler's fault.
        context.notify("notifications/progress", { progressToken: token, progress: 2 });
        return { content: [] };
      },
    };
    const d = dual({ tools: [steps] as never });
    const client = legacyClient(d);
    await client.open();
    client.answerWith(() => ({ result: { action: "accept", content: { name: "Ada" } } }));
    expect((await client.send(legacy(1, "tools/call", { name: "ask", arguments: {}, _meta: { progressToken: "p" } })))?.result).toEqual({ content: [] });
    expect(client.sent.filter((m) => m.method === "notifications/progress").map((m) => ("params" in m ? m.params : undefined))).toEqual([
      { progressToken: "p", progress: 1, message: "asking" },
      { progressToken: "p", progress: 2 },
    ]);
    expect(reasons()).toEqual(["its progress (2) does not increase on the last one sent (2)"]);
  });

  it("modern: a request's stream carries only what relates to it; an unknown log level and notifications/cancelled are reported, in both eras (helper-63)", async () => {
    const unrelated = {
      "prompts/list": (_params: Json, context: RequestContextCore) => {
        context.notify("notifications/tools/list_changed", {});
        context.notify("notifications/subscriptions/acknowledged", { notifications: {} });
        context.notify("notifications/cancelled", { requestId: 12345 });
        context.notify("notifications/message", { level: "verbose", data: "x" });
        context.notify("notifications/message", { level: "error", data: "kept" });
        return { prompts: [] };
      },
    };
    const d = dual({ handlers: unrelated, capabilities: { ...CAPABILITIES, prompts: {} } });
    expect(await sentBy(d, modern(1, "prompts/list", { _meta: { ...META, "io.modelcontextprotocol/logLevel": "warning" } }))).toEqual([{ level: "error", data: "kept" }]);
    const related = "only notifications/progress and notifications/message relate to a request; change notifications go to subscriptions/listen streams (dispatcher.publish)";
    expect(reasons()).toEqual([
      related,
      related,
      "the core sends notifications/cancelled, for the requests it sends; a handler ends its own request by returning",
      expect.stringMatching(/^\/params\/level: /),
    ]);
    // A legacy session that set a level: the unknown level is reported, not taken for one below it.
    logged = [];
    const client = legacyClient(d);
    await client.open();
    await client.send(legacy(1, "logging/setLevel", { level: "warning" }));
    await client.send(legacy(2, "prompts/list"));
    expect(client.sent.map((m) => m.params)).toEqual([{}, { level: "error", data: "kept" }]);
    expect(reasons()).toEqual([
      expect.stringMatching(/^"notifications\/subscriptions\/acknowledged" is not a server-to-client notification of 2025-11-25/),
      "the core sends notifications/cancelled, for the requests it sends; a handler ends its own request by returning",
      expect.stringMatching(/^\/params\/level: /),
    ]);
  });

  it("legacy: every log message without a level set, progress only with the request's own token and growing", async () => {
    const d = dual({ handlers: talker, capabilities: { ...CAPABILITIES, prompts: {} } });
    const client = legacyClient(d);
    await client.open();
    await client.send(legacy(2, "prompts/list", { _meta: { progressToken: "p" } }));
    expect(client.sent.map((m) => m.params)).toEqual([
      { level: "debug", data: "debug" },
      { level: "warning", data: "warning" },
      { progressToken: "p", progress: 1 },
      { progressToken: "p", progress: 2 },
    ]);
    expect(reasons()).toHaveLength(3);
  });
});

describe("legacy utilities: logging/setLevel, resources/subscribe, publish", () => {
  it("setLevel: request-scoped and published notifications/message below the session's level are not sent; each message is checked with 2025-11-25", async () => {
    const d = dual({ capabilities: { ...CAPABILITIES, prompts: {} } });
    const client = legacyClient(d);
    await client.open();
    expect(await client.send(legacy(1, "logging/setLevel", { level: "warning" }))).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect(d.sessionOf(client.channel)?.logLevel).toBe("warning");
    await client.send(legacy(2, "prompts/list"));
    expect(client.sent.map((m) => (m.params as Json | undefined)?.["level"])).toEqual(["warning", "error"]);
    for (const m of client.sent) expect(legacyErrors("LoggingMessageNotification", m)).toEqual([]);
    // The modern-only notification the handler sent was not for this client: dropped, logged.
    expect(logged.map((l) => l.info)).toEqual([{ method: "prompts/list", id: 2, reason: "invalid-outgoing" }]);
    expect(d.publish("notifications/message", { level: "info", data: "quiet" })).toBe(0);
    expect(d.publish("notifications/message", { level: "critical", data: "loud" })).toBe(1);
    expect(client.pushed).toEqual([{ jsonrpc: "2.0", method: "notifications/message", params: { level: "critical", data: "loud" } }]);
    // setLevel needs the logging capability (2025-11-25 server/utilities/logging).
    const quiet = dual({ capabilities: { tools: {} } });
    const other = legacyClient(quiet);
    await other.open();
    expect((await other.send(legacy(1, "logging/setLevel", { level: "debug" })))?.error?.code).toBe(-32601);
  });

  it("subscribe + publish: resources/updated reaches subscribed sessions only; list changes reach every session; unsubscribe stops it", async () => {
    const d = dual();
    const a = legacyClient(d);
    const b = legacyClient(d);
    await a.open();
    await b.open();
    expect(await a.send(legacy(1, "resources/subscribe", { uri: "test://a" }))).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect(d.publish("notifications/resources/updated", { uri: "test://a" })).toBe(1);
    expect(d.publish("notifications/resources/updated", { uri: "test://b" })).toBe(0);
    expect(a.pushed).toEqual([{ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "test://a" } }]);
    expect(legacyErrors("ResourceUpdatedNotification", a.pushed[0])).toEqual([]);
    expect(d.publish("notifications/tools/list_changed")).toBe(2);
    expect(b.pushed).toEqual([{ jsonrpc: "2.0", method: "notifications/tools/list_changed" }]);
    expect(await a.send(legacy(2, "resources/unsubscribe", { uri: "test://a" }))).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
    expect(d.publish("notifications/resources/updated", { uri: "test://a" })).toBe(0);
    // A list change the server does not advertise is not sent (prompts has no listChanged here).
    expect(d.publish("notifications/prompts/list_changed")).toBe(0);
    d.closeChannel(a.channel);
    expect(d.publish("notifications/tools/list_changed")).toBe(1);
  });

  it("subscriptions per session are capped at 1000, and a subscribed URI at 8192 characters (review 11: finding 3)", async () => {
    const d = dual();
    const client = legacyClient(d);
    await client.open();
    for (let i = 0; i < 1000; i++) expect((await client.send(legacy(i, "resources/subscribe", { uri: "test://r" + i })))?.result).toEqual({});
    expect((await client.send(legacy(1000, "resources/subscribe", { uri: "test://one-more" })))?.error).toEqual({
      code: -32603,
      message: "Too many resource subscriptions on this session (at most 1000); unsubscribe from one first",
    });
    // Subscribing again to one already held costs nothing; after an unsubscribe there is room again.
    expect((await client.send(legacy(1001, "resources/subscribe", { uri: "test://r0" })))?.result).toEqual({});
    await client.send(legacy(1002, "resources/unsubscribe", { uri: "test://r0" }));
    expect((await client.send(legacy(1003, "resources/subscribe", { uri: "test://one-more" })))?.result).toEqual({});
    const other = legacyClient(d);
    await other.open();
    expect((await other.send(legacy(1, "resources/subscribe", { uri: "test://" + "x".repeat(8192) })))?.error).toEqual({
      code: -32602,
      message: "Invalid params: uri: a subscribed URI is at most 8192 characters",
    });
    expect((await other.send(legacy(2, "resources/subscribe", { uri: "test://" + "x".repeat(8185) })))?.result).toEqual({});
  });

  it("the URIs all sessions hold subscribed are capped at 2^24 characters in all; a closed session's subscriptions make room (helper-52)", async () => {
    const d = dual();
    const uri = (session: string, i: number) => `test://${session}/${i}/`.padEnd(8192, "x");
    const subscribe = async (client: ReturnType<typeof legacyClient>, name: string, count: number) => {
      for (let i = 0; i < count; i++) expect((await client.send(legacy(i, "resources/subscribe", { uri: uri(name, i) })))?.result).toEqual({});
    };
    const [a, b, c] = [legacyClient(d), legacyClient(d), legacyClient(d)];
    for (const client of [a, b, c]) await client.open();
    await subscribe(a, "a", 1000);
    await subscribe(b, "b", 1000);
    // 2^24 − 2·1000·8192 characters are left: 48 URIs of 8192.
    await subscribe(c, "c", 48);
    const full = { code: -32603, message: "Too many resource subscriptions on this server (URIs of at most 16777216 characters in all); try again later" };
    expect((await c.send(legacy(48, "resources/subscribe", { uri: uri("c", 48) })))?.error).toEqual(full);
    // An unsubscribe gives its characters back; so does a closed session, all of its subscriptions.
    await b.send(legacy(1000, "resources/unsubscribe", { uri: uri("b", 0) }));
    expect((await c.send(legacy(49, "resources/subscribe", { uri: uri("c", 49) })))?.result).toEqual({});
    expect((await c.send(legacy(50, "resources/subscribe", { uri: uri("c", 50) })))?.error).toEqual(full);
    d.closeChannel(a.channel);
    expect(d.publish("notifications/resources/updated", { uri: uri("a", 1) })).toBe(0);
    await subscribe(c, "c2", 900);
  });

  it("subscriptions made in the session of an initialize that another replaced are given back (helper-54)", async () => {
    let release: () => void = () => {};
    let first = true;
    const d = dual({
      handlers: {
        initialize: async () => {
          if (first) {
            first = false;
            await new Promise<void>((resolve) => (release = resolve));
          }
          return { protocolVersion: LEGACY_VERSION, capabilities: CAPABILITIES, serverInfo: SERVER_INFO };
        },
      } as never,
    });
    const uri = (session: string, i: number) => `test://${session}/${i}/`.padEnd(8192, "x");
    const subscribed = async (channel: object, name: string) => {
      let ok = 0;
      for (let i = 0; i < 1000; i++) if ((await d.handle(legacy(`s${i}`, "resources/subscribe", { uri: uri(name, i) }), { channel }))?.result !== undefined) ok++;
      return ok;
    };
    for (const round of ["r0", "r1"]) {
      first = true;
      const channel = {};
      // Written with the initialize, before its answer: the subscriptions are the opening session's; a second initialize replaces it.
      const opening = d.handle(initialize(1, LEGACY_VERSION), { channel });
      expect(await subscribed(channel, round)).toBe(1000);
      expect((await d.handle(initialize(2, LEGACY_VERSION), { channel }))?.result).toBeDefined();
      release();
      await opening;
      d.closeChannel(channel);
    }
    // Nothing is held now: two sessions of 1000 URIs of 8192 characters fit under 2^24.
    for (const name of ["y", "z"]) {
      const channel = {};
      await d.handle(initialize(1, LEGACY_VERSION), { channel });
      expect(await subscribed(channel, name)).toBe(1000);
    }
  });

  it("subscribe needs resources.subscribe advertised", async () => {
    const d = dual({ capabilities: { resources: {} } });
    const client = legacyClient(d);
    await client.open();
    expect((await client.send(legacy(1, "resources/subscribe", { uri: "test://a" })))?.error).toEqual({
      code: -32601,
      message: 'Method not found: "resources/subscribe" (the server does not advertise resources.subscribe)',
    });
  });
});

describe("both eras on one dispatcher", () => {
  it("interleaved: legacy sessions and modern requests at once, each answered in its era; a modern request on a legacy channel is modern", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const d = dual({
      tools: [{ definition: ECHO, call: async (args: Json) => (await gate, { content: [{ type: "text", text: String(args["text"]) }] }) }] as never,
    });
    const a = legacyClient(d);
    await a.open();
    const modernChannel = {};
    const answers = Promise.all([
      a.send(legacy(1, "tools/call", { name: "echo", arguments: { text: "legacy" } })),
      d.handle(modern(1, "tools/call", { name: "echo", arguments: { text: "modern" } }), { channel: modernChannel }),
      a.send(modern(2, "tools/call", { name: "echo", arguments: { text: "modern on a legacy channel" } })),
      d.handle(modern(3, "tools/call", { name: "echo", arguments: { text: "no channel" } })),
    ]);
    release();
    const [l, m1, m2, m3] = await answers;
    expect(l?.result).toEqual({ content: [{ type: "text", text: "legacy" }] });
    for (const r of [m1, m2, m3]) expect(r?.result).toMatchObject({ resultType: "complete", _meta: { "io.modelcontextprotocol/serverInfo": SERVER_INFO } });
    // A modern request naming a version not served as modern is -32022 listing the modern versions only (review 11: finding 5).
    const wrong = await d.handle({ jsonrpc: "2.0", id: 4, method: "tools/list", params: { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": LEGACY_VERSION } } });
    expect(wrong?.error).toEqual({
      code: -32022,
      message: 'Unsupported protocol version: "2025-11-25"',
      data: { supported: [MODERN_VERSION], requested: LEGACY_VERSION },
    });
    // A request without the modern _meta on a channel without a session is today's modern request: its _meta is missing.
    expect((await d.handle(legacy(5, "tools/list"), { channel: {} }))?.error?.code).toBe(-32602);
    // server/discover lists the modern versions: a legacy client negotiates at initialize, where the legacy ones are offered.
    expect((await d.handle(modern(6, "server/discover")))?.result?.["supportedVersions"]).toEqual([MODERN_VERSION]);
    expect(d.supportedProtocolVersions).toEqual([MODERN_VERSION, LEGACY_VERSION]);
    expect((await d.handle(initialize(7, "2024-11-05"), { channel: {} }))?.result?.["protocolVersion"]).toBe(LEGACY_VERSION);
  });

  it("resource not found: the handler's -32602 with data.uri reaches a legacy client as 2025-11-25's -32002, a modern one as thrown; other errors are kept", async () => {
    const d = dual({
      handlers: {
        "resources/read": (params: Json) => {
          if (params["uri"] === "test://bad") throw new HandlerError(-32602, "Invalid params: a URI is required", { reason: "no uri" });
          throw new HandlerError(-32602, "Resource not found", { uri: params["uri"] });
        },
        "tools/list": () => {
          throw new HandlerError(-32602, "not a resource", { uri: "test://x" });
        },
      },
    });
    const missing = { code: -32602, message: "Resource not found", data: { uri: "test://gone" } };
    expect((await d.handle(modern(1, "resources/read", { uri: "test://gone" })))?.error).toEqual(missing);
    const a = legacyClient(d);
    await a.open();
    expect((await a.send(legacy(2, "resources/read", { uri: "test://gone" })))?.error).toEqual({ ...missing, code: -32002 });
    expect((await a.send(legacy(3, "resources/read", { uri: "test://bad" })))?.error?.code).toBe(-32602);
    expect((await a.send(legacy(4, "tools/list")))?.error?.code).toBe(-32602);
    expect(LEGACY.resourceNotFound).toEqual({ code: -32002, uriRequired: false });
    expect(MODERN.resourceNotFound).toEqual({ code: -32602, uriRequired: true });
  });

  it("a single legacy revision (today's generated 2025-11-25 dispatcher) serves as a legacy server: initialize opens a session, setLevel is built in", async () => {
    const d = create(LEGACY, { serverInfo: SERVER_INFO, capabilities: { tools: {}, logging: {} }, tools: [{ definition: ECHO, call: (args: Json) => ({ content: [{ type: "text", text: String(args["text"]) }] }) }] as never });
    const client = legacyClient(d);
    expect((await client.open())?.result).toEqual({ protocolVersion: LEGACY_VERSION, capabilities: { tools: {}, logging: {} }, serverInfo: SERVER_INFO });
    expect(d.sessionOf(client.channel)?.protocolVersion).toBe(LEGACY_VERSION);
    expect(await client.send(legacy(1, "logging/setLevel", { level: "error" }))).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect(d.sessionOf(client.channel)?.logLevel).toBe("error");
    const called = await client.send(legacy(2, "tools/call", { name: "echo", arguments: { text: "x" } }));
    expect(called).toEqual({ jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "x" }] } });
    expect(legacyErrors("CallToolResult", called?.result)).toEqual([]);
  });
});

describe("notifications the server cannot accept", () => {
  it("a refused notifications/cancelled cancels nothing; HandleContext.refuse is told -32602 with the issues, or -32022 for a version not served", async () => {
    const d = dual();
    const client = legacyClient(d);
    await client.open();
    const refusals: unknown[] = [];
    const refuse = (error: unknown) => refusals.push(error);
    // The call waits for the client's answer to its elicitation, which never comes.
    const called = client.send(legacy(1, "tools/call", { name: "ask", arguments: {} }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(client.sent.map((m) => m.method)).toEqual(["elicitation/create"]);
    const badCancel = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: 42 } };
    expect(await d.handle(badCancel, { channel: client.channel, refuse })).toBeUndefined();
    expect(refusals).toEqual([
      {
        code: -32602,
        message: 'Invalid params of "notifications/cancelled": /params/reason: expected string, got 42',
        data: { issues: [{ path: "/params/reason", message: "expected string, got 42" }] },
      },
    ]);
    const still = await settledWithin(called, 50);
    expect(still).toBe("still waiting");
    // A valid one cancels it: the request is never answered.
    await d.handle({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "changed my mind" } }, { channel: client.channel, refuse });
    expect(await called).toBeUndefined();
    expect(refusals).toHaveLength(1);

    // A modern notification naming a version not served as modern, and one naming the modern version with bad params.
    const modernCancel = (version: string, requestId: unknown) => ({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { _meta: { "io.modelcontextprotocol/protocolVersion": version }, requestId },
    });
    await d.handle(modernCancel("1999-01-01", 1), { channel: {}, refuse });
    await d.handle(modernCancel(LEGACY_VERSION, 1), { channel: client.channel, refuse });
    await d.handle(modernCancel(MODERN_VERSION, true), { channel: {}, refuse });
    await d.handle(modernCancel(MODERN_VERSION, 1), { channel: {}, refuse });
    expect(refusals.slice(1).map((r) => [(r as { code: number }).code, (r as { data: unknown }).data])).toEqual([
      [-32022, { supported: [MODERN_VERSION], requested: "1999-01-01" }],
      [-32022, { supported: [MODERN_VERSION], requested: LEGACY_VERSION }],
      [-32602, { issues: [{ path: "/params/requestId", message: expect.any(String) }] }],
    ]);
    // A notification of a method no revision has is accepted and ignored.
    await d.handle({ jsonrpc: "2.0", method: "notifications/not-in-the-spec" }, { channel: client.channel, refuse });
    expect(refusals).toHaveLength(4);
  });

  it("a notification whose _meta version is not a string, or not a modern version served, takes no effect; one of a method no revision has is ignored whatever its version (review)", async () => {
    const d = dual();
    const client = legacyClient(d);
    await client.open();
    const refusals: { code: number; message: string }[] = [];
    const refuse = (error: { code: number; message: string }) => refusals.push(error);
    const called = client.send(legacy(1, "tools/call", { name: "ask", arguments: {} }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const withVersion = (method: string, version: unknown) => ({ jsonrpc: "2.0", method, params: { _meta: { "io.modelcontextprotocol/protocolVersion": version }, requestId: 1 } });
    for (const version of [123, null, {}, "1999-01-01"]) await d.handle(withVersion("notifications/cancelled", version), { channel: client.channel, refuse });
    expect(refusals.map((r) => r.code)).toEqual([-32602, -32602, -32602, -32022]);
    expect(refusals[0]!.message).toBe('Invalid params of "notifications/cancelled": _meta io.modelcontextprotocol/protocolVersion is not a string');
    expect(await settledWithin(called, 50)).toBe("still waiting");
    await d.handle(withVersion("notifications/not-in-the-spec", "1999-01-01"), { channel: client.channel, refuse });
    await d.handle(withVersion("notifications/not-in-the-spec", 123), { channel: client.channel, refuse });
    expect(refusals).toHaveLength(4);
    await d.handle({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } }, { channel: client.channel, refuse });
    expect(await called).toBeUndefined();
  });

  it("a re-initialize dropped in flight (its connection gone) gives up the rounds of the requests that followed it, at once and saying why; the open session serves on (review)", async () => {
    const givenUp = givenUpBecause("the initialize it followed was not answered with a result, so its session never opened");
    let cancelledInTime = 0;
    for (let turns = 0; turns <= 4; turns++) {
      const d = dual({ inputTimeoutMs: 60_000 });
      const client = legacyClient(d);
      client.answerWith(() => ({ result: { action: "accept", content: { name: "Again" } } }));
      await client.open();
      const dropped = new AbortController();
      const again = client.send(initialize(2, LEGACY_VERSION, { elicitation: {} }), dropped.signal);
      const called = client.send(legacy(1, "tools/call", { name: "ask", arguments: {} }));
      for (let i = 0; i < turns; i++) await Promise.resolve();
      dropped.abort();
      // Cancelled in time, the initialize is not answered; too late, it opened a new session, which waits for the client to say it is initialized.
      const inTime = (await again) === undefined;
      if (inTime) cancelledInTime++;
      else await client.send({ jsonrpc: "2.0", method: "notifications/initialized" });
      const outcome = await settledWithin(called, 2000);
      const seen = typeof outcome === "string" || outcome === undefined ? outcome : "result" in outcome ? outcome.result : outcome.error;
      expect({ turns, seen }).toEqual({ turns, seen: inTime ? givenUp : { content: [{ type: "text", text: "Hello Again (asked-once)" }] } });
      // Either way the channel keeps an initialized session that serves the client.
      expect(d.sessionOf(client.channel)?.initialized).toBe(true);
      expect((await client.send(legacy(3, "tools/call", { name: "ask", arguments: {} })))?.result).toEqual({ content: [{ type: "text", text: "Hello Again (asked-once)" }] });
    }
    expect(cancelledInTime).toBeGreaterThan(0);
  });

  it("an initialize replaced while its handler still runs gives up the rounds waiting on its session at once, not when that handler returns (review)", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let initializes = 0;
    const d = dual({
      inputTimeoutMs: 60_000,
      handlers: {
        // A slow initialize the first time (a server that looks something up before it answers).
        initialize: async () => {
          if (initializes++ === 0) await gate;
          return { protocolVersion: LEGACY_VERSION, capabilities: CAPABILITIES, serverInfo: SERVER_INFO };
        },
      },
    });
    const client = legacyClient(d);
    client.answerWith(() => ({ result: { action: "accept", content: { name: "Slow" } } }));
    const first = client.send(initialize(0, LEGACY_VERSION, { elicitation: {} }));
    const called = client.send(legacy(1, "tools/call", { name: "ask", arguments: {} }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await client.send(initialize(2, LEGACY_VERSION, { elicitation: {} })))?.result).toMatchObject({ protocolVersion: LEGACY_VERSION });
    await client.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const outcome = await settledWithin(called, 500);
    expect(outcome).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: givenUpBecause("the client initialized the session again"),
    });
    release();
    expect((await first)?.result).toMatchObject({ protocolVersion: LEGACY_VERSION });
    // The second session serves on.
    expect((await client.send(legacy(3, "tools/call", { name: "ask", arguments: {} })))?.result).toEqual({ content: [{ type: "text", text: "Hello Slow (asked-once)" }] });
  });

  it("notifications/cancelled naming an initialize in flight is ignored: it is answered and its session opens (2025-11-25: a client MUST NOT cancel its initialize; helper-77)", async () => {
    const d = dual();
    const client = legacyClient(d);
    const opening = client.send(initialize(0, LEGACY_VERSION, { elicitation: {} }));
    await client.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 0 } });
    // Before: never answered, and no session.
    expect((await settledWithin(opening, 2000)) as unknown).toMatchObject({ id: 0, result: { protocolVersion: LEGACY_VERSION } });
    expect(d.sessionOf(client.channel)?.protocolVersion).toBe(LEGACY_VERSION);
    // Another request is cancelled as before.
    await client.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const called = client.send(legacy(1, "tools/call", { name: "ask", arguments: {} }));
    await client.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } });
    expect(await settledWithin(called, 2000)).toBeUndefined();
  });

  it("a refuse that throws leaves the notification unanswered and goes to onError", async () => {
    const d = dual();
    const answer = await d.handle(
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { _meta: META, requestId: true } },
      {
        channel: {},
        refuse: () => {
          throw new Error("transport broke");
        },
      },
    );
    expect(answer).toBeUndefined();
    expect(logged.map((l) => [(l.error as Error).message, l.info["reason"]])).toEqual([["transport broke", "notification-handler-threw"]]);
  });

  it("a round waiting for notifications/initialized of a session whose initialize was dropped is given up at once (helper-41)", async () => {
    const d = dual({ inputTimeoutMs: 60_000 });
    const client = legacyClient(d);
    const dropped = new AbortController();
    const opening = client.send(initialize(0, LEGACY_VERSION, { elicitation: {} }), dropped.signal);
    const called = client.send(legacy(1, "tools/call", { name: "ask", arguments: {} }));
    // The initialize's connection goes (a deadline firing does the same).
    dropped.abort();
    const outcome = await settledWithin(called, 2000);
    expect(outcome).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: givenUpBecause("the initialize it followed was not answered with a result, so its session never opened"),
    });
    expect(await opening).toBeUndefined();
    expect(d.sessionOf(client.channel)).toBeUndefined();
  });
});

/** A legacy client's first lines over stdio, written at once: initialize (id 1, elicitation declared) and notifications/initialized. */
const OPENING_LINES = JSON.stringify(initialize(1, LEGACY_VERSION, { elicitation: {} })) + "\n" + JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n";

/** A stdio server on `d` over in-memory streams: the lines it writes, parsed, and the answer to a request by id (not the server's own requests, which have ids too). */
function stdioServer(d: Dispatcher, options: { maxInFlight?: number; maxHeldBytes?: number; shutdownGraceMs?: number } = {}) {
  const input = new PassThrough();
  const output = new PassThrough();
  const lines: Json[] = [];
  createInterface({ input: output, crlfDelay: Infinity }).on("line", (l) => lines.push(JSON.parse(l) as Json));
  const answered = (id: number | string) => lines.find((l) => l["id"] === id && l["method"] === undefined);
  const server = serveStdio(d as unknown as CoreDispatcher, { input, output, ...options });
  return { input, lines, answered, server };
}

describe("handlers options.capabilities leaves out, told once: by every revision served", () => {
  const told = () => logged.filter((l) => l.info["reason"] === "unadvertised-handler").map((l) => [l.info["method"], String((l.error as Error).message)]);
  const unreachable = (method: string, capability: string) =>
    `options.capabilities leaves out ${capability}, so the ${method} handler is never called (${method} is answered -32601): ` +
    `add ${capability} to options.capabilities, or leave options.capabilities out to derive the capabilities from the handlers`;

  it("a handler a legacy revision reaches without the capability (2024-11-05's completion/complete has none) is not reported; one only a legacy revision has is", async () => {
    const dir = await generateInto("dual-era/2024-11-05", { schema: { specDir: SPEC_DIR, version: "2024-11-05" }, docs: "none" });
    const oldest = ((await import(join(dir, "dispatch.ts"))) as { DISPATCH_REVISION: DispatchRevision }).DISPATCH_REVISION;
    const complete = { "completion/complete": () => ({ completion: { values: [] } }) };
    dual({ handlers: complete, capabilities: { tools: {} } }, [MODERN, oldest]);
    expect(told()).toEqual([]);
    // Served by the draft alone, the same handler is out of reach.
    dual({ handlers: complete, capabilities: { tools: {} } }, [MODERN]);
    expect(told()).toEqual([["completion/complete", unreachable("completion/complete", "completions")]]);
    // resources/subscribe is 2025-11-25's alone: its capability left out, it is reported.
    dual({ handlers: { "resources/subscribe": () => ({}), "resources/list": () => ({ resources: [] }) }, capabilities: { tools: {}, resources: {} } });
    expect(told()).toEqual([["resources/subscribe", unreachable("resources/subscribe", "resources.subscribe")]]);
  });

  it("a tools/list handler of its own beside options.tools: one report, for the handler", () => {
    dual({ handlers: { "tools/list": () => ({ tools: [] }) }, capabilities: { prompts: {} } });
    expect(told()).toEqual([["tools/list", unreachable("tools/list", "tools")]]);
  });
});

describe("JSON-RPC batches on a 2025-03-26 session (2025-03-26 basic/index: implementations MUST support receiving them)", () => {
  const BATCH_VERSION = "2025-03-26";
  let table: DispatchRevision;
  beforeAll(async () => {
    const dir = await generateInto("dual-era/2025-03-26-batches", { schema: { specDir: SPEC_DIR, version: BATCH_VERSION }, docs: "none" });
    const older = ((await import(join(dir, "dispatch.ts"))) as { DISPATCH_REVISION: DispatchRevision }).DISPATCH_REVISION;
    table = { ...older, builtins: { ...older.builtins, setLevel: "logging/setLevel", subscribe: "resources/subscribe", unsubscribe: "resources/unsubscribe" }, initializedNotification: "notifications/initialized" };
  });
  /** A batch's answer, read loosely. */
  const answers = (answer: Response | undefined) => answer as unknown as Response[] | Response | undefined;
  const ROOTS = { name: "roots", inputSchema: { type: "object", properties: {} } };
  const WAIT = { name: "wait", inputSchema: { type: "object", properties: {} } };
  let calls = 0;
  /** draft + 2025-03-26: `echo`, `roots` (asks the client for its roots), `wait` (never finishes by itself). */
  function batching(extra: Partial<DispatcherOptions> = {}): Dispatcher {
    calls = 0;
    return dual(
      {
        tools: [
          { definition: ECHO, call: (args: Json) => (calls++, { content: [{ type: "text", text: String(args["text"]) }] }) },
          {
            definition: ROOTS,
            call: (_args: Json, context: RequestContextCore) => {
              const listed = (context.inputResponses as { roots?: { roots: { uri: string }[] } } | undefined)?.roots;
              if (listed === undefined) return { resultType: "input_required", inputRequests: { roots: { method: "roots/list" } } };
              return { content: [{ type: "text", text: listed.roots.map((r) => r.uri).join(" ") }] };
            },
          },
          { definition: WAIT, call: () => new Promise(() => {}) },
        ] as never,
        ...extra,
      },
      [MODERN, table],
    );
  }
  const echo = (id: number | string, text: string) => legacy(id, "tools/call", { name: "echo", arguments: { text } });
  const echoed = (id: number | string, text: string) => ({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text }] } });

  it("the revision table of 2025-03-26 says it takes batches; those of 2025-11-25 and the draft do not", () => {
    expect(table.batches).toBe(true);
    expect(LEGACY.batches).toBeUndefined();
    expect(MODERN.batches).toBeUndefined();
  });

  it("each element is handled as alone; the responses to its requests come back as one array, in the batch's order; notifications and responses alone get nothing", async () => {
    const d = batching();
    const client = legacyClient(d);
    expect((await client.open(BATCH_VERSION, { roots: {} }))?.result?.["protocolVersion"]).toBe(BATCH_VERSION);
    const batch = [legacy(1, "ping"), echo(2, "two"), { jsonrpc: "2.0", method: "notifications/roots/list_changed" }, legacy("3", "tools/list")];
    const answer = answers(await client.send(batch)) as Response[];
    expect(answer.map((r) => r.id)).toEqual([1, 2, "3"]);
    expect(answer.slice(0, 2)).toEqual([{ jsonrpc: "2.0", id: 1, result: {} }, echoed(2, "two")]);
    expect((answer[2]!.result!["tools"] as Json[]).map((t) => t["name"])).toEqual(["echo", "roots", "wait"]);
    // JSON text is read the same way.
    expect(answers(await client.send(JSON.stringify([echo(4, "text")])))).toEqual([echoed(4, "text")]);
    expect(await client.send([{ jsonrpc: "2.0", method: "notifications/roots/list_changed" }])).toBeUndefined();
    expect(await client.send([{ jsonrpc: "2.0", id: 99, result: {} }])).toBeUndefined();
    expect(logged).toEqual([]);
  });

  it("a batch with an element that throws when read is one -32603 and none of it runs (helper-90: handle rejected)", async () => {
    const d = batching();
    const client = legacyClient(d);
    await client.open(BATCH_VERSION, {});
    const hostile = [echo(1, "first"), echo(2, "second"), echo(3, "third")];
    Object.defineProperty(hostile, "2", { get: () => { throw new Error("boom"); } });
    expect(await client.send(hostile)).toEqual({ jsonrpc: "2.0", error: { code: -32603, message: "Internal error" } });
    expect(calls).toBe(0);
    // Reported as one() reports a message that throws when read.
    expect(logged.map((l) => [String(l.error), l.info["reason"]])).toEqual([["Error: boom", "handler-threw"]]);
  });

  it("a batch element is read once: a getter that throws, or answers otherwise, on a second read is not asked again, and the element is answered with its id", async () => {
    const d = batching();
    const client = legacyClient(d);
    await client.open(BATCH_VERSION, {});
    let idReads = 0;
    const once = { ...echo(7, "seven") } as Record<string, unknown>;
    Object.defineProperty(once, "id", {
      enumerable: true,
      get: () => {
        idReads++;
        if (idReads > 1) throw new Error("read twice");
        return 7;
      },
    });
    let methodReads = 0;
    const shifting = { ...echo(8, "eight") } as Record<string, unknown>;
    Object.defineProperty(shifting, "method", { enumerable: true, get: () => (methodReads++ === 0 ? "tools/call" : "ping") });
    // A non-enumerable id counts, as it does for the element alone (helper-96: the copy left it out, and a request became a notification).
    const hidden = echo(10, "ten") as Record<string, unknown>;
    delete hidden["id"];
    Object.defineProperty(hidden, "id", { value: 10, enumerable: false });
    expect(await client.send(hidden)).toEqual(echoed(10, "ten"));
    expect(answers(await client.send([hidden]))).toEqual([echoed(10, "ten")]);
    // Members no JSON-RPC message has are not read, as they are not alone (helper-97: a throwing non-enumerable getter stopped the batch).
    const extra = legacy(11, "ping") as Record<string, unknown>;
    Object.defineProperty(extra, "extra", { enumerable: false, get: () => { throw new Error("read"); } });
    Object.defineProperty(extra, "other", { enumerable: true, get: () => { throw new Error("read"); } });
    expect(await client.send(extra)).toEqual({ jsonrpc: "2.0", id: 11, result: {} });
    expect(answers(await client.send([extra, legacy(12, "ping")]))).toEqual([{ jsonrpc: "2.0", id: 11, result: {} }, { jsonrpc: "2.0", id: 12, result: {} }]);
    // Nor a request's result or error, which it is not read for alone (helper-98).
    const odd = legacy(13, "ping") as Record<string, unknown>;
    Object.defineProperty(odd, "result", { enumerable: true, get: () => { throw new Error("read"); } });
    expect(await client.send(odd)).toEqual({ jsonrpc: "2.0", id: 13, result: {} });
    expect(answers(await client.send([odd, legacy(14, "ping")]))).toEqual([{ jsonrpc: "2.0", id: 13, result: {} }, { jsonrpc: "2.0", id: 14, result: {} }]);
    // A member named __proto__ (as JSON.parse makes one) is no member of a message: the element is answered as alone.
    const proto = JSON.parse('{"jsonrpc":"2.0","id":9,"method":"ping","__proto__":{"x":1}}') as object;
    expect(answers(await client.send([once, shifting, proto]))).toEqual([echoed(7, "seven"), echoed(8, "eight"), { jsonrpc: "2.0", id: 9, result: {} }]);
    expect([idReads, methodReads]).toEqual([1, 1]);
    expect(logged).toEqual([]);
  });

  it("a batch is read by index, once, up to its limit: not through an iterator of its own, and a length of 2^32 - 1 is refused without reading it (helper-91)", async () => {
    const d = batching();
    const client = legacyClient(d);
    await client.open(BATCH_VERSION, {});
    const odd = Object.assign([echo(1, "one"), echo(2, "two")], { [Symbol.iterator]: function* () { yield echo(10, "ten"); } });
    expect(answers(await client.send(odd))).toEqual([echoed(1, "one"), echoed(2, "two")]);
    const sparse: unknown[] = [];
    sparse.length = 2 ** 32 - 1;
    expect(await client.send(sparse)).toEqual({ jsonrpc: "2.0", error: { code: -32600, message: "Invalid request: a batch holds at most 64 messages (this one holds 4294967295); send it in parts" } });
    const endless = Object.assign([echo(3, "three")], { [Symbol.iterator]: function* () { for (;;) yield echo(4, "four"); } });
    expect(answers(await client.send(endless))).toEqual([echoed(3, "three")]);
    // A length that is no array length (a Proxy can say anything): the batch cannot be read, and none of it runs.
    calls = 0;
    for (const length of ["2", -1, 1.5, Number.NaN]) {
      const lying = new Proxy([echo(5, "five")], { get: (target, key) => (key === "length" ? length : Reflect.get(target, key)) });
      expect(await client.send(lying)).toEqual({ jsonrpc: "2.0", error: { code: -32603, message: "Internal error" } });
    }
    expect(calls).toBe(0);
    // Each is told to onError, as a message that throws when read is.
    expect(logged.map((l) => [String(l.error), l.info["reason"]])).toEqual(Array(4).fill(["TypeError: a batch's length is not an array length", "handler-threw"]));
    logged.length = 0;
    // A batch past the limit that holds a notification after its first 64 elements still tells the transport (helper-93).
    const told: DispatchErrorObject[] = [];
    const long = [...Array.from({ length: 64 }, (_, i) => legacy(100 + i, "ping")), { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } }];
    expect(await d.handle(long, { channel: client.channel, refuse: (e) => told.push(e) })).toEqual({
      jsonrpc: "2.0",
      error: { code: -32600, message: "Invalid request: a batch holds at most 64 messages (this one holds 65); send it in parts" },
    });
    expect(told.length).toBe(1);
    // Past a large limit, the batch is refused without reading up to it (helper-92: 10^9 elements were read first).
    const large = batching({ maxBatchSize: 1e9 });
    const largeClient = legacyClient(large);
    await largeClient.open(BATCH_VERSION, {});
    // With no transport asking about its notifications, none of it is read (before, 10^9 elements were, for 40 s).
    let reads = 0;
    const counted = new Proxy(sparse, { get: (target, key) => (typeof key === "string" && /^\d+$/.test(key) && reads++, Reflect.get(target, key)) });
    expect(await largeClient.send(counted)).toEqual({ jsonrpc: "2.0", error: { code: -32600, message: "Invalid request: a batch holds at most 1000000000 messages (this one holds 4294967295); send it in parts" } });
    expect(reads).toBe(0);
    // maxBatchSize is an integer of at least 1: NaN took any batch, and Infinity reads without a bound.
    for (const maxBatchSize of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "64"]) {
      expect(() => batching({ maxBatchSize: maxBatchSize as number })).toThrow(RangeError);
    }
  });

  it("an empty batch is one -32600 (not an array); an element that is not a message, an initialize, or a modern message gets its own -32600 in the array", async () => {
    const d = batching();
    const client = legacyClient(d);
    await client.open(BATCH_VERSION, {});
    expect(await client.send([])).toEqual({ jsonrpc: "2.0", error: { code: -32600, message: "Invalid request: the batch is empty" } });
    const refusals: DispatchErrorObject[] = [];
    const mixed = [1, [legacy(5, "ping")], { jsonrpc: "1.0", id: 6, method: "ping" }, echo(7, "ok"), initialize(8, BATCH_VERSION), modern(9, "tools/list")];
    expect(answers(await d.handle(mixed, { channel: client.channel, refuse: (e) => refusals.push(e) }))).toEqual([
      { jsonrpc: "2.0", error: { code: -32600, message: "Invalid request: a message is a JSON object" } },
      { jsonrpc: "2.0", error: { code: -32600, message: "Invalid request: a message is a JSON object" } },
      { jsonrpc: "2.0", id: 6, error: { code: -32600, message: 'Invalid request: jsonrpc must be "2.0"' } },
      echoed(7, "ok"),
      { jsonrpc: "2.0", id: 8, error: { code: -32600, message: 'Invalid request: "initialize" must not be part of a JSON-RPC batch' } },
      {
        jsonrpc: "2.0",
        id: 9,
        error: { code: -32600, message: "Invalid request: a message carrying the per-request _meta protocol version cannot be part of a JSON-RPC batch" },
      },
    ]);
    // The refused initialize left the session as it was; a modern notification in a batch is refused and takes no effect.
    expect(d.sessionOf(client.channel)?.protocolVersion).toBe(BATCH_VERSION);
    expect(await d.handle([{ jsonrpc: "2.0", method: "notifications/cancelled", params: { _meta: META, requestId: 1 } }], { channel: client.channel, refuse: (e) => refusals.push(e) })).toBeUndefined();
    expect(refusals).toEqual([
      {
        code: -32600,
        message: "Invalid request: a message carrying the per-request _meta protocol version cannot be part of a JSON-RPC batch (message 1 of the batch; none of the batch was taken)",
      },
    ]);
    // Requests and responses in one batch: neither batch type of the schema, so one -32600 and none of it runs (helper-62).
    expect(await d.handle([{ jsonrpc: "2.0", id: 99, result: {} }, echo(10, "mixed")], { channel: client.channel })).toEqual({
      jsonrpc: "2.0",
      error: { code: -32600, message: "Invalid request: a batch holds requests and notifications, or responses, not both (2025-03-26 JSONRPCBatchRequest, JSONRPCBatchResponse)" },
    });
    expect(calls).toBe(1);
  });

  it("stays refused as before: with no session, on a 2025-11-25 session, and for a modern client; the same message everywhere", async () => {
    const refused = { jsonrpc: "2.0", error: { code: -32600, message: "Invalid request: batches are not supported" } };
    const d = batching();
    expect(await d.handle([legacy(1, "ping")], { channel: {} })).toEqual(refused);
    expect(await d.handle([modern(1, "tools/list")])).toEqual(refused);
    expect(await d.handle("[]")).toEqual(refused);
    // Serving 2025-11-25 and 2025-03-26 at once: each session by its own revision.
    const both = dual({}, [MODERN, legacyTable(), table]);
    const newer = legacyClient(both);
    expect((await newer.open(LEGACY_VERSION, {}))?.result?.["protocolVersion"]).toBe(LEGACY_VERSION);
    expect(await newer.send([legacy(1, "ping")])).toEqual(refused);
    expect(await newer.send([])).toEqual(refused);
    const older = legacyClient(both);
    expect((await older.open(BATCH_VERSION, {}))?.result?.["protocolVersion"]).toBe(BATCH_VERSION);
    expect(answers(await older.send([legacy(1, "ping")]))).toEqual([{ jsonrpc: "2.0", id: 1, result: {} }]);
    // A transport that keeps the session itself (HandleContext.session) is read the same way.
    expect(answers(await d.handle([legacy(1, "ping")], { channel: {}, session: { protocolVersion: BATCH_VERSION } }))).toEqual([{ jsonrpc: "2.0", id: 1, result: {} }]);
    expect(await both.handle([legacy(1, "ping")], { channel: {}, session: { protocolVersion: LEGACY_VERSION } })).toEqual(refused);
    expect(calls).toBe(0);
  });

  it("a batch of more than maxBatchSize messages (default 64) is one -32600 and none of it runs", async () => {
    const small = batching({ maxBatchSize: 2 });
    const client = legacyClient(small);
    await client.open(BATCH_VERSION, {});
    expect(await client.send([echo(1, "a"), echo(2, "b"), echo(3, "c")])).toEqual({
      jsonrpc: "2.0",
      error: { code: -32600, message: "Invalid request: a batch holds at most 2 messages (this one holds 3); send it in parts" },
    });
    expect(calls).toBe(0);
    expect(answers(await client.send([echo(1, "a"), echo(2, "b")]))).toEqual([echoed(1, "a"), echoed(2, "b")]);
    const d = batching();
    const other = legacyClient(d);
    await other.open(BATCH_VERSION, {});
    const many = Array.from({ length: 65 }, (_, i) => echo(i, String(i)));
    expect(await other.send(many)).toMatchObject({ error: { code: -32600, message: "Invalid request: a batch holds at most 64 messages (this one holds 65); send it in parts" } });
    expect((answers(await other.send(many.slice(0, 64))) as Response[]).length).toBe(64);
  });

  it("a request of a batch that asks the client for input: its roots/list goes on the batch's stream, and the client's response (in a batch too) settles it", async () => {
    const d = batching();
    const client = legacyClient(d);
    await client.open(BATCH_VERSION, { roots: {} });
    const pending = client.send([legacy(1, "tools/call", { name: "roots", arguments: {} }), legacy(2, "ping")]);
    await within(until(() => client.sent.some((m) => m.method === "roots/list")));
    const asked = client.sent.find((m) => m.method === "roots/list") as { id: number };
    expect(await client.send([{ jsonrpc: "2.0", id: asked.id, result: { roots: [{ uri: "file:///a" }, { uri: "file:///b" }] } }])).toBeUndefined();
    expect(answers(await within(pending))).toEqual([
      { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "file:///a file:///b" }] } },
      { jsonrpc: "2.0", id: 2, result: {} },
    ]);
  });

  it("every request of a batch is answered once: a deadline that aborts answers the one still running -32603 in the array; a cancelled one is left out", async () => {
    const d = batching();
    const client = legacyClient(d);
    await client.open(BATCH_VERSION, {});
    const deadline = new AbortController();
    const pending = d.handle([legacy(1, "tools/call", { name: "wait", arguments: {} }), legacy(2, "ping")], { channel: client.channel, deadline: deadline.signal });
    await new Promise((resolve) => setTimeout(resolve, 20));
    deadline.abort("Server shutting down");
    expect(answers(await within(pending))).toEqual([
      { jsonrpc: "2.0", id: 1, error: { code: -32603, message: "Server shutting down" } },
      { jsonrpc: "2.0", id: 2, result: {} },
    ]);
    // A notifications/cancelled for a request of the batch (sent alone) drops its answer; the batch still answers the rest.
    const cancelled = client.send([legacy(3, "tools/call", { name: "wait", arguments: {} }), echo(4, "kept")]);
    await client.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 3 } });
    expect(answers(await within(cancelled))).toEqual([echoed(4, "kept")]);
    const allCancelled = client.send([legacy(5, "tools/call", { name: "wait", arguments: {} })]);
    await client.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 5 } });
    expect(await within(allCancelled)).toBeUndefined();
  });

  it("a batch of notifications only is taken whole or not at all: one refused, and none of it takes effect (helper-62's 4)", async () => {
    const d = batching();
    const client = legacyClient(d);
    await client.open(BATCH_VERSION, {});
    const refusals: DispatchErrorObject[] = [];
    const context = { channel: client.channel, refuse: (e: DispatchErrorObject) => refusals.push(e) };
    const waiting = client.send(legacy(1, "tools/call", { name: "wait", arguments: {} }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The first cancellation is valid, the second fails its schema (requestId is an object): the first cancels nothing.
    const cancel = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } };
    const broken = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: {} } };
    expect(await d.handle([cancel, broken], context)).toBeUndefined();
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatchObject({ code: -32602, data: { issues: [{ path: "/params/requestId" }] } });
    expect(refusals[0]!.message).toMatch(/^Invalid params of "notifications\/cancelled": .* \(message 2 of the batch; none of the batch was taken\)$/);
    const settled = await Promise.race([waiting.then(() => "answered"), new Promise((resolve) => setTimeout(() => resolve("still running"), 50))]);
    expect(settled).toBe("still running");
    // A modern notification in the batch refuses it the same way.
    expect(await d.handle([cancel, { jsonrpc: "2.0", method: "notifications/cancelled", params: { _meta: META, requestId: 1 } }], context)).toBeUndefined();
    expect(refusals[1]).toEqual({
      code: -32600,
      message: "Invalid request: a message carrying the per-request _meta protocol version cannot be part of a JSON-RPC batch (message 2 of the batch; none of the batch was taken)",
    });
    // Every notification accepted: the batch takes effect.
    expect(await d.handle([{ jsonrpc: "2.0", method: "notifications/roots/list_changed" }, cancel], context)).toBeUndefined();
    expect(await within(waiting)).toBeUndefined();
    expect(refusals).toHaveLength(2);
  });

  it("a batch of notifications only checks each once, as a notification sent alone is: the check that took it is the one that counts", async () => {
    const d = batching();
    const client = legacyClient(d);
    await client.open(BATCH_VERSION, {});
    const refusals: DispatchErrorObject[] = [];
    const context = { channel: client.channel, refuse: (e: DispatchErrorObject) => refusals.push(e) };
    // A cancellation whose requestId counts its reads (no request 99 runs: it cancels nothing).
    const counted = () => {
      const reads = { n: 0 };
      const params = {};
      Object.defineProperty(params, "requestId", { enumerable: true, get: () => (reads.n++, 99) });
      return { reads, message: { jsonrpc: "2.0", method: "notifications/cancelled", params } };
    };
    const alone = counted();
    expect(await d.handle(alone.message, context)).toBeUndefined();
    const batched = counted();
    expect(await d.handle([batched.message, { jsonrpc: "2.0", method: "notifications/roots/list_changed" }], context)).toBeUndefined();
    expect(refusals).toEqual([]);
    expect(alone.reads.n).toBeGreaterThan(0);
    expect(batched.reads.n).toBe(alone.reads.n);
  });

  it("over stdio at maxInFlight: a batch counts as the requests it holds, and a batch of the client's responses goes ahead of the requests held", async () => {
    const { input, lines, answered, server } = stdioServer(batching(), { maxInFlight: 2 });
    input.write(JSON.stringify(initialize(1, BATCH_VERSION, { roots: {} })) + "\n" + JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
    await within(until(() => answered(1) !== undefined));
    input.write(JSON.stringify([legacy(2, "tools/call", { name: "roots", arguments: {} }), legacy(3, "tools/call", { name: "roots", arguments: {} })]) + "\n");
    await within(until(() => lines.filter((l) => l["method"] === "roots/list").length === 2));
    // Two requests run (the batch's): the cap is reached, so this one is held.
    input.write(JSON.stringify(echo(4, "held")) + "\n");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(answered(4)).toBeUndefined();
    const asked = lines.filter((l) => l["method"] === "roots/list");
    input.write(JSON.stringify(asked.map((a, i) => ({ jsonrpc: "2.0", id: a["id"], result: { roots: [{ uri: "file:///" + String(i) }] } }))) + "\n");
    await within(until(() => answered(4) !== undefined));
    expect(lines.find((l) => Array.isArray(l))).toEqual([
      { jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "file:///0" }] } },
      { jsonrpc: "2.0", id: 3, result: { content: [{ type: "text", text: "file:///1" }] } },
    ]);
    expect(answered(4)).toEqual(echoed(4, "held"));
    input.end();
    await within(server.closed);
  });

  it("over stdio at the cap, a held batch that names one id twice is cancelled once per cancellation; the request held after it still runs (helper-117: it was lost)", async () => {
    const { input, lines, answered, server } = stdioServer(batching(), { maxInFlight: 1 });
    input.write(JSON.stringify(initialize(1, BATCH_VERSION, { roots: {} })) + "\n" + JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
    await within(until(() => answered(1) !== undefined));
    input.write(JSON.stringify(legacy(2, "tools/call", { name: "roots", arguments: {} })) + "\n");
    await within(until(() => lines.some((l) => l["method"] === "roots/list")));
    const asked = lines.find((l) => l["method"] === "roots/list")!;
    // Held: a batch naming id 5 twice, then request 7.
    input.write(JSON.stringify([echo(5, "a"), echo(5, "b")]) + "\n" + JSON.stringify(echo(7, "seven")) + "\n");
    const cancel = JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 5 } }) + "\n";
    input.write(cancel + cancel + cancel);
    await new Promise((resolve) => setTimeout(resolve, 50));
    input.write(JSON.stringify({ jsonrpc: "2.0", id: asked["id"], result: { roots: [] } }) + "\n");
    await within(until(() => answered(7) !== undefined));
    expect(answered(7)).toEqual({ jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: "seven" }] } });
    input.end();
    await within(server.closed);
    expect(lines.filter((l) => l["id"] === 7 && l["method"] === undefined)).toHaveLength(1);
    expect(lines.some((l) => Array.isArray(l))).toBe(false);
  });

  it("over stdio at the cap, with maxHeldBytes held: a batch is answered Server busy for each of its requests, in one array; a batch mixing responses and requests is refused at once (helper-62)", async () => {
    const { input, lines, answered, server } = stdioServer(batching(), { maxInFlight: 1, maxHeldBytes: 64 * 1024 });
    input.write(JSON.stringify(initialize(1, BATCH_VERSION, { roots: {} })) + "\n" + JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
    await within(until(() => answered(1) !== undefined));
    input.write(JSON.stringify(legacy(2, "tools/call", { name: "roots", arguments: {} })) + "\n");
    await within(until(() => lines.some((l) => l["method"] === "roots/list")));
    const asked = lines.find((l) => l["method"] === "roots/list")!;
    // Held at the cap: more than the 64 KiB that may be held.
    const held = JSON.stringify(echo(3, "x".repeat(100 * 1024)));
    input.write(held + "\n");
    input.write(JSON.stringify([echo(4, "a"), { jsonrpc: "2.0", method: "notifications/roots/list_changed" }, echo("5", "b"), { ...echo(7, "c"), id: 2.5 }]) + "\n");
    await within(until(() => lines.some((l) => Array.isArray(l))));
    const busy = (id: number | string) => ({ jsonrpc: "2.0", id, error: { code: -32603, message: "Server busy: 1 request is running and 1 more wait (maxHeldBytes: 65536); send it again later" } });
    // A request whose id is no id gets the -32600 it gets when the batch is taken (helper-86: no answer).
    const invalidId = { jsonrpc: "2.0", error: { code: -32600, message: "Invalid request: id must be a string or an integer" } };
    expect(lines.find((l) => Array.isArray(l))).toEqual([busy(4), busy("5"), invalidId]);
    // Alone, it is answered as when the server is idle, and so is a line that is not JSON (helper-86: Server busy).
    const before = lines.length;
    input.write(JSON.stringify({ ...echo(8, "d"), id: 2.5 }) + "\n" + "{oops\n");
    await within(until(() => lines.length === before + 2));
    // (In either order: each is answered as the dispatcher finishes it.)
    const notJson = { jsonrpc: "2.0", error: { code: -32700, message: "Parse error: the message is not JSON" } };
    const sorted = (answers: unknown[]) => answers.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    expect(sorted(lines.slice(before))).toEqual([invalidId, notJson]);
    // So is a batch holding no request that would run, and a request without a method (helper-87: nothing, and Server busy).
    const more = lines.length;
    input.write("[]\n" + "[1]\n" + JSON.stringify({ jsonrpc: "2.0", id: 9, method: 7 }) + "\n");
    await within(until(() => lines.length === more + 3));
    expect(sorted(lines.slice(more))).toEqual(
      sorted([
        { jsonrpc: "2.0", error: { code: -32600, message: "Invalid request: the batch is empty" } },
        [{ jsonrpc: "2.0", error: { code: -32600, message: "Invalid request: a message is a JSON object" } }],
        { jsonrpc: "2.0", id: 9, error: { code: -32600, message: "Invalid request: method must be a string" } },
      ]),
    );
    // In a batch that holds a request that would run, every other element the dispatcher answers gets its answer beside the
    // busy ones, in order (helper-88: ids 41 and 43 were never answered).
    input.write(JSON.stringify([echo(40, "a"), { jsonrpc: "2.0", id: 41, method: 7 }, { id: 43, method: "ping" }, 1, { jsonrpc: "2.0", method: "notifications/x" }]) + "\n");
    await within(until(() => lines.filter((l) => Array.isArray(l)).length === 3));
    expect(lines.filter((l) => Array.isArray(l))[2]).toEqual([
      busy(40),
      { jsonrpc: "2.0", id: 41, error: { code: -32600, message: "Invalid request: method must be a string" } },
      { jsonrpc: "2.0", id: 43, error: { code: -32600, message: 'Invalid request: jsonrpc must be "2.0"' } },
      { jsonrpc: "2.0", error: { code: -32600, message: "Invalid request: a message is a JSON object" } },
    ]);
    // The client's answer sent with a request in one batch: refused at once (not held behind the cap), and nothing of it taken.
    input.write(JSON.stringify([{ jsonrpc: "2.0", id: asked["id"], result: { roots: [] } }, echo(6, "c")]) + "\n");
    await within(until(() => lines.some((l) => !Array.isArray(l) && l["id"] === undefined && l["error"] !== undefined)));
    expect(answered(2)).toBeUndefined();
    input.write(JSON.stringify([{ jsonrpc: "2.0", id: asked["id"], result: { roots: [{ uri: "file:///r" }] } }]) + "\n");
    await within(until(() => answered(2) !== undefined && answered(3) !== undefined));
    expect(answered(2)).toEqual({ jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "file:///r" }] } });
    expect(answered(6)).toBeUndefined();
    input.end();
    await within(server.closed);
  });

  it("over stdio at the cap, a notifications/cancelled for a request held in a batch takes it out: the batch runs without it (helper-62)", async () => {
    const { input, lines, answered, server } = stdioServer(batching(), { maxInFlight: 1 });
    input.write(JSON.stringify(initialize(1, BATCH_VERSION, {})) + "\n" + JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
    await within(until(() => answered(1) !== undefined));
    input.write(JSON.stringify(legacy(2, "tools/call", { name: "wait", arguments: {} })) + "\n");
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Held behind the request running: a batch of two, and one of one.
    input.write(JSON.stringify([echo(3, "dropped"), echo(4, "kept")]) + "\n" + JSON.stringify([echo(5, "alone")]) + "\n");
    await new Promise((resolve) => setTimeout(resolve, 20));
    for (const id of [3, 5, 2]) input.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id } }) + "\n");
    await within(until(() => lines.some((l) => Array.isArray(l))));
    expect(lines.filter((l) => Array.isArray(l))).toEqual([[echoed(4, "kept")]]);
    expect(calls).toBe(1);
    input.end();
    await within(server.closed);
    expect(lines.filter((l) => Array.isArray(l))).toHaveLength(1);
    expect([2, 3, 5].map((id) => answered(id))).toEqual([undefined, undefined, undefined]);
  });

  /** A stdio server at maxInFlight 1 with a 2025-03-26 session: request 2 runs (and waits), request 3 is held behind it. */
  async function holdingThree(d: Dispatcher): Promise<ReturnType<typeof stdioServer>> {
    const server = stdioServer(d, { maxInFlight: 1 });
    const { input, answered } = server;
    input.write(JSON.stringify(initialize(1, BATCH_VERSION, {})) + "\n" + JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
    await within(until(() => answered(1) !== undefined));
    input.write(JSON.stringify(legacy(2, "tools/call", { name: "wait", arguments: {} })) + "\n");
    await new Promise((resolve) => setTimeout(resolve, 20));
    input.write(JSON.stringify(echo(3, "held")) + "\n");
    await new Promise((resolve) => setTimeout(resolve, 20));
    return server;
  }

  it("over stdio at the cap, a batch with a request drops the held request its accepted cancellation names, though another element is refused (helper-66)", async () => {
    const { input, lines, answered, server } = await holdingThree(batching());
    // Taken element by element (it holds a request): the cancellation of 3 is accepted, the broken one refused.
    const cancel3 = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 3 } };
    const broken = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: {} } };
    input.write(JSON.stringify([legacy(9, "ping"), cancel3, broken]) + "\n");
    await within(until(() => lines.some((l) => Array.isArray(l))));
    expect(lines.find((l) => Array.isArray(l))).toEqual([{ jsonrpc: "2.0", id: 9, result: {} }]);
    // The cap frees: 3 was dropped, never run nor answered.
    input.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2 } }) + "\n");
    input.write(JSON.stringify(echo(4, "after")) + "\n");
    await within(until(() => answered(4) !== undefined));
    expect(answered(3)).toBeUndefined();
    expect(calls).toBe(1);
    input.end();
    await within(server.closed);
  });

  it("over stdio at the cap, a batch refused whole (mixing a response in, or too long) cancels nothing: the request it names stays held and runs (helper-67)", async () => {
    const { input, lines, answered, server } = await holdingThree(batching({ maxBatchSize: 3 }));
    const cancel3 = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 3 } };
    input.write(JSON.stringify([{ jsonrpc: "2.0", id: "nobody", result: {} }, cancel3]) + "\n");
    input.write(JSON.stringify([cancel3, cancel3, cancel3, cancel3]) + "\n");
    await within(until(() => lines.filter((l) => l["id"] === undefined && l["error"] !== undefined).length === 2));
    expect(lines.filter((l) => l["id"] === undefined && l["error"] !== undefined).map((l) => (l["error"] as { code: number }).code)).toEqual([-32600, -32600]);
    input.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2 } }) + "\n");
    await within(until(() => answered(3) !== undefined));
    expect(answered(3)).toEqual(echoed(3, "held"));
    input.end();
    await within(server.closed);
  });

  it("over stdio: a batch line is answered with one line holding the array; a batch of notifications with nothing; stdin's end waits for a batch's requests", async () => {
    const { input, lines, server } = stdioServer(batching(), { shutdownGraceMs: 100 });
    input.write(JSON.stringify(initialize(1, BATCH_VERSION)) + "\n" + JSON.stringify([{ jsonrpc: "2.0", method: "notifications/initialized" }]) + "\n");
    await within(until(() => lines.length === 1));
    input.write(JSON.stringify([echo(2, "x"), legacy(3, "ping")]) + "\n");
    await within(until(() => lines.length === 2));
    expect(lines[1]).toEqual([echoed(2, "x"), { jsonrpc: "2.0", id: 3, result: {} }]);
    input.write(JSON.stringify([legacy(4, "tools/call", { name: "wait", arguments: {} }), echo(5, "y")]) + "\n");
    input.end();
    await within(server.closed);
    expect(lines.slice(2)).toEqual([[{ jsonrpc: "2.0", id: 4, error: { code: -32603, message: "Server shutting down" } }, echoed(5, "y")]]);
  });
});

/** A legacy client's opening lines and a call that asks for input, written at once. */
const OPENING_THEN_ASK = OPENING_LINES + JSON.stringify(legacy(2, "tools/call", { name: "ask", arguments: {} })) + "\n";

describe("stdio, both eras", () => {
  it("reads a client's response even at the in-flight cap, when the request in flight is the one waiting for it", async () => {
    const { input, lines, server } = stdioServer(dual(), { maxInFlight: 1 });
    input.write(OPENING_LINES);
    input.write(JSON.stringify(legacy(2, "tools/call", { name: "ask", arguments: {} })) + "\n");
    await within(until(() => lines.some((l) => l["method"] === "elicitation/create")));
    const asked = lines.find((l) => l["method"] === "elicitation/create")!;
    // Another request first, held at the cap; then, written later, the answer: read and dispatched ahead of it.
    input.write(JSON.stringify(legacy(3, "tools/call", { name: "echo", arguments: { text: "held" } })) + "\n");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lines.some((l) => l["id"] === 3)).toBe(false);
    input.write(JSON.stringify({ jsonrpc: "2.0", id: asked["id"], result: { action: "accept", content: { name: "Cap" } } }) + "\n");
    await within(until(() => lines.some((l) => l["id"] === 2)));
    expect(lines.find((l) => l["id"] === 2)?.["result"]).toEqual({ content: [{ type: "text", text: "Hello Cap (asked-once)" }] });
    input.end();
    await within(server.closed);
    expect(lines.find((l) => l["id"] === 3)?.["result"]).toEqual({ content: [{ type: "text", text: "held" }] });
  });

  it("at the cap, with 64 KiB or more of requests held, a client's response, a ping and notifications/cancelled are still read (review 11: finding 1, 5)", async () => {
    const { input, lines, answered, server } = stdioServer(dual(), { maxInFlight: 2 });
    input.write(OPENING_LINES);
    await within(until(() => answered(1) !== undefined));
    input.write(JSON.stringify(legacy(2, "tools/call", { name: "ask", arguments: {} })) + "\n");
    input.write(JSON.stringify(legacy(3, "tools/call", { name: "ask", arguments: {} })) + "\n");
    await within(until(() => lines.filter((l) => l["method"] === "elicitation/create").length === 2));
    const [first, second] = lines.filter((l) => l["method"] === "elicitation/create");
    // A big request, held at the cap (more than the 64 KiB read ahead), then a ping, a cancellation and an answer.
    input.write(JSON.stringify(legacy(4, "tools/call", { name: "echo", arguments: { text: "x".repeat(100 * 1024) } })) + "\n");
    input.write(JSON.stringify(legacy(5, "ping")) + "\n");
    await within(until(() => answered(5) !== undefined));
    expect(answered(5)).toEqual({ jsonrpc: "2.0", id: 5, result: {} });
    input.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 3, reason: "no" } }) + "\n");
    input.write(JSON.stringify({ jsonrpc: "2.0", id: first!["id"], result: { action: "accept", content: { name: "Big" } } }) + "\n");
    await within(until(() => answered(2) !== undefined && answered(4) !== undefined));
    expect(answered(2)?.["result"]).toEqual({ content: [{ type: "text", text: "Hello Big (asked-once)" }] });
    // The cancelled request gave its elicitation up and is not answered.
    expect(lines.some((l) => l["method"] === "notifications/cancelled" && (l["params"] as Json)["requestId"] === second!["id"])).toBe(true);
    expect(answered(3)).toBeUndefined();
    input.end();
    await within(server.closed);
  });

  it("at the cap, notifications/initialized written with a held initialize waits behind it: the session it is about is open when it runs (helper-52)", async () => {
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const d = dual({ handlers: { "resources/list": async () => (await released, { resources: [] }) } as never });
    const { input, lines, server } = stdioServer(d, { maxInFlight: 1 });
    // A modern request fills the cap; then a legacy client writes its opening lines at once.
    input.write(JSON.stringify({ jsonrpc: "2.0", id: "m", method: "resources/list", params: { _meta: META } }) + "\n");
    await new Promise((resolve) => setTimeout(resolve, 20));
    input.write(OPENING_THEN_ASK);
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    // The tool's elicitation goes out: the session saw notifications/initialized after it opened.
    await within(until(() => lines.some((l) => l["method"] === "elicitation/create")));
    input.end();
    await within(server.closed);
  });

  it("a request written with an initialize, before its answer, waits until the initialize is answered: the answer to initialize is the first line written (helper-75)", async () => {
    const { input, lines, server } = stdioServer(dual());
    input.write(OPENING_THEN_ASK);
    await within(until(() => lines.some((l) => l["method"] === "elicitation/create")));
    // Before, the tool's elicitation/create was written first, then the initialize's answer: the client met a request of a session it did not know was open.
    expect(lines.map((l) => l["method"] ?? `answer ${String(l["id"])}`)).toEqual(["answer 1", "elicitation/create"]);
    input.end();
    await within(server.closed);
  });

  it("at the cap, a cancellation written after a held initialize goes ahead and frees the cap (helper-54)", async () => {
    const d = dual({ handlers: { "resources/list": () => new Promise(() => {}) } as never });
    const { input, lines, server } = stdioServer(d, { maxInFlight: 1 });
    input.write(JSON.stringify({ jsonrpc: "2.0", id: "m", method: "resources/list", params: { _meta: META } }) + "\n");
    await new Promise((resolve) => setTimeout(resolve, 20));
    input.write(JSON.stringify(initialize(1, LEGACY_VERSION)) + "\n" + JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { _meta: META, requestId: "m" } }) + "\n");
    await within(until(() => lines.some((l) => l["id"] === 1)));
    expect(lines.find((l) => l["id"] === 1)?.["result"]).toMatchObject({ protocolVersion: LEGACY_VERSION });
    input.end();
    await within(server.closed);
  });

  it("with reading stopped at the cap (a chunk's rest kept unread), a server→client request has the input read on, so its answer arrives (helper-54)", async () => {
    const { input, lines, answered, server } = stdioServer(dual(), { maxInFlight: 1 });
    input.write(OPENING_LINES);
    await within(until(() => answered(1) !== undefined));
    // One chunk: the call that asks, then 100 KiB of requests (more than the 64 KiB held).
    const padding = "x".repeat(600);
    input.write(
      JSON.stringify(legacy(2, "tools/call", { name: "ask", arguments: {} })) +
        "\n" +
        Array.from({ length: 150 }, (_, i) => JSON.stringify(legacy(100 + i, "tools/call", { name: "echo", arguments: { text: padding } })) + "\n").join(""),
    );
    await within(until(() => lines.some((l) => l["method"] === "elicitation/create")));
    const asked = lines.find((l) => l["method"] === "elicitation/create")!;
    input.write(JSON.stringify({ jsonrpc: "2.0", id: asked["id"], result: { action: "accept", content: { name: "Kept" } } }) + "\n");
    await within(until(() => answered(2) !== undefined));
    expect(answered(2)?.["result"]).toEqual({ content: [{ type: "text", text: "Hello Kept (asked-once)" }] });
    input.end();
    await within(server.closed);
    // Each request is answered once: served, or (read on past the 64 KiB held while the answer was awaited) busy.
    for (let i = 100; i < 250; i++) expect(lines.filter((l) => l["id"] === i && l["method"] === undefined), String(i)).toHaveLength(1);
    // A notification is never answered, not even past what is held.
    expect(lines.filter((l) => l["id"] === undefined && l["error"] !== undefined)).toEqual([]);
  });

  it("a notification read past the 64 KiB held (while an initialize is held and an answer awaited) is not answered (helper-54)", async () => {
    const { input, lines, server } = stdioServer(dual(), { maxInFlight: 1 });
    input.write(OPENING_LINES);
    await within(until(() => lines.some((l) => l["id"] === 1)));
    input.write(JSON.stringify(legacy(2, "tools/call", { name: "ask", arguments: {} })) + "\n");
    await within(until(() => lines.some((l) => l["method"] === "elicitation/create")));
    const padding = "x".repeat(600);
    input.write(
      JSON.stringify(initialize(3, LEGACY_VERSION)) +
        "\n" +
        Array.from({ length: 120 }, (_, i) => JSON.stringify(legacy(100 + i, "tools/call", { name: "echo", arguments: { text: padding } })) + "\n").join("") +
        JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) +
        "\n",
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(lines.filter((l) => l["id"] === undefined && l["error"] !== undefined)).toEqual([]);
    input.end();
    await within(server.closed);
  });

  it("on input end, lines held at the cap are served by the session before the channel closes (review 11: finding 6)", async () => {
    const { input, lines, answered, server } = stdioServer(dual(), { maxInFlight: 1 });
    input.write(OPENING_LINES);
    await within(until(() => answered(1) !== undefined));
    input.write(JSON.stringify(legacy(2, "tools/call", { name: "ask", arguments: {} })) + "\n");
    await within(until(() => lines.some((l) => l["method"] === "elicitation/create")));
    input.end(JSON.stringify(legacy(3, "tools/list")) + "\n");
    await within(server.closed);
    expect(answered(3)?.["result"]).toEqual({ tools: [ECHO, ASK] });
    expect(answered(2)?.["error"]).toMatchObject({ code: -32603 });
  });

  it("a legacy client that skips initialize is told how a session starts; a modern request, or one after initialize, is not (review 11: finding 9)", async () => {
    const { input, answered, server } = stdioServer(dual());
    input.write(JSON.stringify(legacy(1, "tools/list")) + "\n");
    input.write(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": "1999-01-01" } } }) + "\n");
    await within(until(() => answered(1) !== undefined && answered(2) !== undefined));
    expect((answered(1)?.["error"] as Json)["message"]).toBe(
      "Invalid request _meta: missing required key io.modelcontextprotocol/protocolVersion; missing required key io.modelcontextprotocol/clientCapabilities; a 2025-11-25 client opens with initialize",
    );
    expect((answered(2)?.["error"] as Json)["message"]).toBe('Unsupported protocol version: "1999-01-01"');
    // After an initialize that failed (no clientInfo), still no session: told again (helper-77: not any more once one was read).
    input.write(JSON.stringify({ jsonrpc: "2.0", id: 5, method: "initialize", params: { protocolVersion: LEGACY_VERSION, capabilities: {} } }) + "\n");
    input.write(JSON.stringify(legacy(6, "tools/list")) + "\n");
    await within(until(() => answered(6) !== undefined));
    expect(answered(5)?.["error"]).toMatchObject({ code: -32602 });
    expect(String((answered(6)?.["error"] as Json)["message"]).endsWith("; a 2025-11-25 client opens with initialize")).toBe(true);
    input.write(JSON.stringify(initialize(3, LEGACY_VERSION)) + "\n" + JSON.stringify(legacy(4, "tools/call", { name: 5 })) + "\n");
    await within(until(() => answered(4) !== undefined));
    expect(answered(4)?.["error"]).toMatchObject({ code: -32602 });
    expect(String((answered(4)?.["error"] as Json)["message"]).endsWith("opens with initialize")).toBe(false);
    input.end();
    await within(server.closed);
    // The dispatcher's own answer, for a transport of the user's (helper-100: only stdio and HTTP said it); a channel
    // with a session, and a modern request, are not told.
    const d = dual();
    const channel = {};
    const before = await d.handle(legacy(7, "tools/list"), { channel });
    expect(String((before as { error: Json }).error["message"]).endsWith("; a 2025-11-25 client opens with initialize")).toBe(true);
    expect(await d.handle(legacy(8, "ping"), { channel })).toEqual({ jsonrpc: "2.0", id: 8, result: {} });
    expect(await d.handle(initialize(9, LEGACY_VERSION), { channel })).toHaveProperty("result");
    const after = await d.handle(legacy(10, "tools/call", { name: 5 }), { channel });
    expect(String((after as { error: Json }).error["message"]).endsWith("opens with initialize")).toBe(false);
    const modernOne = await d.handle({ jsonrpc: "2.0", id: 11, method: "tools/call", params: { _meta: META, name: 5 } }, { channel: {} });
    expect(String((modernOne as { error: Json }).error["message"]).endsWith("opens with initialize")).toBe(false);
  });

  it("a legacy client initializes, calls tools, answers an elicitation on stdin, gets pushed notifications; a modern client on the same process is served too", async () => {
    const dir = buildProcess();
    const child = spawn(process.execPath, [join(dir, "server.js")], { stdio: "pipe" });
    const lines: Json[] = [];
    createInterface({ input: child.stdout }).on("line", (l) => lines.push(JSON.parse(l) as Json));
    const errors: string[] = [];
    createInterface({ input: child.stderr }).on("line", (l) => errors.push(l));
    const exited = once(child, "exit");
    const write = (message: unknown) => child.stdin.write(JSON.stringify(message) + "\n");
    const byId = (id: number | string) => lines.find((l) => l["id"] === id && ("result" in l || "error" in l));
    try {
      write(initialize(1, LEGACY_VERSION, { elicitation: {} }));
      await within(until(() => byId(1) !== undefined));
      expect(byId(1)?.["result"]).toMatchObject({ protocolVersion: LEGACY_VERSION, serverInfo: { name: "stdio-dual" } });
      write({ jsonrpc: "2.0", method: "notifications/initialized" });
      write(legacy(2, "tools/call", { name: "echo", arguments: { text: "over stdio" } }));
      await within(until(() => byId(2) !== undefined));
      expect(byId(2)?.["result"]).toEqual({ content: [{ type: "text", text: "over stdio" }] });
      // The elicitation: a server→client request on stdout, answered on stdin.
      write(legacy(3, "tools/call", { name: "ask", arguments: {} }));
      await within(until(() => lines.some((l) => l["method"] === "elicitation/create")));
      const asked = lines.find((l) => l["method"] === "elicitation/create")!;
      expect(legacyErrors("ElicitRequest", asked)).toEqual([]);
      write({ jsonrpc: "2.0", id: asked["id"], result: { action: "accept", content: { name: "Stdio" } } });
      await within(until(() => byId(3) !== undefined));
      expect(byId(3)?.["result"]).toEqual({ content: [{ type: "text", text: "Hello Stdio (asked-once)" }] });
      // The "announce" tool publishes a list change: pushed to the session on stdout.
      write(legacy(4, "tools/call", { name: "announce", arguments: {} }));
      await within(until(() => byId(4) !== undefined));
      expect(lines.some((l) => l["method"] === "notifications/tools/list_changed")).toBe(true);
      // A modern request on the same process.
      write(modern(5, "tools/call", { name: "echo", arguments: { text: "modern" } }));
      await within(until(() => byId(5) !== undefined));
      expect(byId(5)?.["result"]).toMatchObject({ content: [{ type: "text", text: "modern" }], resultType: "complete" });
      // A request waiting for an answer when stdin ends is answered -32603; the process exits 0.
      write(legacy(6, "tools/call", { name: "ask", arguments: {} }));
      await within(until(() => lines.filter((l) => l["method"] === "elicitation/create").length === 2));
      child.stdin.end();
      const [code] = await within(exited, 10_000);
      expect(code).toBe(0);
      expect(byId(6)?.["error"]).toMatchObject({ code: -32603 });
      for (const l of lines.filter((l) => "result" in l && l["id"] !== 5)) expect(legacyErrors("JSONRPCResponse", l)).toEqual([]);
    } finally {
      child.kill();
    }
    expect(errors).toEqual([]);
  }, 30_000);
});

/** The dual-era stdio server as JavaScript: the generated modules of both revisions, the runtime and a server.js. */
function buildProcess(): string {
  const dir = scratchDir("dual-era-process");
  const transpile = (from: string, to: string) => {
    const out = ts.transpileModule(readFileSync(from, "utf8"), { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
    mkdirSync(dirname(to), { recursive: true });
    writeFileSync(to, out.outputText);
  };
  for (const [from, to] of [
    [modernDir, "modern"],
    [legacyDir, "legacy"],
    [join(ROOT, "runtime"), "runtime"],
  ] as const) {
    for (const f of (readdirSync(from, { recursive: true }) as string[]).filter((f) => f.endsWith(".ts"))) transpile(join(from, f), join(dir, to, f.replace(/\.ts$/, ".js")));
  }
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
  writeFileSync(
    join(dir, "server.js"),
    `import { createDispatcher } from "./runtime/dispatcher.js";
import { serveStdio } from "./runtime/stdio.js";
import { DISPATCH_REVISION as MODERN } from "./modern/dispatch.js";
import { DISPATCH_REVISION as LEGACY } from "./legacy/dispatch.js";
const empty = { type: "object", properties: {} };
let dispatcher;
dispatcher = createDispatcher([MODERN, LEGACY], {
  serverInfo: { name: "stdio-dual", version: "1.0.0" },
  capabilities: { tools: { listChanged: true } },
  tools: [
    { definition: { name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } } } }, call: (args) => ({ content: [{ type: "text", text: args.text }] }) },
    { definition: { name: "ask", inputSchema: empty }, call: (_args, context) => context.inputResponses?.name === undefined
      ? { resultType: "input_required", inputRequests: { name: ${JSON.stringify(NAME_REQUEST)} }, requestState: "asked-once" }
      : { content: [{ type: "text", text: "Hello " + context.inputResponses.name.content.name + " (" + context.requestState + ")" }] } },
    { definition: { name: "announce", inputSchema: empty }, call: () => { dispatcher.publish("notifications/tools/list_changed"); return { content: [] }; } },
  ],
});
const server = serveStdio(dispatcher, { shutdownGraceMs: 2000 });
await server.closed;
process.exit(0);
`,
  );
  return dir;
}

/** Resolves with `promise`, or rejects after `ms`. */
function within<T>(promise: Promise<T>, ms = 5000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(`not within ${ms} ms`)), ms))),
  ]);
}

/** Waits until `test` holds, polling. */
async function until(test: () => boolean): Promise<void> {
  while (!test()) await new Promise((resolve) => setTimeout(resolve, 5));
}
