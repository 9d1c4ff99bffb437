/**
 * The `_meta` helpers of the generated `meta.ts`: the key grammar, the reserved-key tests, and
 * the checks and builders of request, notification and result `_meta`, as functions of the
 * revision's data (its rules, and one table of known keys per `_meta` shape, each key's value
 * check given as data). The generated module binds them to that data and names the types.
 */
import { deepFreeze, escapeToken, isJsonData, isPlainObject, own } from "./json.js";

/** A key split by the `_meta` key grammar: `io.modelcontextprotocol/protocolVersion` → prefix `io.modelcontextprotocol/`, labels `["io", "modelcontextprotocol"]`, name `protocolVersion`. */
export interface ParsedMetaKey {
  readonly ok: true;
  /** The prefix with its trailing `/`; absent for an unprefixed key. */
  readonly prefix?: string;
  /** The prefix's dot-separated labels; empty for an unprefixed key. */
  readonly labels: readonly string[];
  readonly name: string;
}

/** Why a string is not a `_meta` key. */
export interface MetaKeyProblem {
  readonly ok: false;
  readonly reason: string;
}

/** One problem with a `_meta` object. */
export interface MetaProblem {
  /** The key concerned ("" for `_meta` itself); a key longer than 200 characters is described, not copied. */
  readonly key: string;
  readonly problem: "missing" | "malformed" | "invalid-key" | "unknown-reserved-key" | "not-an-object" | "not-json" | "too-many";
  readonly message: string;
}

/** At most this many problems are listed; one `too-many` problem says how many more there were. */
export const MAX_META_PROBLEMS = 100;

/** The `-32602` error object for a `_meta` with problems; `data.problems` names each one. */
export interface InvalidMetaError {
  readonly code: -32602;
  readonly message: string;
  readonly data: { readonly problems: readonly MetaProblem[] };
}

/** Options of the `check…Meta` readers. */
export interface MetaCheckOptions {
  /** Also report keys that break the key grammar, and unknown keys under reserved prefixes. Default: false (lenient). */
  readonly strict?: boolean;
}

/** What a `check…Meta` reader answers: the `_meta` and its known fields, or the `-32602` error naming every problem. */
export type MetaCheck<Meta, Fields> =
  | { readonly ok: true; readonly meta: Meta; readonly fields: Fields }
  | { readonly ok: false; readonly error: InvalidMetaError };

/** What a generated validator answers, as far as this module reads it. */
export type MetaValueCheckResult =
  | { readonly ok: true }
  | { readonly ok: false; readonly issues: readonly { readonly path: string; readonly message: string; readonly keyword?: string }[] };

/**
 * How a known key's value is checked, as data: a JSON type (`integer` and `number` exclude
 * `NaN` and infinities), a literal, a generated validator, the validator of the `_meta` type
 * that declares the key (`within`, given `{ [key]: value }`: for a value type with no validator
 * of its own, an object type written in place or a string or number a constraint tag narrows;
 * only the issues at the key or inside it count), `any` (the schema allows any value), or
 * `unchecked` (no validator reaches the value: its type has no name, nor has the `_meta` type).
 */
export type MetaValueCheck =
  | "string"
  | "boolean"
  | "integer"
  | "number"
  | "any"
  | "unchecked"
  | { readonly literal: string | number | boolean }
  | { readonly validate: (value: unknown) => MetaValueCheckResult }
  | { readonly within: (meta: unknown) => MetaValueCheckResult; readonly key: string };

/** A key of a `_meta` shape: the key, its field name in `…MetaFields`, whether it is required, its value check. */
export interface MetaKnownKey {
  readonly key: string;
  readonly field: string;
  readonly required: boolean;
  readonly check: MetaValueCheck;
}

/** One `_meta` shape of a revision: request, notification or result. */
export interface MetaShape {
  /** `request`, `notification` or `result`, for messages. */
  readonly what: string;
  /** Whether `_meta` itself is required. */
  readonly metaRequired: boolean;
  readonly keys: readonly MetaKnownKey[];
}

/** What a revision says about `_meta` keys besides its shapes: read from its schema and prose by the generator. */
export interface MetaRules {
  /** The revision's name, for messages. */
  readonly version: string;
  /** The revision's `isValidMetaKey`. */
  readonly isValidKey: (key: string) => boolean;
  /** The revision's `isReservedMetaKey`. */
  readonly isReservedKey: (key: string) => boolean;
  /** Unprefixed keys reserved for OpenTelemetry trace context: their values are strings. */
  readonly openTelemetryKeys: readonly string[];
  /** Every key the revision defines, in any `_meta` shape (strict mode does not call them unknown). */
  readonly definedKeys: readonly string[];
}

/**
 * How a revision reserves prefixes: `none`; `second-label` (the second label is
 * `modelcontextprotocol` or `mcp`); `label-followed-by-label` (some label is
 * `modelcontextprotocol` or `mcp` and another label follows it).
 */
export type ReservedPrefixRule = "none" | "second-label" | "label-followed-by-label";

const LABEL = /^[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;
const NAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;

/** A string for a message: short ones quoted, long ones by length. */
function show(s: string): string {
  return s.length <= 60 ? JSON.stringify(s) : "a string of " + s.length + " characters";
}

/**
 * Splits a `_meta` key into prefix labels and name, following the key grammar of the
 * specification's `_meta` section: labels start with a letter, end with a letter or digit,
 * hold letters, digits and hyphens; a name is empty or starts and ends with a letter or
 * digit, with `-`, `_` and `.` inside. Never throws.
 */
export function parseMetaKey(key: string): ParsedMetaKey | MetaKeyProblem {
  if (typeof key !== "string") return { ok: false, reason: "a key is a string" };
  const slash = key.indexOf("/");
  const name = slash < 0 ? key : key.slice(slash + 1);
  if (slash >= 0 && name.indexOf("/") >= 0) return { ok: false, reason: 'a key has one "/" at most, between prefix and name' };
  const labels = slash < 0 ? [] : key.slice(0, slash).split(".");
  for (const label of labels) {
    if (!LABEL.test(label)) {
      return { ok: false, reason: "prefix label " + show(label) + " must start with a letter, end with a letter or digit, and hold only letters, digits and hyphens" };
    }
  }
  if (name !== "" && !NAME.test(name)) {
    return { ok: false, reason: "name " + show(name) + " must start and end with a letter or digit, and hold only letters, digits, '-', '_' and '.'" };
  }
  return slash < 0 ? { ok: true, labels, name } : { ok: true, prefix: key.slice(0, slash + 1), labels, name };
}

/** `isValidMetaKey` of a revision: the key grammar when the revision states one (`grammar`), else any string. */
export function metaKeyTest(grammar: boolean): (key: string) => boolean {
  return grammar ? (key) => parseMetaKey(key).ok : (key) => typeof key === "string";
}

/** Whether prefix `labels` are reserved under `rule`; labels compare without regard to case. */
function reservedPrefix(rule: ReservedPrefixRule, labels: readonly string[]): boolean {
  const mcp = (label: string) => {
    const l = label.toLowerCase();
    return l === "modelcontextprotocol" || l === "mcp";
  };
  switch (rule) {
    case "none":
      return false;
    case "second-label":
      return labels.length >= 2 && mcp(labels[1]!);
    case "label-followed-by-label":
      return labels.slice(0, -1).some(mcp);
  }
}

/**
 * `isReservedMetaKey` of a revision: a prefixed key is reserved when its prefix is under
 * `rule`; an unprefixed key when it is one of `unprefixed` (the keys the schema or the
 * specification define).
 */
export function reservedMetaKeyTest(rule: ReservedPrefixRule, unprefixed: readonly string[]): (key: string) => boolean {
  const reserved: ReadonlySet<string> = new Set(unprefixed);
  return (key) => {
    if (typeof key !== "string") return false;
    const slash = key.indexOf("/");
    if (slash < 0) return reserved.has(key);
    return reservedPrefix(rule, key.slice(0, slash).split("."));
  };
}

/** Issues of a `_meta` value a message lists; more are counted ("and 2 more"). */
const LISTED_ISSUES = 5;

/** A validator's issues as one message (`/a: expected string; /b: …`, at most {@link LISTED_ISSUES}); `undefined` when it passed. */
function issuesText(r: MetaValueCheckResult): string | undefined {
  if (r.ok) return undefined;
  if (r.issues.length === 0) return "invalid";
  const listed = r.issues.slice(0, LISTED_ISSUES).map((issue) => (issue.path === "" ? "" : issue.path + ": ") + issue.message);
  const more = r.issues.length - listed.length;
  return listed.join("; ") + (more > 0 ? "; and " + more + " more" : "");
}

/** What is wrong with `v` under `check`, or `undefined`. */
export function metaValueProblem(check: MetaValueCheck, v: unknown): string | undefined {
  switch (check) {
    case "string":
    case "boolean":
      return typeof v === check ? undefined : "expected " + check;
    case "integer":
      return Number.isInteger(v) ? undefined : "expected integer";
    case "number":
      return typeof v === "number" && Number.isFinite(v) ? undefined : "expected number";
    case "any":
    case "unchecked":
      return undefined;
  }
  if ("literal" in check) return v === check.literal ? undefined : "expected " + JSON.stringify(check.literal);
  if ("within" in check) return issuesText(withinKey(check.within, check.key, v));
  return issuesText(check.validate(v));
}

/**
 * `value` checked as the member `key` of a `_meta` object by that object's validator `within`: the issues at the key or
 * inside it, their paths from the value (a required key other than `key` missing is no issue of the value's), and an
 * `exception`, which the validator says at the root: only reading `value` can throw, the object around it is ours
 * (else a getter or Proxy trap that throws inside the value would leave no issue at the key, and the value would pass).
 */
function withinKey(within: (meta: unknown) => MetaValueCheckResult, key: string, value: unknown): MetaValueCheckResult {
  const meta = {};
  Object.defineProperty(meta, key, { value, enumerable: true, writable: true, configurable: true });
  const checked = within(meta);
  if (checked.ok) return checked;
  const at = "/" + escapeToken(key);
  const mine = (path: string) => path === at || path.startsWith(at + "/");
  const issues = checked.issues
    .filter((issue) => mine(issue.path) || (issue.path === "" && issue.keyword === "exception"))
    .map((issue) => ({ path: mine(issue.path) ? issue.path.slice(at.length) : "", message: issue.message }));
  return issues.length > 0 ? { ok: false, issues } : { ok: true };
}

function keyText(key: string): string {
  return key.length <= 200 ? key : show(key);
}

/** `options.strict`, read without trusting `options`. */
function strictOf(options: unknown): boolean {
  try {
    return typeof options === "object" && options !== null && (options as MetaCheckOptions).strict === true;
  } catch {
    return false;
  }
}

/** What `checkMeta` found: the problems, and the known keys' values, each read once. */
interface MetaReading {
  readonly problems: MetaProblem[];
  readonly fields: Record<string, unknown>;
}

/** A message of at most 500 characters. */
function clip(message: string): string {
  return message.length <= 500 ? message : message.slice(0, 497) + "…";
}

/** What an exception says (its message, clipped; not its name, unlike the validators' `describeError`), read without trusting it. */
function exceptionMessage(e: unknown): string {
  try {
    if (e instanceof Error && typeof e.message === "string") return clip(e.message);
  } catch {
    // a message getter that throws, a revoked Proxy: say no more
  }
  return "an exception";
}

/**
 * The problems of a `_meta`. `lenient` checks the known keys; `strict` also reports keys that
 * break the grammar, unknown keys under reserved prefixes and non-string OpenTelemetry values;
 * `build` (what we send) reports broken keys, non-string OpenTelemetry values and values that
 * are not JSON data.
 */
function checkMeta(rules: MetaRules, shape: MetaShape, meta: unknown, metaRequired: boolean, keys: "lenient" | "strict" | "build"): MetaReading {
  const found: MetaProblem[] = [];
  const fields: Record<string, unknown> = {};
  let dropped = 0;
  const problems = {
    push(p: MetaProblem): void {
      if (found.length < MAX_META_PROBLEMS) found.push({ key: keyText(p.key), problem: p.problem, message: clip(p.message) });
      else dropped++;
    },
  };
  try {
    if (meta === undefined) {
      for (const k of shape.keys) if (k.required) problems.push({ key: k.key, problem: "missing", message: "missing required key " + k.key });
      if (metaRequired && found.length === 0) problems.push({ key: "", problem: "missing", message: "_meta is required" });
      return { problems: found, fields };
    }
    if (!isPlainObject(meta)) return { problems: [{ key: "", problem: "not-an-object", message: "_meta must be a plain JSON object" }], fields };
    const knownKeys = new Set<string>();
    for (const k of shape.keys) {
      knownKeys.add(k.key);
      const value: unknown = own(meta, k.key);
      if (value === undefined) {
        if (k.required) problems.push({ key: k.key, problem: "missing", message: "missing required key " + k.key });
        continue;
      }
      // defineProperty: a field named `__proto__` is data, not the prototype.
      Object.defineProperty(fields, k.field, { value, enumerable: true, writable: true, configurable: true });
      const problem = metaValueProblem(k.check, value);
      if (problem !== undefined) problems.push({ key: k.key, problem: "malformed", message: k.key + " is malformed: " + problem });
    }
    if (keys !== "lenient") {
      for (const key of Object.keys(meta)) {
        const value: unknown = meta[key];
        if (keys === "build" && !isJsonData(value)) {
          problems.push({ key, problem: "not-json", message: "the value of " + show(key) + " is not JSON data" });
        }
        if (rules.openTelemetryKeys.includes(key) && typeof value !== "string") {
          problems.push({ key, problem: "malformed", message: key + " is malformed: expected a string (W3C Trace Context or Baggage)" });
        }
        if (knownKeys.has(key) || rules.definedKeys.includes(key)) continue;
        if (!rules.isValidKey(key)) {
          const parsed = parseMetaKey(key);
          problems.push({ key, problem: "invalid-key", message: "key " + show(key) + " is invalid: " + (parsed.ok ? "" : parsed.reason) });
        } else if (keys === "strict" && key.indexOf("/") >= 0 && rules.isReservedKey(key)) {
          problems.push({
            key,
            problem: "unknown-reserved-key",
            message: "key " + show(key) + " uses a reserved prefix but is not defined by protocol revision " + rules.version,
          });
        }
      }
    }
  } catch (e) {
    problems.push({ key: "", problem: "malformed", message: "_meta could not be read: " + exceptionMessage(e) });
  }
  if (dropped > 0) found.push({ key: "", problem: "too-many", message: dropped + " more problems not listed" });
  return { problems: found, fields };
}

/** The `_meta` member of a params or result object, read as own data; `undefined` for anything else. */
function metaOf(container: unknown): unknown {
  try {
    return typeof container === "object" && container !== null && !Array.isArray(container) ? own(container, "_meta") : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The `check…Meta` reader of a shape: reads and checks the `_meta` of a params or result
 * object. Unknown keys are kept and, unless `strict`, not reported. Never throws. `Meta` and
 * `Fields` are the generated types of the `_meta` and of its known fields. The rules and the
 * shape are frozen ({@link deepFreeze}).
 */
export function metaChecker<Meta, Fields>(rules: MetaRules, shape: MetaShape): (container: unknown, options?: MetaCheckOptions) => MetaCheck<Meta, Fields> {
  // The rules hold exported lists (`OPENTELEMETRY_META_KEYS`): frozen, no caller can change what is checked.
  deepFreeze(rules);
  deepFreeze(shape);
  return (container, options = {}) => {
    const meta = metaOf(container);
    const { problems, fields } = checkMeta(rules, shape, meta, shape.metaRequired, strictOf(options) ? "strict" : "lenient");
    if (problems.length > 0) {
      const message = "Invalid " + shape.what + " _meta: " + problems.map((p) => p.message).join("; ");
      return { ok: false, error: { code: -32602, message, data: { problems } } };
    }
    // Checked above: every known key present holds a value its check accepts.
    return { ok: true, meta: (meta ?? {}) as Meta, fields: fields as Fields };
  };
}

/**
 * The `build…Meta` builder of a shape: returns `meta` once it is a valid `_meta` (a plain
 * object of JSON data, every key following the key grammar, every known key holding a value
 * of its type, OpenTelemetry keys holding strings); throws a `TypeError` naming every problem.
 */
export function metaBuilder<Meta>(rules: MetaRules, shape: MetaShape): (meta: Meta) => Meta {
  deepFreeze(rules);
  deepFreeze(shape);
  return (meta) => {
    // What we send carries `_meta`, whether or not the shape requires one.
    const { problems } = checkMeta(rules, shape, meta, true, "build");
    if (problems.length > 0) throw new TypeError("invalid " + shape.what + " _meta: " + problems.map((p) => p.message).join("; "));
    return meta;
  };
}
