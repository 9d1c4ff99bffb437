/**
 * typia as a contender, built at bench time: for every exported type of the draft
 * `schema.ts` (read in place), `typia.createIs<T>()` and `typia.createValidate<T>()` are
 * compiled with typia's transformer (`@typia/transform`, called through the TypeScript
 * compiler API as a `before` transformer, so neither ts-patch nor a patched `tsc` is needed;
 * typia 12 supports this project's TypeScript 6). The module is written under
 * `dist-bench/typia/` so its `typia/lib/internal/*` imports resolve from this repository's
 * `node_modules`.
 *
 * typia reads the JSDoc comment tags of the schema (`@format uri`, `@minimum`, `@maximum`);
 * it does not know typescript-json-schema's `--defaultNumberType integer`, so a TS
 * `number` is any finite number to it (the pre-check lists where that makes it accept a
 * mutant the others reject). It is timed on the same inputs as the others, wrong answers
 * included.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import type { Check, Contender } from "./contenders.js";
import { ROOT } from "./paths.js";

/** Where the typia module is built (inside the repository, for module resolution). */
export const TYPIA_DIR = join(ROOT, "dist-bench", "typia");

interface TypiaValidation {
  readonly success: boolean;
}

/** The built module: one `is` and one `validate` function per schema type. */
interface TypiaModule {
  readonly is: Readonly<Record<string, (value: unknown) => boolean>>;
  readonly validate: Readonly<Record<string, (value: unknown) => TypiaValidation>>;
}

export interface TypiaBuild {
  /** The compiled ES module. */
  readonly modulePath: string;
  /** Exported interfaces and type aliases of `schema.ts`: the types compiled. */
  readonly types: readonly string[];
  /** Time of `createProgram` + transform + emit in this process. */
  readonly buildMs: number;
  readonly version: string;
}

type Transform = (
  program: ts.Program,
  options: object | undefined,
  extras: { addDiagnostic(diagnostic: ts.Diagnostic): number },
) => ts.TransformerFactory<ts.SourceFile>;

/** Compiles `createIs`/`createValidate` for every exported type of `schemaTs`. */
export function buildTypia(schemaTs: string): TypiaBuild {
  const start = performance.now();
  const require = createRequire(join(ROOT, "package.json"));
  const transform = (require("@typia/transform") as { default: Transform }).default;
  const version = (require("typia/package.json") as { version: string }).version;
  const types = exportedTypes(schemaTs);
  mkdirSync(TYPIA_DIR, { recursive: true });
  writeFileSync(join(TYPIA_DIR, "package.json"), JSON.stringify({ type: "module" }));
  const entry = join(TYPIA_DIR, "typia-validators.ts");
  const schemaImport = JSON.stringify(schemaTs.replace(/\.ts$/, ".js"));
  writeFileSync(
    entry,
    [
      `import typia from "typia";`,
      `import type * as S from ${schemaImport};`,
      `export const is = {`,
      ...types.map((t) => `  ${t}: typia.createIs<S.${t}>(),`),
      `};`,
      `export const validate = {`,
      ...types.map((t) => `  ${t}: typia.createValidate<S.${t}>(),`),
      `};`,
      ``,
    ].join("\n"),
  );
  const options: ts.CompilerOptions = {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ES2022,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    skipLibCheck: true,
    types: [],
    noEmitOnError: false,
  };
  const program = ts.createProgram({ rootNames: [entry], options });
  const source = program.getSourceFile(entry);
  if (!source) throw new Error(`typia: ${entry} is not in the program`);
  const problems: ts.Diagnostic[] = [...program.getSemanticDiagnostics(source)];
  let output: string | undefined;
  program.emit(
    source,
    (file, text) => {
      if (file.endsWith(".js")) output = text;
    },
    undefined,
    false,
    { before: [transform(program, {}, { addDiagnostic: (d) => problems.push(d) })] },
  );
  if (problems.length > 0 || output === undefined || output.includes("typia.createIs()")) {
    const messages = problems.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")).slice(0, 5);
    throw new Error(`typia: the transform failed on ${schemaTs}: ${messages.join("; ") || "no code emitted"}`);
  }
  const modulePath = join(TYPIA_DIR, "typia-validators.js");
  writeFileSync(modulePath, output);
  return { modulePath, types, buildMs: performance.now() - start, version };
}

/** Exported interfaces and type aliases of a schema file, in declaration order. */
function exportedTypes(schemaTs: string): string[] {
  const file = ts.createSourceFile(schemaTs, readFileSync(schemaTs, "utf8"), ts.ScriptTarget.Latest);
  const exported = (s: ts.Statement) =>
    ts.canHaveModifiers(s) && (ts.getModifiers(s) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  return file.statements
    .filter((s) => (ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) && exported(s))
    .map((s) => (s as ts.InterfaceDeclaration | ts.TypeAliasDeclaration).name.text);
}

/** The `typia.is` and `typia.validate` contenders over a built module. */
export async function typiaContenders(build: TypiaBuild): Promise<{ is: Contender; validate: Contender }> {
  const mod = (await import(pathToFileURL(build.modulePath).href)) as TypiaModule;
  const own = <F>(table: Readonly<Record<string, F>>, type: string): F | undefined =>
    Object.hasOwn(table, type) ? table[type] : undefined;
  return {
    is: { name: `typia.is (typia ${build.version})`, checkFor: (type) => own(mod.is, type) },
    validate: {
      name: `typia.validate (typia ${build.version})`,
      checkFor: (type): Check | undefined => {
        const validate = own(mod.validate, type);
        return validate && ((v) => validate(v).success);
      },
    },
  };
}
