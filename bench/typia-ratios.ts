/**
 * Our ratios against typia over several fresh processes. One process is one draw of the
 * engine's optimisation decisions (what it inlines, where its code lands): the same two
 * modules timed in one process give ratios that move by about ±0.15× from one process to the
 * next, typia's figures most of all. The issue that set the targets measured the median of 5
 * processes, each a median of per-round ratios; this does the same, one child
 * (`typia-ratio-child.ts`) at a time, so that no two share the cores.
 */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { Case } from "./corpus.js";
import type { TypiaRatios } from "./sections.js";
import { median } from "./stats.js";
import type { TimingOptions } from "./timing.js";
import type { TypiaBuild } from "./typia.js";

const HERE = dirname(fileURLToPath(import.meta.url));

/** What a child measures: written to a JSON file, the child's one argument. */
export interface RatioJob {
  /** The folder `transpileGenerated` wrote: our `validators.js` and its runtime. */
  readonly compiledDir: string;
  readonly typia: TypiaBuild;
  readonly inputs: { readonly valid: readonly InputCase[]; readonly invalid: readonly InputCase[] };
  readonly timing: TimingOptions;
}

interface InputCase {
  readonly type: string;
  readonly value: unknown;
}

/** One child's answer. */
export interface ProcessRatios {
  readonly ratios: TypiaRatios;
  /** CPU time over wall time of the child's slices: below 1 when it waited for a core. */
  readonly cpuShare: number;
}

/**
 * Runs `processes` children one after another on the same inputs (`valid`, `invalid`, as the
 * parent times them) and returns each child's ratios. `scratch` is a folder for the job file.
 */
export async function typiaRatiosInProcesses(
  job: Omit<RatioJob, "inputs">,
  inputs: { readonly valid: readonly Case[]; readonly invalid: readonly Case[] },
  processes: number,
  scratch: string,
  onProgress: (done: number) => void,
): Promise<ProcessRatios[]> {
  const plain = (cases: readonly Case[]) => cases.map((c) => ({ type: c.type, value: c.value }));
  const jobFile = join(scratch, "typia-ratio-job.json");
  writeFileSync(jobFile, JSON.stringify({ ...job, inputs: { valid: plain(inputs.valid), invalid: plain(inputs.invalid) } } satisfies RatioJob));
  const results: ProcessRatios[] = [];
  for (let i = 0; i < processes; i++) {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ["--expose-gc", join(HERE, "typia-ratio-child.js"), jobFile], {
      maxBuffer: 1 << 20,
    });
    try {
      results.push(JSON.parse(stdout) as ProcessRatios);
    } catch {
      throw new Error(`typia-ratio-child, process ${i + 1} of ${processes}, printed no JSON answer: stdout ${JSON.stringify(stdout.slice(0, 200))}, stderr ${JSON.stringify(stderr.slice(0, 500))}`);
    }
    onProgress(i + 1);
  }
  return results;
}

/** The median over processes of each ratio. */
export function medianRatios(all: readonly ProcessRatios[]): TypiaRatios {
  const of = (pick: (r: TypiaRatios) => number) => median(all.map((p) => pick(p.ratios)));
  return {
    is: { valid: of((r) => r.is.valid), invalid: of((r) => r.is.invalid) },
    validate: { valid: of((r) => r.validate.valid), invalid: of((r) => r.validate.invalid) },
  };
}
