/**
 * Builds the view model of `meta.ts`: `_meta` key constants, the revision's key rules and
 * one table of known keys per `_meta` shape (request, notification, result) as data, each
 * key's value check included; `runtime/meta.ts` reads them, bound in the generated module.
 */
import type { Model } from "../analyze/index.js";
import type { MetaShapeFact, ProtocolFacts } from "../analyze/protocol.js";
import type { Property, TypeExpr } from "../ir.js";
import type { ReservedPrefixRule } from "../rules/index.js";
import { commentSafe } from "./docs.js";
import { objectLiteralKey } from "./names.js";
import { IDENTIFIER, isPlainIdentifier, joinedCase, memberWords, pascalCase, typeReferenceText, words, type SymbolTable, type TypeNames } from "./symbols.js";

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
  readonly fields: readonly { readonly field: string; readonly optional: string; readonly type: string }[];
}

export interface MetaView {
  readonly version: string;
  readonly keys: readonly { readonly member: string; readonly key: string; readonly declaredIn: string }[];
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
 * a reference to the generated validator of a named type, or `unchecked`.
 */
function checkFor(type: TypeExpr, model: Model, names: ReadonlyMap<string, TypeNames>, imports: Set<string>): string {
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
): ShapeView {
  const s = SHAPES[what];
  const own = shapeNames(what);
  const typeText = shape ? typeReferenceText(shape.type) : "{ [key: string]: unknown }";
  const properties = shape?.properties ?? [];
  const fields = fieldNames(properties);
  const required = properties.filter((p) => !p.optional).map((p) => p.name);
  const requirement =
    required.length > 0
      ? `${required.join(" and ")} ${required.length > 1 ? "are" : "is"} required`
      : shape?.metaRequired
        ? "`_meta` is required"
        : "`_meta` and all its keys are optional";
  return {
    what,
    container: s.container,
    requirement: commentSafe(requirement),
    constName: `${what.toUpperCase()}_META_KEYS`,
    ...own,
    checkSignature: `(${s.containerParam}: unknown, options?: MetaCheckOptions) => ${own.resultType}`,
    typeText,
    usesTypes: shape !== undefined,
    buildSignature: `(meta: ${typeText}) => ${typeText}`,
    metaRequired: shape?.metaRequired ?? false,
    keys: properties.map((p) => ({
      key: JSON.stringify(p.name),
      field: fields.get(p.name)!,
      required: !p.optional,
      check: checkFor(p.type, model, typeNames, imports),
    })),
    fields: properties.map((p) => ({
      field: fields.get(p.name)!,
      optional: p.optional ? "?" : "",
      type: typeReferenceText(shape!.proseKeys.has(p.name) ? { type: shape!.proseKeys.get(p.name)!, path: [] } : { ...shape!.type, path: [...shape!.type.path, { key: p.name }] }),
    })),
  };
}

/** Builds the view model of `meta.ts` for the protocol facts of one schema. */
export function buildMeta(facts: ProtocolFacts, model: Model, names: ReadonlyMap<string, TypeNames>): MetaView {
  const rules = facts.rules;
  const imports = new Set<string>();
  const shapes = [
    shapeView("request", facts.requestMeta, model, names, imports),
    shapeView("notification", facts.notificationMeta, model, names, imports),
    shapeView("result", facts.resultMeta, model, names, imports),
  ];
  const members = metaMembers(facts.metaKeys.map((k) => k.key));
  const unprefixed = facts.metaKeys.map((k) => k.key).filter((k) => !k.includes("/"));
  return {
    version: rules.version,
    keys: facts.metaKeys.map((k) => ({ member: members.get(k.key)!, key: JSON.stringify(k.key), declaredIn: k.declaredIn.join(", ") })),
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
