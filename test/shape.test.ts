/**
 * The one shape resolver (generator/shape.ts): the intersection rule in its flat and merged
 * views, `extends` overrides, Omit/Pick/Partial/Required, index signatures and recursion; then
 * the same rule as lower, analyze and the validators' checks see it on small schemas.
 */
import { describe, expect, it } from "vitest";
import { analyze } from "../generator/analyze/index.js";
import type { InterfaceDecl, ObjectType, Property, SchemaIR, TypeExpr } from "../generator/ir.js";
import { loadSchema } from "../generator/load/index.js";
import { lowerSchema } from "../generator/lower/index.js";
import {
  checkShape,
  extendShape,
  flatShape,
  inheritedFrom,
  intersectShapes,
  mergedShape,
  sameType,
  selectProperties,
  withOptional,
  type ShapeLookup,
} from "../generator/shape.js";

const span = { file: "s.ts", line: 1, column: 1 };
const STRING: TypeExpr = { kind: "keyword", name: "string" };
const NUMBER: TypeExpr = { kind: "keyword", name: "number", numberType: "integer" };
const UNKNOWN: TypeExpr = { kind: "keyword", name: "unknown" };
const literal = (value: string | number): TypeExpr => ({ kind: "literal", value });
const ref = (name: string): TypeExpr => ({ kind: "ref", name });
const prop = (name: string, type: TypeExpr, optional = false): Property => ({ name, optional, type, span });
const object = (properties: Property[], indexSignature?: TypeExpr): ObjectType =>
  indexSignature ? { kind: "object", properties, indexSignature } : { kind: "object", properties };
/** name, optional and type of each property: what the rule decides. */
const summary = (shape: ObjectType | undefined) => shape?.properties.map((p) => [p.name, p.optional, p.type]);
const lookupOf = (types: Record<string, TypeExpr>): ShapeLookup => (name) => types[name];

/** `interface Error { code: number; message: string; data?: unknown }`, as the MCP schema has it. */
const ERROR = object([prop("code", NUMBER), prop("message", STRING), prop("data", UNKNOWN, true)]);
/** `{ code: -32002; data: { uri: string } }`, the second member of `Error & { … }`. */
const SPECIFIC = object([prop("code", literal(-32002)), prop("data", object([prop("uri", STRING)]))]);
const lookup = lookupOf({ Error: ERROR });

describe("intersection rule", () => {
  const both: TypeExpr = { kind: "intersection", members: [ref("Error"), SPECIFIC] };

  it("flat view: a property several members declare is listed once per member, in member order", () => {
    expect(flatShape(both, lookup)?.properties.map((p) => p.name)).toEqual(["code", "message", "data", "code", "data"]);
  });

  it("merged view: once, at its first position, required if any member requires it, of the intersected type", () => {
    expect(summary(mergedShape(flatShape(both, lookup)!))).toEqual([
      ["code", false, { kind: "intersection", members: [NUMBER, literal(-32002)] }],
      ["message", false, STRING],
      ["data", false, { kind: "intersection", members: [UNKNOWN, SPECIFIC.properties[1]!.type] }],
    ]);
  });

  it("merged view: structurally equal declarations stay one type; optional only when optional everywhere", () => {
    const a = object([prop("x", STRING, true), prop("y", STRING, true)]);
    const b = object([prop("x", STRING, true), prop("y", STRING)]);
    expect(summary(intersectShapes(a, b))).toEqual([
      ["x", true, STRING],
      ["y", false, STRING],
    ]);
  });

  it("index signatures: listed per member (flat), intersected (merged)", () => {
    const a = object([prop("a", STRING)], STRING);
    const b = object([], literal("x"));
    const flat = flatShape({ kind: "intersection", members: [a, b] }, lookup)!;
    expect(flat.indexSignatures).toEqual([STRING, literal("x")]);
    expect(mergedShape(flat).indexSignature).toEqual({ kind: "intersection", members: [STRING, literal("x")] });
    expect(intersectShapes(a, object([prop("b", STRING)])).indexSignature).toEqual(STRING);
  });

  it("sameType is structural over the IR (no string keys), spans included", () => {
    expect(sameType({ kind: "keyword", numberType: "integer", name: "number" } as TypeExpr, NUMBER)).toBe(true);
    expect(sameType(object([prop("a", STRING)]), object([{ ...prop("a", STRING), span: { ...span, line: 2 } }]))).toBe(false);
  });

  it("a member that is not an object shape makes the whole type not one", () => {
    expect(flatShape({ kind: "intersection", members: [ERROR, STRING] }, lookup)).toBeUndefined();
    expect(flatShape({ kind: "union", members: [ERROR, ERROR] }, lookup)).toBeUndefined();
    expect(flatShape(ref("Missing"), lookup)).toBeUndefined();
  });

  it("object, unknown and any are the empty shape only when asked (lower's extends and utility types)", () => {
    const type: TypeExpr = { kind: "intersection", members: [ERROR, { kind: "keyword", name: "object" }] };
    expect(flatShape(type, lookup)).toBeUndefined();
    expect(flatShape(type, lookup, { emptyKeywords: true })?.properties).toEqual(ERROR.properties);
  });
});

describe("references and recursion", () => {
  it("follows references through aliases and intersections", () => {
    const types = lookupOf({ A: ref("B"), B: { kind: "intersection", members: [ref("Error"), object([prop("extra", STRING)])] }, Error: ERROR });
    expect(flatShape(ref("A"), types)?.properties.map((p) => p.name)).toEqual(["code", "message", "data", "extra"]);
  });

  it("a reference met again while it is resolved is not a shape (no endless walk)", () => {
    const types = lookupOf({
      A: { kind: "intersection", members: [ref("B"), object([prop("a", STRING)])] },
      B: { kind: "intersection", members: [ref("A"), object([prop("b", STRING)])] },
    });
    expect(flatShape(ref("A"), types)).toBeUndefined();
  });

  it("a type standing for one object gives that object itself (no copy) in both views", () => {
    const flat = flatShape(ref("Error"), lookup)!;
    expect(flat.sole).toBe(ERROR);
    expect(mergedShape(flat)).toBe(ERROR);
    expect(flatShape({ kind: "intersection", members: [ref("Error"), SPECIFIC] }, lookup)?.sole).toBeUndefined();
  });

  it("the same declaration twice in one intersection is not a cycle, and is taken once (it adds no constraint)", () => {
    const twice = flatShape({ kind: "intersection", members: [ref("Error"), ref("Error")] }, lookup);
    expect(twice?.properties).toHaveLength(3);
    expect(twice).toEqual(flatShape(ref("Error"), lookup));
  });

  it("a declaration met again through other aliases is taken once: A2 = A1 & A1 over A1 = A0 & A0 is A0", () => {
    const aliases: Record<string, TypeExpr> = {
      A1: { kind: "intersection", members: [ref("Error"), ref("Error")] },
      A2: { kind: "intersection", members: [ref("A1"), ref("A1"), SPECIFIC] },
    };
    const through = (name: string) => aliases[name] ?? lookup(name);
    expect(summary(mergedShape(flatShape(ref("A2"), through)!))).toEqual(summary(mergedShape(flatShape({ kind: "intersection", members: [ref("Error"), SPECIFIC] }, lookup)!)));
    expect(flatShape(ref("A2"), through)!.properties).toHaveLength(flatShape({ kind: "intersection", members: [ref("Error"), SPECIFIC] }, lookup)!.properties.length);
  });

  it("stopAt ends the walk at a reference (the validators' recursive types)", () => {
    const type: TypeExpr = { kind: "intersection", members: [ref("Error"), SPECIFIC] };
    expect(flatShape(type, lookup, { stopAt: (name) => name === "Error" })).toBeUndefined();
    expect(flatShape(SPECIFIC, lookup, { stopAt: (name) => name === "Error" })).toBeDefined();
  });
});

describe("extends and utility types", () => {
  const base = object([prop("a", STRING), prop("b", NUMBER, true), prop("c", STRING)]);

  it("an own member overrides an inherited one in place; new ones follow", () => {
    expect(summary(extendShape(base, object([prop("d", STRING), prop("b", literal(1))])))).toEqual([
      ["a", false, STRING],
      ["b", false, literal(1)],
      ["c", false, STRING],
      ["d", false, STRING],
    ]);
  });

  it("an own index signature replaces the inherited one", () => {
    expect(extendShape(object([], STRING), object([], NUMBER)).indexSignature).toEqual(NUMBER);
    expect(extendShape(object([], STRING), object([])).indexSignature).toEqual(STRING);
  });

  it("Omit and Pick keep the declaration order", () => {
    expect(selectProperties(base, ["c", "a"], false).properties.map((p) => p.name)).toEqual(["b"]);
    expect(selectProperties(base, ["c", "a"], true).properties.map((p) => p.name)).toEqual(["a", "c"]);
  });

  it("Partial and Required set every property's optionality", () => {
    expect(withOptional(base, true).properties.every((p) => p.optional)).toBe(true);
    expect(withOptional(base, false).properties.some((p) => p.optional)).toBe(false);
  });

  it("inherited properties keep their first origin", () => {
    const once = inheritedFrom(base, "Base");
    expect(inheritedFrom(once, "Derived").properties.map((p) => p.inheritedFrom)).toEqual(["Base", "Base", "Base"]);
  });
});

describe("checkShape (what validators test as one object)", () => {
  const unconstrained = (t: TypeExpr) => t.kind === "keyword" && t.name === "unknown";

  it("lists a shared property once per member: each entry's check must hold", () => {
    const type: TypeExpr = { kind: "intersection", members: [ref("Error"), SPECIFIC] };
    expect(checkShape(type, lookup, { unconstrained })?.properties.map((p) => p.name)).toEqual(["code", "message", "data", "code", "data"]);
  });

  it("drops an index signature that constrains nothing and refuses one that does", () => {
    expect(checkShape(object([prop("a", STRING)], UNKNOWN), lookup, { unconstrained })).toEqual(object([prop("a", STRING)]));
    expect(checkShape(object([prop("a", STRING)], STRING), lookup, { unconstrained })).toBeUndefined();
  });
});

/** Lowers and analyses an in-memory schema. */
function lowered(text: string): { ir: SchemaIR; decl: (name: string) => InterfaceDecl; model: ReturnType<typeof analyze> } {
  const ir = lowerSchema(loadSchema({ text, fileName: "shape.ts" }), { numberType: "integer" });
  const decl = (name: string) => ir.declarations.find((d) => d.name === name) as InterfaceDecl;
  return { ir, decl, model: analyze(ir) };
}

describe("one rule in lower, analyze and the validators", () => {
  const schema = `
export interface Base { code: number; message: string; data?: unknown; }
export interface Coded { code: number; tag?: string; }
export interface Both extends Base, Coded { extra: string; }
export interface Narrowed extends Omit<Base, "data">, Pick<Coded, "tag"> { message: "fixed"; }
export type Inline = Base & { code: -2; data: { uri: string } };
export interface FromAlias extends Inline {}
export interface Loose { [key: string]: unknown; known: string; }
export type LooseAndMore = Loose & { more: number };
export interface Strict { [key: string]: string; }
export type StrictAndMore = Strict & { more: string };
export interface Tree { children: Tree[]; }
export type TreeAndName = Tree & { name: string };
export interface Empty extends Partial<object> {}
`;
  const { decl, model } = lowered(schema);

  it("lower: several bases merge by the intersection rule, inherited first, in heritage order", () => {
    // TypeScript requires a property two bases share to be identical: it stays one property of one type.
    const both = decl("Both").type;
    expect(summary(both)).toEqual([
      ["code", false, NUMBER],
      ["message", false, STRING],
      ["data", true, UNKNOWN],
      ["tag", true, STRING],
      ["extra", false, STRING],
    ]);
    expect(both.properties.map((p) => p.inheritedFrom)).toEqual(["Base", "Base", "Base", "Coded", undefined]);
  });

  it("lower: Omit/Pick bases, own members override in place", () => {
    expect(summary(decl("Narrowed").type)).toEqual([
      ["code", false, NUMBER],
      ["message", false, literal("fixed")],
      ["tag", true, STRING],
    ]);
  });

  it("lower: extending an alias of an intersection takes its merged view", () => {
    expect(summary(decl("FromAlias").type)?.map(([name, optional]) => [name, optional])).toEqual([
      ["code", false],
      ["message", false],
      ["data", false],
    ]);
    expect(decl("Empty").type).toEqual({ kind: "object", properties: [] });
  });

  it("lower: a utility type over something that is not an object shape is reported where it is used", () => {
    const text = 'export type S = string | number;\nexport interface X { a: Omit<S, "a">; }\n';
    let diagnostics: unknown;
    try {
      lowerSchema(loadSchema({ text, fileName: "shape.ts" }), { numberType: "integer" });
    } catch (error) {
      diagnostics = (error as { diagnostics: unknown }).diagnostics;
    }
    expect(diagnostics).toEqual([
      {
        code: "MCG201",
        message: "unsupported construct: S is not an object type and cannot be extended or used with Omit/Pick/Partial/Required",
        span: { file: "shape.ts", line: 2, column: 30 },
      },
    ]);
  });

  it("analyze: Model.shapeOf is the flat view, and the discriminant search reads each entry", () => {
    expect(model.shapeOf(ref("Inline"))?.properties.map((p) => p.name)).toEqual(["code", "message", "data", "code", "data"]);
    expect(model.shapeOf(ref("LooseAndMore"))?.indexSignature).toEqual(UNKNOWN);
    expect(model.shapeOf(STRING)).toBeUndefined();
    expect(model.shapeOf(ref("Base"))).toBe(decl("Base").type);
  });

  it("validators: an intersection is one object unless an index signature constrains values or a reference is recursive", () => {
    expect(model.checkShape(ref("LooseAndMore"))?.properties.map((p) => p.name)).toEqual(["known", "more"]);
    expect(model.checkShape(ref("LooseAndMore"), { anyIndexSignature: false })).toBeUndefined();
    expect(model.checkShape(ref("StrictAndMore"))).toBeUndefined();
    expect(model.checkShape(ref("TreeAndName"))).toBeUndefined();
    expect(model.checkShape(ref("TreeAndName"), { throughRecursive: true })?.properties.map((p) => p.name)).toEqual(["children", "name"]);
  });
});
