/**
 * Unit tables for small pure functions of the pipeline: naming, JSON Pointer tokens,
 * doc rendering, short diffs, diagnostics ordering, and the .d.ts / in-memory inputs.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { analyze } from "../generator/analyze/index.js";
import { renderDoc, siteLinks } from "../generator/emit/docs.js";
import type { Declaration, SchemaIR } from "../generator/ir.js";
import { runtimeNames } from "../generator/emit/runtime.js";
import { formatFunction } from "../generator/emit/symbols.js";
import { SUPPORTED_FORMATS } from "../generator/lower/docs.js";
import { pointerToken, propertyKey, propertyRead } from "../generator/emit/names.js";
import { formatDiagnostic, GeneratorError, sortDiagnostics } from "../generator/errors.js";
import { generate } from "../generator/index.js";
import { jsonSyntaxProblem } from "../generator/json-text.js";
import { shortDiff } from "../generator/write.js";
import { commandName, shellQuote } from "../generator/shell.js";
import { scratchDir, SPEC_DIR } from "./support/corpus.js";

describe("shellQuote", () => {
  it("quotes what the shell would split or expand, and puts ./ before a path a command would read as an option", () => {
    expect(shellQuote("my-server")).toBe("my-server");
    expect(shellQuote("My Server")).toBe("'My Server'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
    expect(shellQuote("-proj")).toBe("./-proj");
    expect(shellQuote("-my proj")).toBe("'./-my proj'");
  });
});

describe("names", () => {
  it.each([
    ["name", "name"],
    ["$schema", "$schema"],
    ["default", "default"],
    ["io.modelcontextprotocol/protocolVersion", '"io.modelcontextprotocol/protocolVersion"'],
    ["a-b", '"a-b"'],
    ["1x", '"1x"'],
  ])("propertyKey(%j) = %s", (name, key) => expect(propertyKey(name)).toBe(key));

  it.each([
    ["method", 'v["method"]'], // an element access: noPropertyAccessFromIndexSignature
    ["io.x/y", 'v["io.x/y"]'],
    ["constructor", 'own(v, "constructor")'],
    ["__proto__", 'own(v, "__proto__")'],
    ["toString", 'own(v, "toString")'],
  ])("propertyRead(v, %j) = %s", (name, read) => expect(propertyRead("v", name)).toBe(read));

  it.each([
    ["a", "a"],
    ["a/b", "a~1b"],
    ["a~b", "a~0b"],
    ["~/", "~0~1"],
  ])("pointerToken(%j) = %j", (name, token) => expect(pointerToken(name)).toBe(token));
});

describe("formats", () => {
  it("every @format the lowering accepts has a check in the validators runtime", () => {
    const runtime = runtimeNames();
    expect(SUPPORTED_FORMATS.filter((f) => !runtime.has(formatFunction(f)))).toEqual([]);
  });
});

describe("renderDoc", () => {
  const docs = { text: "Says hello.\nTwice.", tags: [{ name: "deprecated", text: "use Bye" }, { name: "category", text: "Greetings" }] };
  it("full keeps text and tags", () => {
    expect(renderDoc("full", "schema.ts", docs, 3)).toBe(
      "/**\n * Says hello.\n * Twice.\n *\n * @deprecated use Bye\n * @category Greetings\n */",
    );
  });
  it("tags keeps only @deprecated, without text, and the source line", () => {
    expect(renderDoc("tags", "schema.ts", docs, 3)).toBe("/**\n * schema.ts:3\n * @deprecated\n */");
    expect(renderDoc("tags", "schema.ts", { text: "x", tags: [] })).toBe("");
  });
  it("writes no @internal in any mode: stripInternal would drop declarations other types refer to (helper-56)", () => {
    const internal = { text: "The JSON-RPC version.", tags: [{ name: "internal", text: "" }] };
    expect(renderDoc("full", "schema.ts", internal, 3)).toBe("/** The JSON-RPC version. */");
    expect(renderDoc("tags", "schema.ts", internal, 3)).toBe("/** schema.ts:3 */");
  });
  it("full makes the schema's links to pages of the spec site absolute; other links stay as written", () => {
    const linked = { text: "See [_meta](/specification/draft/basic/index#meta), [x](https://e.org/a) and [p](//cdn.example/x).", tags: [{ name: "see", text: "[v](/specification/draft/basic/versioning)" }] };
    expect(renderDoc("full", "schema.ts", linked, 3)).toBe(
      "/**\n * See [_meta](https://modelcontextprotocol.io/specification/draft/basic/index#meta), [x](https://e.org/a) and [p](//cdn.example/x).\n *\n * @see [v](https://modelcontextprotocol.io/specification/draft/basic/versioning)\n */",
    );
  });
  it("full leaves code spans, @example and constraint tags as written (helper-97: a pattern in a doc comment differed from the one checked)", () => {
    const coded = {
      text: "Write `[r](/README.md)` for [r](/specification/x).",
      tags: [
        { name: "example", text: "[e](/x)" },
        { name: "TJS-pattern", text: "^[^\\](/]*$" },
      ],
    };
    expect(renderDoc("full", "schema.ts", coded, 3)).toBe(
      "/**\n * Write `[r](/README.md)` for [r](https://modelcontextprotocol.io/specification/x).\n *\n * @example [e](/x)\n * @TJS-pattern ^[^\\](/]*$\n */",
    );
  });
  it("siteLinks reads Markdown as CommonMark does: fenced blocks, code spans of any length, escapes, <…> destinations and reference definitions (helper-98)", () => {
    const site = "https://modelcontextprotocol.io";
    const cases: [string, string][] = [
      ["```ts\nconst s = `a\n[see](/specification/x)\n`;\n```\nthen [y](/specification/y)", `\`\`\`ts\nconst s = \`a\n[see](/specification/x)\n\`;\n\`\`\`\nthen [y](${site}/specification/y)`],
      ["~~~\n[a](/b)\n~~~\n[c](/d)", `~~~\n[a](/b)\n~~~\n[c](${site}/d)`],
      ["\\[x\\](/not-a-link) and [z](/z)", `\\[x\\](/not-a-link) and [z](${site}/z)`],
      ["a stray ` backtick then [x](/specification/x)", `a stray \` backtick then [x](${site}/specification/x)`],
      ["``a`b`` then `c` and [x](/x)", `\`\`a\`b\`\` then \`c\` and [x](${site}/x)`],
      ["[x](</specification/a b>)", `[x](<${site}/specification/a b>)`],
      ["[x]: /specification/a\n[y](//cdn/x)", `[x]: ${site}/specification/a\n[y](//cdn/x)`],
    ];
    for (const [text, expected] of cases) expect(siteLinks(text)).toBe(expected);
  });
  it("full leaves no site-relative link in a corpus revision's output that has them", async () => {
    const text = readFileSync(join(SPEC_DIR, "schema", "2025-11-25", "schema.ts"), "utf8");
    const relative = text.match(/\]\(\/specification\//g) ?? [];
    expect(relative.length).toBeGreaterThan(5);
    const { files } = await generate({ schema: { specDir: SPEC_DIR, version: "2025-11-25" }, docs: "full", targets: ["types"] });
    const types = files.find((f) => f.path === "types.ts")!.contents;
    expect(types).not.toMatch(/\]\(\/(?!\/)/);
    expect(types.match(/\]\(https:\/\/modelcontextprotocol\.io\/specification\/2025-11-25\//g)?.length).toBeGreaterThanOrEqual(relative.length);
  });
  it("full names an included example file instead of an {@includeCode} vendored code cannot resolve (helper-107)", async () => {
    const text = readFileSync(join(SPEC_DIR, "schema", "draft", "schema.ts"), "utf8");
    const included = text.match(/\{@includeCode \.\/examples\/[^}]+\}/g) ?? [];
    expect(included.length).toBeGreaterThan(50);
    const { files } = await generate({ schema: { specDir: SPEC_DIR, version: "draft" }, docs: "full", targets: ["types"] });
    const types = files.find((f) => f.path === "types.ts")!.contents;
    expect(types).not.toContain("@includeCode");
    expect(types).toContain("`examples/ParseError/invalid-json.json` (beside the spec's schema.ts)");
    expect(types.match(/` \(beside the spec's schema\.ts\)/g)?.length).toBe(included.length);
  });
  it("none drops everything", () => expect(renderDoc("none", "schema.ts", docs, 3)).toBe(""));
  it("never lets a comment close early", () => {
    expect(renderDoc("full", "s.ts", { text: "a */ b", tags: [] })).toBe("/** a *\\/ b */");
  });
});

describe("commandName", () => {
  it("is npx mcp-schema-codegen when the package is installed in a node_modules folder (helper-110: a printed command failed when pasted), else the bare name", () => {
    expect(commandName("/home/u/app/node_modules/.bin/mcp-schema-codegen")).toBe("npx mcp-schema-codegen");
    expect(commandName("C:\\app\\node_modules\\mcp-schema-codegen\\dist\\bin\\mcp-schema-codegen.js")).toBe("npx mcp-schema-codegen");
    expect(commandName("/src/mcp-schema-codegen/dist/generator/version.js")).toBe("mcp-schema-codegen");
    // This checkout is no installed package: the messages the tests read name the program bare.
    expect(commandName()).toBe("mcp-schema-codegen");
  });
});

describe("shortDiff", () => {
  it("shows the first differing region with its line number", () => {
    expect(shortDiff("a\nb\nc\n", "a\nB\nc\n")).toBe("@@ line 2 @@\n- b\n+ B");
    expect(shortDiff("a\n", "a\nb\n")).toBe("@@ line 2 @@\n+ b");
  });
  it("shows each changed place, not the unchanged lines between them (helper-55), and says how many more places changed", () => {
    const before = Array.from({ length: 40 }, (_, i) => `l${i}`);
    const after = [...before];
    after.splice(30, 1, "L30");
    after.splice(5, 0, "new a", "new b");
    expect(shortDiff(before.join("\n"), after.join("\n")).split("\n")).toEqual(["@@ line 6 @@", "+ new a", "+ new b", "@@ line 33 @@", "- l30", "+ L30"]);
    const many = before.map((l, i) => (i % 2 === 0 ? l.toUpperCase() : l));
    expect(shortDiff(before.join("\n"), many.join("\n"), 2).split("\n")).toEqual([
      "@@ line 1 @@",
      "- l0",
      "+ L0",
      "@@ line 3 @@",
      "- l2",
      "+ L2",
      "… and 18 more places changed",
    ]);
  });
  it("shows texts more than 2000 line edits apart as one region, from the first difference to the last (the full diff would be quadratic)", () => {
    const before = Array.from({ length: 3000 }, (_, i) => `l${i}`);
    const after = [...before.slice(0, 10), ...before.slice(10, 2990).map((l) => l.toUpperCase()), ...before.slice(2990)];
    const diff = shortDiff(before.join("\n"), after.join("\n"), 2).split("\n");
    expect(diff).toEqual(["@@ line 11 @@", "- l10", "- l11", "- … 2978 more lines", "+ L10", "+ L11", "+ … 2978 more lines"]);
  });
  it("counts the places where only the source line a doc comment names changed, whether others changed too or not", () => {
    const before = Array.from({ length: 40 }, (_, i) => (i % 10 === 0 ? `/** T${i} (schema.ts:${i}) */` : `l${i}`));
    const after = before.map((l, i) => (i % 10 === 0 ? `/** T${i} (schema.ts:${i + 3}) */` : l));
    // Nothing else changed: they are counted all the same (helper-113: they were shown).
    expect(shortDiff(before.join("\n"), after.join("\n"), 1)).toBe("… and 4 places where only the source line a doc comment names changed");
    expect(shortDiff("  /** `PARSE_ERROR` (schema.ts:281); shape: `ParseError` */\n", "  /** `PARSE_ERROR` (schema.ts:312); shape: `ParseError` */\n")).toBe(
      "… and 1 place where only the source line a doc comment names changed",
    );
    after.splice(15, 1, "L15");
    expect(shortDiff(before.join("\n"), after.join("\n")).split("\n")).toEqual(["@@ line 16 @@", "- l15", "+ L15", "… and 4 places where only the source line a doc comment names changed"]);
    // Code that names a file and line is a change, not a doc comment's line moving (helper-76).
    expect(shortDiff('a\nexport type K = "main.ts:1";\nx\n/** (s.ts:1) */', 'A\nexport type K = "main.ts:2";\nx\n/** (s.ts:2) */').split("\n")).toEqual([
      "@@ line 1 @@",
      "- a",
      '- export type K = "main.ts:1";',
      "+ A",
      '+ export type K = "main.ts:2";',
      "… and 1 place where only the source line a doc comment names changed",
    ]);
  });
  it("never shows an unchanged line as removed and added again (helper-94: the last line of a region without its newline read as another line)", () => {
    expect(shortDiff("p\nx\ns\n", "p\ny\nx\nz\ns\n")).toBe("@@ line 2 @@\n+ y\n@@ line 4 @@\n+ z");
    expect(shortDiff("p\nx\ns", "p\ns")).toBe("@@ line 2 @@\n- x");
    // Any two texts: a minimal line diff never removes and adds one line in the same place, and its counts add up.
    const text = fc.array(fc.constantFrom("a", "b", "c", ""), { maxLength: 12 });
    fc.assert(
      fc.property(text, text, fc.boolean(), (a, b, endNewline) => {
        const [before, after] = [a, b].map((lines) => lines.join("\n") + (endNewline ? "\n" : ""));
        const shown = shortDiff(before!, after!, 100);
        const places = shown
          .split(/^@@ line \d+ @@$/m)
          .slice(1)
          .map((hunk) => hunk.split("\n").filter((l) => l !== ""));
        const side = (hunk: string[], sign: string) => hunk.filter((l) => l.startsWith(sign)).map((l) => l.slice(2));
        for (const hunk of places) expect(side(hunk, "-").filter((l) => side(hunk, "+").includes(l))).toEqual([]);
        const count = (sign: string) => places.reduce((n, hunk) => n + side(hunk, sign).length, 0);
        // A missing final newline is said in words, not as an added line.
        const newline = shown.includes("does not end in a newline") ? 1 : 0;
        expect(count("+") - count("-")).toBe(after!.split("\n").length - before!.split("\n").length - newline);
      }),
      { numRuns: 2000 },
    );
  });
  it("says in words when line endings alone differ: CRLF, or no final newline (helper-96: every line read as removed and added)", () => {
    expect(shortDiff("a\r\nb\r\n", "a\nb\n")).toBe("(the file's lines end in CRLF; the generator writes LF)");
    expect(shortDiff("a\r\nb\r\nc\r\n", "a\nB\nc\n")).toBe("(the file's lines end in CRLF; the generator writes LF)\n@@ line 2 @@\n- b\n+ B");
    expect(shortDiff("a\nb", "a\nb\n")).toBe("(the file does not end in a newline; the generator writes one)");
    expect(shortDiff("a\r\nb", "a\nc\n")).toBe("(the file's lines end in CRLF; the generator writes LF)\n(the file does not end in a newline; the generator writes one)\n@@ line 2 @@\n- b\n+ c");
    expect(shortDiff("a\r\nb\nc\r\n", "a\nb\nc\n")).toBe("(2 of the file's 3 lines end in CRLF; the generator writes LF)");
    // A CR the generator writes itself is compared as a character.
    expect(shortDiff("a\r\n", "a\r\nb\r\n")).toBe("@@ line 2 @@\n+ b\r");
  });
  it("caps long hunks", () => {
    const before = Array.from({ length: 20 }, (_, i) => `l${i}`).join("\n");
    const diff = shortDiff(before, "x", 2);
    expect(diff.split("\n")).toEqual(["@@ line 1 @@", "- l0", "- l1", "- … 18 more lines", "+ x"]);
  });
});

describe("jsonSyntaxProblem", () => {
  it("places a character JavaScript takes for white space and JSON does not where it is, past strings (helper-98: 1:1, or a 'position N' quoted from the text)", () => {
    const at = (text: string) => jsonSyntaxProblem(text, "f.json")?.span;
    expect(at('{\n  "a":\u2028 1\n}')).toEqual({ file: "f.json", line: 2, column: 7 });
    expect(at('{"position 3":\u2028 1}')).toEqual({ file: "f.json", line: 1, column: 15 });
    expect(at('{"a": 1,\u00a0"b": 2}')).toEqual({ file: "f.json", line: 1, column: 9 });
    expect(at('{"a\\"\u00a0": 1\u000b}')).toEqual({ file: "f.json", line: 1, column: 11 });
    expect(at('{"a": 1}')).toBeUndefined();
  });
});

describe("diagnostics", () => {
  it("sorts by file, line, column and formats compiler-style", () => {
    const span = (line: number, column: number) => ({ file: "s.ts", line, column });
    const sorted = sortDiagnostics([
      { code: "MCG201", message: "b", span: span(3, 1) },
      { code: "MCG201", message: "a", span: span(1, 9) },
      { code: "MCG101", message: "no span" },
    ]);
    expect(sorted.map((d) => formatDiagnostic(d))).toEqual([
      "error MCG101: no span",
      "s.ts:1:9 - error MCG201: a",
      "s.ts:3:1 - error MCG201: b",
    ]);
  });
});

describe("inputs", () => {
  it("a .d.ts emitted from schema.ts generates the same validators (but for line references)", async () => {
    const dir = scratchDir("dts-input");
    const source = join(SPEC_DIR, "schema", "draft", "schema.ts");
    const program = ts.createProgram([source], { declaration: true, emitDeclarationOnly: true, outDir: dir, strict: true });
    let dts = "";
    program.emit(undefined, (_name, text) => (dts = text));
    const dtsPath = join(dir, "schema.d.ts");
    writeFileSync(dtsPath, dts);
    const fromDts = await generate({ schema: { path: dtsPath }, docs: "none", targets: ["validators"] });
    const fromTs = await generate({ schema: { path: source }, docs: "none", targets: ["validators"] });
    const strip = (text: string) => text.split("\n").slice(3).join("\n").replace(/\(schema(\.d)?\.ts:\d+\)/g, "");
    expect(fromDts.files.length).toBe(2);
    for (let i = 0; i < fromTs.files.length; i++) expect(strip(fromDts.files[i]!.contents)).toBe(strip(fromTs.files[i]!.contents));
  });

  it("in-memory text works and reports positions in the given file name", async () => {
    const ok = await generate({ schema: { text: "export type A = string;\n", fileName: "mem.ts" }, targets: ["types"] });
    expect(ok.files[0]!.contents).toContain("export type A = string;");
    const failure = await generate({ schema: { text: "export type A = B;\n", fileName: "mem.ts" } }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(GeneratorError);
    expect((failure as GeneratorError).diagnostics.map((d) => formatDiagnostic(d))).toEqual([
      "mem.ts:1:17 - error MCG110: TypeScript TS2304: Cannot find name 'B'.",
    ]);
  });
});

describe("analyze", () => {
  /** A chain of `n` aliases T0 → T1 → …; with `cycle`, the last refers back to T0. */
  function chain(n: number, cycle: boolean): SchemaIR {
    const declarations: Declaration[] = [];
    for (let i = 0; i < n; i++) {
      const next = i + 1 < n ? `T${i + 1}` : cycle ? "T0" : undefined;
      declarations.push({
        kind: "alias",
        name: `T${i}`,
        type: next ? { kind: "array", element: { kind: "ref", name: next } } : { kind: "keyword", name: "string" },
        exported: true,
        docs: { text: "", tags: [] },
        span: { file: "s.ts", line: i + 1, column: 1 },
      });
    }
    return { irVersion: 1, source: "s.ts", sha256: "", declarations, warnings: [] };
  }

  it("finds recursion along a chain of 50 000 references without overflowing the stack", () => {
    expect(analyze(chain(50_000, true)).recursive.size).toBe(50_000);
    expect(analyze(chain(50_000, false)).recursive.size).toBe(0);
  });
});
