/**
 * What a validator module costs before it validates anything, ours beside typia's:
 *
 * - size: the module and everything it imports (our runtime helpers; typia's
 *   `typia/lib/internal/*`), bundled and minified by rolldown, then gzip level 9;
 * - import + first pass: a fresh Node process (`first-pass.ts`) times `import()` of the
 *   module and one call of `is` and `validate` on every input (cold code: parse, compile,
 *   first execution); median of alternating runs.
 */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { rolldown } from "rolldown";
import type { Case } from "./corpus.js";
import { median } from "./stats.js";

const HERE = dirname(fileURLToPath(import.meta.url));

/** Bytes of a bundled, minified module and of its gzip. */
export interface BundleSize {
  readonly minBytes: number;
  readonly gzipBytes: number;
}

export async function bundleSize(entry: string): Promise<BundleSize> {
  const bundle = await rolldown({ input: entry, logLevel: "silent" });
  try {
    const { output } = await bundle.generate({ format: "esm", minify: true });
    const code = output.map((chunk) => (chunk.type === "chunk" ? chunk.code : "")).join("");
    return { minBytes: Buffer.byteLength(code), gzipBytes: gzipSync(code, { level: 9 }).length };
  } finally {
    await bundle.close();
  }
}

/** Which export layout the child reads: `isX`/`validateX` (ours) or `is.X`/`validate.X` (typia). */
export type ModuleLayout = "generated" | "typia";

/** Medians over fresh processes. */
export interface ColdStart {
  readonly importMs: number;
  /** One `is` and one `validate` call per input, right after the import. */
  readonly firstPassMs: number;
}

/** Writes the inputs once, for the children to read. */
export function writeInputs(cases: readonly Case[], file: string): string {
  writeFileSync(file, JSON.stringify(cases.map((c) => ({ type: c.type, value: c.value }))));
  return file;
}

/** Alternating cold runs of each module; the median per module. */
export async function coldStarts(
  modules: readonly { readonly path: string; readonly layout: ModuleLayout }[],
  inputsFile: string,
  runs: number,
): Promise<ColdStart[]> {
  const samples = modules.map(() => [] as ColdStart[]);
  for (let i = 0; i < runs; i++) {
    for (const [m, mod] of modules.entries()) {
      const { stdout } = await promisify(execFile)(process.execPath, [
        join(HERE, "first-pass.js"),
        mod.path,
        mod.layout,
        inputsFile,
      ]);
      samples[m]?.push(JSON.parse(stdout) as ColdStart);
    }
  }
  return samples.map((s) => ({
    importMs: median(s.map((r) => r.importMs)),
    firstPassMs: median(s.map((r) => r.firstPassMs)),
  }));
}
