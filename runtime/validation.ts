/**
 * The runtime of generated `validators.ts`: issue collection, the entry points of each type
 * (`isX`, `validateX`, Standard Schema v1), union and array collectors, and the JSON Schema
 * format checks. The generator copies each top-level declaration into `validators.ts` only
 * when the generated code (or another copied declaration) uses it, together with the
 * declarations of `json.ts` it imports; the public ones (see the validators emitter) stay
 * exported there.
 */
import { isPlainArray, isPlainObject, MAX_DEPTH, MAX_ISSUES, quote, unescapeToken } from "./json.js";

/** One problem found in a value. */
export interface ValidationIssue {
  /** JSON Pointer (RFC 6901) into the validated value; "" is the value itself. */
  readonly path: string;
  /** What is wrong, for a person. */
  readonly message: string;
  /** The rule that failed: type, const, enum, required, format, minimum, maximum, maxItems, items, discriminator, anyOf, depth, exception or maxIssues. */
  readonly keyword: string;
}

/** The answer of a `validateX` function: the value, typed, or every issue found. */
export type ValidationResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly issues: ValidationIssue[] };

/** Standard Schema v1 (standardschema.dev): the interface shared by validation libraries. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardSchemaV1.Result<Output>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}

export declare namespace StandardSchemaV1 {
  type Result<Output> = { readonly value: Output; readonly issues?: undefined } | { readonly issues: ReadonlyArray<Issue> };
  interface Issue {
    readonly message: string;
    readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
  }
}

export type Check = (v: any, d: number) => boolean;
export type Collect = (v: any, p: string, o: ValidationIssue[], d: number) => void;

export function typeName(v: unknown): string {
  if (v === null) return "null";
  if (isPlainArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : Number.isFinite(v) ? "number" : String(v);
  // Its tag (`Date`, `Map`; `Object` for a class instance or a null prototype) and why it is refused.
  if (typeof v === "object" && !isPlainObject(v)) return Object.prototype.toString.call(v).slice(8, -1) + " (not plain JSON data)";
  return typeof v;
}

export function issue(o: ValidationIssue[], path: string, keyword: string, message: string): void {
  o.push({ path, message, keyword });
}

export function expected(o: ValidationIssue[], path: string, what: string, v: unknown, keyword: string = "type"): void {
  o.push({ path, message: "expected " + what + ", got " + describeValue(v), keyword });
}

/** A short description of a value for a message: the value itself when it is a short primitive, else its type. */
export function describeValue(v: unknown): string {
  if (typeof v === "string") return v.length <= 40 ? JSON.stringify(v) : "a string of " + v.length + " characters";
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : Number.isFinite(v) ? "number " + v : String(v);
  if (typeof v === "boolean") return String(v);
  return typeName(v);
}

export function missing(o: ValidationIssue[], path: string, name: string): void {
  o.push({ path, message: "missing required property " + quote(name), keyword: "required" });
}

/** Pushes "expected object" unless `v` is a non-null, non-array object; true when it is. */
export function object(o: ValidationIssue[], p: string, v: unknown): v is Record<string, any> {
  if (isPlainObject(v)) return true;
  expected(o, p, "object", v);
  return false;
}

/** Pushes "missing" when a required property (`token`: "/" and its escaped name) is absent; true when present. */
export function need(o: ValidationIssue[], p: string, token: string, value: unknown): boolean {
  if (value !== undefined) return true;
  missing(o, p + token, unescapeToken(token.slice(1)));
  return false;
}

/** A required property with a one-issue check. */
export function req(o: ValidationIssue[], p: string, token: string, value: unknown, ok: boolean, what: string, keyword?: string): void {
  if (need(o, p, token, value) && !ok) expected(o, p + token, what, value, keyword);
}

/** An optional property with a one-issue check. */
export function opt(o: ValidationIssue[], p: string, token: string, value: unknown, ok: boolean, what: string, keyword?: string): void {
  if (value !== undefined && !ok) expected(o, p + token, what, value, keyword);
}

/** A required property that must be the literal `c`: "missing", or "expected <c as JSON>" (keyword `const`). */
export function reqConst(o: ValidationIssue[], p: string, token: string, value: unknown, c: string | number | boolean): void {
  if (need(o, p, token, value) && value !== c) expected(o, p + token, JSON.stringify(c), value, "const");
}

/** An optional property that must be the literal `c` when present. */
export function optConst(o: ValidationIssue[], p: string, token: string, value: unknown, c: string | number | boolean): void {
  if (value !== undefined && value !== c) expected(o, p + token, JSON.stringify(c), value, "const");
}

/** A required property whose `typeof` must be `type`: "missing", or "expected string" / "expected boolean". */
export function reqTypeof(o: ValidationIssue[], p: string, token: string, value: unknown, type: "string" | "boolean"): void {
  if (need(o, p, token, value) && typeof value !== type) expected(o, p + token, type, value);
}

/** An optional property whose `typeof` must be `type` when present. */
export function optTypeof(o: ValidationIssue[], p: string, token: string, value: unknown, type: "string" | "boolean"): void {
  if (value !== undefined && typeof value !== type) expected(o, p + token, type, value);
}

/** A required property whose issues `collect` finds, at path `p + token` and depth `d`: "missing" when absent. */
export function reqCollect(o: ValidationIssue[], p: string, token: string, value: unknown, d: number, collect: Collect): void {
  if (need(o, p, token, value)) collect(value, p + token, o, d);
}

/** An optional property whose issues `collect` finds when present, at path `p + token` and depth `d`. */
export function optCollect(o: ValidationIssue[], p: string, token: string, value: unknown, d: number, collect: Collect): void {
  if (value !== undefined) collect(value, p + token, o, d);
}

/**
 * `isX` of one type, over its fast check `f`. The closure calls `f` directly, so the engine
 * can inline it; a throwing getter or Proxy trap becomes a "no", never an exception.
 */
export function guard<T>(f: Check): (value: unknown) => value is T {
  return (value: unknown): value is T => {
    try {
      return f(value, 0);
    } catch {
      return false;
    }
  };
}

/**
 * `validateX` of one type, over its collector `c`. It runs only the collector, which checks
 * each nested part with the fast check first and skips it when it passes; inside recursive
 * types only the root is checked first (an invalid value nested d deep would otherwise be
 * walked d times). A throwing getter or Proxy trap becomes an `exception` issue.
 */
export function validator<T>(c: Collect): (value: unknown) => ValidationResult<T> {
  return (value: unknown): ValidationResult<T> => collectIssues<T>(c, value);
}

/**
 * The answer of a `validateX` whose fast check accepted `value`: `{ ok: true, value }`, made
 * here once instead of in every `validateX` (the same object, in fewer bytes of code).
 */
export function valid<T>(value: T): ValidationResult<T> {
  return { ok: true, value };
}

/**
 * The answer of a `validateX` from its collector `c` alone: every issue of `value`, or the
 * value when there is none. Generated `validateX` functions call it when their fast check
 * did not accept the value. A throwing getter or Proxy trap becomes an `exception` issue.
 */
export function collectIssues<T>(c: Collect, value: unknown): ValidationResult<T> {
  const issues: ValidationIssue[] = [];
  try {
    c(value, "", issues, 0);
  } catch (error) {
    // Not "reading": a getter, a Proxy trap or the check itself (a format's regular expression over a huge string) may
    // have thrown.
    issues.push({ path: "", message: "the check threw: " + describeError(error), keyword: "exception" });
  }
  if (issues.length === 0) return valid(value as T);
  if (issues.length > MAX_ISSUES) {
    issues.length = MAX_ISSUES;
    issues.push({ path: "", message: "stopped after " + MAX_ISSUES + " issues", keyword: "maxIssues" });
  }
  return { ok: false, issues };
}

/**
 * Lists in `o` the issues that the members of an intersection found, each member's in its own
 * list (`found`, in member order), once each (path, keyword and message): members that check
 * one key (the same property, or a property and an index signature) would otherwise report an
 * invalid value there once per member. Repeats never count toward `MAX_ISSUES`: each member's
 * list stops at the cap on its own, so a merged list past it has more than the cap of distinct
 * issues.
 */
export function allOf(o: ValidationIssue[], found: readonly (readonly ValidationIssue[])[]): void {
  const seen = new Set<string>();
  for (const list of found) {
    for (const one of list) {
      const key = one.path + "\u0000" + one.keyword + "\u0000" + one.message;
      if (seen.has(key)) continue;
      seen.add(key);
      o.push(one);
    }
  }
}

export function describeError(error: unknown): string {
  try {
    return error instanceof Error ? error.name + ": " + error.message : typeName(error);
  } catch {
    return "unknown error";
  }
}

/**
 * The Standard Schema object of a `validateX`: its input typed as its output, `T`, as a schema
 * library's are when nothing transforms the value. Libraries infer from the input type (tRPC
 * types a procedure's callers with it, TanStack Form takes a schema whose input is the form's
 * data); `validate` still takes any value.
 */
export function standard<T>(validate: (v: unknown) => ValidationResult<T>): StandardSchemaV1<T> {
  return {
    "~standard": {
      version: 1,
      vendor: "mcp-schema-codegen",
      validate(value: unknown): StandardSchemaV1.Result<T> {
        const result = validate(value);
        if (result.ok) return { value: result.value };
        return { issues: result.issues.map((i) => ({ message: i.message, path: pointerSegments(i.path) })) };
      },
    },
  };
}

export function pointerSegments(pointer: string): string[] {
  return pointer === "" ? [] : pointer.slice(1).split("/").map(unescapeToken);
}

/**
 * Whether `v`, found at depth `d` (the root at 0, each array or object around it one more), is an
 * array or object nested deeper than `MAX_DEPTH` of them allow. Strings, numbers, booleans and
 * `null` are never too deep: a value may hold `MAX_DEPTH` nested arrays or objects, whatever their
 * leaves.
 */
export function tooDeep(v: unknown, d: number): boolean {
  return d >= MAX_DEPTH && typeof v === "object" && v !== null;
}

/** Whether a collector must stop: enough issues found, or `v` is nested too deep (said once, here). */
export function stop(o: ValidationIssue[], path: string, d: number, v: unknown): boolean {
  if (o.length > MAX_ISSUES) return true;
  if (!tooDeep(v, d)) return false;
  o.push({ path, message: "nested more than " + MAX_DEPTH + " levels deep", keyword: "depth" });
  return true;
}

/** The JSON type of a value as a bit: string 1, number 2, boolean 4, null 8, object 16, array 32; 0 for anything else. */
export function jsonType(v: unknown): number {
  if (typeof v === "string") return 1;
  if (typeof v === "number") return 2;
  if (typeof v === "boolean") return 4;
  if (v === null) return 8;
  if (isPlainArray(v)) return 32;
  return isPlainObject(v) ? 16 : 0;
}

/**
 * Collects the issues of a value against a union (`members` names its members). Only members
 * that can hold the value's JSON type (`masks`, bits as in `jsonType`) are tried; when one of
 * them has no issue the value matches and nothing is reported; otherwise the issues of the
 * closest one follow an `anyOf` summary. When no member can hold that type, one `type` issue
 * says what was expected. `memo`, when given, finds each member's issues instead
 * (`collectedOnce`, for unions in recursive types whose members overlap; a plain name, since an
 * output that needs no such union leaves it out).
 */
export function anyOf(
  o: ValidationIssue[],
  p: string,
  v: unknown,
  d: number,
  members: string,
  masks: readonly number[],
  collectors: readonly Collect[],
  memo?: (collect: Collect, v: unknown, p: string, d: number) => ValidationIssue[],
): void {
  if (o.length > MAX_ISSUES) return;
  const type = jsonType(v);
  let best: ValidationIssue[] | undefined;
  let bestScore = Infinity;
  let candidates = 0;
  for (let i = 0; i < collectors.length; i++) {
    if ((masks[i]! & type) === 0) continue;
    candidates++;
    let found: ValidationIssue[] = [];
    if (memo) found = memo(collectors[i]!, v, p, d);
    else collectors[i]!(v, p, found, d);
    if (found.length === 0) return; // this member matches
    // The member the value is closest to: a property it lacks, or a constant it does not hold (a discriminator), at the
    // union's own level weighs 3; a nested union's summary nothing; any other issue 1; of as close, the first. So an
    // error response with a bad error is told what is wrong with it, not that a request lacks its method, and a
    // `{ type: "string", … }` schema is read as the string member.
    let score = 0;
    // (Not named `issue`: the runtime's pruning would read it as a use of the function of that name.)
    for (const one of found) {
      score +=
        one.keyword === "anyOf"
          ? 0
          : (one.keyword === "required" || one.keyword === "const") && one.path.lastIndexOf("/") === p.length
            ? 3
            : 1;
    }
    if (score < bestScore) {
      best = found;
      bestScore = score;
    }
  }
  if (best === undefined) return expected(o, p, members, v);
  // With one member of the value's JSON type, its issues say it all; with several, say which were tried.
  if (candidates > 1) o.push({ path: p, message: "matches none of " + members, keyword: "anyOf" });
  o.push(...best);
}

/**
 * What collectors found during the outermost {@link collectedOnce} call now running: by the
 * object or array collected, the collector, then `path + "\u0000" + depth`.
 */
let collected: WeakMap<object, Map<Collect, Map<string, ValidationIssue[]>>> | undefined;

/**
 * The issues `collect` finds in `v` at `p` and depth `d`, for an object or array found once per
 * outermost call (and the same list returned again). For a recursive type whose collectors can
 * reach one value twice at one path: a union whose members can hold one JSON type and share a
 * property of the union's own type (`{ a?: R; x: string } | { a?: R; y: number }`; {@link anyOf}
 * takes it as `memo`), or an intersection of members that each recur (its collector pushes the
 * list with {@link pushAll}). Collected plainly, each level doubles the work; remembered, the
 * time is linear in the value.
 */
export function collectedOnce(collect: Collect, v: unknown, p: string, d: number): ValidationIssue[] {
  if (typeof v !== "object" || v === null) {
    const found: ValidationIssue[] = [];
    collect(v, p, found, d);
    return found;
  }
  const outermost = collected === undefined;
  const memo = collected ?? (collected = new WeakMap());
  try {
    let byCollector = memo.get(v);
    if (byCollector === undefined) memo.set(v, (byCollector = new Map()));
    let byPlace = byCollector.get(collect);
    if (byPlace === undefined) byCollector.set(collect, (byPlace = new Map()));
    const place = p + "\u0000" + d;
    let found = byPlace.get(place);
    if (found === undefined) {
      byPlace.set(place, (found = []));
      collect(v, p, found, d);
    }
    return found;
  } finally {
    if (outermost) collected = undefined;
  }
}

/** Appends `issues` to `o`. */
export function pushAll(o: ValidationIssue[], issues: readonly ValidationIssue[]): void {
  for (const one of issues) o.push(one);
}

/**
 * The verdicts found during the outermost {@link checkOnce} call now running: by the check, then
 * the object or array checked, as one number: `d + 1` for true at depth `d`, `-(d + 1)` for false.
 */
let checkVerdicts: Map<Check, WeakMap<object, number>> | undefined;

/**
 * `check(v, d)` for a recursive type whose check can reach one value twice: a union whose
 * members can hold one JSON type and each reach the recursion
 * (`{ a?: R; x: string } | { a?: R; y: number }`), or an intersection of two or more members
 * that do (`A & B`, both with `next?: R`). Checked plainly, each level doubles the work: 2^n
 * steps for a value n levels deep. Here an object or array is checked once per check and
 * outermost call, so the time is linear in the value. Only `d` (how much deeper the value may
 * still go, see `MAX_DEPTH`) can change a verdict: one found at depth `d` is reused at depth
 * `d` or less when true, at `d` or more when false, and found again otherwise.
 */
export function checkOnce(check: Check, v: unknown, d: number): boolean {
  if (typeof v !== "object" || v === null) return check(v, d);
  const outermost = checkVerdicts === undefined;
  const memo = checkVerdicts ?? (checkVerdicts = new Map());
  try {
    let verdicts = memo.get(check);
    if (verdicts === undefined) memo.set(check, (verdicts = new WeakMap()));
    const known = verdicts.get(v);
    if (known !== undefined && (known > 0 ? d < known : d >= -known - 1)) return known > 0;
    const ok = check(v, d);
    verdicts.set(v, ok ? d + 1 : -(d + 1));
    return ok;
  } finally {
    if (outermost) checkVerdicts = undefined;
  }
}

export const URI_HEX: string = "%[0-9A-Fa-f]{2}";
export const URI_SUB: string = "A-Za-z0-9\\-._~!$&'()*+,;=";

/** A run of `chars` with %HH escapes anywhere, as a pattern that matches in one linear pass. */
export function uriRun(chars: string): string {
  return "[" + chars + "]*(?:" + URI_HEX + "[" + chars + "]*)*";
}

export const URI_AUTHORITY: string = "(?:" + uriRun(URI_SUB + ":") + "@)?(?:\\[[" + URI_SUB + ":]+\\]|" + uriRun(URI_SUB) + ")(?::[0-9]*)?";
export const URI_TAIL: string = "(?:\\?" + uriRun(URI_SUB + ":@/?") + ")?(?:#" + uriRun(URI_SUB + ":@/?") + ")?$";

/**
 * RFC 3986 URI, scheme ":" hier-part [ "?" query ] [ "#" fragment ], as a pattern over `run`
 * (how a run of characters is written) and `authority` (after "//"): {@link URI} and
 * {@link PLAIN_URI} are this one grammar.
 */
export function uriPattern(run: (chars: string) => string, authority: string): RegExp {
  const path = run(URI_SUB + ":@/");
  const rest = run(URI_SUB + ":@/?");
  return new RegExp(
    "^[A-Za-z][A-Za-z0-9+.\\-]*:(?://" + authority + "(?:/" + path + ")?|(?!//)" + path + ")(?:\\?" + rest + ")?(?:#" + rest + ")?$",
  );
}

/** RFC 3986 URI: scheme ":" hier-part [ "?" query ] [ "#" fragment ]; IP-literals are checked by ipLiteralOk. */
export const URI: RegExp = uriPattern(uriRun, URI_AUTHORITY);

/**
 * The common URIs, without %HH escapes, userinfo or IP-literal: {@link URI}'s grammar with
 * runs of plain characters, which the engine matches in one pass (no backtracking out of a
 * userinfo that is not there). Every string it accepts, {@link URI} and ipLiteralOk accept.
 */
export const PLAIN_URI: RegExp = uriPattern((chars) => "[" + chars + "]*", "[" + URI_SUB + "]*(?::[0-9]*)?");

/** RFC 3986 relative-ref: like a URI without a scheme; the first path segment has no ":". */
export const RELATIVE_REF: RegExp = new RegExp(
  "^(?://" +
    URI_AUTHORITY +
    "(?:/" +
    uriRun(URI_SUB + ":@/") +
    ")?|(?!//)" +
    uriRun(URI_SUB + "@") +
    "(?:/" +
    uriRun(URI_SUB + ":@/") +
    ")?)" +
    URI_TAIL,
);

export function validDate(s: string): boolean {
  const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(s);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return days !== undefined && day >= 1 && day <= days;
}

export function validTime(s: string): boolean {
  const m = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.[0-9]+)?(?:[Zz]|[+-]([0-9]{2}):([0-9]{2}))$/.exec(s);
  if (!m) return false;
  const hour = Number(m[1]);
  const minute = Number(m[2]);
  const second = Number(m[3]);
  const offsetHour = m[4] === undefined ? 0 : Number(m[4]);
  const offsetMinute = m[5] === undefined ? 0 : Number(m[5]);
  return hour <= 23 && minute <= 59 && second <= 60 && offsetHour <= 23 && offsetMinute <= 59;
}

export const HOSTNAME_LABEL: RegExp = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
export function validHostname(s: string): boolean {
  if (s.length === 0 || s.length > 253) return false;
  return s.split(".").every((label) => HOSTNAME_LABEL.test(label));
}

export function formatUri(s: string): boolean {
  return PLAIN_URI.test(s) || (URI.test(s) && ipLiteralOk(s));
}

/** The URI grammar above lets any IP-literal characters through; check the literal itself (RFC 3986 section 3.2.2). */
export function ipLiteralOk(s: string): boolean {
  const open = s.indexOf("[");
  if (open < 0) return true;
  const inside = s.slice(open + 1, s.indexOf("]", open));
  return /^[vV][0-9A-Fa-f]+\.[A-Za-z0-9\-._~!$&'()*+,;=:]+$/.test(inside) || validIpv6(inside);
}

export function formatUriReference(s: string): boolean {
  return (URI.test(s) || RELATIVE_REF.test(s)) && ipLiteralOk(s);
}

// RFC 6570 section 2.1: ASCII literals, ucschar and iprivate (not C1 controls, surrogates or noncharacters), or pct-encoded.
export const URI_TEMPLATE_LITERAL: string =
  "(?:[\\x21\\x23\\x24\\x26\\x28-\\x3B\\x3D\\x3F-\\x5B\\x5D\\x5F\\x61-\\x7A\\x7E\\u00A0-\\uD7FF\\uE000-\\uFDCF\\uFDF0-\\uFFEF" +
  // Planes 1 to 16 without their last two code points (noncharacters), plane 14 from U+E1000: \u{10000}-\u{1FFFD}…\u{100000}-\u{10FFFD}.
  Array.from(
    { length: 16 },
    (_, i) => "\\u{" + (i + 1).toString(16) + (i === 13 ? "1" : "0") + "000}-\\u{" + (i + 1).toString(16) + "FFFD}",
  ).join("") +
  "]|%[0-9A-Fa-f]{2})";
export const URI_TEMPLATE_VARSPEC: string = "(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*(?::[1-9][0-9]{0,3}|\\*)?";
export const URI_TEMPLATE: RegExp = new RegExp(
  "^(?:" + URI_TEMPLATE_LITERAL + "|\\{[+#./;?&=,!@|]?" + URI_TEMPLATE_VARSPEC + "(?:," + URI_TEMPLATE_VARSPEC + ")*\\})*$",
  "u",
);
export function formatUriTemplate(s: string): boolean {
  return URI_TEMPLATE.test(s);
}

/** RFC 4648 base64 with padding: alphabet characters, then at most two "=", in a length that is a multiple of 4. */
export const BASE64: RegExp = /^[A-Za-z0-9+/]*={0,2}$/;
export function formatByte(s: string): boolean {
  return s.length % 4 === 0 && BASE64.test(s);
}

export function formatDate(s: string): boolean {
  return validDate(s);
}

export function formatTime(s: string): boolean {
  return validTime(s);
}

export function formatDateTime(s: string): boolean {
  const at = s.search(/[Tt ]/);
  return at === 10 && validDate(s.slice(0, 10)) && validTime(s.slice(11));
}

export const DURATION: RegExp = /^P(?!$)(?:(?:[0-9]+Y)?(?:[0-9]+M)?(?:[0-9]+D)?(?:T(?=[0-9])(?:[0-9]+H)?(?:[0-9]+M)?(?:[0-9]+S)?)?|[0-9]+W)$/;
export function formatDuration(s: string): boolean {
  return DURATION.test(s);
}

export const EMAIL_LOCAL: RegExp = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
export function formatEmail(s: string): boolean {
  const at = s.lastIndexOf("@");
  return at > 0 && at <= 64 && EMAIL_LOCAL.test(s.slice(0, at)) && validHostname(s.slice(at + 1));
}

export function formatHostname(s: string): boolean {
  return validHostname(s);
}

export const IPV4: RegExp = /^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])$/;
export function formatIpv4(s: string): boolean {
  return IPV4.test(s);
}

export function formatIpv6(s: string): boolean {
  return validIpv6(s);
}

/** An IPv6 address in text form (RFC 4291 section 2.2), with an optional IPv4 tail. */
export function validIpv6(text: string): boolean {
  let groups = 8;
  const lastColon = text.lastIndexOf(":");
  if (lastColon >= 0 && text.indexOf(".", lastColon) > lastColon) {
    if (
      !/^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])$/.test(
        text.slice(lastColon + 1),
      )
    )
      return false;
    text = text.slice(0, lastColon + 1) + "0";
    groups = 7;
  }
  const halves = text.split("::");
  if (halves.length > 2) return false;
  const parts = halves.map((h) => (h === "" ? [] : h.split(":")));
  if (!parts.every((list) => list.every((g) => /^[0-9A-Fa-f]{1,4}$/.test(g)))) return false;
  const count = parts.reduce((n, list) => n + list.length, 0);
  return halves.length === 2 ? count < groups : count === groups;
}

export const UUID: RegExp = /^(?:urn:uuid:)?[0-9A-Fa-f]{8}-(?:[0-9A-Fa-f]{4}-){3}[0-9A-Fa-f]{12}$/;
export function formatUuid(s: string): boolean {
  return UUID.test(s);
}

export function formatJsonPointer(s: string): boolean {
  return /^(?:\/(?:[^~/]|~[01])*)*$/.test(s);
}

export function formatRelativeJsonPointer(s: string): boolean {
  return /^(?:0|[1-9][0-9]*)(?:#|(?:\/(?:[^~/]|~[01])*)*)$/.test(s);
}

export function formatRegex(s: string): boolean {
  try {
    new RegExp(s, "u");
    return true;
  } catch {
    return false;
  }
}
/** Collects the issues of every element of an array with `collect`. */
export function items(o: ValidationIssue[], p: string, v: unknown, d: number, collect: Collect): void {
  if (!isPlainArray(v)) return expected(o, p, "array", v);
  for (let i = 0; i < v.length && o.length <= MAX_ISSUES; i++) collect(v[i], p + "/" + i, o, d);
}
