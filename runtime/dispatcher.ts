/**
 * The server dispatcher's core: one fixed function of protocol revisions' generated tables
 * (the method table, validators, `_meta` checks, the result rules) and the server's options.
 * It answers JSON-RPC messages and does no I/O; transports feed it.
 *
 * What a request says about its client (protocol revision, client capabilities, client info,
 * log level) comes through one {@link Arrival} per request, made by the arrival step of the
 * revision's era: `modern` revisions (2026-07-28 and later) read it from the request's own
 * `_meta`; `legacy` revisions (an `initialize` handshake) from what the channel negotiated (a
 * session the dispatcher opened at `initialize`, or {@link HandleContext.session}).
 *
 * Several revisions may be served at once (a dual-era server, draft basic/versioning,
 * "Backward Compatibility"): handlers are written against the first, and what goes to a client
 * of another (legacy) revision is adapted to it and checked with its tables: see
 * {@link createDispatcher}.
 */
import { deepFreeze, hasOwn, invalidRequestIdMessage, isJsonData, isNotificationMessage, isPlainObject, isResponse, own, quoteShort, requestIdOf, retainedBytes } from "./json.js";
import { checkStructuredContent, checkToolArguments } from "./tool-arguments.js";

/** A JSON-RPC request id: a string or an integer, never `null`. */
export type DispatchRequestId = string | number;

/** A response the dispatcher answers with: `{ jsonrpc, id, result }` or `{ jsonrpc, id?, error }` (`id` omitted only when the request's could not be read). */
export type DispatchResponse =
  | { readonly jsonrpc: "2.0"; readonly id: DispatchRequestId; readonly result: { readonly [key: string]: unknown } }
  | { readonly jsonrpc: "2.0"; readonly id?: DispatchRequestId; readonly error: DispatchErrorObject };

/** The `error` member of an error response. */
export interface DispatchErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** A notification the server sends: `{ jsonrpc: "2.0", method, params? }`. */
export interface OutgoingNotification {
  readonly jsonrpc: "2.0";
  readonly method: string;
  readonly params?: { readonly [key: string]: unknown };
}

/**
 * A request the server sends the client over a legacy session (`elicitation/create`,
 * `sampling/createMessage`, `roots/list`, asked for by an `InputRequiredResult`):
 * `{ jsonrpc: "2.0", id, method, params? }`. The client's response comes back through
 * {@link CoreDispatcher.handle} on the same channel.
 */
export interface OutgoingRequest {
  readonly jsonrpc: "2.0";
  readonly id: DispatchRequestId;
  readonly method: string;
  readonly params?: { readonly [key: string]: unknown };
}

/** What the server sends the client besides responses: a notification, or (to a legacy session) a request. */
export type OutgoingMessage = OutgoingNotification | OutgoingRequest;

/** The platform's `AbortSignal` when its lib declares one, else the part of it the dispatcher uses. */
export type DispatchAbortSignal = typeof globalThis extends { AbortSignal: { prototype: infer S } } ? S : AbortSignalLike;

/** The part of `AbortSignal` the dispatcher uses (it needs no DOM or Node.js typings). */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

interface AbortControllerLike {
  readonly signal: AbortSignalLike;
  abort(reason?: unknown): void;
}

const PLATFORM = globalThis as unknown as {
  AbortController: new () => AbortControllerLike;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
  console?: { error(...args: unknown[]): void };
  process?: { env?: { [key: string]: string | undefined } };
};

/** The mark every copy of this runtime puts on its {@link HandlerError}s (one registered symbol for all of them). */
const HANDLER_ERROR = Symbol.for("mcp-schema-codegen.HandlerError");

/**
 * An error a handler throws to choose the JSON-RPC error it is answered with. Any other
 * exception is answered `-32603` with a fixed message: nothing of it reaches the wire. A
 * `HandlerError` of another generated output in the same program (a tool library that vendors
 * its own) is answered the same way as this output's.
 *
 * @param code a safe integer; a code that is not one is answered `-32603`
 */
export class HandlerError extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = "HandlerError";
    this.code = code;
    this.data = data;
    // For the dispatchers of every copy of the runtime, where `instanceof` sees only its own copy's class.
    Object.defineProperty(this, HANDLER_ERROR, { value: true });
  }
}

/** Whether `error` is a {@link HandlerError} of this or another copy of the runtime (reading the mark may throw). */
function isHandlerError(error: unknown): boolean {
  return error instanceof HandlerError || (typeof error === "object" && error !== null && (error as { readonly [HANDLER_ERROR]?: unknown })[HANDLER_ERROR] === true);
}

/**
 * A `tools/call` result for a tool that ran and failed in a way the model can read and act
 * on: `{ content: [{ type: "text", text }], isError: true }` (server/tools § Error Handling).
 */
export function toolError(text: string): { content: { type: "text"; text: string }[]; isError: true } {
  return { content: [{ type: "text", text }], isError: true };
}

/**
 * A handler stub: it answers `-32601` ("Method not implemented yet: <method> (see <where>)")
 * until it is replaced. It fits the handler of any method (it never returns).
 *
 * @param where where the stub lives, for the message (default `src/handlers.ts`)
 */
export function notImplemented(method: string, where: string = "src/handlers.ts"): () => never {
  return () => {
    throw new HandlerError(-32601, "Method not implemented yet: " + method + " (see " + where + ")");
  };
}

/** Returns its argument: typed per revision by the generated `defineHandlers`. */
export function identity<T>(value: T): T {
  return value;
}

/** A request handler: params in (checked against the schema), its result or a promise of it out. The generated `RequestHandler` types it per method. */
export type RequestHandlerOf<P, C, R> = (params: P, context: C) => R | Promise<R>;

/** A notification handler: params in, never answered. The generated `NotificationHandler` types it per method. */
export type NotificationHandlerOf<P, C> = (params: P, context: C) => void | Promise<void>;

/** A protocol era (draft basic/versioning, "Backward Compatibility"): `legacy` opens with `initialize`; `modern` carries everything in each request's `_meta`. */
export type Era = "legacy" | "modern";

/**
 * What the core knows of the client for one request, from the arrival step of its era: the
 * protocol revision it speaks, its capabilities (`{}` when it declared none), its
 * `Implementation` and the log level it asked for, when known.
 */
export interface Arrival {
  readonly era: Era;
  readonly protocolVersion: string;
  readonly clientCapabilities: { readonly [key: string]: unknown };
  readonly clientInfo: unknown;
  readonly logLevel: string | undefined;
  /** The request's `params._meta`, checked (`{}` when absent). */
  readonly meta: { readonly [key: string]: unknown };
}

/** What a legacy channel negotiated at `initialize` (the stdio process, or an HTTP session). */
export interface SessionState {
  readonly protocolVersion: string;
  readonly clientCapabilities?: { readonly [key: string]: unknown };
  readonly clientInfo?: unknown;
  readonly logLevel?: string;
  /** Present (true) once the client sent `notifications/initialized` (2025-11-25 basic/lifecycle § Initialization). */
  readonly initialized?: true;
}

/** The part of a method-table row (generated `methods.ts`) the core reads. */
export interface MethodRow {
  readonly kind: "request" | "notification" | "input-request";
  readonly direction: "client-to-server" | "server-to-client" | "both";
  readonly messageType: string;
  readonly capability: { readonly side: "server" | "client"; readonly path: readonly string[] } | null;
}

/** What a generated validator or result parser answers, as far as the core reads it. */
export type CheckOutcome = { readonly ok: true } | { readonly ok: false; readonly issues: readonly { readonly path: string; readonly message: string }[] };

/** What generated `checkRequestMeta` answers, as far as the core reads it. */
export type MetaCheckOutcome =
  | { readonly ok: true; readonly meta: object }
  | { readonly ok: false; readonly error: { readonly code: number; readonly message: string; readonly data: unknown } };

/** A `subscriptions/listen` filter field: which notification it asks for, and the server capability that must be advertised for it. */
export interface ListenFilter {
  readonly field: string;
  readonly method: string;
  /** Whether the field lists URIs (`resourceSubscriptions`) rather than being a `true` flag. */
  readonly list: boolean;
  readonly capability: readonly string[];
}

/**
 * Everything the core needs to know of one protocol revision: generated data (and the
 * generated functions of `validators.ts`, `meta.ts` and `methods.ts`). No code depends on
 * which revision it is beyond this table.
 */
export interface DispatchRevision {
  /** The schema's `LATEST_PROTOCOL_VERSION`. */
  readonly protocolVersion: string;
  readonly era: Era;
  /** The method table's lookup (`methodInfo` of `methods.ts`). */
  readonly methodInfo: (method: string) => MethodRow | undefined;
  /** `validatorsByType` of `validators.ts`. */
  readonly validatorsByType: { readonly [type: string]: ((value: unknown) => CheckOutcome) | undefined };
  /** `parseResult` of `methods.ts`: a result checked against the shape its `resultType` selects. */
  readonly parseResult: (method: never, result: unknown) => CheckOutcome;
  /** `checkRequestMeta` of `meta.ts` (modern revisions). */
  readonly checkRequestMeta?: (params: unknown, options: { readonly strict: boolean }) => MetaCheckOutcome;
  /** The `_meta` keys the core reads and writes. */
  readonly metaKeys: {
    readonly protocolVersion: string;
    readonly clientCapabilities: string;
    readonly clientInfo: string;
    readonly logLevel: string;
    /** Every result's `_meta` carries the server's `Implementation` here, when the revision defines it. */
    readonly serverInfo?: string;
    readonly subscriptionId?: string;
  };
  readonly cancelledMethod: string;
  /**
   * Methods answered by the core unless a handler takes them, by role. The legacy roles
   * (2025-11-25 lifecycle and utilities): `setLevel` stores the session's log level
   * (`logging/setLevel`); `subscribe`/`unsubscribe` keep the session's resource subscriptions
   * (`resources/subscribe`, `resources/unsubscribe`: at most 1000 per session, one more is
   * answered `-32603`; a URI longer than 8192 characters is answered `-32602`; 2^24 characters
   * of URIs over all sessions, one more `-32603`). A legacy revision that names none of
   * these gets the 2025-11-25 method names its method table has.
   */
  readonly builtins: {
    readonly discover?: string;
    readonly initialize?: string;
    readonly ping?: string;
    readonly listen?: string;
    readonly setLevel?: string;
    readonly subscribe?: string;
    readonly unsubscribe?: string;
  };
  /** The notification a legacy client sends after `initialize` (`notifications/initialized`); default: that name when the method table has it. */
  readonly initializedNotification?: string;
  /**
   * A legacy revision served beside a different handler revision: per method, the top-level
   * result members the handler revision's result has and this revision's result type lacks
   * (`resultType`, `ttlMs`, `cacheScope`); they are deleted before the result is checked with
   * this revision. Default: the members the core fills in for the handler revision.
   */
  readonly resultDrop?: { readonly [method: string]: readonly string[] };
  /**
   * A legacy revision served beside a different handler revision: per server→client request
   * method, the params members the handler revision's input request may hold and this revision's
   * request lacks, with the value that means the same as leaving it out (`{ mode: "form" }` of
   * `elicitation/create` for 2025-06-18, whose elicitation has no modes). A member holding that
   * value is deleted before the request is checked with this revision and sent. Default: none.
   */
  readonly requestDrop?: { readonly [method: string]: { readonly [member: string]: string | number | boolean } };
  /** The log levels, least severe first (`LoggingLevel`); default: the RFC 5424 order the spec uses (`debug` … `emergency`). */
  readonly logLevels?: readonly string[];
  /** Whether `tools/list` and `tools/call` are answered from `options.tools`. */
  readonly tools: boolean;
  /**
   * How the revision says "resource not found" (server/resources § Error Handling): its code,
   * and whether `data.uri` must be a string for that code to mean it. A handler's error of this
   * kind, written against the handler revision, reaches a client of another revision in that
   * revision's terms (2025-11-25: `-32002`; 2026-07-28: `-32602` with `data.uri`).
   */
  readonly resourceNotFound?: { readonly code: number; readonly uriRequired: boolean };
  /** The `resultType` a result without one gets, when results require it. */
  readonly absentResultType?: string;
  /**
   * Whether a client of this revision may send JSON-RPC batches (JSON-RPC 2.0 § 6), which the
   * server must then receive: the schema's `JSONRPCMessage` has a batch type (2025-03-26
   * `JSONRPCBatchRequest`; 2025-06-18 removed it). Read on a legacy session only: a batch is
   * taken on a channel whose session negotiated such a revision. Default: false.
   */
  readonly batches?: boolean;
  /**
   * Whether the revision's discover result carries the server's `serverInfo` (`Implementation`) as
   * a property of its own, as drafts before 2026-07-28 did (the 2026-07-13 draft's
   * `DiscoverResult`); the built-in `server/discover` then answers it. Default: false.
   */
  readonly discoverServerInfo?: boolean;
  /** The `resultType` of an `InputRequiredResult`, when the revision has one. */
  readonly inputRequiredResultType?: string;
  /** Request methods whose results carry the caching fields (`ttlMs`, `cacheScope`). */
  readonly cacheable: readonly string[];
  /** `subscriptions/listen`: its acknowledgement notification and filters. */
  readonly listen?: { readonly acknowledgement: string; readonly filters: readonly ListenFilter[] };
  /**
   * The method a legacy client opens with (`initialize`), when this revision does not serve it:
   * such a request without the modern per-request `_meta` version (a legacy client's) is answered
   * `-32022` naming the supported versions (a legacy client cannot fall forward, so this error
   * may be all it can show its user); one with it is a modern request for a removed method (`-32601`).
   */
  readonly legacyHandshake?: string;
}

/** A tool served by the dispatcher (the generated `ToolEntry`, as far as the core reads it). */
export interface DispatcherTool {
  readonly definition: { readonly name: string; readonly inputSchema?: unknown; readonly outputSchema?: unknown };
  call(args: { readonly [key: string]: unknown }, context: never): unknown;
  checkArguments?(args: { readonly [key: string]: unknown }): string | undefined;
}

/** What {@link DispatcherOptions.onSessionClosed} is: given the session's `context.legacySession` object, why it ended, and what its `initialize` said. */
export type SessionClosedListener = (session: object, info: { readonly why: string; readonly protocolVersion: string; readonly clientInfo: unknown }) => void;

/** What {@link DispatcherOptions.onError} is: told of each server-side failure the wire sees only as `-32603`. */
export type DispatchErrorListener = (error: unknown, info: DispatchErrorInfo) => void;

/** What {@link DispatchErrorListener} is told. */
export interface DispatchErrorInfo {
  readonly method: string;
  readonly id?: DispatchRequestId;
  /**
   * `handler-threw`: a request's handler threw (not a {@link HandlerError}); not when its signal
   * had aborted (cancelled, past its deadline) and it threw the signal's `reason` or an
   * `AbortError` (`signal.throwIfAborted()`, an aborted `fetch`): that is stopping as asked.
   * `invalid-outgoing`: a handler's notification or request was not sent: it failed the schema of
   * the revision its client speaks (or that revision has no such message), or does not belong on
   * the request's stream; one that needs a server capability left out of `options.capabilities`
   * (log messages: `logging`) is told of once per method, and progress from a request that gave
   * no `progressToken` once per request method, not at each call.
   * `unadvertised-handler`: reported once, when the dispatcher is made, for each handler (and for
   * `options.tools`, as `tools/list`, unless a `tools/list` handler is given) that the clients of no
   * revision served reach, its server capability left out of `options.capabilities`: its method is
   * answered `-32601` (no `id`). `session-listener-threw`: `onSessionClosed` threw (`method`: the
   * revision's handshake, `initialize`).
   */
  readonly reason: "handler-threw" | "invalid-result" | "notification-handler-threw" | "invalid-outgoing" | "unadvertised-handler" | "session-listener-threw";
}

/** The options of a dispatcher (the generated `ServerDispatcherOptions` types each of them). */
export interface DispatcherOptions {
  readonly serverInfo: unknown;
  readonly capabilities?: object;
  readonly supportedProtocolVersions?: readonly string[];
  readonly instructions?: string;
  readonly handlers?: object;
  readonly tools?: readonly DispatcherTool[];
  readonly cache?: { readonly ttlMs: number; readonly cacheScope: "public" | "private" };
  readonly serverInfoMeta?: boolean;
  readonly validateResults?: boolean;
  readonly strictMeta?: boolean;
  readonly onError?: DispatchErrorListener;
  /**
   * Called once when a legacy session ends (closed by the transport: stdio's input ended, an HTTP
   * `DELETE`, expiry or shutdown; replaced by another `initialize` on its channel; or its
   * `initialize` failed), with the object its requests saw as `context.legacySession`, so that
   * per-session state (timers, subscriptions of one's own) can be let go. What it throws (or, when
   * it is async, rejects with) goes to {@link onError} (`session-listener-threw`).
   */
  readonly onSessionClosed?: SessionClosedListener;
  /** An `InputRequiredResult` to a legacy client: how many rounds of server→client requests one request may take before it is answered `-32603`. Default: 8. */
  readonly maxInputRounds?: number;
  /** An `InputRequiredResult` to a legacy client: how long one round waits for the client's responses before the request is answered `-32603`. Default: 600000 (10 minutes). */
  readonly inputTimeoutMs?: number;
  /**
   * A JSON-RPC batch (on a session of a revision that takes them, {@link DispatchRevision.batches}):
   * the most messages it may hold; a longer one is answered with one `-32600` error (no `id`) and
   * none of it is handled, so one message cannot make the server do unbounded work. Default: 64
   * (stdio's `maxInFlight`). A value that is not an integer of at least 1 throws a `RangeError`.
   */
  readonly maxBatchSize?: number;
}

/** What a transport passes with each message. */
export interface HandleContext {
  /**
   * The connection the message arrived on: request ids in flight, and `notifications/cancelled`,
   * are scoped to it, and so is a legacy session (opened by `initialize`) with its log level,
   * resource subscriptions and server→client requests awaiting their responses. stdio passes
   * one object per process; Streamable HTTP one per legacy session, and a new one per POST of
   * a modern request. Default: one channel for the dispatcher.
   */
  readonly channel?: object;
  /** Cancels the request (an HTTP response stream that closed): the handler's signal aborts and nothing is answered. */
  readonly signal?: DispatchAbortSignal;
  /**
   * Ends the request early but answers it (a time limit, a server shutting down): the handler's
   * signal aborts and the request is answered at once with `-32603`, whose message is the
   * abort reason when that is a string.
   */
  readonly deadline?: DispatchAbortSignal;
  /**
   * Where messages about this request go (an SSE stream, stdout): notifications, and to a
   * legacy client the server→client requests an `InputRequiredResult` asks for. Without it
   * notifications are dropped (and requests go through {@link push}). Answers `false` when the
   * stream can no longer carry anything (an HTTP response that ended or was closed): a
   * cancellation the server must send then goes through {@link push}.
   */
  readonly notify?: (message: OutgoingMessage) => boolean | void;
  /**
   * Channel-level delivery, not tied to a request: stdio → stdout; HTTP → the session's GET SSE
   * stream. Answers false when nothing is open to carry it. The transport passes the same
   * function for a channel every time (it may route to whatever stream is open now); a legacy
   * session keeps the last one passed, for {@link CoreDispatcher.publish}.
   */
  readonly push?: (message: OutgoingMessage) => boolean;
  /** What a legacy channel negotiated at `initialize`, when the transport keeps it itself; default: the session the dispatcher opened on {@link channel}. */
  readonly session?: SessionState;
  /** Passed through to handlers as `context.transport`. */
  readonly transport?: unknown;
  /**
   * Called when a notification cannot be accepted, which then takes no effect (a refused
   * `notifications/cancelled` cancels nothing): its `_meta` version is not a string (`-32602`)
   * or not a modern version served (`-32022`, `data: { supported, requested }`), or its params
   * fail the schema of the revision serving it (`-32602`, `data.issues`: `{ path, message }[]`,
   * JSON Pointers). The notification is still never answered; Streamable HTTP answers its POST
   * `400` with this error and no `id` instead of `202` (draft and 2025-11-25 basic/transports: a
   * server that cannot accept a notification returns an HTTP error status). A notification of a
   * method the revision does not have is accepted and ignored, whatever its version, as JSON-RPC
   * asks. A batch of notifications only is taken whole or not at all: when one is refused, none
   * takes effect and this is told once, of the first, its message ending "(message K of the batch;
   * none of the batch was taken)"; a batch refused whole for its form (not taken on this channel,
   * empty, too long, or mixing responses in: the `-32600` it is answered) is told of too when it
   * holds notifications. `element` is the index of the refused notification in a batch
   * that also holds requests (where each element is taken alone); it is absent for a notification
   * sent alone and for a batch refused whole. What this throws goes to
   * {@link DispatcherOptions.onError} (`notification-handler-threw`).
   */
  readonly refuse?: (error: DispatchErrorObject, element?: number) => void;
}

/** The dispatcher the core makes (the generated `ServerDispatcher` types it per revision). */
export interface CoreDispatcher {
  /**
   * Answers one JSON-RPC message (see {@link createDispatcher} for the order of checks). A
   * JSON-RPC *response* (`id` and `result` or `error`, no `method`) is a legacy client's answer
   * to a server→client request: it settles the request with that id on the same channel and is
   * never answered (an unknown id is ignored). Never rejects.
   *
   * On a dispatcher serving a legacy revision, an error answering a request that carries no
   * modern `_meta` version, on a channel with no legacy session open or opening (a legacy client
   * that skipped `initialize`), ends with "; a 2025-11-25 client opens with initialize" (the
   * latest legacy revision served).
   *
   * A batch (a JSON array) is answered `-32600` "batches are not supported" (one error, no `id`),
   * except on a channel whose legacy session negotiated a revision that takes batches
   * ({@link DispatchRevision.batches}, 2025-03-26 basic/index "JSON-RPC batching": implementations
   * MUST support receiving them). There each element is handled as it would be alone, at once, and
   * the answer is the array of the responses to its requests, in the batch's order (JSON-RPC 2.0
   * § 6), or `undefined` when it held only notifications, or only responses (or every request was
   * cancelled). An empty batch, one of more than {@link DispatcherOptions.maxBatchSize} messages,
   * or one mixing responses with requests or notifications (the 2025-03-26 schema's
   * `JSONRPCBatchRequest` and `JSONRPCBatchResponse` are apart) is one `-32600` error (not an
   * array), and none of it is handled. In the array: an element that is not a
   * message gets its own `-32600` error; an `initialize` gets `-32600` (2025-03-26
   * basic/lifecycle: it "MUST NOT be part of a JSON-RPC batch"), and so does a request carrying
   * the modern per-request `_meta` version (the modern era has no batches; such a notification
   * is refused through {@link HandleContext.refuse} and takes no effect). A batch of
   * notifications only is checked whole before any of it takes effect: one refused, and none is
   * taken ({@link HandleContext.refuse}).
   *
   * `message` is the parsed JSON value, or a string: the message's text, which is parsed here
   * (`-32700` when it is not JSON). A value that throws when read (a revoked Proxy, a throwing
   * getter; never what `JSON.parse` gives) is `-32603` without `id`, reported to `onError`, and
   * none of it runs. A transport that parsed the text itself and found a JSON
   * string passes the text, not the string, which would be parsed again as if it were a message.
   */
  handle(message: unknown, context?: HandleContext): Promise<DispatchResponse | readonly DispatchResponse[] | undefined>;
  readonly capabilities: { readonly [key: string]: unknown };
  /** Every version served, both eras (`server/discover` and `-32022` list the modern ones; `initialize` negotiates among the legacy ones). */
  readonly supportedProtocolVersions: readonly string[];
  /**
   * Delivers a server notification: to every open `subscriptions/listen` stream whose filter
   * asked for it (modern), and through `push` to every legacy session it concerns (2025-11-25):
   * list changes to every session (when the server advertises `listChanged`),
   * `notifications/resources/updated` to sessions subscribed to its `uri`,
   * `notifications/message` to sessions whose log level it reaches. Each legacy message is
   * checked with the session's revision first. Answers how many streams and sessions it reached.
   */
  publish(method: string, params?: { readonly [key: string]: unknown }): number;
  closeSubscriptions(): void;
  findTool(name: string): { readonly name: string; readonly inputSchema?: unknown } | undefined;
  /** Whether `message` (parsed, or JSON text) opens a legacy session: an `initialize` request without the modern per-request version key, on a dispatcher serving a legacy revision. */
  opensSession(message: unknown): boolean;
  /** What a channel negotiated, when it has a legacy session (its log level as set now). */
  sessionOf(channel: object): SessionState | undefined;
  /**
   * Forgets a channel: its legacy session and resource subscriptions. Server→client requests
   * still awaiting the client's response are given up (the client is sent `notifications/cancelled`
   * for each, on the stream of the request that asked for it while that is open, else through the
   * session's push), and the requests that asked for them are answered `-32603` "Internal error:
   * no answer to <method> (id N): <why>" (`why` defaults to "the session closed"; a transport
   * shutting down says "Server shutting down"), as is a request of the channel still running that
   * asks for input later (one that arrived before the close: an `initialize` after it opens a new
   * session, whose own requests ask its client).
   */
  closeChannel(channel: object, why?: string): void;
}

/**
 * What a transport needs of a dispatcher: any revision's generated `ServerDispatcher` is one
 * (only these members are read, so its typed `capabilities` and `publish` do not matter).
 */
export type TransportDispatcher = Pick<CoreDispatcher, "handle" | "closeSubscriptions" | "findTool" | "opensSession" | "sessionOf" | "closeChannel">;

type JsonObject = { [key: string]: unknown };

interface Subscription {
  readonly id: DispatchRequestId;
  readonly filter: { readonly [field: string]: unknown };
  readonly send: (notification: OutgoingNotification) => void;
  readonly end: () => void;
}

/** The message of a JSON-RPC error with what a list of issues says first. */
function describeIssues(issues: readonly { readonly path: string; readonly message: string }[]): string {
  return issues
    .slice(0, 3)
    .map((i) => (i.path === "" ? i.message : i.path + ": " + i.message))
    .join("; ");
}

/** The refusal of a message in a batch that names a modern version in its `_meta` (the modern era has no batches). */
const UNBATCHED = "Invalid request: a message carrying the per-request _meta protocol version cannot be part of a JSON-RPC batch";

/** A request id in a message as JSON writes it: a number as a number (`1`), a string quoted (`"1"`, cut as {@link quoteShort} cuts). */
function idText(id: DispatchRequestId): string {
  return typeof id === "string" ? quoteShort(id) : String(id);
}

function errorOf(id: DispatchRequestId | undefined, code: number, message: string, data?: unknown): DispatchResponse {
  const error: DispatchErrorObject = data === undefined ? { code, message } : { code, message, data };
  return id === undefined ? { jsonrpc: "2.0", error } : { jsonrpc: "2.0", id, error };
}

/** Whether `capabilities` has an entry at `path` (an advertised capability, or a `true` flag). */
export function hasCapability(capabilities: unknown, path: readonly string[]): boolean {
  let node: unknown = capabilities;
  for (const key of path) {
    if (!isPlainObject(node)) return false;
    node = own(node, key);
    if (node === undefined || node === false || node === null) return false;
  }
  return true;
}

/** `["elicitation", "form"]` → `{ elicitation: { form: {} } }`, merged into `into`. */
export function addCapability(into: JsonObject, path: readonly string[]): void {
  let node = into;
  for (const key of path) {
    const next = own(node, key);
    if (isPlainObject(next)) node = next;
    else {
      const created: JsonObject = {};
      node[key] = created;
      node = created;
    }
  }
}

/** The parts of `required` missing from `declared`, or `undefined` when none is. */
export function missingCapabilities(declared: unknown, required: unknown): JsonObject | undefined {
  if (!isPlainObject(required)) return undefined;
  let missing: JsonObject | undefined;
  for (const key of Object.keys(required)) {
    const value = required[key];
    if (value === undefined || value === false) continue;
    const here = isPlainObject(declared) ? own(declared, key) : undefined;
    if (here === undefined || here === null || here === false) {
      missing ??= {};
      missing[key] = value === true ? true : isPlainObject(value) ? value : {};
      continue;
    }
    const inner = missingCapabilities(here, value);
    if (inner !== undefined) {
      missing ??= {};
      missing[key] = inner;
    }
  }
  return missing;
}

/**
 * The `-32021` message for `missing` (as {@link missingCapabilities} gives it): each capability
 * named by its path, `Missing required client capability: elicitation.url, sampling`.
 */
function missingCapabilityMessage(missing: JsonObject): string {
  const paths: string[] = [];
  const walk = (prefix: string, value: unknown): void => {
    const keys = isPlainObject(value) ? Object.keys(value) : [];
    if (keys.length === 0) paths.push(prefix);
    else for (const key of keys) walk(prefix + "." + key, (value as JsonObject)[key]);
  };
  for (const key of Object.keys(missing)) walk(key, missing[key]);
  return "Missing required client capability: " + paths.join(", ");
}

/** The `_meta` of a params object, when it is a plain object; else `{}`. */
function metaOfParams(params: { readonly [key: string]: unknown }): { readonly [key: string]: unknown } {
  const meta = own(params, "_meta");
  return isPlainObject(meta) ? meta : {};
}

/** `-32022` for a message whose `_meta` names `requested`: the versions served (`supported`), and the one it named. */
function unsupportedVersion(requested: string, supported: readonly string[]): DispatchErrorObject {
  return { code: -32022, message: "Unsupported protocol version: " + quoteShort(requested), data: { supported: [...supported], requested } };
}

/**
 * The arrival step of a modern revision: the request's own `_meta` names the revision (one it
 * `serves`, else `-32022` with `data.supported` and `data.requested`), the client's
 * capabilities, info and log level; `_meta` failing the schema is `-32602`.
 */
function arriveByRequestMeta(
  revision: DispatchRevision,
  params: { readonly [key: string]: unknown },
  supported: readonly string[],
  serves: (version: string) => boolean,
  strict: boolean,
): Arrival | { readonly error: DispatchErrorObject } {
  const keys = revision.metaKeys;
  const rawMeta = own(params, "_meta");
  const requested = isPlainObject(rawMeta) ? own(rawMeta, keys.protocolVersion) : undefined;
  if (typeof requested === "string" && !serves(requested)) return { error: unsupportedVersion(requested, supported) };
  if (revision.checkRequestMeta !== undefined) {
    const checked = revision.checkRequestMeta(params, { strict });
    if (!checked.ok) return { error: { code: checked.error.code, message: checked.error.message, data: checked.error.data } };
  }
  const meta = metaOfParams(params);
  const declared = own(meta, keys.clientCapabilities);
  const level = own(meta, keys.logLevel);
  return {
    era: "modern",
    protocolVersion: typeof requested === "string" ? requested : revision.protocolVersion,
    clientCapabilities: isPlainObject(declared) ? declared : {},
    clientInfo: own(meta, keys.clientInfo),
    logLevel: typeof level === "string" ? level : undefined,
    meta,
  };
}

/** The arrival step of a legacy revision: what the channel negotiated at `initialize`, or (without a session) the preferred revision and no declared capability. */
function arriveBySession(params: { readonly [key: string]: unknown }, supported: readonly string[], session: SessionState | undefined): Arrival {
  const capabilities = session?.clientCapabilities;
  return {
    era: "legacy",
    protocolVersion: session?.protocolVersion ?? supported[0]!,
    clientCapabilities: isPlainObject(capabilities) ? capabilities : {},
    clientInfo: session?.clientInfo,
    logLevel: session?.logLevel,
    meta: metaOfParams(params),
  };
}

/**
 * The 2025-11-25 names of the legacy lifecycle and utility messages, used when a legacy
 * revision's table does not name them (a table generated before it could) and its method
 * table has them.
 */
const LEGACY_NAMES = {
  setLevel: "logging/setLevel",
  subscribe: "resources/subscribe",
  unsubscribe: "resources/unsubscribe",
  initialized: "notifications/initialized",
  resourceUpdated: "notifications/resources/updated",
} as const;

/** The members of a JSON-RPC 2.0 message (§ 4, § 5) the dispatcher reads of every message; and of one without `method`, a response's. */
const MESSAGE_MEMBERS = ["jsonrpc", "id", "method", "params"] as const;
const RESPONSE_MEMBERS = ["result", "error"] as const;

/** The log message notification, in every revision (server/utilities/logging). */
const LOG_MESSAGE = "notifications/message";

/** The progress notification, in every revision (basic/utilities/progress). */
const PROGRESS = "notifications/progress";

/** The log levels of `LoggingLevel`, least severe first (RFC 5424, as 2025-11-25 server/utilities/logging orders them). */
const LOG_LEVELS: readonly string[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

/** The resources one legacy session may be subscribed to at once (`resources/subscribe`); one more is answered `-32603`. */
const MAX_SESSION_SUBSCRIPTIONS = 1000;
/** The longest URI a legacy session may subscribe to, in UTF-16 code units; a longer one is answered `-32602`. */
const MAX_SUBSCRIBED_URI_LENGTH = 8192;
/**
 * The URIs all legacy sessions of one dispatcher may hold subscribed at once, in UTF-16 code
 * units in all (2^24: about 16 MiB); a subscription beyond it is answered `-32603`. Bounds what
 * many sessions can make the server keep, where the per-session caps bound one.
 */
const MAX_SUBSCRIBED_CHARACTERS = 2 ** 24;

/**
 * What one legacy session may keep of its `initialize`: its `capabilities` and `clientInfo`, as
 * {@link retainedBytes} counts them (2^16: 64 KiB; a client's are a few hundred bytes, an icon
 * given as a `data:` URI some KiB). An `initialize` past it is answered `-32602` (before, a
 * session kept any 4 MiB of them, and 46 sessions ran a server out of memory).
 */
const MAX_SESSION_CLIENT_BYTES = 2 ** 16;
/**
 * What all legacy sessions of one dispatcher may keep of their `initialize`s at once, counted as
 * {@link MAX_SESSION_CLIENT_BYTES} is (2^26: 64 MiB); an `initialize` beyond it is answered
 * `-32603` until sessions end. Bounds what many sessions can make the server keep.
 */
const MAX_SESSIONS_CLIENT_BYTES = 2 ** 26;

/** A legacy session: what the channel negotiated, and what the client asked for since. */
interface LegacySession {
  readonly revision: DispatchRevision;
  readonly protocolVersion: string;
  readonly clientCapabilities: { readonly [key: string]: unknown };
  readonly clientInfo: unknown;
  /** What its `capabilities` and `clientInfo` count against {@link MAX_SESSIONS_CLIENT_BYTES} (shared by the copy an opened session is). */
  readonly clientBytes: { held: number };
  logLevel: string | undefined;
  initialized: boolean;
  readonly resources: Set<string>;
  push: ((message: OutgoingMessage) => boolean) | undefined;
  /** Rounds of input waiting for `notifications/initialized` before they send anything: called with nothing when it comes, with why not when the session closes. */
  readonly untilInitialized: Set<(gone?: string) => void>;
  /** The term of the requests it serves (see {@link Term}), closed when it ends (shared by the copy an opened session is). */
  readonly term: Term;
  /** What its handlers see as `context.legacySession` and `onSessionClosed` is given: a frozen empty object (shared by the copy an opened session is). */
  readonly key: object;
}

/**
 * What a legacy request holds of the session that served it when it arrived: once that session has ended (closed,
 * replaced by another `initialize`, or one whose `initialize` failed), `closed` says why, and a request of it that asks
 * the client for input later is answered at once: no other session's client is asked, by capabilities it never declared,
 * and over HTTP the ended session's client could not answer (404).
 */
interface Term {
  closed?: string;
}

/** How a server→client request ended: the client's result or error, or no answer (why). */
type InputOutcome = { readonly result: JsonObject } | { readonly error: DispatchErrorObject } | { readonly malformed: string } | { readonly gone: string };

/** The answer, or the reason there is none, of a server→client request awaiting the client's response. */
interface PendingInput {
  /** The legacy session whose request asked for it (none for a modern request). */
  readonly session: LegacySession | undefined;
  settle(outcome: InputOutcome): void;
  /** Tells the client to stop working on it (`notifications/cancelled`): it is given up. */
  cancel(reason: string): void;
}

/** Whether a result (a handler's, or a client's) is an `InputRequiredResult` of `resultType`. */
function isInputRequiredOf(value: unknown, resultType: string | undefined): boolean {
  return resultType !== undefined && isPlainObject(value) && own(value, "resultType") === resultType;
}

/**
 * Creates a dispatcher serving one protocol revision, or several (an array: the FIRST is the
 * *handler revision*, whose types the handlers and tools are written against; the others are
 * served by adapting to it). It routes each request (draft basic/versioning, "Backward
 * Compatibility with Initialization-Based Versions"):
 *
 * - `params._meta` carries the modern per-request protocol version → the modern revision that
 *   version names, statelessly;
 * - an `initialize` request without it, on a dispatcher serving a legacy revision → a legacy
 *   session on the channel, negotiated per the 2025-11-25 lifecycle (the requested version when
 *   a legacy revision serves it, else the latest legacy version served), answered with that
 *   revision's `InitializeResult`;
 * - any other request on a channel with a legacy session → the session's revision: checked with
 *   its validators, answered by the same handlers; results lose the members that revision lacks
 *   (`resultType`, `ttlMs`, `cacheScope`: {@link DispatchRevision.resultDrop}) and get no modern
 *   `_meta` keys, then are checked with its `parseResult`; an `InputRequiredResult` becomes the
 *   server→client requests it lists, sent over the request's stream (once the client sent
 *   `notifications/initialized`: until then the round waits), and the handler is called
 *   again with the client's `inputResponses` and the `requestState` (at most
 *   {@link DispatcherOptions.maxInputRounds} rounds); the core answers `ping`,
 *   `logging/setLevel`, `resources/subscribe`/`unsubscribe` and takes `notifications/initialized`;
 *   every notification or request sent to the client is checked with its revision first;
 * - a `ping` without it on a channel without session (a legacy client may ping before
 *   `initialize`) → the latest legacy revision, when the first revision has no `ping`;
 * - anything else → the first revision (a modern one checks the per-request `_meta`, as alone).
 *
 * It checks each message in this order and answers:
 *
 * 1. text that is not JSON → `-32700` without `id`;
 * 2. a batch (array) → `-32600` without `id`, unless the channel's legacy session takes batches (then each element goes
 *    through these steps alone, and the responses to its requests are answered as one array: see {@link CoreDispatcher.handle});
 *    a value that is not a request, notification or response → `-32600`, with the `id` when it can be read;
 * 3. a response (`id` and `result` or `error`, no `method`) → settles the server→client request it answers; never answered;
 * 4. a notification → handled (`notifications/cancelled` aborts its request), never answered; one whose params fail
 *    the schema, or whose `_meta` version is not a string or not served, takes no effect, and {@link HandleContext.refuse} is told;
 * 5. a method that is unknown, removed, not client→server, or whose server capability is not advertised → `-32601`;
 * 6. the arrival step (modern revisions): a readable `io.modelcontextprotocol/protocolVersion` that is not a modern version served → `-32022`
 *    with `data.supported` (the modern versions served: a legacy one is reached only through `initialize`) and `data.requested` (before the params: a client of another revision is told
 *    to switch, not that its params are wrong), a per-request `_meta` failing the schema → `-32602`;
 * 7. params failing the schema (of the revision serving the request) → `-32602` naming what is wrong (`data.issues`);
 * 8. an `id` already in flight on the same channel → `-32600` (the first request is not disturbed);
 * 9. the handler: its result (with `resultType`, caching fields and `_meta` serverInfo filled in where the revision has them);
 *    an input request needing a client capability the client did not declare (a url-mode elicitation needs `elicitation.url`, a
 *    form one `elicitation.form` unless `elicitation` is empty, a sampling request with `tools` or `toolChoice` `sampling.tools`),
 *    or `requireClientCapabilities`, → `-32021` with `data.requiredCapabilities`;
 *    a {@link HandlerError} → its code; any other exception, a malformed result or one that is not JSON data → `-32603`,
 *    logged through `onError` (not the abort reason or an `AbortError` thrown once the request's signal aborted), with nothing of it on the wire; a `deadline` that aborts → `-32603` with its reason; a legacy
 *    client's input round that fails (the client answers an error or nothing in time, the channel closes, too many rounds)
 *    → `-32603` saying which, or answers with a malformed response (a result failing the schema, a result or error that is
 *    not an object, neither: a message with the id of a request awaiting its response is taken as its response) → `-32602`.
 *
 * @throws TypeError when no revision is given, `supportedProtocolVersions` is empty or not strings, or two tools share a name
 */
export function createDispatcher(revisions: DispatchRevision | readonly DispatchRevision[], options: DispatcherOptions): CoreDispatcher {
  const served: readonly DispatchRevision[] = Array.isArray(revisions) ? [...(revisions as readonly DispatchRevision[])] : [revisions as DispatchRevision];
  if (served.length === 0) throw new TypeError("createDispatcher serves at least one revision");
  /** The handler revision: handlers and tools are written against its types. */
  const revision = served[0]!;
  const modern = served.filter((r) => r.era === "modern");
  const handlers: { readonly [method: string]: unknown } = Object.assign(Object.create(null) as JsonObject, options.handlers ?? {});
  const supported: readonly string[] = [...(options.supportedProtocolVersions ?? [...new Set(served.map((r) => r.protocolVersion))])];
  if (supported.length === 0 || supported.some((v) => typeof v !== "string")) throw new TypeError("supportedProtocolVersions lists at least one version, as strings");
  const tools = new Map<string, DispatcherTool>();
  if (served.some((r) => r.tools)) {
    for (const tool of options.tools ?? []) {
      if (tools.has(tool.definition.name)) throw new TypeError("two tools are named " + quoteShort(tool.definition.name));
      tools.set(tool.definition.name, tool);
    }
  }
  const capabilities = (options.capabilities ?? deriveCapabilities()) as { readonly [key: string]: unknown };
  const cache = options.cache ?? { ttlMs: 0, cacheScope: "private" as const };
  const cacheable: ReadonlySet<string> = new Set(revision.cacheable);
  const serverInfoKey = options.serverInfoMeta === false ? undefined : revision.metaKeys.serverInfo;
  const validateResults = options.validateResults ?? PLATFORM.process?.env?.["NODE_ENV"] !== "production";
  const strictMeta = options.strictMeta ?? false;
  const maxInputRounds = options.maxInputRounds ?? 8;
  const inputTimeoutMs = options.inputTimeoutMs ?? 600_000;
  const maxBatchSize = options.maxBatchSize ?? 64;
  // NaN would take any batch, and a batch read up to an unbounded size is the work the limit exists to bound.
  if (!Number.isSafeInteger(maxBatchSize) || maxBatchSize < 1) throw new RangeError("maxBatchSize must be an integer of at least 1, not " + (typeof maxBatchSize === "number" ? String(maxBatchSize) : typeof maxBatchSize));
  const onSessionClosed = options.onSessionClosed;
  const onError =
    options.onError ??
    ((error: unknown, info: DispatchErrorInfo) => {
      PLATFORM.console?.error("mcp dispatcher: " + info.reason + " in " + info.method, error);
    });
  /**
   * What handlers sent that is dropped the same way at every call, told of once each: a notification method whose
   * capability the server does not advertise, and progress from a request method whose requests gave no progressToken.
   */
  const toldOnce = new Set<string>();
  /** The reports of tools left out of a legacy `tools/list` already made (at most {@link MAX_TOLD_LEFT_OUT}). */
  const toldLeftOut = new Set<string>();
  const defaultChannel = {};
  const channels = new WeakMap<object, Map<string, AbortControllerLike>>();
  /** The controllers of `initialize` requests in flight, which `notifications/cancelled` does not abort ("A client MUST NOT attempt to cancel its `initialize` request", 2025-11-25 `CancelledNotification`). */
  const openings = new WeakSet<AbortControllerLike>();
  const subscriptions = new Set<Subscription>();
  const listenFilters = revision.listen?.filters ?? [];
  /** The key of the modern per-request protocol version (a legacy-only dispatcher reads its own table's). */
  const modernVersionKey = (modern[0] ?? revision).metaKeys.protocolVersion;
  /** Each supported version → the revision serving it: the one of that version, else the newest older one, else the oldest. */
  const byVersion = new Map<string, DispatchRevision>();
  {
    const ascending = [...served].sort((a, b) => (a.protocolVersion < b.protocolVersion ? -1 : a.protocolVersion > b.protocolVersion ? 1 : 0));
    for (const version of supported) {
      const exact = served.find((r) => r.protocolVersion === version);
      const older = ascending.filter((r) => r.protocolVersion <= version);
      byVersion.set(version, exact ?? older[older.length - 1] ?? ascending[0]!);
    }
  }
  if (options.capabilities !== undefined) unadvertisedHandlers();
  const legacyVersions = supported.filter((v) => byVersion.get(v)?.era === "legacy");
  /**
   * What a modern client is told is served (`server/discover`, `-32022`): the modern versions
   * only, since a modern request naming a legacy one is refused (a legacy client negotiates among
   * the legacy ones at `initialize`). A dispatcher serving no modern revision lists every version.
   */
  const modernVersions: readonly string[] = modern.length > 0 ? supported.filter((v) => byVersion.get(v)?.era === "modern") : supported;
  /** What a legacy client that asks for a version not served gets (2025-11-25 basic/lifecycle § Version Negotiation: the latest version served). */
  const latestLegacy: string | undefined = legacyVersions.reduce<string | undefined>((a, v) => (a === undefined || v > a ? v : a), undefined);
  /** The `initialize` methods of the legacy revisions served. */
  // filter and map, not flatMap: the output type-checks against lib ES2017.
  const openingMethods: ReadonlySet<string> = new Set(
    latestLegacy === undefined ? [] : served.filter((r) => r.era === "legacy" && r.builtins.initialize !== undefined).map((r) => r.builtins.initialize!),
  );
  const sessions = new Map<object, LegacySession>();
  // The characters of the URIs all sessions hold subscribed (see MAX_SUBSCRIBED_CHARACTERS).
  let subscribedCharacters = 0;
  /** What the legacy sessions (opening ones included) keep of their `initialize`s, as {@link MAX_SESSIONS_CLIENT_BYTES} counts it. */
  let sessionsClientBytes = 0;
  /**
   * The session an `initialize` in flight is opening, per channel: messages that follow it before
   * its answer (a client may write them at once) are served by it; it becomes the channel's
   * session when the `initialize` succeeds, with what they set (log level, subscriptions,
   * `initialized`), and is forgotten when it fails.
   */
  const openingSessions = new Map<object, LegacySession>();
  /** The session messages on a channel are served by: the one an `initialize` in flight is opening, else the open one. */
  const liveSession = (channel: object): LegacySession | undefined => openingSessions.get(channel) ?? sessions.get(channel);
  const pendingInputs = new WeakMap<object, Map<string, PendingInput>>();
  /**
   * The term of a channel's legacy requests served by no session (a channel closed, before another `initialize`): closed
   * with the channel ({@link closeChannel}).
   */
  const channelTerms = new WeakMap<object, Term>();
  let outgoingIds = 0;
  /** The random part of the elicitation ids the core makes ({@link withElicitationId}), made at the first. */
  let elicitationPrefix: string | undefined;

  function deriveCapabilities(): JsonObject {
    const derived: JsonObject = {};
    for (const method of Object.keys(handlers)) {
      const info = revision.methodInfo(method);
      if (handlers[method] !== undefined && info?.capability?.side === "server") addCapability(derived, info.capability.path);
    }
    if (served.some((r) => r.tools) && options.tools !== undefined) addCapability(derived, ["tools"]);
    return derived;
  }

  /**
   * Tells `onError` of each handler `options.capabilities` makes unreachable, once: a method whose
   * server capability is not advertised is `-32601` at every request, which a test of the handler
   * alone does not show.
   */
  function unadvertisedHandlers(): void {
    const reachable = [...new Set(byVersion.values())];
    /** The server capability that keeps `method` from the clients of every revision served, else `undefined` (one reaches it, or none has it). */
    const shutOut = (method: string): readonly string[] | undefined => {
      let path: readonly string[] | undefined;
      for (const of of reachable) {
        const info = of.methodInfo(method);
        if (info === undefined || info.direction === "server-to-client") continue;
        const gate = info.capability;
        if (gate?.side !== "server" || hasCapability(capabilities, gate.path)) return undefined;
        if (path === undefined) path = gate.path;
      }
      return path;
    };
    const told: [method: string, path: readonly string[], consequence: string][] = [];
    for (const method of Object.keys(handlers)) {
      const path = handlers[method] === undefined ? undefined : shutOut(method);
      if (path !== undefined) told.push([method, path, "the " + method + " handler is never called"]);
    }
    if (served.some((r) => r.tools) && options.tools !== undefined && handlers["tools/list"] === undefined) {
      const path = shutOut("tools/list");
      if (path !== undefined) told.push(["tools/list", path, "the tools of options.tools are never listed or called"]);
    }
    for (const [method, path, consequence] of told) {
      const problem = new TypeError(
        "options.capabilities leaves out " + path.join(".") + ", so " + consequence + " (" + method +
          " is answered -32601): add " + path.join(".") + " to options.capabilities, or leave options.capabilities out to derive the capabilities from the handlers",
      );
      report(problem, { method, reason: "unadvertised-handler" });
    }
  }

  function report(error: unknown, info: DispatchErrorInfo): void {
    try {
      onError(error, info);
    } catch {
      // a failing logger must not change the answer
    }
  }

  /** The method-table row of a method the client sends (`kind` request or notification), else `undefined`. */
  function fromClient(of: DispatchRevision, method: string, kind: "request" | "notification"): MethodRow | undefined {
    const info = of.methodInfo(method);
    return info !== undefined && info.kind === kind && info.direction !== "server-to-client" ? info : undefined;
  }

  /** A legacy role's method: the revision's own name, else the 2025-11-25 name when its table has that client→server message. */
  function legacyMethod(of: DispatchRevision, role: "setLevel" | "subscribe" | "unsubscribe" | "initialized"): string | undefined {
    const named = role === "initialized" ? of.initializedNotification : of.builtins[role];
    if (named !== undefined || of.era !== "legacy") return named;
    const name = LEGACY_NAMES[role];
    return fromClient(of, name, role === "initialized" ? "notification" : "request") !== undefined ? name : undefined;
  }

  function inFlightOf(channel: object): Map<string, AbortControllerLike> {
    let map = channels.get(channel);
    if (map === undefined) {
      map = new Map();
      channels.set(channel, map);
    }
    return map;
  }

  function idKey(id: DispatchRequestId): string {
    return typeof id + ":" + String(id);
  }

  type Answer = (params: { readonly [key: string]: unknown }, context: RequestContextCore, channel: object) => unknown;

  /** The built-in answers of each revision, used when no handler is given. */
  const builtinTables = new Map<DispatchRevision, { readonly [method: string]: Answer | undefined }>();
  for (const r of served) builtinTables.set(r, makeBuiltins(r));

  function makeBuiltins(of: DispatchRevision): { readonly [method: string]: Answer | undefined } {
    const builtins = Object.create(null) as { [method: string]: Answer | undefined };
    const { discover, initialize, ping, listen } = of.builtins;
    if (discover !== undefined) {
      builtins[discover] = () => ({
        supportedVersions: [...modernVersions],
        capabilities,
        ...(of.discoverServerInfo === true ? { serverInfo: options.serverInfo } : {}),
        ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
      });
    }
    if (initialize !== undefined) {
      builtins[initialize] = (params) => ({
        protocolVersion: negotiate(own(params, "protocolVersion")) ?? supported[0],
        capabilities,
        serverInfo: options.serverInfo,
        ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
      });
    }
    if (ping !== undefined) builtins[ping] = () => ({});
    const setLevel = legacyMethod(of, "setLevel");
    if (setLevel !== undefined) {
      builtins[setLevel] = (params, _context, channel) => {
        const level = own(params, "level");
        const session = liveSession(channel);
        if (session !== undefined && typeof level === "string") session.logLevel = level;
        return {};
      };
    }
    const subscribe = legacyMethod(of, "subscribe");
    if (subscribe !== undefined) {
      builtins[subscribe] = (params, _context, channel) => {
        const uri = own(params, "uri");
        const resources = liveSession(channel)?.resources;
        if (typeof uri !== "string" || resources === undefined || resources.has(uri)) return {};
        if (uri.length > MAX_SUBSCRIBED_URI_LENGTH) throw new HandlerError(-32602, "Invalid params: uri: a subscribed URI is at most " + MAX_SUBSCRIBED_URI_LENGTH + " characters");
        if (resources.size >= MAX_SESSION_SUBSCRIPTIONS) {
          throw new HandlerError(-32603, "Too many resource subscriptions on this session (at most " + MAX_SESSION_SUBSCRIPTIONS + "); unsubscribe from one first");
        }
        if (subscribedCharacters + uri.length > MAX_SUBSCRIBED_CHARACTERS) {
          throw new HandlerError(-32603, "Too many resource subscriptions on this server (URIs of at most " + MAX_SUBSCRIBED_CHARACTERS + " characters in all); try again later");
        }
        resources.add(uri);
        subscribedCharacters += uri.length;
        return {};
      };
    }
    const unsubscribe = legacyMethod(of, "unsubscribe");
    if (unsubscribe !== undefined) {
      builtins[unsubscribe] = (params, _context, channel) => {
        const uri = own(params, "uri");
        if (typeof uri === "string" && liveSession(channel)?.resources.delete(uri) === true) subscribedCharacters -= uri.length;
        return {};
      };
    }
    if (of.tools && options.tools !== undefined) {
      builtins["tools/list"] = (params) => {
        // pagination § Error Handling: an invalid cursor SHOULD be -32602 (one page, so no cursor is one this server gave).
        if (own(params, "cursor") !== undefined) throw new HandlerError(-32602, "Invalid cursor: this server lists all its tools on one page and gave no cursor; list them without one");
        return { tools: [...tools.values()].map((t) => t.definition) };
      };
      builtins["tools/call"] = (params, context) => {
        const name = own(params, "name");
        const tool = typeof name === "string" ? tools.get(name) : undefined;
        if (tool === undefined) throw new HandlerError(-32602, "Unknown tool: " + (typeof name === "string" ? quoteShort(name) : "(no name)"));
        const given = own(params, "arguments");
        const args = isPlainObject(given) ? given : {};
        const problem = tool.checkArguments !== undefined ? tool.checkArguments(args) : checkToolArguments(tool.definition.inputSchema, args);
        if (problem !== undefined) return toolError("Invalid arguments for tool " + quoteShort(tool.definition.name) + ": " + problem);
        const called: unknown = tool.call(args, context as never);
        const outputSchema: unknown = own(tool.definition, "outputSchema");
        if (!validateResults || outputSchema === undefined) return called;
        return Promise.resolve(called).then((result) => {
          // The tool wrote its result in the handler revision's terms, whichever revision's client called it.
          let wrong: unknown;
          try {
            const problem = structuredContentProblem(outputSchema, result, revision.absentResultType);
            if (problem === undefined) return result;
            wrong = new TypeError("the " + quoteShort(tool.definition.name) + " tool returned a result its outputSchema does not allow: " + problem);
          } catch (error) {
            // A result whose getters or Proxy traps throw: a malformed result, as the result's own check would find it.
            wrong = error;
          }
          report(wrong, { method: "tools/call", id: context.id, reason: "invalid-result" });
          throw new HandlerError(-32603, "Internal error");
        });
      };
    }
    if (listen !== undefined && of.listen !== undefined) builtins[listen] = (params, context) => subscribe_(params, context);
    return builtins;
  }

  /** The legacy version a client asking for `requested` gets (2025-11-25 basic/lifecycle § Version Negotiation), or `undefined` when no legacy revision is served. */
  function negotiate(requested: unknown): string | undefined {
    return typeof requested === "string" && byVersion.get(requested)?.era === "legacy" ? requested : latestLegacy;
  }

  /** The built-in `subscriptions/listen`: acknowledges the part of the filter the server can honour, then stays open until cancelled or closed. */
  function subscribe_(params: { readonly [key: string]: unknown }, context: RequestContextCore): Promise<unknown> {
    const requested = own(params, "notifications");
    const asked = isPlainObject(requested) ? requested : {};
    const agreed: JsonObject = {};
    for (const f of listenFilters) {
      const value = own(asked, f.field);
      if (!hasCapability(capabilities, f.capability)) continue;
      if (f.list ? Array.isArray(value) && value.every((u) => typeof u === "string") : value === true) agreed[f.field] = value;
    }
    const meta: JsonObject = {};
    if (revision.metaKeys.subscriptionId !== undefined) meta[revision.metaKeys.subscriptionId] = context.id;
    const send = (n: OutgoingNotification) => context.notify(n.method, n.params);
    send({ jsonrpc: "2.0", method: revision.listen!.acknowledgement, params: { _meta: meta, notifications: agreed } });
    return new Promise((resolve) => {
      const subscription: Subscription = {
        id: context.id,
        filter: agreed,
        send,
        end: () => {
          subscriptions.delete(subscription);
          resolve({ _meta: meta });
        },
      };
      subscriptions.add(subscription);
      const signal = context.signal as AbortSignalLike;
      if (signal.aborted) subscription.end();
      else signal.addEventListener("abort", () => subscription.end(), { once: true });
    });
  }

  /** What one request needs to be served: the revision serving it, its channel's session, and how to reach the client. */
  interface Serving {
    readonly revision: DispatchRevision;
    readonly channel: object;
    /** Whether the result is adapted from the handler revision to this (legacy) one. */
    readonly adapt: boolean;
    /** Sends a server→client request for this request (its stream, else the session's push); false when nothing carries it. */
    readonly deliver: (message: OutgoingRequest) => boolean;
    /** Sends a notification about this request's server→client requests: on its stream while the request is unanswered, else through the session's push. */
    readonly tell: (message: OutgoingNotification) => void;
    readonly signal: AbortSignalLike;
    /** A legacy request's: the term of the session that served it when it arrived (see {@link Term}). */
    readonly term: Term | undefined;
    /** Told before a legacy client's round of input calls the handler again. */
    readonly nextRound: () => void;
  }

  /** Runs a handler (again, for each round of a legacy client's input) and shapes what it returns into the result sent on the wire. */
  async function respond(id: DispatchRequestId, method: string, params: { readonly [key: string]: unknown }, context: RequestContextCore, serving: Serving): Promise<DispatchResponse> {
    const own_ = handlers[method] as Answer | undefined;
    const builtin = own_ === undefined ? builtinTables.get(serving.revision)?.[method] : undefined;
    if (own_ === undefined && builtin === undefined) return errorOf(id, -32601, "Method not implemented: " + quoteShort(method));
    // A legacy client cannot retry with inputResponses: the core asks it and retries for it.
    const rounds = serving.revision.era === "legacy" && revision.inputRequiredResultType !== undefined;
    let currentParams = params;
    let currentContext = context;
    for (let round = 0; ; round++) {
      let value: unknown;
      try {
        value = own_ !== undefined ? await own_(currentParams, currentContext, serving.channel) : await builtin!(currentParams, currentContext, serving.channel);
      } catch (error) {
        // A handler that stops on its aborted signal (cancelled, past its deadline) with the signal's reason or an
        // AbortError is doing what it should: its answer is not sent (or was sent already), so that is not a fault.
        const signal = currentContext.signal;
        if (signal.aborted && (error === signal.reason || (error instanceof Error && error.name === "AbortError"))) {
          return errorOf(id, -32603, "Request aborted before it completed");
        }
        return thrown(id, method, error, serving.revision);
      }
      try {
        if (!rounds || !isInputRequiredOf(value, revision.inputRequiredResultType)) return shape(id, method, value, context, serving);
        // Checked as a modern client's is (shape): a malformed one (neither inputRequests nor requestState, say) is a
        // server bug, answered at once (before, the handler was called again until maxInputRounds, and the log blamed the rounds).
        if (validateResults) {
          const parsed = revision.parseResult(method as never, value);
          if (!parsed.ok) {
            report(new TypeError("the " + method + " handler returned a malformed result: " + describeIssues(parsed.issues)), { method, id, reason: "invalid-result" });
            return errorOf(id, -32603, "Internal error");
          }
        }
        const refused = inputRequestsRefused(id, serving.revision, own(value, "inputRequests"), context.clientCapabilities);
        if (refused !== undefined) return refused;
        if (round + 1 >= maxInputRounds) {
          report(new TypeError("the " + method + " handler still asked for input after " + maxInputRounds + " rounds"), { method, id, reason: "invalid-result" });
          return errorOf(id, -32603, "Internal error: the request needed more than " + maxInputRounds + " rounds of input");
        }
        const requestState: unknown = own(value, "requestState");
        const collected = await collectInputs(id, method, own(value, "inputRequests"), serving);
        if ("error" in collected) return collected.error;
        const next: JsonObject = { ...params, inputResponses: collected.responses };
        delete next["requestState"];
        if (typeof requestState === "string") next["requestState"] = requestState;
        currentParams = next;
        currentContext = { ...context, inputResponses: collected.responses, requestState: typeof requestState === "string" ? requestState : undefined };
        serving.nextRound();
      } catch (error) {
        // a result whose getters or Proxy traps throw
        report(error, { method, id, reason: "invalid-result" });
        return errorOf(id, -32603, "Internal error");
      }
    }
  }

  /**
   * One round of a legacy client's input: each `inputRequests[key]` sent as a server→client
   * request (checked with the session's revision), the client's results collected by key.
   */
  async function collectInputs(
    id: DispatchRequestId,
    method: string,
    inputRequests: unknown,
    serving: Serving,
  ): Promise<{ readonly responses: JsonObject } | { readonly error: DispatchResponse }> {
    const responses: JsonObject = {};
    if (!isPlainObject(inputRequests)) return { responses };
    const pending = pendingOf(serving.channel);
    const asked: { readonly key: string; readonly method: string; readonly id: DispatchRequestId; readonly answer: Promise<InputOutcome> }[] = [];
    const settlers = new Map<string, { readonly id: DispatchRequestId; readonly entry: PendingInput }>();
    /** Gives up what is still pending, telling the client to stop working on it (2025-11-25 basic/utilities/cancellation). */
    let stop: (why: string) => void = () => {};
    const stopped = new Promise<string>((resolve) => (stop = resolve));
    const giveUp = (why: string) => {
      stop(why);
      for (const [key, { entry }] of settlers) {
        if (pending.get(key) !== entry) continue;
        entry.cancel(why);
        entry.settle({ gone: why });
      }
    };
    const onAbort = () => giveUp("the request was cancelled");
    serving.signal.addEventListener("abort", onAbort, { once: true });
    // Not unref'd: a process whose requests wait for the client's answers must not exit while they do (a stdio server with its input paused).
    const timer = PLATFORM.setTimeout(() => giveUp("the client did not answer within " + inputTimeoutMs + " ms"), inputTimeoutMs);
    try {
      // Nothing but pings and logging goes to a client before it said it is initialized (2025-11-25 basic/lifecycle § Initialization): the round waits for it, within its time limit.
      // The session that serves the request: one the open session served (its term), though an initialize is in flight,
      // waits for nothing of a session that may never open (before, it waited for that initialize's
      // notifications/initialized, and was refused when that initialize failed, its own session still open).
      const open = sessions.get(serving.channel);
      const session = open !== undefined && open.term === serving.term ? open : liveSession(serving.channel);
      if (session !== undefined && !session.initialized) {
        let waiting: (gone?: string) => void = () => {};
        const initialized = new Promise<string | undefined>((resolve) => (waiting = resolve));
        session.untilInitialized.add(waiting);
        const gone = await Promise.race([initialized, stopped]);
        session.untilInitialized.delete(waiting);
        if (gone !== undefined) return { error: errorOf(id, -32603, "Internal error: the client never sent notifications/initialized, so no request could be sent to it: " + gone) };
      }
      for (const key of Object.keys(inputRequests)) {
        const entry = inputRequests[key];
        const inputMethod = isPlainObject(entry) ? own(entry, "method") : undefined;
        const inputParams = isPlainObject(entry) ? own(entry, "params") : undefined;
        if (typeof inputMethod !== "string") {
          report(new TypeError("the " + method + " handler asked for input " + quoteShort(key) + " without a method"), { method, id, reason: "invalid-result" });
          return { error: errorOf(id, -32603, "Internal error") };
        }
        const outgoingId = ++outgoingIds;
        let message: OutgoingRequest = isPlainObject(inputParams)
          ? { jsonrpc: "2.0", id: outgoingId, method: inputMethod, params: paramsFor(serving.revision, inputMethod, inputParams) }
          : { jsonrpc: "2.0", id: outgoingId, method: inputMethod };
        let problem = outgoingProblem(serving.revision, message);
        const withId = problem === undefined ? undefined : withElicitationId(message, outgoingId);
        if (withId !== undefined && outgoingProblem(serving.revision, withId) === undefined) {
          message = withId;
          problem = undefined;
        }
        if (problem !== undefined) {
          report(new TypeError("a " + inputMethod + " request for a " + serving.revision.protocolVersion + " client: " + problem), { method, id, reason: "invalid-outgoing" });
          return { error: errorOf(id, -32603, "Internal error") };
        }
        const pendingKey = idKey(outgoingId);
        let settle: (outcome: InputOutcome) => void = () => {};
        const answer = new Promise<InputOutcome>((resolve) => (settle = resolve));
        const input: PendingInput = {
          session,
          settle: (outcome) => {
            if (pending.get(pendingKey) === input) pending.delete(pendingKey);
            settle(outcome);
          },
          cancel: (reason) => cancelInput(serving, outgoingId, reason),
        };
        pending.set(pendingKey, input);
        settlers.set(pendingKey, { id: outgoingId, entry: input });
        asked.push({ key, method: inputMethod, id: outgoingId, answer });
        const closed = serving.term?.closed;
        if (serving.signal.aborted) input.settle({ gone: "the request was cancelled" });
        else if (closed !== undefined) input.settle({ gone: closed });
        else if (!serving.deliver(message)) input.settle({ gone: "nothing carries requests to the client" });
      }
      for (const { key, method: inputMethod, id: outgoingId, answer } of asked) {
        const outcome = await answer;
        if ("gone" in outcome) {
          giveUp(outcome.gone);
          return { error: errorOf(id, -32603, "Internal error: no answer to " + inputMethod + " (id " + idText(outgoingId) + "): " + outcome.gone) };
        }
        if ("error" in outcome) {
          giveUp("another input failed");
          return {
            error: errorOf(id, -32603, "The client answered " + inputMethod + " with error " + String(outcome.error.code) + ": " + outcome.error.message),
          };
        }
        // As a modern client's inputResponses failing the schema would make its retried request's params invalid: -32602.
        const checked = "malformed" in outcome ? undefined : serving.revision.parseResult(inputMethod as never, outcome.result);
        if (checked === undefined || !checked.ok) {
          giveUp("another input failed");
          const problem = checked === undefined ? (outcome as { readonly malformed: string }).malformed : describeIssues(checked.issues);
          return { error: errorOf(id, -32602, "Invalid " + inputMethod + " result from the client: " + problem) };
        }
        // As a modern client's inputResponses carry them: the handler revision's input results (2026-07-28 `InputResponse`:
        // ElicitResult, CreateMessageResult, ListRootsResult) have no `resultType`, and none is added.
        responses[key] = (outcome as { readonly result: JsonObject }).result;
      }
      return { responses };
    } finally {
      PLATFORM.clearTimeout(timer);
      serving.signal.removeEventListener("abort", onAbort);
    }
  }

  /**
   * A url-mode `elicitation/create` with the `elicitationId` that 2025-11-25 requires of it
   * (client/elicitation § URL Mode: "unique within the context of the server") and a later revision
   * dropped: a handler written against that revision cannot give one, so the core makes it,
   * `elicitation-<random>-<the request's own id>`: unique in this dispatcher, and beyond it (another
   * process of the server, an id a handler made) by the random part. `undefined` for any other
   * request, or one that has its id.
   */
  function withElicitationId(message: OutgoingRequest, outgoingId: number): OutgoingRequest | undefined {
    const params = message.params;
    if (message.method !== "elicitation/create" || !isPlainObject(params) || own(params, "mode") !== "url" || hasOwn.call(params, "elicitationId")) return undefined;
    elicitationPrefix ??= randomText();
    return { ...message, params: { ...params, elicitationId: "elicitation-" + elicitationPrefix + "-" + String(outgoingId) } };
  }

  /**
   * `notifications/cancelled` for a server→client request the core gave up on (2025-11-25
   * basic/utilities/cancellation): on the stream of the request that asked for it while that is
   * open, else through the session's push (best effort: nothing may carry it any more).
   */
  function cancelInput(serving: Serving, requestId: DispatchRequestId, reason: string): void {
    const message: OutgoingNotification = { jsonrpc: "2.0", method: serving.revision.cancelledMethod, params: { requestId, reason } };
    if (outgoingProblem(serving.revision, message) !== undefined) return;
    serving.tell(message);
  }

  /** The term a legacy request arriving on `channel` holds: its session's, else the channel's own. */
  function termOf(channel: object): Term {
    const session = liveSession(channel);
    if (session !== undefined) return session.term;
    let term = channelTerms.get(channel);
    if (term === undefined) {
      term = {};
      channelTerms.set(channel, term);
    }
    return term;
  }

  function pendingOf(channel: object): Map<string, PendingInput> {
    let map = pendingInputs.get(channel);
    if (map === undefined) {
      map = new Map();
      pendingInputs.set(channel, map);
    }
    return map;
  }

  /** What is wrong with a message for a client of a legacy revision (it is not a server→client message of that revision, or fails its schema), else `undefined`. */
  function outgoingProblem(of: DispatchRevision, message: OutgoingMessage): string | undefined {
    const info = of.methodInfo(message.method);
    const isRequest = Object.prototype.hasOwnProperty.call(message, "id");
    if (info === undefined || info.direction === "client-to-server" || (info.kind === "notification") === isRequest) {
      return quoteShort(message.method) + " is not a server-to-client " + (isRequest ? "request" : "notification") + " of " + of.protocolVersion;
    }
    if (!isJsonData(message)) return "it is not JSON data";
    const validate = of.validatorsByType[info.messageType];
    const checked = validate === undefined ? undefined : validate(message);
    return checked === undefined || checked.ok ? undefined : describeIssues(checked.issues);
  }

  /** Whether a log message at `level` reaches a session whose client asked for `threshold` (2025-11-25 server/utilities/logging). */
  function levelReaches(of: DispatchRevision, level: unknown, threshold: string | undefined): boolean {
    if (threshold === undefined || typeof level !== "string") return true;
    const order = of.logLevels ?? LOG_LEVELS;
    return order.indexOf(level) >= order.indexOf(threshold);
  }

  /** The answer to an exception a handler threw: a {@link HandlerError}'s own error when its parts are JSON data, else `-32603`. */
  function thrown(id: DispatchRequestId, method: string, error: unknown, of: DispatchRevision): DispatchResponse {
    try {
      if (isHandlerError(error)) {
        // Each part read once: a getter could answer a second read with something else.
        const { code, message, data } = error as { readonly code: unknown; readonly message: unknown; readonly data: unknown };
        const wrong = !Number.isSafeInteger(code)
          ? "code " + (typeof code === "number" ? String(code) + (Number.isInteger(code) ? " is not a safe integer" : " is not an integer") : "(a " + typeof code + ") is not an integer")
          : typeof message !== "string"
            ? "message is not a string"
            : data !== undefined && !isJsonData(data)
              ? "data is not JSON data"
              : undefined;
        if (wrong === undefined) return errorOf(id, notFoundIn(of, method, code as number, data), message as string, data);
        report(new TypeError("the " + method + " handler threw a HandlerError whose " + wrong), { method, id, reason: "invalid-result" });
        return errorOf(id, -32603, "Internal error");
      }
    } catch {
      // a HandlerError whose parts cannot be read, or are no code and message, is answered like any other exception
    }
    report(error, { method, id, reason: "handler-threw" });
    return errorOf(id, -32603, "Internal error");
  }

  /**
   * A handler's error code as the revision `of` says it: "resource not found" from a `resources/` method, in the
   * handler revision's terms, becomes `of`'s code when `data` fits `of`'s rule too; any other code is kept.
   */
  function notFoundIn(of: DispatchRevision, method: string, code: number, data: unknown): number {
    const mine = revision.resourceNotFound;
    const theirs = of.resourceNotFound;
    if (mine === undefined || theirs === undefined || code !== mine.code || code === theirs.code || !method.startsWith("resources/")) return code;
    const hasUri = isPlainObject(data) && typeof own(data, "uri") === "string";
    return (mine.uriRequired || theirs.uriRequired) && !hasUri ? code : theirs.code;
  }

  /** The result members a legacy revision's result lacks (see {@link DispatchRevision.resultDrop}). */
  function dropped(of: DispatchRevision, method: string): readonly string[] {
    if (of.resultDrop !== undefined) {
      const listed: unknown = own(of.resultDrop, method);
      return Array.isArray(listed) ? (listed as readonly string[]) : [];
    }
    const members: string[] = [];
    if (revision.absentResultType !== undefined) members.push("resultType");
    if (cacheable.has(method)) members.push("ttlMs", "cacheScope");
    return members;
  }

  /**
   * What a handler returned, completed (`resultType`, caching fields, serverInfo) and checked;
   * for a legacy revision served by adaptation, the members it lacks deleted instead, nothing
   * added, and checked with that revision.
   */
  function shape(id: DispatchRequestId, method: string, value: unknown, context: RequestContextCore, serving: Serving): DispatchResponse {
    if (!isPlainObject(value)) {
      report(new TypeError("the handler returned " + (value === null ? "null" : typeof value) + ", not a result object"), { method, id, reason: "invalid-result" });
      return errorOf(id, -32603, "Internal error");
    }
    const result: JsonObject = { ...value };
    if (serving.adapt) {
      for (const member of dropped(serving.revision, method)) delete result[member];
      narrowTools(method, result, !dropped(serving.revision, "tools/call").includes("structuredContent"));
    } else {
      if (revision.absentResultType !== undefined && result["resultType"] === undefined) result["resultType"] = revision.absentResultType;
      const inputRequired = isInputRequiredOf(result, revision.inputRequiredResultType);
      if (cacheable.has(method) && !inputRequired) {
        if (context.inputResponses !== undefined || context.requestState !== undefined) {
          // A retry's result depends on its inputResponses and requestState, which no cache key holds: it "MUST
          // NOT be cached" (draft server/utilities/caching § Cache Key). Immediately stale and private, whatever
          // options.cache or the handler say, so that neither a client nor a shared cache serves it again.
          result["ttlMs"] = 0;
          result["cacheScope"] = "private";
        } else {
          if (result["ttlMs"] === undefined) result["ttlMs"] = cache.ttlMs;
          if (result["cacheScope"] === undefined) result["cacheScope"] = cache.cacheScope;
        }
      }
      if (serverInfoKey !== undefined) {
        const meta = isPlainObject(result["_meta"]) ? result["_meta"] : {};
        result["_meta"] = { ...meta, [serverInfoKey]: options.serverInfo };
      }
      if (inputRequired) {
        const refused = inputRequestsRefused(id, serving.revision, result["inputRequests"], context.clientCapabilities);
        if (refused !== undefined) return refused;
      }
    }
    // Whatever the schema allows (`unknown` members, `_meta`), the wire carries JSON: a bigint or a cycle is a server bug.
    if (!isJsonData(result)) {
      report(new TypeError("the " + method + " handler returned a result that is not JSON data (a bigint, a cycle, a class instance, NaN…)"), {
        method,
        id,
        reason: "invalid-result",
      });
      return errorOf(id, -32603, "Internal error");
    }
    if (validateResults) {
      // The `resultType` selects the shape: an `InputRequiredResult` is never read as a complete result, nor the other way round.
      let parsed = (serving.adapt ? serving.revision : revision).parseResult(method as never, result);
      // A legacy client's tool list without the tools it still cannot take (a schema the handler revision lets
      // through, such as properties that are not an object): one such tool would leave the client no tools at all.
      // A validation stops after MAX_ISSUES issues: the tools past them are found in another round, each of which leaves out at least one.
      let unfit = !parsed.ok && serving.adapt && method === "tools/list" ? unfitTools(parsed.issues, result["tools"]) : undefined;
      if (unfit !== undefined) {
        const first = parsed.ok ? [] : parsed.issues;
        let left = 0;
        while (unfit !== undefined) {
          const out = unfit;
          left += out.size;
          result["tools"] = (result["tools"] as unknown[]).filter((_, i) => !out.has(i));
          parsed = serving.revision.parseResult(method as never, result);
          unfit = parsed.ok ? undefined : unfitTools(parsed.issues, result["tools"]);
        }
        const leftOut = "tools/list to a " + serving.revision.protocolVersion + " client leaves out " + String(left) + " tool" + (left === 1 ? "" : "s") + " it cannot take: " + describeIssues(first);
        // Said once: the same tools are left out of every legacy client's list, and a log of each says nothing new.
        if (!toldLeftOut.has(leftOut)) {
          if (toldLeftOut.size < MAX_TOLD_LEFT_OUT) toldLeftOut.add(leftOut);
          report(new TypeError(leftOut), { method, id, reason: "invalid-result" });
        }
      }
      // Content blocks of a type the client's revision lacks (resource_link before 2025-06-18, audio before 2025-03-26):
      // each becomes a text block saying what it was, rather than the whole answer an error.
      // A validation stops after MAX_ISSUES issues: the blocks past them are found in another round, each of which replaces at least one.
      // A block the handler revision refuses too (a type no revision has, a resource_link without its uri) is a server bug, answered -32603 as to a modern client.
      if (!parsed.ok && serving.adapt) {
        const asHandlerRevision = revision.validatorsByType["ContentBlock"];
        const fit = (found: ReturnType<typeof unfitContent>) =>
          found !== undefined && (asHandlerRevision === undefined || found.every(({ block }) => asHandlerRevision(block).ok)) ? found : undefined;
        let blocks = fit(unfitContent(parsed.issues, method, result));
        const types = new Set<string>();
        while (blocks !== undefined) {
          for (const { block, replace } of blocks) {
            const type = String(own(block, "type"));
            types.add(type);
            replace({ type: "text", text: contentAsText(type, block, serving.revision.protocolVersion) });
          }
          parsed = serving.revision.parseResult(method as never, result);
          blocks = parsed.ok ? undefined : fit(unfitContent(parsed.issues, method, result));
        }
        const told = types.size > 0 && parsed.ok ? method + " to a " + serving.revision.protocolVersion + " client turns content it cannot take into text: " + [...types].sort().join(", ") : undefined;
        if (told !== undefined && !toldLeftOut.has(told)) {
          if (toldLeftOut.size < MAX_TOLD_LEFT_OUT) toldLeftOut.add(told);
          report(new TypeError(told), { method, id, reason: "invalid-result" });
        }
      }
      if (!parsed.ok) {
        report(new TypeError("the " + method + " handler returned a malformed result: " + describeIssues(parsed.issues)), { method, id, reason: "invalid-result" });
        return errorOf(id, -32603, "Internal error");
      }
    }
    return { jsonrpc: "2.0", id, result };
  }

  /** An input request's params as `of` has them: without the members it lacks that hold the value meaning "left out" (see {@link DispatchRevision.requestDrop}). */
  function paramsFor(of: DispatchRevision, method: string, params: JsonObject): JsonObject {
    const drop = of.requestDrop === undefined ? undefined : own(of.requestDrop, method);
    if (!isPlainObject(drop)) return params;
    let kept: JsonObject | undefined;
    for (const member of Object.keys(drop)) {
      if (own(params, member) !== drop[member]) continue;
      kept ??= { ...params };
      delete kept[member];
    }
    return kept ?? params;
  }

  /**
   * `-32021` for an `InputRequiredResult` whose requests the client cannot take: it did not
   * declare the capability one needs (`data.requiredCapabilities`), or its protocol revision (a
   * legacy session's) has no such server→client request at all, whatever it declared (an
   * `elicitation/create` to a 2025-03-26 client). `undefined` when it can take them all.
   */
  function inputRequestsRefused(id: DispatchRequestId, of: DispatchRevision, inputRequests: unknown, declared: unknown): DispatchResponse | undefined {
    if (!isPlainObject(inputRequests)) return undefined;
    const required: JsonObject = {};
    const absent: { readonly method: string; readonly path: readonly string[] }[] = [];
    for (const key of Object.keys(inputRequests)) {
      const request = inputRequests[key];
      const method = isPlainObject(request) ? own(request, "method") : undefined;
      if (typeof method !== "string") continue;
      const known = of.methodInfo(method);
      const info = known ?? revision.methodInfo(method);
      if (info?.capability?.side === "client") {
        addCapability(required, info.capability.path);
        if (known === undefined) absent.push({ method, path: info.capability.path });
      }
      const params = own(request, "params");
      if (isPlainObject(params)) {
        for (const path of featuresNeeded(method, params, declared)) addCapability(required, path);
      }
    }
    const missing = missingCapabilities(declared, required);
    if (absent.length === 0) return missing === undefined ? undefined : errorOf(id, -32021, missingCapabilityMessage(missing), { requiredCapabilities: missing });
    const requiredCapabilities = missing ?? {};
    for (const { path } of absent) addCapability(requiredCapabilities, path);
    const methods = [...new Set(absent.map((a) => a.method))].join(", ");
    return errorOf(id, -32021, "Missing required client capability: protocol " + of.protocolVersion + " has no " + methods, { requiredCapabilities });
  }

  /**
   * The capabilities below a method's own that a server→client request's params need: servers
   * must not send an elicitation in a mode the client did not declare, an empty `elicitation`
   * meaning form only (draft client/elicitation, "Capabilities"), nor a sampling request with
   * tools to a client without `sampling.tools` (draft client/sampling).
   */
  function featuresNeeded(method: string, params: { readonly [key: string]: unknown }, declared: unknown): readonly (readonly string[])[] {
    if (method === "elicitation/create") {
      const mode = own(params, "mode");
      if (mode === "url") return [["elicitation", "url"]];
      const elicitation = isPlainObject(declared) ? own(declared, "elicitation") : undefined;
      // Form (the default mode): an empty `elicitation` declares it; one naming other modes only does not.
      return isPlainObject(elicitation) && Object.keys(elicitation).length > 0 ? [["elicitation", "form"]] : [];
    }
    if (method === "sampling/createMessage" && (own(params, "tools") !== undefined || own(params, "toolChoice") !== undefined)) return [["sampling", "tools"]];
    return [];
  }

  /** The legacy session a message on `channel` belongs to: the one the transport passes, else the one opened on the channel. */
  function sessionFor(channel: object, context: HandleContext | undefined): { readonly state: SessionState; readonly revision: DispatchRevision } | undefined {
    if (context?.session !== undefined) {
      const of = byVersion.get(context.session.protocolVersion) ?? served.find((r) => r.era === "legacy") ?? revision;
      return { state: context.session, revision: of };
    }
    const session = liveSession(channel);
    if (session === undefined) return undefined;
    if (context?.push !== undefined) session.push = context.push;
    return { state: stateOf(session), revision: session.revision };
  }

  function stateOf(session: LegacySession): SessionState {
    const state: { -readonly [K in keyof SessionState]: SessionState[K] } = {
      protocolVersion: session.protocolVersion,
      clientCapabilities: session.clientCapabilities,
      clientInfo: session.clientInfo,
    };
    if (session.logLevel !== undefined) state.logLevel = session.logLevel;
    if (session.initialized) state.initialized = true;
    return state;
  }

  /** A modern notification's `_meta` version that is not a string (`-32602`), or not a modern version served (`-32022`). */
  function versionRefusal(method: string, params: unknown): DispatchErrorObject | undefined {
    const requested: unknown = own(own(params, "_meta"), modernVersionKey);
    if (typeof requested !== "string") return { code: -32602, message: "Invalid params of " + quoteShort(method) + ": _meta " + modernVersionKey + " is not a string" };
    return byVersion.get(requested)?.era === "modern" ? undefined : unsupportedVersion(requested, modernVersions);
  }

  /** Tells the transport that a notification is refused ({@link HandleContext.refuse}); what that throws goes to `onError`. */
  function tellRefused(method: string, error: DispatchErrorObject, context: HandleContext | undefined, element?: number): void {
    try {
      if (element === undefined) context?.refuse?.(error);
      else context?.refuse?.(error, element);
    } catch (thrown) {
      report(thrown, { method, reason: "notification-handler-threw" });
    }
  }

  /** A notification as routed and looked up once: the revision serving it, its method's row there, and why it is refused (`undefined`: taken). */
  interface NotificationCheck {
    readonly routed: ReturnType<typeof route>;
    readonly info: MethodRow | undefined;
    readonly refusal: DispatchErrorObject | undefined;
  }

  /**
   * Routes a notification and tells why the revision serving it cannot accept it (see
   * {@link HandleContext.refuse}): its modern `_meta` version is not a string or not served, or
   * its params fail the schema. As for a request, the method is looked up first: one the revision
   * does not have is accepted (and ignored) whatever its version.
   */
  function checkNotification(method: string, params: unknown, context: HandleContext | undefined): NotificationCheck {
    // Routed as a request is: by the modern revision its _meta names, else by the channel's session.
    const routed = route(method, params, context?.channel ?? defaultChannel, context);
    const serving = routed.revision;
    const info = fromClient(serving, method, "notification");
    const refusal = sessionMissing(method, params, context) ?? (info === undefined ? undefined : notificationRefusal(method, params, serving, info));
    return { routed, info, refusal };
  }

  /**
   * `-32600` for a legacy session's notification (`notifications/initialized`,
   * `notifications/roots/list_changed`, …: one a legacy revision served takes from clients and no
   * modern one does; cancellations aside) on a channel where no session is open or opening. It
   * could only take no effect: the client, which lost its session or never opened one (over
   * Streamable HTTP, sent no `Mcp-Session-Id`), is told so instead.
   */
  function sessionMissing(method: string, params: unknown, context: HandleContext | undefined): DispatchErrorObject | undefined {
    if (!beforeLegacySession(params, context)) return undefined;
    const legacyOnly =
      served.some((r) => r.era === "legacy" && method !== r.cancelledMethod && fromClient(r, method, "notification") !== undefined) &&
      !modern.some((r) => fromClient(r, method, "notification") !== undefined);
    if (!legacyOnly) return undefined;
    return { code: -32600, message: "Invalid request: " + quoteShort(method) + " belongs to a legacy session, and none is open; a legacy client opens one with initialize" };
  }

  function notificationRefusal(method: string, params: unknown, serving: DispatchRevision, info: MethodRow): DispatchErrorObject | undefined {
    const wrongVersion = serving.era === "modern" && hasModernMeta(params) ? versionRefusal(method, params) : undefined;
    if (wrongVersion !== undefined) return wrongVersion;
    const checked = serving.validatorsByType[info.messageType]?.({ jsonrpc: "2.0", method, ...(params === undefined ? {} : { params }) });
    if (checked === undefined || checked.ok) return undefined;
    const issues = checked.issues.map((i) => ({ path: i.path, message: i.message }));
    return { code: -32602, message: "Invalid params of " + quoteShort(method) + ": " + describeIssues(checked.issues), data: { issues } };
  }

  function notification(method: string, params: unknown, context: HandleContext | undefined, element?: number): void {
    const checked = checkNotification(method, params, context);
    if (checked.refusal !== undefined) tellRefused(method, checked.refusal, context, element);
    else takeNotification(method, params, context, checked);
  }

  /**
   * Gives a notification its effect (cancellation, `initialized`, the handler), once
   * {@link checkNotification} found nothing to refuse: one refused changes nothing.
   */
  function takeNotification(method: string, params: unknown, context: HandleContext | undefined, { routed, info }: NotificationCheck): void {
    const channel = context?.channel ?? defaultChannel;
    const serving = routed.revision;
    if (method === serving.cancelledMethod && isPlainObject(params)) {
      const target = requestIdOf(own(params, "requestId"));
      const controller = target === undefined ? undefined : channels.get(channel)?.get(idKey(target));
      // An initialize is answered whatever the client says: a session half opened would wait for it for ever.
      if (controller !== undefined && !openings.has(controller)) controller.abort(own(params, "reason"));
    }
    if (info === undefined) return;
    if (routed.session !== undefined && method === legacyMethod(serving, "initialized")) {
      const opened = liveSession(channel);
      if (opened !== undefined) {
        opened.initialized = true;
        endWaitForInitialized(opened);
      }
    }
    const handler = handlers[method] as ((p: unknown, c: unknown) => unknown) | undefined;
    if (handler === undefined) return;
    const meta = isPlainObject(params) ? metaOfParams(params) : {};
    try {
      const legacySession = serving.era === "legacy" ? liveSession(channel)?.key : undefined;
      const done = handler(params, { method, meta, transport: context?.transport, legacySession });
      if (done instanceof Promise) done.catch((error: unknown) => report(error, { method, reason: "notification-handler-threw" }));
    } catch (error) {
      report(error, { method, reason: "notification-handler-threw" });
    }
  }

  /** The server→client request with this id awaiting the client's response on the message's channel, if any. */
  function pendingFor(id: DispatchRequestId | undefined, context: HandleContext | undefined): PendingInput | undefined {
    return id === undefined ? undefined : pendingInputs.get(context?.channel ?? defaultChannel)?.get(idKey(id));
  }

  /**
   * A client's response to a server→client request: settles the request it answers on its channel. One that is
   * malformed (its result or error not an object, or neither given, as `JSON.stringify` leaves a `result: undefined`)
   * fails that request's round as a result failing the schema does, at once, not after the round's time limit.
   */
  function response(message: JsonObject, id: DispatchRequestId | undefined, context: HandleContext | undefined): void {
    const pending = pendingFor(id, context);
    if (pending === undefined) return;
    const result = own(message, "result");
    const error = own(message, "error");
    if (isPlainObject(error)) {
      const code = own(error, "code");
      const text = own(error, "message");
      pending.settle({ error: { code: typeof code === "number" ? code : -32603, message: typeof text === "string" ? text : "(no message)" } });
    } else if (isPlainObject(result)) {
      pending.settle({ result });
    } else {
      const why = error !== undefined ? "its error is not an object" : result !== undefined ? "its result is not an object" : "the response has neither result nor error";
      pending.settle({ malformed: why });
    }
  }

  /** Which revision serves a request, and whether it opens a legacy session (then with what it negotiated). */
  function route(
    method: string,
    params: unknown,
    channel: object,
    context: HandleContext | undefined,
  ): { readonly revision: DispatchRevision; readonly session?: SessionState; readonly opening?: SessionState } {
    if (hasModernMeta(params) && modern.length > 0) {
      const meta = own(params, "_meta") as JsonObject;
      const requested: unknown = own(meta, modernVersionKey);
      const named = typeof requested === "string" ? byVersion.get(requested) : undefined;
      // A version not served (or a legacy one) is answered -32022 by the arrival step of the handler revision, or the first modern one.
      return { revision: named?.era === "modern" ? named : revision.era === "modern" ? revision : modern[0]! };
    }
    if (openingMethods.has(method)) {
      const requested: unknown = isPlainObject(params) ? own(params, "protocolVersion") : undefined;
      const version = negotiate(requested)!;
      const declared: unknown = isPlainObject(params) ? own(params, "capabilities") : undefined;
      const opening: SessionState = {
        protocolVersion: version,
        clientCapabilities: isPlainObject(declared) ? declared : {},
        clientInfo: isPlainObject(params) ? own(params, "clientInfo") : undefined,
      };
      return { revision: byVersion.get(version)!, opening };
    }
    const session = sessionFor(channel, context);
    if (session !== undefined) return { revision: session.revision, session: session.state };
    // A legacy client may ping before its session is open (2025-11-25 basic/lifecycle § Initialization): the latest legacy revision answers.
    if (latestLegacy !== undefined && fromClient(revision, method, "request") === undefined) {
      const latest = byVersion.get(latestLegacy)!;
      if (latest.builtins.ping === method) return { revision: latest, session: { protocolVersion: latestLegacy } };
    }
    return { revision };
  }

  /** A legacy session of what an `initialize` asked for (see {@link openingSessions}). */
  function newSession(of: DispatchRevision, opening: SessionState, context: HandleContext | undefined, clientBytes: number): LegacySession {
    sessionsClientBytes += clientBytes;
    return {
      revision: of,
      protocolVersion: opening.protocolVersion,
      clientCapabilities: opening.clientCapabilities ?? {},
      clientInfo: opening.clientInfo,
      clientBytes: { held: clientBytes },
      logLevel: undefined,
      initialized: false,
      resources: new Set(),
      push: context?.push,
      untilInitialized: new Set(),
      term: {},
      key: Object.freeze({}),
    };
  }

  /**
   * Opens (or, on a second `initialize`, replaces) the legacy session of a channel after a
   * successful `initialize`: the one it was opening, with what the messages since set, unless
   * the channel was closed meanwhile or another `initialize` replaced it.
   */
  function openSession(channel: object, of: DispatchRevision, pending: LegacySession, result: { readonly [key: string]: unknown }, context: HandleContext | undefined): void {
    if (openingSessions.get(channel) !== pending) return;
    const answered = own(result, "protocolVersion");
    const version = typeof answered === "string" ? answered : pending.protocolVersion;
    closeChannel(channel, "the client initialized the session again", pending);
    sessions.set(channel, { ...pending, revision: byVersion.get(version) ?? of, protocolVersion: version, push: pending.push ?? context?.push });
  }

  /**
   * Ends a session that will not serve again (closed, replaced by another `initialize`, or one
   * whose `initialize` failed): the rounds waiting for its `notifications/initialized` are given
   * up (`why`), and its subscriptions end, their URIs taken off what all sessions hold.
   */
  function endSession(session: LegacySession, why: string): void {
    if (session.term.closed === undefined) {
      session.term.closed = why;
      if (onSessionClosed !== undefined) {
        const method = session.revision.builtins.initialize ?? "initialize";
        try {
          // An async listener's rejection too: unhandled, it would end the process.
          const done: unknown = onSessionClosed(session.key, { why, protocolVersion: session.protocolVersion, clientInfo: session.clientInfo });
          if (done instanceof Promise) done.catch((error: unknown) => report(error, { method, reason: "session-listener-threw" }));
        } catch (error) {
          report(error, { method, reason: "session-listener-threw" });
        }
      }
    }
    endWaitForInitialized(session, why);
    sessionsClientBytes -= session.clientBytes.held;
    session.clientBytes.held = 0;
    for (const uri of session.resources) subscribedCharacters -= uri.length;
    session.resources.clear();
  }

  /** Ends the rounds of input waiting for `session`'s `notifications/initialized`: they go on, or, given why not (`gone`), are given up. */
  function endWaitForInitialized(session: LegacySession, gone?: string): void {
    for (const waiting of [...session.untilInitialized]) waiting(gone);
    session.untilInitialized.clear();
  }

  /**
   * Closes the legacy sessions of a channel: requests waiting for `notifications/initialized`,
   * or for the client's answers to server→client requests, are given up (`why`). `keep` is the
   * session an `initialize` opens in their place: what the messages it already served started
   * goes on (a client may write them before the `initialize` is answered).
   */
  function closeChannel(channel: object, why: string = "the session closed", keep?: LegacySession): void {
    if (keep === undefined) {
      let term = channelTerms.get(channel);
      if (term === undefined) channelTerms.set(channel, (term = {}));
      if (term.closed === undefined) term.closed = why;
    }
    for (const session of [sessions.get(channel), openingSessions.get(channel)]) {
      if (session !== undefined && session !== keep) endSession(session, why);
    }
    sessions.delete(channel);
    openingSessions.delete(channel);
    const pending = pendingInputs.get(channel);
    if (pending === undefined) return;
    for (const entry of [...pending.values()]) {
      if (keep !== undefined && entry.session === keep) continue;
      entry.cancel(why);
      entry.settle({ gone: why });
    }
  }

  async function request(message: JsonObject, id: DispatchRequestId, method: string, context: HandleContext | undefined): Promise<DispatchResponse | undefined> {
    const channel = context?.channel ?? defaultChannel;
    const rawParams = own(message, "params");
    const routed = route(method, rawParams, channel, context);
    const of = routed.revision;
    const info = fromClient(of, method, "request");
    // A legacy client's opening request carries no per-request _meta version; a modern one that sends
    // the removed method is told it is not found, like any other.
    if (info === undefined && method === of.legacyHandshake && !hasModernMeta(rawParams)) return legacyHandshakeAnswer(id, rawParams);
    // A per-request version that is no string names no revision whose methods could be looked up: what is wrong with the
    // _meta is said, as for a method found (an initialize with a version of 42 was told initialize is not found).
    if (info === undefined && of.era === "modern" && isPlainObject(rawParams) && hasMalformedModernVersion(rawParams)) {
      const arrival = arriveByRequestMeta(of, rawParams, modernVersions, () => false, strictMeta);
      if ("error" in arrival) return errorOf(id, arrival.error.code, arrival.error.message, arrival.error.data);
    }
    if (info === undefined) return errorOf(id, -32601, "Method not found: " + quoteShort(method));
    if (info.capability?.side === "server" && !hasCapability(capabilities, info.capability.path))
      return errorOf(id, -32601, "Method not found: " + quoteShort(method) + " (the server does not advertise " + info.capability.path.join(".") + ")");
    if (rawParams !== undefined && !isPlainObject(rawParams)) return errorOf(id, -32602, "Invalid params: params must be an object");
    const params: { readonly [key: string]: unknown } = rawParams ?? {};
    const arrival =
      of.era === "modern"
        ? arriveByRequestMeta(of, params, modernVersions, (v) => byVersion.get(v)?.era === "modern" || (modern.length === 0 && byVersion.has(v)), strictMeta)
        : arriveBySession(params, supported, routed.opening ?? routed.session);
    if ("error" in arrival) return errorOf(id, arrival.error.code, arrival.error.message, arrival.error.data);
    const validate = of.validatorsByType[info.messageType];
    if (validate !== undefined) {
      const checked = validate(message);
      if (!checked.ok) return errorOf(id, -32602, "Invalid params: " + describeIssues(checked.issues), { issues: checked.issues.map((i) => ({ path: i.path, message: i.message })) });
    }
    // What a legacy session keeps of its initialize is bounded, per session and for all of them.
    const clientBytes = routed.opening === undefined ? 0 : retainedBytes([routed.opening.clientCapabilities, routed.opening.clientInfo], MAX_SESSION_CLIENT_BYTES);
    if (clientBytes > MAX_SESSION_CLIENT_BYTES) {
      return errorOf(id, -32602, "Invalid params: capabilities and clientInfo hold more than " + MAX_SESSION_CLIENT_BYTES + " bytes, which is what a session keeps of them at most");
    }
    if (sessionsClientBytes + clientBytes > MAX_SESSIONS_CLIENT_BYTES) {
      return errorOf(
        id,
        -32603,
        "Server busy: the open legacy sessions keep " + sessionsClientBytes + " bytes of client capabilities and clientInfo, of at most " + MAX_SESSIONS_CLIENT_BYTES + " in all; try again later",
      );
    }
    const inFlight = inFlightOf(channel);
    const key = idKey(id);
    if (inFlight.has(key)) return errorOf(id, -32600, "Invalid request: id " + idText(id) + " is already in flight");
    const outer = context?.signal as AbortSignalLike | undefined;
    const deadline = context?.deadline as AbortSignalLike | undefined;
    if (outer?.aborted === true) return undefined;
    if (deadline?.aborted === true) return errorOf(id, -32603, reasonOf(deadline));
    const controller = new PLATFORM.AbortController();
    const abort = () => controller.abort(outer?.reason);
    outer?.addEventListener("abort", abort, { once: true });
    inFlight.set(key, controller);
    // Cancelled: the id is free at once, before the handler (which may ignore its signal) is done.
    const release = () => {
      if (inFlight.get(key) === controller) inFlight.delete(key);
    };
    controller.signal.addEventListener("abort", release, { once: true });
    // Recorded now, before the handler runs: the lines a client writes right after its initialize are served by this session.
    let pendingSession: LegacySession | undefined;
    if (routed.opening !== undefined) {
      pendingSession = newSession(of, routed.opening, context, clientBytes);
      const replaced = openingSessions.get(channel);
      openings.add(controller);
      // An initialize still in flight is replaced: its session will never open, so nothing may wait for it to be initialized.
      openingSessions.set(channel, pendingSession);
      if (replaced !== undefined) endSession(replaced, "the client initialized the session again");
    }
    let open = true;
    const legacy = of.era === "legacy";
    const sessionLevel = (): string | undefined => liveSession(channel)?.logLevel ?? routed.session?.logLevel;
    const meta: unknown = own(params, "_meta");
    const progressToken: unknown = isPlainObject(meta) ? own(meta, "progressToken") : undefined;
    let lastProgress = -Infinity;
    /**
     * The progress sent before the handler's latest call, for a legacy client's rounds of input: a
     * call again is a retry to the handler, which may report its progress from the start again (a
     * modern client's retry is a request of its own); the client's one request still gets only a
     * growing progress, and what an earlier call reached is dropped quietly, not told as a fault.
     */
    let progressBeforeCall = -Infinity;
    /**
     * Why a handler's notification must not reach the client, else `undefined`; `""` for a log
     * message below what the client asked for, or a progress an earlier call of the handler reached
     * (filtered, not a fault). Every notification is one
     * of the client's revision, valid by its schema; one gated by a server capability (log
     * messages: `logging`) needs it advertised; `notifications/cancelled` is the core's, for the
     * requests it sends. To a modern client a request's stream carries only what relates to it,
     * progress and log messages (draft basic/transports/streamable-http), and a `subscriptions/listen`
     * stream everything but those. Log messages reach a modern client only when its request set a
     * log level (draft server/utilities/logging), a legacy one at or above its session's level;
     * progress names the request's own token with a growing `progress` (basic/utilities/progress).
     */
    const withheld = (notification: OutgoingNotification): string | undefined => {
      const sent = notification.params;
      const problem = outgoingProblem(of, notification);
      if (problem !== undefined) return problem;
      const gate = of.methodInfo(notification.method)?.capability;
      if (gate?.side === "server" && !hasCapability(capabilities, gate.path)) {
        // A setting, the same at every call: told of once (a handler that logs would else be reported at each message).
        if (toldOnce.has(notification.method)) return "";
        toldOnce.add(notification.method);
        return (
          "the server does not advertise " + gate.path.join(".") + " (options.capabilities, which replaces the capabilities derived from the handlers: list them all); " +
          "such notifications are dropped, told of this once"
        );
      }
      if (notification.method === of.cancelledMethod) return "the core sends notifications/cancelled, for the requests it sends; a handler ends its own request by returning";
      const scoped = notification.method === PROGRESS || notification.method === LOG_MESSAGE;
      if (!legacy && method === of.builtins.listen && scoped) return "progress and log messages are not sent on a subscriptions/listen stream";
      if (!legacy && method !== of.builtins.listen && !scoped) {
        return "only notifications/progress and notifications/message relate to a request; change notifications go to subscriptions/listen streams (dispatcher.publish)";
      }
      if (notification.method === LOG_MESSAGE) {
        const threshold = legacy ? sessionLevel() : arrival.logLevel;
        if ((!legacy && threshold === undefined) || !levelReaches(of, own(sent, "level"), threshold)) return "";
      }
      if (notification.method !== PROGRESS) return undefined;
      if (progressToken === undefined) {
        // The same for every request of the method whose client asks for no progress: told of once a method.
        if (toldOnce.has("progress of " + method)) return "";
        toldOnce.add("progress of " + method);
        return "the request gave no progressToken (check context.progressToken first; told of once for " + method + ")";
      }
      if (own(sent, "progressToken") !== progressToken) return "its progressToken is not the request's (" + idText(progressToken as DispatchRequestId) + ")";
      const progress = own(sent, "progress") as number;
      if (!(progress > lastProgress)) return progress <= progressBeforeCall ? "" : "its progress (" + progress + ") does not increase on the last one sent (" + lastProgress + ")";
      lastProgress = progress;
      return undefined;
    };
    const send = (notification: OutgoingNotification) => {
      if (!open || controller.signal.aborted || context?.notify === undefined) return;
      const why = withheld(notification);
      if (why !== undefined) {
        if (why !== "") report(new TypeError("a " + notification.method + " notification for a " + of.protocolVersion + " client: " + why), { method, id, reason: "invalid-outgoing" });
        return;
      }
      try {
        context.notify(notification);
      } catch {
        // a transport that cannot deliver a notification does not fail the request
      }
    };
    const deliver = (outgoing: OutgoingRequest): boolean => {
      if (!open || controller.signal.aborted) return false;
      try {
        if (context?.notify !== undefined) return context.notify(outgoing) !== false;
        const push = context?.push ?? liveSession(channel)?.push;
        return push !== undefined && push(outgoing);
      } catch {
        return false;
      }
    };
    const tell = (message: OutgoingNotification): void => {
      try {
        if (open && context?.notify !== undefined && context.notify(message) !== false) return;
        (context?.push ?? liveSession(channel)?.push)?.(message);
      } catch {
        // nothing carries it
      }
    };
    const inputResponses: unknown = own(params, "inputResponses");
    const requestState: unknown = own(params, "requestState");
    const requestContext: RequestContextCore = {
      id,
      method,
      meta: arrival.meta,
      progressToken: typeof progressToken === "string" || typeof progressToken === "number" ? progressToken : undefined,
      era: arrival.era,
      protocolVersion: arrival.protocolVersion,
      clientCapabilities: arrival.clientCapabilities,
      clientInfo: arrival.clientInfo,
      logLevel: arrival.logLevel,
      requireClientCapabilities(required: object): void {
        const missing = missingCapabilities(arrival.clientCapabilities, required);
        if (missing !== undefined) throw new HandlerError(-32021, missingCapabilityMessage(missing), { requiredCapabilities: missing });
      },
      inputResponses: isPlainObject(inputResponses) ? inputResponses : undefined,
      requestState: typeof requestState === "string" ? requestState : undefined,
      signal: controller.signal,
      transport: context?.transport,
      legacySession: legacy ? liveSession(channel)?.key : undefined,
      notify(notifyMethod: string, notifyParams?: unknown): void {
        send(notifyParams === undefined ? { jsonrpc: "2.0", method: notifyMethod } : { jsonrpc: "2.0", method: notifyMethod, params: notifyParams as JsonObject });
      },
    };
    const serving: Serving = {
      revision: of,
      channel,
      adapt: legacy && of !== revision,
      deliver,
      tell,
      signal: controller.signal,
      term: legacy ? termOf(channel) : undefined,
      nextRound: () => (progressBeforeCall = lastProgress),
    };
    // Cancelled: answered at once with nothing; past the deadline: answered at once with an error.
    // Either way even a handler that ignores its signal is not waited for.
    let stopWaiting: () => void = () => {};
    let expire: () => void = () => {};
    let expired = false;
    const cut = new Promise<DispatchResponse | undefined>((resolve) => {
      stopWaiting = () => resolve(undefined);
      expire = () => {
        expired = true;
        resolve(errorOf(id, -32603, reasonOf(deadline)));
        controller.abort(deadline?.reason);
      };
      controller.signal.addEventListener("abort", stopWaiting, { once: true });
      deadline?.addEventListener("abort", expire, { once: true });
    });
    try {
      const response = await Promise.race([respond(id, method, params, requestContext, serving), cut]);
      const answered = controller.signal.aborted && !expired ? undefined : response;
      if (pendingSession !== undefined && answered !== undefined && "result" in answered) openSession(channel, of, pendingSession, answered.result, context);
      return answered;
    } finally {
      // Still opening: the initialize failed or was cancelled, and its session never opens (one opened, closed or replaced
      // is no longer here). The requests that followed it were served in that session, with the capabilities it declared,
      // so their rounds end with it rather than move to another.
      if (pendingSession !== undefined && openingSessions.get(channel) === pendingSession) {
        const why = "the initialize it followed was not answered with a result, so its session never opened";
        openingSessions.delete(channel);
        // Its term closes with it: a request it served that asks later asks no one, not the client of the session still
        // open by what this initialize declared. That session's own requests go on.
        endSession(pendingSession, why);
      }
      controller.signal.removeEventListener("abort", stopWaiting);
      controller.signal.removeEventListener("abort", release);
      deadline?.removeEventListener("abort", expire);
      open = false;
      release();
      outer?.removeEventListener("abort", abort);
    }
  }

  /** Whether params carry the modern per-request protocol version in `_meta`. */
  /**
   * Whether a message (by its `params`) comes from a legacy client before its session: the
   * dispatcher serves a legacy revision, the message names no modern version, and its channel has
   * no legacy session open or opening.
   */
  function beforeLegacySession(params: unknown, context: HandleContext | undefined): boolean {
    return latestLegacy !== undefined && !hasModernMeta(params) && context?.session === undefined && liveSession(context?.channel ?? defaultChannel) === undefined;
  }

  function hasModernMeta(params: unknown): boolean {
    const meta = isPlainObject(params) ? own(params, "_meta") : undefined;
    return isPlainObject(meta) && own(meta, modernVersionKey) !== undefined;
  }

  /** Whether `params._meta` holds a per-request version that is not a string. */
  function hasMalformedModernVersion(params: unknown): boolean {
    const meta = isPlainObject(params) ? own(params, "_meta") : undefined;
    const version = isPlainObject(meta) ? own(meta, modernVersionKey) : undefined;
    return version !== undefined && typeof version !== "string";
  }

  /** `-32022` to a legacy client's opening request: the versions served, and the one it asked for. */
  function legacyHandshakeAnswer(id: DispatchRequestId, params: unknown): DispatchResponse {
    const asked = isPlainObject(params) ? own(params, "protocolVersion") : undefined;
    const requested = typeof asked === "string" ? asked : "(none)";
    return errorOf(
      id,
      -32022,
      "Unsupported protocol version: " + quoteShort(requested) + "; this server supports " + supported.join(", ") + " (per-request _meta, without the initialize handshake)",
      { supported: [...supported], requested },
    );
  }

  async function handle(message: unknown, context?: HandleContext): Promise<DispatchResponse | readonly DispatchResponse[] | undefined> {
    let value: unknown = message;
    if (typeof message === "string") {
      try {
        value = JSON.parse(message);
      } catch {
        return errorOf(undefined, -32700, "Parse error: the message is not JSON");
      }
    }
    try {
      return Array.isArray(value) ? await batch(value, context) : await one(value, context, undefined);
    } catch (error) {
      // A value that throws when read is no JSON a transport parsed: answered as one() answers it (before, handle rejected).
      return failedDispatch(error);
    }
  }

  /** What a message that failed outside any handler (a value that throws when read) is answered: `-32603` without `id`, reported to `onError`. */
  function failedDispatch(error: unknown): DispatchResponse {
    report(error, { method: "(dispatch)", reason: "handler-threw" });
    return errorOf(undefined, -32603, "Internal error");
  }

  /**
   * A JSON-RPC batch (JSON-RPC 2.0 § 6): one `-32600` unless the channel's legacy session takes
   * batches ({@link DispatchRevision.batches}); then its elements are handled at once, each as
   * alone, and the responses to its requests answered as one array (see {@link CoreDispatcher.handle}).
   */
  async function batch(given: readonly unknown[], context: HandleContext | undefined): Promise<DispatchResponse | readonly DispatchResponse[] | undefined> {
    // Its length, then its elements by index, each once: one that throws when read (a getter, a revoked Proxy) stops the batch
    // before any of it runs, and neither a length of 2^32 - 1 nor an iterator of its own (before, [...batch] ran out of
    // memory) makes more of it read than a batch may hold.
    const length = given.length;
    // A Proxy can say anything: a length that is no array length is a batch that cannot be read.
    if (!Number.isSafeInteger(length) || length < 0) throw new TypeError("a batch's length is not an array length");
    // A batch past the limit is refused: it is kept in no array (before, a limit of 10^9 copied that many first), and only
    // read, up to one past the limit, to tell whether it holds a notification (before, a transport that keeps requests
    // back until the batch's notifications are taken is told they were not).
    const tooLong = length > maxBatchSize;
    const elements: unknown[] = [];
    for (let i = 0; i < (tooLong ? 0 : length); i++) elements.push(readOnce(given[i]));
    const holdsNotification = (): boolean => {
      if (!tooLong) return elements.some(isNotificationMessage);
      for (let i = 0; i <= maxBatchSize; i++) if (isNotificationMessage(given[i])) return true;
      return false;
    };
    /** The batch refused whole: one `-32600`; its notifications take no effect, and a transport that asks is told so. */
    const refused = (message: string): DispatchResponse => {
      const error = { code: -32600, message: "Invalid request: " + message };
      // Read only for a transport that asks: a refused batch past a large limit is read up to it (10^9 reads took 40 s).
      if (context?.refuse !== undefined && holdsNotification()) tellRefused("(batch)", error, context);
      return { jsonrpc: "2.0", error };
    };
    if (sessionFor(context?.channel ?? defaultChannel, context)?.revision.batches !== true) return refused("batches are not supported");
    if (length === 0) return refused("the batch is empty");
    if (tooLong) return refused("a batch holds at most " + maxBatchSize + " messages (this one holds " + length + "); send it in parts");
    // 2025-03-26 schema: JSONRPCBatchRequest holds requests and notifications, JSONRPCBatchResponse responses; no batch both.
    const replies = elements.filter(isResponse).length;
    if (replies > 0 && replies < elements.length) {
      return refused("a batch holds requests and notifications, or responses, not both (2025-03-26 JSONRPCBatchRequest, JSONRPCBatchResponse)");
    }
    // Notifications alone are taken whole or not at all: each is checked before any takes effect, and one refused refuses the
    // batch (Streamable HTTP then answers 400: the server "cannot accept the input", and none of it was taken).
    // Each is routed and checked once: what the check found is what takes effect.
    if (elements.every(isNotificationMessage)) {
      const taken: [string, unknown, NotificationCheck][] = [];
      for (const [index, element] of elements.entries()) {
        const method = own(element, "method") as string;
        const params = own(element, "params");
        const checked = hasModernMeta(params) ? undefined : checkNotification(method, params, context);
        if (checked !== undefined && checked.refusal === undefined) {
          taken.push([method, params, checked]);
          continue;
        }
        const refusal = checked?.refusal ?? { code: -32600, message: UNBATCHED };
        const whole = refusal.message + " (message " + (index + 1) + " of the batch; none of the batch was taken)";
        tellRefused(method, { ...refusal, message: whole }, context);
        return undefined;
      }
      for (const [method, params, checked] of taken) {
        try {
          takeNotification(method, params, context, checked);
        } catch (error) {
          report(error, { method: "(dispatch)", reason: "handler-threw" });
        }
      }
      return undefined;
    }
    // Started in order, before any is awaited: a notifications/initialized or cancellation takes effect before the messages after it.
    const answers = await Promise.all(elements.map((element, index) => one(element, context, index)));
    const responses = answers.filter((answer): answer is DispatchResponse => answer !== undefined);
    return responses.length === 0 ? undefined : responses;
  }

  /** One message (parsed, not a batch); `element`, its index when it is an element of a batch, where `initialize` and modern messages are refused. */
  async function one(value: unknown, context: HandleContext | undefined, element: number | undefined): Promise<DispatchResponse | undefined> {
    const inBatch = element !== undefined;
    try {
      if (!isPlainObject(value)) return errorOf(undefined, -32600, "Invalid request: a message is a JSON object");
      const hasId = Object.prototype.hasOwnProperty.call(value, "id");
      const rawId = own(value, "id");
      const id = requestIdOf(rawId);
      if (own(value, "jsonrpc") !== "2.0") return errorOf(id, -32600, 'Invalid request: jsonrpc must be "2.0"');
      const method = own(value, "method");
      // A response; or a message with neither result nor error whose id is that of a request awaiting the client's response
      // (a result left undefined, which JSON drops): answered -32600, its id would reach the client as that of its own request.
      if (method === undefined && hasId && (own(value, "result") !== undefined || own(value, "error") !== undefined || pendingFor(id, context) !== undefined)) {
        response(value, id, context);
        return undefined;
      }
      if (typeof method !== "string") return errorOf(id, -32600, "Invalid request: method must be a string");
      const params = own(value, "params");
      // The modern era has no batches: a message naming a modern version per request is not taken in one.
      const unbatched = inBatch && hasModernMeta(params) ? UNBATCHED : undefined;
      if (!hasId) {
        if (unbatched === undefined) notification(method, params, context, element);
        else tellRefused(method, { code: -32600, message: unbatched }, context, element);
        return undefined;
      }
      if (id === undefined) return errorOf(undefined, -32600, invalidRequestIdMessage(rawId));
      if (unbatched !== undefined) return errorOf(id, -32600, unbatched);
      // 2025-03-26 basic/lifecycle § Initialization: "The initialization request MUST NOT be part of a JSON-RPC batch".
      if (inBatch && openingMethods.has(method)) return errorOf(id, -32600, "Invalid request: " + quoteShort(method) + " must not be part of a JSON-RPC batch");
      // A legacy client that skipped initialize would read only about the modern era's _meta: its error says how it
      // starts. Judged on arrival: a session that closes while the request runs does not make it one sent before.
      const beforeSession = !openingMethods.has(method) && beforeLegacySession(params, context);
      const answer = await request(value, id, method, context);
      if (!beforeSession || answer === undefined || !("error" in answer)) return answer;
      return { ...answer, error: { ...answer.error, message: answer.error.message + "; a " + latestLegacy + " client opens with initialize" } };
    } catch (error) {
      return failedDispatch(error);
    }
  }

  /**
   * A batch element read once: the members of a JSON-RPC message a plain object has as its own (read as the element
   * alone is read, a non-enumerable one too; `result` and `error` only where there is no `method`) copied into a new
   * object, and nothing else of it read; the batch's checks
   * and the element's handling then read the copy, so a getter answering a second read differently, or throwing, is not
   * asked again (before, such an element was answered without its id). Anything else is taken as it is.
   */
  function readOnce(element: unknown): unknown {
    if (!isPlainObject(element)) return element;
    const copy: JsonObject = {};
    for (const key of MESSAGE_MEMBERS) if (hasOwn.call(element, key)) copy[key] = element[key];
    // A response's members, read as alone: only where there is no method (before, a request's throwing `result` stopped the batch).
    if (copy["method"] === undefined) for (const key of RESPONSE_MEMBERS) if (hasOwn.call(element, key)) copy[key] = element[key];
    return copy;
  }

  /** Delivers a published notification to the legacy sessions it concerns; answers how many it reached. */
  function publishToSessions(method: string, params: { readonly [key: string]: unknown } | undefined): number {
    let reached = 0;
    const uri = params === undefined ? undefined : own(params, "uri");
    for (const session of sessions.values()) {
      if (session.push === undefined) continue;
      const of = session.revision;
      const info = of.methodInfo(method);
      if (info === undefined || info.kind !== "notification" || info.direction === "client-to-server") continue;
      // A list change goes only where the server advertised it (e.g. tools.listChanged).
      if (info.capability?.side === "server" && !hasCapability(capabilities, info.capability.path)) continue;
      if (method === LEGACY_NAMES.resourceUpdated && !(typeof uri === "string" && session.resources.has(uri))) continue;
      if (method === LOG_MESSAGE && !levelReaches(of, own(params, "level"), session.logLevel)) continue;
      const message: OutgoingNotification = params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
      const problem = outgoingProblem(of, message);
      if (problem !== undefined) {
        report(new TypeError("a " + method + " notification for a " + of.protocolVersion + " client: " + problem), { method, reason: "invalid-outgoing" });
        continue;
      }
      try {
        if (session.push(message)) reached++;
      } catch {
        // a transport that cannot deliver it does not stop the others
      }
    }
    return reached;
  }

  return {
    handle,
    capabilities,
    supportedProtocolVersions: supported,
    findTool: (name) => tools.get(name)?.definition,
    publish(method, params) {
      let reached = publishToSessions(method, params);
      const filter = listenFilters.find((f) => f.method === method);
      if (filter === undefined) return reached;
      const uri = params === undefined ? undefined : own(params, "uri");
      for (const subscription of subscriptions) {
        const asked = own(subscription.filter, filter.field);
        if (filter.list ? !(Array.isArray(asked) && asked.includes(uri)) : asked !== true) continue;
        const meta: JsonObject = { ...(params !== undefined && isPlainObject(own(params, "_meta")) ? (own(params, "_meta") as object) : {}) };
        if (revision.metaKeys.subscriptionId !== undefined) meta[revision.metaKeys.subscriptionId] = subscription.id;
        subscription.send({ jsonrpc: "2.0", method, params: { ...(params ?? {}), _meta: meta } });
        reached++;
      }
      return reached;
    },
    closeSubscriptions() {
      for (const subscription of [...subscriptions]) subscription.end();
    },
    opensSession(message) {
      let value: unknown = message;
      if (typeof message === "string") {
        try {
          value = JSON.parse(message);
        } catch {
          return false;
        }
      }
      if (!isPlainObject(value) || !Object.prototype.hasOwnProperty.call(value, "id")) return false;
      const method = own(value, "method");
      return typeof method === "string" && openingMethods.has(method) && !hasModernMeta(own(value, "params"));
    },
    sessionOf(channel) {
      const session = sessions.get(channel);
      return session === undefined ? undefined : stateOf(session);
    },
    closeChannel(channel, why) {
      closeChannel(channel, why);
    },
  };
}

/**
 * What 2026-07-28 widened in tools, narrowed for a client of a revision with an `initialize`
 * handshake (2025-11-25 and earlier), in `result` (a copy of the handler's; the handler's own
 * objects are not changed). `tools/call`: `structuredContent` may be any JSON value, where 2025-11-25
 * has "An optional JSON object": another value is left out, and the result's `content` carries it
 * (server/tools § Structured Content: such a tool SHOULD also return it serialized in a text block).
 * `tools/list`: `outputSchema` may be any JSON Schema, where 2025-11-25 has it "restricted to type:
 * "object" at the root level": another is left out (the client then does not check the structured
 * content, which it no longer gets); and a schema's `properties` may hold the boolean schemas `true`
 * and `false`, where 2025-11-25 has objects: they become `{}` and `{ "not": {} }`, which mean the
 * same (JSON Schema 2020-12 § 4.3.2). Before, any of these failed the legacy schema: the call, or the
 * whole tool list, was answered -32603, and a legacy client had no tools. For a revision whose
 * `tools/call` results have no `structuredContent` (`structured` false: 2025-03-26 and earlier, where
 * `resultDrop` removes it), every `outputSchema` is left out, since no call can bring what it
 * promises (a client that reads it, such as the TypeScript SDK v1 one, refused every such call).
 */
function narrowTools(method: string, result: JsonObject, structured: boolean): void {
  if (method === "tools/call") {
    if (hasOwn.call(result, "structuredContent") && !isPlainObject(result["structuredContent"])) delete result["structuredContent"];
    return;
  }
  if (method !== "tools/list" || !Array.isArray(result["tools"])) return;
  const properties = (schema: unknown): unknown => {
    const given: unknown = isPlainObject(schema) ? own(schema, "properties") : undefined;
    if (!isPlainObject(given) || !Object.values(given).some((v) => typeof v === "boolean")) return schema;
    const narrowed: JsonObject = {};
    for (const [name, value] of Object.entries(given)) {
      // defineProperty: a property named __proto__ (a definition read from JSON) is data; an assignment set the prototype.
      Object.defineProperty(narrowed, name, { value: value === true ? {} : value === false ? { not: {} } : value, enumerable: true, writable: true, configurable: true });
    }
    return { ...(schema as JsonObject), properties: narrowed };
  };
  result["tools"] = (result["tools"] as unknown[]).map((tool) => {
    if (!isPlainObject(tool)) return tool;
    const copy: JsonObject = { ...tool };
    if (hasOwn.call(copy, "inputSchema")) copy["inputSchema"] = properties(copy["inputSchema"]);
    if (hasOwn.call(copy, "outputSchema")) {
      if (structured && isPlainObject(copy["outputSchema"]) && own(copy["outputSchema"], "type") === "object") copy["outputSchema"] = properties(copy["outputSchema"]);
      else delete copy["outputSchema"];
    }
    return copy;
  });
}

/**
 * 32 random hexadecimal digits: from `crypto.getRandomValues` where the platform has it (Node.js,
 * browsers, Deno, Bun, workers), else from `Math.random` (unique, not unguessable).
 */
function randomText(): string {
  const bytes = new Uint8Array(16);
  const crypto = (globalThis as { crypto?: { getRandomValues?: (array: Uint8Array) => Uint8Array } }).crypto;
  if (typeof crypto?.getRandomValues === "function") crypto.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  let text = "";
  for (const byte of bytes) text += (byte < 16 ? "0" : "") + byte.toString(16);
  return text;
}

/**
 * Why a tool's `result` breaks its `outputSchema` (server/tools § Output Schema: a tool with one
 * returns structured results that conform to it), else `undefined`: a complete result that is no
 * tool error (`isError: true`) and has no `structuredContent`, or one that fails the schema. An
 * input-required result (no content yet; any `resultType` but `complete`, the revision's value
 * for a complete result), a result without `content` (2025-11-25 `CreateTaskResult`) and anything
 * that is no object are left to the result's own check.
 */
function structuredContentProblem(outputSchema: unknown, result: unknown, complete: string | undefined): string | undefined {
  if (!isPlainObject(result) || own(result, "isError") === true) return undefined;
  // A result without `content` is no CallToolResult (every revision requires it): a 2025-11-25 CreateTaskResult
  // (a task-augmented call: the tool's result comes later, from tasks/result), or a malformed one the result's check refuses.
  if (!hasOwn.call(result, "content")) return undefined;
  // A revision without resultType (2025-11-25) has no result that is not complete: its results are all checked.
  const resultType = own(result, "resultType");
  if (complete !== undefined && resultType !== undefined && resultType !== complete) return undefined;
  const structured = own(result, "structuredContent");
  if (structured === undefined) return "it has no structuredContent";
  const problem = checkStructuredContent(outputSchema, structured);
  // The problems' JSON Pointers are within structuredContent.
  return problem === undefined ? undefined : "its structuredContent: " + problem;
}

/** How many distinct reports of tools left out of a legacy `tools/list` a dispatcher remembers having made; past them, each is made again. */
const MAX_TOLD_LEFT_OUT = 64;

/**
 * The indexes of the tools `issues` are about (`/tools/N…`), when every issue is about one; else
 * `undefined`. The issue saying that the validation stopped (`maxIssues`, at "") is passed over:
 * the issues before it name tools, and those after it are found once these are left out.
 */
function unfitTools(issues: readonly { readonly path: string; readonly keyword?: string }[], tools: unknown): Set<number> | undefined {
  if (!Array.isArray(tools) || issues.length === 0) return undefined;
  const found = new Set<number>();
  for (const issue of issues) {
    if (issue.path === "" && issue.keyword === "maxIssues") continue;
    const match = /^\/tools\/(\d+)(?:\/|$)/.exec(issue.path);
    if (match === null || Number(match[1]) >= tools.length) return undefined;
    found.add(Number(match[1]));
  }
  return found.size === 0 ? undefined : found;
}

/**
 * The content blocks `issues` refuse for their type alone (`/content/N/type` of a `tools/call` result,
 * `/messages/N/content/type` of a `prompts/get` one), each with a `replace` that puts another block
 * in its place, when every issue is such one (but the one saying the validation stopped at MAX_ISSUES:
 * the blocks past those are found once these are replaced); else `undefined`. The arrays and messages replaced are
 * copies put in `result`: the handler's own objects are not changed.
 */
function unfitContent(issues: readonly { readonly path: string; readonly keyword?: string }[], method: string, result: JsonObject): { readonly block: JsonObject; replace(by: JsonObject): void }[] | undefined {
  const pattern = method === "tools/call" ? /^\/content\/(\d+)\/type$/ : method === "prompts/get" ? /^\/messages\/(\d+)\/content\/type$/ : undefined;
  const key = method === "tools/call" ? "content" : "messages";
  const list: unknown = own(result, key);
  if (pattern === undefined || issues.length === 0 || !Array.isArray(list)) return undefined;
  const found: { readonly block: JsonObject; replace(by: JsonObject): void }[] = [];
  let copy: unknown[] | undefined;
  const at = (): unknown[] => (copy ??= result[key] = [...list]);
  for (const issue of issues) {
    if (issue.path === "" && issue.keyword === "maxIssues") continue;
    const match = pattern.exec(issue.path);
    if (match === null) return undefined;
    const n = Number(match[1]);
    const item: unknown = list[n];
    if (method === "tools/call") {
      if (!isPlainObject(item)) return undefined;
      found.push({ block: item, replace: (by) => (at()[n] = by) });
    } else {
      const block: unknown = isPlainObject(item) ? own(item, "content") : undefined;
      if (!isPlainObject(block)) return undefined;
      found.push({ block, replace: (by) => (at()[n] = { ...(item as JsonObject), content: by }) });
    }
  }
  return found.length === 0 ? undefined : found;
}

/** What a content block a client's revision cannot carry says as text: a resource link its name and URI, another its type left out. */
function contentAsText(type: string, block: JsonObject, protocolVersion: string): string {
  const uri = own(block, "uri");
  const name = own(block, "name");
  if (typeof uri === "string") return (typeof name === "string" && name !== "" ? name + ": " : "") + uri;
  return "(" + type + " content left out: protocol " + protocolVersion + " has no such content)";
}

/** The message of the `-32603` answer to a request whose deadline aborted: its reason when that is a string. */
function reasonOf(deadline: AbortSignalLike | undefined): string {
  const reason: unknown = deadline?.reason;
  return typeof reason === "string" && reason !== "" ? reason : "Request aborted before it completed";
}

/** What the core passes a handler as its context (the generated `RequestContext` types it per revision). */
export interface RequestContextCore {
  readonly id: DispatchRequestId;
  readonly method: string;
  readonly meta: { readonly [key: string]: unknown };
  readonly progressToken: string | number | undefined;
  readonly era: Era;
  readonly protocolVersion: string;
  readonly clientCapabilities: { readonly [key: string]: unknown };
  readonly clientInfo: unknown;
  readonly logLevel: string | undefined;
  requireClientCapabilities(required: object): void;
  readonly inputResponses: unknown;
  readonly requestState: unknown;
  readonly signal: AbortSignalLike;
  readonly transport: unknown;
  readonly legacySession: object | undefined;
  notify(method: string, params?: unknown): void;
}

/**
 * The generated `createServerDispatcher`: {@link createDispatcher} bound to one revision's
 * table, or to several (the first is the handler revision; see {@link createDispatcher}),
 * typed by the generated options and dispatcher types (`O` narrows {@link DispatcherOptions};
 * `D` is the typed view of {@link CoreDispatcher}). The revisions are frozen ({@link deepFreeze}) when it is called, at the
 * generated module's load: the exported `DISPATCH_REVISION` cannot be changed under the dispatchers made from it.
 */
export function dispatcherFor<O extends DispatcherOptions, D>(revisions: DispatchRevision | readonly DispatchRevision[]): (options: O) => D {
  // The exported DISPATCH_REVISION objects are what every dispatcher made here reads: frozen, no caller can change them.
  deepFreeze(revisions);
  return (options: O) => createDispatcher(revisions, options) as unknown as D;
}
