/**
 * Test support for the fixture suite (`test/fixtures/<family>/schema.ts`): generate a
 * fixture into a scratch folder, import what was generated, and state verdicts as
 * tables of valid values and invalid values with their exact issues.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { inspect } from "node:util";
import { expect, it } from "vitest";
import type { GeneratorOptions } from "../../generator/index.js";
import { compileDiagnostics, generateInto, ROOT } from "./corpus.js";

/** Where the fixture folders are. */
export const FIXTURES = join(ROOT, "test", "fixtures");

/** The schema of a fixture family. */
export function fixtureSchema(family: string, file = "schema.ts"): string {
  return join(FIXTURES, family, file);
}

/** The file snapshot of one generated file: `test/fixtures/<family>/__snapshots__/<file>.snap`. */
export function snapshotPath(family: string, file: string): string {
  return join(FIXTURES, family, "__snapshots__", `${file}.snap`);
}

/** What a validation issue is judged on: where, and which rule. */
export interface IssueKey {
  readonly path: string;
  readonly keyword: string;
}

/** `{ path, keyword }`, short for tables. */
export function issue(path: string, keyword: string): IssueKey {
  return { path, keyword };
}

interface ValidationIssue extends IssueKey {
  readonly message: string;
}

type ValidationResult = { ok: true; value: unknown } | { ok: false; issues: ValidationIssue[] };

interface StandardResult {
  readonly value?: unknown;
  readonly issues?: readonly { message: string; path?: readonly PropertyKey[] }[];
}

/** The generated `validators.ts` module, loosely typed: tests reach exports by type name. */
export type ValidatorsModule = Record<string, unknown> & {
  readonly validatorsByType: Readonly<Record<string, (value: unknown) => ValidationResult>>;
};

/** A generated fixture: its folder and imported modules. */
export interface GeneratedFixture {
  readonly dir: string;
  readonly validators: ValidatorsModule;
  readonly types: Record<string, unknown>;
  /** The text of a generated file. */
  read(file: string): string;
}

/** Generates a fixture family into `test/.tmp/fixture-<label>/` and imports its output. */
export async function generateFixture(
  family: string,
  options: Partial<GeneratorOptions> = {},
  label = family,
  file = "schema.ts",
): Promise<GeneratedFixture> {
  const dir = await generateInto(`fixture-${label}`, { schema: { path: fixtureSchema(family, file) }, ...options });
  const validators = (await import(join(dir, "validators.ts"))) as ValidatorsModule;
  const types = (await import(join(dir, "types.ts"))) as Record<string, unknown>;
  return { dir, validators, types, read: (file) => readFileSync(join(dir, file), "utf8") };
}

/** Valid values and invalid values (with their exact issues) of one type. */
export interface Verdicts {
  /** Name of the Standard Schema export when it is not `<type>Schema`. */
  readonly standard?: string;
  readonly valid?: readonly unknown[];
  readonly invalid?: readonly (readonly [value: unknown, issues: readonly IssueKey[]])[];
}

/** A short, readable label for a value in a test name (NaN, Infinity and undefined included). */
export function show(value: unknown): string {
  let text = inspect(value, { depth: 4, breakLength: Infinity, compact: true });
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null && !(value instanceof globalThis.Error)) {
      text = `${text} inheriting ${inspect(proto, { depth: 1, breakLength: Infinity, compact: true })}`;
    }
  }
  return text.length > 90 ? `${text.slice(0, 87)}...` : text;
}

/** Standard Schema path segments for a JSON Pointer (RFC 6901 unescaping). */
function segments(pointer: string): string[] {
  return pointer === ""
    ? []
    : pointer
        .slice(1)
        .split("/")
        .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function exportOf<T>(validators: ValidatorsModule, name: string): T {
  const value = validators[name];
  if (value === undefined) throw new Error(`validators.ts does not export ${name}`);
  return value as T;
}

/**
 * Declares one test per value: `isX`, `validateX`, `XSchema` and `validatorsByType.X`
 * (or `cases.standard`) agree on the verdict; for an invalid value, `validateX` reports exactly the given
 * issues (path and keyword, in order) and the Standard Schema object reports the same
 * issues with the pointer split into segments.
 */
export function verdicts(load: () => ValidatorsModule, type: string, cases: Verdicts): void {
  for (const value of cases.valid ?? []) {
    it(`${type} accepts ${show(value)}`, () => {
      const v = load();
      const result = exportOf<(x: unknown) => ValidationResult>(v, `validate${type}`)(value);
      expect(result).toEqual({ ok: true, value });
      expect(exportOf<(x: unknown) => boolean>(v, `is${type}`)(value)).toBe(true);
      const standard = exportOf<{ "~standard": { validate(x: unknown): StandardResult } }>(
        v,
        cases.standard ?? `${type}Schema`,
      );
      expect(standard["~standard"].validate(value)).toEqual({ value });
      expect(v.validatorsByType[type]!(value).ok).toBe(true);
    });
  }
  for (const [value, expected] of cases.invalid ?? []) {
    it(`${type} rejects ${show(value)}`, () => {
      const v = load();
      const result = exportOf<(x: unknown) => ValidationResult>(v, `validate${type}`)(value);
      expect(result.ok).toBe(false);
      const issues = result.ok ? [] : result.issues;
      expect(issues.map(({ path, keyword }) => ({ path, keyword }))).toEqual(expected);
      for (const i of issues) expect(typeof i.message === "string" && i.message.length > 0).toBe(true);
      expect(exportOf<(x: unknown) => boolean>(v, `is${type}`)(value)).toBe(false);
      const standard = exportOf<{ "~standard": { validate(x: unknown): StandardResult } }>(
        v,
        cases.standard ?? `${type}Schema`,
      );
      expect(standard["~standard"].validate(value)).toEqual({
        issues: issues.map((i) => ({ message: i.message, path: segments(i.path) })),
      });
      expect(v.validatorsByType[type]!(value)).toEqual(result);
    });
  }
}

/**
 * Declarations in the generated `.ts` files of `dir` that nothing reads (`noUnusedLocals`),
 * as `file:line:col message` lines: vendored output must compile in a project that sets it,
 * and STYLE.md wants no dead helpers in output.
 */
export function unusedDeclarations(dir: string): string[] {
  const unused = new Set([6133, 6192, 6196, 6198, 6199, 6205]);
  return compileDiagnostics(dir, { noUnusedLocals: true })
    .filter((d) => unused.has(d.code))
    .map((d) => d.text);
}
