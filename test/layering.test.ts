/**
 * The stages depend one way: emit may import analysis, the IR and lowering, never the other
 * way. No module under `generator/analyze/` or `generator/lower/`, nor `generator/ir.ts`,
 * imports from `generator/emit/`, directly or through another generator module. Imports are
 * read with TypeScript's parser (declarations, re-exports, `import("…")` types, dynamic
 * imports), never a regex over code.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const GENERATOR = resolve(dirname(fileURLToPath(import.meta.url)), "../generator");

/** The stages that must not depend on emit, as paths relative to `generator/`. */
const isBelowEmit = (file: string) => file.startsWith("analyze/") || file === "ir.ts" || /^lower[./]/.test(file);

const isEmit = (file: string) => file.startsWith("emit/");

/** Every module specifier `text` imports or re-exports, in source order. */
function importsOf(text: string): string[] {
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      out.push(node.moduleSpecifier.text);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
      out.push(node.moduleReference.expression.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      out.push(node.argument.literal.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
      out.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile("m.ts", text, ts.ScriptTarget.Latest, true));
  return out;
}

/** The `.ts` files under `generator/`, relative to it, `/`-separated, sorted. */
function generatorFiles(): string[] {
  return (readdirSync(GENERATOR, { recursive: true }) as string[])
    .map((f) => f.split("\\").join("/"))
    .filter((f) => f.endsWith(".ts"))
    .sort();
}

/** The generator modules `file` imports (relative specifiers only; `./x.js` is `x.ts`). */
function localImports(file: string): string[] {
  const from = join(GENERATOR, file);
  return importsOf(readFileSync(from, "utf8"))
    .filter((spec) => spec.startsWith("./") || spec.startsWith("../"))
    .map((spec) => {
      const target = resolve(dirname(from), spec.replace(/\.js$/, ".ts"));
      if (!existsSync(target)) throw new Error(`${file} imports ${spec}, which is no file (${target})`);
      return relative(GENERATOR, target).split("\\").join("/");
    });
}

/** Each import path from a module below emit to an emit module: `analyze/protocol.ts → emit/symbols.ts`. */
function emitImports(): string[] {
  const found: string[] = [];
  for (const root of generatorFiles().filter(isBelowEmit)) {
    // Breadth first, so each reported chain is a shortest one.
    const via = new Map<string, string | undefined>([[root, undefined]]);
    const queue = [root];
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      for (const target of localImports(file)) {
        if (via.has(target)) continue;
        via.set(target, file);
        if (!isEmit(target)) {
          queue.push(target);
          continue;
        }
        const chain = [target];
        for (let at = via.get(target); at !== undefined; at = via.get(at)) chain.unshift(at);
        found.push(chain.join(" → "));
      }
    }
  }
  return found;
}

describe("layering", () => {
  it.each([
    ['import a from "./a.js";', ["./a.js"]],
    ['import type { B } from "../b.js";', ["../b.js"]],
    ['import "./side.js";', ["./side.js"]],
    ['export * from "./c.js"; export { d } from "./d.js"; export const e = 1;', ["./c.js", "./d.js"]],
    ['type F = import("./f.js").F;', ["./f.js"]],
    ['const g = await import("./g.js");', ["./g.js"]],
    ['import h = require("./h.js");', ["./h.js"]],
    ['// import x from "../emit/x.js"\nconst s = "import y from \'../emit/y.js\'";', []],
  ])("reads the imports of %j", (text, specifiers) => {
    expect(importsOf(text)).toEqual(specifiers);
  });

  it("checks analysis, lowering and the IR", () => {
    const checked = generatorFiles().filter(isBelowEmit);
    expect(checked).toEqual(expect.arrayContaining(["analyze/index.ts", "analyze/protocol.ts", "analyze/reference.ts", "ir.ts", "lower/index.ts"]));
  });

  it("analysis, lowering and the IR never import from generator/emit/, directly or through another module", () => {
    expect(emitImports()).toEqual([]);
  });
});
