/**
 * Public API of mcp-schema-codegen.
 *
 * `generate(options)` runs load → lower → analyze → emit and returns the output files
 * as `{ path, contents }`; it reads the schema but never writes to disk (see `writeOutput`).
 */
import { analyze, type Model } from "./analyze/index.js";
import { protocolFacts, type ProtocolFacts } from "./analyze/protocol.js";
import { checkExportCollisions, emitTarget, expandTargets, TARGETS, type EmitContext, type TargetName } from "./emit/index.js";
import type { Diagnostic, SchemaIR } from "./ir.js";
import { loadSchema, type LoadedSchema, type SchemaInput } from "./load/index.js";
import { runtimeFiles, runtimeModuleExports } from "./emit/runtime.js";

/** The runtime modules of the Node.js transports (`--transports node`). */
const NODE_TRANSPORTS = ["stdio", "http"] as const;
import { lowerSchema } from "./lower/index.js";
import { GeneratorError, isStackOverflow } from "./errors.js";
import { DEFAULT_OPTIONS, describeOptions, OPTION_SPECS, type GeneratorOptions } from "./options.js";
import { GENERATOR_VERSION } from "./version.js";
import { GENERATED_MARK } from "./write.js";
import { rewriteImportExtensions } from "./emit/imports.js";
import { generateRevisions } from "./multi.js";

export { GeneratorError, formatDiagnostic } from "./errors.js";
export { DEFAULT_OPTIONS, IMPORT_EXTENSIONS, OPTION_SPECS, type GeneratorOptions, type ImportExtension } from "./options.js";
export { TARGETS, TARGET_NAMES, type TargetName } from "./emit/index.js";
export type { SchemaInput } from "./load/index.js";
export type * from "./ir.js";
export { GENERATOR_VERSION } from "./version.js";
export { CONFIG_FILE_NAME, findConfigFile, loadConfig, type Config, type ConfigOutput } from "./config.js";

/** Input and options of one generation. */
export interface GenerateOptions extends Partial<GeneratorOptions> {
  /**
   * The schema, or several: one per protocol revision the output serves. With several, each
   * revision's modules go in a folder named by its protocol version, beside one `dispatch.ts`
   * serving them all, whose handlers are typed with the first modern revision (see `multi.ts`).
   */
  readonly schema: SchemaInput | readonly SchemaInput[];
}

/** A file name fit for a `//` comment: line breaks and other control characters become `?`. */
function headerSafe(name: string): string {
  return name.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, "?");
}

/** Rejects option values outside the options table (MCG001), as the CLI does. */
function checkOptions(options: GenerateOptions): void {
  const problems: string[] = [];
  for (const spec of OPTION_SPECS) {
    const value: unknown = options[spec.key];
    if (value === undefined) continue;
    const values = spec.list ? (Array.isArray(value) ? (value as unknown[]) : [value]) : [value];
    if (spec.list && values.length === 0) problems.push(`${spec.key} is empty; choose from ${spec.choices.join(", ")}`);
    for (const v of values) {
      if (!spec.choices.includes(v as string)) problems.push(`${spec.key}: ${JSON.stringify(v)} is not one of ${spec.choices.join(", ")}`);
    }
  }
  if (problems.length > 0) throw new GeneratorError(problems.map((message) => ({ code: "MCG001", message })));
}

/**
 * Emits one target; a stack overflow while building or formatting it (a union or interface
 * with thousands of members makes expressions Prettier cannot walk) becomes MCG310.
 */
export async function emitTargetChecked(name: TargetName, model: Model, context: EmitContext): Promise<string> {
  try {
    return await emitTarget(name, model, context);
  } catch (error) {
    if (isStackOverflow(error)) {
      throw new GeneratorError([
        {
          code: "MCG310",
          message: `${TARGETS[name].file} is too large to build: a type with thousands of members or union members; split it into named parts`,
        },
      ]);
    }
    throw error;
  }
}

/** One output file: a path relative to the output folder, and its full text. */
export interface GeneratedFile {
  readonly path: string;
  readonly contents: string;
}

/** One revision of a multi-revision output. */
export interface RevisionResult {
  /** The folder its modules are in, relative to the output folder (its protocol version). */
  readonly folder: string;
  readonly ir: SchemaIR;
  readonly protocol: ProtocolFacts;
  /** The header of the files in its folder (its input's name and sha256). */
  readonly header: string;
}

/** What {@link generate} returns. */
export interface GenerateResult {
  readonly files: readonly GeneratedFile[];
  /** The schema's IR (with several schemas: the handler revision's). */
  readonly ir: SchemaIR;
  /** What the schema and the selected prose rules say about the protocol (methods, error codes, `_meta`); with several schemas, the handler revision's. */
  readonly protocol: ProtocolFacts;
  /** Non-fatal findings (e.g. merged interface declarations). */
  readonly warnings: readonly Diagnostic[];
  /** The comment every generated file starts with (generator version, input hash, options); with several schemas, that of the shared files (dispatch.ts, index.ts, runtime/). */
  readonly header: string;
  /** With several schemas: each revision, the handler revision first. */
  readonly revisions?: readonly RevisionResult[];
}

/** The options with their defaults. */
function resolveOptions(options: GenerateOptions): GeneratorOptions {
  return {
    docs: options.docs ?? DEFAULT_OPTIONS.docs,
    numberType: options.numberType ?? DEFAULT_OPTIONS.numberType,
    targets: expandTargets(options.targets ?? DEFAULT_OPTIONS.targets),
    enumStyle: options.enumStyle ?? DEFAULT_OPTIONS.enumStyle,
    protocolRules: options.protocolRules ?? DEFAULT_OPTIONS.protocolRules,
    importExtension: options.importExtension ?? DEFAULT_OPTIONS.importExtension,
    transports: options.transports ?? DEFAULT_OPTIONS.transports,
  };
}

/** One schema read, lowered and analysed, with the header of the files generated from it. */
export interface AnalyzedSchema {
  readonly loaded: LoadedSchema;
  readonly ir: SchemaIR;
  readonly model: Model;
  readonly protocol: ProtocolFacts;
  readonly warnings: readonly Diagnostic[];
  readonly header: string;
}

/** The first line of a header: the generator and the input(s) it read. */
export function headerSource(inputs: readonly { readonly fileName: string; readonly sha256: string }[]): string {
  return `${GENERATED_MARK}${GENERATOR_VERSION} from ${inputs.map((i) => `${headerSafe(i.fileName)} (sha256 ${i.sha256})`).join(" and ")}.`;
}

/** The header every file of an output starts with. */
export function headerOf(source: string, resolved: GeneratorOptions): string {
  return [source, `// Options: ${describeOptions(resolved)}`, "// Do not edit: regenerate with `mcp-schema-codegen generate`."].join("\n");
}

/**
 * Loads, lowers and analyses one schema. A later stage's errors carry the warnings found so far.
 */
export function analyzeSchema(input: SchemaInput, resolved: GeneratorOptions): AnalyzedSchema {
  const loaded = loadSchema(input);
  const ir = lowerSchema(loaded, { numberType: resolved.numberType });
  const warnings: Diagnostic[] = [...ir.warnings];
  try {
    const model = analyze(ir);
    const protocol = protocolFacts(model, resolved.protocolRules);
    if (protocol.rulesNote !== undefined) warnings.push({ code: "MCG260", message: protocol.rulesNote });
    warnings.push(...protocol.warnings);
    return { loaded, ir, model, protocol, warnings, header: headerOf(headerSource([loaded]), resolved) };
  } catch (error) {
    throw withWarnings(error, warnings);
  }
}

/** A generator error with `warnings` added, when it has none of its own. */
export function withWarnings(error: unknown, warnings: readonly Diagnostic[]): unknown {
  if (error instanceof GeneratorError && error.warnings.length === 0 && warnings.length > 0) return new GeneratorError(error.diagnostics, warnings);
  return error;
}

/** The modules of one revision, from the targets in table order (paths relative to their folder). */
export async function emitModules(schema: AnalyzedSchema, targets: readonly TargetName[], resolved: GeneratorOptions): Promise<GeneratedFile[]> {
  const context = { docs: resolved.docs, header: schema.header, targets, protocol: schema.protocol, enumStyle: resolved.enumStyle };
  const files: GeneratedFile[] = [];
  for (const name of targets) {
    files.push({ path: TARGETS[name].file, contents: await emitTargetChecked(name, schema.model, context) });
  }
  checkExportCollisions(files, schema.model);
  return files;
}

/**
 * The runtime modules the generated files import, pruned to what they use, after them; then
 * every file's imports get their extension. With `--transports node`, the Node.js transports
 * too (all they export).
 */
export function withRuntime(files: readonly GeneratedFile[], header: string, resolved: GeneratorOptions): GeneratedFile[] {
  const transports = resolved.transports === "node" ? new Map(NODE_TRANSPORTS.map((t) => [t, runtimeModuleExports(t)])) : new Map<string, ReadonlySet<string>>();
  return [...files, ...runtimeFiles(files, header, transports)].map((f) => ({ path: f.path, contents: rewriteImportExtensions(f.contents, resolved.importExtension) }));
}

/**
 * Generates the output files for one schema, or for several (one per protocol revision the
 * output serves). Deterministic: the same input bytes and options give the same files, byte
 * for byte, on any machine, locale or time zone.
 *
 * @throws GeneratorError with every problem found (file:line:col and a code) when a
 *   schema cannot be read, does not compile, or uses a construct the generator does not support;
 *   MCG320 when several schemas cannot be served together
 */
export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  checkOptions(options);
  const resolved = resolveOptions(options);
  const inputs: readonly SchemaInput[] = isInputList(options.schema) ? options.schema : [options.schema];
  if (inputs.length === 0) throw new GeneratorError([{ code: "MCG001", message: "no schema given" }]);
  if (inputs.length > 1) return generateRevisions(inputs, resolved, options.protocolRules !== undefined);
  const schema = analyzeSchema(inputs[0]!, resolved);
  try {
    const files = await emitModules(schema, resolved.targets as TargetName[], resolved);
    return { files: withRuntime(files, schema.header, resolved), ir: schema.ir, protocol: schema.protocol, warnings: schema.warnings, header: schema.header };
  } catch (error) {
    throw withWarnings(error, schema.warnings);
  }
}

function isInputList(schema: SchemaInput | readonly SchemaInput[]): schema is readonly SchemaInput[] {
  return Array.isArray(schema);
}
