/**
 * The JSON files the generator reads (the configuration file, the spec lock) are strict JSON:
 * where one is not, the first problem TypeScript's JSON parser sees is named with its place, as a
 * schema's problems are, rather than `JSON.parse`'s message, which has no place.
 */
import type { SourceSpan } from "./ir.js";
import { ts } from "./ts-morph.js";

/** `text` without a leading byte-order mark (some Windows editors write one; it is not part of the JSON, and editors do not show it). */
export function withoutByteOrderMark(text: string): string {
  return text.startsWith("\uFEFF") ? text.slice(1) : text;
}

/** What is wrong with `text` as strict JSON (comments and trailing commas included), and where; `undefined` when it is JSON. */
export function jsonSyntaxProblem(text: string, file: string, source: ts.JsonSourceFile = ts.parseJsonText(file, text)): { readonly why: string; readonly span: SourceSpan } | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    // The parse diagnostics are not part of TypeScript's typed API, hence the cast.
    const parsed = (source as { parseDiagnostics?: readonly ts.Diagnostic[] }).parseDiagnostics ?? [];
    const converted: ts.Diagnostic[] = [];
    ts.convertToObject(source, converted);
    const first = [...parsed, ...converted].sort((a, b) => (a.start ?? 0) - (b.start ?? 0))[0];
    const at = first?.start ?? firstTrailingComma(text) ?? notJsonWhitespace(text) ?? 0;
    const why = first ? ts.flattenDiagnosticMessageText(first.messageText, " ") : (error as Error).message.replace(/\s*\n\s*/g, " ");
    const { line, character } = source.getLineAndCharacterOfPosition(at);
    return { why, span: { file, line: line + 1, column: character + 1 } };
  }
}

/**
 * Where, between tokens, a character is that JavaScript takes for white space and JSON does not
 * (U+2028, a no-break space, a byte order mark inside, a vertical tab or form feed): TypeScript's
 * parser reads past it silently, and `JSON.parse`'s message does not always say where it is.
 */
function notJsonWhitespace(text: string): number | undefined {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"') {
      // Past the string, its escapes included.
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
    } else if (/\s/.test(text[i]!) && !" \t\n\r".includes(text[i]!)) return i;
  }
  return undefined;
}

/** Where a trailing comma or a comment is (TypeScript's JSON parser accepts both silently). */
function firstTrailingComma(text: string): number | undefined {
  const match = /,\s*[\]}]|\/\/|\/\*/.exec(text);
  return match?.index;
}

/** A step into a JSON value: an object's key or an array's index. */
export type JsonStep = string | number;

/**
 * Where the value at `path` is in a JSON file TypeScript parsed (`jsonSyntaxProblem` having found
 * none), or, with `key`, the name of the property the path's last step reads. A step the file
 * lacks places the span at the deepest value it has (a missing key is told at its object). A key
 * written twice is the last one, as `JSON.parse` reads it.
 */
export function jsonPlace(source: ts.JsonSourceFile, path: readonly JsonStep[], key = false): SourceSpan {
  let node: ts.Node | undefined = source.statements[0]?.expression;
  let at: ts.Node = node ?? source;
  for (const [i, step] of path.entries()) {
    let next: ts.Node | undefined;
    if (node && ts.isObjectLiteralExpression(node) && typeof step === "string") {
      const property = node.properties.filter(ts.isPropertyAssignment).findLast((p) => propertyName(p) === step);
      if (property && key && i === path.length - 1) {
        at = property.name;
        break;
      }
      next = property?.initializer;
    } else if (node && ts.isArrayLiteralExpression(node) && typeof step === "number") {
      next = node.elements[step];
    }
    if (next === undefined) break;
    node = at = next;
  }
  const { line, character } = source.getLineAndCharacterOfPosition(at.getStart(source));
  return { file: source.fileName, line: line + 1, column: character + 1 };
}

/**
 * The first key written twice in one object of a JSON file TypeScript parsed, and where its second
 * writing is, or `undefined` (`JSON.parse` keeps the last silently).
 */
export function repeatedKey(source: ts.JsonSourceFile): { readonly key: string; readonly span: SourceSpan } | undefined {
  let found: { readonly key: string; readonly span: SourceSpan } | undefined;
  const visit = (node: ts.Node): void => {
    if (found !== undefined) return;
    if (ts.isObjectLiteralExpression(node)) {
      const seen = new Set<string>();
      for (const property of node.properties.filter(ts.isPropertyAssignment)) {
        const name = propertyName(property);
        if (name !== undefined && seen.has(name)) {
          const { line, character } = source.getLineAndCharacterOfPosition(property.name.getStart(source));
          found = { key: name, span: { file: source.fileName, line: line + 1, column: character + 1 } };
          return;
        }
        if (name !== undefined) seen.add(name);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function propertyName(property: ts.PropertyAssignment): string | undefined {
  return ts.isStringLiteral(property.name) || ts.isNumericLiteral(property.name) || ts.isIdentifier(property.name) ? property.name.text : undefined;
}
