/**
 * What the package's build holds: `tsconfig.json` compiles the CLI and the generator only
 * (the bench, which imports test helpers, has its own tsconfig), so no test or bench code
 * lands in `dist/`, and `prepare` builds it, so an install from git has a `dist/`.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { buildPrivateCli } from "./support/cli-build.js";
import { ROOT, scratchDir } from "./support/corpus.js";

/** The project's own source files a tsconfig compiles (node_modules and lib files left out), relative to the root. */
function compiledSources(tsconfig: string): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, tsconfig), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!config) throw new Error(`cannot read ${tsconfig}`);
  const program = ts.createProgram(config.fileNames, config.options);
  return program
    .getSourceFiles()
    .map((f) => relative(ROOT, f.fileName))
    .filter((f) => !f.startsWith("..") && !f.split(sep).includes("node_modules"))
    .sort();
}

describe("the package build", () => {
  it("compiles bin/ and generator/ only: nothing from test/ or bench/ reaches dist/", () => {
    const sources = compiledSources("tsconfig.json");
    expect(sources).toContain(join("bin", "mcp-schema-codegen.ts"));
    expect(sources).toContain(join("generator", "index.ts"));
    expect(sources.filter((f) => !f.startsWith(`bin${sep}`) && !f.startsWith(`generator${sep}`))).toEqual([]);
  });

  it("the bench builds apart, into dist-bench/", () => {
    const sources = compiledSources(join("bench", "tsconfig.json"));
    expect(sources).toContain(join("bench", "run.ts"));
    const config = JSON.parse(readFileSync(join(ROOT, "bench", "tsconfig.json"), "utf8")) as { compilerOptions: { outDir: string } };
    expect(config.compilerOptions.outDir).toBe("../dist-bench");
  });

  it("the library API's declarations need no Node types: a project with `types: []` (TypeScript 6's default) and no @types/node compiles against them", () => {
    const built = dirname(dirname(buildPrivateCli("api-declarations")));
    const dir = scratchDir("api-consumer");
    const main = join(dir, "main.ts");
    const api = relative(dir, join(built, "generator", "index.js")).split(sep).join("/");
    writeFileSync(
      main,
      [
        `import { generate, loadConfig, configInputs, analyzeSchema, formatDiagnostic, GeneratorError } from "${api}";`,
        `import { defaultCacheDir, fetchSpec } from "${api.replace(/index\.js$/, "spec/index.js")}";`,
        "export const used = [generate, loadConfig, configInputs, analyzeSchema, formatDiagnostic, GeneratorError, defaultCacheDir, fetchSpec];",
        "",
      ].join("\n"),
    );
    mkdirSync(dir, { recursive: true });
    const options: ts.CompilerOptions = { strict: true, noEmit: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, types: [] };
    const program = ts.createProgram([main], options);
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n") + (d.file ? ` (${relative(ROOT, d.file.fileName)})` : ""));
    expect(problems).toEqual([]);
    // The check is real: Node's own declarations were not in the program.
    expect(program.getSourceFiles().some((f) => f.fileName.includes(`${sep}@types${sep}node${sep}`) || f.fileName.includes("/@types/node/"))).toBe(false);
  });

  it("prepare builds, so that an install from git gets dist/; files ship the build and the templates", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string>; files: string[]; bin: Record<string, string> };
    expect(pkg.scripts.prepare).toBe("npm run build");
    expect(pkg.files).toEqual(["dist/bin", "dist/generator", "runtime/*.ts", "templates"]);
    expect(pkg.bin["mcp-schema-codegen"]).toBe("dist/bin/mcp-schema-codegen.js");
  });
});
