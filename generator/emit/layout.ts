/**
 * Prettier's layout for the statements of `errors.ts`, `meta.ts`, `methods.ts` and
 * `dispatch.ts`, printed without loading Prettier. The emitters describe each statement that
 * may pass {@link PRINT_WIDTH} columns as a small tree ({@link Code}); this module turns it
 * into the document Prettier's estree printer builds for that construct (groups, indents,
 * line breaks; Prettier 3's rules for arrays, objects, call arguments, type arguments,
 * function types and assignments) and lays it out with Prettier's own document printer
 * (`prettier/doc`, about 60 KB, without Prettier's parsers and estree printer).
 *
 * Where a rule is not decided here (a lone call argument Prettier may measure otherwise, a
 * printed line still past the width because an atomic piece could have broken), the
 * function returns `undefined` and the emitter hands its file to Prettier, as before: an
 * unusual schema costs time, never a wrong byte. test/formatting.test.ts runs Prettier over
 * every file laid out so and finds no change.
 */
// `prettier/doc` only: the document builders and printer, not Prettier's parsers (imported as code/layout.ts does).
import { builders, printer, utils } from "prettier/doc";
import { LayoutUndecided, literalText, PRINT_OPTIONS, PRINT_WIDTH, stringLiteralText } from "./print-type.js";

type Doc = builders.Doc;
const { group, indent, line, softline, hardline, ifBreak, join, conditionalGroup, indentIfBreak, breakParent } = builders;

/**
 * A piece of code whose layout Prettier decides.
 * - `text`: printed as it is and never broken (an identifier, a literal, a short type);
 *   `lone` when Prettier counts it a "lone short argument" (an identifier of at most 35
 *   characters, a number, a string literal of at most 35): see {@link assignmentLayout};
 *   `literal` for a string, number or boolean literal; `undecided` when Prettier's printing
 *   of it is not known here (laying it out then leaves the file to Prettier);
 * - `array`: `[a, b]`; `numbers` when every element is a (signed) number literal (Prettier then fills lines);
 * - `object`: `{ key: value }`; `broken` when the source puts the first key on a new line
 *   (Prettier keeps such an object broken);
 * - `call`: `callee<typeArgs>(args)`;
 * - `fnType`: `(params) => returns`, each parameter a `text`.
 * - `typeArgs`: `Name<A, B>`.
 */
export type Code =
  | { readonly kind: "text"; readonly text: string; readonly lone?: boolean; readonly literal?: "string" | "number" | "boolean"; readonly undecided?: true }
  | { readonly kind: "array"; readonly elements: readonly Code[]; readonly numbers?: boolean }
  | { readonly kind: "object"; readonly properties: readonly (readonly [key: string, value: Code])[]; readonly broken?: boolean }
  | { readonly kind: "call"; readonly callee: string; readonly typeArgs?: readonly string[]; readonly args: readonly Code[]; readonly pure?: true }
  | { readonly kind: "fnType"; readonly params: readonly string[]; readonly returns: Code }
  | { readonly kind: "typeArgs"; readonly name: string; readonly args: readonly string[] }
  | { readonly kind: "asConst"; readonly expression: Code };

export const text = (value: string, extra: { lone?: boolean; literal?: "string" | "number" | "boolean"; undecided?: true } = {}): Code => ({ kind: "text", text: value, ...extra });
/** An array literal; `numbers` when every element is a number literal (Prettier prints those otherwise). */
export const array = (elements: readonly Code[]): Code => ({
  kind: "array",
  elements,
  numbers: elements.length > 0 && elements.every((e) => e.kind === "text" && e.literal === "number"),
});
export const object = (properties: readonly (readonly [string, Code])[], broken = false): Code => ({ kind: "object", properties, broken });
export const call = (callee: string, args: readonly Code[], typeArgs?: readonly string[]): Code => ({ kind: "call", callee, args, ...(typeArgs ? { typeArgs } : {}) });
/**
 * A call marked `/* @__PURE__ *\/`: a bundler may drop it when its value is unused (a module-level checker built from
 * the validators, so that importing a table alone does not keep them).
 */
export const pureCall = (callee: string, args: readonly Code[]): Code => ({ kind: "call", callee, args, pure: true });

/** The annotation bundlers read as "no effect when the value is unused" (Rollup, Rolldown, esbuild, webpack's Terser). */
export const PURE = "/* @__PURE__ */ ";

function toDoc(code: Code): Doc {
  switch (code.kind) {
    case "text":
      if (code.undecided) throw new LayoutUndecided();
      return code.text;
    case "array":
      return arrayDoc(code);
    case "object":
      return objectDoc(code);
    case "call":
      return [code.pure ? PURE : "", code.callee, typeArgumentsDoc(code.typeArgs ?? []), callArgumentsDoc(code.args)];
    case "fnType":
      // The parameters are not a group of their own (Prettier groups them only to hug a lone object parameter): they break with the type.
      return group([parametersDoc(code.params), " => ", toDoc(code.returns)]);
    case "typeArgs":
      return [code.name, typeArgumentsDoc(code.args)];
    case "asConst":
      return [toDoc(code.expression), " as const"];
  }
}

/** `[…]`: one element per line with a trailing comma when broken; from the start when every element is an object or array of more than one entry. */
function arrayDoc(code: Extract<Code, { kind: "array" }>): Doc {
  const { elements } = code;
  if (elements.length === 0) return "[]";
  const shouldBreak =
    elements.length > 1 &&
    elements.every((e, i) => {
      if (e.kind !== "object" && e.kind !== "array") return false;
      const next = elements[i + 1];
      if (next !== undefined && next.kind !== e.kind) return false;
      return (e.kind === "array" ? e.elements.length : e.properties.length) > 1;
    });
  const printed = elements.map(toDoc);
  // Prettier fills lines with numbers; printed on one line here, so a numbers array that would
  // break leaves a line past the width and the file to Prettier.
  if (code.numbers) return ["[", join(", ", printed), "]"];
  return group(["[", indent([softline, join([",", line], printed), ifBreak(",")]), softline, "]"], { shouldBreak });
}

function objectDoc(code: Extract<Code, { kind: "object" }>): Doc {
  if (code.properties.length === 0) return "{}";
  const properties = code.properties.map(([key, value]) => assignment(key, ":", value, false));
  return group(["{", indent([line, join([",", line], properties)]), ifBreak(","), line, "}"], { shouldBreak: code.broken === true });
}

/** Whether Prettier may hug a call's last argument (an object or array literal with entries). */
function couldExpand(code: Code): boolean {
  return (code.kind === "object" && code.properties.length > 0) || (code.kind === "array" && code.elements.length > 0);
}

function callArgumentsDoc(args: readonly Code[]): Doc {
  if (args.length === 0) return "()";
  const printed = args.map(toDoc);
  const allBrokenOut = () => group(["(", indent([line, join([",", line], printed), ","]), line, ")"], { shouldBreak: true });
  const last = args[args.length - 1]!;
  const penultimate = args.length > 1 ? args[args.length - 2]! : undefined;
  // Prettier's shouldGroupLast, for the argument kinds of these files: the last argument an
  // object or array with entries, no other argument one, the one before not of its kind.
  if (couldExpand(last) && !args.slice(0, -1).some((a) => a.kind === "object" || a.kind === "array" || a.kind === "call")) {
    if (penultimate !== undefined && penultimate.kind === last.kind) throw new LayoutUndecided();
    const head = printed.slice(0, -1);
    if (head.some((d) => utils.willBreak(d))) throw new LayoutUndecided();
    const expanded = printed[printed.length - 1]!;
    return [
      printed.some((d) => utils.willBreak(d)) ? breakParent : "",
      conditionalGroup([
        ["(", join(", ", [...head, expanded]), ")"],
        ["(", join(", ", [...head, group(expanded, { shouldBreak: true })]), ")"],
        allBrokenOut(),
      ]),
    ];
  }
  if (args.some((a) => a.kind === "object" || a.kind === "array" || a.kind === "call")) throw new LayoutUndecided();
  return group(["(", indent([softline, join([",", line], printed)]), ifBreak(","), softline, ")"]);
}

/** `<A, B>` of a call or type reference: no trailing comma when broken; a lone simple argument never breaks. */
function typeArgumentsDoc(args: readonly string[]): Doc {
  if (args.length === 0) return "";
  if (args.length === 1) return ["<", args[0]!, ">"];
  return group(["<", indent([softline, join([",", line], [...args])]), softline, ">"]);
}

function parametersDoc(params: readonly string[]): Doc {
  if (params.length === 0) return "()";
  return ["(", indent([softline, join([",", line], [...params])]), ifBreak(","), softline, ")"];
}

type Layout = "break-after-operator" | "never-break-after-operator" | "fluid";

/** Prettier's chooseLayout for the right-hand sides these files have. */
function assignmentLayout(right: Code, leftCanBreak: boolean, shortKey: boolean): Layout {
  if (right.kind === "text" && right.literal === "string") return shortKey ? "never-break-after-operator" : "break-after-operator";
  if (!shortKey && right.kind === "call" && (right.typeArgs ?? []).length <= 1) {
    if (right.args.length === 0) return "break-after-operator";
    if (right.args.length === 1 && right.args[0]!.kind === "text") {
      if (right.args[0]!.lone === true) return "break-after-operator";
      // Not a lone short argument only when known so (a member expression, a long identifier).
      if (right.args[0]!.lone === undefined) throw new LayoutUndecided();
    }
  }
  if (right.kind === "text" && right.literal === undefined && right.lone === undefined) throw new LayoutUndecided();
  if (!leftCanBreak && (shortKey || (right.kind === "text" && (right.literal === "number" || right.literal === "boolean")))) return "never-break-after-operator";
  return "fluid";
}

function assignment(left: Doc, operator: string, right: Code, leftCanBreak: boolean): Doc {
  // An object property whose key is shorter than tabWidth + 3 columns is never broken after `:`.
  const shortKey = operator === ":" && typeof left === "string" && left.length < 5;
  const layout = assignmentLayout(right, leftCanBreak, shortKey);
  const rightDoc = toDoc(right);
  switch (layout) {
    case "break-after-operator":
      return group([group(left), operator, group(indent([line, rightDoc]))]);
    case "never-break-after-operator":
      return group([group(left), operator, " ", rightDoc]);
    case "fluid": {
      const id = Symbol("assignment");
      return group([group(left), operator, group(indent(line), { id }), indentIfBreak(rightDoc, { groupId: id })]);
    }
  }
}

/**
 * The document printed at `depth` indents of two spaces, or undefined when a line is past the
 * width (an atomic piece Prettier might have broken) or holds a character other than printable
 * ASCII (Prettier may quote or measure it otherwise).
 */
function print(doc: Doc, depth = 0): string | undefined {
  let wrapped: Doc = depth > 0 ? [hardline, doc] : doc;
  for (let i = 0; i < depth; i++) wrapped = indent(wrapped);
  const formatted = printer.printDocToString(wrapped, PRINT_OPTIONS).formatted as string;
  let column = 0;
  for (let i = 0; i < formatted.length; i++) {
    const c = formatted.charCodeAt(i);
    if (c === 10) column = 0;
    else if (c < 0x20 || c > 0x7e || ++column > PRINT_WIDTH) return undefined;
  }
  return depth > 0 ? formatted.slice(1) : formatted;
}

function attempt(make: () => Doc, depth = 0): string | undefined {
  try {
    return print(make(), depth);
  } catch (error) {
    if (error instanceof LayoutUndecided) return undefined;
    throw error;
  }
}

/**
 * `[export ]const name[: type] = value;` as Prettier prints it, or undefined.
 * `type` is a `text` or an `fnType` (whose parameters may break one per line).
 */
export function constStatement(exported: boolean, name: string, type: Code | undefined, value: Code): string | undefined {
  return attempt(() => {
    const left: Doc = type === undefined ? name : [name, ": ", toDoc(type)];
    return [exported ? "export const " : "const ", assignment(left, " =", value, type !== undefined && type.kind === "fnType"), ";"];
  });
}

/** `key: value,` as a property of an object literal broken one property per line, at `depth` indents. */
export function propertyLine(key: string, value: Code, depth: number): string | undefined {
  return attempt(() => [assignment(key, ":", value, false), ","], depth);
}

/** `import [type ]{ a, b } from "module";` as Prettier prints it: one name per line when it does not fit. */
export function importStatement(names: readonly string[], from: string, typeOnly = false): string | undefined {
  if (names.length === 0) return undefined;
  return attempt(() => group([`import ${typeOnly ? "type " : ""}{`, indent([line, join([",", line], [...names])]), ifBreak(","), line, `} from ${from};`]));
}

/** A member of an interface whose type is an object type written on one line (`{ a: A; b: B }`): broken one member per line when it does not fit. */
export function typeLiteralMember(key: string, members: readonly string[], depth: number): string | undefined {
  return attempt(() => [key, ": ", group(["{", indent([line, join([";", line], [...members])]), ifBreak(";"), line, "}"]), ";"], depth);
}

/**
 * Whether every line of a rendered file that is not a comment fits in the width: a check of
 * the whole file after its pieces were laid out, so that a template line made long by a value
 * (a long type name) sends the file to Prettier instead of being written past the width.
 */
export function withinWidth(file: string): boolean {
  let start = 0;
  while (start < file.length) {
    let end = file.indexOf("\n", start);
    if (end < 0) end = file.length;
    if (end - start > PRINT_WIDTH) {
      const lineText = file.slice(start, end).trimStart();
      if (!lineText.startsWith("*") && !lineText.startsWith("/*") && !lineText.startsWith("//")) return false;
    }
    start = end + 1;
  }
  return true;
}

/**
 * Collects the laid-out pieces of one file: each piece is Prettier's layout, or, when not
 * decided here, the unformatted text; {@link Pieces.laidOut} then says the file needs Prettier.
 */
export class Pieces {
  #decided = true;
  /** `laidOut` when decided, else `fallback` (text Prettier formats), remembering the file is not laid out. */
  take(laidOut: string | undefined, fallback: string): string {
    if (laidOut !== undefined) return laidOut;
    this.#decided = false;
    return fallback;
  }
  /** Marks the file as needing Prettier. */
  undecided(): void {
    this.#decided = false;
  }
  get laidOut(): boolean {
    return this.#decided;
  }
}

/** A string literal as Prettier prints it, as a `Code`, lone when Prettier counts it short. */
export function stringCode(literal: string): Code {
  return text(literal, { literal: "string", lone: literal.length <= PRINT_WIDTH / 4 });
}

/**
 * A number literal as a `Code` (negative numbers included), as Prettier prints it (`literalText`);
 * a number whose printing is left to Prettier (`1e+21`, a non-finite value) is `undecided`.
 */
export function numberCode(value: number): Code {
  const literal = literalText(value);
  return literal === undefined ? text(String(value), { literal: "number", lone: true, undecided: true }) : text(literal, { literal: "number", lone: true });
}

/** An identifier as a `Code`: lone when at most a quarter of the width. */
export function identifierCode(name: string): Code {
  return text(name, { lone: name.length <= PRINT_WIDTH / 4 });
}

/** A member expression (`A.b`) as a `Code`: never a lone short argument. */
export function memberCode(expression: string): Code {
  return text(expression, { lone: false });
}

/** `line` when Prettier leaves it as it is for want of a place to break it (printable ASCII, within the width), else undefined. */
export function plainLine(line: string): string | undefined {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return undefined;
  }
  return line.length <= PRINT_WIDTH ? line : undefined;
}

/** `[export ]const name = [a, b] as const;` as Prettier prints it, or undefined. */
export function constArrayStatement(exported: boolean, name: string, elements: readonly Code[]): string | undefined {
  return attempt(() => [exported ? "export const " : "const ", assignment(name, " =", { kind: "asConst", expression: array(elements) }, false), ";"]);
}

/**
 * A method signature of an interface whose first parameter is typed by a union of string
 * literals (`  name(param: "a" | "b", rest): returns;`), as Prettier prints it: on one line;
 * else one parameter per line, the union flat after `param:` or, when that does not fit, one
 * member per line (`| "a"`) under it. Undefined when a line still does not fit.
 */
export function unionParameterMethod(name: string, param: string, members: readonly string[], rest: readonly string[], returns: string): string | undefined {
  const union = members.length === 0 ? "never" : members.map(stringLiteralText).join(" | ");
  const flat = plainLine(`  ${name}(${[`${param}: ${union}`, ...rest].join(", ")}): ${returns};`);
  if (flat !== undefined) return flat;
  const restLines = rest.map((r) => plainLine(`    ${r},`));
  if (restLines.some((l) => l === undefined)) return undefined;
  let first = plainLine(`    ${param}: ${union},`);
  if (first === undefined && members.length > 1) {
    const lines = [`    ${param}:`, ...members.map((m, i) => plainLine(`      | ${stringLiteralText(m)}${i === members.length - 1 ? "," : ""}`))];
    if (lines.some((l) => l === undefined)) return undefined;
    first = lines.join("\n");
  }
  if (first === undefined) return undefined;
  return [`  ${name}(`, first, ...(restLines as string[]), `  ): ${returns};`].join("\n");
}

/**
 * `export type Name<R> = { …mapped… } & { …mapped… };` (two mapped types, `first` and the
 * second's one member `second`) as Prettier prints it: on one line, or with the second type
 * broken (`& {`, its member on its own line, `};`). Undefined otherwise.
 */
export function mappedIntersectionAlias(head: string, first: string, second: string): string | undefined {
  const flat = plainLine(`${head} = ${first} & { ${second} };`);
  if (flat !== undefined) return flat;
  const opening = plainLine(`${head} = ${first} & {`);
  const member = plainLine(`  ${second};`);
  return opening === undefined || member === undefined ? undefined : `${opening}\n${member}\n};`;
}
