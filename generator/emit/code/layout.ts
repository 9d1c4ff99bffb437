/**
 * Lays out the nodes of `tree.ts` as Prettier 3 prints them (`babel-ts`, printWidth 140,
 * 2-space indentation, trailing commas "all", double quotes unless a string holds more `"` than
 * `'`), so that `validators.ts` needs no Prettier run. Each node becomes the document Prettier's
 * estree printer builds for the same syntax (groups, indents, lines, `ifBreak`, the hugged last
 * argument's `conditionalGroup`), and Prettier's own document printer (`prettier/doc`, a
 * 58 KB module without parsers) fits it to the width: the line fitting is Prettier's, only the
 * documents are built here.
 *
 * The documents follow Prettier's printers for: binary and logical chains
 * (`printBinaryishExpression`: flattening, the group of a lone operator, the indent of a chain,
 * no indent after `return`, bare inside `if (…)`), `return (…)` around a chain, call arguments
 * (one line, one per line with a trailing comma, or the last array argument hugged), arrays
 * (numbers filled), computed member access, `if`/`else`, `for`, `for…in`, `switch`, blocks,
 * `const` declarations (the "fluid" assignment layout) and function declarations. Prettier
 * flattens `a || (b || c)` to `a || b || c` (same for `&&`) and prints `a || (b && c)` with its
 * clarifying parentheses; the layout does the same.
 *
 * What is not covered returns `undefined` (an arrow function called in place, a number Prettier
 * would rewrite such as `1e+21`, a method call on an expression other than a name): the caller
 * then leaves the file to Prettier. test/formatting.test.ts runs Prettier over the laid-out files
 * of every upstream revision and fixture and allows no change.
 */
import { builders, printer } from "prettier/doc";
import { pointerToken } from "../names.js";
import { LayoutUndecided, literalText, PRINT_OPTIONS } from "../print-type.js";
import type { TypeNames } from "../symbols.js";
import { printFunction, printStatements } from "./print.js";
import { reads, type Expression, type FunctionDeclaration, type Statement } from "./tree.js";

type Doc = builders.Doc;

const { group, indent, line, softline, hardline, ifBreak, join, conditionalGroup, fill, indentIfBreak } = builders;

/** A binary or logical operation as Prettier's AST has it: one operator, two operands. */
interface Binaryish {
  readonly type: "binary" | "logical";
  readonly operator: string;
  readonly left: Expression;
  readonly right: Expression;
}

/** Binding strength, higher binds tighter (ECMAScript precedence levels). */
function precedenceOf(operator: string): number {
  switch (operator) {
    case "||":
      return 3;
    case "&&":
      return 4;
    case "===":
    case "!==":
      return 8;
    case "+":
      return 11;
    default:
      return 9;
  }
}

/** Operands of a logical chain, nested chains of the same operator spliced in (Prettier rebalances them so). */
function logicalOperands(e: Expression & { kind: "logical" }): Expression[] {
  return e.operands.flatMap((o) => (o.kind === "logical" && o.operator === e.operator ? logicalOperands(o) : [o]));
}

/** The expression as one binary operation (left-nested, as parsed), or undefined when it is not one. */
function binaryish(e: Expression): Binaryish | undefined {
  switch (e.kind) {
    case "binary":
      return { type: "binary", operator: e.operator, left: e.left, right: e.right };
    case "logical": {
      const operands = logicalOperands(e);
      if (operands.length < 2) return undefined;
      const left: Expression = operands.length === 2 ? operands[0]! : { kind: "logical", operator: e.operator, operands: operands.slice(0, -1) };
      return { type: "logical", operator: e.operator, left, right: operands[operands.length - 1]! };
    }
    case "path": {
      if (e.tokens.length === 0) return undefined;
      const parts = pathParts(e);
      const left = parts.slice(0, -1).reduce((l, r) => ({ kind: "binary", operator: "+", left: l, right: r }) as Expression);
      return { type: "binary", operator: "+", left, right: parts[parts.length - 1]! };
    }
    default:
      return undefined;
  }
}

/** A path's operands: the base, then the folded constant text and each run-time token. */
function pathParts(path: Expression & { kind: "path" }): Expression[] {
  const parts: Expression[] = [path.base];
  let text: string | undefined;
  const flush = () => {
    if (text !== undefined) parts.push({ kind: "literal", value: text });
    text = undefined;
  };
  for (const token of path.tokens) {
    const more = token.kind === "name" ? `/${pointerToken(token.name)}` : token.kind === "index" ? `/${token.index}` : "/";
    text = (text ?? "") + more;
    if (token.kind === "dynamic") {
      flush();
      parts.push(token.expression);
    }
  }
  flush();
  return parts;
}

function precedence(e: Expression): number {
  const b = binaryish(e);
  if (b) return precedenceOf(b.operator);
  switch (e.kind) {
    case "unary":
      return 14;
    case "literal":
      return typeof e.value === "number" && e.value < 0 ? 14 : 20;
    case "identifier":
    case "array":
    case "path":
      return 20;
    default:
      return 17;
  }
}

/** Prettier's `shouldFlatten` for the operators the tree has. */
function shouldFlatten(parent: string, child: string): boolean {
  if (precedenceOf(parent) !== precedenceOf(child)) return false;
  if ((parent === "===" || parent === "!==") && (child === "===" || child === "!==")) return false;
  return true;
}

/** Whether `child`, an operand of the binary operation `parent` on `side`, is printed in parentheses. */
function needsParens(child: Expression, parent: Binaryish, side: "left" | "right"): boolean {
  const c = binaryish(child);
  if (!c) return precedence(child) < precedenceOf(parent.operator);
  const pp = precedenceOf(parent.operator);
  const cp = precedenceOf(c.operator);
  if (pp > cp) return true;
  if (pp === cp && side === "right") return true;
  if (pp === cp && !shouldFlatten(parent.operator, c.operator)) return true;
  // Prettier's clarifying parentheses: `a || (b && c)`.
  return parent.type === "logical" && c.type === "logical" && parent.operator !== c.operator;
}

/** Where a binary operation sits, as far as Prettier's `printBinaryishExpression` cares. */
type Place = "if" | "return" | "for" | "declarator" | "unary" | "other";

function typeOfNode(e: Expression): string {
  return binaryish(e)?.type ?? e.kind;
}

/** `printBinaryishExpressions`: the flat list of parts of a chain. */
function chainParts(node: Binaryish, parentType: string, insideParens: boolean): Doc[] {
  let parts: Doc[];
  const left = binaryish(node.left);
  if (left && shouldFlatten(node.operator, left.operator) && !needsParens(node.left, node, "left")) {
    parts = chainParts(left, node.type, insideParens);
  } else {
    parts = [group(operandDoc(node.left, node, "left"))];
  }
  const shouldGroup =
    !(insideParens && node.type === "logical") && parentType !== node.type && typeOfNode(node.left) !== node.type && typeOfNode(node.right) !== node.type;
  const right: Doc = [node.operator, line, operandDoc(node.right, node, "right")];
  parts.push(" ", shouldGroup ? group(right) : right);
  return parts;
}

function operandDoc(child: Expression, parent: Binaryish, side: "left" | "right"): Doc {
  const inner = binaryish(child);
  const parens = needsParens(child, parent, side);
  const doc = inner ? binaryDoc(inner, "other", parent.type) : expressionDoc(child);
  return parens ? ["(", doc, ")"] : doc;
}

/** `printBinaryishExpression`: the chain grouped as its place needs. */
function binaryDoc(node: Binaryish, place: Place, parentType = "other"): Doc {
  const insideParens = place === "if";
  const parts = chainParts(node, parentType, insideParens);
  if (insideParens) return parts;
  if (place === "unary") return group([indent([softline, ...parts]), softline]);
  if (place === "return" || place === "for" || place === "declarator") return group(parts);
  return group([parts[0]!, indent(parts.slice(1))]);
}

/** An expression in a place where Prettier prints a binary operation as `place` says. */
function placed(e: Expression, place: Place): Doc {
  const b = binaryish(e);
  return b ? binaryDoc(b, place) : expressionDoc(e);
}

function literalDoc(value: string | number | boolean | null | undefined): string {
  if (value === undefined || value === null) return String(value);
  const text = literalText(value);
  if (text === undefined) throw new LayoutUndecided();
  return text;
}

/** Whether Prettier prints the array's numbers filled (`isConciselyPrintedArray`). */
function isConcise(e: Expression): boolean {
  return e.kind === "array" && e.elements.length > 1 && e.elements.every((x) => x.kind === "literal" && typeof x.value === "number");
}

function arrayDoc(elements: readonly Expression[]): Doc {
  if (elements.length === 0) return "[]";
  if (isConcise({ kind: "array", elements })) {
    const id = Symbol("array");
    const items: Doc[] = [];
    elements.forEach((x, i) => {
      const last = i === elements.length - 1;
      items.push([expressionDoc(x), last ? ifBreak(",", "", { groupId: id }) : ","]);
      if (!last) items.push(line);
    });
    return group(["[", indent([softline, fill(items)]), softline, "]"], { id });
  }
  const items: Doc[] = [];
  elements.forEach((x, i) => {
    items.push(group(expressionDoc(x)));
    if (i < elements.length - 1) items.push([",", line]);
  });
  return group(["[", indent([softline, ...items, ifBreak(",")]), softline, "]"]);
}

/** `printCallArguments`: all on one line, one per line, or the last array argument hugged. */
function argumentsDoc(args: readonly Expression[]): Doc {
  if (args.length === 0) return "()";
  const printed: Doc[] = args.map((a, i) => (i === args.length - 1 ? [expressionDoc(a)] : [expressionDoc(a), ",", line]));
  const allBrokenOut = () => group(["(", indent([line, ...printed, ","]), line, ")"], { shouldBreak: true });
  const last = args[args.length - 1]!;
  const penultimate = args.length > 1 ? args[args.length - 2] : undefined;
  const groupLast = last.kind === "array" && last.elements.length > 0 && penultimate?.kind !== "array" && !(args.length > 1 && isConcise(last));
  if (groupLast) {
    const expanded = expressionDoc(last);
    return conditionalGroup([
      ["(", ...printed.slice(0, -1), expanded, ")"],
      ["(", ...printed.slice(0, -1), group(expanded, { shouldBreak: true }), ")"],
      allBrokenOut(),
    ]);
  }
  return group(["(", indent([softline, ...printed]), ifBreak(","), softline, ")"]);
}

function expressionDoc(e: Expression): Doc {
  const b = binaryish(e);
  if (b) return binaryDoc(b, "other");
  switch (e.kind) {
    case "identifier":
      return e.name;
    case "literal":
      return literalDoc(e.value);
    case "call": {
      // A method of a name (`Number.isInteger(x)`, `PATTERN_1.test(v)`): Prettier's member chain of one call prints on one line.
      if (e.callee.kind === "identifier") return [e.callee.name, argumentsDoc(e.args)];
      if (e.callee.kind === "property" && e.callee.object.kind === "identifier") return group([e.callee.object.name, ".", e.callee.name, argumentsDoc(e.args)]);
      throw new LayoutUndecided();
    }
    case "new":
      if (e.callee.kind !== "identifier") throw new LayoutUndecided();
      return ["new ", e.callee.name, argumentsDoc(e.args)];
    case "unary": {
      const operator = e.operator === "typeof" ? "typeof " : "!";
      const inner = binaryish(e.operand);
      if (inner) return [operator, "(", binaryDoc(inner, "unary"), ")"];
      return [operator, precedence(e.operand) < 14 ? ["(", expressionDoc(e.operand), ")"] : expressionDoc(e.operand)];
    }
    case "element": {
      const object = memberObject(e.object);
      if (e.index.kind === "literal" && typeof e.index.value === "number") return [object, "[", expressionDoc(e.index), "]"];
      return [object, group(["[", indent([softline, expressionDoc(e.index)]), softline, "]"])];
    }
    case "property": {
      // A member of a name prints inline; of anything else Prettier may break before the dot.
      if (e.object.kind !== "identifier") throw new LayoutUndecided();
      return [e.object.name, ".", e.name];
    }
    case "array":
      return arrayDoc(e.elements);
    case "arrow-call":
    case "logical":
    case "binary":
    case "path":
      throw new LayoutUndecided();
  }
}

/** The object of a member access, in parentheses when it binds less tightly than a call. */
function memberObject(object: Expression): Doc {
  if (object.kind === "literal" && typeof object.value === "number") throw new LayoutUndecided();
  const inner = binaryish(object);
  if (inner) throw new LayoutUndecided();
  return precedence(object) < 17 ? ["(", expressionDoc(object), ")"] : expressionDoc(object);
}

// ---- statements --------------------------------------------------------------------------------

/** `!chain` or `!!chain` of `&&`/`||`: Prettier prints it in an `if (…)` without the indent around the test. */
function isNegatedLogical(e: Expression): boolean {
  if (e.kind !== "unary" || e.operator !== "!") return false;
  const operand = e.operand.kind === "unary" && e.operand.operator === "!" ? e.operand.operand : e.operand;
  return binaryish(operand)?.type === "logical";
}

/** `adjustClause`: a block after a space, another statement indented on the next line when it does not fit. */
function clause(body: Statement, forceSpace = false): Doc {
  const doc = statementDoc(body);
  return body.kind === "block" || forceSpace ? [" ", doc] : indent([line, doc]);
}

function blockDoc(body: readonly Statement[]): Doc {
  if (body.length === 0) return "{}";
  return ["{", indent([hardline, join(hardline, body.map(statementDoc))]), hardline, "}"];
}

function statementDoc(s: Statement): Doc {
  switch (s.kind) {
    case "if": {
      // A negated chain, `if (!(a || b))`, is not wrapped: its own parentheses break.
      const test = placed(s.test, "if");
      const opening = group(["if (", isNegatedLogical(s.test) ? test : group([indent([softline, test]), softline]), ")", clause(s.then)]);
      if (!s.otherwise) return opening;
      return [opening, s.then.kind === "block" ? " " : hardline, "else", group(clause(s.otherwise, s.otherwise.kind === "if"))];
    }
    case "for":
      return group([
        "for (",
        group([indent([softline, `let ${s.variable} = 0`, ";", line, placed(s.test, "for"), ";", line, `${s.variable}++`]), softline]),
        ")",
        clause(s.body),
      ]);
    case "for-in":
      return group(["for (const ", s.variable, " in ", expressionDoc(s.object), ")", clause(s.body)]);
    case "switch": {
      const cases: Doc[] = [];
      for (const c of s.cases) {
        const heads: Doc[] = c.labels.map((label) => ["case ", expressionDoc(label), ":"]);
        if (c.isDefault) heads.push("default:");
        heads.forEach((head, i) => {
          const last = i === heads.length - 1;
          if (!last || c.body.length === 0) cases.push(head);
          else if (c.body.length === 1 && c.body[0]!.kind === "block") cases.push([head, " ", statementDoc(c.body[0]!)]);
          else cases.push([head, indent([hardline, join(hardline, c.body.map(statementDoc))])]);
        });
      }
      return [
        group(["switch (", indent([softline, placed(s.discriminant, "if")]), softline, ")"]),
        " {",
        cases.length > 0 ? indent([hardline, join(hardline, cases)]) : "",
        hardline,
        "}",
      ];
    }
    case "return": {
      if (!s.value) return "return;";
      const b = binaryish(s.value);
      if (b) return ["return ", group([ifBreak("("), indent([softline, binaryDoc(b, "return")]), softline, ifBreak(")")]), ";"];
      return ["return ", expressionDoc(s.value), ";"];
    }
    case "expression":
      if (binaryish(s.expression)) throw new LayoutUndecided();
      return [expressionDoc(s.expression), ";"];
    case "block":
      return blockDoc(s.body);
    case "const": {
      // Prettier's "fluid" assignment layout.
      const id = Symbol("assignment");
      const value = placed(s.value, "declarator");
      return [
        group([group(["const ", s.name, s.type ? `: ${s.type}` : ""]), " =", group(indent(line), { id }), indentIfBreak(group(value), { groupId: id })]),
        ";",
      ];
    }
    case "break":
      return "break;";
    case "continue":
      return "continue;";
  }
}

function print(doc: Doc): string {
  return printer.printDocToString(doc, PRINT_OPTIONS).formatted;
}

/**
 * A function declaration laid out as Prettier prints it, or undefined when a construct in it is
 * not decided here. A parameter its body never reads is printed `_name` (as `printFunction`).
 */
export function layOutFunction(f: FunctionDeclaration): string | undefined {
  try {
    const params = f.params.map((p) => `${reads(f.body, p.name) ? p.name : `_${p.name}`}: ${p.type}`);
    const head = group(["(", indent([softline, join([",", line], params), ifBreak(",")]), softline, ")", ": ", f.returns]);
    return print(["function ", f.name, head, " ", blockDoc(f.body)]);
  } catch (error) {
    if (error instanceof LayoutUndecided) return undefined;
    throw error;
  }
}

/** Top-level statements laid out as Prettier prints them (one after the other, no blank line), or undefined. */
export function layOutStatements(body: readonly Statement[]): string | undefined {
  try {
    return print(join(hardline, body.map(statementDoc)));
  } catch (error) {
    if (error instanceof LayoutUndecided) return undefined;
    throw error;
  }
}

/**
 * The layout of one file's code: each function and statement laid out as Prettier prints it
 * when every construct in it is decided here, else printed plainly and {@link decided} turns
 * false (the file then goes through Prettier).
 */
export class Layout {
  decided = true;

  function(f: FunctionDeclaration): string {
    const text = layOutFunction(f);
    if (text !== undefined) return text;
    this.decided = false;
    return printFunction(f);
  }

  statements(body: readonly Statement[]): string[] {
    const text = layOutStatements(body);
    if (text !== undefined) return [text];
    this.decided = false;
    return printStatements(body);
  }
}


/** `name(params): returns {` as Prettier prints a function's head (parameters one per line when it does not fit). */
function functionHead(prefix: string, name: string, params: readonly string[], returns: string): Doc {
  return [prefix, name, group(["(", indent([softline, join([",", line], [...params]), ifBreak(",")]), softline, ")", ": ", returns]), " {"];
}

/**
 * `isX` and `validateX` of one type. `isX` calls `entry`: the type's check, or the entry's own
 * copy of it (see `entryCopy` in `validators.ts`). Each is its own function:
 * a wrapper shared by every type (a closure made by one runtime function) has one call site
 * for all checks, which the engine then neither inlines nor specialises. `validateX` answers
 * from the fast check when it accepts (a valid value costs no more than `isX`) and collects
 * the issues only otherwise; `isX` turns a throwing getter or Proxy trap into a "no", and
 * `validateX` leaves it to the collector, which reports it as an `exception` issue.
 *
 * Laid out as Prettier prints them: `validateX` answers `isX(value) ? valid(value) : collectIssues<T.X>(_collectX, value)`,
 * broken before `?` and `:` when it does not fit on one line.
 */
export function layOutPublicFunctions(n: TypeNames, entry: string, where: string, valid: string, collectIssues: string): string {
  const call = (callee: string, args: readonly string[]) => [callee, argumentsDoc(args.map((a) => ({ kind: "identifier", name: a }) as Expression))];
  const ternary = group([
    call(n.is, ["value"]),
    indent([line, "? ", builders.align(2, call(valid, ["value"])), line, ": ", builders.align(2, call(`${collectIssues}<${n.typeText}>`, [n.collect, "value"]))]),
  ]);
  return print([
    `/** \`${n.type}\` (${where}) */`,
    hardline,
    functionHead("export function ", n.is, ["value: unknown"], `value is ${n.typeText}`),
    indent([hardline, "try {", indent([hardline, "return ", call(entry, ["value", "0"]), ";"]), hardline, "} catch {", indent([hardline, "return false;"]), hardline, "}"]),
    hardline,
    "}",
    hardline,
    `/** \`${n.type}\` (${where}): every issue, or the value typed */`,
    hardline,
    functionHead("export function ", n.validate, ["value: unknown"], `ValidationResult<${n.typeText}>`),
    indent([hardline, "return ", ternary, ";"]),
    hardline,
    "}",
  ]);
}

/**
 * `export const XSchema: StandardSchemaV1<T.X> = standard(validateX);` as Prettier
 * prints it: a call of one short name (at most a quarter of the width) moves to the next line
 * ("break-after-operator"); a longer one breaks inside the parentheses when `= standard(` fits
 * on the first line, else on the next line ("fluid"). Undefined when even the text before `=`
 * does not fit (the type arguments would break).
 */
export function layOutStandardSchema(n: TypeNames, standard: string): string | undefined {
  const left = `export const ${n.standard}: StandardSchemaV1<${n.typeText}>`;
  if (left.length + " =".length > PRINT_OPTIONS.printWidth) return undefined;
  const right = [standard, argumentsDoc([{ kind: "identifier", name: n.validate }])];
  if (n.validate.length <= PRINT_OPTIONS.printWidth * 0.25) return print([group([group(left), " =", group(indent([line, right]))]), ";"]);
  const id = Symbol("assignment");
  return print([group([group(left), " =", group(indent(line), { id }), indentIfBreak(group(right), { groupId: id })]), ";"]);
}
