/**
 * Public API of mcp-schema-codegen.
 *
 * `generate(options)` runs load → lower → analyze → emit and returns the output files
 * as `{ path, contents }`; it reads the schema but never writes to disk (see `writeOutput`).
 */
import type { ProtocolFacts } from "./analyze/protocol.js";
import { expandTargets, type TargetName } from "./emit/index.js";
import type { Diagnostic, SchemaIR } from "./ir.js";
import type { SchemaInput } from "./load/index.js";
import { GeneratorError } from "./errors.js";
import { DEFAULT_OPTIONS, OPTION_SPECS, optionWarnings, type GeneratorOptions } from "./options.js";
import { analyzeSchema, emitModules, withRuntime, withWarnings } from "./pipeline.js";
import { generateRevisions } from "./multi.js";

export { GeneratorError, formatDiagnostic } from "./errors.js";
export { DEFAULT_OPTIONS, IMPORT_EXTENSIONS, OPTION_SPECS, type GeneratorOptions, type ImportExtension } from "./options.js";
export { TARGETS, TARGET_NAMES, type TargetName } from "./emit/index.js";
export type { SchemaInput } from "./load/index.js";
export type * from "./ir.js";
export { GENERATOR_VERSION } from "./version.js";
export { CONFIG_FILE_NAME, configInputs, findConfigFile, isLockedInput, loadConfig, type Config, type ConfigInput, type ConfigOutput, type LockedInput } from "./config.js";
export { analyzeSchema, type AnalyzedSchema } from "./pipeline.js";

/** Input and options of one generation. */
export interface GenerateOptions extends Partial<GeneratorOptions> {
  /**
   * The schema, or several: one per protocol revision the output serves. With several, each
   * revision's modules go in a folder named by its protocol version, beside one `dispatch.ts`
   * serving them all, whose handlers are typed with the first modern revision (see `multi.ts`).
   */
  readonly schema: SchemaInput | readonly SchemaInput[];
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
  // Callers without types (plain JavaScript) can pass anything, or leave the schema out: refused as a missing schema, not read.
  if (typeof options !== "object" || options === null) throw new GeneratorError([{ code: "MCG001", message: "no schema given: generate() takes { schema, …options }" }]);
  checkOptions(options);
  const resolved = resolveOptions(options);
  const inputs: readonly SchemaInput[] = isInputList(options.schema) ? options.schema : options.schema == null ? [] : [options.schema];
  if (inputs.length === 0) throw new GeneratorError([{ code: "MCG001", message: "no schema given" }]);
  if (inputs.length > 1) return generateRevisions(inputs, resolved, options.protocolRules !== undefined);
  const schema = analyzeSchema(inputs[0]!, resolved);
  try {
    const files = await emitModules(schema, resolved.targets as TargetName[], resolved);
    const warnings = [...schema.warnings, ...optionWarnings(resolved, files)];
    return { files: withRuntime(files, resolved), ir: schema.ir, protocol: schema.protocol, warnings, header: schema.header };
  } catch (error) {
    throw withWarnings(error, schema.warnings);
  }
}

function isInputList(schema: SchemaInput | readonly SchemaInput[]): schema is readonly SchemaInput[] {
  return Array.isArray(schema);
}
