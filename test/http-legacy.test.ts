/**
 * Legacy clients over Streamable HTTP (issue 11, item 4): the 2025-11-25 transport's sessions on
 * the endpoint that serves modern traffic. First the transport's own rules, against a small
 * dispatcher written here (what it answers is fixed, so each rule is seen alone); then a
 * dual-era dispatcher from the generated draft and 2025-11-25 revisions, driven with fetch and
 * with the official SDK v1 client.
 */
import { IncomingMessage } from "node:http";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, ListRootsRequestSchema, ToolListChangedNotificationSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  createDispatcher,
  type CoreDispatcher,
  type DispatcherOptions,
  type DispatchResponse,
  type DispatchRevision,
  type HandleContext,
  type OutgoingMessage,
  type SessionState,
  type TransportDispatcher,
} from "../runtime/dispatcher.js";
import { createHttpHandler, createMemorySessionStore, serveHttp, type HttpOptions, type HttpServer, type HttpTransportInfo } from "../runtime/http.js";
import { generateInto, SPEC_DIR } from "./support/corpus.js";

type Json = { [key: string]: unknown };

const VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
const LEGACY = "2025-11-25";
const MODERN = "2026-07-28";
const CLIENT_INFO = { name: "test-client", version: "1.0.0" };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves with `promise`, or rejects after `ms` (a hang fails the test quickly instead of at the suite's timeout). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([promise.finally(() => clearTimeout(timer)), new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)))]);
}

/** Waits until `check` holds (asked every 20 ms), or fails after `ms`: for what the server notices in its own time (a closed connection, an expiry). */
async function eventually(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(20);
  }
}

/** The status of a response, its body discarded. */
const statusOf = async (response: Promise<Response>): Promise<number> => {
  const r = await response;
  await r.body?.cancel();
  return r.status;
};

const initialize = (id: number | string, protocolVersion = LEGACY) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion, capabilities: { elicitation: {} }, clientInfo: CLIENT_INFO },
});
const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };

/** POSTs one message with the headers a 2025-11-25 client sends. */
function post(url: string, message: unknown, headers: { [name: string]: string } = {}): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(message),
  });
}

/** The messages of an SSE response, one at a time, as they arrive. */
function sseMessages(response: Response): { next(): Promise<Json | undefined> } {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  return {
    async next() {
      for (;;) {
        const end = buffer.indexOf("\n\n");
        if (end >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = event
            .split("\n")
            .filter((l) => l.startsWith("data:"))
            .map((l) => l.slice(5).trimStart())
            .join("\n");
          if (data !== "") return JSON.parse(data) as Json;
          continue; // a keep-alive comment
        }
        const { value, done } = await reader.read();
        if (done) return undefined;
        buffer += value;
      }
    },
  };
}

const servers: HttpServer[] = [];
async function serve(dispatcher: TransportDispatcher, options: HttpOptions = {}): Promise<HttpServer> {
  const server = await serveHttp(dispatcher, { port: 0, shutdownGraceMs: 200, ...options });
  servers.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/**
 * A dispatcher with fixed answers, keeping sessions as the contract says: `initialize` without
 * the modern key opens one (an `initialize` whose `protocolVersion` is "bad" fails), `elicit`
 * sends `elicitation/create` on the request's stream and answers with what the client said,
 * `announce` pushes a notification on the session's channel, `silent` is answered nothing (as a
 * request the client cancelled), anything else answers which era and channel it was served in.
 * Records what the transport passed.
 */
function recordingDispatcher() {
  const sessions = new Map<object, SessionState>();
  const closed: object[] = [];
  /** What each closeChannel said to the requests still waiting (undefined: the core's default). */
  const reasons: (string | undefined)[] = [];
  const pushes = new Map<object, Set<(message: OutgoingMessage) => boolean>>();
  const waiting = new Map<string | number, (answer: unknown) => void>();
  const waitingOn = new Map<object, (() => void)[]>();
  const contexts: HandleContext[] = [];
  const dispatcher: TransportDispatcher = {
    opensSession: (message: unknown) => {
      const m = message as Json;
      const meta = (m["params"] as Json | undefined)?.["_meta"] as Json | undefined;
      return m["method"] === "initialize" && m["id"] !== undefined && meta?.[VERSION_KEY] === undefined;
    },
    sessionOf: (channel: object) => sessions.get(channel),
    closeChannel: (channel: object, why?: string) => {
      sessions.delete(channel);
      closed.push(channel);
      reasons.push(why);
      // As the core does: requests waiting for this channel's answers are answered -32603.
      for (const give of waitingOn.get(channel) ?? []) give();
      waitingOn.delete(channel);
    },
    closeSubscriptions: () => {},
    findTool: () => undefined,
    async handle(message: unknown, context?: HandleContext): Promise<DispatchResponse | undefined> {
      contexts.push(context ?? {});
      const m = message as Json;
      const channel = context?.channel ?? {};
      if (m["method"] === undefined) {
        // A client's answer to a server→client request.
        waiting.get(m["id"] as string)?.(m["result"] ?? m["error"]);
        return undefined;
      }
      if (m["id"] === undefined) return undefined;
      const id = m["id"] as string | number;
      const params = (m["params"] ?? {}) as Json;
      if (m["method"] === "initialize") {
        if (params["protocolVersion"] === "bad") return { jsonrpc: "2.0", id, error: { code: -32602, message: "Invalid params" } };
        sessions.set(channel, { protocolVersion: LEGACY, clientCapabilities: params["capabilities"] as Json });
        if (context?.push !== undefined) pushes.set(channel, new Set([...(pushes.get(channel) ?? []), context.push]));
        return { jsonrpc: "2.0", id, result: { protocolVersion: LEGACY, capabilities: { tools: {} }, serverInfo: { name: "s", version: "1" } } };
      }
      if (context?.push !== undefined) pushes.get(channel)?.add(context.push);
      if (m["method"] === "elicit") {
        const answer = new Promise((resolve) => waiting.set("e-" + String(id), resolve));
        const gone = new Promise<string>((resolve) => waitingOn.set(channel, [...(waitingOn.get(channel) ?? []), () => resolve("The session closed")]));
        context?.notify?.({
          jsonrpc: "2.0",
          id: "e-" + String(id),
          method: "elicitation/create",
          params: { message: "Your name?", requestedSchema: { type: "object", properties: {} } },
        } as OutgoingMessage);
        // As the core does: a deadline (time limit, shutdown) answers -32603 with its reason.
        const deadline = context?.deadline;
        const ended = new Promise<string>((resolve) => deadline?.addEventListener("abort", () => resolve(String(deadline.reason)), { once: true }));
        const outcome = await Promise.race([answer.then((value) => ({ value })), ended, gone]);
        if (typeof outcome === "string") return { jsonrpc: "2.0", id, error: { code: -32603, message: outcome } };
        return { jsonrpc: "2.0", id, result: { answer: outcome.value as Json } };
      }
      if (m["method"] === "silent") return undefined;
      if (m["method"] === "announce") {
        const delivered = context?.push?.({ jsonrpc: "2.0", method: "notifications/tools/list_changed" }) ?? false;
        return { jsonrpc: "2.0", id, result: { delivered } };
      }
      return { jsonrpc: "2.0", id, result: { era: sessions.has(channel) ? "legacy" : "modern", protocolVersion: sessions.get(channel)?.protocolVersion ?? null } };
    },
  };
  return { dispatcher, sessions, closed, reasons, pushes, contexts };
}

/** Opens a session; its id. */
async function open(url: string): Promise<string> {
  const response = await post(url, initialize(1));
  expect(response.status).toBe(200);
  await response.json();
  const id = response.headers.get("mcp-session-id");
  expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  return id!;
}

describe("Streamable HTTP, legacy sessions: the transport's rules", () => {
  it("issues Mcp-Session-Id for a successful initialize (no modern header asked for), serves the session's requests on one channel, and keeps nothing after a failed initialize", async () => {
    const d = recordingDispatcher();
    const { url } = await serve(d.dispatcher);
    const response = await post(url, initialize(1));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toMatchObject({ id: 1, result: { protocolVersion: LEGACY } });
    const sessionId = response.headers.get("mcp-session-id")!;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const channel = d.contexts[0]!.channel!;
    expect(d.sessions.has(channel)).toBe(true);
    // The same channel, and the same push function, for every message of the session.
    const notified = await post(url, initialized, { "mcp-session-id": sessionId, "mcp-protocol-version": LEGACY });
    expect(notified.status).toBe(202);
    // An empty body said as such, not as a chunked one (helper-80).
    expect([notified.headers.get("content-length"), notified.headers.get("transfer-encoding")]).toEqual(["0", null]);
    expect(await notified.text()).toBe("");
    const listed = await post(url, { jsonrpc: "2.0", id: 2, method: "tools/list" }, { "mcp-session-id": sessionId, "mcp-protocol-version": LEGACY });
    expect(listed.status).toBe(200);
    expect(await listed.json()).toEqual({ jsonrpc: "2.0", id: 2, result: { era: "legacy", protocolVersion: LEGACY } });
    // Without MCP-Protocol-Version (a 2025-03-26 client): served by what the session negotiated.
    const bare = await post(url, { jsonrpc: "2.0", id: 3, method: "tools/list" }, { "mcp-session-id": sessionId });
    expect((await bare.json()) as Json).toMatchObject({ result: { era: "legacy" } });
    expect(d.contexts.slice(1).every((c) => c.channel === channel)).toBe(true);
    expect(d.pushes.get(channel)?.size).toBe(1);
    // What handlers see as context.transport: the request that carried the message, and the session's id.
    const seen = d.contexts.map((c) => c.transport as HttpTransportInfo);
    expect(seen.every((t) => t.kind === "http" && t.request instanceof IncomingMessage && t.sessionId === sessionId)).toBe(true);

    // A failed initialize: answered (status 200, the error in the body), no session id, its channel closed.
    const failed = await post(url, initialize(4, "bad"));
    expect(failed.status).toBe(200);
    expect(failed.headers.get("mcp-session-id")).toBeNull();
    expect(await failed.json()).toMatchObject({ id: 4, error: { code: -32602 } });
    expect(d.closed).toEqual([d.contexts.at(-1)!.channel]);
  });

  it("answers an unknown session 404 with a JSON-RPC error, a wrong MCP-Protocol-Version 400, and a second initialize in a session 400", async () => {
    const d = recordingDispatcher();
    const { url } = await serve(d.dispatcher);
    const sessionId = await open(url);
    const unknown = await post(url, { jsonrpc: "2.0", id: 7, method: "tools/list" }, { "mcp-session-id": "no-such-session" });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: -32600, message: expect.stringContaining("Session not found") } });
    const wrong = await post(url, { jsonrpc: "2.0", id: 8, method: "tools/list" }, { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ id: 8, error: { code: -32600, message: expect.stringContaining("2025-11-25") } });
    const again = await post(url, initialize(9), { "mcp-session-id": sessionId });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ id: 9, error: { code: -32600 } });
    // Neither touched the session.
    const fine = await post(url, { jsonrpc: "2.0", id: 10, method: "tools/list" }, { "mcp-session-id": sessionId, "mcp-protocol-version": LEGACY });
    expect(fine.status).toBe(200);
  });

  it("DELETE ends a session (closeChannel, then 404 for it); an unknown one is 404; GET and DELETE without a session are 405", async () => {
    const d = recordingDispatcher();
    const { url } = await serve(d.dispatcher);
    const sessionId = await open(url);
    const channel = d.contexts[0]!.channel!;
    const deleted = await fetch(url, { method: "DELETE", headers: { "mcp-session-id": sessionId, "mcp-protocol-version": LEGACY } });
    expect(deleted.status).toBe(200);
    expect(d.closed).toEqual([channel]);
    expect((await post(url, { jsonrpc: "2.0", id: 2, method: "tools/list" }, { "mcp-session-id": sessionId })).status).toBe(404);
    expect((await fetch(url, { method: "DELETE", headers: { "mcp-session-id": sessionId } })).status).toBe(404);
    for (const method of ["GET", "DELETE"]) {
      const response = await fetch(url, { method, headers: { accept: "text/event-stream" } });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("GET, POST, DELETE");
      expect(await response.json()).toMatchObject({ error: { code: -32600 } });
    }
  });

  it("GET opens the session's stream, which push writes to (false while none is open); one at a time, text/event-stream only", async () => {
    const d = recordingDispatcher();
    const { url } = await serve(d.dispatcher);
    const sessionId = await open(url);
    const headers = { "mcp-session-id": sessionId, "mcp-protocol-version": LEGACY };
    const announce = async (id: number) => ((await (await post(url, { jsonrpc: "2.0", id, method: "announce" }, headers)).json()) as Json)["result"];
    expect(await announce(2)).toEqual({ delivered: false });
    expect((await fetch(url, { headers: { ...headers, accept: "application/json" } })).status).toBe(406);
    // The type named but refused (q=0, RFC 9110 § 12.5.1), as a POST reads it: no stream.
    expect((await fetch(url, { headers: { ...headers, accept: "text/event-stream;q=0" } })).status).toBe(406);
    expect((await fetch(url, { headers: { ...headers, accept: "*/*, text/event-stream; q=0" } })).status).toBe(406);
    const controller = new AbortController();
    const stream = await fetch(url, { headers: { ...headers, accept: "text/event-stream" }, signal: controller.signal });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toBe("text/event-stream");
    expect((await fetch(url, { headers: { ...headers, accept: "text/event-stream" } })).status).toBe(409);
    const messages = sseMessages(stream);
    expect(await announce(3)).toEqual({ delivered: true });
    expect(await within(messages.next(), 2000, "pushed notification")).toEqual({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    // The client closes it: push has nowhere to go again, and another GET may open.
    controller.abort();
    let id = 4;
    await eventually(async () => ((await announce(id++)) as Json)["delivered"] === false, 3000, "push with the stream closed");
    const reopened = await fetch(url, { headers: { ...headers, accept: "text/event-stream" } });
    expect(reopened.status).toBe(200);
    // DELETE ends the stream with the session.
    await fetch(url, { method: "DELETE", headers });
    expect(await within(sseMessages(reopened).next(), 2000, "stream end")).toBeUndefined();
  });

  it("answers a request as SSE when a server→client request comes first, and takes the client's answer POSTed back (202)", async () => {
    const d = recordingDispatcher();
    const { url } = await serve(d.dispatcher);
    const sessionId = await open(url);
    const headers = { "mcp-session-id": sessionId, "mcp-protocol-version": LEGACY };
    const response = await post(url, { jsonrpc: "2.0", id: 5, method: "elicit" }, headers);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const messages = sseMessages(response);
    const asked = await within(messages.next(), 2000, "elicitation request");
    expect(asked).toMatchObject({ jsonrpc: "2.0", id: "e-5", method: "elicitation/create" });
    const answered = await post(url, { jsonrpc: "2.0", id: "e-5", result: { action: "accept", content: { name: "Ada" } } }, headers);
    expect(answered.status).toBe(202);
    expect(await answered.text()).toBe("");
    expect(await within(messages.next(), 2000, "response")).toEqual({ jsonrpc: "2.0", id: 5, result: { answer: { action: "accept", content: { name: "Ada" } } } });
    expect(await messages.next()).toBeUndefined();
  });

  it("at maxRequestsInFlight, refuses one more request (503) but takes the client's answers, notifications and DELETE, which let the requests in flight end (helper-76)", async () => {
    const d = recordingDispatcher();
    const { url } = await serve(d.dispatcher, { maxRequestsInFlight: 2 });
    const sessionId = await open(url);
    const headers = { "mcp-session-id": sessionId, "mcp-protocol-version": LEGACY };
    const waiting = [5, 6].map(async (id) => sseMessages(await post(url, { jsonrpc: "2.0", id, method: "elicit" }, headers)));
    const [first, second] = await Promise.all(waiting);
    await within(first!.next(), 2000, "elicitation 5");
    await within(second!.next(), 2000, "elicitation 6");
    const refused = await post(url, { jsonrpc: "2.0", id: 7, method: "ping" }, headers);
    expect([refused.status, await refused.json()]).toEqual([503, { jsonrpc: "2.0", id: 7, error: { code: -32603, message: "Server busy: 2 requests in flight (maxRequestsInFlight); try again later" } }]);
    // Before: the answer was refused 503 too, and request 5 waited for it for ever.
    const answered = await post(url, { jsonrpc: "2.0", id: "e-5", result: { action: "accept", content: { name: "Ada" } } }, headers);
    expect(answered.status).toBe(202);
    expect(await within(first!.next(), 2000, "response 5")).toEqual({ jsonrpc: "2.0", id: 5, result: { answer: { action: "accept", content: { name: "Ada" } } } });
    expect((await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers)).status).toBe(202);
    // DELETE ends the session, and with it the request still waiting.
    expect((await fetch(url, { method: "DELETE", headers })).status).toBe(200);
    expect(await within(second!.next(), 2000, "response 6")).toEqual({ jsonrpc: "2.0", id: 6, error: { code: -32603, message: "The session closed" } });
  });

  it("answers a request left unanswered (cancelled) with an SSE stream that ends without an event, a notification with 202", async () => {
    const d = recordingDispatcher();
    const { url } = await serve(d.dispatcher);
    const headers = { "mcp-session-id": await open(url), "mcp-protocol-version": LEGACY };
    const silent = await post(url, { jsonrpc: "2.0", id: 7, method: "silent" }, headers);
    // As every SSE stream, not buffered by a proxy in front (draft basic/transports/streamable-http).
    expect([silent.status, silent.headers.get("content-type"), silent.headers.get("x-accel-buffering"), await silent.text()]).toEqual([200, "text/event-stream", "no", ""]);
    const notified = await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers);
    expect([notified.status, notified.headers.get("content-type"), await notified.text()]).toEqual([202, null, ""]);
  });

  it("counts session GET streams with subscriptions/listen streams against maxSubscriptions", async () => {
    const d = recordingDispatcher();
    const { url } = await serve(d.dispatcher, { maxSubscriptions: 1 });
    const [first, second] = [await open(url), await open(url)];
    const controller = new AbortController();
    const stream = await fetch(url, { headers: { "mcp-session-id": first, accept: "text/event-stream" }, signal: controller.signal });
    expect(stream.status).toBe(200);
    const refused = await fetch(url, { headers: { "mcp-session-id": second, accept: "text/event-stream" } });
    expect(refused.status).toBe(503);
    expect(await refused.json()).toEqual({
      jsonrpc: "2.0",
      error: { code: -32603, message: "Too many open streams (subscriptions/listen and session GET streams together, at most 1); close one first" },
    });
    controller.abort();
    await eventually(async () => (await statusOf(fetch(url, { headers: { "mcp-session-id": second, accept: "text/event-stream" } }))) === 200, 3000, "a GET stream after one closed");
  });

  it("makes session ids with createSessionId (an instance prefix, for routing); one that is not visible ASCII, or already in use, fails the initialize with 500", async () => {
    const d = recordingDispatcher();
    let next = "node-a.1";
    const { url } = await serve(d.dispatcher, { createSessionId: () => next });
    const response = await post(url, initialize(1));
    expect(response.headers.get("mcp-session-id")).toBe("node-a.1");
    await response.text();
    expect((await post(url, { jsonrpc: "2.0", id: 2, method: "ping" }, { "mcp-session-id": "node-a.1" })).status).toBe(200);
    for (const bad of ["node-a.1", "with space", ""]) {
      next = bad;
      const refused = await post(url, initialize(3));
      expect([refused.status, refused.headers.get("mcp-session-id")]).toEqual([500, null]);
      expect(await refused.json()).toMatchObject({ id: 3, error: { code: -32603 } });
    }
    // The session already open is untouched.
    expect((await post(url, { jsonrpc: "2.0", id: 4, method: "ping" }, { "mcp-session-id": "node-a.1" })).status).toBe(200);
  });

  it("holds a session's requests to requestTimeoutMs: one waiting for the client's answer is answered -32603 on its stream", async () => {
    const d = recordingDispatcher();
    const { url } = await serve(d.dispatcher, { requestTimeoutMs: 150 });
    const sessionId = await open(url);
    const response = await post(url, { jsonrpc: "2.0", id: 5, method: "elicit" }, { "mcp-session-id": sessionId });
    const messages = sseMessages(response);
    expect(await within(messages.next(), 2000, "elicitation request")).toMatchObject({ method: "elicitation/create" });
    expect(await within(messages.next(), 2000, "answer")).toEqual({ jsonrpc: "2.0", id: 5, error: { code: -32603, message: "Request timed out after 150 ms" } });
    // The session lives on.
    expect((await post(url, { jsonrpc: "2.0", id: 6, method: "ping" }, { "mcp-session-id": sessionId })).status).toBe(200);
  });

  it("when sessions run out, gives up the oldest one never used after its initialize; a JSON-RPC response without Mcp-Session-Id is 400", async () => {
    const d = recordingDispatcher();
    const { url } = await serve(d.dispatcher, { maxSessions: 2 });
    const first = await open(url);
    const second = await open(url);
    expect((await post(url, initialized, { "mcp-session-id": second })).status).toBe(202);
    await sleep(5);
    const third = await open(url);
    expect(d.closed).toEqual([d.contexts[0]!.channel]);
    expect((await post(url, { jsonrpc: "2.0", id: 2, method: "ping" }, { "mcp-session-id": first })).status).toBe(404);
    for (const id of [second, third]) expect((await post(url, { jsonrpc: "2.0", id: 3, method: "ping" }, { "mcp-session-id": id })).status).toBe(200);
    // Both used now: the next initialize is refused.
    expect((await post(url, initialize(4))).status).toBe(503);
    const stray = await post(url, { jsonrpc: "2.0", id: 7, result: {} });
    expect(stray.status).toBe(400);
    expect(await stray.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32600, message: expect.stringContaining("Mcp-Session-Id") } });
  });

  it("an initialize refused as busy gives up no session to make room for it (helper-78)", async () => {
    const d = recordingDispatcher();
    const { url } = await serve(d.dispatcher, { maxSessions: 2, maxRequestsInFlight: 1 });
    // `first` is never used after its initialize: the one given up when a new session needs room.
    const first = await open(url);
    const second = await open(url);
    const headers = { "mcp-session-id": second, "mcp-protocol-version": LEGACY };
    const waiting = sseMessages(await post(url, { jsonrpc: "2.0", id: 5, method: "elicit" }, headers));
    const asked = (await within(waiting.next(), 2000, "elicitation request"))!;
    expect((await post(url, initialize(9))).status).toBe(503);
    // Before: `first` was ended to make room for the initialize then refused, and answered 404 from then on.
    expect(d.closed).toEqual([]);
    expect((await post(url, { jsonrpc: "2.0", id: asked["id"], result: { action: "decline" } }, headers)).status).toBe(202);
    await within(waiting.next(), 2000, "response");
    expect((await post(url, { jsonrpc: "2.0", id: 6, method: "ping" }, { "mcp-session-id": first })).status).toBe(200);
  });

  it("when sessions run out and all were used, gives up the least recently active one idle for sessionEvictAfterMs, never one with a GET stream", async () => {
    const d = recordingDispatcher();
    const { url } = await serve(d.dispatcher, { maxSessions: 3, sessionEvictAfterMs: 200 });
    const ping = (id: number, sessionId: string) => post(url, { jsonrpc: "2.0", id, method: "ping" }, { "mcp-session-id": sessionId });
    const [streaming, older, newer] = [await open(url), await open(url), await open(url)];
    const controller = new AbortController();
    const stream = await fetch(url, { headers: { "mcp-session-id": streaming, accept: "text/event-stream" }, signal: controller.signal });
    expect(stream.status).toBe(200);
    try {
      for (const id of [older, newer]) expect((await ping(1, id)).status).toBe(200);
      // Every session was used within sessionEvictAfterMs: none is given up.
      expect((await post(url, initialize(2))).status).toBe(503);
      await sleep(300);
      expect((await ping(3, newer)).status).toBe(200);
      // An initialize that fails gives up no session: one is given up only for a session kept.
      const failed = await post(url, initialize(6, "bad"));
      expect([failed.status, failed.headers.get("mcp-session-id")]).toEqual([200, null]);
      expect(await failed.json()).toMatchObject({ id: 6, error: { code: -32602 } });
      expect(d.closed.length).toBe(1); // the failed initialize's own channel
      expect((await ping(7, older)).status).toBe(200);
      await sleep(300);
      expect((await ping(8, newer)).status).toBe(200);
      // `older` has been idle for sessionEvictAfterMs; `newer` was just used; `streaming` holds a stream.
      const fourth = await open(url);
      expect(d.closed.length).toBe(2);
      expect((await ping(4, older)).status).toBe(404);
      for (const id of [streaming, newer, fourth]) expect((await ping(5, id)).status).toBe(200);
    } finally {
      controller.abort();
    }
  });

  it("with a store shared by two endpoints, a session used through the other one is not given up as never used", async () => {
    const d = recordingDispatcher();
    const store = createMemorySessionStore();
    const a = await serve(d.dispatcher, { maxSessions: 1, sessionStore: store });
    const b = await serve(d.dispatcher, { maxSessions: 1, sessionStore: store });
    const sessionId = await open(a.url);
    await sleep(5);
    expect((await post(b.url, { jsonrpc: "2.0", id: 2, method: "ping" }, { "mcp-session-id": sessionId })).status).toBe(200);
    // A never saw a request for it, but its record was touched after its initialize: used, within sessionEvictAfterMs.
    expect((await post(a.url, initialize(3))).status).toBe(503);
    expect(d.closed).toEqual([]);
    expect((await post(b.url, { jsonrpc: "2.0", id: 4, method: "ping" }, { "mcp-session-id": sessionId })).status).toBe(200);
  });

  it("refuses a session beyond maxSessions with 503 until one ends or expires; an idle session expires (closeChannel, then 404)", async () => {
    const d = recordingDispatcher();
    const store = createMemorySessionStore();
    const { url } = await serve(d.dispatcher, { maxSessions: 2, sessionIdleMs: 300, sessionStore: store });
    const first = await open(url);
    const second = await open(url);
    // Sessions in use (a session never used after initialize would be given up for a new one).
    for (const id of [first, second]) await post(url, initialized, { "mcp-session-id": id });
    expect(store.size).toBe(2);
    const refused = await post(url, initialize(3));
    expect(refused.status).toBe(503);
    expect(refused.headers.get("mcp-session-id")).toBeNull();
    expect(await refused.json()).toEqual({ jsonrpc: "2.0", id: 3, error: { code: -32603, message: "Too many sessions (at most 2); try again later" } });
    // Ending one makes room.
    await fetch(url, { method: "DELETE", headers: { "mcp-session-id": first } });
    const third = await open(url);
    // A session in use does not expire; an idle one does, its channel closed without any request for it.
    const kept = setInterval(() => void post(url, { jsonrpc: "2.0", id: "k", method: "ping" }, { "mcp-session-id": third }).then((r) => r.text()), 50);
    try {
      await eventually(() => d.closed.length === 2, 5000, "expiry");
      await sleep(400);
    } finally {
      clearInterval(kept);
    }
    expect(store.size).toBe(1);
    expect(d.closed.length).toBe(2);
    expect((await post(url, { jsonrpc: "2.0", id: 4, method: "ping" }, { "mcp-session-id": third })).status).toBe(200);
    // The expired ones leave room for new sessions.
    await open(url);
    expect(store.size).toBe(2);
  });

  it("an open GET stream keeps a session from expiring", async () => {
    const d = recordingDispatcher();
    const { url } = await serve(d.dispatcher, { sessionIdleMs: 100 });
    const sessionId = await open(url);
    const controller = new AbortController();
    const stream = await fetch(url, { headers: { "mcp-session-id": sessionId, accept: "text/event-stream" }, signal: controller.signal });
    expect(stream.status).toBe(200);
    await sleep(400);
    expect(d.closed).toEqual([]);
    controller.abort();
    await eventually(() => d.closed.length === 1, 5000, "expiry after the stream closed");
    expect((await post(url, { jsonrpc: "2.0", id: 2, method: "ping" }, { "mcp-session-id": sessionId })).status).toBe(404);
  });

  it("keeps every modern header rule on the same endpoint, and ignores Mcp-Session-Id on a modern request", async () => {
    const d = recordingDispatcher();
    const { url } = await serve(d.dispatcher);
    const sessionId = await open(url);
    const modern = { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: { [VERSION_KEY]: MODERN } } };
    const missing = await post(url, modern);
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: { code: -32020 } });
    const mismatch = await post(url, modern, { "mcp-protocol-version": MODERN, "mcp-method": "tools/call" });
    expect(await mismatch.json()).toMatchObject({ error: { code: -32020 } });
    const headers = { "mcp-protocol-version": MODERN, "mcp-method": "tools/list" };
    expect(await (await post(url, modern, headers)).json()).toEqual({ jsonrpc: "2.0", id: 1, result: { era: "modern", protocolVersion: null } });
    // A session id beside a modern request: stateless all the same (a fresh channel), headers still checked.
    const inSession = await post(url, modern, { ...headers, "mcp-session-id": sessionId });
    expect(await inSession.json()).toEqual({ jsonrpc: "2.0", id: 1, result: { era: "modern", protocolVersion: null } });
    expect((await post(url, modern, { "mcp-session-id": sessionId })).status).toBe(400);
    expect((await post(url, modern, { "mcp-session-id": "no-such-session", ...headers })).status).toBe(200);
    // A modern initialize (it carries the key) is not a legacy one: no session, headers checked.
    const modernInit = { ...initialize(2), params: { ...initialize(2).params, _meta: { [VERSION_KEY]: MODERN } } };
    const refused = await post(url, modernInit);
    expect(refused.status).toBe(400);
    expect(refused.headers.get("mcp-session-id")).toBeNull();
    // A request without the key, a session or any modern header is a legacy client's without its session: told so in its
    // era's terms (-32600, not the modern -32020 it does not know); a ping (one may come before initialize) is answered.
    const sessionless = await post(url, { jsonrpc: "2.0", id: 3, method: "tools/list" });
    expect([sessionless.status, await sessionless.json()]).toEqual([
      400,
      { jsonrpc: "2.0", id: 3, error: { code: -32600, message: "Bad request: no Mcp-Session-Id; a 2025-11-25 client opens a session with initialize and sends its Mcp-Session-Id after it" } },
    ]);
    const ping = await post(url, { jsonrpc: "2.0", id: 4, method: "ping" });
    expect([ping.status, await ping.json()]).toEqual([200, { jsonrpc: "2.0", id: 4, result: { era: "modern", protocolVersion: null } }]);
    // With an Mcp-Method or MCP-Protocol-Version header it is a modern client's, held to the modern header rules.
    expect(await (await post(url, { jsonrpc: "2.0", id: 5, method: "tools/list" }, { "mcp-method": "tools/call" })).json()).toMatchObject({ error: { code: -32020 } });
    for (const method of ["tools/list", "ping"]) {
      const versioned = await post(url, { jsonrpc: "2.0", id: 6, method }, { "mcp-protocol-version": MODERN });
      expect([versioned.status, await versioned.json()]).toEqual([400, { jsonrpc: "2.0", id: 6, error: { code: -32020, message: "Header mismatch: the Mcp-Method header is missing; a 2025-11-25 client opens a session with initialize and sends its Mcp-Session-Id after it" } }]);
    }
  });

  it("on close: every session is closed at once (its GET stream ends; a request waiting for the client is answered then), other requests get the grace period", async () => {
    const d = recordingDispatcher();
    const server = await serveHttp(d.dispatcher, { port: 0, shutdownGraceMs: 2000 });
    const { url } = server;
    const sessionId = await open(url);
    const headers = { "mcp-session-id": sessionId, "mcp-protocol-version": LEGACY };
    const stream = await fetch(url, { headers: { ...headers, accept: "text/event-stream" } });
    const waiting = await post(url, { jsonrpc: "2.0", id: 5, method: "elicit" }, headers);
    const messages = sseMessages(waiting);
    expect(await within(messages.next(), 2000, "elicitation request")).toMatchObject({ method: "elicitation/create" });
    const closed = server.close();
    // Well inside the 2 s grace period.
    expect(await within(sseMessages(stream).next(), 500, "GET stream end")).toBeUndefined();
    expect(await within(messages.next(), 500, "answer")).toEqual({ jsonrpc: "2.0", id: 5, error: { code: -32603, message: "The session closed" } });
    expect(d.closed).toEqual([d.contexts[0]!.channel]);
    // The requests still waiting for the client are told why (helper-61: they read "the session closed", like a fault).
    expect(d.reasons).toEqual(["Server shutting down"]);
    await within(closed, 1000, "close");
  });
});

// ---------------------------------------------------------------- a dual-era dispatcher ----

const CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities";

/** The revision table (`DISPATCH_REVISION`) of one generated output. */
async function revisionOf(version: string): Promise<DispatchRevision> {
  const dir = await generateInto(`http-legacy/${version}`, { schema: { specDir: SPEC_DIR, version }, docs: "none" });
  return ((await import(join(dir, "dispatch.ts"))) as { DISPATCH_REVISION: DispatchRevision }).DISPATCH_REVISION;
}

/** The draft (modern, the handler revision) and 2025-11-25 (legacy) tables served by one dispatcher, as a multi-revision output's `createServerDispatcher` does. */
let dualEra: (options: DispatcherOptions) => CoreDispatcher;
/** The draft revision alone: a modern-only server (`--eras modern`). */
let modernOnly: (options: DispatcherOptions) => CoreDispatcher;
/** The draft and 2025-03-26 (a legacy revision whose clients may send JSON-RPC batches). */
let batching: (options: DispatcherOptions) => CoreDispatcher;

beforeAll(async () => {
  const modern = await revisionOf("draft");
  const legacy = await revisionOf(LEGACY);
  dualEra = (options) => createDispatcher([modern, legacy], options);
  modernOnly = (options) => createDispatcher(modern, options);
  const older = await revisionOf("2025-03-26");
  batching = (options) => createDispatcher([modern, older], options);
});

const text = (t: string) => ({ content: [{ type: "text", text: t }] });

/** A server with an `echo` tool and a `greet` tool that asks for the user's name (an `InputRequiredResult`, written once for both eras). */
function greeter(make: (options: DispatcherOptions) => CoreDispatcher = dualEra, extra: Partial<DispatcherOptions> = {}): CoreDispatcher {
  return make({
    ...extra,
    serverInfo: { name: "dual-era", version: "1.0.0" },
    capabilities: { tools: { listChanged: true } },
    tools: [
      {
        definition: { name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } },
        call: (args) => text(String(args["text"])),
      },
      {
        definition: { name: "greet", inputSchema: { type: "object", properties: {} } },
        call: (_args, context: { readonly inputResponses?: { readonly [key: string]: { readonly content?: { readonly name?: string } } } }) => {
          const name = context.inputResponses?.["name"]?.content?.name;
          if (name !== undefined) return text("Hello, " + name);
          return {
            resultType: "input_required",
            inputRequests: {
              name: {
                method: "elicitation/create",
                params: { mode: "form", message: "Your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
              },
            },
          };
        },
      },
    ] as NonNullable<DispatcherOptions["tools"]>,
  });
}

describe("Streamable HTTP, legacy sessions: a dual-era dispatcher on one endpoint", () => {
  it("serves a 2025-11-25 client over fetch: session, list, the GET stream, an elicitation round trip, DELETE; a modern request beside it", async () => {
    const dispatcher = greeter();
    const { url } = await serve(dispatcher);
    const opened = await post(url, initialize(1));
    expect(opened.status).toBe(200);
    const sessionId = opened.headers.get("mcp-session-id")!;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const init = (await opened.json()) as Json;
    expect(init).toMatchObject({ id: 1, result: { protocolVersion: LEGACY, serverInfo: { name: "dual-era" } } });
    expect(init["result"]).not.toHaveProperty("resultType");
    const headers = { "mcp-session-id": sessionId, "mcp-protocol-version": LEGACY };
    expect((await post(url, initialized, headers)).status).toBe(202);

    // Input the server cannot take, in a session, gets 400 with an error without id, as outside one (helper-52).
    const batch = await post(url, [{ jsonrpc: "2.0", id: 20, method: "ping" }], headers);
    expect(batch.status).toBe(400);
    expect(await batch.json()).toEqual({ jsonrpc: "2.0", error: { code: -32600, message: "Invalid request: batches are not supported" } });
    // A request needs the session; with it, the legacy revision answers (no modern members).
    expect((await post(url, { jsonrpc: "2.0", id: 2, method: "tools/list" })).status).toBe(400);
    const listed = await post(url, { jsonrpc: "2.0", id: 2, method: "tools/list" }, headers);
    expect(listed.status).toBe(200);
    const tools = (await listed.json()) as { result: Json };
    expect((tools.result["tools"] as Json[]).map((t) => t["name"])).toEqual(["echo", "greet"]);
    expect(tools.result).not.toHaveProperty("resultType");
    expect(tools.result).not.toHaveProperty("ttlMs");
    // JSON-RPC errors come with status 200: a 404 would tell the client its session is gone.
    const unknownMethod = await post(url, { jsonrpc: "2.0", id: 3, method: "no/such/method" }, headers);
    expect([unknownMethod.status, ((await unknownMethod.json()) as { error: { code: number } }).error.code]).toEqual([200, -32601]);
    const unknownTool = await post(url, { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "nope", arguments: {} } }, headers);
    expect([unknownTool.status, ((await unknownTool.json()) as { error: { code: number } }).error.code]).toEqual([200, -32602]);
    expect((await post(url, { jsonrpc: "2.0", id: 3, method: "tools/list" }, { ...headers, "mcp-protocol-version": MODERN })).status).toBe(400);
    expect((await post(url, { jsonrpc: "2.0", id: 3, method: "tools/list" }, { ...headers, "mcp-session-id": "0" })).status).toBe(404);

    // The GET stream carries what the server publishes.
    const controller = new AbortController();
    const stream = await fetch(url, { headers: { ...headers, accept: "text/event-stream" }, signal: controller.signal });
    expect(stream.status).toBe(200);
    const pushed = sseMessages(stream);
    expect(dispatcher.publish("notifications/tools/list_changed")).toBeGreaterThanOrEqual(1);
    expect(await within(pushed.next(), 2000, "published notification")).toMatchObject({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });

    // The tool asks for input: an elicitation/create request on the POST's SSE stream, the client's answer POSTed back.
    const call = await post(url, { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "greet", arguments: {} } }, headers);
    expect(call.status).toBe(200);
    expect(call.headers.get("content-type")).toBe("text/event-stream");
    const messages = sseMessages(call);
    const asked = (await within(messages.next(), 5000, "elicitation request"))!;
    expect(asked).toMatchObject({ jsonrpc: "2.0", method: "elicitation/create", params: { message: "Your name?" } });
    const answered = await post(url, { jsonrpc: "2.0", id: asked["id"], result: { action: "accept", content: { name: "Ada" } } }, headers);
    expect(answered.status).toBe(202);
    expect(await within(messages.next(), 5000, "tool result")).toEqual({ jsonrpc: "2.0", id: 4, result: text("Hello, Ada") });

    // A modern request on the same endpoint, with its headers, at the same time: stateless, with its own result members.
    const modern = await post(
      url,
      { jsonrpc: "2.0", id: 5, method: "tools/call", params: { _meta: { [VERSION_KEY]: MODERN, [CLIENT_CAPABILITIES_KEY]: {} }, name: "echo", arguments: { text: "hi" } } },
      { "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "echo" },
    );
    expect(modern.status).toBe(200);
    expect(await modern.json()).toMatchObject({ id: 5, result: { ...text("hi"), resultType: "complete" } });

    // DELETE ends the session and its stream.
    expect((await fetch(url, { method: "DELETE", headers })).status).toBe(200);
    expect(await within(pushed.next(), 2000, "stream end")).toBeUndefined();
    expect((await post(url, { jsonrpc: "2.0", id: 6, method: "tools/list" }, headers)).status).toBe(404);
  });

  it("a session's POST whose Accept takes only JSON: a server→client request goes on the session's GET stream when one is open, and the POST is answered JSON; without one, -32603 at once", async () => {
    const { url } = await serve(greeter());
    const opened = await post(url, initialize(1), { accept: "application/json" });
    const headers = { "mcp-session-id": opened.headers.get("mcp-session-id")!, "mcp-protocol-version": LEGACY, accept: "application/json" };
    await opened.body?.cancel();
    expect((await post(url, initialized, headers)).status).toBe(202);
    const greet = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "greet", arguments: {} } });
    // No stream carries the request: the call is answered at once.
    const alone = await within(post(url, greet(2), headers), 2000, "the call without a stream");
    expect(alone.headers.get("content-type")).toBe("application/json");
    expect(await alone.json()).toMatchObject({ id: 2, error: { code: -32603, message: expect.stringContaining("nothing carries requests to the client") } });
    const controller = new AbortController();
    const stream = await fetch(url, { headers: { ...headers, accept: "text/event-stream" }, signal: controller.signal });
    expect(stream.status).toBe(200);
    const pushed = sseMessages(stream);
    const call = post(url, greet(3), headers);
    const asked = (await within(pushed.next(), 2000, "elicitation request on the GET stream"))!;
    expect(asked).toMatchObject({ jsonrpc: "2.0", method: "elicitation/create", params: { message: "Your name?" } });
    expect((await post(url, { jsonrpc: "2.0", id: asked["id"], result: { action: "accept", content: { name: "Ada" } } }, headers)).status).toBe(202);
    const answered = await within(call, 2000, "the call's answer");
    expect(answered.headers.get("content-type")).toBe("application/json");
    expect(await answered.json()).toEqual({ jsonrpc: "2.0", id: 3, result: text("Hello, Ada") });
    controller.abort();
  });

  it("a request still running when its session is DELETEd, that then asks for input, is answered -32603 at once: no elicitation/create goes to a client whose answer would be 404 (helper-134)", async () => {
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let running: () => void = () => {};
    const started = new Promise<void>((resolve) => (running = resolve));
    const dispatcher = dualEra({
      serverInfo: { name: "dual-era", version: "1.0.0" },
      tools: [
        {
          definition: { name: "later", inputSchema: { type: "object", properties: {} } },
          call: async (_args: unknown, context: { readonly inputResponses?: unknown }) => {
            if (context.inputResponses !== undefined) return text("answered");
            running();
            await released;
            return {
              resultType: "input_required",
              inputRequests: { name: { method: "elicitation/create", params: { mode: "form", message: "Your name?", requestedSchema: { type: "object", properties: {} } } } },
            };
          },
        },
      ] as NonNullable<DispatcherOptions["tools"]>,
    });
    const { url } = await serve(dispatcher);
    const sessionId = await open(url);
    const headers = { "mcp-session-id": sessionId, "mcp-protocol-version": LEGACY };
    expect((await post(url, initialized, headers)).status).toBe(202);
    const call = post(url, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "later", arguments: {} } }, headers);
    await within(started, 2000, "the tool running");
    expect((await fetch(url, { method: "DELETE", headers })).status).toBe(200);
    release();
    const answer = await within(call, 2000, "the call's answer");
    const body = answer.headers.get("content-type") === "text/event-stream" ? await sseMessages(answer).next() : ((await answer.json()) as Json);
    expect(body).toMatchObject({ jsonrpc: "2.0", id: 2, error: { code: -32603, message: expect.stringContaining("the client ended the session (DELETE)") } });
  });

  it("answers a notification whose params fail the schema 400 with a -32602 error without id, in a session and from a modern client; a valid one, or one of an unknown method, 202; a legacy session's without a session 400", async () => {
    const dispatcher = greeter();
    const { url } = await serve(dispatcher);
    const opened = await post(url, initialize(1));
    const headers = { "mcp-session-id": opened.headers.get("mcp-session-id")!, "mcp-protocol-version": LEGACY };
    await opened.body?.cancel();
    expect((await post(url, initialized, headers)).status).toBe(202);
    const badCancel = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: { not: "an id" } } };
    const refused = await post(url, badCancel, headers);
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as { error: { code: number; message: string; data: { issues: { path: string }[] } } };
    expect(body).not.toHaveProperty("id");
    expect(body.error.code).toBe(-32602);
    expect(body.error.message).toContain("notifications/cancelled");
    expect(body.error.data.issues.map((i) => i.path)).toContain("/params/requestId");
    expect(await statusOf(post(url, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 99 } }, headers))).toBe(202);
    expect(await statusOf(post(url, { jsonrpc: "2.0", method: "notifications/not-in-the-spec", params: { x: 1 } }, headers))).toBe(202);
    // The session still serves requests.
    expect(await statusOf(post(url, { jsonrpc: "2.0", id: 2, method: "tools/list" }, headers))).toBe(200);

    // A modern client's notification, with its headers.
    const modernHeaders = { "mcp-protocol-version": MODERN, "mcp-method": "notifications/cancelled" };
    const meta = { [VERSION_KEY]: MODERN };
    const modernRefused = await post(url, { jsonrpc: "2.0", method: "notifications/cancelled", params: { _meta: meta, requestId: { not: "an id" } } }, modernHeaders);
    expect(modernRefused.status).toBe(400);
    expect(((await modernRefused.json()) as { error: { code: number } }).error.code).toBe(-32602);
    expect(await statusOf(post(url, { jsonrpc: "2.0", method: "notifications/cancelled", params: { _meta: meta, requestId: 7 } }, modernHeaders))).toBe(202);

    // A legacy session's notification without Mcp-Session-Id is 400, as its requests and responses are: it could only
    // be dropped (helper-101). A cancellation, which a modern client may POST as it is, is still taken.
    for (const method of ["notifications/initialized", "notifications/roots/list_changed"]) {
      const lost = await post(url, { jsonrpc: "2.0", method });
      expect(lost.status).toBe(400);
      expect(await lost.json()).toEqual({
        jsonrpc: "2.0",
        error: { code: -32600, message: `Invalid request: "${method}" belongs to a legacy session, and none is open; a legacy client opens one with initialize` },
      });
    }
    expect(await statusOf(post(url, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7 } }))).toBe(202);
  });

  it("serves the official SDK v1 client (Client + StreamableHTTPClientTransport): connect, listTools, callTool, a tool that elicits; its DELETE is told to onSessionClosed", async () => {
    const closed: { why: string; clientInfo: unknown }[] = [];
    const dispatcher = greeter(dualEra, { onSessionClosed: (_session, { why, clientInfo }) => closed.push({ why, clientInfo }) });
    const { url } = await serve(dispatcher);
    const client = new Client({ name: "sdk-v1", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      expect(request.params.message).toBe("Your name?");
      return { action: "accept", content: { name: "Grace" } };
    });
    const transport = new StreamableHTTPClientTransport(new URL(url));
    await within(client.connect(transport), 5000, "connect");
    try {
      expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      expect(client.getServerVersion()).toMatchObject({ name: "dual-era" });
      const { tools } = await within(client.listTools(), 5000, "listTools");
      expect(tools.map((t) => t.name)).toEqual(["echo", "greet"]);
      expect(await within(client.callTool({ name: "echo", arguments: { text: "hello" } }), 5000, "callTool")).toEqual(text("hello"));
      expect(await within(client.callTool({ name: "greet", arguments: {} }), 5000, "callTool with elicitation")).toEqual(text("Hello, Grace"));
      // The client opened the session's GET stream after notifications/initialized: a published list change reaches it.
      const changed = new Promise<void>((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
      await within(
        (async () => {
          while (dispatcher.publish("notifications/tools/list_changed") === 0) await sleep(20);
        })(),
        5000,
        "GET stream open",
      );
      await within(changed, 5000, "tools/list_changed");
      expect(closed).toEqual([]);
      await within(transport.terminateSession(), 5000, "terminateSession");
      expect(transport.sessionId).toBeUndefined();
      expect(closed).toEqual([{ why: "the client ended the session (DELETE)", clientInfo: { name: "sdk-v1", version: "1.0.0" } }]);
    } finally {
      await client.close();
    }
  });
});

describe("Streamable HTTP, a 2025-03-26 session: JSON-RPC batches (2025-03-26 basic/transports)", () => {
  const BATCH_VERSION = "2025-03-26";
  /** draft + 2025-03-26: `echo`, and `roots`, which asks the client for its roots (an `InputRequiredResult`). */
  function rootsServer(extra: Partial<DispatcherOptions> = {}): CoreDispatcher {
    return batching({
      serverInfo: { name: "batches", version: "1.0.0" },
      tools: [
        {
          definition: { name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } },
          call: (args) => text(String(args["text"])),
        },
        {
          definition: { name: "roots", inputSchema: { type: "object", properties: {} } },
          call: (_args, context: { readonly inputResponses?: { readonly roots?: { readonly roots: readonly { readonly uri: string }[] } } }) => {
            const listed = context.inputResponses?.roots;
            if (listed !== undefined) return text(listed.roots.map((r) => r.uri).join(" "));
            return { resultType: "input_required", inputRequests: { roots: { method: "roots/list" } } };
          },
        },
      ] as NonNullable<DispatcherOptions["tools"]>,
      ...extra,
    });
  }
  const call = (id: number | string, name: string, args: Json = {}) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });

  it("answers a batch with requests 200 and a JSON array, one of notifications and responses 202 without a body, an empty or too long one 400; a batch's roots/list goes on its SSE stream, each response an event", async () => {
    const { url } = await serve(rootsServer({ maxBatchSize: 3 }));
    const opened = await post(url, { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: BATCH_VERSION, capabilities: { roots: {} }, clientInfo: CLIENT_INFO } });
    expect(((await opened.json()) as { result: Json }).result["protocolVersion"]).toBe(BATCH_VERSION);
    const headers = { "mcp-session-id": opened.headers.get("mcp-session-id")!, "mcp-protocol-version": BATCH_VERSION };
    const accepted = await post(url, [initialized, { jsonrpc: "2.0", method: "notifications/roots/list_changed" }], headers);
    expect([accepted.status, await accepted.text()]).toEqual([202, ""]);

    const listed = await post(url, [{ jsonrpc: "2.0", id: 2, method: "ping" }, { jsonrpc: "2.0", method: "notifications/roots/list_changed" }, call(3, "echo", { text: "hi" })], headers);
    expect([listed.status, listed.headers.get("content-type")]).toEqual([200, "application/json"]);
    expect(await listed.json()).toEqual([
      { jsonrpc: "2.0", id: 2, result: {} },
      { jsonrpc: "2.0", id: 3, result: text("hi") },
    ]);
    const empty = await post(url, [], headers);
    expect([empty.status, await empty.json()]).toEqual([400, { jsonrpc: "2.0", error: { code: -32600, message: "Invalid request: the batch is empty" } }]);
    const long = await post(url, [1, 2, 3, 4].map((id) => ({ jsonrpc: "2.0", id, method: "ping" })), headers);
    expect([long.status, await long.json()]).toEqual([
      400,
      { jsonrpc: "2.0", error: { code: -32600, message: "Invalid request: a batch holds at most 3 messages (this one holds 4); send it in parts" } },
    ]);

    // A request of the batch asks the client for input: the server→client request goes on the POST's stream, as for a single request.
    const asking = await post(url, [call(4, "roots"), call(5, "echo", { text: "also" })], headers);
    expect([asking.status, asking.headers.get("content-type")]).toEqual([200, "text/event-stream"]);
    const events = sseMessages(asking);
    const asked = (await within(events.next(), 5000, "roots/list"))!;
    expect(asked).toMatchObject({ jsonrpc: "2.0", method: "roots/list" });
    const answered = await post(url, [{ jsonrpc: "2.0", id: asked["id"], result: { roots: [{ uri: "file:///a" }] } }], headers);
    expect([answered.status, await answered.text()]).toEqual([202, ""]);
    expect(await within(events.next(), 5000, "first response")).toEqual({ jsonrpc: "2.0", id: 4, result: text("file:///a") });
    expect(await within(events.next(), 5000, "second response")).toEqual({ jsonrpc: "2.0", id: 5, result: text("also") });
    expect(await within(events.next(), 5000, "stream end")).toBeUndefined();

    // Without the session, or with a modern message, a batch is refused as before.
    const unsessioned = await post(url, [{ jsonrpc: "2.0", id: 6, method: "ping" }]);
    expect([unsessioned.status, await unsessioned.json()]).toEqual([400, { jsonrpc: "2.0", error: { code: -32600, message: "Invalid request: batches are not supported" } }]);
  });

  it("counts each request of a batch against maxRequestsInFlight and refuses a batch past it with an answer per request, by id; takes a larger batch when nothing else is in flight; an unknown session is 404 before the caps (helper-77, helper-78)", async () => {
    const { url } = await serve(rootsServer(), { maxRequestsInFlight: 2 });
    const opened = await post(url, { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: BATCH_VERSION, capabilities: { roots: {} }, clientInfo: CLIENT_INFO } });
    const headers = { "mcp-session-id": opened.headers.get("mcp-session-id")!, "mcp-protocol-version": BATCH_VERSION };
    expect((await post(url, initialized, headers)).status).toBe(202);
    // Nothing else in flight: a batch of three requests runs although the cap is two (refused, it could never run).
    const three = [call(2, "echo", { text: "a" }), { jsonrpc: "2.0", method: "notifications/roots/list_changed" }, call(3, "echo", { text: "b" }), { jsonrpc: "2.0", id: 4, method: "ping" }];
    const idle = await post(url, three, headers);
    expect([idle.status, await idle.json()]).toEqual([200, [{ jsonrpc: "2.0", id: 2, result: text("a") }, { jsonrpc: "2.0", id: 3, result: text("b") }, { jsonrpc: "2.0", id: 4, result: {} }]]);
    // One request in flight (waiting for the client's roots): two more in one batch are three, past the cap.
    const asking = await post(url, call(5, "roots"), headers);
    const events = sseMessages(asking);
    const asked = (await within(events.next(), 5000, "roots/list"))!;
    // The message names what is in flight and the batch's size (helper-79: it named the cap as the count).
    const busy = { code: -32603, message: "Server busy: 1 request in flight, and this batch's 2 would pass maxRequestsInFlight (2); try again later" };
    // The client's answer in the refused batch is taken all the same: it ends the request in flight (before, dropped).
    const answer = { jsonrpc: "2.0", id: asked["id"], result: { roots: [] } };
    const two = await post(url, [call(6, "echo", { text: "a" }), answer, { jsonrpc: "2.0", id: 7, method: "ping" }], headers);
    expect([two.status, await two.json()]).toEqual([503, [{ jsonrpc: "2.0", id: 6, error: busy }, { jsonrpc: "2.0", id: 7, error: busy }]]);
    expect(await within(events.next(), 5000, "roots answer")).toEqual({ jsonrpc: "2.0", id: 5, result: text("") });
    // Hold the cap again for the cases below.
    const asking2 = await post(url, call(15, "roots"), headers);
    const events2 = sseMessages(asking2);
    const asked2 = (await within(events2.next(), 5000, "roots/list again"))!;
    // More requests than a batch may hold: one answer, not one per element (helper-79: 25 MB for a 4 MiB batch).
    const many = await post(url, Array.from({ length: 65 }, (_, i) => ({ jsonrpc: "2.0", id: 100 + i, method: "ping" })), headers);
    expect([many.status, await many.json()]).toEqual([503, { jsonrpc: "2.0", error: { ...busy, message: busy.message.replace("batch's 2", "batch's 65") } }]);
    const one = await post(url, [call(8, "echo", { text: "a" })], headers);
    expect([one.status, await one.json()]).toEqual([200, [{ jsonrpc: "2.0", id: 8, result: text("a") }]]);
    // A request whose id is no id never runs: it counts for nothing, and is answered as when nothing is in flight (helper-81: 503).
    const invalidId = await post(url, [call(11, "echo", { text: "a" }), { ...call(12, "echo", { text: "b" }), id: 2.5 }], headers);
    const answered = (await invalidId.json()) as { id: unknown; error?: { code: number } }[];
    expect([invalidId.status, answered.map((a) => [a.id, a.error?.code])]).toEqual([200, [[11, undefined], [undefined, -32600]]]);
    // In a batch refused as busy, it is answered as in one taken, not as busy.
    const refusedWithInvalidId = await post(url, [call(13, "echo", { text: "a" }), { ...call(14, "echo", { text: "b" }), id: 2.5 }, call(16, "echo", { text: "c" })], headers);
    expect([refusedWithInvalidId.status, await refusedWithInvalidId.json()]).toEqual([
      503,
      [
        { jsonrpc: "2.0", id: 13, error: busy },
        { jsonrpc: "2.0", error: { code: -32600, message: "Invalid request: id must be a string or an integer" } },
        { jsonrpc: "2.0", id: 16, error: busy },
      ],
    ]);
    // A session that does not exist is said so, whatever the caps (before: 503 at the cap).
    const unknown = await post(url, [call(9, "echo", { text: "a" }), call(10, "echo", { text: "b" })], { ...headers, "mcp-session-id": "nope" });
    expect(unknown.status).toBe(404);
    expect((await post(url, [{ jsonrpc: "2.0", id: asked2["id"], result: { roots: [] } }], headers)).status).toBe(202);
    expect(await within(events2.next(), 5000, "roots answer again")).toEqual({ jsonrpc: "2.0", id: 15, result: text("") });
  });

  it("serves a batch of 64 requests with a time limit without node's MaxListenersExceededWarning (helper-78)", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    try {
      const { url } = await serve(rootsServer(), { requestTimeoutMs: 5000 });
      const opened = await post(url, { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: BATCH_VERSION, capabilities: {}, clientInfo: CLIENT_INFO } });
      const headers = { "mcp-session-id": opened.headers.get("mcp-session-id")!, "mcp-protocol-version": BATCH_VERSION };
      const batch = await post(url, Array.from({ length: 64 }, (_, i) => call(i + 2, "echo", { text: String(i) })), headers);
      expect([batch.status, ((await batch.json()) as unknown[]).length]).toEqual([200, 64]);
      await sleep(20);
      expect(warnings).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });

  it("refuses maxRequestsInFlight and maxRequestsPerConnection that are not integers of at least 1, and takes Infinity as no cap (helper-77, helper-78)", () => {
    for (const options of [{ maxRequestsInFlight: 0 }, { maxRequestsPerConnection: Number.NaN }, { maxRequestsInFlight: 1.5 }]) {
      const [name, value] = Object.entries(options)[0]!;
      expect(() => createHttpHandler(rootsServer(), options)).toThrow(
        new RangeError(`createHttpHandler: ${name} must be an integer of at least 1 (or Infinity: no cap), got ${String(value)}`),
      );
    }
    expect(typeof createHttpHandler(rootsServer(), { maxRequestsInFlight: Number.POSITIVE_INFINITY })).toBe("function");
  });

  it("a batch of notifications with one refused is 400 with that refusal, and none of it is taken (helper-62's 4)", async () => {
    let changed = 0;
    const { url } = await serve(rootsServer({ handlers: { "notifications/roots/list_changed": () => void changed++ } }));
    const opened = await post(url, { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: BATCH_VERSION, capabilities: { roots: {} }, clientInfo: CLIENT_INFO } });
    const headers = { "mcp-session-id": opened.headers.get("mcp-session-id")!, "mcp-protocol-version": BATCH_VERSION };
    const listChanged = { jsonrpc: "2.0", method: "notifications/roots/list_changed" };
    const refused = await post(url, [initialized, listChanged, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: true } }], headers);
    const body = (await refused.json()) as { error: { code: number; message: string } };
    expect([refused.status, body.error.code]).toEqual([400, -32602]);
    expect(body.error.message).toMatch(/^Invalid params of "notifications\/cancelled": .*\(message 3 of the batch; none of the batch was taken\)$/);
    await sleep(20);
    expect(changed).toBe(0);
    const accepted = await post(url, [initialized, listChanged], headers);
    expect([accepted.status, await accepted.text()]).toEqual([202, ""]);
    await eventually(() => changed === 1, 5000, "the list change handled");
  });

  it("requestTimeoutMs holds a batch's requests: the one still waiting for the client is answered -32603 (its roots/list cancelled), the others as usual", async () => {
    const { url } = await serve(rootsServer(), { requestTimeoutMs: 300 });
    const opened = await post(url, { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: BATCH_VERSION, capabilities: { roots: {} }, clientInfo: CLIENT_INFO } });
    await opened.body?.cancel();
    const headers = { "mcp-session-id": opened.headers.get("mcp-session-id")!, "mcp-protocol-version": BATCH_VERSION };
    expect(await statusOf(post(url, [initialized], headers))).toBe(202);
    // The roots request waits for the client's answer, which never comes: past the limit it is answered -32603, the ping beside it normally.
    const timed = await post(url, [call(2, "roots"), { jsonrpc: "2.0", id: 3, method: "ping" }], headers);
    const events = sseMessages(timed);
    const asked = (await within(events.next(), 5000, "roots/list"))!;
    expect(asked).toMatchObject({ method: "roots/list" });
    expect(await within(events.next(), 5000, "cancellation")).toMatchObject({ method: "notifications/cancelled", params: { requestId: asked["id"] } });
    expect(await within(events.next(), 5000, "timed out")).toEqual({ jsonrpc: "2.0", id: 2, error: { code: -32603, message: "Request timed out after 300 ms" } });
    expect(await within(events.next(), 5000, "ping")).toEqual({ jsonrpc: "2.0", id: 3, result: {} });
    expect(await within(events.next(), 5000, "stream end")).toBeUndefined();
  });

  it("serves the official SDK v1 client a 2025-03-26 session (it accepts the version the server answers) and takes a batch its transport sends: a JSON array, and SSE events after the client answered a batch request's roots/list", async () => {
    const { url } = await serve(rootsServer());
    const client = new Client({ name: "sdk-v1", version: "1.0.0" }, { capabilities: { roots: {} } });
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: "file:///sdk" }] }));
    const transport = new StreamableHTTPClientTransport(new URL(url));
    await within(client.connect(transport), 5000, "connect");
    try {
      // The SDK asks for 2025-11-25; the server serves 2025-03-26 as its legacy revision and answers that, which the SDK supports.
      expect(transport.protocolVersion).toBe(BATCH_VERSION);
      // The batch's responses are ours: taken before the Client, which did not send these ids; the rest (the roots/list request) goes on to it.
      const batchResponses: JSONRPCMessage[] = [];
      const toClient = transport.onmessage!;
      transport.onmessage = (message: JSONRPCMessage) => {
        if (!("method" in message) && "id" in message && String(message.id).startsWith("batch-")) batchResponses.push(message);
        else toClient(message);
      };
      await within(
        transport.send([
          { jsonrpc: "2.0", id: "batch-1", method: "tools/call", params: { name: "echo", arguments: { text: "one" } } },
          { jsonrpc: "2.0", method: "notifications/roots/list_changed" },
          { jsonrpc: "2.0", id: "batch-2", method: "ping" },
        ]),
        5000,
        "batch as JSON",
      );
      expect(batchResponses).toEqual([
        { jsonrpc: "2.0", id: "batch-1", result: text("one") },
        { jsonrpc: "2.0", id: "batch-2", result: {} },
      ]);
      batchResponses.length = 0;
      await within(
        transport.send([
          { jsonrpc: "2.0", id: "batch-3", method: "tools/call", params: { name: "roots", arguments: {} } },
          { jsonrpc: "2.0", id: "batch-4", method: "tools/list" },
        ]),
        5000,
        "batch on a stream",
      );
      await eventually(() => batchResponses.length === 2, 5000, "the batch's responses");
      expect(batchResponses[0]).toEqual({ jsonrpc: "2.0", id: "batch-3", result: text("file:///sdk") });
      expect(batchResponses[1]).toMatchObject({ jsonrpc: "2.0", id: "batch-4", result: { tools: [{ name: "echo" }, { name: "roots" }] } });
      // The Client itself still works on the same session.
      expect(await within(client.callTool({ name: "echo", arguments: { text: "after" } }), 5000, "callTool")).toEqual(text("after"));
    } finally {
      await client.close();
    }
  });
});

describe("Streamable HTTP, a modern-only dispatcher", () => {
  it("has no sessions: initialize gets -32022 naming the versions (no session id), GET and DELETE are 405, Mcp-Session-Id is ignored", async () => {
    const { url } = await serve(greeter(modernOnly));
    const refused = await post(url, initialize(1));
    expect(refused.status).toBe(400);
    expect(refused.headers.get("mcp-session-id")).toBeNull();
    expect(await refused.json()).toMatchObject({ id: 1, error: { code: -32022, data: { supported: [MODERN] } } });
    for (const method of ["GET", "DELETE"]) {
      const response = await fetch(url, { method, headers: { "mcp-session-id": "abc", accept: "text/event-stream" } });
      expect([response.status, response.headers.get("allow")]).toEqual([405, "POST"]);
    }
    const modern = { jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: { [VERSION_KEY]: MODERN, [CLIENT_CAPABILITIES_KEY]: {} } } };
    const listed = await post(url, modern, { "mcp-session-id": "abc", "mcp-protocol-version": MODERN, "mcp-method": "tools/list" });
    expect(listed.status).toBe(200);
    // Without the modern key, a session id does not make a request legacy here: it is held to the modern headers.
    const bare = await post(url, { jsonrpc: "2.0", id: 3, method: "tools/list" }, { "mcp-session-id": "abc" });
    expect([bare.status, ((await bare.json()) as { error: { code: number } }).error.code]).toEqual([400, -32020]);
  });
});
