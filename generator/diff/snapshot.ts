/**
 * A schema's protocol, as plain JSON data to compare: what `diff` compares and what
 * `generate` keeps in the output's manifest (so that `--check` can say what changed in the
 * protocol's terms). Built from the analysed {@link Model} and its {@link ProtocolFacts};
 * nothing is parsed again.
 *
 * Types keep their own properties only (inherited ones are compared where they are declared)
 * and their `extends` list; type texts are one-line TypeScript without doc comments.
 */
import type { Model } from "../analyze/index.js";
import type { ProtocolFacts } from "../analyze/protocol.js";
import { printType } from "../emit/print-type.js";
import type { Constraints, Docs, KeywordType, ObjectType, TypeExpr } from "../ir.js";

/** One property of a type. */
export interface PropertySnapshot {
  readonly optional: boolean;
  /** The type as one-line TypeScript. */
  readonly type: string;
  /** The type as {@link checkedText} writes it, when that differs from `type`. */
  readonly checked?: string;
  /**
   * Constraint tags on it (`format`, `minimum`, `maximum`, `maxItems`, `pattern`, and `TJS-type`
   * `number` for a number that need not be an integer), sorted by tag.
   */
  readonly constraints?: Readonly<Record<string, string | number>>;
  /**
   * When the type is written inline as an object (`{ name: string; }`): its members by name (an
   * index signature under `[key: string]`), for `diff` to tell an inline type moved into a named
   * one with the same members from a change.
   */
  readonly members?: Readonly<Record<string, PropertySnapshot>>;
}

/** A property an interface inherits, with the declaration it comes from. */
export interface InheritedPropertySnapshot extends PropertySnapshot {
  /** The type that declares it (`BaseMetadata`). */
  readonly from: string;
}

/** One interface or type alias. */
export interface TypeSnapshot {
  readonly kind: "interface" | "alias";
  /** Interface: its `extends` list as written. */
  readonly extends?: readonly string[];
  /** Interface: its own properties by name. */
  readonly properties?: Readonly<Record<string, PropertySnapshot>>;
  /**
   * Interface: the properties it inherits through `extends` by name (absent in manifests written
   * before they were recorded): what `diff` compares when a base is new, or another one declares a
   * property now.
   */
  readonly inherited?: Readonly<Record<string, InheritedPropertySnapshot>>;
  /** Interface: the type of its string index signature, if it has one. */
  readonly indexSignature?: string;
  /** Interface: its index signature's type as {@link checkedText} writes it, when that differs from `indexSignature`. */
  readonly indexChecked?: string;
  /** Alias: the aliased type as one-line TypeScript. */
  readonly type?: string;
  /** Alias: the aliased type as {@link checkedText} writes it, when that differs from `type`. */
  readonly checked?: string;
  /** Alias: the constraint tags on the aliased type, as a property's ({@link PropertySnapshot.constraints}). */
  readonly constraints?: Readonly<Record<string, string | number>>;
  /** Alias of an inline object type: its members, as a property's ({@link PropertySnapshot.members}). */
  readonly members?: Readonly<Record<string, PropertySnapshot>>;
}

/** One row of the method table. */
export interface MethodSnapshot {
  readonly kind: string;
  readonly direction: string;
  /** The message type's `params` type (`CallToolRequestParams`, `…?` when optional), or `none`. */
  readonly params: string;
  /** `params` as {@link checkedText} writes the type, when that differs from `params`. */
  readonly paramsChecked?: string;
  /**
   * The members `params` has, inherited ones included, by name (an index signature under
   * `[key: string]`): what `diff` compares when the `params` type is written another way (an
   * inline type moved into a named one). Absent when `params` is not one object shape (a union).
   */
  readonly paramsMembers?: Readonly<Record<string, PropertySnapshot>>;
  /**
   * When `params` is a union of object shapes (2025-11-25 `ElicitRequestParams`: a form or a URL
   * elicitation): each alternative's members by name, keyed by the alternative's type text
   * (`ElicitRequestFormParams`). Absent when `params` is one shape, or a member is not an object.
   */
  readonly paramsAlternatives?: Readonly<Record<string, Readonly<Record<string, PropertySnapshot>>>>;
  readonly results: readonly string[];
}

/** Everything `diff` compares; every record is keyed and sorted by name. */
export interface ProtocolSnapshot {
  /** The schema's `LATEST_PROTOCOL_VERSION`, when it has one. */
  readonly protocolVersion?: string;
  readonly methods: Readonly<Record<string, MethodSnapshot>>;
  readonly types: Readonly<Record<string, TypeSnapshot>>;
  /** Error-code constants (and the prose rules' named codes) by constant name. */
  readonly errorCodes: Readonly<Record<string, number>>;
  /** Known `_meta` keys; `required` when a request, notification or result `_meta` shape requires it. */
  readonly metaKeys: Readonly<Record<string, { readonly required: boolean }>>;
  /** Capability fields by path (`server.tools.listChanged`): the field's type, `{…}` for an object whose fields are listed. */
  readonly capabilities: Readonly<Record<string, string>>;
  /** The `ResultType` values. */
  readonly resultTypes: readonly string[];
  /**
   * Constants (`JSONRPC_VERSION`) by name, with their values; error codes and
   * `LATEST_PROTOCOL_VERSION` are in their own sections. Absent in manifests written before
   * constants were recorded (`diff` then does not compare them).
   */
  readonly constants?: Readonly<Record<string, string | number>>;
  /**
   * What `@deprecated` marks, sorted: declarations by name (`CreateMessageRequest`), properties as
   * `Type.property` (`Type.property.member` inside an inline object type; a name with a dot as a
   * JSON string, `RequestMetaObject."io.modelcontextprotocol/logLevel"`: {@link memberPath}). Absent in
   * manifests written before deprecations were recorded.
   */
  readonly deprecated?: readonly string[];
  /**
   * `true` in a snapshot that records checked texts ({@link checkedText}), an alias's tags and
   * `@TJS-type`: what `diff` compares only when both sides record them (absent in manifests
   * written before).
   */
  readonly checkedTexts?: true;
}

const noDocs = () => "";

/** A capability field whose value is an object with named fields (listed under it). */
export const NESTED = "{…}";

/** A type as one line of TypeScript, without `readonly` (see {@link withoutReadonly}). */
export function typeText(type: TypeExpr): string {
  const text = printType(withoutReadonly(type), noDocs).replace(/\s*\n\s*/g, " ");
  // `{ }` made `{}`, outside string literal types only (helper-124: the literal types "{ }" and "{}" had one text, so a
  // change from one to the other, or of a pattern `[{ }]` to `[{}]` on an index signature, was no protocol change).
  let out = "";
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"') {
      const end = literalEnd(text, i);
      out += text.slice(i, end + 1);
      i = end;
    } else if (text.startsWith("{ }", i)) {
      out += "{}";
      i += 2;
    } else out += text[i];
  }
  return out;
}

/**
 * A type as one line of TypeScript holding everything the validators check of it: each union's
 * members in code-unit order of their text, once each (an order or a repeat is no change), and each constraint tag
 * as a comment after the type it constrains (`number /*@ @maximum 3 @*\/`, `string[] /*@ @maxItems
 * 5 @*\/`; `@TJS-type number` for a number that need not be an integer), wherever it is: in an array's
 * element, a union member, an inline object's member or index signature. `diff` compares these
 * where the structured comparison finds nothing, so that no change the validators see goes unsaid.
 */
export function checkedText(type: TypeExpr): string {
  return typeText(annotated(type));
}

/** The marks {@link checkedText} puts around a type's tags. */
export const TAGS_OPEN = " /*@";
export const TAGS_CLOSE = " @*/";

/** `text` without the tag comments {@link checkedText} wrote: its union order, and the type as written. */
export function withoutTags(text: string): string {
  let out = "";
  let from = 0;
  for (const [start, end] of tagComments(text)) {
    out += text.slice(from, start);
    from = end;
  }
  return out + text.slice(from);
}

/**
 * `text` without the tag comment that ends it: a checked text without its type's own tags (an
 * array's `@maxItems`, a string's `@format`), which {@link checkedText} writes last. The tags
 * inside the type stay. A text that ends in no tag comment is returned as it is.
 */
export function withoutOwnTags(text: string): string {
  const last = tagComments(text).at(-1);
  return last !== undefined && last[1] === text.length ? text.slice(0, last[0]) : text;
}

/** Where the tag comments {@link checkedText} wrote are in `text`, as [start, end) pairs; string literals are read past. */
function tagComments(text: string): [number, number][] {
  const found: [number, number][] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"') i = literalEnd(text, i);
    else if (text.startsWith(TAGS_OPEN, i)) {
      // The tags' own values are JSON with `*/` escaped, so the first close mark ends them.
      const close = text.indexOf(TAGS_CLOSE, i);
      const end = close < 0 ? text.length : close + TAGS_CLOSE.length;
      found.push([i, end]);
      i = end - 1;
    }
  }
  return found;
}

/**
 * Where the string literal type that starts at `text[start]` (a `"`) ends: its closing quote, as
 * JSON.stringify wrote it (a quote inside is escaped), or the text's end. Type texts are read past
 * their literals with it, so that a `|`, a brace or a tag mark inside one is not read as syntax.
 */
export function literalEnd(text: string, start: number): number {
  let i = start + 1;
  for (; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
  return i;
}

/** `type` with its unions sorted and its tags written into the keyword names (see {@link checkedText}); only for printing. */
function annotated(type: TypeExpr): TypeExpr {
  const tags = (t: TypeExpr): string => {
    // A value as JSON with `*/` escaped (`*\/`, the same JSON string): a pattern cannot end the comment.
    const found = ownTags(t).map(([key, value]) => `@${key} ${key === "TJS-type" ? value : JSON.stringify(value).replace(/\*\//g, "*\\/")}`);
    return found.length === 0 ? "" : `${TAGS_OPEN} ${found.join(" ")}${TAGS_CLOSE}`;
  };
  const inner = mapInner(type, annotated);
  if (inner.kind === "union") {
    // Sorted by the members as written, then by their tags: a tag changed inside a member keeps the member where it was,
    // so the two texts of a tag-only change list the members in one order.
    // A union inside a union is its members (`(A | B) | C` is `A | B | C`, printed so): flattened before sorting, so that
    // `(boolean | string) | number` and `boolean | (string | number)` have one text (helper-124: they were a change
    // shown as `boolean | string | number → boolean | string | number`).
    const members = inner.members.flatMap((m) => (m.kind === "union" ? m.members : [m])).map((m) => {
      const text = typeText(m);
      return { m, key: [withoutTags(text), text] as const };
    });
    const order = (a: readonly [string, string], b: readonly [string, string]) => (a[0] !== b[0] ? (a[0] < b[0] ? -1 : 1) : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);
    // A member written twice (`string | number | string`) is one member: the same values are valid.
    const distinct = members.sort((a, b) => order(a.key, b.key)).filter((x, i, all) => i === 0 || x.key[1] !== all[i - 1]!.key[1]);
    return distinct.length === 1 ? distinct[0]!.m : { ...inner, members: distinct.map((x) => x.m) };
  }
  const written = tags(type);
  if (written === "" || (inner.kind !== "keyword" && inner.kind !== "array")) return inner;
  // The printed type with its tags, kept as a keyword's name so that the printer writes it as it is.
  const { constraints: _constraints, ...plain } = inner;
  return { kind: "keyword", name: `${typeText(plain)}${written}` as KeywordType["name"] };
}

/** `type` with `f` applied to the types directly inside it: an array's element, a tuple's elements, members, property types, an index signature. */
function mapInner(type: TypeExpr, f: (t: TypeExpr) => TypeExpr): TypeExpr {
  switch (type.kind) {
    case "array":
      return { ...type, element: f(type.element) };
    case "tuple":
      return { ...type, elements: type.elements.map(f) };
    case "union":
    case "intersection":
      return { ...type, members: type.members.map(f) };
    case "object": {
      const properties = type.properties.map((p) => ({ ...p, type: f(p.type) }));
      return type.indexSignature === undefined ? { ...type, properties } : { ...type, properties, indexSignature: f(type.indexSignature) };
    }
    default:
      return type;
  }
}

/** `{ checked }` when {@link checkedText} of `type` differs from `text`, its plain text; else nothing. */
function checkedOf(type: TypeExpr, text: string): { checked?: string } {
  const checked = checkedText(type);
  return checked === text ? {} : { checked };
}

/**
 * `type` with `readonly` taken off its arrays and tuples: a readonly array is the same JSON as
 * any other, so writing one is no change to the protocol (the types module keeps it).
 */
function withoutReadonly(type: TypeExpr): TypeExpr {
  const inner = mapInner(type, withoutReadonly);
  if (inner.kind !== "array" && inner.kind !== "tuple") return inner;
  const { readonly: _readonly, ...written } = inner;
  return written;
}

/**
 * The constraint tags on a type and its union members (merged), and `TJS-type` `number` when a
 * number of it need not be an integer (the validators then test `Number.isFinite`, not `Number.isInteger`).
 */
function constraintsOf(type: TypeExpr): Record<string, string | number> | undefined {
  const found = new Map<string, string | number>();
  const visit = (t: TypeExpr) => {
    for (const [key, value] of ownTags(t)) found.set(key, value);
    if (t.kind === "union") t.members.forEach(visit);
  };
  visit(type);
  return found.size > 0 ? sortedRecord(found) : undefined;
}

/**
 * The tags the validators check on `t` itself, not on the types inside it: its constraints by
 * name in code-unit order, then `TJS-type` `number` for a number that need not be an integer.
 */
function ownTags(t: TypeExpr): [string, string | number][] {
  const found: [string, string | number][] = [];
  if ((t.kind === "keyword" || t.kind === "array") && t.constraints) {
    for (const key of (Object.keys(t.constraints) as (keyof Constraints)[]).sort()) found.push([key, t.constraints[key]!]);
  }
  if (t.kind === "keyword" && t.name === "number" && t.numberType === "number") found.push(["TJS-type", "number"]);
  return found;
}

function sortedRecord<T>(entries: Iterable<[string, T]>): Record<string, T> {
  return Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Capability fields of `ClientCapabilities` and `ServerCapabilities`, nested objects walked (4 levels at most). */
function capabilities(model: Model): [string, string][] {
  const fields: [string, string][] = [];
  const walk = (prefix: string, type: TypeExpr, depth: number) => {
    const resolved = model.resolve(type);
    const shape = depth < 4 && (resolved.kind === "object" || resolved.kind === "ref") ? model.shapeOf(resolved) : undefined;
    if (!shape || shape.indexSignature || shape.properties.length === 0) {
      fields.push([prefix, typeText(type)]);
      return;
    }
    fields.push([prefix, NESTED]);
    for (const p of shape.properties) walk(memberPath(prefix, memberKey(p.name)), p.type, depth + 1);
  };
  for (const [side, name] of [["client", "ClientCapabilities"], ["server", "ServerCapabilities"]] as const) {
    const shape = model.declarations.has(name) ? model.shapeOf({ kind: "ref", name }) : undefined;
    for (const p of shape?.properties ?? []) walk(memberPath(side, memberKey(p.name)), p.type, 1);
  }
  return fields;
}

/**
 * The path of a member under `parent` (`annotations.weight`), or a type's own member's when `parent`
 * is absent; `key` is the member's {@link memberKey}. A name that holds a dot is written as a JSON
 * string, as `memberKey` writes `"[key: string]"`: `_meta."io.modelcontextprotocol/logLevel"`, and
 * `"a.b"` for a type's own (helper-145: `a.b` named both a property `"a.b"` and the member `b` of `a`,
 * and `_meta.io.modelcontextprotocol/x` read as three levels).
 */
export function memberPath(parent: string | undefined, key: string): string {
  const segment = !key.startsWith('"') && key.includes(".") ? JSON.stringify(key) : key;
  return parent === undefined ? segment : `${parent}.${segment}`;
}

/** The name under which {@link MethodSnapshot.paramsMembers} keeps an index signature. */
export const INDEX_SIGNATURE = "[key: string]";

/** A property of a snapshot: requiredness, type text and constraint tags. */
function propertySnapshot(p: { readonly optional: boolean; readonly type: TypeExpr }): PropertySnapshot {
  const constraints = constraintsOf(p.type);
  const members = p.type.kind === "object" ? { members: membersOf(p.type) } : {};
  const type = typeText(p.type);
  return { optional: p.optional, type, ...checkedOf(p.type, type), ...(constraints ? { constraints } : {}), ...members };
}

/**
 * The key of a property named `name` in a record that also holds an index signature under
 * {@link INDEX_SIGNATURE}: the name itself, or, for a property named `[key: string]` (or starting with
 * `"`, so that no two names share a key), the name as a JSON string (helper-121: such a property and
 * an index signature had one key, so `{ "[key: string]": string }` and `{ [key: string]: string }` were
 * one type).
 */
export function memberKey(name: string): string {
  return name === INDEX_SIGNATURE || name.startsWith('"') ? JSON.stringify(name) : name;
}

/** Every member of an object shape by {@link memberKey}, its index signature under {@link INDEX_SIGNATURE}. */
function membersOf(shape: ObjectType): Record<string, PropertySnapshot> {
  const members: [string, PropertySnapshot][] = shape.properties.map((p) => [memberKey(p.name), propertySnapshot(p)]);
  if (shape.indexSignature) members.push([INDEX_SIGNATURE, propertySnapshot({ optional: true, type: shape.indexSignature })]);
  return sortedRecord(members);
}

/**
 * The members of each alternative of a union of object shapes, by the alternative's type text (its
 * unions sorted and its tags left out, so that reordering a union inside an inline alternative does
 * not make it another); `undefined` for anything else.
 */
function alternativesOf(model: Model, type: TypeExpr): Record<string, Record<string, PropertySnapshot>> | undefined {
  const resolved = model.resolve(type);
  if (resolved.kind !== "union") return undefined;
  const alternatives: [string, Record<string, PropertySnapshot>][] = [];
  for (const member of model.flattenUnion(resolved)) {
    // `A | B | undefined` (params that may be absent) has the alternatives A and B.
    if (member.kind === "keyword" && member.name === "undefined") continue;
    const shape = model.shapeOf(member);
    if (shape === undefined) return undefined;
    alternatives.push([withoutTags(checkedText(member)), membersOf(shape)]);
  }
  return sortedRecord(alternatives);
}

/** The snapshot of one analysed schema. */
export function protocolSnapshot(model: Model, facts: ProtocolFacts): ProtocolSnapshot {
  const types: [string, TypeSnapshot][] = model.types.map((decl) => {
    if (decl.kind === "alias") {
      const constraints = constraintsOf(decl.type);
      const members = decl.type.kind === "object" ? { members: membersOf(decl.type) } : {};
      const type = typeText(decl.type);
      return [decl.name, { kind: "alias", type, ...checkedOf(decl.type, type), ...(constraints ? { constraints } : {}), ...members }];
    }
    const own = decl.type.properties.filter((p) => p.inheritedFrom === undefined);
    const properties = sortedRecord(own.map((p): [string, PropertySnapshot] => [p.name, propertySnapshot(p)]));
    const inherited = sortedRecord(
      decl.type.properties.flatMap((p): [string, InheritedPropertySnapshot][] => (p.inheritedFrom === undefined ? [] : [[p.name, { ...propertySnapshot(p), from: p.inheritedFrom }]])),
    );
    const indexText = decl.type.indexSignature ? typeText(decl.type.indexSignature) : undefined;
    const indexChecked = decl.type.indexSignature && indexText !== undefined ? checkedOf(decl.type.indexSignature, indexText).checked : undefined;
    const index = indexText === undefined ? {} : { indexSignature: indexText, ...(indexChecked === undefined ? {} : { indexChecked }) };
    return [decl.name, { kind: "interface", extends: decl.heritage, properties, inherited, ...index }];
  });
  const methods = facts.methods.map((m): [string, MethodSnapshot] => {
    const shape = m.paramsType === undefined ? undefined : model.shapeOf(m.paramsType);
    const alternatives = shape === undefined && m.paramsType !== undefined ? alternativesOf(model, m.paramsType) : undefined;
    const members = shape !== undefined ? { paramsMembers: membersOf(shape) } : alternatives !== undefined ? { paramsAlternatives: alternatives } : {};
    const optional = m.params === "optional";
    // An optional union or intersection is written `(A | B)?`: `A | B?` would read as if only B were optional.
    const compound = m.paramsType?.kind === "union" || m.paramsType?.kind === "intersection";
    const written = (text: string) => (optional && compound ? `(${text})?` : `${text}${optional ? "?" : ""}`);
    const params = m.paramsType === undefined ? "none" : written(typeText(m.paramsType));
    const checked = m.paramsType === undefined ? params : written(checkedText(m.paramsType));
    const paramsChecked = checked === params ? {} : { paramsChecked: checked };
    return [m.method, { kind: m.kind, direction: m.direction, params, ...paramsChecked, results: m.results, ...members }];
  });
  const required = new Set(
    [facts.requestMeta, facts.notificationMeta, facts.resultMeta].flatMap((shape) => shape?.properties.filter((p) => !p.optional).map((p) => p.name) ?? []),
  );
  const latest = model.declarations.get("LATEST_PROTOCOL_VERSION");
  const codes = new Set(facts.errorCodes.map((e) => e.constant));
  const constants = model.ir.declarations.flatMap((d): [string, string | number][] =>
    d.kind === "const" && d.name !== "LATEST_PROTOCOL_VERSION" && !codes.has(d.name) ? [[d.name, d.value]] : [],
  );
  return {
    ...(latest?.kind === "const" ? { protocolVersion: String(latest.value) } : {}),
    methods: sortedRecord(methods),
    types: sortedRecord(types),
    errorCodes: sortedRecord(facts.errorCodes.map((e): [string, number] => [e.constant, e.code])),
    metaKeys: sortedRecord(facts.metaKeys.map((k): [string, { required: boolean }] => [k.key, { required: required.has(k.key) }])),
    capabilities: sortedRecord(capabilities(model)),
    resultTypes: [...facts.resultTypes].sort(),
    constants: sortedRecord(constants),
    checkedTexts: true,
    deprecated: deprecations(model),
  };
}

/** Whether `docs` hold `@deprecated`. */
const isDeprecated = (docs: Docs | undefined) => docs?.tags.some((t) => t.name === "deprecated") === true;

/** {@link ProtocolSnapshot.deprecated} of `model`: declarations, their own properties, and members of inline object types under them. */
function deprecations(model: Model): string[] {
  const found: string[] = [];
  // An array's elements are named `path[]`; a union's or an intersection's object members, and a tuple's elements, by the path itself.
  const members = (path: string, type: TypeExpr): void => {
    if (type.kind === "array") return members(`${path}[]`, type.element);
    if (type.kind === "union" || type.kind === "intersection") return type.members.forEach((m) => members(path, m));
    if (type.kind === "tuple") return type.elements.forEach((e) => members(path, e));
    if (type.kind !== "object") return;
    for (const p of type.properties) {
      if (p.inheritedFrom !== undefined) continue;
      if (isDeprecated(p.docs)) found.push(memberPath(path, memberKey(p.name)));
      members(memberPath(path, memberKey(p.name)), p.type);
    }
  };
  for (const decl of model.ir.declarations) {
    if (isDeprecated(decl.docs)) found.push(decl.name);
    if (decl.kind !== "const") members(decl.name, decl.type);
  }
  return [...new Set(found)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
