/**
 * `npm run bench:ab -- <folder> [<folder> …]`: builds of the generated draft validators side
 * by side, in one process, against typia. Each folder holds a generated `validators.ts` (with
 * its `types.ts` and `runtime/`, as `generate` writes them): the committed `generated/draft`, or
 * the output of another commit or of a variant being tried.
 *
 * Why beside `npm run bench`: one process is one draw of the engine's optimisation decisions,
 * so two runs of the bench differ by about ±0.1× on the valid corpus and cannot tell two builds
 * apart. Here the builds share the process, the inputs and the rounds; giving the same folder
 * twice measures the noise.
 *
 * Method: the bench's inputs (every draft example, and the mutants both ajv settings reject) and
 * its rounds (`timing.ts`: warm-up until steady, interleaved slices, a full GC before each); per
 * build, per kind (`is`, `validate`) and per input set (valid, invalid), the median of the
 * per-round ratios of CPU-time ops/s against typia's `is`/`validate`. Only the inputs every build
 * and typia check are timed.
 *
 * Options: `--kinds is,validate` (default `is`), `--sets valid,invalid` (default both),
 * `--rounds 7`, `--slice-ms 1000`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { ajvContender, generatedContenders, type Contender } from "./contenders.js";
import { buildMutants, loadExamples, type Case } from "./corpus.js";
import { loadGenerated } from "./generated.js";
import { DRAFT } from "./paths.js";
import { perRoundRatio } from "./sections.js";
import { median } from "./stats.js";
import { runRounds, type Workload } from "./timing.js";
import { buildTypia, typiaContenders } from "./typia.js";

const USAGE = "usage: npm run bench:ab -- <folder> [<folder> …] [--kinds is,validate] [--sets valid,invalid] [--rounds 7] [--slice-ms 1000]";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    kinds: { type: "string", default: "is" },
    sets: { type: "string", default: "valid,invalid" },
    rounds: { type: "string", default: "7" },
    "slice-ms": { type: "string", default: "1000" },
  },
});
const kinds = values.kinds.split(",");
const sets = values.sets.split(",");
const rounds = Number(values.rounds);
const sliceMs = Number(values["slice-ms"]);
if (
  positionals.length === 0 ||
  !kinds.every((k) => k === "is" || k === "validate") ||
  !sets.every((s) => s === "valid" || s === "invalid") ||
  !(rounds >= 1) ||
  !(sliceMs > 0)
) {
  process.stderr.write(USAGE + "\n");
  process.exit(2);
}

const scratch = mkdtempSync(join(tmpdir(), "mcp-bench-ab-"));
try {
  const builds: { is: Contender; validate: Contender }[] = [];
  for (const [i, folder] of positionals.entries()) builds.push(generatedContenders(await loadGenerated(resolve(folder), join(scratch, String(i)))));
  const typia = await typiaContenders(buildTypia(DRAFT.schemaTs));
  const ajv = ajvContender(DRAFT.schemaJson, false);
  const ajvAll = ajvContender(DRAFT.schemaJson, true);
  const examples = loadExamples(DRAFT.examplesDir);
  const mutants = buildMutants(examples, (type, v) => ajv.checkFor(type)?.(v) === false && ajvAll.checkFor(type)?.(v) === false);
  const inputs: Record<string, Case[]> = { valid: examples, invalid: mutants.rejected };

  const workloads: Workload[] = [];
  for (const kind of kinds as ("is" | "validate")[]) {
    const contenders = [typia[kind], ...builds.map((b) => b[kind])];
    for (const set of sets) {
      const cases = (inputs[set] ?? []).filter((c) => contenders.every((k) => k.checkFor(c.type)));
      for (const [i, k] of contenders.entries()) {
        workloads.push({ key: `${kind} ${set} ${i}`, cases: cases.map((c) => ({ check: k.checkFor(c.type)!, value: c.value })) });
      }
    }
  }
  const timing = runRounds(workloads, { rounds, sliceMs, warmupMs: 200, minWarmupMs: 3000, maxWarmupMs: 8000 });
  const cpu = (key: string) => (timing.slices.get(key) ?? []).map((s) => s.opsPerCpuSecond);

  process.stdout.write(`${rounds} rounds of ${sliceMs} ms; ratios: median of the per-round ratios of CPU-time ops/s against typia\n`);
  for (const [i, folder] of positionals.entries()) process.stdout.write(`  ${i + 1}: ${folder}\n`);
  for (const kind of kinds) {
    for (const set of sets) {
      const base = cpu(`${kind} ${set} 0`);
      const cells = positionals.map((_, i) => {
        const ours = cpu(`${kind} ${set} ${i + 1}`);
        return `${i + 1}: ${Math.round(median(ours)).toLocaleString("en-US")} ${perRoundRatio(ours, base).toFixed(2)}×`;
      });
      process.stdout.write(`${`${kind} ${set}`.padEnd(17)} typia ${Math.round(median(base)).toLocaleString("en-US").padStart(11)} | ${cells.join(" | ")}\n`);
    }
  }
  process.stdout.write(`CPU time / wall time of the slices: ${(timing.cpuShare * 100).toFixed(0)}%\n`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
