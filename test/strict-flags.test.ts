/**
 * Vendored output must compile in the strictest project a user has: for every corpus
 * version, every generated file (default options, every target) is type-checked with every
 * strictness flag below at once, under module NodeNext and Bundler, on TypeScript 6 (the
 * project's) and the latest TypeScript 5 (`typescript5`). A user cannot exclude a vendored
 * folder from these flags (tsc checks every imported file), so none may be left out.
 *
 * One program per compiler and module mode holds every version's folder (one library load
 * for all), and each test reads its own version's diagnostics.
 */
import { writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import ts6 from "typescript";
import ts5 from "typescript5";
import { beforeAll, describe, expect, it } from "vitest";
import { generate, type GeneratedFile } from "../generator/index.js";
import { corpusVersions, scratchDir, SPEC_DIR, writeGenerated } from "./support/corpus.js";
import { readmeExample, readmeUsageExample } from "./support/readme.js";
import { STRICTEST_FLAGS } from "./support/strict.js";

/** The two module settings a vendoring project uses. */
const MODULE_MODES = {
  NodeNext: { module: "NodeNext", moduleResolution: "NodeNext" },
  Bundler: { module: "ESNext", moduleResolution: "Bundler" },
} as const;

/** The part of the TypeScript API used here, which both major versions share. */
type Compiler = Pick<
  typeof ts6,
  "convertCompilerOptionsFromJson" | "createProgram" | "getPreEmitDiagnostics" | "flattenDiagnosticMessageText" | "version"
>;

const COMPILERS: Record<string, Compiler> = { "TypeScript 6": ts6, "TypeScript 5": ts5 as unknown as Compiler };

/** `file:line:col TScode message` of every diagnostic, by version folder name. */
type DiagnosticsByVersion = Map<string, string[]>;

/** Compiles every `.ts` file under `root/<version>/` as one program. */
export function compileStrictest(compiler: Compiler, root: string, files: readonly string[], mode: keyof typeof MODULE_MODES, extra: object = {}): DiagnosticsByVersion {
  const { options, errors } = compiler.convertCompilerOptionsFromJson({ ...STRICTEST_FLAGS, ...MODULE_MODES[mode], ...extra }, root);
  if (errors.length > 0) throw new Error(`bad compiler options: ${errors.map((e) => compiler.flattenDiagnosticMessageText(e.messageText, " ")).join("; ")}`);
  const program = compiler.createProgram([...files], options);
  const byVersion: DiagnosticsByVersion = new Map();
  for (const d of compiler.getPreEmitDiagnostics(program)) {
    const text = compiler.flattenDiagnosticMessageText(d.messageText, " ");
    if (!d.file || d.start === undefined) {
      byVersion.set("(options)", [...(byVersion.get("(options)") ?? []), `TS${d.code} ${text}`]);
      continue;
    }
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    const path = relative(root, d.file.fileName);
    const version = path.split(sep)[0] ?? path;
    byVersion.set(version, [...(byVersion.get(version) ?? []), `${path}:${line + 1}:${character + 1} TS${d.code} ${text}`]);
  }
  return byVersion;
}

const versions = corpusVersions();
const root = scratchDir("strict-flags");
const files: string[] = [];

/** Writes one generation's files under `strict-flags/<label>` and compiles them alone: every diagnostic, flattened. */
function compileOutput(label: string, files: readonly GeneratedFile[], compiler: Compiler = ts6, mode: keyof typeof MODULE_MODES = "NodeNext", extra: object = {}): string[] {
  const dir = writeGenerated(join("strict-flags", label), files);
  return [...compileStrictest(compiler, root, files.map((f) => join(dir, f.path)), mode, extra).values()].flat();
}


beforeAll(async () => {
  // An ESM project, as NodeNext needs to read the files as modules.
  writeFileSync(join(root, "package.json"), '{ "type": "module" }\n');
  for (const version of versions) {
    const result = await generate({ schema: { path: version.schemaTs } });
    const dir = writeGenerated(join("strict-flags", version.label), result.files);
    files.push(...result.files.map((f) => join(dir, f.path)));
    if (version.label === "draft") {
      // The README's usage example, beside a copy of the draft's output as ./generated/.
      const generatedDir = writeGenerated(join("strict-flags", "example", "generated"), result.files);
      writeFileSync(join(generatedDir, "..", "example.ts"), readmeUsageExample());
      // And its dispatch.ts example beside it.
      writeFileSync(join(generatedDir, "..", "dispatch-example.ts"), readmeExample("dispatch-example"));
      files.push(join(generatedDir, "..", "dispatch-example.ts"));
      // And the example of a client reading a server's answers.
      writeFileSync(join(generatedDir, "..", "client-example.ts"), readmeExample("client-example"));
      files.push(join(generatedDir, "..", "client-example.ts"));
      // The example prints; these programs load no DOM or Node types, so declare console alone.
      writeFileSync(join(generatedDir, "..", "console.d.ts"), "declare const console: { log(...data: unknown[]): void };\n");
      files.push(join(generatedDir, "..", "example.ts"), join(generatedDir, "..", "console.d.ts"));
    }
  }
});

for (const [compilerName, compiler] of Object.entries(COMPILERS)) {
  for (const mode of Object.keys(MODULE_MODES) as (keyof typeof MODULE_MODES)[]) {
    describe(`${compilerName} (${compiler.version}), module ${mode}, every strictness flag`, () => {
      let diagnostics: DiagnosticsByVersion;
      beforeAll(() => {
        diagnostics = compileStrictest(compiler, root, files, mode);
      });

      it("takes the options", () => {
        expect(diagnostics.get("(options)") ?? []).toEqual([]);
      });

      it("the README's usage, dispatch.ts and client examples compile against the draft's output", () => {
        expect(diagnostics.get("example") ?? []).toEqual([]);
      });

      for (const version of versions) {
        it(`${version.label}: every generated file, the runtime modules included, compiles`, () => {
          const own = files.filter((f) => f.includes(`${sep}${version.label}${sep}`));
          expect(own.length).toBeGreaterThanOrEqual(7);
          expect(own.filter((f) => f.includes(`${sep}runtime${sep}`)).length).toBeGreaterThanOrEqual(3);
          expect(diagnostics.get(version.label) ?? []).toEqual([]);
        });
      }
    });
  }
}

describe("--import-extension ts and none compile too (draft, every strictness flag)", () => {
  const variants = [
    { extension: "ts", mode: "NodeNext", extra: { allowImportingTsExtensions: true } },
    { extension: "ts", mode: "Bundler", extra: { allowImportingTsExtensions: true } },
    { extension: "none", mode: "Bundler", extra: {} },
  ] as const;
  const draft = versions.find((v) => v.label === "draft")!;
  const generated = new Map<string, ReturnType<typeof generate>>();
  const generateWith = (extension: "ts" | "none") => {
    if (!generated.has(extension)) generated.set(extension, generate({ schema: { path: draft.schemaTs }, importExtension: extension, docs: "none" }));
    return generated.get(extension)!;
  };
  for (const { extension, mode, extra } of variants) {
    for (const [compilerName, compiler] of Object.entries(COMPILERS)) {
      it(`${extension} under ${mode}, ${compilerName}`, async () => {
        const label = `ext-${extension}-${mode}-${compilerName.replace(/\s/g, "")}`;
        expect(compileOutput(label, (await generateWith(extension)).files, compiler, mode, extra)).toEqual([]);
      });
    }
  }
});

describe("a schema with nothing to validate compiles too (every strictness flag)", () => {
  it("constants only: no import of types.ts that nothing reads (noUnusedLocals)", async () => {
    const text = 'export const LATEST_PROTOCOL_VERSION = "2026-07-28";\nexport const JSONRPC_VERSION = "2.0";\n';
    const result = await generate({ schema: { text, fileName: "constants.ts" } });
    expect(compileOutput("constants-only", result.files)).toEqual([]);
  });
});

describe("a schema with declarations nothing exported uses compiles too (every strictness flag)", () => {
  it("leaves them out with a warning (MCG253), and keeps those an export's types reach", async () => {
    const text = [
      'export const LATEST_PROTOCOL_VERSION = "2026-07-28";',
      "interface Hidden { a: string }",
      'const UNREAD = "u";',
      'const READ = "r";',
      "interface Used { b: string }",
      "interface Base { c: number }",
      "type Deep = { d: Used[] };",
      "export interface A extends Base { u: Used; deep?: Deep; kind: typeof READ }",
      "",
    ].join("\n");
    const result = await generate({ schema: { text, fileName: "private.ts" } });
    expect(result.warnings.map((w) => `${w.span?.line}:${w.span?.column} ${w.code} ${w.message}`)).toEqual([
      "2:1 MCG253 Hidden is neither exported nor used by an exported declaration; it is left out of the output (export it to generate it)",
      "3:7 MCG253 UNREAD is neither exported nor used by an exported declaration; it is left out of the output (export it to generate it)",
      // Only extended: its properties are copied into A, which refers to it nowhere.
      "6:1 MCG253 Base is neither exported nor used by an exported declaration; it is left out of the output (export it to generate it)",
    ]);
    const types = result.files.find((f) => f.path === "types.ts")!.contents;
    expect(types).not.toContain("Hidden");
    expect(types).not.toContain("Base");
    expect(types).not.toContain("UNREAD");
    expect(types).toContain('const READ = "r";');
    expect(types).toMatch(/export interface A \{\n(.*\n)*?\s+c: number;/);
    for (const kept of ["interface Used", "type Deep"]) expect(types).toContain(kept);
    expect(compileOutput("private-declarations", result.files)).toEqual([]);
  });
});

describe("declaration files built with stripInternal (helper-56)", () => {
  it("a project that emits .d.ts with stripInternal from the vendored draft (--docs full) gets declarations that compile", async () => {
    const { files } = await generate({ schema: { specDir: SPEC_DIR, version: "draft" }, docs: "full" });
    expect(files.some((f) => f.contents.includes("@internal"))).toBe(false);
    const dir = writeGenerated("strip-internal/src", files);
    const out = join(dir, "..", "dist");
    const roots = files.filter((f) => f.path.endsWith(".ts")).map((f) => join(dir, f.path));
    const common = { target: ts6.ScriptTarget.ES2022, module: ts6.ModuleKind.ESNext, moduleResolution: ts6.ModuleResolutionKind.Bundler, strict: true, types: [], lib: ["lib.es2022.d.ts"] };
    const emitted = ts6.createProgram(roots, { ...common, declaration: true, emitDeclarationOnly: true, stripInternal: true, outDir: out, rootDir: dir }).emit();
    expect(emitted.emitSkipped).toBe(false);
    const check = ts6.createProgram([join(out, "index.d.ts")], { ...common, noEmit: true, skipLibCheck: false });
    expect(ts6.getPreEmitDiagnostics(check).map((d) => `${d.file?.fileName ?? ""} ${ts6.flattenDiagnosticMessageText(d.messageText, " ")}`)).toEqual([]);
  });
});
