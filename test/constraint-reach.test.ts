/**
 * Constraint tags reach every value of the property's type, or are refused (MCG220): literals written through a name
 * inside an alias, and arrays inside a parenthesised union (helper-130).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateInto, refusal as diagnostics } from "./support/corpus.js";


describe("constraint tags and what a name holds (helper-130)", () => {
  it("refuses a tag beside an alias of literals written through a name (E.A, typeof C, (typeof O)[keyof typeof O], keyof typeof O) or of an intersection (number & {}): each passed the validators unchecked", async () => {
    const text = [
      "export enum E { A = 1, B = 2 }",
      "export const ONE = 1;",
      'export const O = { A: "not a uri", B: "x" } as const;',
      "export type M = E.A;",
      "export type C = typeof ONE;",
      "export type V = (typeof O)[keyof typeof O];",
      "export type K = keyof typeof O;",
      "export type N = number & {};",
      "export interface A {",
      "  /** @minimum 5 */",
      "  m: M | number;",
      "  /** @minimum 5 */",
      "  c: C | number;",
      "  /** @format uri */",
      "  v: V | string;",
      "  /** @TJS-pattern ^z */",
      "  k: K | string;",
      "  /** @minimum 5 */",
      "  n: N | number;",
      "  /** @minimum 1 */",
      "  fine: M | C | number;",
      "}",
      "",
    ].join("\n");
    expect(await diagnostics(text)).toEqual([
      "s.ts:10:7 - error MCG220: @minimum 5 excludes the literal 1 (behind M) the type lists beside its number: the validators would accept it unchecked; remove the literal or the tag",
      "s.ts:12:7 - error MCG220: @minimum 5 excludes the literal 1 (behind C) the type lists beside its number: the validators would accept it unchecked; remove the literal or the tag",
      's.ts:14:7 - error MCG220: @format uri cannot check the literal "not a uri" (behind V) the type lists beside its string: the validators would accept it unchecked; remove the literal or the tag',
      's.ts:16:7 - error MCG220: @TJS-pattern ^z does not match the literal "A" (behind K) the type lists beside its string: the validators would accept it unchecked; remove the literal or the tag',
      "s.ts:18:7 - error MCG220: @minimum cannot reach the number behind N: a tag applies to the type written where it stands, not through an alias; put the tag on N's declaration, or write number here",
    ]);
  });

  it("@maxItems reaches an array in a parenthesised union: (string[] | null) | number[] checked the number[] only, and (string[] | null) | number was refused as no array", async () => {
    const text = "export interface A {\n  /** @maxItems 1 */\n  a: (string[] | null) | number[];\n  /** @maxItems 1 */\n  b?: (string[] | null) | number;\n}\n";
    const dir = await generateInto("constraint-reach-nested-arrays", { schema: { text, fileName: "s.ts" }, targets: ["types", "validators"] });
    const { isA } = (await import(join(dir, "validators.ts"))) as { isA: (v: unknown) => boolean };
    expect(isA({ a: ["x"], b: 3 })).toBe(true);
    expect(isA({ a: [1], b: ["x"] })).toBe(true);
    expect(isA({ a: ["x", "y"] })).toBe(false);
    expect(isA({ a: [1, 2] })).toBe(false);
    expect(isA({ a: null, b: ["x", "y"] })).toBe(false);
  });

  it("a tag reaches into an intersection: (1 & number) | number under @minimum 5 passed 1, and (string[] & unknown[]) | number[] under @maxItems 1 passed 3 strings (helper-131)", async () => {
    const refused = [
      "export type One = 1;",
      "export type P = number;",
      "export interface A {",
      "  /** @minimum 5 */",
      "  a: (1 & number) | number;",
      "  /** @minimum 5 */",
      "  b: (One & number) | number;",
      "  /** @minimum 5 */",
      "  c: (P & number) | number;",
      "  /** @TJS-pattern ^x */",
      '  e: ("a" & string) | string;',
      "}",
      "",
    ].join("\n");
    expect(await diagnostics(refused)).toEqual([
      "s.ts:4:7 - error MCG220: @minimum 5 excludes the literal 1 the type lists beside its number: the validators would accept it unchecked; remove the literal or the tag",
      "s.ts:6:7 - error MCG220: @minimum 5 excludes the literal 1 (behind One) the type lists beside its number: the validators would accept it unchecked; remove the literal or the tag",
      "s.ts:8:7 - error MCG220: @minimum cannot reach the number behind P: a tag applies to the type written where it stands, not through an alias; put the tag on P's declaration, or write number here",
      's.ts:10:7 - error MCG220: @TJS-pattern ^x does not match the literal "a" the type lists beside its string: the validators would accept it unchecked; remove the literal or the tag',
    ]);
    const text = "export interface A {\n  /** @maxItems 1 */\n  d: (string[] & unknown[]) | number[];\n}\n";
    const dir = await generateInto("constraint-reach-intersection", { schema: { text, fileName: "s.ts" }, targets: ["types", "validators"] });
    const { isA } = (await import(join(dir, "validators.ts"))) as { isA: (v: unknown) => boolean };
    expect(isA({ d: ["a"] })).toBe(true);
    expect(isA({ d: ["a", "b", "c"] })).toBe(false);
    expect(isA({ d: [1, 2] })).toBe(false);
  });

  it("refuses a tag whose string is a Date behind an alias: q: D | string with type D = Date under @TJS-pattern ^x passed a date-time string (helper-131)", async () => {
    const text = "export type D = Date;\nexport type E = D | number;\nexport interface A {\n  /** @TJS-pattern ^x */\n  q: D | string;\n  /** @format uri */\n  r: E | string;\n  /** @minimum 1 */\n  fine: D | number;\n}\n";
    expect(await diagnostics(text)).toEqual([
      "s.ts:4:7 - error MCG220: @TJS-pattern cannot reach the string behind D: a tag applies to the type written where it stands, not through an alias; put the tag on D's declaration, or write string here",
      "s.ts:6:7 - error MCG220: @format cannot reach the string behind E: a tag applies to the type written where it stands, not through an alias; put the tag on E's declaration, or write string here",
    ]);
  });

  it("accepts a tag on literals or tuples alone that each fit it: an enum of 7 and 9 under @minimum 5, or readonly [string, string] under @maxItems 2, was refused as holding no number or array (helper-131)", async () => {
    const text = [
      "export enum Big { A = 7, B = 9 }",
      'export type L = "xa" | "xb";',
      "export interface A {",
      "  /** @minimum 5 */",
      "  a: Big;",
      "  /** @TJS-pattern ^x */",
      "  b: L | null;",
      "  /** @maxItems 2 */",
      "  c: readonly [string, string];",
      "  /** @TJS-type integer */",
      "  d: 1 | 2;",
      "}",
      "",
    ].join("\n");
    const dir = await generateInto("constraint-reach-literals-alone", { schema: { text, fileName: "s.ts" }, targets: ["types", "validators"] });
    const { isA } = (await import(join(dir, "validators.ts"))) as { isA: (v: unknown) => boolean };
    expect(isA({ a: 7, b: "xa", c: ["p", "q"], d: 1 })).toBe(true);
    expect(isA({ a: 5, b: "xa", c: ["p", "q"], d: 1 })).toBe(false);
    expect(await diagnostics(text.replace("@minimum 5", "@minimum 8").replace("@maxItems 2", "@maxItems 1"))).toEqual([
      // With no number or array beside them, the message says none (helper-131: "beside its number").
      "s.ts:4:7 - error MCG220: @minimum 8 excludes the literal 7 (behind Big) the type lists: the validators would accept it unchecked; remove the literal or the tag",
      "s.ts:8:7 - error MCG220: @maxItems 1 excludes the tuple of 2 items the type lists: the validators would accept it unchecked; remove the tuple or the tag",
    ]);
    // A literal is quoted as written: -0, not JSON's 0 (helper-131).
    expect(await diagnostics("export interface A {\n  /** @minimum 5 */\n  z: -0 | number;\n}\n")).toEqual([
      "s.ts:2:7 - error MCG220: @minimum 5 excludes the literal -0 the type lists beside its number: the validators would accept it unchecked; remove the literal or the tag",
    ]);
  });
});
