/**
 * The generated draft validators answer for any value and never throw: deep and cyclic
 * values, huge arrays, throwing getters, Proxies, prototype keys, values that are not JSON.
 * Every answer of `isX` equals `validateX(...).ok` and the Standard Schema's, and issue
 * paths point into the value. The policy (README, "What the validators accept"): only plain
 * JSON data is valid where the schema names a type; `unknown`/`any` positions accept anything.
 */
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateInto, SPEC_DIR } from "./support/corpus.js";
import { readExamples, type Example } from "./support/examples.js";

interface Issue {
  path: string;
  message: string;
  keyword: string;
}
type Result = { ok: true; value: unknown } | { ok: false; issues: Issue[] };
type Validators = Record<string, unknown> & { MAX_DEPTH: number; MAX_ISSUES: number };
interface StandardResult {
  readonly value?: unknown;
  readonly issues?: readonly { message: string; path?: readonly PropertyKey[] }[];
}
type Standard = { "~standard": { validate: (x: unknown) => StandardResult } };

let v: Validators;
/** Every type with public validators (the keys of validatorsByType). */
let types: string[];
let examples: Example[];
const is = (type: string, value: unknown) => (v[`is${type}`] as (x: unknown) => boolean)(value);
const validate = (type: string, value: unknown) => (v[`validate${type}`] as (x: unknown) => Result)(value);
const standard = (type: string, value: unknown) => {
  const schema = (v[`${type}Schema`] ?? v[`${type}StandardSchema`]) as Standard;
  return schema["~standard"].validate(value);
};

/** The three answers (isX, validateX, the Standard Schema), checked to agree. */
function answer(type: string, value: unknown): Result {
  const result = validate(type, value);
  expect(is(type, value), `is${type} and validate${type} disagree`).toBe(result.ok);
  const std = standard(type, value);
  if (result.ok) expect(std.issues, `${type}Schema disagrees`).toBeUndefined();
  else
    expect(
      std.issues?.map((i) => i.message),
      `${type}Schema disagrees`,
    ).toEqual(result.issues.map((i) => i.message));
  return result;
}

/** A JSON value rebuilt with `wrap` applied to every object (arrays stay arrays). */
function rebuild(value: unknown, wrap: (entries: [string, unknown][]) => object): unknown {
  if (Array.isArray(value)) return value.map((x) => rebuild(x, wrap));
  if (typeof value !== "object" || value === null) return value;
  return wrap(Object.entries(value).map(([k, x]) => [k, rebuild(x, wrap)]));
}

const nullProto = (entries: [string, unknown][]) => Object.assign(Object.create(null) as object, Object.fromEntries(entries));

/** Property reads made through counting Proxies: work measured without a clock. */
let reads = 0;
function counted(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  const inner = Array.isArray(value) ? value.map(counted) : Object.fromEntries(Object.entries(value).map(([k, x]) => [k, counted(x)]));
  return new Proxy(inner, {
    get(target, key, receiver) {
      reads++;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}

/** The own properties of the shared prototypes, to check that validation changes none of them. */
function prototypes(): string[] {
  return [Object.prototype, Array.prototype, Function.prototype, String.prototype].map((proto) =>
    Reflect.ownKeys(proto)
      .map((k) => `${String(k)}:${typeof Object.getOwnPropertyDescriptor(proto, k)!.value}`)
      .join(","),
  );
}
const prototypesBefore = prototypes();
afterAll(() => {
  expect(prototypes()).toEqual(prototypesBefore);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

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
  types = Object.keys(v.validatorsByType as object);
  examples = readExamples(join(SPEC_DIR, "schema", "draft", "examples"));
});

describe("nesting", () => {
  it.each(["array", "object"] as const)("accepts %s nesting of exactly MAX_DEPTH, rejects one more with one depth issue", (kind) => {
    expect(answer("JSONValue", nest(v.MAX_DEPTH, kind)).ok).toBe(true);
    const deeper = issues(answer("JSONValue", nest(v.MAX_DEPTH + 1, kind)));
    expect(deeper.map((i) => i.keyword)).toEqual(["depth"]);
    // The issue is at the array or object one too many deep (the root is the first).
    const step = kind === "array" ? "/0" : "/a";
    expect(deeper[0]!.path).toBe(step.repeat(v.MAX_DEPTH));
  });

  it("counts arrays and objects only: the leaves of the innermost one never make a value too deep (helper-56)", () => {
    /** `levels` objects nested in each other, the innermost holding `leaves`. */
    const objects = (levels: number, leaves: Record<string, unknown>) => {
      let value: Record<string, unknown> = { ...leaves };
      for (let i = 1; i < levels; i++) value = { a: value };
      return value;
    };
    const many = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, i]));
    for (const leaves of [{}, { x: 1, y: "s" }, many]) {
      expect(answer("JSONObject", objects(v.MAX_DEPTH, leaves)).ok).toBe(true);
      const deeper = issues(answer("JSONObject", objects(v.MAX_DEPTH + 1, leaves)));
      expect(deeper).toEqual([{ path: "/a".repeat(v.MAX_DEPTH), message: `nested more than ${v.MAX_DEPTH} levels deep`, keyword: "depth" }]);
    }
    // A cycle through an array: one issue, where the array comes round the one time too many.
    const cyclic: unknown[] = [1];
    cyclic.push(cyclic);
    expect(issues(answer("JSONObject", { c: cyclic }))).toEqual([{ path: "/c" + "/1".repeat(v.MAX_DEPTH - 1), message: `nested more than ${v.MAX_DEPTH} levels deep`, keyword: "depth" }]);
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

  it.each([1e5, 1e6])("answers for %d levels through every entry point: isX, validateX and the Standard Schema", (levels) => {
    for (const kind of ["array", "object"] as const) {
      const deep = nest(levels, kind);
      const keywords = (type: string) => issues(answer(type, deep)).map((i) => i.keyword);
      expect(keywords(kind === "array" ? "JSONArray" : "JSONObject")).toEqual(["depth"]);
      const std = standard("JSONValue", deep);
      expect(std.issues?.length).toBe(1);
      expect(std.issues![0]!.path).toEqual(new Array<string>(v.MAX_DEPTH).fill(kind === "array" ? "0" : "a"));
      // Inside a typed position that holds JSON objects: the issue points into the value.
      const found = issues(answer("ClientCapabilities", { experimental: { x: nest(levels, "object") } }));
      expect(found.map((i) => i.keyword)).toEqual(["depth"]);
      expect(found[0]!.path.startsWith("/experimental/x/a/a/")).toBe(true);
    }
  });

  it("answers for deep, cyclic and hostile roots in every validator, never throwing", () => {
    const cyclicObject: Record<string, unknown> = { jsonrpc: "2.0", id: 1, method: "ping", resultType: "complete" };
    cyclicObject.params = cyclicObject;
    cyclicObject._meta = cyclicObject;
    const cyclicArray: unknown[] = [];
    cyclicArray.push(cyclicArray, cyclicArray);
    const roots = [nest(1e5, "array"), nest(1e5, "object"), cyclicObject, cyclicArray];
    for (const root of roots) for (const type of types) answer(type, root);
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

  it("takes linear time on long arrays: 10^6 elements cost about ten times 10^5 (measured, bound loose)", () => {
    const values = (n: number) => ({
      strings: new Array<string>(n).fill("x"),
      objects: Array.from({ length: n }, (_, i) => ({ a: i, b: [true, null] })),
      result: { resultType: "complete", content: Array.from({ length: n }, () => ({ type: "text", text: "t" })) },
    });
    const run = (n: number) => {
      const x = values(n);
      const started = performance.now();
      expect(is("JSONArray", x.strings) && is("JSONArray", x.objects) && is("CallToolResult", x.result)).toBe(true);
      expect(validate("JSONArray", x.strings).ok && validate("JSONArray", x.objects).ok && validate("CallToolResult", x.result).ok).toBe(true);
      return performance.now() - started;
    };
    run(1e5); // warm up
    const small = Math.min(run(1e5), run(1e5));
    const large = Math.min(run(1e6), run(1e6));
    console.log(`hostile-values: 10^5 elements ${small.toFixed(0)} ms, 10^6 elements ${large.toFixed(0)} ms (ratio ${(large / small).toFixed(1)})`);
    expect(large / small).toBeLessThan(30);
  });

  it("does work linear in the value for valid values and for isX (property reads counted, no clock)", () => {
    const chain = (depth: number, leaf: unknown) => {
      let x: unknown = leaf;
      for (let i = 0; i < depth; i++) x = i % 2 ? [x] : { a: x };
      return x;
    };
    for (const depth of [100, 800]) {
      const valid = counted(chain(depth, 1));
      reads = 0;
      expect(answer("JSONValue", valid).ok).toBe(true);
      expect(reads / depth).toBeLessThan(20);
      const invalid = counted(chain(depth, 1.5));
      reads = 0;
      expect(is("JSONValue", invalid)).toBe(false);
      expect(reads / depth).toBeLessThan(10);
    }
  });

  // Collectors inside recursive types do not re-run the fast check on their subtree (that made
  // collecting an invalid value d levels deep take d² reads); anyOf finds a matching member itself.
  it("does work linear in the value for invalid deep values in validateX", () => {
    let chain: unknown = 1.5;
    for (let i = 0; i < 800; i++) chain = [chain];
    const value = counted(chain);
    reads = 0;
    expect(issues(validate("JSONValue", value)).map((i) => i.keyword)).toEqual(["type"]);
    expect(reads / 800).toBeLessThan(20);
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
    expect(issues(answer("JSONRPCRequest", getter))).toEqual([{ path: "", message: "the check threw: Error: boom", keyword: "exception" }]);
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(answer("JSONRPCRequest", proxy).ok).toBe(false);
    const trap = new Proxy(
      {},
      {
        get: () => {
          throw new TypeError("trap");
        },
        ownKeys: () => {
          throw new TypeError("keys");
        },
      },
    );
    expect(answer("JSONObject", trap).ok).toBe(false);
  });

  it("looks up validatorsByType safely by any key", () => {
    const byType = v.validatorsByType as Record<string, unknown>;
    for (const key of ["__proto__", "constructor", "toString", "hasOwnProperty"]) expect(byType[key]).toBeUndefined();
    expect(typeof byType.CallToolRequest).toBe("function");
  });
});

describe("prototype keys", () => {
  const request = { jsonrpc: "2.0", id: 1, method: "ping" };

  it("reads an own __proto__ key as data, never as the prototype: what it holds does not count", () => {
    const parsed = JSON.parse('{"jsonrpc": "2.0", "id": 1, "__proto__": {"method": "ping"}}') as unknown;
    expect(issues(answer("JSONRPCRequest", parsed)).map((i) => [i.path, i.keyword])).toEqual([["/method", "required"]]);
    expect(issues(answer("JSONObject", JSON.parse('{"a": 1, "__proto__": {"b": 1.5}}'))).map((i) => i.path)).toEqual(["/__proto__/b"]);
  });

  it("accepts Object.prototype's names as extra properties, and reports them as unknown discriminator values", () => {
    const extra = JSON.parse('{"__proto__": 1, "constructor": 2, "prototype": 3, "toString": 4, "hasOwnProperty": 5, "valueOf": null}') as object;
    expect(answer("JSONRPCRequest", { ...request, ...extra }).ok).toBe(true);
    expect(answer("JSONRPCRequest", Object.assign(JSON.parse(JSON.stringify(request)) as object, extra)).ok).toBe(true);
    for (const method of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"]) {
      expect(issues(answer("ClientRequest", { ...request, method })).map((i) => [i.path, i.keyword])).toEqual([["/method", "discriminator"]]);
    }
    for (const name of ["constructor", "__proto__", "toString"]) {
      expect(answer("JSONRPCRequest", { ...request, method: name }).ok).toBe(true); // any string is a method here
    }
  });
});

describe("plain data", () => {
  it("gives every upstream example the same answer when its objects are built with Object.create(null), or in another realm", () => {
    let valid = 0;
    for (const { type, file, value } of examples) {
      if (!types.includes(type)) continue;
      const expected = answer(type, value);
      if (expected.ok) valid++;
      expect(answer(type, rebuild(value, nullProto)), `${file} with Object.create(null) objects`).toEqual({
        ...expected,
        ...(expected.ok ? { value: expect.anything() } : {}),
      });
      const foreign = runInNewContext("JSON.parse(text)", { text: JSON.stringify(value) }) as unknown;
      expect(answer(type, foreign).ok, `${file} from another realm`).toBe(expected.ok);
    }
    expect(valid).toBeGreaterThan(50);
  });

  it("accepts -0 as the integer 0 (JSON has one zero)", () => {
    expect(answer("JSONValue", -0).ok).toBe(true);
    expect(answer("JSONRPCRequest", { jsonrpc: "2.0", id: -0, method: "ping" }).ok).toBe(true);
  });

  const notJson: [string, unknown][] = [
    ["a function", () => 1],
    ["a symbol", Symbol("s")],
    ["a bigint", 10n],
    ["NaN", Number.NaN],
    ["Infinity", Number.POSITIVE_INFINITY],
    ["-Infinity", Number.NEGATIVE_INFINITY],
    ["undefined", undefined],
  ];

  it.each(notJson)("rejects %s as the value of every type, and inside arrays and objects at its path", (_name, value) => {
    for (const type of types) expect(answer(type, value).ok, type).toBe(false);
    expect(issues(answer("JSONArray", [1, value])).map((i) => i.path)).toEqual(["/1"]);
    const inObject = issues(answer("JSONObject", { a: 1, b: value })).map((i) => i.path);
    expect(inObject).toEqual(value === undefined ? [] : ["/b"]); // an undefined property is absent
    if (value !== undefined) {
      expect(issues(answer("CallToolResult", { resultType: "complete", content: [{ type: "text", text: value }] })).map((i) => i.path)).toEqual([
        "/content/0/text",
      ]);
    }
  });

  it("rejects a hole or undefined in an array (JSON.stringify would write null)", () => {
    expect(issues(answer("JSONArray", [1, , 3])).map((i) => i.path)).toEqual(["/1"]); // eslint-disable-line no-sparse-arrays
    expect(answer("JSONArray", new Array(3)).ok).toBe(false);
  });

  it("rejects a hole or undefined in an array whose element type admits undefined: the array cannot carry it (helper-64)", async () => {
    const text =
      "export type Maybe = string | undefined;\nexport interface A {\n  n: (string | undefined)[];\n  t?: [Maybe, number];\n  u?: undefined[];\n  k?: unknown[];\n  i?: (unknown & Maybe)[];\n  j?: (unknown & undefined)[];\n  m?: (IU | number)[];\n}\nexport type IU = unknown & Maybe;\n";
    const dir = await generateInto("hostile-undefined-elements", { schema: { text, fileName: "s.ts" }, targets: ["types", "validators"] });
    const { isA, validateA } = (await import(join(dir, "validators.ts"))) as {
      isA: (v: unknown) => boolean;
      validateA: (v: unknown) => { ok: boolean; issues?: { path: string; message: string }[] };
    };
    expect(isA({ n: ["a", "b"], t: ["x", 1], u: [], k: [1, , undefined], i: ["s"], j: [] })).toBe(true); // eslint-disable-line no-sparse-arrays
    // An intersection admits undefined when every member does: each member is checked without it (helper-70).
    const intersections = [{ n: [], i: [undefined] }, { n: [], i: ["s", ,] }, { n: [], i: [1] }, { n: [], j: [undefined] }]; // eslint-disable-line no-sparse-arrays
    for (const bad of [{ n: [undefined, "s"] }, { n: [, "s"] }, { n: [], t: [undefined, 1] }, { n: [], t: [, 1] }, { n: [], u: [undefined] }, ...intersections]) {
      expect(isA(bad)).toBe(false);
      // What JSON makes of it is refused as well: the verdict does not change with a round trip.
      expect(isA(JSON.parse(JSON.stringify(bad)))).toBe(false);
    }
    expect(validateA({ n: ["a", undefined], t: [undefined, 1], u: [undefined], i: [undefined], j: [undefined] }).issues).toEqual([
      { path: "/n/1", message: "expected string, got undefined", keyword: "type" },
      { path: "/t/0", message: "expected string, got undefined", keyword: "type" },
      { path: "/u/0", message: "expected never, got undefined", keyword: "type" },
      { path: "/i/0", message: "expected string, got undefined", keyword: "type" },
      { path: "/j/0", message: "expected never, got undefined", keyword: "type" },
    ]);
    // The element as checked (without undefined) is named by its members, unknown left out, not "intersection" (helpers 71, 72).
    expect(validateA({ n: [], m: [1, true] }).issues).toEqual([{ path: "/m/1", message: "expected string | integer, got true", keyword: "type" }]);
  });

  it("rejects boxed primitives where the schema names a string, a number or a boolean", () => {
    const request = { jsonrpc: "2.0", id: 1, method: "ping" };
    expect(issues(answer("JSONRPCRequest", { ...request, jsonrpc: new String("2.0") })).map((i) => i.path)).toEqual(["/jsonrpc"]);
    expect(issues(answer("JSONRPCRequest", { ...request, id: new Number(1) })).map((i) => i.path)).toEqual(["/id"]);
    expect(issues(answer("JSONRPCRequest", { ...request, method: new String("ping") })).map((i) => i.path)).toEqual(["/method"]);
    const result = { resultType: "complete", content: [], isError: new Boolean(false) };
    expect(issues(answer("CallToolResult", result)).map((i) => i.path)).toEqual(["/isError"]);
  });

  // Policy (README, "What the validators accept"): an object is JSON data only when its prototype is
  // Object.prototype (of any realm) or null (`isPlainObject` in runtime/json.ts). Before,
  // a Date passed as a JSONObject (it serializes as a string) and a class instance whose getters
  // supply `jsonrpc`, `id` and `method` passed as a JSONRPCRequest (it serializes as `{}`).
  const notPlain: [string, () => object][] = [
    ["a Date", () => new Date(0)],
    ["a Map", () => new Map([["a", 1]])],
    ["a Set", () => new Set([1])],
    ["a WeakMap", () => new WeakMap()],
    ["a RegExp", () => /x/],
    ["an Error", () => new Error("x")],
    ["a Promise", () => Promise.resolve(1)],
    [
      "a class instance",
      () =>
        new (class Point {
          x = 1;
        })(),
    ],
    ["a boxed string", () => new String("x")],
    ["a boxed number", () => new Number(1)],
    ["a boxed boolean", () => new Boolean(true)],
    ["a typed array", () => new Uint8Array([1, 2])],
    ["an ArrayBuffer", () => new ArrayBuffer(2)],
    ["an object inheriting from another", () => Object.create({ a: 1 }) as object],
    ["an object inheriting from a null-prototype object", () => Object.create(Object.assign(Object.create(null) as object, { a: 1 })) as object],
  ];

  it.each(notPlain)("rejects %s where the schema names an object", (_name, make) => {
    expect(answer("JSONObject", make()).ok).toBe(false);
    expect(answer("JSONValue", make()).ok).toBe(false);
    expect(answer("ClientCapabilities", { experimental: { x: make() } }).ok).toBe(false);
  });

  it("rejects every upstream example rebuilt as a class instance, or inheriting its properties", () => {
    class Data {}
    let checked = 0;
    for (const { type, file, value } of examples) {
      if (!types.includes(type) || typeof value !== "object" || value === null || Array.isArray(value) || !answer(type, value).ok) continue;
      expect(answer(type, Object.assign(new Data(), value)).ok, `${file} as a class instance`).toBe(false);
      expect(answer(type, Object.create(value) as object).ok, `${file} inherited (JSON.stringify writes {})`).toBe(false);
      checked++;
    }
    // The filter above must leave every object example in (each is valid, of a declared type),
    // and the corpus must still hold them: a loop that checks nothing cannot pass.
    const objects = examples.filter((e) => typeof e.value === "object" && e.value !== null && !Array.isArray(e.value));
    expect(objects.length).toBeGreaterThanOrEqual(100);
    expect(checked).toBe(objects.length);
  });
  // The same policy for arrays (`isPlainArray` in runtime/json.ts): an array is JSON data only when
  // its prototype is Array.prototype (of any realm). Before, an Array subclass instance passed
  // wherever the schema names an array.
  const notPlainArray: [string, () => unknown[]][] = [
    ["an Array subclass instance", () => new (class Items extends Array {})()],
    ["an array inheriting from another array", () => Object.setPrototypeOf([], [1]) as unknown[]],
    ["an array with a null prototype", () => Object.setPrototypeOf([], null) as unknown[]],
    ["an array with Object.prototype as its prototype", () => Object.setPrototypeOf([], Object.prototype) as unknown[]],
    // With valid elements.
    ["an Array subclass instance of valid elements", () => (class Items extends Array {}).from([{ type: "text", text: "t" }])],
    ["an array whose hole its prototype fills", () => Object.setPrototypeOf(new Array(1), Object.assign(Object.create(Array.prototype), { 0: { type: "text", text: "t" } })) as unknown[]],
  ];

  it.each(notPlainArray)("rejects %s where the schema names an array, saying it is not plain JSON data", (_name, make) => {
    expect(answer("JSONArray", make()).ok).toBe(false);
    expect(answer("JSONValue", make()).ok).toBe(false);
    expect(answer("JSONObject", make()).ok).toBe(false);
    const found = issues(answer("CallToolResult", { resultType: "complete", content: make() }));
    expect(found.map((i) => [i.path, i.keyword])).toEqual([["/content", "type"]]);
    expect(found[0]?.message).toMatch(/^expected array, got .*not plain JSON data/);
  });

  // The prototype is tested before any element is read: no getter of a value that is not plain
  // data runs, and a length it claims is not walked (a sparse array whose prototype answers every
  // index would otherwise cost time in its length, up to 2^32 - 1, for constant memory; 2^20 here,
  // so that a regression fails in about a second instead of hanging).
  it("reads no element of an array that is not plain JSON data", () => {
    let reads = 0;
    const answering = new Proxy(Object.create(Array.prototype) as object, {
      get: (target, key, receiver) => (typeof key === "string" && /^\d+$/.test(key) ? (reads++, { type: "text", text: "t" }) : Reflect.get(target, key, receiver)),
    });
    const huge = Object.setPrototypeOf(new Array(2 ** 20), answering) as unknown[];
    const started = performance.now();
    for (const type of ["JSONArray", "JSONValue"]) expect(answer(type, huge).ok).toBe(false);
    expect(answer("CallToolResult", { resultType: "complete", content: huge }).ok).toBe(false);
    expect(reads).toBe(0);
    expect(performance.now() - started).toBeLessThan(1000);
    // A getter on such a prototype would throw: it is never called, so the verdict is the prototype's.
    const throwing = Object.setPrototypeOf(new Array(1), Object.create(Array.prototype, { 0: { get: () => { throw new Error("read"); } } })) as unknown[];
    const found = issues(answer("CallToolResult", { resultType: "complete", content: throwing }));
    expect(found.map((i) => [i.path, i.keyword])).toEqual([["/content", "type"]]);
  });

  it("answers every upstream example whose arrays are Array subclass instances as if they were Dates there, and accepts them from another realm", () => {
    // Where the schema names an array, both are rejected; where it leaves the value open (`unknown`), both pass.
    class Items extends Array {}
    const replaced = (value: unknown, array: (items: unknown[]) => unknown): unknown => {
      if (Array.isArray(value)) return array(value.map((x) => replaced(x, array)));
      if (typeof value !== "object" || value === null) return value;
      return Object.fromEntries(Object.entries(value).map(([k, x]) => [k, replaced(x, array)]));
    };
    const hasArray = (value: unknown): boolean =>
      Array.isArray(value) || (typeof value === "object" && value !== null && Object.values(value).some(hasArray));
    let rejected = 0;
    for (const { type, file, value } of examples) {
      if (!types.includes(type) || !hasArray(value) || !answer(type, value).ok) continue;
      const subclassed = answer(type, replaced(value, (items) => Items.from(items))).ok;
      expect(subclassed, `${file} with Array subclass instances`).toBe(answer(type, replaced(value, () => new Date(0))).ok);
      if (!subclassed) rejected++;
      const foreign = runInNewContext("JSON.parse(text)", { text: JSON.stringify(value) }) as unknown;
      expect(answer(type, foreign).ok, `${file} from another realm`).toBe(true);
    }
    expect(rejected).toBeGreaterThanOrEqual(30);
  });
});

describe("throwing getters and Proxies", () => {
  const revoked = (target: object) => {
    const { proxy, revoke } = Proxy.revocable(target, {});
    revoke();
    return proxy;
  };
  const throwing = (thrown: unknown): PropertyDescriptor => ({
    enumerable: true,
    get() {
      throw thrown;
    },
  });

  it.each([
    ["an Error", new Error("boom")],
    ["a number", 42],
    ["null", null],
    ["undefined", undefined],
    ["a symbol", Symbol("s")],
    ["a revoked Proxy", revoked({})],
    ["an Error whose name getter throws", Object.create(Error.prototype, { name: throwing(new Error("again")) }) as unknown],
  ])("turns a getter throwing %s, anywhere in the value, into one exception issue", (_name, thrown) => {
    const values: [string, unknown][] = [
      ["JSONArray", Object.defineProperty([1, 2], 1, throwing(thrown))],
      ["JSONObject", Object.defineProperty({ a: 1 }, "k", throwing(thrown))],
      ["CallToolRequest", { jsonrpc: "2.0", id: 1, method: "tools/call", params: Object.defineProperty({}, "name", throwing(thrown)) }],
      ["ClientRequest", Object.defineProperty({ jsonrpc: "2.0", id: 1 }, "method", throwing(thrown))],
    ];
    for (const [type, value] of values) {
      const found = issues(answer(type, value));
      expect(
        found.map((i) => [i.path, i.keyword]),
        type,
      ).toEqual([["", "exception"]]);
      expect(found[0]!.message.startsWith("the check threw: ")).toBe(true);
    }
  });

  const trapsThrow = new Proxy(
    {},
    {
      get: () => () => {
        throw new Error("trap");
      },
    },
  );
  it.each([
    ["an object Proxy whose every trap throws", () => new Proxy({}, trapsThrow)],
    ["an array Proxy whose every trap throws", () => new Proxy([], trapsThrow)],
    ["a revoked object Proxy", () => revoked({})],
    ["a revoked array Proxy", () => revoked([])],
    ["a Proxy whose ownKeys breaks the Proxy invariants", () => new Proxy(Object.preventExtensions({ a: 1 }), { ownKeys: () => ["b"] })],
  ])("answers for %s in every validator, at the root and nested, never throwing", (_name, make) => {
    for (const type of types) answer(type, make());
    for (const type of ["JSONObject", "JSONValue", "JSONRPCRequest", "ClientRequest", "CallToolResult"])
      expect(answer(type, make()).ok, type).toBe(false);
    expect(answer("JSONArray", [1, make()]).ok).toBe(false);
    expect(issues(answer("JSONObject", { a: make() })).map((i) => i.keyword)).toEqual(["exception"]);
  });

  // With the plain-data policy, reading the prototype is the first step, and it traps.
  it("answers no for a Proxy whose every trap throws in every validator", () => {
    for (const type of types) expect(answer(type, new Proxy({}, trapsThrow)).ok, type).toBe(false);
  });

  it("judges a transparent Proxy by its target", () => {
    expect(answer("JSONRPCRequest", new Proxy({ jsonrpc: "2.0", id: 1, method: "ping" }, {})).ok).toBe(true);
    expect(answer("JSONArray", new Proxy([1, "a", null], {})).ok).toBe(true);
    expect(answer("JSONRPCRequest", new Proxy({ jsonrpc: "1.0", id: 1, method: "ping" }, {})).ok).toBe(false);
  });
});

describe("discriminator values that are not strings", () => {
  const request = { jsonrpc: "2.0", id: 1 };
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;

  it("reports numbers, null, booleans, objects and short strings once, by value or type", () => {
    for (const method of [1, 1.5, null, true, {}, [], "nope", ""]) {
      const found = issues(answer("ClientRequest", { ...request, method }));
      expect(found.map((i) => [i.path, i.keyword])).toEqual([["/method", "discriminator"]]);
    }
  });

  // The `unknown method …` message quotes the value with describeValue (a short quote, or the
  // value's type): JSON.stringify threw for a bigint, a cyclic object or a throwing toJSON,
  // overflowed the stack for deep arrays and copied long strings whole into the message.
  it.each([
    ["a bigint", 10n],
    ["a cyclic object", cyclic],
    [
      "an object whose toJSON throws",
      {
        toJSON: () => {
          throw new Error("toJSON");
        },
      },
    ],
    ["a deeply nested array", nest(1e5, "array")],
    ["a string of 10^5 characters", "x".repeat(1e5)],
  ])("reports %s as the method as one short discriminator issue", (_name, method) => {
    const found = issues(answer("ClientRequest", { ...request, method }));
    expect(found.map((i) => [i.path, i.keyword])).toEqual([["/method", "discriminator"]]);
    expect(found[0]!.message.length).toBeLessThan(1000);
  });
});
