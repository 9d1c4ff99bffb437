/**
 * Stage 3b, protocol facts: what the schema states about the protocol, read from the IR
 * and joined with the prose rules of `generator/rules`.
 *
 * Read from the schema (never hard-coded): the numeric error-code constants and the error
 * interfaces that carry them; the `_meta` shapes of requests, notifications and results
 * (`RequestParams._meta`, `NotificationParams._meta`, `Result._meta`, or the older
 * `Request.params._meta` …) and every `*MetaObject` interface; the request and notification
 * unions (`ClientRequest`, `ServerRequest`, `ClientNotification`, `ServerNotification`,
 * `InputRequest`); result types from `XResultResponse.result`, else `XResult`, else
 * `EmptyResult`; the `ResultType` literals.
 */
import { constantWords } from "../case.js";
import type { Diagnostic, ObjectType, Property, SourceSpan, TypeExpr } from "../ir.js";
import { selectRules, type ProtocolRules, type RulesNote } from "../rules/index.js";
import type { Model } from "./index.js";
import { typeReference, type TypeReference } from "./reference.js";

/** One error code (`errors.ts` names its `ErrorCode` member and constructor from `constant`). */
export interface ErrorCodeFact {
  /** The schema's constant (`PARSE_ERROR`), or the prose name (`RESOURCE_NOT_FOUND`). */
  readonly constant: string;
  readonly code: number;
  /** Default message: `Parse error`. */
  readonly message: string;
  /**
   * Type of `data`: the member of the schema's error interface (`{ type: "X", path: [{ key: "error" }, { key: "data" }] }`),
   * or, for a code only the prose defines, the rules' TypeScript text (`unknown`, `{ uri: string }`).
   */
  readonly dataType: TypeReference | string;
  readonly dataRequired: boolean;
  /** The interface that defines the error's shape, if the schema has one. */
  readonly shape?: string;
  /** Where the code is defined: a span in schema.ts, or the prose rule's citation. */
  readonly span?: SourceSpan;
  readonly cite?: string;
}

/** A `_meta` key the schema names. */
export interface MetaKeyFact {
  readonly key: string;
  /** Declarations whose `_meta` shape names the key. */
  readonly declaredIn: readonly string[];
}

/** One `_meta` shape (request, notification or result). */
export interface MetaShapeFact {
  /**
   * Type of the `_meta` object: the schema's `RequestMetaObject`, or the (defined) `_meta` member of `RequestParams`
   * (through an exported type holding it when `RequestParams` is not exported); absent when no exported type reaches it.
   */
  readonly type?: TypeReference;
  /** Whether `_meta` itself must be present. */
  readonly metaRequired: boolean;
  readonly properties: readonly Property[];
  /** Keys added from the prose rules (not in the schema's `_meta` type), by key: their value type's name. */
  readonly proseKeys: ReadonlyMap<string, string>;
  /**
   * Keys added from `_meta` types that extend this one (`SubscriptionsListenResultMetaObject` extends
   * `ResultMetaObject` with `io.modelcontextprotocol/subscriptionId`), optional here: by key, the key's
   * type through the type that declares it. A key such types declare with different types is not added.
   */
  readonly derivedKeys?: ReadonlyMap<string, TypeReference>;
}

export type MethodKind = "request" | "notification" | "input-request";
export type Direction = "client-to-server" | "server-to-client" | "both";

/** One row of the method table. */
export interface MethodFact {
  readonly method: string;
  readonly kind: MethodKind;
  readonly direction: Direction;
  /** The message type (`CallToolRequest`). */
  readonly messageType: string;
  /** Whether the message type has a `params` member, and whether it is required. */
  readonly params: "required" | "optional" | "none";
  /** The type of that `params` member (`CallToolRequestParams`, an inline object), when there is one. */
  readonly paramsType?: TypeExpr;
  /** Result types, from `XResultResponse.result`, the `XResult` convention, or `EmptyResult`. */
  readonly results: readonly string[];
  readonly capability?: { readonly side: "server" | "client"; readonly path: readonly string[]; readonly cite: string };
}

/** Everything `errors.ts`, `meta.ts` and `methods.ts` are generated from. */
export interface ProtocolFacts {
  readonly rules: ProtocolRules;
  /** The schema's `LATEST_PROTOCOL_VERSION`, else the rules' revision: the version a server of this schema speaks. */
  readonly protocolVersion: string;
  /** Why the rules were chosen when not an exact match (a warning). */
  readonly rulesNote?: RulesNote;
  readonly errorCodes: readonly ErrorCodeFact[];
  /** `RequestId` when the schema exports it. */
  readonly requestIdType?: TypeReference;
  /** Whether an error response may omit `id`. */
  readonly errorIdOptional: boolean;
  readonly metaKeys: readonly MetaKeyFact[];
  readonly requestMeta?: MetaShapeFact;
  readonly notificationMeta?: MetaShapeFact;
  readonly resultMeta?: MetaShapeFact;
  readonly methods: readonly MethodFact[];
  /** The `ResultType` literals (`complete`, `input_required`), or the absent-value rule alone. */
  readonly resultTypes: readonly string[];
  /** `InputRequiredResult`, when the schema has it. */
  readonly inputRequiredResult?: string;
  /**
   * The batch of requests the schema's `JSONRPCMessage` admits (`JSONRPCBatchRequest` in
   * 2025-03-26: an array of requests and notifications, JSON-RPC 2.0 § 6), when it admits one: a
   * server of the revision takes batches. Later revisions dropped it from the union.
   */
  readonly batchRequest?: string;
  /** Findings that do not stop generation: union members the method table cannot read (MCG261). */
  readonly warnings: readonly Diagnostic[];
}

const JSONRPC_RESERVED = { min: -32768, max: -32000 };

const ACRONYMS = new Set(["url", "uri", "json", "rpc", "http", "id", "mcp"]);

/** `URL_ELICITATION_REQUIRED` → `URL elicitation required`. */
function sentence(constant: string): string {
  const ws = constantWords(constant).map((w) => (ACRONYMS.has(w) ? w.toUpperCase() : w));
  const first = ws[0];
  if (first === undefined) return constant;
  ws[0] = first[0]!.toUpperCase() + first.slice(1);
  return ws.join(" ");
}

/**
 * The object shapes a `params` type may take: its own, or each member's of a union
 * (`elicitation/create`'s form and URL params); `undefined` for one that is not an object shape.
 */
export function paramsAlternatives(model: Model, paramsType: TypeExpr): (ObjectType | undefined)[] {
  const resolved = model.resolve(paramsType);
  return (resolved.kind === "union" ? model.flattenUnion(resolved) : [paramsType]).map((t) => model.shapeOf(t));
}

function prop(shape: ObjectType | undefined, name: string): Property[] {
  return shape ? shape.properties.filter((p) => p.name === name) : [];
}

/** The constant a property's literal type comes from (`code: typeof PARSE_ERROR`). */
function constOf(properties: Property[]): string | undefined {
  for (const p of properties) if (p.type.kind === "literal" && p.type.fromConst) return p.type.fromConst;
  return undefined;
}

/** Error codes: numeric constants used as `code: typeof X` or inside the JSON-RPC reserved range, plus prose codes. */
function errorCodes(model: Model, rules: ProtocolRules): ErrorCodeFact[] {
  // Which interface gives each constant its shape: `code: typeof C` (error object) or `error: { code: typeof C }` (response).
  const shapes = new Map<string, { shape: string; dataType: TypeReference; dataRequired: boolean }>();
  for (const decl of model.types) {
    if (!decl.exported) continue;
    const shape = model.shapeOf({ kind: "ref", name: decl.name });
    const direct = constOf(prop(shape, "code"));
    if (direct && !shapes.has(direct)) {
      const data = prop(shape, "data");
      shapes.set(direct, { shape: decl.name, dataType: { type: decl.name, path: [{ key: "data" }] }, dataRequired: data.some((p) => !p.optional) });
      continue;
    }
    const error = prop(shape, "error");
    const errorShape = error.length === 1 ? model.shapeOf(error[0]!.type) : undefined;
    const nested = constOf(prop(errorShape, "code"));
    if (nested && !shapes.has(nested)) {
      const data = prop(errorShape, "data");
      shapes.set(nested, {
        shape: decl.name,
        dataType: { type: decl.name, path: [{ key: "error" }, { key: "data" }] },
        dataRequired: data.some((p) => !p.optional),
      });
    }
  }
  const out: ErrorCodeFact[] = [];
  for (const decl of model.ir.declarations) {
    if (decl.kind !== "const" || !decl.exported || typeof decl.value !== "number") continue;
    const inRange = decl.value >= JSONRPC_RESERVED.min && decl.value <= JSONRPC_RESERVED.max;
    const shape = shapes.get(decl.name);
    if (!shape && !inRange) continue;
    out.push({
      constant: decl.name,
      code: decl.value,
      message: sentence(decl.name),
      dataType: shape?.dataType ?? "unknown",
      dataRequired: shape?.dataRequired ?? false,
      ...(shape ? { shape: shape.shape } : {}),
      span: decl.span,
    });
  }
  for (const prose of rules.proseErrorCodes) {
    if (out.some((e) => e.code === prose.code || e.constant === prose.constant)) continue;
    out.push({
      constant: prose.constant,
      code: prose.code,
      message: sentence(prose.constant),
      dataType: prose.dataType,
      dataRequired: prose.dataRequired,
      cite: prose.cite,
    });
  }
  return out;
}

/**
 * How `meta.ts` names member `key` of `declName`: `declName[key]` when `types.ts` exports `declName`, else
 * `X[p][key]` for the first exported type `X` (in source order) with a property `p` of type `declName`
 * (`PingRequest["params"]["_meta"]` for an unexported `RequestParams`); undefined when no export reaches it.
 */
function memberAccess(model: Model, declName: string, key: string): TypeReference | undefined {
  const step = { key, defined: true };
  if (model.isExportedType(declName)) return typeReference(declName, step);
  for (const decl of model.types) {
    if (!decl.exported) continue;
    const properties = model.shapeOf({ kind: "ref", name: decl.name })?.properties ?? [];
    const holder = properties.find((p) => p.type.kind === "ref" && p.type.name === declName);
    // Declared once: a second declaration (`{ params: RequestParams } & { params: { … } }`) would narrow the member's type.
    if (holder && properties.filter((p) => p.name === holder.name).length === 1) return typeReference(decl.name, { key: holder.name, defined: true }, step);
  }
  return undefined;
}

/** The `_meta` property of a declaration, or of its `params` member when `viaParams`. */
function metaShape(model: Model, declName: string, viaParams: boolean): MetaShapeFact | undefined {
  const decl = model.declarations.get(declName);
  if (!decl || decl.kind === "const") return undefined;
  let owner = model.shapeOf({ kind: "ref", name: declName });
  let access: TypeReference | undefined;
  if (viaParams) {
    const params = prop(owner, "params");
    if (params.length !== 1) return undefined;
    owner = model.shapeOf(params[0]!.type);
    const paramsAccess = memberAccess(model, declName, "params");
    access = paramsAccess && { ...paramsAccess, path: [...paramsAccess.path, { key: "_meta", defined: true }] };
  } else {
    access = memberAccess(model, declName, "_meta");
  }
  const meta = prop(owner, "_meta");
  if (meta.length !== 1) return undefined;
  const type = meta[0]!.type;
  // Each key once: one that two members of an intersection declare is one key of `_meta` (helper-146: twice, meta.ts did
  // not compile).
  const shape = model.mergedShapeOf(type);
  if (!shape) return undefined;
  const metaType = type.kind === "ref" && model.isExportedType(type.name) ? typeReference(type.name) : access;
  return { ...(metaType ? { type: metaType } : {}), metaRequired: !meta[0]!.optional, properties: shape.properties, proseKeys: new Map() };
}

function firstMetaShape(model: Model, candidates: [string, boolean][]): MetaShapeFact | undefined {
  for (const [name, viaParams] of candidates) {
    const found = metaShape(model, name, viaParams);
    if (found) return found;
  }
  return undefined;
}

/** Whether the interface `name` extends `base`, directly or through interfaces it names in its heritage. */
function extendsInterface(model: Model, name: string, base: string, seen = new Set<string>()): boolean {
  const decl = model.declarations.get(name);
  if (decl?.kind !== "interface" || seen.has(name)) return false;
  seen.add(name);
  return decl.heritage.some((h) => h === base || (/^[A-Za-z_$][\w$]*$/.test(h) && extendsInterface(model, h, base, seen)));
}

/**
 * A shape with the keys of the `_meta` types that extend its type added, optional (helper-107: a result's
 * `io.modelcontextprotocol/subscriptionId`, named by `SubscriptionsListenResultMetaObject` alone, was not
 * checked by the generic result `_meta` check, even with `strict`): a key such a type names holds a value of
 * that type in any `_meta` of the kind.
 */
function addDerivedKeys(model: Model, shape: MetaShapeFact): MetaShapeFact {
  const base = shape.type !== undefined && shape.type.path.length === 0 ? shape.type.type : undefined;
  if (base === undefined) return shape;
  const found = new Map<string, { readonly property: Property; readonly reference: TypeReference; readonly text: string }>();
  const conflicting = new Set<string>();
  for (const decl of model.types) {
    if (decl.kind !== "interface" || !decl.exported || !extendsInterface(model, decl.name, base)) continue;
    for (const property of decl.type.properties) {
      if (shape.properties.some((p) => p.name === property.name)) continue;
      const text = JSON.stringify(property.type);
      const before = found.get(property.name);
      if (before !== undefined && before.text !== text) conflicting.add(property.name);
      if (before === undefined) found.set(property.name, { property, reference: typeReference(decl.name, { key: property.name }), text });
    }
  }
  const added = [...found.entries()].filter(([key]) => !conflicting.has(key));
  if (added.length === 0) return shape;
  return {
    ...shape,
    properties: [...shape.properties, ...added.map(([, f]) => ({ ...f.property, optional: true }))],
    derivedKeys: new Map(added.map(([key, f]) => [key, f.reference])),
  };
}

/** A shape with the prose rules' keys for it added (optional, typed by their schema type), when the schema has that type. */
function addProseKeys(model: Model, rules: ProtocolRules, what: "request" | "notification" | "result", shape: MetaShapeFact): MetaShapeFact {
  const extra = rules.proseMetaKeys.filter(
    (k) => k.shapes.includes(what) && model.isExportedType(k.typeName) && !shape.properties.some((p) => p.name === k.key),
  );
  if (extra.length === 0) return shape;
  const added: Property[] = extra.map((k) => ({
    name: k.key,
    optional: true,
    type: { kind: "ref", name: k.typeName },
    docs: { text: k.cite, tags: [] },
    span: model.declarations.get(k.typeName)!.span,
  }));
  return { ...shape, properties: [...shape.properties, ...added], proseKeys: new Map(extra.map((k) => [k.key, k.typeName])) };
}

function metaFacts(
  model: Model,
  requestMeta: MetaShapeFact | undefined,
  notificationMeta: MetaShapeFact | undefined,
  resultMeta: MetaShapeFact | undefined,
): Pick<ProtocolFacts, "metaKeys" | "requestMeta" | "notificationMeta" | "resultMeta"> {
  return {
    metaKeys: metaKeys(model, [
      ["request", requestMeta],
      ["notification", notificationMeta],
      ["result", resultMeta],
    ]),
    ...(requestMeta ? { requestMeta } : {}),
    ...(notificationMeta ? { notificationMeta } : {}),
    ...(resultMeta ? { resultMeta } : {}),
  };
}

function metaKeys(model: Model, shapes: [string, MetaShapeFact | undefined][]): MetaKeyFact[] {
  const declaredIn = new Map<string, string[]>();
  const add = (key: string, where: string) => {
    const list = declaredIn.get(key) ?? [];
    if (!list.includes(where)) list.push(where);
    declaredIn.set(key, list);
  };
  for (const [where, shape] of shapes) shape?.properties.forEach((p) => add(p.name, where));
  for (const decl of model.types) {
    if (decl.kind !== "interface" || !/MetaObject$/.test(decl.name)) continue;
    decl.type.properties.forEach((p) => add(p.name, decl.name));
  }
  return [...declaredIn.entries()].map(([key, where]) => ({ key, declaredIn: where }));
}

/** The literal string a message type's `method` member holds. */
function methodOf(model: Model, typeName: string): string | undefined {
  const m = prop(model.shapeOf({ kind: "ref", name: typeName }), "method");
  for (const p of m) {
    const t = model.resolve(p.type);
    if (t.kind === "literal" && typeof t.value === "string") return t.value;
  }
  return undefined;
}

/** The named members of a union; a member that is not a reference is reported (MCG261). */
function unionMembers(model: Model, name: string, warnings: Diagnostic[]): string[] {
  const decl = model.declarations.get(name);
  const type = model.typeOf(name);
  if (!decl || !type) return [];
  const resolved = model.resolve(type);
  const members = resolved.kind === "union" ? model.flattenUnion(resolved) : [type];
  const named = members.filter((m): m is TypeExpr & { kind: "ref" } => m.kind === "ref").map((m) => m.name);
  if (named.length < members.length) {
    warnings.push({ code: "MCG261", message: `${name} has ${members.length - named.length} member(s) without a name; methods.ts leaves them out`, span: decl.span });
  }
  return named;
}

function resultsOf(model: Model, messageType: string): Pick<MethodFact, "results"> {
  const base = messageType.replace(/Request$/, "");
  const response = model.shapeOf({ kind: "ref", name: `${base}ResultResponse` });
  const result = prop(response, "result");
  if (result.length === 1) {
    const t = model.resolve(result[0]!.type);
    const members = t.kind === "union" ? model.flattenUnion(t) : [result[0]!.type];
    const names = members.filter((m): m is TypeExpr & { kind: "ref" } => m.kind === "ref").map((m) => m.name);
    if (names.length === members.length && names.every((n) => model.isExportedType(n))) return { results: names };
  }
  if (model.isExportedType(`${base}Result`)) return { results: [`${base}Result`] };
  if (model.isExportedType("EmptyResult")) return { results: ["EmptyResult"] };
  return { results: [] };
}

/** Whether `path` names a property chain in the capabilities interface of `side`. */
function hasCapability(model: Model, side: "server" | "client", path: readonly string[]): boolean {
  let shape = model.shapeOf({ kind: "ref", name: side === "server" ? "ServerCapabilities" : "ClientCapabilities" });
  for (const segment of path) {
    const p = prop(shape, segment);
    if (p.length === 0) return false;
    shape = model.shapeOf(p[0]!.type);
  }
  return true;
}

function methods(model: Model, rules: ProtocolRules, warnings: Diagnostic[]): MethodFact[] {
  const rows = new Map<string, { kind: MethodKind; messageType: string; c2s: boolean; s2c: boolean }>();
  const add = (union: string, kind: MethodKind, from: "client" | "server") => {
    for (const typeName of unionMembers(model, union, warnings)) {
      const method = methodOf(model, typeName);
      if (method === undefined) {
        const span = model.declarations.get(typeName)?.span;
        warnings.push({ code: "MCG261", message: `${typeName} in ${union} has no string-literal method; methods.ts leaves it out`, ...(span ? { span } : {}) });
        continue;
      }
      const known = rows.get(method);
      if (known && known.messageType !== typeName) {
        const span = model.declarations.get(typeName)?.span;
        warnings.push({
          code: "MCG261",
          message: `method ${JSON.stringify(method)} is both ${known.messageType} and ${typeName} (in ${union}); methods.ts describes ${known.messageType}`,
          ...(span ? { span } : {}),
        });
      }
      const row = rows.get(method) ?? { kind, messageType: typeName, c2s: false, s2c: false };
      if (from === "client") row.c2s = true;
      else row.s2c = true;
      rows.set(method, row);
    }
  };
  add("ClientRequest", "request", "client");
  add("ServerRequest", "request", "server");
  add("ClientNotification", "notification", "client");
  add("ServerNotification", "notification", "server");
  add("InputRequest", "input-request", "server");
  const out: MethodFact[] = [];
  for (const [method, row] of rows) {
    const params = prop(model.shapeOf({ kind: "ref", name: row.messageType }), "params");
    const gate = rules.capabilityGates.find((g) => g.method === method && hasCapability(model, g.side, g.path));
    let results: Pick<MethodFact, "results"> =
      row.kind === "notification" ? { results: [] } : resultsOf(model, row.messageType);
    const task = rules.taskAugmentation;
    if (task && row.kind !== "notification" && model.typeOf(task.result) && !results.results.includes(task.result)) {
      const shapes = params.length === 1 ? paramsAlternatives(model, params[0]!.type) : [];
      const augmented = shapes.some((shape) => prop(shape, task.property).some((p) => p.type.kind === "ref" && p.type.name === task.metadataType));
      if (augmented) results = { ...results, results: [...results.results, task.result] };
    }
    out.push({
      method,
      kind: row.kind,
      direction: row.c2s && row.s2c ? "both" : row.c2s ? "client-to-server" : "server-to-client",
      messageType: row.messageType,
      params: params.length === 0 ? "none" : params.every((p) => p.optional) ? "optional" : "required",
      ...(params.length > 0 ? { paramsType: params[0]!.type } : {}),
      ...results,
      ...(gate ? { capability: { side: gate.side, path: gate.path, cite: gate.cite } } : {}),
    });
  }
  return out;
}

/**
 * The member of `JSONRPCMessage` that is an array of messages including `JSONRPCRequest` (by its
 * name, else `JSONRPCMessage`), or `undefined` when the union has none.
 */
function batchRequest(model: Model): string | undefined {
  const message = model.typeOf("JSONRPCMessage");
  const resolved = message === undefined ? undefined : model.resolve(message);
  if (resolved?.kind !== "union") return undefined;
  for (const member of model.flattenUnion(resolved)) {
    const array = model.resolve(member);
    if (array.kind !== "array") continue;
    const element = model.resolve(array.element);
    const elements = element.kind === "union" ? model.flattenUnion(element) : [array.element];
    if (elements.some((e) => e.kind === "ref" && e.name === "JSONRPCRequest")) return member.kind === "ref" ? member.name : "JSONRPCMessage";
  }
  return undefined;
}

function resultTypes(model: Model, rules: ProtocolRules): string[] {
  const type = model.typeOf("ResultType");
  const values: string[] = [];
  if (type) {
    const resolved = model.resolve(type);
    for (const m of resolved.kind === "union" ? model.flattenUnion(resolved) : [resolved]) {
      const r = model.resolve(m);
      if (r.kind === "literal" && typeof r.value === "string") values.push(r.value);
    }
  }
  return values.length > 0 ? values : [rules.absentResultType.value];
}

/**
 * Reads the protocol facts of a schema.
 *
 * @param override `--protocol-rules`: a revision of the rules table, or `"auto"` (the schema's `LATEST_PROTOCOL_VERSION`)
 */
export function protocolFacts(model: Model, override: string): ProtocolFacts {
  const latest = model.declarations.get("LATEST_PROTOCOL_VERSION");
  const latestProtocolVersion = latest?.kind === "const" && typeof latest.value === "string" ? latest.value : undefined;
  const selected = selectRules(latestProtocolVersion, override);
  const { rules } = selected;
  // Declared, but as something else than the string constant read (a type of that name, a number): said as such, not as missing.
  const note =
    selected.note !== undefined && latest !== undefined && latestProtocolVersion === undefined
      ? {
          ...selected.note,
          message: `LATEST_PROTOCOL_VERSION is ${latest.kind === "const" ? `a ${typeof latest.value} constant` : latest.kind === "alias" ? "a type" : "an interface"}: the version is read from a string constant (export const LATEST_PROTOCOL_VERSION = "…"); using the rules of ${rules.version}`,
        }
      : selected.note;
  const warnings: Diagnostic[] = [];
  const requestMeta = firstMetaShape(model, [
    ["RequestParams", false],
    ["Request", true],
  ]);
  const notificationMeta = firstMetaShape(model, [
    ["NotificationParams", false],
    ["Notification", true],
  ]);
  const resultMeta = firstMetaShape(model, [["Result", false]]);
  const withProse = (what: "request" | "notification" | "result", shape: MetaShapeFact | undefined) =>
    shape && addProseKeys(model, rules, what, addDerivedKeys(model, shape));
  const envelope = ["JSONRPCErrorResponse", "JSONRPCError"].find((n) => model.declarations.get(n)?.kind === "interface");
  const idProps = envelope ? prop(model.shapeOf({ kind: "ref", name: envelope }), "id") : [];
  const batch = batchRequest(model);
  return {
    rules,
    protocolVersion: latestProtocolVersion ?? rules.version,
    ...(note !== undefined ? { rulesNote: note } : {}),
    errorCodes: errorCodes(model, rules),
    ...(model.isExportedType("RequestId") ? { requestIdType: { type: "RequestId", path: [] } } : {}),
    errorIdOptional: idProps.length === 0 || idProps.every((p) => p.optional),
    ...metaFacts(model, withProse("request", requestMeta), withProse("notification", notificationMeta), withProse("result", resultMeta)),
    methods: methods(model, rules, warnings),
    resultTypes: resultTypes(model, rules),
    ...(model.isExportedType("InputRequiredResult") ? { inputRequiredResult: "InputRequiredResult" } : {}),
    ...(batch !== undefined ? { batchRequest: batch } : {}),
    warnings,
  };
}
