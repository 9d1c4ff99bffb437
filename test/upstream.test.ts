/**
 * Upstream corpus suite: for every spec version of the corpus, generate (`--docs tags`),
 * type-check the output strictly, and compare our validators' verdicts with ajv's on the
 * version's published `schema.json`:
 *
 * - every upstream example (`examples/<Type>/*.json`) is valid for `validate<Type>`;
 * - on every example and every mutant of it (see `support/mutants.ts`), `validateX(v).ok`
 *   equals ajv's verdict, and `isX(v)` equals `validateX(v).ok`;
 * - the same for instances generated from the IR (`support/arbitrary.ts`, fixed seed),
 *   which must also be valid themselves.
 *
 * A disagreement fails the suite unless `intended-differences.json` covers it (see
 * `support/intended-differences.ts` for the exact rule).
 */
import fc from "fast-check";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generate, type Declaration, type GenerateResult } from "../generator/index.js";
import { ajvOracle, readSchemaJson } from "./support/ajv-oracle.js";
import { instanceArbitraries } from "./support/arbitrary.js";
import { corpusVersions, ROOT, scratchDir, typecheck, type CorpusVersion } from "./support/corpus.js";
import { Comparison } from "./support/comparison.js";
import { changedOracle, loadIntendedDifferences } from "./support/intended-differences.js";
import { mutants, type Json } from "./support/mutants.js";

/** Seed and runs per type of the generated instances; the environment may override them for a longer local run. */
const SEED = Number(process.env.UPSTREAM_SEED ?? 20260728);
const RUNS = Number(process.env.UPSTREAM_RUNS ?? 6);

const versions = corpusVersions();
const differences = loadIntendedDifferences(
  join(ROOT, "test", "intended-differences.json"),
  versions.map((v) => v.label),
);
/** How often each intended difference covered a disagreement, by `id@version`. */
const covered = new Map<string, number>();
/** Versions whose verdict tests ran to the end (only these are required to show every listed difference). */
const completed = new Set<string>();

interface Generated {
  readonly result: GenerateResult;
  readonly dir: string;
  readonly module: Record<string, unknown>;
  /** Declarations that get validators (everything but constants), in source order. */
  readonly types: readonly Declaration[];
}

/** Generation, once per version, shared by the tests of that version. */
function generated(version: CorpusVersion): () => Promise<Generated> {
  let promise: Promise<Generated> | undefined;
  return () =>
    (promise ??= (async () => {
      const result = await generate({ schema: { path: version.schemaTs }, docs: "tags" });
      const dir = scratchDir(`upstream-${version.label}`);
      for (const file of result.files) writeFileSync(join(dir, file.path), file.contents);
      const module = (await import(join(dir, "validators.ts"))) as Record<string, unknown>;
      const types = result.ir.declarations.filter((d) => d.kind !== "const");
      return { result, dir, module, types };
    })());
}

/** Adds a comparison's coverage counts to {@link covered}. */
function recordCoverage(label: string, c: Comparison): void {
  for (const [ids, n] of c.covered) {
    for (const id of ids.split("+")) covered.set(`${id}@${label}`, (covered.get(`${id}@${label}`) ?? 0) + n);
  }
  c.covered.clear();
}

/** Examples of a version: `{ type, file, value }`, sorted by type then file. */
function examplesOf(version: CorpusVersion): { type: string; file: string; value: Json }[] {
  const dir = version.examplesDir;
  if (!dir) return [];
  const out: { type: string; file: string; value: Json }[] = [];
  for (const type of readdirSync(dir).sort()) {
    for (const file of readdirSync(join(dir, type)).filter((f) => f.endsWith(".json")).sort()) {
      out.push({ type, file: `examples/${type}/${file}`, value: JSON.parse(readFileSync(join(dir, type, file), "utf8")) as Json });
    }
  }
  return out;
}

for (const version of versions) {
  describe(`upstream ${version.label}`, () => {
    const setup = generated(version);
    const schema = readSchemaJson(version.schemaJson);
    const examples = examplesOf(version);
    let comparison: Comparison | undefined;
    const listed = differences.filter((d) => d.versions.includes(version.label));
    const comparisonFor = (g: Generated) =>
      (comparison ??= new Comparison(version.label, g.module, ajvOracle(schema), schema, listed));

    it("generates with --docs tags: validate/is/validatorsByType for every declaration, as in schema.json", async () => {
      const g = await setup();
      expect(g.result.files.map((f) => f.path)).toEqual(expect.arrayContaining(["types.ts", "validators.ts"]));
      const byType = g.module.validatorsByType as Record<string, unknown>;
      const missing: string[] = [];
      for (const d of g.types) {
        if (typeof g.module[`validate${d.name}`] !== "function") missing.push(`validate${d.name}`);
        if (typeof g.module[`is${d.name}`] !== "function") missing.push(`is${d.name}`);
        if (byType[d.name] !== g.module[`validate${d.name}`]) missing.push(`validatorsByType.${d.name}`);
      }
      expect(missing).toEqual([]);
      // ajv and we must talk about the same types, or the comparison below would skip some.
      expect(g.types.map((d) => d.name).sort()).toEqual([...ajvOracle(schema).definitions].sort());
    });

    it("type-checks (strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess)", async () => {
      const g = await setup();
      expect(typecheck(g.dir)).toEqual([]);
    });

    it.runIf(examples.length > 0)(`every example (${examples.length}) is valid, and it and its mutants get ajv's verdict`, async () => {
      const g = await setup();
      const c = comparisonFor(g);
      const declared = new Set(g.types.map((d) => d.name));
      const unknownTypes = [...new Set(examples.map((e) => e.type))].filter((t) => !declared.has(t));
      expect(unknownTypes, "example folders naming no declared type").toEqual([]);
      const before = c.checked;
      const rejectedBefore = c.rejectedByAjv;
      let mutantCount = 0;
      for (const example of examples) {
        c.check(example.type, example.file, "unmodified", example.value, true);
        for (const m of mutants(example.value)) {
          c.check(example.type, example.file, m.description, m.value, false);
          mutantCount++;
        }
      }
      recordCoverage(version.label, c);
      console.log(
        `[${version.label}] examples: ${examples.length} checked, ${mutantCount} mutants checked, ` +
          `${c.rejectedByAjv - rejectedBefore} rejected by ajv, ${c.disagreements} disagreements (${c.failures.length} not covered)`,
      );
      expect(c.report()).toEqual([]);
    });

    it(`generated instances (seed ${SEED}, ${RUNS} per type) are valid, and they and their mutants get ajv's verdict`, async () => {
      const g = await setup();
      const c = comparisonFor(g);
      const arbitraries = instanceArbitraries(g.result.ir);
      const failuresBefore = c.failures.length;
      const disagreementsBefore = c.disagreements;
      const rejectedBefore = c.rejectedByAjv;
      let instances = 0;
      let mutantCount = 0;
      for (const [i, d] of g.types.entries()) {
        const values = fc.sample(arbitraries.of(d.name), { seed: SEED + i, numRuns: RUNS });
        for (const [run, value] of values.entries()) {
          const source = `generated #${run} (seed ${SEED + i})`;
          c.check(d.name, source, "unmodified", value, true);
          instances++;
          for (const m of mutants(value)) {
            c.check(d.name, source, m.description, m.value, false);
            mutantCount++;
          }
        }
      }
      completed.add(version.label);
      recordCoverage(version.label, c);
      console.log(
        `[${version.label}] generated: ${instances} instances of ${g.types.length} types, ${mutantCount} mutants checked, ` +
          `${c.rejectedByAjv - rejectedBefore} rejected by ajv, ` +
          `${c.disagreements - disagreementsBefore} disagreements (${c.failures.length - failuresBefore} not covered)`,
      );
      expect(c.report()).toEqual([]);
    });
  });
}

describe("intended differences", () => {
  it("every listed difference applies to its versions' schema.json (patch tests hold, formats are used)", () => {
    const problems: string[] = [];
    for (const d of differences) {
      for (const label of d.versions) {
        const version = versions.find((v) => v.label === label) as CorpusVersion;
        try {
          const schema = readSchemaJson(version.schemaJson);
          changedOracle(schema, [d]);
          if (d.format && !JSON.stringify(schema).includes(`"format":${JSON.stringify(d.format.name)}`))
            throw new Error(`schema.json uses no format ${d.format.name}`);
        } catch (error) {
          problems.push(`${d.id}@${label}: ${String(error)}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("every listed difference covered at least one disagreement in each of its versions", () => {
    const counts = differences.flatMap((d) =>
      d.versions.filter((v) => completed.has(v)).map((v) => `${d.id}@${v}: ${covered.get(`${d.id}@${v}`) ?? 0}`),
    );
    console.log(`intended differences covered: ${counts.join(", ")}`);
    expect(counts.filter((line) => line.endsWith(": 0"))).toEqual([]);
  });
});
