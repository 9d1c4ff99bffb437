/**
 * Stage 1, load: turns an input location into a parsed, type-checked ts-morph source file.
 *
 * Input is either a file path (`.ts` or `.d.ts`) or a spec-repository folder plus a
 * version name (`<specDir>/schema/<version>/schema.ts`). The file is read once, checked
 * for size and encoding, hashed (sha256 of its bytes) and type-checked in an in-memory
 * project, so that the result never depends on files beside it.
 *
 * Errors (all {@link GeneratorError}, exit code 2 from the CLI):
 * MCG101 missing file, MCG102 not a regular file, MCG103 too large, MCG104 empty,
 * MCG105 not UTF-8, MCG106 not TypeScript source (binary), MCG110 TypeScript diagnostics,
 * MCG202 imports.
 */
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { Node, Project, ts, type SourceFile } from "ts-morph";
import { DiagnosticBag, fail } from "../errors.js";

/** Where the schema comes from. */
export type SchemaInput =
  | { readonly path: string }
  | { readonly specDir: string; readonly version: string }
  | { readonly text: string; readonly fileName: string };

/** Largest input accepted, in bytes. The largest upstream schema.ts is about 110 KB. */
export const MAX_SCHEMA_BYTES = 5 * 1024 * 1024;

/** A loaded schema: its parsed file plus what the output header needs. */
export interface LoadedSchema {
  readonly sourceFile: SourceFile;
  /** Path as the user gave it; used in diagnostics. */
  readonly displayPath: string;
  /** Base name; used in generated output so it does not depend on the machine. */
  readonly fileName: string;
  readonly sha256: string;
  readonly text: string;
}

/** Resolves a {@link SchemaInput} to a path or in-memory text. */
export function resolveInputPath(input: SchemaInput): string | undefined {
  if ("path" in input) return input.path;
  if ("specDir" in input) return join(input.specDir, "schema", input.version, "schema.ts");
  return undefined;
}

function readInput(path: string): Buffer {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    throw fail("MCG101", `schema file not found: ${path}`);
  }
  if (!stat.isFile()) throw fail("MCG102", `not a regular file: ${path}`);
  if (stat.size > MAX_SCHEMA_BYTES) {
    throw fail("MCG103", `schema file is ${stat.size} bytes; the limit is ${MAX_SCHEMA_BYTES} bytes: ${path}`);
  }
  return readFileSync(path);
}

function decode(bytes: Uint8Array, displayPath: string): string {
  if (bytes.length === 0) throw fail("MCG104", `schema file is empty: ${displayPath}`);
  if (bytes.length > MAX_SCHEMA_BYTES) {
    throw fail("MCG103", `schema text is ${bytes.length} bytes; the limit is ${MAX_SCHEMA_BYTES} bytes: ${displayPath}`);
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw fail("MCG105", `schema file is not valid UTF-8: ${displayPath}`);
  }
  if (text.includes("\u0000")) throw fail("MCG106", `schema file contains NUL bytes and is not TypeScript source: ${displayPath}`);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
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
  const sourceFile = project.createSourceFile(`/${virtualName}`, text, { overwrite: true });
  const bag = new DiagnosticBag();
  const at = (pos: number) => {
    const { line, column } = sourceFile.getLineAndColumnAtPos(pos);
    return { file: displayPath, line, column };
  };
  const program = project.getProgram();
  let diagnostics: import("ts-morph").Diagnostic[] = program.getSyntacticDiagnostics(sourceFile);
  if (diagnostics.length === 0) {
    // An import is reported as such, not as the module-resolution errors TypeScript gives for it.
    const imports = sourceFile.getStatements().filter((s) => Node.isImportDeclaration(s) || Node.isImportEqualsDeclaration(s));
    for (const statement of imports) {
      bag.add("MCG202", "imports from other files are not supported: the schema must be one self-contained file", at(statement.getStart()));
    }
    const inImport = (pos: number | undefined) => pos !== undefined && imports.some((s) => pos >= s.getPos() && pos < s.getEnd());
    diagnostics = program.getSemanticDiagnostics(sourceFile).filter((d) => !inImport(d.getStart()));
  }
  for (const d of diagnostics) {
    const start = d.getStart();
    const message = ts.flattenDiagnosticMessageText(d.compilerObject.messageText, " ");
    bag.add("MCG110", `TypeScript TS${d.getCode()}: ${message}`, start !== undefined ? at(start) : undefined);
  }
  bag.throwIfAny();
  return { sourceFile, displayPath, fileName, sha256, text };
}
