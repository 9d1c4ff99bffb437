/**
 * Test support: fast-check arbitraries of valid instances, built from the IR.
 *
 * `instanceArbitraries(ir)` walks the declarations and their `TypeExpr`s and returns,
 * per declaration, an arbitrary of JSON values of that type: plain objects (no null
 * prototype, no `__proto__` key), finite numbers, no `undefined`. It honours the
 * constraints the IR carries (integer vs number, `format`, `minimum`/`maximum`,
 * `maxItems`, `pattern`). Recursion through named references is bounded: past
 * `maxRefDepth` references only values that end soon are generated (a union keeps
 * members that terminate, arrays are empty, optional properties and index-signature
 * entries are left out).
 *
 * The upstream corpus suite uses it with a fixed seed; a nightly fuzz script can use
 * it with more runs and random seeds.
 */
import fc from "fast-check";
import type { Constraints, Declaration, KeywordType, ObjectType, Property, SchemaIR, TypeExpr } from "../../generator/index.js";
import { isRecord, type Json, type Segment, type Site } from "./mutants.js";

export interface InstanceOptions {
  /** Named references followed before values are made to terminate. Default 3. */
  readonly maxRefDepth?: number;
  /** Longest array generated (an array's own `maxItems` still applies). Default 3. */
  readonly maxArrayLength?: number;
  /** Most entries generated for an index signature. Default 3. */
  readonly maxExtraKeys?: number;
  /** Nesting of free-form JSON generated for `unknown`, `any` and `object`. Default 2. */
  readonly maxJsonDepth?: number;
  /**
   * Most properties an object type without an index signature gets besides the ones it
   * names (valid: interfaces accept properties they do not name), with keys such as
   * `constructor` and `__proto__` among them. Default 0.
   */
  readonly maxUnnamedKeys?: number;
}

/** A builder of arbitraries for the declarations of one schema. */
export interface InstanceArbitraries {
  /** Valid instances of the named declaration (an interface or alias). */
  of(name: string): fc.Arbitrary<Json>;
}

/** A valid instance with the places in it that typed mutations can break (see {@link Site}). */
export interface Annotated {
  readonly value: Json;
  readonly sites: readonly Site[];
}

/** A builder of annotated instances: the same values as {@link InstanceArbitraries}, with their sites. */
export interface AnnotatedArbitraries {
  of(name: string): fc.Arbitrary<Annotated>;
}

/** An error in the arbitrary builder itself: an IR construct it cannot generate values for. */
export class ArbitraryError extends Error {}

/** Marker for "no value of this type can be built here" (`never`, or a cycle while terminating). */
type Built = fc.Arbitrary<Annotated> | undefined;

const NO_SITES: readonly Site[] = [];

/** Valid instances of every declaration of `ir` (see the module comment). */
export function instanceArbitraries(ir: SchemaIR, options: InstanceOptions = {}): InstanceArbitraries {
  const annotated = annotatedArbitraries(ir, options);
  return { of: (name) => annotated.of(name).map((a) => a.value) };
}

/**
 * Valid instances of every declaration of `ir`, each with its {@link Site}s: required
 * properties, places where `null` is not allowed, discriminants of unions, literals,
 * `@format` strings, numbers (integer or not, bounds), arrays and index signatures.
 * Draws exactly the same random values as {@link instanceArbitraries}.
 */
export function annotatedArbitraries(ir: SchemaIR, options: InstanceOptions = {}): AnnotatedArbitraries {
  const maxRefDepth = options.maxRefDepth ?? 3;
  const maxArrayLength = options.maxArrayLength ?? 3;
  const maxExtraKeys = options.maxExtraKeys ?? 3;
  const maxJsonDepth = options.maxJsonDepth ?? 2;
  const maxUnnamedKeys = options.maxUnnamedKeys ?? 0;
  const declarations = new Map<string, Declaration>(ir.declarations.map((d) => [d.name, d]));
  const rawJson = jsonArbitrary(maxJsonDepth, maxArrayLength, maxExtraKeys);
  const json = rawJson.map(bare);

  /** Arbitraries of references with `budget` references left, by `name@budget`. */
  const expanded = new Map<string, fc.Arbitrary<Annotated>>();
  /** Terminating arbitraries of references, by name (only the ones that exist). */
  const terminating = new Map<string, fc.Arbitrary<Annotated>>();
  /** References being expanded in terminating mode: meeting one again is a cycle. */
  const stack: string[] = [];
  /** Whether a type admits `null`, by type node. */
  const nullable = new WeakMap<TypeExpr, boolean>();
  /** Discriminant properties of a union, by union node. */
  const discriminantsOf = new WeakMap<TypeExpr, Discriminant[]>();

  function declaration(name: string): Declaration {
    const decl = declarations.get(name);
    if (!decl) throw new ArbitraryError(`reference to unknown declaration ${name}`);
    return decl;
  }

  function declarationType(name: string): TypeExpr {
    const decl = declaration(name);
    return decl.kind === "const" ? { kind: "literal", value: decl.value } : decl.type;
  }

  /** Whether `null` is a valid value of `t` (a reference cycle counts as no). */
  function acceptsNull(t: TypeExpr, seen: ReadonlySet<string> = new Set()): boolean {
    const known = nullable.get(t);
    if (known !== undefined) return known;
    let result: boolean;
    switch (t.kind) {
      case "keyword":
        result = t.name === "null" || t.name === "unknown" || t.name === "any";
        break;
      case "ref":
        result = !seen.has(t.name) && acceptsNull(declarationType(t.name), new Set([...seen, t.name]));
        break;
      case "union":
        result = t.members.some((m) => acceptsNull(m, seen));
        break;
      default:
        result = false;
    }
    nullable.set(t, result);
    return result;
  }

  /** The object members of a union, through references and nested unions. */
  function objectMembers(t: TypeExpr, seen: ReadonlySet<string> = new Set()): ObjectType[] {
    if (t.kind === "ref") return seen.has(t.name) ? [] : objectMembers(declarationType(t.name), new Set([...seen, t.name]));
    if (t.kind === "union") return t.members.flatMap((m) => objectMembers(m, seen));
    if (t.kind === "object") return [t];
    if (t.kind === "intersection") return [intersect(t.members)];
    return [];
  }

  /** Literal values a property type allows (empty when it allows more than literals). */
  function literalValues(t: TypeExpr): Json[] {
    if (t.kind === "literal") return [t.value];
    if (t.kind === "ref") return literalValues(declarationType(t.name));
    if (t.kind === "union") {
      const values = t.members.map(literalValues);
      return values.some((v) => v.length === 0) ? [] : values.flat();
    }
    return [];
  }

  /**
   * Properties that tell a union's object members apart: a name that at least two
   * members give a literal type, with two or more different values among them.
   */
  function discriminants(t: TypeExpr): Discriminant[] {
    let known = discriminantsOf.get(t);
    if (known) return known;
    const byName = new Map<string, Set<Json>>();
    let members: ObjectType[] = [];
    try {
      members = objectMembers(t);
    } catch (error) {
      if (!(error instanceof ArbitraryError)) throw error;
    }
    const counts = new Map<string, number>();
    for (const m of members) {
      for (const p of m.properties) {
        const values = literalValues(p.type);
        if (values.length === 0) continue;
        counts.set(p.name, (counts.get(p.name) ?? 0) + 1);
        const set = byName.get(p.name) ?? new Set<Json>();
        for (const v of values) set.add(v);
        byName.set(p.name, set);
      }
    }
    known = [...byName]
      .filter(([name, values]) => (counts.get(name) ?? 0) >= 2 && values.size >= 2)
      .map(([name, values]) => ({ name, values: [...values] }));
    discriminantsOf.set(t, known);
    return known;
  }

  /** `budget` is how many references may still be expanded freely; at 0 values must terminate. */
  function build(t: TypeExpr, budget: number): Built {
    const terminate = budget <= 0;
    switch (t.kind) {
      case "keyword":
        return keyword(t);
      case "literal":
        return fc.constant({ value: t.value, sites: [{ kind: "literal", path: [], value: t.value }] });
      case "ref":
        return reference(t.name, budget);
      case "array": {
        const max = Math.min(maxArrayLength, t.constraints?.maxItems ?? Infinity);
        const elementNull = acceptsNull(t.element);
        const site: Site = {
          kind: "array",
          path: [],
          elementAcceptsNull: elementNull,
          ...(t.constraints?.maxItems === undefined ? {} : { maxItems: t.constraints.maxItems }),
        };
        if (terminate || max === 0) return fc.constant({ value: [], sites: [site] });
        const element = build(t.element, budget);
        if (!element) return fc.constant({ value: [], sites: [site] });
        return fc.array(element, { maxLength: max }).map((items) => ({
          value: items.map((i) => i.value),
          sites: [site, ...items.flatMap((item, i) => nested(i, item.sites, elementNull))],
        }));
      }
      case "tuple": {
        const elements = t.elements.map((e) => build(e, budget));
        if (elements.some((e) => e === undefined)) return undefined;
        return fc.tuple(...(elements as fc.Arbitrary<Annotated>[])).map((items) => ({
          value: items.map((i) => i.value),
          sites: items.flatMap((item, i) => nested(i, item.sites, acceptsNull(t.elements[i] as TypeExpr))),
        }));
      }
      case "union": {
        const members = t.members.map((m) => build(m, budget)).filter((m): m is fc.Arbitrary<Annotated> => m !== undefined);
        if (members.length === 0) return undefined;
        const arb = members.length === 1 ? (members[0] as fc.Arbitrary<Annotated>) : fc.oneof(...members);
        const tags = discriminants(t);
        if (tags.length === 0) return arb;
        return arb.map((a) => {
          if (!isRecord(a.value)) return a;
          const record = a.value;
          const extra: Site[] = tags
            .filter((d) => Object.prototype.hasOwnProperty.call(record, d.name))
            .map((d) => ({ kind: "discriminant", path: [d.name], value: record[d.name] as Json, others: d.values.filter((v) => v !== record[d.name]) }));
          return extra.length === 0 ? a : { value: a.value, sites: [...a.sites, ...extra] };
        });
      }
      case "intersection":
        return object(intersect(t.members), budget);
      case "object":
        return object(t, budget);
      default:
        throw new ArbitraryError(`unknown TypeExpr kind ${(t as { kind: string }).kind}`);
    }
  }

  function reference(name: string, budget: number): Built {
    if (budget > 0) {
      const key = `${name}@${budget}`;
      let arb = expanded.get(key);
      if (!arb) {
        const built = build(declarationType(name), budget - 1);
        if (!built) return undefined;
        arb = built;
        expanded.set(key, arb);
      }
      return arb;
    }
    const known = terminating.get(name);
    if (known) return known;
    if (stack.includes(name)) return undefined;
    stack.push(name);
    try {
      const built = build(declarationType(name), 0);
      if (built) terminating.set(name, built);
      return built;
    } finally {
      stack.pop();
    }
  }

  function object(t: ObjectType, budget: number): Built {
    const terminate = budget <= 0;
    const model: Record<string, fc.Arbitrary<Annotated>> = {};
    const required: string[] = [];
    for (const p of t.properties) {
      if (p.optional && terminate) continue;
      const value = build(p.type, budget);
      if (value === undefined) {
        if (p.optional) continue;
        return undefined;
      }
      model[p.name] = value;
      if (!p.optional) required.push(p.name);
    }
    const propertyNull = new Map(t.properties.map((p) => [p.name, acceptsNull(p.type)]));
    const requiredSet = new Set(required);
    const named = new Set(t.properties.map((p) => p.name));
    const fields = fc.record(model, { requiredKeys: required, noNullPrototype: true });
    const indexValue = t.indexSignature && !terminate ? build(t.indexSignature, budget) : undefined;
    const indexNull = t.indexSignature ? acceptsNull(t.indexSignature) : true;
    const assemble = (entries: readonly (readonly [string, Annotated])[], extras: readonly (readonly [string, Annotated])[]): Annotated => {
      const sites: Site[] = t.indexSignature ? [{ kind: "index", path: [], valueAcceptsNull: indexNull }] : [];
      for (const [k, a] of entries) {
        if (requiredSet.has(k)) sites.push({ kind: "required", path: [k] });
        sites.push(...nested(k, a.sites, propertyNull.get(k) ?? true));
      }
      for (const [k, a] of extras) sites.push(...nested(k, a.sites, indexNull));
      return { value: plainObject([...entries, ...extras].map(([k, a]) => [k, a.value] as const)), sites };
    };
    if (!t.indexSignature && maxUnnamedKeys > 0) {
      const unnamed = fc.uniqueArray(fc.tuple(unnamedKeyArbitrary.filter((k) => !named.has(k)), json), {
        maxLength: maxUnnamedKeys,
        selector: ([k]) => k,
      });
      return fc.tuple(fields, unnamed).map(([r, e]) => assemble(Object.entries(r), e));
    }
    if (!indexValue || maxExtraKeys === 0) return fields.map((r) => assemble(Object.entries(r), []));
    const extras = fc.uniqueArray(fc.tuple(keyArbitrary.filter((k) => !named.has(k)), indexValue), {
      maxLength: maxExtraKeys,
      selector: ([k]) => k,
    });
    return fc.tuple(fields, extras).map(([r, e]) => assemble(Object.entries(r), e));
  }

  /** One object type equivalent to the intersection of `members` (objects, or references to them). */
  function intersect(members: readonly TypeExpr[]): ObjectType {
    return members.map(asObject).reduce(mergeObjects);
  }

  function asObject(t: TypeExpr): ObjectType {
    if (t.kind === "object") return t;
    if (t.kind === "ref") return asObject(declarationType(t.name));
    if (t.kind === "intersection") return intersect(t.members);
    throw new ArbitraryError(`cannot intersect a ${t.kind} type`);
  }

  function mergeObjects(a: ObjectType, b: ObjectType): ObjectType {
    const properties: Property[] = [...a.properties];
    for (const p of b.properties) {
      const i = properties.findIndex((q) => q.name === p.name);
      const q = properties[i];
      if (q === undefined) properties.push(p);
      else properties[i] = { ...p, optional: p.optional && q.optional, type: intersectTypes(q.type, p.type) };
    }
    const index =
      a.indexSignature && b.indexSignature
        ? intersectTypes(a.indexSignature, b.indexSignature)
        : (a.indexSignature ?? b.indexSignature);
    return index ? { kind: "object", properties, indexSignature: index } : { kind: "object", properties };
  }

  /** The narrower of two property types met in an intersection; loud when neither is. */
  function intersectTypes(a: TypeExpr, b: TypeExpr): TypeExpr {
    if (JSON.stringify(a) === JSON.stringify(b)) return a;
    if (isTop(a)) return b;
    if (isTop(b)) return a;
    if (a.kind === "literal" && b.kind === "keyword" && b.name === typeof a.value) return a;
    if (b.kind === "literal" && a.kind === "keyword" && a.name === typeof b.value) return b;
    if (a.kind === "ref" || b.kind === "ref" || (a.kind === "object" && b.kind === "object")) {
      return mergeObjects(asObject(a), asObject(b));
    }
    throw new ArbitraryError(`cannot intersect ${JSON.stringify(a)} with ${JSON.stringify(b)}`);
  }

  function keyword(t: KeywordType): Built {
    switch (t.name) {
      case "string": {
        const format = t.constraints?.format;
        const arb = stringArbitrary(t.constraints);
        return format === undefined ? arb.map(bare) : arb.map((value) => ({ value, sites: [{ kind: "format", path: [], format }] }));
      }
      case "number": {
        const integer = (t.numberType ?? "number") === "integer";
        const { minimum, maximum } = t.constraints ?? {};
        const site: Site = {
          kind: "number",
          path: [],
          integer,
          ...(minimum === undefined ? {} : { minimum }),
          ...(maximum === undefined ? {} : { maximum }),
        };
        return numberArbitrary(t.numberType ?? "number", t.constraints).map((value) => ({ value, sites: [site] }));
      }
      case "boolean":
        return fc.boolean().map(bare);
      case "null":
        return fc.constant({ value: null, sites: NO_SITES });
      case "unknown":
      case "any":
        return json;
      case "object":
        return fc
          .dictionary(keyArbitrary, rawJson, { maxKeys: maxExtraKeys, noNullPrototype: true })
          .map((r) => bare(plainObject(Object.entries(r))));
      case "never":
      case "undefined":
        return undefined;
      default:
        throw new ArbitraryError(`unknown keyword ${String(t.name)}`);
    }
  }

  return {
    of(name: string): fc.Arbitrary<Annotated> {
      const decl = declaration(name);
      if (decl.kind === "const") return fc.constant({ value: decl.value, sites: [{ kind: "literal", path: [], value: decl.value }] });
      const built = build(decl.type, maxRefDepth);
      if (!built) throw new ArbitraryError(`no finite value of ${name} can be built`);
      if (acceptsNull(decl.type)) return built;
      return built.map((a) => ({ value: a.value, sites: [{ kind: "no-null", path: [] }, ...a.sites] }));
    },
  };
}

/** A property of a union's object members whose literal value names the member. */
interface Discriminant {
  readonly name: string;
  readonly values: readonly Json[];
}

function bare(value: Json): Annotated {
  return { value, sites: NO_SITES };
}

/**
 * The sites of a child at `segment`, moved under it; with `acceptsNull` false, a
 * `no-null` site for the child itself first.
 */
function nested(segment: Segment, sites: readonly Site[], acceptsNull: boolean): Site[] {
  const out: Site[] = acceptsNull ? [] : [{ kind: "no-null", path: [segment] }];
  for (const s of sites) out.push({ ...s, path: [segment, ...s.path] });
  return out;
}

function isTop(t: TypeExpr): boolean {
  return t.kind === "keyword" && (t.name === "unknown" || t.name === "any");
}

/** A plain object from entries, safe for any key (no `__proto__` setter). */
function plainObject(entries: readonly (readonly [string, unknown])[]): Json {
  const o: { [key: string]: Json } = {};
  for (const [k, v] of entries) Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  return o;
}

/** Keys for index signatures and free-form objects: short strings plus a few shaped like `_meta` keys. */
const keyArbitrary: fc.Arbitrary<string> = fc
  .oneof(
    fc.string({ maxLength: 6 }),
    fc.constantFrom("a", "b/c", "~0", "io.example/key", "com.example.mcp/x", "traceparent", "x-y_z.1"),
  )
  .filter((k) => k !== "__proto__");

/** Keys of properties an object type does not name: any short string, and the names `Object.prototype` has. */
const unnamedKeyArbitrary: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom("__proto__", "constructor", "toString", "hasOwnProperty", "valueOf", "", "x-extra"),
);

/**
 * Strings near each `@format` upstream uses, valid and not, for the fuzz to put where a
 * format is expected: random text over the format's own characters and the ones that
 * break it, and strings shaped like the format with random parts (IP literals, ports,
 * percent escapes, template expressions, base64 with padding and line breaks).
 */
export const FORMAT_NOISE: Readonly<Record<string, fc.Arbitrary<string>>> = (() => {
  const chars = (alphabet: string, maxLength: number) => fc.string({ unit: fc.constantFrom(...alphabet), maxLength });
  const uriChars = "aZ09+-.:/?#[]@!$&'()*,;=%~_ {}\"<>^`|\u007f\u0080é\n";
  const hex = chars("0123456789abcdefABCDEFgG", 3);
  const host = fc.oneof(
    fc.ipV4(),
    fc.ipV4Extended(),
    fc.ipV6().map((ip) => `[${ip}]`),
    fc.tuple(fc.ipV6(), chars(":.0123456789abcdefv%25", 4)).map(([ip, junk]) => `[${ip}${junk}]`),
    fc.tuple(hex, chars("abc0123.-_~!$&'()*+,;=:", 5)).map(([h, rest]) => `[v${h}.${rest}]`),
    fc.domain(),
    chars("abc012.-_~!$&'()*+,;=%:@[]", 8),
  );
  const uriShaped = fc
    .tuple(
      fc.constantFrom("http", "a", "urn", "file", "x+y-z.w", "1a", ""),
      fc.constantFrom("://", ":", ":/", ":///", "//", "://user@", "://a:b@", "://@"),
      host,
      fc.option(chars("0123456789x", 5).map((p) => ":" + p)),
      chars("abc/%20:@!$&'()*+,;=.-~_ ", 8),
      fc.option(chars("abc/?:@%=&# ", 6).map((q) => "?" + q)),
      fc.option(chars("abc/?:@%#[] ", 6).map((f) => "#" + f)),
    )
    .map(([scheme, sep, h, port, path, query, fragment]) => scheme + sep + h + (port ?? "") + (path.startsWith("/") || path === "" ? path : "/" + path) + (query ?? "") + (fragment ?? ""));
  const templateShaped = fc
    .array(
      fc.oneof(
        chars("abc/:%20-.~é\u007f\u0080 <>'\"", 4),
        fc
          .tuple(fc.constantFrom("", "+", "#", ".", "/", ";", "?", "&", "=", ",", "!", "@", "|", "$"), chars("abZ_09.%2F", 6), fc.constantFrom("", "*", ":3", ":0", ":10000", ":", ",b", ",b.c*"))
          .map(([op, name, mod]) => `{${op}${name}${mod}}`),
        fc.constantFrom("{", "}", "{}", "%", "%4", "%41"),
      ),
      { maxLength: 4 },
    )
    .map((parts) => parts.join(""));
  const base64Shaped = fc
    .tuple(chars("ABCXYZabcxyz0189+/-_", 10), fc.constantFrom("", "=", "==", "===", "\n", "=\n", " "), fc.option(chars("AQ=\n\r ", 4)))
    .map(([body, pad, tail]) => body + pad + (tail ?? ""));
  return {
    uri: fc.oneof(uriShaped, chars(uriChars, 12)),
    "uri-template": fc.oneof(templateShaped, chars(uriChars, 12)),
    byte: fc.oneof(base64Shaped, fc.base64String({ maxLength: 16 }), chars("AQ=+/\n\r-_ ", 8)),
  };
})();

/** Free-form JSON (for `unknown`, `any`, and `object` values). */
function jsonArbitrary(maxDepth: number, maxLength: number, maxKeys: number): fc.Arbitrary<Json> {
  const scalar: fc.Arbitrary<Json> = fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.integer({ min: -1000, max: 1000 }),
    finiteDouble(undefined, undefined),
    fc.string({ maxLength: 8 }),
  );
  let arb = scalar;
  for (let depth = 1; depth <= maxDepth; depth++) {
    const inner = arb;
    arb = fc.oneof(
      { arbitrary: scalar, weight: 3 },
      { arbitrary: fc.array(inner, { maxLength }), weight: 1 },
      {
        arbitrary: fc.uniqueArray(fc.tuple(keyArbitrary, inner), { maxLength: maxKeys, selector: ([k]) => k }).map(plainObject),
        weight: 1,
      },
    );
  }
  return arb;
}

function numberArbitrary(numberType: "integer" | "number", c: Constraints | undefined): fc.Arbitrary<Json> {
  const min = c?.minimum;
  const max = c?.maximum;
  if (numberType === "number") return finiteDouble(min, max);
  if (min !== undefined || max !== undefined) {
    return fc.integer({
      min: Math.max(Math.ceil(min ?? Number.MIN_SAFE_INTEGER), Number.MIN_SAFE_INTEGER),
      max: Math.min(Math.floor(max ?? Number.MAX_SAFE_INTEGER), Number.MAX_SAFE_INTEGER),
    });
  }
  return fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.maxSafeInteger());
}

/** A finite double in [min, max]; `-0` becomes `0`, as JSON has no negative zero. */
function finiteDouble(min: number | undefined, max: number | undefined): fc.Arbitrary<Json> {
  return fc
    .double({ noNaN: true, noDefaultInfinity: true, ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) })
    .map((x) => (Object.is(x, -0) ? 0 : x));
}

const segment = fc.stringMatching(/^[a-z0-9_]{1,6}$/);

/** Strings in each `@format` upstream uses; a format not listed here is an error, never an unchecked string. */
const FORMATS: Record<string, fc.Arbitrary<Json>> = {
  uri: fc.oneof(
    fc.webUrl({ withQueryParameters: true, withFragments: true }),
    fc.constantFrom("file:///home/user/a.txt", "urn:isbn:0451450523", "mailto:a@example.com", "data:,x"),
    fc.array(segment, { maxLength: 3 }).map((s) => "file:///" + s.join("/")),
  ),
  "uri-template": fc.oneof(
    fc.constantFrom("file:///{path}", "https://example.com/{id}/items{?q,page}", "db://{table}/{+rest}", "x"),
    fc
      .tuple(fc.constantFrom("https://example.com/", "file:///", "res://"), fc.array(segment, { maxLength: 2 }), fc.option(segment))
      .map(([base, parts, variable]) => base + parts.join("/") + (variable === null ? "" : `/{${variable}}`)),
  ),
  byte: fc.base64String({ maxLength: 12 }),
};

function stringArbitrary(c: Constraints | undefined): fc.Arbitrary<Json> {
  if (c?.format !== undefined) {
    const arb = FORMATS[c.format];
    if (!arb) throw new ArbitraryError(`no arbitrary for @format ${c.format}`);
    if (c.pattern !== undefined) throw new ArbitraryError("@format together with @TJS-pattern is not supported");
    return arb;
  }
  if (c?.pattern !== undefined) return fc.stringMatching(new RegExp(c.pattern, "u"));
  return fc.oneof(fc.string({ maxLength: 10 }), fc.string({ unit: "grapheme", maxLength: 4 }));
}
