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
import { ajvOracle, readSchemaJson, type AjvOracle, type AjvVerdict } from "./support/ajv-oracle.js";
import { instanceArbitraries } from "./support/arbitrary.js";
import { corpusVersions, ROOT, scratchDir, typecheck, type CorpusVersion } from "./support/corpus.js";
import { applyPatch, loadIntendedDifferences, type IntendedDifference, type Verdict } from "./support/intended-differences.js";
import { mutants, type Json } from "./support/mutants.js";

/** Seed and runs per type of the generated instances; the environment may override them for a longer local run. */
const SEED = Number(process.env.UPSTREAM_SEED ?? 20260728);
const RUNS = Number(process.env.UPSTREAM_RUNS ?? 6);
/** At most this many failures are printed in full per test; the rest are counted. */
const SHOWN = 25;

const versions = corpusVersions();
const differences = loadIntendedDifferences(
  join(ROOT, "test", "intended-differences.json"),
  versions.map((v) => v.label),
);
/** How often each intended difference covered a disagreement, by `id@version`. */
const covered = new Map<string, number>();
/** Versions whose verdict tests ran to the end (only these are required to show every listed difference). */
const completed = new Set<string>();

type Validate = (v: unknown) => { ok: true; value: unknown } | { ok: false; issues: { path: string; message: string; keyword: string }[] };
type Is = (v: unknown) => boolean;

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

/** Compares our verdicts with ajv's and records every uncovered disagreement. */
class Comparison {
  checked = 0;
  /** Values ajv rejects: shows that the mutants do make invalid values. */
  rejectedByAjv = 0;
  disagreements = 0;
  readonly failures: string[] = [];
  private readonly patched = new Map<string, AjvOracle>();

  constructor(
    private readonly version: CorpusVersion,
    private readonly module: Record<string, unknown>,
    private readonly ajv: AjvOracle,
    private readonly schema: Record<string, unknown>,
  ) {}

  /**
   * Checks one value against `type`. `mustBeValid` adds that our validator must accept it
   * (examples and generated instances). Returns whether ours accepted it.
   */
  check(type: string, source: string, mutant: string, value: Json, mustBeValid: boolean): boolean {
    this.checked++;
    const validate = this.module[`validate${type}`] as Validate;
    const is = this.module[`is${type}`] as Is;
    let ours: ReturnType<Validate>;
    let isResult: boolean;
    try {
      ours = validate(value);
      isResult = is(value);
    } catch (error) {
      this.fail(type, source, mutant, value, `a validator threw: ${String(error)}`);
      return false;
    }
    const ajv = this.ajv.validate(type, value);
    if (!ajv.valid) this.rejectedByAjv++;
    const problems: string[] = [];
    if (isResult !== ours.ok) problems.push(`is${type} → ${isResult} but validate${type}.ok → ${ours.ok}`);
    if (!ours.ok) {
      const stray = ours.issues.filter((i) => !pointsInto(value, i.path));
      if (ours.issues.length === 0 || stray.length > 0)
        problems.push(`validate${type} rejected with issues whose path is not in the value: ${JSON.stringify(ours.issues.length === 0 ? [] : stray)}`);
    }
    if (mustBeValid && !ours.ok) problems.push("a valid instance was rejected by ours");
    if (ours.ok !== ajv.valid) {
      this.disagreements++;
      const explained = this.explain(type, value, ajv.valid, ours.ok);
      if (explained) covered.set(`${explained.id}@${this.version.label}`, (covered.get(`${explained.id}@${this.version.label}`) ?? 0) + 1);
      else problems.push("verdicts differ and no intended difference covers it");
    }
    if (problems.length > 0) {
      const issues = ours.ok ? [] : ours.issues.slice(0, 3).map((i) => `${i.path || "(root)"} ${i.keyword}: ${i.message}`);
      this.fail(type, source, mutant, value, [
        ...problems,
        `ajv (${this.ajv.dialect}): ${verdictOf(ajv.valid)}${describeAjvErrors(ajv)}`,
        `ours: ${verdictOf(ours.ok)}${issues.length > 0 ? ` — ${issues.join("; ")}` : ""}`,
      ].join("\n    "));
    }
    return ours.ok;
  }

  private explain(type: string, value: Json, ajvValid: boolean, oursValid: boolean): IntendedDifference | undefined {
    return differences.find((d) => {
      if (!d.versions.includes(this.version.label)) return false;
      if (d.types && !d.types.includes(type)) return false;
      if (d.ajv !== verdictOf(ajvValid) || d.ours !== verdictOf(oursValid)) return false;
      return this.patchedOracle(d).validate(type, value).valid === oursValid;
    });
  }

  private patchedOracle(d: IntendedDifference): AjvOracle {
    let oracle = this.patched.get(d.id);
    if (!oracle) {
      oracle = ajvOracle(applyPatch(this.schema, d.schemaPatch));
      this.patched.set(d.id, oracle);
    }
    return oracle;
  }

  private fail(type: string, source: string, mutant: string, value: Json, detail: string): void {
    this.failures.push(
      `[${this.version.label}] ${type} — ${source} — ${mutant}\n    ${detail}\n    value: ${truncate(JSON.stringify(value), 400)}`,
    );
  }

  /** The failures as the assertion shows them: the first few in full, then a count. */
  report(): string[] {
    const shown = this.failures.slice(0, SHOWN);
    if (this.failures.length > SHOWN) shown.push(`… and ${this.failures.length - SHOWN} more failures`);
    return shown;
  }
}

/**
 * Whether an issue's JSON Pointer names a place in `value`: every token but the last
 * must exist; the last may be missing (a required property).
 */
function pointsInto(value: Json, path: string): boolean {
  if (path === "") return true;
  if (!path.startsWith("/")) return false;
  const tokens = path
    .slice(1)
    .split("/")
    .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
  let node: Json = value;
  for (const [i, token] of tokens.entries()) {
    const last = i === tokens.length - 1;
    if (Array.isArray(node)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token)) return false;
      if (Number(token) >= node.length) return last;
      node = node[Number(token)] as Json;
    } else if (typeof node === "object" && node !== null) {
      if (!Object.prototype.hasOwnProperty.call(node, token)) return last;
      node = node[token] as Json;
    } else {
      return false;
    }
  }
  return true;
}

function verdictOf(valid: boolean): Verdict {
  return valid ? "accepts" : "rejects";
}

function describeAjvErrors(v: AjvVerdict): string {
  const first = v.errors[0];
  return first ? ` — ${first.instancePath || "(root)"} ${first.message ?? first.keyword} (${first.schemaPath})` : "";
}

function truncate(s: string, n: number): string {
  return s.length <= n ? s : s.slice(0, n) + `… (${s.length} chars)`;
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
    const comparisonFor = (g: Generated) => (comparison ??= new Comparison(version, g.module, ajvOracle(schema), schema));

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
  it("every listed difference patches its versions' schema.json cleanly", () => {
    const problems: string[] = [];
    for (const d of differences) {
      for (const label of d.versions) {
        const version = versions.find((v) => v.label === label) as CorpusVersion;
        try {
          applyPatch(readSchemaJson(version.schemaJson), d.schemaPatch);
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
