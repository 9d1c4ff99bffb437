// `npm run generate`: regenerates the committed output (the outputs of mcp-schema-codegen.config.json:
// generated/draft, generated/2025-11-25) from the spec corpus: $MCP_SPEC_DIR (default
// ../shared/upstream/modelcontextprotocol) when it exists, else the revision pinned in
// mcp-spec.lock.json, downloaded into the cache when missing. The configuration file reads the
// corpus folder from MCP_SPEC_DIR, which this script sets to the one it found.
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
process.env.MCP_SPEC_DIR = corpus.dirs[0];
process.chdir(root);
process.exit(await run(["generate"], io));
