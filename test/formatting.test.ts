/**
 * A target whose emitter prints Prettier's layout itself (its `render` returns `{ laidOut }`)
 * is written without running Prettier: its text must be exactly what Prettier prints.
 * Prettier runs here over every file so laid out from every upstream schema revision (both
 * docs modes that print comments) and from every fixture family (each docs mode), and must change
 * nothing; and every file of the committed outputs must be laid out so (else the check would
 * hold by running Prettier, and generation would pay for it), as must every revision's
 * `revision.ts` of a multi-revision output.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { declareModuleNames, formatModule, TARGETS, type EmitContext } from "../generator/emit/index.js";
import { buildDispatch, renderRevision } from "../generator/emit/dispatch.js";
import { SymbolTable } from "../generator/emit/symbols.js";
import { analyzeSchema, DEFAULT_OPTIONS, generate, GeneratorError, type SchemaInput } from "../generator/index.js";
import type { DocsMode } from "../generator/emit/docs.js";
import { runtimeNames, runtimeSource } from "../generator/emit/runtime.js";
import { fixtureSchema } from "./support/fixtures.js";
import { SPEC_DIR } from "./support/corpus.js";

const FIXTURE_FAMILIES = ["aliases", "constraints", "copies", "discriminated", "enums", "interfaces", "names", "objects", "recursive"] as const;

/** Every target's rendering of one schema: the laid-out text, or undefined when it goes through Prettier. */
function laidOutFiles(input: SchemaInput, docs: DocsMode, enumStyle = DEFAULT_OPTIONS.enumStyle): Map<string, string | undefined> {
  const resolved = { ...DEFAULT_OPTIONS, docs, enumStyle };
  const schema = analyzeSchema(input, resolved);
  const context: EmitContext = {
    docs,
    header: schema.header,
    targets: resolved.targets,
    protocol: schema.protocol,
    enumStyle: resolved.enumStyle,
    names: declareModuleNames(schema.model, schema.protocol, resolved.targets, new SymbolTable()),
  };
  const files = new Map<string, string | undefined>();
  for (const name of resolved.targets) {
    const rendered = TARGETS[name].render(schema.model, context);
    files.set(TARGETS[name].file, typeof rendered === "string" ? undefined : rendered.laidOut);
  }
  return files;
}

async function expectPrettiersFixedPoint(files: Map<string, string | undefined>, where: string): Promise<void> {
  for (const [path, text] of files) {
    if (text !== undefined) expect(text, `${where}: ${path}`).toBe(await formatModule(text));
  }
}

describe("files laid out by their emitters are Prettier's fixed point", () => {
  for (const version of readdirSync(join(SPEC_DIR, "schema")).sort()) {
    for (const docs of ["tags", "full"] as const) {
      it(`upstream ${version}, --docs ${docs}`, async () => {
        const files = laidOutFiles({ specDir: SPEC_DIR, version }, docs);
        // The committed outputs: every file laid out (a default `generate` runs no Prettier).
        if (version === "draft" || version === "2025-11-25") {
          expect([...files].filter(([, text]) => text !== undefined).map(([path]) => path)).toEqual(["types.ts", "validators.ts", "errors.ts", "meta.ts", "methods.ts", "dispatch.ts", "index.ts"]);
        }
        // A multi-revision output's revision.ts (the revision's dispatcher table).
        const schema = analyzeSchema({ specDir: SPEC_DIR, version }, { ...DEFAULT_OPTIONS, docs });
        const revision = renderRevision(schema.header, buildDispatch(schema.protocol, schema.model));
        expect(typeof revision, `${version} revision.ts laid out`).toBe("object");
        files.set("revision.ts", typeof revision === "string" ? undefined : revision.laidOut);
        await expectPrettiersFixedPoint(files, `${version} --docs ${docs}`);
      });
    }
  }

  it("a schema of the layouts print-type.ts decides (quotes, numbers, long unions, objects in arrays and intersections)", async () => {
    const long = (n: number) => `Member${"X".repeat(40)}${n}`;
    const text = [
      ...[1, 2, 3, 4].map((n) => `export interface ${long(n)} { a: string }`),
      `export type Quoted = "it's" | 'say "hi"' | 'both \\' and "" ' | 0.5 | -3 | true;`,
      `export type NextLine = ${long(1)} | ${long(2)};`,
      `export type Pipes = ${long(1)} | ${long(2)} | ${long(3)} | ${long(4)};`,
      `export type Mixed = (A & B) | (C | D)[];`,
      ...["A", "B", "C", "D"].map((n) => `export interface ${n} { ${n.toLowerCase()}: string }`),
      `export interface Holder {`,
      `  nextLine: ${long(1)} | ${long(2)};`,
      `  pipes?: ${long(1)} | ${long(2)} | ${long(3)} | ${long(4)};`,
      `  "quoted-key": 'say "hi"';`,
      `  'it"s': string;`,
      `  list: { a: string; b: number }[];`,
      `  both: ${long(1)} & { code: number; data: { nested: string[] } };`,
      `  [key: string]: unknown;`,
      `}`,
    ].join("\n");
    const files = laidOutFiles({ text, fileName: "layouts.ts" }, "tags");
    expect(files.get("types.ts")).toBeDefined();
    await expectPrettiersFixedPoint(files, "layouts.ts");
    // Layouts not decided here leave the file to Prettier: a number Prettier rewrites, an intersection in a broken union.
    for (const undecided of ["export type N = 1e21;", `export type U = (${long(1)} & ${long(2)}) | ${long(3)} | ${long(4)};`]) {
      const declarations = [1, 2, 3, 4].map((n) => `export interface ${long(n)} { a: string }`);
      expect(laidOutFiles({ text: [...declarations, undecided].join("\n"), fileName: "undecided.ts" }, "tags").get("types.ts"), undecided).toBeUndefined();
    }
  });

  it("a multi-revision output's files written without Prettier: top re-exports, index.ts, each revision.ts", async () => {
    const result = await generate({ schema: ["draft", "2025-11-25", "2024-11-05"].map((version) => ({ specDir: SPEC_DIR, version })), docs: "tags" });
    const unformatted = result.files.filter((f) => f.path.endsWith("revision.ts") || (!f.path.includes("/") && f.path.endsWith(".ts") && f.path !== "dispatch.ts"));
    expect(unformatted.map((f) => f.path).sort()).toContain("index.ts");
    expect(unformatted.filter((f) => f.path.endsWith("revision.ts"))).toHaveLength(3);
    await expectPrettiersFixedPoint(new Map(unformatted.map((f) => [f.path, f.contents])), "draft,2025-11-25,2024-11-05");
  });

  it("errors.ts with --enum-style ts-enum (upstream draft, and a fixture without error codes)", async () => {
    const draft = laidOutFiles({ specDir: SPEC_DIR, version: "draft" }, "tags", "ts-enum");
    const fixture = laidOutFiles({ path: fixtureSchema("objects") }, "tags", "ts-enum");
    for (const [where, files] of [["draft", draft], ["objects", fixture]] as const) {
      expect(files.get("errors.ts"), where).toBeDefined();
      await expectPrettiersFixedPoint(new Map([["errors.ts", files.get("errors.ts")]]), `${where} --enum-style ts-enum`);
    }
  });

  it("the validators runtime: every declaration, as inlined into validators.ts (export removed), is Prettier's fixed point", async () => {
    const inlined = runtimeSource(runtimeNames());
    expect(`${inlined}\n`).toBe(await formatModule(inlined));
  });

  it("a schema of the layouts code/layout.ts decides (validators: long chains, hugged sets, patterns, quotes, long names)", async () => {
    const long = (n: number) => `property${"X".repeat(30)}${n}`;
    const longName = `Type${"Long".repeat(9)}`;
    const text = [
      `export interface Chains {`,
      ...[1, 2, 3, 4, 5].map((n) => `  ${long(n)}?: string | number | boolean | null;`),
      `  'quoted "key"': 'say "hi"' | "it's";`,
      `  kind: ${[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => `"literal-value-number-${n}"`).join(" | ")};`,
      `  /** @TJS-pattern ^(?:${"[a-z]+-".repeat(20)})$ */`,
      `  patterned: string;`,
      `  /** @minimum -3 @maximum 1000000 */`,
      `  bounded: number;`,
      // Negative exponents print as JavaScript writes them (\`1e-7\`), as Prettier does.
      `  /** @maximum 0.0000001 */`,
      `  tiny: number;`,
      `  small: 1e-7 | 2.5e-8;`,
      `  list: { ${long(1)}: string; ${long(2)}?: number[] }[];`,
      `  [key: string]: unknown;`,
      `}`,
      `export interface ${longName} { ${long(1)}: ${longName} | null; ${long(2)}?: Chains }`,
      `export type Either = { kind: "a"; ${long(1)}: string } | { kind: "b"; ${long(2)}: Chains[] } | ${longName};`,
      // Objects without properties intersected: the object test alone, not an empty block Prettier would open (helper-71).
      `export type EmptyBoth = ({} & {}) | string;`,
    ].join("\n");
    const files = laidOutFiles({ text, fileName: "validator-layouts.ts" }, "tags");
    expect(files.get("validators.ts")).toBeDefined();
    await expectPrettiersFixedPoint(files, "validator-layouts.ts");
    // Layouts not decided here leave validators.ts to Prettier: a number Prettier rewrites
    // (`1e+21` → `1e21`), a Standard Schema declaration whose type arguments break.
    for (const undecided of ["export interface N { n: 1e21 }", `export interface ${"Long".repeat(30)} { a: string }`]) {
      expect(laidOutFiles({ text: undecided, fileName: "undecided.ts" }, "tags").get("validators.ts"), undecided).toBeUndefined();
    }
  });

  for (const family of FIXTURE_FAMILIES) {
    it(`fixture ${family}, every --docs mode`, async () => {
      for (const docs of ["none", "tags", "full"] as const) {
        let files: Map<string, string | undefined>;
        try {
          files = laidOutFiles({ path: fixtureSchema(family) }, docs);
        } catch (error) {
          if (error instanceof GeneratorError) continue;
          throw error;
        }
        await expectPrettiersFixedPoint(files, `${family} --docs ${docs}`);
      }
    });
  }
});
