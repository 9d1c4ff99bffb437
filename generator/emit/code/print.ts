/**
 * Prints the nodes of `tree.ts` as TypeScript source, each once. Parentheses come from
 * precedence (ECMAScript's operator table): an operand is wrapped only when its operator binds
 * less tightly than its place needs, and, as Prettier does for readability, a `&&` chain inside
 * `||` (or the reverse) is always wrapped. The layout is plain (two-space indentation, one
 * statement a line): `layout.ts` prints the same nodes as Prettier lays them out, and falls back
 * to this printer (the file then goes through Prettier) for what it does not decide.
 */
import { pointerToken } from "../names.js";
import { reads, type Expression, type FunctionDeclaration, type PathExpression, type Statement } from "./tree.js";

/** Binding strength, higher binds tighter (ECMAScript precedence levels). */
const PRECEDENCE = {
  arrow: 2,
  "||": 3,
  "&&": 4,
  equality: 8,
  relational: 9,
  additive: 11,
  unary: 14,
  call: 17,
  primary: 20,
} as const;

function precedence(e: Expression): number {
  switch (e.kind) {
    case "identifier":
    case "literal":
    case "array":
      return PRECEDENCE.primary;
    case "call":
    case "new":
    case "element":
    case "property":
    case "arrow-call":
      return PRECEDENCE.call;
    case "unary":
      return PRECEDENCE.unary;
    case "logical":
      return PRECEDENCE[e.operator];
    case "binary":
      return e.operator === "+"
        ? PRECEDENCE.additive
        : e.operator === "===" || e.operator === "!=="
          ? PRECEDENCE.equality
          : PRECEDENCE.relational;
    case "path":
      return e.tokens.length === 0 ? precedence(e.base) : PRECEDENCE.additive;
  }
}

/** `e` printed where an operand binding at least `min` is needed: in parentheses when it binds less. */
function operand(e: Expression, min: number): string {
  const text = printExpression(e);
  return precedence(e) < min ? `(${text})` : text;
}

/**
 * What {@link printExpression} throws for a `>` comparison whose right operand prints in
 * parentheses (or as `(1).length`): after a `<`, TypeScript takes `> (` for the end of type
 * arguments, so the text would parse back as a call. No emitter builds one; write `b < a`.
 */
export const AMBIGUOUS_GREATER_THAN = "printer: a > comparison whose right operand starts with ( reads as type arguments after a < in TypeScript; write it as < with the operands swapped";

/** An expression as source text. @throws Error {@link AMBIGUOUS_GREATER_THAN} */
export function printExpression(e: Expression): string {
  switch (e.kind) {
    case "identifier":
      return e.name;
    case "literal":
      return e.value === undefined ? "undefined" : JSON.stringify(e.value);
    case "call":
      return `${operand(e.callee, PRECEDENCE.call)}(${e.args.map((a) => operand(a, PRECEDENCE.arrow)).join(", ")})`;
    case "binary": {
      const p = precedence(e);
      // Left-associative: the right operand needs parentheses at equal strength.
      const right = operand(e.right, p + 1);
      // TypeScript reads `a < b > (c)` (and `a < (b > (c))`) as a call of `a` with type arguments: a `>`
      // followed by `(` is refused rather than printed as something that parses back differently.
      if (e.operator === ">" && right.startsWith("(")) throw new Error(AMBIGUOUS_GREATER_THAN);
      return `${operand(e.left, p)} ${e.operator} ${right}`;
    }
    case "logical": {
      const p = PRECEDENCE[e.operator];
      return e.operands
        .map((o, i) => (o.kind === "logical" && o.operator !== e.operator ? `(${printExpression(o)})` : operand(o, i === 0 ? p : p + 1)))
        .join(` ${e.operator} `);
    }
    case "unary":
      return `${e.operator === "typeof" ? "typeof " : "!"}${operand(e.operand, PRECEDENCE.unary)}`;
    case "element":
      return `${operand(e.object, PRECEDENCE.call)}[${printExpression(e.index)}]`;
    case "property":
      // `1.length` would read as the number `1.` followed by a name.
      if (e.object.kind === "literal" && typeof e.object.value === "number") return `(${printExpression(e.object)}).${e.name}`;
      return `${operand(e.object, PRECEDENCE.call)}.${e.name}`;
    case "array":
      return `[${e.elements.map((x) => operand(x, PRECEDENCE.arrow)).join(", ")}]`;
    case "arrow-call":
      return `(() => ${operand(e.body, PRECEDENCE.arrow)})()`;
    case "new":
      // The callee of `new` holds no call: `new (f())()` and `new f()()` differ, as do `new (f().g)()` and `new f().g()`.
      return `new ${isNameChain(e.callee) ? printExpression(e.callee) : `(${printExpression(e.callee)})`}(${e.args
        .map((a) => operand(a, PRECEDENCE.arrow))
        .join(", ")})`;
    case "path":
      return printPath(e);
  }
}

/** A name or a chain of property reads on a name (`Set`, `globalThis.URL`): a callee `new` may take as it is. */
function isNameChain(e: Expression): boolean {
  return e.kind === "identifier" || (e.kind === "property" && isNameChain(e.object));
}

/**
 * A path as one string concatenation, constant text folded: the base, then `"/a/0/"` for the
 * tokens known when generating, then each run-time token (`p + "/a/" + i0 + "/b"`).
 */
function printPath(path: PathExpression): string {
  const parts: (string | { readonly code: string })[] = [{ code: operand(path.base, PRECEDENCE.additive) }];
  const text = (more: string) => {
    const last = parts[parts.length - 1]!;
    if (typeof last === "string") parts[parts.length - 1] = last + more;
    else parts.push(more);
  };
  for (const token of path.tokens) {
    switch (token.kind) {
      case "name":
        text(`/${pointerToken(token.name)}`);
        break;
      case "index":
        text(`/${token.index}`);
        break;
      case "dynamic":
        text("/");
        parts.push({ code: operand(token.expression, PRECEDENCE.additive + 1) });
        break;
    }
  }
  return parts.map((part) => (typeof part === "string" ? JSON.stringify(part) : part.code)).join(" + ");
}

/** Whether a statement prints on one line (an expression, or an `if` without `else` around one): it needs no braces as a branch. */
export function isOneLine(s: Statement): boolean {
  if (s.kind === "expression" || s.kind === "return" || s.kind === "break" || s.kind === "continue") return true;
  return s.kind === "if" && s.otherwise === undefined && isOneLine(s.then) && s.then.kind !== "if";
}

/** Statements as source lines (two-space indentation below `indent`). */
export function printStatements(body: readonly Statement[], indent = ""): string[] {
  return body.flatMap((s) => printStatement(s, indent));
}

function printStatement(s: Statement, indent: string): string[] {
  switch (s.kind) {
    case "if": {
      const lines = branch(`${indent}if (${printExpression(s.test)})`, s.then, indent);
      if (s.otherwise) {
        const otherwise = s.otherwise.kind === "if" ? printStatement(s.otherwise, indent) : undefined;
        if (otherwise) lines.push(`${indent}else ${otherwise[0]!.slice(indent.length)}`, ...otherwise.slice(1));
        else lines.push(...branch(`${indent}else`, s.otherwise, indent));
      }
      return lines;
    }
    case "for":
      return branch(`${indent}for (let ${s.variable} = 0; ${printExpression(s.test)}; ${s.variable}++)`, s.body, indent);
    case "for-in":
      return branch(`${indent}for (const ${s.variable} in ${printExpression(s.object)})`, s.body, indent);
    case "switch": {
      const lines = [`${indent}switch (${printExpression(s.discriminant)}) {`];
      for (const c of s.cases) {
        for (const label of c.labels) lines.push(`${indent}  case ${printExpression(label)}:`);
        if (c.isDefault) lines.push(`${indent}  default:`);
        lines.push(...printStatements(c.body, `${indent}    `));
      }
      lines.push(`${indent}}`);
      return lines;
    }
    case "return":
      return [s.value ? `${indent}return ${printExpression(s.value)};` : `${indent}return;`];
    case "expression":
      return [`${indent}${printExpression(s.expression)};`];
    case "block":
      return [`${indent}{`, ...printStatements(s.body, `${indent}  `), `${indent}}`];
    case "const":
      return [`${indent}const ${s.name}${s.type ? `: ${s.type}` : ""} = ${printExpression(s.value)};`];
    case "break":
      return [`${indent}break;`];
    case "continue":
      return [`${indent}continue;`];
  }
}

/** `head` and a branch: `head {` … `}` for a block, `head stmt` on one line, else the statement on the lines below. */
function branch(head: string, body: Statement, indent: string): string[] {
  if (body.kind === "block") return [`${head} {`, ...printStatements(body.body, `${indent}  `), `${indent}}`];
  const inner = printStatement(body, `${indent}  `);
  if (inner.length === 1) return [`${head} ${inner[0]!.trimStart()}`];
  return [head, ...inner];
}

/**
 * A function declaration. A parameter its body never reads (found by walking the body) is
 * printed `_name`, so that a user's `noUnusedParameters` accepts the function.
 */
export function printFunction(f: FunctionDeclaration): string {
  const params = f.params.map((p) => `${reads(f.body, p.name) ? p.name : `_${p.name}`}: ${p.type}`);
  return [`function ${f.name}(${params.join(", ")}): ${f.returns} {`, ...printStatements(f.body, "  "), "}"].join("\n");
}
