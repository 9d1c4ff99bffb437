/**
 * The Streamable HTTP transport on `node:http`: one MCP endpoint serving both protocol eras
 * (draft basic/versioning, "Backward Compatibility"), one JSON-RPC message per request.
 *
 * Modern clients (2026-07-28, basic/transports/streamable-http): stateless POSTs.
 * - Request metadata headers (§ Request Metadata, § Server Validation): `MCP-Protocol-Version`
 *   must be present and equal the body's `io.modelcontextprotocol/protocolVersion`; `Mcp-Method`
 *   must equal `method`; `Mcp-Name` must equal `params.name` (tools/call, prompts/get) or
 *   `params.uri` (resources/read), after Base64-sentinel decoding; `Mcp-Param-{Name}` headers of
 *   the called tool's `x-mcp-header` parameters must match the arguments. Otherwise `-32020`, 400.
 * - Status codes: 400 for `-32700`, `-32600`, `-32602`, `-32020`, `-32021`, `-32022`; 404 for
 *   `-32601`; 200 for `-32603` (in-band, as every other handler error); 202 without a body for an accepted notification, 400 with an
 *   error without `id` for one the dispatcher refuses (`HandleContext.refuse`: `-32602` params
 *   failing the schema, `-32022` a `_meta` version not served); else 200.
 * - A response is JSON, unless the handler sends a notification first (progress, log messages,
 *   `subscriptions/listen`): then the response is an SSE stream of those notifications ended by
 *   the response. Closing the stream cancels the request (§ Cancellation). A POST whose `Accept`
 *   does not take `text/event-stream` ({@link acceptsEventStream}) is answered JSON only: its
 *   notifications are not sent (in a legacy session they, and server→client requests, go to the GET
 *   stream when one is open; a server→client request with none open fails its request, `-32603`).
 *   Such a `subscriptions/listen`, which only a stream can answer, → 406 with `-32600`.
 * - An `Mcp-Session-Id` header on a modern request is ignored.
 *
 * Legacy clients (2025-11-25 and earlier, 2025-11-25 basic/transports "Streamable HTTP"), when
 * the dispatcher serves a legacy revision (`opensSession`); otherwise GET and DELETE → 405 and
 * `Mcp-Session-Id` is ignored, as for a modern-only server.
 * - An `initialize` POST without the modern `_meta` version opens a session: its answer carries a
 *   new `Mcp-Session-Id` (a random UUID, or `createSessionId`'s) when it is a result; nothing is
 *   kept after an error.
 * - A POST with `Mcp-Session-Id`: an unknown or expired session → 404; an `MCP-Protocol-Version`
 *   header other than the negotiated version → 400; a request is answered as JSON, or as an SSE
 *   stream when notifications or server→client requests (elicitation, sampling, roots) come
 *   first; a notification, or a response to a server→client request, → 202 without a body (a
 *   notification the dispatcher refuses → 400, as for a modern client; so is a legacy session's
 *   notification POSTed without `Mcp-Session-Id`, which could only be dropped).
 *   JSON-RPC errors are answered with status 200 (the body carries them; a 404 would tell the
 *   client its session is gone). None of the modern metadata headers are asked for.
 * - A JSON-RPC batch (a JSON array) in a session that negotiated a revision taking batches
 *   (2025-03-26 basic/transports: the body may be "an array batching one or more requests and/or
 *   notifications" or "one or more responses"): only notifications and responses → 202 without a
 *   body (400 when a notification of it is refused: then none of it is taken); else 200 with the array of the responses to its requests (JSON), or an SSE stream when
 *   something goes to the client first (a server→client request of one of its requests, which
 *   goes there as for a single request), ending with one event per response. An empty batch, or
 *   one over the dispatcher's `maxBatchSize`, → 400 with one `-32600`. Anywhere else a batch
 *   → 400, `-32600` "batches are not supported".
 * - GET with `Mcp-Session-Id` and `Accept: text/event-stream` → the session's standalone SSE
 *   stream, where notifications not tied to a request go (list changes, resource updates, log
 *   messages); one per session (another → 409). Streams carry no event ids and are not
 *   resumable (`Last-Event-ID` is ignored). GET or DELETE without a session → 405.
 * - DELETE with `Mcp-Session-Id` ends the session (`closeChannel`) → 200; unknown → 404.
 * - Sessions live in a {@link SessionStore} (in memory by default), at most `maxSessions` (a new
 *   one beyond → 503, after expired ones are removed and then the oldest never used after its
 *   `initialize`); a session without requests or a GET stream for `sessionIdleMs` expires.
 * - A JSON-RPC response POSTed without `Mcp-Session-Id` → 400 (it answers a session's request).
 * - Closing a POST's response stream cancels its request, in both eras: nothing is resumable
 *   here, so its answer could never be delivered.
 *
 * Both eras:
 * - Bound to 127.0.0.1 by default. `Host` and `Origin` are checked against allow-lists
 *   (DNS-rebinding protection, § Security & Endpoint): 403 otherwise.
 * - A body over `maxBodyBytes` → 413; a body that is not `application/json`, or that has a
 *   `Content-Encoding` (it is not decoded; a body passed as read by a body parser was) → 415.
 * - A body that is not UTF-8 → `-32700`, 400; a UTF-8 byte order mark starting it is ignored.
 * - Limits (see {@link HttpOptions}): time to receive headers and the whole request, idle
 *   keep-alive time, open connections, listen backlog, requests in flight on the server and on
 *   one connection (pipelined; one more → `-32603`, 503), open `subscriptions/listen` streams (one
 *   more → `-32603`, 503; legacy GET streams count too), legacy sessions, and an optional time
 *   limit per request (→ `-32603`).
 *   An SSE stream whose reader falls more than 16 MiB behind is closed; while all streams and
 *   answers written hold more than 128 MiB unread, the connections furthest behind (more than
 *   256 KiB, answers queued on them by pipelining included, and behind for about a second) are
 *   closed until they no longer do.
 * - {@link HttpServer.close} shuts down gracefully: no new connections or requests (503), open
 *   `subscriptions/listen` streams get their result, legacy sessions are closed (their GET streams
 *   end; a request waiting for the client's answer to a server→client request is answered
 *   `-32603` at once), requests in flight get `shutdownGraceMs` to finish, then every request
 *   still running is answered `-32603` "Server shutting down", and one whose body is still
 *   arriving 503 (its connection closed a second later if the body has not ended).
 */
import { randomUUID } from "node:crypto";
import { setMaxListeners } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { isIPv6, Server, type AddressInfo, type Socket } from "node:net";
import type { DispatchErrorObject, DispatchResponse, OutgoingMessage, TransportDispatcher } from "./dispatcher.js";
import { appendBytes, invalidRequestIdMessage, isPlainObject, isResponse, messageOf, own, quoteShort, requestIdOf, retainedBytes, wireText } from "./json.js";

/**
 * What the Streamable HTTP transport passes to handlers as `context.transport`: the HTTP request
 * that carried the message (its headers, its socket's address), and the legacy session's
 * `Mcp-Session-Id` when the message belongs to one (a modern request has no session).
 */
export interface HttpTransportInfo {
  readonly kind: "http";
  readonly request: IncomingMessage;
  readonly sessionId?: string;
}

/** Options of {@link serveHttp} and {@link createHttpHandler}. */
export interface HttpOptions {
  /** Default: 3000. 0 picks a free port. */
  readonly port?: number;
  /** Default: "127.0.0.1". */
  readonly host?: string;
  /** The MCP endpoint's path. Default: "/mcp". */
  readonly path?: string;
  /**
   * Host names (without port) a request's `Host` may name. Default: localhost, 127.0.0.1, [::1].
   * One that is no host name (`mcp.example.com:8443`, `https://mcp.example.com`, an IPv6 address
   * without brackets or with a zone), which no `Host` could match, throws `RangeError`.
   */
  readonly allowedHosts?: readonly string[];
  /**
   * Where the allowed hosts are set, as the 403 for a `Host` not answered names it: "`<this>` names
   * the hosts answered". Default: "serveHttp's allowedHosts" (or createHttpHandler's); a program
   * taking them from its command line names its flag ("the server's --allow-host").
   */
  readonly allowedHostsSetting?: string;
  /** Origins a request's `Origin` may be (`http://localhost:5173`); a missing `Origin` is allowed. Default: http(s) origins on the allowed hosts, any port. */
  readonly allowedOrigins?: readonly string[];
  /** Largest accepted body, in bytes. Default: 4 MiB. */
  readonly maxBodyBytes?: number;
  /**
   * The bodies of the requests being received and served at once, in bytes (at least
   * `maxBodyBytes`): a body that would pass it is answered `-32603` "Server busy" with status 503,
   * so that requests held open (streams, waits for a client's input) cannot make the server keep
   * unbounded memory. Once parsed, a request counts its message's size in memory as
   * `retainedBytes` estimates it; one message may count at most 2 × `maxBodyBytes` or a sixteenth
   * of this, whichever is more, and never more than half of this nor less than `maxBodyBytes`
   * (else 413), so that at the defaults sixteen requests held open are needed to fill it. An
   * integer of at least 1, or `Infinity`; else `RangeError`. Default: 128 MiB.
   */
  readonly maxBodyBytesInFlight?: number;
  /**
   * SSE keep-alive comment interval on open streams, in milliseconds; a request whose `Accept` names
   * `text/event-stream` and whose handler sends nothing for this long is answered on such a stream
   * instead of as JSON, so that a proxy's read timeout does not end it. An integer of at
   * least 1, or `Infinity` (past what a timer holds, about 24.8 days: no comments, and no request
   * answered on a stream for its silence); else `RangeError`. Default: 15000.
   */
  readonly keepAliveMs?: number;
  /** The `inputSchema` of a tool by name, for `Mcp-Param-{Name}` checks; without it those headers are not checked. */
  readonly toolInputSchema?: (name: string) => unknown;
  /** A request running longer than this is aborted and answered `-32603` "Request timed out after N ms" (`subscriptions/listen` excepted). Default: none. */
  readonly requestTimeoutMs?: number;
  /** Open `subscriptions/listen` streams at once, legacy sessions' GET streams included; one more is answered `-32603` with status 503. Default: 256. */
  readonly maxSubscriptions?: number;
  /** On {@link HttpServer.close}: how long requests in flight may still finish before they are aborted and answered `-32603`. Default: 5000. */
  readonly shutdownGraceMs?: number;
  /** Time to receive a request's headers (node:http `headersTimeout`); then 408 and the connection is closed. Default: 10000. */
  readonly headersTimeoutMs?: number;
  /** Time to receive a whole request, headers and body (node:http `requestTimeout`); then 408 and the connection is closed. Default: 30000. */
  readonly receiveTimeoutMs?: number;
  /** How long an idle keep-alive connection is kept open (node:http `keepAliveTimeout`). Default: 5000. */
  readonly keepAliveTimeoutMs?: number;
  /**
   * Time for the client to take an answer the server has finished writing (until the system has
   * it all); then the connection is closed, so a client that never reads cannot make the server
   * hold its answers. Default: 30000.
   */
  readonly sendTimeoutMs?: number;
  /**
   * JSON-RPC requests being answered at once (`subscriptions/listen` streams included, and each
   * request of a batch); one more is answered `-32603` "Server busy" with status 503 (a batch: each of
   * its requests, by id, in an array), its connection kept, so that pipelined requests cannot make
   * the server hold unbounded memory. A client's response, a notification and a DELETE are always
   * taken: they are what ends the requests in flight. A batch larger than the cap is taken when no
   * other request is in flight. An integer of at least 1, or `Infinity` (no cap); else `RangeError`.
   * Default: 1024.
   */
  readonly maxRequestsInFlight?: number;
  /**
   * Requests of one connection being received or answered at once (HTTP/1.1 pipelining: a client
   * may send requests before the answers to earlier ones); one more JSON-RPC request is answered
   * `-32603` "Server busy" with status 503, its connection kept (responses, notifications and
   * DELETEs are always taken); a batch larger than the cap is taken when the connection has no other
   * request in flight. An integer of at least 1, or `Infinity` (no cap); else `RangeError`. Default: 16.
   */
  readonly maxRequestsPerConnection?: number;
  /** Open connections at once (node:http `maxConnections`); one more is closed as soon as it is accepted. Default: 512. */
  readonly maxConnections?: number;
  /** Connections the system queues before they are accepted (`listen` backlog; the system may cap it, Linux at `net.core.somaxconn`). Default: 2048. */
  readonly backlog?: number;
  /** Where legacy sessions (`Mcp-Session-Id`) are kept. Default: {@link createMemorySessionStore}, in this process. */
  readonly sessionStore?: SessionStore;
  /**
   * Legacy sessions at once. When full, an `initialize` opening one more first removes expired
   * sessions, then gives up one idle session (no request in flight, no GET stream): the oldest one
   * never used after its `initialize`, else, once the new session is kept (the `initialize`
   * succeeded), the least recently active one idle for at least `sessionEvictAfterMs`. A session
   * given up is answered 404 afterwards, and its client starts a new session, as the spec's
   * session management asks of clients. When no session can be given up, the `initialize` is
   * answered `-32603` with status 503. Default: 1000.
   */
  readonly maxSessions?: number;
  /** How long a used session must have been idle before a new session may take its place when `maxSessions` are open, in ms. Default: 60000 (1 minute). */
  readonly sessionEvictAfterMs?: number;
  /** A legacy session with no request in flight and no GET stream open for this long expires: it is closed, and its id answered 404. Default: 1800000 (30 minutes). */
  readonly sessionIdleMs?: number;
  /**
   * Makes a new session's `Mcp-Session-Id`: unguessable, unique, visible ASCII only (0x21–0x7E), at
   * most 256 characters (another answer fails that `initialize` with `-32603`, status 500). For
   * example, an instance name and a UUID, so that a proxy can route a session to the instance that
   * opened it. Default: `crypto.randomUUID()`.
   */
  readonly createSessionId?: () => string;
}

/** A legacy session as a {@link SessionStore} keeps it. */
export interface LegacySessionRecord {
  /** The channel the dispatcher keys the session by (`HandleContext.channel`): what it negotiated, requests in flight, subscriptions. */
  readonly channel: object;
  /** The protocol version negotiated at `initialize`. */
  readonly protocolVersion: string;
  /** When the session was last used (`Date.now()`): a request arrived or ended, or its GET stream closed. */
  readonly lastActive: number;
}

/**
 * Storage of legacy sessions by `Mcp-Session-Id`. It only stores: the endpoint applies
 * `maxSessions` (through `size`) and `sessionIdleMs` (through `lastActive`), and closes sessions.
 */
export interface SessionStore {
  get(id: string): LegacySessionRecord | undefined;
  set(id: string, record: LegacySessionRecord): void;
  delete(id: string): void;
  readonly size: number;
}

/** The default {@link SessionStore}: a `Map` in this process. */
export function createMemorySessionStore(): SessionStore {
  const records = new Map<string, LegacySessionRecord>();
  return {
    get: (id) => records.get(id),
    set: (id, record) => void records.set(id, record),
    delete: (id) => void records.delete(id),
    get size() {
      return records.size;
    },
  };
}

/** A running HTTP server. */
export interface HttpServer {
  readonly server: import("node:http").Server;
  /** `http://host:port/path` of the MCP endpoint. */
  readonly url: string;
  /** Shuts down gracefully (see {@link HttpOptions.shutdownGraceMs}); resolves when every connection is closed. */
  close(): Promise<void>;
}

const PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
/** What a legacy client without a session is told. */
const HOW_A_SESSION_STARTS = "a 2025-11-25 client opens a session with initialize and sends its Mcp-Session-Id after it";

/** The method a legacy client (2025-11-25 and earlier) opens with (draft basic/versioning). */
const LEGACY_HANDSHAKE = "initialize";
/** Methods whose `Mcp-Name` header mirrors a params member (§ Standard Request Headers). */
const NAME_SOURCES: ReadonlyMap<string, string> = new Map([
  ["tools/call", "name"],
  ["prompts/get", "name"],
  ["resources/read", "uri"],
]);
const BAD_REQUEST = new Set([-32700, -32600, -32602, -32020, -32021, -32022]);
const LISTEN = "subscriptions/listen";
const SHUTTING_DOWN = "Server shutting down";
/** The `Host` names {@link serveHttp} answers by default (`allowedHosts`): the loopback ones, which a DNS-rebinding page cannot name. */
export const DEFAULT_ALLOWED_HOSTS: readonly string[] = Object.freeze(["localhost", "127.0.0.1", "[::1]"]);
/** A 2025-11-25 client's `initialize`: asks the dispatcher whether it serves the legacy era at all. */
const LEGACY_PROBE = {
  jsonrpc: "2.0",
  id: 0,
  method: LEGACY_HANDSHAKE,
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "probe", version: "0" } },
};

/**
 * The HTTP status of a JSON-RPC response: 400 for the codes of {@link BAD_REQUEST}, 404 for
 * `-32601` (draft basic/transports/streamable-http § Request Metadata), else 200. A `-32603` (a
 * handler that threw, a request timed out or aborted at shutdown) is the answer to the request,
 * carried in-band with 200 as other handler errors are: a client reads the body of a 200 or a 400
 * as JSON-RPC, and may take any other status as a transport failure (the SDK v2 client does;
 * before, it saw an HTTP error, not the `-32603`). 500 stays for what fails in the transport
 * itself.
 */
export function statusOf(response: DispatchResponse): number {
  if (!("error" in response)) return 200;
  const code = response.error.code;
  if (BAD_REQUEST.has(code)) return 400;
  if (code === -32601) return 404;
  return 200;
}

/** The header `name` (a list of codings) when it names one other than those `taken` (lower case); else `undefined`. */
function codingOtherThan(req: IncomingMessage, name: string, taken: readonly string[]): string | undefined {
  const value = header(req, name);
  return value !== undefined && !value.split(",").every((c) => taken.includes(c.trim().toLowerCase())) ? value : undefined;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/**
 * Whether an `Accept` header value takes an SSE stream (RFC 9110 § 12.5.1): absent, or the most
 * specific media range naming it (`text/event-stream`, else `text/*`, else the any-type wildcard)
 * has no `q=0`, as a more specific range overrides a less specific one: `text/event-stream;q=0`
 * beside the any-type wildcard refuses it. A client that lists only `application/json` breaks a
 * MUST of basic/transports (both are listed), but it is answered in the one type it takes: its
 * POSTs get JSON, without the notifications that would need a stream.
 */
export function acceptsEventStream(accept: string | undefined): boolean {
  return eventStreamAccepted(accept) !== undefined;
}

/**
 * How an `Accept` header value takes an SSE stream, read as {@link acceptsEventStream} reads it:
 * `"named"` when the range taking it is `text/event-stream` itself, `"range"` when a wider one is
 * (`text/*`, the any-type wildcard, or no header at all: curl's and scripts' way, which may parse JSON
 * only), `undefined` when it is refused.
 */
function eventStreamAccepted(accept: string | undefined): "named" | "range" | undefined {
  if (accept === undefined) return "range";
  let specificity = 0;
  let weight = 0;
  for (const range of accept.split(",")) {
    const [type = "", ...params] = range.split(";").map((part) => part.trim().toLowerCase());
    const rank = type === "text/event-stream" ? 3 : type === "text/*" ? 2 : type === "*/*" ? 1 : 0;
    if (rank === 0 || rank < specificity) continue;
    const q = params.find((param) => /^q\s*=/.test(param));
    const value = q === undefined ? 1 : Number(q.slice(q.indexOf("=") + 1).trim());
    const taken = value > 0 ? value : 0;
    weight = rank > specificity ? taken : Math.max(weight, taken);
    specificity = rank;
  }
  return weight > 0 ? (specificity === 3 ? "named" : "range") : undefined;
}

/**
 * The authority (`host[:port]`) of a request target in absolute form (`http://host:port/mcp`,
 * RFC 9112 § 3.2.2), which stands for the Host header; `undefined` for the usual origin form
 * (`/mcp`). A target in absolute form that does not parse gives "" (no host is allowed).
 */
function absoluteTargetHost(target: string | undefined): string | undefined {
  if (target === undefined || !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(target)) return undefined;
  try {
    return new URL(target).host;
  } catch {
    return "";
  }
}

/**
 * The URL a request target names (RFC 9112 § 3.2): in origin form (`/mcp?x`) its path is read as
 * a path whatever it starts with (`//evil.example/mcp` is a path of an empty first segment, not a
 * host; before, it was served as `/mcp`); in absolute form, the URL itself.
 *
 * @throws TypeError for a target that is neither (`*`, `host:port`) or does not parse
 */
function targetUrl(target: string | undefined): URL {
  const given = target ?? "/";
  return new URL(given.startsWith("/") ? `http://localhost${given}` : given);
}

/**
 * `host:port` or `[v6]:port` → the host name; `undefined` for a value that is no `host[:port]`.
 * A name may hold every unreserved character of a reg-name (RFC 3986 § 3.2.2), `_` and `~`
 * included: a Docker service or an nginx `upstream` block is named `mcp_server`, and a proxy
 * sends that name as `Host`.
 */
function hostName(host: string): string | undefined {
  const m = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~-]+)(?::\d{1,5})?$/.exec(host.trim());
  return m === null ? undefined : m[1]!.toLowerCase();
}

/**
 * How to name, as a `Host` header does, what {@link hostName} does not take as given: an IPv6
 * address in brackets and without a zone (`fd00::5` has no scheme or port, and saying to drop
 * them sent its owner nowhere), anything else without a scheme or port.
 */
function hostNameHint(given: string): string {
  const address = given.replace(/^\[(.*)\]$/, "$1");
  if (isIPv6(address)) return `name an IPv6 address in brackets, without a zone, as a Host header does ([${address.replace(/%.*$/, "")}])`;
  return "name a host as a Host header does, without a scheme or port (mcp.example.com)";
}

const SENTINEL = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/;

/**
 * A header value after the Base64 sentinel (`=?base64?…?=`, § Value Encoding) is decoded;
 * `undefined` for a malformed sentinel or characters a header value may not hold.
 */
export function decodeHeaderValue(value: string): string | undefined {
  if (!/^[\t\x20-\x7e]*$/.test(value)) return undefined;
  if (value.startsWith("=?base64?") && value.endsWith("?=")) {
    const m = SENTINEL.exec(value);
    if (m === null || m[1]!.length % 4 !== 0) return undefined;
    const bytes = Buffer.from(m[1]!, "base64");
    const text = new TextDecoder("utf-8", { fatal: true });
    try {
      return text.decode(bytes);
    } catch {
      return undefined;
    }
  }
  return value.trim();
}

/**
 * The primitive value at `x-mcp-header` parameters of an `inputSchema`: header name, lowercased (header names are
 * case-insensitive) → the name as the tool writes it (for messages) and the property path (§ Custom Headers from Tool Parameters).
 */
function mcpParamHeaders(
  schema: unknown,
  path: readonly string[] = [],
  out = new Map<string, { readonly name: string; readonly path: readonly string[] }>(),
): Map<string, { readonly name: string; readonly path: readonly string[] }> {
  if (!isPlainObject(schema) || path.length > 32) return out;
  const properties = own(schema, "properties");
  if (!isPlainObject(properties)) return out;
  for (const key of Object.keys(properties)) {
    const sub: unknown = properties[key];
    if (!isPlainObject(sub)) continue;
    const name = own(sub, "x-mcp-header");
    if (typeof name === "string" && name !== "") out.set(name.toLowerCase(), { name, path: [...path, key] });
    mcpParamHeaders(sub, [...path, key], out);
  }
  return out;
}

function headerText(v: unknown): string | undefined {
  if (typeof v === "string") return v;
  if (typeof v === "boolean") return String(v);
  if (typeof v === "number" && Number.isSafeInteger(v)) return String(v);
  return undefined;
}

/** What is wrong with the request metadata headers of a parsed request, or `undefined`. */
function headerMismatch(req: IncomingMessage, message: { readonly [key: string]: unknown }, options: HttpOptions): string | undefined {
  const method = own(message, "method");
  const rawParams = own(message, "params");
  const params: { readonly [key: string]: unknown } = isPlainObject(rawParams) ? rawParams : {};
  const rawMeta = own(params, "_meta");
  const bodyVersion = isPlainObject(rawMeta) ? own(rawMeta, PROTOCOL_VERSION_KEY) : undefined;
  // A legacy client's opening request (no per-request _meta version) carries none of the modern
  // headers: the dispatcher answers it (a modern-only one with -32022 naming the versions it serves).
  if (method === LEGACY_HANDSHAKE && bodyVersion === undefined) return undefined;
  // A version that is no string names no revision to hold the headers to: the dispatcher answers it (-32602, what is wrong
  // with the _meta), not a header it then looks for (a version of 42 was told its Mcp-Method header is missing).
  if (bodyVersion !== undefined && typeof bodyVersion !== "string") return undefined;
  const version = header(req, "mcp-protocol-version");
  if (typeof bodyVersion === "string") {
    if (version === undefined) return "the MCP-Protocol-Version header is missing";
    if (version.trim() !== bodyVersion) return `MCP-Protocol-Version header ${JSON.stringify(version)} does not match the body's ${JSON.stringify(bodyVersion)}`;
  }
  const mcpMethod = header(req, "mcp-method");
  if (mcpMethod === undefined) return "the Mcp-Method header is missing";
  if (mcpMethod.trim() !== method) return `Mcp-Method header ${JSON.stringify(mcpMethod)} does not match the body's method`;
  const source = typeof method === "string" ? NAME_SOURCES.get(method) : undefined;
  const bodyName = source === undefined ? undefined : own(params, source);
  if (typeof bodyName === "string") {
    const raw = header(req, "mcp-name");
    if (raw === undefined) return "the Mcp-Name header is missing";
    const name = decodeHeaderValue(raw);
    if (name === undefined) return "the Mcp-Name header is malformed";
    if (name !== bodyName) return `Mcp-Name header does not match the body's params.${source}`;
  }
  if (method === "tools/call" && typeof bodyName === "string" && options.toolInputSchema !== undefined) {
    const rawArgs = own(params, "arguments");
    const args = isPlainObject(rawArgs) ? rawArgs : {};
    for (const [lowered, { name, path }] of mcpParamHeaders(options.toolInputSchema(bodyName))) {
      let value: unknown = args;
      for (const key of path) value = isPlainObject(value) ? own(value, key) : undefined;
      const raw = header(req, "mcp-param-" + lowered);
      if (value === undefined || value === null) {
        // The client omits the header when the argument is absent: a header without its argument disagrees with the body.
        if (raw !== undefined) return `the Mcp-Param-${name} header names an argument the body does not have`;
        continue;
      }
      if (raw === undefined) {
        // nginx drops header names holding "_" unless told otherwise; a client sent it, most likely.
        const dropped = name.includes("_") ? " (proxies drop header names with \"_\" by default: nginx needs underscores_in_headers on)" : "";
        return `the Mcp-Param-${name} header is missing${dropped}`;
      }
      const decoded = decodeHeaderValue(raw);
      if (decoded === undefined) return `the Mcp-Param-${name} header is malformed`;
      // Integers compare numerically (42.0 is 42), only written as decimal numbers, and only in the range a double holds exactly.
      const same =
        typeof value === "number"
          ? Number.isSafeInteger(value) && /^-?\d+(?:\.0+)?$/.test(decoded) && Number.isSafeInteger(Number(decoded)) && Number(decoded) === value
          : decoded === headerText(value);
      if (!same) return `Mcp-Param-${name} header does not match the arguments`;
    }
  }
  return undefined;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  let text = wireText(body);
  if (text === undefined) {
    // Not a response that could be answered in its place: a last line of defence.
    status = 500;
    text = JSON.stringify({ jsonrpc: "2.0", error: { code: -32603, message: "Internal error" } });
  }
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/**
 * Closes `res`'s connection when the answer written to it has not all reached the system within
 * `ms`: the client is not reading, and the rest would stay in this process's memory. Nothing to
 * do when the answer is not finished yet (a stream still open) or has reached the system. The
 * timer goes with the connection too ({@link onGone}): an answer queued behind another on it
 * (pipelined) gets no `close` when the connection goes, and the timer kept all it held.
 */
function flushWithin(req: IncomingMessage, res: ServerResponse, ms: number): void {
  if (!res.writableEnded || res.writableFinished || res.destroyed) return;
  const timer = setTimeout(() => res.destroy(), ms);
  timer.unref();
  const clear = () => clearTimeout(timer);
  res.once("finish", clear);
  onGone(req, res, clear);
}

/**
 * An option that counts something, `fallback` when not given; `Infinity` is no cap.
 * @throws RangeError when it is neither an integer of at least 1 nor `Infinity`.
 */
function atLeastOne(by: string, name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (value !== Number.POSITIVE_INFINITY && (!Number.isInteger(value) || value < 1)) {
    throw new RangeError(`${by}: ${name} must be an integer of at least 1 (or Infinity: no cap), got ${String(value)}`);
  }
  return value;
}

/** The longest delay node's timers take (2^31 - 1 ms, about 24.8 days); a longer one, Infinity too, runs after 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A JSON-RPC error response, with the request's `id` when it is one. */
function errorBody(id: unknown, code: number, message: string): unknown {
  const error = { code, message };
  return typeof id === "string" || typeof id === "number" ? { jsonrpc: "2.0", id, error } : { jsonrpc: "2.0", error };
}

const NO_BYTES: Buffer = Buffer.alloc(0);

/**
 * The headers of every SSE stream: not cached, and not buffered by a proxy in front (nginx reads
 * `X-Accel-Buffering`), so that each event reaches the client as it is written.
 */
const SSE_HEADERS: { readonly [name: string]: string } = Object.freeze({ "content-type": "text/event-stream", "cache-control": "no-cache", "x-accel-buffering": "no" });

/** A reader this far behind on an SSE stream has the stream closed, rather than the server holding what it has not read. */
const STREAM_BACKLOG_BYTES = 16 * 1024 * 1024;

/**
 * What the SSE streams of one endpoint and its answers written may hold together that their readers
 * have not taken, in bytes: past it, when a stream more than {@link STREAM_BEHIND_BYTES} behind is
 * written to or an answer is, those furthest behind are closed until all hold no more
 * ({@link shedBacklog}). Each stream alone is bounded by {@link STREAM_BACKLOG_BYTES}; without a
 * bound over all of them, 20 streams never read held 437 MiB, and `maxSubscriptions` (256) could
 * hold 4 GiB.
 */
const STREAMS_BACKLOG_BYTES = 128 * 1024 * 1024;

/** A stream this far behind counts as one whose reader is behind (see {@link STREAMS_BACKLOG_BYTES}); a reader keeping up holds less. */
const STREAM_BEHIND_BYTES = 256 * 1024;

/**
 * Whether `res` is closed, or its connection is: a response queued behind another on its connection
 * (HTTP/1.1 pipelining) has no socket yet, and closing it alone closes nothing until it has one.
 */
function gone(res: ServerResponse): boolean {
  return res.destroyed || res.req.socket.destroyed;
}

/** The period of {@link Sending.ticks}, in milliseconds. */
const SENDING_TICK_MS = 250;

/**
 * How many ticks of {@link Sending.ticks} (about a second) a response must have been counted
 * before it can be closed for the bound over all of them ({@link STREAMS_BACKLOG_BYTES}): answers
 * written at one moment to clients that read at once (forty of 4 MiB, 160 MiB for an instant) are
 * taken whole, and only those still behind after that are closed.
 */
const SHED_AFTER_TICKS = 4;

/**
 * The responses of one endpoint that may hold much their readers have not taken (SSE streams, and
 * answers written but not yet taken), each with the tick it began to be counted at. `ticks` counts
 * timer runs while any is behind ({@link tick}): a timer runs only after the event loop has polled the sockets,
 * so a server busy for a second writing forty answers does not take the readers it kept waiting as
 * stalled, as a clock would.
 */
interface Sending {
  readonly responses: Map<ServerResponse, number>;
  ticks: number;
  ticker: ReturnType<typeof setInterval> | undefined;
}

/**
 * Starts `sending`'s ticks unless they run. They stop at a tick that finds no response more than
 * {@link STREAM_BEHIND_BYTES} behind: a server whose listen streams are open for hours, all read,
 * is not woken four times a second.
 */
function tick(sending: Sending): void {
  if (sending.ticker !== undefined) return;
  const ticker = setInterval(() => {
    sending.ticks++;
    for (const res of sending.responses.keys()) if (!gone(res) && res.writableLength > STREAM_BEHIND_BYTES) return;
    clearInterval(ticker);
    sending.ticker = undefined;
  }, SENDING_TICK_MS);
  ticker.unref();
  sending.ticker = ticker;
}

/** The bytes `streams` hold that their readers have not taken (a stream closed holds none). */
function unreadBytes(streams: ReadonlyMap<ServerResponse, number>): number {
  let total = 0;
  for (const res of streams.keys()) if (!gone(res)) total += res.writableLength;
  return total;
}

/**
 * While the responses of `sending` hold more than {@link STREAMS_BACKLOG_BYTES} unread, closes the
 * connection furthest behind, of those more than {@link STREAM_BEHIND_BYTES} behind whose oldest
 * response was counted at least {@link SHED_AFTER_TICKS} ticks ago, but for `spared`'s (an answer
 * written now, which its client has had no time to take). Closing the stream written to instead closed a reader taking
 * everything at once whose handler wrote 1 MiB of notifications in one go (node:http holds them until
 * the socket takes them) while a dozen clients that had read nothing of their 12 MiB answers kept them.
 * A connection is behind by all it holds: the answers queued behind another (pipelined) wait for it,
 * and they are freed only with the connection (`res.destroy()` on one of them closed nothing until
 * its turn came: six connections that pipelined an answer of 4 MiB and three of 14 MiB, and read
 * nothing, held 276 MiB).
 */
function shedBacklog(sending: Sending, spared?: ServerResponse): void {
  const open = sending.responses;
  let total = unreadBytes(open);
  if (total <= STREAMS_BACKLOG_BYTES) return;
  const connections = new Map<Socket, { bytes: number; since: number; responses: ServerResponse[] }>();
  for (const [res, since] of open) {
    if (gone(res)) continue;
    const socket = res.req.socket;
    const connection = connections.get(socket) ?? { bytes: 0, since, responses: [] };
    connection.bytes += res.writableLength;
    connection.since = Math.min(connection.since, since);
    connection.responses.push(res);
    connections.set(socket, connection);
  }
  if (spared !== undefined) connections.delete(spared.req.socket);
  const before = sending.ticks - SHED_AFTER_TICKS;
  const behind = [...connections].filter(([, connection]) => connection.bytes > STREAM_BEHIND_BYTES && connection.since <= before);
  behind.sort(([, a], [, b]) => b.bytes - a.bytes);
  for (const [socket, connection] of behind) {
    if (total <= STREAMS_BACKLOG_BYTES) return;
    total -= connection.bytes;
    for (const res of connection.responses) res.destroy();
    socket.destroy();
  }
}

/**
 * Writes one message to an SSE stream of `open` (the endpoint's open streams); false when the
 * stream is closed, or was closed now: its reader more than {@link STREAM_BACKLOG_BYTES} behind,
 * or furthest behind while all streams hold more than {@link STREAMS_BACKLOG_BYTES}.
 */
function writeEvent(res: ServerResponse, message: unknown, open: Sending): boolean {
  if (res.writableEnded || gone(res)) return false;
  const behind = res.writableLength;
  if (behind > STREAM_BEHIND_BYTES && behind <= STREAM_BACKLOG_BYTES) {
    tick(open);
    shedBacklog(open);
  }
  if (behind > STREAM_BACKLOG_BYTES || gone(res)) {
    res.destroy();
    return false;
  }
  const text = wireText(message);
  if (text !== undefined) res.write("event: message\ndata: " + text + "\n\n");
  return true;
}

/** Whether the dispatcher's answer is a batch's: the array of the responses to its requests. */
function isBatchAnswer(answer: DispatchResponse | readonly DispatchResponse[]): answer is readonly DispatchResponse[] {
  return Array.isArray(answer);
}

/** Whether a batch holds a request (an element with `method` and `id`): its POST is then answered with responses, not 202. */
function holdsRequest(batch: readonly unknown[]): boolean {
  return batch.some((m) => isPlainObject(m) && typeof own(m, "method") === "string" && own(m, "id") !== undefined);
}

/** Whether a message names the modern per-request protocol version (`params._meta`). */
function isModern(message: unknown): boolean {
  if (!isPlainObject(message)) return false;
  const params: unknown = own(message, "params");
  const meta: unknown = isPlainObject(params) ? own(params, "_meta") : undefined;
  return isPlainObject(meta) && own(meta, PROTOCOL_VERSION_KEY) !== undefined;
}

function forbidden(res: ServerResponse, why: string): void {
  sendJson(res, 403, { jsonrpc: "2.0", error: { code: -32600, message: "Forbidden: " + why } });
}

/**
 * Answers a body it will not take (`status`: 413 over `limit` bytes, 503 past the bodies' budget,
 * 400 for a request with more than one `Host` line) and closes the connection, but only once the
 * client has sent the rest, which is read and dropped: a connection closed with unread data is
 * reset, and a client still sending would see the reset (EPIPE, ECONNRESET) instead of the
 * answer, which it can read whole at once (it has a `content-length`). A client that goes on past
 * {@link DRAIN_BYTES} more bytes (or `limit`, when larger) has its connection closed then.
 */
function refuseBody(req: IncomingMessage, res: ServerResponse, limit: number, status: number, message: string): void {
  if (res.headersSent) return;
  const text = JSON.stringify({ jsonrpc: "2.0", error: { code: status === 503 ? -32603 : -32600, message } });
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), connection: "close" });
  res.write(text);
  const end = (): void => {
    if (!res.writableEnded) res.end();
  };
  let dropped = 0;
  req.on("data", (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped <= Math.max(limit, DRAIN_BYTES)) return;
    end();
    req.socket.destroy();
  });
  if (req.readableEnded || req.destroyed) return end();
  req.once("end", end);
  req.once("close", end);
  req.resume();
}

/** The most requests of a batch refused as busy that are answered one by one (the dispatcher's default `maxBatchSize`); more get one answer. */
const MAX_BATCH_ANSWERS = 64;

/** What waits for each connection to close: see {@link onGone}. */
const connectionWaiters = new WeakMap<object, Set<() => void>>();

/**
 * Calls `gone` once, when `res` closes (its answer finished, or its connection lost) or when
 * `req`'s connection closes, whichever comes first; at once when the connection is closed already.
 * A response pipelined behind another on its connection (HTTP/1.1) has no socket yet, and node:http
 * emits no `close` for it when the connection goes: only the connection says so. One listener per
 * connection serves every response waiting on it.
 */
function onGone(req: IncomingMessage, res: ServerResponse, gone: () => void): void {
  const socket = req.socket as IncomingMessage["socket"] | null;
  let waiters = socket ? connectionWaiters.get(socket) : undefined;
  let called = false;
  const once = (): void => {
    if (called) return;
    called = true;
    res.off("close", once);
    waiters?.delete(once);
    gone();
  };
  if (res.destroyed || socket == null || socket.destroyed) return once();
  res.once("close", once);
  if (waiters === undefined) {
    const all = (waiters = new Set());
    connectionWaiters.set(socket, all);
    socket.once("close", () => {
      connectionWaiters.delete(socket);
      for (const waiter of [...all]) waiter();
    });
  }
  waiters.add(once);
}

/** The message of a 503 for a request past `maxBodyBytesInFlight` (`max`). */
const BODIES_BUSY = (max: number): string => `Server busy: the bodies of the requests in flight reach maxBodyBytesInFlight (${max} bytes); try again later`;

/** The message of a 413: the body is over `limit` bytes (`maxBodyBytes`). */
function tooLarge(limit: number): string {
  return `Invalid request: the body is larger than ${limit} bytes`;
}

/** A body refused (see {@link refuseBody}): how much more of it is read and dropped so that the client reads the answer. */
const DRAIN_BYTES = 16 * 1024 * 1024;

/**
 * At a shutdown, how long a body still arriving at the end of the grace period is read (and
 * dropped) after its 503, in milliseconds, before its connection is closed.
 */
const SHUTDOWN_DRAIN_MS = 1000;

/** The bytes of the bodies the server holds at once: the requests being received and served. */
interface BodyBudget {
  used: number;
  readonly max: number;
}

/**
 * Reads a request's body, at most `limit` bytes (else 413), counting it against `budget` until the
 * response is finished or its connection closed (past the budget: 503 "Server busy"); `keep(n)`
 * sets the count to `n` bytes once the body is parsed, what the request holds from then on (at
 * most the whole budget), and answers `false`, changing nothing, when that would pass the budget.
 * `undefined` when it was answered so, or the request failed.
 */
function readBody(req: IncomingMessage, res: ServerResponse, limit: number, budget: BodyBudget): Promise<{ readonly bytes: Buffer; keep(n: number): boolean } | undefined> {
  return new Promise((resolve) => {
    const declared = Number(header(req, "content-length"));
    if (Number.isFinite(declared) && declared > limit) {
      refuseBody(req, res, limit, 413, tooLarge(limit));
      resolve(undefined);
      return;
    }
    let held = 0;
    onGone(req, res, () => {
      budget.used -= held;
      held = 0;
    });
    // The body so far: the first chunk as it came, then one array grown by doubling (to at most `limit`). A chunked body of
    // 1-byte chunks arrives as a Buffer a byte holding the socket's read buffer: kept as they came, one body of 4 MiB took
    // the server to 1.6 GB.
    let body: Uint8Array = NO_BYTES;
    let size = 0;
    let done = false;
    req.on("data", (chunk: Buffer) => {
      // Answered meanwhile (503 at the end of the shutdown's grace period): the rest is dropped.
      if (done || res.headersSent) {
        done = true;
        body = NO_BYTES;
        return;
      }
      const busy = budget.used + chunk.length > budget.max;
      if (size + chunk.length > limit || busy) {
        done = true;
        body = NO_BYTES;
        budget.used -= held;
        held = 0;
        if (size + chunk.length > limit) refuseBody(req, res, limit, 413, tooLarge(limit));
        else refuseBody(req, res, limit, 503, BODIES_BUSY(budget.max));
        resolve(undefined);
        return;
      }
      budget.used += chunk.length;
      held += chunk.length;
      body = size === 0 ? chunk : appendBytes(body, size, chunk, limit);
      size += chunk.length;
    });
    req.on("end", () => {
      if (done) return;
      // The listeners live as long as the request: they must not keep the body.
      const bytes = Buffer.from(body.buffer, body.byteOffset, size);
      body = NO_BYTES;
      const keep = (n: number): boolean => {
        const kept = Math.max(0, Math.min(n, budget.max));
        if (kept > held && budget.used - held + kept > budget.max) return false;
        budget.used += kept - held;
        held = kept;
        return true;
      };
      resolve({ bytes, keep });
    });
    req.on("error", () => {
      if (!done) resolve(undefined);
      done = true;
    });
  });
}

/** One HTTP request being served: whether it reached the dispatcher, and its own deadline when it has a time limit. */
interface Exchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  timed: AbortController | undefined;
  /** Resolves when the response is finished or its connection closed ({@link onGone}). */
  readonly done: Promise<void>;
  dispatched: boolean;
}

/** The request listener and what a graceful shutdown needs of it. */
interface Endpoint {
  readonly listener: HttpHandler;
  /** {@link MountedHttpHandler.continueTo}. */
  readonly continueTo: MountedHttpHandler["continueTo"];
  /** Refuses new requests, ends listen streams, waits `shutdownGraceMs` for requests in flight, then answers the rest `-32603`. */
  shutdown(): Promise<void>;
  /** Whether a request that came on `socket` is not done yet: its answer is still to be written, or to be taken by the client. */
  inUse(socket: Socket): boolean;
}

/**
 * A request listener serving the MCP endpoint. Behind code that has read the request's body
 * already (a body parser, as in Express with `express.json()`), pass that body as `body`: the
 * parsed JSON value (a string is one too: a JSON string, which is no message), or the raw body as
 * a `Buffer` (then it is decoded and parsed here, as a body read from `req` is). Without it the
 * body is read from `req`; when `req` was read to its end already, the request is answered 500
 * `-32603` saying so, instead of waiting for a body that will not come.
 */
export type HttpHandler = (req: IncomingMessage, res: ServerResponse, body?: unknown) => void;

/** What {@link createHttpHandler} returns: the request listener, and {@link MountedHttpHandler.continueTo} for `Expect: 100-continue`. */
export interface MountedHttpHandler extends HttpHandler {
  /**
   * A listener for node:http's `checkContinue` event, which takes every request with
   * `Expect: 100-continue` instead of the server's request listener:
   * `server.on("checkContinue", handler.continueTo(app))`, where `app` is that request listener
   * (your routing and authentication, which then serve the request as any other). A request to
   * this endpoint whose declared body is over `maxBodyBytes` is answered 413 at once, before `app`
   * (RFC 9110 § 10.1.1: the client need not send the body); any other is told to go on
   * (`100 Continue`) and handed to `app`. Without it node:http tells every such client to go on and
   * the body is refused once read.
   */
  continueTo(app: (req: IncomingMessage, res: ServerResponse) => void): (req: IncomingMessage, res: ServerResponse) => void;
}

/**
 * A `node:http` request listener serving `dispatcher` at the MCP endpoint, to mount in a server of
 * one's own (without graceful shutdown, and the time limits and connection caps of the server:
 * {@link serveHttp} has them). See {@link HttpHandler} for a body read before it, and
 * {@link MountedHttpHandler.continueTo} for `Expect: 100-continue`.
 */
export function createHttpHandler(dispatcher: TransportDispatcher, options: HttpOptions = {}): MountedHttpHandler {
  const { listener, continueTo } = endpoint(dispatcher, options, "createHttpHandler");
  return Object.assign(listener, { continueTo });
}

/** One legacy session as this process serves it: its standalone GET stream and how many of its POSTs are running. */
interface LiveSession {
  readonly channel: object;
  stream: ServerResponse | undefined;
  busy: number;
  /** Whether the client did anything after `initialize` (a POST or a GET) in this process: a session never used is the first given up when sessions run out. */
  used: boolean;
  /** The `lastActive` its record got when the session was kept: a later one means a request came, in some process sharing the store. */
  openedAt: number;
  /** `HandleContext.push` of the session, the same function for every request: to the GET stream when one is open. */
  readonly push: (message: OutgoingMessage) => boolean;
}

/** How a POST's message reaches the dispatcher. */
interface Route {
  readonly channel: object;
  readonly push?: (message: OutgoingMessage) => boolean;
  /** A legacy session's message: JSON-RPC errors to a request are sent with status 200 (an error without id, input not taken, with its 4xx). */
  readonly legacy: boolean;
  readonly sessionId?: string;
  /** The `initialize` opening a session: its id (on the SSE stream's headers, sent before the answer is known), and what keeps or drops the session once the answer is known (true: keep it, send its id). */
  readonly opening?: { readonly id: string; readonly settle: (response: DispatchResponse | undefined) => boolean };
}

/** What serves the endpoint for {@link serveHttp} and {@link createHttpHandler}; `by` names the one that made it, for messages. */
function endpoint(dispatcher: TransportDispatcher, options: HttpOptions, by: "serveHttp" | "createHttpHandler"): Endpoint {
  const path = options.path ?? "/mcp";
  const hosts = new Set((options.allowedHosts ?? DEFAULT_ALLOWED_HOSTS).map((h) => h.toLowerCase()));
  // A name with a port or a scheme would never match a Host, and every request naming it would be refused with a 403
  // that says to name it where it is named already.
  for (const h of hosts) {
    if (hostName(h) !== h) {
      const setting = options.allowedHostsSetting ?? `${by}'s allowedHosts`;
      throw new RangeError(`${setting} gives ${quoteShort(h)}, which is no host name: ${hostNameHint(h)}`);
    }
  }
  // The 403 for a Host not answered says where the hosts are configured. It lists the defaults (public, and the hosts
  // answered) only when allowedHosts was not given: configured names are not said to whoever sent a wrong Host.
  const hostsConfigured = `${options.allowedHostsSetting ?? `${by}'s allowedHosts`} names the hosts answered${options.allowedHosts === undefined ? `; by default ${DEFAULT_ALLOWED_HOSTS.join(", ")}` : ""}`;
  // The 403 for an Origin not answered says so too: by default an origin is answered when its host is.
  const originsConfigured =
    options.allowedOrigins !== undefined ? `${by}'s allowedOrigins names the origins answered` : `an http(s) origin is answered when its host is: ${hostsConfigured}`;
  // The SSE streams open (POST answers taking a stream, listen streams, legacy sessions' GET streams), and answers written
  // that their clients have not taken yet: see writeEvent and answerWritten.
  const sending: Sending = { responses: new Map(), ticks: 0, ticker: undefined };
  const trackSending = (req: IncomingMessage, res: ServerResponse): void => {
    if (sending.responses.has(res)) return;
    sending.responses.set(res, sending.ticks);
    onGone(req, res, () => sending.responses.delete(res));
  };
  // An answer the client has not taken counts with the streams: forty clients that asked for 8 MiB and read nothing held
  // 796 MiB until sendTimeoutMs closed their connections. Past the bound, the answers and streams furthest behind are
  // closed, but for this one.
  const answerWritten = (req: IncomingMessage, res: ServerResponse): void => {
    if (gone(res) || res.writableLength <= STREAM_BEHIND_BYTES) return;
    trackSending(req, res);
    tick(sending);
    shedBacklog(sending, res);
  };
  const limit = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const bodies: BodyBudget = { used: 0, max: Math.max(atLeastOne(by, "maxBodyBytesInFlight", options.maxBodyBytesInFlight, 128 * 1024 * 1024), limit) };
  // What one message may hold: a share of the budget, so that one client's few requests held open cannot fill it (when one
  // message could count 8 × maxBodyBytes, two listen streams held all of 64 MiB, and every other POST was 503), and at most
  // half of it, so that one is not kept waiting for ever beside a small request held open; never less than maxBodyBytes, so
  // that a body of strings the limit takes is served, even where the budget is that small.
  const messageCap = Math.max(limit, Math.min(Math.max(2 * limit, bodies.max / 16), bodies.max / 2));
  const messageCapIs =
    messageCap === limit ? "maxBodyBytes" : messageCap === 2 * limit ? "2 × maxBodyBytes" : `${messageCap === bodies.max / 2 ? "half" : "a sixteenth"} of the ${bodies.max}-byte budget of bodies in flight`;
  const keepAliveMs = atLeastOne(by, "keepAliveMs", options.keepAliveMs, 15000);
  // node runs a timer past 2^31 - 1 ms (Infinity too) after 1 ms: such an interval means no keep-alive at all (before, a
  // comment every millisecond on each stream, and every request silent for a millisecond answered on one).
  const keepsAlive = keepAliveMs <= MAX_TIMER_MS;
  const maxSubscriptions = options.maxSubscriptions ?? 256;
  const requestTimeoutMs = options.requestTimeoutMs;
  const sendTimeoutMs = options.sendTimeoutMs ?? 30_000;
  const shutdownGraceMs = options.shutdownGraceMs ?? 5000;
  const store = options.sessionStore ?? createMemorySessionStore();
  const maxSessions = options.maxSessions ?? 1000;
  const sessionIdleMs = options.sessionIdleMs ?? 30 * 60_000;
  const sessionEvictAfterMs = options.sessionEvictAfterMs ?? 60_000;
  const createSessionId = options.createSessionId ?? randomUUID;
  // Whether the dispatcher serves a legacy revision: only then do GET, DELETE and Mcp-Session-Id mean sessions. (The
  // session members are called with ?. so that a dispatcher typed without them, a modern-only one, is served as before.)
  const legacy = dispatcher.opensSession?.(LEGACY_PROBE) === true;
  // Long-lived streams share one budget, so that together they never take every connection.
  const tooManyStreams = legacy
    ? `Too many open streams (${LISTEN} and session GET streams together, at most ${maxSubscriptions}); close one first`
    : `Too many open ${LISTEN} streams (at most ${maxSubscriptions}); close one first`;
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  const exchanges = new Set<Exchange>();
  const maxRequestsInFlight = atLeastOne(by, "maxRequestsInFlight", options.maxRequestsInFlight, 1024);
  const maxRequestsPerConnection = atLeastOne(by, "maxRequestsPerConnection", options.maxRequestsPerConnection, 16);
  // The JSON-RPC requests taken and not answered yet (their responses not closed): in all, and on each connection (HTTP/1.1
  // pipelining), by its socket.
  let requestsInFlight = 0;
  const perConnection = new WeakMap<object, number>();
  // Every request's deadline: aborted when the shutdown's grace period is over. A request with a time limit gets its own.
  const shutdown = new AbortController();
  setMaxListeners(0, shutdown.signal);
  let streams = 0; // open subscriptions/listen streams and legacy GET streams
  let closing = false;
  const live = new Map<string, LiveSession>(); // legacy sessions this process serves, by id
  let opening = 0; // initialize requests being answered, each of which may add a session
  let sweeper: ReturnType<typeof setInterval> | undefined;
  const originAllowed = (origin: string): boolean => {
    if (options.allowedOrigins !== undefined) return options.allowedOrigins.includes(origin);
    try {
      const url = new URL(origin);
      // Only an origin (scheme://host[:port]), nothing after it.
      return url.origin === origin.toLowerCase() && (url.protocol === "http:" || url.protocol === "https:") && hosts.has(url.hostname.toLowerCase());
    } catch {
      return false;
    }
  };
  /**
   * Whether no request came after `res`'s on its connection (pipelined) that is still to be
   * answered: node:http drops the answers queued behind one that says `Connection: close`, so only
   * the last may say it (the connection is closed after the last answer all the same).
   */
  const lastOnConnection = (res: ServerResponse): boolean => {
    // By the requests' sockets: an answer queued behind another has none of its own yet.
    let socket: unknown;
    for (const exchange of exchanges) {
      if (exchange.res === res) socket = exchange.req.socket;
      else if (socket !== undefined && exchange.req.socket === socket) return false;
    }
    return true;
  };
  /** 503 with a JSON-RPC error, the connection closed after it (when no answer is queued behind it on the connection). */
  const unavailable = (res: ServerResponse, id: unknown, message: string): void => {
    if (res.headersSent) {
      res.end();
      return;
    }
    if (lastOnConnection(res)) res.setHeader("connection", "close");
    sendJson(res, 503, errorBody(id, -32603, message));
  };
  const notAllowed = (req: IncomingMessage, res: ServerResponse): void => {
    const message = !legacy
      ? "Method not allowed: the MCP endpoint accepts POST"
      : req.method === "GET" || req.method === "DELETE"
        ? `Method not allowed: ${req.method} needs the Mcp-Session-Id of a session opened with initialize`
        : "Method not allowed: the MCP endpoint accepts POST, and GET and DELETE within a session";
    res.writeHead(405, { allow: legacy ? "GET, POST, DELETE" : "POST", "content-type": "application/json" });
    res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32600, message } }));
  };

  // Legacy sessions. The store keeps the records; this process keeps their streams, and applies the limits.
  const newSession = (channel: object): LiveSession => {
    const session: LiveSession = {
      channel,
      stream: undefined,
      busy: 0,
      used: false,
      // Set when this process keeps the session it opened; 0 for one found in the store (opened elsewhere): taken as used.
      openedAt: 0,
      push: (message) => session.stream !== undefined && writeEvent(session.stream, message, sending),
    };
    return session;
  };
  const EXPIRED = `the session expired (idle for ${sessionIdleMs} ms)`;
  const GIVEN_UP = `the session was given up to make room for a new one (at most ${maxSessions} sessions)`;
  const GONE_FROM_STORE = "the session store no longer holds the session";
  /** Forgets a session: its record, its GET stream, and its channel in the dispatcher (`why` goes to the requests still waiting for the client, and to `onSessionClosed`). */
  const endSession = (id: string, channel: object, why: string): void => {
    const session = live.get(id);
    store.delete(id);
    live.delete(id);
    session?.stream?.end();
    dispatcher.closeChannel?.(channel, why);
  };
  const expired = (record: LegacySessionRecord, session: LiveSession | undefined, now: number): boolean =>
    (session === undefined || (session.busy === 0 && session.stream === undefined)) && now - record.lastActive >= sessionIdleMs;
  /** The session `id` names, unless it is unknown or expired (an expired one is closed now). */
  const findSession = (id: string): { readonly record: LegacySessionRecord; readonly session: LiveSession } | undefined => {
    const record = store.get(id);
    let session = live.get(id);
    if (record === undefined) {
      // Removed from the store behind this process's back: close what is left of it.
      if (session !== undefined) endSession(id, session.channel, GONE_FROM_STORE);
      return undefined;
    }
    if (expired(record, session, Date.now())) {
      endSession(id, record.channel, EXPIRED);
      return undefined;
    }
    if (session === undefined || session.channel !== record.channel) {
      // A record this process did not open (a store shared with another endpoint).
      session = newSession(record.channel);
      live.set(id, session);
      startSweeper();
    }
    return { record, session };
  };
  const touch = (id: string): void => {
    const record = store.get(id);
    if (record !== undefined) store.set(id, { ...record, lastActive: Date.now() });
  };
  const sweep = (): void => {
    const now = Date.now();
    for (const [id, session] of live) {
      const record = store.get(id);
      if (record === undefined || expired(record, session, now)) endSession(id, record?.channel ?? session.channel, record === undefined ? GONE_FROM_STORE : EXPIRED);
    }
    if (live.size === 0 && sweeper !== undefined) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  };
  function startSweeper(): void {
    if (sweeper !== undefined || closing) return;
    sweeper = setInterval(sweep, Math.max(10, Math.min(sessionIdleMs, 60_000)));
    sweeper.unref();
  }
  /**
   * The idle sessions (no request running here, no GET stream) a new session may take the place
   * of, the first to give up first: those never used after their `initialize` (no request since,
   * in any process sharing the store: their record's `lastActive` is still the one `initialize`
   * wrote), oldest first; then those idle for `sessionEvictAfterMs`, least recently active first.
   */
  const replaceable = (now: number): { id: string; channel: object; used: boolean }[] => {
    const found: { id: string; channel: object; used: boolean; lastActive: number }[] = [];
    for (const [id, session] of live) {
      const record = store.get(id);
      if (record === undefined || session.busy > 0 || session.stream !== undefined) continue;
      const used = session.used || record.lastActive !== session.openedAt;
      if (used && now - record.lastActive < sessionEvictAfterMs) continue;
      found.push({ id, channel: record.channel, used, lastActive: record.lastActive });
    }
    return found.sort((a, b) => Number(a.used) - Number(b.used) || a.lastActive - b.lastActive);
  };
  /**
   * Whether another session would be one too many (the `initialize` is then answered 503). Expired
   * sessions are removed first; then a session never used after its `initialize` is given up now
   * (so that a flood of bare `initialize` requests cannot lock clients out for `sessionIdleMs`),
   * and a used one idle for `sessionEvictAfterMs` only once the new session is kept
   * ({@link makeRoom}): an `initialize` that fails gives up no session a client is using. Each
   * `initialize` in flight counts one such session as taken.
   */
  const sessionsFull = (): boolean => {
    if (store.size + opening < maxSessions) return false;
    sweep();
    if (store.size + opening < maxSessions) return false;
    const candidates = replaceable(Date.now());
    const first = candidates[0];
    if (first !== undefined && !first.used) {
      endSession(first.id, first.channel, GIVEN_UP);
      candidates.shift();
    }
    return store.size + opening - candidates.length >= maxSessions;
  };
  /** Before a new session is kept: gives up the first {@link replaceable} session while sessions are full. */
  const makeRoom = (): void => {
    if (store.size < maxSessions) return;
    const [first] = replaceable(Date.now());
    if (first !== undefined) endSession(first.id, first.channel, GIVEN_UP);
  };
  const sessionNotFound = (res: ServerResponse, id: unknown): void =>
    sendJson(res, 404, errorBody(id, -32600, "Session not found: the Mcp-Session-Id is unknown or has expired; start a new session with initialize"));
  /** What is wrong with the `MCP-Protocol-Version` header of a session's request, or `undefined` (it may be absent). */
  const versionProblem = (req: IncomingMessage, record: LegacySessionRecord): string | undefined => {
    const given = header(req, "mcp-protocol-version");
    if (given === undefined) return undefined;
    const negotiated = dispatcher.sessionOf?.(record.channel)?.protocolVersion ?? record.protocolVersion;
    if (given.trim() === negotiated) return undefined;
    return `Bad request: the MCP-Protocol-Version header ${JSON.stringify(given)} is not the version this session negotiated (${negotiated})`;
  };

  /** Hands a POSTed message to the dispatcher and writes its answer: JSON, an SSE stream when messages come first, or 202. */
  const run = async (req: IncomingMessage, res: ServerResponse, exchange: Exchange, message: unknown, request: { readonly [key: string]: unknown } | undefined, route: Route): Promise<void> => {
    const id = request === undefined ? undefined : own(request, "id");
    const listen = request !== undefined && own(request, "method") === LISTEN;
    if (listen && streams >= maxSubscriptions) return unavailable(res, id, tooManyStreams);
    const acceptance = eventStreamAccepted(header(req, "accept"));
    const eventStream = acceptance !== undefined;
    // A subscriptions/listen is answered only by the stream: as JSON it would wait, unanswered and with nothing sent, until the server closed.
    if (listen && !route.legacy && !eventStream) {
      return sendJson(res, 406, errorBody(id, -32600, `Not acceptable: ${LISTEN} is answered with a text/event-stream stream; send Accept: application/json, text/event-stream`));
    }
    const controller = new AbortController();
    // Each request of a batch listens to it (more than node's warning threshold of 10 in a batch of 64).
    setMaxListeners(0, controller.signal);
    let sse = false;
    let keepAlive: ReturnType<typeof setInterval> | undefined;
    let quiet: ReturnType<typeof setTimeout> | undefined;
    onGone(req, res, () => {
      if (!res.writableFinished) controller.abort(new Error("the client closed the response stream"));
      if (keepAlive !== undefined) clearInterval(keepAlive);
      if (quiet !== undefined) clearTimeout(quiet);
    });
    /** Answers the POST with an SSE stream from here on, with a keep-alive comment every `keepAliveMs`. */
    const openStream = (): void => {
      sse = true;
      if (quiet !== undefined) clearTimeout(quiet);
      const headers: { [name: string]: string } = { ...SSE_HEADERS };
      if (route.opening !== undefined) headers["mcp-session-id"] = route.opening.id;
      res.writeHead(200, headers);
      trackSending(req, res);
      if (!keepsAlive) return;
      keepAlive = setInterval(() => res.write(":\n\n"), keepAliveMs);
      keepAlive.unref();
    };
    /** Writes a message on this request's response stream; `false` when the stream is gone (the dispatcher then uses the session's push). */
    const notify = (outgoing: OutgoingMessage): boolean => {
      if (res.writableEnded || controller.signal.aborted) return false;
      if (!sse) {
        // A POST that does not take a stream: in a legacy session the GET stream carries it when one is open (a
        // server→client request too, which would else fail its request), elsewhere nothing does.
        if (!eventStream) return route.legacy && route.push !== undefined && route.push(outgoing);
        openStream();
      }
      return writeEvent(res, outgoing, sending);
    };
    // A request, or a batch holding requests (2025-03-26 basic/transports: their POST is answered with their responses).
    const asks = request !== undefined || (Array.isArray(message) && holdsRequest(message));
    // A request whose handler is silent for keepAliveMs gets its stream and a first comment then, so that a proxy's read
    // timeout (nginx: 60 s) or a client's idle timeout does not end a long tool call answered as JSON; when its Accept names
    // text/event-stream (a client taking anything may parse JSON only).
    if (asks && acceptance === "named" && keepsAlive) {
      quiet = setTimeout(() => {
        quiet = undefined;
        if (sse || res.headersSent || res.writableEnded || controller.signal.aborted) return;
        openStream();
        res.write(":\n\n");
      }, keepAliveMs);
      quiet.unref();
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    if (requestTimeoutMs !== undefined && !listen && asks) {
      const timed = (exchange.timed = new AbortController());
      setMaxListeners(0, timed.signal);
      timer = setTimeout(() => timed.abort(`Request timed out after ${requestTimeoutMs} ms`), requestTimeoutMs);
    }
    exchange.dispatched = true;
    if (listen) streams++;
    let response: DispatchResponse | readonly DispatchResponse[] | undefined;
    let refused: DispatchErrorObject | undefined;
    try {
      response = await dispatcher.handle(message, {
        channel: route.channel,
        signal: controller.signal,
        deadline: (exchange.timed ?? shutdown).signal,
        notify,
        refuse: (error) => (refused = error),
        ...(route.push !== undefined ? { push: route.push } : {}),
        transport: (route.sessionId === undefined ? { kind: "http", request: req } : { kind: "http", request: req, sessionId: route.sessionId }) satisfies HttpTransportInfo,
      });
    } finally {
      if (listen) streams--;
      if (timer !== undefined) clearTimeout(timer);
      if (quiet !== undefined) clearTimeout(quiet);
    }
    const keepSession = route.opening?.settle(response === undefined || isBatchAnswer(response) ? undefined : response) ?? false;
    if (keepAlive !== undefined) clearInterval(keepAlive);
    if (res.writableEnded || controller.signal.aborted) return;
    if (closing && !res.headersSent && lastOnConnection(res)) res.setHeader("connection", "close");
    if (response === undefined) {
      // A request left unanswered (cancelled by the client) still gets what a request's POST is
      // answered with, an SSE stream, here one that ends without an event; 202 is for notifications and responses,
      // and for such a request whose client takes no stream (no answer in JSON says "cancelled").
      if (!sse && asks && eventStream) res.writeHead(200, SSE_HEADERS);
      else if (!sse && refused !== undefined) return sendJson(res, 400, { jsonrpc: "2.0", error: refused });
      else if (!sse) res.writeHead(202, { "content-length": "0" });
      res.end();
      return;
    }
    // A batch's responses on a stream: one event each (2025-03-26 basic/transports: they "MAY be batched"; one message per
    // event is what every client reads). As JSON: one array (JSON-RPC 2.0 § 6), status 200.
    if (sse) {
      // A stream its reader has kept up with counts toward the bound from its answer on, as an answer written as JSON does:
      // counted since it opened (keepAliveMs or more before), forty 4 MiB answers written at one moment to clients reading
      // at once were cut once the server had been behind elsewhere meanwhile.
      if (sending.responses.has(res) && res.writableLength <= STREAM_BEHIND_BYTES) sending.responses.set(res, sending.ticks);
      let events = "";
      for (const answer of isBatchAnswer(response) ? response : [response]) {
        const text = wireText(answer);
        if (text !== undefined) events += "event: message\ndata: " + text + "\n\n";
      }
      res.end(events);
    } else if (isBatchAnswer(response)) sendJson(res, 200, response);
    else {
      if (keepSession) res.setHeader("mcp-session-id", route.opening!.id);
      // A legacy session's request gets its error with 200; input the server cannot take (a batch, no request at all) its 4xx.
      sendJson(res, route.legacy && response.id !== undefined ? 200 : statusOf(response), response);
    }
    answerWritten(req, res);
  };

  /** An `initialize` without the modern `_meta` version and without `Mcp-Session-Id`: a new legacy session, kept when the answer is a result. */
  const openSession = async (req: IncomingMessage, res: ServerResponse, exchange: Exchange, message: unknown, request: { readonly [key: string]: unknown } | undefined): Promise<void> => {
    const id = request === undefined ? undefined : own(request, "id");
    if (closing) return unavailable(res, id, SHUTTING_DOWN);
    // Before sessionsFull, which makes room by ending an unused session: a request refused as busy ends none.
    if (!takes(req, res, message)) return;
    if (sessionsFull()) return sendJson(res, 503, errorBody(id, -32603, `Too many sessions (at most ${maxSessions}); try again later`));
    let sessionId: string;
    try {
      sessionId = createSessionId();
    } catch {
      sessionId = "";
    }
    if (!/^[\x21-\x7e]{1,256}$/.test(sessionId) || store.get(sessionId) !== undefined || live.has(sessionId)) {
      return sendJson(res, 500, errorBody(id, -32603, "Internal error: createSessionId did not give a new session id of visible ASCII characters"));
    }
    const channel = {};
    const session = newSession(channel);
    /** Keeps the session when the answer is a result (and the server is not closing); says whether it did. */
    const keep = (response: DispatchResponse | undefined): boolean => {
      if (response === undefined || !("result" in response) || closing) return false;
      const answered: unknown = own(response.result, "protocolVersion");
      const negotiated = dispatcher.sessionOf?.(channel)?.protocolVersion ?? (typeof answered === "string" ? answered : "");
      makeRoom();
      session.openedAt = Date.now();
      store.set(sessionId, { channel, protocolVersion: negotiated, lastActive: session.openedAt });
      live.set(sessionId, session);
      startSweeper();
      return true;
    };
    let kept = false;
    opening++;
    try {
      await run(req, res, exchange, message, request, { channel, push: session.push, legacy: true, sessionId, opening: { id: sessionId, settle: (response) => (kept = keep(response)) } });
    } finally {
      opening--;
      // An error, no answer (the client went away), or the server closing: nothing of the session is kept.
      if (!kept) dispatcher.closeChannel?.(channel);
    }
  };

  /** A POST with `Mcp-Session-Id` whose message is not modern: served in that session. */
  const serveInSession = async (
    req: IncomingMessage,
    res: ServerResponse,
    exchange: Exchange,
    message: unknown,
    request: { readonly [key: string]: unknown } | undefined,
    sessionId: string,
  ): Promise<void> => {
    const id = request === undefined ? undefined : own(request, "id");
    const found = findSession(sessionId);
    if (found === undefined) return sessionNotFound(res, id);
    if (dispatcher.opensSession?.(message) === true) {
      return sendJson(res, 400, errorBody(id, -32600, "Invalid request: this session is initialized already; to start another, send initialize without Mcp-Session-Id"));
    }
    const problem = versionProblem(req, found.record);
    if (problem !== undefined) return sendJson(res, 400, errorBody(id, -32600, problem));
    if (closing) return unavailable(res, id, SHUTTING_DOWN);
    const channel = found.record.channel;
    const transport: HttpTransportInfo = { kind: "http", request: req, sessionId };
    if (!takes(req, res, message, (rest) => void dispatcher.handle(rest, { channel, push: found.session.push, transport }))) return;
    found.session.used = true;
    found.session.busy++;
    touch(sessionId);
    try {
      await run(req, res, exchange, message, request, { channel: found.record.channel, push: found.session.push, legacy: true, sessionId });
    } finally {
      found.session.busy--;
      touch(sessionId);
    }
  };

  /** GET with `Mcp-Session-Id`: the session's standalone SSE stream, open until either side closes it. */
  const openStream = (req: IncomingMessage, res: ServerResponse, sessionId: string): void => {
    const found = findSession(sessionId);
    if (found === undefined) return sessionNotFound(res, undefined);
    const problem = versionProblem(req, found.record);
    if (problem !== undefined) return sendJson(res, 400, errorBody(undefined, -32600, problem));
    // Named (basic/transports: the client MUST list it), and not refused by q=0 (read as a POST's Accept is).
    if (eventStreamAccepted(header(req, "accept") ?? "") !== "named") {
      return sendJson(res, 406, errorBody(undefined, -32600, "Not acceptable: the session's stream is text/event-stream; send Accept: text/event-stream"));
    }
    const session = found.session;
    if (session.stream !== undefined) return sendJson(res, 409, errorBody(undefined, -32600, "Conflict: this session's GET stream is open already (one at a time)"));
    if (streams >= maxSubscriptions) return sendJson(res, 503, errorBody(undefined, -32603, tooManyStreams));
    streams++;
    session.used = true;
    res.writeHead(200, SSE_HEADERS);
    res.flushHeaders();
    trackSending(req, res);
    session.stream = res;
    const keepAlive = keepsAlive ? setInterval(() => res.write(":\n\n"), keepAliveMs) : undefined;
    keepAlive?.unref();
    onGone(req, res, () => {
      streams--;
      if (keepAlive !== undefined) clearInterval(keepAlive);
      if (session.stream === res) session.stream = undefined;
      touch(sessionId);
    });
  };

  /** DELETE with `Mcp-Session-Id`: the session ends. */
  const deleteSession = (req: IncomingMessage, res: ServerResponse, sessionId: string): void => {
    const found = findSession(sessionId);
    if (found === undefined) return sessionNotFound(res, undefined);
    const problem = versionProblem(req, found.record);
    if (problem !== undefined) return sendJson(res, 400, errorBody(undefined, -32600, problem));
    endSession(sessionId, found.record.channel, "the client ended the session (DELETE)");
    res.writeHead(200, { "content-length": "0" });
    res.end();
  };

  /**
   * A POST's body, decoded and parsed: `message`, its JSON value; `text`, the body itself when it is
   * not JSON or is a JSON string (the dispatcher answers the text). `undefined` when it was answered
   * already: too large (413), past the bodies' budget or the shutdown's grace period (503), not
   * UTF-8 (400). A function of its own so that neither the bytes nor the decoded text outlive it:
   * a request being served holds only its parsed message.
   */
  const receive = async (req: IncomingMessage, res: ServerResponse, given: unknown): Promise<{ readonly message: unknown; readonly text?: string } | undefined> => {
    // A body a caller read already (HttpHandler): parsed (a string too: a JSON string), or raw bytes.
    if (given !== undefined && !Buffer.isBuffer(given)) return typeof given === "string" ? { message: given, text: JSON.stringify(given) } : { message: given };
    if (given === undefined && req.readableEnded) {
      sendJson(res, 500, { jsonrpc: "2.0", error: { code: -32603, message: "Internal error: the request's body was read before the MCP handler (by a body parser?); pass it as the handler's third argument" } });
      return undefined;
    }
    if (given !== undefined && given.length > limit) {
      sendJson(res, 413, { jsonrpc: "2.0", error: { code: -32600, message: tooLarge(limit) } });
      return undefined;
    }
    const read = given === undefined ? await readBody(req, res, limit, bodies) : { bytes: given, keep: () => true };
    if (read === undefined || res.writableEnded) return undefined;
    let body: string;
    try {
      // A leading byte order mark is dropped by the decoder.
      body = utf8.decode(read.bytes);
    } catch {
      sendJson(res, 400, { jsonrpc: "2.0", error: { code: -32700, message: "Parse error: the message is not valid UTF-8" } });
      return undefined;
    }
    const message = messageOf(body);
    if (typeof message === "string") return { message, text: body };
    // What the request holds from now on is its parsed message, which can take 21 times its text in memory (before, the budget
    // counted the text, and 16 listen streams held 1.7 GB): counted as retainedBytes estimates it, the walk stopping past the
    // message's share. One past its share is refused for good (413), not as busy: it could wait for ever beside requests held open.
    const id = isPlainObject(message) ? requestIdOf(own(message, "id")) : undefined;
    const held = retainedBytes(message, messageCap);
    if (held > messageCap) {
      sendJson(res, 413, errorBody(id, -32600, `Invalid request: the message would take more than ${messageCap} bytes of memory (${messageCapIs}) once parsed; its arrays and objects cost more than their text`));
      return undefined;
    }
    if (!read.keep(held)) {
      sendJson(res, 503, errorBody(id, -32603, BODIES_BUSY(bodies.max)));
      return undefined;
    }
    return { message };
  };

  const serve = async (req: IncomingMessage, res: ServerResponse, exchange: Exchange, given: unknown): Promise<void> => {
    // Read to the end of its body, as a 413 is, so that a client still sending reads the 503.
    if (closing) return refuseBody(req, res, limit, 503, SHUTTING_DOWN);
    // node:http keeps the first of several Host lines; a proxy may read another, so the request is refused (RFC 9112 § 3.2).
    if ((req.headersDistinct["host"]?.length ?? 0) > 1) {
      return refuseBody(req, res, limit, 400, "Bad request: more than one Host header (RFC 9112 section 3.2)");
    }
    // A request target in absolute form names the host itself, and the Host header is then ignored (RFC 9112 § 3.2.2).
    const target = absoluteTargetHost(req.url);
    const host = target ?? header(req, "host");
    const name = host === undefined ? undefined : hostName(host);
    if (name === undefined || !hosts.has(name)) {
      const given = host === undefined ? "is missing" : `${quoteShort(host)} is not allowed`;
      return forbidden(res, `${target === undefined ? "the Host header" : "the host of the request target"} ${given} (${hostsConfigured})`);
    }
    const origin = header(req, "origin");
    if (origin !== undefined && !originAllowed(origin)) return forbidden(res, `the Origin header ${quoteShort(origin)} is not allowed (${originsConfigured})`);
    let url: URL;
    try {
      url = targetUrl(req.url);
    } catch {
      return sendJson(res, 400, { jsonrpc: "2.0", error: { code: -32600, message: "Invalid request: the request target is malformed" } });
    }
    if (url.pathname !== path) return sendJson(res, 404, { jsonrpc: "2.0", error: { code: -32601, message: "Not found: the MCP endpoint is " + path } });
    // A modern-only server ignores the header (draft transports, "Earlier Streamable HTTP Revisions").
    const sessionId = legacy ? header(req, "mcp-session-id") : undefined;
    if ((req.method === "GET" || req.method === "DELETE") && sessionId !== undefined) {
      req.resume();
      return req.method === "GET" ? openStream(req, res, sessionId) : deleteSession(req, res, sessionId);
    }
    if (req.method !== "POST") return notAllowed(req, res);
    const type = header(req, "content-type") ?? "";
    if (!/^application\/json\s*(?:;|$)/i.test(type.trim())) {
      sendJson(res, 415, { jsonrpc: "2.0", error: { code: -32600, message: "Unsupported media type: send application/json" } });
      req.resume();
      return;
    }
    // A coding node:http does not decode (a transfer coding but chunked, RFC 9112 § 6.1: 501; a content coding but identity,
    // RFC 9110 § 8.4.1, § 12.5.3: 415) is not decoded here either: refused, naming what is taken. A body a body parser read
    // and passes (`given`) was decoded by it, which leaves the header (before, express.json()).
    const transfer = given === undefined ? codingOtherThan(req, "transfer-encoding", ["chunked"]) : undefined;
    const content = given === undefined ? codingOtherThan(req, "content-encoding", ["", "identity"]) : undefined;
    if (transfer !== undefined || content !== undefined) {
      if (transfer === undefined) res.setHeader("accept-encoding", "identity");
      const message =
        transfer !== undefined
          ? `Unsupported transfer coding ${quoteShort(transfer)}: send the body chunked, or with Content-Length`
          : `Unsupported content encoding ${quoteShort(content!)}: send the body without Content-Encoding`;
      sendJson(res, transfer !== undefined ? 501 : 415, { jsonrpc: "2.0", error: { code: -32600, message } });
      req.resume();
      return;
    }
    const received = await receive(req, res, given);
    if (received === undefined) return;
    const { message } = received;
    // Not JSON, or a JSON string: no message to route or hold to its headers; the dispatcher answers the text.
    if (received.text !== undefined) {
      const response = (await dispatcher.handle(received.text))!;
      return sendJson(res, isBatchAnswer(response) ? 200 : statusOf(response), response);
    }
    const id = isPlainObject(message) ? own(message, "id") : undefined;
    const request = isPlainObject(message) && typeof own(message, "method") === "string" && requestIdOf(id) !== undefined ? message : undefined;
    // The legacy era: a session's message, or the initialize opening one. A modern message is served statelessly, session or not.
    if (sessionId !== undefined && !isModern(message)) return serveInSession(req, res, exchange, message, request, sessionId);
    if (sessionId === undefined && legacy && dispatcher.opensSession?.(message) === true) return openSession(req, res, exchange, message, request);
    // A client's answer to a server→client request belongs to a session: without one it could only be dropped.
    if (sessionId === undefined && legacy && isResponse(message)) {
      return sendJson(res, 400, errorBody(undefined, -32600, "Invalid request: a response to a server request needs the Mcp-Session-Id of the session it belongs to"));
    }
    // A legacy client's request before its session (not opened yet, or its id lost) carries no modern header, nor the
    // MCP-Protocol-Version a client sends once it has negotiated: it is told in its own era's terms (400, -32600) how a
    // session starts. A ping is answered (one may come before initialize). A request naming a version is held to the
    // modern header rules below (-32020), which tell a modern client what it left out.
    const sessionless = header(req, "mcp-method") === undefined && header(req, "mcp-protocol-version") === undefined;
    const beforeSession = request !== undefined && legacy && sessionless && !isModern(request) && own(request, "method") !== LEGACY_HANDSHAKE;
    if (beforeSession && own(request, "method") !== "ping") return sendJson(res, 400, errorBody(id, -32600, "Bad request: no Mcp-Session-Id; " + HOW_A_SESSION_STARTS));
    // Only a well-formed request is held to its headers; anything else gets the dispatcher's own answer.
    if (request !== undefined && !beforeSession) {
      const problem = headerMismatch(req, request, options);
      if (problem !== undefined) {
        // Perhaps a legacy client without its session (lost, or never opened): say how one starts.
        const hint = legacy && !isModern(request) ? "; " + HOW_A_SESSION_STARTS : "";
        const error = { code: -32020, message: "Header mismatch: " + problem + hint };
        return sendJson(res, 400, { jsonrpc: "2.0", id, error });
      }
    }
    if (closing) return unavailable(res, id, SHUTTING_DOWN);
    if (!takes(req, res, message)) return;
    return run(req, res, exchange, message, request, { channel: {}, legacy: beforeSession });
  };

  /**
   * Takes the `count` requests `req` carries (a batch may carry several), counted in flight until
   * its response or its connection is gone ({@link onGone}); or says why they cannot be taken now:
   * the caps are reached on the server or on `req`'s connection (pipelined).
   */
  const admit = (req: IncomingMessage, res: ServerResponse, count: number): string | undefined => {
    const socket = req.socket;
    const onConnection = perConnection.get(socket) ?? 0;
    // The message names the count in flight, and a batch's size when a batch is what passes the cap.
    const busy = (running: number, where: string, cap: string, max: number) =>
      `Server busy: ${running} request${running === 1 ? "" : "s"}${where} in flight` + (count > 1 ? `, and this batch's ${count} would pass ${cap} (${max})` : ` (${cap})`);
    // A batch larger than a cap is taken when nothing else is in flight there (it holds at most maxBatchSize requests):
    // refused, it could never be served.
    if (requestsInFlight > 0 && requestsInFlight + count > maxRequestsInFlight) {
      return `${busy(requestsInFlight, "", "maxRequestsInFlight", maxRequestsInFlight)}; try again later`;
    }
    if (onConnection > 0 && onConnection + count > maxRequestsPerConnection) {
      return `${busy(onConnection, " of this connection", "maxRequestsPerConnection", maxRequestsPerConnection)}; wait for their answers`;
    }
    requestsInFlight += count;
    perConnection.set(socket, onConnection + count);
    onGone(req, res, () => {
      requestsInFlight -= count;
      perConnection.set(socket, (perConnection.get(socket) ?? count) - count);
    });
    return undefined;
  };

  /**
   * Whether `message` may be dispatched now. Past the caps only JSON-RPC requests are refused (a
   * batch holding some: each of them, by id, in one array): a client's response, a notification (such
   * as notifications/cancelled) or a DELETE is what lets the requests in flight end, and a refused
   * batch's are handed to `others`. Called once the message is known to be served (its session found,
   * its headers right), so that what would be refused anyway is refused for that reason. Writes the
   * 503 itself.
   */
  const takes = (req: IncomingMessage, res: ServerResponse, message: unknown, others?: (rest: readonly unknown[]) => void): boolean => {
    const asks = (m: unknown) => isPlainObject(m) && typeof own(m, "method") === "string" && own(m, "id") !== undefined;
    const requests = Array.isArray(message) ? message.filter(asks) : asks(message) ? [message] : [];
    // Only a request with a valid id runs; one with another id is answered -32600 at once, and counts for nothing.
    const running = requests.filter((m) => requestIdOf(own(m, "id")) !== undefined).length;
    if (running === 0) return true;
    const refused = admit(req, res, running);
    if (refused === undefined) return true;
    // A refused batch's notifications and responses are taken all the same (`others`): they end requests in flight.
    const rest = Array.isArray(message) ? message.filter((m) => !asks(m)) : [];
    if (rest.length > 0) others?.(rest);
    // A batch of more requests than a batch may hold (the dispatcher's default maxBatchSize) gets one answer, not one per
    // element: a 4 MiB batch was answered with 25 MB.
    if (requests.length > MAX_BATCH_ANSWERS) {
      sendJson(res, 503, errorBody(undefined, -32603, refused));
      return false;
    }
    // A request whose id is no id is answered as it is when the batch is taken: it would not have run.
    const answers = requests.map((m) => {
      const id = requestIdOf(own(m, "id"));
      return id === undefined ? errorBody(undefined, -32600, invalidRequestIdMessage(own(m, "id"))) : errorBody(id, -32603, refused);
    });
    sendJson(res, 503, Array.isArray(message) ? answers : answers[0]);
    return false;
  };

  const listener = (req: IncomingMessage, res: ServerResponse, body?: unknown) => {
    const exchange: Exchange = {
      req,
      res,
      timed: undefined,
      done: new Promise<void>((resolve) => onGone(req, res, resolve)),
      dispatched: false,
    };
    exchanges.add(exchange);
    void exchange.done.then(() => exchanges.delete(exchange));
    serve(req, res, exchange, body)
      .catch(() => {
        if (!res.headersSent) sendJson(res, 500, { jsonrpc: "2.0", error: { code: -32603, message: "Internal error" } });
        else res.end();
      })
      .finally(() => flushWithin(req, res, sendTimeoutMs));
  };

  const close = async (): Promise<void> => {
    closing = true;
    if (sweeper !== undefined) clearInterval(sweeper);
    sweeper = undefined;
    // No more requests can reach a stream: each ends with its subscriptions/listen result.
    dispatcher.closeSubscriptions();
    // No client can answer a server→client request any more (no new connections): every legacy session ends now, its GET
    // stream with it, and a request waiting for the client's answer is answered -32603 at once rather than after the grace period.
    for (const [id, session] of live) endSession(id, session.channel, SHUTTING_DOWN);
    const settled = () => Promise.all([...exchanges].map((e) => e.done));
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([settled(), new Promise<void>((resolve) => (graceTimer = setTimeout(resolve, shutdownGraceMs)))]);
    clearTimeout(graceTimer);
    // In the dispatcher: answered -32603 at once; still receiving its body: 503.
    shutdown.abort(SHUTTING_DOWN);
    const receiving: Exchange[] = [];
    for (const exchange of exchanges) {
      if (exchange.dispatched) exchange.timed?.abort(SHUTTING_DOWN);
      // Still receiving its body: 503, read to the end of the body like a 413, so that a client still sending reads it.
      else if (!exchange.res.headersSent) {
        refuseBody(exchange.req, exchange.res, limit, 503, SHUTTING_DOWN);
        receiving.push(exchange);
      } else exchange.res.end();
    }
    // For SHUTDOWN_DRAIN_MS at most: a client sending its body slowly (a byte a second) held the shutdown until
    // receiveTimeoutMs or sendTimeoutMs cut it, about 30 s, past what a process manager waits after SIGTERM (docker stop, 10 s).
    const drainTimer = receiving.length === 0 ? undefined : setTimeout(() => receiving.forEach((e) => e.req.socket.destroy()), SHUTDOWN_DRAIN_MS);
    // The answers are written at once. A client taking them slowly gets them whole; one that does not read them does not hold the
    // shutdown up for longer than sendTimeoutMs (each answer's connection is closed then: flushWithin). Before, that was one
    // second, and an 8 MB answer read at 1 MB/s was cut in the middle.
    let flushTimer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([settled(), new Promise<void>((resolve) => (flushTimer = setTimeout(resolve, sendTimeoutMs)))]);
    clearTimeout(flushTimer);
    clearTimeout(drainTimer);
  };

  /** Whether a request for this endpoint declares a body over `maxBodyBytes` (for `Expect: 100-continue`). */
  const bodyTooLarge = (req: IncomingMessage): boolean => {
    const declared = Number(header(req, "content-length"));
    if (!(Number.isFinite(declared) && declared > limit)) return false;
    try {
      return targetUrl(req.url).pathname === path;
    } catch {
      return false;
    }
  };
  const continueTo = (app: (req: IncomingMessage, res: ServerResponse) => void) => (req: IncomingMessage, res: ServerResponse) => {
    if (bodyTooLarge(req)) {
      res.setHeader("connection", "close");
      return sendJson(res, 413, { jsonrpc: "2.0", error: { code: -32600, message: tooLarge(limit) } });
    }
    res.writeContinue();
    app(req, res);
  };

  const inUse = (socket: Socket): boolean => [...exchanges].some((exchange) => exchange.req.socket === socket);
  return { listener, continueTo, shutdown: close, inUse };
}

/** Serves `dispatcher` over Streamable HTTP; resolves once listening. */
export function serveHttp(dispatcher: TransportDispatcher, options: HttpOptions = {}): Promise<HttpServer> {
  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  const requestTimeout = options.receiveTimeoutMs ?? 30_000;
  const { listener, continueTo, shutdown, inUse } = endpoint(dispatcher, options, "serveHttp");
  const server = createServer(
    {
      headersTimeout,
      requestTimeout,
      // node:http checks both every 30 s by default, letting a slow client stay that much past its limit.
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(Math.min(headersTimeout, requestTimeout) / 4))),
    },
    listener,
  );
  server.on("checkContinue", continueTo(listener));
  const sockets = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  server.keepAliveTimeout = options.keepAliveTimeoutMs ?? 5000;
  server.maxConnections = options.maxConnections ?? 512;
  const host = options.host ?? "127.0.0.1";
  let closing: Promise<void> | undefined;
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port: options.port ?? 3000, host, backlog: options.backlog ?? 2048 }, () => {
      server.off("error", reject);
      const address = server.address() as AddressInfo;
      const shown = host.includes(":") ? `[${host}]` : host;
      resolve({
        server,
        url: `http://${shown}:${address.port}${options.path ?? "/mcp"}`,
        close: () =>
          (closing ??= new Promise<void>((done) => {
            // Stops accepting connections (net's close: node:http's closes the connections it takes as idle, among them one whose
            // answer is written but not yet taken by the client, and the rest of that answer was lost), and closes the keep-alive
            // connections no request is using.
            Server.prototype.close.call(server, () => done());
            for (const socket of sockets) if (!inUse(socket)) socket.destroy();
            void shutdown().then(() => server.closeAllConnections());
          })),
      });
    });
  });
}
