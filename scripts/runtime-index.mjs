// Writes <build>/generator/emit/runtime-index.json: the runtime modules parsed ahead of time, so
// that generation does not parse them on every run (see RUNTIME_INDEX in generator/emit/runtime.ts).
// Usage: node scripts/runtime-index.mjs <build folder: dist or dist-bench>
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const build = resolve(import.meta.dirname, "..", process.argv[2] ?? "dist");
const { runtimeIndexJson } = await import(pathToFileURL(resolve(build, "generator/emit/runtime.js")).href);
writeFileSync(resolve(build, "generator/emit/runtime-index.json"), runtimeIndexJson());
