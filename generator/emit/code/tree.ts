/**
 * A small expression tree for emitted code: the validators emitter builds these nodes and
 * `print.ts` turns them into TypeScript text once, with the parentheses precedence needs.
 *
 * Why a node set of our own and not TypeScript's `factory` + `Printer`: the emitted code uses
 * a dozen constructs (calls, `&&`/`||` chains, comparisons, `!`, element and property access,
 * JSON Pointer paths, `if`/`for`/`for…in`/`switch`), and two of them are ours: a JSON Pointer
 * path is one node (a base and tokens; constant tokens fold when printed), and a chain of
 * conditions is n-ary (split into arrow functions past {@link LONG} terms). `ts.factory` would
 * need a synthesized `SourceFile`, flag juggling for parentheses and a hand-made fold of string
 * concatenations, and TypeScript's printer would print the same text Prettier prints anyway.
 *
 * Nodes are plain readonly objects with a `kind` tag (as the IR). References to runtime
 * helpers are made through {@link RuntimeUses.ref}, which records the name: the runtime copied
 * into `validators.ts` is the closure of those recorded roots, not of a scan of printed text.
 */

/** A binary operator the emitted code uses. */
export type BinaryOperator = "===" | "!==" | "<" | ">" | "<=" | ">=" | "+";

export type Expression =
  | { readonly kind: "identifier"; readonly name: string }
  | { readonly kind: "literal"; readonly value: string | number | boolean | null | undefined }
  | { readonly kind: "call"; readonly callee: Expression; readonly args: readonly Expression[] }
  | { readonly kind: "binary"; readonly operator: BinaryOperator; readonly left: Expression; readonly right: Expression }
  /** `a && b && c`: n-ary, operands in order (at most {@link LONG}; see {@link chain}). */
  | { readonly kind: "logical"; readonly operator: "&&" | "||"; readonly operands: readonly Expression[] }
  /** `!operand`, `typeof operand` */
  | { readonly kind: "unary"; readonly operator: "!" | "typeof"; readonly operand: Expression }
  /** `object[index]` */
  | { readonly kind: "element"; readonly object: Expression; readonly index: Expression }
  /** `object.name` (a name of a global or a built-in method: `Number.isFinite`, `v.length`) */
  | { readonly kind: "property"; readonly object: Expression; readonly name: string }
  | { readonly kind: "array"; readonly elements: readonly Expression[] }
  /** `new callee(args)` */
  | { readonly kind: "new"; readonly callee: Expression; readonly args: readonly Expression[] }
  /** `(() => body)()`: an arrow function called in place. */
  | { readonly kind: "arrow-call"; readonly body: Expression }
  | PathExpression;

/**
 * A JSON Pointer (RFC 6901) built at run time: the string `base` (an expression, usually the
 * parameter `p`) followed by `/token` for each token. Printed as one string concatenation in
 * which the text of consecutive constant tokens is one string literal.
 */
export interface PathExpression {
  readonly kind: "path";
  readonly base: Expression;
  readonly tokens: readonly PathToken[];
}

export type PathToken =
  /** A property name known when generating; escaped (`~0`, `~1`) when printed. */
  | { readonly kind: "name"; readonly name: string }
  /** A tuple position known when generating. */
  | { readonly kind: "index"; readonly index: number }
  /** A token known at run time: `"/" + expression`; the expression escapes it if it must (`escapeToken(k)`). */
  | { readonly kind: "dynamic"; readonly expression: Expression };

export type Statement =
  | { readonly kind: "if"; readonly test: Expression; readonly then: Statement; readonly otherwise?: Statement }
  /** `for (let variable = 0; test; variable++) body` */
  | { readonly kind: "for"; readonly variable: string; readonly test: Expression; readonly body: Statement }
  /** `for (const variable in object) body` */
  | { readonly kind: "for-in"; readonly variable: string; readonly object: Expression; readonly body: Statement }
  | { readonly kind: "switch"; readonly discriminant: Expression; readonly cases: readonly SwitchCase[] }
  | { readonly kind: "return"; readonly value?: Expression }
  | { readonly kind: "expression"; readonly expression: Expression }
  | { readonly kind: "block"; readonly body: readonly Statement[] }
  /** `const name: type = value;` (`type`, TypeScript source, when given) */
  | { readonly kind: "const"; readonly name: string; readonly type?: string; readonly value: Expression }
  | { readonly kind: "break" }
  | { readonly kind: "continue" };

/** One clause of a `switch`: its labels (`case x:` each, then `default:` when `isDefault`) and its statements. */
export interface SwitchCase {
  readonly labels: readonly Expression[];
  readonly isDefault?: boolean;
  readonly body: readonly Statement[];
}

/** One parameter: its name and its type annotation (TypeScript source). */
export interface Parameter {
  readonly name: string;
  readonly type: string;
}

/** `function name(params): returns { body }`; a parameter the body never reads is printed `_name`. */
export interface FunctionDeclaration {
  readonly name: string;
  readonly params: readonly Parameter[];
  readonly returns: string;
  readonly body: readonly Statement[];
}

// ---- constructors ----------------------------------------------------------------------------

export const id = (name: string): Expression => ({ kind: "identifier", name });
export const lit = (value: string | number | boolean | null | undefined): Expression => ({ kind: "literal", value });
export const TRUE = lit(true);
export const FALSE = lit(false);
export const call = (callee: Expression, ...args: Expression[]): Expression => ({ kind: "call", callee, args });
export const binary = (left: Expression, operator: BinaryOperator, right: Expression): Expression => ({
  kind: "binary",
  operator,
  left,
  right,
});
export const not = (operand: Expression): Expression =>
  operand.kind === "literal" && typeof operand.value === "boolean" ? lit(!operand.value) : { kind: "unary", operator: "!", operand };
export const typeOf = (operand: Expression): Expression => ({ kind: "unary", operator: "typeof", operand });
export const element = (object: Expression, index: Expression): Expression => ({ kind: "element", object, index });
export const property = (object: Expression, name: string): Expression => ({ kind: "property", object, name });
export const array = (elements: readonly Expression[]): Expression => ({ kind: "array", elements });

/** Whether `e` is the literal `true` (a check that accepts everything). */
export function isTrue(e: Expression): boolean {
  return e.kind === "literal" && e.value === true;
}

/**
 * How many conditions one chain holds before it is split. No type of the MCP schemas comes
 * near it.
 */
export const LONG = 64;

/**
 * Joins conditions with `&&` or `||`. Past 64 terms each run of 64 becomes an arrow function
 * called in place (and runs of those, the same): TypeScript follows a chain of thousands of
 * conditions one stack frame per condition and overflows (an interface of 1 200 properties did),
 * while a function body starts afresh. One condition is itself; `true` operands of `&&` and
 * `false` ones of `||` are left out, and so are the operands after a `false` of `&&` or a `true` of `||`.
 */
export function chain(all: readonly Expression[], operator: "&&" | "||"): Expression {
  // `true` changes no `&&` and `false` no `||` (an `unknown` member of an intersection checks as `true`).
  const neutral = operator === "&&";
  // `false` decides an `&&` and `true` an `||`: the operands after it are never evaluated.
  const decided = all.findIndex((e) => e.kind === "literal" && e.value === !neutral);
  const operands = (decided < 0 ? all : all.slice(0, decided + 1)).filter((e) => !(e.kind === "literal" && e.value === neutral));
  if (operands.length === 0) return lit(neutral);
  if (operands.length === 1) return operands[0]!;
  if (operands.length <= LONG) return { kind: "logical", operator, operands };
  const groups: Expression[] = [];
  for (let i = 0; i < operands.length; i += LONG) {
    const run = operands.slice(i, i + LONG);
    groups.push({ kind: "arrow-call", body: run.length === 1 ? run[0]! : { kind: "logical", operator, operands: run } });
  }
  return chain(groups, operator);
}

/** `path` followed by one more token (a path node from any expression: `p` becomes the path `p`). */
export function pathAppend(path: Expression, token: PathToken): PathExpression {
  return path.kind === "path"
    ? { kind: "path", base: path.base, tokens: [...path.tokens, token] }
    : { kind: "path", base: path, tokens: [token] };
}

/**
 * `if (test) then else otherwise`. With an `else`, a `then` that ends in an `if` without one
 * (`if (a) if (b) x(); else y();`, also through an unbraced loop body) goes in a block: else the
 * `else` would belong to the inner `if`. An empty block as `otherwise` is no `else` (Prettier
 * would open an `else {}`); a test that is `true` is `then` alone.
 */
export const ifStatement = (test: Expression, then: Statement, otherwise?: Statement): Statement =>
  isTrue(test)
    ? then
    : otherwise && !(otherwise.kind === "block" && otherwise.body.length === 0)
      ? { kind: "if", test, then: endsInOpenIf(then) ? block([then]) : then, otherwise }
      : { kind: "if", test, then };

/** Whether a statement, printed without braces, ends in an `if` that has no `else` (one an `else` after it would attach to). */
function endsInOpenIf(s: Statement): boolean {
  switch (s.kind) {
    case "if":
      return s.otherwise === undefined || endsInOpenIf(s.otherwise);
    case "for":
    case "for-in":
      return endsInOpenIf(s.body);
    default:
      return false;
  }
}
export const expressionStatement = (expression: Expression): Statement => ({ kind: "expression", expression });
export const returnStatement = (value?: Expression): Statement => (value ? { kind: "return", value } : { kind: "return" });
export const block = (body: readonly Statement[]): Statement => ({ kind: "block", body });

/**
 * The runtime helpers a piece of generated code refers to, recorded as the references are
 * made. One per output file: its {@link roots} are what the runtime copier keeps (with what
 * they use in turn).
 */
export class RuntimeUses {
  private readonly names = new Set<string>();
  /** The names {@link use} recorded: kept whatever the generated functions read. */
  private readonly outside = new Set<string>();

  /** A reference to the runtime declaration `name` (`isPlainObject`, `MAX_DEPTH`, …), recorded. */
  ref(name: string): Expression {
    this.names.add(name);
    return id(name);
  }

  /** Whether `name` is a runtime declaration referred to so far (see {@link ref}). */
  has(name: string): boolean {
    return this.names.has(name);
  }

  /** Records a use made outside the tree (a template or a declaration's public function). */
  use(name: string): string {
    this.names.add(name);
    this.outside.add(name);
    return name;
  }

  /** Forgets the references that only functions left out of the output made: those not in `read` (what the kept functions read). */
  keepRead(read: ReadonlySet<string>): void {
    for (const name of this.names) if (!this.outside.has(name) && !read.has(name)) this.names.delete(name);
  }

  /** The recorded names, sorted. */
  get roots(): ReadonlySet<string> {
    return new Set([...this.names].sort());
  }
}

// ---- walking ---------------------------------------------------------------------------------

/** Every identifier an expression reads (property names and string contents are not identifiers). */
export function* identifiersOf(e: Expression): Generator<string> {
  switch (e.kind) {
    case "identifier":
      yield e.name;
      return;
    case "literal":
      return;
    case "call":
      yield* identifiersOf(e.callee);
      for (const a of e.args) yield* identifiersOf(a);
      return;
    case "binary":
      yield* identifiersOf(e.left);
      yield* identifiersOf(e.right);
      return;
    case "logical":
      for (const o of e.operands) yield* identifiersOf(o);
      return;
    case "unary":
      yield* identifiersOf(e.operand);
      return;
    case "element":
      yield* identifiersOf(e.object);
      yield* identifiersOf(e.index);
      return;
    case "property":
      yield* identifiersOf(e.object);
      return;
    case "array":
      for (const x of e.elements) yield* identifiersOf(x);
      return;
    case "arrow-call":
      yield* identifiersOf(e.body);
      return;
    case "new":
      yield* identifiersOf(e.callee);
      for (const a of e.args) yield* identifiersOf(a);
      return;
    case "path":
      yield* identifiersOf(e.base);
      for (const t of e.tokens) if (t.kind === "dynamic") yield* identifiersOf(t.expression);
      return;
  }
}

/** Every identifier a statement reads (the variable a `for` declares counts where it is read). */
export function* statementIdentifiers(s: Statement): Generator<string> {
  switch (s.kind) {
    case "if":
      yield* identifiersOf(s.test);
      yield* statementIdentifiers(s.then);
      if (s.otherwise) yield* statementIdentifiers(s.otherwise);
      return;
    case "for":
      yield* identifiersOf(s.test);
      yield* statementIdentifiers(s.body);
      return;
    case "for-in":
      yield* identifiersOf(s.object);
      yield* statementIdentifiers(s.body);
      return;
    case "switch":
      yield* identifiersOf(s.discriminant);
      for (const c of s.cases) {
        for (const l of c.labels) yield* identifiersOf(l);
        for (const b of c.body) yield* statementIdentifiers(b);
      }
      return;
    case "return":
      if (s.value) yield* identifiersOf(s.value);
      return;
    case "expression":
      yield* identifiersOf(s.expression);
      return;
    case "block":
      for (const b of s.body) yield* statementIdentifiers(b);
      return;
    case "const":
      yield* identifiersOf(s.value);
      return;
    case "break":
    case "continue":
      return;
  }
}

/** Whether a function body reads the identifier `name`. */
export function reads(body: readonly Statement[], name: string): boolean {
  for (const s of body) for (const used of statementIdentifiers(s)) if (used === name) return true;
  return false;
}
