/**
 * Child process of `footprint.ts`: imports a validator module and calls `is` and `validate`
 * once on every input; prints `{ "importMs", "firstPassMs" }` as JSON on stdout.
 *
 * Usage: node dist-bench/bench/first-pass.js <module.js> <generated|typia> <inputs.json>
 */
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";

type Fn = (value: unknown) => unknown;

const [modulePath, layout, inputsFile] = process.argv.slice(2);
if (modulePath === undefined || inputsFile === undefined || (layout !== "generated" && layout !== "typia")) {
  throw new Error("usage: first-pass <module.js> <generated|typia> <inputs.json>");
}
const inputs = JSON.parse(readFileSync(inputsFile, "utf8")) as { type: string; value: unknown }[];
const start = performance.now();
const mod = (await import(pathToFileURL(modulePath).href)) as Record<string, unknown>;
const imported = performance.now();
const lookup = (kind: "is" | "validate", type: string): Fn | undefined =>
  layout === "generated"
    ? (mod[`${kind}${type}`] as Fn | undefined)
    : (mod[kind] as Record<string, Fn | undefined>)[type];
let sink = 0;
for (const { type, value } of inputs) {
  if (lookup("is", type)?.(value) === true) sink++;
  if (lookup("validate", type)?.(value) !== undefined) sink++;
}
const done = performance.now();
process.stdout.write(JSON.stringify({ importMs: imported - start, firstPassMs: done - imported, sink }));
