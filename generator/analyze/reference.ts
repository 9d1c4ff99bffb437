/**
 * References to schema types, as analysis returns them: a type's name and a path of member
 * steps into it, never TypeScript text. Only the emitters, through the one naming authority,
 * turn them into text.
 */

/** One step into a type: the member `key`; `defined` takes `undefined` out of it (`NonNullable<…>`). */
export interface TypeStep {
  readonly key: string;
  readonly defined?: boolean;
}

/**
 * A reference to a schema type, or to a member type inside it, as analysis hands it to the
 * emitters: `{ type: "ResourceNotFoundError", path: [{ key: "data" }] }`.
 */
export interface TypeReference {
  readonly type: string;
  readonly path: readonly TypeStep[];
}

/** A reference to the schema type `type` itself. */
export function typeReference(type: string, ...path: readonly TypeStep[]): TypeReference {
  return { type, path };
}
