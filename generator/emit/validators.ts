/**
 * Builds the code of `validators.ts`: for each schema type `X`, an internal check
 * `_isX(v, d)` (a boolean, no allocation), an internal collector `_collectX(v, p, o, d)`
 * (every issue, with JSON Pointer paths), and the public `isX`, `validateX` and Standard
 * Schema object. Nested arrays, index signatures, discriminated unions and union members
 * that need statements become helper functions named after their place in the type.
 *
 * The functions are built as trees (`code/tree.ts`) and printed once (`code/print.ts`); the
 * runtime helpers they refer to are recorded as the references are made, and the runtime
 * copied into the file is what those roots need.
 *
 * Semantics (DESIGN.md, "Number semantics"; upstream's schema.json): `number` is an
 * integer unless `@TJS-type number`; NaN and ±Infinity are never numbers; a property whose
 * value is `undefined` is absent; interfaces without an index signature accept unknown
 * properties; `object` excludes arrays and null.
 */
import { refsIn, type Model } from "../analyze/index.js";
import { identifierPart } from "../case.js";
import type { IntersectionType, KeywordType, LiteralType, ObjectType, Property, TypeExpr, UnionType } from "../ir.js";
import { Layout, layOutPublicFunctions, layOutStandardSchema } from "./code/layout.js";
import { isOneLine } from "./code/print.js";
import {
  array,
  binary,
  block,
  call,
  chain,
  element,
  expressionStatement,
  FALSE,
  id,
  ifStatement,
  isTrue,
  lit,
  LONG,
  not,
  pathAppend,
  property,
  returnStatement,
  RuntimeUses,
  statementIdentifiers,
  TRUE,
  typeOf,
  type Expression,
  type Statement,
  type SwitchCase,
} from "./code/tree.js";
import { pointerToken, readsThroughOwn } from "./names.js";
import { PRINT_WIDTH } from "./print-type.js";
import { formatFunction, type SymbolTable, type TypeNames } from "./symbols.js";

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
  /** Internal functions (check, its entry copy, collect and helpers), source text. */
  readonly internals: string;
  /** The check `isX` calls: `names.check`, or the entry's own copy of it (see {@link ValidatorEmitter.entry}). */
  readonly entry: string;
  /** Whether the type is exported (only exported types get public functions). */
  readonly exported: boolean;
  /** The public `isX` and `validateX` functions (when exported), source text. */
  readonly publics: string;
  /** The declaration of the Standard Schema object (when exported), source text. */
  readonly standardSchema: string;
  /** The key in `validatorsByType`: the name, or `["__proto__"]` so an object literal makes it an own key. */
  readonly key: string;
}

/** The view model of `validators.ts`. */
export interface ValidatorsView {
  readonly blocks: readonly ValidatorBlock[];
  /** Module-level constants (regular expressions, literal sets), source text. */
  readonly constants: readonly string[];
  /** The runtime declarations the file refers to (the template's and the functions'), recorded as they were made. */
  readonly runtimeRoots: ReadonlySet<string>;
  /**
   * Whether the code is laid out as Prettier prints it (`code/layout.ts`): false when some
   * construct's layout is not decided there, or the file has no exported type (the template's
   * `validatorsByType` would be an empty object literal).
   */
  readonly laidOut: boolean;
  /** Whether the code names a type of `types.ts` (only the exported types' functions do), so imports it. */
  readonly usesTypes: boolean;
}

/** Builds the `validators.ts` view model from the analysed schema. */
export function buildValidators(model: Model, symbols: ValidatorNames): ValidatorsView {
  const names = symbols.types;
  const runtime = new RuntimeUses();
  const emitter = new ValidatorEmitter(model, names, symbols, runtime);
  // Functions are built in one canonical order (by name, compared by code unit), so which
  // declaration a shared helper is named after and placed with, which uses share it, and the
  // numbering of constants do not depend on the schema's order; blocks follow the schema's order.
  const canonical = [...model.types].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const functions = new Map(canonical.map((decl) => [decl.name, emitter.declaration(decl.name, decl.type)]));
  // Entry copies, and the functions left out, are decided once every function is built, from which functions read which.
  emitter.decideUnread(canonical, runtime);
  const built = new Map(canonical.map((decl) => [decl.name, emitter.finish(decl, functions.get(decl.name)!)]));
  const layout = emitter.layout;
  // A declaration with nothing left to write (an unexported literal alias) has no block: its blank lines would stay.
  const blocks = model.types.filter((decl) => decl.exported || built.get(decl.name)!.internals !== "").map((decl) => ({
    ...built.get(decl.name)!,
    names: names.get(decl.name)!,
    line: decl.span.line,
    exported: decl.exported,
    publics: decl.exported ? layOutPublicFunctions({ ...names.get(decl.name)!, collect: emitter.collectorName(decl.name) }, built.get(decl.name)!.entry, `${model.ir.source}:${decl.span.line}`, runtime.use("valid"), runtime.use("collectIssues")) : "",
    // Each exported type's Standard Schema object is made with `standard(validateX)`.
    standardSchema: decl.exported ? standardSchema(names.get(decl.name)!, runtime.use("standard"), layout) : "",
    key: decl.name === "__proto__" ? '["__proto__"]' : decl.name,
  }));
  // The template's `validatorsByType` rows (`    key: validateX,`) must fit on their lines.
  const rowsFit = blocks.every((b) => !b.exported || `    ${b.key}: ${b.names.validate},`.length <= PRINT_WIDTH);
  const usesTypes = blocks.some((b) => b.exported);
  return { blocks, constants: emitter.keptConstants(), runtimeRoots: runtime.roots, laidOut: layout.decided && rowsFit && usesTypes, usesTypes };
}

/** The parameters of every internal function: the value, its JSON Pointer, the issues, the depth. */
const V = id("v");
const P = id("p");
const O = id("o");
const D = id("d");
const UNDEFINED = lit(undefined);
/** The type no value has: an array element that may only be `undefined` (see `ValidatorEmitter.jsonElement`). */
const NEVER: KeywordType = { kind: "keyword", name: "never" };

/** A declaration's functions as built, before its entry copy is decided (see `ValidatorEmitter.finish`). */
interface DeclarationFunctions {
  readonly checkName: string;
  readonly checkBody: readonly Statement[];
  /** The check, the collector (none when the declaration shares another's) and the helpers, laid out. */
  readonly check: string;
  readonly collect: string | undefined;
  readonly helpers: readonly string[];
}

/** A check, its description and the keyword of its one possible issue (see `simpleLeaf`). */
interface SimpleLeaf {
  readonly check: Expression;
  readonly what: string;
  readonly keyword?: string;
}

class ValidatorEmitter {
  readonly constants: string[] = [];
  /** How the functions and constants are laid out; `decided` is false when one needs Prettier. */
  readonly layout = new Layout();
  private helpers: string[] = [];
  /** What each function reads, by the function's name: filled as functions are laid out. */
  private readonly reads = new Map<string, ReadonlySet<string>>();
  /** Each laid-out function's name, by its text. */
  private readonly functionNames = new Map<string, string>();
  /** {@link jsonElement}'s answer for each alias. */
  private readonly jsonElements = new Map<string, TypeExpr>();
  /** {@link distinct}'s answer for each intersection. */
  private readonly distinctIntersections = new WeakMap<IntersectionType, IntersectionType>();
  /** {@link branchNames}'s answer for each type, by its identity. */
  private readonly branchNamesOf = new WeakMap<TypeExpr, ReadonlySet<string>>();
  /** What {@link sharedByBranches} found in a type, by the type's identity. */
  private readonly sharedNames = new WeakMap<TypeExpr, ReadonlySet<string>>();
  /** Functions and constants that no kept function reads: left out (see {@link decideUnread}). */
  private readonly unread = new Set<string>();
  /** Each module constant's name, by its text. */
  private readonly constantNames = new Map<string, string>();
  private readonly patternNames = new Map<string, string>();
  private readonly literalSetNames = new Map<string, string>();
  /** Hoisted functions by the structure of their type: equal types share one function. */
  private readonly helperCollectors = new Map<string, string>();
  private readonly helperChecks = new Map<string, string>();
  /**
   * The collector of each declaration that uses another's: non-recursive declarations of one
   * type structure ({@link typeKey}) share the collector of the first by name (compared by code
   * unit, so the choice does not depend on the schema's order). Collectors run on invalid
   * values only, so sharing costs no speed where it counts; checks stay one per declaration
   * (see {@link entry}).
   */
  private readonly sharedCollectors = new Map<string, string>();
  /** The collector of the first non-recursive declaration of each type structure, by {@link typeKey}: union members of that structure use it too. */
  private readonly declaredCollectors = new Map<string, string>();
  /** The declarations that share each owner's collector, by the owner (see {@link sharedCollectors}). */
  private readonly sharers = new Map<string, string[]>();
  /** {@link remembered}'s answer, made on first use. */
  private rememberedNames: ReadonlySet<string> | undefined;

  constructor(
    private readonly model: Model,
    private readonly names: ReadonlyMap<string, TypeNames>,
    private readonly symbols: ValidatorNames,
    private readonly runtime: RuntimeUses,
  ) {
    const owners = new Map<string, string>();
    for (const decl of [...model.types].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (model.recursive.has(decl.name)) continue;
      const key = typeKey(decl.type);
      const owner = owners.get(key);
      if (owner === undefined) {
        owners.set(key, decl.name);
        this.declaredCollectors.set(key, this.collectorName(decl.name));
      } else {
        this.sharedCollectors.set(decl.name, this.collectorName(owner));
        this.sharers.set(owner, [...(this.sharers.get(owner) ?? []), decl.name]);
      }
    }
  }

  /** The collector `validateX` and other functions call for declaration `name`: its own, or the one it shares. */
  collectorName(name: string): string {
    return this.sharedCollectors.get(name) ?? this.names.get(name)!.collect;
  }

  /**
   * The one place internal names are made, by the run's symbol table (`internal`: the base when
   * free in this file, else numbered `_2`, `_3`, …; never a declared or runtime name): a helper is
   * named after `place` (where its type sits, `Tool$inputSchema`) made an identifier, plus
   * `suffix`; a module constant is `<prefix>_<n>`, numbered from 1 by `count`. Functions are
   * built in one canonical order (see {@link buildValidators}), so the calls come in an order
   * that does not depend on the schema's.
   */
  private internalName(request: { place: string; suffix?: string } | { prefix: string; count: number }): string {
    const base = "prefix" in request ? `${request.prefix}_${request.count + 1}` : `${identifierPart(request.place)}${request.suffix ?? ""}`;
    return this.symbols.table.internal(this.symbols.file, base);
  }

  /** The collector's name for the check helper `check`: `<check>$collect`. */
  private collectorOf(check: string): string {
    return this.symbols.table.internal(this.symbols.file, `${check}$collect`);
  }

  private rt(name: string): Expression {
    return this.runtime.ref(name);
  }

  /**
   * A function laid out as source text; the identifiers its body reads are recorded under its
   * name (see {@link entry}).
   */
  private render(kind: "check" | "collect", name: string, body: readonly Statement[]): string {
    this.reads.set(name, new Set(body.flatMap((s) => [...statementIdentifiers(s)])));
    const text = kind === "check" ? checkFunction(this.layout, name, body) : collectFunction(this.layout, name, body);
    this.functionNames.set(text, name);
    return text;
  }

  /**
   * The check `isX` calls: the declaration's check, or its own copy of it. The engine keeps
   * type feedback per function: a check that other functions call sees the hidden classes of
   * every caller's values, its property reads go megamorphic, and the prototype test at its end
   * (`plainPrototype`) can no longer be answered from known maps, so it becomes a call of
   * `Object.getPrototypeOf`. The copy's reads see only the values given to `isX`. Copied: the
   * check of an exported declaration that is a non-recursive object check of one expression,
   * with properties to read, that a generated function other than its own collector reads (a
   * check nobody else calls is the entry's already, and the shared one must stay in use). Each
   * copy costs about 8 B of min+gzip; the draft has 98.
   */
  private entry(decl: { readonly name: string; readonly type: TypeExpr; readonly exported: boolean }): string {
    const { check } = this.names.get(decl.name)!;
    const collect = this.collectorName(decl.name);
    const { type } = decl;
    if (!decl.exported || this.model.recursive.has(decl.name) || this.needsStatements(type)) return check;
    // Without properties the check reads nothing (`isPlainObject(v)`): a copy would gain nothing.
    if (type.kind === "object" ? type.properties.length === 0 : type.kind !== "intersection") return check;
    // Its own collector calls it on nested values only, and those come through some other function: not a reason alone,
    // unless the collector is shared (see sharedCollectors): then it also calls it on the other declarations' values.
    const ownCollector = this.sharers.has(decl.name) ? undefined : collect;
    // Only functions kept in the output count: a copy for readers left out would leave the check itself unread.
    const read = [...this.reads].some(([reader, reads]) => reads.has(check) && reader !== check && reader !== ownCollector && !this.unread.has(reader));
    return read ? this.internalName({ place: check, suffix: "$entry" }) : check;
  }

  /** The declaration's internal functions as source text, with the entry copy after the check when {@link entry} makes one. */
  finish(decl: { readonly name: string; readonly type: TypeExpr; readonly exported: boolean }, built: DeclarationFunctions): { internals: string; entry: string } {
    const entry = this.entry(decl);
    const copy = entry === built.checkName ? [] : [this.render("check", entry, built.checkBody)];
    const sharers = this.sharers.get(decl.name);
    const note = sharers ? `// Also the collector of ${sharers.join(", ")}: the same type.\n` : "";
    const keepCollect = built.collect !== undefined && !this.unread.has(this.collectorName(decl.name));
    const collect = keepCollect ? [note + built.collect] : [];
    const helpers = built.helpers.filter((text) => !this.unread.has(this.functionNames.get(text)!));
    return { internals: [...(this.unread.has(built.checkName) ? [] : [built.check]), ...copy, ...collect, ...helpers].join("\n\n"), entry };
  }

  /**
   * Decides which functions and module constants are left out, once every function is built: an
   * unexported declaration has no `isX`, and a check, collector or helper that no kept function
   * reads would be an unused local (`noUnusedLocals`), as would a runtime declaration or constant
   * only such functions read. Such is the check of a literal alias (`type K = "a" | "b"`), which
   * the checks that use it write out in place (helpers 67 to 69). Kept: the check and collector
   * of every exported declaration (the collector its `validateX` calls: its own, or one it
   * shares), and whatever a kept function reads, followed to the end. The runtime keeps what kept
   * functions read and what the public functions use.
   */
  decideUnread(declarations: readonly { readonly name: string; readonly exported: boolean }[], runtime: RuntimeUses): void {
    const kept = new Set<string>();
    const queue: string[] = [];
    const keep = (name: string) => {
      if (kept.has(name)) return;
      kept.add(name);
      queue.push(name);
    };
    for (const decl of declarations) {
      if (!decl.exported) continue;
      keep(this.names.get(decl.name)!.check);
      keep(this.collectorName(decl.name));
    }
    for (let name = queue.pop(); name !== undefined; name = queue.pop()) for (const read of this.reads.get(name) ?? []) keep(read);
    for (const name of [...this.functionNames.values(), ...this.constantNames.values()]) if (!kept.has(name)) this.unread.add(name);
    runtime.keepRead(kept);
  }

  declaration(name: string, type: TypeExpr): DeclarationFunctions {
    const n = this.names.get(name)!;
    this.helpers = [];
    const recursive = this.model.recursive.has(name);
    const statements = this.needsStatements(type);
    if (statements) {
      // The declaration's own functions are the helpers for its top-level type.
      this.helperChecks.set(typeKey(type), n.check);
      this.helperCollectors.set(typeKey(type), this.collectorName(name));
    }
    const remembered = this.remembered();
    const branching = recursive ? this.branchesIntoRecursion(type) : remembered.has(name);
    let checkBody: Statement[] = [
      ...(recursive ? [ifStatement(call(this.rt("tooDeep"), V, D), returnStatement(FALSE))] : []),
      ...(statements ? this.helperCheckBody(type, n.check) : [returnStatement(this.check(type, V, n.check, 0))]),
    ];
    if (branching) {
      // Two branches would check the same nested values again at every level: checkOnce remembers verdicts.
      const once = this.internalName({ place: n.check, suffix: "$once" });
      this.helpers.push(this.render("check", once, checkBody));
      checkBody = [returnStatement(call(this.rt("checkOnce"), id(once), V, D))];
    }
    const check = this.render("check", n.check, checkBody);
    if (this.sharedCollectors.has(name)) return { checkName: n.check, checkBody, check, collect: undefined, helpers: this.helpers };
    let collectBody: Statement[] = [
      ...(recursive ? [ifStatement(call(this.rt("stop"), O, P, D, V), returnStatement())] : []),
      // A nested part that passes the fast check has no issues: skip it without building paths.
      // At the root (p === "") the value is collected directly: validate has not checked it yet,
      // and when it is invalid (the usual reason to collect) the check would be wasted work.
      // Inside recursive types only at the root (a valid value then costs one fast check): at
      // every level the check would walk the subtree again, and collecting an invalid value d
      // levels deep would take d² steps.
      // Not for a leaf, nor for an object of leaf properties: collecting a valid one pushes
      // nothing and builds no path (each property is one `req`/`opt` call), so the check
      // first would cost as much as it saves, in time and in code.
      // Nor for a discriminated union of named types: the member's collector it switches to
      // has the check first (or is a leaf object's).
      ...(this.simpleLeaf(type, V, n.check, 0) || (!recursive && (this.leafObject(type) || this.switchesToNamed(type)))
        ? []
        : [ifStatement(chain([binary(P, recursive ? "===" : "!==", lit("")), call(id(n.check), V, D)], "&&"), returnStatement())]),
      ...this.collectStatements(type, V, P, n.collect, 0, true),
    ];
    // A non-recursive collector remembers what it collected when a declaration using it does (it may be shared).
    const collectsOnce = recursive ? branching && this.branchesIntoRecursion(type, "intersections") : [name, ...(this.sharers.get(name) ?? [])].some((n) => remembered.has(n));
    if (collectsOnce) {
      // An intersection's members would collect them again too: collectedOnce remembers what each
      // collected. (A union's members collect through it already, see unionCollect.)
      const once = this.internalName({ place: n.collect, suffix: "$once" });
      this.helpers.push(this.render("collect", once, collectBody));
      collectBody = [expressionStatement(call(this.rt("pushAll"), O, call(this.rt("collectedOnce"), id(once), V, P, D)))];
    }
    return { checkName: n.check, checkBody, check, collect: this.render("collect", n.collect, collectBody), helpers: this.helpers };
  }

  /**
   * Whether `type` (inline, not through named types) holds a construct whose check takes two
   * branches into the recursion for one value: an intersection with two or more members that
   * reach a recursive type, or a union without a discriminant with two such members that can
   * hold one JSON type. A recursive declaration holding one checks with `checkOnce` (see the
   * runtime): without it, a value n levels deep costs 2^n steps. `only` counts intersections alone.
   */
  private branchesIntoRecursion(type: TypeExpr, only?: "intersections"): boolean {
    const recurses = (t: TypeExpr) => [...refsIn(t)].some((name) => this.model.recursive.has(name));
    switch (type.kind) {
      case "array":
        return this.branchesIntoRecursion(type.element, only);
      case "tuple":
        return type.elements.some((e) => this.branchesIntoRecursion(e, only));
      case "object":
        return type.properties.some((p) => this.branchesIntoRecursion(p.type, only)) || (type.indexSignature !== undefined && this.branchesIntoRecursion(type.indexSignature, only));
      case "intersection": {
        const { members } = this.distinct(type);
        return members.filter(recurses).length > 1 || members.some((m) => this.branchesIntoRecursion(m, only));
      }
      case "union": {
        if (type.members.some((m) => this.branchesIntoRecursion(m, only))) return true;
        if (only !== undefined || this.model.discriminantOf(type) !== undefined) return false;
        const branches = simplifyUnion(type).filter(recurses).map((m) => jsonTypeMask(m, this.model));
        return branches.some((m, i) => branches.some((n, j) => j > i && (m & n) !== 0));
      }
      default:
        return false;
    }
  }

  /**
   * The declarations named where `type`'s check takes two branches for one value (two members of
   * an intersection, or two members of a union without a discriminant that can hold one JSON
   * type), inline (not through named types): what those branches both name.
   */
  private sharedByBranches(type: TypeExpr, out = new Set<string>()): Set<string> {
    // A type the IR shares between places (a merged property type inside every alias that picks it) is walked once:
    // walked at each place, a chain of `Partial<Pick<X_{n-1}, "a">>` links took 2^n steps.
    const known = this.sharedNames.get(type);
    if (known !== undefined) {
      for (const name of known) out.add(name);
      return out;
    }
    const own = this.sharedByBranchesOnce(type, new Set<string>());
    this.sharedNames.set(type, own);
    for (const name of own) out.add(name);
    return out;
  }

  private sharedByBranchesOnce(type: TypeExpr, out: Set<string>): Set<string> {
    const common = (branches: readonly TypeExpr[]): void => {
      const seen = new Set<string>();
      for (const refs of branches.map((b) => this.branchNames(b))) for (const name of refs) (seen.has(name) ? out : seen).add(name);
    };
    switch (type.kind) {
      case "array":
        return this.sharedByBranches(type.element, out);
      case "tuple":
        type.elements.forEach((e) => this.sharedByBranches(e, out));
        return out;
      case "object":
        type.properties.forEach((p) => this.sharedByBranches(p.type, out));
        if (type.indexSignature !== undefined) this.sharedByBranches(type.indexSignature, out);
        return out;
      case "intersection": {
        const { members } = this.distinct(type);
        common(members);
        members.forEach((m) => this.sharedByBranches(m, out));
        return out;
      }
      case "union": {
        type.members.forEach((m) => this.sharedByBranches(m, out));
        if (this.model.discriminantOf(type) !== undefined) return out;
        const members = simplifyUnion(type);
        const masks = members.map((m) => jsonTypeMask(m, this.model));
        // Two members overlap when they share a JSON type: per JSON type, the names two of its members name (not per pair).
        for (let bit = 1; bit <= 32; bit <<= 1) common(members.filter((_, i) => (masks[i]! & bit) !== 0));
        return out;
      }
      default:
        return out;
    }
  }

  /**
   * The declarations a branch's check calls for the values below it: those it names, through
   * aliases that are not object types (`Y = X` names what `X` names), and, for a branch that is a
   * named type (`A & B`, each an interface), those its own members name (helper-76: either way
   * two branches named one declaration unseen, and the chain was 2^n again).
   */
  private branchNames(branch: TypeExpr): ReadonlySet<string> {
    // Once per type: a union's members are compared in pairs (helper-77: 600 members naming a 300-alias chain took 16 s).
    const known = this.branchNamesOf.get(branch);
    if (known !== undefined) return known;
    const names = new Set<string>();
    this.branchNamesOf.set(branch, names);
    const visit = (type: TypeExpr, intoNamed: boolean): void => {
      for (const name of refsIn(type)) {
        if (names.has(name)) continue;
        names.add(name);
        const target = this.model.typeOf(name);
        if (target === undefined || this.model.recursive.has(name)) continue;
        const alias = this.model.declarations.get(name)?.kind === "alias" && target.kind !== "object";
        if (alias || intoNamed) visit(target, false);
      }
    };
    visit(branch, branch.kind === "ref");
    return names;
  }

  /**
   * The non-recursive declarations checked and collected through `checkOnce` and
   * `collectedOnce`, as recursive ones that branch are: those whose check takes two branches
   * that name one declaration ({@link sharedByBranches}) and that some such declaration reaches
   * twice (through what its branches both name). A chain of them
   * (`X2 = { a?: X1 } & ({ a?: X1; b?: 1 } | null)`, `X3` on `X2`, …) checks the link below
   * twice at every link: 2^n steps for a value as deep as the chain, linear when each link's
   * verdict and issues for a value are remembered (helper-74).
   */
  private remembered(): ReadonlySet<string> {
    if (this.rememberedNames !== undefined) return this.rememberedNames;
    const shared = new Map<string, Set<string>>();
    for (const decl of this.model.types) {
      if (this.model.recursive.has(decl.name)) continue;
      const names = this.sharedByBranches(decl.type);
      if (names.size > 0) shared.set(decl.name, names);
    }
    const remembered = new Set<string>();
    const visited = new Set<string>();
    const reach = (name: string): void => {
      if (visited.has(name)) return;
      visited.add(name);
      if (shared.has(name)) remembered.add(name);
      const type = this.model.typeOf(name);
      if (type !== undefined) for (const next of refsIn(type)) reach(next);
    };
    for (const names of shared.values()) for (const name of names) reach(name);
    return (this.rememberedNames = remembered);
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

  /**
   * A read of property `name` of `object`: `object["name"]`, or `own(object, "name")` for a
   * name found on `Object.prototype` (an inherited member never counts as present).
   */
  private read(object: Expression, name: string): Expression {
    return readsThroughOwn(name) ? call(this.rt("own"), object, lit(name)) : element(object, lit(name));
  }

  // ---- boolean checks ------------------------------------------------------------------

  /**
   * A boolean expression: does `v` (a side-effect-free expression) match `type`? `level` is
   * how many arrays and objects `v` lies below the value the function was called with; calls
   * pass `d + level`, so `d` is always the nesting depth of the value being checked.
   */
  check(type: TypeExpr, v: Expression, place: string, level: number): Expression {
    switch (type.kind) {
      case "keyword":
        return this.keywordCheck(type, v);
      case "literal":
        return binary(v, "===", lit(type.value));
      case "ref": {
        // A reference to a plain alias (`RequestId = string | number`) is checked in place.
        const target = this.model.typeOf(type.name);
        if (target && !this.model.recursive.has(type.name) && isPlainLeaf(target)) return this.check(target, v, place, level);
        return call(id(this.names.get(type.name)!.check), v, depthArg(level));
      }
      case "array":
      case "tuple":
        return call(id(this.helper(type, place)), v, depthArg(level));
      case "union":
        return this.unionCheck(type, v, place, level);
      case "intersection": {
        // Members that are all plain object shapes are checked as one object: one plain-object
        // test, no call per member (`Error & { code; data }` was two object tests and a call).
        const merged = this.mergedIntersection(type) ?? this.model.checkShape(type);
        // Two objects down, one naming a declaration is a function of its own (shared by type): written in place, each
        // level would spell out the shapes of the declarations below it again (`T_n { d?: T_{n-1} & { e?: 1 } }` was
        // cubic in n: 10 MB at 40 links, and past 100 more than a string can hold; helper-74). So is one whose members
        // are not one shape: each link of `X_n = { a?: X_{n-1} } & Partial<Pick<X_{n-1}, "a">>` wrote the one below again.
        if (level >= 2 && type.members.some((m) => m.kind === "ref")) return call(id(this.helper(type, place)), v, depthArg(level));
        if (merged) return this.objectCheck(merged, v, place, level);
        // After a member that narrows `v` (one checked in place, or a runtime type guard such as
        // isPlainObject), the members checked in place are calls instead (see memberHelper).
        let narrowed = false;
        return chain(
          this.distinct(type).members.map((m, i) => {
            const check = this.check(m, v, `${place}$${i}`, level);
            if (isTrue(check)) return check;
            const generatedCall = check.kind === "call" && !(check.callee.kind === "identifier" && this.runtime.has(check.callee.name));
            if (generatedCall) return check;
            if (!narrowed || check.kind === "call") {
              narrowed = true;
              return check;
            }
            return call(id(this.memberHelper(m, `${place}$${i}`)), v, depthArg(level));
          }),
          "&&",
        );
      }
      case "object":
        return this.needsStatements(type) ? call(id(this.helper(type, place)), v, depthArg(level)) : this.objectCheck(type, v, place, level);
    }
  }

  private keywordCheck(type: KeywordType, v: Expression): Expression {
    const c = type.constraints;
    const parts: Expression[] = [];
    switch (type.name) {
      case "string":
        parts.push(binary(typeOf(v), "===", lit("string")));
        if (c?.format) parts.push(call(this.format(c.format), v));
        if (c?.pattern !== undefined) parts.push(call(property(id(this.pattern(c.pattern)), "test"), v));
        break;
      case "number":
        parts.push(call(property(id("Number"), type.numberType === "number" ? "isFinite" : "isInteger"), v));
        if (c?.minimum !== undefined) parts.push(binary(v, ">=", lit(c.minimum)));
        if (c?.maximum !== undefined) parts.push(binary(v, "<=", lit(c.maximum)));
        break;
      case "boolean":
        parts.push(binary(typeOf(v), "===", lit("boolean")));
        break;
      case "null":
        parts.push(binary(v, "===", lit(null)));
        break;
      case "undefined":
        parts.push(binary(v, "===", UNDEFINED));
        break;
      case "object":
        parts.push(call(this.rt("isPlainObject"), v));
        break;
      case "never":
        parts.push(FALSE);
        break;
      case "unknown":
      case "any":
        parts.push(TRUE);
        break;
    }
    return chain(parts, "&&");
  }

  private unionCheck(type: UnionType, v: Expression, place: string, level: number): Expression {
    const members = simplifyUnion(type);
    if (members.some(isAnything)) return TRUE;
    if (this.needsStatements(type)) return call(id(this.helper(type, place)), v, depthArg(level));
    // A long union of literals is one Set lookup (TypeScript cannot analyse thousands of `===`).
    if (members.length > LONG) {
      const resolved = members.map((m) => this.model.resolve(m));
      if (resolved.every((m) => m.kind === "literal")) {
        return call(property(id(this.literalSet(resolved.map((m) => (m as LiteralType).value))), "has"), v);
      }
    }
    return chain(
      members.map((m, i) => this.check(m, v, `${place}$${i}`, level)),
      "||",
    );
  }

  /**
   * An object's check: `objectLike(v)` first, then the properties, and the plain-data
   * prototype test (`plainPrototype(v)`) last: by then the property reads have told the
   * engine `v`'s hidden class, and it answers the prototype from it instead of calling
   * `Object.getPrototypeOf`. Without properties, `isPlainObject(v)` alone. With a property an
   * array also has (`"0"`, `"1"`, `length`), `isPlainObject(v)` first instead: `objectLike`
   * takes arrays, and an array would have its elements checked as the object's properties, each
   * level again before a union's array member checks them (2^n for `{ "0"?: Z } | Z[]`,
   * helper-73). A property declared twice alike (`A & A`-like shapes) is checked once.
   */
  private objectCheck(type: ObjectType, v: Expression, place: string, level: number): Expression {
    if (type.properties.length === 0) return call(this.rt("isPlainObject"), v);
    const arrayLike = type.properties.some((p) => p.name === "length" || /^(?:0|[1-9]\d*)$/.test(p.name));
    const parts = [call(this.rt(arrayLike ? "isPlainObject" : "objectLike"), v)];
    // Cheap checks first: a wrong literal or primitive fails before any nested value is visited.
    const distinct = alikeMerged(type.properties);
    // A name declared with types of other JSON types too (`{ kind: string } & { kind: "x" | 2 }`): one check of their
    // intersection, so that one entry's test does not narrow the read for the next where they cannot overlap, which
    // TypeScript refuses (TS2367). Entries of one JSON type (`code: number` and `code: -32020`) stay apart.
    const merged = this.literalsMerged(distinct);
    const repeated = repeatedNames(merged);
    const entries = merged.flatMap((p): Property[] => {
      const group = repeated.get(p.name);
      // `unknown` and `any` test nothing, so narrow nothing.
      if (group === undefined || new Set(group.filter((q) => !isAnything(q.type)).map((q) => jsonTypeMask(q.type, this.model))).size < 2) return [p];
      return p === group[0] ? [declaredAsOne(group)] : [];
    });
    const ordered = entries.sort((a, b) => this.cost(a.type) - this.cost(b.type));
    for (const p of ordered) {
      const read = this.read(v, p.name);
      const check = this.check(p.type, read, `${place}$${p.name}`, level + 1);
      if (p.optional) {
        if (!isTrue(check)) parts.push(chain([binary(read, "===", UNDEFINED), check], "||"));
      } else if (this.acceptsUndefined(p.type) || isTrue(check)) {
        parts.push(binary(read, "!==", UNDEFINED));
        if (!isTrue(check)) parts.push(check);
      } else parts.push(check);
    }
    if (!arrayLike) parts.push(call(this.rt("plainPrototype"), v));
    return chain(parts, "&&");
  }

  /**
   * `properties` with the declarations of one name that are literals only (through aliases and
   * unions) merged into one, in the place of the first: the values they have in common, or
   * `never` when none. Tested one after another, each would read the property as narrowed by the
   * one before, which TypeScript refuses where they do not overlap (`{ k: "a" | "b" } & { k: "b" |
   * "c" }`: TS2367; helper-74). A merged declaration is required when one of them is.
   */
  private literalsMerged(properties: readonly Property[]): Property[] {
    const literal = this.literalDeclarations(properties);
    if (literal.size === 0) return [...properties];
    return properties.flatMap((p) => {
      const group = literal.get(p.name);
      if (group === undefined || !group.includes(p)) return [p];
      return p === group[0] ? [this.literalsAsOne(group)] : [];
    });
  }

  /** The declarations of each name that `properties` declares with literals only more than once, by the name. */
  private literalDeclarations(properties: readonly Property[]): Map<string, Property[]> {
    // Only names declared more than once are looked at: most object types have none.
    const literal = new Map<string, Property[]>();
    for (const group of repeatedNames(properties).values()) {
      const literals = group.filter((q) => literalValues(q.type, this.model) !== undefined);
      if (literals.length > 1) literal.set(literals[0]!.name, literals);
    }
    return literal;
  }

  /**
   * Whether `a` and `b` take the same values: one type, or the same literals in any order (`"b" | "c"` and `"c" | "b"`
   * report one issue, not one in each order; helper-81).
   */
  private sameValues(a: TypeExpr, b: TypeExpr): boolean {
    if (typeKey(a) === typeKey(b)) return true;
    const [left, right] = [literalValues(a, this.model), literalValues(b, this.model)];
    return left !== undefined && right !== undefined && new Set(left).size === new Set(right).size && left.every((x) => right.includes(x));
  }

  /**
   * A name's literal declarations (`group`, each literals only) as one property in the first one's
   * place: the values all of them take (one, their union, or `never` for none), required when one is.
   */
  private literalsAsOne(group: readonly Property[]): Property {
    const sets = group.map((q) => literalValues(q.type, this.model)!);
    const common = flattenLeaves([group[0]!.type], this.model).filter((_leaf, i) => sets.every((set) => set.includes(sets[0]![i]!)));
    const type: TypeExpr = common.length === 0 ? { kind: "keyword", name: "never" } : common.length === 1 ? common[0]! : { kind: "union", members: common };
    return { ...group[0]!, optional: group.every((q) => q.optional), type };
  }

  /**
   * Whether `undefined` passes `type`'s check, through aliases (`type U = string | undefined`):
   * a required property of such a type needs its own presence test.
   */
  private acceptsUndefined(type: TypeExpr, known = new Map<string, boolean>()): boolean {
    switch (type.kind) {
      case "keyword":
        return type.name === "unknown" || type.name === "any" || type.name === "undefined";
      case "union":
        return type.members.some((m) => this.acceptsUndefined(m, known));
      case "intersection":
        return type.members.every((m) => this.acceptsUndefined(m, known));
      case "ref": {
        // Each alias answered once per question (`type K2 = K1 | K1` chains would double at every link; helper-68).
        const answered = known.get(type.name);
        if (answered !== undefined) return answered;
        // Through aliases only (an interface is an object); TypeScript refuses aliases that reach themselves without an object between.
        const target = this.model.resolve(type);
        const answer = target.kind !== "ref" && this.acceptsUndefined(target, known);
        known.set(type.name, answer);
        return answer;
      }
      default:
        return false;
    }
  }

  /**
   * An array's or tuple's element type as JSON data can hold it: without `undefined`, which an
   * array cannot carry (`JSON.stringify` writes `null` for it, and for a hole), so that
   * `(string | undefined)[]` checks its elements as `string[]` and `undefined[]` accepts only
   * `[]`. `unknown` and `any` elements still accept anything. Through aliases (`type U = string |
   * undefined`); the types module keeps the type as the schema wrote it.
   */
  private jsonElement(type: TypeExpr): TypeExpr {
    // Each alias once (`type K2 = K1 | K1` chains would double at every link; helper-69).
    const known = type.kind === "ref" ? this.jsonElements.get(type.name) : undefined;
    if (known !== undefined) return known;
    const answer = this.jsonElementOnce(type);
    if (type.kind === "ref") this.jsonElements.set(type.name, answer);
    return answer;
  }

  private jsonElementOnce(type: TypeExpr): TypeExpr {
    if (!this.acceptsUndefined(type)) return type;
    const resolved = this.model.resolve(type);
    if (resolved.kind === "keyword") return resolved.name === "undefined" ? NEVER : type;
    // `undefined` passes every member: taken out of each, it passes none (`unknown & (string | undefined)` is `unknown & string`).
    if (resolved.kind === "intersection") {
      const members = resolved.members.map((m) => this.jsonElement(m));
      return members.every((m, i) => typeKey(m) === typeKey(resolved.members[i]!)) ? type : { kind: "intersection", members };
    }
    if (resolved.kind !== "union" || simplifyUnion(resolved).some(isAnything)) return type;
    const kept = simplifyUnion({ kind: "union", members: resolved.members.filter((m) => !(m.kind === "keyword" && m.name === "undefined")).map((m) => this.jsonElement(m)) });
    return kept.length === 0 ? NEVER : kept.length === 1 ? kept[0]! : { kind: "union", members: kept };
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
    const base = this.internalName({ place });
    const collectName = this.collectorOf(base);
    this.helperCollectors.set(typeKey(type), collectName);
    this.helperChecks.set(typeKey(type), base);
    const checkBody = this.helperCheckBody(type, base);
    this.helpers.push(this.render("check", base, checkBody));
    const collectBody = this.collectStatements(type, V, P, collectName, 0, true);
    this.helpers.push(this.render("collect", collectName, collectBody));
    return base;
  }

  /** A call of `type`'s hoisted collector (made by {@link helper} when there is none yet) for `v` at path `p`. */
  private hoistedCollect(type: TypeExpr, v: Expression, p: Expression, place: string, depth: number): Statement[] {
    this.helper(type, place);
    return [expressionStatement(call(id(this.helperCollectors.get(typeKey(type))!), v, p, O, depthArg(depth)))];
  }

  private helperCheckBody(type: TypeExpr, place: string): Statement[] {
    switch (type.kind) {
      case "array": {
        // The prototype first: a value that is not plain JSON data has none of its elements read
        // (no getter on its prototype runs, no `length` it claims is walked).
        const lines = [ifStatement(not(call(this.rt("isPlainArray"), V)), returnStatement(FALSE))];
        const max = type.constraints?.maxItems;
        if (max !== undefined) lines.push(ifStatement(binary(property(V, "length"), ">", lit(max)), returnStatement(FALSE)));
        const i = id("i");
        const item = this.check(this.jsonElement(type.element), element(V, i), `${place}$items`, 1);
        if (!isTrue(item)) {
          lines.push({ kind: "for", variable: "i", test: binary(i, "<", property(V, "length")), body: ifStatement(not(item), returnStatement(FALSE)) });
        }
        lines.push(returnStatement(TRUE));
        return lines;
      }
      case "tuple":
        return [
          returnStatement(
            chain(
              [
                call(this.rt("isPlainArray"), V),
                binary(property(V, "length"), "===", lit(type.elements.length)),
                // An element that takes anything adds no test (`&& true`).
                ...type.elements.map((e, i) => this.check(this.jsonElement(e), element(V, lit(i)), `${place}$${i}`, 1)).filter((c) => !isTrue(c)),
              ],
              "&&",
            ),
          ),
        ];
      case "object": {
        const k = id("k");
        // Inherited keys, named properties and undefined values (absent in JSON) are not index entries.
        const skip = this.indexSkip(type, V, k);
        const own = this.objectCheck(type, V, place, 0);
        const value = this.check(type.indexSignature!, element(V, k), `${place}$values`, 1);
        return [
          ifStatement(not(own), returnStatement(FALSE)),
          {
            kind: "for-in",
            variable: "k",
            object: V,
            body: block([ifStatement(skip, { kind: "continue" }), ifStatement(not(value), returnStatement(FALSE))]),
          },
          returnStatement(TRUE),
        ];
      }
      case "union": {
        const disc = this.model.discriminantOf(type)!;
        const cases: SwitchCase[] = disc.cases.map((c) => ({
          labels: [...c.values.map((x) => lit(x)), ...(c.member === disc.whenAbsent ? [UNDEFINED] : [])],
          body: [returnStatement(this.check(c.member, V, `${place}$${caseName(c.values)}`, 0))],
        }));
        // Each member's own check tests the prototype (see objectCheck): here only that `v` is an object.
        return [
          ifStatement(not(call(this.rt("objectLike"), V)), returnStatement(FALSE)),
          { kind: "switch", discriminant: this.read(V, disc.property), cases: [...cases, { labels: [], isDefault: true, body: [returnStatement(FALSE)] }] },
        ];
      }
      case "intersection":
        return [returnStatement(this.check(type, V, place, 0))];
      default:
        throw new Error(`no helper for ${type.kind}`);
    }
  }

  /** The entries of `v` an index signature does not cover: inherited keys, named properties, undefined values. */
  private indexSkip(type: ObjectType, v: Expression, k: Expression): Expression {
    return chain(
      [
        not(call(property(this.rt("hasOwn"), "call"), v, k)),
        ...type.properties.map((q) => binary(k, "===", lit(q.name))),
        binary(element(v, k), "===", UNDEFINED),
      ],
      "||",
    );
  }

  // ---- issue collectors --------------------------------------------------------------------

  /**
   * Statements that push every issue of `v` against `type` onto `o`, with paths from
   * expression `p`. `depth` is how many arrays and objects `v` lies below the function's
   * value (as `level` in {@link check}); it also numbers the loop variables.
   */
  collect(type: TypeExpr, v: Expression, p: Expression, place: string, depth: number): Statement[] {
    const hoisted = this.helperCollectors.get(typeKey(type));
    if (hoisted) return [expressionStatement(call(id(hoisted), v, p, O, depthArg(depth)))];
    return this.collectStatements(type, v, p, place, depth, false);
  }

  private collectStatements(type: TypeExpr, v: Expression, p: Expression, place: string, depth: number, inHelper: boolean): Statement[] {
    if (!inHelper && type.kind === "union" && this.needsStatements(type)) return this.hoistedCollect(type, v, p, place, depth);
    switch (type.kind) {
      case "ref":
        return [expressionStatement(call(id(this.collectorName(type.name)), v, p, O, depthArg(depth)))];
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
   * The call that collects the one possible issue of a plain property: "missing" when
   * required and absent, else "expected …" when `simple.check` fails. A literal goes through
   * `reqConst`/`optConst` and an unconstrained `string` or `boolean` through
   * `reqTypeof`/`optTypeof`, which derive the check and the message from the value they are
   * given (the message `describe` gives); anything else through `req`/`opt`, with the check
   * and the message written out.
   */
  private plainProperty(type: TypeExpr, optional: boolean, token: Expression, read: Expression, simple: SimpleLeaf, p: Expression): Expression {
    if (type.kind === "literal") return call(this.rt(optional ? "optConst" : "reqConst"), O, p, token, read, lit(type.value));
    if (type.kind === "keyword" && (type.name === "string" || type.name === "boolean") && !type.constraints) {
      return call(this.rt(optional ? "optTypeof" : "reqTypeof"), O, p, token, read, lit(type.name));
    }
    const args = [O, p, token, read, simple.check, lit(simple.what), ...(simple.keyword ? [lit(simple.keyword)] : [])];
    return call(this.rt(optional ? "opt" : "req"), ...args);
  }

  /**
   * A type whose only possible issue is one "expected …" (no format, pattern or bounds):
   * its check expression, its description and the issue keyword; `undefined` otherwise.
   */
  private simpleLeaf(type: TypeExpr, v: Expression, place: string, level: number): SimpleLeaf | undefined {
    if (type.kind === "keyword") {
      if (isAnything(type) || type.constraints) return undefined;
      return { check: this.keywordCheck(type, v), what: describe(type) };
    }
    if (type.kind === "literal") return { check: this.check(type, v, place, level), what: describe(type), keyword: "const" };
    if (type.kind === "object" && type.properties.length === 0 && (!type.indexSignature || isAnything(type.indexSignature))) {
      return { check: call(this.rt("isPlainObject"), v), what: "object" };
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

  /** A discriminated union whose every case is a reference to a non-recursive declaration. */
  private switchesToNamed(type: TypeExpr): boolean {
    if (type.kind !== "union" || !this.needsStatements(type)) return false;
    const disc = this.model.discriminantOf(type)!;
    return disc.cases.every((c) => c.member.kind === "ref" && !this.model.recursive.has(c.member.name));
  }

  /** An object type without a constrained index signature whose every property is a {@link simpleLeaf}. */
  private leafObject(type: TypeExpr): boolean {
    if (type.kind !== "object" || (type.indexSignature !== undefined && !isAnything(type.indexSignature))) return false;
    return type.properties.every((p) => this.simpleLeaf(p.type, V, "", 1) !== undefined);
  }

  /** `expected(o, p, what, v[, keyword])`: one "expected …" issue. */
  private expected(p: Expression, simple: SimpleLeaf, v: Expression): Statement {
    return expressionStatement(call(this.rt("expected"), O, p, lit(simple.what), v, ...(simple.keyword ? [lit(simple.keyword)] : [])));
  }

  /** `issue(o, p, keyword, message)` */
  private issue(p: Expression, keyword: string, message: Expression): Statement {
    return expressionStatement(call(this.rt("issue"), O, p, lit(keyword), message));
  }

  private leafCollect(type: KeywordType | LiteralType, v: Expression, p: Expression, place: string, depth: number): Statement[] {
    const simple = this.simpleLeaf(type, v, place, depth);
    if (simple) return [ifStatement(not(simple.check), this.expected(p, simple, v))];
    if (type.kind !== "keyword" || isAnything(type)) return [];
    const base: KeywordType = { kind: "keyword", name: type.name, ...(type.numberType ? { numberType: type.numberType } : {}) };
    // The type first, then each constraint: `if (…) expected(…); else if (…) issue(…); …`
    const tests: [Expression, Statement][] = [[not(this.check(base, v, place, depth)), this.expected(p, { check: TRUE, what: describe(type) }, v)]];
    const c = type.constraints;
    // "expected a uri string, got "x"": the value quoted as a type issue quotes it (`byte` named by its encoding).
    if (c?.format) {
      const name = c.format === "byte" ? "base64" : c.format;
      const what = `${/^[aeio]/.test(name) ? "an" : "a"} ${name} string`;
      tests.push([not(call(this.format(c.format), v)), this.expected(p, { check: TRUE, what, keyword: "format" }, v)]);
    }
    if (c?.pattern !== undefined) {
      tests.push([not(call(property(id(this.pattern(c.pattern)), "test"), v)), this.issue(p, "pattern", lit(`must match /${c.pattern}/`))]);
    }
    if (c?.minimum !== undefined) tests.push([binary(v, "<", lit(c.minimum)), this.issue(p, "minimum", lit(`must be >= ${c.minimum}`))]);
    if (c?.maximum !== undefined) tests.push([binary(v, ">", lit(c.maximum)), this.issue(p, "maximum", lit(`must be <= ${c.maximum}`))]);
    return [tests.reduceRight<Statement | undefined>((otherwise, [test, then]) => ifStatement(test, then, otherwise), undefined)!];
  }

  private arrayCollect(type: Extract<TypeExpr, { kind: "array" }>, v: Expression, p: Expression, place: string, depth: number): Statement[] {
    const index = `i${depth}`;
    const i = id(index);
    const e = `e${depth}`;
    const elementType = this.jsonElement(type.element);
    const named = type.constraints?.maxItems === undefined ? this.namedCollector(elementType, `${place}$items`, depth + 1) : undefined;
    if (named) return [expressionStatement(call(this.rt("items"), O, p, v, named.depth, id(named.name)))];
    const inner: Statement[] = [];
    const max = type.constraints?.maxItems;
    const length = property(v, "length");
    if (max !== undefined) {
      inner.push(ifStatement(binary(length, ">", lit(max)), this.issue(p, "maxItems", binary(lit(`must have at most ${max} items, has `), "+", length))));
    }
    const item = this.collect(elementType, id(e), pathAppend(p, { kind: "dynamic", expression: i }), `${place}$items`, depth + 1);
    if (item.length > 0) {
      inner.push({
        kind: "for",
        variable: index,
        test: chain([binary(i, "<", length), binary(property(O, "length"), "<=", this.rt("MAX_ISSUES"))], "&&"),
        body: block([{ kind: "const", name: e, value: element(v, i) }, ...item]),
      });
    }
    return [ifStatement(not(call(this.rt("isPlainArray"), v)), this.expected(p, { check: TRUE, what: "array" }, v), block(inner))];
  }

  /** The named collector of a type, if it has one (a reference, or a hoisted helper), and the depth to call it with. */
  private namedCollector(type: TypeExpr, place: string, depth: number): { name: string; depth: Expression } | undefined {
    if (type.kind === "ref") {
      const target = this.model.typeOf(type.name);
      if (target && !this.model.recursive.has(type.name) && isPlainLeaf(target)) return undefined;
      return { name: this.collectorName(type.name), depth: depthArg(depth) };
    }
    if (this.needsStatements(type)) {
      this.helper(type, place);
      return { name: this.helperCollectors.get(typeKey(type))!, depth: depthArg(depth) };
    }
    return undefined;
  }

  private tupleCollect(type: Extract<TypeExpr, { kind: "tuple" }>, v: Expression, p: Expression, place: string, depth: number): Statement[] {
    const n = type.elements.length;
    const length = property(v, "length");
    const inner = type.elements.flatMap((el, idx) => this.collect(this.jsonElement(el), element(v, lit(idx)), pathAppend(p, { kind: "index", index: idx }), `${place}$${idx}`, depth + 1));
    return [
      ifStatement(
        not(call(this.rt("isPlainArray"), v)),
        this.expected(p, { check: TRUE, what: "array" }, v),
        ifStatement(binary(length, "!==", lit(n)), this.issue(p, "items", binary(lit(`must have exactly ${n} items, has `), "+", length)), block(inner)),
      ),
    ];
  }

  private objectCollect(type: ObjectType, v: Expression, p: Expression, place: string, depth: number): Statement[] {
    const body: Statement[] = [];
    // A name declared more than once (a long intersection merged into one object type) is collected once, as the
    // intersection of its declarations: "missing" once, an issue both would report once (helper-74: 65 times).
    // Declarations of literals are merged first, as the check merges them. Past LONG declarations of one name (which
    // TypeScript could not analyse as one block per declaration: TS2563; helper-76), each is collected on its own, the
    // later ones without their "missing".
    const distinct = this.literalsMerged(alikeMerged(type.properties));
    const repeated = repeatedNames(distinct);
    for (const prop of distinct) {
      const group = repeated.get(prop.name);
      if (group === undefined) body.push(...this.propertyCollect(prop, v, p, place, depth));
      else if (prop !== group[0]) continue;
      else if (group.length <= LONG) body.push(...this.propertyCollect(declaredAsOne(group), v, p, place, depth));
      else {
        // Collected into one list, which allOf lists once each: every declaration found the same issue there (helper-77:
        // `/a: expected object` 70 times). By functions of at most LONG_PART declarations each: in one function, hundreds
        // of them were more than TypeScript analyses (TS2563).
        const declarations = group.map((q, i) => ({ ...q, optional: i === 0 ? group.every((r) => r.optional) : true }));
        body.push(block(collectedApart([this.collectedInParts(declarations, v, p, `${place}$${prop.name}`, depth)], this.rt("allOf"))));
      }
    }
    if (type.indexSignature && !isAnything(type.indexSignature)) {
      const k = `k${depth}`;
      const skip = this.indexSkip(type, v, id(k));
      const key = call(this.rt("escapeToken"), id(k));
      const inner = this.collect(type.indexSignature, element(v, id(k)), pathAppend(p, { kind: "dynamic", expression: key }), `${place}$values`, depth + 1);
      body.push({
        kind: "for-in",
        variable: k,
        object: v,
        body: block([
          ifStatement(binary(property(O, "length"), ">", this.rt("MAX_ISSUES")), { kind: "break" }),
          ifStatement(skip, { kind: "continue" }),
          ...inner,
        ]),
      });
    }
    if (body.length === 0) return [ifStatement(not(call(this.rt("isPlainObject"), v)), this.expected(p, { check: TRUE, what: "object" }, v))];
    return [ifStatement(call(this.rt("object"), O, p, v), block(body))];
  }

  /**
   * Calls collecting `declarations` (properties of the object `v`, at path `p`), each call a
   * function of its own collecting at most {@link LONG_PART} of them, with `v` as its value.
   */
  private collectedInParts(declarations: readonly Property[], v: Expression, p: Expression, place: string, depth: number): Statement[] {
    const calls: Statement[] = [];
    for (let from = 0; from < declarations.length; from += LONG_PART) {
      const name = this.internalName({ place, suffix: "$part" });
      const body = declarations.slice(from, from + LONG_PART).flatMap((prop) => this.propertyCollect(prop, V, P, place, 0));
      this.helpers.push(this.render("collect", name, body));
      calls.push(expressionStatement(call(id(name), v, p, O, depthArg(depth))));
    }
    return calls;
  }

  /** Statements collecting the issues of one property of an object type (`prop` of `v`, at path `p`). */
  private propertyCollect(prop: Property, v: Expression, p: Expression, place: string, depth: number): Statement[] {
    const read = this.read(v, prop.name);
    // need/req/opt take the property's JSON Pointer token, "/" and its escaped name.
    const token = lit(`/${pointerToken(prop.name)}`);
    const simple = this.simpleLeaf(prop.type, read, `${place}$${prop.name}`, depth + 1);
    if (simple) return [expressionStatement(this.plainProperty(prop.type, prop.optional, token, read, simple, p))];
    const path = pathAppend(p, { kind: "name", name: prop.name });
    const inner = this.collect(prop.type, read, path, `${place}$${prop.name}`, depth + 1);
    const only = inner.length === 1 ? inner[0]! : undefined;
    if (only?.kind === "expression" && only.expression.kind === "call" && only.expression.args[0] === read && only.expression.args[1] === path) {
      // One collector call at the property's path (a named type or a shared helper):
      // `reqCollect`/`optCollect` append the token to the path and call it.
      const [, , , d] = only.expression.args;
      return [expressionStatement(call(this.rt(prop.optional ? "optCollect" : "reqCollect"), O, p, token, read, d!, only.expression.callee))];
    }
    const guard = prop.optional ? binary(read, "!==", UNDEFINED) : call(this.rt("need"), O, p, token, read);
    if (inner.length === 0) return prop.optional ? [] : [expressionStatement(guard)];
    return [ifStatement(guard, inner.length === 1 && isOneLine(inner[0]!) ? inner[0]! : block(inner))];
  }

  /**
   * A long intersection of object types (over 64 members, none with an index signature) as one
   * object type: one object test instead of one per member, which TypeScript could not analyse.
   */
  private mergedIntersection(type: Extract<TypeExpr, { kind: "intersection" }>): ObjectType | undefined {
    return type.members.length > LONG ? this.model.checkShape(type, { throughRecursive: true, anyIndexSignature: false }) : undefined;
  }

  /**
   * `type` with the members that add no constraint taken out, when one does: an intersection
   * holds every constraint once, and a member met again through nested intersections or aliases
   * of them (`A2 = A1 & A1`, or `L & R` with both built on `A`) would be checked again at every
   * link, 2^n checks for a chain of n aliases. So would a union listing a member already there
   * (`A2 = A1 & (A1 | null)`: `X & (X | Y)` is `X`). The members are then the leaves under those
   * aliases (recursive ones not followed), in the order first met; `type` itself when nothing is
   * taken out. The leaves are not merged into one object: members that each reach a recursive
   * type must stay apart for {@link branchesIntoRecursion} to count them (helper-72).
   */
  private distinct(type: IntersectionType): IntersectionType {
    const known = this.distinctIntersections.get(type);
    if (known) return known;
    const seen = new Set<string>();
    let leaves: TypeExpr[] = [];
    let changed = false;
    const visit = (t: TypeExpr): void => {
      if (t.kind === "intersection") return t.members.forEach(visit);
      const key = typeKey(t);
      if (seen.has(key)) {
        changed = true;
        return;
      }
      seen.add(key);
      const decl = t.kind === "ref" && !this.model.recursive.has(t.name) ? this.model.declarations.get(t.name) : undefined;
      if (decl?.kind === "alias" && decl.type.kind === "intersection") return visit(decl.type);
      leaves.push(t);
    };
    type.members.forEach(visit);
    const absorbed = (leaf: TypeExpr): boolean => {
      const union = this.model.resolve(leaf);
      return union.kind === "union" && this.model.flattenUnion(union).some((m) => seen.has(typeKey(m)));
    };
    if (leaves.some(absorbed)) {
      changed = true;
      leaves = leaves.filter((leaf) => !absorbed(leaf));
    }
    const answer = changed ? { ...type, members: leaves } : type;
    this.distinctIntersections.set(type, answer);
    return answer;
  }

  /**
   * The check of an intersection's member after one checked in place, as a function of its own
   * (`_isU$1`): written in place, its tests would read `v` as narrowed by the ones before, which
   * TypeScript refuses where they cannot overlap (`typeof v === "string" && (v === "a" || v === 1)`
   * is TS2367), though the values are the schema's.
   */
  private memberHelper(type: TypeExpr, place: string): string {
    const key = `member:${typeKey(type)}`;
    const known = this.helperChecks.get(key);
    if (known) return known;
    const name = this.internalName({ place });
    this.helperChecks.set(key, name);
    this.helpers.push(this.render("check", name, [returnStatement(this.check(type, V, place, 0))]));
    return name;
  }

  private intersectionCollect(whole: IntersectionType, v: Expression, p: Expression, place: string, depth: number): Statement[] {
    const merged = this.mergedIntersection(whole);
    if (merged) return this.collect(merged, v, p, place, depth);
    // Two objects down, a function of its own shared by type, as its check is (see check): in place, a chain of
    // `Partial<Pick<X_{n-1}, "a">>` links spelled out each link's intersection again in the one above, 2^n (helper-76).
    if (depth >= 2 && whole.members.some((m) => m.kind === "ref")) return this.hoistedCollect(whole, v, p, place, depth);
    const type = this.withoutImpossible(this.distinct(whole));
    const shapes = type.members.map((m) => this.model.shapeOf(m));
    if (!shapes.every((s) => s !== undefined)) {
      // The object members collect together, as below (one object test: "expected object" once), the others each alone,
      // each into a list of its own that allOf merges: a union member's closest alternative reports again what an object
      // member reported (helper-73: twice per level of a recursive type).
      const objects = type.members.filter((_, i) => shapes[i] !== undefined);
      const together = objects.length > 1;
      const groups = [
        ...(together ? [this.intersectionCollect({ kind: "intersection", members: objects }, v, p, `${place}$objects`, depth)] : []),
        ...type.members.flatMap((m, i) => (together && shapes[i] !== undefined ? [] : [this.collect(m, v, p, `${place}$${i}`, depth)])),
      ].filter((group) => group.length > 0);
      return groups.length < 2 ? groups.flat() : [block(collectedApart(groups, this.rt("allOf")))];
    }
    // A property several members declare is one constraint per member, but one missing
    // property: an object member after the first leaves out what an earlier member already
    // collects (the same type) and does not report missing what an earlier member requires.
    // Where two members still check one key with types that can report the same issue (the
    // same type, or types that can both hold objects or arrays, whose checks go deeper), each
    // member collects into a list of its own and allOf lists an issue they share once.
    const declared = new Map<string, TypeExpr[]>();
    const indexed: TypeExpr[] = [];
    const required = new Set<string>();
    let repeats = false;
    const overlapsEarlier = (name: string, type: TypeExpr): boolean =>
      [...(declared.get(name) ?? []), ...indexed].some((earlier) => this.mayRepeat(earlier, type));
    const members = type.members.flatMap((m, i) => {
      const shape = shapes[i]!;
      let member = m;
      if (m.kind === "object") {
        const properties = m.properties.flatMap((prop) => {
          const sameType = declared.get(prop.name)?.some((earlier) => this.sameValues(earlier, prop.type)) ?? false;
          // The same type, and no requirement an earlier member lacks: nothing new to collect.
          if (sameType && (prop.optional || required.has(prop.name))) return [];
          repeats ||= overlapsEarlier(prop.name, prop.type);
          // Required here, optional before: the missing property is this member's to report, its type an earlier one's too.
          return !prop.optional && required.has(prop.name) ? [{ ...prop, optional: true }] : [prop];
        });
        member = { ...m, properties };
      } else {
        // A named member collects in its own function: an earlier member's issue there is reported again.
        repeats ||= shape.properties.some((prop) => declared.has(prop.name) || overlapsEarlier(prop.name, prop.type));
      }
      // An index signature checks the keys this member does not name, which earlier members may check too.
      const index = shape.indexSignature;
      if (index !== undefined) {
        const own = new Set(shape.properties.map((prop) => prop.name));
        repeats ||= [...declared].some(([name, types]) => !own.has(name) && types.some((t) => this.mayRepeat(t, index)));
        repeats ||= indexed.some((earlier) => this.mayRepeat(earlier, index));
      }
      for (const prop of shape.properties) {
        declared.set(prop.name, [...(declared.get(prop.name) ?? []), prop.type]);
        if (!prop.optional) required.add(prop.name);
      }
      if (index !== undefined) indexed.push(index);
      const empty = member.kind === "object" && member.properties.length === 0 && member.indexSignature === undefined;
      return empty ? [] : [this.collect(member, v, p, `${place}$${i}`, depth)];
    });
    if (!repeats || members.length < 2) {
      const body = members.flat();
      // Members without properties (`{} & {}`): only the object test, not an empty `if` (which Prettier would open).
      return [body.length === 0 ? expressionStatement(call(this.rt("object"), O, p, v)) : ifStatement(call(this.rt("object"), O, p, v), block(body))];
    }
    return [ifStatement(call(this.rt("object"), O, p, v), block(collectedApart(members, this.rt("allOf"))))];
  }

  /**
   * `type` with the names whose literal declarations share no value (`{ k: "a" } & { k: "b" }`,
   * which the check merges into `never`) declared once, as `never`, in an object member put first:
   * collected member by member, each declaration reported the value another one wants (helper-77:
   * `expected "b", got "a"`, and for "b" the reverse). Only names every declaration of which is in a
   * member written in place (a named member collects in its own function); `type` itself when none.
   */
  private withoutImpossible(type: IntersectionType): IntersectionType {
    const inline = type.members.filter((m): m is ObjectType => m.kind === "object");
    if (inline.length < 2) return type;
    const named = new Set(type.members.filter((m) => m.kind !== "object").flatMap((m) => this.model.shapeOf(m)?.properties.map((q) => q.name) ?? []));
    const impossible = [...this.literalDeclarations(inline.flatMap((m) => m.properties)).values()]
      .filter((group) => !named.has(group[0]!.name))
      .map((group) => this.literalsAsOne(group))
      .filter((q) => q.type.kind === "keyword" && q.type.name === "never");
    if (impossible.length === 0) return type;
    const names = new Set(impossible.map((q) => q.name));
    const members = type.members.map((m) => (m.kind === "object" ? { ...m, properties: m.properties.filter((q) => !names.has(q.name)) } : m));
    return { kind: "intersection", members: [{ kind: "object", properties: impossible }, ...members] };
  }

  /**
   * Whether two checks of one key, with these types, can report the same issue: the same type
   * (but `unknown`), or types that can both hold objects, or both arrays (their checks go on
   * into what they hold, where they can meet one declaration or one property: `{ a?: Box }` and
   * `{ a?: Box | number }`).
   */
  private mayRepeat(a: TypeExpr, b: TypeExpr): boolean {
    // `unknown` and `any` check nothing, so report nothing twice.
    if (isAnything(a) || isAnything(b)) return false;
    const keys = new Set(this.leafKeys(a));
    return this.leafKeys(b).some((key) => keys.has(key)) || (jsonTypeMask(a, this.model, true) & jsonTypeMask(b, this.model, true) & (16 | 32)) !== 0;
  }

  /**
   * What `type` can report an issue about, as keys two types share when they may report the same
   * one: the members of a union (through aliases) each, a keyword or literal by the values it takes
   * however spelled (`S`, an alias of `string`, and `string`; `typeof X` and `"x"`; a keyword with
   * constraints and without, which report "expected integer" alike), anything else by its
   * {@link typeKey}. `"a"` and `"a" | Box` share `"a"`: for `"z"` both report `expected "a"`
   * (helper-74, helper-76: it was reported twice).
   */
  private leafKeys(type: TypeExpr): string[] {
    const resolved = this.model.resolve(type);
    const members = resolved.kind === "union" || resolved.kind === "keyword" || resolved.kind === "literal" ? flattenLeaves([type], this.model) : [type];
    return members.map((m) =>
      m.kind === "literal" ? typeKey({ kind: "literal", value: m.value }) : m.kind === "keyword" ? typeKey({ kind: "keyword", name: m.name, ...(m.numberType === undefined ? {} : { numberType: m.numberType }) }) : typeKey(m),
    );
  }

  private unionCollect(type: UnionType, v: Expression, p: Expression, place: string, depth: number): Statement[] {
    const members = simplifyUnion(type);
    if (members.some(isAnything)) return [];
    const disc = this.model.discriminantOf(type);
    if (disc) return this.discriminatedCollect(type, v, p, place, depth);
    const simple = this.simpleLeaf(type, v, place, depth);
    if (simple) return [ifStatement(not(simple.check), this.expected(p, simple, v))];
    const collectors = members.map((m, i) => this.memberCollector(m, `${place}$${i}`));
    const masks = members.map((m) => jsonTypeMask(m, this.model));
    const label = unionLabel(members);
    const recursive = [...refsIn(type)].some((name) => this.model.recursive.has(name));
    // Members that can hold one JSON type may each collect a shared recursive property: collectedOnce collects it once.
    const overlapping = masks.some((m, i) => masks.some((n, j) => j > i && (m & n) !== 0));
    const args = [O, p, v, depthArg(depth), lit(label), array(masks.map((m) => lit(m))), array(collectors.map((c) => id(c)))];
    const anyOf = expressionStatement(call(this.rt("anyOf"), ...args, ...(recursive && overlapping ? [this.rt("collectedOnce")] : [])));
    // A union reaching a recursive type: anyOf itself finds a matching member (one without
    // issues); a fast check first would walk the subtree once more at every level. Its masks
    // hold JSON types only, so a union that admits undefined says so itself.
    if (recursive) return members.some((m) => this.acceptsUndefined(m)) ? [ifStatement(binary(v, "!==", UNDEFINED), anyOf)] : [anyOf];
    return [ifStatement(not(this.unionCheck(type, v, place, depth)), anyOf)];
  }

  /** A collector function for one union member: the type's own, or a hoisted one. */
  private memberCollector(member: TypeExpr, place: string): string {
    if (member.kind === "ref") return this.collectorName(member.name);
    const known = this.helperCollectors.get(typeKey(member)) ?? this.declaredCollectors.get(typeKey(member));
    if (known) return known;
    const name = this.internalName({ place, suffix: "$collect" });
    this.helperCollectors.set(typeKey(member), name);
    const body = this.collectStatements(member, V, P, place, 0, false);
    this.helpers.push(this.render("collect", name, body));
    return name;
  }

  private discriminatedCollect(type: UnionType, v: Expression, p: Expression, place: string, depth: number): Statement[] {
    const disc = this.model.discriminantOf(type)!;
    const read = this.read(v, disc.property);
    const cases: SwitchCase[] = disc.cases.map((c) => ({
      labels: [...c.values.map((x) => lit(x)), ...(c.member === disc.whenAbsent ? [UNDEFINED] : [])],
      body: [
        expressionStatement(call(id(this.memberCollector(c.member, `${place}$${caseName(c.values)}`)), v, p, O, depthArg(depth))),
        { kind: "break" },
      ],
    }));
    const allowed = disc.cases.flatMap((c) => c.values.map((x) => JSON.stringify(x))).join(", ");
    const path = pathAppend(p, { kind: "name", name: disc.property });
    if (!disc.whenAbsent) {
      cases.push({ labels: [UNDEFINED], body: [expressionStatement(call(this.rt("missing"), O, path, lit(disc.property))), { kind: "break" }] });
    }
    const message = binary(binary(lit(`unknown ${disc.property} `), "+", call(this.rt("describeValue"), read)), "+", lit(`; expected one of ${allowed}`));
    cases.push({ labels: [], isDefault: true, body: [this.issue(path, "discriminator", message)] });
    return [ifStatement(call(this.rt("object"), O, p, v), { kind: "switch", discriminant: read, cases })];
  }

  // ---- constants ---------------------------------------------------------------------------

  /** The runtime's checker function for a string format (`uri-template` → `formatUriTemplate`). */
  private format(format: string): Expression {
    return this.rt(formatFunction(format));
  }

  /** A module constant `LITERALS_n`, a `Set` of the values (one per distinct value list). */
  private literalSet(values: readonly (string | number | boolean)[]): string {
    const distinct = [...new Map(values.map((x) => [JSON.stringify(x), x])).values()];
    const key = JSON.stringify(distinct);
    let name = this.literalSetNames.get(key);
    if (!name) {
      name = this.internalName({ prefix: "LITERALS", count: this.literalSetNames.size });
      this.literalSetNames.set(key, name);
      this.constant({ kind: "const", name, type: "ReadonlySet<unknown>", value: { kind: "new", callee: id("Set"), args: [array(distinct.map((x) => lit(x)))] } });
    }
    return name;
  }

  /** A module constant `PATTERN_n`, the regular expression of a `@pattern` (one per distinct source). */
  private pattern(source: string): string {
    let name = this.patternNames.get(source);
    if (!name) {
      name = this.internalName({ prefix: "PATTERN", count: this.patternNames.size });
      this.patternNames.set(source, name);
      this.constant({ kind: "const", name, value: { kind: "new", callee: id("RegExp"), args: [lit(source), lit("u")] } });
    }
    return name;
  }

  private constant(declaration: Statement & { readonly name: string }): void {
    for (const text of this.layout.statements([declaration])) {
      this.constants.push(text);
      this.constantNames.set(text, declaration.name);
    }
  }

  /** The module constants some kept function reads (see {@link decideUnread}). */
  keptConstants(): string[] {
    return this.constants.filter((text) => !this.unread.has(this.constantNames.get(text)!));
  }
}

/** The declaration of a type's Standard Schema object, laid out (or plain, and the layout undecided). */
function standardSchema(n: TypeNames, standard: string, layout: Layout): string {
  const text = layOutStandardSchema(n, standard);
  if (text !== undefined) return text;
  layout.decided = false;
  return `export const ${n.standard}: StandardSchemaV1<${n.typeText}> = ${standard}(${n.validate});`;
}

/** The depth argument for a call on a value `level` arrays or objects below the function's own value. */
function depthArg(level: number): Expression {
  return level === 0 ? D : binary(D, "+", lit(level));
}

/**
 * A key equal for structurally equal types: source positions, docs and where a property was
 * inherited from are left out. Each kind lists its fields in a fixed order.
 */
export function typeKey(type: TypeExpr): string {
  switch (type.kind) {
    case "keyword":
      return `k(${type.name},${type.numberType ?? ""},${constraintsKey(type.constraints)})`;
    case "literal":
      return `l(${JSON.stringify(type.value)},${type.fromConst ?? ""})`;
    case "ref":
      return `r(${JSON.stringify(type.name)})`;
    case "array":
      return `a(${typeKey(type.element)},${constraintsKey(type.constraints)})`;
    case "tuple":
      return `t(${type.elements.map(typeKey).join(",")})`;
    case "union":
      return `u(${type.members.map(typeKey).join(",")})`;
    case "intersection":
      return `i(${type.members.map(typeKey).join(",")})`;
    case "object":
      return `o(${type.properties.map((p) => `${JSON.stringify(p.name)}${p.optional ? "?" : ""}:${typeKey(p.type)}`).join(",")};${type.indexSignature ? typeKey(type.indexSignature) : ""})`;
  }
}

function constraintsKey(c: KeywordType["constraints"]): string {
  if (!c) return "";
  return [c.format, c.minimum, c.maximum, c.maxItems, c.pattern].map((x) => (x === undefined ? "" : JSON.stringify(x))).join(";");
}

function caseName(values: readonly (string | number | boolean)[]): string {
  return identifierPart(String(values[0]));
}

/** An internal check function `name(v, d): boolean`. */
function checkFunction(layout: Layout, name: string, body: readonly Statement[]): string {
  return layout.function({ name, params: [{ name: "v", type: "any" }, { name: "d", type: "number" }], returns: "boolean", body });
}

/** An internal collector function `name(v, p, o, d): void`. */
function collectFunction(layout: Layout, name: string, body: readonly Statement[]): string {
  return layout.function({
    name,
    params: [
      { name: "v", type: "any" },
      { name: "p", type: "string" },
      { name: "o", type: "ValidationIssue[]" },
      { name: "d", type: "number" },
    ],
    returns: "void",
    body,
  });
}

/** `unknown` and `any` accept everything. */
function isAnything(type: TypeExpr): boolean {
  return type.kind === "keyword" && (type.name === "unknown" || type.name === "any");
}

/** The items whose `key` no earlier item has, in order. */
function distinctBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** A union's members as checked: without string literals when it also has `string` (an open union `"a" | "b" | string`), each once. */
function simplifyUnion(type: UnionType): TypeExpr[] {
  const open = type.members.some((m) => m.kind === "keyword" && m.name === "string" && !m.constraints);
  const members = open ? type.members.filter((m) => !(m.kind === "literal" && typeof m.value === "string")) : type.members;
  // A member written twice (`K | K`) is checked once.
  return distinctBy(members, typeKey);
}

/**
 * `properties` with a name declared twice with one type kept once, required when either
 * declaration requires it; an optional property's `| undefined` adds nothing (`{ a: X } & { a?: X |
 * undefined }` is one test of `a`; helper-74).
 */
function alikeMerged(properties: readonly Property[]): Property[] {
  const alike = (p: Property) => `${JSON.stringify(p.name)}:${typeKey(p.optional ? withoutUndefined(p.type) : p.type)}`;
  const required = new Set(properties.filter((p) => !p.optional).map(alike));
  return distinctBy(properties, alike).map((p) => (p.optional && required.has(alike(p)) ? { ...p, optional: false, type: withoutUndefined(p.type) } : p));
}

/** The declarations of each name `properties` declare more than once, in order, by the name. */
function repeatedNames(properties: readonly Property[]): Map<string, Property[]> {
  const byName = new Map<string, Property[]>();
  for (const p of properties) byName.set(p.name, [...(byName.get(p.name) ?? []), p]);
  for (const [name, group] of byName) if (group.length < 2) byName.delete(name);
  return byName;
}

/** A name's declarations as one property, in the first one's place: the intersection of their types, required when one of them is. */
function declaredAsOne(group: readonly Property[]): Property {
  return { ...group[0]!, optional: group.every((q) => q.optional), type: { kind: "intersection", members: group.map((q) => q.type) } };
}

/** `type` without its `undefined` members (a union of one member is that member); `type` itself when it has none, or nothing else. */
function withoutUndefined(type: TypeExpr): TypeExpr {
  if (type.kind !== "union") return type;
  const members = type.members.filter((m) => !(m.kind === "keyword" && m.name === "undefined"));
  if (members.length === type.members.length || members.length === 0) return type;
  return members.length === 1 ? members[0]! : { ...type, members };
}

/** A keyword, literal or union of them, without constraints: cheaper to check in place than to call. */
function isPlainLeaf(type: TypeExpr): boolean {
  if (type.kind === "keyword") return !type.constraints;
  if (type.kind === "literal") return true;
  if (type.kind === "union") return type.members.length <= 8 && type.members.every(isPlainLeaf);
  return false;
}

/** Whether `type` is keywords and literals only, through aliases (each alias looked at once: see {@link flattenLeaves}). */
function isLeaf(type: TypeExpr, model: Model, seen = new Set<string>()): boolean {
  if (type.kind === "keyword") return !type.constraints;
  if (type.kind === "literal") return true;
  if (type.kind !== "union") return false;
  return type.members.every((m) => {
    // An alias met before passed already: `every` stops at the first member that does not.
    if (m.kind === "ref" && seen.has(m.name)) return true;
    if (m.kind === "ref") seen.add(m.name);
    return isLeaf(model.resolve(m), model, seen);
  });
}

function describe(type: TypeExpr): string {
  if (type.kind === "literal") return JSON.stringify(type.value);
  if (type.kind === "keyword") return type.name === "number" ? (type.numberType === "number" ? "number" : "integer") : type.name;
  return type.kind;
}

/**
 * The leaves of a union through aliases, each once: `type K2 = K1 | K1` has K1's leaves, not
 * twice them (a chain of such aliases would otherwise double at every link; helper-68).
 */
function flattenLeaves(members: readonly TypeExpr[], model: Model): TypeExpr[] {
  const leaves: TypeExpr[] = [];
  const keys = new Set<string>();
  const aliases = new Set<string>();
  const visit = (m: TypeExpr): void => {
    if (m.kind === "ref") {
      if (aliases.has(m.name)) return;
      aliases.add(m.name);
    }
    const t = model.resolve(m);
    if (t.kind === "union") return t.members.forEach(visit);
    const key = typeKey(t);
    if (keys.has(key)) return;
    keys.add(key);
    leaves.push(t);
  };
  members.forEach(visit);
  return leaves;
}

/** The values of `type` when it is literals only (through aliases and unions), as JSON text each; else `undefined`. */
function literalValues(type: TypeExpr, model: Model): string[] | undefined {
  const leaves = flattenLeaves([type], model);
  return leaves.every((leaf) => leaf.kind === "literal") ? leaves.map((leaf) => JSON.stringify((leaf as LiteralType).value)) : undefined;
}

function describeUnion(flat: readonly TypeExpr[]): string {
  if (flat.every((m) => m.kind === "literal")) return `one of ${flat.map(describe).join(", ")}`;
  return [...new Set(flat.map(describe))].join(" or ");
}

/**
 * Each group of statements in a block of its own, where `o` is that group's list (the same code, another list), and
 * `allOf` (the runtime's, as `allOf`) merging the lists into the outer `o`, an issue several report once.
 */
function collectedApart(groups: readonly (readonly Statement[])[], allOf: Expression): Statement[] {
  const found = id("found");
  const own = (statements: readonly Statement[]): Statement =>
    block([{ kind: "const", name: "o", type: "ValidationIssue[]", value: array([]) }, expressionStatement(call(property(found, "push"), O)), ...statements]);
  return [{ kind: "const", name: "found", type: "ValidationIssue[][]", value: array([]) }, ...groups.map(own), expressionStatement(call(allOf, O, found))];
}

/** The most declarations of one name one function collects (see `objectCollect`): TypeScript analyses hundreds in one function no more (TS2563). */
const LONG_PART = 32;

/** The longest intersection label an `anyOf` message spells out, in characters. */
const MAX_LABEL = 80;

/** The most property names an object type's label lists (`{ a, b, c, … }`). */
const MAX_LABEL_PROPERTIES = 3;

/**
 * How the members of a union are named in its `anyOf` messages, joined by ` | `. Members that
 * {@link labelOf} names alike (two object types: `object | object`) are named by their
 * properties instead (`{ a } | { b }`).
 */
function unionLabel(members: readonly TypeExpr[]): string {
  // A union written inside the union is named by its members (`A | (B | null)`: `A | B | null`).
  const flat = members.flatMap(function spread(m: TypeExpr): TypeExpr[] {
    return m.kind === "union" ? m.members.flatMap(spread) : [m];
  });
  const labels = flat.map((m) => labelOf(m));
  const named = labels.map((l, i) => (labels.indexOf(l) === labels.lastIndexOf(l) ? l : labelOf(flat[i]!, true)));
  // Each label once (`{ a } | null | ({ b } | null)`: `null` twice; helper-79), unless every member reads alike (two
  // object types with the same first properties), which one label would hide.
  const once = [...new Set(named)];
  return (once.length === 1 ? named : once).join(" | ");
}

/**
 * How a union member is named in an `anyOf` message: `TextContent`, `TextContent[]`, `string`,
 * `object`; with `properties`, an object type by the names of its first properties (`{ a, b }`,
 * `{}` for none).
 */
function labelOf(type: TypeExpr, properties = false): string {
  const inner = (t: TypeExpr): string => labelOf(t, properties);
  switch (type.kind) {
    case "ref":
      return type.name;
    case "array":
      return type.element.kind === "union" || type.element.kind === "intersection" ? `(${inner(type.element)})[]` : `${inner(type.element)}[]`;
    case "union":
      return [...new Set(type.members.map(inner))].join(" | ");
    case "intersection": {
      // Each member once, `unknown` and `any` left out (they add nothing); a long one is "intersection".
      const labels = [...new Set(type.members.filter((m) => !isAnything(m)).map(inner))];
      const text = labels.map((l) => (l.includes(" | ") ? `(${l})` : l)).join(" & ");
      return labels.length === 0 ? "unknown" : text.length <= MAX_LABEL ? text : "intersection";
    }
    case "object": {
      if (!properties) return "object";
      const names = type.properties.map((p) => p.name);
      const shown = names.slice(0, MAX_LABEL_PROPERTIES).map((name) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name)));
      if (names.length > MAX_LABEL_PROPERTIES) shown.push("…");
      return shown.length === 0 ? "{}" : `{ ${shown.join(", ")} }`;
    }
    default:
      return describe(type);
  }
}

/** {@link jsonTypeMask}'s answers for each declaration, per model and per view (`tested`). */
const declarationMasks = new WeakMap<Model, Map<string, number>>();

/**
 * JSON types a value of `type` can have, as the bits of the runtime's `jsonType`; with `tested`,
 * the JSON types some check of `type` accepts (an intersection's members each test the value, so
 * `{ a?: 1 } & string` looks into objects although no value is both). A reference's answer is
 * remembered: an alias chain (`A2 = A1 & A1`) costs one step per link, not 2^n. The walk stops at
 * objects and arrays, so it meets no cycle in a schema TypeScript accepts; a reference met again on
 * its own path answers every type.
 */
function jsonTypeMask(type: TypeExpr, model: Model, tested = false, active = new Set<string>()): number {
  switch (type.kind) {
    case "keyword":
      return { string: 1, number: 2, boolean: 4, null: 8, object: 16, unknown: 63, any: 63, never: 0, undefined: 0 }[type.name];
    case "literal":
      return typeof type.value === "string" ? 1 : typeof type.value === "number" ? 2 : 4;
    case "ref": {
      let masks = declarationMasks.get(model);
      if (masks === undefined) declarationMasks.set(model, (masks = new Map()));
      const key = tested ? `tested ${type.name}` : type.name;
      const known = masks.get(key);
      if (known !== undefined) return known;
      if (active.has(type.name)) return 63;
      const target = model.typeOf(type.name);
      active.add(type.name);
      const mask = target ? jsonTypeMask(target, model, tested, active) : 63;
      active.delete(type.name);
      masks.set(key, mask);
      return mask;
    }
    case "array":
    case "tuple":
      return 32;
    case "object":
      return 16;
    case "union":
      return type.members.reduce((mask, m) => mask | jsonTypeMask(m, model, tested, active), 0);
    case "intersection":
      return tested
        ? type.members.reduce((mask, m) => mask | jsonTypeMask(m, model, tested, active), 0)
        : type.members.reduce((mask, m) => mask & jsonTypeMask(m, model, tested, active), 63);
  }
}
