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
  for (const m of mutantPlan(root)) yield { description: m.description, kind: m.kind, value: m.make() };
}

/** A mutant not built yet: its description and kind, and how to build it. */
export interface PlannedMutant {
  readonly description: string;
  readonly kind: string;
  make(): Json;
}

/**
 * The mutants of {@link mutants}, same order, without building them: to pick a few of
 * many (a fuzz run judges a sample) without copying the value for each.
 */
export function mutantPlan(root: Json): PlannedMutant[] {
  const out: PlannedMutant[] = [];
  const nodes: Segment[][] = [];
  collect(root, [], nodes);
  for (const path of nodes) {
    const node = get(root, path);
    const at = pointer(path) || "(root)";
    const mutant = (kind: string, change: string, target: readonly Segment[], next: Json | undefined): void => {
      out.push({
        description: `${kind} ${at}${change === "" ? "" : " " + change}`,
        kind: change === "" ? kind : `${kind} ${change}`,
        make: () => edit(root, target, next),
      });
    };
    // Delete each object property and each array item, at every depth.
    if (path.length > 0) mutant(typeof path[path.length - 1] === "number" ? "delete-item" : "delete", "", path, undefined);
    // Change the node's type (leaves and containers alike); -1 and 7 also probe number bounds.
    for (const replacement of REPLACEMENTS) {
      const sameNumber = typeof node === "number" && typeof replacement === "number";
      if (sameNumber ? replacement === node : kindOf(replacement) === kindOf(node)) continue;
      mutant("retype", `${kindOf(node)}→${JSON.stringify(replacement)}`, path, replacement);
    }
    const probes: readonly Json[] = typeof node === "string" ? STRING_PROBES : typeof node === "number" ? NUMBER_PROBES : [];
    for (const probe of probes) if (probe !== node) mutant("probe", `→${JSON.stringify(probe)}`, path, probe);
    // Lengthen each non-empty array past upstream's `@maxItems 100`, repeating its items.
    if (Array.isArray(node) && node.length > 0 && node.length < GROWN_LENGTH) {
      mutant("grow", `to ${GROWN_LENGTH} items`, path, Array.from({ length: GROWN_LENGTH }, (_, i) => node[i % node.length] as Json));
    }
    if (!isRecord(node)) continue;
    if (hasOwn(node, "id")) mutant("set", "id: null", [...path, "id"], null);
    if (hasOwn(node, "jsonrpc")) for (const wrong of ["1.0", 2]) mutant("set", `jsonrpc: ${JSON.stringify(wrong)}`, [...path, "jsonrpc"], wrong);
    if (!hasOwn(node, EXTRA_KEY)) {
      for (const extra of EXTRA_VALUES) mutant("extra", `${JSON.stringify(EXTRA_KEY)}: ${JSON.stringify(extra)}`, [...path, EXTRA_KEY], extra);
    }
    // A JSON.parse'd object may have an own "__proto__" key; validators must treat it as data.
    if (!hasOwn(node, "__proto__")) mutant("extra", `"__proto__": "s"`, [...path, "__proto__"], "s");
  }
  return out;
}

/**
 * A place in a generated instance that a typed mutation can break, as the arbitraries
 * of `arbitrary.ts` record it while they build the value (paths from the root):
 *
 * - `required`: a required property (dropping it should make the value invalid);
 * - `no-null`: a value whose type does not admit `null`;
 * - `discriminant`: a property whose literal names a union member, with the values that
 *   name the other members;
 * - `literal`: a value whose type is one literal;
 * - `format`: a string with an `@format`;
 * - `number`: a number, whether it must be an integer, and its bounds;
 * - `array`: an array, its `@maxItems`, and whether its items may be `null`;
 * - `index`: an object with an index signature, and whether its values may be `null`.
 */
export type Site =
  | { readonly kind: "required"; readonly path: readonly Segment[] }
  | { readonly kind: "no-null"; readonly path: readonly Segment[] }
  | { readonly kind: "discriminant"; readonly path: readonly Segment[]; readonly value: Json; readonly others: readonly Json[] }
  | { readonly kind: "literal"; readonly path: readonly Segment[]; readonly value: Json }
  | { readonly kind: "format"; readonly path: readonly Segment[]; readonly format: string }
  | { readonly kind: "number"; readonly path: readonly Segment[]; readonly integer: boolean; readonly minimum?: number; readonly maximum?: number }
  | { readonly kind: "array"; readonly path: readonly Segment[]; readonly maxItems?: number; readonly elementAcceptsNull: boolean }
  | { readonly kind: "index"; readonly path: readonly Segment[]; readonly valueAcceptsNull: boolean };

/** A string that names no member of any MCP union. */
export const NO_MEMBER = "no-such-member";

/** Key of the `null` entry added to an object with an index signature. */
export const NULL_ENTRY_KEY = "x-null-entry";

/**
 * Strings that probe each `@format` where RFCs and ajv-formats part ways, or where a
 * string is almost of the format: the fuzz puts every one at every place of that format.
 */
export const FORMAT_PROBES: Readonly<Record<string, readonly string[]>> = {
  uri: ["", "urn:", "a:?q", "a:#f", "http://h:x", "http://a@b@c", "http://[::1]/", "http://[1]/", "http:/[::1]/", "a:/[v1.x]:/p", "rel/path", "http://exa mple.com", "%zz", "a\u007fb:c"],
  "uri-template": ["", "{user.name}", "a\u007fb", "{", "}", "{a b}", "x{?a,b}", "{+x}", "{x:3}", "{x*}", "%zz", "a b", "caf\u00e9/{x}", "a\u0085b", "a\ud800b", "a\ufffeb", "\u{1fffe}"],
  byte: ["", "YQ==", "YQ", "YQ=", "Y Q==", "====", "YQ==\n", "\n", "YQ==\r\nYQ==", "-_==", "YWJj"],
};

/** How many other members a `swap-discriminant` mutation tries per discriminant. */
const SWAPS = 3;

/**
 * The typed mutants of a generated instance: one or more per site (see {@link Site}),
 * plus one change of JSON type per node. `pick` (any non-negative integer, drawn by
 * the fuzz) rotates which replacement and which other union members are used, so that
 * runs with different picks try different ones. `noise` (random strings per format, drawn
 * by the fuzz) goes at every place of its format too (`format-noise`). Each mutant's
 * `kind` is its family first (`drop-required`, `null`, `break-discriminant`, …), then the change.
 */
export function siteMutants(root: Json, sites: readonly Site[], pick: number, noise: Readonly<Record<string, readonly string[]>> = {}): Mutant[] {
  const out: Mutant[] = [];
  const seen = new Set<string>();
  const add = (family: string, change: string, path: readonly Segment[], next: Json | undefined): void => {
    const key = `${pointer(path)} ${next === undefined ? "-" : JSON.stringify(next)}`;
    if (seen.has(key)) return;
    seen.add(key);
    const at = pointer(path) || "(root)";
    out.push({ description: `${family} ${at}${change === "" ? "" : " " + change}`, kind: change === "" ? family : `${family} ${change}`, value: edit(root, path, next) });
  };
  const discriminantPaths = new Set(sites.filter((s) => s.kind === "discriminant").map((s) => pointer(s.path)));
  for (const site of sites) {
    const node = get(root, site.path);
    switch (site.kind) {
      case "required":
        add("drop-required", "", site.path, undefined);
        break;
      case "no-null":
        if (node !== null) add("null", `${kindOf(node)}→null`, site.path, null);
        break;
      case "discriminant": {
        add("break-discriminant", `${JSON.stringify(node)}→${JSON.stringify(otherThan(node, [node, ...site.others]))}`, site.path, otherThan(node, [node, ...site.others]));
        const n = site.others.length;
        for (let i = 0; i < Math.min(SWAPS, n); i++) {
          const other = site.others[(pick + i) % n] as Json;
          add("swap-discriminant", `${JSON.stringify(node)}→${JSON.stringify(other)}`, site.path, other);
        }
        break;
      }
      case "literal":
        if (!discriminantPaths.has(pointer(site.path))) add("literal", `${JSON.stringify(node)}→${JSON.stringify(otherThan(node, [node]))}`, site.path, otherThan(node, [node]));
        break;
      case "format":
        for (const probe of FORMAT_PROBES[site.format] ?? []) if (probe !== node) add("format-probe", `${site.format} →${JSON.stringify(probe)}`, site.path, probe);
        for (const text of noise[site.format] ?? []) if (text !== node) add("format-noise", `${site.format} →${JSON.stringify(text)}`, site.path, text);
        break;
      case "number": {
        if (typeof node !== "number") break;
        // Past 2^52 every double is an integer: there the fraction is 0.5 itself.
        if (site.integer) add("fraction", "", site.path, Number.isInteger(node + 0.5) ? 0.5 : node + 0.5);
        if (site.minimum !== undefined) {
          add("at-minimum", "", site.path, site.minimum);
          add("below-minimum", "", site.path, site.integer ? site.minimum - 1 : site.minimum - 0.001);
        }
        if (site.maximum !== undefined) {
          add("at-maximum", "", site.path, site.maximum);
          add("above-maximum", "", site.path, site.integer ? site.maximum + 1 : site.maximum + 0.001);
        }
        break;
      }
      case "array": {
        if (!Array.isArray(node)) break;
        if (!site.elementAcceptsNull) add("append-null", "", [...site.path, node.length], null);
        if (site.maxItems !== undefined && node.length > 0) {
          const repeat = (length: number): Json[] => Array.from({ length }, (_, i) => node[i % node.length] as Json);
          add("at-maxItems", `${site.maxItems} items`, site.path, repeat(site.maxItems));
          add("over-maxItems", `${site.maxItems + 1} items`, site.path, repeat(site.maxItems + 1));
        }
        break;
      }
      case "index":
        if (!site.valueAcceptsNull && isRecord(node) && !hasOwn(node, NULL_ENTRY_KEY)) {
          add("index-null", `${JSON.stringify(NULL_ENTRY_KEY)}: null`, [...site.path, NULL_ENTRY_KEY], null);
        }
        break;
    }
  }
  // Change each node's JSON type once, the replacement rotating with `pick`.
  const nodes: Segment[][] = [];
  collect(root, [], nodes);
  for (const [i, path] of nodes.entries()) {
    const node = get(root, path);
    const options = REPLACEMENTS.filter((r) => kindOf(r) !== kindOf(node) && !(typeof node === "number" && typeof r === "number"));
    const replacement = options[(pick + i) % options.length] as Json;
    add("retype", `${kindOf(node)}→${JSON.stringify(replacement)}`, path, replacement);
  }
  return out;
}

/** A value of the same JSON type as `value` that is none of `taken`. */
function otherThan(value: Json, taken: readonly Json[]): Json {
  if (typeof value === "boolean") return !value;
  if (typeof value === "number") {
    let n = value + 1;
    while (taken.includes(n)) n++;
    return n;
  }
  if (typeof value === "string") {
    let s = NO_MEMBER;
    while (taken.includes(s)) s += "-";
    return s;
  }
  return NO_MEMBER;
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
