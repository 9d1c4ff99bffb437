/**
 * The runtime: code that ships in generated output and does not depend on the schema. It
 * lives as ordinary TypeScript modules in `runtime/` at the package root, compiled and
 * unit-tested by this project. This module reads them and copies them into the output:
 *
 * - `validators.ts` carries its helpers inline (each top-level declaration of
 *   `runtime/validation.ts`, and of the modules it imports, that the generated code uses):
 *   validators stay one self-contained module, and every call is to a local function.
 * - The other generated modules import from `runtime/<module>.js`; each such module is written
 *   into the output's `runtime/` folder, with the top-level declarations (and imports) that
 *   the output uses, directly or through another copied declaration.
 *
 * A declaration is copied verbatim, with its doc comment; only import lines are rewritten
 * (to list what is kept). So the output has no unused helper and no runtime dependency.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ts } from "../ts-morph.js";

/** One named import of a runtime module. */
interface RuntimeImport {
  readonly name: string;
  /** The specifier as written: `./json.js` (another runtime module) or `node:http`. */
  readonly from: string;
  readonly typeOnly: boolean;
}

/** One top-level declaration of a runtime module. */
interface RuntimeDeclaration {
  readonly name: string;
  readonly module: string;
  readonly exported: boolean;
  /** Its text, with its leading doc comment. */
  readonly code: string;
  /** Every identifier it mentions. */
  readonly uses: ReadonlySet<string>;
}

/** One runtime module: `runtime/<name>.ts`. */
interface RuntimeModule {
  readonly name: string;
  /** The module's own doc comment (before its first statement), or "". */
  readonly doc: string;
  readonly imports: readonly RuntimeImport[];
  readonly declarations: readonly RuntimeDeclaration[];
}

/**
 * The public names of the validators runtime: `validators.ts` exports them (they are part of
 * its API); every other inlined helper is module-private there.
 */
const VALIDATORS_PUBLIC: ReadonlySet<string> = new Set(["ValidationIssue", "ValidationResult", "StandardSchemaV1", "MAX_DEPTH", "MAX_ISSUES"]);

/** The runtime module whose helpers `validators.ts` carries inline. */
const VALIDATION_MODULE = "validation";

/** Where generated modules import runtime modules from: `./runtime/<name>.js`. */
export const RUNTIME_FOLDER = "runtime";

let foundRuntimeDir: string | undefined;

/** The package root's `runtime/` folder (the nearest one above this module holding `json.ts`). */
function runtimeDir(): string {
  if (foundRuntimeDir !== undefined) return foundRuntimeDir;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, RUNTIME_FOLDER);
    if (existsSync(join(candidate, "json.ts")) && existsSync(join(candidate, "validation.ts"))) return (foundRuntimeDir = candidate);
    dir = dirname(dir);
  }
  throw new Error("runtime/ folder not found next to the generator");
}

/** Every identifier in a node (parsed by TypeScript, so strings, comments and regular expressions never count). */
function identifiersIn(node: ts.Node, out = new Set<string>()): Set<string> {
  if (ts.isIdentifier(node)) out.add(node.text);
  node.forEachChild((child) => void identifiersIn(child, out));
  return out;
}

function declaredName(statement: ts.Statement): string | undefined {
  if (ts.isVariableStatement(statement)) {
    const decl = statement.declarationList.declarations[0];
    return statement.declarationList.declarations.length === 1 && decl && ts.isIdentifier(decl.name) ? decl.name.text : undefined;
  }
  if (
    ts.isFunctionDeclaration(statement) ||
    ts.isClassDeclaration(statement) ||
    ts.isInterfaceDeclaration(statement) ||
    ts.isTypeAliasDeclaration(statement) ||
    ts.isModuleDeclaration(statement)
  ) {
    return statement.name && ts.isIdentifier(statement.name) ? statement.name.text : undefined;
  }
  return undefined;
}

/**
 * The doc comment TypeScript attaches to a top-level statement: the last `/** … *\/` comment
 * just before it (an earlier one, like a module's doc before the first declaration, is not
 * the statement's and not copied). Its range in `text`.
 */
function docComment(text: string, statement: ts.Statement): ts.CommentRange | undefined {
  const isDoc = (r: ts.CommentRange) => text.startsWith("/**", r.pos) && text[r.pos + 3] !== "/";
  return (ts.getLeadingCommentRanges(text, statement.pos) ?? []).filter(isDoc).pop();
}

/**
 * Parses one runtime module; a statement the copier cannot split (a re-export, a default
 * export, top-level code) is a bug in the runtime. Parsed without parent links or JSDoc
 * nodes (only top-level statements, their identifiers and the comments before them are read).
 */
export function parseRuntimeModule(name: string, text: string): RuntimeModule {
  const file = ts.createSourceFile(`${name}.ts`, text, { languageVersion: ts.ScriptTarget.ES2022, jsDocParsingMode: ts.JSDocParsingMode.ParseNone }, false);
  const imports: RuntimeImport[] = [];
  const declarations: RuntimeDeclaration[] = [];
  const first = file.statements[0];
  // A module doc comment is the doc comment of the first statement when that is an import.
  const moduleDoc = first && ts.isImportDeclaration(first) ? docComment(text, first) : undefined;
  for (const statement of file.statements) {
    const where = `runtime/${name}.ts:${file.getLineAndCharacterOfPosition(statement.getStart(file)).line + 1}`;
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      const bindings = clause?.namedBindings;
      if (!clause || clause.name || !bindings || !ts.isNamedImports(bindings) || !ts.isStringLiteral(statement.moduleSpecifier)) {
        throw new Error(`${where}: runtime modules use named imports only`);
      }
      for (const element of bindings.elements) {
        if (element.propertyName) throw new Error(`${where}: runtime modules import names as they are (no "as")`);
        imports.push({ name: element.name.text, from: statement.moduleSpecifier.text, typeOnly: clause.isTypeOnly || element.isTypeOnly });
      }
      continue;
    }
    const declared = declaredName(statement);
    if (!declared) throw new Error(`${where}: unsupported top-level statement in a runtime module`);
    const exported = ts.canHaveModifiers(statement) && (ts.getModifiers(statement) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    const jsDoc = docComment(text, statement);
    const start = jsDoc ? jsDoc.pos : statement.getStart(file);
    declarations.push({ name: declared, module: name, exported, code: text.slice(start, statement.end), uses: identifiersIn(statement) });
  }
  return { name, doc: moduleDoc ? text.slice(moduleDoc.pos, moduleDoc.end) : "", imports, declarations };
}

/**
 * The runtime modules parsed ahead of time: `runtime-index.json` beside this module, written by
 * the build (`scripts/runtime-index.mjs`, from {@link runtimeIndexJson}). Parsing the runtime
 * modules an output uses costs about 0.3 s of CPU per generation; the index is used for a
 * module only when the sha256 of the module's text is the one it was built from, so an edited
 * runtime module (or a run from source, without a build) is parsed as before.
 */
const RUNTIME_INDEX = join(dirname(fileURLToPath(import.meta.url)), "runtime-index.json");

/** One entry of `runtime-index.json`: a parsed module, `uses` as arrays. */
interface IndexedModule {
  readonly sha256: string;
  readonly doc: string;
  readonly imports: readonly RuntimeImport[];
  readonly declarations: readonly (Omit<RuntimeDeclaration, "uses"> & { readonly uses: readonly string[] })[];
}

let runtimeIndex: Readonly<Record<string, IndexedModule>> | undefined;

function indexedModule(name: string, text: string): RuntimeModule | undefined {
  runtimeIndex ??= existsSync(RUNTIME_INDEX) ? (JSON.parse(readFileSync(RUNTIME_INDEX, "utf8")) as Record<string, IndexedModule>) : {};
  const entry = Object.hasOwn(runtimeIndex, name) ? runtimeIndex[name] : undefined;
  if (entry === undefined || entry.sha256 !== sha256(text)) return undefined;
  return { name, doc: entry.doc, imports: entry.imports, declarations: entry.declarations.map((d) => ({ ...d, uses: new Set(d.uses) })) };
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** The text of `runtime-index.json`: every runtime module parsed, with the sha256 of its text. */
export function runtimeIndexJson(): string {
  const index: Record<string, IndexedModule> = {};
  for (const file of readdirSync(runtimeDir()).sort()) {
    if (!file.endsWith(".ts") || file.endsWith(".test.ts") || file.endsWith(".d.ts")) continue;
    const text = readFileSync(join(runtimeDir(), file), "utf8");
    const parsed = parseRuntimeModule(file.slice(0, -3), text);
    index[parsed.name] = {
      sha256: sha256(text),
      doc: parsed.doc,
      imports: parsed.imports,
      declarations: parsed.declarations.map((d) => ({ ...d, uses: [...d.uses] })),
    };
  }
  return `${JSON.stringify(index)}\n`;
}

/** The runtime modules read so far, by name: each read once per process, when first needed (they are files of this package, not input). */
const library = new Map<string, RuntimeModule>();

function moduleNamed(name: string): RuntimeModule {
  const known = library.get(name);
  if (known) return known;
  const path = join(runtimeDir(), `${name}.ts`);
  if (!existsSync(path)) throw new Error(`runtime/${name}.ts does not exist`);
  const text = readFileSync(path, "utf8");
  const parsed = indexedModule(name, text) ?? parseRuntimeModule(name, text);
  library.set(name, parsed);
  return parsed;
}

/** `./json.js` → `json`; anything else (a Node.js module) → undefined. */
function runtimeModuleOf(specifier: string): string | undefined {
  const m = /^\.\/([a-z][a-z0-9-]*)\.js$/.exec(specifier);
  return m ? m[1] : undefined;
}

/**
 * The declarations needed for `roots` (names per module), following uses inside a module and
 * imports across modules: by module, the names to keep.
 */
function closure(roots: ReadonlyMap<string, ReadonlySet<string>>): Map<string, Set<string>> {
  const chosen = new Map<string, Set<string>>();
  const queue: [string, string][] = [];
  const want = (module: string, name: string) => {
    const set = chosen.get(module) ?? new Set<string>();
    chosen.set(module, set);
    if (set.has(name)) return;
    set.add(name);
    queue.push([module, name]);
  };
  for (const [module, names] of roots) {
    const m = moduleNamed(module);
    chosen.set(module, chosen.get(module) ?? new Set());
    for (const name of names) {
      if (!m.declarations.some((d) => d.name === name) && !m.imports.some((i) => i.name === name)) {
        throw new Error(`runtime/${module}.ts has no declaration ${name}`);
      }
      want(module, name);
    }
  }
  while (queue.length > 0) {
    const [module, name] = queue.pop()!;
    const m = moduleNamed(module);
    const imported = m.imports.find((i) => i.name === name);
    if (imported) {
      const from = runtimeModuleOf(imported.from);
      if (from !== undefined) want(from, name);
      continue;
    }
    const decl = m.declarations.find((d) => d.name === name);
    if (!decl) continue;
    for (const use of decl.uses) {
      if (use === name) continue;
      if (m.declarations.some((d) => d.name === use) || m.imports.some((i) => i.name === use)) want(module, use);
    }
  }
  return chosen;
}

/** Modules in dependency order (a module after those it imports), then by name. */
function dependencyOrder(modules: Iterable<string>): string[] {
  const order: string[] = [];
  const visit = (name: string, path: readonly string[]) => {
    if (order.includes(name)) return;
    if (path.includes(name)) throw new Error(`runtime modules import each other in a cycle: ${[...path, name].join(" → ")}`);
    for (const i of moduleNamed(name).imports) {
      const from = runtimeModuleOf(i.from);
      if (from !== undefined) visit(from, [...path, name]);
    }
    order.push(name);
  };
  [...modules].sort().forEach((m) => visit(m, []));
  return order;
}

/** The names a runtime module exports: the roots when the whole module is wanted (the scaffold's transports). */
export function runtimeModuleExports(module: string): ReadonlySet<string> {
  return new Set(moduleNamed(module).declarations.filter((d) => d.exported).map((d) => d.name));
}

/** Every name the validators runtime may declare in `validators.ts`; generated names must avoid them. */
export function runtimeNames(): ReadonlySet<string> {
  const names = new Set<string>();
  for (const module of dependencyOrder([VALIDATION_MODULE])) moduleNamed(module).declarations.forEach((d) => names.add(d.name));
  return names;
}

/** The names `validators.ts` exports from its runtime (ValidationIssue, ValidationResult, StandardSchemaV1, MAX_DEPTH, MAX_ISSUES). */
export function runtimeExports(): ReadonlySet<string> {
  return VALIDATORS_PUBLIC;
}

/**
 * The runtime declarations `validators.ts` carries: those its code refers to (`roots`, the
 * names the emitter recorded as it made each reference) and what they use in turn, from
 * `runtime/validation.ts` and the modules it imports, in dependency order; the public names
 * are always kept and only they stay exported. A root that is no runtime declaration is a bug
 * in the emitter.
 */
export function runtimeSource(roots: ReadonlySet<string>): string {
  const modules = dependencyOrder([VALIDATION_MODULE]);
  const wanted = new Map<string, Set<string>>();
  const found = new Set<string>();
  for (const module of modules) {
    const names = moduleNamed(module)
      .declarations.filter((d) => roots.has(d.name) || VALIDATORS_PUBLIC.has(d.name))
      .map((d) => d.name);
    names.forEach((n) => found.add(n));
    wanted.set(module, new Set(names));
  }
  const unknown = [...roots].filter((name) => !found.has(name));
  if (unknown.length > 0) throw new Error(`the validators runtime has no declaration ${unknown.join(", ")}`);
  const chosen = closure(wanted);
  const parts: string[] = [];
  for (const module of modules) {
    const keep = chosen.get(module) ?? new Set<string>();
    for (const d of moduleNamed(module).declarations) {
      if (!keep.has(d.name)) continue;
      parts.push(d.exported && !VALIDATORS_PUBLIC.has(d.name) ? withoutExport(d.code) : d.code);
    }
  }
  return parts.join("\n\n");
}

/** A declaration's text without its `export` keyword (after its doc comment). */
function withoutExport(code: string): string {
  return code.replace(/^((?:\/\*\*[\s\S]*?\*\/\s*)?)export (declare )?/, (_, doc: string, declare: string | undefined) => doc + (declare ?? ""));
}

/**
 * What a generated module imports from runtime modules (`import { a, type B } from
 * "./runtime/x.js"` and `export { … } from "./runtime/x.js"`): names by module.
 */
export function runtimeImportsOf(text: string): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  // `./runtime/x.js`, or as `--import-extension` writes it: `./runtime/x.ts`, `./runtime/x`; `../runtime/x.js` from a revision folder.
  const runtimeModule = (specifier: string) => new RegExp(`^\\.\\.?/${RUNTIME_FOLDER}/([a-z][a-z0-9-]*)(?:\\.js|\\.ts)?$`).exec(specifier)?.[1];
  // TypeScript's scanner-based list of the specifiers a file imports first: a file that imports
  // no runtime module (validators.ts, most of the output's text) is not parsed.
  if (!ts.preProcessFile(text, true, false).importedFiles.some((f) => runtimeModule(f.fileName) !== undefined)) return found;
  const file = ts.createSourceFile("generated.ts", text, { languageVersion: ts.ScriptTarget.ES2022, jsDocParsingMode: ts.JSDocParsingMode.ParseNone }, false);
  const add = (specifier: ts.Expression | undefined, names: readonly string[]) => {
    if (!specifier || !ts.isStringLiteral(specifier)) return;
    const module = runtimeModule(specifier.text);
    if (module === undefined) return;
    const set = found.get(module) ?? new Set<string>();
    names.forEach((n) => set.add(n));
    found.set(module, set);
  };
  for (const statement of file.statements) {
    if (ts.isImportDeclaration(statement)) {
      const bindings = statement.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) add(statement.moduleSpecifier, bindings.elements.map((e) => (e.propertyName ?? e.name).text));
    } else if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      add(statement.moduleSpecifier, statement.exportClause.elements.map((e) => (e.propertyName ?? e.name).text));
    }
  }
  return found;
}

/**
 * The runtime modules that `generated` files import, each pruned to what is used: files
 * `runtime/<module>.ts`, starting with `header`. `extra` adds roots (the scaffold's transports).
 */
export function runtimeFiles(
  generated: readonly { readonly contents: string }[],
  header: string,
  extra: ReadonlyMap<string, ReadonlySet<string>> = new Map(),
): { path: string; contents: string }[] {
  const roots = new Map<string, Set<string>>();
  const merge = (from: ReadonlyMap<string, ReadonlySet<string>>) => {
    for (const [module, names] of from) {
      const set = roots.get(module) ?? new Set<string>();
      names.forEach((n) => set.add(n));
      roots.set(module, set);
    }
  };
  generated.forEach((f) => merge(runtimeImportsOf(f.contents)));
  merge(extra);
  if (roots.size === 0) return [];
  const chosen = closure(roots);
  return dependencyOrder(chosen.keys()).map((name) => {
    const module = moduleNamed(name);
    const keep = chosen.get(name) ?? new Set<string>();
    const kept = module.declarations.filter((d) => keep.has(d.name));
    const uses = new Set<string>();
    kept.forEach((d) => d.uses.forEach((u) => uses.add(u)));
    const lines: string[] = [header];
    if (module.doc) lines.push(module.doc);
    // Imports: what the kept declarations use, grouped by specifier in the module's order.
    const specifiers = [...new Set(module.imports.map((i) => i.from))];
    for (const from of specifiers) {
      const names = module.imports.filter((i) => i.from === from && uses.has(i.name));
      if (names.length === 0) continue;
      const allTypes = names.every((i) => i.typeOnly);
      const list = names.map((i) => (i.typeOnly && !allTypes ? `type ${i.name}` : i.name)).join(", ");
      lines.push(`import ${allTypes ? "type " : ""}{ ${list} } from ${JSON.stringify(from)};`);
    }
    const body = kept.map((d) => d.code).join("\n\n");
    return { path: `${RUNTIME_FOLDER}/${name}.ts`, contents: `${lines.join("\n")}\n\n${body}\n` };
  });
}
