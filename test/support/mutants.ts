/**
 * Test support: every mutant of a JSON value that the upstream corpus suite checks.
 *
 * Unlike `bench/mutants.ts` (a few spread samples per kind, for timing), this is
 * exhaustive: every property at every depth is deleted, every node is replaced by
 * each JSON type it is not, and so on. Mutants share the unchanged parts of the
 * original (copy on the edited path only); validators never mutate their input.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** One mutated copy of a value. */
export interface Mutant {
  /** e.g. `delete /params/name`, `retype /params/_meta integer→null`, `extra /params "x-extra": {}`. */
  readonly description: string;
  readonly value: Json;
}

type Segment = string | number;

/**
 * Replacements for a node, one per JSON type: each is tried where the node is of
 * another type (see {@link kindOf}); `-1` and `7` also probe `@minimum`/`@maximum`.
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

/** Values given to the extra property added to every object. */
const EXTRA_VALUES: readonly Json[] = ["s", null, {}];

/** Name of the extra property: not a property of any MCP type. */
export const EXTRA_KEY = "x-extra";

/** A JSON object: not null, not an array. */
function isRecord(v: Json): v is { [key: string]: Json } {
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
    const at = pointer(path);
    // Delete each object property and each array item, at every depth.
    if (path.length > 0) {
      const kind = typeof path[path.length - 1] === "number" ? "delete-item" : "delete";
      yield { description: `${kind} ${at}`, value: edit(root, path, () => undefined) };
    }
    // Change the node's type (leaves and containers alike), and probe number bounds.
    for (const replacement of REPLACEMENTS) {
      const sameNumber = typeof node === "number" && typeof replacement === "number";
      if (kindOf(replacement) === kindOf(node) && !sameNumber) continue;
      if (sameNumber && replacement === node) continue;
      yield {
        description: `retype ${at || "(root)"} ${kindOf(node)}→${JSON.stringify(replacement)}`,
        value: edit(root, path, () => replacement),
      };
    }
    const probes: readonly Json[] = typeof node === "string" ? STRING_PROBES : typeof node === "number" ? NUMBER_PROBES : [];
    for (const probe of probes) {
      if (probe === node) continue;
      yield { description: `probe ${at || "(root)"} ${JSON.stringify(node)}→${JSON.stringify(probe)}`, value: edit(root, path, () => probe) };
    }
    if (isRecord(node)) {
      if (hasOwn(node, "id")) yield { description: `id: null at ${at || "(root)"}`, value: edit(root, [...path, "id"], () => null) };
      if (hasOwn(node, "jsonrpc")) {
        for (const wrong of ["1.0", 2] as const) {
          yield { description: `jsonrpc: ${JSON.stringify(wrong)} at ${at || "(root)"}`, value: edit(root, [...path, "jsonrpc"], () => wrong) };
        }
      }
      if (!hasOwn(node, EXTRA_KEY)) {
        for (const extra of EXTRA_VALUES) {
          yield {
            description: `extra ${at || "(root)"} ${JSON.stringify(EXTRA_KEY)}: ${JSON.stringify(extra)}`,
            value: edit(root, [...path, EXTRA_KEY], () => extra),
          };
        }
      }
      // A JSON.parse'd object may have an own "__proto__" key; validators must treat it as data.
      if (!hasOwn(node, "__proto__")) {
        yield { description: `extra ${at || "(root)"} "__proto__": "s"`, value: edit(root, [...path, "__proto__"], () => "s") };
      }
    }
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

function get(root: Json, path: readonly Segment[]): Json {
  let node: Json = root;
  for (const segment of path) node = (node as Record<Segment, Json>)[segment] as Json;
  return node;
}

/**
 * A copy of `root` with the node at `path` replaced by `change(old)`, or removed when
 * `change` returns undefined (an array item is spliced out). Only the containers on
 * the path are copied; an object keeps its key order, a new key goes last.
 */
function edit(root: Json, path: readonly Segment[], change: (old: Json | undefined) => Json | undefined): Json {
  if (path.length === 0) return change(root) ?? null;
  const [head, ...rest] = path as [Segment, ...Segment[]];
  if (Array.isArray(root)) {
    const i = head as number;
    const copy = root.slice();
    if (rest.length > 0) copy[i] = edit(root[i] as Json, rest, change);
    else {
      const next = change(root[i]);
      if (next === undefined) copy.splice(i, 1);
      else copy[i] = next;
    }
    return copy;
  }
  const record = root as { [key: string]: Json };
  const key = head as string;
  const copy: { [key: string]: Json } = {};
  let seen = false;
  for (const k of Object.keys(record)) {
    if (k !== key) {
      define(copy, k, record[k] as Json);
      continue;
    }
    seen = true;
    const next = rest.length > 0 ? edit(record[k] as Json, rest, change) : change(record[k]);
    if (next !== undefined) define(copy, k, next);
  }
  if (!seen) {
    const next = rest.length > 0 ? undefined : change(undefined);
    if (next !== undefined) define(copy, key, next);
  }
  return copy;
}

/** Sets an own data property, even for a key such as `__proto__` that plain assignment would treat specially. */
function define(o: { [key: string]: Json }, key: string, value: Json): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}
