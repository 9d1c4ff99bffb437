/**
 * The one place that decides how generated files name each other. Templates write relative
 * specifiers as `./x.js` (what tsc and bundlers resolve); this rewrites every relative
 * import, export-from and `import("…")` type specifier of a finished file to the chosen
 * extension. It reads the file with TypeScript's parser, so text in strings and comments is
 * never touched.
 */
import { ts } from "../ts-morph.js";
import type { ImportExtension } from "../options.js";

/** The string-literal specifiers of a file's imports and re-exports, with their positions. */
function relativeSpecifiers(file: ts.SourceFile): ts.StringLiteral[] {
  const found: ts.StringLiteral[] = [];
  const visit = (node: ts.Node): void => {
    let specifier: ts.Expression | undefined;
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) specifier = node.moduleSpecifier;
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) specifier = node.argument.literal;
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) specifier = node.arguments[0];
    if (specifier && ts.isStringLiteral(specifier) && /^\.\.?\//.test(specifier.text)) found.push(specifier);
    node.forEachChild(visit);
  };
  visit(file);
  return found;
}

/**
 * `contents` with each relative `./x.js` specifier written for `extension`: `./x.js`
 * (unchanged), `./x.ts` or `./x`. Other specifiers are left as they are.
 */
export function rewriteImportExtensions(contents: string, extension: ImportExtension): string {
  if (extension === "js") return contents;
  const file = ts.createSourceFile("generated.ts", contents, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  let out = "";
  let last = 0;
  for (const literal of relativeSpecifiers(file)) {
    if (!literal.text.endsWith(".js")) continue;
    const start = literal.getStart(file);
    const quote = contents[start];
    const base = literal.text.slice(0, -".js".length);
    out += contents.slice(last, start) + quote + base + (extension === "ts" ? ".ts" : "") + quote;
    last = literal.end;
  }
  return out + contents.slice(last);
}

/**
 * `contents` of a module written one folder below the output folder (a revision folder of a
 * multi-revision output): its imports of the shared runtime, `./runtime/x.js`, become
 * `../runtime/x.js`. Imports of its sibling modules (`./types.js`) stay as they are.
 */
export function importRuntimeFromParent(contents: string, runtimeFolder: string): string {
  const file = ts.createSourceFile("generated.ts", contents, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  let out = "";
  let last = 0;
  for (const literal of relativeSpecifiers(file)) {
    if (!literal.text.startsWith(`./${runtimeFolder}/`)) continue;
    const start = literal.getStart(file);
    const quote = contents[start];
    out += contents.slice(last, start) + quote + "." + literal.text + quote;
    last = literal.end;
  }
  return out + contents.slice(last);
}
