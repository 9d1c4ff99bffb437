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
    if (docs?.text) lines.push(...includedFiles(siteLinks(docs.text)).split("\n"));
    for (const tag of docs?.tags ?? []) {
      if (DROPPED_TAGS.has(tag.name)) continue;
      if (lines.length > 0 && !lines[lines.length - 1]!.startsWith("@") && lines[lines.length - 1] !== "") lines.push("");
      // A tag's value that is code or a rule (`@example`, `@TJS-pattern`) is written as the schema wrote it, but for the
      // files it includes.
      const text = includedFiles(PROSE_TAGS.has(tag.name) ? siteLinks(tag.text) : tag.text);
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

/**
 * `text` with each `{@includeCode ./examples/…}` (a file beside the schema, which TypeDoc would
 * include) written as the file's name in a code span, saying where it is: vendored code has no
 * such file beside it, and the tag would name nothing there (helper-107).
 */
export function includedFiles(text: string): string {
  return text.replace(/\{@includeCode\s+(?:\.\/)?([^}\s]+)\s*\}/g, (_, path: string) => `\`${path}\` (beside the spec's schema.ts)`);
}

/** The site the spec's `docs/` folder is published at: a schema's doc links are written relative to its root. */
export const SPEC_SITE = "https://modelcontextprotocol.io";

/** Tags whose text is prose, where {@link siteLinks} applies; other tags' values are code or rules. */
const PROSE_TAGS = new Set(["deprecated", "see", "remarks", "returns", "param", "throws", "since", "category"]);

/**
 * `text` with its Markdown links to the spec site's own pages (`[_meta](/specification/draft/basic/index#meta)`,
 * relative to the site's root; also `](</…>)` and a reference definition `[x]: /…`) made absolute, so that they still
 * lead there from code vendored elsewhere. Code stays as written: fenced blocks (```` ``` ```` or `~~~`), code spans (a
 * run of backticks closed by a run of the same length, as CommonMark reads them; a run left open is text), and what a
 * backslash escapes (`\[x\](/y)` is no link).
 */
export function siteLinks(text: string): string {
  let fence: string | undefined;
  const blocks: { code: boolean; lines: string[] }[] = [];
  for (const line of text.split("\n")) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    const code = fence !== undefined || marker !== undefined;
    if (fence !== undefined) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined;
    } else if (marker !== undefined) fence = marker;
    const last = blocks[blocks.length - 1];
    if (last !== undefined && last.code === code) last.lines.push(line);
    else blocks.push({ code, lines: [line] });
  }
  return blocks.map((b) => (b.code ? b.lines.join("\n") : inlineSiteLinks(b.lines.join("\n")))).join("\n");
}

/** {@link siteLinks} in text outside fenced blocks. */
function inlineSiteLinks(text: string): string {
  const absolute = (path: string) => `${SPEC_SITE}${path}`;
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "\\") {
      out += text.slice(i, i + 2);
      i += 2;
    } else if (c === "`") {
      const run = /^`+/.exec(text.slice(i))![0];
      const close = closingRun(text, i + run.length, run.length);
      const end = close === undefined ? i + run.length : close + run.length;
      out += text.slice(i, end);
      i = end;
    } else if (c === "]" && /^\]\(<?\/(?!\/)/.test(text.slice(i, i + 5))) {
      const open = text[i + 2] === "<" ? "](<" : "](";
      out += open + absolute("");
      i += open.length;
    } else if (c === "[" && (i === 0 || text[i - 1] === "\n") && /^\[[^\]\n]+\]:[ \t]*<?\/(?!\/)/.test(text.slice(i))) {
      // A reference definition at a line's start: `[x]: /specification/a`.
      const head = /^\[[^\]\n]+\]:[ \t]*<?/.exec(text.slice(i))![0];
      out += head + absolute("");
      i += head.length;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Where the next run of exactly `length` backticks at or after `from` starts, if any. */
function closingRun(text: string, from: number, length: number): number | undefined {
  for (let i = from; i < text.length; ) {
    if (text[i] !== "`") {
      i++;
      continue;
    }
    let end = i;
    while (text[end] === "`") end++;
    if (end - i === length) return i;
    i = end;
  }
  return undefined;
}

/** Text safe inside a block comment: a `*\/` in it would end the comment. */
export function commentSafe(text: string): string {
  return text.replace(/\*\//g, "*\\/");
}
