/**
 * Builds the view model of `meta.ts`: `_meta` key constants, the revision's key rules and
 * one table of known keys per `_meta` shape (request, notification, result) as data, each
 * key's value check included; `runtime/meta.ts` reads them, bound in the generated module.
 */
import type { Model } from "../analyze/index.js";
import type { MetaShapeFact, ProtocolFacts } from "../analyze/protocol.js";
import { typeReference, type TypeReference } from "../analyze/reference.js";
import { IDENTIFIER, isPlainIdentifier, joinedCase, memberWords, pascalCase, words } from "../case.js";
import type { Property, TypeExpr } from "../ir.js";
import type { ReservedPrefixRule } from "../rules/index.js";
import { commentSafe } from "./docs.js";
import { array, constArrayStatement, constStatement, identifierCode, importStatement, object, Pieces, plainLine, propertyLine, PURE, pureCall, stringCode, text, type Code } from "./layout.js";
import { objectLiteralKey } from "./names.js";
import { keyText, stringLiteralText } from "./print-type.js";
import { typeReferenceText, type SymbolTable, type TypeNames } from "./symbols.js";

/**
 * `MetaKey` member names: `io.modelcontextprotocol/protocolVersion` → `ProtocolVersion`; on a
 * clash, the prefix labels too (`IoModelcontextprotocolProtocolVersion`); a key that still gives
 * no identifier of its own is its own (quoted) member name.
 */
function metaMembers(keys: readonly string[]): Map<string, string> {
  const short = (key: string) => pascalCase(words(key.slice(key.lastIndexOf("/") + 1)));
  const counts = new Map<string, number>();
  for (const k of keys) counts.set(short(k), (counts.get(short(k)) ?? 0) + 1);
  const chosen = keys.map((k) => (counts.get(short(k))! > 1 ? pascalCase(words(k)) : short(k)));
  return new Map(
    keys.map((k, i) => {
      const name = chosen[i]!;
      const unique = chosen.indexOf(name) === chosen.lastIndexOf(name);
      // A quoted "__proto__" member would set the object's prototype; a computed one is a key.
      return [k, isPlainIdentifier(name) && unique ? name : objectLiteralKey(k)];
    }),
  );
}


interface KeyCheckView {
  readonly key: string;
  readonly field: string;
  readonly required: boolean;
  readonly check: string;
}

/** A key's value check as layout code; undefined for an unchecked value (its text carries a comment). */
type CheckCode = Code | undefined;

interface ShapeView {
  readonly what: string;
  readonly container: string;
  readonly requirement: string;
  readonly constName: string;
  readonly fieldsType: string;
  readonly resultType: string;
  readonly checkName: string;
  readonly buildName: string;
  readonly typeText: string;
  /** Whether `typeText` names a schema type (`types.ts` is imported then). */
  readonly usesTypes: boolean;
  /** The function types of `checkName` and `buildName`. */
  readonly checkSignature: string;
  readonly buildSignature: string;
  readonly metaRequired: boolean;
  readonly keys: readonly KeyCheckView[];
  readonly fields: readonly { readonly field: string; readonly optional: string; readonly type: string; readonly line: string }[];
  /** Laid out as Prettier prints them (see `layout.ts`). */
  readonly keysProperty: string;
  /** The body of the fields interface: its members one per line, or `{}`. */
  readonly fieldsBody: string;
  readonly checkDeclaration: string;
  readonly buildDeclaration: string;
}

export interface MetaView {
  readonly version: string;
  readonly keys: readonly { readonly member: string; readonly key: string; readonly declaredIn: string; readonly property: string }[];
  readonly hasKeys: boolean;
  readonly otelKeys: string;
  readonly otelCite: string;
  readonly requiredRequestKeys: string;
  readonly grammarApplies: boolean;
  readonly grammarCite: string;
  readonly reservedCite: string;
  /** The revision's reserved-prefix rule (`runtime/meta.ts`'s `ReservedPrefixRule`), as a JSON string. */
  readonly reservedRule: string;
  /** The revision's name, as a JSON string. */
  readonly versionText: string;
  readonly reservedDoc: string;
  readonly unprefixedReserved: string;
  readonly shapes: readonly ShapeView[];
  readonly validatorImports: string;
  /** Every key the revision defines (schema, prose, OpenTelemetry), as JSON strings. */
  readonly definedKeys: string;
  /** Whether the module refers to `types.ts`. */
  readonly usesTypes: boolean;
  /** Laid out as Prettier prints them (see `layout.ts`). */
  readonly validatorImport: string;
  readonly runtimeImport: string;
  readonly otelDeclaration: string;
  readonly requiredDeclaration: string;
  readonly reservedDeclaration: string;
  readonly definedKeysProperty: string;
  readonly keyProperties: readonly string[];
  /** Whether every piece is laid out: the file is then written without Prettier. */
  readonly laidOut: boolean;
}

/** A key's value check (the text {@link checkFor} gives) as layout code, or undefined when not decided here. */
function checkCode(type: TypeExpr, check: string, validate: string | undefined, within: Within | undefined): CheckCode {
  if (within !== undefined) return object([["within", identifierCode(within.validate)], ["key", stringCode(stringLiteralText(within.key))]]);
  if (validate !== undefined) return object([["validate", identifierCode(validate)]]);
  if (type.kind === "literal") {
    const value = type.value;
    const literal = typeof value === "string" ? stringCode(stringLiteralText(value)) : text(JSON.stringify(value), { literal: typeof value === "number" ? "number" : "boolean", lone: true });
    return typeof value === "number" && !Number.isSafeInteger(value) ? undefined : object([["literal", literal]]);
  }
  // A JSON type name (`"string"`, `"integer"`, …); "unchecked" carries a comment, left to Prettier.
  return check.startsWith('"') && check.endsWith('"') && check.indexOf('"', 1) === check.length - 1 ? stringCode(check) : undefined;
}

/** How each reserved-prefix rule (see `generator/rules`, and `runtime/meta.ts` for its reading) is described in doc comments. */
const RESERVED_DOCS: Record<ReservedPrefixRule, string> = {
  none: "this revision reserves no prefix",
  "label-followed-by-label":
    "a prefix is reserved when some label is `modelcontextprotocol` or `mcp` and another label follows it (`mcp.dev/`, `tools.mcp.com/`)",
  "second-label":
    "a prefix is reserved when its second label is `modelcontextprotocol` or `mcp` (`io.modelcontextprotocol/`, `com.mcp.tools/`; not `com.example.mcp/`)",
};

/**
 * A key's value check as data (`runtime/meta.ts`'s `MetaValueCheck`): a JSON type, a literal,
 * a reference to the generated validator of a named type; for a value type with no validator of
 * its own (written in place, or a keyword a constraint tag narrows), `within` the validator of the
 * `_meta` type that declares the key (`container`) when there is one, else `unchecked` (a keyword
 * then checked as its JSON type, its constraints not).
 */
function checkFor(type: TypeExpr, model: Model, names: ReadonlyMap<string, TypeNames>, imports: Set<string>, within: Within | undefined): string {
  if (within !== undefined) {
    imports.add(within.validate);
    return `{ within: ${within.validate}, key: ${JSON.stringify(within.key)} }`;
  }
  switch (type.kind) {
    case "ref": {
      if (model.isExportedType(type.name)) {
        const validate = names.get(type.name)!.validate;
        imports.add(validate);
        return `{ validate: ${validate} }`;
      }
      break;
    }
    case "keyword":
      if (type.name === "string" || type.name === "boolean") return JSON.stringify(type.name);
      if (type.name === "number") return type.numberType === "integer" ? '"integer"' : '"number"';
      if (type.name === "unknown" || type.name === "any") return '"any"';
      break;
    case "literal":
      return `{ literal: ${JSON.stringify(type.value)} }`;
    default:
      break;
  }
  // A value type without a name has no validator to call: the key is known, its value unchecked.
  return '"unchecked" /* its type has no name in the schema */';
}

/** The validator of the `_meta` type that declares a key, and the key: how a value with no check of its own is checked. */
interface Within {
  readonly validate: string;
  readonly key: string;
}

/**
 * Whether a key's value type needs its `_meta` type's validator: it has no check of its own (a named exported type, a
 * JSON type keyword, a literal have one), or a constraint tag narrows it (`@minimum 1`, `@format uri`).
 */
function needsWithin(type: TypeExpr, model: Model): boolean {
  if (type.kind === "ref") return !model.isExportedType(type.name);
  if (type.kind === "keyword") return !["string", "boolean", "number", "unknown", "any"].includes(type.name) || (type.constraints !== undefined && Object.keys(type.constraints).length > 0);
  return type.kind !== "literal";
}

/** Field names of `…MetaFields`: the key's name (after its prefix), hyphenated words joined (`related-task` → `relatedTask`), or the whole key on a clash. */
function fieldNames(properties: readonly Property[]): Map<string, string> {
  const short = (key: string) => joinedCase(memberWords(key.slice(key.lastIndexOf("/") + 1)));
  const counts = new Map<string, number>();
  for (const p of properties) counts.set(short(p.name), (counts.get(short(p.name)) ?? 0) + 1);
  return new Map(
    properties.map((p) => {
      const s = short(p.name);
      return [p.name, JSON.stringify(counts.get(s) === 1 && IDENTIFIER.test(s) ? s : p.name)];
    }),
  );
}

/** The names `meta.ts` exports of one `_meta` shape: `RequestMetaFields`, `RequestMetaCheck`, `checkRequestMeta`, `buildRequestMeta`. */
function shapeNames(what: keyof typeof SHAPES): { fieldsType: string; resultType: string; checkName: string; buildName: string } {
  const name = SHAPES[what].name;
  return { fieldsType: `${name}MetaFields`, resultType: `${name}MetaCheck`, checkName: `check${name}Meta`, buildName: `build${name}Meta` };
}

/** What `meta.ts` exports besides its shapes' names: runtime re-exports and its constants and tests (`MetaKey` when the schema names keys). */
const OWN_EXPORTS = [
  "MAX_META_PROBLEMS",
  "parseMetaKey",
  "InvalidMetaError",
  "MetaCheckOptions",
  "MetaKeyProblem",
  "MetaProblem",
  "ParsedMetaKey",
  "OPENTELEMETRY_META_KEYS",
  "REQUIRED_REQUEST_META_KEYS",
  "isValidMetaKey",
  "isReservedMetaKey",
] as const;

/** Declares the names `meta.ts` (`file`) exports into the run's symbol table. */
export function declareMetaNames(table: SymbolTable, file: string, facts: ProtocolFacts): void {
  table.declareExports(file, [...OWN_EXPORTS, ...(facts.metaKeys.length > 0 ? ["MetaKey"] : [])]);
  for (const what of Object.keys(SHAPES) as (keyof typeof SHAPES)[]) table.declareExports(file, Object.values(shapeNames(what)));
}

const SHAPES = {
  request: { container: "request params", containerParam: "params", name: "Request" },
  notification: { container: "notification params", containerParam: "params", name: "Notification" },
  result: { container: "result object", containerParam: "result", name: "Result" },
} as const;

function shapeView(
  what: keyof typeof SHAPES,
  shape: MetaShapeFact | undefined,
  model: Model,
  typeNames: ReadonlyMap<string, TypeNames>,
  imports: Set<string>,
  pieces: Pieces,
): ShapeView {
  const s = SHAPES[what];
  const own = shapeNames(what);
  let usesTypes = false;
  const named = (reference: TypeReference): string => {
    usesTypes = true;
    return typeReferenceText(reference);
  };
  const typeText = shape?.type ? named(shape.type) : "{ [key: string]: unknown }";
  // A key's type through the `_meta` type; when no exported type reaches that, its own exported type or `unknown`.
  const fieldType = (p: Property): string => {
    const prose = shape!.proseKeys.get(p.name);
    if (prose !== undefined) return named(typeReference(prose));
    const derived = shape!.derivedKeys?.get(p.name);
    if (derived !== undefined) return named(derived);
    if (shape!.type) return named({ ...shape!.type, path: [...shape!.type.path, { key: p.name }] });
    return p.type.kind === "ref" && model.isExportedType(p.type.name) ? named(typeReference(p.type.name)) : "unknown";
  };
  const properties = shape?.properties ?? [];
  const fieldTypes = new Map(properties.map((p) => [p.name, fieldType(p)]));
  const fields = fieldNames(properties);
  const required = properties.filter((p) => !p.optional).map((p) => p.name);
  const requirement =
    required.length > 0
      ? `${required.join(" and ")} ${required.length > 1 ? "are" : "is"} required`
      : shape?.metaRequired
        ? "`_meta` is required"
        : "`_meta` and all its keys are optional";
  // The validator of the `_meta` type itself, for the keys it declares whose value types have none of their own; for a key
  // a `_meta` type extending it declares, that type's (helper-146: such a key's @minimum was dropped, an object type unchecked).
  const containerValidate = shape?.type !== undefined && shape.type.path.length === 0 && model.isExportedType(shape.type.type) ? typeNames.get(shape.type.type)?.validate : undefined;
  const declarer = (p: Property): string | undefined => {
    if (shape!.proseKeys.has(p.name)) return undefined;
    const derived = shape!.derivedKeys?.get(p.name);
    if (derived === undefined) return containerValidate;
    return derived.path.length === 1 && model.isExportedType(derived.type) ? typeNames.get(derived.type)?.validate : undefined;
  };
  const keys = properties.map((p) => {
    const validateWithin = needsWithin(p.type, model) ? declarer(p) : undefined;
    const within = validateWithin !== undefined ? { validate: validateWithin, key: p.name } : undefined;
    const check = checkFor(p.type, model, typeNames, imports, within);
    const validate = p.type.kind === "ref" && model.isExportedType(p.type.name) ? typeNames.get(p.type.name)!.validate : undefined;
    return { p, check, code: checkCode(p.type, check, validate, within) };
  });
  const constName = `${what.toUpperCase()}_META_KEYS`;
  const keyRows = keys.map(({ p, code }) =>
    code === undefined
      ? undefined
      : object([
          ["key", stringCode(stringLiteralText(p.name))],
          ["field", stringCode(stringLiteralText(JSON.parse(fields.get(p.name)!) as string))],
          ["required", text(String(!p.optional), { literal: "boolean", lone: true })],
          ["check", code],
        ]),
  );
  const keysFlat = `  keys: [${keys.map(({ p, check }) => `{ key: ${JSON.stringify(p.name)}, field: ${fields.get(p.name)!}, required: ${!p.optional}, check: ${check} }`).join(", ")}],`;
  const keysProperty = pieces.take(keyRows.every((r) => r !== undefined) ? propertyLine("keys", array(keyRows as Code[]), 1) : undefined, keysFlat);
  const params = [`${s.containerParam}: unknown`, "options?: MetaCheckOptions"];
  const checkSignature = `(${params.join(", ")}) => ${own.resultType}`;
  const buildSignature = `(meta: ${typeText}) => ${typeText}`;
  const bound = (callee: string) => pureCall(callee, [identifierCode("META_RULES"), identifierCode(constName)]);
  const fieldLines = properties.map((p) => {
    const name = JSON.parse(fields.get(p.name)!) as string;
    const type = fieldTypes.get(p.name)!;
    const key = keyText(name);
    return pieces.take(key === undefined ? undefined : plainLine(`  ${key}${p.optional ? "?" : ""}: ${type};`), `  ${fields.get(p.name)!}${p.optional ? "?" : ""}: ${type};`);
  });
  return {
    // An interface without members is `{}` on its line.
    fieldsBody: fieldLines.length === 0 ? "{}" : `{\n${fieldLines.join("\n")}\n}`,
    keysProperty,
    checkDeclaration: pieces.take(
      constStatement(true, own.checkName, { kind: "fnType", params, returns: text(own.resultType) }, bound("metaChecker")),
      `export const ${own.checkName}: ${checkSignature} = ${PURE}metaChecker(META_RULES, ${constName});`,
    ),
    buildDeclaration: pieces.take(
      constStatement(true, own.buildName, { kind: "fnType", params: [`meta: ${typeText}`], returns: text(typeText) }, bound("metaBuilder")),
      `export const ${own.buildName}: ${buildSignature} = ${PURE}metaBuilder(META_RULES, ${constName});`,
    ),
    what,
    container: s.container,
    requirement: commentSafe(requirement),
    constName,
    ...own,
    checkSignature,
    typeText,
    usesTypes,
    buildSignature,
    metaRequired: shape?.metaRequired ?? false,
    keys: keys.map(({ p, check }) => ({
      key: JSON.stringify(p.name),
      field: fields.get(p.name)!,
      required: !p.optional,
      check,
    })),
    fields: properties.map((p, i) => ({
      line: fieldLines[i]!,
      field: fields.get(p.name)!,
      optional: p.optional ? "?" : "",
      type: fieldTypes.get(p.name)!,
    })),
  };
}

/** Builds the view model of `meta.ts` for the protocol facts of one schema. */
export function buildMeta(facts: ProtocolFacts, model: Model, names: ReadonlyMap<string, TypeNames>): MetaView {
  const rules = facts.rules;
  const imports = new Set<string>();
  const pieces = new Pieces();
  const shapes = [
    shapeView("request", facts.requestMeta, model, names, imports, pieces),
    shapeView("notification", facts.notificationMeta, model, names, imports, pieces),
    shapeView("result", facts.resultMeta, model, names, imports, pieces),
  ];
  const members = metaMembers(facts.metaKeys.map((k) => k.key));
  const unprefixed = facts.metaKeys.map((k) => k.key).filter((k) => !k.includes("/"));
  const strings = (values: readonly string[]) => values.map((v) => stringCode(stringLiteralText(v)));
  const otel = rules.openTelemetryKeys.keys;
  const required = (facts.requestMeta?.properties ?? []).filter((p) => !p.optional).map((p) => p.name);
  const reserved = [...unprefixed, ...otel];
  const defined = [...facts.metaKeys.map((k) => k.key), ...otel];
  const validators = [...imports].sort();
  const runtimeNames = ["metaBuilder", "metaChecker", "metaKeyTest", "reservedMetaKeyTest", "type MetaCheck", "type MetaCheckOptions", "type MetaRules", "type MetaShape"];
  const json = (values: readonly string[]) => values.map((v) => JSON.stringify(v)).join(", ");
  const layout = {
    validatorImport: pieces.take(validators.length > 0 ? importStatement(validators, JSON.stringify("./validators.js")) : "", `import { ${validators.join(", ")} } from "./validators.js";`),
    runtimeImport: pieces.take(importStatement(runtimeNames, JSON.stringify("./runtime/meta.js")), `import { ${runtimeNames.join(", ")} } from "./runtime/meta.js";`),
    otelDeclaration: pieces.take(constArrayStatement(true, "OPENTELEMETRY_META_KEYS", strings(otel)), `export const OPENTELEMETRY_META_KEYS = [${json(otel)}] as const;`),
    requiredDeclaration: pieces.take(constArrayStatement(true, "REQUIRED_REQUEST_META_KEYS", strings(required)), `export const REQUIRED_REQUEST_META_KEYS = [${json(required)}] as const;`),
    reservedDeclaration: pieces.take(
      constStatement(
        true,
        "isReservedMetaKey",
        { kind: "fnType", params: ["key: string"], returns: text("boolean") },
        pureCall("reservedMetaKeyTest", [stringCode(stringLiteralText(rules.reservedPrefix.rule)), array(strings(reserved))]),
      ),
      `export const isReservedMetaKey: (key: string) => boolean = ${PURE}reservedMetaKeyTest(${JSON.stringify(rules.reservedPrefix.rule)}, [${json(reserved)}]);`,
    ),
    definedKeysProperty: pieces.take(propertyLine("definedKeys", array(strings(defined)), 1), `  definedKeys: [${json(defined)}],`),
    keyProperties: facts.metaKeys.map((k) => {
      const member = members.get(k.key)!;
      // A quoted member name is a key Prettier may print otherwise: decided only for a plain identifier or a computed key.
      const decided = isPlainIdentifier(member) || member.startsWith("[");
      return pieces.take(decided ? propertyLine(member, stringCode(stringLiteralText(k.key)), 1) : undefined, `  ${member}: ${JSON.stringify(k.key)},`);
    }),
  };
  return {
    ...layout,
    laidOut: pieces.laidOut,
    version: rules.version,
    keys: facts.metaKeys.map((k, i) => ({ member: members.get(k.key)!, key: JSON.stringify(k.key), declaredIn: k.declaredIn.join(", "), property: layout.keyProperties[i]! })),
    hasKeys: facts.metaKeys.length > 0,
    otelKeys: rules.openTelemetryKeys.keys.map((k) => JSON.stringify(k)).join(", "),
    otelCite: rules.openTelemetryKeys.cite,
    requiredRequestKeys: (facts.requestMeta?.properties ?? [])
      .filter((p) => !p.optional)
      .map((p) => JSON.stringify(p.name))
      .join(", "),
    grammarApplies: rules.metaKeyGrammar.applies,
    grammarCite: rules.metaKeyGrammar.cite,
    reservedCite: rules.reservedPrefix.cite,
    reservedRule: JSON.stringify(rules.reservedPrefix.rule),
    versionText: JSON.stringify(rules.version),
    reservedDoc: RESERVED_DOCS[rules.reservedPrefix.rule],
    unprefixedReserved: [...unprefixed, ...rules.openTelemetryKeys.keys].map((k) => JSON.stringify(k)).join(", "),
    shapes,
    validatorImports: [...imports].sort().join(", "),
    definedKeys: [...facts.metaKeys.map((k) => k.key), ...rules.openTelemetryKeys.keys].map((k) => JSON.stringify(k)).join(", "),
    usesTypes: shapes.some((s) => s.usesTypes),
  };
}
