/**
 * Test support: ajv as the reference verdict for a version's published `schema.json`.
 *
 * 2020-12 schemas (with `$defs`) use `Ajv2020`; the older draft-07 ones (with
 * `definitions`) use plain `Ajv`. Both get ajv-formats (the draft-07 schemas use
 * `uri`, `uri-template` and `byte` too) and `strict: false` (upstream's schemas carry
 * annotations ajv's strict mode rejects). A type `X` is referenced as `mcp#/$defs/X`
 * or `mcp#/definitions/X`, `mcp` being the key the schema is added under (the
 * upstream files have no `$id`).
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { fullFormats } from "ajv-formats/dist/formats.js";
import { readFileSync } from "node:fs";

// ajv-formats is CommonJS: under Node's ESM loader the default import is `module.exports`,
// whose `.default` is the plugin; under a bundler's interop it may be the plugin itself.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv | Ajv2020) => void;

/** The verdict of ajv on one value, with its first error when it rejects. */
export interface AjvVerdict {
  readonly valid: boolean;
  readonly errors: readonly ErrorObject[];
}

/** ajv compiled from one schema document; each definition compiled on first use. */
export interface AjvOracle {
  /** `draft-07` or `2020-12`, for messages. */
  readonly dialect: string;
  /** Names of the schema's definitions. */
  readonly definitions: readonly string[];
  validate(type: string, value: unknown): AjvVerdict;
}

const KEY = "mcp";

export function readSchemaJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
}

/** A string format check, as ajv's `addFormat` takes it. */
export type FormatCheck = (s: string) => boolean;

/** ajv-formats' own check of a format (its "full" mode, which `addFormats` installs). */
export function ajvFormat(name: string): FormatCheck {
  const format = (fullFormats as Record<string, unknown>)[name];
  if (typeof format === "function") return format as FormatCheck;
  if (format instanceof RegExp) return (s) => format.test(s);
  throw new Error(`ajv-formats has no string format ${name}`);
}

/**
 * Compiles `schema` (already parsed; it is not modified). `formats` replaces
 * ajv-formats' checks of the named formats.
 */
export function ajvOracle(schema: Record<string, unknown>, formats: Readonly<Record<string, FormatCheck>> = {}): AjvOracle {
  const is2020 = "$defs" in schema;
  const defsKey = is2020 ? "$defs" : "definitions";
  const defs = schema[defsKey];
  if (typeof defs !== "object" || defs === null) throw new Error(`schema has no ${defsKey}`);
  const ajv = is2020 ? new Ajv2020({ strict: false }) : new Ajv({ strict: false });
  addFormats(ajv);
  for (const [name, check] of Object.entries(formats)) ajv.addFormat(name, { type: "string", validate: check });
  ajv.addSchema(structuredClone(schema), KEY);
  const compiled = new Map<string, ValidateFunction>();
  return {
    dialect: is2020 ? "2020-12" : "draft-07",
    definitions: Object.keys(defs),
    validate(type, value) {
      let f = compiled.get(type);
      if (!f) {
        f = ajv.getSchema(`${KEY}#/${defsKey}/${type}`);
        if (!f) throw new Error(`ajv: no definition ${type}`);
        compiled.set(type, f);
      }
      const valid = f(value) as boolean;
      return { valid, errors: valid ? [] : [...(f.errors ?? [])] };
    },
  };
}
