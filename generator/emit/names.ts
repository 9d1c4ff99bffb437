/**
 * Property keys and reads as the emitters write them. Identifiers come from the one naming
 * authority: case styles and reserved words from `../case.ts`, collisions from `symbols.ts`.
 */
import { IDENTIFIER } from "../case.js";

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

/** `name` as a key of an object literal: quoted, and computed for `__proto__` (a quoted `"__proto__":` would set the prototype). */
export function objectLiteralKey(name: string): string {
  return name === "__proto__" ? '["__proto__"]' : JSON.stringify(name);
}
