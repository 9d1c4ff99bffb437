/**
 * Test support: the property-based differential fuzz (`test/fuzz.test.ts`, `npm run fuzz`).
 *
 * For one spec version: per exported type, fast-check draws valid instances from the IR
 * (`arbitrary.ts`, annotated with their sites) and a few numbers (`picks`); each run
 * judges, with {@link Comparison} (ours against ajv on the version's `schema.json`):
 *
 * 1. the instance itself, which must be valid;
 * 2. every typed mutant of it (`siteMutants`: drop a required property, `null` where
 *    the type has none, break or swap a union's discriminant, change a literal, probe
 *    each `@format`, number bounds and fractions, `@maxItems`, a JSON type change per node);
 * 3. `genericPerInstance` of the exhaustive structural mutants of `mutants.ts`, chosen
 *    by the picks.
 *
 * A property run never fails: every disagreement is recorded (the fuzz goes on to find
 * the others) with the seed and path of its run, which replay it exactly: run `i` of
 * `fc.check(property, { seed })` is `fc.check(property, { seed, path: String(i) })`,
 * and `FUZZ_REPLAY=<version>:<type>:<seed>:<path>` does that, then shrinks it.
 *
 * Runs come in rounds until the version has judged at least `cases` values; each
 * (version, type, round) has its own seed, derived from the base seed, so one base seed
 * replays the whole fuzz.
 */
import fc from "fast-check";
import { FORMAT_NOISE, type Annotated, type AnnotatedArbitraries } from "./arbitrary.js";
import type { Comparison } from "./comparison.js";
import { mutantPlan, siteMutants, type Json, type Mutant } from "./mutants.js";

export interface FuzzSettings {
  /** Cases (instances + mutants judged) to reach per version, at least. */
  readonly cases: number;
  /** The base seed (a 32-bit integer). */
  readonly seed: number;
  /** Structural mutants judged per instance, besides the typed ones. */
  readonly genericPerInstance: number;
}

/** What a version's fuzz judged. */
export interface FuzzCounts {
  instances: number;
  mutants: number;
  rounds: number;
  /** fast-check runs per type (summed over rounds). */
  readonly runsByType: Map<string, number>;
  /** Mutants judged, by family (`drop-required`, `null`, `retype`, …; structural ones as `structural:<kind>`). */
  readonly byFamily: Map<string, number>;
  /** The whole value of each failure, by its index in the comparison's `failures` (their text shortens it). */
  readonly failedValues: Map<number, Json>;
}

/**
 * The fast-check input of one run: an annotated instance, the picks that choose
 * mutants, and random strings near each format to put where that format is expected.
 */
export type FuzzInput = readonly [Annotated, readonly number[], Readonly<Record<string, readonly string[]>>];

/** Random strings per format judged at each place of that format, per run. */
const NOISE_PER_FORMAT = 2;

/** The arbitrary of a type's fuzz inputs. */
export function fuzzInput(arbitraries: AnnotatedArbitraries, type: string, genericPerInstance: number): fc.Arbitrary<FuzzInput> {
  const noise = fc.record(
    Object.fromEntries(Object.entries(FORMAT_NOISE).map(([format, arb]) => [format, fc.array(arb, { minLength: NOISE_PER_FORMAT, maxLength: NOISE_PER_FORMAT })])),
    { noNullPrototype: true },
  ) as fc.Arbitrary<Record<string, string[]>>;
  return fc.tuple(arbitraries.of(type), fc.array(fc.nat(), { minLength: genericPerInstance + 1, maxLength: genericPerInstance + 1 }), noise);
}

/** The seed of one (version, type, round), derived from the base seed: a 32-bit FNV-1a mix. */
export function seedFor(base: number, label: string, type: string, round: number): number {
  let h = 0x811c9dc5 ^ (base | 0);
  for (const ch of `${label}\u0000${type}\u0000${round}`) {
    h ^= ch.codePointAt(0) as number;
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}

/** How a run is named in messages, with what replays it. */
export function runSource(label: string, type: string, seed: number, path: string): string {
  return `fc seed ${seed} path "${path}" (replay: FUZZ_REPLAY=${label}:${type}:${seed}:${path})`;
}

/**
 * Judges one run's instance and mutants; returns the mutants judged (the instance is
 * one more case). `onMutant` sees each, for counting.
 */
export function judge(
  c: Comparison,
  type: string,
  source: string,
  input: FuzzInput,
  genericPerInstance: number,
  onMutant?: (family: string) => void,
  failedValues?: Map<number, Json>,
): number {
  const [{ value, sites }, picks, noise] = input;
  const checkOne = (m: Pick<Mutant, "description" | "kind">, v: Json, mustBeValid: boolean) => {
    const before = c.failures.length;
    c.check(type, source, m, v, mustBeValid);
    for (let i = before; i < c.failures.length; i++) failedValues?.set(i, v);
  };
  checkOne({ description: "unmodified", kind: "unmodified" }, value, true);
  let count = 0;
  const check = (m: Mutant, family: string) => {
    checkOne(m, m.value, false);
    onMutant?.(family);
    count++;
  };
  for (const m of siteMutants(value, sites, picks[0] ?? 0, noise)) check(m, m.kind.split(" ")[0] as string);
  const plan = mutantPlan(value);
  if (plan.length > 0) {
    const chosen = new Set(picks.slice(1, genericPerInstance + 1).map((p) => p % plan.length));
    for (const i of [...chosen].sort((a, b) => a - b)) {
      const p = plan[i] as (typeof plan)[number];
      check({ description: `structural ${p.description}`, kind: `structural ${p.kind}`, value: p.make() }, `structural:${p.kind.split(" ")[0]}`);
    }
  }
  return count;
}

/**
 * Fuzzes one version: rounds of `fc.check` per type until `settings.cases` cases are
 * judged. Disagreements land in `c` (see {@link Comparison.report}).
 */
export function fuzzVersion(
  label: string,
  types: readonly string[],
  arbitraries: AnnotatedArbitraries,
  c: Comparison,
  settings: FuzzSettings,
): FuzzCounts {
  const counts: FuzzCounts = { instances: 0, mutants: 0, rounds: 0, runsByType: new Map(), byFamily: new Map(), failedValues: new Map() };
  const inputs = new Map(types.map((t) => [t, fuzzInput(arbitraries, t, settings.genericPerInstance)]));
  const onMutant = (family: string) => counts.byFamily.set(family, (counts.byFamily.get(family) ?? 0) + 1);
  /** Cases per instance so far (a first guess before any run). */
  let perInstance = 1 + settings.genericPerInstance + 20;
  while (counts.instances + counts.mutants < settings.cases) {
    const remaining = settings.cases - counts.instances - counts.mutants;
    // The first round aims at half the size (cases per instance are a guess until then).
    const aim = counts.rounds === 0 ? remaining / 2 : remaining;
    const runs = Math.max(1, Math.ceil(aim / (types.length * perInstance)));
    for (const type of types) {
      const seed = seedFor(settings.seed, label, type, counts.rounds);
      let run = 0;
      const property = fc.property(inputs.get(type) as fc.Arbitrary<FuzzInput>, (input) => {
        const source = runSource(label, type, seed, String(run++));
        counts.mutants += judge(c, type, source, input, settings.genericPerInstance, onMutant, counts.failedValues);
        counts.instances++;
        return true;
      });
      const result = fc.check(property, { seed, numRuns: runs });
      if (result.failed) throw new Error(`fuzz property failed unexpectedly for ${type}: ${String(result.errorInstance)}`);
      counts.runsByType.set(type, (counts.runsByType.get(type) ?? 0) + runs);
    }
    counts.rounds++;
    perInstance = (counts.instances + counts.mutants) / counts.instances;
  }
  return counts;
}

/**
 * Replays one run (`path` as printed) and judges it into `c`; then lets fast-check
 * shrink it to a smallest input that still fails, when it fails. Returns the replayed
 * input and the shrunk one (undefined when the run passes).
 */
export function replayRun(
  label: string,
  type: string,
  arbitraries: AnnotatedArbitraries,
  makeComparison: () => Comparison,
  seed: number,
  path: string,
  genericPerInstance: number,
): { readonly input: FuzzInput; readonly comparison: Comparison; readonly shrunk: { input: FuzzInput; path: string; failures: string[] } | undefined } {
  const arb = fuzzInput(arbitraries, type, genericPerInstance);
  const comparison = makeComparison();
  let replayed: FuzzInput | undefined;
  fc.check(
    fc.property(arb, (input) => {
      replayed = input;
      judge(comparison, type, runSource(label, type, seed, path), input, genericPerInstance);
      return true;
    }),
    { seed, path, numRuns: 1 },
  );
  if (replayed === undefined) throw new Error(`replay ${label}:${type}:${seed}:${path} ran nothing`);
  if (comparison.failures.length === 0) return { input: replayed, comparison, shrunk: undefined };
  let last: string[] = [];
  const result = fc.check(
    fc.property(arb, (input) => {
      const c = makeComparison();
      judge(c, type, "shrinking", input, genericPerInstance);
      if (c.failures.length > 0) last = c.failures.map((f) => f.text);
      return c.failures.length === 0;
    }),
    { seed, path, numRuns: 1 },
  );
  if (!result.failed || result.counterexample === null) return { input: replayed, comparison, shrunk: undefined };
  const [shrunkInput] = result.counterexample;
  // Judge the smallest input once more, so the failures shown are its own.
  const c = makeComparison();
  judge(c, type, `shrunk: ${runSource(label, type, seed, result.counterexamplePath ?? path)}`, shrunkInput, genericPerInstance);
  last = c.failures.map((f) => f.text);
  return { input: replayed, comparison, shrunk: { input: shrunkInput, path: result.counterexamplePath ?? path, failures: last } };
}
