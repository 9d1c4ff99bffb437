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
    const at = first?.start ?? firstTrailingComma(text) ?? 0;
    const why = first ? ts.flattenDiagnosticMessageText(first.messageText, " ") : (error as Error).message.replace(/\s*\n\s*/g, " ");
    const { line, character } = source.getLineAndCharacterOfPosition(at);
    return { why, span: { file, line: line + 1, column: character + 1 } };
  }
}

/** Where a trailing comma or a comment is (TypeScript's JSON parser accepts both silently). */
function firstTrailingComma(text: string): number | undefined {
  const match = /,\s*[\]}]|\/\/|\/\*/.exec(text);
  return match?.index;
}
