/**
 * Tests of the conformance fixture in src/handlers.ts, over stdio: a few of the tools,
 * resources and prompts the conformance suite calls (the suite itself checks them all, see
 * README). Run with `npm test`.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { eliciting, firstText, initialize, meta, servesLegacy, stdioPerSuite } from "./client.js";

describe("the conformance fixture", () => {
  const { send, next } = stdioPerSuite();
  const call = (id: number, name: string, args: Record<string, unknown> = {}) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { _meta: meta, name, arguments: args } });

  it("lists the suite's tools, resources and prompts", async () => {
    send({ jsonrpc: "2.0", id: 10, method: "tools/list", params: { _meta: meta } });
    const tools = ((await next())["result"] as { tools: { name: string }[] }).tools.map((t) => t.name);
    for (const name of ["test_simple_text", "test_image_content", "test_error_handling", "test_streaming_elicitation"]) assert.ok(tools.includes(name), name);
    send({ jsonrpc: "2.0", id: 11, method: "resources/list", params: { _meta: meta } });
    assert.ok(((await next())["result"] as { resources: { uri: string }[] }).resources.some((r) => r.uri === "test://static-text"));
    send({ jsonrpc: "2.0", id: 12, method: "prompts/list", params: { _meta: meta } });
    assert.ok(((await next())["result"] as { prompts: { name: string }[] }).prompts.some((p) => p.name === "test_simple_prompt"));
  });

  it("answers test_simple_text with its text, and test_error_handling with a tool error (isError), not a JSON-RPC error", async () => {
    send(call(20, "test_simple_text"));
    assert.equal(firstText(await next()), "This is a simple text response for testing.");
    send(call(21, "test_error_handling"));
    const failed = await next();
    assert.equal((failed["result"] as { isError?: boolean }).isError, true);
  });

  it("asks for input through an InputRequiredResult (test_streaming_elicitation), and answers the retry", async () => {
    const first = { jsonrpc: "2.0", id: 30, method: "tools/call", params: { _meta: eliciting, name: "test_streaming_elicitation", arguments: {} } };
    send(first);
    const asked = (await next())["result"] as { resultType: string; inputRequests: { answer: { method: string } } };
    assert.equal(asked.resultType, "input_required");
    assert.equal(asked.inputRequests.answer.method, "elicitation/create");
    send({ ...first, id: 31, params: { ...first.params, inputResponses: { answer: { action: "accept", content: { answer: "yes" } } } } });
    assert.equal(firstText(await next()), 'Got: {"answer":"yes"}');
  });
});

describe("the conformance fixture to a legacy client (initialize)", { skip: !servesLegacy && "this server is modern-only" }, () => {
  const { send, next } = stdioPerSuite();

  it("opens a session and calls test_simple_text", async () => {
    send(initialize);
    assert.ok(((await next())["result"] as { protocolVersion?: string }).protocolVersion);
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "test_simple_text", arguments: {} } });
    assert.equal(firstText(await next()), "This is a simple text response for testing.");
  });
});
