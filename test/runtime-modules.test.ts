/**
 * Unit tests of the runtime modules behind the generated `methods.ts`, `errors.ts` and
 * `meta.ts` (`runtime/methods.ts`, `runtime/errors.ts`, `runtime/meta.ts`), imported as
 * they are: each factory bound to small tables of our own, not to a schema; and of the
 * format checks' fast paths in `runtime/validation.ts` against the slow paths they stand in for.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ROOT } from "./support/corpus.js";
import {
  errorCodeClassifier,
  errorCodeTest,
  errorConstructor,
  errorResponder,
  resourceNotFoundTest,
  type ErrorCodeRules,
  type ErrorResponseShape,
} from "../runtime/errors.js";
import {
  MAX_META_PROBLEMS,
  metaBuilder,
  metaChecker,
  metaKeyTest,
  metaValueProblem,
  parseMetaKey,
  reservedMetaKeyTest,
  type MetaCheck,
  type MetaRules,
  type MetaShape,
  type MetaValueCheckResult,
} from "../runtime/meta.js";
import { resultParser, resultTypeResolver, tableLookup, type ResultCheck, type ResultRules } from "../runtime/methods.js";
import {
  formatUri,
  ipLiteralOk,
  need,
  optCollect,
  optConst,
  optTypeof,
  opt,
  PLAIN_URI,
  req,
  reqCollect,
  reqConst,
  reqTypeof,
  URI,
  URI_TEMPLATE_LITERAL,
  type ValidationIssue,
} from "../runtime/validation.js";
import { thrown } from "./support/thrown.js";

describe("runtime/methods.ts", () => {
  const TABLE = {
    ping: { kind: "request", results: ["EmptyResult"] },
    "tools/call": { kind: "request", results: ["CallToolResult", "InputRequiredResult"] },
    "notifications/cancelled": { kind: "notification", results: [] },
  } as const;
  const lookup = tableLookup<{ readonly kind: string; readonly results: readonly string[] }>(TABLE);
  /** A validator that accepts objects whose `marker` is `type`. */
  const byMarker =
    (type: string) =>
    (v: unknown): ResultCheck =>
      typeof v === "object" && v !== null && (v as { marker?: unknown }).marker === type
        ? { ok: true }
        : { ok: false, issues: [{ path: "/marker", message: "expected " + type, keyword: "const" }] };
  const validators = {
    EmptyResult: byMarker("empty"),
    CallToolResult: byMarker("call"),
    InputRequiredResult: (v: unknown): ResultCheck => (typeof v === "object" && v !== null ? { ok: true } : { ok: false, issues: [] }),
  };
  const RULES: ResultRules = {
    resultTypes: ["complete", "input_required"],
    absentResultType: "complete",
    fillResultType: true,
    inputRequired: { type: "InputRequiredResult", resultType: "input_required", needsContent: true },
  };

  it("the runtime that ships in every output names no test helper of this project in its comments (helper-94: vendored copies said 'helper-91')", () => {
    const runtime = join(ROOT, "runtime");
    const named = readdirSync(runtime)
      .filter((f) => f.endsWith(".ts"))
      .flatMap((f) => readFileSync(join(runtime, f), "utf8").split("\n").map((line, i) => [`${f}:${i + 1}`, line] as const))
      .filter(([, line]) => /helper-\d/.test(line));
    expect(named).toEqual([]);
  });

  it("tableLookup answers rows of the table only, for any argument", () => {
    expect(lookup("ping")).toBe(TABLE.ping);
    expect(lookup("toString")).toBeUndefined();
    expect(lookup("__proto__")).toBeUndefined();
    expect(lookup(42 as unknown as string)).toBeUndefined();
  });

  it("tableLookup keeps a method named __proto__ as a row", () => {
    const table = JSON.parse('{"__proto__": {"kind": "request", "results": []}}') as Record<string, { kind: string }>;
    expect(tableLookup(table)("__proto__")).toEqual({ kind: "request", results: [] });
  });

  it("resultTypeResolver reads an absent resultType as the rules say and refuses unknown values", () => {
    const resolve = resultTypeResolver(RULES);
    expect(resolve({})).toEqual({ ok: true, resultType: "complete" });
    expect(resolve({ resultType: "input_required" })).toEqual({ ok: true, resultType: "input_required" });
    expect(resolve({ resultType: "x-ext" })).toEqual({ ok: false, reason: `unknown resultType "x-ext" (an extension's is accepted when options.known names it)` });
    expect(resolve({ resultType: "x-ext" }, { known: ["x-ext"] })).toEqual({ ok: true, resultType: "x-ext" });
    expect(resolve({ resultType: 1 })).toEqual({ ok: false, reason: "resultType must be a string" });
    expect(resolve([])).toEqual({ ok: false, reason: "a result is an object, got an array" });
    expect(resolve(undefined)).toEqual({ ok: false, reason: "a result is an object, got undefined" });
    expect(resolve(Object.create({ resultType: "input_required" }))).toEqual({ ok: true, resultType: "complete" });
    expect(resolve({ resultType: "y".repeat(70) })).toEqual({ ok: false, reason: `unknown resultType "${"y".repeat(60)}…" (an extension's is accepted when options.known names it)` });
    const hostile = new Proxy({}, { getOwnPropertyDescriptor: () => { throw new Error("trap"); } });
    expect(resolve(hostile)).toEqual({ ok: false, reason: "the result could not be read" });
    expect(resolve({ resultType: "x" }, { get known(): never { throw new Error("trap"); } })).toEqual({ ok: false, reason: `unknown resultType "x" (an extension's is accepted when options.known names it)` });
  });

  it("resultParser fills resultType, checks every result type in order, and keeps the first issues", () => {
    const parse = resultParser(RULES, lookup, validators);
    expect(parse("ping", { marker: "empty" })).toEqual({ ok: true, resultType: "complete", type: "EmptyResult", value: { marker: "empty", resultType: "complete" } });
    const given = { marker: "call", resultType: "complete" };
    const call = parse("tools/call", given);
    expect(call).toEqual({ ok: true, resultType: "complete", type: "CallToolResult", value: given });
    expect(call.ok && call.value).toBe(given);
    expect(parse("ping", { marker: "call" })).toEqual({ ok: false, issues: [{ path: "/marker", message: "expected empty", keyword: "const" }] });
  });

  it("resultParser reads input_required by its rules", () => {
    const parse = resultParser(RULES, lookup, validators);
    expect(parse("ping", { resultType: "input_required", requestState: "s" })).toEqual({
      ok: false,
      issues: [{ path: "/resultType", message: "ping cannot answer input_required", keyword: "resultType" }],
    });
    expect(parse("tools/call", { resultType: "input_required" })).toEqual({
      ok: false,
      issues: [{ path: "", message: "an InputRequiredResult needs inputRequests or requestState (or both)", keyword: "required" }],
    });
    const waiting = { resultType: "input_required", requestState: "s" };
    expect(parse("tools/call", waiting)).toEqual({ ok: true, resultType: "input_required", type: "InputRequiredResult", value: waiting });
    const lenient = resultParser({ ...RULES, inputRequired: { type: "InputRequiredResult", resultType: "input_required", needsContent: false } }, lookup, validators);
    expect(lenient("tools/call", { resultType: "input_required" })).toMatchObject({ ok: true, type: "InputRequiredResult" });
  });

  it("resultParser answers methods it cannot read results of, and values added by options.known, without throwing", () => {
    const parse = resultParser(RULES, lookup, validators);
    expect(parse("notifications/cancelled", {})).toEqual({ ok: false, issues: [{ path: "", message: 'no request method "notifications/cancelled"', keyword: "method" }] });
    expect(parse(7 as unknown as string, {})).toEqual({ ok: false, issues: [{ path: "", message: "a method is a string", keyword: "method" }] });
    expect(parse("ping", { resultType: "x-ext" }, { known: ["x-ext"] })).toEqual({ ok: true, resultType: "x-ext", type: null, value: { resultType: "x-ext" } });
    expect(parse("ping", null)).toEqual({ ok: false, issues: [{ path: "", message: "a result is an object, got null", keyword: "type" }] });
    expect(parse("ping", "ok")).toEqual({ ok: false, issues: [{ path: "", message: "a result is an object, got string", keyword: "type" }] });
    const throwing = new Proxy({}, { ownKeys: () => { throw new Error("trap"); } });
    expect(parse("ping", throwing)).toEqual({ ok: false, issues: [{ path: "", message: "the result could not be read", keyword: "exception" }] });
  });

  it("resultParser without fillResultType or an input-required type validates the result as given", () => {
    const parse = resultParser({ resultTypes: [], absentResultType: "complete", fillResultType: false }, lookup, validators);
    const given = { marker: "empty" };
    expect(parse("ping", given)).toEqual({ ok: true, resultType: "complete", type: "EmptyResult", value: given });
    expect(parse("ping", { resultType: "input_required" })).toEqual({
      ok: false,
      issues: [{ path: "/resultType", message: `unknown resultType "input_required" (an extension's is accepted when options.known names it)`, keyword: "resultType" }],
    });
    expect(parse("ping", {})).toEqual({ ok: false, issues: [{ path: "/marker", message: "expected empty", keyword: "const" }] });
  });
});

describe("runtime/errors.ts", () => {
  const RULES: ErrorCodeRules = {
    version: "test-rev",
    partition: "mcp-partitioned",
    standard: [-32700, -32600, -32601, -32602, -32603],
    defined: [-32700, -32600, -32601, -32602, -32603, -32021],
    retired: [-32002],
    withData: [[-32021, "missingCapability"]],
  };
  type Response = ErrorResponseShape & { readonly error: { readonly data?: unknown } };

  it("errorCodeTest accepts the given codes only", () => {
    const is = errorCodeTest<-32700 | -32021>(RULES.defined);
    expect([-32700, -32021, -32002, "-32700", Number.NaN, null].map((c) => is(c))).toEqual([true, true, false, false, false, false]);
  });

  it("errorCodeClassifier partitions the integers by the revision's rule", () => {
    const codes = [-32700, -32000, -32019, -32020, -32021, -32099, -32100, -32768, -32769, 1, 0.5, Number.NaN];
    expect(codes.map(errorCodeClassifier(RULES))).toEqual([
      "standard",
      "legacy",
      "legacy",
      "mcp",
      "mcp",
      "mcp",
      "jsonrpc-reserved",
      "jsonrpc-reserved",
      "application",
      "application",
      "application",
      "application",
    ]);
    expect([-32000, -32021, -32099, -32100].map(errorCodeClassifier({ ...RULES, partition: "jsonrpc-2.0" }))).toEqual([
      "legacy",
      "mcp",
      "legacy",
      "jsonrpc-reserved",
    ]);
  });

  it("errorResponder builds responses and refuses what the revision forbids, with exact messages", () => {
    const respond = errorResponder<Response>(RULES);
    expect(respond(1, 42, "nope")).toEqual({ jsonrpc: "2.0", id: 1, error: { code: 42, message: "nope" } });
    expect(respond(undefined, -32600, "bad", { why: 1 })).toEqual({ jsonrpc: "2.0", error: { code: -32600, message: "bad", data: { why: 1 } } });
    expect(respond("a", -32010, "legacy")).toEqual({ jsonrpc: "2.0", id: "a", error: { code: -32010, message: "legacy" } });
    expect(thrown(() => respond(1, 1.5, "m"))).toBe("RangeError: error code 1.5 is not an integer");
    // helper-90: String() of these threw its own TypeError, or the Proxy's error.
    expect(thrown(() => respond(1, Object.create(null) as number, "m"))).toBe("RangeError: error code of type object is not an integer");
    expect(thrown(() => respond(1, new Proxy({}, { get: () => { throw new Error("boom"); } }) as unknown as number, "m"))).toBe("RangeError: error code of type object is not an integer");
    expect(thrown(() => respond(1, 1, 2 as unknown as string))).toBe("TypeError: an error message is a string");
    expect(thrown(() => respond(1.5, 1, "m"))).toBe("TypeError: a request id is a string or an integer");
    expect(thrown(() => respond(1, -32002, "m"))).toBe("RangeError: error code -32002 is retired: protocol revision test-rev must not send it");
    expect(thrown(() => respond(1, -32050, "m"))).toBe("RangeError: error code -32050 is reserved and not defined by protocol revision test-rev");
    expect(thrown(() => respond(1, -32200, "m"))).toBe("RangeError: error code -32200 is reserved and not defined by protocol revision test-rev");
    expect(thrown(() => respond(1, -32021, "m"))).toBe("RangeError: error code -32021 carries data the schema requires: use missingCapability()");
    // Under jsonrpc-2.0, -32000..-32099 are implementation-defined: not reserved.
    expect(errorResponder<Response>({ ...RULES, partition: "jsonrpc-2.0" })(1, -32050, "m")).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32050, message: "m" } });
  });

  it("errorConstructor sends its code, its default message, and data when given", () => {
    const make = errorConstructor<Response, string | number, unknown>(-32021, "Missing capability");
    expect(make(3, { required: ["x"] })).toEqual({ jsonrpc: "2.0", id: 3, error: { code: -32021, message: "Missing capability", data: { required: ["x"] } } });
    expect(make("r", undefined, "other")).toEqual({ jsonrpc: "2.0", id: "r", error: { code: -32021, message: "other" } });
    const noId = errorConstructor<Response, undefined, unknown>(-32700, "Parse error");
    expect(noId(undefined, undefined)).toEqual({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error" } });
    // The id rule errorResponder applies: undefined is left out; anything but a string or an integer (past 2^53 too, as
    // the validators take it) is refused.
    const anyId = errorConstructor<Response, string | number, unknown>(-32602, "Invalid params");
    expect(anyId(2 ** 53, undefined).id).toBe(2 ** 53);
    for (const id of [null, 1.5, Number.POSITIVE_INFINITY, Number.NaN, true]) {
      expect(thrown(() => anyId(id as unknown as number, undefined)), String(id)).toBe("TypeError: a request id is a string or an integer");
    }
    expect(anyId(-1, undefined)).toEqual({ jsonrpc: "2.0", id: -1, error: { code: -32602, message: "Invalid params" } });
    // A message given is a string, as errorResponse asks; one left out (or undefined) is the default.
    for (const message of [null, 3, {}]) expect(thrown(() => anyId(1, undefined, message as unknown as string)), String(message)).toBe("TypeError: an error message is a string");
    expect(anyId(1, undefined, undefined).error.message).toBe("Invalid params");
  });

  it("resourceNotFoundTest reads the current code (with data.uri when required) and older accepted codes, never throwing", () => {
    const test = resourceNotFoundTest({ code: -32602, uriRequired: true, accepted: [-32002, -32602] });
    expect(test({ code: -32602, message: "m", data: { uri: "file:///a" } })).toBe(true);
    expect(test({ jsonrpc: "2.0", id: 1, error: { code: -32602, message: "m", data: { uri: "x" } } })).toBe(true);
    expect(test({ code: -32602, message: "m" })).toBe(false);
    expect(test({ code: -32602, data: { uri: 1 } })).toBe(false);
    expect(test({ code: -32002 })).toBe(true);
    expect(test({ error: { code: -32002 } })).toBe(true);
    expect(test({ code: -32601 })).toBe(false);
    expect(test(null)).toBe(false);
    expect(test("x")).toBe(false);
    expect(test({ get code(): never { throw new Error("trap"); } })).toBe(false);
    const plain = resourceNotFoundTest({ code: -32002, uriRequired: false, accepted: [] });
    expect([plain({ code: -32002 }), plain({ code: -32602, data: { uri: "x" } })]).toEqual([true, false]);
  });
});

describe("runtime/meta.ts", () => {
  const isValidKey = metaKeyTest(true);
  const isReservedKey = reservedMetaKeyTest("second-label", ["progressToken", "traceparent"]);
  const RULES: MetaRules = {
    version: "test-rev",
    isValidKey,
    isReservedKey,
    openTelemetryKeys: ["traceparent"],
    definedKeys: ["progressToken", "io.modelcontextprotocol/version", "io.modelcontextprotocol/other", "traceparent"],
  };
  const validateInfo = (v: unknown): MetaValueCheckResult =>
    typeof v === "object" && v !== null && typeof (v as { name?: unknown }).name === "string"
      ? { ok: true }
      : { ok: false, issues: [{ path: "/name", message: "expected string" }] };
  const SHAPE: MetaShape = {
    what: "request",
    metaRequired: false,
    keys: [
      { key: "io.modelcontextprotocol/version", field: "version", required: true, check: "string" },
      { key: "io.modelcontextprotocol/info", field: "info", required: false, check: { validate: validateInfo } },
      { key: "x/__proto__", field: "__proto__", required: false, check: "any" },
    ],
  };
  type Fields = { version: string; info?: unknown };
  const check = metaChecker<Record<string, unknown>, Fields>(RULES, SHAPE);
  const messages = (r: MetaCheck<unknown, unknown>) => (r.ok ? [] : r.error.data.problems.map((p) => `${p.problem} ${p.key}: ${p.message}`));

  it("parseMetaKey splits keys by the grammar and says why others are not keys", () => {
    expect(parseMetaKey("io.modelcontextprotocol/protocolVersion")).toEqual({
      ok: true,
      prefix: "io.modelcontextprotocol/",
      labels: ["io", "modelcontextprotocol"],
      name: "protocolVersion",
    });
    expect(parseMetaKey("progressToken")).toEqual({ ok: true, labels: [], name: "progressToken" });
    expect(parseMetaKey("a/")).toEqual({ ok: true, prefix: "a/", labels: ["a"], name: "" });
    expect(parseMetaKey("a/b/c")).toEqual({ ok: false, reason: 'a key has one "/" at most, between prefix and name' });
    expect(parseMetaKey("1a/b")).toEqual({
      ok: false,
      reason: 'prefix label "1a" must start with a letter, end with a letter or digit, and hold only letters, digits and hyphens',
    });
    expect(parseMetaKey("a/-b")).toEqual({
      ok: false,
      reason: "name \"-b\" must start and end with a letter or digit, and hold only letters, digits, '-', '_' and '.'",
    });
    expect(parseMetaKey(`a/-${"b".repeat(70)}`)).toEqual({
      ok: false,
      reason: "name a string of 71 characters must start and end with a letter or digit, and hold only letters, digits, '-', '_' and '.'",
    });
    expect(parseMetaKey(5 as unknown as string)).toEqual({ ok: false, reason: "a key is a string" });
  });

  it("metaKeyTest follows the grammar, or accepts every string when the revision states none", () => {
    expect(["a.b/c", "a/b/c", "", 1].map((k) => isValidKey(k as string))).toEqual([true, false, true, false]);
    expect(["a/b/c", "", 1].map((k) => metaKeyTest(false)(k as string))).toEqual([true, true, false]);
  });

  it("reservedMetaKeyTest reads each reserved-prefix rule and the reserved unprefixed keys", () => {
    const keys = ["io.modelcontextprotocol/x", "dev.MCP/x", "com.example.mcp/x", "mcp.dev/x", "mcp/x", "progressToken", "other", 3];
    expect(keys.map((k) => isReservedKey(k as string))).toEqual([true, true, false, false, false, true, false, false]);
    const followed = reservedMetaKeyTest("label-followed-by-label", []);
    expect(keys.map((k) => followed(k as string))).toEqual([false, false, false, true, false, false, false, false]);
    expect(["tools.mcp.com/x", "a.modelcontextprotocol.b/x"].map(followed)).toEqual([true, true]);
    const none = reservedMetaKeyTest("none", ["traceparent"]);
    expect(["io.modelcontextprotocol/x", "traceparent"].map(none)).toEqual([false, true]);
  });

  it("metaValueProblem interprets each value check given as data", () => {
    const cases: [Parameters<typeof metaValueProblem>[0], unknown, string | undefined][] = [
      ["string", "s", undefined],
      ["string", 1, "expected string"],
      ["boolean", 0, "expected boolean"],
      ["integer", 1.5, "expected integer"],
      ["integer", 2, undefined],
      ["number", Number.POSITIVE_INFINITY, "expected number"],
      ["number", 1.5, undefined],
      ["any", Symbol.iterator, undefined],
      ["unchecked", undefined, undefined],
      [{ literal: "x" }, "y", 'expected "x"'],
      [{ literal: 3 }, 3, undefined],
      [{ validate: validateInfo }, {}, "/name: expected string"],
      [{ validate: () => ({ ok: false, issues: [{ path: "", message: "bad" }] }) }, {}, "bad"],
      [{ validate: () => ({ ok: false, issues: [] }) }, {}, "invalid"],
      // Every issue, up to five, then a count (helper-110's list: only the first was said).
      [{ validate: () => ({ ok: false, issues: [{ path: "/a", message: "expected string" }, { path: "/b", message: "expected integer" }] }) }, {}, "/a: expected string; /b: expected integer"],
      [{ validate: () => ({ ok: false, issues: Array.from({ length: 7 }, (_, i) => ({ path: "/" + i, message: "bad" })) }) }, {}, "/0: bad; /1: bad; /2: bad; /3: bad; /4: bad; and 2 more"],
    ];
    expect(cases.map(([c, v]) => metaValueProblem(c, v))).toEqual(cases.map(([, , want]) => want));
  });

  it("metaChecker reads known keys into fields and reports every problem of a lenient read", () => {
    const meta = { "io.modelcontextprotocol/version": "v1", "io.modelcontextprotocol/info": { name: "n" }, "x/other": 1 };
    const ok = check({ _meta: meta });
    expect(ok).toEqual({ ok: true, meta, fields: { version: "v1", info: { name: "n" } } });
    expect(check({})).toEqual({
      ok: false,
      error: {
        code: -32602,
        message: "Invalid request _meta: missing required key io.modelcontextprotocol/version",
        data: { problems: [{ key: "io.modelcontextprotocol/version", problem: "missing", message: "missing required key io.modelcontextprotocol/version" }] },
      },
    });
    expect(messages(check({ _meta: { "io.modelcontextprotocol/version": 1, "io.modelcontextprotocol/info": {}, "bad key/x/y": 1 } }))).toEqual([
      "malformed io.modelcontextprotocol/version: io.modelcontextprotocol/version is malformed: expected string",
      "malformed io.modelcontextprotocol/info: io.modelcontextprotocol/info is malformed: /name: expected string",
    ]);
    expect(messages(check({ _meta: [] }))).toEqual(["not-an-object : _meta must be a plain JSON object"]);
    // Inherited members are not read; a field named __proto__ is data.
    expect(messages(check({ _meta: Object.create({ "io.modelcontextprotocol/version": "v" }) }))).toEqual([
      "not-an-object : _meta must be a plain JSON object",
    ]);
    const proto = check({ _meta: JSON.parse('{"io.modelcontextprotocol/version": "v", "x/__proto__": "p"}') });
    expect(proto.ok && Object.getOwnPropertyDescriptor(proto.fields, "__proto__")?.value).toBe("p");
    expect(proto.ok && Object.getPrototypeOf(proto.fields)).toBe(Object.prototype);
  });

  it("metaChecker reports bad keys, unknown reserved keys and non-string trace keys only when strict", () => {
    const meta = { "io.modelcontextprotocol/version": "v", "a/b/c": 1, "io.modelcontextprotocol/unknown": 1, "io.modelcontextprotocol/other": 1, traceparent: 2, "com.x/y": 1 };
    expect(check({ _meta: meta }).ok).toBe(true);
    expect(messages(check({ _meta: meta }, { strict: true }))).toEqual([
      'invalid-key a/b/c: key "a/b/c" is invalid: a key has one "/" at most, between prefix and name',
      'unknown-reserved-key io.modelcontextprotocol/unknown: key "io.modelcontextprotocol/unknown" uses a reserved prefix but is not defined by protocol revision test-rev',
      "malformed traceparent: traceparent is malformed: expected a string (W3C Trace Context or Baggage)",
    ]);
    expect(check({ _meta: meta }, { get strict(): never { throw new Error("trap"); } }).ok).toBe(true);
  });

  it("metaChecker never throws, caps its problems and clips long keys and messages", () => {
    const hostile = new Proxy({}, { ownKeys: () => { throw new Error("no keys"); } });
    expect(messages(check({ _meta: hostile }, { strict: true }))).toEqual([
      "missing io.modelcontextprotocol/version: missing required key io.modelcontextprotocol/version",
      "malformed : _meta could not be read: no keys",
    ]);
    expect(check(null)).toMatchObject({ ok: false });
    const many = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`-bad${i}`, 1]));
    const r = check({ _meta: { ...many, "io.modelcontextprotocol/version": "v" } }, { strict: true });
    const problems = r.ok ? [] : r.error.data.problems;
    expect(problems.length).toBe(MAX_META_PROBLEMS + 1);
    expect(problems[MAX_META_PROBLEMS]).toEqual({ key: "", problem: "too-many", message: "50 more problems not listed" });
    const long = "-".repeat(300);
    const one = check({ _meta: { [long]: 1, "io.modelcontextprotocol/version": "v" } }, { strict: true });
    const p = one.ok ? undefined : one.error.data.problems[0];
    expect(p?.key).toBe("a string of 300 characters");
    expect(p?.message).toBe('key a string of 300 characters is invalid: name a string of 300 characters must start and end with a letter or digit, and hold only letters, digits, \'-\', \'_\' and \'.\'');
  });

  it("metaChecker of a shape whose _meta is required says so when nothing else is missing", () => {
    const required = metaChecker(RULES, { what: "result", metaRequired: true, keys: [] });
    expect(messages(required({}))).toEqual(["missing : _meta is required"]);
    expect(required({ _meta: {} })).toEqual({ ok: true, meta: {}, fields: {} });
  });

  it("metaBuilder returns valid _meta as is and throws a TypeError naming every problem", () => {
    const build = metaBuilder<Record<string, unknown>>(RULES, SHAPE);
    const meta = { "io.modelcontextprotocol/version": "v", "com.x/y": [1, { a: null }] };
    expect(build(meta)).toBe(meta);
    const cyclic: Record<string, unknown> = {};
    cyclic["self"] = cyclic;
    expect(() => build({ "io.modelcontextprotocol/version": "v", "com.x/n": Number.NaN, "com.x/c": cyclic, traceparent: 1, "a/b/c": "x" })).toThrow(
      new TypeError(
        'invalid request _meta: the value of "com.x/n" is not JSON data; the value of "com.x/c" is not JSON data; ' +
          'traceparent is malformed: expected a string (W3C Trace Context or Baggage); key "a/b/c" is invalid: a key has one "/" at most, between prefix and name',
      ),
    );
    expect(() => build(undefined as unknown as Record<string, unknown>)).toThrow(
      new TypeError("invalid request _meta: missing required key io.modelcontextprotocol/version"),
    );
    expect(() => metaBuilder(RULES, { what: "result", metaRequired: false, keys: [] })(undefined)).toThrow(new TypeError("invalid result _meta: _meta is required"));
  });
});

describe("runtime/validation.ts format checks", () => {
  /** `formatUri` as it was before its fast path: the full RFC 3986 pattern and the IP-literal check. */
  const slowFormatUri = (s: string) => URI.test(s) && ipLiteralOk(s);
  /** Characters that matter to the URI grammar, a few that never occur in one, and a non-ASCII letter. */
  const URI_CHARS = [..."aZ09:/?#@[]%.-_~!$&'()*+,;=Fv \"<>^`{}|\\é"];
  /** Mostly characters that every part of a URI takes, sometimes any of URI_CHARS. */
  const unit = fc.oneof({ arbitrary: fc.constantFrom(..."abXY09-._~"), weight: 6 }, { arbitrary: fc.constantFrom(...URI_CHARS), weight: 1 });
  const run = (min: number) => fc.string({ unit, minLength: min, maxLength: 12 });
  /** Strings shaped like URIs (scheme, optional authority with userinfo, host or IP-literal and port, path, query, fragment), then mutated. */
  const uriLike = fc
    .tuple(
      fc.constantFrom("https", "file", "urn", "a", "x+y.z-1", "1a", ""),
      fc.option(fc.tuple(fc.option(run(0)), fc.oneof(run(0), fc.constantFrom("[::1]", "[v7.x]", "[1:2:3:4:5:6:7:8]", "[::ffff:1.2.3.4]", "[::g]")), fc.option(fc.stringMatching(/^[0-9a]{0,4}$/)))),
      run(0),
      fc.option(run(0)),
      fc.option(run(0)),
    )
    .map(([scheme, authority, path, query, fragment]) => {
      const auth = authority === null ? "" : "//" + (authority[0] === null ? "" : authority[0] + "@") + authority[1] + (authority[2] === null ? "" : ":" + authority[2]);
      return scheme + ":" + auth + (auth !== "" && path !== "" ? "/" : "") + path + (query === null ? "" : "?" + query) + (fragment === null ? "" : "#" + fragment);
    });
  const mutated = fc
    .tuple(uriLike, fc.array(fc.tuple(fc.nat(), fc.constantFrom(...URI_CHARS), fc.constantFrom("insert", "delete", "replace")), { maxLength: 3 }))
    .map(([s, edits]) =>
      edits.reduce((t, [at, ch, op]) => {
        const i = at % (t.length + 1);
        return op === "insert" ? t.slice(0, i) + ch + t.slice(i) : op === "delete" ? t.slice(0, i) + t.slice(i + 1) : t.slice(0, i) + ch + t.slice(i + 1);
      }, s),
    );

  it("formatUri answers exactly as the full pattern and the IP-literal check; PLAIN_URI accepts only what they accept", () => {
    let plain = 0;
    fc.assert(
      fc.property(fc.oneof(uriLike, mutated, run(0)), (s) => {
        if (PLAIN_URI.test(s)) {
          plain++;
          expect(slowFormatUri(s)).toBe(true);
        }
        expect(formatUri(s)).toBe(slowFormatUri(s));
      }),
      { seed: 14, numRuns: 50_000 },
    );
    // The fast path is exercised, not bypassed.
    expect(plain).toBeGreaterThan(1_000);
  });

  it("URI_TEMPLATE_LITERAL, built with its astral planes in a loop, is the pattern written out", () => {
    expect(URI_TEMPLATE_LITERAL).toBe(
      "(?:[\\x21\\x23\\x24\\x26\\x28-\\x3B\\x3D\\x3F-\\x5B\\x5D\\x5F\\x61-\\x7A\\x7E\\u00A0-\\uD7FF\\uE000-\\uFDCF\\uFDF0-\\uFFEF" +
        "\\u{10000}-\\u{1FFFD}\\u{20000}-\\u{2FFFD}\\u{30000}-\\u{3FFFD}\\u{40000}-\\u{4FFFD}\\u{50000}-\\u{5FFFD}\\u{60000}-\\u{6FFFD}" +
        "\\u{70000}-\\u{7FFFD}\\u{80000}-\\u{8FFFD}\\u{90000}-\\u{9FFFD}\\u{a0000}-\\u{aFFFD}\\u{b0000}-\\u{bFFFD}\\u{c0000}-\\u{cFFFD}" +
        "\\u{d0000}-\\u{dFFFD}\\u{e1000}-\\u{eFFFD}\\u{f0000}-\\u{fFFFD}\\u{100000}-\\u{10FFFD}]|%[0-9A-Fa-f]{2})",
    );
    // Lower-case hex digits in \u{…} name the same code points as the upper-case ones before: every code point gets the same answer.
    const before = new RegExp(
      "^(?:[\\x21\\x23\\x24\\x26\\x28-\\x3B\\x3D\\x3F-\\x5B\\x5D\\x5F\\x61-\\x7A\\x7E\\u00A0-\\uD7FF\\uE000-\\uFDCF\\uFDF0-\\uFFEF" +
        "\\u{10000}-\\u{1FFFD}\\u{20000}-\\u{2FFFD}\\u{30000}-\\u{3FFFD}\\u{40000}-\\u{4FFFD}\\u{50000}-\\u{5FFFD}\\u{60000}-\\u{6FFFD}" +
        "\\u{70000}-\\u{7FFFD}\\u{80000}-\\u{8FFFD}\\u{90000}-\\u{9FFFD}\\u{A0000}-\\u{AFFFD}\\u{B0000}-\\u{BFFFD}\\u{C0000}-\\u{CFFFD}" +
        "\\u{D0000}-\\u{DFFFD}\\u{E1000}-\\u{EFFFD}\\u{F0000}-\\u{FFFFD}\\u{100000}-\\u{10FFFD}]|%[0-9A-Fa-f]{2})$",
      "u",
    );
    const now = new RegExp("^" + URI_TEMPLATE_LITERAL + "$", "u");
    let differences = 0;
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const s = String.fromCodePoint(cp);
      if (before.test(s) !== now.test(s)) differences++;
    }
    expect(differences).toBe(0);
  });
});

describe("runtime/validation.ts property helpers", () => {
  /** A JSON Pointer to the object and a property's token ("/" and its escaped name), as the collectors pass them. */
  const pointer = fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }).map((ts) => ts.map((t) => "/" + t.replace(/~/g, "~0").replace(/\//g, "~1")).join(""));
  const token = fc.string({ maxLength: 6 }).map((name) => "/" + name.replace(/~/g, "~0").replace(/\//g, "~1"));
  const literal = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.double({ noNaN: true }), fc.boolean(), fc.constantFrom("2.0", "tools/call", "a\nb", "\u2028", -32700));
  /** Any value a property can hold, absent included, and values equal to the literals often. */
  const value = (c?: unknown) => fc.oneof(fc.constant(undefined), fc.anything(), ...(c === undefined ? [] : [fc.constant(c)]));
  const issues = (push: (o: ValidationIssue[]) => void) => {
    const o: ValidationIssue[] = [];
    push(o);
    return o;
  };

  it("reqConst and optConst push what req and opt push with the check and the message written out", () => {
    fc.assert(
      fc.property(pointer, token, literal, fc.boolean(), (p, t, c, same) => {
        fc.assert(
          fc.property(value(same ? c : undefined), (v) => {
            expect(issues((o) => reqConst(o, p, t, v, c))).toEqual(issues((o) => req(o, p, t, v, v === c, JSON.stringify(c), "const")));
            expect(issues((o) => optConst(o, p, t, v, c))).toEqual(issues((o) => opt(o, p, t, v, v === c, JSON.stringify(c), "const")));
          }),
          { numRuns: 20 },
        );
      }),
      { seed: 14, numRuns: 500 },
    );
  });

  it("reqTypeof and optTypeof push what req and opt push with the typeof check written out", () => {
    fc.assert(
      fc.property(pointer, token, fc.constantFrom("string" as const, "boolean" as const), value(), (p, t, type, v) => {
        expect(issues((o) => reqTypeof(o, p, t, v, type))).toEqual(issues((o) => req(o, p, t, v, typeof v === type, type)));
        expect(issues((o) => optTypeof(o, p, t, v, type))).toEqual(issues((o) => opt(o, p, t, v, typeof v === type, type)));
      }),
      { seed: 14, numRuns: 10_000 },
    );
  });

  it("reqCollect and optCollect call the collector at the property's path and depth exactly when it is present", () => {
    fc.assert(
      fc.property(pointer, token, value(), fc.nat(2000), (p, t, v, d) => {
        const calls = (helper: (o: ValidationIssue[], collect: (...args: unknown[]) => void) => void) => {
          const seen: unknown[][] = [];
          const o = issues((o) => helper(o, (...args) => seen.push(args)));
          return { o, seen };
        };
        const required = calls((o, collect) => reqCollect(o, p, t, v, d, collect));
        const expected = calls((o, collect) => {
          if (need(o, p, t, v)) collect(v, p + t, o, d);
        });
        expect(required.o).toEqual(expected.o);
        expect(required.seen.map(([x, path, , depth]) => [x, path, depth])).toEqual(expected.seen.map(([x, path, , depth]) => [x, path, depth]));
        const optional = calls((o, collect) => optCollect(o, p, t, v, d, collect));
        expect(optional.o).toEqual([]);
        expect(optional.seen.map(([x, path, , depth]) => [x, path, depth])).toEqual(v === undefined ? [] : [[v, p + t, d]]);
      }),
      { seed: 14, numRuns: 10_000 },
    );
  });
});
