/**
 * Loads generated validators into this process: transpiles the generated `.ts` files of a
 * folder to ES modules (TypeScript's `transpileModule`: syntax only, the test suite does
 * the type-checking) in a scratch folder, and imports `validators.js`. Also measures the
 * size of the generated code.
 */
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import ts from "typescript";

/** What the benchmark needs from the generated `validators.ts`. */
export interface GeneratedValidators {
  /** `isX`, or undefined when the module has none for `type`. */
  is(type: string): ((value: unknown) => boolean) | undefined;
  /** `validateX`, or undefined when the module has none for `type`. */
  validate(type: string): ((value: unknown) => ValidationResult) | undefined;
}

/** The shape of a `validateX` answer (see `ValidationResult` in the generated code). */
export type ValidationResult =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly issues: readonly unknown[] };

/** Transpiles `sourceDir/*.ts` into `outDir` and imports the validators. */
export async function loadGenerated(sourceDir: string, outDir: string): Promise<GeneratedValidators> {
  transpileGenerated(sourceDir, outDir);
  return importGenerated(outDir, sourceDir);
}

/** Imports `validators.js` of a folder {@link transpileGenerated} wrote (`from` names its source in errors). */
export async function importGenerated(outDir: string, from: string = outDir): Promise<GeneratedValidators> {
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(join(outDir, "validators.js")).href)) as Record<string, unknown>;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`the generated validators from ${from} fail to load: ${reason}`);
  }
  const exported = <F>(name: string): F | undefined => (typeof mod[name] === "function" ? (mod[name] as F) : undefined);
  return {
    is: (type) => exported<(value: unknown) => boolean>(`is${type}`),
    validate: (type) => exported<(value: unknown) => ValidationResult>(`validate${type}`),
  };
}

/** Transpiles every `.ts` file under `sourceDir` (revision folders and `runtime/` included) into `outDir` as ES modules. */
export function transpileGenerated(sourceDir: string, outDir: string): void {
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, "package.json"), JSON.stringify({ type: "module" }));
  // The generated modules and the runtime modules they import (in `runtime/`).
  const files = (readdirSync(sourceDir, { recursive: true }) as string[]).filter((f) => f.endsWith(".ts")).sort();
  for (const file of files) {
    const { outputText } = ts.transpileModule(readFileSync(join(sourceDir, file), "utf8"), {
      fileName: file,
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ES2022 },
    });
    mkdirSync(dirname(join(outDir, file)), { recursive: true });
    writeFileSync(join(outDir, file.replace(/\.ts$/, ".js")), outputText);
  }
}

/** Size of one generated file. */
export interface FileSize {
  readonly file: string;
  readonly bytes: number;
  readonly gzipBytes: number;
}

/** Raw and gzip (level 9) sizes of `validators.ts` and `types.ts`. */
export function codeSize(dir: string): FileSize[] {
  return ["validators.ts", "types.ts"].map((file) => {
    const bytes = readFileSync(join(dir, file));
    return { file, bytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length };
  });
}
