/**
 * The one naming authority: every identifier and property access the emitters write
 * comes from here, so templates never invent names.
 */
import { GeneratorError } from "../errors.js";
import type { Declaration } from "../ir.js";
import { runtimeExports, runtimeNames } from "./runtime.js";

/** An ASCII JavaScript identifier (reserved words not excluded). */
export const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Names that plain property access would find on `Object.prototype`: read them as own properties only. */
const PROTOTYPE_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

/** A property key as written in a type or object literal: `name`, or `"io.x/y"` when not an identifier. */
export function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/**
 * A read of property `name` of the object expression `object`, as generated validators do it.
 * Names found on `Object.prototype` (`constructor`, `__proto__`, `toString`, …) are read
 * through `own()` so an inherited member never counts as present. Every other read is an
 * element access (`v["name"]`): the object is typed `Record<string, any>` once it is known to
 * be one, and a user's `noPropertyAccessFromIndexSignature` refuses `v.name` there.
 */
export function propertyRead(object: string, name: string): string {
  if (readsThroughOwn(name)) return `own(${object}, ${JSON.stringify(name)})`;
  return `${object}[${JSON.stringify(name)}]`;
}

/** Whether a property `name` is read through `own()`: a name found on `Object.prototype` (see {@link propertyRead}). */
export function readsThroughOwn(name: string): boolean {
  return PROTOTYPE_NAMES.has(name);
}

/** One JSON Pointer reference token (RFC 6901): `~` → `~0`, `/` → `~1`. */
export function pointerToken(name: string): string {
  return name.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Public and internal names generated for one schema type. */
export interface TypeNames {
  readonly type: string;
  /** `isX`: the public type guard. */
  readonly is: string;
  /** `validateX`: the public validator returning issues. */
  readonly validate: string;
  /** `XSchema`: the Standard Schema v1 object (`XStandardSchema` if `XSchema` is a schema type name). */
  readonly standard: string;
  /** `_isX`: internal check taking a depth. */
  readonly check: string;
  /** `_collectX`: internal issue collector. */
  readonly collect: string;
}

/**
 * Assigns names for every type declaration. Throws MCG301 when two generated names collide
 * (for instance a schema type named `Object` would make `isObject` clash with a runtime helper).
 */
export function assignTypeNames(declarations: readonly Declaration[]): Map<string, TypeNames> {
  const typeNames = new Set(declarations.map((d) => d.name));
  const runtime = runtimeNames();
  const exportsOfRuntime = runtimeExports();
  const result = new Map<string, TypeNames>();
  const taken = new Map<string, string>();
  const problems: { name: string; owner: string; other: string; decl: Declaration }[] = [];
  for (const decl of declarations) {
    // index.ts re-exports types.ts and validators.ts together: schema names and generated
    // names share one namespace, and a runtime export (ValidationIssue, …) may not be a schema name.
    if (exportsOfRuntime.has(decl.name) || decl.name === "validatorsByType") {
      problems.push({ name: decl.name, owner: decl.name, other: "the validators runtime", decl });
    }
    taken.set(decl.name, `the schema's ${decl.name}`);
  }
  taken.set("validatorsByType", "the validators module");
  for (const decl of declarations) {
    if (decl.kind === "const") continue;
    const n = decl.name;
    const names: TypeNames = {
      type: n,
      is: `is${n}`,
      validate: `validate${n}`,
      standard: typeNames.has(`${n}Schema`) ? `${n}StandardSchema` : `${n}Schema`,
      check: `_is${n}`,
      collect: `_collect${n}`,
    };
    for (const value of [names.is, names.validate, names.standard, names.check, names.collect]) {
      const other = runtime.has(value) ? "the validators runtime" : taken.get(value);
      if (other !== undefined) problems.push({ name: value, owner: n, other, decl });
      else taken.set(value, n);
    }
    result.set(n, names);
  }
  if (problems.length > 0) {
    throw new GeneratorError(
      problems.map((p) => ({
        code: "MCG301",
        message:
          p.name === p.owner
            ? `type name ${p.name} collides with a name the generated validators export; rename the type`
            : `generated name ${p.name} for type ${p.owner} collides with a name from ${p.other}; rename one of them`,
        span: p.decl.span,
      })),
    );
  }
  return result;
}

const RESERVED_WORDS = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for function if import in " +
    "instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package " +
    "private protected public await arguments eval undefined NaN Infinity"
  ).split(" "),
);

/** An identifier usable as a declaration name or member: ASCII letters, digits, `_` and `$`, no reserved word. */
export function isPlainIdentifier(name: string): boolean {
  return IDENTIFIER.test(name) && !RESERVED_WORDS.has(name) && name !== "__proto__";
}

/** `name` as a key of an object literal: quoted, and computed for `__proto__` (a quoted `"__proto__":` would set the prototype). */
export function objectLiteralKey(name: string): string {
  return name === "__proto__" ? '["__proto__"]' : JSON.stringify(name);
}

/** A path segment the generator may name a folder with: letters, digits, `.`, `_`, `-`, starting with a letter or digit. */
const FOLDER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * The names one protocol revision gets in a multi-revision output: its folder (the protocol
 * version itself, as the wire and the spec name it: `2025-11-25/`), the local name of its
 * dispatch table in `dispatch.ts` (`REVISION_2025_11_25`) and its namespace in `index.ts`
 * (`v2025_11_25`). `undefined` when the version cannot name a folder.
 */
export function revisionNames(protocolVersion: string): { folder: string; constant: string; namespace: string } | undefined {
  if (!FOLDER_NAME.test(protocolVersion)) return undefined;
  const word = protocolVersion.replace(/[^A-Za-z0-9_]/g, "_");
  return { folder: protocolVersion, constant: `REVISION_${word}`, namespace: `v${word}` };
}
