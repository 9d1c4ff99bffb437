/**
 * The benchmark's inputs: every upstream draft example (valid, validated as the type its
 * folder names) and mutants of them (invalid). See `mutants.ts` for how mutants are made.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { mutate, type MutantKind } from "./mutants.js";

/** One input: a JSON value, the type it is validated as, and whether it should pass. */
export interface Case {
  readonly type: string;
  /** `<Type>/<file>` for examples; plus ` <mutation>` for mutants. */
  readonly label: string;
  readonly value: unknown;
  readonly valid: boolean;
  /** For mutants: how the example was changed. */
  readonly mutation?: MutantKind;
}

/** Reads `examples/<TypeName>/*.json` in a locale-independent, sorted order. */
export function loadExamples(examplesDir: string): Case[] {
  const cases: Case[] = [];
  for (const type of sortedEntries(examplesDir)) {
    for (const file of sortedEntries(join(examplesDir, type)).filter((f) => f.endsWith(".json"))) {
      const value: unknown = JSON.parse(readFileSync(join(examplesDir, type, file), "utf8"));
      cases.push({ type, label: `${type}/${file}`, value, valid: true });
    }
  }
  return cases;
}

/**
 * Mutants of the valid examples that the reference validator rejects (a mutation may
 * leave a value valid, e.g. deleting an optional property; those are dropped), without
 * duplicates.
 */
export function buildMutants(
  examples: readonly Case[],
  rejects: (type: string, value: unknown) => boolean,
): { readonly kept: Case[]; readonly made: number } {
  const seen = new Set<string>();
  const kept: Case[] = [];
  for (const example of examples) {
    for (const mutant of mutate(example.value)) {
      const key = `${example.type} ${JSON.stringify(mutant.value)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (!rejects(example.type, mutant.value)) continue;
      const label = `${example.label} ${mutant.description}`;
      kept.push({ type: example.type, label, value: mutant.value, valid: false, mutation: mutant.kind });
    }
  }
  return { kept, made: seen.size };
}

function sortedEntries(dir: string): string[] {
  return readdirSync(dir).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
