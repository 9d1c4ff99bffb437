/**
 * Builds the view model of `methods.ts`: the method table read from the schema's request
 * and notification unions, with result types and capability gates, and the `resultType`
 * rules that `runtime/methods.ts` binds into `methodInfo`, `resolveResultType` and `parseResult`.
 */
import type { Model } from "../analyze/index.js";
import type { MethodFact, ProtocolFacts } from "../analyze/protocol.js";
import { typeReference } from "../analyze/reference.js";
import { array, constArrayStatement, importStatement, object, Pieces, propertyLine, stringCode, text, typeLiteralMember, type Code } from "./layout.js";
import { objectLiteralKey } from "./names.js";
import { keyText, stringLiteralText } from "./print-type.js";
import { typeReferenceText, type SymbolTable } from "./symbols.js";
import { cacheableMethods } from "./dispatch.js";

/** What `methods.ts` exports (its template's names and the runtime types it re-exports). */
const EXPORTS = [
  "ResultTypeOptions",
  "ResultTypeResolution",
  "MethodKind",
  "Direction",
  "MethodInfo",
  "METHODS",
  "Method",
  "MethodTypes",
  "ResultTypesByName",
  "RequestMethod",
  "NotificationMethod",
  "methodInfo",
  "RESULT_TYPES",
  "resolveResultType",
  "ParsedResult",
  "parseResult",
] as const;

/** Declares the names `methods.ts` (`file`) exports into the run's symbol table. */
export function declareMethodsNames(table: SymbolTable, file: string): void {
  table.declareExports(file, EXPORTS);
}

interface MethodView {
  readonly method: string;
  /** The method as a key of an object literal (`["__proto__"]` stays a key). */
  readonly methodKey: string;
  readonly kind: string;
  readonly direction: string;
  readonly messageType: string;
  readonly params: string;
  readonly results: string;
  readonly capability: string;
  readonly capabilityCite: string;
  /** Type-level entries of `MethodTypes`. */
  readonly messageTypeText: string;
  readonly paramsTypeText: string;
  readonly resultTypeText: string;
  /** The row of `METHODS` and the member of `MethodTypes`, laid out (see `layout.ts`). */
  readonly row: string;
  readonly typesMember: string;
}

export interface MethodsView {
  readonly version: string;
  readonly methods: readonly MethodView[];
  /** Each result type a method names, as a member of `ResultTypesByName` (`  CallToolResult: T.CallToolResult;`). */
  readonly resultTypeMembers: readonly string[];
  /** Whether there is a method (an empty `METHODS` and `MethodTypes` are `{}` on their line). */
  readonly hasMethods: boolean;
  readonly resultTypes: string;
  readonly absentResultType: string;
  readonly absentCite: string;
  /** Whether the schema's results carry `resultType` (it is then filled in when absent before validating). */
  readonly fillResultType: boolean;
  /** Whether the schema's `Result` names `resultType` at all (a revision before 2026-07-28 does not: the member is then extra data). */
  readonly namesResultType: boolean;
  readonly inputRequired: boolean;
  /** The `InputRequiredResult` type's name and the `resultType` value that selects it, as JSON strings. */
  readonly inputRequiredType: string;
  readonly inputRequiredValue: string;
  readonly inputRequiredCite: string;
  readonly inputRequiredNeedsContent: boolean;
  /** Whether the module refers to `types.ts`. */
  readonly usesTypes: boolean;
  /** Laid out as Prettier prints them (see `layout.ts`). */
  readonly runtimeImport: string;
  readonly resultTypesDeclaration: string;
  readonly inputRequiredProperty: string;
  /** The `cacheable` member of the result rules (the methods whose results carry `ttlMs` and `cacheScope`), or "" for none. */
  readonly cacheableProperty: string;
  /** Whether every piece is laid out: the file is then written without Prettier. */
  readonly laidOut: boolean;
}


/** A method name as a key, as Prettier prints it: computed for `__proto__`; undefined when not decided here. */
function methodKeyText(method: string): string | undefined {
  return method === "__proto__" ? objectLiteralKey(method) : keyText(method);
}

const strings = (values: readonly string[]): Code[] => values.map((v) => stringCode(stringLiteralText(v)));

function view(m: MethodFact, model: Model, pieces: Pieces): MethodView {
  const message = model.isExportedType(m.messageType) ? typeReferenceText(typeReference(m.messageType)) : "unknown";
  const results = m.results.filter((r) => model.isExportedType(r));
  const key = methodKeyText(m.method);
  const capability: Code = m.capability ? object([["side", stringCode(stringLiteralText(m.capability.side))], ["path", array(strings(m.capability.path))]]) : text("null", { lone: true });
  const row = object([
    ["method", stringCode(stringLiteralText(m.method))],
    ["kind", stringCode(stringLiteralText(m.kind))],
    ["direction", stringCode(stringLiteralText(m.direction))],
    ["messageType", stringCode(stringLiteralText(m.messageType))],
    ["params", stringCode(stringLiteralText(m.params))],
    ["results", array(strings(m.results))],
    ["capability", capability],
  ]);
  const paramsType = m.params === "none" || !model.isExportedType(m.messageType) ? "undefined" : typeReferenceText(typeReference(m.messageType, { key: "params" }));
  const resultType = m.kind === "notification" ? "undefined" : results.length > 0 ? results.map((r) => typeReferenceText(typeReference(r))).join(" | ") : "unknown";
  const flatCapability = m.capability ? `{ side: ${JSON.stringify(m.capability.side)}, path: [${m.capability.path.map((p) => JSON.stringify(p)).join(", ")}] }` : "null";
  return {
    row: pieces.take(
      key === undefined ? undefined : propertyLine(key, row, 1),
      `  ${objectLiteralKey(m.method)}: { method: ${JSON.stringify(m.method)}, kind: ${JSON.stringify(m.kind)}, direction: ${JSON.stringify(m.direction)}, messageType: ${JSON.stringify(m.messageType)}, params: ${JSON.stringify(m.params)}, results: [${m.results.map((r) => JSON.stringify(r)).join(", ")}], capability: ${flatCapability} },`,
    ),
    typesMember: pieces.take(
      key === undefined ? undefined : typeLiteralMember(key, [`message: ${message}`, `params: ${paramsType}`, `result: ${resultType}`], 1),
      `  ${JSON.stringify(m.method)}: { message: ${message}; params: ${paramsType}; result: ${resultType} };`,
    ),
    method: JSON.stringify(m.method),
    methodKey: objectLiteralKey(m.method),
    kind: JSON.stringify(m.kind),
    direction: JSON.stringify(m.direction),
    messageType: JSON.stringify(m.messageType),
    params: JSON.stringify(m.params),
    results: `[${m.results.map((r) => JSON.stringify(r)).join(", ")}]`,
    capability: m.capability
      ? `{ side: ${JSON.stringify(m.capability.side)}, path: [${m.capability.path.map((p) => JSON.stringify(p)).join(", ")}] }`
      : "null",
    capabilityCite: m.capability ? m.capability.cite : "not gated by a capability",
    messageTypeText: message,
    paramsTypeText: m.params === "none" || !model.isExportedType(m.messageType) ? "undefined" : typeReferenceText(typeReference(m.messageType, { key: "params" })),
    resultTypeText: m.kind === "notification" ? "undefined" : results.length > 0 ? results.map((r) => typeReferenceText(typeReference(r))).join(" | ") : "unknown",
  };
}

/** Builds the view model of `methods.ts` for the protocol facts of one schema. */
export function buildMethods(facts: ProtocolFacts, model: Model): MethodsView {
  const rules = facts.rules;
  const resultShape = model.shapeOf({ kind: "ref", name: "Result" });
  const pieces = new Pieces();
  const methods = facts.methods.map((m) => view(m, model, pieces));
  const runtimeNames = ["resultParser", "resultTypeResolver", "tableLookup", "type ResultRules", "type ResultTypeOptions", "type ResultTypeResolution"];
  const inputRequired = object([
    ["type", stringCode(stringLiteralText(facts.inputRequiredResult ?? "InputRequiredResult"))],
    ["resultType", stringCode(stringLiteralText(rules.inputRequiredNeedsContent.resultType))],
    ["needsContent", text(String(rules.inputRequiredNeedsContent.applies), { literal: "boolean", lone: true })],
  ]);
  const inputRequiredFlat = `  inputRequired: { type: ${JSON.stringify(facts.inputRequiredResult ?? "InputRequiredResult")}, resultType: ${JSON.stringify(rules.inputRequiredNeedsContent.resultType)}, needsContent: ${rules.inputRequiredNeedsContent.applies} },`;
  const cacheable = cacheableMethods(facts, model);
  const layout = {
    cacheableProperty:
      cacheable.length > 0 ? pieces.take(propertyLine("cacheable", array(strings(cacheable)), 1), `  cacheable: [${cacheable.map((m) => JSON.stringify(m)).join(", ")}],`) : "",
    runtimeImport: pieces.take(importStatement(runtimeNames, JSON.stringify("./runtime/methods.js")), `import { ${runtimeNames.join(", ")} } from "./runtime/methods.js";`),
    resultTypesDeclaration: pieces.take(constArrayStatement(true, "RESULT_TYPES", strings(facts.resultTypes)), `export const RESULT_TYPES = [${facts.resultTypes.map((t) => JSON.stringify(t)).join(", ")}] as const;`),
    inputRequiredProperty: facts.inputRequiredResult !== undefined ? pieces.take(propertyLine("inputRequired", inputRequired, 1), inputRequiredFlat) : "",
  };
  return {
    ...layout,
    laidOut: pieces.laidOut,
    hasMethods: methods.length > 0,
    version: rules.version,
    usesTypes: facts.methods.some((m) => model.isExportedType(m.messageType) || (m.kind !== "notification" && m.results.some((r) => model.isExportedType(r)))),
    methods,
    // The exported result types the methods name, sorted: `parseResult` narrows `value` by the `type` it answers.
    resultTypeMembers: [...new Set(facts.methods.flatMap((m) => (m.kind === "notification" ? [] : m.results.filter((r) => model.isExportedType(r)))))]
      .sort()
      // A type's name is an identifier: a key as it is.
      .map((r) => `  ${r}: ${typeReferenceText(typeReference(r))};`),
    resultTypes: facts.resultTypes.map((t) => JSON.stringify(t)).join(", "),
    absentResultType: JSON.stringify(rules.absentResultType.value),
    absentCite: rules.absentResultType.cite,
    fillResultType: resultShape?.properties.some((p) => p.name === "resultType" && !p.optional) ?? false,
    namesResultType: resultShape?.properties.some((p) => p.name === "resultType") ?? false,
    inputRequired: facts.inputRequiredResult !== undefined,
    inputRequiredType: JSON.stringify(facts.inputRequiredResult ?? "InputRequiredResult"),
    inputRequiredValue: JSON.stringify(rules.inputRequiredNeedsContent.resultType),
    inputRequiredCite: rules.inputRequiredNeedsContent.cite,
    inputRequiredNeedsContent: rules.inputRequiredNeedsContent.applies,
  };
}
