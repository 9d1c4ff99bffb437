/**
 * The case module (`generator/case.ts`) and the symbol table (`generator/emit/symbols.ts`):
 * case styles from a name's words, reserved words, collisions per file and across re-exported
 * files (MCG301 with both owners' spans), internal names, and type references as text.
 */
import { describe, expect, it } from "vitest";
import { camelCase, constantCase, constantWords, isPlainIdentifier, joinedCase, memberWords, pascalCase, words } from "../generator/case.js";
import { formatFunction, revisionNames, SymbolTable, typeReferenceText } from "../generator/emit/symbols.js";
import ts from "typescript";
import { declareModuleNames, TARGETS, TARGET_NAMES } from "../generator/emit/index.js";
import { formatRelated, GeneratorError } from "../generator/errors.js";
import { generate } from "../generator/index.js";
import type { SourceSpan } from "../generator/ir.js";
import { DEFAULT_OPTIONS } from "../generator/options.js";
import { analyzeSchema } from "../generator/pipeline.js";
import { corpusVersions } from "./support/corpus.js";

const at = (line: number): SourceSpan => ({ file: "s.ts", line, column: 1 });

describe("case styles", () => {
  it.each([
    ["PARSE_ERROR", "ParseError", "parseError"],
    ["URL_ELICITATION_REQUIRED", "UrlElicitationRequired", "urlElicitationRequired"],
    ["FOO__BAR", "FooBar", "fooBar"],
    ["_1_FOO", "1Foo", "1Foo"],
    ["___", "", ""],
  ])("%s → %s, %s", (constant, pascal, camel) => {
    expect(pascalCase(constantWords(constant))).toBe(pascal);
    expect(camelCase(constantWords(constant))).toBe(camel);
  });

  it.each([
    ["io.modelcontextprotocol/related-task", ["io", "modelcontextprotocol", "related", "task"]],
    ["protocolVersion", ["protocolVersion"]],
    ["a*/b", ["a", "b"]],
    ["", []],
  ])("words(%j)", (text, expected) => expect(words(text)).toEqual(expected));

  it("keeps a word's own case inside PascalCase (a _meta key's member name)", () => {
    expect(pascalCase(words("io.modelcontextprotocol/protocolVersion"))).toBe("IoModelcontextprotocolProtocolVersion");
  });

  it.each([
    ["related-task", "relatedTask"],
    ["progressToken", "progressToken"],
    ["progress_token", "progress_token"],
    ["__proto__", "__proto__"],
    ["X-Trace", "XTrace"],
  ])("a field name joins hyphenated words and keeps the rest: %s → %s", (key, field) => expect(joinedCase(memberWords(key))).toBe(field));

  it("CONSTANT_CASE, format checkers and revision names come from the same words", () => {
    expect(constantCase(["revision", "2025", "11", "25"])).toBe("REVISION_2025_11_25");
    expect(formatFunction("uri-template")).toBe("formatUriTemplate");
    expect(formatFunction("date-time")).toBe("formatDateTime");
    expect(revisionNames("2025-11-25")).toEqual({ folder: "2025-11-25", constant: "REVISION_2025_11_25", namespace: "v2025_11_25" });
    expect(revisionNames("../x")).toBeUndefined();
  });

  it.each([
    ["ParseError", true],
    ["delete", false],
    ["undefined", false],
    ["__proto__", false],
    ["1Foo", false],
    ["", false],
    ["$x_1", true],
  ])("isPlainIdentifier(%j) = %s", (name, plain) => expect(isPlainIdentifier(name)).toBe(plain));
});

describe("type references", () => {
  it.each([
    [{ type: "RequestId", path: [] }, "T.RequestId"],
    [{ type: "E", path: [{ key: "error" }, { key: "data" }] }, 'T.E["error"]["data"]'],
    [{ type: "Request", path: [{ key: "params", defined: true }, { key: "_meta", defined: true }] }, 'NonNullable<NonNullable<T.Request["params"]>["_meta"]>'],
    [{ type: "R", path: [{ key: 'a"b' }] }, 'T.R["a\\"b"]'],
  ])("%j prints as %s", (ref, text) => expect(typeReferenceText(ref)).toBe(text));
});

describe("SymbolTable", () => {
  it("reports two owners of one name in one file, at the later owner, with the earlier one's span related", () => {
    const table = new SymbolTable();
    table.declare("a.ts", "x", { exported: false, owner: "type X", span: at(1) });
    table.declare("a.ts", "x", { exported: false, owner: "type Y", span: at(4) });
    expect(table.diagnostics()).toEqual([
      {
        code: "MCG301",
        message: "x is declared in a.ts by type Y and by type X; rename one of them",
        span: at(4),
        related: [{ message: "type X is declared here", span: at(1) }],
      },
    ]);
    expect(() => table.check()).toThrow(GeneratorError);
    expect(formatRelated(table.diagnostics()[0]!)).toEqual(["  s.ts:1:1 - type X is declared here"]);
  });

  it("keeps files apart, except for the exports of files re-exported together", () => {
    const table = new SymbolTable();
    table.shareExports(["types.ts", "meta.ts"]);
    table.declare("types.ts", "MetaKey", { exported: true, owner: "the schema's MetaKey", span: at(2) });
    table.declare("meta.ts", "MetaKey", { exported: false, owner: "meta.ts itself" });
    table.declare("other.ts", "MetaKey", { exported: true, owner: "other.ts itself" });
    expect(table.diagnostics()).toEqual([]);
    table.declare("meta.ts", "ParsedMetaKey", { exported: true, owner: "meta.ts itself" });
    table.declare("types.ts", "ParsedMetaKey", { exported: true, owner: "the schema's ParsedMetaKey", rename: "the schema's ParsedMetaKey", span: at(5) });
    table.declare("other.ts", "ParsedMetaKey", { exported: true, owner: "other.ts itself" });
    expect(table.diagnostics().map((d) => [d.message, d.span?.line])).toEqual([
      ["ParsedMetaKey is exported by both meta.ts and types.ts; rename the schema's ParsedMetaKey", 5],
    ]);
  });

  it("words a collision as the later declaration asks, and reports every collision and problem at once", () => {
    const table = new SymbolTable();
    table.declare("v.ts", "isObject", { exported: false, owner: "the validators runtime" });
    table.declare("v.ts", "isObject", { exported: true, owner: "type Object", span: at(3), clash: (e) => `isObject for type Object collides with ${e.owner}` });
    table.report({ code: "MCG301", message: "error-code constant ___ gives no usable name", span: at(7) });
    table.declare("v.ts", "y", { exported: false, owner: "one" });
    table.declare("v.ts", "y", { exported: false, owner: "two" });
    const failure = (() => {
      try {
        table.check();
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(failure).toBeInstanceOf(GeneratorError);
    // In source order (helper-53): the unlocated one first, then by line.
    expect((failure as GeneratorError).diagnostics.map((d) => d.message)).toEqual([
      "y is declared in v.ts by two and by one; rename one of them",
      "isObject for type Object collides with the validators runtime",
      "error-code constant ___ gives no usable name",
    ]);
  });

  it("gives unique internal names, avoiding declared names and reserved words, the same again for one owner", () => {
    const table = new SymbolTable();
    table.declare("v.ts", "_isTool", { exported: false, owner: "type Tool" });
    expect(table.internal("v.ts", "_isTool")).toBe("_isTool_2");
    expect(table.internal("v.ts", "_isTool")).toBe("_isTool_3");
    expect(table.internal("v.ts", "Tool.input-schema", "k1")).toBe("Tool_input_schema");
    expect(table.internal("v.ts", "Tool.input-schema", "k1")).toBe("Tool_input_schema");
    expect(table.internal("v.ts", "Tool.input-schema", "k2")).toBe("Tool_input_schema_2");
    expect(table.internal("v.ts", "delete")).toBe("delete_2");
    expect(table.internal("v.ts", "1x")).toBe("_1x");
    expect(table.internal("w.ts", "_isTool")).toBe("_isTool");
    expect(table.diagnostics()).toEqual([]);
  });
});

describe("names of a generated output, checked before rendering", () => {
  async function failure(text: string): Promise<GeneratorError> {
    const error = await generate({ schema: { text, fileName: "s.ts" } }).catch((e: unknown) => e);
    if (!(error instanceof GeneratorError)) throw new Error("expected a GeneratorError");
    return error;
  }

  it("reports collisions of validators.ts and errors.ts together, each at its schema span", async () => {
    const error = await failure(
      "export interface isFoo {\n  a: string;\n}\nexport interface Foo {\n  b: string;\n}\nexport const FOO__BAR = -32050;\nexport const FOO_BAR = -32051;\n",
    );
    expect(error.diagnostics.map((d) => `${d.span?.line} ${d.message} | ${(d.related ?? []).map((r) => r.span.line).join(",")}`)).toEqual([
      "4 generated name isFoo for type Foo collides with a name from the schema's isFoo; rename one of them | 1",
      "8 error-code constants FOO__BAR and FOO_BAR both give FooBar / fooBar in errors.ts; rename one | 7",
    ]);
  });

  it("names both owners when an error-code constant's constructor is also a schema name", async () => {
    const error = await failure("export const PARSE_ERROR = -32700;\nexport const ParseError = -32701;\nexport interface parseError {\n  a: string;\n}\n");
    expect(error.diagnostics.map((d) => `${d.span?.line} ${d.message} | ${(d.related ?? []).map((r) => r.span.line).join(",")}`)).toEqual([
      "1 error-code constant PARSE_ERROR gives parseError, which the schema's parseError also names; rename one of them | 3",
    ]);
  });

  it("reports a type named like a runtime helper's generated names, and not a type whose _isX name nobody exports", async () => {
    const error = await failure("export interface PlainObject {\n  a: string;\n}\n");
    expect(error.diagnostics.map((d) => d.message)).toEqual([
      "generated name isPlainObject for type PlainObject collides with a name from the validators runtime; rename one of them",
    ]);
    const ok = await generate({ schema: { text: "export interface _isFoo {\n  a: string;\n}\nexport interface Foo {\n  b: string;\n}\n", fileName: "s.ts" } });
    expect(ok.files.some((f) => f.path === "validators.ts")).toBe(true);
  });
});

/** The names a module exports, read by TypeScript's parser: declarations, `export { … }` and `export const { a, b }`. */
function exportsOf(text: string): string[] {
  const file = ts.createSourceFile("m.ts", text, ts.ScriptTarget.ES2022, false);
  const names: string[] = [];
  for (const statement of file.statements) {
    if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      names.push(...statement.exportClause.elements.map((e) => e.name.text));
      continue;
    }
    const exported = ts.canHaveModifiers(statement) && (ts.getModifiers(statement) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (!exported) continue;
    if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) {
        if (ts.isIdentifier(d.name)) names.push(d.name.text);
        else if (ts.isObjectBindingPattern(d.name)) d.name.elements.forEach((e) => ts.isIdentifier(e.name) && names.push(e.name.text));
      }
    } else if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement) || ts.isEnumDeclaration(statement) || ts.isModuleDeclaration(statement)) && statement.name && ts.isIdentifier(statement.name)) {
      names.push(statement.name.text);
    }
  }
  return [...new Set(names)].sort();
}

describe("the symbol table knows every name a module exports", () => {
  // The table is checked before rendering, so it must hold what the templates write: a name a
  // template exports and the table misses would escape the collision check.
  const cases = [
    ...corpusVersions()
      .filter((v) => ["draft", "2025-11-25", "2024-11-05"].includes(v.label))
      .map((v) => [v.label, { path: v.schemaTs }] as const),
    ["a schema without tools, keys or error constants", { text: "export type RequestId = string | number;\nexport interface A {\n  a: string;\n}\n", fileName: "s.ts" }] as const,
  ];
  it.each(cases)("%s", async (_label, schema) => {
    const resolved = { ...DEFAULT_OPTIONS, targets: TARGET_NAMES };
    const analyzed = analyzeSchema(schema, resolved);
    const names = declareModuleNames(analyzed.model, analyzed.protocol, TARGET_NAMES, new SymbolTable());
    const result = await generate({ schema });
    for (const target of TARGET_NAMES.filter((t) => t !== "index")) {
      const file = TARGETS[target].file;
      const contents = result.files.find((f) => f.path === file)!.contents;
      expect([...names.table.exports(file)].sort(), file).toEqual(exportsOf(contents));
    }
  });
});
