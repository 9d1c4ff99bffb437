/**
 * The runtime helpers that generated validators call, as source snippets. Each snippet
 * is emitted once, and only when the generated code uses it (directly or through another
 * snippet's `needs`). The generated code has no runtime dependency.
 */

interface Snippet {
  readonly needs: readonly string[];
  readonly code: string;
}

/** Format checks, by ajv-formats name. RFC 3986 / 6570 / 4648 / 3339 grammars, written for this project. */
const FORMAT_SNIPPETS: Record<string, Snippet> = {
  uri: {
    needs: ["uriGrammar"],
    code: `function isUri(s: string): boolean {
  return URI.test(s);
}`,
  },
  "uri-reference": {
    needs: ["uriGrammar"],
    code: `function isUriReference(s: string): boolean {
  return URI.test(s) || RELATIVE_REF.test(s);
}`,
  },
  "uri-template": {
    needs: [],
    code: `const URI_TEMPLATE_LITERAL = "(?:[^\\\\x00-\\\\x20\\"'%<>\\\\\\\\^\`{|}\\\\x7f]|%[0-9A-Fa-f]{2})";
const URI_TEMPLATE_VARSPEC = "(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\\\\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*(?::[1-9][0-9]{0,3}|\\\\*)?";
const URI_TEMPLATE = new RegExp(
  "^(?:" + URI_TEMPLATE_LITERAL + "|\\\\{[+#./;?&=,!@|]?" + URI_TEMPLATE_VARSPEC + "(?:," + URI_TEMPLATE_VARSPEC + ")*\\\\})*$",
);
function isUriTemplate(s: string): boolean {
  return URI_TEMPLATE.test(s);
}`,
  },
  byte: {
    needs: [],
    code: `const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
function isByte(s: string): boolean {
  return BASE64.test(s);
}`,
  },
  date: {
    needs: ["dateParts"],
    code: `function isDate(s: string): boolean {
  return validDate(s);
}`,
  },
  time: {
    needs: ["timeParts"],
    code: `function isTime(s: string): boolean {
  return validTime(s);
}`,
  },
  "date-time": {
    needs: ["dateParts", "timeParts"],
    code: `function isDateTime(s: string): boolean {
  const at = s.search(/[Tt ]/);
  return at === 10 && validDate(s.slice(0, 10)) && validTime(s.slice(11));
}`,
  },
  duration: {
    needs: [],
    code: `const DURATION = /^P(?!$)(?:(?:[0-9]+Y)?(?:[0-9]+M)?(?:[0-9]+D)?(?:T(?=[0-9])(?:[0-9]+H)?(?:[0-9]+M)?(?:[0-9]+S)?)?|[0-9]+W)$/;
function isDuration(s: string): boolean {
  return DURATION.test(s);
}`,
  },
  email: {
    needs: ["hostnameGrammar"],
    code: `const EMAIL_LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_\`{|}~-]+(?:\\.[A-Za-z0-9!#$%&'*+/=?^_\`{|}~-]+)*$/;
function isEmail(s: string): boolean {
  const at = s.lastIndexOf("@");
  return at > 0 && at <= 64 && EMAIL_LOCAL.test(s.slice(0, at)) && validHostname(s.slice(at + 1));
}`,
  },
  hostname: {
    needs: ["hostnameGrammar"],
    code: `function isHostname(s: string): boolean {
  return validHostname(s);
}`,
  },
  ipv4: {
    needs: [],
    code: `const IPV4 = /^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])$/;
function isIpv4(s: string): boolean {
  return IPV4.test(s);
}`,
  },
  ipv6: {
    needs: [],
    code: `function isIpv6(s: string): boolean {
  let text = s;
  let groups = 8;
  const lastColon = text.lastIndexOf(":");
  if (lastColon >= 0 && text.indexOf(".", lastColon) > lastColon) {
    if (!/^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])$/.test(text.slice(lastColon + 1))) return false;
    text = text.slice(0, lastColon + 1) + "0";
    groups = 7;
  }
  const halves = text.split("::");
  if (halves.length > 2) return false;
  const parts = halves.map((h) => (h === "" ? [] : h.split(":")));
  if (!parts.every((list) => list.every((g) => /^[0-9A-Fa-f]{1,4}$/.test(g)))) return false;
  const count = parts.reduce((n, list) => n + list.length, 0);
  return halves.length === 2 ? count < groups : count === groups;
}`,
  },
  uuid: {
    needs: [],
    code: `const UUID = /^(?:urn:uuid:)?[0-9A-Fa-f]{8}-(?:[0-9A-Fa-f]{4}-){3}[0-9A-Fa-f]{12}$/;
function isUuid(s: string): boolean {
  return UUID.test(s);
}`,
  },
  "json-pointer": {
    needs: [],
    code: `function isJsonPointer(s: string): boolean {
  return /^(?:\\/(?:[^~/]|~[01])*)*$/.test(s);
}`,
  },
  "relative-json-pointer": {
    needs: [],
    code: `function isRelativeJsonPointer(s: string): boolean {
  return /^(?:0|[1-9][0-9]*)(?:#|(?:\\/(?:[^~/]|~[01])*)*)$/.test(s);
}`,
  },
  regex: {
    needs: [],
    code: `function isRegex(s: string): boolean {
  try {
    new RegExp(s, "u");
    return true;
  } catch {
    return false;
  }
}`,
  },
};

/** Name of the generated checker function for a format. */
export function formatFunction(format: string): string {
  return `is${format.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase())}`;
}

const SNIPPETS: Record<string, Snippet> = {
  core: {
    needs: [],
    code: `/** One problem found in a value. */
export interface ValidationIssue {
  /** JSON Pointer (RFC 6901) into the validated value; "" is the value itself. */
  readonly path: string;
  /** What is wrong, for a person. */
  readonly message: string;
  /** The rule that failed: type, const, enum, required, format, minimum, maximum, maxItems, items, discriminator, anyOf, depth or exception. */
  readonly keyword: string;
}

/** The answer of a \`validateX\` function: the value, typed, or every issue found. */
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

/**
 * How many nested references a recursive type (such as JSONValue) may go through before
 * the value is rejected with a \`depth\` issue. Keeps hostile nesting from exhausting the stack.
 */
export const MAX_DEPTH = 1000;

type Check = (v: any, d: number) => boolean;
type Collect = (v: any, p: string, o: ValidationIssue[], d: number) => void;

function isObject(v: unknown): v is Record<string, any> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function typeName(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : Number.isFinite(v) ? "number" : String(v);
  return typeof v;
}

function issue(o: ValidationIssue[], path: string, keyword: string, message: string): void {
  o.push({ path, keyword, message });
}

function expected(o: ValidationIssue[], path: string, what: string, v: unknown, keyword: string = "type"): void {
  o.push({ path, keyword, message: "expected " + what + ", got " + typeName(v) });
}

function missing(o: ValidationIssue[], path: string, name: string): void {
  o.push({ path, keyword: "required", message: "missing required property " + JSON.stringify(name) });
}

function escapeToken(k: string): string {
  return k.replace(/~/g, "~0").replace(/\\//g, "~1");
}

/** Pushes "expected object" unless \`v\` is a non-null, non-array object; true when it is. */
function object(o: ValidationIssue[], p: string, v: unknown): v is Record<string, any> {
  if (isObject(v)) return true;
  expected(o, p, "object", v);
  return false;
}

/** Pushes "missing" when a required property is absent; true when present. */
function need(o: ValidationIssue[], p: string, name: string, value: unknown): boolean {
  if (value !== undefined) return true;
  missing(o, p + "/" + escapeToken(name), name);
  return false;
}

/** A required property with a one-issue check. */
function req(o: ValidationIssue[], p: string, name: string, value: unknown, ok: boolean, what: string, keyword?: string): void {
  if (value === undefined) missing(o, p + "/" + escapeToken(name), name);
  else if (!ok) expected(o, p + "/" + escapeToken(name), what, value, keyword);
}

/** An optional property with a one-issue check. */
function opt(o: ValidationIssue[], p: string, name: string, value: unknown, ok: boolean, what: string, keyword?: string): void {
  if (value !== undefined && !ok) expected(o, p + "/" + escapeToken(name), what, value, keyword);
}

/** The public functions of one type: \`isX\`, \`validateX\` and its Standard Schema object. */
interface Validators<T> {
  readonly is: (value: unknown) => value is T;
  readonly validate: (value: unknown) => ValidationResult<T>;
  readonly schema: StandardSchemaV1<unknown, T>;
}

/**
 * Builds the public functions of one type. Each closure calls its own check directly, so
 * the engine can inline it; a throwing getter or Proxy trap becomes a "no", never an exception.
 */
function define<T>(f: Check, c: Collect): Validators<T> {
  const is = (value: unknown): value is T => {
    try {
      return f(value, 0);
    } catch {
      return false;
    }
  };
  const validate = (value: unknown): ValidationResult<T> => {
    try {
      if (f(value, 0)) return { ok: true, value: value as T };
    } catch {
      // the collector reports what could not be read
    }
    return invalid(value, c);
  };
  return { is, validate, schema: standard(validate) };
}

function invalid(v: unknown, c: Collect): { readonly ok: false; readonly issues: ValidationIssue[] } {
  const issues: ValidationIssue[] = [];
  try {
    c(v, "", issues, 0);
  } catch (error) {
    issues.push({ path: "", keyword: "exception", message: "reading the value threw: " + describeError(error) });
  }
  if (issues.length === 0) issues.push({ path: "", keyword: "exception", message: "the value changed while it was validated" });
  return { ok: false, issues };
}

function describeError(error: unknown): string {
  try {
    return error instanceof Error ? error.name + ": " + error.message : typeName(error);
  } catch {
    return "unknown error";
  }
}

function standard<T>(validate: (v: unknown) => ValidationResult<T>): StandardSchemaV1<unknown, T> {
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

function pointerSegments(pointer: string): string[] {
  return pointer === "" ? [] : pointer.slice(1).split("/").map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}`,
  },
  hasOwn: { needs: [], code: `const hasOwn = Object.prototype.hasOwnProperty;` },
  own: {
    needs: ["hasOwn"],
    code: `function own(v: any, k: string): any {
  return hasOwn.call(v, k) ? v[k] : undefined;
}`,
  },
  depth: {
    needs: [],
    code: `function tooDeep(o: ValidationIssue[], path: string): void {
  o.push({ path, keyword: "depth", message: "nested more than " + MAX_DEPTH + " levels deep" });
}`,
  },
  anyOf: {
    needs: [],
    code: `/** Reports a value matching no member of a union: a summary, then the issues of the closest member. */
function anyOf(o: ValidationIssue[], p: string, v: unknown, d: number, members: string, collectors: Collect[]): void {
  let best: ValidationIssue[] | undefined;
  for (const collect of collectors) {
    const found: ValidationIssue[] = [];
    collect(v, p, found, d);
    if (best === undefined || found.length < best.length) best = found;
  }
  o.push({ path: p, keyword: "anyOf", message: "matches none of " + members });
  if (best) for (const i of best) o.push(i);
}`,
  },
  uriGrammar: {
    needs: [],
    code: `const URI_PCT = "%[0-9A-Fa-f]{2}";
const URI_SUB = "A-Za-z0-9\\\\-._~!$&'()*+,;=";
const URI_PCHAR = "(?:[" + URI_SUB + ":@]|" + URI_PCT + ")";
const URI_AUTHORITY =
  "(?:(?:[" + URI_SUB + ":]|" + URI_PCT + ")*@)?(?:\\\\[(?:[0-9A-Fa-f:.]+|v[0-9A-Fa-f]+\\\\.[" + URI_SUB + ":]+)\\\\]|(?:[" + URI_SUB + "]|" + URI_PCT + ")*)(?::[0-9]*)?";
const URI_TAIL = "(?:\\\\?(?:" + URI_PCHAR + "|[/?])*)?(?:#(?:" + URI_PCHAR + "|[/?])*)?$";
const URI = new RegExp(
  "^[A-Za-z][A-Za-z0-9+.\\\\-]*:(?://" + URI_AUTHORITY + "(?:/" + URI_PCHAR + "*)*|/(?:" + URI_PCHAR + "+(?:/" + URI_PCHAR + "*)*)?|" + URI_PCHAR + "+(?:/" + URI_PCHAR + "*)*)?" + URI_TAIL,
);
const RELATIVE_REF = new RegExp(
  "^(?://" + URI_AUTHORITY + "(?:/" + URI_PCHAR + "*)*|/(?:" + URI_PCHAR + "+(?:/" + URI_PCHAR + "*)*)?|(?:[" + URI_SUB + "@]|" + URI_PCT + ")+(?:/" + URI_PCHAR + "*)*)?" + URI_TAIL,
);`,
  },
  dateParts: {
    needs: [],
    code: `function validDate(s: string): boolean {
  const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(s);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return days !== undefined && day >= 1 && day <= days;
}`,
  },
  timeParts: {
    needs: [],
    code: `function validTime(s: string): boolean {
  const m = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\\.[0-9]+)?(?:[Zz]|[+-]([0-9]{2}):([0-9]{2}))$/.exec(s);
  if (!m) return false;
  const hour = Number(m[1]);
  const minute = Number(m[2]);
  const second = Number(m[3]);
  const offsetHour = m[4] === undefined ? 0 : Number(m[4]);
  const offsetMinute = m[5] === undefined ? 0 : Number(m[5]);
  return hour <= 23 && minute <= 59 && second <= 60 && offsetHour <= 23 && offsetMinute <= 59;
}`,
  },
  hostnameGrammar: {
    needs: [],
    code: `const HOSTNAME_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
function validHostname(s: string): boolean {
  if (s.length === 0 || s.length > 253) return false;
  return s.split(".").every((label) => HOSTNAME_LABEL.test(label));
}`,
  },
};

for (const [format, snippet] of Object.entries(FORMAT_SNIPPETS)) SNIPPETS[`format:${format}`] = snippet;

/**
 * The source of the requested snippets and everything they need, in a fixed order
 * (the order of the table above), so output does not depend on use order.
 */
export function runtimeSource(used: ReadonlySet<string>): string {
  const wanted = new Set<string>();
  const add = (name: string) => {
    const snippet = SNIPPETS[name];
    if (!snippet) throw new Error(`unknown runtime snippet ${name}`);
    if (wanted.has(name)) return;
    wanted.add(name);
    snippet.needs.forEach(add);
  };
  add("core");
  used.forEach(add);
  return Object.keys(SNIPPETS)
    .filter((name) => wanted.has(name))
    .map((name) => SNIPPETS[name]!.code)
    .join("\n\n");
}
