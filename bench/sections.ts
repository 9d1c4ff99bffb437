/** The sections of the benchmark's printout, in the order `run.ts` prints them. */
import { readFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import type { Case } from "./corpus.js";
import type { Contender } from "./contenders.js";
import type { BundleSize, ColdStart } from "./footprint.js";
import type { FileSize } from "./generated.js";
import type { GenerationReport } from "./generation.js";
import type { BenchOptions } from "./options.js";
import { SPEC_DIR, VERSION } from "./paths.js";
import type { Verdicts } from "./precheck.js";
import type { TypiaBuild } from "./typia.js";
import type { ProcessRatios } from "./typia-ratios.js";
import { bytes, int, mib, percent, ratio, seconds, table, verdict } from "./report.js";
import { median, spread } from "./stats.js";
import { collectGarbage } from "./timing.js";

/** The targets (issue 14 for typia, size, cold start and generation; the earlier ones against ajv). */
export const TARGETS = {
  isVsAjv: 4.5,
  validateVsAjvAll: 2,
  validatorsBytes: 220_000,
  isVsTypia: { valid: 1.25, invalid: 1.5 },
  validateVsTypia: { valid: 1.0, invalid: 2.5 },
  /** Our validators bundled (with the runtime helpers they import), minified, gzip -9. */
  minGzipBytes: 20 * 1024,
  /** Import + first pass in a fresh process. */
  coldMs: 10,
  /** Our generation wall time over typescript-json-schema's. */
  generationVsTjs: 0.75,
  peakRssKiB: 200 * 1024,
} as const;

/** Disagreements listed per contender (the rest are counted). */
const LIST_LIMIT = 8;

const out = (...lines: string[]) => console.log(lines.join("\n"));

export function header(committed: boolean): void {
  let commit = "unknown";
  try {
    commit = /^commit:\s*(\S+)/m.exec(readFileSync(join(SPEC_DIR, "SOURCE.txt"), "utf8"))?.[1]?.slice(0, 12) ?? commit;
  } catch {
    // SOURCE.txt is informative only
  }
  out(
    `mcp-schema-codegen benchmark: ${VERSION} schema, upstream commit ${commit}`,
    `Node ${process.version}, ${process.platform} ${process.arch}, ${cpus().length} × ${cpus()[0]?.model.trim() ?? "cpu"}`,
    `Validators: ${committed ? "committed generated/draft" : "fresh generate() output"} (transpiled, imported)`,
  );
}

export function inputs(examples: readonly Case[], mutants: readonly Case[], acceptedByAjv: number): void {
  const byKind = new Map<string, number>();
  for (const m of mutants) byKind.set(m.mutation ?? "?", (byKind.get(m.mutation ?? "?") ?? 0) + 1);
  const kinds = [...byKind].map(([kind, n]) => `${kind} ${n}`).join(", ");
  out(
    "",
    "Inputs",
    `  valid    ${examples.length} upstream examples of ${new Set(examples.map((c) => c.type)).size} types`,
    `  invalid  ${mutants.length} mutants that ajv rejects (${kinds})`,
    `           (${acceptedByAjv} more distinct mutants ajv accepts: checked below, not timed)`,
  );
}

export function precheck(all: readonly Verdicts[], total: number, malformed: readonly Case[], timed: number): void {
  out(
    "",
    "Correctness pre-check (expected: examples accepted, mutants rejected)",
    ...table([
      ["contender", "inputs covered", "valid rejected", "invalid accepted", "threw"],
      ...all.map((v) => [
        v.contender,
        `${v.covered}/${total}`,
        String(v.falseRejects.length),
        String(v.falseAccepts.length),
        String(v.threw.length),
      ]),
    ]),
    `  validateX results breaking the contract (ok:true with another value, or ok:false without issues): ${malformed.length}`,
  );
  for (const v of all) listWrong(v);
  for (const c of malformed.slice(0, LIST_LIMIT)) out(`  validateX malformed result: ${c.label}`);
  out(`  timed: ${timed} inputs (${total - timed} left out where generated or ajv answered wrongly)`);
}

/** Mutants that ajv accepts: still valid, so ours must accept them too. */
export function acceptedMutants(all: readonly Verdicts[], total: number): void {
  const counts = all
    .map((v) => `${v.contender} rejects ${v.falseRejects.length}, throws on ${v.threw.length}`)
    .join("; ");
  out(`  mutants ajv accepts (${total}): ${counts}`);
  for (const v of all) listWrong(v);
}

function listWrong(v: Verdicts): void {
  const wrong = [
    ...v.falseRejects.map((c) => `rejects valid   ${c.label}`),
    ...v.falseAccepts.map((c) => `accepts invalid ${c.label}`),
    ...v.threw.map((c) => `throws on       ${c.label}`),
  ];
  if (wrong.length === 0) return;
  out(`  ${v.contender}:`, ...wrong.slice(0, LIST_LIMIT).map((w) => `    ${w}`));
  if (wrong.length > LIST_LIMIT) out(`    … and ${wrong.length - LIST_LIMIT} more`);
}

export function throughputIntro(options: BenchOptions, cpuShare: number, warmupMs: ReadonlyMap<string, number>): void {
  const longest = [...warmupMs].sort((a, b) => b[1] - a[1]).slice(0, 4);
  out(
    "",
    `Throughput: median of ${options.rounds} interleaved rounds × ${options.sliceMs} ms; ± is half the max–min spread of the rounds`,
    `  warm-up: each workload alone, ${options.warmupMs} ms slices until ${seconds(options.minWarmupMs)} of CPU time are spent and a slice is`,
    `    no faster than 1.05× the one before (cap ${seconds(options.maxWarmupMs)}); longest (CPU): ${longest.map(([key, ms]) => `${key} ${seconds(ms)}`).join(", ")}`,
    `  full GC before each slice: ${collectGarbage ? "yes" : "no (run node with --expose-gc)"}`,
    `  CPU time / wall time of the slices: ${percent(cpuShare)} (over 100%: GC and compiler threads; under: waiting for a core)`,
  );
}

/** One throughput table: a row per contender, ops/s on the valid and the invalid set, ratios to a baseline. */
export function throughput<S extends string>(
  title: string,
  contenders: readonly Contender[],
  [validSet, invalidSet]: readonly [S, S],
  size: (set: S) => number,
  baseline: (k: Contender) => Contender | undefined,
  stat: (k: Contender, set: S) => number[],
  ratios: "of-medians" | "per-round" = "of-medians",
): void {
  const of = (a: readonly number[], b: readonly number[]) =>
    ratios === "per-round" ? perRoundRatio(a, b) : median(a) / median(b);
  const cell = (k: Contender, set: S) => {
    const rounds = stat(k, set);
    return [int(median(rounds)), `±${percent(spread(rounds) / 2)}`];
  };
  const rows = contenders.map((k) => {
    const base = baseline(k);
    const vs = (set: S) => (base ? `${ratio(of(stat(k, set), stat(base, set)))} ${shortName(base)}` : "");
    return [k.name, ...cell(k, validSet), ...cell(k, invalidSet), vs(validSet), vs(invalidSet)];
  });
  out(
    "",
    `  ${title}`,
    ...table([
      [
        "contender",
        `valid (${size(validSet)}) ops/s`,
        "",
        `invalid (${size(invalidSet)}) ops/s`,
        "",
        "ratio valid",
        "ratio invalid",
      ],
      ...rows,
    ]),
  );
}

/**
 * The median over rounds of one contender's figure divided by another's in the same round
 * (the slices of one round run back to back in this process, so the pair shares its drift).
 */
export function perRoundRatio(ours: readonly number[], base: readonly number[]): number {
  return median(ours.map((x, i) => x / (base[i] ?? Number.NaN)));
}

/** How ratios over `n` fresh processes are named: one process's own, or their median. */
function overProcesses(n: number): string {
  return n === 1 ? "1 process" : `median of ${n} processes`;
}

/**
 * Our ratios against typia in each fresh process of `typia-ratios.ts` and their median, beside
 * this process's (the table above): what the typia targets are judged on.
 */
export function typiaProcesses(thisProcess: TypiaRatios, processes: readonly ProcessRatios[], middle: TypiaRatios): void {
  const row = (label: string, r: TypiaRatios, share: string) => [label, ratio(r.is.valid), ratio(r.is.invalid), ratio(r.validate.valid), ratio(r.validate.invalid), share];
  out(
    "",
    `  ratios against typia in ${processes.length} fresh processes, one after another (each a median of per-round ratios, CPU time; one process is one draw of the engine's optimisation decisions)`,
    ...table(
      [
        ["process", "isX valid", "isX invalid", "validateX valid", "validateX invalid", "CPU/wall"],
        ...processes.map((p, i) => row(String(i + 1), p.ratios, percent(p.cpuShare))),
        row(overProcesses(processes.length), middle, ""),
        row("this process", thisProcess, ""),
      ],
    ),
  );
}

function shortName(k: Contender): string {
  if (k.name.startsWith("typia.is")) return "typia.is";
  if (k.name.startsWith("typia.validate")) return "typia.validate";
  if (k.name.startsWith("ajv (allErrors: true")) return "ajv-all";
  if (k.name.startsWith("ajv")) return "ajv";
  return k.name.split(" ")[0] ?? k.name;
}

export function codeSize(sizes: readonly FileSize[], source: string): void {
  const total = sizes.reduce((a, s) => ({ bytes: a.bytes + s.bytes, gzip: a.gzip + s.gzipBytes }), {
    bytes: 0,
    gzip: 0,
  });
  out(
    "",
    `Generated code (${source})`,
    ...table([
      ["file", "bytes", "gzip -9"],
      ...sizes.map((s) => [s.file, bytes(s.bytes), bytes(s.gzipBytes)]),
      ["total", bytes(total.bytes), bytes(total.gzip)],
    ]),
  );
}

/** Bundle sizes and cold starts of ours and typia's. */
export interface Footprint {
  readonly bundles: { readonly ours: BundleSize; readonly typia: BundleSize };
  readonly cold: { readonly ours: ColdStart; readonly typia: ColdStart };
}

export function footprint(f: Footprint, inputs: number, runs: number, typia: TypiaBuild): void {
  const ms = (n: number) => `${n.toFixed(1)} ms`;
  out(
    "",
    `Validator modules: bundled with what they import, minified (rolldown), gzip -9; cold start in a fresh process (median of ${runs})`,
    ...table([
      ["module", "minified", "min + gzip", "import", "first pass", "import + first pass"],
      ...(
        [
          ["generated validators.js", f.bundles.ours, f.cold.ours],
          [`typia ${typia.version} (${typia.types.length} types × createIs, createValidate)`, f.bundles.typia, f.cold.typia],
        ] as const
      ).map(([name, b, c]) => [
        name,
        bytes(b.minBytes),
        bytes(b.gzipBytes),
        ms(c.importMs),
        ms(c.firstPassMs),
        ms(c.importMs + c.firstPassMs),
      ]),
    ]),
    `  first pass: one is and one validate call on each of the ${inputs} timed inputs; typia built in ${seconds(typia.buildMs)} (createProgram + transform + emit)`,
  );
}

export function generation(g: GenerationReport): void {
  out(
    "",
    `Generation of the ${VERSION} schema (child processes, median of ${g.ours.runs} alternating runs each)`,
    ...table([
      ["tool", "wall", "CPU", "peak RSS"],
      ...[g.ours, g.tjs].map((t) => [t.tool, seconds(t.wallMs), seconds(t.cpuMs), mib(t.peakRssKiB)]),
    ]),
    `  ours: ${g.ours.command}; generate() alone ${seconds(g.ours.innerMs ?? 0)}`,
    `  tjs:  ${g.tjs.command}`,
  );
}

/** Worst-case (of valid and invalid) speed ratios. */
export interface Ratio {
  readonly cpu: number;
  readonly wall: number;
}

/** Our ratios against typia on each corpus (median of per-round ratios, CPU time; or the median of several processes' such ratios). */
export interface TypiaRatios {
  readonly is: { readonly valid: number; readonly invalid: number };
  readonly validate: { readonly valid: number; readonly invalid: number };
}

export function targets(
  is: Ratio,
  validate: Ratio,
  typia: { readonly ratios: TypiaRatios; readonly processes: number },
  g: GenerationReport | undefined,
  sizes: readonly FileSize[],
  f: Footprint,
): void {
  const validators = sizes.find((s) => s.file === "validators.ts")?.bytes ?? 0;
  const both = (r: Ratio) => `${ratio(r.cpu)} (wall ${ratio(r.wall)})`;
  const vsTypia = (name: "isX" | "validateX", fn: "is" | "validate", set: "valid" | "invalid") => {
    const target = (fn === "is" ? TARGETS.isVsTypia : TARGETS.validateVsTypia)[set];
    const got = typia.ratios[fn][set];
    return [verdict(got >= target), `${name} ≥ ${target}× typia.${fn}, ${set} corpus (${overProcesses(typia.processes)})`, ratio(got)];
  };
  const cold = f.cold.ours.importMs + f.cold.ours.firstPassMs;
  out(
    "",
    "Targets (speed on CPU time; against ajv the worse of valid and invalid)",
    ...table(
      [
        [verdict(is.cpu >= TARGETS.isVsAjv), `isX ≥ ${TARGETS.isVsAjv}× ajv (allErrors: false)`, both(is)],
        [
          verdict(validate.cpu >= TARGETS.validateVsAjvAll),
          `validateX ≥ ${TARGETS.validateVsAjvAll}× ajv (allErrors: true)`,
          both(validate),
        ],
        vsTypia("isX", "is", "valid"),
        vsTypia("isX", "is", "invalid"),
        vsTypia("validateX", "validate", "valid"),
        vsTypia("validateX", "validate", "invalid"),
        [
          verdict(f.bundles.ours.gzipBytes <= TARGETS.minGzipBytes),
          `validators min + gzip ≤ ${int(TARGETS.minGzipBytes)} B`,
          `${int(f.bundles.ours.gzipBytes)} B (typia ${int(f.bundles.typia.gzipBytes)} B)`,
        ],
        [
          verdict(cold <= TARGETS.coldMs),
          `import + first pass ≤ ${TARGETS.coldMs} ms`,
          `${cold.toFixed(1)} ms (typia ${(f.cold.typia.importMs + f.cold.typia.firstPassMs).toFixed(1)} ms)`,
        ],
        ...(g
          ? [
              [
                verdict(g.ours.wallMs <= TARGETS.generationVsTjs * g.tjs.wallMs),
                `generation wall time ≤ ${TARGETS.generationVsTjs}× typescript-json-schema's`,
                `${ratio(g.ours.wallMs / g.tjs.wallMs)}: ${seconds(g.ours.wallMs)} vs ${seconds(g.tjs.wallMs)} (CPU ${seconds(g.ours.cpuMs)} vs ${seconds(g.tjs.cpuMs)})`,
              ],
              [
                verdict(g.ours.peakRssKiB <= TARGETS.peakRssKiB),
                `generation peak RSS ≤ ${mib(TARGETS.peakRssKiB)}`,
                mib(g.ours.peakRssKiB),
              ],
            ]
          : []),
        [
          verdict(validators < TARGETS.validatorsBytes),
          `validators.ts < 220 KB (${int(TARGETS.validatorsBytes)} B)`,
          `${int(validators)} B`,
        ],
      ],
      "llr",
    ),
  );
}

export function footer(loadAtStart: number, loadAtEnd: number, sink: number): void {
  out(
    "",
    `Load average (1 min): ${loadAtStart.toFixed(2)} at start, ${loadAtEnd.toFixed(2)} at end, on ${cpus().length} cores.`,
    `(sink ${sink}: accepted verdicts summed over all slices, so no work is optimised away)`,
  );
}
