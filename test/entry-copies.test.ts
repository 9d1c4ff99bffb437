/**
 * `isX` calls its own copy of a shared check (`entryCopy` in `generator/emit/validators.ts`):
 * read from the committed outputs with TypeScript's parser. A copy has the same body as the
 * check it copies; `isX` calls a copy exactly when the check is a non-recursive object check
 * of one expression that reads properties and that some other function calls; and nothing but
 * `isX` calls a copy.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT } from "./support/corpus.js";

interface FunctionInfo {
  readonly body: string;
  /** Names of the functions it calls. */
  readonly calls: ReadonlySet<string>;
  readonly exported: boolean;
}

function functionsOf(file: string): Map<string, FunctionInfo> {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const functions = new Map<string, FunctionInfo>();
  for (const statement of source.statements) {
    if (!ts.isFunctionDeclaration(statement) || !statement.name || !statement.body) continue;
    const calls = new Set<string>();
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) calls.add(node.expression.text);
      // A collector passed to a runtime helper (`reqCollect(o, p, "/x", v["x"], d + 1, _collectX)`) is called too.
      if (ts.isCallExpression(node)) for (const a of node.arguments) if (ts.isIdentifier(a)) calls.add(a.text);
      ts.forEachChild(node, visit);
    };
    visit(statement.body);
    const exported = (ts.getModifiers(statement) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    functions.set(statement.name.text, { body: statement.body.getText(source), calls, exported });
  }
  return functions;
}

describe.each(["draft", "2025-11-25"])("entry copies in generated/%s/validators.ts", (revision) => {
  const functions = functionsOf(join(ROOT, "generated", revision, "validators.ts"));
  const callers = (name: string) => [...functions].filter(([, f]) => f.calls.has(name)).map(([n]) => n);
  const publics = [...functions].filter(([name, f]) => f.exported && /^is[A-Z_]/.test(name));

  it("a copy has the body of the check it copies, and only its isX calls it", () => {
    const copies = publics.map(([name, f]) => [name, [...f.calls][0]!] as const).filter(([, callee]) => callee.endsWith("$entry"));
    expect(copies.length).toBeGreaterThan(50);
    for (const [isName, copy] of copies) {
      const check = copy.slice(0, -"$entry".length);
      expect(functions.get(copy)?.body, copy).toBe(functions.get(check)?.body);
      expect(callers(copy), copy).toEqual([isName]);
    }
  });

  it("isX calls a copy exactly when its check is a shared non-recursive object check of one expression", () => {
    for (const [isName, f] of publics) {
      const callee = [...f.calls][0]!;
      const check = callee.replace(/\$entry$/, "");
      const body = functions.get(check)!.body;
      const type = isName.slice("is".length);
      // Called by a function that is not this type's own isX, collector or copy: another declaration's check or helper.
      // Its collector counts too when another type's validateX uses it (declarations of one structure share one).
      const collector = `_collect${type}`;
      const collectorShared = callers(collector).some((n) => /^validate/.test(n) && n !== `validate${type}`);
      const shared = callers(check).some((n) => n !== isName && (n !== collector || collectorShared) && n !== `${check}$entry`);
      // `objectLike(v) && <property checks> && plainPrototype(v)`; not `isPlainObject(v)`, which reads no property.
      const oneObjectExpression = /^\{\s*return \(?\s*objectLike\(v\) &&/.test(body) && !body.includes("MAX_DEPTH");
      expect(callee === `${check}$entry`, `${isName} calls ${callee}`).toBe(shared && oneObjectExpression);
    }
  });
});
