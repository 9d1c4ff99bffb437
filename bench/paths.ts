/** Where the benchmark reads its inputs: the repository, the upstream draft schema and its examples. */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (this file runs from `dist-bench/bench/`). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** The upstream spec corpus: `$MCP_SPEC_DIR`, default `../shared/upstream/modelcontextprotocol` beside the repo. */
export const SPEC_DIR = resolve(ROOT, process.env.MCP_SPEC_DIR ?? "../shared/upstream/modelcontextprotocol");

/** The spec version benchmarked. */
export const VERSION = "draft";

export const DRAFT = {
  schemaTs: join(SPEC_DIR, "schema", VERSION, "schema.ts"),
  schemaJson: join(SPEC_DIR, "schema", VERSION, "schema.json"),
  examplesDir: join(SPEC_DIR, "schema", VERSION, "examples"),
} as const;

/** The committed generated output for the draft (used with `--committed`). */
export const COMMITTED_DIR = join(ROOT, "generated", VERSION);
