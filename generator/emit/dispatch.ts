/**
 * Builds the view model of `dispatch.ts`: one typed handler per client→server method, and
 * the facts the stateless dispatcher needs (which methods it answers, which results it
 * completes, which built-in answers the schema calls for: `server/discover`, `initialize`,
 * `ping`, `subscriptions/listen`, the tool table).
 *
 * Everything is read from the protocol facts of `analyze/protocol.ts` (the schema) and the
 * selected prose rules; nothing here names a protocol revision.
 */
import type { Model } from "../analyze/index.js";
import { paramsAlternatives, type MethodFact, type ProtocolFacts } from "../analyze/protocol.js";
import { typeReference } from "../analyze/reference.js";
import type { ObjectType, TypeExpr } from "../ir.js";
import { array, call, constStatement, withinWidth, identifierCode, mappedIntersectionAlias, object, Pieces, plainLine, propertyLine, stringCode, text, unionParameterMethod, type Code } from "./layout.js";
import { keyText, layOutAlias, stringLiteralText } from "./print-type.js";
import { typeReferenceText, type SymbolTable } from "./symbols.js";

/** `T.X`: the schema type `name` as `dispatch.ts` refers to it. */
const typeText = (name: string) => typeReferenceText(typeReference(name));
import { renderTemplate } from "./templates.js";

interface RequestView {
  readonly method: string;
  readonly handlerResultType: string;
}

interface ListenFilterView {
  readonly field: string;
  readonly method: string;
  readonly list: boolean;
  readonly capability: string;
  /** The raw values, for the layout. */
  readonly fieldName: string;
  readonly methodName: string;
  readonly capabilityPath: readonly string[];
}

/**
 * The view model of `dispatch.ts`: the revision's table for the runtime's dispatcher core
 * (`runtime/dispatcher.ts`), as literals, and the type texts of its typed handler map.
 * Strings that go into code are JSON literals; `""` means "absent".
 */
export interface DispatchView {
  readonly version: string;
  readonly era: string;
  readonly usesTypes: boolean;
  readonly hasMethods: boolean;
  /** Whether the revision's requests carry `_meta` checked by `checkRequestMeta` (modern era). */
  readonly checkRequestMeta: boolean;
  readonly metaKeys: {
    readonly protocolVersion: string;
    readonly clientCapabilities: string;
    readonly clientInfo: string;
    readonly logLevel: string;
    readonly serverInfo: string;
    readonly subscriptionId: string;
  };
  readonly clientCapabilitiesType: string;
  readonly clientInfoType: string;
  readonly serverCapabilitiesType: string;
  readonly serverInfoType: string;
  readonly serverInfoMeta: boolean;
  readonly serverInfoKey: string;
  readonly absentResultType: string;
  /** How the revision says "resource not found" (`{ code, uriRequired }` as code), when it has `resources/read`; else "". */
  readonly resourceNotFound: string;
  readonly resourceNotFoundCite: string;
  readonly hasCacheable: boolean;
  readonly completableKeys: string;
  readonly inputRequiredValue: string;
  /** The type of `params.inputResponses` (`T.InputResponses`), or `unknown`. */
  readonly inputResponsesType: string;
  readonly requests: readonly RequestView[];
  /** Request methods whose results carry the caching fields, as JSON strings. */
  readonly cacheableMethods: readonly string[];
  readonly notificationMethods: string;
  /** The raw method names and keys of the unions above and below, for the layout. */
  readonly notificationList: readonly string[];
  readonly outgoingNotificationList: readonly string[];
  readonly completableList: readonly string[];
  readonly listenMethodList: readonly string[];
  readonly cacheableList: readonly string[];
  readonly outgoingNotificationMethods: string;
  readonly cancelledMethod: string;
  /** The built-in answers by role (`discover`, `initialize`, `ping`, `listen`; legacy revisions also `setLevel`, `subscribe`, `unsubscribe`), methods as JSON strings. */
  readonly builtins: readonly { readonly role: string; readonly method: string }[];
  /** The notification that completes a legacy handshake (JSON), or "". */
  readonly initializedNotification: string;
  readonly discover: boolean;
  readonly hasTools: boolean;
  readonly toolResultType: string;
  readonly toolDefinitionType: string;
  readonly listen: boolean;
  readonly listenAckMethod: string;
  readonly listenCite: string;
  readonly listenFilters: readonly ListenFilterView[];
  readonly listenMethodsType: string;
  /** The legacy handshake method a modern-only revision answers with `-32022` (JSON), or "". */
  readonly legacyHandshake: string;
  readonly legacyHandshakeCite: string;
  /** The schema's batch type (`JSONRPCBatchRequest`) when the revision takes JSON-RPC batches, or "". */
  readonly batchRequest: string;
  /** The discover result type that requires `serverInfo` as a property of its own (the 2026-07-13 draft's `DiscoverResult`), or "". */
  readonly discoverServerInfo: string;
}

const PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
const CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities";
const SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo";
const CLIENT_INFO_KEY = "io.modelcontextprotocol/clientInfo";
const LOG_LEVEL_KEY = "io.modelcontextprotocol/logLevel";
/** The caching fields of `CacheableResult` a handler may leave to the dispatcher's `cache` option. */
const CACHE_FIELDS = ["ttlMs", "cacheScope"];

/** Whether a method is sent by the client to the server. */
function fromClient(m: MethodFact): boolean {
  return m.direction === "client-to-server" || m.direction === "both";
}

/** Whether a method is sent by the server to the client. */
function fromServer(m: MethodFact): boolean {
  return m.direction === "server-to-client" || m.direction === "both";
}

/** The requests a client sends to a server: the methods `ServerHandlers` has a handler for. */
export function clientRequests(facts: ProtocolFacts): MethodFact[] {
  return facts.methods.filter((m) => m.kind === "request" && fromClient(m));
}

/**
 * The requests a legacy session answers in the runtime core (2025-11-25 basic/utilities/logging,
 * server/resources § Subscriptions), by role, and the notification that completes the handshake
 * (basic/lifecycle § Initialization). Found in a schema by method name.
 */
const LEGACY_SESSION_METHODS = { setLevel: "logging/setLevel", subscribe: "resources/subscribe", unsubscribe: "resources/unsubscribe" } as const;
const INITIALIZED_NOTIFICATION = "notifications/initialized";

/** The built-in roles of {@link builtinRequests}. */
export interface BuiltinRequests {
  discover?: MethodFact;
  initialize?: MethodFact;
  ping?: MethodFact;
  listen?: MethodFact;
  setLevel?: MethodFact;
  subscribe?: MethodFact;
  unsubscribe?: MethodFact;
}

/**
 * The requests the dispatcher answers itself when no handler is given, by role (a built-in
 * `tools/…` needs `options.tools`, so it is not one). The session requests (`setLevel`,
 * `subscribe`, `unsubscribe`) are built in for legacy revisions only: they act on the state a
 * legacy channel keeps.
 */
export function builtinRequests(facts: ProtocolFacts): BuiltinRequests {
  const requests = clientRequests(facts);
  const listen = facts.rules.subscriptions?.method;
  const legacy = !isStateless(facts);
  const session = (method: string) => (legacy ? requests.find((m) => m.method === method) : undefined);
  const found = {
    discover: requests.find((m) => m.results.includes("DiscoverResult")),
    initialize: requests.find((m) => m.results.includes("InitializeResult")),
    ping: requests.find((m) => m.method === "ping"),
    listen: listen === undefined ? undefined : requests.find((m) => m.method === listen),
    setLevel: session(LEGACY_SESSION_METHODS.setLevel),
    subscribe: session(LEGACY_SESSION_METHODS.subscribe),
    unsubscribe: session(LEGACY_SESSION_METHODS.unsubscribe),
  };
  return Object.fromEntries(Object.entries(found).filter(([, m]) => m !== undefined));
}

/** `"a" | "b"`, or `never` for none. */
function unionOf(values: readonly string[]): string {
  return values.length === 0 ? "never" : values.map((v) => JSON.stringify(v)).join(" | ");
}

/** Whether the schema's requests carry the protocol version in their own `_meta` (2026-07-28 and later): the dispatcher then keeps nothing between requests. */
export function isStateless(facts: ProtocolFacts): boolean {
  return (facts.requestMeta?.properties ?? []).some((p) => p.name === PROTOCOL_VERSION_KEY && !p.optional);
}

/**
 * The request methods whose completed results carry the caching fields (`ttlMs`, `cacheScope`): one of their results
 * requires every field the schema's `CacheableResult` requires (an `InputRequiredResult` is not cacheable). None when
 * the schema exports no `CacheableResult` (revisions before 2026-07-28).
 */
export function cacheableMethods(facts: ProtocolFacts, model: Model): string[] {
  const exported = (name: string) => model.isExportedType(name);
  const requiredProps = (name: string) => (model.shapeOf({ kind: "ref", name })?.properties ?? []).filter((p) => !p.optional).map((p) => p.name);
  const cacheFields = exported("CacheableResult") ? CACHE_FIELDS.filter((f) => requiredProps("CacheableResult").includes(f)) : [];
  if (cacheFields.length === 0) return [];
  const cacheable = (m: MethodFact) => m.results.filter(exported).some((r) => r !== facts.inputRequiredResult && cacheFields.every((f) => requiredProps(r).includes(f)));
  return clientRequests(facts)
    .filter(cacheable)
    .map((m) => m.method);
}

/** Builds the view model of `dispatch.ts` for the protocol facts of one schema. */
export function buildDispatch(facts: ProtocolFacts, model: Model): DispatchView {
  const exported = (name: string) => model.isExportedType(name);
  const requiredProps = (name: string) => (model.shapeOf({ kind: "ref", name })?.properties ?? []).filter((p) => !p.optional).map((p) => p.name);
  const stateless = isStateless(facts);
  const resultMetaKeys = new Set((facts.resultMeta?.properties ?? []).map((p) => p.name));
  const serverInfoMeta = resultMetaKeys.has(SERVER_INFO_KEY) && exported("Implementation");
  const fillResultType = requiredProps("Result").includes("resultType");
  const cacheFields = exported("CacheableResult") ? CACHE_FIELDS.filter((f) => requiredProps("CacheableResult").includes(f)) : [];
  const completable = [...(fillResultType ? ["resultType"] : []), ...cacheFields];
  const inputRequiredType = facts.inputRequiredResult;
  const inputRequiredValue = facts.rules.inputRequiredNeedsContent.resultType;

  const resultText = (r: string) => (r === inputRequiredType || completable.length === 0 ? typeText(r) : `Completable<${typeText(r)}>`);
  const requestFacts = clientRequests(facts);
  const requests: RequestView[] = requestFacts.map((m) => {
    const results = m.results.filter(exported);
    return {
      method: JSON.stringify(m.method),
      handlerResultType: results.length > 0 ? results.map(resultText).join(" | ") : "{ readonly [key: string]: unknown }",
    };
  });
  const cacheableList = cacheableMethods(facts, model);
  const has = (method: string) => requestFacts.find((m) => m.method === method);
  const notificationFacts = facts.methods.filter((m) => m.kind === "notification" && fromClient(m));
  const outgoing = facts.methods.filter((m) => m.kind === "notification" && fromServer(m));

  const builtins = builtinRequests(facts);
  const { discover, listen: listenFact } = builtins;
  const toolsCall = has("tools/call");
  const hasTools = toolsCall !== undefined && has("tools/list") !== undefined && exported("Tool") && exported("CallToolResult");
  const sub = facts.rules.subscriptions;
  const listenFilters = sub && listenFact ? sub.filters.filter((f) => outgoing.some((m) => m.method === f.notification)) : [];

  const json = (v: string | undefined) => (v === undefined || v === "" ? "" : JSON.stringify(v));
  const view: Omit<DispatchView, "usesTypes"> = {
    version: JSON.stringify(facts.protocolVersion),
    era: JSON.stringify(stateless ? "modern" : "legacy"),
    hasMethods: facts.methods.length > 0,
    checkRequestMeta: stateless,
    metaKeys: {
      protocolVersion: JSON.stringify(PROTOCOL_VERSION_KEY),
      clientCapabilities: JSON.stringify(CLIENT_CAPABILITIES_KEY),
      clientInfo: JSON.stringify(CLIENT_INFO_KEY),
      logLevel: JSON.stringify(LOG_LEVEL_KEY),
      serverInfo: serverInfoMeta ? JSON.stringify(SERVER_INFO_KEY) : "",
      subscriptionId: listenFact !== undefined ? json(sub?.idMetaKey) : "",
    },
    clientCapabilitiesType: exported("ClientCapabilities") ? typeText("ClientCapabilities") : "{ readonly [key: string]: unknown }",
    clientInfoType: exported("Implementation") ? typeText("Implementation") : "unknown",
    serverCapabilitiesType: exported("ServerCapabilities") ? typeText("ServerCapabilities") : "{ readonly [key: string]: unknown }",
    serverInfoType: exported("Implementation") ? typeText("Implementation") : "{ readonly name: string; readonly version: string }",
    serverInfoMeta,
    serverInfoKey: JSON.stringify(SERVER_INFO_KEY),
    absentResultType: fillResultType ? JSON.stringify(facts.rules.absentResultType.value) : "",
    resourceNotFound: has("resources/read") !== undefined ? `{ code: ${facts.rules.resourceNotFound.code}, uriRequired: ${facts.rules.resourceNotFound.uriRequired} }` : "",
    resourceNotFoundCite: facts.rules.resourceNotFound.cite,
    hasCacheable: cacheFields.length > 0,
    completableKeys: unionOf(completable),
    inputResponsesType: stateless && exported("InputResponses") ? typeText("InputResponses") : "unknown",
    inputRequiredValue: inputRequiredType !== undefined ? JSON.stringify(inputRequiredValue) : "",
    requests,
    cacheableMethods: cacheableList.map((m) => JSON.stringify(m)),
    notificationMethods: unionOf(notificationFacts.map((m) => m.method)),
    notificationList: notificationFacts.map((m) => m.method),
    outgoingNotificationList: outgoing.map((m) => m.method),
    completableList: completable,
    listenMethodList: listenFilters.map((f) => f.notification),
    cacheableList,
    outgoingNotificationMethods: unionOf(outgoing.map((m) => m.method)),
    cancelledMethod: JSON.stringify(facts.methods.find((m) => m.messageType === "CancelledNotification")?.method ?? "notifications/cancelled"),
    builtins: Object.entries(builtins).map(([role, m]) => ({ role, method: JSON.stringify(m.method) })),
    initializedNotification:
      !stateless && notificationFacts.some((m) => m.method === INITIALIZED_NOTIFICATION) ? JSON.stringify(INITIALIZED_NOTIFICATION) : "",
    discover: discover !== undefined,
    hasTools,
    toolResultType: toolsCall ? toolsCall.results.filter(exported).map(resultText).join(" | ") || "never" : "never",
    toolDefinitionType: hasTools ? typeText("Tool") : "{ readonly name: string; readonly inputSchema?: unknown }",
    listen: listenFact !== undefined && sub !== undefined,
    listenAckMethod: JSON.stringify(sub?.acknowledgement ?? ""),
    listenCite: sub?.cite ?? "",
    listenFilters: listenFilters.map((f) => ({
      field: JSON.stringify(f.field),
      method: JSON.stringify(f.notification),
      list: f.list,
      capability: `[${f.capability.map((c) => JSON.stringify(c)).join(", ")}]`,
      fieldName: f.field,
      methodName: f.notification,
      capabilityPath: f.capability,
    })),
    listenMethodsType: unionOf(listenFilters.map((f) => f.notification)),
    // Only where the schema itself has no such method (a revision that still has the handshake answers it).
    legacyHandshake: stateless && facts.rules.legacyHandshake !== undefined && !facts.methods.some((m) => m.method === facts.rules.legacyHandshake!.method) ? JSON.stringify(facts.rules.legacyHandshake.method) : "",
    legacyHandshakeCite: facts.rules.legacyHandshake?.cite ?? "",
    batchRequest: facts.batchRequest ?? "",
    discoverServerInfo: discover?.results.filter(exported).find((r) => requiredProps(r).includes("serverInfo")) ?? "",
  };
  // `types.ts` is imported when some type text names it (`T.X`).
  const typeTexts = [
    view.serverCapabilitiesType,
    view.serverInfoType,
    view.clientCapabilitiesType,
    view.clientInfoType,
    view.toolDefinitionType,
    view.inputResponsesType,
    ...view.requests.map((r) => r.handlerResultType),
  ];
  return { ...view, usesTypes: typeTexts.some((t) => t.includes("T.")) };
}

/** One revision a multi-revision `dispatch.ts` serves, in the order it lists them. */
export interface ServedRevisionView {
  /** The protocol version, as a JSON string. */
  readonly version: string;
  /** The local name its imported table gets (`REVISION_2025_11_25`). */
  readonly constant: string;
  /** Where its table is imported from (`./2025-11-25/revision.js`). */
  readonly from: string;
  /** Whether it is the handler revision (the first). */
  readonly handler: boolean;
  /** Per method (JSON), the result members (JSON strings) to remove before a result goes to a client of this revision. */
  readonly resultDrop: readonly { readonly method: string; readonly members: readonly string[] }[];
  /** Per server→client request method (JSON), the params members to remove when they hold the value given (JSON texts) before a request goes to a client of this revision. */
  readonly requestDrop: readonly { readonly method: string; readonly members: readonly { readonly name: string; readonly value: string }[] }[];
}

/** How `dispatch.ts` is laid out: the one revision's modules beside it, or several revisions in subfolders. */
export interface DispatchLayout {
  readonly multi: boolean;
  /** Where the handler revision's `types.ts` and `methods.ts` are, relative to `dispatch.ts` (`./` or `./2026-07-28/`). */
  readonly modulePrefix: string;
  readonly served: readonly ServedRevisionView[];
  /** The methods `publish` takes (several revisions: the modern listen filters' and the legacy sessions' notifications). */
  readonly publishMethodsType: string;
  /** Several revisions: whether one of them takes JSON-RPC batches (a single revision says so in its {@link DispatchView.batchRequest}). */
  readonly batches: boolean;
  /** Several revisions: whether one of them is of the legacy era, whose sessions `onSessionClosed` is told of (a single revision says so in its {@link DispatchView.era}). */
  readonly legacy: boolean;
  /** Several revisions: the client→server notifications of the legacy ones that the handler revision lacks (`notifications/roots/list_changed`), as a union of JSON strings, or `""`. */
  readonly legacyNotificationMethods: string;
}

/** Today's layout: one revision, its modules beside `dispatch.ts`. */
/** What `dispatch.ts` exports in every layout (its template's names and the runtime names it re-exports). */
const EXPORTS = [
  "checkStructuredContent",
  "checkToolArguments",
  "HandlerError",
  "notImplemented",
  "DispatchAbortSignal",
  "DispatchErrorInfo",
  "DispatchErrorListener",
  "DispatchErrorObject",
  "DispatchRequestId",
  "DispatchResponse",
  "Era",
  "HandleContext",
  "OutgoingNotification",
  "SessionClosedListener",
  "SessionState",
  "DISPATCH_PROTOCOL_VERSION",
  "RequestContext",
  "OutgoingNotificationMethod",
  "OutgoingNotificationParams",
  "Completable",
  "HandlerResults",
  "HandledRequestMethod",
  "RequestHandler",
  "NotificationContext",
  "HandledNotificationMethod",
  "NotificationHandler",
  "ServerHandlers",
  "defineHandlers",
  "ServerDispatcherOptions",
  "ServerDispatcher",
  "createServerDispatcher",
] as const;

/**
 * Declares the names `dispatch.ts` (`file`) exports into the run's symbol table: with the
 * single layout its revision table, with the multi-revision one the versions it serves, and the
 * tool helpers when the schema has tools.
 */
export function declareDispatchNames(table: SymbolTable, file: string, view: Pick<DispatchView, "hasTools">, multi: boolean): void {
  table.declareExports(file, [
    ...EXPORTS,
    ...(multi ? ["DISPATCH_PROTOCOL_VERSIONS", "LegacyNotificationMethod"] : ["DISPATCH_REVISION"]),
    ...(view.hasTools ? ["ToolCallResult", "ToolEntry", "toolError"] : []),
  ]);
}

export const SINGLE_LAYOUT: DispatchLayout = { multi: false, modulePrefix: "./", served: [], publishMethodsType: "never", batches: false, legacy: false, legacyNotificationMethods: "" };

/** The statements and table rows of `dispatch.ts` and `revision.ts` that may pass the line width, laid out as Prettier prints them (see `layout.ts`). */
function layOut(view: DispatchView, layout: DispatchLayout, pieces: Pieces) {
  const union = (values: readonly string[]): TypeExpr =>
    values.length === 0 ? { kind: "keyword", name: "never" } : values.length === 1 ? { kind: "literal", value: values[0]! } : { kind: "union", members: values.map((v) => ({ kind: "literal", value: v })) };
  const alias = (name: string, values: readonly string[], flat: string) => pieces.take(layOutAlias(true, name, union(values), () => ""), `export type ${name} = ${flat};`);
  const keys = view.completableList;
  // `(A | B)` keeps its parentheses after `&`; a lone member (or `never`) has none.
  const keysText = keys.length === 0 ? "never" : keys.map(stringLiteralText).join(" | ");
  const grouped = keys.length > 1 ? `(${keysText})` : keysText;
  const strings = (values: readonly string[]): Code[] => values.map((v) => stringCode(stringLiteralText(v)));
  const filters = view.listenFilters.map((f) =>
    object([
      ["field", stringCode(stringLiteralText(f.fieldName))],
      ["method", stringCode(stringLiteralText(f.methodName))],
      ["list", text(String(f.list), { literal: "boolean", lone: true })],
      ["capability", array(strings(f.capabilityPath))],
    ]),
  );
  const publishRest = ["params?: { readonly [key: string]: unknown }"];
  return {
    outgoingDeclaration: alias("OutgoingNotificationMethod", view.outgoingNotificationList, view.outgoingNotificationMethods),
    notificationDeclaration: alias("HandledNotificationMethod", view.notificationList, view.notificationMethods),
    completableDeclaration: pieces.take(
      mappedIntersectionAlias("export type Completable<R>", `{ [K in keyof R as K extends ${keysText} ? never : K]: R[K] }`, `[K in keyof R & ${grouped}]?: R[K]`),
      `export type Completable<R> = { [K in keyof R as K extends ${view.completableKeys} ? never : K]: R[K] } & { [K in keyof R & (${view.completableKeys})]?: R[K] };`,
    ),
    requests: view.requests.map((r) => {
      const key = keyText(JSON.parse(r.method) as string);
      return { ...r, member: pieces.take(key === undefined ? undefined : plainLine(`  ${key}: ${r.handlerResultType};`), `  ${r.method}: ${r.handlerResultType};`) };
    }),
    listenPublish: layout.multi
      ? `  publish(method: ${view.listenMethodsType}, ${publishRest[0]}): number;`
      : pieces.take(unionParameterMethod("publish", "method", view.listenMethodList, publishRest, "number"), `  publish(method: ${view.listenMethodsType}, ${publishRest[0]}): number;`),
    createDeclaration: pieces.take(
      constStatement(
        true,
        "createServerDispatcher",
        { kind: "fnType", params: ["options: ServerDispatcherOptions"], returns: text("ServerDispatcher") },
        call("dispatcherFor", [identifierCode("DISPATCH_REVISION")], ["ServerDispatcherOptions", "ServerDispatcher"]),
      ),
      "export const createServerDispatcher: (options: ServerDispatcherOptions) => ServerDispatcher = dispatcherFor<ServerDispatcherOptions, ServerDispatcher>(DISPATCH_REVISION);",
    ),
    cacheableProperty: pieces.take(propertyLine("cacheable", array(strings(view.cacheableList)), 1), `  cacheable: [${view.cacheableMethods.join(", ")}],`),
    filtersProperty: pieces.take(
      propertyLine("filters", array(filters), 2),
      `    filters: [${view.listenFilters.map((f) => `{ field: ${f.field}, method: ${f.method}, list: ${f.list}, capability: ${f.capability} }`).join(", ")}],`,
    ),
  };
}

/** The revision table (`DISPATCH_REVISION`'s value), without a final newline. */
function revisionTable(view: DispatchView, laidOut: ReturnType<typeof layOut>): string {
  return renderTemplate("revision-table.hbs", { ...view, ...laidOut });
}

/**
 * The text of `dispatch.ts`: as `{ laidOut }` when the single layout's every piece is laid out
 * as Prettier prints it, else for Prettier (the multi-revision layout always goes through Prettier).
 */
export function renderDispatch(header: string, view: DispatchView, layout: DispatchLayout = SINGLE_LAYOUT): string | { readonly laidOut: string } {
  const pieces = new Pieces();
  // A schema without methods leaves empty bodies on two lines and longer type lines: not laid out here.
  if (!view.hasMethods || view.requests.length === 0 || view.builtins.length === 0) pieces.undecided();
  const laidOut = layOut(view, layout, pieces);
  // Whether `handle` may answer an array: some revision served takes JSON-RPC batches.
  const takesBatches = layout.multi ? layout.batches : view.batchRequest !== "";
  // Whether some revision served opens legacy sessions.
  const legacySessions = layout.multi ? layout.legacy : view.era === JSON.stringify("legacy");
  const legacyNotificationsType = layout.legacyNotificationMethods === "" ? "never" : layout.legacyNotificationMethods;
  const text = renderTemplate("dispatch.ts.hbs", { header, ...view, ...layout, ...laidOut, takesBatches, legacySessions, legacyNotificationsType, revisionTable: revisionTable(view, laidOut) });
  return pieces.laidOut && !layout.multi && withinWidth(text) ? { laidOut: text } : text;
}

/**
 * The text of a revision folder's `revision.ts`: the revision's table for the dispatcher core,
 * data only; as `{ laidOut }` when the table's every piece is laid out as Prettier prints it.
 */
export function renderRevision(header: string, view: DispatchView): string | { readonly laidOut: string } {
  const pieces = new Pieces();
  if (view.builtins.length === 0) pieces.undecided();
  const laidOut = layOut(view, SINGLE_LAYOUT, pieces);
  const text = renderTemplate("revision.ts.hbs", { header, ...view, era: JSON.parse(view.era) as string, revisionTable: revisionTable(view, laidOut) });
  return pieces.laidOut && withinWidth(text) ? { laidOut: text } : text;
}

/** One revision's facts and model, for the comparisons of a multi-revision output. */
export interface RevisionFacts {
  readonly facts: ProtocolFacts;
  readonly model: Model;
}

/**
 * Per request method both revisions have, the top-level members of the handler revision's
 * result types that `other`'s result types lack (`resultType`, `ttlMs`, `cacheScope`, …): what
 * the core removes from a handler's result before checking it with `other` and sending it to
 * a client of that revision. The handler revision's `InputRequiredResult` is left out: the core
 * never sends one to a legacy client (it asks the client for the input instead). A method whose
 * result types in `other` have no readable shape drops nothing.
 */
export function resultDrop(handler: RevisionFacts, other: RevisionFacts): { method: string; members: string[] }[] {
  const shape = (r: RevisionFacts, type: string) => r.model.shapeOf({ kind: "ref", name: type });
  const handlerRequests = clientRequests(handler.facts);
  const drops: { method: string; members: string[] }[] = [];
  for (const theirs of clientRequests(other.facts)) {
    const ours = handlerRequests.find((m) => m.method === theirs.method);
    if (ours === undefined || theirs.results.length === 0) continue;
    const theirShapes = theirs.results.map((r) => shape(other, r));
    if (theirShapes.some((s) => s === undefined)) continue;
    const kept = new Set(theirShapes.flatMap((s) => s!.properties.map((p) => p.name)));
    const members = ours.results
      .filter((r) => r !== handler.facts.inputRequiredResult)
      .flatMap((r) => (shape(handler, r)?.properties ?? []).map((p) => p.name));
    const drop = [...new Set(members)].filter((name) => !kept.has(name));
    if (drop.length > 0) drops.push({ method: theirs.method, members: drop });
  }
  return drops;
}

/**
 * Per server→client request method both revisions have, the members of the handler revision's
 * input request `params` that `other`'s request params lack and that may be left out as they
 * stand: an optional member of one literal type in some alternative of the params (`mode?:
 * "form"` of `ElicitRequestFormParams`), which means the same whether it is there or not. The
 * core removes such a member holding that value before it checks a handler's input request with
 * `other` and sends it to a client of that revision (a 2025-06-18 elicitation has no `mode`).
 * Other members `other` lacks are left as they are: they carry meaning, and the capability a
 * client of `other` declares decides whether it is asked (`elicitation.url`, `sampling.tools`).
 */
export function requestDrop(handler: RevisionFacts, other: RevisionFacts): { method: string; members: { name: string; value: string | number | boolean }[] }[] {
  const handlerRequests = serverRequests(handler.facts);
  const drops: { method: string; members: { name: string; value: string | number | boolean }[] }[] = [];
  for (const theirs of serverRequests(other.facts)) {
    const ours = handlerRequests.find((m) => m.method === theirs.method);
    if (ours === undefined) continue;
    const kept = paramsShapes(other.model, theirs);
    const alternatives = paramsShapes(handler.model, ours);
    if (kept === undefined || alternatives === undefined) continue;
    const keptNames = new Set(kept.flatMap((shape) => shape.properties.map((p) => p.name)));
    const members = new Map<string, string | number | boolean>();
    for (const property of alternatives.flatMap((shape) => shape.properties)) {
      const type = handler.model.resolve(property.type);
      if (keptNames.has(property.name) || !property.optional || type.kind !== "literal" || members.has(property.name)) continue;
      members.set(property.name, type.value);
    }
    if (members.size > 0) drops.push({ method: theirs.method, members: [...members].map(([name, value]) => ({ name, value })) });
  }
  return drops;
}

/** The requests a server sends to a client (`elicitation/create`, `roots/list`): a legacy revision's requests, a modern one's input requests. */
function serverRequests(facts: ProtocolFacts): MethodFact[] {
  return facts.methods.filter((m) => (m.kind === "request" || m.kind === "input-request") && fromServer(m));
}

/** The object shapes a request's `params` may take (none without `params`); `undefined` when one cannot be read. */
function paramsShapes(model: Model, request: MethodFact): ObjectType[] | undefined {
  const shapes = request.paramsType === undefined ? [] : paramsAlternatives(model, request.paramsType);
  return shapes.some((s) => s === undefined) ? undefined : (shapes as ObjectType[]);
}

/**
 * The client→server notifications a legacy revision served has and the handler revision does not
 * (`notifications/initialized`, `notifications/roots/list_changed`): handlers of them take the
 * params as sent. A union of JSON strings, or `""` when there are none.
 */
export function legacyNotificationMethods(handler: RevisionFacts, others: readonly RevisionFacts[]): string {
  const own = new Set(handler.facts.methods.filter((m) => m.kind === "notification" && fromClient(m)).map((m) => m.method));
  const methods = new Set<string>();
  for (const other of others) {
    if (isStateless(other.facts)) continue;
    for (const m of other.facts.methods) if (m.kind === "notification" && fromClient(m) && !own.has(m.method)) methods.add(m.method);
  }
  return methods.size === 0 ? "" : unionOf([...methods].sort());
}

/**
 * The notifications a multi-revision dispatcher's `publish` takes: the handler revision's
 * `subscriptions/listen` filters', and each other legacy revision's server→client notifications
 * gated by a server capability (list changes, resource updates, log messages), which the core
 * pushes to legacy sessions.
 */
export function publishMethods(handler: RevisionFacts, others: readonly RevisionFacts[]): string {
  const methods = new Set<string>();
  const sub = handler.facts.rules.subscriptions;
  if (sub !== undefined && builtinRequests(handler.facts).listen !== undefined) {
    for (const f of sub.filters) if (handler.facts.methods.some((m) => m.method === f.notification && m.kind === "notification")) methods.add(f.notification);
  }
  for (const other of others) {
    if (isStateless(other.facts)) continue;
    for (const m of other.facts.methods) {
      if (m.kind === "notification" && m.direction !== "client-to-server" && m.capability?.side === "server") methods.add(m.method);
    }
  }
  return unionOf([...methods]);
}
