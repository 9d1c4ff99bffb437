/**
 * Prints IR type expressions back as TypeScript source, for `types.ts`.
 */
import type { ObjectType, TypeExpr } from "../ir.js";
import { propertyKey } from "./names.js";

/** Renders a property's or declaration's doc comment; returns "" for none. */
export type DocRenderer = (docs: import("../ir.js").Docs | undefined, line?: number) => string;

/** TypeScript source for `type`. `indent` is the current indentation (for object literals). */
export function printType(type: TypeExpr, doc: DocRenderer, indent = ""): string {
  switch (type.kind) {
    case "keyword":
      return type.name;
    case "literal":
      return type.fromConst ? `typeof ${type.fromConst}` : JSON.stringify(type.value);
    case "ref":
      return type.name;
    case "array": {
      const element = printType(type.element, doc, indent);
      return readonlyPrefix(type) + (needsParens(type.element) ? `(${element})[]` : `${element}[]`);
    }
    case "tuple":
      return `${readonlyPrefix(type)}[${type.elements.map((e) => printType(e, doc, indent)).join(", ")}]`;
    case "union":
      return type.members.map((m) => printType(m, doc, indent)).join(" | ");
    case "intersection":
      return type.members
        .map((m) => (m.kind === "union" ? `(${printType(m, doc, indent)})` : printType(m, doc, indent)))
        .join(" & ");
    case "object":
      return printObject(type, doc, indent);
  }
}

function needsParens(type: TypeExpr): boolean {
  return type.kind === "union" || type.kind === "intersection" || ((type.kind === "array" || type.kind === "tuple") && type.readonly === true);
}

/** `readonly ` before an array or tuple type written so. */
function readonlyPrefix(type: { readonly readonly?: true }): string {
  return type.readonly ? "readonly " : "";
}

/** `{ a: string; b?: number; [key: string]: unknown }`, one member per line. */
export function printObject(type: ObjectType, doc: DocRenderer, indent = ""): string {
  return objectMembers(type, doc, indent, propertyKey, (head, t, inner) => `${head}${printType(t, doc, inner)};`)!;
}

/**
 * An object type with one member per line, each property after its doc comment: `key` writes a
 * property's key and `member` a member's line(s) from its head (`  key?: `, `  [key: string]: `);
 * undefined when either gives undefined for some member.
 */
function objectMembers(
  type: ObjectType,
  doc: DocRenderer,
  indent: string,
  key: (name: string) => string | undefined,
  member: (head: string, type: TypeExpr, inner: string) => string | undefined,
): string | undefined {
  if (type.properties.length === 0 && !type.indexSignature) return "{}";
  const inner = `${indent}  `;
  const lines: string[] = [];
  for (const p of type.properties) {
    const comment = doc(p.docs);
    if (comment) lines.push(...comment.split("\n").map((l) => inner + l));
    const k = key(p.name);
    const text = k === undefined ? undefined : member(`${inner}${k}${p.optional ? "?" : ""}: `, p.type, inner);
    if (text === undefined) return undefined;
    lines.push(text);
  }
  if (type.indexSignature) {
    const text = member(`${inner}[key: string]: `, type.indexSignature, inner);
    if (text === undefined) return undefined;
    lines.push(text);
  }
  return `{\n${lines.join("\n")}\n${indent}}`;
}

/**
 * The line width of generated modules: the `printWidth` {@link import("./index.js").formatModule}
 * gives Prettier.
 */
export const PRINT_WIDTH = 140;

/** The layout options of generated modules as Prettier's document printer takes them (`formatModule`'s, with its defaults). */
export const PRINT_OPTIONS = { printWidth: PRINT_WIDTH, tabWidth: 2, useTabs: false } as const;

/**
 * Thrown inside a layout (the code and data layout modules) for a construct whose Prettier
 * layout is not decided there; the layout's entry point catches it and answers `undefined`.
 */
export class LayoutUndecided extends Error {}

/*
 * Prettier's layout, printed directly. `types.ts` is most often a file of short declarations
 * that Prettier would leave as they are; running Prettier over it costs about 0.3 s of CPU
 * per generation (loading and warming Prettier and its parser). The functions below print a
 * declaration as Prettier does for the constructs whose layout they know, and return
 * `undefined` for any other (an object type inside a union, a union too long to fit that is
 * not a property's or alias's whole type, a number Prettier rewrites, a key or a string with
 * characters Prettier measures differently); the file then goes through Prettier as before.
 * test/formatting.test.ts runs Prettier over every file laid out here and finds no change.
 *
 * The layouts (Prettier 3, `printWidth` 140, TypeScript):
 * - a string literal takes double quotes unless it holds more double quotes than single ones,
 *   then single; the enclosing quote is escaped, the other is not;
 * - a number literal as JavaScript prints it, but `1e21` for `1e+21`;
 * - a union inside a union member that is an intersection is parenthesized: `(A & B) | C`;
 * - an object type keeps one member per line (it is printed so, and Prettier keeps a type
 *   literal broken when its first member is on a new line), also as an array's element
 *   (`{ … }[]`) and as the second of two intersection members (`A & { … }`);
 * - a declaration, property or index signature whose whole type is a union that does not fit
 *   on its line goes on the next line, one indent deeper (`key:` then `  A | B;`), or when it
 *   does not fit there either, breaks before each member: `key:` then `  | A` … `  | Z;`.
 */

/**
 * Whether a line fits in {@link PRINT_WIDTH} columns as Prettier counts them: one column per
 * ASCII character; other characters take zero to two, so a line holding one fits surely only
 * within half the width, and is undecided (undefined) past it.
 */
function fits(line: string): boolean | undefined {
  for (let i = 0; i < line.length; i++) if (line.charCodeAt(i) > 0x7e) return line.length * 2 <= PRINT_WIDTH ? true : undefined;
  return line.length <= PRINT_WIDTH;
}

/** A string literal as Prettier prints it (its quote preference, then the other quote unescaped). */
export function stringLiteralText(value: string): string {
  let doubles = 0;
  let singles = 0;
  for (const ch of value) {
    if (ch === '"') doubles++;
    else if (ch === "'") singles++;
  }
  if (doubles <= singles) return JSON.stringify(value);
  let out = "'";
  for (const ch of value) {
    if (ch === '"') out += '"';
    else if (ch === "'") out += "\\'";
    else out += JSON.stringify(ch).slice(1, -1);
  }
  return `${out}'`;
}

/** A literal value as Prettier prints it, or undefined when not known here. */
export function literalText(value: string | number | boolean): string | undefined {
  if (typeof value === "string") return stringLiteralText(value);
  if (typeof value === "number") {
    const text = JSON.stringify(value);
    // Prettier prints exponents without "+" (1e21); anything else unusual is left to Prettier.
    return Number.isFinite(value) && !text.includes("e+") ? text : undefined;
  }
  return JSON.stringify(value);
}

/** A property key as Prettier prints it, or undefined when not known here. */
export function keyText(name: string): string | undefined {
  const key = propertyKey(name);
  if (key === name) return key;
  // A quoted key Prettier could unquote (an ES5 identifier with non-ASCII letters) is not decided here.
  for (let i = 0; i < name.length; i++) if (name.charCodeAt(i) > 0x7e) return undefined;
  return stringLiteralText(name);
}

/** A type on one line as Prettier prints it, or undefined (an object type with members, or a literal not known here). */
function flatType(type: TypeExpr): string | undefined {
  switch (type.kind) {
    case "keyword":
    case "ref":
      return type.name;
    case "literal":
      return type.fromConst ? `typeof ${type.fromConst}` : literalText(type.value);
    case "array": {
      const element = flatType(type.element);
      if (element === undefined) return undefined;
      return readonlyPrefix(type) + (needsParens(type.element) ? `(${element})[]` : `${element}[]`);
    }
    case "tuple":
    case "union":
    case "intersection": {
      const parts: string[] = [];
      for (const m of type.kind === "tuple" ? type.elements : type.members) {
        const text = flatType(m);
        if (text === undefined) return undefined;
        const parenthesize = (type.kind === "union" && m.kind === "intersection") || (type.kind === "intersection" && m.kind === "union");
        parts.push(parenthesize ? `(${text})` : text);
      }
      return type.kind === "tuple" ? `${readonlyPrefix(type)}[${parts.join(", ")}]` : parts.join(type.kind === "union" ? " | " : " & ");
    }
    case "object":
      return type.properties.length === 0 && !type.indexSignature ? "{}" : undefined;
  }
}

/**
 * `prefix`, `type` and `suffix` as Prettier prints them, the type starting on the line that
 * `prefix` (indented by `indent`) begins; undefined when the layout is not known here.
 */
function layOutTyped(prefix: string, type: TypeExpr, suffix: string, indent: string, doc: DocRenderer): string | undefined {
  if (isBrokenObject(type)) {
    const object = layOutObject(type, doc, indent);
    return object === undefined || fits(`${prefix}{`) !== true ? undefined : `${prefix}${object}${suffix}`;
  }
  // An array of object types: the object as above, then `[]`.
  if (type.kind === "array" && isBrokenObject(type.element)) {
    return type.readonly ? undefined : layOutTyped(prefix, type.element, `[]${suffix}`, indent, doc);
  }
  // `A & { … }`: the object opens on the line of `A &`. (Prettier breaks a longer chain before `&`.)
  if (type.kind === "intersection" && type.members.length === 2 && isBrokenObject(type.members[1]!)) {
    const first = type.members[0]!;
    const text = first.kind === "union" || first.kind === "intersection" ? undefined : flatType(first);
    return text === undefined ? undefined : layOutTyped(`${prefix}${text} & `, type.members[1]!, suffix, indent, doc);
  }
  const flat = flatType(type);
  const oneLine = flat === undefined ? false : fits(prefix + flat + suffix);
  if (oneLine === undefined) return undefined;
  if (oneLine) return prefix + flat + suffix;
  if (type.kind !== "union") return undefined;
  // A union that fits on the next line, one indent deeper, goes there whole.
  const nextLine = flat === undefined ? false : fits(`${indent}  ${flat}${suffix}`);
  if (nextLine === undefined) return undefined;
  if (nextLine) return `${prefix.trimEnd()}\n${indent}  ${flat}${suffix}`;
  const lines = [prefix.trimEnd()];
  for (const [i, m] of type.members.entries()) {
    // A member that is itself an intersection or union: Prettier's layout for it is not decided here.
    const text = m.kind === "intersection" || m.kind === "union" ? undefined : flatType(m);
    const line = `${indent}  | ${text}${i === type.members.length - 1 ? suffix : ""}`;
    if (text === undefined || fits(line) !== true) return undefined;
    lines.push(line);
  }
  return lines.join("\n");
}

/** An object type with members: printed one member per line, so Prettier keeps it broken. */
function isBrokenObject(type: TypeExpr): type is ObjectType {
  return type.kind === "object" && (type.properties.length > 0 || type.indexSignature !== undefined);
}

/** An object type, one member per line, as Prettier prints it; undefined when the layout is not known here. */
function layOutObject(type: ObjectType, doc: DocRenderer, indent: string): string | undefined {
  return objectMembers(type, doc, indent, keyText, (head, t, inner) => layOutTyped(head, t, ";", inner, doc));
}

/** `[export ]type name = …;` as Prettier prints it, or undefined when the layout is not known here. */
export function layOutAlias(exported: boolean, name: string, type: TypeExpr, doc: DocRenderer): string | undefined {
  return layOutTyped(`${exported ? "export " : ""}type ${name} = `, type, ";", "", doc);
}

/** `[export ]interface name { … }` as Prettier prints it, or undefined when the layout is not known here. */
export function layOutInterface(exported: boolean, name: string, type: ObjectType, doc: DocRenderer): string | undefined {
  const object = layOutObject(type, doc, "");
  return object === undefined ? undefined : `${exported ? "export " : ""}interface ${name} ${object}`;
}

/** `[export ]const name = value;` as Prettier prints it, or undefined when the layout is not known here. */
export function layOutConst(exported: boolean, name: string, value: string | number): string | undefined {
  const text = literalText(value);
  const line = `${exported ? "export " : ""}const ${name} = ${text};`;
  return text !== undefined && fits(line) === true ? line : undefined;
}
