/**
 * The runtime helpers of generated validators live, as plain TypeScript, in
 * `templates/validators-runtime.ts`. This module splits that file into its top-level
 * declarations and copies into the output only those the generated code uses (directly
 * or through another copied declaration), plus the exported ones. So the output carries
 * no unused helper, and the generated code has no runtime dependency.
 */
import { ts } from "ts-morph";
import { readTemplate } from "./templates.js";

/** One top-level declaration of the runtime file. */
interface RuntimeDeclaration {
  readonly name: string;
  readonly exported: boolean;
  /** Its text, with its leading doc comment. */
  readonly code: string;
  /** Every identifier it mentions. */
  readonly uses: ReadonlySet<string>;
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
    return decl && ts.isIdentifier(decl.name) ? decl.name.text : undefined;
  }
  if (
    ts.isFunctionDeclaration(statement) ||
    ts.isInterfaceDeclaration(statement) ||
    ts.isTypeAliasDeclaration(statement) ||
    ts.isModuleDeclaration(statement)
  ) {
    return statement.name && ts.isIdentifier(statement.name) ? statement.name.text : undefined;
  }
  return undefined;
}

function parseRuntime(text: string): RuntimeDeclaration[] {
  const file = ts.createSourceFile("validators-runtime.ts", text, ts.ScriptTarget.ES2022, true);
  return file.statements.map((statement) => {
    const name = declaredName(statement);
    if (!name) throw new Error(`templates/validators-runtime.ts: unsupported top-level statement at offset ${statement.pos}`);
    const exported = ts.canHaveModifiers(statement) && (ts.getModifiers(statement) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    // Keep the statement's own doc comment (not the file comment above the first one).
    const jsDoc = ts.getJSDocCommentsAndTags(statement).filter(ts.isJSDoc).pop();
    const start = jsDoc ? jsDoc.getStart(file) : statement.getStart(file);
    return { name, exported, code: text.slice(start, statement.end), uses: identifiersIn(statement) };
  });
}

let parsed: RuntimeDeclaration[] | undefined;

function runtimeDeclarations(): RuntimeDeclaration[] {
  parsed ??= parseRuntime(readTemplate("validators-runtime.ts"));
  return parsed;
}

/** Every name the runtime may declare in generated code; generated names must avoid them. */
export function runtimeNames(): ReadonlySet<string> {
  return new Set(runtimeDeclarations().map((d) => d.name));
}

/** The names the runtime exports (ValidationIssue, ValidationResult, StandardSchemaV1, MAX_DEPTH). */
export function runtimeExports(): ReadonlySet<string> {
  return new Set(runtimeDeclarations().filter((d) => d.exported).map((d) => d.name));
}

/**
 * The runtime declarations that `generated` (the rest of the generated file) needs, in
 * the runtime file's order.
 */
export function runtimeSource(generated: string): string {
  const all = runtimeDeclarations();
  // The generated code's strings are JSON.stringify'd (double-quoted) and its comments are
  // block comments: without them, every word left is code. A word that is not a real use
  // could only add a declaration, never leave one out.
  const code = generated.replace(/"(?:[^"\\\n]|\\.)*"|\/\*[\s\S]*?\*\//g, " ");
  // Property names (`v.stop`) and object keys (`{ Tool: validateTool }`) are not uses.
  const used = new Set(code.match(/(?<![\w$.])[A-Za-z_$][\w$]*(?![\w$]|\s*:(?!:))/g));
  const chosen = new Set<string>();
  const choose = (d: RuntimeDeclaration) => {
    chosen.add(d.name);
    d.uses.forEach((u) => used.add(u));
  };
  all.filter((d) => d.exported).forEach(choose);
  for (let changed = true; changed; ) {
    changed = false;
    for (const d of all) {
      if (chosen.has(d.name) || !used.has(d.name)) continue;
      choose(d);
      changed = true;
    }
  }
  return all
    .filter((d) => chosen.has(d.name))
    .map((d) => d.code)
    .join("\n\n");
}

/** Name of the generated checker function for a format: `uri-template` → `formatUriTemplate`. */
export function formatFunction(format: string): string {
  return `format${format.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase())}`;
}
