/**
 * Test support: compares our generated validators with ajv on one version's published
 * `schema.json`, value by value, and records every disagreement no intended difference
 * covers (see `intended-differences.ts`), with what it takes to reproduce it.
 *
 * Shared by the upstream corpus suite and any longer fuzz run.
 */
import type { AjvOracle, AjvVerdict } from "./ajv-oracle.js";
import { changedOracle, type IntendedDifference, type Verdict } from "./intended-differences.js";
import type { Json, Mutant } from "./mutants.js";

type Issue = { path: string; message: string; keyword: string };
type Validate = (v: unknown) => { ok: true; value: unknown } | { ok: false; issues: Issue[] };
type Is = (v: unknown) => boolean;

/** At most this many failures are shown in full by {@link Comparison.report}; the rest are counted. */
const SHOWN = 25;

export class Comparison {
  /** Values checked. */
  checked = 0;
  /** Values ajv rejects: shows that the mutants do make invalid values. */
  rejectedByAjv = 0;
  /** Values on which ajv's verdict and ours differ, covered or not. */
  disagreements = 0;
  /** How often each intended difference covered a disagreement, by id (`+` joins ids covering together). */
  readonly covered = new Map<string, number>();
  /** Every failure: its type, its kind of mutant, and the full text. */
  readonly failures: { readonly type: string; readonly kind: string; readonly text: string }[] = [];
  private readonly oracles = new Map<string, AjvOracle>();

  /**
   * @param label the version's label, for messages
   * @param module the generated `validators.ts`, imported
   * @param ajv ajv on the published schema
   * @param schema the published schema, parsed
   * @param differences the intended differences listed for this version
   */
  constructor(
    private readonly label: string,
    private readonly module: Record<string, unknown>,
    private readonly ajv: AjvOracle,
    private readonly schema: Record<string, unknown>,
    private readonly differences: readonly IntendedDifference[],
  ) {}

  /**
   * Checks one value against `type`: `isX` must agree with `validateX`, a rejection must
   * come with issues whose paths point into the value, none of them twice, our verdict must be ajv's or an
   * intended difference, and, with `mustBeValid`, ours must accept. Returns our verdict.
   */
  check(type: string, source: string, mutant: Pick<Mutant, "description" | "kind">, value: Json, mustBeValid: boolean): boolean {
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
      const keys = ours.issues.map((i) => JSON.stringify([i.path, i.keyword, i.message]));
      const repeated = keys.filter((k, i) => keys.indexOf(k) !== i);
      if (repeated.length > 0) problems.push(`validate${type} reported one issue more than once: ${repeated.join(", ")}`);
    }
    if (mustBeValid && !ours.ok) problems.push("a valid instance was rejected by ours");
    if (ours.ok !== ajv.valid) {
      this.disagreements++;
      const explained = this.explain(type, value, ajv.valid, ours.ok);
      if (explained) this.covered.set(explained, (this.covered.get(explained) ?? 0) + 1);
      else problems.push("verdicts differ and no intended difference covers it");
    }
    if (problems.length > 0) {
      const issues = ours.ok ? [] : ours.issues.slice(0, 3).map((i) => `${i.path || "(root)"} ${i.keyword}: ${i.message}`);
      this.fail(
        type,
        source,
        mutant,
        value,
        [
          ...problems,
          `ajv (${this.ajv.dialect}): ${verdictOf(ajv.valid)}${describeAjvErrors(ajv)}`,
          `ours: ${verdictOf(ours.ok)}${issues.length > 0 ? ` — ${issues.join("; ")}` : ""}`,
        ].join("\n    "),
      );
    }
    return ours.ok;
  }

  /**
   * The failures as an assertion shows them: per kind of mutant, a count and the types it
   * failed on; then the first failure of each kind, then further ones, up to a limit.
   * Empty when there are none.
   */
  report(): string[] {
    if (this.failures.length === 0) return [];
    const kinds = new Map<string, { count: number; types: Set<string> }>();
    for (const f of this.failures) {
      const k = kinds.get(f.kind) ?? { count: 0, types: new Set<string>() };
      k.count++;
      k.types.add(f.type);
      kinds.set(f.kind, k);
    }
    const summary = [...kinds].map(([kind, k]) => `${k.count} × ${kind} (in ${[...k.types].join(", ")})`);
    const firsts = [...kinds.keys()].map((kind) => this.failures.find((f) => f.kind === kind) as (typeof this.failures)[number]);
    const shown = [...firsts, ...this.failures.filter((f) => !firsts.includes(f))].slice(0, SHOWN).map((f) => f.text);
    const more = this.failures.length > SHOWN ? [`… and ${this.failures.length - SHOWN} more failures`] : [];
    return [`${this.failures.length} failures, by kind of mutant:`, ...summary, ...shown, ...more];
  }

  /** The id of the entry (or `+`-joined entries) whose change makes ajv give our verdict. */
  private explain(type: string, value: Json, ajvValid: boolean, oursValid: boolean): string | undefined {
    const candidates = this.differences.filter(
      (d) => (!d.types || d.types.includes(type)) && d.ajv === verdictOf(ajvValid) && d.ours === verdictOf(oursValid),
    );
    for (const d of candidates) if (this.oracle([d]).validate(type, value).valid === oursValid) return d.id;
    const all = this.differences.filter((d) => !d.types || d.types.includes(type));
    if (candidates.length > 0 && all.length > 1 && this.oracle(all).validate(type, value).valid === oursValid) {
      return all.map((d) => d.id).join("+");
    }
    return undefined;
  }

  private oracle(entries: readonly IntendedDifference[]): AjvOracle {
    const key = entries.map((d) => d.id).join("+");
    let oracle = this.oracles.get(key);
    if (!oracle) {
      oracle = changedOracle(this.schema, entries);
      this.oracles.set(key, oracle);
    }
    return oracle;
  }

  private fail(type: string, source: string, mutant: Pick<Mutant, "description" | "kind">, value: Json, detail: string): void {
    this.failures.push({
      type,
      kind: mutant.kind,
      text: `[${this.label}] ${type} — ${source} — ${mutant.description}\n    ${detail}\n    value: ${truncate(JSON.stringify(value), 400)}`,
    });
  }
}

/**
 * Whether an issue's JSON Pointer names a place in `value`: every token but the last
 * must exist; the last may be missing (a required property).
 */
export function pointsInto(value: Json, path: string): boolean {
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
