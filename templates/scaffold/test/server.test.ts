/**
 * Starts the built server (dist/src/main.js) over stdio and over Streamable HTTP, and checks
 * its answers to well-formed and broken messages, whatever the handlers. The handlers of
 * src/handlers.ts have their own tests, in example.test.ts (replace those with tests of your
 * own handlers). Run with `npm test`.
 */
import assert from "node:assert/strict";
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { after, before, describe, it } from "node:test";
import { DISPATCH_PROTOCOL_VERSION } from "../src/generated/dispatch.js";
import { METHODS, type MethodInfo } from "../src/generated/methods.js";
import { discover, initialize, meta, servesLegacy, startHttp, stdioPerSuite } from "./client.js";

describe("stdio", () => {
  const { send, next } = stdioPerSuite();

  it("answers server/discover with the supported versions and serverInfo", async () => {
    send(discover);
    const response = await next();
    const result = response["result"] as Record<string, unknown>;
    assert.equal(response["id"], 1);
    assert.ok((result["supportedVersions"] as string[]).includes(DISPATCH_PROTOCOL_VERSION));
    assert.equal(result["resultType"], "complete");
    // In the result's _meta (2026-07-28), or a property of the result itself (earlier drafts).
    assert.ok(result["serverInfo"] ?? (result["_meta"] as Record<string, unknown> | undefined)?.["io.modelcontextprotocol/serverInfo"]);
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
  const { send, next } = stdioPerSuite();

  it("opens a session with initialize (a legacy version, not the modern one) and answers ping in it", async () => {
    send(initialize);
    const opened = await next();
    assert.equal(opened["id"], 1);
    assert.notEqual((opened["result"] as { protocolVersion: string }).protocolVersion, DISPATCH_PROTOCOL_VERSION);
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({ jsonrpc: "2.0", id: 2, method: "ping" });
    assert.deepEqual(await next(), { jsonrpc: "2.0", id: 2, result: {} });
  });
});

describe("Streamable HTTP", () => {
  let server: ChildProcessWithoutNullStreams | undefined;
  let url = "";
  before(async () => ({ server, url } = await startHttp()));
  after(() => server?.kill());
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
