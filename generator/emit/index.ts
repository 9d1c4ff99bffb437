/**
 * Stage 4, emit: the table of output files. Each target builds a view model in
 * TypeScript and renders its template; Prettier formats the result, unless the target's
 * emitter printed Prettier's layout itself. `--targets` reads the names from {@link TARGETS}.
 */
import type { Model } from "../analyze/index.js";
import type { ProtocolFacts } from "../analyze/protocol.js";
import type { DocsMode } from "./docs.js";
import { buildDispatch, declareDispatchNames, renderDispatch } from "./dispatch.js";
import { buildErrors, declareErrorNames, type ErrorCodeNames, type EnumStyle } from "./errors.js";
import { buildMeta, declareMetaNames } from "./meta.js";
import { buildMethods, declareMethodsNames } from "./methods.js";
import { runtimeExports, runtimeNames, runtimeSource } from "./runtime.js";
import { declareTypeNames, SymbolTable, type TypeNames } from "./symbols.js";
import { withinWidth } from "./layout.js";
import { PRINT_WIDTH } from "./print-type.js";
import { renderTemplate } from "./templates.js";
import { buildTypes } from "./types.js";
import { buildValidators } from "./validators.js";

/** What every emitter gets besides the model. */
export interface EmitContext {
  readonly docs: DocsMode;
  /** The header comment every file starts with. */
  readonly header: string;
  /** The targets being generated, in table order. */
  readonly targets: readonly TargetName[];
  /** What the schema and the selected prose rules say about the protocol. */
  readonly protocol: ProtocolFacts;
  readonly enumStyle: EnumStyle;
  /** The names of this schema's modules, declared before anything is rendered. */
  readonly names: ModuleNames;
}

/** The names one schema's modules get, from the run's symbol table. */
export interface ModuleNames {
  readonly table: SymbolTable;
  /** The table's namespace of each output file: its path in the output (`validators.ts`, `2025-11-25/validators.ts`). */
  readonly files: Readonly<Record<TargetName, string>>;
  readonly types: ReadonlyMap<string, TypeNames>;
  readonly errors: ReadonlyMap<string, ErrorCodeNames>;
}

interface Target {
  /** Output file name, relative to `--out`. */
  readonly file: string;
  /** What the file holds, for `--help`. */
  readonly description: string;
  /** Targets whose output this one imports. */
  readonly requires: readonly TargetName[];
  /**
   * The file's text: for Prettier to format ({@link formatModule}), or, as `{ laidOut }`,
   * already printed by the emitter and template as Prettier prints it, written as it is
   * (test/formatting.test.ts runs Prettier over every such file of the upstream schemas and
   * the fixtures and finds no change). Prettier is most of a generation's time (about 1.5 s of
   * CPU for the draft's 300 KB `validators.ts`, 0.3 s to load and warm up for a small file).
   */
  readonly render: (model: Model, context: EmitContext) => string | { readonly laidOut: string };
}

/** Names of the output targets, in the order they are written and listed. */
export const TARGET_NAMES = ["types", "validators", "errors", "meta", "methods", "dispatch", "index"] as const;

export type TargetName = (typeof TARGET_NAMES)[number];

/** Output files by target name. */
export const TARGETS: Record<TargetName, Target> = {
  types: {
    file: "types.ts",
    description: "the schema's types, self-contained",
    requires: [],
    render: (model, context) => {
      const view = buildTypes(model, context.docs);
      const text = renderTemplate("types.ts.hbs", { header: context.header, ...view });
      return view.laidOut ? { laidOut: text } : text;
    },
  },
  validators: {
    file: "validators.ts",
    description: "isX, validateX and a Standard Schema object per type; validatorsByType",
    requires: ["types"],
    render: (model, context) => {
      const names = context.names;
      const view = buildValidators(model, { table: names.table, file: names.files.validators, types: names.types });
      // The runtime is what the emitted code refers to: the roots recorded as it was built; the
      // module constants follow it (one blank line between, as Prettier keeps it).
      const prelude = [runtimeSource(view.runtimeRoots), view.constants.join("\n")].filter((part) => part !== "").join("\n\n");
      const text = renderTemplate("validators.ts.hbs", { header: context.header, source: model.ir.source, ...view, prelude });
      return view.laidOut ? { laidOut: text } : text;
    },
  },
  errors: {
    file: "errors.ts",
    description: "ErrorCode, classifyErrorCode, a typed constructor per error code, isResourceNotFoundError",
    requires: ["types"],
    render: (model, context) => {
      const view = buildErrors(context.protocol, context.names.errors, model.ir.source, context.enumStyle);
      return laidOutWhen(view.laidOut, renderTemplate("errors.ts.hbs", { header: context.header, ...view }));
    },
  },
  meta: {
    file: "meta.ts",
    description: "_meta key constants, key grammar and reserved prefixes, required request keys, checks and builders",
    requires: ["types", "validators"],
    render: (model, context) => {
      const view = buildMeta(context.protocol, model, context.names.types);
      return laidOutWhen(view.laidOut, renderTemplate("meta.ts.hbs", { header: context.header, ...view }));
    },
  },
  methods: {
    file: "methods.ts",
    description: "the method table (direction, params, results, capability), resolveResultType, parseResult",
    requires: ["types", "validators"],
    render: (model, context) => {
      const view = buildMethods(context.protocol, model);
      return laidOutWhen(view.laidOut, renderTemplate("methods.ts.hbs", { header: context.header, ...view }));
    },
  },
  dispatch: {
    file: "dispatch.ts",
    description: "ServerHandlers (a typed handler per client→server method) and createServerDispatcher, a stateless JSON-RPC dispatcher",
    requires: ["types", "validators", "meta", "methods"],
    render: (model, context) => renderDispatch(context.header, buildDispatch(context.protocol, model)),
  },
  index: {
    file: "index.ts",
    description: "re-exports of the other generated files",
    requires: ["types", "validators"],
    render: (_model, context) => ({
      laidOut: renderTemplate("index.ts.hbs", {
        header: context.header,
        modules: context.targets.filter((t) => t !== "index").map((t) => TARGETS[t].file.replace(/\.ts$/, "")),
        namespaces: [],
      }),
    }),
  },
};

/** The rendered text as `{ laidOut }` when its emitter laid out every piece (see `layout.ts`), else for Prettier. */
export function laidOutWhen(laidOut: boolean, text: string): string | { readonly laidOut: string } {
  return laidOut && withinWidth(text) ? { laidOut: text } : text;
}

/**
 * Declares the names of one schema's modules (the `targets` generated) into `table`, the run's
 * one symbol table, before any is rendered: the schema's declarations (`types.ts`); the
 * validators runtime and each type's `isX`, `validateX`, `XSchema`, `_isX`, `_collectX`
 * (`validators.ts`); the error codes' members and constructors (`errors.ts`); and what each
 * other module exports. The modules of one folder are re-exported together by its `index.ts`:
 * their exports share a namespace.
 *
 * @param folder where the modules sit in the output: `""`, or `2025-11-25/`
 * @throws GeneratorError MCG301 for every collision, each at its schema span
 */
export function declareModuleNames(model: Model, protocol: ProtocolFacts, targets: readonly TargetName[], table: SymbolTable, folder = ""): ModuleNames {
  const files = Object.fromEntries(TARGET_NAMES.map((t) => [t, `${folder}${TARGETS[t].file}`])) as Record<TargetName, string>;
  const emitted = new Set(targets);
  table.shareExports(targets.filter((t) => t !== "index").map((t) => files[t]));
  const runtime = emitted.has("validators") ? { names: runtimeNames(), exported: runtimeExports() } : { names: new Set<string>(), exported: new Set<string>() };
  const types = declareTypeNames(table, files, model.ir.declarations, runtime, emitted.has("validators"));
  const errors = emitted.has("errors") ? declareErrorNames(table, files.errors, protocol) : new Map<string, ErrorCodeNames>();
  if (emitted.has("meta")) declareMetaNames(table, files.meta, protocol);
  if (emitted.has("methods")) declareMethodsNames(table, files.methods);
  if (emitted.has("dispatch")) declareDispatchNames(table, files.dispatch, buildDispatch(protocol, model), false);
  table.check();
  return { table, files, types, errors };
}

/** Adds the targets that the requested ones import, and puts them in table order. */
export function expandTargets(requested: readonly TargetName[]): TargetName[] {
  const wanted = new Set<TargetName>();
  const add = (t: TargetName) => {
    if (wanted.has(t)) return;
    wanted.add(t);
    TARGETS[t].requires.forEach(add);
  };
  requested.forEach(add);
  return TARGET_NAMES.filter((t) => wanted.has(t));
}

/** Renders one target, formatted with Prettier unless its emitter laid it out (see {@link Target.render}). */
export async function emitTarget(name: TargetName, model: Model, context: EmitContext): Promise<string> {
  const rendered = TARGETS[name].render(model, context);
  return typeof rendered === "string" ? formatModule(rendered) : rendered.laidOut;
}

/**
 * Formats one generated module with Prettier. Prettier is imported on first use: a run whose
 * files are all laid out by their emitters does not load it.
 */
export async function formatModule(source: string): Promise<string> {
  const prettier = await import("prettier");
  // babel-ts formats TypeScript exactly as the typescript parser does here, in about half the time.
  return prettier.format(source, { parser: "babel-ts", printWidth: PRINT_WIDTH, endOfLine: "lf" });
}
