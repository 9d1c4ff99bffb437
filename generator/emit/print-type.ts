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
      return needsParens(type.element) ? `(${element})[]` : `${element}[]`;
    }
    case "tuple":
      return `[${type.elements.map((e) => printType(e, doc, indent)).join(", ")}]`;
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
  return type.kind === "union" || type.kind === "intersection";
}

/** `{ a: string; b?: number; [key: string]: unknown }`, one member per line. */
export function printObject(type: ObjectType, doc: DocRenderer, indent = ""): string {
  if (type.properties.length === 0 && !type.indexSignature) return "{}";
  const inner = `${indent}  `;
  const lines: string[] = [];
  for (const p of type.properties) {
    const comment = doc(p.docs);
    if (comment) lines.push(...comment.split("\n").map((l) => inner + l));
    lines.push(`${inner}${propertyKey(p.name)}${p.optional ? "?" : ""}: ${printType(p.type, doc, inner)};`);
  }
  if (type.indexSignature) lines.push(`${inner}[key: string]: ${printType(type.indexSignature, doc, inner)};`);
  return `{\n${lines.join("\n")}\n${indent}}`;
}
