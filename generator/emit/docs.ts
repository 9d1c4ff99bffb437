/**
 * Doc comments in generated output, per `--docs`:
 * - `full`: the declaration's JSDoc text and tags, as in `schema.ts`;
 * - `tags`: only `@deprecated` (without its text) and a `schema.ts:LINE` reference;
 * - `none`: no comments.
 *
 * `@internal` is never written: the spec marks declarations that its site leaves out with it
 * (`JSONRPC_VERSION`, `InputRequest`), and other exported types refer to them, so a project that
 * builds declaration files with TypeScript's `stripInternal` would be left with dangling names.
 */
import type { Docs } from "../ir.js";

export type DocsMode = "full" | "tags" | "none";

const KEPT_TAGS = new Set(["deprecated"]);
/** Tags `full` leaves out too (see the module comment). */
const DROPPED_TAGS = new Set(["internal"]);

/** A `/** … *\/` block for a declaration (with its line) or a property (without), or "". */
export function renderDoc(mode: DocsMode, source: string, docs: Docs | undefined, line?: number): string {
  if (mode === "none") return "";
  const lines: string[] = [];
  if (mode === "full") {
    if (docs?.text) lines.push(...siteLinks(docs.text).split("\n"));
    for (const tag of docs?.tags ?? []) {
      if (DROPPED_TAGS.has(tag.name)) continue;
      if (lines.length > 0 && !lines[lines.length - 1]!.startsWith("@") && lines[lines.length - 1] !== "") lines.push("");
      // A tag's value that is code or a rule (`@example`, `@TJS-pattern`) is written as the schema wrote it.
      const text = PROSE_TAGS.has(tag.name) ? siteLinks(tag.text) : tag.text;
      lines.push(...`@${tag.name}${text ? ` ${text}` : ""}`.split("\n"));
    }
  } else {
    if (line !== undefined) lines.push(`${source}:${line}`);
    for (const tag of docs?.tags ?? []) if (KEPT_TAGS.has(tag.name)) lines.push(`@${tag.name}`);
  }
  if (lines.length === 0) return "";
  const safe = lines.map(commentSafe);
  if (safe.length === 1) return `/** ${safe[0]} */`;
  return ["/**", ...safe.map((l) => (l ? ` * ${l}` : " *")), " */"].join("\n");
}

/** The site the spec's `docs/` folder is published at: a schema's doc links are written relative to its root. */
export const SPEC_SITE = "https://modelcontextprotocol.io";

/** Tags whose text is prose, where {@link siteLinks} applies; other tags' values are code or rules. */
const PROSE_TAGS = new Set(["deprecated", "see", "remarks", "returns", "param", "throws", "since", "category"]);

/**
 * `text` with its Markdown links to the spec site's own pages (`[_meta](/specification/draft/basic/index#meta)`,
 * relative to the site's root) made absolute, so that they still lead there from code vendored elsewhere. Text in a
 * code span (`` `[x](/y)` ``) is code and stays as written.
 */
export function siteLinks(text: string): string {
  // The odd pieces of a split on code spans are the spans themselves.
  return text
    .split(/(`+[^`]*`+)/)
    .map((piece, i) => (i % 2 === 1 ? piece : piece.replace(/\]\(\/(?!\/)/g, `](${SPEC_SITE}/`)))
    .join("");
}

/** Text safe inside a block comment: a `*\/` in it would end the comment. */
export function commentSafe(text: string): string {
  return text.replace(/\*\//g, "*\\/");
}
