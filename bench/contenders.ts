/**
 * The validators compared. Each contender maps a type name to a `Check`, a function from
 * a JSON value to a verdict, or to undefined when it has nothing for that type:
 *
 * - generated `isX` and `validateX(v).ok` (this project's output for the draft);
 * - ajv 2020 compiled from the draft `schema.json` (ajv-formats, `strict: false`), once
 *   with `allErrors: false` (stops at the first error, like `isX`) and once with
 *   `allErrors: true` (collects every error, like `validateX`);
 * - the zod schemas of `@modelcontextprotocol/sdk` (`<Type>Schema.safeParse(v).success`),
 *   where the SDK has a schema of that name. The SDK targets older protocol versions.
 */
import { readFileSync } from "node:fs";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import * as sdk from "@modelcontextprotocol/sdk/types.js";
import type { GeneratedValidators } from "./generated.js";
import type { BoundCase, Workload } from "./timing.js";

export type Check = (value: unknown) => boolean;

export interface Contender {
  readonly name: string;
  checkFor(type: string): Check | undefined;
}

/** The `is` and `validate` contenders over generated validators. */
export function generatedContenders(generated: GeneratedValidators): { is: Contender; validate: Contender } {
  return {
    is: { name: "generated isX", checkFor: (type) => generated.is(type) },
    validate: {
      name: "generated validateX",
      checkFor: (type) => {
        const validate = generated.validate(type);
        return validate && ((v) => validate(v).ok);
      },
    },
  };
}

/** ajv compiled from `schema.json`; each `$defs` entry compiled on first use. */
export function ajvContender(schemaJsonPath: string, allErrors: boolean): Contender {
  const ajv = new Ajv2020({ strict: false, allErrors });
  addFormatsModule.default(ajv);
  const key = "mcp-schema";
  ajv.addSchema(JSON.parse(readFileSync(schemaJsonPath, "utf8")) as object, key);
  const defs = (ajv.getSchema(key)?.schema as { $defs?: Record<string, unknown> } | undefined)?.$defs ?? {};
  const compiled = new Map<string, ValidateFunction>();
  return {
    name: `ajv (allErrors: ${String(allErrors)})`,
    checkFor(type) {
      if (!Object.hasOwn(defs, type)) return undefined;
      let validate = compiled.get(type);
      if (!validate) {
        validate = ajv.getSchema(`${key}#/$defs/${type}`);
        if (!validate) return undefined;
        compiled.set(type, validate);
      }
      return validate as Check;
    },
  };
}

interface SafeParser {
  safeParse(value: unknown): { success: boolean };
}

/** The SDK's zod schema named `<Type>Schema`, when there is one. */
export function zodContender(): Contender {
  const exports = sdk as unknown as Record<string, unknown>;
  return {
    name: "zod (@modelcontextprotocol/sdk)",
    checkFor(type) {
      const schema = exports[`${type}Schema`] as Partial<SafeParser> | undefined;
      if (typeof schema?.safeParse !== "function") return undefined;
      const parser = schema as SafeParser;
      return (v) => parser.safeParse(v).success;
    },
  };
}

/** One contender over one input set (timed as `key`), every input bound to the contender's check for its type. */
export function workload(key: string, contender: Contender, cases: readonly { readonly type: string; readonly value: unknown }[]): Workload {
  const bound: BoundCase[] = cases.map((c) => {
    const check = contender.checkFor(c.type);
    if (!check) throw new Error(`${contender.name} has no check for ${c.type}`);
    return { check, value: c.value };
  });
  return { key, cases: bound };
}
