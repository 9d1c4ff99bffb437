/**
 * Tool arguments against a tool's `inputSchema`, and its structured result against its
 * `outputSchema` (JSON Schema objects, server/tools § Tool, § Structured Content): the checks
 * the dispatcher's built-in `tools/call` runs before calling a tool and on what it returns.
 */
import { escapeToken, isPlainObject, MAX_ISSUES, own, quoteShort } from "./json.js";

/**
 * Deepest nesting followed: of the schema (each subschema walked into, `allOf`, `anyOf`, `oneOf`
 * and `not` included), and of the values `const` and `enum` compare. Past it the arguments are
 * refused, whatever a `not` or `anyOf` around that place would make of it.
 */
export const MAX_SCHEMA_DEPTH = 64;

/**
 * Thrown where the walk passes {@link MAX_SCHEMA_DEPTH}, and caught by {@link checkToolArguments}
 * alone: a part too deep to check is no verdict that `not` may turn into a pass (a value
 * forbidden by `not: { const }` must not pass for being nested deeper than the limit).
 */
class TooDeep {
  readonly path: string;
  constructor(path: string) {
    this.path = path;
  }
}

/**
 * Checks tool arguments against a tool's `inputSchema`. Covers the JSON Schema keywords
 * tools commonly use: `type`, `properties`, `required`, `additionalProperties`,
 * `patternProperties`, `minProperties`, `maxProperties`, `items` and `prefixItems` (2020-12, the
 * default dialect of `inputSchema`: `items` checks the elements after the `prefixItems`; an
 * earlier draft's `items` array and `additionalItems` are read the same way, and a schema whose
 * `$schema` is json-schema.org's draft-04 to draft-07 or 2019-09 meta-schema has no `prefixItems`), `enum`, `const`,
 * `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum` (a number, or draft-04's `true` beside
 * `minimum` or `maximum`), `minLength`, `maxLength`,
 * `minItems`, `maxItems`, `pattern`, `anyOf`, `oneOf`, `allOf`, `not`. Other keywords are not
 * checked, and pass: `$ref`, `format`, `multipleOf`, `uniqueItems`, `contains`, `propertyNames`,
 * `dependentRequired`, `dependentSchemas`, `if`/`then`/`else`, `unevaluatedProperties`,
 * `unevaluatedItems`. Never throws.
 *
 * @returns `undefined` when `args` passes, else every problem found (at most {@link MAX_ISSUES}),
 *   each as `<JSON Pointer>: <what is wrong>` (at the arguments object itself, whose pointer is
 *   empty, `<what is wrong>` alone), joined with `; `, and `; and more` after the last when there
 *   are more than {@link MAX_ISSUES}
 */
export function checkToolArguments(schema: unknown, args: unknown): string | undefined {
  return checkAgainstSchema(schema, args, "arguments");
}

/**
 * Checks a tool's `structuredContent` against its `outputSchema`, as {@link checkToolArguments}
 * checks arguments (the same keywords; never throws). server/tools § Output Schema: a server
 * that gives a tool an `outputSchema` must return structured results that conform to it.
 *
 * @returns `undefined` when `value` passes, else its problems, written as {@link checkToolArguments} writes them
 */
export function checkStructuredContent(schema: unknown, value: unknown): string | undefined {
  return checkAgainstSchema(schema, value, "structured content");
}

/** {@link checkToolArguments} of `value`, which `what` names in the messages that are about it as a whole. */
function checkAgainstSchema(schema: unknown, args: unknown, what: string): string | undefined {
  try {
    // Before 2020-12 (draft-04 to 2019-09, named by the schema's $schema), `items` is every element's, or an array of the
    // first elements' with `additionalItems` for the rest, and `prefixItems` means nothing.
    const declared = isPlainObject(schema) ? own(schema, "$schema") : undefined;
    const itemsBefore2020 = typeof declared === "string" && /^https?:\/\/json-schema\.org\/(?:draft-0[4-7]\/schema|draft\/2019-09\/schema)(?:#\/?)?$/.test(declared);
    const problems = schemaProblems(schema, args, "", 0, itemsBefore2020);
    if (problems.length === 0) return undefined;
    // The walk stops once it has more than it lists, so how many more there are is not known (before, it was counted as 1).
    const listed = problems.slice(0, MAX_ISSUES);
    return listed.join("; ") + (problems.length > listed.length ? "; and more" : "");
  } catch (error) {
    if (error instanceof TooDeep) {
      const where = error.path === "" ? "the schema or the " + what + " nest" : error.path + ": the schema or the value nests";
      return where + " more than " + MAX_SCHEMA_DEPTH + " levels deep, deeper than the check follows";
    }
    return "the " + what + " could not be checked";
  }
}

/**
 * Whether two JSON values are equal (deep, own enumerable keys).
 * @throws TooDeep (of `path`) past {@link MAX_SCHEMA_DEPTH} levels
 */
function jsonEqual(a: unknown, b: unknown, path: string, depth = 0): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (depth > MAX_SCHEMA_DEPTH) throw new TooDeep(path);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
    if (!jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], path, depth + 1)) return false;
  }
  return true;
}

function typeMatches(type: unknown, v: unknown): boolean {
  switch (type) {
    case "object":
      return isPlainObject(v);
    case "array":
      return Array.isArray(v);
    case "string":
      return typeof v === "string";
    case "integer":
      return typeof v === "number" && Number.isInteger(v);
    case "number":
      return typeof v === "number" && Number.isFinite(v);
    case "boolean":
      return typeof v === "boolean";
    case "null":
      return v === null;
    default:
      return true;
  }
}

/** The JSON Schema type `v` is an instance of, named as `type` names it (`integer` for a whole number), for a message; `v`'s JavaScript kind when it is none. */
function jsonTypeOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : Number.isFinite(v) ? "number" : String(v);
  if (typeof v === "object" && !isPlainObject(v)) return "object that is not plain JSON data";
  return typeof v;
}

function pointer(path: string, key: string | number): string {
  return path + "/" + escapeToken(String(key));
}

/** A JSON Schema `pattern` as a regular expression: with the `u` flag (ECMA-262 semantics), else without it (patterns written for engines that allow `\_`), else `undefined`. */
export function compilePattern(pattern: string): RegExp | undefined {
  for (const flags of ["u", ""]) {
    try {
      return new RegExp(pattern, flags);
    } catch {
      // try the next
    }
  }
  return undefined;
}

/**
 * Every problem of `v` against `schema` (stopping past {@link MAX_ISSUES}); empty when it passes.
 * @throws TooDeep past {@link MAX_SCHEMA_DEPTH}
 */
function schemaProblems(schema: unknown, v: unknown, path: string, depth: number, itemsBefore2020: boolean): string[] {
  // Where a problem is: the JSON Pointer and a colon, nothing at the root (whose pointer is empty).
  const at = path === "" ? "" : path + ": ";
  if (schema === false) return [at + "no value is allowed here"];
  if (!isPlainObject(schema)) return [];
  if (depth > MAX_SCHEMA_DEPTH) throw new TooDeep(path);
  const problems: string[] = [];
  const type = own(schema, "type");
  if (type !== undefined) {
    const types: readonly unknown[] = Array.isArray(type) ? type : [type];
    // A value of the wrong type: nothing else about it is worth saying.
    if (!types.some((t) => typeMatches(t, v))) return [at + "expected " + types.map(String).join(" or ") + ", got " + jsonTypeOf(v)];
  }
  const enumValues = own(schema, "enum");
  if (Array.isArray(enumValues) && !enumValues.some((e) => jsonEqual(e, v, path))) problems.push(at + "expected one of " + JSON.stringify(enumValues).slice(0, 120));
  if (Object.prototype.hasOwnProperty.call(schema, "const") && !jsonEqual(own(schema, "const"), v, path)) problems.push(at + "expected " + JSON.stringify(own(schema, "const")).slice(0, 120));
  if (typeof v === "number") {
    const min = own(schema, "minimum");
    const max = own(schema, "maximum");
    const xmin = own(schema, "exclusiveMinimum");
    const xmax = own(schema, "exclusiveMaximum");
    // Draft-04 writes an exclusive bound as a boolean beside minimum or maximum (before, it was not read).
    if (typeof min === "number" && (xmin === true ? v <= min : v < min)) problems.push(at + (xmin === true ? "must be more than " : "must be at least ") + min);
    if (typeof max === "number" && (xmax === true ? v >= max : v > max)) problems.push(at + (xmax === true ? "must be less than " : "must be at most ") + max);
    if (typeof xmin === "number" && v <= xmin) problems.push(at + "must be more than " + xmin);
    if (typeof xmax === "number" && v >= xmax) problems.push(at + "must be less than " + xmax);
  }
  if (typeof v === "string") {
    const length = [...v].length;
    const minLength = own(schema, "minLength");
    const maxLength = own(schema, "maxLength");
    const pattern = own(schema, "pattern");
    if (typeof minLength === "number" && length < minLength) problems.push(at + "must have at least " + counted(minLength, "character"));
    if (typeof maxLength === "number" && length > maxLength) problems.push(at + "must have at most " + counted(maxLength, "character"));
    if (typeof pattern === "string") {
      const re = compilePattern(pattern);
      // A pattern the platform cannot compile checks nothing it could pass: it fails, naming the pattern.
      if (re === undefined) problems.push(at + "the schema's pattern " + quoteShort(pattern) + " cannot be compiled");
      else if (!re.test(v)) problems.push(at + "must match the pattern " + quoteShort(pattern));
    }
  }
  if (Array.isArray(v)) {
    const minItems = own(schema, "minItems");
    const maxItems = own(schema, "maxItems");
    if (typeof minItems === "number" && v.length < minItems) problems.push(at + "must have at least " + counted(minItems, "item"));
    if (typeof maxItems === "number" && v.length > maxItems) problems.push(at + "must have at most " + counted(maxItems, "item"));
    // 2020-12: prefixItems checks the first elements and items the rest; earlier drafts write the first as an items array
    // and the rest as additionalItems (before, items was applied to every element, and valid tuples were refused).
    const items = own(schema, "items");
    const prefixItems = itemsBefore2020 ? undefined : own(schema, "prefixItems");
    const first: readonly unknown[] = Array.isArray(prefixItems) ? prefixItems : Array.isArray(items) ? items : [];
    const rest = Array.isArray(prefixItems) ? items : Array.isArray(items) ? own(schema, "additionalItems") : items;
    for (let i = 0; i < v.length && problems.length <= MAX_ISSUES; i++) {
      const sub = i < first.length ? first[i] : rest;
      if (isPlainObject(sub) || typeof sub === "boolean") problems.push(...schemaProblems(sub, v[i], pointer(path, i), depth + 1, itemsBefore2020));
    }
  }
  if (isPlainObject(v)) {
    const minProperties = own(schema, "minProperties");
    const maxProperties = own(schema, "maxProperties");
    // A property whose value is undefined is none: JSON.stringify leaves it out of what is sent (an optional property set
    // to undefined in a tool's structuredContent was refused, and a required one passed, then was missing).
    const keys = Object.keys(v).filter((key) => v[key] !== undefined);
    const count = keys.length;
    if (typeof minProperties === "number" && count < minProperties) problems.push(at + "must have at least " + counted(minProperties, "property", "properties"));
    if (typeof maxProperties === "number" && count > maxProperties) problems.push(at + "must have at most " + counted(maxProperties, "property", "properties"));
    const properties = own(schema, "properties");
    const props = isPlainObject(properties) ? properties : {};
    const required = own(schema, "required");
    if (Array.isArray(required)) {
      for (const name of required) {
        if (typeof name === "string" && (!Object.prototype.hasOwnProperty.call(v, name) || v[name] === undefined)) problems.push(at + "missing required property " + quoteShort(name));
      }
    }
    const additional = own(schema, "additionalProperties");
    const patternProperties = own(schema, "patternProperties");
    const patterns = isPlainObject(patternProperties) ? Object.keys(patternProperties).map((p) => ({ source: p, re: compilePattern(p), schema: patternProperties[p] })) : [];
    // A pattern no engine mode compiles cannot say which names it takes: it fails, as `pattern` does, when there is a name.
    const broken = count > 0 ? patterns.find((p) => p.re === undefined) : undefined;
    if (broken !== undefined) problems.push(at + "the schema's patternProperties pattern " + quoteShort(broken.source) + " cannot be compiled");
    for (const key of keys) {
      if (problems.length > MAX_ISSUES) break;
      const sub = own(props, key);
      if (sub !== undefined) problems.push(...schemaProblems(sub, v[key], pointer(path, key), depth + 1, itemsBefore2020));
      // A name matching a patternProperties pattern is checked against it, and is not an additional property.
      const matched = patterns.filter((p) => p.re !== undefined && p.re.test(key));
      for (const p of matched) problems.push(...schemaProblems(p.schema, v[key], pointer(path, key), depth + 1, itemsBefore2020));
      if (sub !== undefined || matched.length > 0) continue;
      if (additional === false) problems.push(pointer(path, key) + ": is not an allowed property");
      else if (isPlainObject(additional)) problems.push(...schemaProblems(additional, v[key], pointer(path, key), depth + 1, itemsBefore2020));
    }
  }
  const allOf = own(schema, "allOf");
  if (Array.isArray(allOf)) {
    for (const sub of allOf) problems.push(...schemaProblems(sub, v, path, depth + 1, itemsBefore2020));
  }
  const passes = (sub: unknown) => schemaProblems(sub, v, path, depth + 1, itemsBefore2020).length === 0;
  const anyOf = own(schema, "anyOf");
  // Every member is checked, not up to the first that passes: one too deep refuses the arguments whatever its place.
  if (Array.isArray(anyOf) && anyOf.length > 0 && !anyOf.map(passes).includes(true)) problems.push(at + "matches none of the allowed schemas");
  const oneOf = own(schema, "oneOf");
  if (Array.isArray(oneOf) && oneOf.length > 0 && oneOf.filter(passes).length !== 1) problems.push(at + "must match exactly one of the allowed schemas");
  const not = own(schema, "not");
  if (not !== undefined && (isPlainObject(not) || typeof not === "boolean") && passes(not)) problems.push(at + "matches a schema it must not match");
  return problems;
}

/** `n` and a noun, singular for 1: "1 character", "2 characters". */
function counted(n: number, one: string, many: string = one + "s"): string {
  return n + " " + (n === 1 ? one : many);
}
