/**
 * `npm run bench`: the generated draft validators against ajv, typia and the SDK's zod
 * schemas, plus the cost of generating them.
 *
 * Method
 * 1. Generation: our `generate()` (in `gen-child.js`) and typescript-json-schema run on the
 *    draft `schema.ts` as child processes, alternating, `--gen-runs` times each; median wall
 *    time, CPU time and peak RSS (`generation.ts`). Our last run's output is what gets
 *    benchmarked (or the committed `generated/draft` with `--committed`), transpiled and
 *    imported (`generated.ts`).
 *    typia's `createIs`/`createValidate` for every draft type are compiled in this process
 *    (`typia.ts`).
 * 2. Inputs: every upstream draft example, validated as the type its folder names (valid),
 *    and mutants of them that ajv rejects (invalid; `mutants.ts`).
 * 3. Correctness pre-check (`precheck.ts`): every contender's verdict on every input is
 *    compared with the expected one and disagreements are reported. Inputs on which ours
 *    or ajv answer wrongly are left out of the timed sets, for every contender alike. zod
 *    is timed on the inputs whose type the SDK has a schema for, wrong answers included.
 *    Mutants that ajv accepts are not timed, but ours must accept them too.
 * 4. Throughput: interleaved rounds of fixed time slices; median ops per CPU-second of this
 *    process (robust on a shared machine) and per wall-second (`timing.ts`). Ratios and
 *    targets use the CPU figures; one op is one validation call. Against typia the ratio is
 *    the median of the per-round ratios.
 * 4a. Ratios against typia in `--processes` fresh processes (`typia-ratios.ts`), one after
 *    another, on the same inputs: one process is one draw of the engine's optimisation
 *    decisions, so the typia targets take the median over processes.
 * 4b. Footprint (`footprint.ts`): both validator modules bundled and minified, gzip size;
 *    import + first pass in fresh processes.
 * 5. Dispatch (`dispatch.ts`): the generated dispatcher's `handle()` beside
 *    `@modelcontextprotocol/server`, requests per second on `tools/list` and `tools/call`, and
 *    legacy `tools/call` (2025-11-25, after `initialize`) on the dual-era dispatcher beside the
 *    SDK's legacy mode.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { buildMutants, loadExamples } from "./corpus.js";
import { ajvContender, generatedContenders, workload, zodContender, type Contender } from "./contenders.js";
import { benchDispatch, prepareDualEra } from "./dispatch.js";
import { bundleSize, coldStarts, writeInputs } from "./footprint.js";
import { codeSize, loadGenerated } from "./generated.js";
import { generateOnce, measureGeneration } from "./generation.js";
import { parseOptions, type BenchOptions } from "./options.js";
import { COMMITTED_DIR, DRAFT, SPEC_DIR, VERSION } from "./paths.js";
import { answersRight, malformedResults, verdicts } from "./precheck.js";
import * as print from "./sections.js";
import { median } from "./stats.js";
import { runRounds, type Slice } from "./timing.js";
import { buildTypia, typiaContenders } from "./typia.js";
import { medianRatios, typiaRatiosInProcesses } from "./typia-ratios.js";

const progress = (message: string) => process.stderr.write(`… ${message}\n`);

async function main(options: BenchOptions): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), "mcp-bench-"));
  const loadAtStart = loadavg()[0] ?? 0;
  try {
    print.header(options.committed);

    const full = options.only === "all";
    if (full) progress(`generation: ${options.genRuns} runs of each generator`);
    const generation = full ? await measureGeneration(SPEC_DIR, VERSION, DRAFT.schemaTs, tmp, options.genRuns) : undefined;
    const sourceDir = options.committed
      ? COMMITTED_DIR
      : (generation?.outDir ?? (await generateOnce(SPEC_DIR, VERSION, tmp)));
    const compiledDir = join(tmp, "compiled");
    const generated = await loadGenerated(sourceDir, compiledDir);

    progress("typia: compiling createIs/createValidate for every draft type");
    const typiaBuild = buildTypia(DRAFT.schemaTs);
    const typia = await typiaContenders(typiaBuild);

    progress("inputs and correctness pre-check");
    const { is, validate } = generatedContenders(generated);
    const ajv = ajvContender(DRAFT.schemaJson, false);
    const ajvAll = ajvContender(DRAFT.schemaJson, true);
    const zod = zodContender();
    const examples = loadExamples(DRAFT.examplesDir);
    const ajvRejects = (type: string, v: unknown) =>
      ajv.checkFor(type)?.(v) === false && ajvAll.checkFor(type)?.(v) === false;
    const mutants = buildMutants(examples, ajvRejects);
    const inputs = [...examples, ...mutants.rejected];
    print.inputs(examples, mutants.rejected, mutants.accepted.length);

    const core = [is, validate, ajv, ajvAll];
    const malformed = new Set(malformedResults(generated, inputs));
    const trusted = inputs.filter((c) => !malformed.has(c) && core.every((k) => answersRight(k.checkFor(c.type), c)));
    print.precheck(
      [...core, typia.is, typia.validate, zod].map((k) => verdicts(k, inputs)),
      inputs.length,
      [...malformed],
      trusted.length,
    );
    print.acceptedMutants(
      [is, validate].map((k) => verdicts(k, mutants.accepted)),
      mutants.accepted.length,
    );

    const sets = {
      valid: trusted.filter((c) => c.valid),
      invalid: trusted.filter((c) => !c.valid),
      sdkValid: trusted.filter((c) => c.valid && zod.checkFor(c.type)),
      sdkInvalid: trusted.filter((c) => !c.valid && zod.checkFor(c.type)),
    };
    const workloads = [
      ...[...core, typia.is, typia.validate].flatMap((k) => [
        workload(`valid:${k.name}`, k, sets.valid),
        workload(`invalid:${k.name}`, k, sets.invalid),
      ]),
      ...[...core, zod].flatMap((k) => [
        workload(`sdkValid:${k.name}`, k, sets.sdkValid),
        workload(`sdkInvalid:${k.name}`, k, sets.sdkInvalid),
      ]),
    ];
    progress(`timing: ${workloads.length} workloads × ${options.rounds} rounds × ${options.sliceMs} ms`);
    const timing = runRounds(workloads, options);

    const rounds = (k: Contender, set: string) => timing.slices.get(`${set}:${k.name}`) ?? [];
    const cpu = (k: Contender, set: string) => rounds(k, set).map((s: Slice) => s.opsPerCpuSecond);
    const wall = (k: Contender, set: string) => rounds(k, set).map((s: Slice) => s.opsPerWallSecond);
    const ajvBaseline = (k: Contender) => (k === is ? ajv : k === validate ? ajvAll : undefined);
    const sizes = (set: keyof typeof sets) => sets[set].length;

    print.throughputIntro(options, timing.cpuShare, timing.warmupMs);
    print.throughput("all draft types, ops per CPU-second", core, ["valid", "invalid"], sizes, ajvBaseline, cpu);
    print.throughput("all draft types, ops per wall-second", core, ["valid", "invalid"], sizes, ajvBaseline, wall);
    const typiaBaseline = (k: Contender) => (k === is ? typia.is : k === validate ? typia.validate : undefined);
    print.throughput(
      "all draft types, ops per CPU-second, ratios against typia (median of the per-round ratios)",
      [is, validate, typia.is, typia.validate],
      ["valid", "invalid"],
      sizes,
      typiaBaseline,
      cpu,
      "per-round",
    );
    print.throughput(
      `types the SDK has a zod schema for (${new Set(sets.sdkValid.map((c) => c.type)).size}), ops per CPU-second, ratios against zod`,
      [...core, zod],
      ["sdkValid", "sdkInvalid"],
      sizes,
      (k) => (k === zod ? undefined : zod),
      cpu,
    );

    const inThisProcess = (kind: Contender, base: Contender) => ({
      valid: print.perRoundRatio(cpu(kind, "valid"), cpu(base, "valid")),
      invalid: print.perRoundRatio(cpu(kind, "invalid"), cpu(base, "invalid")),
    });
    const thisProcess = { is: inThisProcess(is, typia.is), validate: inThisProcess(validate, typia.validate) };
    progress(`typia ratios: ${options.processes} fresh processes, one after another`);
    const timingOptions = { rounds: options.rounds, sliceMs: options.sliceMs, warmupMs: options.warmupMs, minWarmupMs: options.minWarmupMs, maxWarmupMs: options.maxWarmupMs };
    const perProcess = await typiaRatiosInProcesses({ compiledDir, typia: typiaBuild, timing: timingOptions }, sets, options.processes, tmp, (done) =>
      progress(`typia ratios: process ${done} of ${options.processes} done`),
    );
    const acrossProcesses = medianRatios(perProcess);
    print.typiaProcesses(thisProcess, perProcess, acrossProcesses);

    const files = codeSize(sourceDir);
    print.codeSize(files, options.committed ? "committed generated/draft" : "fresh generate() output, --docs tags");
    progress("footprint: bundle sizes and cold starts");
    const ourModule = join(compiledDir, "validators.js");
    const bundles = { ours: await bundleSize(ourModule), typia: await bundleSize(typiaBuild.modulePath) };
    const inputsFile = writeInputs([...sets.valid, ...sets.invalid], join(tmp, "inputs.json"));
    const [oursCold, typiaCold] = await coldStarts(
      [
        { path: ourModule, layout: "generated" },
        { path: typiaBuild.modulePath, layout: "typia" },
      ],
      inputsFile,
      options.genRuns,
    );
    if (!oursCold || !typiaCold) throw new Error("cold-start runs missing");
    const footprint = { bundles, cold: { ours: oursCold, typia: typiaCold } };
    print.footprint(footprint, sets.valid.length + sets.invalid.length, options.genRuns, typiaBuild);
    if (generation) print.generation(generation);

    const worst = (k: Contender, base: Contender, stat: (k: Contender, set: string) => number[]) =>
      Math.min(...(["valid", "invalid"] as const).map((set) => median(stat(k, set)) / median(stat(base, set))));
    print.targets(
      { cpu: worst(is, ajv, cpu), wall: worst(is, ajv, wall) },
      { cpu: worst(validate, ajvAll, cpu), wall: worst(validate, ajvAll, wall) },
      { ratios: acrossProcesses, processes: perProcess.length },
      generation,
      files,
      footprint,
    );
    if (!full) return print.footer(loadAtStart, loadavg()[0] ?? 0, timing.sink);

    progress("dispatch: generating the dual-era output (draft, 2025-11-25) for the legacy rows");
    const dual = prepareDualEra(tmp);
    progress(`dispatch: ${"failed" in dual ? 8 : 12} workloads × ${options.rounds} rounds × ${options.sliceMs} ms`);
    await benchDispatch(
      compiledDir,
      options.committed ? "committed generated/draft" : "fresh generate() output",
      options,
      dual,
    );
    print.footer(loadAtStart, loadavg()[0] ?? 0, timing.sink);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

try {
  await main(parseOptions(process.argv.slice(2)));
} catch (error) {
  console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
