/**
 * The server dispatcher's core: one fixed, era-neutral function of a protocol revision's
 * generated tables (the method table, validators, `_meta` checks, the result rules) and the
 * server's options. It answers JSON-RPC messages and does no I/O; transports feed it.
 *
 * What a request says about its client (protocol revision, client capabilities, client info,
 * log level) comes through one {@link Arrival} per request, made by the arrival step of the
 * revision's era: `modern` revisions (2026-07-28 and later) read it from the request's own
 * `_meta`; `legacy` revisions (an `initialize` handshake) from what the channel negotiated
 * ({@link HandleContext.session}). The rest of the core never looks at the era.
 */
import { isJsonData, isPlainObject, own, quoteShort } from "./json.js";
import { checkToolArguments } from "./tool-arguments.js";

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
  console?: { error(...args: unknown[]): void };
  process?: { env?: { [key: string]: string | undefined } };
};

/**
 * An error a handler throws to choose the JSON-RPC error it is answered with. Any other
 * exception is answered `-32603` with a fixed message: nothing of it reaches the wire.
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
  }
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
  /** Methods answered by the core unless a handler takes them, by role. */
  readonly builtins: {
    readonly discover?: string;
    readonly initialize?: string;
    readonly ping?: string;
    readonly listen?: string;
    readonly setLevel?: string;
    readonly subscribe?: string;
    readonly unsubscribe?: string;
  };
  /** The notification that completes a legacy handshake (`notifications/initialized`). */
  readonly initializedNotification?: string;
  /** Whether `tools/list` and `tools/call` are answered from `options.tools`. */
  readonly tools: boolean;
  /** The `resultType` a result without one gets, when results require it. */
  readonly absentResultType?: string;
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
  /**
   * Legacy revisions in a multi-revision output: per method, the top-level result members the
   * handler revision's result has and this revision's result type lacks (e.g. resultType, ttlMs,
   * cacheScope); the core deletes them before checking the result with this revision.
   */
  readonly resultDrop?: { readonly [method: string]: readonly string[] };
}

/** A tool served by the dispatcher (the generated `ToolEntry`, as far as the core reads it). */
export interface DispatcherTool {
  readonly definition: { readonly name: string; readonly inputSchema?: unknown };
  call(args: { readonly [key: string]: unknown }, context: never): unknown;
  checkArguments?(args: { readonly [key: string]: unknown }): string | undefined;
}

/** What {@link DispatcherOptions.onError} is told. */
export interface DispatchErrorInfo {
  readonly method: string;
  readonly id?: DispatchRequestId;
  readonly reason: "handler-threw" | "invalid-result" | "notification-handler-threw";
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
  readonly onError?: (error: unknown, info: DispatchErrorInfo) => void;
}

/** What a transport passes with each message. */
export interface HandleContext {
  /**
   * The connection the message arrived on: request ids in flight, and `notifications/cancelled`,
   * are scoped to it. Streamable HTTP passes a new object per POST; stdio one per process.
   * Default: one channel for the dispatcher.
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
  /** Where notifications about this request go (an SSE stream, stdout). Without it they are dropped. */
  readonly notify?: (notification: OutgoingNotification) => void;
  /** What a legacy channel negotiated at `initialize`; read by the arrival step of legacy revisions. */
  readonly session?: SessionState;
  /** Passed through to handlers as `context.transport`. */
  readonly transport?: unknown;
}

/** The dispatcher the core makes (the generated `ServerDispatcher` types it per revision). */
export interface CoreDispatcher {
  handle(message: unknown, context?: HandleContext): Promise<DispatchResponse | undefined>;
  readonly capabilities: { readonly [key: string]: unknown };
  readonly supportedProtocolVersions: readonly string[];
  publish(method: string, params?: { readonly [key: string]: unknown }): number;
  closeSubscriptions(): void;
  findTool(name: string): { readonly name: string; readonly inputSchema?: unknown } | undefined;
}

/**
 * What a transport needs of a dispatcher: any revision's generated `ServerDispatcher` is one
 * (only these members are read, so its typed `capabilities` and `publish` do not matter).
 */
export type TransportDispatcher = Pick<CoreDispatcher, "handle" | "closeSubscriptions" | "findTool">;

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

function isRequestId(v: unknown): v is DispatchRequestId {
  return typeof v === "string" || (typeof v === "number" && Number.isSafeInteger(v));
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

/** The `_meta` of a params object, when it is a plain object; else `{}`. */
function metaOfParams(params: { readonly [key: string]: unknown }): { readonly [key: string]: unknown } {
  const meta = own(params, "_meta");
  return isPlainObject(meta) ? meta : {};
}

/**
 * The arrival step of a modern revision: the request's own `_meta` names the revision (a
 * supported one, else `-32022` with `data.supported` and `data.requested`), the client's
 * capabilities, info and log level; `_meta` failing the schema is `-32602`.
 */
function arriveByRequestMeta(
  revision: DispatchRevision,
  params: { readonly [key: string]: unknown },
  supported: readonly string[],
  strict: boolean,
): Arrival | { readonly error: DispatchErrorObject } {
  const keys = revision.metaKeys;
  const rawMeta = own(params, "_meta");
  const requested = isPlainObject(rawMeta) ? own(rawMeta, keys.protocolVersion) : undefined;
  if (typeof requested === "string" && !supported.includes(requested)) {
    return { error: { code: -32022, message: "Unsupported protocol version: " + quoteShort(requested), data: { supported: [...supported], requested } } };
  }
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
 * Creates a dispatcher for one protocol revision. It checks each message in this order and
 * answers:
 *
 * 1. text that is not JSON → `-32700` without `id`;
 * 2. a batch (array), or a value that is not a request or notification → `-32600`, with the `id` when it can be read;
 * 3. a notification → handled (`notifications/cancelled` aborts its request), never answered;
 * 4. a method that is unknown, removed, not client→server, or whose server capability is not advertised → `-32601`;
 * 5. the arrival step (modern revisions): a readable `io.modelcontextprotocol/protocolVersion` that is not supported → `-32022`
 *    with `data.supported` and `data.requested` (before the params: a client of another revision is told to switch, not that
 *    its params are wrong), a per-request `_meta` failing the schema → `-32602`;
 * 6. params failing the schema → `-32602` naming what is wrong (`data.issues`);
 * 7. an `id` already in flight on the same channel → `-32600` (the first request is not disturbed);
 * 8. the handler: its result (with `resultType`, caching fields and `_meta` serverInfo filled in where the revision has them);
 *    an input request needing a client capability the client did not declare, or `requireClientCapabilities`, → `-32021`;
 *    a {@link HandlerError} → its code; any other exception, a malformed result or one that is not JSON data → `-32603`,
 *    logged through `onError`, with nothing of it on the wire; a `deadline` that aborts → `-32603` with its reason.
 *
 * @throws TypeError when `supportedProtocolVersions` is empty or not strings, or two tools share a name
 */
export function createDispatcher(revision: DispatchRevision, options: DispatcherOptions): CoreDispatcher {
  const handlers: { readonly [method: string]: unknown } = Object.assign(Object.create(null) as JsonObject, options.handlers ?? {});
  const supported: readonly string[] = [...(options.supportedProtocolVersions ?? [revision.protocolVersion])];
  if (supported.length === 0 || supported.some((v) => typeof v !== "string")) throw new TypeError("supportedProtocolVersions lists at least one version, as strings");
  const tools = new Map<string, DispatcherTool>();
  if (revision.tools) {
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
  const onError =
    options.onError ??
    ((error: unknown, info: DispatchErrorInfo) => {
      PLATFORM.console?.error("mcp dispatcher: " + info.reason + " in " + info.method, error);
    });
  const defaultChannel = {};
  const channels = new WeakMap<object, Map<string, AbortControllerLike>>();
  const subscriptions = new Set<Subscription>();
  const listenFilters = revision.listen?.filters ?? [];

  function deriveCapabilities(): JsonObject {
    const derived: JsonObject = {};
    for (const method of Object.keys(handlers)) {
      const info = revision.methodInfo(method);
      if (handlers[method] !== undefined && info?.capability?.side === "server") addCapability(derived, info.capability.path);
    }
    if (revision.tools && options.tools !== undefined) addCapability(derived, ["tools"]);
    return derived;
  }

  function report(error: unknown, info: DispatchErrorInfo): void {
    try {
      onError(error, info);
    } catch {
      // a failing logger must not change the answer
    }
  }

  /** The method-table row of a method the client sends (`kind` request or notification), else `undefined`. */
  function fromClient(method: string, kind: "request" | "notification"): MethodRow | undefined {
    const info = revision.methodInfo(method);
    return info !== undefined && info.kind === kind && info.direction !== "server-to-client" ? info : undefined;
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

  type Answer = (params: { readonly [key: string]: unknown }, context: RequestContextCore) => unknown;

  /** The built-in answers, used when no handler is given. */
  const builtins = Object.create(null) as { [method: string]: Answer | undefined };
  {
    const { discover, initialize, ping, listen } = revision.builtins;
    if (discover !== undefined) {
      builtins[discover] = () => ({
        supportedVersions: [...supported],
        capabilities,
        ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
      });
    }
    if (initialize !== undefined) {
      builtins[initialize] = (params) => {
        const requested = own(params, "protocolVersion");
        return {
          protocolVersion: typeof requested === "string" && supported.includes(requested) ? requested : supported[0],
          capabilities,
          serverInfo: options.serverInfo,
          ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
        };
      };
    }
    if (ping !== undefined) builtins[ping] = () => ({});
    if (revision.tools && options.tools !== undefined) {
      builtins["tools/list"] = () => ({ tools: [...tools.values()].map((t) => t.definition) });
      builtins["tools/call"] = (params, context) => {
        const name = own(params, "name");
        const tool = typeof name === "string" ? tools.get(name) : undefined;
        if (tool === undefined) throw new HandlerError(-32602, "Unknown tool: " + (typeof name === "string" ? quoteShort(name) : "(no name)"));
        const given = own(params, "arguments");
        const args = isPlainObject(given) ? given : {};
        const problem = tool.checkArguments !== undefined ? tool.checkArguments(args) : checkToolArguments(tool.definition.inputSchema, args);
        if (problem !== undefined) return toolError("Invalid arguments for tool " + quoteShort(tool.definition.name) + ": " + problem);
        return tool.call(args, context as never);
      };
    }
    if (listen !== undefined && revision.listen !== undefined) builtins[listen] = (params, context) => subscribe(params, context);
  }

  /** The built-in `subscriptions/listen`: acknowledges the part of the filter the server can honour, then stays open until cancelled or closed. */
  function subscribe(params: { readonly [key: string]: unknown }, context: RequestContextCore): Promise<unknown> {
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

  /** Runs a handler and shapes what it returns into the result sent on the wire. */
  async function respond(id: DispatchRequestId, method: string, params: { readonly [key: string]: unknown }, context: RequestContextCore): Promise<DispatchResponse> {
    const handler = (handlers[method] ?? builtins[method]) as Answer | undefined;
    if (handler === undefined) return errorOf(id, -32601, "Method not implemented: " + quoteShort(method));
    let value: unknown;
    try {
      value = await handler(params, context);
    } catch (error) {
      return thrown(id, method, error);
    }
    try {
      return shape(id, method, value, context);
    } catch (error) {
      // a result whose getters or Proxy traps throw
      report(error, { method, id, reason: "invalid-result" });
      return errorOf(id, -32603, "Internal error");
    }
  }

  /** The answer to an exception a handler threw: a {@link HandlerError}'s own error when its parts are JSON data, else `-32603`. */
  function thrown(id: DispatchRequestId, method: string, error: unknown): DispatchResponse {
    try {
      if (error instanceof HandlerError && Number.isSafeInteger(error.code) && typeof error.message === "string") {
        if (error.data === undefined || isJsonData(error.data)) return errorOf(id, error.code, error.message, error.data);
        report(new TypeError("the " + method + " handler threw a HandlerError whose data is not JSON data"), { method, id, reason: "invalid-result" });
        return errorOf(id, -32603, "Internal error");
      }
    } catch {
      // a HandlerError whose parts cannot be read is answered like any other exception
    }
    report(error, { method, id, reason: "handler-threw" });
    return errorOf(id, -32603, "Internal error");
  }

  /** What a handler returned, completed (`resultType`, caching fields, serverInfo) and checked. */
  function shape(id: DispatchRequestId, method: string, value: unknown, context: RequestContextCore): DispatchResponse {
    if (!isPlainObject(value)) {
      report(new TypeError("the handler returned " + (value === null ? "null" : typeof value) + ", not a result object"), { method, id, reason: "invalid-result" });
      return errorOf(id, -32603, "Internal error");
    }
    const result: JsonObject = { ...value };
    if (revision.absentResultType !== undefined && result["resultType"] === undefined) result["resultType"] = revision.absentResultType;
    const inputRequired = revision.inputRequiredResultType !== undefined && result["resultType"] === revision.inputRequiredResultType;
    if (cacheable.has(method) && !inputRequired) {
      if (result["ttlMs"] === undefined) result["ttlMs"] = cache.ttlMs;
      if (result["cacheScope"] === undefined) result["cacheScope"] = cache.cacheScope;
    }
    if (serverInfoKey !== undefined) {
      const meta = isPlainObject(result["_meta"]) ? result["_meta"] : {};
      result["_meta"] = { ...meta, [serverInfoKey]: options.serverInfo };
    }
    if (inputRequired) {
      const missing = inputRequestsNeed(result["inputRequests"], context.clientCapabilities);
      if (missing !== undefined) return errorOf(id, -32021, "Missing required client capability", { requiredCapabilities: missing });
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
      const parsed = revision.parseResult(method as never, result);
      if (!parsed.ok) {
        report(new TypeError("the " + method + " handler returned a malformed result: " + describeIssues(parsed.issues)), { method, id, reason: "invalid-result" });
        return errorOf(id, -32603, "Internal error");
      }
    }
    return { jsonrpc: "2.0", id, result };
  }

  /** The client capabilities the input requests of an `InputRequiredResult` need and the client did not declare. */
  function inputRequestsNeed(inputRequests: unknown, declared: unknown): JsonObject | undefined {
    if (!isPlainObject(inputRequests)) return undefined;
    const required: JsonObject = {};
    for (const key of Object.keys(inputRequests)) {
      const request = inputRequests[key];
      const method = isPlainObject(request) ? own(request, "method") : undefined;
      const info = typeof method === "string" ? revision.methodInfo(method) : undefined;
      if (info?.capability?.side === "client") addCapability(required, info.capability.path);
    }
    return missingCapabilities(declared, required);
  }

  function notification(method: string, params: unknown, context: HandleContext | undefined): void {
    const channel = context?.channel ?? defaultChannel;
    const meta = isPlainObject(params) ? metaOfParams(params) : {};
    if (method === revision.cancelledMethod && isPlainObject(params)) {
      const target = own(params, "requestId");
      if (isRequestId(target)) channels.get(channel)?.get(idKey(target))?.abort(own(params, "reason"));
    }
    const info = fromClient(method, "notification");
    const handler = info === undefined ? undefined : (handlers[method] as ((p: unknown, c: unknown) => unknown) | undefined);
    if (info === undefined || handler === undefined) return;
    const validate = revision.validatorsByType[info.messageType];
    if (validate !== undefined && !validate({ jsonrpc: "2.0", method, ...(params === undefined ? {} : { params }) }).ok) return;
    try {
      const done = handler(params, { method, meta, transport: context?.transport });
      if (done instanceof Promise) done.catch((error: unknown) => report(error, { method, reason: "notification-handler-threw" }));
    } catch (error) {
      report(error, { method, reason: "notification-handler-threw" });
    }
  }

  async function request(message: JsonObject, id: DispatchRequestId, method: string, context: HandleContext | undefined): Promise<DispatchResponse | undefined> {
    const info = fromClient(method, "request");
    // A legacy client's opening request carries no per-request _meta version; a modern one that sends
    // the removed method is told it is not found, like any other.
    if (info === undefined && method === revision.legacyHandshake && !hasModernMeta(own(message, "params"))) return legacyHandshakeAnswer(id, own(message, "params"));
    if (info === undefined) return errorOf(id, -32601, "Method not found: " + quoteShort(method));
    if (info.capability?.side === "server" && !hasCapability(capabilities, info.capability.path))
      return errorOf(id, -32601, "Method not found: " + quoteShort(method) + " (the server does not advertise " + info.capability.path.join(".") + ")");
    const rawParams = own(message, "params");
    if (rawParams !== undefined && !isPlainObject(rawParams)) return errorOf(id, -32602, "Invalid params: params must be an object");
    const params: { readonly [key: string]: unknown } = rawParams ?? {};
    const arrival = revision.era === "modern" ? arriveByRequestMeta(revision, params, supported, strictMeta) : arriveBySession(params, supported, context?.session);
    if ("error" in arrival) return errorOf(id, arrival.error.code, arrival.error.message, arrival.error.data);
    const validate = revision.validatorsByType[info.messageType];
    if (validate !== undefined) {
      const checked = validate(message);
      if (!checked.ok) return errorOf(id, -32602, "Invalid params: " + describeIssues(checked.issues), { issues: checked.issues.map((i) => ({ path: i.path, message: i.message })) });
    }
    const inFlight = inFlightOf(context?.channel ?? defaultChannel);
    const key = idKey(id);
    if (inFlight.has(key)) return errorOf(id, -32600, "Invalid request: id " + quoteShort(String(id)) + " is already in flight");
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
    let open = true;
    const send = (notification: OutgoingNotification) => {
      if (!open || controller.signal.aborted || context?.notify === undefined) return;
      try {
        context.notify(notification);
      } catch {
        // a transport that cannot deliver a notification does not fail the request
      }
    };
    const inputResponses: unknown = own(params, "inputResponses");
    const requestState: unknown = own(params, "requestState");
    const requestContext: RequestContextCore = {
      id,
      method,
      meta: arrival.meta,
      era: arrival.era,
      protocolVersion: arrival.protocolVersion,
      clientCapabilities: arrival.clientCapabilities,
      clientInfo: arrival.clientInfo,
      logLevel: arrival.logLevel,
      requireClientCapabilities(required: object): void {
        const missing = missingCapabilities(arrival.clientCapabilities, required);
        if (missing !== undefined) throw new HandlerError(-32021, "Missing required client capability", { requiredCapabilities: missing });
      },
      inputResponses: isPlainObject(inputResponses) ? inputResponses : undefined,
      requestState: typeof requestState === "string" ? requestState : undefined,
      signal: controller.signal,
      transport: context?.transport,
      notify(notifyMethod: string, notifyParams?: unknown): void {
        send(notifyParams === undefined ? { jsonrpc: "2.0", method: notifyMethod } : { jsonrpc: "2.0", method: notifyMethod, params: notifyParams as JsonObject });
      },
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
      const response = await Promise.race([respond(id, method, params, requestContext), cut]);
      return controller.signal.aborted && !expired ? undefined : response;
    } finally {
      controller.signal.removeEventListener("abort", stopWaiting);
      controller.signal.removeEventListener("abort", release);
      deadline?.removeEventListener("abort", expire);
      open = false;
      release();
      outer?.removeEventListener("abort", abort);
    }
  }

  /** Whether params carry the modern per-request protocol version in `_meta`. */
  function hasModernMeta(params: unknown): boolean {
    const meta = isPlainObject(params) ? own(params, "_meta") : undefined;
    return isPlainObject(meta) && own(meta, revision.metaKeys.protocolVersion) !== undefined;
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

  async function handle(message: unknown, context?: HandleContext): Promise<DispatchResponse | undefined> {
    try {
      let value: unknown = message;
      if (typeof message === "string") {
        try {
          value = JSON.parse(message);
        } catch {
          return errorOf(undefined, -32700, "Parse error: the message is not JSON");
        }
      }
      if (Array.isArray(value)) return errorOf(undefined, -32600, "Invalid request: batches are not supported");
      if (!isPlainObject(value)) return errorOf(undefined, -32600, "Invalid request: a message is a JSON object");
      const hasId = Object.prototype.hasOwnProperty.call(value, "id");
      const rawId = own(value, "id");
      const id = isRequestId(rawId) ? rawId : undefined;
      if (own(value, "jsonrpc") !== "2.0") return errorOf(id, -32600, 'Invalid request: jsonrpc must be "2.0"');
      const method = own(value, "method");
      if (typeof method !== "string") return errorOf(id, -32600, "Invalid request: method must be a string");
      if (!hasId) {
        notification(method, own(value, "params"), context);
        return undefined;
      }
      if (id === undefined) return errorOf(undefined, -32600, "Invalid request: id must be a string or an integer");
      return await request(value, id, method, context);
    } catch (error) {
      report(error, { method: "(dispatch)", reason: "handler-threw" });
      return errorOf(undefined, -32603, "Internal error");
    }
  }

  return {
    handle,
    capabilities,
    supportedProtocolVersions: supported,
    findTool: (name) => tools.get(name)?.definition,
    publish(method, params) {
      const filter = listenFilters.find((f) => f.method === method);
      if (filter === undefined) return 0;
      let reached = 0;
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
  };
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
  notify(method: string, params?: unknown): void;
}

/**
 * The generated `createServerDispatcher` of a revision: {@link createDispatcher} bound to its
 * table, typed by the generated options and dispatcher types (`O` narrows
 * {@link DispatcherOptions}; `D` is the typed view of {@link CoreDispatcher}).
 */
export function dispatcherFor<O extends DispatcherOptions, D>(revisions: DispatchRevision | readonly DispatchRevision[]): (options: O) => D {
  // Until the multi-revision core lands (issue 11, RT-core): the handler revision alone.
  const revision = Array.isArray(revisions) ? (revisions as readonly DispatchRevision[])[0]! : (revisions as DispatchRevision);
  return (options: O) => createDispatcher(revision, options) as unknown as D;
}
