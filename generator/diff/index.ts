/**
 * `diff`: what changed between two schemas in the protocol's terms, from their
 * {@link ProtocolSnapshot}s. The JSON shape ({@link ProtocolDiff}) is stable: nine sections,
 * each with `added`, `removed` and `changed` lists, every list sorted by its key (method,
 * type name, constant, `_meta` key, capability path, value) in code-unit order.
 *
 * `formatDiff` prints it for people, grouped by section; `hasChanges` is what the exit code
 * follows (0 nothing changed, 1 something did).
 */
import { analyze } from "../analyze/index.js";
import { IDENTIFIER } from "../case.js";
import { protocolFacts } from "../analyze/protocol.js";
import type { Diagnostic } from "../ir.js";
import { loadSchema, type SchemaInput } from "../load/index.js";
import { lowerSchema } from "../lower/index.js";
import { ts } from "../ts-morph.js";
import { INDEX_SIGNATURE, literalEnd, memberKey, memberPath, protocolSnapshot, TAGS_OPEN, withoutOwnTags, withoutTags, type MethodSnapshot, type PropertySnapshot, type ProtocolSnapshot, type TypeSnapshot } from "./snapshot.js";

export { protocolSnapshot, type ProtocolSnapshot } from "./snapshot.js";

/**
 * Reads one schema as `generate` does (load, lower, analyze, with the default options and the
 * prose rules its `LATEST_PROTOCOL_VERSION` selects) and returns its snapshot.
 *
 * @throws GeneratorError as `generate` does for a schema it cannot read.
 */
export function schemaSnapshot(input: SchemaInput): { snapshot: ProtocolSnapshot; warnings: Diagnostic[] } {
  const ir = lowerSchema(loadSchema(input), { numberType: "integer" });
  const model = analyze(ir);
  const facts = protocolFacts(model, "auto");
  return { snapshot: protocolSnapshot(model, facts), warnings: [...ir.warnings, ...rulesWarning(model, facts), ...facts.warnings] };
}

/**
 * `MCG260`, as `generate` gives it, when no row of the prose rules is the schema's own: the error codes, `_meta` keys and
 * results those rules add are another revision's (helper-133: diff said nothing, and a schema whose version alone changed
 * lost `RESOURCE_NOT_FOUND` and the task results). Located at `LATEST_PROTOCOL_VERSION`: two sides are read.
 * diff has no `--protocol-rules`, so the note does not offer it.
 */
function rulesWarning(model: ReturnType<typeof analyze>, facts: ReturnType<typeof protocolFacts>): Diagnostic[] {
  // A schema with no LATEST_PROTOCOL_VERSION (one of your own) is read with the newest rules, as is the other side when
  // it has none either: said only for a version the rules do not know, whose rules differ from what a reader expects.
  const latest = model.declarations.get("LATEST_PROTOCOL_VERSION");
  if (facts.rulesNote === undefined || latest === undefined) return [];
  const message = `${facts.rulesNote.message}: the error codes, _meta keys and results those rules name are compared as that revision's`;
  return [{ code: "MCG260", message, span: latest.span }];
}

/** One section of the diff. */
export interface Section<A, C> {
  readonly added: readonly A[];
  readonly removed: readonly A[];
  readonly changed: readonly C[];
}

/** A field of a method row that changed. */
export interface FieldChange {
  readonly field: "kind" | "direction" | "params" | "results";
  readonly from: string;
  readonly to: string;
  /**
   * `params`, when both sides' members are known: how the members changed (`property-added`,
   * `property-removed`, `required`, `property-type`, `constraint`, `index-signature`), empty when
   * only the way the type is written did (an inline type moved into a named one).
   */
  readonly members?: readonly TypeChange[];
  /**
   * `params`, when either side is a union of object shapes ({@link MethodSnapshot.paramsAlternatives})
   * and the other side's members are known: each alternative, compared with the other side's one
   * shape, or with its alternative of the same type text when both are unions.
   */
  readonly alternatives?: readonly AlternativeChange[];
}

/**
 * One alternative of a `params` union. `compared`: its members against the other side's (`members`
 * lists what changed from the older side to the newer); `added`/`removed`: only the newer/older
 * side's union has it.
 */
export type AlternativeChange =
  /** `from`: the alternative's text on the old side, when the one inline alternative a side lost and the one it gained are compared as one. */
  | { readonly alternative: string; readonly change: "compared"; readonly members: readonly TypeChange[]; readonly from?: string }
  | { readonly alternative: string; readonly change: "added" | "removed" };

/**
 * One change inside a type. `from`/`to` are type texts, tag values, or `null` for absent. A
 * property change carries `inheritedFrom` when the property comes through `extends` (the
 * declaration that has it now, or had it when it was removed). A member of an inline object type
 * is named by its path (`annotations.weight`); `alias-constraint` is a tag on an alias's own type.
 * `extends` lists each base written one way (`Omit<JSONRPCErrorResponse, "error" | "id">`, its
 * keys sorted), in the order the source has them; bases in another order are no change.
 */
export type TypeChange =
  | { readonly change: "kind"; readonly from: string; readonly to: string }
  | { readonly change: "extends"; readonly from: readonly string[]; readonly to: readonly string[] }
  | { readonly change: "alias-type"; readonly from: string; readonly to: string }
  | { readonly change: "index-signature"; readonly from: string | null; readonly to: string | null; readonly property?: string; readonly inheritedFrom?: string }
  | { readonly change: "property-added"; readonly property: string; readonly optional: boolean; readonly type: string; readonly inheritedFrom?: string }
  | { readonly change: "property-removed"; readonly property: string; readonly inheritedFrom?: string }
  | { readonly change: "required"; readonly property: string; readonly from: "optional" | "required"; readonly to: "optional" | "required"; readonly inheritedFrom?: string }
  | {
      readonly change: "property-type";
      readonly property: string;
      readonly from: string;
      readonly to: string;
      /** Set when one side is an inline object and the other a named interface with the same members. */
      readonly sameMembers?: true;
      /** Set when one side is an inline object and the other a named interface with other members: the changes after it list them, each by its path. */
      readonly membersListed?: true;
      readonly inheritedFrom?: string;
    }
  | {
      readonly change: "constraint";
      readonly property: string;
      readonly tag: string;
      readonly from: string | number | null;
      readonly to: string | number | null;
      readonly inheritedFrom?: string;
    }
  | { readonly change: "alias-constraint"; readonly tag: string; readonly from: string | number | null; readonly to: string | number | null };

/** The whole diff; see the module comment. */
export interface ProtocolDiff {
  readonly methods: Section<{ readonly method: string } & MethodSnapshot, { readonly method: string; readonly changes: readonly FieldChange[] }>;
  /**
   * An added type carries `sameAs` when one removed type, and no other added one, is the same
   * declaration under another name (its kind, bases, members and tags): likely a rename.
   */
  readonly types: Section<{ readonly name: string; readonly kind: string; readonly sameAs?: string }, { readonly name: string; readonly changes: readonly TypeChange[] }>;
  readonly errorCodes: Section<{ readonly constant: string; readonly code: number }, { readonly constant: string; readonly from: number; readonly to: number }>;
  readonly metaKeys: Section<{ readonly key: string; readonly required: boolean }, { readonly key: string; readonly from: "optional" | "required"; readonly to: "optional" | "required" }>;
  readonly capabilities: Section<{ readonly path: string; readonly type: string }, { readonly path: string; readonly from: string; readonly to: string }>;
  readonly resultTypes: Section<string, never>;
  readonly protocolVersion: Section<string, { readonly from: string; readonly to: string }>;
  /** Constants other than error codes and `LATEST_PROTOCOL_VERSION` (`JSONRPC_VERSION`); empty when a side's snapshot does not record them. */
  readonly constants: Section<{ readonly constant: string; readonly value: string | number }, { readonly constant: string; readonly from: string | number; readonly to: string | number }>;
  /** What `@deprecated` marks ({@link ProtocolSnapshot.deprecated}): newly marked are `added`; empty when a side's snapshot does not record them. */
  readonly deprecated: Section<string, never>;
}

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Keys of two records: only in `to`, only in `from`, in both; each sorted. */
function keys<T>(from: Readonly<Record<string, T>>, to: Readonly<Record<string, T>>): { added: string[]; removed: string[]; both: string[] } {
  const a = new Set(Object.keys(from));
  const b = new Set(Object.keys(to));
  return {
    added: [...b].filter((k) => !a.has(k)).sort(byCodeUnits),
    removed: [...a].filter((k) => !b.has(k)).sort(byCodeUnits),
    both: [...a].filter((k) => b.has(k)).sort(byCodeUnits),
  };
}

function own<T>(record: Readonly<Record<string, T>>, key: string): T {
  return Object.getOwnPropertyDescriptor(record, key)!.value as T;
}

const requiredness = (optional: boolean) => (optional ? "optional" : "required");

/**
 * What a comparison reads besides the two types: the members of a named interface on each side
 * (its own, inherited and index signature), by the name written in a type text; and whether both
 * snapshots record what this generator records (`complete`: the checked texts, alias tags and
 * `@TJS-type`, {@link ProtocolSnapshot.checkedTexts}), so that what one side does not record is not
 * read as a change.
 */
interface NamedMembers {
  readonly from: (text: string) => Readonly<Record<string, PropertySnapshot>> | undefined;
  readonly to: (text: string) => Readonly<Record<string, PropertySnapshot>> | undefined;
  readonly complete: boolean;
}

/** A type text and its checked text ({@link checkedText}), of a property, an alias or an index signature. */
interface Typed {
  readonly type: string;
  readonly checked?: string | undefined;
}

/**
 * Whether `snapshot` records checked texts: it says so ({@link ProtocolSnapshot.checkedTexts}), or,
 * written before it said so, holds one (a `checked` or `indexChecked` text beside its `constants`;
 * helper-93: such manifests were read as not recording them).
 */
function recordsCheckedTexts(snapshot: ProtocolSnapshot): boolean {
  if (snapshot.checkedTexts === true) return true;
  if (snapshot.constants === undefined) return false;
  // A key `checked` whose value is a text is a checked text; a property named `checked` has a record as its value.
  const holds = (value: unknown): boolean =>
    typeof value === "object" && value !== null && Object.entries(value).some(([k, v]) => ((k === "checked" || k === "indexChecked") && typeof v === "string") || holds(v));
  return holds(snapshot.types) || holds(snapshot.methods);
}

/** Whether two types are one type, their tags aside: the same checked text without its tags (union order is no change), or, in a snapshot without checked texts, the same text up to the order of a top-level union. */
function typesMatch(a: Typed, b: Typed, named: NamedMembers | undefined): boolean {
  return named?.complete === true ? membersInOrder(withoutTags(a.checked ?? a.type)) === membersInOrder(withoutTags(b.checked ?? b.type)) : sameType(a.type, b.type);
}

/** Whether two types check the same values: the same checked text (always, in a snapshot without them). */
function checksMatch(a: Typed, b: Typed, named: NamedMembers | undefined): boolean {
  return named?.complete !== true || membersInOrder(a.checked ?? a.type) === membersInOrder(b.checked ?? b.type);
}

/**
 * A checked text with the members of each inline object type in code-unit order, at any depth (in an array's element, a
 * union or intersection member, a tuple's element, an index signature), and each union's members sorted again after,
 * once each: what is compared, never shown (helper-124: `{ a: string; b: number; }[]` against `{ b: number; a: string; }[]`
 * was a change, though an inline object type's members in another order are none where it is a property's whole type).
 * Only moves parts of the text around; a text it does not read as a type is returned as it is.
 */
function membersInOrder(text: string): string {
  const union = splitTop(text, " | ");
  if (union.length > 1) return [...new Set(union.map(membersInOrder))].sort(byCodeUnits).join(" | ");
  const intersection = splitTop(text, " & ");
  if (intersection.length > 1) return intersection.map(membersInOrder).join(" & ");
  const parenthesized = text.startsWith("(") && closingOf(text, 0) === text.length - 1;
  if (parenthesized) return `(${membersInOrder(text.slice(1, -1))})`;
  const tags = withoutOwnTags(text);
  if (tags !== text) return `${membersInOrder(tags)}${text.slice(tags.length)}`;
  if (text.endsWith("[]")) return `${membersInOrder(text.slice(0, -2))}[]`;
  if (text.startsWith("[") && closingOf(text, 0) === text.length - 1) return `[${splitTop(text.slice(1, -1), ", ").map(membersInOrder).join(", ")}]`;
  if (text.startsWith("{ ") && text.endsWith(" }") && closingOf(text, 0) === text.length - 1) {
    const members = splitTop(text.slice(2, -2), "; ").map((m) => (m.endsWith(";") ? m.slice(0, -1) : m));
    const typed = members.map((m) => {
      const colon = splitTop(m, ": ");
      return colon.length < 2 ? m : `${colon[0]}: ${membersInOrder(colon.slice(1).join(": "))}`;
    });
    return `{ ${typed.sort(byCodeUnits).map((m) => `${m};`).join(" ")} }`;
  }
  return text;
}

/** `text` split at each `separator` outside brackets (type arguments' included) and string literal types. */
function splitTop(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') i = literalEnd(text, i);
    else if (c === "{" || c === "[" || c === "(" || c === "<") depth++;
    else if (c === "}" || c === "]" || c === ")" || c === ">") depth--;
    else if (depth === 0 && text.startsWith(separator, i)) {
      parts.push(text.slice(start, i));
      start = i + separator.length;
      i += separator.length - 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** Where the bracket at `text[start]` is closed (brackets inside string literal types skipped), or -1. */
function closingOf(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '"') i = literalEnd(text, i);
    else if (c === "{" || c === "[" || c === "(") depth++;
    else if ((c === "}" || c === "]" || c === ")") && --depth === 0) return i;
  }
  return -1;
}

/** The texts a type change shows: the checked ones when either holds tags (a tag inside changed with the type), else as written. */
function shownTypes(a: Typed, b: Typed, named: NamedMembers | undefined): { from: string; to: string } {
  const tagged = named?.complete === true && [a.checked, b.checked].some((t) => t?.includes(TAGS_OPEN));
  return tagged ? { from: a.checked ?? a.type, to: b.checked ?? b.type } : { from: a.type, to: b.type };
}

/**
 * The text a type added or removed whole shows (a property added, an index signature added or
 * removed): its checked text when that holds tags, so that a tag on it is said (helper-121: `+ n: number`
 * for an `n` at most 3; an inline type listed member by member no longer wrote them anywhere); else as written.
 */
function shownType(t: Typed, named: NamedMembers | undefined): string {
  return named?.complete === true && t.checked?.includes(TAGS_OPEN) === true ? t.checked : t.type;
}

/**
 * {@link NamedMembers} of a snapshot: an interface's members, when its inherited ones are recorded, or
 * an alias's of an inline object type (`MetaObject = Record<string, unknown>`), as {@link objectMembers}
 * reads them: an index signature with its checked text (helper-121: without it, an inline index
 * signature and a named one with a tag were said to have the same members).
 */
function namedMembers(snapshot: ProtocolSnapshot): (text: string) => Readonly<Record<string, PropertySnapshot>> | undefined {
  return (text) => {
    const type = Object.hasOwn(snapshot.types, text) ? own(snapshot.types, text) : undefined;
    return type === undefined ? undefined : objectMembers(type);
  };
}

function propertyChanges(name: string, from: PropertySnapshot, to: PropertySnapshot, named: NamedMembers | undefined): TypeChange[] {
  const changes: TypeChange[] = [];
  if (from.optional !== to.optional) changes.push({ change: "required", property: name, from: requiredness(from.optional), to: requiredness(to.optional) });
  const oneType = typesMatch(from, to, named);
  // An inline object type on both sides that changed: its members' changes, each named by its path (`inputSchema.$schema`).
  // Both inline with the same members (in another order: helper-121, that was `{…} → {…} (the same members)`): no change.
  const bothInline = from.members !== undefined && to.members !== undefined;
  const inlineChanges = !oneType && bothInline ? nestedChanges(name, from.members!, to.members!, named) : [];
  if (!oneType && !bothInline) {
    // An inline object moved into a named interface (or back) with the same members: the type is only written another way.
    const [a, b] = [from.members ?? named?.from(from.type), to.members ?? named?.to(to.type)];
    const written = from.members !== undefined || to.members !== undefined;
    // With other members: those changes, each by its path, after the type written another way (as `params` are listed).
    const compared = written && a !== undefined && b !== undefined ? nestedChanges(name, a, b, named) : undefined;
    const same = compared?.length === 0;
    const texts = compared !== undefined ? { from: from.type, to: to.type } : shownTypes(from, to, named);
    const flag = compared === undefined ? {} : same ? { sameMembers: true as const } : { membersListed: true as const };
    changes.push({ change: "property-type", property: name, ...texts, ...flag }, ...(compared ?? []));
  }
  changes.push(...inlineChanges);
  const before = changes.length;
  for (const c of constraintChanges(from.constraints, to.constraints, named)) changes.push({ change: "constraint", property: name, ...c });
  const ownTagsChanged = changes.length > before;
  // The same inline object type on both sides: what its text does not show (its members' tags) may differ.
  const nested = oneType && from.members !== undefined && to.members !== undefined ? nestedChanges(name, from.members, to.members, named) : [];
  changes.push(...nested);
  // Anything else the validators check differently (a tag in an array's element, a union member, an index signature): the checked
  // texts, with the property's own tags aside when their change was named (helper-91: a tag inside changing with them went unsaid).
  const inner = (t: Typed): Typed => (ownTagsChanged ? ownTagsAside(t) : t);
  if (oneType && nested.length === 0 && !checksMatch(inner(from), inner(to), named)) changes.push({ change: "property-type", property: name, from: from.checked ?? from.type, to: to.checked ?? to.type });
  return changes;
}

/** The changes of the members of an inline object type named `path`, each named by its path (`annotations.weight`). */
function nestedChanges(
  path: string,
  from: Readonly<Record<string, PropertySnapshot>>,
  to: Readonly<Record<string, PropertySnapshot>>,
  named: NamedMembers | undefined,
): TypeChange[] {
  return memberChanges(from, to, INDEX_SIGNATURE, named).map((change): TypeChange => {
    if ("property" in change && change.property !== undefined) return { ...change, property: `${path}.${change.property}` };
    // The index signature of the inline type itself: named by the type's path.
    return change.change === "index-signature" ? { ...change, property: path } : change;
  });
}

/** The tags whose values differ between two sets of constraint tags, by tag name; `null` for absent (`@TJS-type` only where both snapshots record it). */
function constraintChanges(
  from: Readonly<Record<string, string | number>> | undefined,
  to: Readonly<Record<string, string | number>> | undefined,
  named: NamedMembers | undefined,
): { tag: string; from: string | number | null; to: string | number | null }[] {
  const tags = keys(from ?? {}, to ?? {});
  return [...tags.added, ...tags.removed, ...tags.both]
    .filter((tag) => named?.complete === true || tag !== "TJS-type")
    .sort(byCodeUnits)
    .map((tag) => ({ tag, from: from?.[tag] ?? null, to: to?.[tag] ?? null }))
    .filter((c) => c.from !== c.to);
}

/**
 * One entry of an `extends` list as the source wrote it, written one way: no line breaks or spaces
 * but one after each comma and around each `|` (`Omit<\n  A,\n  "error"\n>` is `Omit<A, "error">`),
 * string literals in double quotes, and each type argument's union members sorted
 * (`Omit<A, "id" | "error">` is `Omit<A, "error" | "id">`: the same keys). Two entries that name
 * one base with the same keys have one text; `diff` compares these, and shows them.
 */
function heritageText(text: string): string {
  return typeTokensText(typeTokens(text));
}

/** A type's text from its tokens ({@link typeTokens}): `Name<Arg, …>` with each argument's union sorted, anything else its tokens spaced. */
function typeTokensText(tokens: readonly string[]): string {
  const open = tokens.indexOf("<");
  if (open < 1 || tokens.at(-1) !== ">" || !tokens.slice(0, open).every((t) => /^[\w$.]+$/.test(t))) return tokens.join(" ");
  // A trailing comma or a leading `|` leaves an empty part: nothing is written there.
  const args = splitTokens(tokens.slice(open + 1, -1), ",").filter((arg) => arg.length > 0);
  const union = (arg: string[]) =>
    splitTokens(arg, "|")
      .filter((member) => member.length > 0)
      .map(typeTokensText)
      .sort(byCodeUnits)
      .join(" | ");
  return `${tokens.slice(0, open).join("")}<${args.map(union).join(", ")}>`;
}

/**
 * The tokens of a type's source text, as TypeScript's scanner reads them (whitespace and comments
 * left out: helper-116, a comment in an `extends` clause was read as part of it): string literals in
 * double quotes, as JSON writes them, whichever quote the source used; each other token as written.
 */
function typeTokens(text: string): string[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, text);
  const tokens: string[] = [];
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    const literal = kind === ts.SyntaxKind.StringLiteral || kind === ts.SyntaxKind.NoSubstitutionTemplateLiteral;
    tokens.push(literal ? JSON.stringify(scanner.getTokenValue()) : scanner.getTokenText());
  }
  return tokens;
}

/** `tokens` split at each `separator` outside brackets. */
function splitTokens(tokens: readonly string[], separator: string): string[][] {
  const parts: string[][] = [[]];
  let depth = 0;
  for (const token of tokens) {
    if (depth === 0 && token === separator) {
      parts.push([]);
      continue;
    }
    if (token === "<" || token === "(" || token === "[" || token === "{") depth++;
    else if (token === ">" || token === ")" || token === "]" || token === "}") depth--;
    parts.at(-1)!.push(token);
  }
  return parts;
}

/** The interfaces `name` extends, directly or through others, in `snapshot` (by the names its `extends` lists). */
function ancestors(snapshot: ProtocolSnapshot, name: string, found = new Set<string>()): Set<string> {
  const type = Object.hasOwn(snapshot.types, name) ? own(snapshot.types, name) : undefined;
  for (const base of type?.extends ?? []) {
    if (found.has(base)) continue;
    found.add(base);
    ancestors(snapshot, base, found);
  }
  return found;
}

/**
 * Whether `alias` and `iface` (a type of `ifaceSide`) are one type written two ways: `type X = Y`
 * and `interface X extends Y {}` (no member, index signature or tag of its own: an index signature
 * is the one it inherits from Y, as upstream's `Result` has), which check the same values.
 */
function renamesItsBase(alias: TypeSnapshot, iface: TypeSnapshot, ifaceSide: ProtocolSnapshot): boolean {
  if (alias.kind !== "alias" || iface.kind !== "interface" || alias.type === undefined || !/^[A-Za-z_$][\w$]*$/.test(alias.type)) return false;
  if ((alias.checked !== undefined && alias.checked !== alias.type) || Object.keys(alias.constraints ?? {}).length > 0) return false;
  if (iface.extends?.length !== 1 || iface.extends[0] !== alias.type || Object.keys(iface.properties ?? {}).length > 0) return false;
  const base = Object.hasOwn(ifaceSide.types, alias.type) ? own(ifaceSide.types, alias.type) : undefined;
  return iface.indexSignature === undefined || (iface.indexSignature === base?.indexSignature && iface.indexChecked === base?.indexChecked);
}

/**
 * The members of an interface (its own, inherited and index signature, when its inherited ones are
 * recorded) or of an alias of an inline object type, by name; `undefined` for anything else.
 */
function objectMembers(type: TypeSnapshot): Readonly<Record<string, PropertySnapshot>> | undefined {
  if (type.kind === "alias") return type.members;
  if (type.inherited === undefined) return undefined;
  const index: [string, PropertySnapshot][] =
    type.indexSignature === undefined ? [] : [[INDEX_SIGNATURE, { optional: true, type: type.indexSignature, ...(type.indexChecked === undefined ? {} : { checked: type.indexChecked }) }]];
  // Built by fromEntries: a property named `__proto__` stays a key; each keyed as {@link memberKey} writes it, apart from the index signature.
  const properties = [...Object.entries(type.inherited), ...Object.entries(type.properties ?? {})].map(([name, p]): [string, PropertySnapshot] => [memberKey(name), p]);
  return Object.fromEntries([...properties, ...index]);
}

/** Members ({@link objectMembers}) as one inline object type's text, in code-unit order: `{ a: string; b?: number; [key: string]: unknown; }`. */
function membersText(members: Readonly<Record<string, PropertySnapshot>>, named: NamedMembers): string {
  const entries = Object.keys(members)
    .sort(byCodeUnits)
    .map((key) => {
      const p = own(members, key);
      // As TypeScript writes a key: quoted unless an identifier ({@link memberKey} has quoted the ones that start with a quote).
      const written = key.startsWith('"') || IDENTIFIER.test(key) ? key : JSON.stringify(key);
      return key === INDEX_SIGNATURE ? `${key}: ${shownType(p, named)};` : `${written}${p.optional ? "?" : ""}: ${shownType(p, named)};`;
    });
  return entries.length === 0 ? "{}" : `{ ${entries.join(" ")} }`;
}

/**
 * A type's ancestors on each side, and, for a property only one side has, whether the declaration it comes from is an
 * ancestor there of a base the type has on both sides: `PaginatedRequest`'s new base `JSONRPCRequest` brings `id` to
 * `ListToolsRequest` too, a change said at `PaginatedRequest` (its `extends`), not again below it.
 */
interface Bases {
  readonly from: ReadonlySet<string>;
  readonly to: ReadonlySet<string>;
  readonly throughKept: { readonly from: (origin: string) => boolean; readonly to: (origin: string) => boolean };
}

/** The {@link Bases} of `name`. */
function basesOf(name: string, from: ProtocolSnapshot, to: ProtocolSnapshot): Bases {
  const [a, b] = [ancestors(from, name), ancestors(to, name)];
  const kept = [...a].filter((base) => b.has(base));
  const through = (snapshot: ProtocolSnapshot) => (origin: string) => kept.some((base) => base !== origin && ancestors(snapshot, base).has(origin));
  return { from: a, to: b, throughKept: { from: through(from), to: through(to) } };
}

function typeChanges(from: TypeSnapshot, to: TypeSnapshot, bases: Bases, named: NamedMembers): TypeChange[] {
  if (from.kind !== to.kind) {
    // An alias of an inline object type and an interface (`type V = Omit<Z, "a">` lowered, `interface V extends Omit<Z, "a"> {}`):
    // the same members are one type written two ways; other members are listed below the kind.
    const kind: TypeChange = { change: "kind", from: from.kind, to: to.kind };
    // An alias that names an interface (`type A = B`) has that interface's members (helper-124: made `interface A extends B`
    // with a member of its own, only the kind change was said).
    const members = (t: TypeSnapshot, side: (text: string) => Readonly<Record<string, PropertySnapshot>> | undefined) =>
      objectMembers(t) ?? (t.kind === "alias" && t.type !== undefined && (t.checked === undefined || t.checked === t.type) ? side(t.type) : undefined);
    const [a, b] = [members(from, named.from), members(to, named.to)];
    if (!named.complete) return [kind];
    if (a === undefined || b === undefined) {
      // An alias of a type that is no object (a union, `string`): the kind alone said nothing of the values (helper-133:
      // 2025-11-25's JSONRPCResponse and EnumSchema became unions). Both types written out, the interface as its members.
      const text = (t: TypeSnapshot, m: Readonly<Record<string, PropertySnapshot>> | undefined) =>
        t.kind === "alias" ? shownType({ type: t.type ?? "", checked: t.checked }, named) : m === undefined ? undefined : membersText(m, named);
      const [ta, tb] = [text(from, a), text(to, b)];
      return ta === undefined || tb === undefined ? [kind] : [kind, { change: "alias-type", from: ta, to: tb }];
    }
    const changed = memberChanges(a, b, INDEX_SIGNATURE, named);
    return changed.length === 0 ? [] : [kind, ...changed];
  }
  if (from.kind === "alias") {
    const [a, b] = [{ type: from.type ?? "", checked: from.checked }, { type: to.type ?? "", checked: to.checked }];
    // An alias of an inline object type on both sides: its members' changes, as a property's inline type's (none for the members in another order).
    const bothInline = named.complete && from.members !== undefined && to.members !== undefined;
    const same = typesMatch(a, b, named) || bothInline;
    const changes: TypeChange[] = same ? [] : [{ change: "alias-type", ...shownTypes(a, b, named) }];
    // An alias's own tags and its members are recorded since this snapshot's checked texts.
    if (!named.complete) return changes;
    for (const c of constraintChanges(from.constraints, to.constraints, named)) changes.push({ change: "alias-constraint", ...c });
    if (same && from.members !== undefined && to.members !== undefined) changes.push(...memberChanges(from.members, to.members, INDEX_SIGNATURE, named));
    // The checked texts, with the alias's own tags aside when their change was named: a tag inside that changed with them.
    const membersChanged = changes.some((c) => c.change !== "alias-constraint");
    if (same && !bothInline && !membersChanged && !checksMatch(changes.length === 0 ? a : ownTagsAside(a), changes.length === 0 ? b : ownTagsAside(b), named)) {
      changes.push({ change: "alias-type", from: a.checked ?? a.type, to: b.checked ?? b.type });
    }
    return changes;
  }
  const changes: TypeChange[] = [];
  // Compared as the protocol reads them: the bases in any order, each as {@link heritageText} writes it.
  const [ea, eb] = [(from.extends ?? []).map(heritageText), (to.extends ?? []).map(heritageText)];
  if ([...ea].sort(byCodeUnits).join("\n") !== [...eb].sort(byCodeUnits).join("\n")) changes.push({ change: "extends", from: ea, to: eb });
  if (from.indexSignature === undefined || to.indexSignature === undefined) {
    const shown = (type: string | undefined, checked: string | undefined) => (type === undefined ? null : shownType({ type, checked }, named));
    if (from.indexSignature !== to.indexSignature) changes.push({ change: "index-signature", from: shown(from.indexSignature, from.indexChecked), to: shown(to.indexSignature, to.indexChecked) });
  } else {
    const [a, b] = [{ type: from.indexSignature, checked: from.indexChecked }, { type: to.indexSignature, checked: to.indexChecked }];
    if (!typesMatch(a, b, named) || !checksMatch(a, b, named)) changes.push({ change: "index-signature", ...shownTypes(a, b, named) });
  }
  if (from.inherited === undefined || to.inherited === undefined) {
    // A manifest from before inherited properties were recorded: own properties only.
    changes.push(...memberChanges(byMemberKey(from.properties ?? {}), byMemberKey(to.properties ?? {}), undefined, named));
    return changes;
  }
  // Every property, inherited ones included. One that a base of the type on both sides declares (on both
  // sides, or on the one side that has it) changed there, and is compared there.
  const all = (t: TypeSnapshot): Record<string, PropertySnapshot & { readonly from?: string }> => byMemberKey({ ...t.inherited, ...t.properties });
  const [pa, pb] = [all(from), all(to)];
  const atBase = (name: string) => {
    const [a, b] = [Object.hasOwn(pa, name) ? own(pa, name) : undefined, Object.hasOwn(pb, name) ? own(pb, name) : undefined];
    const stayed = (origin: string | undefined) => origin !== undefined && bases.from.has(origin) && bases.to.has(origin);
    if (a !== undefined && b !== undefined) return a.from !== undefined && a.from === b.from;
    const origin = (a ?? b)?.from;
    return stayed(origin) || (origin !== undefined && (a === undefined ? bases.throughKept.to(origin) : bases.throughKept.from(origin)));
  };
  const kept = (record: Readonly<Record<string, PropertySnapshot & { readonly from?: string }>>) => Object.fromEntries(Object.entries(record).filter(([name]) => !atBase(name)));
  const [ka, kb] = [kept(pa), kept(pb)];
  // Property by property, so that a member of an inline type is attributed to its own property, not to another whose
  // name holds a dot (helper-121: `a.b` of `a: { b }` was said inherited from the base declaring a property `"a.b"`).
  const names = [...new Set([...Object.keys(ka), ...Object.keys(kb)])].sort(byCodeUnits);
  for (const name of names) {
    const one = (record: typeof ka) => (Object.hasOwn(record, name) ? { [name]: own(record, name) } : {});
    // Built with a computed key: a property named `__proto__` stays a key.
    for (const change of memberChanges(one(ka), one(kb), undefined, named)) {
      // The declaration that has it now, or had it when it was removed (a member of an inline type: its property's).
      const origin = (Object.hasOwn(kb, name) ? own(kb, name) : own(ka, name)).from;
      changes.push(origin === undefined || !("property" in change) || change.property === undefined ? change : { ...change, inheritedFrom: origin });
    }
  }
  return changes;
}

/**
 * A record of properties by name keyed as {@link memberKey} writes them, as an inline type's members and `params` are, so
 * that a path names one member (helper-146: a type's own property `"x.y"`, quotes included, was `"x.y"` in paths, as the
 * property `x.y` is). Built by fromEntries: a property named `__proto__` stays a key.
 */
function byMemberKey<P>(properties: Readonly<Record<string, P>>): Record<string, P> {
  return Object.fromEntries(Object.entries(properties).map(([name, p]) => [memberKey(name), p]));
}

/** How two records of properties differ, by property name; the entry named `indexKey` (when given) is an index signature. */
function memberChanges(
  pa: Readonly<Record<string, PropertySnapshot>>,
  pb: Readonly<Record<string, PropertySnapshot>>,
  indexKey: string | undefined,
  named: NamedMembers | undefined,
): TypeChange[] {
  const changes: TypeChange[] = [];
  const k = keys(pa, pb);
  const perProperty = new Map<string, TypeChange[]>();
  for (const p of k.added) {
    const prop = own(pb, p);
    perProperty.set(p, [p === indexKey ? { change: "index-signature", from: null, to: shownType(prop, named) } : { change: "property-added", property: memberPath(undefined, p), optional: prop.optional, type: shownType(prop, named) }]);
  }
  for (const p of k.removed) perProperty.set(p, [p === indexKey ? { change: "index-signature", from: shownType(own(pa, p), named), to: null } : { change: "property-removed", property: memberPath(undefined, p) }]);
  for (const p of k.both) {
    const [a, b] = [own(pa, p), own(pb, p)];
    const index = (): TypeChange[] => (typesMatch(a, b, named) && checksMatch(a, b, named) ? [] : [{ change: "index-signature", ...shownTypes(a, b, named) }]);
    perProperty.set(p, p === indexKey ? index() : propertyChanges(memberPath(undefined, p), a, b, named));
  }
  for (const p of [...perProperty.keys()].sort(byCodeUnits)) changes.push(...perProperty.get(p)!);
  return changes;
}

/** How a `params` union's alternatives differ from the other side's (see {@link FieldChange.alternatives}), or `undefined`. */
function alternativeChanges(a: MethodSnapshot, b: MethodSnapshot, named: NamedMembers): AlternativeChange[] | undefined {
  const compare = (alternative: string, from: Readonly<Record<string, PropertySnapshot>>, to: Readonly<Record<string, PropertySnapshot>>, was?: string): AlternativeChange => ({
    alternative,
    change: "compared",
    members: memberChanges(from, to, INDEX_SIGNATURE, named),
    ...(was === undefined ? {} : { from: was }),
  });
  const [before, after] = [a.paramsAlternatives, b.paramsAlternatives];
  if (before === undefined && after !== undefined && a.paramsMembers !== undefined) {
    return Object.entries(after).map(([alternative, members]) => compare(alternative, a.paramsMembers!, members));
  }
  if (before !== undefined && after === undefined && b.paramsMembers !== undefined) {
    return Object.entries(before).map(([alternative, members]) => compare(alternative, members, b.paramsMembers!));
  }
  if (before === undefined || after === undefined) return undefined;
  const k = keys(before, after);
  // One inline alternative gone and one come (`{ a } | B` → `{ a; b } | B`): the same alternative changed, compared member by member.
  const inline = (list: readonly string[]) => list.filter((alternative) => alternative.startsWith("{"));
  const [lost, gained] = [inline(k.removed), inline(k.added)];
  const paired = lost.length === 1 && gained.length === 1 ? { from: lost[0]!, to: gained[0]! } : undefined;
  const changes: AlternativeChange[] = [
    ...k.added.filter((x) => x !== paired?.to).map((alternative): AlternativeChange => ({ alternative, change: "added" })),
    ...k.removed.filter((x) => x !== paired?.from).map((alternative): AlternativeChange => ({ alternative, change: "removed" })),
    ...k.both.map((alternative) => compare(alternative, own(before, alternative), own(after, alternative))),
    ...(paired === undefined ? [] : [compare(paired.to, own(before, paired.from), own(after, paired.to), paired.from)]),
  ];
  return changes.sort((x, y) => byCodeUnits(x.alternative, y.alternative));
}

/**
 * Each added type that is the same declaration as exactly one removed type (and that removed type
 * as exactly one added): the added type's name → the removed one's. The same snapshot record, an
 * inherited property's origin included, is the same declaration.
 */
function sameDeclarations(removed: readonly string[], from: ProtocolSnapshot, added: readonly string[], to: ProtocolSnapshot): Map<string, string> {
  const byText = (names: readonly string[], snapshot: ProtocolSnapshot) => {
    const found = new Map<string, string[]>();
    for (const name of names) {
      const text = JSON.stringify(own(snapshot.types, name));
      found.set(text, [...(found.get(text) ?? []), name]);
    }
    return found;
  };
  const [gone, come] = [byText(removed, from), byText(added, to)];
  const pairs = new Map<string, string>();
  for (const [text, names] of come) {
    const was = gone.get(text);
    if (names.length === 1 && was?.length === 1) pairs.set(names[0]!, was[0]!);
  }
  return pairs;
}

/** What changed from `from` to `to`. */
export function diffSnapshots(from: ProtocolSnapshot, to: ProtocolSnapshot): ProtocolDiff {
  const named: NamedMembers = { from: namedMembers(from), to: namedMembers(to), complete: recordsCheckedTexts(from) && recordsCheckedTexts(to) };
  const m = keys(from.methods, to.methods);
  const methodRow = (record: Readonly<Record<string, MethodSnapshot>>, method: string) => ({ method, ...own(record, method) });
  const methodChanges = m.both.flatMap((method) => {
    const [a, b] = [own(from.methods, method), own(to.methods, method)];
    const changes: FieldChange[] = [];
    for (const field of ["kind", "direction"] as const) if (a[field] !== b[field]) changes.push({ field, from: a[field], to: b[field] });
    // Unions in one order at any depth where both snapshots record checked texts; else up to a top-level union's order.
    const sameParamsType = named.complete ? withoutTags(a.paramsChecked ?? a.params) === withoutTags(b.paramsChecked ?? b.params) : sameParams(a.params, b.params);
    const members = a.paramsMembers !== undefined && b.paramsMembers !== undefined ? { members: memberChanges(a.paramsMembers, b.paramsMembers, INDEX_SIGNATURE, named) } : {};
    // Inline on both sides (optional on both or neither) with the same members: only their order changed, no change (helper-121).
    const inline = (p: MethodSnapshot) => p.params.startsWith("{") && closingOf(p.params, 0) === p.params.length - (p.params.endsWith("?") ? 2 : 1);
    const reordered = named.complete && inline(a) && inline(b) && a.params.endsWith("?") === b.params.endsWith("?") && members.members?.length === 0;
    if (!sameParamsType && !reordered) {
      const alternatives = alternativeChanges(a, b, named);
      changes.push({ field: "params", from: a.params, to: b.params, ...members, ...(alternatives === undefined ? {} : { alternatives }) });
    } else if (sameParamsType) {
      // The same type whose members changed through a base (2026-07-28's required _meta, from RequestParams): said at each
      // method, as where the type's name changed; under types only the base shows it, and tools/call read as unchanged.
      // A union of that name is compared alternative by alternative, as where the name changed (elicitation/create's
      // ElicitRequestParams, whose alternatives lost _meta and task through their base, read as unchanged).
      const alternatives = alternativeChanges(a, b, named);
      const changed = (members.members?.length ?? 0) > 0 || alternatives?.some((x) => x.change !== "compared" || x.members.length > 0) === true;
      if (changed) changes.push({ field: "params", from: a.params, to: b.params, ...members, ...(alternatives === undefined ? {} : { alternatives }) });
    }
    if ([...a.results].sort(byCodeUnits).join(", ") !== [...b.results].sort(byCodeUnits).join(", ")) changes.push({ field: "results", from: a.results.join(", ") || "(none)", to: b.results.join(", ") || "(none)" });
    return changes.length > 0 ? [{ method, changes }] : [];
  });

  const t = keys(from.types, to.types);
  const typeChangeList = t.both.flatMap((name) => {
    const [a, b] = [own(from.types, name), own(to.types, name)];
    if (renamesItsBase(a, b, to) || renamesItsBase(b, a, from)) return [];
    const changes = typeChanges(a, b, basesOf(name, from, to), named);
    return changes.length > 0 ? [{ name, changes }] : [];
  });

  const renames = sameDeclarations(t.removed, from, t.added, to);

  const e = keys(from.errorCodes, to.errorCodes);
  const mk = keys(from.metaKeys, to.metaKeys);
  const c = keys(from.capabilities, to.capabilities);
  const ra = new Set(from.resultTypes);
  const rb = new Set(to.resultTypes);
  const pv = from.protocolVersion;
  const pw = to.protocolVersion;
  // Recorded on both sides, or compared on neither (a manifest written before they were recorded).
  const [ca, cb] = from.constants !== undefined && to.constants !== undefined ? [from.constants, to.constants] : [{}, {}];
  const k = keys(ca, cb);
  const [da, db] = from.deprecated !== undefined && to.deprecated !== undefined ? [new Set(from.deprecated), new Set(to.deprecated)] : [new Set<string>(), new Set<string>()];
  return {
    methods: { added: m.added.map((k) => methodRow(to.methods, k)), removed: m.removed.map((k) => methodRow(from.methods, k)), changed: methodChanges },
    types: {
      added: t.added.map((name) => {
        const sameAs = renames.get(name);
        return { name, kind: own(to.types, name).kind, ...(sameAs === undefined ? {} : { sameAs }) };
      }),
      removed: t.removed.map((name) => ({ name, kind: own(from.types, name).kind })),
      changed: typeChangeList,
    },
    errorCodes: {
      added: e.added.map((constant) => ({ constant, code: own(to.errorCodes, constant) })),
      removed: e.removed.map((constant) => ({ constant, code: own(from.errorCodes, constant) })),
      changed: e.both.filter((k) => own(from.errorCodes, k) !== own(to.errorCodes, k)).map((constant) => ({ constant, from: own(from.errorCodes, constant), to: own(to.errorCodes, constant) })),
    },
    metaKeys: {
      added: mk.added.map((key) => ({ key, required: own(to.metaKeys, key).required })),
      removed: mk.removed.map((key) => ({ key, required: own(from.metaKeys, key).required })),
      changed: mk.both
        .filter((k) => own(from.metaKeys, k).required !== own(to.metaKeys, k).required)
        .map((key) => ({ key, from: requiredness(!own(from.metaKeys, key).required), to: requiredness(!own(to.metaKeys, key).required) })),
    },
    capabilities: {
      added: c.added.map((path) => ({ path, type: own(to.capabilities, path) })),
      removed: c.removed.map((path) => ({ path, type: own(from.capabilities, path) })),
      changed: c.both.filter((k) => own(from.capabilities, k) !== own(to.capabilities, k)).map((path) => ({ path, from: own(from.capabilities, path), to: own(to.capabilities, path) })),
    },
    resultTypes: { added: [...rb].filter((v) => !ra.has(v)).sort(byCodeUnits), removed: [...ra].filter((v) => !rb.has(v)).sort(byCodeUnits), changed: [] },
    protocolVersion: {
      added: pv === undefined && pw !== undefined ? [pw] : [],
      removed: pv !== undefined && pw === undefined ? [pv] : [],
      changed: pv !== undefined && pw !== undefined && pv !== pw ? [{ from: pv, to: pw }] : [],
    },
    constants: {
      added: k.added.map((constant) => ({ constant, value: own(cb, constant) })),
      removed: k.removed.map((constant) => ({ constant, value: own(ca, constant) })),
      changed: k.both.filter((c) => own(ca, c) !== own(cb, c)).map((constant) => ({ constant, from: own(ca, constant), to: own(cb, constant) })),
    },
    deprecated: { added: [...db].filter((v) => !da.has(v)).sort(byCodeUnits), removed: [...da].filter((v) => !db.has(v)).sort(byCodeUnits), changed: [] },
  };
}

/** Whether anything changed. */
export function hasChanges(diff: ProtocolDiff): boolean {
  return Object.values(diff).some((s: Section<unknown, unknown>) => s.added.length + s.removed.length + s.changed.length > 0);
}

const SECTION_TITLES: Record<keyof ProtocolDiff, string> = {
  protocolVersion: "protocol version",
  methods: "methods",
  types: "types",
  errorCodes: "error codes",
  metaKeys: "_meta keys",
  capabilities: "capabilities",
  resultTypes: "resultType values",
  constants: "constants",
  deprecated: "deprecated",
};

function counts(section: Section<unknown, unknown>): string {
  return [
    section.added.length ? `${section.added.length} added` : "",
    section.removed.length ? `${section.removed.length} removed` : "",
    section.changed.length ? `${section.changed.length} changed` : "",
  ]
    .filter(Boolean)
    .join(", ");
}

const show = (v: string | number | null) => (v === null ? "(none)" : String(v));

/** A constraint's tag as a schema writes it: `pattern` is `@TJS-pattern` (the JSON keeps the constraint's name). */
const tagAsWritten = (tag: string) => (tag === "pattern" ? "TJS-pattern" : tag);

function typeChangeLine(change: TypeChange): string {
  const line = typeChangeText(change);
  return "inheritedFrom" in change && change.inheritedFrom !== undefined ? `${line} (inherited from ${change.inheritedFrom})` : line;
}

function typeChangeText(change: TypeChange): string {
  switch (change.change) {
    case "kind":
      return `kind: ${change.from} → ${change.to}`;
    case "extends":
      return `extends: ${change.from.join(", ") || "(nothing)"} → ${change.to.join(", ") || "(nothing)"}`;
    case "alias-type":
      return `type: ${change.from} → ${change.to}`;
    case "index-signature":
      return `${change.property === undefined ? "" : `~ ${change.property}: `}index signature: ${show(change.from)} → ${show(change.to)}`;
    case "property-added":
      return `+ ${change.property}${change.optional ? "?" : ""}: ${change.type}`;
    case "property-removed":
      return `- ${change.property}`;
    case "required":
      return `~ ${change.property}: ${change.from} → ${change.to}`;
    case "property-type":
      if (change.sameMembers) return `~ ${change.property}: ${inlineShort(change.from)} → ${inlineShort(change.to)} (the same members)`;
      return change.membersListed ? `~ ${change.property}: ${inlineShort(change.from)} → ${inlineShort(change.to)}` : `~ ${change.property}: ${change.from} → ${change.to}`;
    case "constraint":
      return `~ ${change.property}: @${tagAsWritten(change.tag)} ${show(change.from)} → ${show(change.to)}`;
    case "alias-constraint":
      return `~ @${tagAsWritten(change.tag)} ${show(change.from)} → ${show(change.to)}`;
  }
}

/**
 * A type text that is one inline object type (`{ uri: string; }`, `{ uri: string; }?`) shortened to
 * `{…}` (`{…}?`); any other text (a union of inline objects, `{ a: string; } | { b: string; }`) as it is.
 */
function inlineShort(text: string): string {
  const end = text.endsWith("?") ? text.length - 1 : text.length;
  return text.startsWith("{") && closingOf(text, 0) === end - 1 ? `{…}${text.slice(end)}` : text;
}

/**
 * Whether two type texts are one type: the same text, or unions of the same members in another
 * order or with one written twice (`A | B`, `B | A` and `A | B | A`; helper-89: a reordered union
 * was reported as changed). Only the top-level union is read so; members are compared as written.
 */
function sameType(a: string, b: string): boolean {
  if (a === b) return true;
  const distinct = (text: string) => [...new Set(unionMembers(text))].sort(byCodeUnits).join("\n");
  return distinct(a) === distinct(b);
}

/** The members of the top-level union a type text is (`A | { b: "x | y"; } | C[]` → three), or the text alone. */
function unionMembers(text: string): string[] {
  return splitTop(text, " | ");
}

/**
 * A type without its own tags, in its checked text: they are the tag comment that ends the text, or,
 * for a union, each of its top-level members' (lowering puts a union's tags on its members, which
 * the checked text sorts by their text without tags, so a tag change keeps the order).
 */
function ownTagsAside(t: Typed): Typed {
  return { type: t.type, checked: t.checked === undefined ? undefined : unionMembers(t.checked).map(withoutOwnTags).join(" | ") };
}

/** Whether two `params` texts are one type: {@link sameType}, also inside the parentheses of optional ones (`(A | B)?`). */
function sameParams(a: string, b: string): boolean {
  const optional = /^\((.*)\)\?$/;
  const [oa, ob] = [optional.exec(a)?.[1], optional.exec(b)?.[1]];
  return oa !== undefined && ob !== undefined ? sameType(oa, ob) : sameType(a, b);
}


/** The lines of a `params` union's alternatives: `+`/`-` for one only a side has, else its member changes (or that it has the same members). */
function alternativeLines(alternatives: readonly AlternativeChange[]): string[] {
  return alternatives.flatMap((a) => {
    if (a.change !== "compared") return [`      ${a.change === "added" ? "+" : "-"} alternative ${a.alternative}`];
    const named = a.from === undefined ? a.alternative : `${a.from} → ${a.alternative}`;
    if (a.members.length === 0) return [`      alternative ${named}: the same members`];
    return [`      alternative ${named}:`, ...a.members.map((change) => `        ${typeChangeLine(change)}`)];
  });
}

/** The diff for people: one block per section that changed, `+` added, `-` removed, `~` changed. */
export function formatDiff(diff: ProtocolDiff): string {
  if (!hasChanges(diff)) return "no protocol changes\n";
  const out: string[] = [];
  for (const key of Object.keys(SECTION_TITLES) as (keyof ProtocolDiff)[]) {
    const section = diff[key] as Section<unknown, unknown>;
    const summary = counts(section);
    if (!summary) continue;
    out.push(`${SECTION_TITLES[key]}: ${summary}`);
    switch (key) {
      case "protocolVersion":
        for (const v of diff.protocolVersion.added) out.push(`  + ${v}`);
        for (const v of diff.protocolVersion.removed) out.push(`  - ${v}`);
        for (const c of diff.protocolVersion.changed) out.push(`  ~ ${c.from} → ${c.to}`);
        break;
      case "methods":
        for (const r of diff.methods.added) {
          out.push(`  + ${r.method} (${r.kind}, ${r.direction}): params ${r.params}${r.results.length ? `; results ${r.results.join(", ")}` : ""}`);
        }
        for (const r of diff.methods.removed) out.push(`  - ${r.method} (${r.kind}, ${r.direction})`);
        for (const c of diff.methods.changed) {
          for (const f of c.changes) {
            if (f.alternatives !== undefined) {
              const named = f.from === f.to ? `${inlineShort(f.from)}, its alternatives` : `${inlineShort(f.from)} → ${inlineShort(f.to)}`;
              out.push(`  ~ ${c.method}: ${f.field} ${named}`, ...alternativeLines(f.alternatives));
              continue;
            }
            if (f.members === undefined) {
              out.push(`  ~ ${c.method}: ${f.field} ${f.from} → ${f.to}`);
              continue;
            }
            // The members say what changed; an inline type's text would only repeat them.
            const shown = f.from === f.to ? `${inlineShort(f.from)}, its members` : `${inlineShort(f.from)} → ${inlineShort(f.to)}${f.members.length === 0 ? " (the same members)" : ""}`;
            out.push(`  ~ ${c.method}: ${f.field} ${shown}`);
            for (const change of f.members) out.push(`      ${typeChangeLine(change)}`);
          }
        }
        break;
      case "types":
        for (const r of diff.types.added) out.push(`  + ${r.name} (${r.kind}${r.sameAs === undefined ? "" : `, the same as removed ${r.sameAs}: a rename?`})`);
        for (const r of diff.types.removed) out.push(`  - ${r.name} (${r.kind})`);
        for (const c of diff.types.changed) {
          out.push(`  ~ ${c.name}`);
          for (const change of c.changes) out.push(`      ${typeChangeLine(change)}`);
        }
        break;
      case "errorCodes":
        for (const r of diff.errorCodes.added) out.push(`  + ${r.constant} ${r.code}`);
        for (const r of diff.errorCodes.removed) out.push(`  - ${r.constant} ${r.code}`);
        for (const c of diff.errorCodes.changed) out.push(`  ~ ${c.constant}: ${c.from} → ${c.to}`);
        break;
      case "metaKeys":
        for (const r of diff.metaKeys.added) out.push(`  + ${r.key}${r.required ? " (required)" : ""}`);
        for (const r of diff.metaKeys.removed) out.push(`  - ${r.key}${r.required ? " (required)" : ""}`);
        for (const c of diff.metaKeys.changed) out.push(`  ~ ${c.key}: ${c.from} → ${c.to}`);
        break;
      case "capabilities":
        for (const r of diff.capabilities.added) out.push(`  + ${r.path}: ${r.type}`);
        for (const r of diff.capabilities.removed) out.push(`  - ${r.path}: ${r.type}`);
        for (const c of diff.capabilities.changed) out.push(`  ~ ${c.path}: ${c.from} → ${c.to}`);
        break;
      case "resultTypes":
        for (const v of diff.resultTypes.added) out.push(`  + ${v}`);
        for (const v of diff.resultTypes.removed) out.push(`  - ${v}`);
        break;
      case "constants":
        for (const r of diff.constants.added) out.push(`  + ${r.constant} ${JSON.stringify(r.value)}`);
        for (const r of diff.constants.removed) out.push(`  - ${r.constant} ${JSON.stringify(r.value)}`);
        for (const c of diff.constants.changed) out.push(`  ~ ${c.constant}: ${JSON.stringify(c.from)} → ${JSON.stringify(c.to)}`);
        break;
      case "deprecated":
        // Newly deprecated, and no longer deprecated (or gone).
        for (const v of diff.deprecated.added) out.push(`  + ${v}`);
        for (const v of diff.deprecated.removed) out.push(`  - ${v}`);
        break;
    }
  }
  return `${out.join("\n")}\n`;
}
