// `npm run generate`: regenerates the committed output (generated/draft, generated/2025-11-25)
// from the spec corpus: $MCP_SPEC_DIR (default ../shared/upstream/modelcontextprotocol) when it
// exists, else the revision pinned in mcp-spec.lock.json, downloaded into the cache when missing.
// Runs the build in dist/ (npm run build first), from the repository root (as npm runs scripts).
import { resolve } from "node:path";
import { run, reportError } from "../dist/generator/cli.js";
import { findCorpus } from "../dist/generator/spec/index.js";

const root = resolve(import.meta.dirname, "..");
const io = { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) };
let corpus;
try {
  corpus = await findCorpus(resolve(root, process.env.MCP_SPEC_DIR ?? "../shared/upstream/modelcontextprotocol"), {
    lockFile: resolve(root, "mcp-spec.lock.json"),
    variable: "MCP_SPEC_DIR",
    onProgress: (line) => io.stderr(`${line}\n`),
  });
} catch (error) {
  reportError(error, io, process.argv.includes("--debug"));
  process.exit(2);
}
for (const [version, out] of [["draft", "generated/draft"], ["2025-11-25", "generated/2025-11-25"]]) {
  const code = await run(["generate", "--spec", corpus.dirs[0], "--spec-version", version, "--out", out, "--docs", "tags"], io);
  if (code !== 0) process.exit(code);
}
