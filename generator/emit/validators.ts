/**
 * Builds the code of `validators.ts`: for each schema type `X`, an internal check
 * `_isX(v, d)` (a boolean, no allocation), an internal collector `_collectX(v, p, o, d)`
 * (every issue, with JSON Pointer paths), and the public `isX`, `validateX` and Standard
 * Schema object. Nested arrays, index signatures, discriminated unions and union members
 * that need statements become helper functions named after their place in the type.
 *
 * Semantics (DESIGN.md, "Number semantics"; upstream's schema.json): `number` is an
 * integer unless `@TJS-type number`; NaN and ±Infinity are never numbers; a property whose
 * value is `undefined` is absent; interfaces without an index signature accept unknown
 * properties; `object` excludes arrays and null.
 */
import { refsIn, type Model } from "../analyze/index.js";
import type { KeywordType, ObjectType, TypeExpr, UnionType } from "../ir.js";
import { pointerToken, propertyRead } from "./names.js";
import { formatFunction, identifierPart, type SymbolTable, type TypeNames } from "./symbols.js";

/** The names `validators.ts` gets from the run's symbol table: its file, the types' names, the table for internal names. */
export interface ValidatorNames {
  readonly table: SymbolTable;
  /** The output file (the table's namespace): `validators.ts`, `2025-11-25/validators.ts`. */
  readonly file: string;
  readonly types: ReadonlyMap<string, TypeNames>;
}

/** One block of generated code for a type: its functions and its public exports. */
export interface ValidatorBlock {
  readonly names: TypeNames;
  /** `schema.ts:LINE` of the declaration. */
  readonly line: number;
  /** Internal functions (check, collect and helpers), source text. */
  readonly internals: string;
  /** Whether the type is exported (only exported types get public functions). */
  readonly exported: boolean;
  /** The public `isX` and `validateX` functions (when exported), source text. */
  readonly publics: string;
  /** The key in `validatorsByType`: the name, or `["__proto__"]` so an object literal makes it an own key. */
  readonly key: string;
}

/** The view model of `validators.ts`. */
export interface ValidatorsView {
  readonly blocks: readonly ValidatorBlock[];
  /** Module-level constants (regular expressions), source text. */
  readonly constants: readonly string[];
}

/** Builds the `validators.ts` view model from the analysed schema. */
export function buildValidators(model: Model, symbols: ValidatorNames): ValidatorsView {
  const names = symbols.types;
  const emitter = new ValidatorEmitter(model, names, symbols);
  const blocks = model.types.map((decl) => ({
    ...emitter.declaration(decl.name, decl.type, decl.span.line),
    exported: decl.exported,
    publics: decl.exported ? publicFunctions(names.get(decl.name)!, `${model.ir.source}:${decl.span.line}`) : "",
    key: decl.name === "__proto__" ? '["__proto__"]' : decl.name,
  }));
  return { blocks, constants: emitter.constants };
}

const IDENT_CHARS = /[^A-Za-z0-9_$]/g;

/**
 * How many conditions one expression holds before the emitter splits it (see {@link chain},
 * long literal unions and long intersections). No type of the MCP schemas comes near it.
 */
const LONG = 64;

/**
 * Joins conditions with `&&` or `||`. Past 64 terms each run of 64 becomes an arrow function
 * called in place (and runs of those, the same): TypeScript follows a chain of thousands of
 * conditions one stack frame per condition and overflows (an interface of 1 200 properties did),
 * while a function body starts afresh.
 */
function chain(parts: readonly string[], operator: " && " | " || "): string {
  if (parts.length <= LONG) return parts.join(operator);
  const groups: string[] = [];
  for (let i = 0; i < parts.length; i += LONG) groups.push(`(() => ${parts.slice(i, i + LONG).join(operator)})()`);
  return chain(groups, operator);
}

class ValidatorEmitter {
  readonly constants: string[] = [];
  private helpers: string[] = [];
  private readonly patternNames = new Map<string, string>();
  private readonly literalSetNames = new Map<string, string>();

  constructor(
    private readonly model: Model,
    private readonly names: ReadonlyMap<string, TypeNames>,
    private readonly symbols: ValidatorNames,
  ) {}

  /** A new internal name of the module, from the symbol table (helpers never take a declared name). */
  private internalName(base: string): string {
    return this.symbols.table.internal(this.symbols.file, base);
  }

  declaration(name: string, type: TypeExpr, line: number): Omit<ValidatorBlock, "exported" | "key" | "publics"> {
    const n = this.names.get(name)!;
    this.helpers = [];
    const recursive = this.model.recursive.has(name);
    const statements = this.needsStatements(type);
    if (statements) {
      // The declaration's own functions are the helpers for its top-level type.
      this.helperChecks.set(typeKey(type), n.check);
      this.helperCollectors.set(typeKey(type), n.collect);
    }
    const checkBody = [
      ...(recursive ? ["if (d > MAX_DEPTH) return false;"] : []),
      ...(statements ? this.helperCheckBody(type, n.check) : [`return ${this.check(type, "v", n.check, 0)};`]),
    ];
    const collectBody = [
      ...(recursive ? ["if (stop(o, p, d)) return;"] : []),
      // A nested part that passes the fast check has no issues: skip it without building paths.
      // At the root (p === "") the value is collected directly: validate has not checked it yet,
      // and when it is invalid (the usual reason to collect) the check would be wasted work.
      // Inside recursive types only at the root (a valid value then costs one fast check): at
      // every level the check would walk the subtree again, and collecting an invalid value d
      // levels deep would take d² steps.
      ...(this.simpleLeaf(type, "v", n.check, 0) ? [] : [`if (${recursive ? 'p === ""' : 'p !== ""'} && ${n.check}(v, d)) return;`]),
      ...this.collectStatements(type, "v", "p", n.collect, 0, true),
    ];
    const own = [
      checkFunction(n.check, checkBody),
      collectFunction(n.collect, collectBody),
    ];
    return { names: n, line, internals: [...own, ...this.helpers].join("\n\n") };
  }

  /** Whether checking `type` takes statements (a loop or a switch), not one expression. */
  private needsStatements(type: TypeExpr): boolean {
    switch (type.kind) {
      case "array":
      case "tuple":
        return true;
      case "object":
        return type.indexSignature !== undefined && !isAnything(type.indexSignature);
      case "union":
        return this.model.discriminantOf(type) !== undefined && !simplifyUnion(type).some(isAnything);
      default:
        return false;
    }
  }

  // ---- boolean checks ------------------------------------------------------------------

  /**
   * A boolean expression: does `v` (a side-effect-free expression) match `type`? `level` is
   * how many arrays and objects `v` lies below the value the function was called with; calls
   * pass `d + level`, so `d` is always the nesting depth of the value being checked.
   */
  check(type: TypeExpr, v: string, place: string, level: number): string {
    switch (type.kind) {
      case "keyword":
        return this.keywordCheck(type, v);
      case "literal":
        return `${v} === ${JSON.stringify(type.value)}`;
      case "ref": {
        // A reference to a plain alias (`RequestId = string | number`) is checked in place.
        const target = this.model.typeOf(type.name);
        if (target && !this.model.recursive.has(type.name) && isPlainLeaf(target)) return paren(this.check(target, v, place, level));
        return `${this.names.get(type.name)!.check}(${v}, ${depthArg(level)})`;
      }
      case "array":
      case "tuple":
        return `${this.helper(type, place)}(${v}, ${depthArg(level)})`;
      case "union":
        return this.unionCheck(type, v, place, level);
      case "intersection": {
        // Members that are all plain object shapes are checked as one object: one plain-object
        // test, no call per member (`Error & { code; data }` was two object tests and a call).
        const merged = this.mergedIntersection(type) ?? this.model.checkShape(type);
        if (merged) return this.objectCheck(merged, v, place, level);
        return chain(type.members.map((m, i) => paren(this.check(m, v, `${place}$${i}`, level))), " && ");
      }
      case "object":
        return this.needsStatements(type) ? `${this.helper(type, place)}(${v}, ${depthArg(level)})` : this.objectCheck(type, v, place, level);
    }
  }

  private keywordCheck(type: KeywordType, v: string): string {
    const c = type.constraints;
    const parts: string[] = [];
    switch (type.name) {
      case "string":
        parts.push(`typeof ${v} === "string"`);
        if (c?.format) parts.push(`${this.format(c.format)}(${v})`);
        if (c?.pattern !== undefined) parts.push(`${this.pattern(c.pattern)}.test(${v})`);
        break;
      case "number":
        parts.push(type.numberType === "number" ? `Number.isFinite(${v})` : `Number.isInteger(${v})`);
        if (c?.minimum !== undefined) parts.push(`${v} >= ${c.minimum}`);
        if (c?.maximum !== undefined) parts.push(`${v} <= ${c.maximum}`);
        break;
      case "boolean":
        parts.push(`typeof ${v} === "boolean"`);
        break;
      case "null":
        parts.push(`${v} === null`);
        break;
      case "undefined":
        parts.push(`${v} === undefined`);
        break;
      case "object":
        parts.push(`isPlainObject(${v})`);
        break;
      case "never":
        parts.push("false");
        break;
      case "unknown":
      case "any":
        parts.push("true");
        break;
    }
    return chain(parts, " && ");
  }

  private unionCheck(type: UnionType, v: string, place: string, level: number): string {
    const members = simplifyUnion(type);
    if (members.some(isAnything)) return "true";
    if (this.needsStatements(type)) return `${this.helper(type, place)}(${v}, ${depthArg(level)})`;
    // A long union of literals is one Set lookup (TypeScript cannot analyse thousands of `===`).
    if (members.length > LONG) {
      const resolved = members.map((m) => this.model.resolve(m));
      if (resolved.every((m) => m.kind === "literal")) {
        return `${this.literalSet(resolved.map((m) => (m as Extract<TypeExpr, { kind: "literal" }>).value))}.has(${v})`;
      }
    }
    return chain(members.map((m, i) => paren(this.check(m, v, `${place}$${i}`, level))), " || ");
  }

  private objectCheck(type: ObjectType, v: string, place: string, level: number): string {
    const parts = [`isPlainObject(${v})`];
    // Cheap checks first: a wrong literal or primitive fails before any nested value is visited.
    const ordered = [...type.properties].sort((a, b) => this.cost(a.type) - this.cost(b.type));
    for (const p of ordered) {
      const read = propertyRead(v, p.name);
      const check = this.check(p.type, read, `${place}$${p.name}`, level + 1);
      if (p.optional) {
        if (check !== "true") parts.push(`(${read} === undefined || ${check})`);
      } else if (acceptsUndefined(p.type) || check === "true") {
        parts.push(`${read} !== undefined`);
        if (check !== "true") parts.push(paren(check));
      } else parts.push(paren(check));
    }
    return chain(parts, " && ");
  }

  /** 0 for a literal or primitive check, 1 for a plain union, 2 for anything that may visit nested values. */
  private cost(type: TypeExpr): number {
    const t = type.kind === "ref" && !this.model.recursive.has(type.name) ? (this.model.typeOf(type.name) ?? type) : type;
    if (t.kind === "literal" || (t.kind === "keyword" && !t.constraints)) return 0;
    if (isPlainLeaf(t)) return 1;
    return 2;
  }

  // ---- helpers needing statements ----------------------------------------------------------

  /**
   * Hoists the check and collector of `type` into named helper functions
   * (`<place>`, `<place>$collect`) and returns the check function's name.
   */
  private helper(type: TypeExpr, place: string): string {
    const known = this.helperChecks.get(typeKey(type));
    if (known) return known;
    const base = this.internalName(identifierPart(place));
    const collectName = this.internalName(`${base}$collect`);
    this.helperCollectors.set(typeKey(type), collectName);
    this.helperChecks.set(typeKey(type), base);
    const checkBody = this.helperCheckBody(type, base);
    this.helpers.push(checkFunction(base, checkBody));
    const collectBody = this.collectStatements(type, "v", "p", collectName, 0, true);
    this.helpers.push(collectFunction(collectName, collectBody));
    return base;
  }

  /** Hoisted functions by the structure of their type: equal types share one function. */
  private readonly helperCollectors = new Map<string, string>();
  private readonly helperChecks = new Map<string, string>();

  private helperCheckBody(type: TypeExpr, place: string): string[] {
    switch (type.kind) {
      case "array": {
        const lines = ["if (!Array.isArray(v)) return false;"];
        const max = type.constraints?.maxItems;
        if (max !== undefined) lines.push(`if (v.length > ${max}) return false;`);
        const element = this.check(type.element, "v[i]", `${place}$items`, 1);
        if (element !== "true") lines.push(`for (let i = 0; i < v.length; i++) if (!(${element})) return false;`);
        lines.push("return true;");
        return lines;
      }
      case "tuple":
        return [
          `return Array.isArray(v) && v.length === ${type.elements.length}${type.elements
            .map((e, i) => ` && ${paren(this.check(e, `v[${i}]`, `${place}$${i}`, 1))}`)
            .join("")};`,
        ];
      case "object": {
        const named = type.properties.map((p) => `k === ${JSON.stringify(p.name)}`);
        // Inherited keys, named properties and undefined values (absent in JSON) are not index entries.
        const skip = chain(["!hasOwn.call(v, k)", ...named, "v[k] === undefined"], " || ");
        return [
          `if (!(${this.objectCheck(type, "v", place, 0)})) return false;`,
          `for (const k in v) {`,
          `  if (${skip}) continue;`,
          `  if (!(${this.check(type.indexSignature!, "v[k]", `${place}$values`, 1)})) return false;`,
          `}`,
          `return true;`,
        ];
      }
      case "union": {
        const disc = this.model.discriminantOf(type)!;
        const lines = [`if (!isPlainObject(v)) return false;`, `switch (${propertyRead("v", disc.property)}) {`];
        for (const c of disc.cases) {
          for (const value of c.values) lines.push(`  case ${JSON.stringify(value)}:`);
          if (c.member === disc.whenAbsent) lines.push("  case undefined:");
          lines.push(`    return ${this.check(c.member, "v", `${place}$${caseName(c.values)}`, 0)};`);
        }
        lines.push("  default:", "    return false;", "}");
        return lines;
      }
      default:
        throw new Error(`no helper for ${type.kind}`);
    }
  }

  // ---- issue collectors --------------------------------------------------------------------

  /**
   * Statements that push every issue of `v` against `type` onto `o`, with paths from
   * expression `p`. `depth` is how many arrays and objects `v` lies below the function's
   * value (as `level` in {@link check}); it also numbers the loop variables.
   */
  collect(type: TypeExpr, v: string, p: string, place: string, depth: number): string[] {
    const hoisted = this.helperCollectors.get(typeKey(type));
    if (hoisted) return [`${hoisted}(${v}, ${p}, o, ${depthArg(depth)});`];
    return this.collectStatements(type, v, p, place, depth, false);
  }

  private collectStatements(type: TypeExpr, v: string, p: string, place: string, depth: number, inHelper: boolean): string[] {
    if (!inHelper && type.kind === "union" && this.needsStatements(type)) {
      this.helper(type, place);
      return [`${this.helperCollectors.get(typeKey(type))!}(${v}, ${p}, o, ${depthArg(depth)});`];
    }
    switch (type.kind) {
      case "ref":
        return [`${this.names.get(type.name)!.collect}(${v}, ${p}, o, ${depthArg(depth)});`];
      case "keyword":
      case "literal":
        return this.leafCollect(type, v, p, place, depth);
      case "array":
        return this.arrayCollect(type, v, p, place, depth);
      case "tuple":
        return this.tupleCollect(type, v, p, place, depth);
      case "object":
        return this.objectCollect(type, v, p, place, depth);
      case "intersection":
        return this.intersectionCollect(type, v, p, place, depth);
      case "union":
        return this.unionCollect(type, v, p, place, depth);
    }
  }

  /**
   * A type whose only possible issue is one "expected …" (no format, pattern or bounds):
   * its check expression, its description and the issue keyword; `undefined` otherwise.
   */
  private simpleLeaf(type: TypeExpr, v: string, place: string, level: number): { check: string; what: string; keyword?: string } | undefined {
    if (type.kind === "keyword") {
      if (isAnything(type) || type.constraints) return undefined;
      return { check: this.keywordCheck(type, v), what: describe(type) };
    }
    if (type.kind === "literal") return { check: this.check(type, v, place, level), what: describe(type), keyword: "const" };
    if (type.kind === "object" && type.properties.length === 0 && (!type.indexSignature || isAnything(type.indexSignature))) {
      return { check: `isPlainObject(${v})`, what: "object" };
    }
    if (type.kind === "union" && !this.needsStatements(type)) {
      const members = simplifyUnion(type);
      if (members.some(isAnything)) return undefined;
      const leaves = members.map((m) => this.model.resolve(m));
      if (!leaves.every((m) => isLeaf(m, this.model))) return undefined;
      const flat = flattenLeaves(leaves, this.model);
      const allLiterals = flat.every((m) => m.kind === "literal");
      const what = describeUnion(flat);
      const check = this.unionCheck(type, v, place, level);
      return allLiterals ? { check, what, keyword: "enum" } : { check, what };
    }
    return undefined;
  }

  private leafCollect(type: KeywordType | Extract<TypeExpr, { kind: "literal" }>, v: string, p: string, place: string, depth: number): string[] {
    const simple = this.simpleLeaf(type, v, place, depth);
    if (simple) return [`if (!(${simple.check})) ${expectedCall(p, simple, v)};`];
    if (type.kind !== "keyword" || isAnything(type)) return [];
    const base: KeywordType = { kind: "keyword", name: type.name, ...(type.numberType ? { numberType: type.numberType } : {}) };
    const lines = [`if (!(${this.check(base, v, place, depth)})) expected(o, ${p}, ${JSON.stringify(describe(type))}, ${v});`];
    const c = type.constraints;
    if (c?.format) {
      lines.push(`else if (!${this.format(c.format)}(${v})) issue(o, ${p}, "format", ${JSON.stringify(`expected a ${c.format} string`)});`);
    }
    if (c?.pattern !== undefined) {
      lines.push(`else if (!${this.pattern(c.pattern)}.test(${v})) issue(o, ${p}, "pattern", ${JSON.stringify(`must match /${c.pattern}/`)});`);
    }
    if (c?.minimum !== undefined) {
      lines.push(`else if (${v} < ${c.minimum}) issue(o, ${p}, "minimum", ${JSON.stringify(`must be >= ${c.minimum}`)});`);
    }
    if (c?.maximum !== undefined) {
      lines.push(`else if (${v} > ${c.maximum}) issue(o, ${p}, "maximum", ${JSON.stringify(`must be <= ${c.maximum}`)});`);
    }
    return lines;
  }

  private arrayCollect(type: Extract<TypeExpr, { kind: "array" }>, v: string, p: string, place: string, depth: number): string[] {
    const i = `i${depth}`;
    const e = `e${depth}`;
    const named = type.constraints?.maxItems === undefined ? this.namedCollector(type.element, `${place}$items`, depth + 1) : undefined;
    if (named) return [`items(o, ${p}, ${v}, ${named.depth}, ${named.name});`];
    const lines = [`if (!Array.isArray(${v})) expected(o, ${p}, "array", ${v});`, `else {`];
    const max = type.constraints?.maxItems;
    if (max !== undefined) {
      lines.push(`  if (${v}.length > ${max}) issue(o, ${p}, "maxItems", "must have at most ${max} items, has " + ${v}.length);`);
    }
    const element = this.collect(type.element, e, `${p} + "/" + ${i}`, `${place}$items`, depth + 1);
    if (element.length > 0) {
      lines.push(`  for (let ${i} = 0; ${i} < ${v}.length && o.length <= MAX_ISSUES; ${i}++) {`, `    const ${e} = ${v}[${i}];`, ...indent(element, "    ").split("\n"), "  }");
    }
    lines.push("}");
    return lines;
  }

  /** The named collector of a type, if it has one (a reference, or a hoisted helper), and the depth to call it with. */
  private namedCollector(type: TypeExpr, place: string, depth: number): { name: string; depth: string } | undefined {
    if (type.kind === "ref") {
      const target = this.model.typeOf(type.name);
      if (target && !this.model.recursive.has(type.name) && isPlainLeaf(target)) return undefined;
      return { name: this.names.get(type.name)!.collect, depth: depthArg(depth) };
    }
    if (this.needsStatements(type)) {
      this.helper(type, place);
      return { name: this.helperCollectors.get(typeKey(type))!, depth: depthArg(depth) };
    }
    return undefined;
  }

  private tupleCollect(type: Extract<TypeExpr, { kind: "tuple" }>, v: string, p: string, place: string, depth: number): string[] {
    const n = type.elements.length;
    const lines = [
      `if (!Array.isArray(${v})) expected(o, ${p}, "array", ${v});`,
      `else if (${v}.length !== ${n}) issue(o, ${p}, "items", "must have exactly ${n} items, has " + ${v}.length);`,
      `else {`,
    ];
    type.elements.forEach((el, idx) => {
      lines.push(...indent(this.collect(el, `${v}[${idx}]`, `${p} + "/${idx}"`, `${place}$${idx}`, depth + 1), "  ").split("\n"));
    });
    lines.push("}");
    return lines.filter((l) => l.trim() !== "");
  }

  private objectCollect(type: ObjectType, v: string, p: string, place: string, depth: number): string[] {
    const body: string[] = [];
    for (const prop of type.properties) {
      const read = propertyRead(v, prop.name);
      // need/req/opt take the property's JSON Pointer token, "/" and its escaped name.
      const name = JSON.stringify(`/${pointerToken(prop.name)}`);
      const simple = this.simpleLeaf(prop.type, read, `${place}$${prop.name}`, depth + 1);
      if (simple) {
        // One line per plain property: `req`/`opt` push "missing" or "expected …".
        const args = `o, ${p}, ${name}, ${read}, ${simple.check}, ${JSON.stringify(simple.what)}${simple.keyword ? `, "${simple.keyword}"` : ""}`;
        body.push(`${prop.optional ? "opt" : "req"}(${args});`);
        continue;
      }
      const path = appendPath(p, `/${pointerToken(prop.name)}`);
      const inner = this.collect(prop.type, read, path, `${place}$${prop.name}`, depth + 1);
      const guardExpression = prop.optional ? `${read} !== undefined` : `need(o, ${p}, ${name}, ${read})`;
      if (inner.length === 0) {
        if (!prop.optional) body.push(`${guardExpression};`);
      } else if (inner.length === 1) body.push(`if (${guardExpression}) ${inner[0]}`);
      else body.push(`if (${guardExpression}) {`, ...indentLines(inner), "}");
    }
    if (type.indexSignature && !isAnything(type.indexSignature)) {
      const k = `k${depth}`;
      const skip = chain([`!hasOwn.call(${v}, ${k})`, ...type.properties.map((q) => `${k} === ${JSON.stringify(q.name)}`), `${v}[${k}] === undefined`], " || ");
      const inner = this.collect(type.indexSignature, `${v}[${k}]`, `${p} + "/" + escapeToken(${k})`, `${place}$values`, depth + 1);
      body.push(`for (const ${k} in ${v}) {`, "  if (o.length > MAX_ISSUES) break;", `  if (${skip}) continue;`, ...indentLines(inner), "}");
    }
    if (body.length === 0) return [`if (!isPlainObject(${v})) expected(o, ${p}, "object", ${v});`];
    return [`if (object(o, ${p}, ${v})) {`, ...indentLines(body), "}"];
  }

  /**
   * A long intersection of object types (over 64 members, none with an index signature) as one
   * object type: one object test instead of one per member, which TypeScript could not analyse.
   */
  private mergedIntersection(type: Extract<TypeExpr, { kind: "intersection" }>): ObjectType | undefined {
    return type.members.length > LONG ? this.model.checkShape(type, { throughRecursive: true, anyIndexSignature: false }) : undefined;
  }

  private intersectionCollect(type: Extract<TypeExpr, { kind: "intersection" }>, v: string, p: string, place: string, depth: number): string[] {
    const merged = this.mergedIntersection(type);
    if (merged) return this.collect(merged, v, p, place, depth);
    const objects = type.members.every((m) => this.model.shapeOf(m) !== undefined);
    const inner = type.members.flatMap((m, i) => this.collect(m, v, p, `${place}$${i}`, depth));
    if (!objects) return inner;
    return [`if (object(o, ${p}, ${v})) {`, ...indentLines(inner), "}"];
  }

  private unionCollect(type: UnionType, v: string, p: string, place: string, depth: number): string[] {
    const members = simplifyUnion(type);
    if (members.some(isAnything)) return [];
    const disc = this.model.discriminantOf(type);
    if (disc) return this.discriminatedCollect(type, v, p, place, depth);
    const simple = this.simpleLeaf(type, v, place, depth);
    if (simple) return [`if (!(${simple.check})) ${expectedCall(p, simple, v)};`];
    const collectors = members.map((m, i) => this.memberCollector(m, `${place}$${i}`));
    const masks = members.map((m) => jsonTypeMask(m, this.model));
    const label = members.map((m) => labelOf(m)).join(" | ");
    const call = `anyOf(o, ${p}, ${v}, ${depthArg(depth)}, ${JSON.stringify(label)}, [${masks.join(", ")}], [${collectors.join(", ")}]);`;
    // A union reaching a recursive type: anyOf itself finds a matching member (one without
    // issues); a fast check first would walk the subtree once more at every level.
    if ([...refsIn(type)].some((name) => this.model.recursive.has(name))) return [call];
    return [`if (!(${this.unionCheck(type, v, place, depth)})) ${call}`];
  }

  /** A collector function for one union member: the type's own, or a hoisted one. */
  private memberCollector(member: TypeExpr, place: string): string {
    if (member.kind === "ref") return this.names.get(member.name)!.collect;
    const known = this.helperCollectors.get(typeKey(member));
    if (known) return known;
    const name = this.internalName(`${identifierPart(place)}$collect`);
    this.helperCollectors.set(typeKey(member), name);
    const body = this.collectStatements(member, "v", "p", place, 0, false);
    this.helpers.push(collectFunction(name, body));
    return name;
  }

  private discriminatedCollect(type: UnionType, v: string, p: string, place: string, depth: number): string[] {
    const disc = this.model.discriminantOf(type)!;
    const read = propertyRead(v, disc.property);
    const lines = [`if (object(o, ${p}, ${v}))`, `  switch (${read}) {`];
    for (const c of disc.cases) {
      for (const value of c.values) lines.push(`  case ${JSON.stringify(value)}:`);
      if (c.member === disc.whenAbsent) lines.push("  case undefined:");
      lines.push(`    ${this.memberCollector(c.member, `${place}$${caseName(c.values)}`)}(${v}, ${p}, o, ${depthArg(depth)});`, "    break;");
    }
    const allowed = disc.cases.flatMap((c) => c.values.map((x) => JSON.stringify(x))).join(", ");
    const path = appendPath(p, `/${pointerToken(disc.property)}`);
    if (!disc.whenAbsent) {
      lines.push("  case undefined:", `    missing(o, ${path}, ${JSON.stringify(disc.property)});`, "    break;");
    }
    lines.push(
      "  default:",
      `    issue(o, ${path}, "discriminator", ${JSON.stringify(`unknown ${disc.property} `)} + describeValue(${read}) + ${JSON.stringify(`; expected one of ${allowed}`)});`,
      "}",
    );
    return lines;
  }

  // ---- constants ---------------------------------------------------------------------------

  private format(format: string): string {
    return formatFunction(format);
  }

  private literalSet(values: readonly (string | number | boolean)[]): string {
    const source = `[${[...new Set(values.map((x) => JSON.stringify(x)))].join(", ")}]`;
    let name = this.literalSetNames.get(source);
    if (!name) {
      name = this.internalName(`LITERALS_${this.literalSetNames.size + 1}`);
      this.literalSetNames.set(source, name);
      this.constants.push(`const ${name}: ReadonlySet<unknown> = new Set(${source});`);
    }
    return name;
  }

  private pattern(source: string): string {
    let name = this.patternNames.get(source);
    if (!name) {
      name = this.internalName(`PATTERN_${this.patternNames.size + 1}`);
      this.patternNames.set(source, name);
      this.constants.push(`const ${name} = new RegExp(${JSON.stringify(source)}, "u");`);
    }
    return name;
  }
}

/**
 * `isX` and `validateX` of one type, each its own function calling the type's own check:
 * a wrapper shared by every type (a closure made by one runtime function) has one call site
 * for all checks, which the engine then neither inlines nor specialises. `validateX` answers
 * from the fast check when it accepts (a valid value costs no more than `isX`) and collects
 * the issues only otherwise; `isX` turns a throwing getter or Proxy trap into a "no", and
 * `validateX` leaves it to the collector, which reports it as an `exception` issue.
 */
function publicFunctions(n: TypeNames, where: string): string {
  return [
    `/** \`${n.type}\` (${where}) */`,
    `export function ${n.is}(value: unknown): value is T.${n.type} {`,
    `  try {`,
    `    return ${n.check}(value, 0);`,
    `  } catch {`,
    `    return false;`,
    `  }`,
    `}`,
    `/** \`${n.type}\` (${where}): every issue, or the value typed */`,
    `export function ${n.validate}(value: unknown): ValidationResult<T.${n.type}> {`,
    `  return ${n.is}(value) ? { ok: true, value } : collectIssues<T.${n.type}>(${n.collect}, value);`,
    `}`,
  ].join("\n");
}

/** `p + "/a"`, folding into a trailing string literal: `p + "/a" + "/b"` becomes `p + "/a/b"`. */
function appendPath(p: string, suffix: string): string {
  const m = /^(.*) \+ ("(?:[^"\\]|\\.)*")$/.exec(p);
  if (m) return `${m[1]} + ${JSON.stringify((JSON.parse(m[2]!) as string) + suffix)}`;
  return `${p} + ${JSON.stringify(suffix)}`;
}

/** The depth argument for a call on a value `level` arrays or objects below the function's own value. */
function depthArg(level: number): string {
  return level === 0 ? "d" : `d + ${level}`;
}

function expectedCall(p: string, simple: { what: string; keyword?: string }, v: string): string {
  return `expected(o, ${p}, ${JSON.stringify(simple.what)}, ${v}${simple.keyword ? `, "${simple.keyword}"` : ""})`;
}

/** A key equal for structurally equal types (source positions and docs left out). */
function typeKey(type: TypeExpr): string {
  return JSON.stringify(type, (key, value: unknown) => (key === "span" || key === "docs" || key === "inheritedFrom" ? undefined : value));
}

function caseName(values: readonly (string | number | boolean)[]): string {
  return String(values[0]).replace(IDENT_CHARS, "_");
}

function paren(expression: string): string {
  return /\|\||&&|[<>=]=|===/.test(expression) ? `(${expression})` : expression;
}

function indentLines(lines: readonly string[]): string[] {
  return lines.map((l) => `  ${l}`);
}

/**
 * A parameter as declared: its name, or `_name` when `body` never reads it, so that a user's
 * `noUnusedParameters` accepts the function (the depth `d` goes unused in leaf checks).
 */
function parameter(name: string, type: string, body: readonly string[]): string {
  const code = body.join("\n").replace(/"(?:[^"\\\n]|\\.)*"/g, '""');
  const used = new RegExp(`(?<![\\w$.])${name}(?![\\w$])`).test(code);
  return `${used ? name : `_${name}`}: ${type}`;
}

/** An internal check function `name(v, d): boolean`. */
function checkFunction(name: string, body: readonly string[]): string {
  return `function ${name}(${parameter("v", "any", body)}, ${parameter("d", "number", body)}): boolean {\n${indent(body, "  ")}\n}`;
}

/** An internal collector function `name(v, p, o, d): void`. */
function collectFunction(name: string, body: readonly string[]): string {
  const params = [parameter("v", "any", body), parameter("p", "string", body), parameter("o", "ValidationIssue[]", body), parameter("d", "number", body)];
  return `function ${name}(${params.join(", ")}): void {\n${indent(body, "  ")}\n}`;
}

function indent(lines: readonly string[], prefix: string): string {
  return lines.map((l) => prefix + l).join("\n");
}

/** `unknown` and `any` accept everything. */
function isAnything(type: TypeExpr): boolean {
  return type.kind === "keyword" && (type.name === "unknown" || type.name === "any");
}

/** Whether `undefined` passes the type's check (so a required property needs its own presence test). */
function acceptsUndefined(type: TypeExpr): boolean {
  if (type.kind === "keyword") return type.name === "unknown" || type.name === "any" || type.name === "undefined";
  if (type.kind === "union") return type.members.some(acceptsUndefined);
  if (type.kind === "intersection") return type.members.every(acceptsUndefined);
  return false;
}

/** Drops string literals from a union that also has `string` (an open union `"a" | "b" | string`). */
function simplifyUnion(type: UnionType): TypeExpr[] {
  const open = type.members.some((m) => m.kind === "keyword" && m.name === "string" && !m.constraints);
  return open ? type.members.filter((m) => !(m.kind === "literal" && typeof m.value === "string")) : [...type.members];
}

/** A keyword, literal or union of them, without constraints: cheaper to check in place than to call. */
function isPlainLeaf(type: TypeExpr): boolean {
  if (type.kind === "keyword") return !type.constraints;
  if (type.kind === "literal") return true;
  if (type.kind === "union") return type.members.length <= 8 && type.members.every(isPlainLeaf);
  return false;
}

function isLeaf(type: TypeExpr, model: Model): boolean {
  if (type.kind === "keyword") return !type.constraints;
  if (type.kind === "literal") return true;
  if (type.kind === "union") return type.members.every((m) => isLeaf(model.resolve(m), model));
  return false;
}

function describe(type: TypeExpr): string {
  if (type.kind === "literal") return JSON.stringify(type.value);
  if (type.kind === "keyword") return type.name === "number" ? (type.numberType === "number" ? "number" : "integer") : type.name;
  return type.kind;
}

/** Leaf members of nested unions (through aliases), in order. */
function flattenLeaves(members: readonly TypeExpr[], model: Model): TypeExpr[] {
  return members.flatMap((m) => {
    const t = model.resolve(m);
    return t.kind === "union" ? flattenLeaves(t.members, model) : [t];
  });
}

function describeUnion(flat: readonly TypeExpr[]): string {
  if (flat.every((m) => m.kind === "literal")) return `one of ${flat.map(describe).join(", ")}`;
  return [...new Set(flat.map(describe))].join(" or ");
}

/** How a union member is named in an `anyOf` message: `TextContent`, `TextContent[]`, `string`, `object`. */
function labelOf(type: TypeExpr): string {
  switch (type.kind) {
    case "ref":
      return type.name;
    case "array":
      return type.element.kind === "union" || type.element.kind === "intersection" ? `(${labelOf(type.element)})[]` : `${labelOf(type.element)}[]`;
    case "union":
      return type.members.map(labelOf).join(" | ");
    case "object":
      return "object";
    default:
      return describe(type);
  }
}

/** JSON types a value of `type` can have, as the bits of the runtime's `jsonType`. */
function jsonTypeMask(type: TypeExpr, model: Model, seen = new Set<string>()): number {
  switch (type.kind) {
    case "keyword":
      return { string: 1, number: 2, boolean: 4, null: 8, object: 16, unknown: 63, any: 63, never: 0, undefined: 0 }[type.name];
    case "literal":
      return typeof type.value === "string" ? 1 : typeof type.value === "number" ? 2 : 4;
    case "ref": {
      if (seen.has(type.name)) return 0;
      seen.add(type.name);
      const target = model.typeOf(type.name);
      return target ? jsonTypeMask(target, model, seen) : 63;
    }
    case "array":
    case "tuple":
      return 32;
    case "object":
      return 16;
    case "union":
      return type.members.reduce((mask, m) => mask | jsonTypeMask(m, model, seen), 0);
    case "intersection":
      return type.members.reduce((mask, m) => mask & jsonTypeMask(m, model, new Set(seen)), 63);
  }
}
