/**
 * Starts the built server (dist/src/main.js) over stdio and over Streamable HTTP, and checks
 * its answers to well-formed and broken messages, and the example handlers of src/handlers.ts
 * (replace those tests with tests of your own handlers). Run with `npm test`.
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { once } from "node:events";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { DISPATCH_PROTOCOL_VERSION } from "../src/generated/dispatch.js";
import { METHODS, type MethodInfo } from "../src/generated/methods.js";
import { createDispatcher } from "../src/server.js";

const main = join(dirname(fileURLToPath(import.meta.url)), "..", "src", "main.js");
const meta = { "io.modelcontextprotocol/protocolVersion": DISPATCH_PROTOCOL_VERSION, "io.modelcontextprotocol/clientCapabilities": {} };
const discover = { jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: meta } };
const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: { elicitation: {} }, clientInfo: { name: "test", version: "1" } } };
/** Whether the server serves legacy clients, which open with `initialize` (a dual-era project). */
const servesLegacy = createDispatcher().opensSession(initialize);
/** The `_meta` of a client that can answer elicitation requests. */
const eliciting = { ...meta, "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } };

/** The text of the first content block of a result (tools/call, prompts/get's first message, resources/read). */
function firstText(response: Record<string, unknown>): unknown {
  const result = response["result"] as { content?: { text?: unknown }[]; messages?: { content?: { text?: unknown } }[]; contents?: { text?: unknown }[] };
  return (result.content?.[0] ?? result.messages?.[0]?.content ?? result.contents?.[0])?.text;
}

/** The server over stdio: `send` writes one message, `next` reads the next one. */
interface Stdio {
  readonly server: ChildProcessWithoutNullStreams;
  send(message: unknown): void;
  next(): Promise<Record<string, unknown>>;
}

function startStdio(): Stdio {
  const server = spawn(process.execPath, [main], { stdio: "pipe" });
  const lines = createInterface({ input: server.stdout })[Symbol.asyncIterator]();
  return {
    server,
    send: (message) => server.stdin.write((typeof message === "string" ? message : JSON.stringify(message)) + "\n"),
    next: async () => JSON.parse((await lines.next()).value as string) as Record<string, unknown>,
  };
}

describe("stdio", () => {
  let stdio: Stdio | undefined;
  before(() => (stdio = startStdio()));
  after(() => stdio?.server.kill());
  const send = (message: unknown) => stdio!.send(message);
  const next = () => stdio!.next();

  it("answers server/discover with the supported versions and serverInfo", async () => {
    send(discover);
    const response = await next();
    const result = response["result"] as Record<string, unknown>;
    assert.equal(response["id"], 1);
    assert.ok((result["supportedVersions"] as string[]).includes(DISPATCH_PROTOCOL_VERSION));
    assert.equal(result["resultType"], "complete");
    assert.ok((result["_meta"] as Record<string, unknown>)["io.modelcontextprotocol/serverInfo"]);
  });

  it("answers a line that is not JSON with -32700 and keeps running", async () => {
    send("{not json");
    assert.deepEqual((await next())["error"], { code: -32700, message: "Parse error: the message is not JSON" });
    send({ ...discover, id: 2 });
    assert.equal((await next())["id"], 2);
  });

  it("answers an unknown method with -32601 and a request without _meta with -32602", async () => {
    send({ jsonrpc: "2.0", id: 3, method: "nope/nope", params: { _meta: meta } });
    assert.equal(((await next())["error"] as { code: number }).code, -32601);
    send({ jsonrpc: "2.0", id: 4, method: "server/discover", params: {} });
    assert.equal(((await next())["error"] as { code: number }).code, -32602);
  });

  it("serves the example: tools echo and greet, the about resource, the haiku prompt and its completions", async () => {
    send({ jsonrpc: "2.0", id: 10, method: "tools/list", params: { _meta: meta } });
    assert.deepEqual(((await next())["result"] as { tools: { name: string }[] }).tools.map((t) => t.name), ["echo", "greet"]);
    send({ jsonrpc: "2.0", id: 11, method: "tools/call", params: { _meta: meta, name: "echo", arguments: { text: "hi" } } });
    assert.equal(firstText(await next()), "hi");
    send({ jsonrpc: "2.0", id: 12, method: "resources/read", params: { _meta: meta, uri: "example://about" } });
    assert.equal(firstText(await next()), "An MCP server scaffolded by mcp-schema-codegen.");
    send({ jsonrpc: "2.0", id: 13, method: "prompts/get", params: { _meta: meta, name: "haiku", arguments: { topic: "rain" } } });
    assert.equal(firstText(await next()), "Write a haiku about rain.");
    send({ jsonrpc: "2.0", id: 14, method: "completion/complete", params: { _meta: meta, ref: { type: "ref/prompt", name: "haiku" }, argument: { name: "topic", value: "r" } } });
    assert.deepEqual(((await next())["result"] as { completion: unknown }).completion, { values: ["rain"], total: 1, hasMore: false });
  });

  it("greet asks for the user's name (InputRequiredResult), then greets on the retry with inputResponses and requestState", async () => {
    const call = { jsonrpc: "2.0", id: 20, method: "tools/call", params: { _meta: eliciting, name: "greet", arguments: {} } };
    send(call);
    const first = (await next())["result"] as { resultType: string; inputRequests: { name: { method: string } }; requestState: string };
    assert.equal(first.resultType, "input_required");
    assert.equal(first.inputRequests.name.method, "elicitation/create");
    const inputResponses = { name: { action: "accept", content: { name: "Ada" } } };
    send({ ...call, id: 21, params: { ...call.params, inputResponses, requestState: first.requestState } });
    assert.equal(firstText(await next()), "Hello, Ada!");
  });

  it("answers every client→server request method, with a result or a JSON-RPC error", async () => {
    const methods = Object.values(METHODS as Readonly<Record<string, MethodInfo>>).filter((m) => m.kind === "request" && m.direction !== "server-to-client" && m.method !== "subscriptions/listen");
    let id = 100;
    for (const m of methods) {
      send({ jsonrpc: "2.0", id: ++id, method: m.method, params: { _meta: meta } });
      const response = await next();
      assert.equal(response["id"], id);
      assert.ok("result" in response || "error" in response, m.method);
    }
  });
});

describe("a legacy client (initialize) over stdio", { skip: !servesLegacy && "this server is modern-only" }, () => {
  let stdio: Stdio | undefined;
  before(() => (stdio = startStdio()));
  after(() => stdio?.server.kill());
  const send = (message: unknown) => stdio!.send(message);
  const next = () => stdio!.next();

  it("opens a session with initialize, and greet asks for the name with an elicitation/create request", async () => {
    send(initialize);
    assert.notEqual(((await next())["result"] as { protocolVersion: string }).protocolVersion, DISPATCH_PROTOCOL_VERSION);
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "greet", arguments: {} } });
    const ask = await next();
    assert.equal(ask["method"], "elicitation/create");
    send({ jsonrpc: "2.0", id: ask["id"], result: { action: "accept", content: { name: "Ada" } } });
    const answer = await next();
    assert.equal(answer["id"], 2);
    assert.equal(firstText(answer), "Hello, Ada!");
  });
});

describe("Streamable HTTP", () => {
  let server: ChildProcessWithoutNullStreams;
  let url = "";
  before(async () => {
    server = spawn(process.execPath, [main, "--http", "--port", "0"], { stdio: "pipe" });
    const [line] = (await once(createInterface({ input: server.stderr }), "line")) as [string];
    url = /listening on (\S+)/.exec(line)?.[1] ?? "";
    assert.ok(url, line);
  });
  after(() => server.kill());
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": DISPATCH_PROTOCOL_VERSION,
        "mcp-method": (body as { method?: string }).method ?? "",
        ...headers,
      },
      body: JSON.stringify(body),
    });

  it("answers server/discover with 200 and JSON", async () => {
    const response = await post(discover);
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-type") ?? "", /application\/json/);
    assert.ok(((await response.json()) as { result: { supportedVersions: string[] } }).result.supportedVersions.includes(DISPATCH_PROTOCOL_VERSION));
  });

  it("answers a header that does not match the body with 400 and -32020", async () => {
    const response = await post(discover, { "mcp-method": "tools/list" });
    assert.equal(response.status, 400);
    assert.equal(((await response.json()) as { error: { code: number } }).error.code, -32020);
  });

  it("answers an unknown method with 404 and -32601", async () => {
    const response = await post({ jsonrpc: "2.0", id: 5, method: "nope/nope", params: { _meta: meta } });
    assert.equal(response.status, 404);
    assert.equal(((await response.json()) as { error: { code: number } }).error.code, -32601);
  });

  it("refuses GET with 405", async () => {
    assert.equal((await fetch(url)).status, 405);
  });
});
