/**
 * Child process of `typia-ratios.ts`: one fresh draw of the engine's optimisation decisions.
 * Imports our compiled validators and typia's module, times `is` and `validate` of both on the
 * valid and the invalid inputs (`timing.ts`: warm-up until steady, interleaved slices, a full GC
 * before each), and prints our {@link TypiaRatios} (median of the per-round ratios of CPU-time
 * ops/s) as JSON on stdout.
 *
 * Usage: node --expose-gc dist-bench/bench/typia-ratio-child.js <job.json>
 */
import { readFileSync } from "node:fs";
import { generatedContenders, workload } from "./contenders.js";
import { importGenerated } from "./generated.js";
import { perRoundRatio, type TypiaRatios } from "./sections.js";
import { runRounds } from "./timing.js";
import { typiaContenders } from "./typia.js";
import type { RatioJob } from "./typia-ratios.js";

const jobFile = process.argv[2];
if (jobFile === undefined) throw new Error("usage: typia-ratio-child <job.json>");
const job = JSON.parse(readFileSync(jobFile, "utf8")) as RatioJob;
const ours = generatedContenders(await importGenerated(job.compiledDir));
const typia = await typiaContenders(job.typia);

const kinds = ["is", "validate"] as const;
const sets = ["valid", "invalid"] as const;
const workloads = kinds.flatMap((kind) =>
  sets.flatMap((set) => [workload(`${kind} ${set} ours`, ours[kind], job.inputs[set]), workload(`${kind} ${set} typia`, typia[kind], job.inputs[set])]),
);
const timing = runRounds(workloads, job.timing);
const cpu = (key: string) => (timing.slices.get(key) ?? []).map((s) => s.opsPerCpuSecond);
const ratio = (kind: (typeof kinds)[number], set: (typeof sets)[number]) => perRoundRatio(cpu(`${kind} ${set} ours`), cpu(`${kind} ${set} typia`));
const ratios: TypiaRatios = {
  is: { valid: ratio("is", "valid"), invalid: ratio("is", "invalid") },
  validate: { valid: ratio("validate", "valid"), invalid: ratio("validate", "invalid") },
};
process.stdout.write(JSON.stringify({ ratios, cpuShare: timing.cpuShare, sink: timing.sink }));
