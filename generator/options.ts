/**
 * The one table of generator options. It feeds the library defaults, commander (flags,
 * choices, `--help`) and the README's option list.
 */
import { TARGET_NAMES, type TargetName } from "./emit/index.js";
import { ENUM_STYLES, type EnumStyle } from "./emit/errors.js";
import type { Diagnostic } from "./ir.js";
import { RULE_VERSIONS } from "./rules/index.js";

/** Options of {@link generate} besides the input. */
export interface GeneratorOptions {
  /** Doc comments in output: `full` JSDoc, `tags` only (`@deprecated` and the source line), or `none`; the spec's `@internal` is never written. */
  readonly docs: "full" | "tags" | "none";
  /** What a TypeScript `number` means without `@TJS-type`: `integer` (as upstream's schema.json) or `number`. */
  readonly numberType: "integer" | "number";
  /** Output files to generate (and those they import). */
  readonly targets: readonly TargetName[];
  /** `ErrorCode` in `errors.ts`: an `as const` object plus a union type, or a TypeScript `enum`. */
  readonly enumStyle: EnumStyle;
  /** Which revision's prose rules (`generator/rules`) apply: `auto` reads the schema's `LATEST_PROTOCOL_VERSION`. */
  readonly protocolRules: string;
  /**
   * The extension of relative import specifiers between generated files: `js` (`./types.js`,
   * for tsc and bundlers), `ts` (`./types.ts`, for runtimes that strip types: Node 22.18+ and 24,
   * Deno, Bun), or `none` (`./types`, for bundler resolution).
   */
  readonly importExtension: ImportExtension;
  /**
   * The transports written with the runtime: `none`, or `node` (the stdio and Streamable HTTP
   * transports of `runtime/stdio.ts` and `runtime/http.ts`, for Node.js; `scaffold` uses them).
   */
  readonly transports: Transports;
}

/** The values of {@link GeneratorOptions.transports}. */
export const TRANSPORTS = ["none", "node"] as const;

export type Transports = (typeof TRANSPORTS)[number];

/** The values of {@link GeneratorOptions.importExtension}. */
export const IMPORT_EXTENSIONS = ["js", "ts", "none"] as const;

export type ImportExtension = (typeof IMPORT_EXTENSIONS)[number];

/** Defaults shared by the CLI, the API and the tests. */
export const DEFAULT_OPTIONS: GeneratorOptions = {
  docs: "full",
  numberType: "integer",
  targets: TARGET_NAMES,
  enumStyle: "as-const",
  protocolRules: "auto",
  importExtension: "js",
  transports: "none",
};

/** One row of the options table. */
export interface OptionSpec {
  readonly key: keyof GeneratorOptions;
  readonly flag: string;
  readonly description: string;
  readonly choices: readonly string[];
  readonly list?: boolean;
}

export const OPTION_SPECS: readonly OptionSpec[] = [
  {
    key: "docs",
    flag: "--docs <mode>",
    description: "doc comments: full JSDoc, tags only (@deprecated and schema.ts:LINE), or none",
    choices: ["full", "tags", "none"],
  },
  {
    key: "numberType",
    flag: "--number-type <type>",
    description: "what a `number` without @TJS-type means in validators",
    choices: ["integer", "number"],
  },
  {
    key: "targets",
    flag: "--targets <list>",
    description: "comma-separated output files to generate",
    choices: TARGET_NAMES,
    list: true,
  },
  {
    key: "enumStyle",
    flag: "--enum-style <style>",
    description: "ErrorCode in errors.ts: an `as const` object plus union type, or a TypeScript enum",
    choices: ENUM_STYLES,
  },
  {
    key: "protocolRules",
    flag: "--protocol-rules <version>",
    description: "which revision's prose rules apply (auto: the schema's LATEST_PROTOCOL_VERSION)",
    choices: ["auto", ...RULE_VERSIONS],
  },
  {
    key: "importExtension",
    flag: "--import-extension <ext>",
    description: "relative import specifiers between generated files: ./types.js (js), ./types.ts for type-stripping runtimes (ts), or ./types (none)",
    choices: IMPORT_EXTENSIONS,
  },
  {
    key: "transports",
    flag: "--transports <kind>",
    description: "also write the Node.js stdio and Streamable HTTP transports into runtime/ (node), as scaffold does, or not (none)",
    choices: TRANSPORTS,
  },
];

/** The options as command-line flags, in table order: `--docs tags --number-type integer …`. */
export function describeOptions(options: GeneratorOptions): string {
  return OPTION_SPECS.map((spec) => {
    const value = options[spec.key];
    return `${spec.flag.split(" ")[0]} ${Array.isArray(value) ? value.join(",") : String(value)}`;
  }).join(" ");
}

/**
 * Warnings about a combination of options that generates, but not for every runtime the output
 * is meant for: MCG258 for `importExtension: "ts"` with `enumStyle: "ts-enum"` when `files` hold an
 * `errors.ts` (Node's type stripping, which the `ts` imports are for, refuses TypeScript enums;
 * Deno, Bun and bundlers take them).
 */
export function optionWarnings(options: Pick<GeneratorOptions, "importExtension" | "enumStyle">, files: readonly { readonly path: string }[]): Diagnostic[] {
  if (options.importExtension !== "ts" || options.enumStyle !== "ts-enum" || !files.some((f) => f.path === "errors.ts" || f.path.endsWith("/errors.ts"))) return [];
  return [
    {
      code: "MCG258",
      message:
        "--enum-style ts-enum with --import-extension ts: Node's type stripping (Node 22.18+ and 24) refuses TypeScript enums, so errors.ts runs under Deno, Bun or a bundler but not under node itself; --enum-style as-const runs everywhere",
    },
  ];
}
