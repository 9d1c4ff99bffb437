/**
 * Correctness before speed: every contender's verdict on every input is compared with the
 * expected one (examples valid, mutants invalid) before anything is timed, so no
 * contender is timed while answering wrongly without it being reported.
 */
import type { Case } from "./corpus.js";
import type { Check, Contender } from "./contenders.js";
import type { GeneratedValidators } from "./generated.js";

/** How one contender answered. */
export interface Verdicts {
  readonly contender: string;
  /** Inputs whose type it has a check for. */
  readonly covered: number;
  /** Valid inputs it rejected. */
  readonly falseRejects: readonly Case[];
  /** Invalid inputs it accepted. */
  readonly falseAccepts: readonly Case[];
  /** Inputs on which the check threw. */
  readonly threw: readonly Case[];
}

export function verdicts(contender: Contender, cases: readonly Case[]): Verdicts {
  let covered = 0;
  const falseRejects: Case[] = [];
  const falseAccepts: Case[] = [];
  const threw: Case[] = [];
  for (const c of cases) {
    const check = contender.checkFor(c.type);
    if (!check) continue;
    covered++;
    let ok: boolean;
    try {
      ok = check(c.value);
    } catch {
      threw.push(c);
      continue;
    }
    if (ok !== c.valid) (c.valid ? falseRejects : falseAccepts).push(c);
  }
  return { contender: contender.name, covered, falseRejects, falseAccepts, threw };
}

/** True when `check` exists and answers `c` as expected. */
export function answersRight(check: Check | undefined, c: Case): boolean {
  if (!check) return false;
  try {
    return check(c.value) === c.valid;
  } catch {
    return false;
  }
}

/**
 * Inputs where `validateX` breaks its contract: `ok: true` with a `value` other than the
 * input, or `ok: false` without issues.
 */
export function malformedResults(generated: GeneratedValidators, cases: readonly Case[]): Case[] {
  return cases.filter((c) => {
    const validate = generated.validate(c.type);
    if (!validate) return false;
    try {
      const result = validate(c.value);
      return result.ok ? result.value !== c.value : !Array.isArray(result.issues) || result.issues.length === 0;
    } catch {
      return true;
    }
  });
}
