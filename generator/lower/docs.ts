/**
 * JSDoc handling for `lower`: splits a comment into text and tags, and pushes the
 * constraint tags upstream uses (`@TJS-type`, `@format`, `@minimum`, `@maximum`,
 * `@maxItems`, `@nullable`, `@TJS-pattern`, `@default`) down onto the type they constrain.
 */
import { createRequire } from "node:module";
import type * as RedosDetector from "redos-detector";
import type { JSDoc } from "ts-morph";
import type { Constraints, DocTag, Docs, TypeExpr } from "../ir.js";

/**
 * Format names the generated runtime can check (the ajv-formats names). Any other
 * `@format` is an error rather than a silently unchecked string.
 */
export const SUPPORTED_FORMATS = [
  "byte",
  "date",
  "date-time",
  "duration",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "json-pointer",
  "regex",
  "relative-json-pointer",
  "time",
  "uri",
  "uri-reference",
  "uri-template",
  "uuid",
] as const;

/** Splits JSDoc comments into free text and `@tag text` entries, in source order (TypeScript's own JSDoc parse). */
export function docsOf(jsDocs: readonly JSDoc[]): Docs {
  const text: string[] = [];
  const tags: DocTag[] = [];
  for (const doc of jsDocs) {
    const description = doc.getDescription().replace(/\r\n/g, "\n").trim();
    if (description) text.push(description);
    for (const tag of doc.getTags()) {
      tags.push({ name: tag.getTagName(), text: (tag.getCommentText() ?? "").replace(/\r\n/g, "\n").trim() });
    }
  }
  return { text: text.join("\n\n"), tags };
}

/**
 * The constraint tags another tag follows on the same source line: TypeScript's JSDoc parse
 * starts a tag at any ` @`, so `@TJS-pattern ^a @b$` is `@TJS-pattern ^a` and a tag `@b`. Each
 * with its place (as {@link ConstraintProblem.tag} counts), its text as read and the next tag's name.
 * After a tag other than `@TJS-pattern`, a next tag the generator reads or a JSDoc, TSDoc or
 * TypeDoc tag (`@format uri @nullable`, `@minimum 0 @deprecated`) is taken as written on purpose;
 * `@nullable` takes no value, so nothing of it is cut.
 */
function cutConstraintTags(jsDocs: readonly JSDoc[]): { index: number; name: string; text: string; next: string }[] {
  const cut: { index: number; name: string; text: string; next: string }[] = [];
  let index = 0;
  for (const doc of jsDocs) {
    const tags = doc.getTags();
    for (const [i, tag] of tags.entries()) {
      const next = tags[i + 1];
      // A pattern may hold " @" (an email's), so any tag after one on its line may be a cut; another tag's value has none.
      const name = tag.getTagName();
      const deliberate = next !== undefined && name !== "TJS-pattern" && (isSchemaTag(next.getTagName()) || DOC_TAGS.has(next.getTagName()));
      if (isConstraintTag(name) && name !== "nullable" && next !== undefined && !deliberate && next.getStartLineNumber() === tag.getStartLineNumber()) {
        cut.push({ index: index + i, name, text: (tag.getCommentText() ?? "").trim(), next: next.getTagName() });
      }
    }
    index += tags.length;
  }
  return cut;
}

/** JSDoc, TSDoc and TypeDoc block and modifier tags: one of these after a constraint tag (not a pattern) on its line is a second tag, not a cut value. */
const DOC_TAGS = new Set([
  ...["alpha", "beta", "category", "default", "defaultValue", "deprecated", "example", "experimental", "group", "hidden", "ignore", "internal"],
  ...["override", "param", "private", "privateRemarks", "public", "readonly", "remarks", "returns", "sealed", "see", "since", "summary"],
  ...["throws", "todo", "type", "typeParam", "virtual"],
]);

/** A number as JSON writes it (RFC 8259 § 6). */
const JSON_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

const CONSTRAINT_TAGS = new Set(["TJS-type", "format", "minimum", "maximum", "maxItems", "nullable", "TJS-pattern", "default"]);

/**
 * JSON Schema validation keywords that typescript-json-schema reads from a tag of the same name
 * (so upstream's `schema.json` would carry them) and the generated validators do not check:
 * refused rather than left unchecked.
 */
const UNCHECKED_KEYWORD_TAGS = new Set([
  "pattern",
  "minLength",
  "maxLength",
  "minItems",
  "uniqueItems",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minProperties",
  "maxProperties",
]);

/**
 * Whether {@link applyConstraintTags} acts on a tag of this name: a constraint tag (`@default`
 * too), a JSON Schema keyword it refuses (`@minLength`), or an unsupported `@TJS-` tag. A doc
 * comment TypeScript does not attach that holds one is MCG221.
 */
export function isSchemaTag(name: string): boolean {
  return CONSTRAINT_TAGS.has(name) || UNCHECKED_KEYWORD_TAGS.has(name) || name.startsWith("TJS-");
}

/** The constraint tags the generated validators check, as messages name them. */
export const CHECKED_TAGS = "@minimum, @maximum, @maxItems, @format, @TJS-pattern, @TJS-type, @nullable";

/** Whether a tag constrains values (`@format`, `@minimum`, …) rather than documenting. */
export function isConstraintTag(name: string): boolean {
  return CONSTRAINT_TAGS.has(name) && name !== "default";
}

/** Why a constraint tag cannot apply, and which tag: its place among the tags of the doc comments, in order (each `JSDoc`'s `getTags()`). */
export interface ConstraintProblem {
  readonly message: string;
  readonly tag: number;
}

/**
 * Applies the constraint tags found in `jsDocs` to `type`. Returns the constrained type, or the
 * problem when a tag does not fit the type (e.g. `@format` on a number), is unknown
 * (`@TJS-foo`), or is a JSON Schema keyword the validators do not check (`@minLength`).
 *
 * A constraint tag written with a colon after its name (`@format: uri`) is read as the tag
 * without it (`@format uri`), and `warn` (MCG251) names the tag and what was assumed:
 * the intent is clear, and upstream's own pipeline once published such a tag (as the
 * broken format `": uri"`). A bound beyond 2^53 that a double cannot hold is warned of too (MCG254),
 * and so is a constraint tag whose value TypeScript's JSDoc parse cut at a ` @` (MCG259).
 * `warn` is given the tag's place as a {@link ConstraintProblem} is.
 *
 * A tag applies to the type written where it stands, not through a named type: `aliasHolds(name)`
 * says what a reference reaches that a tag would apply to (`type P = number`: `number`; an enum or
 * `type One = 1`: its literals), so that a tag whose number, string or array is behind an alias is
 * refused with where to put it instead, and the literals of the type, written out or behind a name,
 * are held to the tag at generation (one it excludes is refused; when all fit, a type of literals
 * alone needs no check of its own).
 */
export function applyConstraintTags(
  type: TypeExpr,
  jsDocs: readonly JSDoc[],
  warn: (code: "MCG251" | "MCG254" | "MCG259" | "MCG262", message: string, tag: number) => void = () => {},
  aliasHolds: (name: string) => TaggedReach = () => ({ kinds: new Set(), literals: [] }),
): TypeExpr | ConstraintProblem {
  let result = type;
  for (const cut of cutConstraintTags(jsDocs)) {
    const inPattern = cut.name === "TJS-pattern" ? "; in a pattern, write the @ as [@] or \\x40, and put a second tag on a line of its own" : "; put a second tag on a line of its own";
    warn("MCG259", `@${cut.name} is read as ${JSON.stringify(cut.text)}: TypeScript starts another tag at the " @" that follows on its line (@${cut.next})${inPattern}`, cut.index);
  }
  const tags = docsOf(jsDocs).tags.map((tag, index) => {
    const colon = /^:\s*(\S+)$/.exec(tag.text);
    if (!colon || !CONSTRAINT_TAGS.has(tag.name) || tag.name === "default") return { ...tag, index };
    warn("MCG251", `malformed tag \`@${tag.name}: ${colon[1]}\` (a colon after the tag name): read as \`@${tag.name} ${colon[1]}\``, index);
    return { name: tag.name, text: colon[1]!, index };
  });
  const seen = new Set<string>();
  for (const tag of tags) {
    if (CONSTRAINT_TAGS.has(tag.name) && seen.has(tag.name)) return { message: `@${tag.name} is given more than once`, tag: tag.index };
    seen.add(tag.name);
  }
  const boundTag = (name: string) => tags.find((t) => t.name === name);
  const bound = (name: string) => Number(boundTag(name)?.text);
  if (bound("minimum") > bound("maximum")) {
    return { message: `@minimum ${bound("minimum")} is greater than @maximum ${bound("maximum")}: no number fits`, tag: boundTag("maximum")!.index };
  }
  for (const tag of tags) {
    if (!CONSTRAINT_TAGS.has(tag.name)) {
      if (tag.name.startsWith("TJS-")) return { message: `unsupported JSDoc tag @${tag.name}`, tag: tag.index };
      if (UNCHECKED_KEYWORD_TAGS.has(tag.name)) {
        const instead = tag.name === "pattern" ? " (write @TJS-pattern for a pattern)" : "";
        return {
          message: `@${tag.name} is a JSON Schema keyword the generated validators do not check${instead}; the constraint tags they check: ${CHECKED_TAGS}`,
          tag: tag.index,
        };
      }
      continue;
    }
    const next = applyTag(result, tag, (code, message) => warn(code, message, tag.index), aliasHolds);
    if (typeof next === "string") return { message: next, tag: tag.index };
    result = next;
  }
  return result;
}

/**
 * A number written beyond 2^53 in magnitude that the double read from it does not stand for
 * (`9007199254740993`, `0x20000000000001`, `9007199254740993.5`, `9.007199254740993e15`): what
 * the generated code holds instead, as `JSON.parse` would read it, in JavaScript's shortest
 * form; else `undefined`. `text` is the literal as written: decimal (with a fraction or an
 * exponent), hexadecimal, octal or binary, with an optional sign and `_` separators. A decimal
 * whose digits are the double's shortest form (`1e23`) stands for that double and is not
 * said; nor is anything below 2^53, where a double holds every integer and a fraction's
 * rounding is a double's everyday one.
 */
export function roundedNumber(text: string): string | undefined {
  const written = /^([+-]?)(?:(0[xX][\da-fA-F]+|0[oO][0-7]+|0[bB][01]+)|(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?)$/.exec(text.replace(/_/g, ""));
  if (!written) return undefined;
  const [, sign = "", radix, whole = "", fraction = "", exponent = "0"] = written;
  const read = Number(radix ?? `${whole}${fraction === "" ? "" : `.${fraction}`}e${exponent}`);
  if (!Number.isFinite(read) || read < 2 ** 53) return undefined;
  const exact = radix !== undefined ? BigInt(radix) === BigInt(read) : sameDecimal(`${whole}${fraction}`, Number(exponent) - fraction.length, String(read));
  return exact ? undefined : `${sign === "-" ? "-" : ""}${String(read)}`;
}

/** Whether digits × 10^scale is the number JavaScript writes as `shortest` (`1e+23`, `9007199254740992`). */
function sameDecimal(digits: string, scale: number, shortest: string): boolean {
  const [mantissa = "", power = "0"] = shortest.split("e");
  const [int = "", frac = ""] = mantissa.split(".");
  // Both as significant digits (no leading or trailing zeros) and the power of ten of the last one.
  const normal = (d: string, s: number) => {
    const trimmed = d.replace(/^0+/, "");
    const kept = trimmed.replace(/0+$/, "");
    return `${kept}e${s + (trimmed.length - kept.length)}`;
  };
  return normal(digits, scale) === normal(`${int}${frac}`, Number(power) - frac.length);
}

/** The words of warning MCG254 for a number `written` that a double holds as `asRead`. */
export function roundedNumberWarning(written: string, asRead: string): string {
  return `the number ${written} is beyond 2^53 in magnitude, where a double holds only some integers: it is read as ${asRead}, as JSON.parse reads it (write ${asRead} to say so)`;
}

/** How long redos-detector may look at one pattern, in its steps: deterministic, and at most about 0.2 s of CPU. */
const PATTERN_CHECK_STEPS = 2000;

/** redos-detector, loaded when a schema first has a pattern (its import costs about 30 ms, and most schemas have none). */
let redosDetector: typeof RedosDetector | undefined;

/**
 * Why running `pattern` (as the validators do, with the `u` flag) may take time that grows faster
 * than its input's length, as redos-detector finds it, with what it means for the validators;
 * `undefined` when it finds the pattern safe.
 */
export function backtrackingRisk(pattern: string): string | undefined {
  // One check a pattern a run: a schema that repeats a pattern on many properties pays for it once.
  if (risks.has(pattern)) return risks.get(pattern);
  redosDetector ??= createRequire(import.meta.url)("redos-detector") as typeof RedosDetector;
  let risk: string | undefined;
  try {
    const result = redosDetector.isSafePattern(pattern, { unicode: true, maxSteps: PATTERN_CHECK_STEPS });
    if (!result.safe) {
      risk =
        result.error === "hitMaxScore"
          ? "can backtrack without bound: on a crafted string its time grows faster than the string's length (nested or overlapping repetition, such as (a+)+ or (a|a)*), so one string can stall the validator"
          : `could not be shown to run in linear time (redos-detector stopped after ${PATTERN_CHECK_STEPS} steps), so a crafted string may stall the validator`;
    }
  } catch (error) {
    // A pattern the platform compiles that redos-detector's parser does not read (a named group, `(?<y>…)`): not checked.
    risk = `could not be checked for backtracking (redos-detector does not read it: ${String((error as Error).message).split("\n")[0]}); it is generated as written, so make sure yourself that it cannot backtrack without bound, or write it without what the checker does not read (a named group: an unnamed one)`;
  }
  risks.set(pattern, risk);
  return risk;
}

/** {@link backtrackingRisk}'s answers, by pattern. */
const risks = new Map<string, string | undefined>();

/** What a constraint tag applies to: a number, a string or an array. */
export type TaggedKind = "number" | "string" | "array";

/**
 * What a named type reaches that a constraint tag would apply to: a number, a string or an array
 * (a tuple included), and the number and string literals it holds (an alias of literals, an enum's
 * members), which the tag's bound, pattern or format must allow.
 */
export interface TaggedReach {
  readonly kinds: ReadonlySet<TaggedKind>;
  readonly literals: readonly (string | number)[];
}

/** The constraint tags that apply to one kind of type, by name. */
const TAG_APPLIES_TO: ReadonlyMap<string, TaggedKind> = new Map<string, TaggedKind>([
  ["TJS-type", "number"],
  ["minimum", "number"],
  ["maximum", "number"],
  ["format", "string"],
  ["TJS-pattern", "string"],
  ["maxItems", "array"],
]);

function applyTag(type: TypeExpr, tag: DocTag, warn: (code: "MCG254" | "MCG262", message: string) => void, aliasHolds: (name: string) => TaggedReach): TypeExpr | string {
  const value = tag.text;
  const kind = TAG_APPLIES_TO.get(tag.name);
  // `q: P | number` with `type P = number`: the tag would reach the `number` written here only, and P's values pass unchecked.
  const named = kind === undefined ? [] : unionMembers(type).filter((m): m is Extract<TypeExpr, { kind: "ref" }> => m.kind === "ref");
  const behind = named.find((m) => aliasHolds(m.name).kinds.has(kind!));
  if (behind !== undefined) {
    const written = kind === "array" ? "the array type" : kind;
    return `@${tag.name} cannot reach the ${kind} behind ${behind.name}: a tag applies to the type written where it stands, not through an alias; put the tag on ${behind.name}'s declaration, or write ${written} here`;
  }
  if (tag.name !== "TJS-pattern" && tag.name !== "default" && /\s/.test(value)) {
    return `@${tag.name} takes one value, got "${value}"`;
  }
  // A tag without its value (an empty @TJS-pattern would match everything) is a mistake, not a rule.
  if (tag.name !== "nullable" && value.trim() === "") return `@${tag.name} needs a value`;
  // `@nullable false` read as `@nullable` would make the property nullable: the tag takes no value (helper-142).
  if (tag.name === "nullable" && value.trim() !== "") return `@nullable takes no value, got "${value.trim()}": write @nullable for a property that may be null, and no tag otherwise`;
  switch (tag.name) {
    case "TJS-type":
      if (value !== "number" && value !== "integer") return `@TJS-type ${value} is not supported (only number and integer)`;
      {
        const fraction = value === "integer" ? literalOutside(type, "number", (v) => Number.isInteger(v), aliasHolds) : undefined;
        if (fraction !== undefined) return `@TJS-type integer excludes the literal ${fraction} the type lists${besideIts(type, "number")}: the validators would accept it unchecked; remove the literal or the tag`;
      }
      return orLiterals(onKeyword(type, "number", `@TJS-type ${value}`, (t) => ({ ...t, numberType: value })), type, "number", aliasHolds);
    case "format":
      if (!(SUPPORTED_FORMATS as readonly string[]).includes(value)) {
        return `@format ${value} is not supported (supported: ${SUPPORTED_FORMATS.join(", ")})`;
      }
      {
        // A format is checked where the validators run, not here: any literal beside the string would pass it unchecked.
        const literal = literalOutside(type, "string", () => false, aliasHolds);
        if (literal !== undefined) return `@format ${value} cannot check the literal ${literal} the type lists${besideIts(type, "string")}: the validators would accept it unchecked; remove the literal or the tag`;
      }
      return onKeyword(type, "string", `@format ${value}`, (t) => ({ ...t, constraints: { ...t.constraints, format: value } }));
    case "TJS-pattern": {
      try {
        new RegExp(tag.text, "u");
      } catch {
        return `@TJS-pattern ${tag.text} is not a valid regular expression`;
      }
      const risk = backtrackingRisk(tag.text);
      // The validators run the schema's pattern on untrusted strings: one that backtracks is a way to stall them.
      if (risk !== undefined) warn("MCG262", `@TJS-pattern ${tag.text} ${risk}`);
      const excluded = literalOutside(type, "string", (v) => new RegExp(tag.text, "u").test(String(v)), aliasHolds);
      if (excluded !== undefined) return `@TJS-pattern ${tag.text} does not match the literal ${excluded} the type lists${besideIts(type, "string")}: the validators would accept it unchecked; remove the literal or the tag`;
      return orLiterals(onKeyword(type, "string", "@TJS-pattern", (t) => ({ ...t, constraints: { ...t.constraints, pattern: tag.text } })), type, "string", aliasHolds);
    }
    case "minimum":
    case "maximum": {
      // Written as JSON writes a number (as the bound stands in schema.json): not 0x10, 1_000 or .5.
      const bound = JSON_NUMBER.test(value) ? Number(value) : NaN;
      if (!Number.isFinite(bound)) return `@${tag.name} ${value} is not a finite number written as JSON writes one`;
      const rounded = roundedNumber(value);
      if (rounded !== undefined) warn("MCG254", `@${tag.name}: ${roundedNumberWarning(value, rounded)}`);
      const key: keyof Constraints = tag.name;
      const excluded = literalOutside(type, "number", (v) => (key === "minimum" ? Number(v) >= bound : Number(v) <= bound), aliasHolds);
      if (excluded !== undefined) return `@${tag.name} ${value} excludes the literal ${excluded} the type lists${besideIts(type, "number")}: the validators would accept it unchecked; remove the literal or the tag`;
      return orLiterals(onKeyword(type, "number", `@${tag.name}`, (t) => ({ ...t, constraints: { ...t.constraints, [key]: bound } })), type, "number", aliasHolds);
    }
    case "maxItems": {
      const bound = Number(value);
      if (!Number.isInteger(bound) || bound < 0) return `@maxItems ${value} is not a non-negative integer`;
      {
        // A tuple beside the array: the bound reaches the array only (helper-128: `string[] | [string, string]` under @maxItems 1).
        const tuple = unionMembers(type).find((m): m is Extract<TypeExpr, { kind: "tuple" }> => m.kind === "tuple" && m.elements.length > bound);
        if (tuple !== undefined) {
          return `@maxItems ${value} excludes the tuple of ${tuple.elements.length} items the type lists${besideIts(type, "array")}: the validators would accept it unchecked; remove the tuple or the tag`;
        }
      }
      const applied = onArray(type, (t) => ({ ...t, constraints: { ...t.constraints, maxItems: bound } }));
      // Tuples alone (`readonly [string, string]` under @maxItems 2): each was held to the bound above, so every value fits (helper-131).
      return typeof applied === "string" && unionMembers(type).some((m) => m.kind === "tuple") ? type : applied;
    }
    case "nullable":
      if (type.kind === "union" && type.members.some((m) => m.kind === "keyword" && m.name === "null")) return type;
      return { kind: "union", members: [type, { kind: "keyword", name: "null" }] };
    default:
      // @default documents a value; it does not change what is valid.
      return type;
  }
}

/**
 * A literal of `kind` among `type`'s union members, or behind one that names an alias or an enum
 * (`aliasHolds`), that `fits` refuses, as JSON writes it (`1`, or `1 (behind One)`): a tag applies
 * to the keyword members only (`number | 1`: the `number`), so such a literal would pass the
 * validators though the tag excludes it.
 */
function literalOutside(type: TypeExpr, kind: "number" | "string", fits: (value: string | number) => boolean, aliasHolds: (name: string) => TaggedReach): string | undefined {
  for (const member of unionMembers(type)) {
    if (member.kind === "literal" && typeof member.value === kind && !fits(member.value as string | number)) return literalText(member.value as string | number);
    if (member.kind !== "ref") continue;
    const behind = aliasHolds(member.name).literals.find((value) => typeof value === kind && !fits(value));
    if (behind !== undefined) return `${literalText(behind)} (behind ${member.name})`;
  }
  return undefined;
}

/**
 * `applied` (a tag on `type`'s `kind` keyword), or `type` as it is when it has no such keyword but
 * lists literals of `kind`, written out or behind a name: {@link literalOutside} found that each
 * fits the tag, so every value does (helper-131: an enum of 7 and 9 under @minimum 5 was refused
 * as holding no number).
 */
function orLiterals(applied: TypeExpr | string, type: TypeExpr, kind: "number" | "string", aliasHolds: (name: string) => TaggedReach): TypeExpr | string {
  if (typeof applied !== "string") return applied;
  const listsLiterals = unionMembers(type).some(
    (m) => (m.kind === "literal" && typeof m.value === kind) || (m.kind === "ref" && aliasHolds(m.name).literals.some((v) => typeof v === kind)),
  );
  return listsLiterals ? type : applied;
}

/** A literal as the schema writes it: as JSON writes it, but `-0` (JSON writes `0`). */
function literalText(value: string | number): string {
  return Object.is(value, -0) ? "-0" : JSON.stringify(value);
}

/** ` beside its number` (string, array) when `type` lists that keyword, to which the tag reaches; else nothing (literals or tuples alone). */
function besideIts(type: TypeExpr, keyword: "number" | "string" | "array"): string {
  const listed = unionMembers(type).some((m) => (keyword === "array" ? m.kind === "array" : m.kind === "keyword" && m.name === keyword));
  return listed ? ` beside its ${keyword}` : "";
}

/**
 * `type`'s members, through nested unions (`(number | 1) | null`, as a tag reaches them) and
 * intersections (`(1 & number) | number`: a value of the intersection is a value of each of its
 * members, so each is held to the tag; helper-131): `type` itself when it is neither.
 */
function unionMembers(type: TypeExpr): TypeExpr[] {
  return type.kind === "union" || type.kind === "intersection" ? type.members.reduce<TypeExpr[]>((all, m) => all.concat(unionMembers(m)), []) : [type];
}

/** Applies `fn` to the `keyword` members of `type` (itself or its union members). */
function onKeyword(
  type: TypeExpr,
  keyword: "number" | "string",
  tagName: string,
  fn: (t: Extract<TypeExpr, { kind: "keyword" }>) => TypeExpr,
): TypeExpr | string {
  let hit = false;
  const visit = (t: TypeExpr): TypeExpr => {
    if (t.kind === "keyword" && t.name === keyword) {
      hit = true;
      return fn(t);
    }
    // An intersection's members too: constraining one narrows the intersection (`(P & number) | number`; helper-131).
    if (t.kind === "union" || t.kind === "intersection") return { ...t, members: t.members.map(visit) };
    return t;
  };
  const result = visit(type);
  return hit ? result : `${tagName} applies to ${keyword} types, but the annotated type has no ${keyword}`;
}

/**
 * Applies `fn` to the arrays of `type` (itself or its union members, through nested unions as {@link onKeyword}: the
 * `string[]` of `(string[] | null) | number[]` too, which passed unchecked; helper-130).
 */
function onArray(type: TypeExpr, fn: (t: Extract<TypeExpr, { kind: "array" }>) => TypeExpr): TypeExpr | string {
  let hit = false;
  const visit = (t: TypeExpr): TypeExpr => {
    if (t.kind === "array") {
      hit = true;
      return fn(t);
    }
    // An intersection's members too: constraining one narrows the intersection (`(P & number) | number`; helper-131).
    if (t.kind === "union" || t.kind === "intersection") return { ...t, members: t.members.map(visit) };
    return t;
  };
  const result = visit(type);
  return hit ? result : "@maxItems applies to array types, but the annotated type is not an array";
}
