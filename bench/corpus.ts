/**
 * The benchmark's inputs: every upstream draft example (valid, validated as the type its
 * folder names) and mutants of them (invalid). See `mutants.ts` for how mutants are made.
 */
import { readExamples } from "../test/support/examples.js";
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

/** Every `examples/<TypeName>/*.json` of a version, sorted, as valid cases. */
export function loadExamples(examplesDir: string): Case[] {
  return readExamples(examplesDir).map(({ type, file, value }) => ({
    type,
    label: file.replace(/^examples\//, ""),
    value,
    valid: true,
  }));
}

/**
 * Mutants of the valid examples, without duplicates, split by the reference validator's
 * verdict: `rejected` (the invalid inputs; marked `valid: false`) and `accepted` (a
 * mutation may leave a value valid, e.g. deleting an optional property; marked
 * `valid: true`, checked but not timed).
 */
export function buildMutants(
  examples: readonly Case[],
  rejects: (type: string, value: unknown) => boolean,
): { readonly rejected: Case[]; readonly accepted: Case[] } {
  const seen = new Set<string>();
  const rejected: Case[] = [];
  const accepted: Case[] = [];
  for (const example of examples) {
    for (const mutant of mutate(example.value)) {
      const key = `${example.type} ${JSON.stringify(mutant.value)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const valid = !rejects(example.type, mutant.value);
      const label = `${example.label} ${mutant.description}`;
      (valid ? accepted : rejected).push({
        type: example.type,
        label,
        value: mutant.value,
        valid,
        mutation: mutant.kind,
      });
    }
  }
  return { rejected, accepted };
}
