/**
 * The generated draft validators answer for any value and never throw: deep and cyclic
 * values, huge arrays, throwing getters, Proxies, prototype keys, values that are not JSON.
 * Every answer of `isX` equals `validateX(...).ok`, and issue paths point into the value.
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { generateInto, SPEC_DIR } from "./support/corpus.js";

interface Issue {
  path: string;
  message: string;
  keyword: string;
}
type Result = { ok: true; value: unknown } | { ok: false; issues: Issue[] };
type Validators = Record<string, unknown> & { MAX_DEPTH: number; MAX_ISSUES: number };

let v: Validators;
const is = (type: string, value: unknown) => (v[`is${type}`] as (x: unknown) => boolean)(value);
const validate = (type: string, value: unknown) => (v[`validate${type}`] as (x: unknown) => Result)(value);

/** Both answers, checked to agree. */
function answer(type: string, value: unknown): Result {
  const result = validate(type, value);
  expect(is(type, value)).toBe(result.ok);
  return result;
}

function issues(result: Result): Issue[] {
  return result.ok ? [] : result.issues;
}

function nest(levels: number, kind: "array" | "object"): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = kind === "array" ? [value] : { a: value };
  return value;
}

beforeAll(async () => {
  const dir = await generateInto("hostile-draft", { schema: { specDir: SPEC_DIR, version: "draft" }, docs: "none" });
  v = (await import(join(dir, "validators.ts"))) as Validators;
});

describe("nesting", () => {
  it.each(["array", "object"] as const)("accepts %s nesting of exactly MAX_DEPTH, rejects one more with one depth issue", (kind) => {
    expect(answer("JSONValue", nest(v.MAX_DEPTH, kind)).ok).toBe(true);
    const deeper = issues(answer("JSONValue", nest(v.MAX_DEPTH + 1, kind)));
    expect(deeper.map((i) => i.keyword)).toEqual(["depth"]);
    const step = kind === "array" ? "/0" : "/a";
    expect(deeper[0]!.path).toBe(step.repeat(v.MAX_DEPTH + 1));
  });

  it.each([1e5, 1e6])("answers for %d levels without exhausting the stack", (levels) => {
    for (const kind of ["array", "object"] as const) {
      expect(issues(answer("JSONValue", nest(levels, kind))).map((i) => i.keyword)).toEqual(["depth"]);
    }
  });

  it("answers for cyclic values: one depth issue, or at most MAX_ISSUES and a maxIssues issue", () => {
    const array: unknown[] = [];
    array.push(array);
    expect(issues(answer("JSONValue", array)).map((i) => i.keyword)).toEqual(["depth"]);
    const object: Record<string, unknown> = {};
    object.a = object;
    object.b = object;
    const started = performance.now();
    const found = issues(answer("JSONObject", object));
    expect(performance.now() - started).toBeLessThan(5000);
    expect(found.length).toBe(v.MAX_ISSUES + 1);
    expect(found.at(-1)).toEqual({ path: "", message: `stopped after ${v.MAX_ISSUES} issues`, keyword: "maxIssues" });
    expect(new Set(found.slice(0, -1).map((i) => i.keyword))).toEqual(new Set(["depth"]));
  });
});

describe("size", () => {
  it("lists exactly MAX_ISSUES issues without a maxIssues issue when nothing was dropped", () => {
    const exact = issues(answer("JSONArray", new Array(v.MAX_ISSUES).fill(1.5)));
    expect(exact.length).toBe(v.MAX_ISSUES);
    expect(exact.some((i) => i.keyword === "maxIssues")).toBe(false);
    const one = issues(answer("JSONArray", new Array(v.MAX_ISSUES + 1).fill(1.5)));
    expect(one.length).toBe(v.MAX_ISSUES + 1);
    expect(one.at(-1)!.keyword).toBe("maxIssues");
  });

  it("validates 10^6 elements, and stops listing issues at MAX_ISSUES", () => {
    expect(answer("JSONArray", new Array(1e6).fill("x")).ok).toBe(true);
    const bad = issues(answer("JSONArray", new Array(1e6).fill(1.5)));
    expect(bad.length).toBe(v.MAX_ISSUES + 1);
    expect(bad[0]).toEqual({ path: "/0", message: "expected integer, got number 1.5", keyword: "type" });
  });
});

describe("values that are not plain JSON", () => {
  const request = { jsonrpc: "2.0", id: 1, method: "ping" };

  it.each([
    ["a function", () => 1],
    ["a symbol", Symbol("s")],
    ["a bigint", 10n],
    ["NaN", Number.NaN],
    ["Infinity", Number.POSITIVE_INFINITY],
    ["undefined", undefined],
  ])("rejects %s as a JSON value and as a request id", (_name, value) => {
    expect(answer("JSONValue", value).ok).toBe(false);
    expect(answer("JSONRPCRequest", { ...request, id: value }).ok).toBe(false);
  });

  it("treats an undefined property value as absent, named or not", () => {
    expect(answer("JSONObject", { a: undefined, b: 1 }).ok).toBe(true);
    expect(issues(answer("JSONRPCRequest", { ...request, id: undefined })).map((i) => [i.path, i.keyword])).toEqual([["/id", "required"]]);
  });

  it("reads keys such as __proto__ and constructor as data, and pollutes nothing", () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": 1}, "constructor": 2, "prototype": [3]}') as unknown;
    expect(answer("JSONObject", parsed).ok).toBe(true);
    expect(answer("JSONObject", JSON.parse('{"__proto__": 1.5}')).ok).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const bare = Object.assign(Object.create(null) as object, { jsonrpc: "2.0", id: "x", method: "ping" });
    expect(answer("JSONRPCRequest", bare).ok).toBe(true);
  });

  it("turns a throwing getter or Proxy trap into an answer, never an exception", () => {
    const getter = Object.defineProperty({ jsonrpc: "2.0", id: 1 }, "method", {
      enumerable: true,
      get() {
        throw new Error("boom");
      },
    });
    expect(issues(answer("JSONRPCRequest", getter))).toEqual([
      { path: "", message: "reading the value threw: Error: boom", keyword: "exception" },
    ]);
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(answer("JSONRPCRequest", proxy).ok).toBe(false);
    const trap = new Proxy({}, { get: () => { throw new TypeError("trap"); }, ownKeys: () => { throw new TypeError("keys"); } });
    expect(answer("JSONObject", trap).ok).toBe(false);
  });

  it("looks up validatorsByType safely by any key", () => {
    const byType = v.validatorsByType as Record<string, unknown>;
    for (const key of ["__proto__", "constructor", "toString", "hasOwnProperty"]) expect(byType[key]).toBeUndefined();
    expect(typeof byType.CallToolRequest).toBe("function");
  });
});
