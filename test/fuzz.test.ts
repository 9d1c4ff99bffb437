/**
 * Property-based differential fuzz, every corpus version (see `support/fuzz.ts`):
 * instances generated from the IR must be valid for our `isX`/`validateX` and for ajv on
 * the version's `schema.json`; their mutants (typed: dropped required properties, `null`
 * where not allowed, broken discriminants, format probes, bounds, type changes; plus a
 * sample of the structural mutants of `support/mutants.ts`) must get ajv's verdict,
 * outside `intended-differences.json`.
 *
 * Sizes:
 * - in `npm test` (CI): a fixed seed and {@link CI_CASES} cases per version;
 * - `npm run fuzz` (nightly): `FUZZ_MODE=nightly`, at least 100 000 cases per version and
 *   a random seed, printed;
 * - `FUZZ_RUNS` (cases per version) and `FUZZ_SEED` override either; `FUZZ_VERSIONS`
 *   (comma-separated labels) narrows the versions; `FUZZ_REPLAY=<version>:<type>:<seed>:<path>`
 *   replays one run as a failure prints it, then shrinks it.
 */
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generate, type GenerateResult } from "../generator/index.js";
import { ajvOracle, readSchemaJson, type AjvOracle } from "./support/ajv-oracle.js";
import { annotatedArbitraries, type AnnotatedArbitraries } from "./support/arbitrary.js";
import { Comparison } from "./support/comparison.js";
import { corpusVersions, ROOT, type CorpusVersion, writeGenerated } from "./support/corpus.js";
import { fuzzInput, fuzzVersion, replayRun, seedFor, type FuzzCounts, type FuzzInput } from "./support/fuzz.js";
import { loadIntendedDifferences } from "./support/intended-differences.js";
import { FORMAT_PROBES, NO_MEMBER, siteMutants, type Json } from "./support/mutants.js";
import fc from "fast-check";

/** Cases per version in the CI form. */
const CI_CASES = 5_000;
/** The CI form's fixed seed. */
const CI_SEED = 20260728;
const NIGHTLY = process.env.FUZZ_MODE === "nightly";
const CASES = intEnv("FUZZ_RUNS") ?? (NIGHTLY ? 100_000 : CI_CASES);
const SEED = (intEnv("FUZZ_SEED") ?? (NIGHTLY ? Math.random() * 2 ** 32 : CI_SEED)) | 0;
const GENERIC = intEnv("FUZZ_GENERIC") ?? 8;
const REPLAY = process.env.FUZZ_REPLAY;
const ONLY = process.env.FUZZ_VERSIONS?.split(",").map((s) => s.trim());
/** A whole version's fuzz may take minutes at nightly size: no per-test limit worth hitting. */
const TIMEOUT = Math.max(120_000, CASES * 20);

function intEnv(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return undefined;
  if (!/^-?[0-9]+$/.test(raw)) throw new Error(`${name} must be an integer, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

const allVersions = corpusVersions();
const versions = allVersions.filter((v) => !ONLY || ONLY.includes(v.label));
const differences = loadIntendedDifferences(
  join(ROOT, "test", "intended-differences.json"),
  allVersions.map((v) => v.label),
);

interface Setup {
  readonly result: GenerateResult;
  readonly module: Record<string, unknown>;
  readonly types: readonly string[];
  readonly arbitraries: AnnotatedArbitraries;
  readonly comparison: () => Comparison;
}

/** Generation into `test/.tmp/fuzz-<label>`, once per version. */
function setupOf(version: CorpusVersion): () => Promise<Setup> {
  let promise: Promise<Setup> | undefined;
  return () =>
    (promise ??= (async () => {
      const result = await generate({ schema: { path: version.schemaTs }, docs: "tags" });
      const dir = writeGenerated(`fuzz-${version.label}`, result.files);
      const module = (await import(join(dir, "validators.ts"))) as Record<string, unknown>;
      const types = result.ir.declarations.filter((d) => d.kind !== "const").map((d) => d.name);
      const schema = readSchemaJson(version.schemaJson);
      const listed = differences.filter((d) => d.versions.includes(version.label));
      let ajv: AjvOracle | undefined;
      const comparison = () => new Comparison(version.label, module, (ajv ??= ajvOracle(schema)), schema, listed);
      return { result, module, types, arbitraries: annotatedArbitraries(result.ir, { maxUnnamedKeys: 2 }), comparison };
    })());
}

/** Per version: counts, disagreements and time, for the closing totals. */
const totals: { label: string; counts: FuzzCounts; ms: number; rejected: number; disagreements: number; failures: number }[] = [];
/** How often each intended difference covered a disagreement, by `id@version`. */
const covered = new Map<string, number>();
/** Versions whose fuzz ran to the end. */
const completed = new Set<string>();

console.log(
  `fuzz: ${NIGHTLY ? "nightly" : "CI"} size, seed ${SEED}${process.env.FUZZ_SEED ? " (FUZZ_SEED)" : NIGHTLY ? " (random; replay with FUZZ_SEED)" : " (fixed)"}, ` +
    `at least ${CASES} cases per version, ${GENERIC} structural mutants per instance besides the typed ones`,
);

if (REPLAY !== undefined) {
  // fast-check paths are themselves colon-separated ("0:1:1:2" after shrinking): the rest is the path.
  const [label, type, seed, ...pathParts] = REPLAY.split(":");
  const path = pathParts.length > 0 ? pathParts.join(":") : undefined;
  const version = allVersions.find((v) => v.label === label);
  describe(`fuzz replay ${REPLAY}`, () => {
    it("replays the run and shrinks it", async () => {
      if (!version || !type || seed === undefined || path === undefined) throw new Error("FUZZ_REPLAY must be <version>:<type>:<seed>:<path>");
      const s = await setupOf(version)();
      const r = replayRun(label as string, type, s.arbitraries, s.comparison, Number(seed), path, GENERIC);
      console.log(`instance: ${JSON.stringify(r.input[0].value)}\npicks: ${JSON.stringify(r.input[1])}\njudged: ${r.comparison.checked}`);
      if (r.shrunk) console.log(`shrunk (path "${r.shrunk.path}"): ${JSON.stringify(r.shrunk.input[0].value)}\n${r.shrunk.failures.join("\n")}`);
      expect(r.comparison.report()).toEqual([]);
    });
  });
} else {
  for (const version of versions) {
    describe(`fuzz ${version.label}`, () => {
      const setup = setupOf(version);
      it(`generated instances and their mutants get ajv's verdict (${CASES}+ cases, seed ${SEED})`, { timeout: TIMEOUT }, async () => {
        const s = await setup();
        const c = s.comparison();
        const started = performance.now();
        const counts = fuzzVersion(version.label, s.types, s.arbitraries, c, { cases: CASES, seed: SEED, genericPerInstance: GENERIC });
        const ms = performance.now() - started;
        const intended = [...c.covered.values()].reduce((a, b) => a + b, 0);
        const families = [...counts.byFamily].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, n]) => `${k} ${n}`).join(", ");
        console.log(
          `[${version.label}] fuzz seed ${SEED}: ${counts.instances} instances of ${s.types.length} types + ${counts.mutants} mutants = ` +
            `${counts.instances + counts.mutants} cases in ${counts.rounds} round(s), ${(ms / 1000).toFixed(1)} s; ` +
            `${c.rejectedByAjv} rejected by ajv, ${c.disagreements} disagreements (${intended} intended, ${c.disagreements - intended} not), ` +
            `${c.failures.length} failures\n  mutants by family: ${families}`,
        );
        for (const [i, f] of c.failures.entries()) console.log(`FUZZ FAILURE ${f.text}\n    whole value: ${JSON.stringify(counts.failedValues.get(i))}`);
        for (const [ids, n] of c.covered) for (const id of ids.split("+")) covered.set(`${id}@${version.label}`, (covered.get(`${id}@${version.label}`) ?? 0) + n);
        totals.push({ label: version.label, counts, ms, rejected: c.rejectedByAjv, disagreements: c.disagreements, failures: c.failures.length });
        completed.add(version.label);
        expect(counts.instances + counts.mutants).toBeGreaterThanOrEqual(CASES);
        expect(c.report()).toEqual([]);
      });
    });
  }

  describe("intended differences", () => {
    it("every listed difference covered at least one disagreement of the fuzz in each of its versions", () => {
      // It reads what the version runs above recorded: alone (say under a -t filter) it has nothing to judge.
      expect(completed.size, "no fuzz run of any version completed before this test").toBeGreaterThan(0);
      const unused: string[] = [];
      for (const d of differences) {
        const counts = d.versions.filter((v) => completed.has(v)).map((v) => [v, covered.get(`${d.id}@${v}`) ?? 0] as const);
        console.log(`intended difference ${d.id}: ${counts.map(([v, n]) => `${v} ${n}`).join(", ")}`);
        for (const [v, n] of counts) if (n === 0) unused.push(`${d.id}@${v}`);
      }
      expect(unused).toEqual([]);
    });
  });
}

describe("fuzz machinery", () => {
  const fixture = `
export type JSONValue = string | number | boolean | null | JSONObject | JSONValue[];
export interface JSONObject { [key: string]: JSONValue }
export interface Text {
  type: "text";
  text: string;
  /** @format uri */
  uri?: string;
}
export interface Image {
  type: "image";
  /** @format byte */
  data: string;
  /**
   * @TJS-type number
   * @minimum 0
   * @maximum 1
   */
  priority?: number;
}
export type Block = Text | Image;
export interface Message {
  jsonrpc: "2.0";
  id: string | number;
  /** @maxItems 2 */
  content: Block[];
  meta?: { [key: string]: string };
  extra: JSONValue;
  count: number;
}
`;
  let fixtureModule: Promise<{ module: Record<string, unknown>; arbitraries: AnnotatedArbitraries }> | undefined;
  const loadFixture = () =>
    (fixtureModule ??= (async () => {
      const result = await generate({ schema: { text: fixture, fileName: "schema.ts" } });
      const dir = writeGenerated("fuzz-fixture", result.files);
      const module = (await import(join(dir, "validators.ts"))) as Record<string, unknown>;
      return { module, arbitraries: annotatedArbitraries(result.ir, { maxUnnamedKeys: 2 }) };
    })());

  it("annotated instances carry their sites: required, no-null, discriminants, formats, numbers, arrays, index signatures", async () => {
    const { arbitraries } = await loadFixture();
    let discriminants = 0;
    for (const { value, sites } of fc.sample(arbitraries.of("Message"), { seed: SEED, numRuns: 100 })) {
      const at = (kind: string) => sites.filter((s) => s.kind === kind).map((s) => "/" + s.path.join("/"));
      expect(at("required")).toEqual(expect.arrayContaining(["/jsonrpc", "/id", "/content", "/extra", "/count"]));
      // `extra` is a JSONValue, which admits null: no null mutant there; the root, `count` and `content` have none.
      expect(at("no-null")).toEqual(expect.arrayContaining(["/", "/jsonrpc", "/id", "/content", "/count"]));
      expect(at("no-null")).not.toContain("/extra");
      expect(at("array")).toContain("/content");
      expect(at("number")).toContain("/count");
      const content = (value as { content: { type: string }[] }).content;
      for (const [i, block] of content.entries()) {
        const site = sites.find((s) => s.kind === "discriminant" && s.path.join("/") === `content/${i}/type`);
        expect(site).toMatchObject({ value: block.type, others: [block.type === "text" ? "image" : "text"] });
        discriminants++;
        if (block.type === "image") expect(at("format")).toContain(`/content/${i}/data`);
      }
      if ("meta" in (value as object)) expect(sites).toContainEqual({ kind: "index", path: ["meta"], valueAcceptsNull: false });
    }
    expect(discriminants).toBeGreaterThan(20);
  });

  it("typed mutants break what they say: each invalid family is rejected, boundaries are accepted", async () => {
    const { module, arbitraries } = await loadFixture();
    const validate = module.validateMessage as (v: unknown) => { ok: boolean };
    const invalid = ["drop-required", "null", "break-discriminant", "append-null", "index-null", "fraction", "below-minimum", "above-maximum", "over-maxItems"];
    const valid = ["at-minimum", "at-maximum", "at-maxItems"];
    const seen = new Set<string>();
    for (const { value, sites } of fc.sample(arbitraries.of("Message"), { seed: SEED, numRuns: 200 })) {
      expect(validate(value).ok).toBe(true);
      for (const m of siteMutants(value, sites, 0)) {
        const family = m.kind.split(" ")[0] as string;
        seen.add(family);
        if (invalid.includes(family)) expect({ m: m.description, ok: validate(m.value).ok }).toEqual({ m: m.description, ok: false });
        if (valid.includes(family)) expect({ m: m.description, ok: validate(m.value).ok }).toEqual({ m: m.description, ok: true });
      }
    }
    // A change of JSON type may be valid (`id: string | number`), so only its presence is checked.
    expect([...seen].sort()).toEqual(expect.arrayContaining([...invalid, ...valid, "swap-discriminant", "format-probe", "literal", "retype"]));
    const fixed = siteMutants({ type: "text", text: "t" }, [{ kind: "discriminant", path: ["type"], value: "text", others: ["image"] }], 0);
    expect(fixed.map((m) => m.description)).toEqual(
      expect.arrayContaining([`break-discriminant /type "text"→"${NO_MEMBER}"`, 'swap-discriminant /type "text"→"image"']),
    );
    const probes = siteMutants({ u: "x:y" }, [{ kind: "format", path: ["u"], format: "uri" }], 0, { uri: ["noise:1"] });
    expect(probes.filter((m) => m.kind.startsWith("format-probe")).length).toBe((FORMAT_PROBES.uri as string[]).length);
    expect(probes.map((m) => m.description)).toContain('format-noise /u uri →"noise:1"');
  });
});

/** Fixed values for each class of disagreement the fuzz has found; see `intended-differences.json`. */
const REGRESSIONS: readonly { readonly versions: readonly string[]; readonly type: string; readonly value: Json; readonly ajv: boolean; readonly ours: boolean; readonly coveredBy?: string }[] = [
  // ajv-formats reads `scheme:/` + an authority: an IP-literal after one slash (RFC 3986 has none).
  { versions: ["2024-11-05", "draft"], type: "Resource", value: { uri: "http:/[d:796::7:1:847a]/~2?#", name: "r" }, ajv: true, ours: false, coveredBy: "uri-single-slash-ip-literal" },
  { versions: ["2025-03-26", "2026-07-13-draft"], type: "Resource", value: { uri: "urn:/[v8.$:1]:/.*&?c", name: "r" }, ajv: true, ours: false, coveredBy: "uri-single-slash-ip-literal" },
];

describe("fuzz regressions: each failure class the fuzz found, as a fixed value", () => {
  for (const r of REGRESSIONS) {
    for (const label of r.versions) {
      const version = allVersions.find((v) => v.label === label) as CorpusVersion;
      it(`${label} ${r.type} ${JSON.stringify(r.value)}: ajv ${r.ajv ? "accepts" : "rejects"}, ours ${r.ours ? "accepts" : "rejects"}${r.coveredBy ? `, covered by ${r.coveredBy}` : ""}`, async () => {
        const s = await setupOf(version)();
        const c = s.comparison();
        const ours = c.check(r.type, "regression", { description: "fixed value", kind: "fixed value" }, r.value, false);
        expect(ours).toBe(r.ours);
        expect(c.disagreements).toBe(r.ajv === r.ours ? 0 : 1);
        expect(c.report()).toEqual([]);
        if (r.coveredBy) expect([...c.covered.keys()]).toEqual([r.coveredBy]);
      });
    }
  }
});

describe("fuzz replay", () => {
  const version = allVersions.find((v) => v.label === "draft") as CorpusVersion;
  it("the seed and path printed with a run replay that run's input exactly", async () => {
    const s = await setupOf(version)();
    const type = "CallToolRequest";
    const seed = seedFor(CI_SEED, version.label, type, 0);
    const inputs: FuzzInput[] = [];
    fc.check(fc.property(fuzzInput(s.arbitraries, type, GENERIC), (input) => (inputs.push(input), true)), { seed, numRuns: 6 });
    const r = replayRun(version.label, type, s.arbitraries, s.comparison, seed, "4", GENERIC);
    expect(r.input).toEqual(inputs[4]);
    expect(r.input).not.toEqual(inputs[3]);
    expect(r.comparison.checked).toBeGreaterThan(1);
    expect(r.shrunk).toBeUndefined();
  });

  it("a wrong validator is caught, named with its seed and path, and shrunk", async () => {
    const s = await setupOf(version)();
    // Our draft validators, except that one accepts everything.
    const broken = { ...s.module, validateTextContent: (v: unknown) => ({ ok: true, value: v }), isTextContent: () => true };
    const schema = readSchemaJson(version.schemaJson);
    const listed = differences.filter((d) => d.versions.includes(version.label));
    const make = () => new Comparison(version.label, broken, ajvOracle(schema), schema, listed);
    const c = make();
    const counts = fuzzVersion(version.label, ["TextContent"], s.arbitraries, c, { cases: 50, seed: CI_SEED, genericPerInstance: GENERIC });
    expect(c.failures.length).toBeGreaterThan(0);
    // Every failure keeps its whole value, and ajv rejects each (ours, broken, accepts all).
    expect(counts.failedValues.size).toBe(c.failures.length);
    for (const v of counts.failedValues.values()) expect(ajvOracle(schema).validate("TextContent", v).valid).toBe(false);
    const text = (c.failures[0] as { text: string }).text;
    const m = /FUZZ_REPLAY=draft:TextContent:(-?[0-9]+):([0-9]+)/.exec(text);
    expect(m, text).not.toBeNull();
    expect(text).toMatch(/ajv \(2020-12\): rejects/);
    expect(text).toMatch(/ours: accepts/);
    const [, seed, path] = m as unknown as [string, string, string];
    const r = replayRun(version.label, "TextContent", s.arbitraries, make, Number(seed), path, GENERIC);
    expect(r.comparison.failures.length).toBeGreaterThan(0);
    expect(r.shrunk?.failures.length).toBeGreaterThan(0);
    expect(JSON.stringify(r.shrunk?.input[0].value).length).toBeLessThanOrEqual(JSON.stringify(r.input[0].value).length);
  });
});

afterAll(() => {
  if (totals.length === 0) return;
  const instances = totals.reduce((a, t) => a + t.counts.instances, 0);
  const mutants = totals.reduce((a, t) => a + t.counts.mutants, 0);
  const ms = totals.reduce((a, t) => a + t.ms, 0);
  const lines = totals.map(
    (t) =>
      `  ${t.label.padEnd(17)} ${String(t.counts.instances).padStart(8)} instances ${String(t.counts.mutants).padStart(9)} mutants ` +
      `${String(t.counts.instances + t.counts.mutants).padStart(9)} cases ${(t.ms / 1000).toFixed(1).padStart(6)} s  ` +
      `${t.rejected} rejected by ajv, ${t.disagreements} disagreements, ${t.failures} failures`,
  );
  console.log(
    [
      `fuzz totals (seed ${SEED}${NIGHTLY ? ", nightly" : ", CI"}; replay all with FUZZ_SEED=${SEED}${NIGHTLY ? " npm run fuzz" : ""}):`,
      ...lines,
      `  ${"total".padEnd(17)} ${String(instances).padStart(8)} instances ${String(mutants).padStart(9)} mutants ${String(instances + mutants).padStart(9)} cases ${(ms / 1000).toFixed(1).padStart(6)} s`,
    ].join("\n"),
  );
});
