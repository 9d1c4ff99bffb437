/**
 * Throughput measurement by interleaved rounds. In each round every workload (one
 * contender over one input set) runs for a fixed time slice, in an order rotated from
 * round to round, so drift (JIT tiers, GC, CPU frequency, neighbours) spreads over all
 * contenders alike. When Node runs with `--expose-gc` (as `npm run bench` does), a full
 * collection precedes every slice, so no workload pays for garbage another one left.
 * The reported figure is the median of the rounds' ops/s. One op is
 * one validation call; every verdict is counted into a sink that is printed, so the
 * JIT cannot drop the work.
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
  readonly sliceMs: number;
  /** Unrecorded warm-up slice per workload, before the rounds. */
  readonly warmupMs: number;
}

export interface RoundResults {
  /** ops/s of each workload in each round, by workload key. */
  readonly opsPerSecond: ReadonlyMap<string, readonly number[]>;
  /** Accepted verdicts summed over every slice: printed, so the work is observable. */
  readonly sink: number;
}

/** `global.gc` when Node runs with `--expose-gc`. */
export const collectGarbage = (globalThis as { gc?: () => void }).gc;

export function runRounds(workloads: readonly Workload[], options: TimingOptions): RoundResults {
  let sink = 0;
  for (const w of workloads) sink += runSlice(w.cases, options.warmupMs).accepted;
  const opsPerSecond = new Map<string, number[]>(workloads.map((w) => [w.key, []]));
  for (let round = 0; round < options.rounds; round++) {
    for (let i = 0; i < workloads.length; i++) {
      const w = workloads[(i + round) % workloads.length] as Workload;
      const slice = runSlice(w.cases, options.sliceMs);
      opsPerSecond.get(w.key)?.push(slice.opsPerSecond);
      sink += slice.accepted;
    }
  }
  return { opsPerSecond, sink };
}

/** Runs whole passes over `cases` until `sliceMs` is spent. */
function runSlice(cases: readonly BoundCase[], sliceMs: number): { opsPerSecond: number; accepted: number } {
  if (cases.length === 0) return { opsPerSecond: 0, accepted: 0 };
  collectGarbage?.();
  let ops = 0;
  let accepted = 0;
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
  } while (now < deadline);
  return { opsPerSecond: (ops * 1000) / (now - start), accepted };
}
