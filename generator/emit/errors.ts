/**
 * Builds the view model of `errors.ts`: the `ErrorCode` object (or enum), the revision's
 * error-code rules as data, and the typed bindings of `runtime/errors.ts` (the range
 * classifier, one constructor per error code, the resource-not-found test).
 * Codes come from the schema's constants (and, where only the prose defines one, from
 * `generator/rules`); data types are the schema's own error interfaces.
 */
import type { ErrorCodeFact, ProtocolFacts } from "../analyze/protocol.js";
import { GeneratorError } from "../errors.js";
import type { Diagnostic } from "../ir.js";
import { STANDARD_JSONRPC_CODES, type ErrorPartition } from "../rules/index.js";
import { commentSafe } from "./docs.js";
import { isPlainIdentifier } from "./names.js";

/** Names `errors.ts` declares or imports from `runtime/errors.ts` that a constructor (a camelCase name) could take. */
const OWN_NAMES = new Set([
  "isErrorCode",
  "classifyErrorCode",
  "errorResponse",
  "isResourceNotFoundError",
  "errorCodeClassifier",
  "errorCodeTest",
  "errorConstructor",
  "errorResponder",
  "resourceNotFoundTest",
]);

/** Refuses error-code constants whose generated names are no identifiers or collide (MCG301). */
function checkNames(facts: ProtocolFacts): void {
  const problems: Diagnostic[] = [];
  const members = new Map<string, string>();
  const constructors = new Map<string, string>();
  for (const f of facts.errorCodes) {
    const at = f.span ? { span: f.span } : {};
    if (!isPlainIdentifier(f.member) || !isPlainIdentifier(f.constructorName)) {
      problems.push({ code: "MCG301", message: `error-code constant ${f.constant} gives no usable name (${f.member}, ${f.constructorName}); rename the constant`, ...at });
      continue;
    }
    const other = members.get(f.member) ?? constructors.get(f.constructorName);
    if (other !== undefined) {
      problems.push({ code: "MCG301", message: `error-code constants ${other} and ${f.constant} both give ${f.member} / ${f.constructorName} in errors.ts; rename one`, ...at });
    } else if (OWN_NAMES.has(f.constructorName)) {
      problems.push({ code: "MCG301", message: `error-code constant ${f.constant} gives ${f.constructorName}, a name errors.ts uses itself; rename the constant`, ...at });
    }
    members.set(f.member, f.constant);
    constructors.set(f.constructorName, f.constant);
  }
  if (problems.length > 0) throw new GeneratorError(problems);
}

/** `--enum-style`: an `as const` object plus a union type, or a TypeScript `enum`. */
export const ENUM_STYLES = ["as-const", "ts-enum"] as const;
export type EnumStyle = (typeof ENUM_STYLES)[number];

export interface ErrorsView {
  readonly version: string;
  readonly rulesCite: string;
  readonly tsEnum: boolean;
  readonly codes: readonly { readonly member: string; readonly code: number; readonly origin: string }[];
  /** One constructor per code the rules do not retire (its code typed `typeof ErrorCode.X`, or `ErrorCode.X` for an enum). */
  readonly constructors: readonly ConstructorView[];
  /** Whether there is a constructor (`errorConstructor` is imported only then: an unused import fails `noUnusedLocals`). */
  readonly hasConstructors: boolean;
  /** Whether the module refers to `types.ts` (an unused import would fail `noUnusedLocals`). */
  readonly usesTypes: boolean;
  readonly idType: string;
  readonly idParam: string;
  readonly idMember: string;
  readonly jsonrpc: string;
  readonly standardCodes: string;
  readonly definedCodes: string;
  /** The revision's name as a JSON string. */
  readonly versionText: string;
  /** The partition rule (`runtime/errors.ts`'s `ErrorPartition`) as a JSON string. */
  readonly partition: string;
  readonly classifyDoc: string;
  readonly reservedDoc: string;
  readonly retired: string;
  readonly retiredCite: string;
  /** `[code, "constructorName"]` for codes whose data the schema requires. */
  readonly withData: string;
  /** The resource-not-found rule: its code, whether `data.uri` is required under it, the other codes still accepted. */
  readonly resourceNotFound: { readonly code: number; readonly uriRequired: boolean; readonly accepted: string; readonly cite: string };
}

interface ConstructorView {
  readonly name: string;
  readonly codeType: string;
  readonly codeValue: string;
  readonly dataType: string;
  /** The constructor's function type, e.g. `(id: T.RequestId, data?: unknown, message?: string) => TypedErrorResponse<…>`. */
  readonly signature: string;
  readonly message: string;
  readonly origin: string;
}

/** How each error partition (see `generator/rules`, and `runtime/errors.ts` for its reading) is described in doc comments. */
const PARTITIONS: Record<ErrorPartition, { classifyDoc: string; reservedDoc: string }> = {
  "mcp-partitioned": {
    classifyDoc: "-32000..-32019 `legacy`; -32020..-32099 `mcp` (reserved for codes the specification defines)",
    reservedDoc: "-32768..-32100 (JSON-RPC's, for future use) and -32020..-32099 (the specification's)",
  },
  "jsonrpc-2.0": {
    classifyDoc: "-32000..-32099 (JSON-RPC's implementation-defined server errors) `mcp` when this revision defines the code, else `legacy`",
    reservedDoc: "-32768..-32100 (JSON-RPC's, for future use; -32000..-32099 are implementation-defined server errors)",
  },
};

function origin(fact: ErrorCodeFact, source: string): string {
  if (fact.span) return commentSafe(`\`${fact.constant}\` (${source}:${fact.span.line})${fact.shape ? `; shape: \`${fact.shape}\`` : ""}`);
  return `\`${fact.constant}\`, stated in prose: ${fact.cite ?? ""}`;
}

/**
 * Builds the view model of `errors.ts` for the protocol facts of one schema.
 *
 * @param source the input file name, for the `schema.ts:LINE` references in doc comments
 * @throws GeneratorError (MCG301) when an error-code constant gives no usable name
 */
export function buildErrors(facts: ProtocolFacts, source: string, enumStyle: EnumStyle): ErrorsView {
  checkNames(facts);
  const rules = facts.rules;
  // The schema's RequestId, or JSON-RPC's own id type when the schema has none.
  const id = facts.requestIdType ?? "string | number";
  const codeType = (member: string) => (enumStyle === "ts-enum" ? `ErrorCode.${member}` : `typeof ErrorCode.${member}`);
  const idParam = facts.errorIdOptional ? `id: ${id} | undefined` : `id: ${id}`;
  const constructor = (name: string, member: string, dataType: string, dataRequired: boolean, message: string, origin: string): ConstructorView => {
    const dataParam = dataRequired ? `data: ${dataType}` : `data?: ${dataType}`;
    const returnType = `${dataRequired ? "TypedErrorResponseWithData" : "TypedErrorResponse"}<${codeType(member)}, ${dataType}>`;
    return {
      name,
      codeType: codeType(member),
      codeValue: `ErrorCode.${member}`,
      dataType,
      signature: `(${idParam}, ${dataParam}, message?: string) => ${returnType}`,
      message: JSON.stringify(message),
      origin,
    };
  };
  // A code the chosen rules retire gets no constructor: nothing here may send it.
  const retired = new Set(rules.retiredCodes.codes);
  const constructors = facts.errorCodes
    .filter((f) => !retired.has(f.code))
    .map((f) => constructor(f.constructorName, f.member, f.dataType, f.dataRequired, f.message, origin(f, source)));
  // Resource not found under a code that is not its own constant (2026-07-28: -32602 with data.uri).
  const rnf = rules.resourceNotFound;
  const rnfMember = facts.errorCodes.find((f) => f.code === rnf.code);
  if (rnfMember && !constructors.some((c) => c.name === "resourceNotFound")) {
    const dataType = "{ uri: string; [key: string]: unknown }";
    constructors.push(constructor("resourceNotFound", rnfMember.member, dataType, rnf.uriRequired, "Resource not found", `resource not found: ${rnf.cite}`));
  }
  // The code resourceNotFound() sends, when the schema or the prose gives it its own constant.
  const own = facts.errorCodes.find((f) => f.constructorName === "resourceNotFound");
  const acceptedCodes = [...rnf.acceptedCodes, ...(own ? [own.code] : [])];
  const accepted = [...new Set(acceptedCodes)].filter((c) => c !== rnf.code);
  const partition = PARTITIONS[rules.errorPartition.rule];
  return {
    versionText: JSON.stringify(rules.version),
    partition: JSON.stringify(rules.errorPartition.rule),
    reservedDoc: partition.reservedDoc,
    retired: rules.retiredCodes.codes.join(", "),
    retiredCite: rules.retiredCodes.cite,
    withData: facts.errorCodes
      .filter((f) => f.dataRequired && !retired.has(f.code))
      .map((f) => `[${f.code}, ${JSON.stringify(f.constructorName)}]`)
      .join(", "),
    version: rules.version,
    rulesCite: rules.errorPartition.cite,
    tsEnum: enumStyle === "ts-enum",
    codes: facts.errorCodes.map((f) => ({ member: f.member, code: f.code, origin: origin(f, source) })),
    constructors,
    hasConstructors: constructors.length > 0,
    usesTypes: id.startsWith("T.") || constructors.some((c) => c.dataType.startsWith("T.")),
    idType: id,
    idParam,
    idMember: facts.errorIdOptional ? `id?: ${id}` : `id: ${id}`,
    jsonrpc: JSON.stringify("2.0"),
    standardCodes: STANDARD_JSONRPC_CODES.join(", "),
    definedCodes: facts.errorCodes.map((f) => f.code).join(", "),
    classifyDoc: partition.classifyDoc,
    resourceNotFound: { code: rnf.code, uriRequired: rnf.uriRequired, accepted: accepted.join(", "), cite: rnf.cite },
  };
}
