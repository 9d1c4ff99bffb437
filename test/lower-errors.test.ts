/**
 * Schemas the generator must refuse, each with its coded diagnostic at `file:line:col`,
 * and schemas whose names meet generated names.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatDiagnostic, generate, GeneratorError, TARGETS } from "../generator/index.js";
import { generateInto, refusal as diagnostics, typecheck, writeGenerated } from "./support/corpus.js";

describe("refused schemas", () => {
  it("a target too large to build (its text longer than a string can hold, or the stack overflowing) stops with MCG310 (helper-78)", async () => {
    // The target's renderer, replaced for the test (it is read-only in the type, not at run time).
    const target = TARGETS.validators as { render: (typeof TARGETS.validators)["render"] };
    const render = target.render;
    try {
      for (const [thrown, cause] of [
        [new RangeError("Invalid string length"), "longer than a string can hold"],
        [new RangeError("Maximum call stack size exceeded"), "a type with thousands of members"],
      ] as const) {
        // What a type too large to build throws (helper-78: `Pick` chains over object literals did, after 40 s and 3 GB, before MCG207).
        target.render = () => {
          throw thrown;
        };
        const failure = await generate({ schema: { text: "export interface A { a: string }\n", fileName: "s.ts" } }).catch((e: unknown) => e);
        expect(failure).toBeInstanceOf(GeneratorError);
        const [diagnostic] = (failure as GeneratorError).diagnostics;
        expect([diagnostic!.code, diagnostic!.message.includes(cause)]).toEqual(["MCG310", true]);
      }
    } finally {
      target.render = render;
    }
  });

  it("refuses options without a schema as it refuses a bad one (MCG001), not with a TypeError", async () => {
    for (const options of [undefined, null, {}, { schema: undefined }, { schema: null }, { schema: [undefined] }, { schema: [null] }, { schema: "x.ts" }, { schema: [7] }, { schema: 10n }, { schema: Symbol("s") }]) {
      const failure = await generate(options as unknown as Parameters<typeof generate>[0]).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(GeneratorError);
      expect((failure as GeneratorError).diagnostics.map((d) => d.code)).toEqual(["MCG001"]);
    }
  });

  it.each([
    ["a non-finite literal type", "export type Inf = 1e999;\n", ["s.ts:1:19 - error MCG201: unsupported construct: literal type 1e999 (not a finite number; JSON has no such value)"]],
    [
      "@nullable with a value (helper-142: `@nullable false` made the property nullable)",
      "export interface A {\n  /** @nullable false */\n  a: string;\n  /** @nullable */\n  b: string;\n}\n",
      ['s.ts:2:7 - error MCG220: @nullable takes no value, got "false": write @nullable for a property that may be null, and no tag otherwise'],
    ],
    ["a non-finite constant", "export const BIG = 1e999;\n", ["s.ts:1:14 - error MCG205: constant BIG must be initialised with a string or finite number literal"]],
    [
      "Omit over an index signature",
      'export type O = Omit<{ a: string; [k: string]: unknown }, "b">;\n',
      ["s.ts:1:17 - error MCG201: unsupported construct: Omit of a type with an index signature"],
    ],
    [
      "a bound or pattern that a literal beside the keyword breaks (helper-126: the literal passed unchecked)",
      'export interface A {\n  /** @minimum 5 */\n  r: number | 1;\n  /** @maximum 5 */\n  s: number | 1;\n  /** @TJS-pattern ^a */\n  t: string | "b";\n  /** @TJS-pattern ^a */\n  u: string | "ab";\n  /** @format uri */\n  v: string | "x" | null;\n}\n',
      [
        "s.ts:2:7 - error MCG220: @minimum 5 excludes the literal 1 the type lists beside its number: the validators would accept it unchecked; remove the literal or the tag",
        's.ts:6:7 - error MCG220: @TJS-pattern ^a does not match the literal "b" the type lists beside its string: the validators would accept it unchecked; remove the literal or the tag',
        's.ts:10:7 - error MCG220: @format uri cannot check the literal "x" the type lists beside its string: the validators would accept it unchecked; remove the literal or the tag',
      ],
    ],
    [
      "a tag whose number, string or array is behind an alias (helper-126: `P | number` left P's values unchecked, `P` alone said it held no number)",
      "export type P = number;\nexport type L = (string[] | P);\nexport type S = string;\nexport interface O { a: string }\nexport interface A {\n  /** @minimum 5 */\n  q: P | number;\n  /** @maximum 5 */\n  r: P;\n  /** @maxItems 2 */\n  s: L;\n  /** @format uri */\n  t: S | null;\n  /** @minimum 1 */\n  fine: O | number;\n}\n",
      [
        "s.ts:6:7 - error MCG220: @minimum cannot reach the number behind P: a tag applies to the type written where it stands, not through an alias; put the tag on P's declaration, or write number here",
        "s.ts:8:7 - error MCG220: @maximum cannot reach the number behind P: a tag applies to the type written where it stands, not through an alias; put the tag on P's declaration, or write number here",
        "s.ts:10:7 - error MCG220: @maxItems cannot reach the array behind L: a tag applies to the type written where it stands, not through an alias; put the tag on L's declaration, or write the array type here",
        "s.ts:12:7 - error MCG220: @format cannot reach the string behind S: a tag applies to the type written where it stands, not through an alias; put the tag on S's declaration, or write string here",
      ],
    ],
    [
      "a literal or an alias in a parenthesised union beside the keyword (helper-128: `(number | 1) | null` and `(P | string) | number` passed 1 and P's values unchecked)",
      "export type P = number;\nexport interface A {\n  /** @minimum 5 */\n  r: (number | 1) | null;\n  /** @minimum 5 */\n  s: (P | string) | number;\n  /** @TJS-pattern ^a */\n  t: null | (string | \"b\");\n}\n",
      [
        "s.ts:3:7 - error MCG220: @minimum 5 excludes the literal 1 the type lists beside its number: the validators would accept it unchecked; remove the literal or the tag",
        "s.ts:5:7 - error MCG220: @minimum cannot reach the number behind P: a tag applies to the type written where it stands, not through an alias; put the tag on P's declaration, or write number here",
        's.ts:7:7 - error MCG220: @TJS-pattern ^a does not match the literal "b" the type lists beside its string: the validators would accept it unchecked; remove the literal or the tag',
      ],
    ],
    [
      "a tag whose literals are behind a name, a readonly array or tuple behind an alias, a fraction under @TJS-type integer, a tuple past @maxItems (helper-128: each passed unchecked)",
      "export type One = 1;\nexport enum E { A = 1 }\nexport const enum Big { A = 7, B = 9 }\nexport type L = \"a\" | \"b\";\nexport type R = readonly string[];\nexport type T = [string, string];\nexport interface A {\n  /** @minimum 5 */\n  p: One | number;\n  /** @minimum 5 */\n  q: E | number;\n  /** @TJS-pattern ^x */\n  r: L | string;\n  /** @maxItems 1 */\n  s: R | string[];\n  /** @maxItems 1 */\n  t: T | string[];\n  /** @TJS-type integer */\n  u: number | 1.5;\n  /** @maxItems 1 */\n  v: string[] | [string, string];\n  /** @TJS-type number */\n  fine: One | number;\n  /** @maxItems 2 */\n  alsoFine: string[] | [string, string];\n  /** @minimum 5 */\n  big: Big | number;\n  /** @TJS-type integer */\n  whole: One | number;\n}\n",
      [
        "s.ts:8:7 - error MCG220: @minimum 5 excludes the literal 1 (behind One) the type lists beside its number: the validators would accept it unchecked; remove the literal or the tag",
        "s.ts:10:7 - error MCG220: @minimum 5 excludes the literal 1 (behind E) the type lists beside its number: the validators would accept it unchecked; remove the literal or the tag",
        's.ts:12:7 - error MCG220: @TJS-pattern ^x does not match the literal "a" (behind L) the type lists beside its string: the validators would accept it unchecked; remove the literal or the tag',
        "s.ts:14:7 - error MCG220: @maxItems cannot reach the array behind R: a tag applies to the type written where it stands, not through an alias; put the tag on R's declaration, or write the array type here",
        "s.ts:16:7 - error MCG220: @maxItems cannot reach the array behind T: a tag applies to the type written where it stands, not through an alias; put the tag on T's declaration, or write the array type here",
        "s.ts:18:7 - error MCG220: @TJS-type integer excludes the literal 1.5 the type lists beside its number: the validators would accept it unchecked; remove the literal or the tag",
        "s.ts:20:7 - error MCG220: @maxItems 1 excludes the tuple of 2 items the type lists beside its array: the validators would accept it unchecked; remove the tuple or the tag",
      ],
    ],
    ["a repeated constraint tag", "export interface A {\n  /**\n   * @format uri\n   * @format byte\n   */\n  s: string;\n}\n", ["s.ts:4:6 - error MCG220: @format is given more than once"]],
    [
      "@minimum above @maximum",
      "export interface A {\n  /**\n   * @minimum 2\n   * @maximum 1\n   */\n  n: number;\n}\n",
      ["s.ts:4:6 - error MCG220: @minimum 2 is greater than @maximum 1: no number fits"],
    ],
    ["a tag with two values", "export interface A {\n  /** @minimum 2 x */\n  n: number;\n}\n", ['s.ts:2:7 - error MCG220: @minimum takes one value, got "2 x"']],
    [
      "JSON Schema keywords as tags, which the validators would not check",
      "export interface A {\n  /** @pattern ^a+$ */\n  s: string;\n  /** @minItems 1 */\n  l: string[];\n}\n",
      [
        "s.ts:2:7 - error MCG220: @pattern is a JSON Schema keyword the generated validators do not check (write @TJS-pattern for a pattern); the constraint tags they check: @minimum, @maximum, @maxItems, @format, @TJS-pattern, @TJS-type, @nullable",
        "s.ts:4:7 - error MCG220: @minItems is a JSON Schema keyword the generated validators do not check; the constraint tags they check: @minimum, @maximum, @maxItems, @format, @TJS-pattern, @TJS-type, @nullable",
      ],
    ],
    ["an empty @TJS-pattern", "export interface A {\n  /** @TJS-pattern */\n  s: string;\n}\n", ["s.ts:2:7 - error MCG220: @TJS-pattern needs a value"]],
    [
      "a constraint tag on an interface",
      "/** @minimum 1 */\nexport interface B {\n  x: number;\n}\n",
      ["s.ts:1:5 - error MCG220: @minimum on interface B applies to nothing: put it on a property"],
    ],
    // helper-86: these were taken and checked nothing; the interface's was said at the declaration, not the tag.
    [
      "a constraint tag on an enum, a constant, and an interface's second comment line",
      '/** @format uri */\nexport enum E {\n  A = "a",\n}\n/**\n * Doc.\n * @maximum 3\n */\nexport const C = 1;\n/**\n * Doc.\n * @minimum 1\n */\nexport interface B {\n  x: number;\n}\n',
      [
        "s.ts:1:5 - error MCG220: @format on enum E applies to nothing: put it on a property",
        "s.ts:7:4 - error MCG220: @maximum on constant C applies to nothing: put it on a property",
        "s.ts:12:4 - error MCG220: @minimum on interface B applies to nothing: put it on a property",
      ],
    ],
    [
      "a constraint tag of an index signature that does not fit its values",
      "export interface A {\n  /** @format color */\n  [key: string]: string;\n}\n",
      ["s.ts:2:7 - error MCG220: @format color is not supported (supported: byte, date, date-time, duration, email, hostname, ipv4, ipv6, json-pointer, regex, relative-json-pointer, time, uri, uri-reference, uri-template, uuid)"],
    ],
    [
      "a doc comment TypeScript attaches to nothing",
      "export interface T { /** @minimum 2 */ size: number }\n",
      ["s.ts:1:22 - error MCG221: this doc comment's @minimum applies to nothing: TypeScript attaches a doc comment only to the declaration on the lines below it"],
    ],
    // helper-86: a type that could not be lowered hid the problems of its property's tags until the type was mended.
    [
      "a property's and an index signature's tags beside their types' problems",
      "export interface A {\n  /** @minLength 3 */\n  s: Map<string, string>;\n  /** @minimum x */\n  [key: string]: symbol | number;\n}\n",
      [
        "s.ts:2:7 - error MCG220: @minLength is a JSON Schema keyword the generated validators do not check; the constraint tags they check: @minimum, @maximum, @maxItems, @format, @TJS-pattern, @TJS-type, @nullable",
        "s.ts:3:6 - error MCG206: Map is a JavaScript library type with no JSON form: write the type of what is sent for it",
        "s.ts:4:7 - error MCG220: @minimum x is not a finite number written as JSON writes one",
        "s.ts:5:18 - error MCG201: unsupported construct: symbol keyword `symbol`",
      ],
    ],
    // helper-92: and a generic alias's, behind MCG201.
    [
      "a generic alias's tags beside its refusal",
      "/** @minimum z */\nexport type U<T> = T;\n",
      [
        "s.ts:1:5 - error MCG220: @minimum z is not a finite number written as JSON writes one",
        "s.ts:2:1 - error MCG201: unsupported construct: generic type alias U<T>; declare a type of its own for each type argument it is used with",
      ],
    ],
    // helper-91: an alias's own tags were still hidden by its type's error.
    [
      "an alias's tags beside its type's problem",
      "/** @minimum z */\nexport type U = Map<string, string>;\n",
      ["s.ts:1:5 - error MCG220: @minimum z is not a finite number written as JSON writes one", "s.ts:2:17 - error MCG206: Map is a JavaScript library type with no JSON form: write the type of what is sent for it"],
    ],
    // helper-86: the first comment's tag was said to apply to nothing and, in the same run, to be given twice.
    [
      "a doc comment's tags before another doc comment",
      "export interface A {\n  /** first\n   * @format uri */ /** second\n   * @format byte */ s: string;\n  /** @minimum 1 */\n  /** @maximum 5 */\n  n: number;\n}\n",
      [
        "s.ts:2:3 - error MCG221: this doc comment's @format applies to nothing: of the doc comments before a declaration, TypeScript reads the tags of the last one alone; put the tags in that one",
        "s.ts:5:3 - error MCG221: this doc comment's @minimum applies to nothing: of the doc comments before a declaration, TypeScript reads the tags of the last one alone; put the tags in that one",
      ],
    ],
    // helper-88: a refused keyword on an enum member or an interface went through; a comment at the end of the file, before a
    // lone semicolon, or after code on its line was misread; an "@" inside a URL or a mail address was taken for a tag.
    [
      "tags TypeScript reads on declarations that hold no value, and comments that hold them at the end, or after code",
      "export enum E {\n  /** @minLength 3 */\n  A = \"a\",\n}\n/** @minProperties 1 */\nexport interface I {\n  n: number; /** @minimum 3 */\n  /** Doc. */\n  m: number;\n  /** see https://example.com/@format, bob@default.org and `@format uri` */\n  k: string;\n}\n/** @maximum 1 */;\n/** @minimum 3 */\n",
      [
        "s.ts:2:7 - error MCG220: @minLength on enum member E.A applies to nothing: the generated validators check @minimum, @maximum, @maxItems, @format, @TJS-pattern, @TJS-type, @nullable, on a property",
        "s.ts:5:5 - error MCG220: @minProperties on interface I applies to nothing: the generated validators check @minimum, @maximum, @maxItems, @format, @TJS-pattern, @TJS-type, @nullable, on a property",
        "s.ts:7:14 - error MCG221: this doc comment's @minimum applies to nothing: TypeScript attaches a doc comment only to the declaration on the lines below it",
        "s.ts:13:1 - error MCG221: this doc comment's @maximum applies to nothing: TypeScript attaches a doc comment only to the declaration on the lines below it",
        "s.ts:14:1 - error MCG221: this doc comment's @minimum applies to nothing: TypeScript attaches a doc comment only to the declaration on the lines below it",
      ],
    ],
    // helper-87: a refused keyword in an earlier comment went through unchecked (and into types.ts); a comment with a note
    // between, or one before a trailing comment, had the wrong message; a tag on an enum member was dropped.
    [
      "a refused tag in an earlier doc comment, doc comments with a note between or with none after, and a tag on an enum member",
      "export interface I {\n  /** @minLength 3 */\n  /** The name. */\n  name: string;\n  /** @minimum 1 */ /* note */\n  // more\n  /** Doc. */\n  n: number;\n  a: number; /** @minimum 3 */ /** trailing */\n}\nexport enum E {\n  /** @minimum 3 */\n  A = 1,\n}\n",
      [
        "s.ts:2:3 - error MCG221: this doc comment's @minLength applies to nothing: of the doc comments before a declaration, TypeScript reads the tags of the last one alone; put the tags in that one",
        "s.ts:5:3 - error MCG221: this doc comment's @minimum applies to nothing: of the doc comments before a declaration, TypeScript reads the tags of the last one alone; put the tags in that one",
        "s.ts:9:14 - error MCG221: this doc comment's @minimum applies to nothing: TypeScript attaches a doc comment only to the declaration on the lines below it",
        "s.ts:12:7 - error MCG220: @minimum on enum member E.A applies to nothing: put it on a property",
      ],
    ],
    [
      "a type named like a generated function",
      "export interface isFoo {\n  a: string;\n}\nexport interface Foo {\n  b: string;\n}\n",
      ["s.ts:4:1 - error MCG301: generated name isFoo for type Foo collides with a name from the schema's isFoo; rename one of them"],
    ],
    [
      "a type named validatorsByType",
      "export type validatorsByType = string;\n",
      ["s.ts:1:1 - error MCG301: type name validatorsByType collides with a name the generated validators export; rename the type"],
    ],
    [
      "a type named like a runtime export",
      "export interface ValidationIssue {\n  a: string;\n}\n",
      ["s.ts:1:1 - error MCG301: type name ValidationIssue collides with a name the generated validators export; rename the type"],
    ],
    // helper-64: these were "interface Tree extends itself" (Tree extends nothing) and, for the alias, a stack overflow.
    [
      "Omit of an interface inside its own members",
      'export interface Tree {\n  value: string;\n  children: Omit<Tree, "value">[];\n}\n',
      [
        's.ts:3:13 - error MCG201: unsupported construct: Omit<Tree, "value"> needs the shape of Tree while Tree is being resolved; name it with a type alias (type TreePart = Omit<Tree, "value">) and use the alias',
      ],
    ],
    [
      "Pick of an object type alias inside its own type",
      'export type Node = { v: string; w: number; next?: Pick<Node, "v" | "next"> };\n',
      [
        's.ts:1:51 - error MCG201: unsupported construct: Pick<Node, "v" | "next"> needs the shape of Node while Node is being resolved; name it with a type alias (type NodePart = Pick<Node, "v" | "next">) and use the alias',
      ],
    ],
  ])("refuses %s", async (_name, text, expected) => {
    expect(await diagnostics(text)).toEqual(expected);
  });

  it("takes the way round that the refusal names: a utility type of the type, named by an alias, in its members (helper-64)", async () => {
    for (const text of [
      'export interface Tree {\n  value: string;\n  children: TreePart[];\n}\nexport type TreePart = Omit<Tree, "value">;\n',
      'export type Tree = { value: string; children: TreePart[] };\nexport type TreePart = Omit<Tree, "value">;\n',
    ]) {
      const dir = await generateInto(`lower-errors/self-utility-${text.startsWith("export interface") ? "interface" : "alias"}`, { schema: { text, fileName: "s.ts" } });
      const { isTree, isTreePart } = (await import(join(dir, "validators.ts"))) as { isTree: (v: unknown) => boolean; isTreePart: (v: unknown) => boolean };
      expect(isTree({ value: "root", children: [{ children: [{ children: [] }] }] })).toBe(true);
      expect(isTree({ value: "root", children: [{ children: [{ value: "x", children: [] }] }] })).toBe(true);
      expect(isTree({ value: "root", children: [{ children: [{}] }] })).toBe(false);
      expect(isTreePart({ children: [] })).toBe(true);
      expect(isTreePart({ value: "x" })).toBe(false);
    }
  });

  it("reads the keys of Omit, Pick and Record through a type alias of string literals (helper-64)", async () => {
    const text = 'export interface X {\n  a: string;\n  b: number;\n  c: boolean;\n}\nexport type Keys = "a" | "b";\nexport type More = Keys | "c";\nexport type O = Omit<X, Keys>;\nexport interface P extends Pick<X, More> {}\nexport type R = Record<Keys, string>;\n';
    const dir = await generateInto("lower-errors/alias-keys", { schema: { text, fileName: "s.ts" } });
    const v = (await import(join(dir, "validators.ts"))) as { [name: string]: (v: unknown) => boolean };
    expect([v["isO"]!({ c: true }), v["isO"]!({ a: "x" })]).toEqual([true, false]);
    expect([v["isP"]!({ a: "x", b: 1, c: false }), v["isP"]!({ a: "x", b: 1 })]).toEqual([true, false]);
    expect([v["isR"]!({ a: "x", b: "y" }), v["isR"]!({ a: "x" })]).toEqual([true, false]);
    // An alias reached twice (helper-66), and keys written twice, give each property once; an alias read for keys
    // is not "unused" (MCG253), though the output spells its keys out.
    const twice =
      'export interface S {\n  a: string;\n  b: number;\n  c: boolean;\n}\ntype K = "a";\ntype K2 = K | "b";\nexport type P = Pick<S, K | K2>;\nexport type O = Omit<S, K | K>;\nexport type R = Record<K2 | "a", string>;\n';
    const { files, warnings } = await generate({ schema: { text: twice, fileName: "s.ts" }, docs: "none" });
    expect(warnings.map((w) => w.code).filter((c) => c !== "MCG260")).toEqual([]);
    const types = files.find((f) => f.path === "types.ts")!.contents;
    expect(types).toContain("export type P = {\n  a: string;\n  b: number;\n};");
    expect(types).toContain("export type O = {\n  b: number;\n  c: boolean;\n};");
    expect(types).toContain("export type R = {\n  a: string;\n  b: string;\n};");
    // Each alias is read once (helper-67): a chain of 40 aliases each naming the one before twice is 2^40 reads otherwise.
    const chain = Array.from({ length: 40 }, (_, i) => `type K${i + 1} = K${i} | K${i};`).join("\n");
    const long = `export interface S {\n  a: string;\n  b: number;\n}\ntype K0 = "a";\n${chain}\nexport type Q = Omit<S, K40>;\n`;
    const chained = await generate({ schema: { text: long, fileName: "s.ts" }, docs: "none" });
    expect(chained.files.find((f) => f.path === "types.ts")!.contents).toContain("export type Q = {\n  b: number;\n};");
    // A key type that is no string literal, even through an alias, is still refused and named.
    expect(await diagnostics('export interface X {\n  a: string;\n}\nexport type K = string | "a";\nexport type O = Omit<X, K>;\n')).toEqual([
      "s.ts:5:25 - error MCG201: unsupported construct: key type K (only string literals, or aliases of them, are supported)",
    ]);
  });

  it("reads the keys of Omit, Pick and Record through a string enum, the alias of its values (helper-142)", async () => {
    const text =
      'export enum Region {\n  Eu = "eu",\n  Us = "us",\n}\nenum Hidden {\n  A = "a",\n}\nexport interface X {\n  eu: string;\n  us: number;\n  a: boolean;\n}\nexport type Quotas = Record<Region, number>;\nexport type O = Omit<X, Region>;\nexport type P = Pick<X, Hidden | Region.Eu>;\n';
    const { files, warnings } = await generate({ schema: { text, fileName: "s.ts" }, docs: "none" });
    // Hidden is read for keys only: used, though the output spells its keys out (no MCG253).
    expect(warnings.map((w) => w.code).filter((c) => c !== "MCG260")).toEqual([]);
    const types = files.find((f) => f.path === "types.ts")!.contents;
    expect(types).toContain("export type Quotas = {\n  eu: number;\n  us: number;\n};");
    expect(types).toContain("export type O = {\n  a: boolean;\n};");
    expect(types).toContain("export type P = {\n  eu: string;\n  a: boolean;\n};");
    // A number enum has no string keys, and a refused enum is reported once, at the enum.
    expect(await diagnostics('export enum N {\n  A = 1,\n}\nexport type R = Record<N, string>;\n')).toEqual([
      "s.ts:4:24 - error MCG201: unsupported construct: key type N (only string literals, or aliases of them, are supported)",
    ]);
    expect(await diagnostics('export enum E {\n  A,\n}\nexport type R = Record<E, string>;\n')).toEqual([
      "s.ts:2:3 - error MCG201: unsupported construct: enum member E.A has an implicit value; give every member an explicit string or number value",
    ]);
  });
});

describe("TypeScript's library types", () => {
  it("reads Readonly<T> as T (an array or tuple keeps the modifier), in a property and in extends; names a type operator it does not read as such (helper-142)", async () => {
    const text = [
      "export interface Point { x: number; y: number }",
      "export interface Shape { corners: Readonly<Point[]>; pair: Readonly<[string, number]>; origin: Readonly<Point>; tags?: Readonly<{ a: string }> }",
      "export interface Frozen extends Readonly<Point> { z: number }",
      "",
    ].join("\n");
    const dir = await generateInto("lower-errors/readonly", { schema: { text, fileName: "s.ts" }, docs: "none" });
    expect(typecheck(dir)).toEqual([]);
    const types = readFileSync(join(dir, "types.ts"), "utf8").split("\n");
    expect(types.filter((line) => /^  (corners|pair|origin|z):/.test(line))).toEqual(["  corners: readonly Point[];", "  pair: readonly [string, number];", "  origin: Point;", "  z: number;"]);
    const v = (await import(join(dir, "validators.ts"))) as Record<string, (value: unknown) => boolean>;
    const shape = { corners: [{ x: 1, y: 2 }], pair: ["a", 1], origin: { x: 0, y: 0 }, tags: { a: "t" } };
    expect([v.isShape!(shape), v.isShape!({ ...shape, pair: ["a"] }), v.isShape!({ ...shape, origin: { x: 0 } }), v.isShape!({ ...shape, tags: { a: 1 } })]).toEqual([true, false, false, false]);
    expect([v.isFrozen!({ x: 1, y: 2, z: 3 }), v.isFrozen!({ x: 1, z: 3 })]).toEqual([true, false]);
    expect(await diagnostics('export type K = Exclude<"a" | "b", "a">;\nexport type R = NonNullable<string | null>;\n')).toEqual([
      "s.ts:1:17 - error MCG206: Exclude is a TypeScript library type the generator does not read (of those it reads Omit, Pick, Partial, Required, Readonly, Record, Array and ReadonlyArray): write out the type it stands for",
      "s.ts:2:17 - error MCG206: NonNullable is a TypeScript library type the generator does not read (of those it reads Omit, Pick, Partial, Required, Readonly, Record, Array and ReadonlyArray): write out the type it stands for",
    ]);
  });
});

describe("enums and as const objects: refusals without echoes, and their exact messages", () => {
  it.each([
    [
      "a reference to a member of a refused enum (reported once, at the enum)",
      "export enum E { A }\nexport interface I { e: E.A; all: E }\n",
      ["s.ts:1:17 - error MCG201: unsupported construct: enum member E.A has an implicit value; give every member an explicit string or number value"],
    ],
    [
      "an enum declared twice (TypeScript merges enums; the generator does not)",
      'export enum E { A = "a" }\nexport enum E { B = "b" }\n',
      ["s.ts:2:1 - error MCG203: E is declared more than once: as an enum (line 1) and as an enum"],
    ],
    [
      "uses of a refused object constant (reported once, at the constant)",
      'export const O = { A: "a", B: [1] } as const;\nexport type V = (typeof O)[keyof typeof O];\nexport type K = keyof typeof O;\n',
      ["s.ts:1:28 - error MCG205: constant O: property B must be a string, finite number or boolean literal"],
    ],
    [
      "typeof on an enum",
      'export enum E { A = "a" }\nexport type T = typeof E;\n',
      ["s.ts:2:17 - error MCG201: unsupported construct: typeof E on an enum (use E for the union of its values)"],
    ],
    [
      "an enum member with a non-finite value",
      "export enum E { A = 1e999 }\n",
      ["s.ts:1:17 - error MCG201: unsupported construct: enum member E.A has the computed value `1e999`; only string and finite number literals are supported"],
    ],
    [
      "a default-exported interface",
      "export interface A { a: string }\nexport default interface B { b: A }\n",
      ["s.ts:2:1 - error MCG201: unsupported construct: `export default interface B`; export it by name (`export interface B`)"],
    ],
  ])("refuses %s", async (_name, text, expected) => {
    expect(await diagnostics(text)).toEqual(expected);
  });

  it("lowers typeof E.A, E.A in unions and Omit keys, and negative members", async () => {
    const text = [
      'export enum Key { A = "a", B = "b" }',
      "export enum Num { Minus = -2, Plus = 3 }",
      "export interface I { a: string; b: string; n: Num.Minus | typeof Num.Plus }",
      "export type J = Omit<I, Key.A | typeof Key.B>;",
      "",
    ].join("\n");
    const result = await generate({ schema: { text, fileName: "s.ts" }, docs: "none", targets: ["types"] });
    const types = result.files[0]!.contents;
    expect(types).toContain('export type Key = "a" | "b";');
    expect(types).toContain("export type Num = -2 | 3;");
    expect(types).toContain("  n: -2 | 3;");
    expect(types).toContain("export type J = {\n  n: -2 | 3;\n};");
  });
});

describe("nesting depth", () => {
  const nested = (levels: number) => `export type D = ${"Array<".repeat(levels)}string${">".repeat(levels)};\n`;

  it("accepts 100 levels and refuses 101 at the bracket that goes too deep", async () => {
    const ok = await generate({ schema: { text: nested(100), fileName: "s.ts" }, docs: "none", targets: ["types"] });
    expect(ok.files[0]!.contents).toContain(`string${"[]".repeat(100)};`);
    expect(await diagnostics(nested(101))).toEqual([
      `s.ts:1:${"export type D = ".length + 100 * "Array<".length + "Array".length + 1} - error MCG107: types nest more than 100 levels deep here; the generator accepts at most 100`,
    ]);
  });

  it("counts T[][]… as nesting too", async () => {
    expect(await diagnostics(`export type D = string${"[]".repeat(101)};\n`)).toEqual([
      `s.ts:1:${"export type D = string".length + 100 * 2 + 2} - error MCG107: types nest more than 100 levels deep here; the generator accepts at most 100`,
    ]);
  });
});

describe("tuples", () => {
  it("accepts keyword, literal and reference elements, with their exact length", async () => {
    const text = 'export interface B { b: string }\nexport type T = [string, number, "x", B];\n';
    const dir = await generateInto("tuples", { schema: { text, fileName: "s.ts" }, docs: "none" });
    expect(typecheck(dir)).toEqual([]);
    const v = (await import(join(dir, "validators.ts"))) as Record<string, (x: unknown) => unknown>;
    expect(v.isT!(["a", 1, "x", { b: "" }])).toBe(true);
    expect(v.isT!(["a", 1, "x"])).toBe(false);
    expect(v.isT!(["a", 1.5, "x", { b: "" }])).toBe(false);
  });

  it("accepts labelled elements as plain elements", async () => {
    const text = "export type P = [x: number, label: string];\n";
    const result = await generate({ schema: { text, fileName: "s.ts" }, docs: "none", targets: ["types"] });
    expect(result.files[0]!.contents).toContain("export type P = [number, string];");
  });
});

describe("names that meet generated names", () => {
  it("keeps helper, non-exported and __proto__ types apart, and compiles", async () => {
    const text = [
      "export interface Foo { a: string[] }",
      "export type Foo$a = number[];",
      "interface Hidden { x: number }",
      "export interface UsesHidden { h: Hidden }",
      "export interface __proto__ { y: string }",
      "",
    ].join("\n");
    const dir = await generateInto("names-meet", { schema: { text, fileName: "s.ts" }, docs: "none" });
    expect(typecheck(dir)).toEqual([]);
    const v = (await import(join(dir, "validators.ts"))) as Record<string, (x: unknown) => unknown>;
    expect(v.isFoo!({ a: ["x"] })).toBe(true);
    expect(v.isFoo$a!([1])).toBe(true);
    expect(v.isFoo$a!(["x"])).toBe(false);
    expect(v.isUsesHidden!({ h: { x: 1 } })).toBe(true);
    expect(v.isUsesHidden!({ h: { x: "1" } })).toBe(false);
    expect("isHidden" in v).toBe(false);
    const byType = v.validatorsByType as unknown as Record<string, unknown>;
    expect(Object.keys(byType).sort()).toEqual(["Foo", "Foo$a", "UsesHidden", "__proto__"]);
    expect(Object.getPrototypeOf(byType)).toBe(null);
  });
});

describe("numeric literals", () => {
  it("keeps exponent, hex and separator forms exactly (ts-morph's getLiteralValue read 1e21 as 1)", async () => {
    const text = [
      "export enum E { A = 1e21, B = 1e-7, C = 0x10, D = 1_000 }",
      "export type N = 1e21 | -1e-7 | 2.5e3;",
      "export const K = 1e21;",
      "export interface Q { e: E; n: N; k: typeof K; 1e21: string }",
      "",
    ].join("\n");
    const dir = await generateInto("numeric-literals", { schema: { text, fileName: "s.ts" }, docs: "none", numberType: "number" });
    expect(typecheck(dir)).toEqual([]);
    const v = (await import(join(dir, "validators.ts"))) as Record<string, (x: unknown) => boolean>;
    for (const e of [1e21, 1e-7, 16, 1000]) expect(v.isE!(e), String(e)).toBe(true);
    expect(v.isE!(1)).toBe(false);
    for (const n of [1e21, -1e-7, 2500]) expect(v.isN!(n), String(n)).toBe(true);
    expect(v.isN!(1)).toBe(false);
    expect(v.isQ!({ e: 16, n: 2500, k: 1e21, "1e+21": "x" })).toBe(true);
    expect(v.isQ!({ e: 16, n: 2500, k: 1 })).toBe(false);
  });

  it("refuses a @minimum or @maximum not written as JSON writes a number (MCG220): schema.json could not hold it (helper-53)", async () => {
    for (const written of ["0x10", "1_000", ".5", "+1", "1e400", "Infinity"]) {
      const text = `export interface A {\n  /** @minimum ${written} */\n  n: number;\n}\n`;
      const failure = await generate({ schema: { text, fileName: "s.ts" } }).catch((e: unknown) => e);
      if (!(failure instanceof GeneratorError)) throw new Error(`expected a GeneratorError for ${written}`);
      expect(failure.diagnostics.map((d) => formatDiagnostic(d))).toEqual([`s.ts:2:7 - error MCG220: @minimum ${written} is not a finite number written as JSON writes one`]);
    }
    const { ir } = await generate({ schema: { text: "export interface A {\n  /** @minimum -1.5e2 */\n  n: number;\n}\n", fileName: "s.ts" }, targets: ["types"] });
    expect(JSON.stringify(ir.declarations[0])).toContain('"minimum":-150');
  });

  it("warns of a number beyond 2^53 that no double holds with the value it is read as (MCG254), each place once and in source order", async () => {
    const text = [
      "export enum E { A = 9007199254740995 }",
      "export type N = -0x20000000000001 | 9007199254740992 | 1e23 | 9007199254740993.5 | 9.007199254740993e15 | 0.1;",
      "export const K = 18_446_744_073_709_551_615;",
      "export interface Q {",
      "  /** @maximum 9007199254740993 */",
      "  n: number;",
      "  k: 9007199254740993;",
      "  9007199254740993: string;",
      "}",
      'export type P = Pick<Q, "k"> & Q;',
      "",
    ].join("\n");
    const { files, warnings } = await generate({ schema: { text, fileName: "s.ts" }, docs: "none" });
    const said = (written: string, read: string) =>
      `the number ${written} is beyond 2^53 in magnitude, where a double holds only some integers: it is read as ${read}, as JSON.parse reads it (write ${read} to say so)`;
    expect(warnings.filter((w) => w.code !== "MCG260").map((w) => formatDiagnostic(w, "warning"))).toEqual([
      `s.ts:1:21 - warning MCG254: ${said("9007199254740995", "9007199254740996")}`,
      `s.ts:2:17 - warning MCG254: ${said("-0x20000000000001", "-9007199254740992")}`,
      // 1e23 is not said: its digits are the double's shortest form, so the double stands for it.
      `s.ts:2:63 - warning MCG254: ${said("9007199254740993.5", "9007199254740994")}`,
      `s.ts:2:84 - warning MCG254: ${said("9.007199254740993e15", "9007199254740992")}`,
      `s.ts:3:18 - warning MCG254: ${said("18_446_744_073_709_551_615", "18446744073709552000")}`,
      `s.ts:5:7 - warning MCG254: @maximum: ${said("9007199254740993", "9007199254740992")}`,
      `s.ts:7:6 - warning MCG254: ${said("9007199254740993", "9007199254740992")}`,
      's.ts:8:3 - warning MCG254: the property name 9007199254740993 is a number beyond 2^53 in magnitude, which TypeScript reads as the double 9007199254740992: the property is "9007199254740992", not "9007199254740993" (quote the name to keep it as written)',
    ]);
    const dir = writeGenerated("numeric-literals-rounded", files);
    const v = (await import(join(dir, "validators.ts"))) as Record<string, (x: unknown) => boolean>;
    expect([v.isE!(9007199254740996), v.isN!(-9007199254740992), v.isQ!({ n: 9007199254740992, k: JSON.parse("9007199254740993"), "9007199254740992": "x" })]).toEqual([true, true, true]);
    expect(v.isQ!({ n: 9007199254740994, k: 9007199254740992, "9007199254740992": "x" })).toBe(false);
  });
});

describe("large schemas", () => {
  it("a chain of aliases each naming the one before twice: code linear in the chain, each literal tested once (helper-68)", async () => {
    // Unfolded, K40 is 2^40 copies of "a" | "b": generation and the code once doubled at every link.
    const chain = Array.from({ length: 40 }, (_, i) => `type K${i + 1} = K${i} | K${i};`).join("\n");
    const text = `type K0 = "a" | "b";\n${chain}\nexport interface S {\n  k: K40;\n  m: K40 | number;\n}\n`;
    const { files } = await generate({ schema: { text, fileName: "s.ts" }, docs: "none", targets: ["types", "validators"] });
    const validators = files.find((f) => f.path === "validators.ts")!.contents;
    expect(validators.length).toBeLessThan(40_000);
    const dir = writeGenerated("large-alias-chain", files);
    expect(typecheck(dir)).toEqual([]);
    const { isS, validateS } = (await import(join(dir, "validators.ts"))) as {
      isS: (x: unknown) => boolean;
      validateS: (x: unknown) => { issues?: { path: string; message: string }[] };
    };
    expect([isS({ k: "a", m: 1 }), isS({ k: "b", m: "a" }), isS({ k: "c", m: 1 })]).toEqual([true, true, false]);
    expect(validateS({ k: "c", m: true }).issues?.map((i) => `${i.path}: ${i.message}`)).toEqual(['/k: expected one of "a", "b", got "c"', '/m: expected "a" or "b" or integer, got true']);
  });

  it("the same chain over an object or undefined, as array elements: linear too, each member named once (helper-69)", async () => {
    const chain = Array.from({ length: 40 }, (_, i) => `type K${i + 1} = K${i} | K${i};`).join("\n");
    const text = `type K0 = { a: string } | undefined;\n${chain}\nexport interface S {\n  m: (K40 | null)[];\n}\n`;
    const { files } = await generate({ schema: { text, fileName: "s.ts" }, docs: "none", targets: ["types", "validators"] });
    expect(files.find((f) => f.path === "validators.ts")!.contents.length).toBeLessThan(60_000);
    const dir = writeGenerated("large-alias-chain-elements", files);
    expect(typecheck(dir)).toEqual([]);
    const { isS, validateS } = (await import(join(dir, "validators.ts"))) as {
      isS: (x: unknown) => boolean;
      validateS: (x: unknown) => { issues?: { path: string; message: string }[] };
    };
    expect([isS({ m: [{ a: "x" }, null] }), isS({ m: [undefined] }), isS({ m: [{ a: 1 }] })]).toEqual([true, false, false]);
    expect(validateS({ m: [1] }).issues?.map((i) => `${i.path}: ${i.message}`)).toEqual(["/m/0: expected object | null, got 1"]);
  });

  it("a chain of intersection aliases each naming the one before twice, or two built on it: generation, code and checks linear", async () => {
    // Unfolded, A40 holds 2^40 copies of A0: the shape resolver, then the checks (`_isA39(v) && _isA39(v)`), doubled at every link.
    // A0's index signature keeps the members apart (no merged shape), so each link is checked member by member.
    const twice = Array.from({ length: 40 }, (_, i) => `export type A${i + 1} = A${i} & A${i} & B;`).join("\n");
    const diamond = Array.from({ length: 40 }, (_, i) => `type L${i} = D${i} & { l?: string };\ntype R${i} = D${i} & { r?: string };\nexport type D${i + 1} = L${i} & R${i};`).join("\n");
    // A union over the chain (helper-71: the JSON-type mask of a union member doubled at every link), and a member absorbed
    // by one already there (`C_n = C_{n-1} & (C_{n-1} | null)` is C_{n-1}: checked once, its issues once).
    const absorbed = Array.from({ length: 40 }, (_, i) => `export type C${i + 1} = C${i} & (C${i} | null);`).join("\n");
    const unions = "export type UA = A40 | null | string[];\nexport type UC = C40 | number[];";
    const text = `export interface A0 { a: string; [key: string]: string }\nexport interface B { b?: string }\n${twice}\nexport type D0 = A0;\n${diamond}\nexport type C0 = { a: string };\n${absorbed}\n${unions}\n`;
    const { files } = await generate({ schema: { text, fileName: "s.ts" }, docs: "none", targets: ["types", "validators"] });
    expect(files.find((f) => f.path === "validators.ts")!.contents.length).toBeLessThan(200_000);
    const dir = writeGenerated("large-intersection-chain", files);
    expect(typecheck(dir)).toEqual([]);
    const v = (await import(join(dir, "validators.ts"))) as Record<string, (x: unknown) => unknown>;
    for (const name of ["A40", "D40"]) {
      expect([v[`is${name}`]!({ a: "x", b: "y" }), v[`is${name}`]!({ a: "x", l: "y", r: "z" }), v[`is${name}`]!({ a: 1 }), v[`is${name}`]!({ a: "x", c: 2 })]).toEqual([true, true, false, false]);
      const issues = (v[`validate${name}`]!({ a: "x", b: 1, c: 2 }) as { issues: { path: string; message: string }[] }).issues;
      expect(issues.map((i) => `${i.path}: ${i.message}`)).toEqual(["/b: expected string, got 1", "/c: expected string, got 2"]);
    }
    expect([v.isC40!({ a: "x" }), v.isC40!(null), v.isUA!(null), v.isUA!(["s"]), v.isUA!({ a: "x" }), v.isUC!([1]), v.isUC!({ a: 1 })]).toEqual([true, false, true, true, true, true, false]);
    expect((v.validateC40!({ a: 1 }) as { issues: { path: string; message: string }[] }).issues).toEqual([{ path: "/a", message: "expected string, got 1", keyword: "type" }]);
  }, 60_000);

  it("a recursive intersection with a repeated or absorbed member: still checked once per value, its issues once (helper-72)", async () => {
    const text = [
      "export type R = { a?: R } & { a?: R; b?: 1 } & { a?: R };",
      "export type S = { a?: S } & ({ a?: S } | null) & { a?: S; b?: 1 };",
      "export interface Base { method: string; params?: { [k: string]: unknown } }",
      'export type Ping = Base & { method: "ping" };',
      "export type PingAgain = Ping & Base;",
      "export type A = { a: { x: string } };",
      "export type T = A & { a: { y?: number } } & A;",
      // Object members beside one that is not an object shape collect together: "expected object" once (helper-71's F6).
      "export type E = ({ a?: string } & { a?: string } & { b?: number }) & (number | { c?: string });",
      "",
    ].join("\n");
    const { dir, v } = await validatorsOf(text, "intersection-recursive-repeats");
    expect(typecheck(dir)).toEqual([]);
    // 2^40 steps unless each level is checked once (checkOnce): merged into one object, the members were not counted.
    let deep: unknown = { b: 1 };
    for (let i = 0; i < 40; i++) deep = { a: deep };
    for (const name of ["R", "S"]) {
      expect(v[`is${name}`]!(deep)).toBe(true);
      expect((v[`validate${name}`]!(deep) as { ok: boolean }).ok).toBe(true);
    }
    const issues = (name: string, value: unknown) => issueLines(v, name, value);
    expect(issues("PingAgain", {})).toEqual(['/method: missing required property "method"']);
    expect(issues("T", {})).toEqual(['/a: missing required property "a"']);
    expect(issues("T", { a: [1] })).toEqual(["/a: expected object, got array"]);
    expect(issues("E", [])).toEqual([": expected object, got array", ": expected integer | object, got array"]);
    expect(issues("E", { a: 1, c: 2 })).toEqual(["/a: expected string, got 1", "/c: expected string, got 2"]);
  }, 30_000);

  it("arrays met by an object type with index-like names, and alias chains declaring a property twice alike: linear (helper-73)", async () => {
    const links = Array.from({ length: 30 }, (_, i) => `export type V${i + 1} = { a?: V${i}; x?: 1 } & { a?: V${i}; y?: 1 };`).join("\n");
    const text = [
      // objectLike takes arrays: the object member read an array's elements as "0" before its prototype failed, each level.
      'export type ZW = { "0"?: ZW } | ZW[] | string;',
      "export type V0 = { s?: string };",
      links,
      // An intersection with a union member: the union's closest alternative reported the object member's issues again.
      "export type UV = { a?: UV } & ({ a?: UV; b?: 1 } | null);",
      "",
    ].join("\n");
    const { dir, v } = await validatorsOf(text, "helper-73-linear");
    expect(typecheck(dir)).toEqual([]);
    const nest = (n: number, wrap: (x: unknown) => unknown, leaf: unknown) => Array.from({ length: n }).reduce<unknown>((x) => wrap(x), leaf);
    expect(v.isZW!(nest(40, (x) => [x], "s"))).toBe(true);
    expect(v.isZW!(nest(40, (x) => ({ "0": x }), "s"))).toBe(true);
    expect(v.isZW!(nest(40, (x) => [x], 1))).toBe(false);
    expect(v.isV30!(nest(30, (x) => ({ a: x, x: 1 }), { s: "x" }))).toBe(true);
    const issues = (v.validateUV!(nest(20, (x) => ({ a: x }), { a: 5 })) as { issues: { path: string; message: string }[] }).issues;
    expect(issues.map((i) => i.message)).toEqual(["expected object, got 5", "expected object | null, got 5"]);
  }, 30_000);

  it("non-recursive alias chains whose links check the link below in two branches: linear to check and to collect (helper-74)", async () => {
    const chain = (name: string, link: (below: string, i: number) => string, first = `export type ${name}0 = { s?: string };`) =>
      [first, ...Array.from({ length: 30 }, (_, i) => link(`${name}${i}`, i + 1))].join("\n");
    const text = [
      // An intersection with a union member both naming the link below: validateX30 was 2^30 (collectedApart lists), isX too.
      chain("X", (below, i) => `export type X${i} = { a?: ${below} } & ({ a?: ${below}; b?: 1 } | null);`),
      // A property declared optional and required (Partial & Pick), or optional with | undefined: tested twice per link.
      chain("P", (below, i) => `export interface B${i} { a: ${below}; x?: 1 }\nexport type P${i} = Partial<B${i}> & Pick<B${i}, "a">;`),
      chain("Q", (below, i) => `export type Q${i} = { a?: ${below}; x?: 1 } & { a?: ${below} | undefined; y?: 1 };`),
      // Object members beside a member that is not an object shape: each object member tested alone.
      chain("U", (below, i) => `export type U${i} = { a?: ${below}; x?: 1 } & { a?: ${below}; y?: 1 } & unknown;`),
      // The link below named through an alias of it, or by two named members (helper-76).
      chain("W", (below, i) => `export type W${i} = { a?: ${below} } & { a?: WA${i - 1}; b?: 1 };\nexport type WA${i} = W${i};`, "export type W0 = { s?: string };\nexport type WA0 = W0;"),
      chain("N", (below, i) => `export interface NA${i} { a?: ${below} }\nexport interface NB${i} { a?: ${below}; b?: 1 }\nexport type N${i} = NA${i} & NB${i};`),
      "",
    ].join("\n");
    const { files } = await generate({ schema: { text, fileName: "s.ts" }, docs: "none", targets: ["types", "validators"] });
    const dir = writeGenerated("helper-74-linear", files);
    expect(typecheck(dir)).toEqual([]);
    const v = (await import(join(dir, "validators.ts"))) as Record<string, (x: unknown) => unknown>;
    const nest = (n: number, leaf: unknown) => Array.from({ length: n }).reduce<unknown>((x) => ({ a: x }), leaf);
    for (const name of ["X", "P", "Q", "U", "W", "N"]) {
      const started = performance.now();
      expect(v[`is${name}30`]!(nest(30, { s: "x" })), name).toBe(true);
      const issues = (v[`validate${name}30`]!(nest(30, { s: 1 })) as { issues: { path: string; message: string }[] }).issues;
      expect(issues.map((i) => i.message), name).toEqual(["expected string, got 1"]);
      expect(issues[0]!.path).toBe("/a".repeat(30) + "/s");
      // 2^30 steps would take minutes; linear ones take well under a second on a loaded machine.
      expect(performance.now() - started, name).toBeLessThan(2000);
    }
    // Only a link two branches name remembers its verdicts: X29 does, X30 (named by none) checks plainly.
    const code = files.find((f) => f.path === "validators.ts")!.contents;
    expect([/function _isX29\$once\(/.test(code), /function _isX30\$once\(/.test(code)]).toEqual([true, false]);
  }, 60_000);

  it("chains of Partial<Pick<X_{n-1}, \"a\">> over intersections: output and generation grow with the declared types, not 2^n, and report each issue once (helper-76)", async () => {
    // Each link's `a` is the intersection of every link below it (types.ts spells n names per link). Written out in place,
    // the check and the collector of that intersection spelled out the one below it again: 5.5 MB at n = 16, and the
    // search for declarations two branches name walked it 2^n times (65 s at n = 36).
    const links = Array.from({ length: 36 }, (_, i) => `export type X${i + 1} = { a?: X${i} } & Partial<Pick<X${i}, "a">> & { b?: 1 };`);
    const text = ["export type X0 = { a?: string; b?: 1 };", ...links, ""].join("\n");
    const started = performance.now();
    const { files } = await generate({ schema: { text, fileName: "s.ts" }, docs: "none", targets: ["types", "validators"] });
    expect(performance.now() - started).toBeLessThan(20_000);
    const code = files.find((f) => f.path === "validators.ts")!.contents;
    expect(code.length).toBeLessThan(1_500_000);
    const dir = writeGenerated("helper-76-pick-chain", files);
    const v = (await import(join(dir, "validators.ts"))) as Record<string, (x: unknown) => unknown>;
    // `a` of every link above X0 must be an object and a string at once: only a value without it is valid.
    expect([v.isX36!({ b: 1 }), v.isX36!({ a: {} }), v.isX1!({ a: { a: "s" } }), v.isX0!({ a: "s" })]).toEqual([true, false, false, true]);
    expect(issueLines(v, "X36", { a: { a: 5 }, b: 2 })).toEqual([
      "/a/a: expected object, got 5",
      "/a/a: expected string, got 5",
      "/a: expected string, got object",
      "/b: expected 1, got 2",
    ]);
  }, 60_000);

  it("refuses a chain of Pick over object literal types at the link whose copies pass 2 000 type nodes (MCG207), at once, and generates the short chain (helper-78)", async () => {
    // Each link's `p` holds two picks of the link below, and a pick copies the object literal it takes: 2^n nodes written out.
    const chain = (n: number) =>
      ["export type X0 = { p?: { q?: 1 }; a?: 1 };", ...Array.from({ length: n }, (_, i) => `export type X${i + 1} = { p?: { q?: Pick<X${i}, "p"> & { y?: Pick<X${i}, "p"> } }; a?: 1 };`), ""].join("\n");
    const started = performance.now();
    // Before: each pick lowered the alias it names again (2^n steps), then built the 2^n type until a string could not hold it.
    // Both picks of the link are said: each is refused at its place.
    const refused = (column: number) =>
      `s.ts:11:${column} - error MCG207: Pick<X9, "p"> written out is 3,580 type nodes, from 57 with each type it repeats written once: a utility type copies each object literal type of the properties it takes, and a chain of them copies it again at each link; give those object types names (an interface or type alias) so that each use refers to one`;
    expect(await diagnostics(chain(40))).toEqual([refused(31), refused(53)]);
    expect(performance.now() - started).toBeLessThan(10_000);
    // A short chain generates, and its checks reach the bottom link through the copies.
    const { v } = await validatorsOf(chain(3), "X3");
    const deep = (q: unknown) => ({ p: { q: { y: { p: { q: { p: { q: { p: { q } } } } } } } } });
    expect([v.isX3!({ p: { q: {} } }), v.isX3!(deep(1)), v.isX3!(deep("x")), v.isX3!({ p: { q: { p: { q: 2 } } } })]).toEqual([true, true, false, false]);
    // Large but written as large: a Record's value, shared by every key, is no copy (helper-82: these were refused).
    const keys = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `"${prefix}${i}"`).join(" | ");
    const large = [
      `export type K = ${keys(2000, "k")};`,
      "export type R = Record<K, string>;",
      `export type Country = ${keys(300, "c")};`,
      "export type Info = Partial<Record<Country, { name: string; capital: string; code: number; area: number; eu: boolean; tld: string; dial: string }>>;",
      `export type Color = ${keys(148, "color")};`,
      `export interface Theme { ${Array.from({ length: 14 }, (_, i) => `slot${i}: Record<Color, string>;`).join(" ")} }`,
      "export type ThemePatch = Partial<Theme>;",
      "",
    ].join("\n");
    const { files } = await generate({ schema: { text: large, fileName: "s.ts" }, docs: "none", targets: ["types"] });
    expect(files.find((f) => f.path === "types.ts")!.contents).toContain("export type ThemePatch");
    // Two Records merged, and one property picked into many places, are one level of copies too (helper-83: refused).
    const merged = [
      `export type Key = ${keys(200, "k")};`,
      "export type Meta = { updatedAt: string };",
      "export type Both = Partial<Record<Key, { a: string; b: number; c: boolean; d: string; e: number; f: boolean; g: string; h: string; i: string; j: string; l: string; m: string }> & Record<Key, Meta>>;",
      "",
    ].join("\n");
    expect((await generate({ schema: { text: merged, fileName: "s.ts" }, docs: "none", targets: ["types"] })).files[0]!.contents).toContain("export type Both");
    // A Record inside a Record inside a Record grows with the product of their keys: refused (helper-83: 7.6 MB of types.ts
    // from two lines at five levels).
    const nested = 'export type K = "a" | "b" | "c" | "d" | "e" | "f" | "g" | "h" | "i" | "j";\nexport type R = Record<K, Record<K, Record<K, Record<K, { x: string; y: number }>>>>;\n';
    expect((await diagnostics(nested)).map((d) => d.slice(0, 60))).toEqual(["s.ts:2:27 - error MCG207: Record<K, Record<K, Record<K, { x:"]);
    // A chain that doubles through a Record's two keys, as the Pick chain does through two picks.
    const throughKeys = ["export type X0 = { p: { q: 1 } };", ...Array.from({ length: 30 }, (_, i) => `export type X${i + 1} = { p: Record<"a" | "b", Pick<X${i}, "p">> };`), ""].join("\n");
    expect((await diagnostics(throughKeys)).map((d) => d.slice(0, 60))).toEqual(['s.ts:10:23 - error MCG207: Record<"a" | "b", Pick<X8, "p">> ']);
  }, 60_000);

  it("a chain of utility types over an alias that fails is said once, in linear time (helper-82: 2^n, and a false MCG107 at 18 links)", async () => {
    const links = Array.from({ length: 22 }, (_, i) => `export type X${i + 1} = { p: { a: 1 }; q: Pick<X${i}, "p">; r: Pick<X${i}, "p"> };`);
    const started = performance.now();
    expect(await diagnostics(["export type X0 = { p: { k: () => void } };", ...links, ""].join("\n"))).toEqual(["s.ts:1:28 - error MCG201: unsupported construct: function type `() => void`"]);
    // Before: 27.6 s at 18 links, each use lowering the failing alias again.
    expect(performance.now() - started).toBeLessThan(10_000);
  }, 60_000);

  it("a diamond of failing aliases declared last first is lowered once per alias (helper-83: each path again, 2^n)", async () => {
    const levels = Array.from({ length: 24 }, (_, i) => `export type A${24 - i} = { x: Pick<A${23 - i}, "x">; y: Pick<B${23 - i}, "x"> };\nexport type B${24 - i} = { x: Pick<A${23 - i}, "x">; y: Pick<B${23 - i}, "x"> };`);
    const started = performance.now();
    expect(await diagnostics([...levels, "export type A0 = { x: Promise<string> };", "export type B0 = { x: Promise<number> };", ""].join("\n"))).toEqual([
      "s.ts:49:23 - error MCG206: Promise is a JavaScript library type with no JSON form: write the type of what is sent for it",
      "s.ts:50:23 - error MCG206: Promise is a JavaScript library type with no JSON form: write the type of what is sent for it",
    ]);
    // Before: 21.8 s at 18 levels.
    expect(performance.now() - started).toBeLessThan(10_000);
  }, 60_000);

  it("interfaces extending two bases that declare one property with the same types in another order keep it one intersection, not twice as long at each level (helper-82)", async () => {
    // 16 levels: TypeScript's own check of such bases grows about 1.9× a level (14 s at 26), with or without the fix.
    const levels = Array.from({ length: 16 }, (_, i) => `export interface I${i + 1} extends I${i}, J${i} {}\nexport interface J${i + 1} extends J${i}, I${i} {}`);
    const text = ["export type X = { v: string };", "export type Y = X;", "export interface I0 { p: X }", "export interface J0 { p: Y }", ...levels, ""].join("\n");
    const started = performance.now();
    // Before: `p` of I_n was 2^n members long (8.4 MB of types.ts and 12.7 s at 18 levels; 2^16 members here).
    const { files } = await generate({ schema: { text, fileName: "s.ts" }, docs: "none", targets: ["types", "validators"] });
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(files.find((f) => f.path === "types.ts")!.contents).toContain("export interface I16 {\n  p: X & Y;\n}");
    const dir = writeGenerated("helper-82-extends-twice", files);
    const v = (await import(join(dir, "validators.ts"))) as Record<string, (x: unknown) => unknown>;
    expect([v.isI16!({ p: { v: "s" } }), v.isJ16!({ p: { v: 1 } })]).toEqual([true, false]);
  }, 60_000);

  it("a union of 1 200 object types each naming a 300-alias chain generates in seconds: its members are compared per JSON type, not in pairs (helper-77)", async () => {
    const chain = Array.from({ length: 300 }, (_, i) => `export type Y${i + 1} = Y${i};`);
    const members = Array.from({ length: 1200 }, (_, i) => `{ a${i}?: Y300 }`).join(" | ");
    const text = ["export interface X { s?: string }", "export type Y0 = X | null;", ...chain, `export type U = ${members} | null;`, ""].join("\n");
    const started = performance.now();
    const { files } = await generate({ schema: { text, fileName: "s.ts" }, docs: "none", targets: ["types", "validators"] });
    // Before: 57 s, each pair of members walking both alias chains again.
    expect(performance.now() - started).toBeLessThan(20_000);
    const dir = writeGenerated("helper-77-union-pairs", files);
    const v = (await import(join(dir, "validators.ts"))) as Record<string, (x: unknown) => unknown>;
    // Extra properties are allowed, so any object matches some member; a number none.
    expect([v.isU!({ a7: { s: "x" } }), v.isU!(null), v.isU!(5)]).toEqual([true, true, false]);
  }, 60_000);

  it("a property members declare with one type spelled two ways (an alias, typeof a constant, a union written out) reports an issue once (helper-74)", async () => {
    const text = [
      'export const X = "x";',
      "export type S = string;",
      'export type E = "a" | "b";',
      "export type D1 = { k: S } & { k: string };",
      "export type D2 = { k: \"x\" } & { k: typeof X };",
      'export type D4 = { k: E } & { k: "a" | "b" };',
      // A union that lists the literal, and a keyword with a constraint beside the plain one (helper-76).
      "export interface Box { x: 1 }",
      'export type D5 = { k: "a" } & { k?: "a" | Box };',
      "/** @minimum 0 */",
      "export type N = number;",
      "export type D6 = { a: N } & { a: number };",
      // The same literals in another order (helper-81: reported in each order).
      'export type D7 = { k: "a" | "b" } & { k: "b" | "c" } & { k: "c" | "b" };',
      "",
    ].join("\n");
    const { v } = await validatorsOf(text, "helper-74-spelled-twice");
    const issues = (name: string, value: unknown) => issueLines(v, name, value);
    expect(issues("D1", { k: 5 })).toEqual(["/k: expected string, got 5"]);
    expect(issues("D2", { k: [5] })).toEqual(['/k: expected "x", got array']);
    expect(issues("D4", { k: 5 })).toEqual(['/k: expected one of "a", "b", got 5']);
    expect(issues("D5", { k: "z" })).toEqual(['/k: expected "a", got "z"']);
    expect(issues("D6", { a: "x" })).toEqual(['/a: expected integer, got "x"']);
    expect(issues("D6", { a: -1 })).toEqual(["/a: must be >= 0"]);
    expect(issues("D7", { k: "a" })).toEqual(['/k: expected one of "b", "c", got "a"']);
    expect([v.isD7!({ k: "b" }), v.isD7!({ k: "c" }), v.isD7!({ k: "a" })]).toEqual([true, false, false]);
  });

  it("an intersection of more than 64 object types (merged into one) reports a property several declare once, and linearly when recursive (helper-74)", async () => {
    const many = (n: number, member: (i: number) => string) => Array.from({ length: n }, (_, i) => member(i)).join(" & ");
    const text = [
      `export type Big = ${many(65, (i) => `{ a: string; m${i}?: 1 }`)};`,
      `export type BigR = { n?: BigR } & { n?: BigR | null } & ${many(64, (i) => `{ m${i}?: 1 }`)};`,
      // 70 declarations of one name, each a type of its own: collected one by one, past what TypeScript analyses as one.
      `export type Each = ${many(70, (i) => `{ a: { x${i}?: 1 } }`)} & { z?: 1 };`,
      "",
    ].join("\n");
    const { dir, v } = await validatorsOf(text, "helper-74-long-intersection");
    expect(typecheck(dir)).toEqual([]);
    const issues = (name: string, value: unknown) => issueLines(v, name, value);
    // Before: 65 times each.
    expect(issues("Big", {})).toEqual(['/a: missing required property "a"']);
    expect(issues("Big", { a: 1 })).toEqual(["/a: expected string, got 1"]);
    // Before: twice per level, 2^20 issues cut at the cap.
    const deep = Array.from({ length: 20 }).reduce<unknown>((x) => ({ n: x }), { n: 1 });
    expect(issues("BigR", deep)).toEqual([`${"/n".repeat(21)}: expected object, got 1`]);
    expect(v.isBigR!(Array.from({ length: 20 }).reduce<unknown>((x) => ({ n: x }), {}))).toBe(true);
    // Before: 70 times (helper-77).
    expect(issues("Each", { a: 5, z: 2 })).toEqual(["/a: expected object, got 5", "/z: expected 1, got 2"]);
    expect(issues("Each", { a: { x3: 2, x60: 3 } })).toEqual(["/a/x3: expected 1, got 2", "/a/x60: expected 1, got 3"]);
  }, 30_000);

  it("an intersection of 500 object types declaring one property with literals compiles strictly: the literals merge (helper-76: TS2563)", async () => {
    const members = Array.from({ length: 500 }, (_, i) => `{ k: "a" | "b" | "v${i}"; p${i}?: 1 }`).join(" & ");
    const { files } = await generate({ schema: { text: `export type Big = ${members};\n`, fileName: "s.ts" }, docs: "none", targets: ["types", "validators"] });
    const dir = writeGenerated("helper-76-many-literals", files);
    expect(typecheck(dir)).toEqual([]);
    const v = (await import(join(dir, "validators.ts"))) as Record<string, (x: unknown) => unknown>;
    const issues = (value: unknown) => issueLines(v, "Big", value);
    expect([v.isBig!({ k: "b" }), v.isBig!({ k: "v3" })]).toEqual([true, false]);
    expect(issues({ k: "v3" })).toEqual(['/k: expected one of "a", "b", got "v3"']);
  }, 60_000);

  it("an intersection of 400 object types declaring one property with object types compiles strictly: collected in parts (helper-76: TS2563)", async () => {
    const members = Array.from({ length: 400 }, (_, i) => `{ k: O | { y${i}?: 1 } }`).join(" & ");
    const text = `export interface O { o?: string }\nexport type Many = ${members};\n`;
    const { dir, v } = await validatorsOf(text, "helper-76-many-objects");
    // Before: TS2563, "The containing function or module body is too large for control flow analysis", in _collectMany.
    expect(typecheck(dir)).toEqual([]);
    expect([v.isMany!({ k: { o: "s" } }), v.isMany!({ k: 5 }), v.isMany!({})]).toEqual([true, false, false]);
    expect(issueLines(v, "Many", { k: 5 })).toEqual(["/k: expected O | object, got 5"]);
    expect(issueLines(v, "Many", {})).toEqual(['/k: missing required property "k"']);
  }, 60_000);

  it("a chain of declarations with a property typed as an intersection naming the one below: output linear in its length (helper-74: cubic, 10 MB at 40 links, a crash at 100)", async () => {
    const links = Array.from({ length: 100 }, (_, i) => `export interface T${i + 1} { a?: T${i}; d?: T${i} & { e?: 1 } }`);
    const text = ["export interface T0 { s?: string }", ...links, ""].join("\n");
    const { files } = await generate({ schema: { text, fileName: "s.ts" }, docs: "none", targets: ["types", "validators"] });
    const code = files.find((f) => f.path === "validators.ts")!.contents;
    expect(code.length).toBeLessThan(600_000);
    const dir = writeGenerated("helper-74-intersection-chain", files);
    const v = (await import(join(dir, "validators.ts"))) as Record<string, (x: unknown) => unknown>;
    const nest = (n: number, leaf: unknown) => Array.from({ length: n }).reduce<unknown>((x) => ({ d: x, e: 1 }), leaf);
    expect(v.isT100!(nest(100, { s: "x" }))).toBe(true);
    const issues = (v.validateT100!(nest(100, { s: 1 })) as { issues: { path: string; message: string }[] }).issues;
    expect(issues.map((i) => `${i.path}: ${i.message}`)).toEqual([`${"/d".repeat(100)}/s: expected string, got 1`]);
    expect(v.isT100!({ d: { d: { d: { e: 2 } } } })).toBe(false);
  }, 60_000);

  it("a property declared with literals that share no value is never, and compiles strictly; an intersection TypeScript finds never warns (MCG257) (helper-74)", async () => {
    const text = [
      'export type N1 = { k: string } & { k: "a" } & { k: "b" };',
      "export type N2 = { k: boolean } & { k: true } & { k: false };",
      'export type N3 = { k: string } & { k: "a" | "b" } & { k: "c" };',
      'export type Some = { k: string } & { k: "a" | "b" } & { k: "b" | "c" };',
      "export type Prim = string & 1;",
      "",
    ].join("\n");
    const { files, warnings } = await generate({ schema: { text, fileName: "s.ts" }, docs: "none", targets: ["types", "validators"] });
    expect(warnings.filter((w) => w.code === "MCG257").map((w) => formatDiagnostic(w, "warning"))).toEqual([
      "s.ts:5:20 - warning MCG257: intersection `string & 1` is never (TypeScript reduces it to never: its members are disjoint, or one is never): no value is valid",
    ]);
    const dir = writeGenerated("helper-74-never", files);
    // Before: typeof v["k"] === "string" && v["k"] === "a" && v["k"] === "b", which TypeScript refuses (TS2367).
    expect(typecheck(dir)).toEqual([]);
    const v = (await import(join(dir, "validators.ts"))) as Record<string, (x: unknown) => unknown>;
    for (const [name, value] of [["N1", { k: "a" }], ["N2", { k: true }], ["N3", { k: "c" }], ["Prim", 1]] as const) {
      expect([v[`is${name}`]!(value), (v[`validate${name}`]!(value) as { ok: boolean }).ok], name).toEqual([false, false]);
    }
    expect([{ k: "b" }, { k: "a" }].map((value) => v.isSome!(value))).toEqual([true, false]);
    // One issue that says no value fits, not each declaration wanting what another refuses (helper-77: `expected "b", got
    // "a"`, and for "b" the reverse).
    expect(issueLines(v, "N1", { k: "a" })).toEqual(['/k: expected never, got "a"']);
    expect(issueLines(v, "N1", { k: "b" })).toEqual(['/k: expected never, got "b"']);
    expect(issueLines(v, "N1", {})).toEqual(['/k: missing required property "k"']);
    expect(issueLines(v, "Some", { k: "a" })).toEqual(['/k: expected one of "b", "c", got "a"']);
  });

  it("names an intersection in a union's message by its members, each once and without unknown, and a long one as intersection", async () => {
    const long = Array.from({ length: 40 }, (_, i) => `(string | ${i})`).join(" & ");
    const text = ['export type K = "a" | "b";', "export type U = (unknown & K & K) | number;", `export type W = (${long}) | boolean[];`, ""].join("\n");
    const { files } = await generate({ schema: { text, fileName: "s.ts" }, docs: "none", targets: ["types", "validators"] });
    const dir = writeGenerated("intersection-labels", files);
    const v = (await import(join(dir, "validators.ts"))) as Record<string, (x: unknown) => { issues: { message: string }[] }>;
    expect(v.validateU!(true).issues.map((i) => i.message)).toEqual(["expected K | integer, got true"]);
    expect(v.validateW!(true).issues.map((i) => i.message)).toEqual(["expected intersection | boolean[], got true"]);
  });

  it("names union members labelled alike (object | object) by their first properties (helper-74)", async () => {
    const text = [
      'export type U = { a: string } | { b: number; "x-y"?: 1; c?: 1; d?: 1 };',
      "export type W = { a: string } | { b: number }[] | { c: 1 }[];",
      // A union inside the union (helper-78: `object | object | null`), naming null again (helper-79).
      "export type N = { a: string } | null | ({ b: number } | null);",
      "",
    ].join("\n");
    const { v } = await validatorsOf(text, "union-labels");
    expect(issueLines(v, "U", 5)).toEqual([': expected { a } | { b, "x-y", c, … }, got 5']);
    expect(issueLines(v, "U", { a: 1, b: "x" })[0]).toBe(': matches none of { a } | { b, "x-y", c, … }');
    // Labelled alike only among the arrays: the one object stays `object`.
    expect(issueLines(v, "W", 5)).toEqual([": expected object | { b }[] | { c }[], got 5"]);
    expect(issueLines(v, "N", 5)).toEqual([": expected { a } | null | { b }, got 5"]);
  });

  it("an intersection's members after the one checked in place are calls: TypeScript does not read them with `v` narrowed (helper-71)", async () => {
    // `typeof v === "string" && (v === "a" || v === 1)` is TS2367 once `v` is a string; so were two literal unions in a row.
    const text = [
      "export type S = string & string;",
      'export type U = S & ("a" | 1);',
      'export type W = string & ("a" | 1) & ("a" | "b");',
      "export type B = boolean & boolean;",
      'export type X = B & (B | "x") & (boolean | 1);',
      // A runtime type guard narrows too (`isPlainObject(v) && v === "a"` is TS2367); no value is both.
      'export type Z = {} & ("a" | 1);',
      // Merged into one object, a property declared as string and as "x" | 2 was two tests in place on v["kind"].
      "export type K = { a: string; kind: string };",
      'export type KX = K & { kind: "x" | 2 } & K;',
      "",
    ].join("\n");
    const { files } = await generate({ schema: { text, fileName: "s.ts" }, docs: "none", targets: ["types", "validators"] });
    const dir = writeGenerated("intersection-narrowing", files);
    expect(typecheck(dir)).toEqual([]);
    const v = (await import(join(dir, "validators.ts"))) as Record<string, (x: unknown) => boolean>;
    expect([v.isZ!("a"), v.isZ!({})]).toEqual([false, false]);
    expect([v.isKX!({ a: "s", kind: "x" }), v.isKX!({ a: "s", kind: 2 }), v.isKX!({ a: "s", kind: "y" }), v.isKX!({ kind: "x" })]).toEqual([true, false, false, false]);
    expect([v.isU!("a"), v.isU!(1), v.isU!("b"), v.isW!("a"), v.isW!("b"), v.isW!(1), v.isX!(true), v.isX!("x"), v.isX!(1)]).toEqual([
      true,
      false,
      false,
      true,
      false,
      false,
      true,
      false,
      false,
    ]);
  });

  it("generate code that compiles and answers: a 6 000-literal union, a 1 200-property interface, a 1 000-member intersection", async () => {
    const literals = Array.from({ length: 6000 }, (_, i) => JSON.stringify(`v${i}`)).join(" | ");
    const props = Array.from({ length: 1200 }, (_, i) => `p${i}: string;`).join(" ");
    const inter = Array.from({ length: 1000 }, (_, i) => `{ q${i}?: number }`).join(" & ");
    const text = `export type U = ${literals};\nexport interface P { ${props} }\nexport type I = ${inter};\n`;
    const dir = await generateInto("large-schemas", { schema: { text, fileName: "s.ts" }, docs: "none", targets: ["validators"] });
    expect(typecheck(dir)).toEqual([]);
    const v = (await import(join(dir, "validators.ts"))) as Record<string, (x: unknown) => boolean>;
    expect(v.isU!("v5999")).toBe(true);
    expect(v.isU!("v6000")).toBe(false);
    const p = Object.fromEntries(Array.from({ length: 1200 }, (_, i) => [`p${i}`, "x"]));
    expect(v.isP!(p)).toBe(true);
    expect(v.isP!({ ...p, p1199: 1 })).toBe(false);
    expect(v.isI!({ q0: 1, q999: 2 })).toBe(true);
    expect(v.isI!({ q999: "x" })).toBe(false);
  }, 60_000);
});

/**
 * Generates the types and validators of `text` (as `s.ts`, without docs) into the scratch folder
 * `name`: that folder, and the validators imported from it.
 */
describe("constraint tags of an index signature", () => {
  it("constrain each value, as a property's do its value (helper-86: they were dropped, unchecked)", async () => {
    const { v } = await validatorsOf("export interface A {\n  /** @minimum 5 */\n  [key: string]: number;\n}\n", "index-signature-tags");
    expect([v.isA!({ a: 6 }), v.isA!({ a: 4 }), v.isA!({})]).toEqual([true, false, true]);
    expect(issueLines(v, "A", { a: 4 })).toEqual(["/a: must be >= 5"]);
  });
});

describe("enum members named by a string literal", () => {
  it("are referred to by their names, as TypeScript reads them (helper-126: `E.ab` of `\"ab\" = \"x\"` was refused as not a member)", async () => {
    const text = 'export enum E {\n  "ab" = "x",\n  \'c d\' = "y",\n  "__proto__" = "z",\n}\nexport type A = E.ab;\nexport type B = typeof E.__proto__;\n';
    const { v } = await validatorsOf(text, "enum-string-member-names");
    expect([v.isA!("x"), v.isA!("y"), v.isB!("z"), v.isB!("x"), v.isE!("y")]).toEqual([true, false, true, false, true]);
  });
});

async function validatorsOf(text: string, name: string): Promise<{ dir: string; v: Record<string, (x: unknown) => unknown> }> {
  const { files } = await generate({ schema: { text, fileName: "s.ts" }, docs: "none", targets: ["types", "validators"] });
  const dir = writeGenerated(name, files);
  return { dir, v: (await import(join(dir, "validators.ts"))) as Record<string, (x: unknown) => unknown> };
}

/** What `validate<name>` reports for `value`, as "path: message" lines. */
function issueLines(v: Record<string, (x: unknown) => unknown>, name: string, value: unknown): string[] {
  return (v[`validate${name}`]!(value) as { issues: { path: string; message: string }[] }).issues.map((i) => `${i.path}: ${i.message}`);
}
