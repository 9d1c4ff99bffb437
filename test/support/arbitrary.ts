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
import type { Json } from "./mutants.js";

export interface InstanceOptions {
  /** Named references followed before values are made to terminate. Default 3. */
  readonly maxRefDepth?: number;
  /** Longest array generated (an array's own `maxItems` still applies). Default 3. */
  readonly maxArrayLength?: number;
  /** Most entries generated for an index signature. Default 3. */
  readonly maxExtraKeys?: number;
  /** Nesting of free-form JSON generated for `unknown`, `any` and `object`. Default 2. */
  readonly maxJsonDepth?: number;
}

/** A builder of arbitraries for the declarations of one schema. */
export interface InstanceArbitraries {
  /** Valid instances of the named declaration (an interface or alias). */
  of(name: string): fc.Arbitrary<Json>;
}

/** An error in the arbitrary builder itself: an IR construct it cannot generate values for. */
export class ArbitraryError extends Error {}

/** Marker for "no value of this type can be built here" (`never`, or a cycle while terminating). */
type Built = fc.Arbitrary<Json> | undefined;

export function instanceArbitraries(ir: SchemaIR, options: InstanceOptions = {}): InstanceArbitraries {
  const maxRefDepth = options.maxRefDepth ?? 3;
  const maxArrayLength = options.maxArrayLength ?? 3;
  const maxExtraKeys = options.maxExtraKeys ?? 3;
  const maxJsonDepth = options.maxJsonDepth ?? 2;
  const declarations = new Map<string, Declaration>(ir.declarations.map((d) => [d.name, d]));
  const json = jsonArbitrary(maxJsonDepth, maxArrayLength, maxExtraKeys);

  /** Arbitraries of references with `budget` references left, by `name@budget`. */
  const expanded = new Map<string, fc.Arbitrary<Json>>();
  /** Terminating arbitraries of references, by name (only the ones that exist). */
  const terminating = new Map<string, fc.Arbitrary<Json>>();
  /** References being expanded in terminating mode: meeting one again is a cycle. */
  const stack: string[] = [];

  function declaration(name: string): Declaration {
    const decl = declarations.get(name);
    if (!decl) throw new ArbitraryError(`reference to unknown declaration ${name}`);
    return decl;
  }

  function declarationType(name: string): TypeExpr {
    const decl = declaration(name);
    return decl.kind === "const" ? { kind: "literal", value: decl.value } : decl.type;
  }

  /** `budget` is how many references may still be expanded freely; at 0 values must terminate. */
  function build(t: TypeExpr, budget: number): Built {
    const terminate = budget <= 0;
    switch (t.kind) {
      case "keyword":
        return keyword(t);
      case "literal":
        return fc.constant(t.value);
      case "ref":
        return reference(t.name, budget);
      case "array": {
        const max = Math.min(maxArrayLength, t.constraints?.maxItems ?? Infinity);
        if (terminate || max === 0) return fc.constant([]);
        const element = build(t.element, budget);
        return element ? fc.array(element, { maxLength: max }) : fc.constant([]);
      }
      case "tuple": {
        const elements = t.elements.map((e) => build(e, budget));
        if (elements.some((e) => e === undefined)) return undefined;
        return fc.tuple(...(elements as fc.Arbitrary<Json>[]));
      }
      case "union": {
        const members = t.members.map((m) => build(m, budget)).filter((m): m is fc.Arbitrary<Json> => m !== undefined);
        if (members.length === 0) return undefined;
        return members.length === 1 ? members[0] : fc.oneof(...members);
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
    const model: Record<string, fc.Arbitrary<Json>> = {};
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
    const named = new Set(t.properties.map((p) => p.name));
    const fields = fc.record(model, { requiredKeys: required, noNullPrototype: true });
    const indexValue = t.indexSignature && !terminate ? build(t.indexSignature, budget) : undefined;
    if (!indexValue || maxExtraKeys === 0) return fields.map((r) => plainObject(Object.entries(r)));
    const extras = fc.uniqueArray(fc.tuple(keyArbitrary.filter((k) => !named.has(k)), indexValue), {
      maxLength: maxExtraKeys,
      selector: ([k]) => k,
    });
    return fc.tuple(fields, extras).map(([r, e]) => plainObject([...Object.entries(r), ...e]));
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
      case "string":
        return stringArbitrary(t.constraints);
      case "number":
        return numberArbitrary(t.numberType ?? "number", t.constraints);
      case "boolean":
        return fc.boolean();
      case "null":
        return fc.constant(null);
      case "unknown":
      case "any":
        return json;
      case "object":
        return fc.dictionary(keyArbitrary, json, { maxKeys: maxExtraKeys, noNullPrototype: true }).map((r) => plainObject(Object.entries(r)));
      case "never":
      case "undefined":
        return undefined;
      default:
        throw new ArbitraryError(`unknown keyword ${String(t.name)}`);
    }
  }

  return {
    of(name: string): fc.Arbitrary<Json> {
      const decl = declaration(name);
      if (decl.kind === "const") return fc.constant(decl.value);
      const built = build(decl.type, maxRefDepth);
      if (!built) throw new ArbitraryError(`no finite value of ${name} can be built`);
      return built;
    },
  };
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
