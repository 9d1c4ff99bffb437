/**
 * Mutations that usually make a valid MCP message invalid: delete a property, change a
 * leaf's JSON type, add 0.5 to a number (integers by default, as upstream's schema.json),
 * set `id` to null, change `jsonrpc`. Each example yields a few of each kind, spread
 * over the document (shallow and deep), chosen deterministically.
 */

import { edit, get, isRecord, kindOf, pointer, type Json, type Segment } from "../test/support/mutants.js";

export type MutantKind = "delete" | "type" | "fraction" | "id-null" | "jsonrpc";

/** One mutated copy of a value. */
export interface Mutant {
  readonly kind: MutantKind;
  /** e.g. `delete /params/name`, `type /params/_meta/x string→number`. */
  readonly description: string;
  readonly value: unknown;
}

/** At most this many mutants per example and per kind (deletion, leaf type change, fraction). */
export const PER_KIND = 4;

/** Mutants of `value`, in a fixed order. */
export function mutate(value: unknown): Mutant[] {
  const root = value as Json;
  const properties: Segment[][] = [];
  const leaves: Segment[][] = [];
  walk(root, [], properties, leaves);
  const out: Mutant[] = [];
  for (const path of spread(properties, PER_KIND)) {
    out.push({ kind: "delete", description: `delete ${pointer(path)}`, value: edit(root, path, undefined) });
  }
  for (const path of spread(leaves, PER_KIND)) {
    const leaf = get(root, path);
    const changed = otherType(leaf);
    out.push({
      kind: "type",
      description: `type ${pointer(path)} ${kindOf(leaf)}→${kindOf(changed)}`,
      value: edit(root, path, changed),
    });
  }
  for (const path of spread(
    leaves.filter((p) => typeof get(root, p) === "number"),
    PER_KIND,
  )) {
    const n = get(root, path) as number;
    out.push({
      kind: "fraction",
      description: `fraction ${pointer(path)} ${n}→${n + 0.5}`,
      value: edit(root, path, n + 0.5),
    });
  }
  if (isRecord(root) && "id" in root)
    out.push({ kind: "id-null", description: "id: null", value: edit(root, ["id"], null) });
  if (isRecord(root) && "jsonrpc" in root)
    out.push({ kind: "jsonrpc", description: 'jsonrpc: "1.0"', value: edit(root, ["jsonrpc"], "1.0") });
  return out;
}

/** Collects the paths of object properties (deletable) and of leaves (scalars), pre-order. */
function walk(node: Json, path: Segment[], properties: Segment[][], leaves: Segment[][]): void {
  if (Array.isArray(node)) {
    node.forEach((item, i) => walk(item, [...path, i], properties, leaves));
  } else if (isRecord(node)) {
    for (const [key, child] of Object.entries(node)) {
      properties.push([...path, key]);
      walk(child, [...path, key], properties, leaves);
    }
  } else {
    leaves.push(path);
  }
}

/** Up to `n` items, evenly spaced over the list (first and last included). */
function spread<T>(items: readonly T[], n: number): T[] {
  if (items.length <= n) return [...items];
  const picked: T[] = [];
  for (let i = 0; i < n; i++) picked.push(items[Math.round((i * (items.length - 1)) / (n - 1))] as T);
  return picked;
}

/** A value of another JSON type that a schema is unlikely to accept in its place. */
function otherType(leaf: Json): Json {
  if (typeof leaf === "string") return 42;
  if (typeof leaf === "number") return String(leaf);
  if (typeof leaf === "boolean") return leaf ? "true" : "false";
  return 0;
}
