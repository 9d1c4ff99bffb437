/**
 * Upstream corpus suite: for every spec version of the corpus, generate (`--docs tags`),
 * type-check the output strictly, and compare our validators' verdicts with ajv's on the
 * version's published `schema.json`:
 *
 * - every upstream example (`examples/<Type>/*.json`) is valid for `validate<Type>`;
 * - on every example and every mutant of it (see `support/mutants.ts`), `validateX(v).ok`
 *   equals ajv's verdict, and `isX(v)` equals `validateX(v).ok`.
 *
 * Instances generated from the IR (`support/arbitrary.ts`) and their mutants are the
 * differential fuzz's (`fuzz.test.ts`), for every version; so is the check that each
 * intended difference still covers a disagreement.
 *
 * A disagreement fails the suite unless `intended-differences.json` covers it (see
 * `support/intended-differences.ts` for the exact rule).
 */
import fc from "fast-check";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generate, type Declaration, type GenerateResult } from "../generator/index.js";
import { ajvOracle, readSchemaJson, type AjvOracle } from "./support/ajv-oracle.js";
import { instanceArbitraries } from "./support/arbitrary.js";
import { readExamples } from "./support/examples.js";
import { corpusVersions, ROOT, typecheck, type CorpusVersion, writeGenerated } from "./support/corpus.js";
import { Comparison } from "./support/comparison.js";
import { changedOracle, loadIntendedDifferences } from "./support/intended-differences.js";
import { mutants, type Json } from "./support/mutants.js";

/** Seed of the arbitrary's own tests below. */
const SEED = 20260728;

const versions = corpusVersions();
const differences = loadIntendedDifferences(
  join(ROOT, "test", "intended-differences.json"),
  versions.map((v) => v.label),
);

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
      const dir = writeGenerated(`upstream-${version.label}`, result.files);
      const module = (await import(join(dir, "validators.ts"))) as Record<string, unknown>;
      const types = result.ir.declarations.filter((d) => d.kind !== "const");
      return { result, dir, module, types };
    })());
}

for (const version of versions) {
  describe(`upstream ${version.label}`, () => {
    const setup = generated(version);
    const schema = readSchemaJson(version.schemaJson);
    const examples = version.examplesDir ? readExamples(version.examplesDir) : [];
    const listed = differences.filter((d) => d.versions.includes(version.label));
    let ajv: AjvOracle | undefined;
    /** A fresh comparison per test (so each reports its own failures), sharing one compiled ajv. */
    const comparison = (g: Generated) => new Comparison(version.label, g.module, (ajv ??= ajvOracle(schema)), schema, listed);

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
      // ajv and we must talk about the same types, or the comparisons below would skip some.
      expect(g.types.map((d) => d.name).sort()).toEqual([...ajvOracle(schema).definitions].sort());
    });

    it("type-checks (strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess)", async () => {
      const g = await setup();
      expect(typecheck(g.dir)).toEqual([]);
    });

    // Versions without examples are covered by the fuzz's generated instances (fuzz.test.ts).
    if (examples.length > 0) it(`every example (${examples.length}) is valid, and it and its mutants get ajv's verdict`, async () => {
      const g = await setup();
      const c = comparison(g);
      const declared = new Set(g.types.map((d) => d.name));
      const unknownTypes = [...new Set(examples.map((e) => e.type))].filter((t) => !declared.has(t));
      expect(unknownTypes, "example folders naming no declared type").toEqual([]);
      let mutantCount = 0;
      for (const example of examples) mutantCount += checkWithMutants(c, example.type, example.file, example.value);
      console.log(`[${version.label}] examples: ${examples.length} checked, ${mutantCount} mutants checked, ${describeCounts(c)}`);
      expect(c.report()).toEqual([]);
    });
  });
}

const UNMODIFIED = { description: "unmodified", kind: "unmodified" };

/** Checks a valid value and every mutant of it; returns how many mutants there were. */
function checkWithMutants(c: Comparison, type: string, source: string, value: Json): number {
  c.check(type, source, UNMODIFIED, value, true);
  let count = 0;
  for (const m of mutants(value)) {
    c.check(type, source, m, m.value, false);
    count++;
  }
  return count;
}

function describeCounts(c: Comparison): string {
  const covered = [...c.covered.values()].reduce((a, b) => a + b, 0);
  return (
    `${c.rejectedByAjv} rejected by ajv, ${c.disagreements} disagreements with ajv ` +
    `(${covered} intended, ${c.disagreements - covered} not covered), ${c.failures.length} failures`
  );
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
});

describe("test support", () => {
  it("mutants: every kind at every depth, sharing nothing mutable with the original", () => {
    const original: Json = { a: { b: 1 }, c: ["x"] };
    const before = JSON.stringify(original);
    const all = [...mutants(original)];
    const byDescription = new Map(all.map((m) => [m.description, m.value]));
    expect(byDescription.get("delete /a/b")).toEqual({ a: {}, c: ["x"] });
    expect(byDescription.get("delete-item /c/0")).toEqual({ a: { b: 1 }, c: [] });
    expect(byDescription.get("retype /a/b integer→null")).toEqual({ a: { b: null }, c: ["x"] });
    expect(byDescription.get("retype /a/b integer→1.5")).toEqual({ a: { b: 1.5 }, c: ["x"] });
    expect(byDescription.get("retype /c array→{}")).toEqual({ a: { b: 1 }, c: {} });
    expect(byDescription.get('probe /c/0 →"urn:"')).toEqual({ a: { b: 1 }, c: ["urn:"] });
    expect(byDescription.get('extra /a "x-extra": {}')).toEqual({ a: { b: 1, "x-extra": {} }, c: ["x"] });
    expect((byDescription.get("grow /c to 101 items") as { c: Json[] }).c).toHaveLength(101);
    expect(byDescription.has("retype /a/b integer→7")).toBe(true);
    expect(byDescription.has("retype /c/0 string→\"s\"")).toBe(false);
    const proto = byDescription.get('extra /a "__proto__": "s"') as { a: object };
    expect(Object.getPrototypeOf(proto.a)).toBe(Object.prototype);
    expect(Object.keys(proto.a)).toEqual(["b", "__proto__"]);
    expect(JSON.stringify(original)).toBe(before);
    const rpc = [...mutants({ jsonrpc: "2.0", id: 1, method: "ping" })].map((m) => m.description);
    expect(rpc).toEqual(expect.arrayContaining(["set (root) id: null", 'set (root) jsonrpc: "1.0"', "set (root) jsonrpc: 2"]));
  });

  it("arbitrary: recursion terminates, constraints and unions hold", async () => {
    const text = `
export type List = { head: string; tail: List } | null;
export interface Tree {
  children: Tree[];
  /**
   * @minimum 2
   * @maximum 5
   */
  size: number;
}
export interface Score {
  /**
   * @TJS-type number
   * @minimum 0
   * @maximum 1
   */
  p: number;
  /**
   * @format uri
   */
  u: string;
  tags?: string[];
}
`;
    const { ir } = await generate({ schema: { text, fileName: "schema.ts" }, targets: ["types"] });
    const arbitraries = instanceArbitraries(ir, { maxRefDepth: 3 });
    const depth = (v: Json): number => (Array.isArray(v) ? 1 + Math.max(0, ...v.map(depth)) : v !== null && typeof v === "object" ? 1 + Math.max(0, ...Object.values(v).map(depth)) : 0);
    // The declaration itself, then 3 references followed freely, then only terminating values
    // (here: an object whose tail can only be null).
    const lengths = fc.sample(arbitraries.of("List"), { seed: SEED, numRuns: 200 }).map((list) => {
      let node = list as { head: string; tail: Json } | null;
      let length = 0;
      for (; node !== null; length++) {
        expect(typeof node.head).toBe("string");
        node = node.tail as typeof node;
      }
      return length;
    });
    expect(Math.max(...lengths)).toBe(4);
    expect(Math.min(...lengths)).toBe(0);
    for (const tree of fc.sample(arbitraries.of("Tree"), { seed: SEED, numRuns: 200 })) {
      expect(depth(tree)).toBeLessThanOrEqual(2 * 4);
      const sizes = JSON.stringify(tree).match(/"size":-?[0-9.e+]+/g) ?? [];
      for (const s of sizes) expect([2, 3, 4, 5]).toContain(Number(s.slice(7)));
    }
    for (const score of fc.sample(arbitraries.of("Score"), { seed: SEED, numRuns: 200 })) {
      const { p, u } = score as { p: number; u: string };
      expect(p >= 0 && p <= 1).toBe(true);
      expect(u).toMatch(/^[A-Za-z][A-Za-z0-9+.-]*:/);
      expect(JSON.parse(JSON.stringify(score))).toEqual(score);
    }
  });
});
