/**
 * Vitest global setup: makes sure the spec corpus is there before any test file loads
 * `test/support/corpus.ts`: `$MCP_SPEC_DIR` (default `../shared/upstream/modelcontextprotocol`)
 * when it exists, else every revision pinned in `mcp-spec.lock.json`, downloaded into the
 * cache when missing. Without either, one message names both ways to provide it (MCG507).
 */
import { formatDiagnostic, GeneratorError } from "../../generator/index.js";
import { findCorpus } from "../../generator/spec/index.js";
import { ENV_SPEC_DIR, SPEC_DIR_2026_07_13, SPEC_LOCK } from "./corpus.js";

export default async function setup(): Promise<void> {
  try {
    const corpus = await findCorpus(ENV_SPEC_DIR, {
      lockFile: SPEC_LOCK,
      variable: "MCP_SPEC_DIR",
      onProgress: (line) => process.stderr.write(`${line}\n`),
      besides: [SPEC_DIR_2026_07_13],
    });
    if (corpus.source === "cache") process.stderr.write(`spec corpus: ${corpus.dirs.join(", ")} (pinned in ${SPEC_LOCK})\n`);
  } catch (error) {
    if (!(error instanceof GeneratorError)) throw error;
    // One message, without a stack trace: what is missing and both ways to provide it.
    process.stderr.write(`${error.diagnostics.map((d) => formatDiagnostic(d)).join("\n")}\n`);
    process.exit(2);
  }
}
