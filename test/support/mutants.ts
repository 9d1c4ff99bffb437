/**
 * Test support: every mutant of a JSON value that the upstream corpus suite checks.
 *
 * Exhaustive rather than sampled: every property and array item at every depth is
 * deleted, every node (containers too) is replaced by each JSON type it is not, every
 * string and number by a few probes, every array lengthened, `id` set to null,
 * `jsonrpc` made wrong, extra properties added to every object. Mutants share the unchanged parts of the original
 * (only the containers on the edited path are copied); validators never mutate input.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** One mutated copy of a value. */
export interface Mutant {
  /** What changed where, e.g. `delete /params/name`, `retype /params/_meta object→null`, `extra /params "x-extra": {}`. */
  readonly description: string;
  /** The description without the place, to group mutants: `delete`, `retype object→null`, `probe →"urn:"`. */
  readonly kind: string;
  readonly value: Json;
}

/** One step of a path: an object key or an array index. */
export type Segment = string | number;

/**
 * Replacements for a node, covering every JSON type: each is tried where the node is of
 * another type (see {@link kindOf}); the integers `7` and `-1` replace numbers too,
 * probing `@maximum`/`@minimum`.
 */
const REPLACEMENTS: readonly Json[] = [null, 1.5, 7, -1, "s", true, [], {}];

/**
 * Further replacements for a string: strings that some `@format` (uri, uri-template,
 * byte) accepts and others reject, and the edge cases where RFC 3986 / 6570 / 4648 and
 * ajv-formats part ways, to probe format checks wherever a string sits.
 */
const STRING_PROBES: readonly string[] = [
  "",
  "a b",
  "/relative/path",
  "http://exa mple.com",
  "https://example.com/{id}",
  "%zz",
  "YQ==",
  "YQ",
  "YQ==\n",
  "urn:x:y",
  "urn:",
  "http://h:x",
  "http://[1]/",
  "http://[::1]/",
  "http://[V1.x]/",
  "file:///{user.name}",
  "a\u007fb",
];

/** Further replacements for a number: zero, a fraction inside [0, 1], beyond 2^53, far beyond 32 bits. */
const NUMBER_PROBES: readonly number[] = [0, 0.5, 2 ** 53 + 2, 1e300];

/** Length of the `grow` mutant of an array: one more than the largest `@maxItems` upstream uses. */
const GROWN_LENGTH = 101;

/** Values given to the extra property added to every object. */
const EXTRA_VALUES: readonly Json[] = ["s", null, {}];

/** Name of the extra property: not a property of any MCP type. */
export const EXTRA_KEY = "x-extra";

/** A JSON object: not null, not an array. */
export function isRecord(v: Json): v is { [key: string]: Json } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The JSON type of a value, integers apart from other numbers (as JSON Schema sees them). */
export function kindOf(v: Json): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

/** RFC 6901 JSON Pointer of a path. */
export function pointer(path: readonly Segment[]): string {
  return path.map((s) => "/" + String(s).replace(/~/g, "~0").replace(/\//g, "~1")).join("");
}

/** Every mutant of `root`, in a fixed (pre-order) sequence. */
export function* mutants(root: Json): Generator<Mutant> {
  const nodes: Segment[][] = [];
  collect(root, [], nodes);
  for (const path of nodes) {
    const node = get(root, path);
    const at = pointer(path) || "(root)";
    const mutant = (kind: string, change: string, target: readonly Segment[], next: Json | undefined): Mutant => ({
      description: `${kind} ${at}${change === "" ? "" : " " + change}`,
      kind: change === "" ? kind : `${kind} ${change}`,
      value: edit(root, target, next),
    });
    // Delete each object property and each array item, at every depth.
    if (path.length > 0) yield mutant(typeof path[path.length - 1] === "number" ? "delete-item" : "delete", "", path, undefined);
    // Change the node's type (leaves and containers alike); -1 and 7 also probe number bounds.
    for (const replacement of REPLACEMENTS) {
      const sameNumber = typeof node === "number" && typeof replacement === "number";
      if (sameNumber ? replacement === node : kindOf(replacement) === kindOf(node)) continue;
      yield mutant("retype", `${kindOf(node)}→${JSON.stringify(replacement)}`, path, replacement);
    }
    const probes: readonly Json[] = typeof node === "string" ? STRING_PROBES : typeof node === "number" ? NUMBER_PROBES : [];
    for (const probe of probes) if (probe !== node) yield mutant("probe", `→${JSON.stringify(probe)}`, path, probe);
    // Lengthen each non-empty array past upstream's `@maxItems 100`, repeating its items.
    if (Array.isArray(node) && node.length > 0 && node.length < GROWN_LENGTH) {
      yield mutant("grow", `to ${GROWN_LENGTH} items`, path, Array.from({ length: GROWN_LENGTH }, (_, i) => node[i % node.length] as Json));
    }
    if (!isRecord(node)) continue;
    if (hasOwn(node, "id")) yield mutant("set", "id: null", [...path, "id"], null);
    if (hasOwn(node, "jsonrpc")) for (const wrong of ["1.0", 2]) yield mutant("set", `jsonrpc: ${JSON.stringify(wrong)}`, [...path, "jsonrpc"], wrong);
    if (!hasOwn(node, EXTRA_KEY)) {
      for (const extra of EXTRA_VALUES) yield mutant("extra", `${JSON.stringify(EXTRA_KEY)}: ${JSON.stringify(extra)}`, [...path, EXTRA_KEY], extra);
    }
    // A JSON.parse'd object may have an own "__proto__" key; validators must treat it as data.
    if (!hasOwn(node, "__proto__")) yield mutant("extra", `"__proto__": "s"`, [...path, "__proto__"], "s");
  }
}

function hasOwn(o: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, key);
}

/** Paths of every node, pre-order, the root first. */
function collect(node: Json, path: Segment[], out: Segment[][]): void {
  out.push(path);
  if (Array.isArray(node)) node.forEach((item, i) => collect(item, [...path, i], out));
  else if (isRecord(node)) for (const key of Object.keys(node)) collect(node[key] as Json, [...path, key], out);
}

/** The node at `path`. */
export function get(root: Json, path: readonly Segment[]): Json {
  let node: Json = root;
  for (const segment of path) node = (node as Record<Segment, Json>)[segment] as Json;
  return node;
}

/**
 * A copy of `root` with the node at `path` replaced by `next`, or removed when `next` is
 * undefined (an array item is spliced out). Only the containers on the path are copied;
 * an object keeps its key order, a new key goes last.
 */
export function edit(root: Json, path: readonly Segment[], next: Json | undefined): Json {
  if (path.length === 0) return next ?? null;
  const [head, ...rest] = path as [Segment, ...Segment[]];
  if (Array.isArray(root)) {
    const i = head as number;
    const copy = root.slice();
    const item = rest.length > 0 ? edit(root[i] as Json, rest, next) : next;
    if (item === undefined) copy.splice(i, 1);
    else copy[i] = item;
    return copy;
  }
  const record = root as { [key: string]: Json };
  const key = String(head);
  const value = rest.length > 0 ? edit(record[key] as Json, rest, next) : next;
  const copy: { [key: string]: Json } = {};
  for (const k of Object.keys(record)) {
    if (k !== key) define(copy, k, record[k] as Json);
    else if (value !== undefined) define(copy, k, value);
  }
  if (!hasOwn(record, key) && value !== undefined) define(copy, key, value);
  return copy;
}

/** Sets an own data property, even for a key such as `__proto__` that plain assignment would treat specially. */
function define(o: { [key: string]: Json }, key: string, value: Json): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}
