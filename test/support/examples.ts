/**
 * The upstream examples of one version: `examples/<TypeName>/*.json`, each validated as
 * the type its folder names. Shared by the corpus suite and the benchmark.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Json } from "./mutants.js";

/** One example file: the type it is an instance of, its path under the version folder, its value. */
export interface Example {
  readonly type: string;
  /** `examples/<TypeName>/<file>.json`. */
  readonly file: string;
  readonly value: Json;
}

/** Every example under `examplesDir`, sorted by type then file (code-unit order, not locale). */
export function readExamples(examplesDir: string): Example[] {
  const sorted = (dir: string) => readdirSync(dir).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const out: Example[] = [];
  for (const type of sorted(examplesDir)) {
    for (const file of sorted(join(examplesDir, type)).filter((f) => f.endsWith(".json"))) {
      out.push({ type, file: `examples/${type}/${file}`, value: JSON.parse(readFileSync(join(examplesDir, type, file), "utf8")) as Json });
    }
  }
  return out;
}
