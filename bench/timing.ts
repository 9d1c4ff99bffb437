/**
 * Throughput measurement by interleaved rounds. First each workload warms up alone: slices of
 * `warmupMs` until it has spent `minWarmupMs` of CPU time and a slice is no faster than 1.05×
 * the one before (at most `maxWarmupMs` of CPU time). Code the engine has not yet optimised
 * runs many times slower, and how long optimising takes differs between contenders: typia's
 * module, with its own copy of every nested check per root type (and another for
 * `validate`), runs for seconds at an intermediate tier before its optimised code is ready,
 * steady enough there to fool a rule that only waits for two equal slices. CPU time, not
 * wall time, because the optimising compiler runs on other threads of this process and a
 * loaded machine stretches wall time. Then, in each round every workload (one
 * contender over one input set) runs for a fixed time slice, in an order rotated from
 * round to round, so drift (JIT tiers, CPU frequency, neighbours) spreads over all
 * contenders alike. When Node runs with `--expose-gc` (as `npm run bench` does), a full
 * collection precedes every slice, so no workload pays for garbage another one left.
 *
 * Each slice records its ops per second of CPU time of this process (`process.cpuUsage`)
 * and per second of wall time. CPU time is the headline: on a shared machine wall time
 * also counts the time this process waited for a core. The reported figure is the median
 * over the rounds. One op is one validation call; every verdict is counted into a sink
 * that is printed, so the JIT cannot drop the work.
 */
import { performance } from "node:perf_hooks";
import type { Check } from "./contenders.js";

/** One input bound to the check of its type. */
export interface BoundCase {
  readonly check: Check;
  readonly value: unknown;
}

/** One contender over one input set. */
export interface Workload {
  readonly key: string;
  readonly cases: readonly BoundCase[];
}

export interface TimingOptions {
  readonly rounds: number;
  /** Wall time of one slice. */
  readonly sliceMs: number;
  /** Unrecorded warm-up slices per workload, before the rounds: this long each. */
  readonly warmupMs: number;
  /** CPU time each workload warms up at least. */
  readonly minWarmupMs: number;
  /** The most warm-up CPU time one workload gets. */
  readonly maxWarmupMs: number;
}

/** One workload in one round. */
export interface Slice {
  readonly opsPerCpuSecond: number;
  readonly opsPerWallSecond: number;
}

export interface RoundResults {
  /** Every round's slice, by workload key. */
  readonly slices: ReadonlyMap<string, readonly Slice[]>;
  /** CPU time over wall time of all recorded slices: below 1 when the process waited for a core. */
  readonly cpuShare: number;
  /** Accepted verdicts summed over every slice: printed, so the work is observable. */
  readonly sink: number;
  /** CPU time each workload took to become steady, by key. */
  readonly warmupMs: ReadonlyMap<string, number>;
}

/** `global.gc` when Node runs with `--expose-gc`. */
export const collectGarbage = (globalThis as { gc?: () => void }).gc;

export function runRounds(workloads: readonly Workload[], options: TimingOptions): RoundResults {
  let sink = 0;
  const warmup = new Map<string, number>();
  for (const w of workloads) {
    let spent = 0;
    let before = 0;
    for (let n = 1; ; n++) {
      const slice = runSlice(w.cases, options.warmupMs);
      sink += slice.accepted;
      spent += slice.cpuMs;
      const rate = slice.ops / slice.cpuMs;
      if ((n >= 3 && spent >= options.minWarmupMs && rate <= before * 1.05) || spent >= options.maxWarmupMs) break;
      before = rate;
    }
    warmup.set(w.key, spent);
  }
  const slices = new Map<string, Slice[]>(workloads.map((w) => [w.key, []]));
  let cpuMs = 0;
  let wallMs = 0;
  for (let round = 0; round < options.rounds; round++) {
    for (let i = 0; i < workloads.length; i++) {
      const w = workloads[(i + round) % workloads.length] as Workload;
      const slice = runSlice(w.cases, options.sliceMs);
      slices.get(w.key)?.push({
        opsPerCpuSecond: (slice.ops * 1000) / slice.cpuMs,
        opsPerWallSecond: (slice.ops * 1000) / slice.wallMs,
      });
      cpuMs += slice.cpuMs;
      wallMs += slice.wallMs;
      sink += slice.accepted;
    }
  }
  return { slices, cpuShare: cpuMs / wallMs, sink, warmupMs: warmup };
}

/** Runs whole passes over `cases` until `sliceMs` of wall time is spent. */
function runSlice(cases: readonly BoundCase[], sliceMs: number) {
  collectGarbage?.();
  let ops = 0;
  let accepted = 0;
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  const deadline = start + sliceMs;
  let now = start;
  do {
    for (let i = 0; i < cases.length; i++) {
      const c = cases[i] as BoundCase;
      if (c.check(c.value)) accepted++;
    }
    ops += cases.length;
    now = performance.now();
  } while (now < deadline && cases.length > 0);
  const cpu = process.cpuUsage(cpuStart);
  return { ops, accepted, wallMs: now - start, cpuMs: Math.max((cpu.user + cpu.system) / 1000, 1e-3) };
}
