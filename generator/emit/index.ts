/**
 * Stage 4, emit: the table of output files. Each target builds a view model in
 * TypeScript and renders its template; Prettier formats the result. `--targets` reads
 * the names from {@link TARGETS}.
 */
import * as prettier from "prettier";
import type { Model } from "../analyze/index.js";
import type { DocsMode } from "./docs.js";
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
}

interface Target {
  /** Output file name, relative to `--out`. */
  readonly file: string;
  /** What the file holds, for `--help`. */
  readonly description: string;
  /** Targets whose output this one imports. */
  readonly requires: readonly TargetName[];
  readonly render: (model: Model, context: EmitContext) => string;
}

/** Names of the output targets, in the order they are written and listed. */
export const TARGET_NAMES = ["types", "validators", "index"] as const;

export type TargetName = (typeof TARGET_NAMES)[number];

/** Output files by target name. */
export const TARGETS: Record<TargetName, Target> = {
  types: {
    file: "types.ts",
    description: "the schema's types, self-contained",
    requires: [],
    render: (model, context) =>
      renderTemplate("types.ts.hbs", { header: context.header, ...buildTypes(model, context.docs) }),
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
  index: {
    file: "index.ts",
    description: "re-exports of the other generated files",
    requires: ["types", "validators"],
    render: (_model, context) =>
      renderTemplate("index.ts.hbs", {
        header: context.header,
        modules: context.targets.filter((t) => t !== "index").map((t) => TARGETS[t].file.replace(/\.ts$/, "")),
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

/** Renders and formats one target. */
export async function emitTarget(name: TargetName, model: Model, context: EmitContext): Promise<string> {
  const target = TARGETS[name];
  const source = target.render(model, context);
  // babel-ts formats TypeScript exactly as the typescript parser does here, in about half the time.
  return prettier.format(source, { parser: "babel-ts", printWidth: 140, endOfLine: "lf" });
}
