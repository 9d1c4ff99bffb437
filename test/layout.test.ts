/**
 * generator/emit/layout.ts: the statements it lays out are Prettier's fixed point, and it
 * answers undefined (the file then goes through Prettier) for what it does not decide.
 */
import { describe, expect, it } from "vitest";
import { formatModule } from "../generator/emit/index.js";
import {
  array,
  call,
  constArrayStatement,
  constStatement,
  identifierCode,
  importStatement,
  mappedIntersectionAlias,
  memberCode,
  numberCode,
  object,
  propertyLine,
  stringCode,
  text,
  unionParameterMethod,
  withinWidth,
  type Code,
} from "../generator/emit/layout.js";

const long = (n: number) => `value${"X".repeat(n)}`;
const fnType = (params: string[], returns: string): Code => ({ kind: "fnType", params, returns: text(returns) });

async function expectFixedPoint(source: string | undefined): Promise<void> {
  expect(source).toBeDefined();
  expect(source).toBe((await formatModule(source!)).trimEnd());
}

describe("layout.ts prints as Prettier does", () => {
  it("assignments: one line, break after `=` for a call with a lone short argument, broken arguments otherwise, broken parameters", async () => {
    await expectFixedPoint(constStatement(true, "short", fnType(["a: string"], "boolean"), call("make", [identifierCode("RULES")])));
    await expectFixedPoint(constStatement(true, long(40), fnType(["a: string", "b: number", "c?: unknown"], long(30)), call("make", [identifierCode("RULES")])));
    await expectFixedPoint(constStatement(true, long(40), fnType(["a: string", "b: number"], long(30)), call("make", [identifierCode("RULES"), identifierCode(long(20))])));
    await expectFixedPoint(
      constStatement(true, long(40), fnType([`a: ${long(40)}`, `b: ${long(40)}`, "c?: string"], `Response<typeof Codes.${long(30)}, ${long(20)}>`), call("make", [memberCode("Codes.A"), stringCode('"a message"')])),
    );
    await expectFixedPoint(
      constStatement(true, "check", fnType(["key: string"], "boolean"), call("reserved", [stringCode('"rule"'), array([long(30), long(30), long(30), long(30)].map((v) => stringCode(JSON.stringify(v))))])),
    );
    await expectFixedPoint(constArrayStatement(true, "KEYS", [long(60), long(60)].map((v) => stringCode(JSON.stringify(v)))));
  });

  it("objects and arrays: broken one entry per line, arrays of several objects always broken", async () => {
    const row = (n: number) => object([["key", stringCode(JSON.stringify(long(n)))], ["required", text("true", { literal: "boolean", lone: true })], ["check", object([["validate", identifierCode("validateX")]])]]);
    const wrap = (line: string | undefined) => (line === undefined ? undefined : `const x = {\n${line}\n};`);
    await expectFixedPoint(wrap(propertyLine("keys", array([row(10)]), 1)));
    await expectFixedPoint(wrap(propertyLine("keys", array([row(10), row(100)]), 1)));
    await expectFixedPoint(wrap(propertyLine("pairs", array([array([numberCode(-32021), stringCode('"a"')]), array([numberCode(-32022), stringCode('"b"')])]), 1)));
    await expectFixedPoint(importStatement([long(30), long(30), long(30), long(30), `type ${long(10)}`], '"./module.js"'));
  });

  it("a method with a union parameter, and an intersection of mapped types", async () => {
    const members = [1, 2, 3, 4].map((n) => `notifications/${long(20)}${n}`);
    const publish = unionParameterMethod("publish", "method", members, ["params?: { readonly [key: string]: unknown }"], "number");
    await expectFixedPoint(publish === undefined ? undefined : `interface I {\n${publish}\n}`);
    expect(publish).toContain("\n      | ");
    await expectFixedPoint(mappedIntersectionAlias("export type Completable<R>", `{ [K in keyof R as K extends "${long(30)}" | "b" ? never : K]: R[K] }`, `[K in keyof R & ("${long(30)}" | "b")]?: R[K]`));
  });

  it("answers undefined for what it does not decide", () => {
    // A member expression as a lone argument in a line that does not fit: Prettier's layout is not decided here.
    expect(constStatement(true, long(60), text(long(60)), call("make", [text("A.b")]))).toBeUndefined();
    // A numbers array that would break (Prettier fills lines with numbers).
    expect(constArrayStatement(true, "CODES", Array.from({ length: 30 }, (_, i) => numberCode(-32000 - i)))).toBeUndefined();
    // A number Prettier prints otherwise than JavaScript does (`1e+21` → `1e21`), and the same array with a plain number.
    expect(constArrayStatement(true, "CODES", [numberCode(1e21)])).toBeUndefined();
    expect(constArrayStatement(true, "CODES", [numberCode(-32000.5)])).toBe("export const CODES = [-32000.5] as const;");
    // A character outside printable ASCII.
    expect(constArrayStatement(true, "KEYS", [stringCode('"é"')])).toBeUndefined();
    expect(withinWidth(`const a = ${"x".repeat(140)};`)).toBe(false);
    expect(withinWidth(`/** ${"x".repeat(140)} */\nconst a = 1;`)).toBe(true);
  });
});
