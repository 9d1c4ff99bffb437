/**
 * `npm run bench`: the generated draft validators against ajv and the SDK's zod schemas,
 * plus the cost of generating them.
 *
 * Method
 * 1. Generation: our `generate()` (in `gen-child.js`) and typescript-json-schema run on the
 *    draft `schema.ts` as child processes, alternating, `--gen-runs` times each; median wall
 *    time and peak RSS (`generation.ts`). Our last run's output is what gets benchmarked
 *    (or the committed `generated/draft` with `--committed`), transpiled and imported.
 * 2. Inputs: every upstream draft example, validated as the type its folder names (valid),
 *    and mutants of them that ajv rejects (invalid; `mutants.ts`).
 * 3. Correctness pre-check: every contender's verdict on every input is compared with the
 *    expected one and disagreements are reported. Inputs on which ours or ajv answer
 *    wrongly are left out of the timed sets (for every contender alike). zod is timed on
 *    the inputs whose type the SDK has a schema for, wrong answers included, and its
 *    counts are printed.
 * 4. Throughput: interleaved rounds of fixed time slices, median ops/s (`timing.ts`).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { buildMutants, loadExamples, type Case } from "./corpus.js";
import { ajvContender, generatedContenders, zodContender, type Contender } from "./contenders.js";
import { codeSize, loadGenerated, type FileSize } from "./generated.js";
import { measureGeneration, type GenerationReport } from "./generation.js";
import { parseOptions, type BenchOptions } from "./options.js";
import { COMMITTED_DIR, DRAFT, SPEC_DIR, VERSION } from "./paths.js";
import { answersRight, malformedResults, verdicts, type Verdicts } from "./precheck.js";
import { bytes, int, mib, percent, ratio, seconds, table, verdict } from "./report.js";
import { median, spread } from "./stats.js";
import { collectGarbage, runRounds, type BoundCase, type RoundResults, type Workload } from "./timing.js";

/** The targets. */
const TARGETS = { isVsAjv: 4.5, validateVsAjvAll: 2, validatorsBytes: 220_000 } as const;

/** Disagreements listed per contender (the rest are counted). */
const LIST_LIMIT = 8;

const print = (...lines: string[]) => console.log(lines.join("\n"));
const progress = (message: string) => process.stderr.write(`… ${message}\n`);

async function main(options: BenchOptions): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), "mcp-bench-"));
  const loadAtStart = loadavg()[0] ?? 0;
  try {
    printHeader(options);

    progress(`generation: ${options.genRuns} runs of each generator`);
    const generation = await measureGeneration(SPEC_DIR, VERSION, DRAFT.schemaTs, tmp, options.genRuns);
    const sourceDir = options.committed ? COMMITTED_DIR : generation.outDir;
    const generated = await loadGenerated(sourceDir, join(tmp, "compiled"));

    progress("inputs and correctness pre-check");
    const { is, validate } = generatedContenders(generated);
    const ajv = ajvContender(DRAFT.schemaJson, false);
    const ajvAll = ajvContender(DRAFT.schemaJson, true);
    const zod = zodContender();
    const examples = loadExamples(DRAFT.examplesDir);
    const mutants = buildMutants(examples, (type, v) => ajv.checkFor(type)?.(v) === false && ajvAll.checkFor(type)?.(v) === false);
    const inputs = [...examples, ...mutants.kept];
    printInputs(examples, mutants.kept, mutants.made);

    const core = [is, validate, ajv, ajvAll];
    const malformed = new Set(malformedResults(generated, inputs));
    const trusted = inputs.filter((c) => !malformed.has(c) && core.every((k) => answersRight(k.checkFor(c.type), c)));
    printPrecheck([...core, zod].map((k) => verdicts(k, inputs)), inputs.length, [...malformed], trusted);

    const sets = {
      valid: trusted.filter((c) => c.valid),
      invalid: trusted.filter((c) => !c.valid),
      sdkValid: trusted.filter((c) => c.valid && zod.checkFor(c.type)),
      sdkInvalid: trusted.filter((c) => !c.valid && zod.checkFor(c.type)),
    };
    const workloads = [
      ...core.flatMap((k) => [workload(k, "valid", sets.valid), workload(k, "invalid", sets.invalid)]),
      ...[...core, zod].flatMap((k) => [workload(k, "sdkValid", sets.sdkValid), workload(k, "sdkInvalid", sets.sdkInvalid)]),
    ];
    progress(`timing: ${workloads.length} workloads × ${options.rounds} rounds × ${options.sliceMs} ms`);
    const timing = runRounds(workloads, options);

    const ops = (k: Contender, set: keyof typeof sets) => median(timing.opsPerSecond.get(`${set}:${k.name}`) ?? [0]);
    const ajvBaseline = (k: Contender) => (k === is ? ajv : k === validate ? ajvAll : undefined);
    printThroughput(options, timing, core, ["valid", "invalid"], sets, ajvBaseline, ops);
    print("", `  On the inputs whose type the SDK has a zod schema for (${countTypes(sets.sdkValid)} types):`);
    printThroughput(options, timing, [...core, zod], ["sdkValid", "sdkInvalid"], sets, () => zod, ops);
    print("  ratios: against zod. zod's verdicts on these inputs are in the pre-check above.");

    const sizes = codeSize(sourceDir);
    printCodeSize(sizes, options.committed ? "committed generated/draft" : "fresh generate() output, --docs tags");
    printGeneration(generation);
    const isRatio = Math.min(ops(is, "valid") / ops(ajv, "valid"), ops(is, "invalid") / ops(ajv, "invalid"));
    const validateRatio = Math.min(
      ops(validate, "valid") / ops(ajvAll, "valid"),
      ops(validate, "invalid") / ops(ajvAll, "invalid"),
    );
    printTargets(isRatio, validateRatio, generation, sizes);
    print(
      "",
      `Load average (1 min) at start ${loadAtStart.toFixed(2)}, at end ${loadavg()[0]?.toFixed(2) ?? "?"}: other work on the machine shows as spread.`,
      `(sink ${timing.sink}: accepted verdicts summed over all slices, so no work is optimised away)`,
    );
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** One contender over one input set, every input bound to the contender's check for its type. */
function workload(contender: Contender, set: string, cases: readonly Case[]): Workload {
  const bound: BoundCase[] = cases.map((c) => {
    const check = contender.checkFor(c.type);
    if (!check) throw new Error(`${contender.name} has no check for ${c.type}`);
    return { check, value: c.value };
  });
  return { key: `${set}:${contender.name}`, cases: bound };
}

function countTypes(cases: readonly Case[]): number {
  return new Set(cases.map((c) => c.type)).size;
}

function printHeader(options: BenchOptions): void {
  const commit = /^commit:\s*(\S+)/m.exec(readFileSync(join(SPEC_DIR, "SOURCE.txt"), "utf8"))?.[1] ?? "unknown";
  print(
    `mcp-schema-codegen benchmark: ${VERSION} schema, upstream commit ${commit.slice(0, 12)}`,
    `Node ${process.version}, ${process.platform} ${process.arch}, ${cpus().length} × ${cpus()[0]?.model.trim() ?? "cpu"}`,
    `Validators: ${options.committed ? "committed generated/draft" : "fresh generate() output"} (transpiled, imported)`,
  );
}

function printInputs(examples: readonly Case[], mutants: readonly Case[], made: number): void {
  const byKind = new Map<string, number>();
  for (const m of mutants) byKind.set(m.mutation ?? "?", (byKind.get(m.mutation ?? "?") ?? 0) + 1);
  const kinds = [...byKind].map(([kind, n]) => `${kind} ${n}`).join(", ");
  print(
    "",
    "Inputs",
    `  valid    ${examples.length} upstream examples of ${countTypes(examples)} types`,
    `  invalid  ${mutants.length} mutants that ajv rejects, of ${made} distinct mutants made (${kinds})`,
  );
}

function printPrecheck(all: readonly Verdicts[], total: number, malformed: readonly Case[], trusted: readonly Case[]): void {
  const rows = all.map((v) => [
    v.contender,
    `${v.covered}/${total}`,
    String(v.falseRejects.length),
    String(v.falseAccepts.length),
    String(v.threw.length),
  ]);
  print(
    "",
    "Correctness pre-check (expected: examples accepted, mutants rejected)",
    ...table([["contender", "inputs covered", "valid rejected", "invalid accepted", "threw"], ...rows]),
    `  validateX results breaking the contract (ok:true with another value, or ok:false without issues): ${malformed.length}`,
  );
  for (const v of all) {
    const wrong = [
      ...v.falseRejects.map((c) => `rejects valid   ${c.label}`),
      ...v.falseAccepts.map((c) => `accepts invalid ${c.label}`),
      ...v.threw.map((c) => `throws on       ${c.label}`),
    ];
    if (wrong.length === 0) continue;
    print(`  ${v.contender}:`, ...wrong.slice(0, LIST_LIMIT).map((w) => `    ${w}`));
    if (wrong.length > LIST_LIMIT) print(`    … and ${wrong.length - LIST_LIMIT} more`);
  }
  for (const c of malformed.slice(0, LIST_LIMIT)) print(`  validateX malformed result: ${c.label}`);
  const left = total - trusted.length;
  print(`  timed: ${trusted.length} inputs (${left} left out where generated or ajv answered wrongly)`);
}

function printThroughput<S extends string>(
  options: BenchOptions,
  timing: RoundResults,
  contenders: readonly Contender[],
  [validSet, invalidSet]: readonly [S, S],
  sets: Readonly<Record<S, readonly Case[]>>,
  baseline: (k: Contender) => Contender | undefined,
  ops: (k: Contender, set: S) => number,
): void {
  const cell = (k: Contender, set: S) => {
    const rounds = timing.opsPerSecond.get(`${set}:${k.name}`) ?? [0];
    return [int(median(rounds)), `±${percent(spread(rounds) / 2)}`];
  };
  const rows = contenders.map((k) => {
    const base = baseline(k);
    const vs = (set: S) => (!base || base === k ? "" : `${ratio(ops(k, set) / ops(base, set))} ${shortName(base)}`);
    return [k.name, ...cell(k, validSet), ...cell(k, invalidSet), vs(validSet), vs(invalidSet)];
  });
  if (validSet === "valid") {
    print(
      "",
      `Throughput: median ops/s of ${options.rounds} interleaved rounds × ${options.sliceMs} ms (± half the max–min spread)`,
      `  full GC before each slice: ${collectGarbage ? "yes" : "no (run node with --expose-gc)"}`,
    );
  }
  print(
    ...table([
      [
        "contender",
        `valid (${sets[validSet].length}) ops/s`,
        "",
        `invalid (${sets[invalidSet].length}) ops/s`,
        "",
        "ratio valid",
        "ratio invalid",
      ],
      ...rows,
    ]),
  );
  if (validSet === "valid") print("  ratios: isX vs ajv allErrors:false, validateX vs ajv allErrors:true.");
}

function shortName(k: Contender): string {
  return k.name.startsWith("ajv (allErrors: true") ? "ajv-all" : k.name.startsWith("ajv") ? "ajv" : k.name.split(" ")[0] ?? k.name;
}

function printCodeSize(sizes: readonly FileSize[], source: string): void {
  const total = sizes.reduce((a, s) => ({ bytes: a.bytes + s.bytes, gzip: a.gzip + s.gzipBytes }), { bytes: 0, gzip: 0 });
  print(
    "",
    `Generated code (${source})`,
    ...table([
      ["file", "bytes", "gzip -9"],
      ...sizes.map((s) => [s.file, bytes(s.bytes), bytes(s.gzipBytes)]),
      ["total", bytes(total.bytes), bytes(total.gzip)],
    ]),
  );
}

function printGeneration(g: GenerationReport): void {
  print(
    "",
    `Generation of the ${VERSION} schema (child processes, median of ${g.ours.runs} alternating runs each)`,
    ...table([
      ["tool", "wall", "peak RSS"],
      [g.ours.tool, seconds(g.ours.wallMs), mib(g.ours.peakRssKiB)],
      [g.tjs.tool, seconds(g.tjs.wallMs), mib(g.tjs.peakRssKiB)],
    ]),
    `  ours: ${g.ours.command}; generate() alone ${seconds(g.ours.innerMs ?? 0)}`,
    `  tjs:  ${g.tjs.command}`,
  );
}

function printTargets(isRatio: number, validateRatio: number, g: GenerationReport, sizes: readonly FileSize[]): void {
  const validators = sizes.find((s) => s.file === "validators.ts")?.bytes ?? 0;
  print(
    "",
    "Targets (ratios: the worse of valid and invalid)",
    ...table([
      [verdict(isRatio >= TARGETS.isVsAjv), `isX ≥ ${TARGETS.isVsAjv}× ajv (allErrors: false)`, ratio(isRatio)],
      [
        verdict(validateRatio >= TARGETS.validateVsAjvAll),
        `validateX ≥ ${TARGETS.validateVsAjvAll}× ajv (allErrors: true)`,
        ratio(validateRatio),
      ],
      [
        verdict(g.ours.wallMs <= g.tjs.wallMs),
        "generation no slower than typescript-json-schema",
        `${seconds(g.ours.wallMs)} vs ${seconds(g.tjs.wallMs)}`,
      ],
      [
        verdict(validators < TARGETS.validatorsBytes),
        `validators.ts < 220 KB (${int(TARGETS.validatorsBytes)} B)`,
        `${int(validators)} B`,
      ],
    ], "llr"),
  );
}

await main(parseOptions(process.argv.slice(2)));
