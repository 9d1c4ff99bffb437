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
import { loadSchema, type SchemaInput } from "./load/index.js";
import { runtimeFiles } from "./emit/runtime.js";
import { lowerSchema } from "./lower/index.js";
import { GeneratorError, isStackOverflow } from "./errors.js";
import { DEFAULT_OPTIONS, describeOptions, OPTION_SPECS, type GeneratorOptions } from "./options.js";
import { GENERATOR_VERSION } from "./version.js";
import { GENERATED_MARK } from "./write.js";

export { GeneratorError, formatDiagnostic } from "./errors.js";
export { DEFAULT_OPTIONS, OPTION_SPECS, type GeneratorOptions } from "./options.js";
export { TARGETS, TARGET_NAMES, type TargetName } from "./emit/index.js";
export type { SchemaInput } from "./load/index.js";
export type * from "./ir.js";
export { GENERATOR_VERSION } from "./version.js";

/** Input and options of one generation. */
export interface GenerateOptions extends Partial<GeneratorOptions> {
  readonly schema: SchemaInput;
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
async function emitTargetChecked(name: TargetName, model: Model, context: EmitContext): Promise<string> {
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

/** What {@link generate} returns. */
export interface GenerateResult {
  readonly files: readonly GeneratedFile[];
  readonly ir: SchemaIR;
  /** What the schema and the selected prose rules say about the protocol (methods, error codes, `_meta`). */
  readonly protocol: ProtocolFacts;
  /** Non-fatal findings (e.g. merged interface declarations). */
  readonly warnings: readonly Diagnostic[];
  /** The comment every generated file starts with (generator version, input hash, options). */
  readonly header: string;
}

/**
 * Generates the output files for one schema. Deterministic: the same input bytes and
 * options give the same files, byte for byte, on any machine, locale or time zone.
 *
 * @throws GeneratorError with every problem found (file:line:col and a code) when the
 *   schema cannot be read, does not compile, or uses a construct the generator does not support.
 */
export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  checkOptions(options);
  const resolved: GeneratorOptions = {
    docs: options.docs ?? DEFAULT_OPTIONS.docs,
    numberType: options.numberType ?? DEFAULT_OPTIONS.numberType,
    targets: expandTargets(options.targets ?? DEFAULT_OPTIONS.targets),
    enumStyle: options.enumStyle ?? DEFAULT_OPTIONS.enumStyle,
    protocolRules: options.protocolRules ?? DEFAULT_OPTIONS.protocolRules,
  };
  const loaded = loadSchema(options.schema);
  const ir = lowerSchema(loaded, { numberType: resolved.numberType });
  const warnings: Diagnostic[] = [...ir.warnings];
  try {
    const model = analyze(ir);
    const protocol = protocolFacts(model, resolved.protocolRules);
    if (protocol.rulesNote !== undefined) warnings.push({ code: "MCG260", message: protocol.rulesNote });
    warnings.push(...protocol.warnings);
    const header = [
      `${GENERATED_MARK}${GENERATOR_VERSION} from ${headerSafe(loaded.fileName)} (sha256 ${loaded.sha256}).`,
      `// Options: ${describeOptions(resolved)}`,
      "// Do not edit: regenerate with `mcp-schema-codegen generate`.",
    ].join("\n");
    const context = { docs: resolved.docs, header, targets: resolved.targets, protocol, enumStyle: resolved.enumStyle };
    const files: GeneratedFile[] = [];
    for (const name of resolved.targets as TargetName[]) {
      files.push({ path: TARGETS[name].file, contents: await emitTargetChecked(name, model, context) });
    }
    checkExportCollisions(files, model);
    // The runtime modules the generated files import, pruned to what they use.
    files.push(...runtimeFiles(files, header));
    return { files, ir, protocol, warnings, header };
  } catch (error) {
    // A later stage's errors still come with the warnings found so far.
    if (error instanceof GeneratorError && error.warnings.length === 0 && warnings.length > 0) {
      throw new GeneratorError(error.diagnostics, warnings);
    }
    throw error;
  }
}
