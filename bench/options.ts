/** Command-line options of `npm run bench -- [options]`. */
import { parseArgs } from "node:util";

export interface BenchOptions {
  /** Interleaved timing rounds; the median is reported. */
  readonly rounds: number;
  /** Time slice of one workload in one round. */
  readonly sliceMs: number;
  /** Unrecorded warm-up slices per workload, until steady (see `timing.ts`). */
  readonly warmupMs: number;
  /** Least warm-up CPU time per workload. */
  readonly minWarmupMs: number;
  /** Cap on one workload's warm-up CPU time. */
  readonly maxWarmupMs: number;
  /** Child-process runs of each generator. */
  readonly genRuns: number;
  /** Fresh processes the ratios against typia are measured in (`typia-ratios.ts`); the targets take their median. */
  readonly processes: number;
  /** Benchmark the committed `generated/draft` instead of a fresh `generate()` output. */
  readonly committed: boolean;
  /**
   * `all` (default) or `validators`: the validator sections only (inputs, pre-check,
   * throughput, footprint, targets), over one untimed `generate()` run (or the committed
   * output with `--committed`); no generation timing, no dispatch.
   */
  readonly only: "all" | "validators";
}

const USAGE = "usage: npm run bench -- [--rounds 9] [--slice-ms 200] [--warmup-ms 200] [--min-warmup-ms 4000] [--max-warmup-ms 12000] [--gen-runs 5] [--processes 5] [--committed] [--only validators]";

export function parseOptions(argv: readonly string[]): BenchOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      rounds: { type: "string", default: "9" },
      "slice-ms": { type: "string", default: "200" },
      "warmup-ms": { type: "string", default: "200" },
      "min-warmup-ms": { type: "string", default: "4000" },
      "max-warmup-ms": { type: "string", default: "12000" },
      "gen-runs": { type: "string", default: "5" },
      processes: { type: "string", default: "5" },
      committed: { type: "boolean", default: false },
      only: { type: "string", default: "all" },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  return {
    rounds: positive("rounds", values.rounds),
    sliceMs: positive("slice-ms", values["slice-ms"]),
    warmupMs: positive("warmup-ms", values["warmup-ms"]),
    minWarmupMs: positive("min-warmup-ms", values["min-warmup-ms"]),
    maxWarmupMs: positive("max-warmup-ms", values["max-warmup-ms"]),
    genRuns: positive("gen-runs", values["gen-runs"]),
    processes: positive("processes", values.processes),
    committed: values.committed,
    only: section(values.only),
  };
}

function positive(name: string, text: string): number {
  const n = Number(text);
  if (!/^[0-9]+$/.test(text) || n < 1)
    throw new Error(`--${name} must be a positive integer, got ${JSON.stringify(text)}\n${USAGE}`);
  return n;
}

function section(text: string): BenchOptions["only"] {
  if (text === "all" || text === "validators") return text;
  throw new Error(`--only must be all or validators, got ${JSON.stringify(text)}\n${USAGE}`);
}
