/**
 * Stage 1, load: turns an input location into a parsed, type-checked ts-morph source file.
 *
 * Input is either a file path (`.ts` or `.d.ts`) or a spec-repository folder plus a
 * version name (`<specDir>/schema/<version>/schema.ts`). The file is read once, checked
 * for size and encoding, hashed (sha256 of its bytes) and type-checked in an in-memory
 * project, so that the result never depends on files beside it.
 *
 * Errors (all {@link GeneratorError}, exit code 2 from the CLI):
 * MCG101 missing or unreadable file, MCG102 a directory or other non-file, MCG103 too large,
 * MCG104 empty (no bytes, or nothing but whitespace and comments), MCG105 not UTF-8 (located
 * at the first bad byte), MCG106 not TypeScript source (NUL bytes, or JSON), MCG107 types
 * nested too deeply, MCG110 TypeScript diagnostics, MCG202 imports (`import`, `export … from`,
 * `import("…")` types, `/// <reference path>` and `types` directives).
 */
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import type { SourceFile } from "ts-morph";
import { Node, Project, SyntaxKind, ts } from "../ts-morph.js";
import { DiagnosticBag, fail, isStackOverflow } from "../errors.js";
import { shellQuote } from "../shell.js";
import type { Diagnostic } from "../ir.js";

/** Where the schema comes from. */
export type SchemaInput =
  | { readonly path: string }
  | { readonly specDir: string; readonly version: string }
  | { readonly text: string; readonly fileName: string };

/** Largest input accepted, in bytes. The largest upstream schema.ts is about 110 KB. */
export const MAX_SCHEMA_BYTES = 5 * 1024 * 1024;

/**
 * Deepest bracket nesting (`(`, `[`, `{`, `<`) accepted. Upstream nests about 5 deep; far
 * deeper input would overflow the stack of the TypeScript parser or of later stages, so it
 * is refused up front, at the place it goes too deep (MCG107).
 */
export const MAX_NESTING = 100;

/** A loaded schema: its parsed file plus what the output header needs. */
export interface LoadedSchema {
  readonly sourceFile: SourceFile;
  /** Path as the user gave it; used in diagnostics. */
  readonly displayPath: string;
  /** Base name; used in generated output so it does not depend on the machine. */
  readonly fileName: string;
  readonly sha256: string;
  readonly text: string;
  /**
   * References to library types the schema is not read with (`Map`, `Set`: MCG206), when they are
   * its only TypeScript errors: {@link lowerSchema} reports them with the problems it finds, so that
   * every one is said at once (helper-80: `Promise` and `keyof` were said only once `Map` was gone).
   */
  readonly libraryTypes: readonly Diagnostic[];
}

/**
 * 1-based line and column (UTF-16 units) of `pos` in a loaded file, as the TypeScript compiler
 * reports them: a line ends at `\n`, `\r\n`, a lone `\r`, U+2028 or U+2029. The compiler's own
 * line map is built once per file and searched (ts-morph's `getLineAndColumnAtPos` counts the
 * line breaks from the start of the file on every call, which cost lowering about 0.1 s on the
 * MCP schema).
 */
export function lineAndColumnAt(sourceFile: SourceFile, pos: number): { line: number; column: number } {
  const { line, character } = sourceFile.compilerNode.getLineAndCharacterOfPosition(pos);
  return { line: line + 1, column: character + 1 };
}

/** Resolves a {@link SchemaInput} to a path or in-memory text. */
export function resolveInputPath(input: SchemaInput): string | undefined {
  // Checked, not trusted: library callers may pass any object here (a configuration file's
  // locked version, `{ version, lockFile }`, is one until `configInputs` reads it).
  if (typeof input !== "object" || input === null) {
    const hint = typeof input === "string" ? ` (a file is given as { path: ${JSON.stringify(input)} })` : "";
    const what = typeof input === "string" ? JSON.stringify(input) : input === null ? "null" : typeof input === "undefined" ? "undefined" : `a ${typeof input}`;
    throw fail("MCG001", `a schema input is { path }, { specDir, version } or { text, fileName }, not ${what}${hint}`);
  }
  const given = input as Partial<Record<"path" | "specDir" | "version" | "text" | "fileName" | "lockFile", unknown>>;
  if (typeof given.path === "string") return given.path;
  if (typeof given.specDir === "string" && typeof given.version === "string") return join(given.specDir, "schema", given.version, "schema.ts");
  if (typeof given.text === "string" && typeof given.fileName === "string") return undefined;
  const hint = typeof given.lockFile === "string" ? ": a locked version ({ version, lockFile }) is read by configInputs() first" : "";
  throw fail("MCG001", `a schema input is { path }, { specDir, version } or { text, fileName }, not ${JSON.stringify(Object.keys(input ?? {}))}${hint}`);
}

/**
 * What a folder given as a schema file most likely meant, as advice after a `; `: the `schema.ts` it holds, or, for a
 * clone of the spec repository (a `schema/` folder), its versions through `--spec`; else "".
 */
export function folderHint(path: string): string {
  const isA = (p: string, kind: "file" | "folder") => {
    try {
      const s = statSync(p);
      return kind === "file" ? s.isFile() : s.isDirectory();
    } catch {
      return false;
    }
  };
  if (isA(join(path, "schema.ts"), "file")) return `; give the schema file inside it: ${join(path, "schema.ts")}`;
  if (isA(join(path, "schema"), "folder")) return `; it holds schema/, as a clone of the spec repository does: name one of its versions with --spec ${shellQuote(path)}`;
  return "";
}

function readInput(path: string): Buffer {
  let stat;
  try {
    stat = statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") throw fail("MCG101", `schema file not found: ${path}`);
    throw fail("MCG101", `schema file cannot be read: ${path} (${code ?? "error"})`);
  }
  if (stat.isDirectory()) throw fail("MCG102", `schema path is a directory, not a file: ${path}${folderHint(path)}`);
  if (!stat.isFile()) throw fail("MCG102", `not a regular file: ${path}`);
  if (stat.size > MAX_SCHEMA_BYTES) {
    throw fail("MCG103", `schema file is ${stat.size} bytes; the limit is ${MAX_SCHEMA_BYTES} bytes: ${path}`);
  }
  try {
    return readFileSync(path);
  } catch (error) {
    throw fail("MCG101", `schema file cannot be read: ${path} (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  }
}

/** 1-based line and column (UTF-16 units) of `index` in `text`, counting line breaks as TypeScript does. */
function lineColumn(text: string, index: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < index; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0d && text.charCodeAt(i + 1) === 0x0a) i++;
    if (c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: index - lineStart + 1 };
}

/**
 * Offset of the first byte that does not belong to a well-formed UTF-8 sequence (no
 * overlong forms, no surrogates, nothing above U+10FFFF), or -1 when the bytes are UTF-8.
 */
function firstBadUtf8Byte(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let length: number;
    let low = 0x80;
    let high = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) length = 2;
    else if (b >= 0xe0 && b <= 0xef) {
      length = 3;
      if (b === 0xe0) low = 0xa0;
      if (b === 0xed) high = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      length = 4;
      if (b === 0xf0) low = 0x90;
      if (b === 0xf4) high = 0x8f;
    } else return i;
    for (let k = 1; k < length; k++) {
      const next = bytes[i + k];
      if (next === undefined || next < (k === 1 ? low : 0x80) || next > (k === 1 ? high : 0xbf)) return i;
    }
    i += length;
  }
  return -1;
}

function decode(bytes: Uint8Array, displayPath: string): string {
  if (bytes.length === 0) throw fail("MCG104", `schema file is empty: ${displayPath}`);
  if (bytes.length > MAX_SCHEMA_BYTES) {
    throw fail("MCG103", `schema text is ${bytes.length} bytes; the limit is ${MAX_SCHEMA_BYTES} bytes: ${displayPath}`);
  }
  const utf16 = bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
  if (utf16) {
    throw fail("MCG105", "schema file is UTF-16 (it starts with a UTF-16 byte order mark), not UTF-8: save it as UTF-8", {
      file: displayPath,
      line: 1,
      column: 1,
    });
  }
  const bad = firstBadUtf8Byte(bytes);
  if (bad >= 0) {
    const before = new TextDecoder("utf-8").decode(bytes.subarray(0, bad)).replace(/^\uFEFF/, "");
    const hex = bytes[bad]!.toString(16).padStart(2, "0");
    throw fail("MCG105", `schema file is not valid UTF-8: byte 0x${hex} here does not start a well-formed UTF-8 character; save the file as UTF-8`, {
      file: displayPath,
      ...lineColumn(before, before.length),
    });
  }
  const decoded = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  const text = decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
  const nul = text.indexOf("\u0000");
  if (nul >= 0) {
    throw fail("MCG106", "schema file contains a NUL byte and is not TypeScript source (a binary file?)", {
      file: displayPath,
      ...lineColumn(text, nul),
    });
  }
  const start = text.search(/\S/);
  if (start >= 0 && (text[start] === "{" || text[start] === "[")) {
    let json = false;
    try {
      JSON.parse(text);
      json = true;
    } catch {
      // not JSON: TypeScript will say what is wrong with it
    }
    if (json) {
      throw fail(
        "MCG106",
        "schema file is JSON, not TypeScript source: give the schema's .ts file (upstream's schema.json is generated from schema.ts)",
        { file: displayPath, ...lineColumn(text, start) },
      );
    }
  }
  return text;
}

/**
 * Where bracket nesting first goes deeper than {@link MAX_NESTING}, or -1. Scans tokens
 * without recursion, so it cannot overflow the stack on the input it guards against.
 */
function tooDeep(text: string): number {
  const scanner = ts.createScanner(ts.ScriptTarget.ES2022, true, ts.LanguageVariant.Standard, text);
  let depth = 0;
  // `T[][]…` nests arrays without brackets staying open: a run of `[]` pairs counts as depth too.
  let arrays = 0;
  let previous: ts.SyntaxKind = ts.SyntaxKind.Unknown;
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; previous = token, token = scanner.scan()) {
    if (token === ts.SyntaxKind.CloseBracketToken && previous === ts.SyntaxKind.OpenBracketToken) {
      if (depth - 1 + ++arrays > MAX_NESTING) return scanner.getTokenStart();
    } else if (token !== ts.SyntaxKind.OpenBracketToken) {
      arrays = 0;
    }
    switch (token) {
      case ts.SyntaxKind.OpenParenToken:
      case ts.SyntaxKind.OpenBracketToken:
      case ts.SyntaxKind.OpenBraceToken:
      case ts.SyntaxKind.LessThanToken:
        if (++depth > MAX_NESTING) return scanner.getTokenStart();
        break;
      case ts.SyntaxKind.CloseParenToken:
      case ts.SyntaxKind.CloseBracketToken:
      case ts.SyntaxKind.CloseBraceToken:
      case ts.SyntaxKind.GreaterThanToken:
        depth = Math.max(0, depth - 1);
        break;
      default:
        break;
    }
  }
  return -1;
}

/** Runs `fn`; a stack overflow inside TypeScript becomes MCG107 instead of an internal error. */
function withinStack<T>(displayPath: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (isStackOverflow(error)) {
      throw fail("MCG107", `schema nests types too deeply for the TypeScript compiler (its stack overflowed): ${displayPath}`);
    }
    throw error;
  }
}

/**
 * Reads, hashes and type-checks the schema. Throws {@link GeneratorError} with every
 * TypeScript diagnostic (syntax and semantic), each located, when the file does not compile.
 */
export function loadSchema(input: SchemaInput): LoadedSchema {
  const path = resolveInputPath(input);
  const displayPath = path ?? ("fileName" in input ? input.fileName : "schema.ts");
  const bytes = path !== undefined ? readInput(path) : Buffer.from((input as { text: string }).text, "utf8");
  const text = decode(bytes, displayPath);
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const fileName = basename(displayPath);
  const virtualName = fileName.endsWith(".ts") ? fileName : `${fileName}.ts`;

  const deep = tooDeep(text);
  if (deep >= 0) {
    throw fail("MCG107", `types nest more than ${MAX_NESTING} levels deep here; the generator accepts at most ${MAX_NESTING}`, {
      file: displayPath,
      ...lineColumn(text, deep),
    });
  }

  const project = new Project({
    useInMemoryFileSystem: true,
    compilerOptions: {
      strict: true,
      target: ts.ScriptTarget.ES2022,
      lib: ["lib.es5.d.ts"],
      types: [],
      noEmit: true,
      isolatedModules: false,
    },
  });
  const sourceFile = withinStack(displayPath, () => project.createSourceFile(`/${virtualName}`, text, { overwrite: true }));
  const bag = new DiagnosticBag();
  const at = (pos: number) => {
    const { line, column } = lineAndColumnAt(sourceFile, pos);
    return { file: displayPath, line, column };
  };
  const program = project.getProgram();
  let diagnostics: import("ts-morph").Diagnostic[] = withinStack(displayPath, () => program.getSyntacticDiagnostics(sourceFile));
  if (diagnostics.length === 0) {
    if (sourceFile.getStatements().length === 0) {
      throw fail("MCG104", `schema file declares nothing (it holds only whitespace and comments): ${displayPath}`);
    }
    // Imports and re-exports are reported as such, not as the module-resolution errors TypeScript gives for them.
    const imports: Node[] = sourceFile
      .getStatements()
      .filter((s) => Node.isImportDeclaration(s) || Node.isImportEqualsDeclaration(s) || (Node.isExportDeclaration(s) && s.getModuleSpecifier() !== undefined));
    for (const statement of imports) {
      const what = Node.isExportDeclaration(statement) ? "re-exports from other files are" : "imports from other files are";
      bag.add("MCG202", `${what} not supported: the schema must be one self-contained file`, at(statement.getStart()));
    }
    for (const node of withinStack(displayPath, () => sourceFile.getDescendantsOfKind(SyntaxKind.ImportType))) {
      bag.add("MCG202", `import type \`${snippet(node)}\` is not supported: the schema must be one self-contained file`, at(node.getStart()));
      imports.push(node);
    }
    // A `/// <reference path>` or `types` directive names another file too (TypeScript said only that the file was not found).
    const references = [
      ...sourceFile.getPathReferenceDirectives().map((r) => ({ r, kind: "path" })),
      ...sourceFile.getTypeReferenceDirectives().map((r) => ({ r, kind: "types" })),
    ].map(({ r, kind }) => ({ pos: r.getPos(), end: r.getEnd(), kind, name: r.getFileName() }));
    for (const { pos, kind, name } of references.sort((a, b) => a.pos - b.pos)) {
      bag.add("MCG202", `\`/// <reference ${kind}=${JSON.stringify(name)} />\` is not supported: the schema must be one self-contained file`, at(pos));
    }
    const inImport = (pos: number | undefined) =>
      pos !== undefined && (imports.some((s) => pos >= s.getPos() && pos < s.getEnd()) || references.some((r) => pos >= r.pos && pos < r.end));
    diagnostics = withinStack(displayPath, () => program.getSemanticDiagnostics(sourceFile)).filter((d) => !inImport(d.getStart()));
  }
  const libraryTypes = new DiagnosticBag();
  for (const d of diagnostics) {
    const start = d.getStart();
    // A library type the schema is not read with (Map, Set: ES2015): no JSON form, said as for one it is read with (Promise).
    if (LIBRARY_NAME_MISSING.has(d.getCode()) && start !== undefined) {
      libraryTypes.add("MCG206", unknownTypeMessage(text.slice(start, start + (d.getLength() ?? 0))), at(start));
      continue;
    }
    const message = ts.flattenDiagnosticMessageText(d.compilerObject.messageText, " ");
    bag.add("MCG110", `TypeScript TS${d.getCode()}: ${message}`, start !== undefined ? at(start) : undefined);
  }
  if (bag.items.length > 0) bag.items.push(...libraryTypes.items);
  bag.throwIfAny();
  return { sourceFile, displayPath, fileName, sha256, text, libraryTypes: libraryTypes.items };
}

/** MCG206's words for a type `name` the schema does not declare (load says them for `Map` and `Set`, lowering for the rest). */
export function unknownTypeMessage(name: string): string {
  if (LIBRARY_TYPE_OPERATORS.has(name)) {
    return `${name} is a TypeScript library type the generator does not read (of those it reads Omit, Pick, Partial, Required, Readonly, Record, Array and ReadonlyArray): write out the type it stands for`;
  }
  if (LIBRARY_TYPES_WITHOUT_JSON.has(name)) return `${name} is a JavaScript library type with no JSON form: write the type of what is sent for it`;
  return `reference to an unknown type ${name}: it is not declared in this file`;
}

/** JavaScript's library types whose values JSON cannot carry (`Date` is read as a `date-time` string instead). */
const LIBRARY_TYPES_WITHOUT_JSON: ReadonlySet<string> = new Set([
  "Promise",
  "PromiseLike",
  "Map",
  "Set",
  "WeakMap",
  "WeakSet",
  "WeakRef",
  "ReadonlyMap",
  "ReadonlySet",
  "RegExp",
  "Function",
  "Symbol",
  "Error",
  "ArrayBuffer",
  "SharedArrayBuffer",
  "DataView",
  "Uint8Array",
  "Int8Array",
  "Uint16Array",
  "Int16Array",
  "Uint32Array",
  "Int32Array",
  "Float32Array",
  "Float64Array",
  "BigInt64Array",
  "BigUint64Array",
  "Iterable",
  "Iterator",
  "Generator",
]);

/** TypeScript's library types that compute a type from others: a schema that uses one is told so, not that the name is unknown. */
const LIBRARY_TYPE_OPERATORS: ReadonlySet<string> = new Set([
  "Exclude",
  "Extract",
  "NonNullable",
  "Uppercase",
  "Lowercase",
  "Capitalize",
  "Uncapitalize",
  "ReturnType",
  "Parameters",
  "ConstructorParameters",
  "InstanceType",
  "Awaited",
  "NoInfer",
  "ThisType",
  "OmitThisParameter",
  "ThisParameterType",
]);

/** TypeScript's "Cannot find name 'Set'. Do you need to change your target library?" (TS2583, TS2584: the DOM library). */
const LIBRARY_NAME_MISSING: ReadonlySet<number> = new Set([2583, 2584]);

/** The first line of a node's source, at most 60 characters: how messages quote a construct. */
export function snippet(node: Node): string {
  return node.getText().split("\n")[0]!.slice(0, 60);
}
