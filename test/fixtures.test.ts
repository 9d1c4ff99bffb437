/**
 * The fixture suite: small schemas of our own under `test/fixtures/<family>/schema.ts`,
 * one per construct family. For each: the generated files match their file snapshots,
 * type-check under a strict user configuration, and the imported validators give the
 * stated verdicts with the exact issues (JSON Pointer path and keyword).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { generate, GeneratorError, type GeneratorOptions } from "../generator/index.js";
import { typecheck } from "./support/corpus.js";
import {
  fixtureSchema,
  generateFixture,
  issue,
  snapshotPath,
  verdicts,
  unusedDeclarations,
  type GeneratedFixture,
  type ValidatorsModule,
} from "./support/fixtures.js";

const I = issue;

/** Generates a family once for its `describe` block; snapshot and type-check tests for it. */
function fixtureSuite(family: string, options: Partial<GeneratorOptions>, files: readonly string[]) {
  let fixture: GeneratedFixture | undefined;
  beforeAll(async () => {
    fixture = await generateFixture(family, options);
  });
  const get = (): GeneratedFixture => {
    if (!fixture) throw new Error(`fixture ${family} was not generated`);
    return fixture;
  };
  for (const file of files) {
    it(`matches the file snapshot of ${file}`, async () => {
      await expect(get().read(file)).toMatchFileSnapshot(snapshotPath(family, file));
    });
  }
  it("type-checks under strict, exactOptionalPropertyTypes and noUncheckedIndexedAccess", () => {
    expect(typecheck(get().dir)).toEqual([]);
  });
  it("declares nothing it does not use (noUnusedLocals)", () => {
    expect(unusedDeclarations(get().dir)).toEqual([]);
  });
  return { get, validators: (): ValidatorsModule => get().validators };
}

/** The names `validatorsByType` holds, in order, and a key from `Object.prototype` it must not answer. */
function expectValidatorsByType(v: ValidatorsModule, names: readonly string[]): void {
  expect(Object.keys(v.validatorsByType)).toEqual(names);
  expect(Object.getPrototypeOf(v.validatorsByType)).toBe(null);
  expect(v.validatorsByType["toString"]).toBeUndefined();
}

describe("fixture interfaces: extends (zero, one, several, Omit, alias), re-declared and quoted properties", () => {
  const { validators: v, get: fixtureGet } = fixtureSuite("interfaces", { docs: "tags" }, ["types.ts", "validators.ts", "index.ts"]);

  it("has one validator per type declaration, none for constants", () => {
    expectValidatorsByType(v(), [
      "MetaObject",
      "Request",
      "Notification",
      "Error",
      "RequestMeta",
      "PingRequest",
      "Tagged",
      "Versioned",
      "TaggedRequest",
      "TaggedOnly",
      "Empty",
      "ErrorResponse",
      "TeapotErrorResponse",
      "AnonymousErrorResponse",
      "UsesLater",
      "Later",
      "Keywords",
      "BaseParams",
      "UriParams",
      "CursorParams",
      "BothParams",
    ]);
  });

  verdicts(v, "MetaObject", {
    valid: [{}, { anything: [1, "x"] }],
    invalid: [
      [null, [I("", "type")]],
      [[], [I("", "type")]],
    ],
  });
  verdicts(v, "Request", {
    valid: [{ method: "x" }, { method: "x", params: { a: 1 } }, { method: "x", unknown: true }],
    invalid: [
      [{}, [I("/method", "required")]],
      [{ method: 1 }, [I("/method", "type")]],
      [{ method: "x", params: [] }, [I("/params", "type")]],
    ],
  });
  // A lib global named Error would accept any Error instance; the schema's own does not.
  verdicts(v, "Error", {
    valid: [
      { code: -32600, message: "bad" },
      { code: 1, message: "m", data: null },
    ],
    invalid: [
      // An Error instance is not JSON data (only plain objects are), whatever properties it has.
      [new globalThis.Error("boom"), [I("", "type")]],
      [{ code: 1.5, message: "m" }, [I("/code", "type")]],
    ],
  });
  verdicts(v, "RequestMeta", {
    valid: [{}, { progressToken: "t", other: {} }, { progressToken: 7 }],
    invalid: [
      [{ progressToken: 1.5 }, [I("/progressToken", "type")]],
      [{ progressToken: null }, [I("/progressToken", "type")]],
    ],
  });
  verdicts(v, "PingRequest", {
    valid: [
      { method: "ping", params: {} },
      { method: "ping", params: { note: "n" } },
    ],
    invalid: [
      [{ method: "ping" }, [I("/params", "required")]],
      [{ method: "pong", params: {} }, [I("/method", "const")]],
      [{ method: "ping", params: { note: 1 } }, [I("/params/note", "type")]],
    ],
  });
  verdicts(v, "TaggedRequest", {
    valid: [{ method: "m", tag: "t", version: 1 }],
    invalid: [
      [{ method: "m", tag: "t" }, [I("/version", "required")]],
      [{ method: "m" }, [I("/tag", "required"), I("/version", "required")]],
      [{}, [I("/method", "required"), I("/tag", "required"), I("/version", "required")]],
    ],
  });
  verdicts(v, "TaggedOnly", {
    valid: [{ tag: "t" }],
    invalid: [[{}, [I("/tag", "required")]]],
  });
  // Tagged and TaggedOnly are one type structure: TaggedOnly's validator uses Tagged's collector
  // (the first by name), and gives Tagged's issues.
  it("shares one collector between declarations of one type structure, named after the first by name", () => {
    const code = fixtureGet().read("validators.ts");
    expect(code).toContain("// Also the collector of TaggedOnly: the same type.\nfunction _collectTagged(");
    expect(code).not.toContain("function _collectTaggedOnly(");
    expect(code).toContain("collectIssues<T.TaggedOnly>(_collectTagged, value)");
    const { Tagged: validateTagged, TaggedOnly: validateTaggedOnly } = v().validatorsByType;
    for (const value of [{}, { tag: 1 }, [], null, { tag: "t", extra: 1 }]) expect(validateTaggedOnly!(value)).toEqual(validateTagged!(value));
  });
  verdicts(v, "Empty", {
    valid: [{}, { a: 1 }],
    invalid: [
      [null, [I("", "type")]],
      [[], [I("", "type")]],
      ["{}", [I("", "type")]],
    ],
  });
  verdicts(v, "TeapotErrorResponse", {
    valid: [{ jsonrpc: "2.0", id: 1, error: { code: -32418, message: "teapot", data: { reason: "short" } } }],
    invalid: [
      [{ jsonrpc: "2.0", error: { code: -32600, message: "m", data: { reason: "r" } } }, [I("/error/code", "const")]],
      [{ jsonrpc: "2.0", error: { code: -32418, message: "m" } }, [I("/error/data", "required")]],
      [{ jsonrpc: "2.0", error: { code: -32418, data: { reason: "r" } } }, [I("/error/message", "required")]],
      [{ jsonrpc: "2.0", error: { code: -32418, message: "m", data: {} } }, [I("/error/data/reason", "required")]],
      [{ jsonrpc: "1.0", id: null, error: [] }, [I("/jsonrpc", "const"), I("/id", "type"), I("/error", "type")]],
    ],
  });
  // Omit<ErrorResponse, "id"> drops `id` from the shape: it is an unknown property now, not checked.
  verdicts(v, "AnonymousErrorResponse", {
    valid: [{ jsonrpc: "2.0", id: null, error: { code: 1, message: "m" } }],
    invalid: [[{ jsonrpc: "2.0" }, [I("/error", "required")]]],
  });
  verdicts(v, "UsesLater", {
    valid: [{ later: { ok: true } }, { later: { ok: false }, notification: { method: "n" } }],
    invalid: [
      [{ later: { ok: "yes" } }, [I("/later/ok", "type")]],
      [{ later: { ok: true }, notification: {} }, [I("/notification/method", "required")]],
    ],
  });
  verdicts(v, "Keywords", {
    valid: [
      { enum: [], "io.modelcontextprotocol/protocolVersion": "2025-11-25" },
      {
        default: "d",
        enum: ["a"],
        const: "c",
        $schema: "s",
        "io.modelcontextprotocol/protocolVersion": "v",
        "a~b/c": 1,
      },
    ],
    invalid: [
      [
        { default: 1, enum: ["a", 1], const: 2, $schema: 3, "a~b/c": "x" },
        [
          I("/default", "type"),
          I("/enum/1", "type"),
          I("/const", "type"),
          I("/$schema", "type"),
          I("/io.modelcontextprotocol~1protocolVersion", "required"),
          I("/a~0b~1c", "type"),
        ],
      ],
    ],
  });

  // Both bases bring the same `_meta`: one property, checked once.
  verdicts(v, "BothParams", {
    valid: [{ uri: "u" }, { uri: "u", cursor: "c", _meta: { k: 1 } }],
    invalid: [
      [{ _meta: [] }, [I("/_meta", "type"), I("/uri", "required")]],
      [{ uri: "u", cursor: 1 }, [I("/cursor", "type")]],
    ],
  });

  it("reports a missing quoted property by its wire name", () => {
    const result = (v().validateKeywords as (x: unknown) => { ok: boolean; issues?: { message: string }[] })({
      enum: [],
    });
    expect(result).toEqual({
      ok: false,
      issues: [
        {
          path: "/io.modelcontextprotocol~1protocolVersion",
          keyword: "required",
          message: 'missing required property "io.modelcontextprotocol/protocolVersion"',
        },
      ],
    });
  });
});

describe("fixture aliases: unions, literals, open unions, intersections, references, constants", () => {
  const suite = fixtureSuite("aliases", { docs: "tags" }, ["types.ts", "validators.ts"]);
  const v = suite.validators;

  it("exports the string and number constants from types.ts", () => {
    const types = suite.get().types;
    expect({ ...types }).toEqual({ JSONRPC_VERSION: "2.0", MAX_RETRIES: 3, PARSE_ERROR: -32700 });
  });

  it("has one validator per type declaration, none for constants", () => {
    expectValidatorsByType(v(), [
      "Version",
      "ParseErrorCode",
      "Word",
      "Anything",
      "RequestId",
      "Maybe",
      "OldRole",
      "Role",
      "StopReason",
      "MaybeRole",
      "Flag",
      "Answer",
      "Part",
      "OneOrMany",
      "TextPart",
      "DataPart",
      "Pair",
      "NamedPair",
      "PairAlias",
      "Message",
      "MaybeText",
      "ViaAlias",
      "WordOrWords",
    ]);
  });

  // The union's string member uses the collector of Word, a declaration of the same structure.
  it("collects a union member with the collector of a declaration of the same type structure", () => {
    const code = suite.get().read("validators.ts");
    expect(code).toContain('anyOf(o, p, v, d, "string | string[]", [1, 32], [_collectWord, _isWordOrWords$1$collect]);');
    expect(code).not.toContain("WordOrWords$0$collect");
  });
  verdicts(v, "WordOrWords", {
    valid: ["a", [], ["a", "b"]],
    invalid: [
      [1, [I("", "type")]],
      [{}, [I("", "type")]],
      [["a", 2], [I("/1", "type")]],
    ],
  });

  verdicts(v, "ViaAlias", {
    valid: [{ text: "a", count: 1 }],
    invalid: [
      // Required through the alias as written inline: present (JSON has no undefined, so as ajv reads `required`).
      [{ count: 1 }, [I("/text", "required")]],
      [{ text: undefined, count: 1 }, [I("/text", "required")]],
      [{ count: "x" }, [I("/text", "required"), I("/count", "type")]],
    ],
  });

  verdicts(v, "Version", {
    valid: ["2.0"],
    invalid: [
      ["1.0", [I("", "const")]],
      [2, [I("", "const")]],
    ],
  });
  verdicts(v, "ParseErrorCode", {
    valid: [-32700],
    invalid: [
      [-32600, [I("", "const")]],
      ["-32700", [I("", "const")]],
    ],
  });
  verdicts(v, "Word", {
    valid: ["", "w"],
    invalid: [
      [1, [I("", "type")]],
      [null, [I("", "type")]],
    ],
  });
  verdicts(v, "Anything", { valid: [undefined, null, 0, "", [], {}] });
  verdicts(v, "RequestId", {
    valid: ["a", 1, -5, 0],
    invalid: [
      [1.5, [I("", "type")]],
      [null, [I("", "type")]],
      [NaN, [I("", "type")]],
      [Infinity, [I("", "type")]],
      [-Infinity, [I("", "type")]],
    ],
  });
  verdicts(v, "Maybe", {
    valid: [null, "x"],
    invalid: [
      [1, [I("", "type")]],
      [undefined, [I("", "type")]],
    ],
  });
  verdicts(v, "OldRole", {
    valid: ["user", "assistant"],
    invalid: [
      ["system", [I("", "enum")]],
      [1, [I("", "enum")]],
    ],
  });
  // A literal union extended through a reference is still a set of literals: `enum`.
  verdicts(v, "Role", { valid: ["user", "assistant", "system"], invalid: [["bot", [I("", "enum")]]] });
  verdicts(v, "StopReason", { valid: ["endTurn", "maxTokens", "anything else", ""], invalid: [[1, [I("", "type")]]] });
  verdicts(v, "MaybeRole", { valid: [null, "user", "system"], invalid: [["bot", [I("", "type")]]] });
  verdicts(v, "Flag", {
    valid: [true],
    invalid: [
      [false, [I("", "const")]],
      ["true", [I("", "const")]],
    ],
  });
  verdicts(v, "Answer", {
    valid: [42, -1],
    invalid: [
      [41, [I("", "enum")]],
      ["42", [I("", "enum")]],
    ],
  });
  verdicts(v, "Part", {
    valid: [{ text: "t" }, { data: "d", mimeType: "m" }],
    invalid: [
      // The closest member explains the failure after the summary: each issue weighs 1, a property missing (or a constant
      // not held) at the union's level 3; of as close members, the first (helper-107: { data: "d", mimeType: 1 } was told
      // it lacks text).
      [{}, [I("", "anyOf"), I("/text", "required")]],
      [{ data: "d" }, [I("", "anyOf"), I("/text", "required")]],
      [{ data: "d", mimeType: 1 }, [I("", "anyOf"), I("/mimeType", "type")]],
      [5, [I("", "type")]],
    ],
  });
  verdicts(v, "OneOrMany", {
    valid: [{ text: "a" }, [], [{ text: "a" }, { text: "b" }]],
    invalid: [
      ["a", [I("", "type")]],
      // An array is reported against the array member, not as "expected object, got array".
      [
        [{ text: "a" }, { text: 1 }],
        [I("/1/text", "type")],
      ],
    ],
  });
  verdicts(v, "Pair", {
    valid: [{ first: "a" }, { first: "a", second: 2 }],
    invalid: [
      [{ first: "a", second: 1.5 }, [I("/second", "type")]],
      [{}, [I("/first", "required")]],
    ],
  });
  verdicts(v, "NamedPair", {
    valid: [{ first: "a", name: "n" }],
    invalid: [
      [{}, [I("/first", "required"), I("/name", "required")]],
      [{ first: "a", name: 1 }, [I("/name", "type")]],
      [[], [I("", "type")]],
    ],
  });
  verdicts(v, "PairAlias", { valid: [{ first: "a" }], invalid: [[{ first: 1 }, [I("/first", "type")]]] });
  verdicts(v, "Message", {
    valid: [
      { role: "user", value: null },
      { role: "system", retries: 3, stop: "other", value: false },
    ],
    invalid: [
      [{ role: "user", value: 1.5 }, [I("/value", "type")]],
      [{ role: "user", value: {} }, [I("/value", "type")]],
      [
        { role: "bot", retries: 4, stop: 1, value: "s" },
        [I("/role", "enum"), I("/retries", "const"), I("/stop", "type")],
      ],
      [{ role: "user" }, [I("/value", "required")]],
    ],
  });
});

describe("fixture objects: index signatures, Record, arrays, nested and empty objects, special keywords", () => {
  const { validators: v } = fixtureSuite("objects", { docs: "none" }, ["types.ts", "validators.ts"]);

  verdicts(v, "Bag", {
    valid: [{ name: "n" }, { name: "n", anything: [1], else: null }],
    invalid: [
      [{}, [I("/name", "required")]],
      [{ name: 1, other: 2 }, [I("/name", "type")]],
    ],
  });
  verdicts(v, "Counts", {
    valid: [{}, { a: 1, b: -2 }, Object.assign(Object.create(null) as object, { a: 1 })],
    invalid: [
      [{ x: "1" }, [I("/x", "type")]],
      // Only plain objects are JSON data: one inheriting from another is not.
      [Object.create({ inherited: 1 }) as object, [I("", "type")]],
      // JSON Pointer escapes `~` as `~0` and `/` as `~1`.
      [{ "a/b~c": 1.5, ok: 1, "~": null }, [I("/a~1b~0c", "type"), I("/~0", "type")]],
      [{ n: NaN, i: Infinity }, [I("/n", "type"), I("/i", "type")]],
      [[], [I("", "type")]],
    ],
  });
  // readonly is the types' business: a frozen array and a plain one are the same JSON.
  verdicts(v, "ReadonlyLists", {
    valid: [
      { names: [], counts: [1], either: null, entries: [] },
      Object.freeze({ names: Object.freeze(["a"]), counts: [], pair: ["p", 2], rows: [["r"]], either: ["x", 1], entries: [{ id: "i", weight: 1, description: "d", owner: "o" }] }),
    ],
    invalid: [
      [{ names: [1], counts: [], either: null, entries: [] }, [I("/names/0", "type")]],
      [{ names: [], counts: [], pair: ["p"], either: null, entries: [] }, [I("/pair", "items")]],
    ],
  });
  verdicts(v, "Registry", {
    valid: [{ primary: { id: "p" } }, { primary: { id: "p" }, other: { id: "o" } }],
    invalid: [
      [{}, [I("/primary", "required")]],
      [{ primary: { id: "p" }, other: 1 }, [I("/other", "type")]],
      [{ primary: {}, other: {} }, [I("/primary/id", "required"), I("/other/id", "required")]],
    ],
  });
  verdicts(v, "Loose", {
    valid: [{}, { params: { a: 1, b: undefined }, experimental: { x: {} }, arguments: { a: "b" } }],
    invalid: [
      [{ experimental: { x: 1 } }, [I("/experimental/x", "type")]],
      [{ experimental: { x: [] } }, [I("/experimental/x", "type")]],
      [{ experimental: { x: null } }, [I("/experimental/x", "type")]],
      [{ arguments: { a: 1 } }, [I("/arguments/a", "type")]],
      [{ params: "p" }, [I("/params", "type")]],
    ],
  });
  verdicts(v, "Scores", { valid: [{}, { a: 1 }], invalid: [[{ a: "x" }, [I("/a", "type")]]] });
  verdicts(v, "Fixed", {
    valid: [
      { a: "x", b: "y" },
      { a: "x", b: "y", c: 1 },
    ],
    invalid: [[{ a: "x" }, [I("/b", "required")]]],
  });
  verdicts(v, "Lists", {
    valid: [
      { tags: [], mixed: [], items: [] },
      { tags: ["a"], mixed: ["a", 1], items: [{ id: 1 }, { id: 2, label: "x" }], grid: [[1], [2, 3]] },
    ],
    invalid: [
      [
        { tags: "a", mixed: [true], items: [{ id: "1" }, {}], grid: [[1.5]] },
        [
          I("/tags", "type"),
          I("/mixed/0", "type"),
          I("/items/0/id", "type"),
          I("/items/1/id", "required"),
          I("/grid/0/0", "type"),
        ],
      ],
      [{ tags: [], mixed: [], items: {} }, [I("/items", "type")]],
      [{ tags: [], mixed: [], items: [], grid: [1] }, [I("/grid/0", "type")]],
    ],
  });
  verdicts(v, "Nested", {
    valid: [{ outer: { inner: { leaf: true } } }],
    invalid: [
      [{ outer: { inner: {} } }, [I("/outer/inner/leaf", "required")]],
      [{ outer: { inner: [] } }, [I("/outer/inner", "type")]],
      [{ outer: null }, [I("/outer", "type")]],
    ],
  });
  verdicts(v, "Specials", {
    valid: [
      { anything: 0, nil: null },
      { roots: {}, logging: {}, anything: null, whatever: undefined, nil: null },
      { roots: { listChanged: true }, anything: false, nil: null, nothing: undefined },
    ],
    invalid: [
      // `any` and `unknown` accept any value, but a required property must be present.
      [{ nil: null }, [I("/anything", "required")]],
      [{ anything: undefined, nil: null }, [I("/anything", "required")]],
      [{ anything: 1, nil: 0 }, [I("/nil", "type")]],
      [{ anything: 1, nil: null, nothing: 1 }, [I("/nothing", "type")]],
      [{ anything: 1, nil: null, roots: [] }, [I("/roots", "type")]],
      [{ anything: 1, nil: null, logging: [] }, [I("/logging", "type")]],
      [{ anything: 1, nil: null, logging: "x" }, [I("/logging", "type")]],
    ],
  });
  verdicts(v, "Schemas", {
    valid: [
      { inputSchema: { type: "object" } },
      { inputSchema: { $schema: "s", type: "object", properties: {} }, annotations: { title: "t", hint: "h" } },
    ],
    invalid: [
      [{ inputSchema: { type: "array" } }, [I("/inputSchema/type", "const")]],
      [{ inputSchema: { type: "object", $schema: 1 } }, [I("/inputSchema/$schema", "type")]],
      [{ inputSchema: { type: "object" }, annotations: { title: "t", hint: 1 } }, [I("/annotations/hint", "type")]],
      [{ inputSchema: { type: "object" }, annotations: { hint: "h" } }, [I("/annotations/title", "required")]],
    ],
  });
});

describe("fixture recursive: JSONValue, JSONObject, JSONArray, a recursive interface", () => {
  const { get, validators: v } = fixtureSuite("recursive", { docs: "tags" }, ["validators.ts"]);

  verdicts(v, "JSONValue", {
    valid: ["s", 1, true, null, {}, [], { a: [1, { b: null, c: "x" }], d: { e: [[]] } }],
    invalid: [
      [undefined, [I("", "type")]],
      [
        { a: [1, { b: 1.5 }] },
        [I("/a/1/b", "type")],
      ],
    ],
  });
  verdicts(v, "JSONObject", {
    valid: [{}, { a: { b: { c: [] } } }],
    invalid: [
      [[], [I("", "type")]],
      [{ a: Symbol.iterator }, [I("/a", "type")]],
    ],
  });
  verdicts(v, "JSONArray", { valid: [[], [[[]]]], invalid: [[{}, [I("", "type")]]] });
  verdicts(v, "Tree", {
    valid: [{ value: null }, { value: { a: 1 }, children: [{ value: [] }, { value: "x", children: [] }] }],
    invalid: [
      [{ value: 1, children: [{}] }, [I("/children/0/value", "required")]],
      [
        { value: 1, children: [{ value: 1, children: [{ value: 2, children: {} }] }] },
        [I("/children/0/children/0/children", "type")],
      ],
    ],
  });

  verdicts(v, "Overlap", {
    valid: [{ x: "s" }, { y: 1, a: { x: "s", a: { y: 2 } } }],
    invalid: [
      [{}, [I("", "anyOf"), I("/x", "required")]],
      [{ x: "s", a: { x: 1 } }, [I("", "anyOf"), I("/a", "anyOf"), I("/a/x", "type")]],
    ],
  });

  verdicts(v, "Branch", {
    valid: [{ name: "a", kids: [{ name: "b" }] }, { name: "a" }],
    invalid: [
      // An array cannot carry undefined (JSON.stringify writes null), though the element type admits it (helper-64):
      // the element is checked as a Branch, and isX and validateX agree.
      [{ name: "a", kids: [undefined, { name: "b" }] }, [I("/kids/0", "type")]],
      [{ name: 1, kids: [undefined] }, [I("/name", "type"), I("/kids/0", "type")]],
      [{ name: "a", kids: [null] }, [I("/kids/0", "type")]],
    ],
  });

  it("collects a recursive union whose members share its own type once per value and path (linear, not doubling per level)", () => {
    // Every level matches both members' shape but the innermost; each member collects `a`. Collected
    // again by each member, `a` of the innermost level would be read 2^16 times; a getter counts the reads.
    const DEPTH = 16;
    let reads = 0;
    let value: unknown = { x: 1 };
    for (let i = 0; i < DEPTH; i++) {
      const inner = value;
      value = Object.defineProperty({ x: "s" }, "a", { enumerable: true, get: () => (reads++, inner) });
    }
    const validate = v().validateOverlap as (x: unknown) => { ok: boolean; issues: { path: string; keyword: string }[] };
    const result = validate(value);
    expect(result.ok).toBe(false);
    expect(result.issues.at(-1)).toMatchObject({ path: `${"/a".repeat(DEPTH)}/x`, keyword: "type" });
    expect(reads).toBeLessThan(10 * DEPTH);
    // One object at two paths: each issue names the path it was reached by.
    const shared = { x: 1 };
    const twice = validate({ x: "s", a: shared, b: shared });
    expect(twice.issues.map((i) => i.path)).toEqual(["", "/a", "/a/x", "/b", "/b/x"]);
  });

  verdicts(v, "Both", {
    valid: [{}, { next: { l: "a", next: { r: 1 } } }],
    invalid: [[{ next: { l: 1 } }, [I("/next/l", "type")]]],
  });
  verdicts(v, "Holder", {
    valid: [{}, { child: { x: "s", a: { child: { y: 1 } } } }],
    invalid: [[{ child: { a: {} } }, [I("/child", "anyOf"), I("/child/x", "required")]]],
  });

  verdicts(v, "Patch", {
    valid: [{ id: "a" }, { id: "a", name: "n" }],
    invalid: [
      [{ name: "x" }, [I("/id", "required")]],
      [{ id: 5 }, [I("/id", "type")]],
    ],
  });
  verdicts(v, "Chain", {
    valid: [{ a: "x" }, { a: "x", next: { a: "y" } }],
    invalid: [
      [{}, [I("/a", "required")]],
      [{ a: "x", next: {} }, [I("/next/a", "required")]],
      [{ a: 1 }, [I("/a", "type")]],
    ],
  });

  verdicts(v, "Twofold", {
    valid: [{}, { x: "s", a: { a: {} } }],
    invalid: [
      [{ a: 1 }, [I("/a", "type")]],
      [{ a: true }, [I("/a", "type"), I("/a", "type")]],
    ],
  });
  verdicts(v, "Mapped", {
    valid: [{}, { k: { j: {} } }],
    invalid: [[{ k: true }, [I("/k", "type"), I("/k", "type")]]],
  });

  it("reports an issue two intersection members reach through one key once, at any depth", () => {
    // Each member checks the key with its own type, and both reach the nested value: reported by
    // each member at every level, the innermost issue would be listed 2^12 times (cut at the cap).
    type Validate = (x: unknown) => { ok: boolean; issues: { path: string; message: string; keyword: string }[] };
    const chain = (leaf: unknown, key: string) => {
      let value = leaf;
      for (let i = 0; i < 12; i++) value = { [key]: value };
      return value;
    };
    const innermost = (type: string, key: string) => [
      { path: `${`/${key}`.repeat(12)}/${key}`, message: `expected ${type} | integer, got true`, keyword: "type" },
      { path: `${`/${key}`.repeat(12)}/${key}`, message: `expected ${type} | string, got true`, keyword: "type" },
    ];
    expect((v().validateTwofold as Validate)(chain({ a: true }, "a")).issues).toEqual(innermost("Twofold", "a"));
    expect((v().validateMapped as Validate)(chain({ k: true }, "k")).issues).toEqual(innermost("Mapped", "k"));
  });

  it("lists an issue two members share once, at any depth, also through aliases and in plain objects", () => {
    type Validate = (x: unknown) => { ok: boolean; issues: { path: string; message: string; keyword: string }[] };
    let aliased: unknown = { a: true };
    for (let i = 0; i < 12; i++) aliased = { a: aliased };
    expect((v().validateAliased as Validate)(aliased).issues.map((i) => [i.path, i.message])).toEqual([
      [`${"/a".repeat(13)}`, "expected Aliased | integer, got true"],
      [`${"/a".repeat(13)}`, "expected Aliased | string, got true"],
    ]);
    expect((v().validateNested as Validate)({ a: { b: 1 } }).issues.map((i) => [i.path, i.keyword])).toEqual([["/a/b", "type"]]);
  });

  it("counts distinct issues toward the cap: repeats neither fill the list nor cost issues, and a list past the cap keeps its marker", () => {
    type Validate = (x: unknown) => { issues: { keyword: string; path: string; message: string }[] };
    const invalid = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`v${i}`, true]));
    // `k` holds 40 invalid values, 80 issues (one per member's value type); both members reach them.
    const some = (v().validateMapped as Validate)({ k: invalid(40), later: true }).issues;
    expect(some).toHaveLength(82);
    expect(new Set(some.map((i) => `${i.path} ${i.message}`)).size).toBe(82);
    expect(some.map((i) => i.path).filter((p) => p === "/later")).toHaveLength(2);
    // 60 invalid values are 120 distinct issues: the list stops at the cap and says so.
    const many = (v().validateMapped as Validate)({ k: invalid(60) }).issues;
    expect(many).toHaveLength(101);
    expect(many.at(-1)).toMatchObject({ keyword: "maxIssues" });
    expect(new Set(many.slice(0, 100).map((i) => `${i.path} ${i.message}`)).size).toBe(100);
  });

  it("checks a recursive type with two branches into its recursion once per value: reads grow linearly, not 2^depth", () => {
    // A getter counts the reads of each level's link. Checked once per branch, the innermost link
    // would be read 2^16 times.
    const DEPTH = 16;
    const chain = (leaf: unknown, level: (inner: () => unknown) => object, counter: { reads: number }) => {
      let value = leaf;
      for (let i = 0; i < DEPTH; i++) {
        const inner = value;
        value = level(() => (counter.reads++, inner));
      }
      return value;
    };
    const link = (name: string, own: object) => (get: () => unknown) => Object.defineProperty({ ...own }, name, { enumerable: true, get });
    const cases: [string, unknown, boolean, { reads: number }][] = [];
    // Overlap: every level matches both members' own properties, the innermost level neither.
    const overlap = { reads: 0 };
    cases.push(["Overlap", chain({ x: 1 }, link("a", { x: "s", y: 1 }), overlap), false, overlap]);
    // Both: a valid value; each member of the intersection checks `next` whole.
    const both = { reads: 0 };
    cases.push(["Both", chain({}, link("next", { l: "s" }), both), true, both]);
    // Holder: the union sits inline, one level below the interface.
    const holder = { reads: 0 };
    cases.push(["Holder", chain({ child: { x: 1 } }, (get) => ({ child: Object.defineProperty({ x: "s", y: 1 }, "a", { enumerable: true, get }) }), holder), false, holder]);
    for (const [type, value, ok, counter] of cases) {
      expect((v()[`is${type}`] as (x: unknown) => boolean)(value), type).toBe(ok);
      expect(counter.reads, type).toBeLessThanOrEqual(4 * DEPTH);
      expect((v()[`validate${type}`] as (x: unknown) => { ok: boolean })(value).ok, type).toBe(ok);
    }
    // Only those (and Chain, Twofold, Mapped and Aliased, intersections of recursing members) check through checkOnce; the draft's types have no such branches.
    const text = get().read("validators.ts");
    expect([...text.matchAll(/return checkOnce\(([\w$]+), v, d\)/g)].map((m) => m[1]).sort()).toEqual([
      "_isAliased$once",
      "_isBoth$once",
      "_isChain$once",
      "_isHolder$once",
      "_isMapped$once",
      "_isOverlap$once",
      "_isTwofold$once",
    ]);
  });

  it("collects invalid values 990 levels deep within the stack: an intersection's and an overlapping union's", () => {
    type Validate = (x: unknown) => { ok: boolean; issues: { path: string; keyword: string }[] };
    let both: unknown = { l: 1 };
    for (let i = 0; i < 990; i++) both = { next: both };
    expect((v().validateBoth as Validate)(both).issues.map((i) => [i.path, i.keyword])).toEqual([[`${"/next".repeat(990)}/l`, "type"]]);
    // Every level matches both members' own properties; the innermost matches neither.
    let overlap: unknown = { x: 1 };
    for (let i = 0; i < 990; i++) overlap = { x: "s", y: 1, a: overlap };
    const issues = (v().validateOverlap as Validate)(overlap).issues;
    expect(issues.filter((i) => i.keyword === "exception")).toEqual([]);
    expect(issues.at(-1)).toEqual({ path: "", message: "stopped after 100 issues", keyword: "maxIssues" });
  });

  it("reuses a remembered verdict only where the depth limit cannot change it", () => {
    // One object reached near the top and again near the depth limit (1000), where its own ten
    // levels go past the limit when the chain above it is long enough.
    let shared: Record<string, unknown> = { x: "s" };
    for (let i = 0; i < 10; i++) shared = { x: "s", a: shared };
    const build = (chain: number, sharedFirst: boolean) => {
      let deep: Record<string, unknown> = { x: "s", a: shared };
      for (let i = 0; i < chain; i++) deep = { x: "s", a: deep };
      return sharedFirst ? { x: "s", a: shared, b: deep } : { x: "s", a: deep, b: shared };
    };
    const isOverlap = v().isOverlap as (x: unknown) => boolean;
    for (const sharedFirst of [true, false]) {
      expect(isOverlap(build(980, sharedFirst)), `within the limit, shared first: ${sharedFirst}`).toBe(true);
      expect(isOverlap(build(995, sharedFirst)), `past the limit, shared first: ${sharedFirst}`).toBe(false);
      expect((v().validateOverlap as (x: unknown) => { ok: boolean })(build(995, sharedFirst)).ok).toBe(false);
    }
  });

  it("rejects hostile nesting with a depth issue instead of exhausting the stack", () => {
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const validators = v();
    expect((validators.isJSONValue as (x: unknown) => boolean)(deep)).toBe(false);
    const result = (validators.validateJSONValue as (x: unknown) => { ok: boolean; issues: { keyword: string }[] })(
      deep,
    );
    expect(result.ok).toBe(false);
    expect(result.issues.filter((i) => i.keyword === "depth")).toHaveLength(1);
    expect(result.issues.filter((i) => i.keyword !== "depth" && i.keyword !== "anyOf")).toEqual([]);
  });

  it("accepts nesting well within the depth limit", () => {
    let deep: unknown = [];
    for (let i = 0; i < 100; i++) deep = { a: [deep] };
    expect((v().validateJSONValue as (x: unknown) => { ok: boolean })(deep).ok).toBe(true);
  });
});

describe("fixture copies: isX calls its own copy of a shared check, and nothing is left unused", () => {
  const { get, validators: v } = fixtureSuite("copies", { docs: "tags" }, ["validators.ts"]);

  it("copies exactly the shared, exported object checks that read properties", () => {
    const text = get().read("validators.ts");
    const copies = [...text.matchAll(/^function (_is\w+)\$entry\(/gm)].map((m) => m[1]);
    expect(copies).toEqual(["_isShared", "_isAlike"]);
    expect(text).toContain("return _isShared$entry(value, 0);");
    expect(text).toContain("return _isAlike$entry(value, 0);");
    expect(text).toContain("return _isAlikeToo(value, 0);");
    expect(text).toContain("collectIssues<T.AlikeToo>(_collectAlike, value)");
    expect(text).toContain("return _isOnlyInIntersection(value, 0);");
  });

  verdicts(v, "Shared", { valid: [{ id: "x" }, { id: "x", note: "n" }], invalid: [[{ id: 1 }, [I("/id", "type")]]] });
  verdicts(v, "Second", {
    valid: [{ items: [{ id: "a" }], extra: { id: "b" } }],
    invalid: [[{ items: [{ id: "a" }, {}] }, [I("/items/1/id", "required")]]],
  });
  verdicts(v, "Merged", { valid: [{ a: "x", b: 1 }], invalid: [[{ a: "x" }, [I("/b", "required")]]] });
  verdicts(v, "AlikeToo", { valid: [{ inner: { x: "x" } }], invalid: [[{ inner: { x: 1 } }, [I("/inner/x", "type")]]] });
  verdicts(v, "UsesHidden", { valid: [{ first: { h: "x" } }], invalid: [[{ first: { h: "x" }, second: {} }, [I("/second/h", "required")]]] });
});

describe("fixture discriminated: unions switched on type, method and mode", () => {
  const { validators: v } = fixtureSuite("discriminated", { docs: "tags" }, ["validators.ts"]);

  verdicts(v, "ContentBlock", {
    valid: [
      { type: "text", text: "t" },
      { type: "image", data: "d", mimeType: "image/png" },
      { type: "audio", data: "d" },
      { type: "sound", data: "d" },
    ],
    invalid: [
      [{ type: "video" }, [I("/type", "discriminator")]],
      [{}, [I("/type", "required")]],
      [{ type: "image", data: "d" }, [I("/mimeType", "required")]],
      [{ type: "text", text: 1 }, [I("/text", "type")]],
      [5, [I("", "type")]],
      [[], [I("", "type")]],
    ],
  });

  // helper-70: a member named twice kept the union from being switched (its literal seen twice).
  for (const name of ["RepeatedContent", "TwiceContent", "AliasedContent"]) {
    verdicts(v, name, {
      valid: [
        { type: "text", text: "t" },
        { type: "image", data: "d", mimeType: "image/png" },
      ],
      invalid: [
        [{ type: "video" }, [I("/type", "discriminator")]],
        [{ type: "text", text: 1 }, [I("/text", "type")]],
        [{ type: "image", data: "d" }, [I("/mimeType", "required")]],
      ],
    });
  }

  it("names an unknown discriminant and the values it expected", () => {
    const result = (v().validateContentBlock as (x: unknown) => unknown)({ type: "video", url: "u" });
    expect(result).toEqual({
      ok: false,
      issues: [
        {
          path: "/type",
          keyword: "discriminator",
          message: 'unknown type "video"; expected one of "text", "image", "audio", "sound"',
        },
      ],
    });
  });

  verdicts(v, "ClientRequest", {
    valid: [{ method: "ping" }, { method: "tools/list", params: { cursor: "c" } }],
    invalid: [
      [{ method: "tools/call" }, [I("/method", "discriminator")]],
      [{ method: "tools/list", params: { cursor: 1 } }, [I("/params/cursor", "type")]],
      [{ method: "ping", params: [] }, [I("/params", "type")]],
      [{ params: {} }, [I("/method", "required")]],
    ],
  });

  it("names an unknown method", () => {
    const result = (v().validateClientRequest as (x: unknown) => unknown)({ method: 42 });
    expect(result).toEqual({
      ok: false,
      issues: [
        {
          path: "/method",
          keyword: "discriminator",
          message: 'unknown method 42; expected one of "ping", "tools/list"',
        },
      ],
    });
  });

  // `mode` is optional in FormParams: an absent `mode` selects FormParams.
  verdicts(v, "ElicitParams", {
    valid: [{ message: "m" }, { mode: "form", message: "m" }, { mode: "url", url: "https://example.com" }],
    invalid: [
      [{}, [I("/message", "required")]],
      [{ mode: "url" }, [I("/url", "required")]],
      [{ mode: "html", message: "m" }, [I("/mode", "discriminator")]],
      [{ mode: null, message: "m" }, [I("/mode", "discriminator")]],
    ],
  });

  verdicts(v, "AnyContent", {
    valid: [
      { type: "tool_use", id: "1" },
      { type: "sound", data: "d" },
    ],
    invalid: [
      [{ type: "tool_use" }, [I("/id", "required")]],
      [{ type: "tool" }, [I("/type", "discriminator")]],
    ],
  });

  it("lists the values of a spread union alias when naming an unknown discriminant", () => {
    const result = (v().validateAnyContent as (x: unknown) => unknown)({ type: "tool" });
    expect(result).toEqual({
      ok: false,
      issues: [
        {
          path: "/type",
          keyword: "discriminator",
          message: 'unknown type "tool"; expected one of "text", "image", "audio", "sound", "tool_use"',
        },
      ],
    });
  });

  verdicts(v, "Message", {
    valid: [
      { content: { type: "text", text: "t" } },
      { content: [{ type: "text", text: "t" }], elicit: { message: "m" } },
      {
        content: [],
        parts: [
          { type: "tool_use", id: "1" },
          { type: "text", text: "t" },
        ],
      },
    ],
    invalid: [
      [{ content: [], parts: [{ type: "text", text: "t" }, { type: "image" }] }, [I("/parts/1/type", "discriminator")]],
      [{ content: [], parts: [{ type: "tool_use" }] }, [I("/parts/0/id", "required")]],
      [{ content: { type: "text", text: "t" }, elicit: { mode: "url" } }, [I("/elicit/url", "required")]],
      [{ content: { type: "video" } }, [I("/content/type", "discriminator")]],
      // An array is reported against the array member: the element's unknown discriminant.
      [
        { content: [{ type: "text", text: "t" }, { type: "video" }] },
        [I("/content/1/type", "discriminator")],
      ],
    ],
  });
});

describe("fixture constraints: JSDoc tags, number semantics, --docs full", () => {
  const suite = fixtureSuite("constraints", { docs: "full" }, ["types.ts", "validators.ts"]);
  const v = suite.validators;
  const base = { uri: "https://example.com/a", ttl: null };

  it("says which format a string missed, and quotes the string", () => {
    const validate = v().validateResource as (x: unknown) => { issues?: { path: string; message: string }[] };
    const messages = validate({ ...base, blob: "not base64!", contact: "nobody", uri: "no scheme" }).issues?.map((i) => `${i.path} ${i.message}`);
    expect(messages).toEqual(['/uri expected a uri string, got "no scheme"', '/blob expected a base64 string, got "not base64!"', '/contact expected an email string, got "nobody"']);
  });

  it.each(["tags", "none"] as const)("matches the file snapshot of types.ts with --docs %s", async (docs) => {
    const result = await generate({ schema: { path: fixtureSchema("constraints") }, docs, targets: ["types"] });
    const types = result.files.find((f) => f.path === "types.ts")!.contents;
    await expect(types).toMatchFileSnapshot(snapshotPath("constraints", `types.docs-${docs}.ts`));
  });

  verdicts(v, "Resource", {
    valid: [
      base,
      { uri: "urn:isbn:0451450523", ttl: 1000 },
      {
        ...base,
        template: "file:///{path}{?query*}",
        blob: "aGVsbG8=",
        modified: "2024-02-29T23:59:60.5+01:00",
        contact: "someone@example.com",
        id: "123e4567-e89b-12d3-a456-426614174000",
        host: "192.168.0.1",
        priority: 0.5,
        size: 10,
        progress: 0.25,
        page: 1,
        tags: ["a", "b", "c"],
        note: null,
        language: "fr",
        slug: "a-b",
        location: "old",
      },
      { ...base, priority: 0, page: 1e6 },
      { ...base, priority: 1 },
    ],
    invalid: [
      [{ uri: "https://example.com" }, [I("/ttl", "required")]],
      [{ ...base, uri: "not a uri" }, [I("/uri", "format")]],
      [{ ...base, uri: 1 }, [I("/uri", "type")]],
      [{ ...base, template: "{" }, [I("/template", "format")]],
      [{ ...base, blob: "%%%" }, [I("/blob", "format")]],
      [{ ...base, modified: "2025-02-29T00:00:00Z" }, [I("/modified", "format")]],
      [{ ...base, contact: "nobody" }, [I("/contact", "format")]],
      [{ ...base, id: "123" }, [I("/id", "format")]],
      [{ ...base, host: "256.0.0.1" }, [I("/host", "format")]],
      [{ ...base, priority: 1.5 }, [I("/priority", "maximum")]],
      [{ ...base, priority: -0.1 }, [I("/priority", "minimum")]],
      [{ ...base, priority: NaN }, [I("/priority", "type")]],
      [{ ...base, priority: "0.5" }, [I("/priority", "type")]],
      [{ ...base, size: 1.5 }, [I("/size", "type")]],
      [{ ...base, size: Infinity }, [I("/size", "type")]],
      [{ ...base, progress: -Infinity }, [I("/progress", "type")]],
      [{ ...base, progress: NaN }, [I("/progress", "type")]],
      [{ ...base, page: 0 }, [I("/page", "minimum")]],
      [{ ...base, page: 1.5 }, [I("/page", "type")]],
      [{ ...base, tags: ["a", "b", "c", "d"] }, [I("/tags", "maxItems")]],
      [{ ...base, tags: [1] }, [I("/tags/0", "type")]],
      [{ ...base, ttl: "forever" }, [I("/ttl", "type")]],
      [{ ...base, ttl: 1.5 }, [I("/ttl", "type")]],
      [{ ...base, note: 1 }, [I("/note", "type")]],
      [{ ...base, slug: "Not-A-Slug" }, [I("/slug", "pattern")]],
      [{ uri: "x", ttl: "y", priority: 2 }, [I("/uri", "format"), I("/priority", "maximum"), I("/ttl", "type")]],
    ],
  });
  verdicts(v, "LegacyResource", { valid: [base], invalid: [[{ ...base, page: -1 }, [I("/page", "minimum")]]] });
  verdicts(v, "Hidden", { valid: [{ secret: "s" }], invalid: [[{}, [I("/secret", "required")]]] });

  describe("with --number-type number", () => {
    let numbers: ValidatorsModule | undefined;
    beforeAll(async () => {
      numbers = (await generateFixture("constraints", { docs: "none", numberType: "number" }, "constraints-number"))
        .validators;
    });
    verdicts(() => numbers!, "Resource", {
      valid: [{ ...base, size: 1.5, page: 1.5 }],
      invalid: [
        [{ ...base, size: NaN }, [I("/size", "type")]],
        [{ ...base, size: -Infinity }, [I("/size", "type")]],
        [{ ...base, page: 0.5 }, [I("/page", "minimum")]],
      ],
    });
  });
});

describe("fixture names: schema names that meet generated names", () => {
  const { validators: v } = fixtureSuite("names", { docs: "none" }, ["validators.ts"]);

  it("names the Standard Schema object of Tool ToolStandardSchema, since ToolSchema is a type", () => {
    const names = Object.keys(v()).sort();
    expect(names).toEqual(
      [
        "MAX_DEPTH",
        "MAX_ISSUES",
        "isTool",
        "validateTool",
        "ToolStandardSchema",
        "isToolSchema",
        "validateToolSchema",
        "ToolSchemaSchema",
        "validatorsByType",
      ].sort(),
    );
  });
  verdicts(v, "Tool", {
    standard: "ToolStandardSchema",
    valid: [{ name: "n", inputSchema: { type: "object" } }],
    invalid: [[{ name: "n", inputSchema: {} }, [I("/inputSchema/type", "required")]]],
  });
  verdicts(v, "ToolSchema", { valid: [{ type: "object" }], invalid: [[{ type: "array" }, [I("/type", "const")]]] });

  it("types each Standard Schema object's input as its type, as libraries that infer from it need (helper-141: unknown)", async () => {
    // tRPC types a procedure's callers with the input schema's input type, and TanStack Form takes as a
    // form's validator only a schema whose input is the form's data: an input of unknown let a caller
    // pass anything, and was refused as a form validator.
    const fixture = await generateFixture("names", { docs: "none" }, "names-standard-types");
    writeFileSync(
      join(fixture.dir, "consumer.ts"),
      [
        'import { ToolSchemaSchema, ToolStandardSchema } from "./validators.js";',
        'import type { Tool, ToolSchema } from "./types.js";',
        "// Standard Schema's InferInput and InferOutput, as @standard-schema/spec declares them.",
        'type Types<S> = S extends { readonly "~standard": { readonly types?: infer T } } ? NonNullable<T> : never;',
        "type InferInput<S> = Types<S> extends { readonly input: infer I } ? I : never;",
        "type InferOutput<S> = Types<S> extends { readonly output: infer O } ? O : never;",
        "type Equals<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;",
        "export const input: Equals<InferInput<typeof ToolStandardSchema>, Tool> = true;",
        "export const output: Equals<InferOutput<typeof ToolStandardSchema>, Tool> = true;",
        "export const schemaInput: Equals<InferInput<typeof ToolSchemaSchema>, ToolSchema> = true;",
        "",
      ].join("\n"),
    );
    expect(typecheck(fixture.dir)).toEqual([]);
  });

  it("keeps the guard isUri of a type Uri apart from the runtime's @format uri check", async () => {
    const fixture = await generateFixture("names", { docs: "none" }, "names-format-helper", "format-helper.ts");
    expect(typecheck(fixture.dir)).toEqual([]);
    const { isUri, isLink } = fixture.validators as Record<string, (x: unknown) => boolean>;
    expect(isUri!("not a uri")).toBe(true);
    expect(isLink!({ href: "https://example.com", target: "anything" })).toBe(true);
    expect(isLink!({ href: "not a uri" })).toBe(false);
  });
});

describe("fixture enums: string and numeric enums, as const objects through typeof, labelled tuples", () => {
  const { get, validators: v } = fixtureSuite("enums", { docs: "tags" }, ["types.ts", "validators.ts"]);

  it("lowers enums and as const objects to literal unions and literals (no enum or object is emitted)", () => {
    const types = get().read("types.ts");
    expect(types).toContain('export type Role = "user" | "assistant";');
    expect(types).toContain("export type Level = 1 | 2 | -1;");
    expect(types).toContain('export type Legacy = "old" | "new";');
    expect(types).toContain('export type Status = "active" | "done" | "not-started";');
    expect(types).toContain('export type StatusName = "Active" | "Done" | "Not started";');
    expect(types).toContain('export type DoneStatus = "done";');
    expect(types).toContain('export type ActiveStatus = "active";');
    expect(types).toContain('export type FinishedStatus = "done" | "not-started";');
    expect(types).toContain("export type Limit = 10 | 100;");
    expect(types).toContain("export type Entry = [Role, 2 | -1, Legacy];");
    const code = types.split("\n").filter((line) => !line.startsWith("//"));
    expect(code.filter((line) => /\benum\b|as const|typeof/.test(line))).toEqual([]);
  });

  it("has one validator per type, none for the as const objects", () => {
    expectValidatorsByType(v(), [
      "Role",
      "Level",
      "Legacy",
      "Status",
      "StatusName",
      "DoneStatus",
      "ActiveStatus",
      "FinishedStatus",
      "Limit",
      "UserMessage",
      "AssistantMessage",
      "Message",
      "Entry",
      "Task",
    ]);
  });

  verdicts(v, "Role", { valid: ["user", "assistant"], invalid: [["User", [I("", "enum")]], ["system", [I("", "enum")]], [0, [I("", "enum")]]] });
  verdicts(v, "Level", { valid: [1, 2, -1], invalid: [[0, [I("", "enum")]], [3, [I("", "enum")]], ["1", [I("", "enum")]], ["Low", [I("", "enum")]]] });
  verdicts(v, "Legacy", { valid: ["old", "new"], invalid: [["AlsoOld", [I("", "enum")]]] });
  verdicts(v, "Status", { valid: ["active", "done", "not-started"], invalid: [["Active", [I("", "enum")]], ["Not started", [I("", "enum")]]] });
  verdicts(v, "StatusName", { valid: ["Active", "Done", "Not started"], invalid: [["active", [I("", "enum")]]] });
  verdicts(v, "DoneStatus", { valid: ["done"], invalid: [["Done", [I("", "const")]]] });
  verdicts(v, "ActiveStatus", { valid: ["active"], invalid: [["done", [I("", "const")]]] });
  verdicts(v, "Limit", { valid: [10, 100], invalid: [[50, [I("", "enum")]], [10.5, [I("", "enum")]]] });
  verdicts(v, "Message", {
    valid: [
      { role: "user", text: "hi" },
      { role: "user", text: "hi", level: -1 },
      { role: "assistant", text: "hello", status: "done", usage: [3, 5] },
    ],
    invalid: [
      [{ role: "User", text: "hi" }, [I("/role", "discriminator")]],
      [{ role: "user", text: "hi", level: 3 }, [I("/level", "enum")]],
      [{ role: "assistant", text: "x", status: "Done" }, [I("/status", "enum")]],
      [{ role: "assistant", text: "x", status: "done", usage: [3] }, [I("/usage", "items")]],
      [{ role: "assistant", text: "x", status: "done", usage: [3, "5"] }, [I("/usage/1", "type")]],
    ],
  });
  verdicts(v, "Entry", {
    valid: [
      ["user", 2, "old"],
      ["assistant", -1, "new"],
    ],
    invalid: [
      [["user", 1, "old"], [I("/1", "enum")]],
      [["user", 2], [I("", "items")]],
      [["system", 2, "old"], [I("/0", "enum")]],
    ],
  });
  verdicts(v, "Task", {
    valid: [
      { status: "active", limit: 10 },
      { status: "not-started", limit: 100, names: ["Done", "Not started"] },
    ],
    invalid: [
      [{ status: "paused", limit: 10 }, [I("/status", "enum")]],
      [{ status: "done", limit: 11 }, [I("/limit", "enum")]],
      [{ status: "done", limit: 10, names: ["done"] }, [I("/names/0", "enum")]],
    ],
  });
});

describe("fixture unsupported: constructs the generator refuses, with located diagnostics", () => {
  it("reports every unsupported construct at once, each with a code and file:line:col", async () => {
    const file = fixtureSchema("unsupported");
    const error = await generate({ schema: { path: file } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(GeneratorError);
    const diagnostics = (error as GeneratorError).diagnostics;
    expect(diagnostics).toEqual([
      {
        code: "MCG201",
        message: 'unsupported construct: mapped type `{ [K in "a" | "b"]: boolean }`',
        span: { file, line: 7, column: 21 },
      },
      { code: "MCG201", message: "unsupported construct: generic type alias Box<T>; declare a type of its own for each type argument it is used with", span: { file, line: 9, column: 1 } },
      {
        code: "MCG206",
        message: "Promise is a JavaScript library type with no JSON form: write the type of what is sent for it",
        span: { file, line: 12, column: 9 },
      },
      { code: "MCG201", message: "unsupported construct: keyof operator type `keyof Fine`; write the keys out as a union of string literals", span: { file, line: 15, column: 20 } },
      {
        code: "MCG220",
        message:
          "@format color is not supported (supported: byte, date, date-time, duration, email, hostname, ipv4, ipv6, json-pointer, regex, relative-json-pointer, time, uri, uri-reference, uri-template, uuid)",
        span: { file, line: 18, column: 7 },
      },
    ]);
    expect((error as GeneratorError).message.split("\n").map((l) => l.slice(0, l.indexOf(": ")))).toEqual([
      `${file}:7:21 - error MCG201`,
      `${file}:9:1 - error MCG201`,
      `${file}:12:9 - error MCG206`,
      `${file}:15:20 - error MCG201`,
      `${file}:18:7 - error MCG220`,
    ]);
  });

  it("reports a schema that does not compile with the TypeScript diagnostic and its location", async () => {
    const file = fixtureSchema("unsupported", "does-not-compile.ts");
    const error = await generate({ schema: { path: file } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(GeneratorError);
    expect((error as GeneratorError).diagnostics).toEqual([
      {
        code: "MCG110",
        message: "TypeScript TS2304: Cannot find name 'Missing'.",
        span: { file, line: 4, column: 10 },
      },
    ]);
  });
});
