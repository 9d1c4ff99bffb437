/**
 * Child process measured by `generation.ts`: runs `generate()` on the draft schema (the
 * options of the committed `generated/draft`: `--docs tags`), writes the files to the
 * folder given as argument, and prints `{ "generateMs": … }` as JSON on stdout.
 *
 * Usage: node dist-bench/bench/gen-child.js <specDir> <version>[,<version>…] <outDir>
 * (several versions: one multi-revision output serving them all, the first the handler revision).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { generate } from "../generator/index.js";

const [specDir, version, outDir] = process.argv.slice(2);
if (specDir === undefined || version === undefined || outDir === undefined) {
  throw new Error("usage: gen-child <specDir> <version>[,<version>…] <outDir>");
}
const start = performance.now();
const versions = version.split(",");
const result = await generate({
  schema: versions.length === 1 ? { specDir, version } : versions.map((v) => ({ specDir, version: v })),
  docs: "tags",
});
const generateMs = performance.now() - start;
mkdirSync(outDir, { recursive: true });
for (const file of result.files) {
  mkdirSync(dirname(join(outDir, file.path)), { recursive: true });
  writeFileSync(join(outDir, file.path), file.contents);
}
process.stdout.write(JSON.stringify({ generateMs }));
