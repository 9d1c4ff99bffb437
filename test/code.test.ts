/**
 * The expression tree of emitted code (`generator/emit/code/`): the printer's parentheses
 * (precedence, checked against TypeScript's own parser on random trees), JSON Pointer path
 * folding, parameters a body never reads, long chains, and the recording of runtime helpers.
 */
import fc from "fast-check";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { layOutFunction, layOutStatements } from "../generator/emit/code/layout.js";
import { AMBIGUOUS_GREATER_THAN, printExpression, printFunction, printStatements } from "../generator/emit/code/print.js";
import { formatModule } from "../generator/emit/index.js";
import {
  binary,
  block,
  call,
  chain,
  element,
  expressionStatement,
  FALSE,
  id,
  ifStatement,
  lit,
  LONG,
  not,
  pathAppend,
  property,
  returnStatement,
  RuntimeUses,
  TRUE,
  typeOf,
  type BinaryOperator,
  type Expression,
  type PathExpression,
  type Statement,
} from "../generator/emit/code/tree.js";
import { runtimeSource } from "../generator/emit/runtime.js";

const v = id("v");
const p = id("p");

describe("printer: precedence", () => {
  it.each<[string, Expression, string]>([
    ["&& inside ||", chain([chain([v, p], "&&"), id("x")], "||"), "(v && p) || x"],
    ["|| inside &&", chain([chain([v, p], "||"), id("x")], "&&"), "(v || p) && x"],
    ["comparison inside &&: no parentheses", chain([binary(v, "===", lit(1)), binary(p, "!==", lit("a"))], "&&"), 'v === 1 && p !== "a"'],
    ["&& as a later operand of &&", chain([v, chain([p, id("x")], "&&")], "&&"), "v && (p && x)"],
    ["! of a call", not(call(id("f"), v)), "!f(v)"],
    ["! of a chain", not(chain([v, p], "&&")), "!(v && p)"],
    ["! of a comparison", not(binary(v, "<", lit(2))), "!(v < 2)"],
    ["true operands of && left out", chain([TRUE, v, TRUE, p], "&&"), "v && p"],
    ["false operands of || left out", chain([FALSE, v, FALSE], "||"), "v"],
    ["&& of true alone", chain([TRUE, TRUE], "&&"), "true"],
    ["|| of false alone", chain([FALSE], "||"), "false"],
    ["false kept in &&", chain([v, FALSE], "&&"), "v && false"],
    ["operands after a false of && left out", chain([v, FALSE, p, TRUE], "&&"), "v && false"],
    ["operands after a true of || left out", chain([TRUE, v, FALSE, p], "||"), "true"],
    ["! of a boolean literal", not(chain([TRUE, TRUE], "&&")), "false"],
    ["typeof in a comparison", binary(typeOf(v), "===", lit("string")), 'typeof v === "string"'],
    ["+ on the right of +", binary(v, "+", binary(p, "+", lit(1))), "v + (p + 1)"],
    ["+ on the left of +", binary(binary(v, "+", p), "+", lit(1)), "v + p + 1"],
    ["comparison of a sum", binary(binary(id("d"), "+", lit(1)), ">", id("MAX_DEPTH")), "d + 1 > MAX_DEPTH"],
    ["member of a call", call(property(id("PATTERN_1"), "test"), element(v, lit("a"))), 'PATTERN_1.test(v["a"])'],
    ["new with a plain callee", { kind: "new", callee: id("RegExp"), args: [lit("^a$"), lit("u")] }, 'new RegExp("^a$", "u")'],
    ["new with a call as callee", { kind: "new", callee: call(id("f")), args: [] }, "new (f())()"],
    ["new with a property of a call as callee", { kind: "new", callee: property(call(id("f")), "g"), args: [] }, "new (f().g)()"],
    ["new with a property of a name as callee", { kind: "new", callee: property(id("globalThis"), "Set"), args: [] }, "new globalThis.Set()"],
    [
      "literals",
      call(id("f"), lit(undefined), lit(null), lit(-1), lit('a"b'), TRUE, FALSE),
      'f(undefined, null, -1, "a\\"b", true, false)',
    ],
  ])("%s", (_, e, text) => expect(printExpression(e)).toBe(text));

  const RELATIONAL: ReadonlySet<BinaryOperator> = new Set(["<", ">", "<=", ">="]);
  /** A random expression over the operators the emitter uses. */
  const expression: fc.Arbitrary<Expression> = fc.letrec<{ e: Expression }>((tie) => ({
    e: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.constantFrom<Expression>(v, p, lit(1), lit("s"), TRUE),
      fc
        .tuple(tie("e"), fc.constantFrom<BinaryOperator>("===", "!==", "<", ">", "<=", ">=", "+"), tie("e"))
        // `a < b > (c)` is precedence-correct JavaScript that TypeScript reads as a call with a
        // type argument (`a<b>(c)`); the emitter never compares a comparison, so leave it out.
        .filter(([l, op]) => !(RELATIONAL.has(op) && l.kind === "binary" && RELATIONAL.has(l.operator)))
        .map(([l, op, r]) => binary(l, op, r)),
      fc
        .tuple(fc.array(tie("e"), { minLength: 2, maxLength: 4 }), fc.constantFrom<"&&" | "||">("&&", "||"))
        .map(([es, op]) => chain(es, op)),
      tie("e").map(not),
      tie("e").map(typeOf),
      fc.array(tie("e"), { maxLength: 2 }).map((args) => call(id("f"), ...args)),
      tie("e").map((i) => element(v, i)),
      tie("e").map((o) => property(o, "length")),
    ),
  })).e;

  /** The tree as nested binary operations (an n-ary chain associates to the left, as JavaScript's). */
  function shape(e: Expression): unknown {
    switch (e.kind) {
      case "identifier":
        return e.name;
      case "literal":
        return JSON.stringify(e.value);
      case "binary":
        return [e.operator, shape(e.left), shape(e.right)];
      case "logical":
        return e.operands.map(shape).reduce((l, r) => [e.operator, l, r]);
      case "unary":
        return [e.operator, shape(e.operand)];
      case "call":
        return ["call", shape(e.callee), ...e.args.map(shape)];
      case "element":
        return ["[]", shape(e.object), shape(e.index)];
      case "property":
        return [".", shape(e.object), e.name];
      default:
        throw new Error(`no shape for ${e.kind}`);
    }
  }

  /**
   * Whether `e` holds a `>` whose right operand is written starting with `(`: the case the printer
   * refuses. The operand is parenthesised when it binds no tighter than `>` (a comparison, `&&`,
   * `||`), or starts with `(` printed alone (`(1).length`).
   */
  function holdsAmbiguousGreater(e: Expression): boolean {
    const children = (x: Expression): Expression[] => {
      switch (x.kind) {
        case "binary":
          return [x.left, x.right];
        case "logical":
          return [...x.operands];
        case "unary":
          return [x.operand];
        case "call":
          return [x.callee, ...x.args];
        case "element":
          return [x.object, x.index];
        case "property":
          return [x.object];
        default:
          return [];
      }
    };
    const startsWithParen = (r: Expression): boolean => {
      if (r.kind === "logical" || (r.kind === "binary" && r.operator !== "+")) return true;
      try {
        return printExpression(r).startsWith("(");
      } catch {
        return false;
      }
    };
    return (e.kind === "binary" && e.operator === ">" && startsWithParen(e.right)) || children(e).some(holdsAmbiguousGreater);
  }

  /** What TypeScript parses from the printed text, in the same form (parentheses dropped). */
  function parsed(node: ts.Expression): unknown {
    if (ts.isParenthesizedExpression(node)) return parsed(node.expression);
    if (ts.isIdentifier(node)) return node.text;
    if (ts.isNumericLiteral(node)) return node.text;
    if (ts.isStringLiteral(node)) return JSON.stringify(node.text);
    if (node.kind === ts.SyntaxKind.TrueKeyword) return "true";
    if (node.kind === ts.SyntaxKind.FalseKeyword) return "false";
    if (ts.isBinaryExpression(node)) return [ts.tokenToString(node.operatorToken.kind), parsed(node.left), parsed(node.right)];
    if (ts.isPrefixUnaryExpression(node)) return ["!", parsed(node.operand)];
    if (ts.isTypeOfExpression(node)) return ["typeof", parsed(node.expression)];
    if (ts.isCallExpression(node)) return ["call", parsed(node.expression), ...node.arguments.map(parsed)];
    if (ts.isElementAccessExpression(node)) return ["[]", parsed(node.expression), parsed(node.argumentExpression)];
    if (ts.isPropertyAccessExpression(node)) return [".", parsed(node.expression), node.name.text];
    throw new Error(`unexpected ${ts.SyntaxKind[node.kind]}`);
  }

  it("refuses a > whose right operand starts with (, which TypeScript reads as type arguments after a < (fast-check seed -616581546)", () => {
    const v = { kind: "identifier", name: "v" } as const;
    const oneLength = { kind: "property", object: { kind: "literal", value: 1 }, name: "length" } as const;
    const greater = { kind: "binary", operator: ">", left: v, right: oneLength } as const;
    expect(() => printExpression({ kind: "binary", operator: "<", left: v, right: greater })).toThrow(AMBIGUOUS_GREATER_THAN);
    expect(() => printExpression(greater)).toThrow(AMBIGUOUS_GREATER_THAN);
    // Written the other way round it prints, and TypeScript reads it back as written.
    expect(printExpression({ kind: "binary", operator: "<", left: v, right: { kind: "binary", operator: "<", left: oneLength, right: v } })).toBe("v < ((1).length < v)");
    expect(printExpression({ kind: "binary", operator: ">", left: v, right: { kind: "call", callee: v, args: [] } })).toBe("v > v()");
  });

  it("prints what TypeScript parses back as the same tree", () => {
    fc.assert(
      fc.property(expression, (e) => {
        let text: string;
        try {
          text = printExpression(e);
        } catch (error) {
          // Refused only for what TypeScript would read as type arguments: a > comparison whose right operand starts with (.
          expect(String(error)).toBe(`Error: ${AMBIGUOUS_GREATER_THAN}`);
          expect(holdsAmbiguousGreater(e)).toBe(true);
          return;
        }
        const file = ts.createSourceFile("x.ts", `${text};`, ts.ScriptTarget.ES2022, true);
        const statement = file.statements[0]!;
        expect(ts.isExpressionStatement(statement)).toBe(true);
        expect(parsed((statement as ts.ExpressionStatement).expression)).toEqual(shape(e));
      }),
      { numRuns: 500 },
    );
  });
});

describe("printer: JSON Pointer paths", () => {
  const path = (...tokens: PathExpression["tokens"]): PathExpression =>
    tokens.reduce<PathExpression>((e, t) => pathAppend(e, t), { kind: "path", base: p, tokens: [] });
  const i0 = id("i0");
  const key = call(id("escapeToken"), id("k0"));
  it.each<[string, PathExpression, string]>([
    ["no token", path(), "p"],
    ["constant names fold", path({ kind: "name", name: "a" }, { kind: "name", name: "b" }), 'p + "/a/b"'],
    ["names are escaped (RFC 6901)", path({ kind: "name", name: "a/b~c" }), 'p + "/a~1b~0c"'],
    [
      "a tuple position folds with names",
      path({ kind: "name", name: "a" }, { kind: "index", index: 0 }, { kind: "name", name: "b" }),
      'p + "/a/0/b"',
    ],
    ["a run-time index", path({ kind: "name", name: "a" }, { kind: "dynamic", expression: i0 }), 'p + "/a/" + i0'],
    [
      "text after a run-time token",
      path({ kind: "dynamic", expression: key }, { kind: "name", name: "b" }),
      'p + "/" + escapeToken(k0) + "/b"',
    ],
    [
      "two run-time tokens",
      path({ kind: "dynamic", expression: i0 }, { kind: "dynamic", expression: key }),
      'p + "/" + i0 + "/" + escapeToken(k0)',
    ],
  ])("%s", (_, e, text) => expect(printExpression(e)).toBe(text));

  it("appending to a plain expression starts a path at it", () => {
    expect(pathAppend(p, { kind: "name", name: "x" })).toEqual({ kind: "path", base: p, tokens: [{ kind: "name", name: "x" }] });
  });

  it("a path as an argument or operand needs no parentheses, and a sum as a run-time token does", () => {
    const e = path({ kind: "name", name: "a" }, { kind: "dynamic", expression: binary(i0, "+", lit(1)) });
    expect(printExpression(call(id("f"), e))).toBe('f(p + "/a/" + (i0 + 1))');
  });
});

describe("printer: unused parameters", () => {
  const params = [
    { name: "v", type: "any" },
    { name: "d", type: "number" },
  ];
  it("an if whose test is true is its then alone", () => {
    const body = [ifStatement(not(FALSE), returnStatement(v), returnStatement(p))];
    expect(printFunction({ name: "f", params, returns: "boolean", body })).toBe("function f(v: any, _d: number): boolean {\n  return v;\n}");
  });
  it("a parameter the body never reads is printed _name", () => {
    const text = printFunction({ name: "f", params, returns: "boolean", body: [returnStatement(binary(v, "===", lit(1)))] });
    expect(text).toBe("function f(v: any, _d: number): boolean {\n  return v === 1;\n}");
  });
  it("strings and property names that spell a parameter are not reads", () => {
    const body = [returnStatement(chain([binary(lit("d"), "===", property(v, "d")), TRUE], "&&"))];
    expect(printFunction({ name: "f", params, returns: "boolean", body })).toMatch(/^function f\(v: any, _d: number\)/);
  });
  it("reads inside nested statements, paths and loops count", () => {
    const body = [
      ifStatement(not(v), returnStatement(FALSE)),
      {
        kind: "for" as const,
        variable: "i",
        test: binary(id("i"), "<", property(v, "length")),
        body: block([expressionStatement(call(id("g"), pathAppend(p, { kind: "dynamic", expression: id("d") })))]),
      },
    ];
    expect(printFunction({ name: "f", params: [...params, { name: "p", type: "string" }], returns: "void", body })).toMatch(
      /^function f\(v: any, d: number, p: string\)/,
    );
  });
});

describe("printer: statements and chains", () => {
  it("a constant with a type annotation", () => {
    const s = {
      kind: "const" as const,
      name: "LITERALS_1",
      type: "ReadonlySet<unknown>",
      value: { kind: "new" as const, callee: id("Set"), args: [{ kind: "array" as const, elements: [lit("a"), lit(1)] }] },
    };
    expect(printStatements([s])).toEqual(['const LITERALS_1: ReadonlySet<unknown> = new Set(["a", 1]);']);
  });

  it("an if without braces around one line, braces around a block, else if chains", () => {
    const s = ifStatement(
      v,
      expressionStatement(call(id("a"))),
      ifStatement(p, block([expressionStatement(call(id("b"))), expressionStatement(call(id("c")))])),
    );
    expect(printStatements([s])).toEqual(["if (v) a();", "else if (p) {", "  b();", "  c();", "}"]);
  });

  it("an else after a then that ends in an if without one: the then goes in braces (the else stays with the outer if)", () => {
    const inner = ifStatement(p, expressionStatement(call(id("x"))));
    const loop: Statement = { kind: "for", variable: "i", test: binary(id("i"), "<", id("n")), body: inner };
    for (const then of [inner, loop]) {
      const text = printStatements([ifStatement(v, then, expressionStatement(call(id("y"))))]).join("\n");
      const file = ts.createSourceFile("x.ts", text, ts.ScriptTarget.ES2022, true);
      const outer = file.statements[0]!;
      expect(ts.isIfStatement(outer) && outer.elseStatement !== undefined, text).toBe(true);
    }
    // No braces where no if is left open.
    expect(printStatements([ifStatement(v, ifStatement(p, expressionStatement(call(id("x"))), expressionStatement(call(id("z")))), expressionStatement(call(id("y"))))])).toEqual([
      "if (v)",
      "  if (p) x();",
      "  else z();",
      "else y();",
    ]);
  });

  it(`past ${LONG} conditions a chain is split into arrow functions called in place`, () => {
    const operands = Array.from({ length: LONG + 2 }, (_, i) => id(`c${i}`));
    const e = chain(operands, "&&");
    expect(e.kind).toBe("logical");
    const text = printExpression(e);
    expect(text.startsWith("(() => c0 && c1")).toBe(true);
    expect(text.endsWith(`)() && (() => c${LONG} && c${LONG + 1})()`)).toBe(true);
    expect(chain([v], "||")).toBe(v);
  });
});

describe("runtime helpers recorded as referenced", () => {
  it("records each reference and the runtime copier keeps what they need", () => {
    const uses = new RuntimeUses();
    expect(printExpression(call(uses.ref("isPlainObject"), v))).toBe("isPlainObject(v)");
    uses.ref("expected");
    expect([...uses.roots]).toEqual(["expected", "isPlainObject"]);
    const source = runtimeSource(uses.roots);
    expect(source).toContain("function isPlainObject(");
    expect(source).toContain("function expected(");
    expect(source).not.toContain("function anyOf(");
  });

  it("a root the runtime does not declare is an error", () => {
    expect(() => runtimeSource(new Set(["noSuchHelper"]))).toThrow(/no declaration noSuchHelper/);
  });
});

describe("layout: Prettier's layout printed without Prettier", () => {
  /** Names long enough that chains, calls and conditions pass 140 columns and break. */
  const leaf = fc.constantFrom<Expression>(
    v,
    id("valueOfSomeLongPropertyName"),
    element(v, lit("io.modelcontextprotocol/some-long-key")),
    element(id("anotherLongIdentifierForTheValue"), id("k0")),
    lit("a string literal that takes some room"),
    lit('say "hi"'),
    lit(-3),
    lit(0.5),
    lit(undefined),
    pathAppend(p, { kind: "name", name: "a/b~c" }),
    pathAppend(pathAppend(p, { kind: "dynamic", expression: id("i0") }), { kind: "name", name: "items" }),
    call(property(id("Number"), "isInteger"), v),
  );
  const expression: fc.Arbitrary<Expression> = fc.letrec<{ e: Expression }>((tie) => ({
    e: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      leaf,
      fc
        .tuple(tie("e"), fc.constantFrom<BinaryOperator>("===", "!==", "<", ">=", "+"), tie("e"))
        .map(([l, op, r]) => binary(l, op, r)),
      fc
        .tuple(fc.array(tie("e"), { minLength: 2, maxLength: 6 }), fc.constantFrom<"&&" | "||">("&&", "||"))
        .map(([es, op]) => chain(es, op)),
      tie("e").map(not),
      tie("e").map(typeOf),
      fc
        .tuple(fc.constantFrom("f", "_collectSomeLongTypeName$withAPlaceInIt", "anyOf"), fc.array(tie("e"), { maxLength: 7 }))
        .map(([name, args]) => call(id(name), ...args)),
      fc.array(tie("e"), { maxLength: 6 }).map((elements) => call(id("g"), lit("message"), { kind: "array", elements })),
    ),
  })).e;
  const statement: fc.Arbitrary<Statement> = fc.letrec<{ s: Statement }>((tie) => ({
    s: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      expression.map(returnStatement),
      expression.map((e) => expressionStatement(call(id("report"), e))),
      fc.tuple(expression, tie("s")).map(([t, s]) => ifStatement(t, s)),
      fc.tuple(expression, fc.array(tie("s"), { minLength: 1, maxLength: 3 }), fc.option(tie("s"), { nil: undefined })).map(([t, b, o]) => ifStatement(t, block(b), o)),
      fc.tuple(expression, tie("s")).map(([t, s]): Statement => ({ kind: "for", variable: "i", test: t, body: s })),
      fc.tuple(expression, tie("s")).map(([o, s]): Statement => ({ kind: "for-in", variable: "k", object: o, body: s })),
      fc.tuple(expression, fc.array(tie("s"), { maxLength: 2 })).map(
        ([d, body]): Statement => ({ kind: "switch", discriminant: d, cases: [{ labels: [lit("a"), lit("b")], body }, { labels: [], isDefault: true, body: [{ kind: "break" }] }] }),
      ),
    ),
  })).s;

  it("a laid-out function is what Prettier prints for it (or undecided)", async () => {
    let decided = 0;
    let long = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(statement, { minLength: 1, maxLength: 4 }), async (body) => {
        const f = { name: "_isSomeTypeName", params: [{ name: "v", type: "any" }, { name: "d", type: "number" }], returns: "boolean", body };
        const laidOut = layOutFunction(f);
        if (laidOut === undefined) return;
        decided++;
        // Those whose plain print has a line past 140 columns test the breaking.
        if (printFunction(f).split("\n").some((line) => line.length > 140)) long++;
        expect(`${laidOut}\n`).toBe(await formatModule(printFunction(f)));
      }),
      { numRuns: 300 },
    );
    expect(decided).toBeGreaterThan(100);
    expect(long).toBeGreaterThan(50);
  });

  it("module constants: a hugged literal set, a long pattern broken inside its parentheses", async () => {
    const set: Statement = {
      kind: "const",
      name: "LITERALS_1",
      type: "ReadonlySet<unknown>",
      value: { kind: "new", callee: id("Set"), args: [{ kind: "array", elements: Array.from({ length: 12 }, (_, i) => lit(`literal-value-${i}`)) }] },
    };
    const pattern: Statement = { kind: "const", name: "PATTERN_1", value: { kind: "new", callee: id("RegExp"), args: [lit(`^(?:${"[a-z]+-".repeat(20)})$`), lit("u")] } };
    for (const s of [set, pattern]) {
      const laidOut = layOutStatements([s]);
      expect(laidOut).toBeDefined();
      expect(laidOut!.split("\n").length).toBeGreaterThan(1);
      expect(`${laidOut}\n`).toBe(await formatModule(printStatements([s]).join("\n")));
    }
  });
});
