/**
 * The method table's lookup and the `resultType` helpers of the generated `methods.ts`, as
 * functions of the revision's data: the table, the `resultType` values the schema names, and
 * the result rules (what an absent `resultType` means, which type an `input_required` result
 * is, whether it needs content). The generated module binds them to its data.
 */
import { deepFreeze, hasOwn, isPlainObject, quoteShort } from "./json.js";

/** One problem found in a result (the generated validators' `ValidationIssue`, as far as this module reads it). */
export interface ResultIssue {
  readonly path: string;
  readonly message: string;
  readonly keyword: string;
}

/** What a generated validator answers, as far as this module reads it. */
export type ResultCheck = { readonly ok: true } | { readonly ok: false; readonly issues: readonly ResultIssue[] };

/** A row of the method table, as far as this module reads it. */
export interface ResultMethodRow {
  readonly kind: string;
  /** The schema's result types of the method, by name. */
  readonly results: readonly string[];
}

/** Options of `resolveResultType` and `parseResult`. */
export interface ResultTypeOptions {
  /** `resultType` values an extension adds; a value neither here nor in `RESULT_TYPES` is invalid. */
  readonly known?: readonly string[];
}

/** What `resolveResultType` answers. */
export type ResultTypeResolution = { readonly ok: true; readonly resultType: string } | { readonly ok: false; readonly reason: string };

/** What `parseResult` answers, before the generated module types `value` by method. */
export type ParsedResultCore =
  | { readonly ok: true; readonly resultType: string; readonly type: string | null; readonly value: unknown }
  | { readonly ok: false; readonly issues: readonly ResultIssue[] };

/** What a revision says about results: read from its schema and prose by the generator. */
export interface ResultRules {
  /** The `resultType` values the schema names. */
  readonly resultTypes: readonly string[];
  /** The `resultType` a result without one has. */
  readonly absentResultType: string;
  /** Whether the schema's results require `resultType`: a result without one is validated as a copy with it filled in. */
  readonly fillResultType: boolean;
  /**
   * Present (true) when the schema's `Result` names no `resultType` (revisions before 2026-07-28): a
   * result's `resultType` member is then extra data, kept and not read, and every result is read as
   * {@link absentResultType} (a 2025-11-25 result that has one is not refused as "unknown resultType").
   */
  readonly resultTypeUnnamed?: true;
  /**
   * The request methods whose completed results carry the caching fields (2026-07-28 and later, server/utilities/caching):
   * a result read for one of them without `ttlMs`, or with a negative one, is read with `ttlMs: 0` (clients SHOULD
   * assume 0 when it is absent, which only older servers do, and treat a negative one as 0), and one without
   * `cacheScope` with `"private"` (the spec names no default; `"private"` keeps it out of shared caches, as the
   * dispatcher's default does), as a copy.
   */
  readonly cacheable?: readonly string[];
  /** The `InputRequiredResult` of the revision, when it has one. */
  readonly inputRequired?: {
    /** The schema type (`InputRequiredResult`). */
    readonly type: string;
    /** The `resultType` value that selects it (`input_required`). */
    readonly resultType: string;
    /** Whether it must carry `inputRequests` or `requestState` (or both). */
    readonly needsContent: boolean;
  };
}

/**
 * The lookup of a method table: the row of `method`, or `undefined` for a method the table
 * does not have (members of `Object.prototype` included). Any argument is safe. The table and
 * its rows are frozen ({@link deepFreeze}): the exported `METHODS` the dispatcher reads through
 * this lookup cannot be changed at run time.
 */
export function tableLookup<Row>(table: { readonly [method: string]: Row }): (method: string) => Row | undefined {
  deepFreeze(table);
  const rows: Readonly<Record<string, Row>> = Object.freeze(Object.assign(Object.create(null) as Record<string, Row>, table));
  return (method) => (typeof method === "string" ? rows[method] : undefined);
}

/** `options.known`, read without trusting `options`: only its strings count. */
function knownOf(options: unknown): readonly string[] {
  try {
    const known = typeof options === "object" && options !== null ? (options as ResultTypeOptions).known : undefined;
    return Array.isArray(known) ? known.filter((k): k is string => typeof k === "string") : [];
  } catch {
    return [];
  }
}

/** Reads `resultType` once, as own data; says whether it was absent. */
function readResultType(
  rules: ResultRules,
  result: unknown,
  options: unknown,
):
  | { readonly ok: true; readonly resultType: string; readonly absent: boolean }
  | { readonly ok: false; readonly reason: string; readonly path: "" | "/resultType"; readonly keyword: string } {
  let value: unknown;
  try {
    if (typeof result !== "object" || result === null || Array.isArray(result)) {
      // What came, as the validators say it: `undefined` is the usual one, a response without `result`.
      const got = result === null ? "null" : Array.isArray(result) ? "an array" : typeof result;
      return { ok: false, reason: "a result is an object, got " + got, path: "", keyword: "type" };
    }
    value = hasOwn.call(result, "resultType") ? (result as { resultType?: unknown }).resultType : undefined;
  } catch {
    return { ok: false, reason: "the result could not be read", path: "", keyword: "exception" };
  }
  if (value === undefined || rules.resultTypeUnnamed === true) return { ok: true, resultType: rules.absentResultType, absent: true };
  if (typeof value !== "string") return { ok: false, reason: "resultType must be a string", path: "/resultType", keyword: "resultType" };
  if (rules.resultTypes.includes(value) || knownOf(options).includes(value)) return { ok: true, resultType: value, absent: false };
  // An extension's value is read when the caller names it: say how.
  return { ok: false, reason: "unknown resultType " + quoteShort(value) + " (an extension's is accepted when options.known names it)", path: "/resultType", keyword: "resultType" };
}

/**
 * `resolveResultType` of a revision: the `resultType` of a result (absent → the rules'
 * `absentResultType`; a value the revision or `options.known` names → that value; anything
 * else → invalid). Never throws. The rules are frozen ({@link deepFreeze}), the exported
 * `RESULT_TYPES` they hold included: no caller can add a result type to what is accepted.
 */
export function resultTypeResolver(rules: ResultRules): (result: unknown, options?: ResultTypeOptions) => ResultTypeResolution {
  deepFreeze(rules);
  return (result, options = {}) => {
    const read = readResultType(rules, result, options);
    return read.ok ? { ok: true, resultType: read.resultType } : { ok: false, reason: read.reason };
  };
}

/**
 * `result` with the caching fields a client reads when the server left them out ({@link ResultRules.cacheable}): a copy
 * with `ttlMs: 0` for an absent or negative `ttlMs` and `cacheScope: "private"` for an absent one, else `result` itself.
 * Reading a member may throw (a proxy, a getter): the caller reports it.
 */
function withCacheFields(result: object): object {
  const ttlMs: unknown = hasOwn.call(result, "ttlMs") ? (result as { ttlMs?: unknown }).ttlMs : undefined;
  const cacheScope: unknown = hasOwn.call(result, "cacheScope") ? (result as { cacheScope?: unknown }).cacheScope : undefined;
  const staleTtl = ttlMs === undefined || (typeof ttlMs === "number" && ttlMs < 0);
  if (!staleTtl && cacheScope !== undefined) return result;
  const filled: { ttlMs?: number; cacheScope?: string } = {};
  if (staleTtl) filled.ttlMs = 0;
  if (cacheScope === undefined) filled.cacheScope = "private";
  return { ...result, ...filled };
}

function fail(path: string, message: string, keyword: string): { readonly ok: false; readonly issues: readonly ResultIssue[] } {
  return { ok: false, issues: [{ path, message, keyword }] };
}

/**
 * `parseResult` of a revision: reads the result of a request by its `resultType` first, then
 * by structure (an `input_required` reply is never read as an empty completed result). Extra
 * members are kept. A value added through `options.known` is returned unchecked with
 * `type: null`. When the rules fill `resultType`, a result without one is checked (and
 * returned) as a copy with it filled in. Never throws. The rules are frozen, as
 * {@link resultTypeResolver} freezes them.
 */
export function resultParser(
  rules: ResultRules,
  methodInfo: (method: string) => ResultMethodRow | undefined,
  validatorsByType: { readonly [type: string]: ((value: unknown) => ResultCheck) | undefined },
): (method: string, result: unknown, options?: ResultTypeOptions) => ParsedResultCore {
  deepFreeze(rules);
  const inputRequired = rules.inputRequired;
  return (method, result, options = {}) => {
    const info = methodInfo(method);
    if (info === undefined || info.kind === "notification") {
      const name: unknown = method;
      return fail("", typeof name === "string" ? "no request method " + quoteShort(name) : "a method is a string", "method");
    }
    const resolved = readResultType(rules, result, options);
    if (!resolved.ok) return fail(resolved.path, resolved.reason, resolved.keyword);
    const resultType = resolved.resultType;
    if (inputRequired !== undefined && resultType === inputRequired.resultType) {
      if (!info.results.includes(inputRequired.type)) return fail("/resultType", method + " cannot answer " + inputRequired.resultType, "resultType");
      const checked = validatorsByType[inputRequired.type]!(result);
      if (!checked.ok) return checked;
      if (inputRequired.needsContent) {
        let empty: boolean;
        try {
          const r = result as { inputRequests?: unknown; requestState?: unknown };
          empty = r.inputRequests === undefined && r.requestState === undefined;
        } catch {
          return fail("", "the result could not be read", "exception");
        }
        if (empty) return fail("", "an InputRequiredResult needs inputRequests or requestState (or both)", "required");
      }
      return { ok: true, resultType, type: inputRequired.type, value: result };
    }
    if (resultType !== rules.absentResultType) return { ok: true, resultType, type: null, value: result };
    let value: unknown = result;
    try {
      // Only plain data is completed: a copy of a class instance would be plain, and pass where the instance is refused.
      if (isPlainObject(result)) {
        if (rules.fillResultType && resolved.absent) value = { ...result, resultType };
        if (rules.cacheable !== undefined && rules.cacheable.indexOf(method) >= 0) value = withCacheFields(value as object);
      }
    } catch {
      return fail("", "the result could not be read", "exception");
    }
    let first: readonly ResultIssue[] | undefined;
    for (const type of info.results) {
      if (type === inputRequired?.type) continue;
      const validate = validatorsByType[type];
      if (validate === undefined) continue;
      const checked = validate(value);
      if (checked.ok) return { ok: true, resultType, type, value };
      first ??= checked.issues;
    }
    return { ok: false, issues: first ?? [{ path: "", message: "no result type for " + method, keyword: "method" }] };
  };
}
