/**
 * The one naming authority of a generate run: the {@link SymbolTable} that every emitter
 * declares its names into, per output file, before anything is rendered, the names generated
 * for a schema's types and revisions, and the text of a type reference. Case styles and reserved
 * words come from `../case.ts`; the references themselves from `../analyze/reference.ts`.
 *
 * - A file's top-level names are one namespace; the exported names of the modules that one
 *   `index.ts` re-exports are one namespace too ({@link SymbolTable.shareExports}). Two owners
 *   of one name in one namespace are a collision: {@link SymbolTable.check} reports each as
 *   MCG301, located at the later owner's span, with the other owner's span as related
 *   information.
 * - Internal names (hoisted helpers, constants) come from {@link SymbolTable.internal}, in the
 *   order of the calls; its callers call in an order that does not depend on the schema's.
 */
import type { TypeReference } from "../analyze/reference.js";
import { constantCase, identifierPart, pascalCase, RESERVED_WORDS, words } from "../case.js";
import { GeneratorError, sortDiagnostics } from "../errors.js";
import type { Declaration, Diagnostic, SourceSpan } from "../ir.js";

// ---- names made from words -----------------------------------------------------------------

/** Name of the generated checker function for a string format: `uri-template` → `formatUriTemplate`. */
export function formatFunction(format: string): string {
  return `format${pascalCase(words(format))}`;
}

/** A path segment the generator may name a folder with: letters, digits, `.`, `_`, `-`, starting with a letter or digit. */
const FOLDER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * The names one protocol revision gets in a multi-revision output: its folder (the protocol
 * version itself, as the wire and the spec name it: `2025-11-25/`), the local name of its
 * dispatch table in `dispatch.ts` (`REVISION_2025_11_25`) and its namespace in `index.ts`
 * (`v2025_11_25`). `undefined` when the version cannot name a folder.
 */
export function revisionNames(protocolVersion: string): { folder: string; constant: string; namespace: string } | undefined {
  if (!FOLDER_NAME.test(protocolVersion)) return undefined;
  const ws = words(protocolVersion);
  return { folder: protocolVersion, constant: constantCase(["revision", ...ws]), namespace: `v${ws.join("_")}` };
}

// ---- references to types as text -----------------------------------------------------------

/**
 * The TypeScript text of a reference in a module importing `types.ts` as `namespace`:
 * `T.X["error"]["data"]`, `NonNullable<NonNullable<T.Request["params"]>["_meta"]>`.
 */
export function typeReferenceText(ref: TypeReference, namespace = TYPES_NAMESPACE): string {
  let text = `${namespace}.${ref.type}`;
  for (const step of ref.path) {
    text = `${text}[${JSON.stringify(step.key)}]`;
    if (step.defined) text = `NonNullable<${text}>`;
  }
  return text;
}

/** The local name generated modules import `types.ts` under (`import type * as T from "./types.js"`). */
export const TYPES_NAMESPACE = "T";

// ---- the symbol table ----------------------------------------------------------------------

/** Who a name belongs to, for messages: `type Foo`, `the validators runtime`. */
export interface SymbolOwner {
  /** What the owner is, as a message names it: `type Foo`, `the schema's isFoo`, `the validators runtime`. */
  readonly owner: string;
  /** Where the owner is written (a schema declaration); absent for the generator's own names. */
  readonly span?: SourceSpan;
  /** What a collision message advises to rename when this owner is involved (`the schema's X`). */
  readonly rename?: string;
}

/** One declared name. */
export interface DeclaredSymbol extends SymbolOwner {
  /** The namespace: an output file (`validators.ts`, `2025-11-25/errors.ts`) or a scope in one (`errors.ts#ErrorCode`). */
  readonly file: string;
  readonly name: string;
  /** Whether the file exports it (then it shares the namespace of modules re-exported together). */
  readonly exported: boolean;
  /** How to word a collision of this (later) name with an `earlier` one; a generic sentence when absent or `undefined`. */
  readonly clash?: (earlier: DeclaredSymbol) => string | undefined;
}

/** What {@link SymbolTable.declare} takes besides the file and name. */
export type SymbolDeclaration = Omit<DeclaredSymbol, "file" | "name">;

interface Collision {
  readonly later: DeclaredSymbol;
  readonly earlier: DeclaredSymbol;
}

/**
 * Every name of every output file of one generate run. Emitters declare their names (exported
 * or not) into it before anything is rendered; {@link check} then reports every collision at
 * once. One table per run: it holds no state between runs.
 */
export class SymbolTable {
  private readonly files = new Map<string, Map<string, DeclaredSymbol>>();
  /** Groups of files whose exports one module re-exports together. */
  private readonly groups: ReadonlySet<string>[] = [];
  /** Every declaration that took its name, in declaration order. */
  private readonly order: DeclaredSymbol[] = [];
  /** Collisions within one file, by the position the later declaration would have had in {@link order}. */
  private readonly collisions: (Collision & { readonly at: number })[] = [];
  private readonly problems: Diagnostic[] = [];
  private readonly internals = new Map<string, string>();

  /**
   * Makes the exported names of `files` one namespace (the modules that one `index.ts`
   * re-exports with `export *`, where a name two of them export would be dropped). Applies to
   * names declared before and after the call.
   */
  shareExports(files: Iterable<string>): void {
    this.groups.push(new Set(files));
  }

  /**
   * Declares `name` in `file`. A name another owner already holds there (or, when exported,
   * in a module re-exported together with `file`) is recorded as a collision, reported by
   * {@link check}. Returns `name`.
   */
  declare(file: string, name: string, declaration: SymbolDeclaration): string {
    const symbol: DeclaredSymbol = { ...declaration, file, name };
    const names = this.namesOf(file);
    const earlier = names.get(name);
    if (earlier !== undefined) {
      this.collisions.push({ later: symbol, earlier, at: this.order.length });
    } else {
      names.set(name, symbol);
      this.order.push(symbol);
    }
    return name;
  }

  /** The exported names of `file`, in declaration order. */
  exports(file: string): string[] {
    return [...(this.files.get(file)?.values() ?? [])].filter((s) => s.exported).map((s) => s.name);
  }

  /** Declares names `file` exports on its own behalf (its template's names, the runtime names it re-exports). */
  declareExports(file: string, names: Iterable<string>, owner = `${file} itself`): void {
    for (const name of names) this.declare(file, name, { exported: true, owner });
  }

  /** Whether `name` is declared in `file` (or reserved there by {@link internal}). */
  has(file: string, name: string): boolean {
    return this.files.get(file)?.has(name) === true;
  }

  /** The owner of `name` in `file`, if declared. */
  lookup(file: string, name: string): DeclaredSymbol | undefined {
    return this.files.get(file)?.get(name);
  }

  /**
   * A unique internal (not exported) identifier in `file` made from `base`: `base` itself when
   * free, else `base_2`, `base_3`, … Characters an identifier cannot hold become `_`, and a
   * reserved word is never returned. The same `base` and `owner` give the same name again (an
   * owner is a stable key: a type's name and place, a structural key of a type).
   *
   * Order: which of two owners of one base gets `base` and which `base_2` follows the order of
   * the calls, so callers make their names in an order of their own that does not depend on the
   * schema's (the validators emitter builds its functions in one canonical order).
   */
  internal(file: string, base: string, owner?: string): string {
    const key = owner === undefined ? undefined : `${file}\u0000${base}\u0000${owner}`;
    const known = key === undefined ? undefined : this.internals.get(key);
    if (known !== undefined) return known;
    const name = this.free(file, safeBase(base));
    this.declare(file, name, { exported: false, owner: owner ?? `an internal name of ${file}` });
    if (key !== undefined) this.internals.set(key, name);
    return name;
  }

  /** Records a naming problem found while declaring (a name that is no identifier), reported by {@link check} with the collisions. */
  report(problem: Diagnostic): void {
    this.problems.push(problem);
  }

  /** Collisions of exported names across the files of each group, by the later declaration's position. */
  private exportCollisions(): (Collision & { readonly at: number })[] {
    const out: (Collision & { readonly at: number })[] = [];
    for (const group of this.groups) {
      const owners = new Map<string, DeclaredSymbol>();
      this.order.forEach((symbol, at) => {
        if (!symbol.exported || !group.has(symbol.file)) return;
        const earlier = owners.get(symbol.name);
        if (earlier === undefined) owners.set(symbol.name, symbol);
        else out.push({ later: symbol, earlier, at });
      });
    }
    return out;
  }

  /** Every problem reported and every collision declared so far, as MCG301 diagnostics (each once, in source order). */
  diagnostics(): Diagnostic[] {
    const seen = new Set<string>();
    const out: Diagnostic[] = [...this.problems];
    const collisions = [...this.collisions, ...this.exportCollisions()].sort((a, b) => a.at - b.at);
    for (const { later, earlier } of collisions) {
      const rename = earlier.rename ?? later.rename ?? "one of them";
      const message =
        later.clash?.(earlier) ??
        (earlier.file !== later.file && earlier.exported && later.exported
          ? `${later.name} is exported by both ${earlier.file} and ${later.file}; rename ${rename}`
          : `${later.name} is declared in ${later.file} by ${later.owner} and ${earlier.file === later.file ? "" : `in ${earlier.file} `}by ${earlier.owner}; rename ${rename}`);
      const span = later.span ?? earlier.span;
      const related = later.span && earlier.span ? [{ message: `${earlier.owner} is declared here`, span: earlier.span }] : [];
      const key = `${message}\u0000${span ? `${span.file}:${span.line}:${span.column}` : ""}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ code: "MCG301", message, ...(span ? { span } : {}), ...(related.length > 0 ? { related } : {}) });
    }
    return sortDiagnostics(out);
  }

  /** Throws every collision at once (MCG301); call it after all declarations, before rendering. */
  check(): void {
    const problems = this.diagnostics();
    if (problems.length > 0) throw new GeneratorError(problems);
  }

  private namesOf(file: string): Map<string, DeclaredSymbol> {
    let names = this.files.get(file);
    if (!names) {
      names = new Map();
      this.files.set(file, names);
    }
    return names;
  }

  private free(file: string, base: string): string {
    const taken = (name: string) => this.has(file, name) || RESERVED_WORDS.has(name);
    let name = base;
    for (let n = 2; taken(name); n++) name = `${base}_${n}`;
    return name;
  }
}

function safeBase(base: string): string {
  const part = identifierPart(base);
  return part === "" || /^[0-9]/.test(part) ? `_${part}` : part;
}

// ---- the names of one schema's modules -----------------------------------------------------

/** Public and internal names generated for one schema type. */
export interface TypeNames {
  readonly type: string;
  /** The type as the validators module refers to it (`T.X`, {@link typeReferenceText}). */
  readonly typeText: string;
  /** `isX`: the public type guard. */
  readonly is: string;
  /** `validateX`: the public validator returning issues. */
  readonly validate: string;
  /** `XSchema`: the Standard Schema v1 object (`XStandardSchema` if `XSchema` is a schema type name). */
  readonly standard: string;
  /** `_isX`: internal check taking a depth. */
  readonly check: string;
  /** `_collectX`: internal issue collector. */
  readonly collect: string;
}

/** The output files one schema's names are declared in. */
export interface ModuleFiles {
  readonly types: string;
  readonly validators: string;
}

/**
 * Declares the schema's declarations (in `types.ts`) and the names generated for each type (in
 * `validators.ts`, when it is generated): `isX`, `validateX`, `XSchema` (exported when the
 * type is), `_isX`, `_collectX`. `runtime` gives the names the validators runtime declares in `validators.ts`
 * and those of them the module exports; declare them first, so a collision names the schema's side.
 */
export function declareTypeNames(
  table: SymbolTable,
  files: ModuleFiles,
  declarations: readonly Declaration[],
  runtime: { readonly names: ReadonlySet<string>; readonly exported: ReadonlySet<string> },
  validators = true,
): Map<string, TypeNames> {
  const byValidators = (earlier: DeclaredSymbol, name: string) => earlier.file === files.validators && (runtime.names.has(name) || name === VALIDATORS_BY_TYPE);
  if (validators) {
    for (const name of runtime.names) table.declare(files.validators, name, { exported: runtime.exported.has(name), owner: "the validators runtime" });
    table.declare(files.validators, VALIDATORS_BY_TYPE, { exported: true, owner: "the validators module" });
    table.declare(files.validators, TYPES_NAMESPACE, { exported: false, owner: "the import of types.ts" });
  }
  for (const decl of declarations) {
    // A value and a type of one name (`const X` beside `type X`) are one export; lower refuses real duplicates.
    if (table.has(files.types, decl.name)) continue;
    table.declare(files.types, decl.name, {
      exported: decl.exported,
      owner: `the schema's ${decl.name}`,
      rename: `the schema's ${decl.name}`,
      span: decl.span,
      clash: (earlier) =>
        byValidators(earlier, decl.name) ? `type name ${decl.name} collides with a name the generated validators export; rename the type` : undefined,
    });
  }
  const typeNames = new Set(declarations.map((d) => d.name));
  const result = new Map<string, TypeNames>();
  for (const decl of declarations) {
    if (decl.kind === "const") continue;
    const n = decl.name;
    const names: TypeNames = {
      type: n,
      typeText: typeReferenceText({ type: n, path: [] }),
      is: `is${n}`,
      validate: `validate${n}`,
      standard: typeNames.has(`${n}Schema`) ? `${n}StandardSchema` : `${n}Schema`,
      check: `_is${n}`,
      collect: `_collect${n}`,
    };
    const generated: SymbolDeclaration = {
      exported: decl.exported,
      owner: `type ${n}`,
      span: decl.span,
      clash: (earlier) => `generated name ${earlier.name} for type ${n} collides with a name from ${earlier.owner}; rename one of them`,
    };
    if (validators) {
      for (const value of [names.is, names.validate, names.standard]) table.declare(files.validators, value, generated);
      for (const value of [names.check, names.collect]) table.declare(files.validators, value, { ...generated, exported: false });
    }
    result.set(n, names);
  }
  return result;
}

/** The validators module's table of every exported type's `validateX`. */
export const VALIDATORS_BY_TYPE = "validatorsByType";
