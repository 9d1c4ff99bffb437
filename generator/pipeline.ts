/**
 * The stages of one generation, shared by the one-schema path (`index.ts`) and the
 * several-revision one (`multi.ts`): a schema loaded, lowered and analysed; its modules emitted;
 * the runtime modules they use added; every file's imports given their extension.
 */
import { analyze, type Model } from "./analyze/index.js";
import { protocolFacts, type ProtocolFacts } from "./analyze/protocol.js";
import { declareModuleNames, emitTarget, TARGETS, type EmitContext, type ModuleNames, type TargetName } from "./emit/index.js";
import { rewriteImportExtensions } from "./emit/imports.js";
import { runtimeFiles, runtimeModuleExports } from "./emit/runtime.js";
import { SymbolTable } from "./emit/symbols.js";
import { GeneratorError, isStackOverflow } from "./errors.js";
import type { GeneratedFile } from "./index.js";
import type { Diagnostic, SchemaIR } from "./ir.js";
import { loadSchema, type LoadedSchema, type SchemaInput } from "./load/index.js";
import { lowerSchema } from "./lower/index.js";
import { describeOptions, type GeneratorOptions } from "./options.js";
import { GENERATOR_VERSION } from "./version.js";
import { GENERATED_MARK } from "./write.js";

/** The runtime modules of the Node.js transports (`--transports node`). */
const NODE_TRANSPORTS = ["stdio", "http"] as const;

/** A file name fit for a `//` comment: line breaks and other control characters become `?`. */
function headerSafe(name: string): string {
  return name.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, "?");
}

/**
 * Emits one target; a stack overflow while building or formatting it (a union or interface
 * with thousands of members makes expressions Prettier cannot walk) becomes MCG310, and so does
 * text longer than a string can hold (a type written out in place again at each use; the
 * utility-type chains that did so are refused earlier, MCG207).
 */
async function emitTargetChecked(name: TargetName, model: Model, context: EmitContext): Promise<string> {
  try {
    return await emitTarget(name, model, context);
  } catch (error) {
    const cause = isStackOverflow(error)
      ? "a type with thousands of members or union members; split it into named parts"
      : error instanceof RangeError && /invalid string length/i.test(error.message)
        ? "longer than a string can hold. A type is written out in place again at each use; give the object types it repeats names (an interface or alias) so that each is checked by one function"
        : undefined;
    if (cause !== undefined) throw new GeneratorError([{ code: "MCG310", message: `${TARGETS[name].file} is too large to build: ${cause}` }]);
    throw error;
  }
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

/**
 * The first line of the runtime modules' header: the generator alone. They are pruned to what an
 * output's modules import, and name no input, so a spec update leaves them as they are unless
 * what they hold changes (helper-100: each named the schema's sha256, and every update rewrote them).
 */
export function runtimeHeaderSource(): string {
  return `${GENERATED_MARK}${GENERATOR_VERSION} (its runtime, pruned to what the modules of this output import).`;
}

/**
 * The header every file of an output starts with: what produced it, then `/* eslint-disable *\/`
 * (in every file, so that a linter run over vendored code has nothing to say; helper-107: six of
 * thirteen files had it).
 */
export function headerOf(source: string, resolved: GeneratorOptions): string {
  return [source, `// Options: ${describeOptions(resolved)}`, "// Do not edit: regenerate with `mcp-schema-codegen generate`.", "/* eslint-disable */"].join("\n");
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
    if (protocol.rulesNote !== undefined) {
      const { message, overridable } = protocol.rulesNote;
      // Located, so that with several schemas it names its own: at LATEST_PROTOCOL_VERSION, else the file's start.
      const span = model.declarations.get("LATEST_PROTOCOL_VERSION")?.span ?? { file: loaded.displayPath, line: 1, column: 1 };
      warnings.push({ code: "MCG260", message: overridable ? `${message} (choose with --protocol-rules)` : message, span });
    }
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

/**
 * The modules of one revision, from the targets in table order (paths relative to their folder).
 * `names`: their names, declared and checked before anything is rendered (by default into a
 * symbol table of their own: a one-schema run).
 */
export async function emitModules(
  schema: AnalyzedSchema,
  targets: readonly TargetName[],
  resolved: GeneratorOptions,
  names: ModuleNames = declareModuleNames(schema.model, schema.protocol, targets, new SymbolTable()),
): Promise<GeneratedFile[]> {
  const context = { docs: resolved.docs, header: schema.header, targets, protocol: schema.protocol, enumStyle: resolved.enumStyle, names };
  const files: GeneratedFile[] = [];
  for (const name of targets) {
    files.push({ path: TARGETS[name].file, contents: await emitTargetChecked(name, schema.model, context) });
  }
  return files;
}

/**
 * The runtime modules the generated files import, pruned to what they use, after them; then
 * every file's imports get their extension. With `--transports node`, the Node.js transports
 * too (all they export).
 */
export function withRuntime(files: readonly GeneratedFile[], resolved: GeneratorOptions): GeneratedFile[] {
  const header = headerOf(runtimeHeaderSource(), resolved);
  const transports = resolved.transports === "node" ? new Map(NODE_TRANSPORTS.map((t) => [t, runtimeModuleExports(t)])) : new Map<string, ReadonlySet<string>>();
  return [...files, ...runtimeFiles(files, header, transports)].map((f) => ({ path: f.path, contents: rewriteImportExtensions(f.contents, resolved.importExtension) }));
}
