/**
 * Stage 4, emit: the table of output files. Each target builds a view model in
 * TypeScript and renders its template; Prettier formats the result, unless the target's
 * emitter printed Prettier's layout itself. `--targets` reads the names from {@link TARGETS}.
 */
import type { Model } from "../analyze/index.js";
import type { ProtocolFacts } from "../analyze/protocol.js";
import { GeneratorError } from "../errors.js";
import type { Diagnostic } from "../ir.js";
import type { DocsMode } from "./docs.js";
import { buildDispatch, renderDispatch } from "./dispatch.js";
import { buildErrors, type EnumStyle } from "./errors.js";
import { buildMeta } from "./meta.js";
import { buildMethods } from "./methods.js";
import { runtimeSource } from "./runtime.js";
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
      const view = { header: context.header, source: model.ir.source, ...buildValidators(model) };
      // The runtime is what the rest of the file uses: render without it, then with it.
      const withoutRuntime = renderTemplate("validators.ts.hbs", { ...view, runtime: "" });
      return renderTemplate("validators.ts.hbs", { ...view, runtime: runtimeSource(withoutRuntime) });
    },
  },
  errors: {
    file: "errors.ts",
    description: "ErrorCode, classifyErrorCode, a typed constructor per error code, isResourceNotFoundError",
    requires: ["types"],
    render: (model, context) =>
      renderTemplate("errors.ts.hbs", { header: context.header, ...buildErrors(context.protocol, model.ir.source, context.enumStyle) }),
  },
  meta: {
    file: "meta.ts",
    description: "_meta key constants, key grammar and reserved prefixes, required request keys, checks and builders",
    requires: ["types", "validators"],
    render: (model, context) => renderTemplate("meta.ts.hbs", { header: context.header, ...buildMeta(context.protocol, model) }),
  },
  methods: {
    file: "methods.ts",
    description: "the method table (direction, params, results, capability), resolveResultType, parseResult",
    requires: ["types", "validators"],
    render: (model, context) => renderTemplate("methods.ts.hbs", { header: context.header, ...buildMethods(context.protocol, model) }),
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
  return prettier.format(source, { parser: "babel-ts", printWidth: 140, endOfLine: "lf" });
}

/**
 * Top-level names a generated module exports (`export const|function|type|interface|enum|class X`,
 * `export const { is: isX, … }`, and runtime names re-exported with `export { a, type B } from`).
 */
function exportedNames(contents: string): string[] {
  const names: string[] = [];
  for (const m of contents.matchAll(/^export (?:type )?\{([^}]*)\} from /gm)) {
    for (const part of m[1]!.split(",")) {
      const alias = part.trim().split(/\s+as\s+/).pop()?.replace(/^type\s+/, "");
      if (alias) names.push(alias);
    }
  }
  for (const m of contents.matchAll(/^export (?:declare )?(?:const|function|type|interface|enum|class|let|var|namespace) ([A-Za-z_$][\w$]*)/gm)) names.push(m[1]!);
  for (const m of contents.matchAll(/^export const \{([^}]*)\}/gm)) {
    for (const part of m[1]!.split(",")) {
      const alias = part.split(":").pop()?.trim();
      if (alias) names.push(alias);
    }
  }
  return names;
}

/**
 * `index.ts` re-exports every generated module: a name two modules export would be
 * silently dropped (or fail to compile). Reports each such name (MCG301).
 */
export function checkExportCollisions(files: readonly { path: string; contents: string }[], model: Model): void {
  const owner = new Map<string, string>();
  const problems: Diagnostic[] = [];
  for (const file of files) {
    if (file.path === "index.ts" || file.path.includes("/")) continue;
    // A type and a value of one name in one module (ErrorCode, MetaKey) are a single export.
    for (const name of new Set(exportedNames(file.contents))) {
      const other = owner.get(name);
      if (other === undefined) {
        owner.set(name, file.path);
        continue;
      }
      const decl = model.declarations.get(name);
      problems.push({
        code: "MCG301",
        message: `${name} is exported by both ${other} and ${file.path}; rename the schema's ${name}`,
        ...(decl ? { span: decl.span } : {}),
      });
    }
  }
  if (problems.length > 0) throw new GeneratorError(problems);
}
