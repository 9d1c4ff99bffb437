/**
 * Test support: the intended differences between our validators and ajv on upstream's
 * `schema.json` (`test/intended-differences.json`).
 *
 * An entry does not describe symptoms; it states the difference itself, as a change to
 * what ajv checks:
 *
 * - `schemaPatch`: an RFC 6902 JSON Patch of the published schema, whose `test`
 *   operations pin the text it edits; or
 * - `format`: a change to one of ajv-formats' string formats, `accept` (also accept
 *   strings matching this regex) and/or `reject` (also reject strings matching it).
 *
 * A disagreement on a value is covered by an entry exactly when:
 *
 * - the version is one the entry lists, and the type is one it lists (or it lists none);
 * - ajv on the published schema and our validator give the verdicts the entry names
 *   (e.g. ajv rejects, ours accepts);
 * - ajv with the entry's change applied gives our verdict.
 *
 * So the change must explain the whole disagreement: a value that also differs for any
 * other reason stays uncovered (a value showing two listed differences at once is
 * covered when all the version's entries applied together explain it). The suite also
 * fails on an entry that covers nothing.
 */
import { readFileSync } from "node:fs";
import { ajvFormat, ajvOracle, type AjvOracle, type FormatCheck } from "./ajv-oracle.js";

export type Verdict = "accepts" | "rejects";

/** One RFC 6902 operation (the subset the entries need). */
export type PatchOperation =
  | { readonly op: "test"; readonly path: string; readonly value: unknown }
  | { readonly op: "add"; readonly path: string; readonly value: unknown }
  | { readonly op: "replace"; readonly path: string; readonly value: unknown }
  | { readonly op: "remove"; readonly path: string };

/** A change to an ajv-formats format: regexes (no flags) of strings to accept or reject besides. */
export interface FormatChange {
  readonly name: string;
  readonly accept?: string;
  readonly reject?: string;
}

export interface IntendedDifference {
  /** Stable name, used in counts and messages. */
  readonly id: string;
  /** Corpus labels (`corpusVersions()[].label`) the entry applies to. */
  readonly versions: readonly string[];
  /** Types whose validators may show the difference; absent means any type. */
  readonly types?: readonly string[];
  /** ajv's verdict on the published schema in the covered cases. */
  readonly ajv: Verdict;
  /** Our verdict in the covered cases. */
  readonly ours: Verdict;
  /** How our semantics differ from the published schema, as an edit of that schema. */
  readonly schemaPatch?: readonly PatchOperation[];
  /** How our semantics differ from ajv-formats' check of a format. */
  readonly format?: FormatChange;
  /** Why the difference is intended. */
  readonly reason: string;
}

/** Reads and checks the file; throws on anything malformed, so a typo cannot widen an entry. */
export function loadIntendedDifferences(path: string, knownVersions: readonly string[]): IntendedDifference[] {
  const data = JSON.parse(readFileSync(path, "utf8")) as { differences?: unknown };
  if (!Array.isArray(data.differences)) throw new Error(`${path}: expected { "differences": [...] }`);
  const seen = new Set<string>();
  return data.differences.map((raw: unknown, i: number) => {
    const where = `${path}: differences[${i}]`;
    const e = raw as Record<string, unknown>;
    const allowed = new Set(["id", "versions", "types", "ajv", "ours", "schemaPatch", "format", "reason"]);
    for (const key of Object.keys(e)) if (!allowed.has(key)) throw new Error(`${where}: unknown field ${key}`);
    if (typeof e.id !== "string" || e.id === "") throw new Error(`${where}: id must be a non-empty string`);
    if (seen.has(e.id)) throw new Error(`${where}: duplicate id ${e.id}`);
    seen.add(e.id);
    if (!isStringList(e.versions) || e.versions.length === 0) throw new Error(`${where}: versions must list corpus labels`);
    for (const v of e.versions) if (!knownVersions.includes(v)) throw new Error(`${where}: unknown version ${v}`);
    if (e.types !== undefined && (!isStringList(e.types) || e.types.length === 0))
      throw new Error(`${where}: types, when present, must list type names`);
    if (!isVerdict(e.ajv) || !isVerdict(e.ours) || e.ajv === e.ours)
      throw new Error(`${where}: ajv and ours must be "accepts"/"rejects" and differ`);
    if ((e.schemaPatch === undefined) === (e.format === undefined)) throw new Error(`${where}: give exactly one of schemaPatch and format`);
    if (e.schemaPatch !== undefined) {
      if (!Array.isArray(e.schemaPatch) || e.schemaPatch.length === 0) throw new Error(`${where}: schemaPatch must be non-empty`);
      for (const op of e.schemaPatch as PatchOperation[]) {
        if (!["test", "add", "replace", "remove"].includes(op.op) || typeof op.path !== "string")
          throw new Error(`${where}: unsupported patch operation ${JSON.stringify(op)}`);
      }
    }
    if (e.format !== undefined) {
      const f = e.format as Record<string, unknown>;
      for (const key of Object.keys(f)) if (!["name", "accept", "reject"].includes(key)) throw new Error(`${where}: unknown format field ${key}`);
      if (typeof f.name !== "string") throw new Error(`${where}: format.name must be a format name`);
      ajvFormat(f.name);
      if (f.accept === undefined && f.reject === undefined) throw new Error(`${where}: format needs accept and/or reject`);
      for (const key of ["accept", "reject"] as const) {
        if (f[key] !== undefined && typeof f[key] !== "string") throw new Error(`${where}: format.${key} must be a regex source`);
        if (typeof f[key] === "string") new RegExp(f[key]);
      }
    }
    if (typeof e.reason !== "string" || e.reason.trim().length < 20) throw new Error(`${where}: reason must explain the difference`);
    return e as unknown as IntendedDifference;
  });
}

function isStringList(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === "string");
}

function isVerdict(v: unknown): v is Verdict {
  return v === "accepts" || v === "rejects";
}

/**
 * ajv on `schema` with the changes of `entries` applied, in order: the schema patches,
 * then each format check widened by the `accept`s and narrowed by the `reject`s.
 */
export function changedOracle(schema: Record<string, unknown>, entries: readonly IntendedDifference[]): AjvOracle {
  let patched = schema;
  for (const e of entries) if (e.schemaPatch) patched = applyPatch(patched, e.schemaPatch);
  const formats: Record<string, FormatCheck> = {};
  for (const name of new Set(entries.flatMap((e) => (e.format ? [e.format.name] : [])))) {
    const base = ajvFormat(name);
    const changes = entries.flatMap((e) => (e.format?.name === name ? [e.format] : []));
    const accept = changes.flatMap((c) => (c.accept === undefined ? [] : [new RegExp(c.accept)]));
    const reject = changes.flatMap((c) => (c.reject === undefined ? [] : [new RegExp(c.reject)]));
    formats[name] = (s) => (base(s) || accept.some((r) => r.test(s))) && !reject.some((r) => r.test(s));
  }
  return ajvOracle(patched, formats);
}

/** A patched deep copy of `document`; throws when a `test` fails or a path does not exist. */
export function applyPatch<T>(document: T, operations: readonly PatchOperation[]): T {
  let doc = structuredClone(document) as unknown;
  for (const op of operations) {
    const tokens = parsePointer(op.path);
    if (op.op === "test") {
      if (!deepEqual(resolve(doc, tokens, op.path), op.value))
        throw new Error(`patch test failed at ${op.path}: found ${JSON.stringify(resolve(doc, tokens, op.path))}`);
      continue;
    }
    if (tokens.length === 0) {
      if (op.op === "remove") throw new Error("cannot remove the whole document");
      doc = structuredClone(op.value);
      continue;
    }
    const parent = resolve(doc, tokens.slice(0, -1), op.path);
    const last = tokens[tokens.length - 1] as string;
    if (Array.isArray(parent)) {
      const index = last === "-" && op.op === "add" ? parent.length : arrayIndex(last, parent.length + (op.op === "add" ? 1 : 0), op.path);
      if (op.op === "add") parent.splice(index, 0, structuredClone(op.value));
      else if (op.op === "replace") parent[index] = structuredClone(op.value);
      else parent.splice(index, 1);
    } else if (typeof parent === "object" && parent !== null) {
      const record = parent as Record<string, unknown>;
      if (op.op !== "add" && !Object.prototype.hasOwnProperty.call(record, last)) throw new Error(`patch: no ${op.path}`);
      if (op.op === "remove") delete record[last];
      else record[last] = structuredClone(op.value);
    } else {
      throw new Error(`patch: ${op.path} is not inside a container`);
    }
  }
  return doc as T;
}

function parsePointer(pointer: string): string[] {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) throw new Error(`not a JSON Pointer: ${pointer}`);
  return pointer
    .slice(1)
    .split("/")
    .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function arrayIndex(token: string, length: number, pointer: string): number {
  if (!/^(0|[1-9][0-9]*)$/.test(token) || Number(token) >= length) throw new Error(`patch: bad array index in ${pointer}`);
  return Number(token);
}

function resolve(doc: unknown, tokens: readonly string[], pointer: string): unknown {
  let node = doc;
  for (const token of tokens) {
    if (Array.isArray(node)) node = node[arrayIndex(token, node.length, pointer)];
    else if (typeof node === "object" && node !== null && Object.prototype.hasOwnProperty.call(node, token))
      node = (node as Record<string, unknown>)[token];
    else throw new Error(`patch: no ${pointer}`);
  }
  return node;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}
