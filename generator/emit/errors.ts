/**
 * Builds the view model of `errors.ts`: the `ErrorCode` object (or enum), the revision's
 * error-code rules as data, and the typed bindings of `runtime/errors.ts` (the range
 * classifier, one constructor per error code, the resource-not-found test).
 * Codes come from the schema's constants (and, where only the prose defines one, from
 * `generator/rules`); data types are the schema's own error interfaces.
 */
import type { ErrorCodeFact, ProtocolFacts } from "../analyze/protocol.js";
import type { TypeReference } from "../analyze/reference.js";
import { camelCase, constantWords, isPlainIdentifier, pascalCase } from "../case.js";
import { STANDARD_JSONRPC_CODES, type ErrorPartition } from "../rules/index.js";
import { commentSafe } from "./docs.js";
import { array, call, constStatement, identifierCode, importStatement, memberCode, numberCode, Pieces, propertyLine, stringCode, text, type Code } from "./layout.js";
import { stringLiteralText } from "./print-type.js";
import { typeReferenceText, type DeclaredSymbol, type SymbolTable } from "./symbols.js";

/** Names `errors.ts` declares or imports from `runtime/errors.ts` that a constructor (a camelCase name) could take; `true` when exported. */
const OWN_NAMES: ReadonlyMap<string, boolean> = new Map([
  ["isErrorCode", true],
  ["classifyErrorCode", true],
  ["errorResponse", true],
  ["isResourceNotFoundError", true],
  ["errorCodeClassifier", false],
  ["errorCodeTest", false],
  ["errorConstructor", false],
  ["errorResponder", false],
  ["resourceNotFoundTest", false],
]);

/** The other names `errors.ts` exports: its types, and the runtime's `ErrorCodeClass`. */
const OWN_EXPORTS = ["ErrorCodeClass", "ErrorCode", "TypedErrorResponse", "TypedErrorResponseWithData"] as const;

/** The names of one error code in `errors.ts`. */
export interface ErrorCodeNames {
  /** Member of `ErrorCode`: `ParseError`. */
  readonly member: string;
  /** Constructor: `parseError`. */
  readonly constructorName: string;
}

/** The constructor for resource-not-found errors, made from the rules when no constant gives it. */
const RESOURCE_NOT_FOUND = "resourceNotFound";

/** `PARSE_ERROR` → `ParseError` and `parseError`. */
function namesOf(constant: string): ErrorCodeNames {
  const ws = constantWords(constant);
  return { member: pascalCase(ws), constructorName: camelCase(ws) };
}

/** How a name's owner reads when an error-code constant gave the name: `error-code constant PARSE_ERROR`. */
const CONSTANT_OWNER = "error-code constant ";

/**
 * Declares the names of `errors.ts` (`file`) in the run's symbol table: its own names, and for
 * every error code its `ErrorCode` member (scope `file#ErrorCode`) and constructor. A constant
 * that gives no identifier, or two constants that give one name, are MCG301 (reported by the
 * table's check, with the constants' spans).
 *
 * @returns the names by constant
 */
export function declareErrorNames(table: SymbolTable, file: string, facts: ProtocolFacts): Map<string, ErrorCodeNames> {
  const itself = `${file} itself`;
  for (const [name, exported] of OWN_NAMES) table.declare(file, name, { exported, owner: itself });
  table.declareExports(file, OWN_EXPORTS, itself);
  const retired = new Set(facts.rules.retiredCodes.codes);
  const members = `${file}#ErrorCode`;
  const out = new Map<string, ErrorCodeNames>();
  for (const f of facts.errorCodes) {
    const names = namesOf(f.constant);
    out.set(f.constant, names);
    const at = f.span ? { span: f.span } : {};
    // Characters outside ASCII would be dropped from the names (`ACME_ÉCHEC` gave `AcmeChec`; its É written decomposed, an E
    // and a combining accent, `AcmeEChec`): refused, as a name without letters is. One that is no letter or digit (an
    // accent, a joiner) is named by its code point.
    const dropped = [...new Set(f.constant.match(/[^\x00-\x7f]/gu) ?? [])].map((c) =>
      /[\p{L}\p{N}]/u.test(c) ? c : "U+" + c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0"),
    );
    if (!isPlainIdentifier(names.member) || !isPlainIdentifier(names.constructorName) || dropped.length > 0) {
      // No words at all (an empty pair would say nothing), characters the names would drop, or words that make no identifier.
      const gives =
        names.member === ""
          ? "gives no name (the names are made of its ASCII letters and digits, and it has none)"
          : dropped.length > 0
            ? `holds ${dropped.join(", ")}, which the names would drop (they are made of its ASCII letters and digits: ${names.member}, ${names.constructorName})`
            : `gives no usable name (${names.member}, ${names.constructorName})`;
      table.report({ code: "MCG301", message: `error-code constant ${f.constant} ${gives}; rename the constant`, ...at });
      continue;
    }
    // Member and constructor come from the same words: two constants share both or neither, and both give one message.
    const clash = (earlier: DeclaredSymbol) => {
      if (earlier.owner === itself) return `error-code constant ${f.constant} gives ${names.constructorName}, a name errors.ts uses itself; rename the constant`;
      const other = earlier.owner.startsWith(CONSTANT_OWNER) ? earlier.owner.slice(CONSTANT_OWNER.length) : undefined;
      return other !== undefined
        ? `error-code constants ${other} and ${f.constant} both give ${names.member} / ${names.constructorName} in errors.ts; rename one`
        : `error-code constant ${f.constant} gives ${names.constructorName}, which ${earlier.owner} also names; rename one of them`;
    };
    const declaration = { owner: `${CONSTANT_OWNER}${f.constant}`, ...at, clash };
    table.declare(members, names.member, { ...declaration, exported: false });
    // A code the rules retire gets no constructor (the name stays taken: the constant is still the schema's).
    table.declare(file, names.constructorName, { ...declaration, exported: !retired.has(f.code) });
  }
  // resourceNotFound() under a code that is not its own constant (see buildErrors).
  const rnf = facts.rules.resourceNotFound;
  if (facts.errorCodes.some((f) => f.code === rnf.code) && !table.has(file, RESOURCE_NOT_FOUND)) {
    table.declare(file, RESOURCE_NOT_FOUND, { exported: true, owner: "the resource-not-found rule" });
  }
  return out;
}

/** `--enum-style`: an `as const` object plus a union type, or a TypeScript `enum`. */
export const ENUM_STYLES = ["as-const", "ts-enum"] as const;
export type EnumStyle = (typeof ENUM_STYLES)[number];

export interface ErrorsView {
  readonly version: string;
  readonly rulesCite: string;
  readonly tsEnum: boolean;
  readonly codes: readonly { readonly member: string; readonly code: number; readonly origin: string }[];
  /** Whether there is a code (an empty `ErrorCode` is `{}` on its line). */
  readonly hasCodes: boolean;
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
  /** The statements and properties that may pass the line width, laid out as Prettier prints them (see `layout.ts`). */
  readonly runtimeImport: string;
  readonly standardProperty: string;
  readonly definedProperty: string;
  readonly retiredProperty: string;
  readonly withDataProperty: string;
  readonly errorResponseDeclaration: string;
  /** Whether every piece is laid out: the file is then written without Prettier. */
  readonly laidOut: boolean;
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
  /** `export const name: signature = errorConstructor(code, message);`, laid out. */
  readonly declaration: string;
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
export function buildErrors(facts: ProtocolFacts, names: ReadonlyMap<string, ErrorCodeNames>, source: string, enumStyle: EnumStyle): ErrorsView {
  const rules = facts.rules;
  const named = (f: ErrorCodeFact) => names.get(f.constant)!;
  // The schema's RequestId, or JSON-RPC's own id type when the schema has none.
  const id = facts.requestIdType ? typeReferenceText(facts.requestIdType) : "string | number";
  const codeType = (member: string) => (enumStyle === "ts-enum" ? `ErrorCode.${member}` : `typeof ErrorCode.${member}`);
  const idParam = facts.errorIdOptional ? `id: ${id} | undefined` : `id: ${id}`;
  const pieces = new Pieces();
  const constructor = (name: string, member: string, data: TypeReference | string, dataRequired: boolean, message: string, origin: string): ConstructorView => {
    const dataType = typeof data === "string" ? data : typeReferenceText(data);
    const dataParam = dataRequired ? `data: ${dataType}` : `data?: ${dataType}`;
    const responseType = dataRequired ? "TypedErrorResponseWithData" : "TypedErrorResponse";
    const returnType = `${responseType}<${codeType(member)}, ${dataType}>`;
    const signature = `(${idParam}, ${dataParam}, message?: string) => ${returnType}`;
    const messageText = stringLiteralText(message);
    const flat = `export const ${name}: ${signature} = errorConstructor(ErrorCode.${member}, ${messageText});`;
    const type: Code = { kind: "fnType", params: [idParam, dataParam, "message?: string"], returns: { kind: "typeArgs", name: responseType, args: [codeType(member), dataType] } };
    return {
      name,
      codeType: codeType(member),
      codeValue: `ErrorCode.${member}`,
      dataType,
      signature,
      message: messageText,
      origin,
      declaration: pieces.take(constStatement(true, name, type, call("errorConstructor", [memberCode(`ErrorCode.${member}`), stringCode(messageText)])), flat),
    };
  };
  // A code the chosen rules retire gets no constructor: nothing here may send it.
  const retired = new Set(rules.retiredCodes.codes);
  const constructors = facts.errorCodes
    .filter((f) => !retired.has(f.code))
    .map((f) => constructor(named(f).constructorName, named(f).member, f.dataType, f.dataRequired, f.message, origin(f, source)));
  // Resource not found under a code that is not its own constant (2026-07-28: -32602 with data.uri).
  const rnf = rules.resourceNotFound;
  const rnfMember = facts.errorCodes.find((f) => f.code === rnf.code);
  if (rnfMember && !constructors.some((c) => c.name === RESOURCE_NOT_FOUND)) {
    const dataType = "{ uri: string; [key: string]: unknown }";
    constructors.push(constructor(RESOURCE_NOT_FOUND, named(rnfMember).member, dataType, rnf.uriRequired, "Resource not found", `resource not found: ${rnf.cite}`));
  }
  // The code resourceNotFound() sends, when the schema or the prose gives it its own constant.
  const own = facts.errorCodes.find((f) => named(f).constructorName === RESOURCE_NOT_FOUND);
  const acceptedCodes = [...rnf.acceptedCodes, ...(own ? [own.code] : [])];
  const accepted = [...new Set(acceptedCodes)].filter((c) => c !== rnf.code);
  const partition = PARTITIONS[rules.errorPartition.rule];
  const withData = facts.errorCodes.filter((f) => f.dataRequired && !retired.has(f.code));
  const codes = (key: string, values: readonly number[]) =>
    pieces.take(propertyLine(key, array(values.map(numberCode)), 1), `  ${key}: [${values.join(", ")}],`);
  const runtimeNames = ["errorCodeClassifier", "errorCodeTest", ...(constructors.length > 0 ? ["errorConstructor"] : []), "errorResponder", "resourceNotFoundTest", "type ErrorCodeClass", "type ErrorCodeRules"];
  const errorResponseType: Code = { kind: "fnType", params: [idParam, "code: number", "message: string", "data?: unknown"], returns: text("TypedErrorResponse") };
  const layout = {
    runtimeImport: pieces.take(importStatement(runtimeNames, JSON.stringify("./runtime/errors.js")), `import { ${runtimeNames.join(", ")} } from "./runtime/errors.js";`),
    standardProperty: codes("standard", STANDARD_JSONRPC_CODES),
    definedProperty: codes("defined", facts.errorCodes.map((f) => f.code)),
    retiredProperty: codes("retired", rules.retiredCodes.codes),
    withDataProperty: pieces.take(
      propertyLine("withData", array(withData.map((f) => array([numberCode(f.code), stringCode(stringLiteralText(named(f).constructorName))]))), 1),
      `  withData: [${withData.map((f) => `[${f.code}, ${JSON.stringify(named(f).constructorName)}]`).join(", ")}],`,
    ),
    errorResponseDeclaration: pieces.take(
      constStatement(true, "errorResponse", errorResponseType, call("errorResponder", [identifierCode("ERROR_CODES")])),
      `export const errorResponse: (${idParam}, code: number, message: string, data?: unknown) => TypedErrorResponse = errorResponder(ERROR_CODES);`,
    ),
  };
  return {
    ...layout,
    laidOut: pieces.laidOut,
    hasCodes: facts.errorCodes.length > 0,
    versionText: JSON.stringify(rules.version),
    partition: JSON.stringify(rules.errorPartition.rule),
    reservedDoc: partition.reservedDoc,
    retired: rules.retiredCodes.codes.join(", "),
    retiredCite: rules.retiredCodes.cite,
    withData: facts.errorCodes
      .filter((f) => f.dataRequired && !retired.has(f.code))
      .map((f) => `[${f.code}, ${JSON.stringify(named(f).constructorName)}]`)
      .join(", "),
    version: rules.version,
    rulesCite: rules.errorPartition.cite,
    tsEnum: enumStyle === "ts-enum",
    codes: facts.errorCodes.map((f) => ({ member: named(f).member, code: f.code, origin: origin(f, source) })),
    constructors,
    hasConstructors: constructors.length > 0,
    // A schema type appears as the id type or as a constructor's data type (a reference, not the rules' own text).
    usesTypes: facts.requestIdType !== undefined || facts.errorCodes.some((f) => !retired.has(f.code) && typeof f.dataType !== "string"),
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
