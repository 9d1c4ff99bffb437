/**
 * Builds the view model of `methods.ts`: the method table read from the schema's request
 * and notification unions, with result types and capability gates, and the `resultType`
 * rules that `runtime/methods.ts` binds into `methodInfo`, `resolveResultType` and `parseResult`.
 */
import type { Model } from "../analyze/index.js";
import type { MethodFact, ProtocolFacts } from "../analyze/protocol.js";
import { objectLiteralKey } from "./names.js";
import { typeReference, typeReferenceText, type SymbolTable } from "./symbols.js";

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
}

export interface MethodsView {
  readonly version: string;
  readonly methods: readonly MethodView[];
  readonly resultTypes: string;
  readonly absentResultType: string;
  readonly absentCite: string;
  /** Whether the schema's results carry `resultType` (it is then filled in when absent before validating). */
  readonly fillResultType: boolean;
  readonly inputRequired: boolean;
  /** The `InputRequiredResult` type's name and the `resultType` value that selects it, as JSON strings. */
  readonly inputRequiredType: string;
  readonly inputRequiredValue: string;
  readonly inputRequiredCite: string;
  readonly inputRequiredNeedsContent: boolean;
  /** Whether the module refers to `types.ts`. */
  readonly usesTypes: boolean;
}


function view(m: MethodFact, model: Model): MethodView {
  const message = model.isExportedType(m.messageType) ? typeReferenceText(typeReference(m.messageType)) : "unknown";
  const results = m.results.filter((r) => model.isExportedType(r));
  return {
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
  const methods = facts.methods.map((m) => view(m, model));
  return {
    version: rules.version,
    usesTypes: facts.methods.some((m) => model.isExportedType(m.messageType) || (m.kind !== "notification" && m.results.some((r) => model.isExportedType(r)))),
    methods,
    resultTypes: facts.resultTypes.map((t) => JSON.stringify(t)).join(", "),
    absentResultType: JSON.stringify(rules.absentResultType.value),
    absentCite: rules.absentResultType.cite,
    fillResultType: resultShape?.properties.some((p) => p.name === "resultType" && !p.optional) ?? false,
    inputRequired: facts.inputRequiredResult !== undefined,
    inputRequiredType: JSON.stringify(facts.inputRequiredResult ?? "InputRequiredResult"),
    inputRequiredValue: JSON.stringify(rules.inputRequiredNeedsContent.resultType),
    inputRequiredCite: rules.inputRequiredNeedsContent.cite,
    inputRequiredNeedsContent: rules.inputRequiredNeedsContent.applies,
  };
}
