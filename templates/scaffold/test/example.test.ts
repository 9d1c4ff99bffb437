/**
 * Tests of the example handlers in src/handlers.ts, over stdio: replace them with tests of your
 * own handlers as you replace the example. Run with `npm test`.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DISPATCH_PROTOCOL_VERSION } from "../src/generated/dispatch.js";
import { eliciting, firstText, initialize, meta, servesLegacy, stdioPerSuite } from "./client.js";

describe("the example handlers", () => {
  const { send, next } = stdioPerSuite();

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
    // An unknown prompt is an error, as prompts/get answers it (server/utilities/completion § Error Handling).
    send({ jsonrpc: "2.0", id: 15, method: "completion/complete", params: { _meta: meta, ref: { type: "ref/prompt", name: "limerick" }, argument: { name: "topic", value: "r" } } });
    assert.deepEqual((await next())["error"], { code: -32602, message: 'Unknown prompt: "limerick"' });
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

  it("greet greets by the name given, and tells a client that cannot ask its user to pass one (a tool error, not -32021)", async () => {
    send({ jsonrpc: "2.0", id: 30, method: "tools/call", params: { _meta: meta, name: "greet", arguments: { name: "Grace" } } });
    assert.equal(firstText(await next()), "Hello, Grace!");
    send({ jsonrpc: "2.0", id: 31, method: "tools/call", params: { _meta: meta, name: "greet", arguments: {} } });
    const cannot = (await next())["result"] as { isError?: boolean; content: { text: string }[] };
    assert.equal(cannot.isError, true);
    assert.match(cannot.content[0]!.text, /call greet again with it as `name`/);
  });
});

describe("a legacy client (initialize) over stdio", { skip: !servesLegacy && "this server is modern-only" }, () => {
  const { send, next } = stdioPerSuite();

  it("opens a session with initialize, and greet asks for the name with an elicitation/create request", async () => {
    send(initialize);
    const version = ((await next())["result"] as { protocolVersion: string }).protocolVersion;
    assert.notEqual(version, DISPATCH_PROTOCOL_VERSION);
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "greet", arguments: {} } });
    const ask = await next();
    // Elicitation came with 2025-06-18: a server whose legacy revision is older answers -32021 instead.
    if (version < "2025-06-18") return assert.equal((ask["error"] as { code: number }).code, -32021);
    assert.equal(ask["method"], "elicitation/create");
    send({ jsonrpc: "2.0", id: ask["id"], result: { action: "accept", content: { name: "Ada" } } });
    const answer = await next();
    assert.equal(answer["id"], 2);
    assert.equal(firstText(answer), "Hello, Ada!");
  });
});
