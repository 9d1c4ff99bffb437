/**
 * Several schemas in one output: one folder per protocol revision, named by its protocol
 * version (`2026-07-28/`, `2025-11-25/`: what the wire, the spec and a client's error name it;
 * a spec folder name such as `draft` moves when the draft is released), holding that
 * revision's modules (types, validators, errors, meta, methods, `index.ts`) and `revision.ts`,
 * its table for the dispatcher core (data only). Beside the folders: the shared `runtime/`
 * (the folders import `../runtime/`), one `dispatch.ts` whose `createServerDispatcher` is typed
 * with the handler revision and serves every revision, `index.ts`, and one module per
 * revision module (`types.ts`, `validators.ts`, …) re-exporting the handler revision's, so that
 * imports written against a single-revision output (`./generated/types.js`) keep working.
 *
 * The handler revision is the first modern (stateless) one given; the others follow in the
 * order given. Each other revision's table gets `resultDrop`: per method, the handler
 * revision's result members its own result types lack, computed here from both models.
 */
import { GeneratorError } from "./errors.js";
import type { Diagnostic } from "./ir.js";
import type { SchemaInput } from "./load/index.js";
import { optionWarnings, type GeneratorOptions } from "./options.js";
import { TARGETS, declareModuleNames, formatModule, type ModuleNames, type TargetName } from "./emit/index.js";
import {
  buildDispatch,
  declareDispatchNames,
  isStateless,
  legacyNotificationMethods,
  publishMethods,
  renderDispatch,
  renderRevision,
  requestDrop,
  resultDrop,
  type ServedRevisionView,
} from "./emit/dispatch.js";
import { importRuntimeFromParent } from "./emit/imports.js";
import { revisionNames, SymbolTable } from "./emit/symbols.js";
import { renderTemplate } from "./emit/templates.js";
import { RUNTIME_FOLDER } from "./emit/runtime.js";
import type { GeneratedFile, GenerateResult } from "./index.js";
import { analyzeSchema, emitModules, headerOf, headerSource, withRuntime, withWarnings, type AnalyzedSchema } from "./pipeline.js";

const CODE = "MCG320";

/** A revision of the output: its analysed schema and the names it gets. */
interface Revision {
  readonly schema: AnalyzedSchema;
  /** Its place among the inputs, as given. */
  readonly index: number;
  readonly era: "modern" | "legacy";
  readonly folder: string;
  readonly constant: string;
  readonly namespace: string;
}

/** What a schema is called in an error: its file and protocol version. */
function described(schema: AnalyzedSchema): string {
  return `${schema.loaded.displayPath} (protocol version ${schema.protocol.protocolVersion})`;
}

/**
 * The revisions in output order (the first modern one first, then the others as given), after
 * refusing combinations one output cannot serve: two schemas of one protocol version (they would
 * share a folder, and a client naming that version could get either), none of the modern era
 * (nothing to type the handlers with), a version that cannot name a folder.
 */
function orderRevisions(schemas: readonly AnalyzedSchema[]): Revision[] {
  const problems: Diagnostic[] = [];
  const revisions: Revision[] = [];
  for (const [index, schema] of schemas.entries()) {
    const version = schema.protocol.protocolVersion;
    const names = revisionNames(version);
    const era = isStateless(schema.protocol) ? "modern" : "legacy";
    if (names === undefined || names.folder === RUNTIME_FOLDER) {
      problems.push({ code: CODE, message: `${described(schema)}: the protocol version cannot name a folder of the output`, input: { index } });
      continue;
    }
    const same = revisions.find((r) => r.folder === names.folder || r.constant === names.constant);
    if (same !== undefined) {
      problems.push({
        code: CODE,
        message: `${described(same.schema)} and ${described(schema)} are both of protocol version ${version}: one output serves each protocol version once; give one of them`,
        input: { index, other: same.index },
      });
      continue;
    }
    revisions.push({ schema, era, index, ...names });
  }
  if (problems.length === 0 && !revisions.some((r) => r.era === "modern")) {
    problems.push({
      code: CODE,
      message: `none of the schemas is of a modern (stateless) revision, whose types the handlers are written against (one whose RequestMetaObject requires io.modelcontextprotocol/protocolVersion, as 2026-07-28 and later do): ${revisions.map((r) => described(r.schema)).join(", ")}; add one (e.g. --spec-version draft,2025-11-25)`,
      input: { index: 0 },
    });
  }
  if (problems.length > 0) throw new GeneratorError(problems);
  const handler = revisions.find((r) => r.era === "modern")!;
  return [handler, ...revisions.filter((r) => r !== handler)];
}

/** A rendered module: written as it is when laid out by its emitter, else formatted by Prettier. */
async function formatted(rendered: string | { readonly laidOut: string }): Promise<string> {
  return typeof rendered === "string" ? formatModule(rendered) : rendered.laidOut;
}

/** The modules of one revision folder: the targets except `dispatch` and `index` (which sit at the top), as files of that folder. */
async function revisionFiles(revision: Revision, targets: readonly TargetName[], resolved: GeneratorOptions, names: ModuleNames): Promise<GeneratedFile[]> {
  const modules = targets.filter((t) => t !== "dispatch");
  const files = await emitModules(revision.schema, modules, resolved, names);
  if (targets.includes("dispatch")) {
    const view = buildDispatch(revision.schema.protocol, revision.schema.model);
    files.push({ path: "revision.ts", contents: await formatted(renderRevision(revision.schema.header, view)) });
  }
  return files.map((f) => ({ path: `${revision.folder}/${f.path}`, contents: importRuntimeFromParent(f.contents, RUNTIME_FOLDER) }));
}

/**
 * Declares every name of the output into one symbol table before anything is rendered: each
 * revision's modules under its folder; the top `dispatch.ts` (its exports, and each revision
 * table's local name) and the top `index.ts`'s namespaces, whose exports share a namespace with
 * the handler revision's modules (the top `index.ts` re-exports them together).
 *
 * @returns each revision's names, in the order of `revisions` (the handler revision first)
 * @throws GeneratorError MCG301 for every collision
 */
function declareNames(revisions: readonly Revision[], targets: readonly TargetName[]): ModuleNames[] {
  const table = new SymbolTable();
  const modules = targets.filter((t) => t !== "dispatch");
  const names = revisions.map((r) => declareModuleNames(r.schema.model, r.schema.protocol, modules, table, `${r.folder}/`));
  const handler = revisions[0]!;
  const top = { dispatch: TARGETS.dispatch.file, index: TARGETS.index.file };
  if (targets.includes("dispatch")) {
    declareDispatchNames(table, top.dispatch, buildDispatch(handler.schema.protocol, handler.schema.model), true);
    for (const r of revisions) table.declare(top.dispatch, r.constant, { exported: false, owner: `the table of revision ${r.folder}` });
  }
  if (targets.includes("index")) {
    for (const r of revisions.slice(1)) table.declare(top.index, r.namespace, { exported: true, owner: `the namespace of revision ${r.folder}` });
  }
  const handlerFiles = modules.filter((t) => t !== "index").map((t) => names[0]!.files[t]);
  table.shareExports([...handlerFiles, top.dispatch, top.index]);
  table.check();
  return names;
}

/**
 * Every input analysed, each in turn: the problems of all of them are said together, not only the first failing
 * schema's (with the warnings of all).
 *
 * @throws GeneratorError every schema's errors, in input order
 */
function analyzeAll(inputs: readonly SchemaInput[], resolved: GeneratorOptions): AnalyzedSchema[] {
  const schemas: AnalyzedSchema[] = [];
  const errors: Diagnostic[] = [];
  const warnings: Diagnostic[] = [];
  for (const input of inputs) {
    try {
      const schema = analyzeSchema(input, resolved);
      schemas.push(schema);
      warnings.push(...schema.warnings);
    } catch (error) {
      if (!(error instanceof GeneratorError)) throw error;
      errors.push(...error.diagnostics);
      warnings.push(...error.warnings);
    }
  }
  if (errors.length > 0) throw new GeneratorError(errors, warnings);
  return schemas;
}

/** Generates one output serving several revisions (see the module comment). */
export async function generateRevisions(inputs: readonly SchemaInput[], resolved: GeneratorOptions, rulesGiven: boolean): Promise<GenerateResult> {
  if (rulesGiven && resolved.protocolRules !== "auto") {
    throw new GeneratorError([
      {
        code: CODE,
        message: `--protocol-rules ${resolved.protocolRules} applies to one schema; with several, each schema's rules follow its LATEST_PROTOCOL_VERSION (auto)`,
      },
    ]);
  }
  const schemas = analyzeAll(inputs, resolved);
  const warnings = schemas.flatMap((s) => s.warnings);
  try {
    const revisions = orderRevisions(schemas);
    const [handler, ...others] = revisions as [Revision, ...Revision[]];
    const targets = resolved.targets as TargetName[];
    // Each input named with the revision it is (its folder here): several files are all called schema.ts.
    const header = headerOf(headerSource(revisions.map((r) => ({ fileName: `${r.schema.loaded.fileName} of ${r.folder}`, sha256: r.schema.loaded.sha256 }))), resolved);
    const files: GeneratedFile[] = [];
    const names = declareNames(revisions, targets);
    for (const [i, revision] of revisions.entries()) files.push(...(await revisionFiles(revision, targets, resolved, names[i]!)));
    const top: GeneratedFile[] = [];
    if (targets.includes("dispatch")) {
      const facts = (r: Revision) => ({ facts: r.schema.protocol, model: r.schema.model });
      const served: ServedRevisionView[] = revisions.map((r) => ({
        version: JSON.stringify(r.schema.protocol.protocolVersion),
        constant: r.constant,
        from: `./${r.folder}/revision.js`,
        handler: r === handler,
        resultDrop:
          r === handler
            ? []
            : resultDrop(facts(handler), facts(r)).map((d) => ({ method: JSON.stringify(d.method), members: d.members.map((m) => JSON.stringify(m)) })),
        requestDrop:
          r === handler
            ? []
            : requestDrop(facts(handler), facts(r)).map((d) => ({
                method: JSON.stringify(d.method),
                members: d.members.map((m) => ({ name: JSON.stringify(m.name), value: JSON.stringify(m.value) })),
              })),
      }));
      const view = buildDispatch(handler.schema.protocol, handler.schema.model);
      const layout = {
        multi: true,
        modulePrefix: `./${handler.folder}/`,
        served,
        publishMethodsType: publishMethods(facts(handler), others.map(facts)),
        batches: revisions.some((r) => r.schema.protocol.batchRequest !== undefined),
        legacy: revisions.some((r) => !isStateless(r.schema.protocol)),
        legacyNotificationMethods: legacyNotificationMethods(facts(handler), others.map(facts)),
      };
      top.push({ path: TARGETS.dispatch.file, contents: await formatted(renderDispatch(header, view, layout)) });
    }
    // The handler revision's modules, re-exported where a single-revision output has them (`./types.js`, …):
    // code written against one layout (a scaffold's handlers and tests) compiles against the other.
    for (const target of targets.filter((t) => t !== "dispatch" && t !== "index")) {
      const file = TARGETS[target].file;
      const text = renderTemplate("index.ts.hbs", { header, modules: [`${handler.folder}/${file.replace(/\.ts$/, "")}`], namespaces: [] });
      // `export * from "…";` lines, as `index.ts` of one revision: Prettier's layout already.
      top.push({ path: file, contents: text });
    }
    if (targets.includes("index")) {
      const index = renderTemplate("index.ts.hbs", {
        header,
        modules: [...(targets.includes("dispatch") ? ["dispatch"] : []), `${handler.folder}/index`],
        namespaces: others.map((r) => ({ name: r.namespace, module: `${r.folder}/index` })),
      });
      top.push({ path: TARGETS.index.file, contents: index });
    }
    return {
      files: withRuntime([...top, ...files], resolved),
      ir: handler.schema.ir,
      protocol: handler.schema.protocol,
      warnings: [...warnings, ...optionWarnings(resolved, files)],
      header,
      revisions: revisions.map((r) => ({ folder: r.folder, ir: r.schema.ir, protocol: r.schema.protocol, header: r.schema.header })),
    };
  } catch (error) {
    throw withWarnings(error, warnings);
  }
}
