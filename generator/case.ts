/**
 * Case styles and reserved words: how a spec name splits into words and how words join into an
 * identifier. Pure functions of their text, shared by analysis (an error code's default message
 * from its constant's words) and the emitters (whose names come from `emit/symbols.ts`, the one
 * naming authority, built on these).
 *
 * - Case styles are made from a name's words ({@link words}, {@link constantWords}):
 *   {@link pascalCase} (`ParseError`), {@link camelCase} (`parseError`), {@link constantCase}
 *   (`REVISION_2025_11_25`). Words are the runs of ASCII letters and digits; every other
 *   character separates them.
 */

/** An ASCII JavaScript identifier (reserved words not excluded). */
export const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Reserved words of JavaScript and TypeScript (strict mode included), and the global values a
 * declaration must not shadow (`undefined`, `NaN`, `Infinity`, `eval`, `arguments`).
 */
export const RESERVED_WORDS: ReadonlySet<string> = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for function if import in " +
    "instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package " +
    "private protected public await arguments eval undefined NaN Infinity"
  ).split(" "),
);

/** An identifier usable as a declaration name or member: ASCII letters, digits, `_` and `$`, no reserved word, not `__proto__`. */
export function isPlainIdentifier(name: string): boolean {
  return IDENTIFIER.test(name) && !RESERVED_WORDS.has(name) && name !== "__proto__";
}

/** The words of a name, their case kept: `io.modelcontextprotocol/related-task` → `["io", "modelcontextprotocol", "related", "task"]`. */
export function words(text: string): string[] {
  return text.split(/[^A-Za-z0-9]+/).filter(Boolean);
}

/**
 * The words of a JSON member name as a field name reads them: the parts between hyphens, every
 * other character kept (`related-task` → `["related", "task"]`; `progress_token` and `__proto__`
 * are one word each: the member's own spelling).
 */
export function memberWords(name: string): string[] {
  return name.split(/-+/).filter(Boolean);
}

/** The words of a CONSTANT_CASE name, in lower case: `UNSUPPORTED_PROTOCOL_VERSION` → `["unsupported", "protocol", "version"]`. */
export function constantWords(constant: string): string[] {
  return words(constant.toLowerCase());
}

const upperFirst = (w: string) => (w === "" ? w : w[0]!.toUpperCase() + w.slice(1));
const lowerFirst = (w: string) => (w === "" ? w : w[0]!.toLowerCase() + w.slice(1));

/** `["parse", "error"]` → `ParseError` (each word's first letter upper case, the rest as it is). */
export function pascalCase(ws: readonly string[]): string {
  return ws.map(upperFirst).join("");
}

/** `["related", "task"]` → `relatedTask`; `["parse", "error"]` → `parseError`. */
export function camelCase(ws: readonly string[]): string {
  return lowerFirst(pascalCase(ws));
}

/** camelCase that keeps the first word as written: `["related", "task"]` → `relatedTask`, `["X", "trace"]` → `XTrace`. */
export function joinedCase(ws: readonly string[]): string {
  return (ws[0] ?? "") + pascalCase(ws.slice(1));
}

/** `["revision", "2025", "11", "25"]` → `REVISION_2025_11_25`. */
export function constantCase(ws: readonly string[]): string {
  return ws.map((w) => w.toUpperCase()).join("_");
}

/** `text` with every character an identifier cannot hold replaced by `_` (a place in a type: `Tool.inputSchema` → `Tool_inputSchema`). */
export function identifierPart(text: string): string {
  return text.replace(/[^A-Za-z0-9_$]/g, "_");
}
