/**
 * Test support: where the upstream spec corpus is, and how to generate code from a
 * schema into a scratch folder that tests can import and type-check.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { formatDiagnostic, generate, GeneratorError, type GenerateOptions, type GeneratedFile } from "../../generator/index.js";
import { defaultCacheDir, readLock } from "../../generator/spec/index.js";

/** The repository root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** The spec folder the environment names: `$MCP_SPEC_DIR`, default `../shared/upstream/modelcontextprotocol` beside the repo. */
export const ENV_SPEC_DIR = resolve(ROOT, process.env.MCP_SPEC_DIR ?? "../shared/upstream/modelcontextprotocol");

/** This repository's spec lock: the commits of the corpus it is tested on. */
export const SPEC_LOCK = join(ROOT, "mcp-spec.lock.json");

/** The cache folder of the lock's pin `index` (`test/support/global-setup.ts` fetches it when missing). */
function lockedPinDir(index: number): string {
  const pin = readLock(SPEC_LOCK)?.pins[index];
  if (!pin) throw new Error(`${SPEC_LOCK} has no pin ${index}`);
  return join(defaultCacheDir(), pin.commit);
}

const FROM_ENVIRONMENT = existsSync(join(ENV_SPEC_DIR, "schema"));

/** The upstream spec corpus: {@link ENV_SPEC_DIR} when it exists, else the lock's first pin in the cache. */
export const SPEC_DIR = FROM_ENVIRONMENT ? ENV_SPEC_DIR : lockedPinDir(0);

/** The earlier draft (`io.modelcontextprotocol/clientInfo` still required there): beside the corpus, else the lock's second pin. */
export const SPEC_DIR_2026_07_13 = FROM_ENVIRONMENT ? resolve(ENV_SPEC_DIR, "../modelcontextprotocol-2026-07-13") : lockedPinDir(1);

/** One schema of the corpus. */
export interface CorpusVersion {
  /** A label for test names: `draft`, `2025-11-25`, `2026-07-13-draft`. */
  readonly label: string;
  readonly dir: string;
  readonly schemaTs: string;
  readonly schemaJson: string;
  readonly examplesDir: string | undefined;
}

/** Every version under `schema/`, plus the 2026-07-13 draft. */
export function corpusVersions(): CorpusVersion[] {
  const versions: CorpusVersion[] = [];
  const add = (label: string, dir: string) => {
    const examples = join(dir, "examples");
    versions.push({
      label,
      dir,
      schemaTs: join(dir, "schema.ts"),
      schemaJson: join(dir, "schema.json"),
      examplesDir: existsSync(examples) ? examples : undefined,
    });
  };
  for (const name of readdirSync(join(SPEC_DIR, "schema")).sort()) add(name, join(SPEC_DIR, "schema", name));
  const older = join(SPEC_DIR_2026_07_13, "schema", "draft");
  if (existsSync(older)) add("2026-07-13-draft", older);
  return versions;
}

/** A scratch folder under `test/.tmp/` (git-ignored), emptied first. */
export function scratchDir(name: string): string {
  const dir = join(ROOT, "test", ".tmp", name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Writes generated files into a fresh scratch folder `test/.tmp/<name>` and returns the folder. */
export function writeGenerated(name: string, files: readonly GeneratedFile[]): string {
  const dir = scratchDir(name);
  for (const file of files) {
    mkdirSync(dirname(join(dir, file.path)), { recursive: true });
    writeFileSync(join(dir, file.path), file.contents);
  }
  return dir;
}

/** The diagnostics, formatted as the CLI prints them, of a schema `text` (file `s.ts`) the generator must refuse; throws when it generates. */
export async function refusal(text: string): Promise<string[]> {
  const failure = await generate({ schema: { text, fileName: "s.ts" } }).catch((e: unknown) => e);
  if (!(failure instanceof GeneratorError)) throw new Error("expected a GeneratorError");
  return failure.diagnostics.map((d) => formatDiagnostic(d));
}

/** Generates into a fresh scratch folder and returns the folder. */
export async function generateInto(name: string, options: GenerateOptions): Promise<string> {
  return writeGenerated(name, (await generate(options)).files);
}

/** One compiler diagnostic: its TS code and `file:line:col message`. */
export interface CompileDiagnostic {
  readonly code: number;
  readonly text: string;
}

/** Compiles the `.ts` files of a folder (no emit) with strict options plus `extra`. */
export function compileDiagnostics(dir: string, extra: ts.CompilerOptions = {}): CompileDiagnostic[] {
  const files = readdirSync(dir).filter((f) => f.endsWith(".ts")).map((f) => join(dir, f));
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ["lib.es2022.d.ts"],
    types: [],
    skipLibCheck: false,
    ...extra,
  });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const text = ts.flattenDiagnosticMessageText(d.messageText, " ");
    if (!d.file || d.start === undefined) return { code: d.code, text };
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    return { code: d.code, text: `${d.file.fileName}:${line + 1}:${character + 1} ${text}` };
  });
}

/**
 * Type-checks the `.ts` files of a folder as a user's strict project would
 * (`strict`, `exactOptionalPropertyTypes`, `noUncheckedIndexedAccess`, `lib` ES2017). Returns the
 * diagnostics as `file:line:col message` lines; empty when it compiles.
 */
export function typecheck(dir: string): string[] {
  // The oldest library the README promises (helper-107: a flatMap needed ES2019's).
  return compileDiagnostics(dir, { exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, noImplicitOverride: true, lib: ["lib.es2017.d.ts"] }).map(
    (d) => d.text,
  );
}
