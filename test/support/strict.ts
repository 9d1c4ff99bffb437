/**
 * The strictest settings a user project turns on, in one place: the strict-flags suite, the
 * scaffold's and the runtime's compile checks all read them.
 */
import ts from "typescript";

/** Every flag a strict project may turn on (tsconfig names), all at once. */
export const STRICTEST_FLAGS = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noPropertyAccessFromIndexSignature: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  noImplicitReturns: true,
  noImplicitOverride: true,
  noFallthroughCasesInSwitch: true,
  verbatimModuleSyntax: true,
  isolatedModules: true,
  erasableSyntaxOnly: true,
  isolatedDeclarations: true,
  // isolatedDeclarations needs declaration output to be on; nothing is written (noEmit).
  declaration: true,
  noEmit: true,
  target: "ES2022",
  lib: ["ES2022"],
  types: [],
} as const;

/**
 * Compiles `roots` with {@link STRICTEST_FLAGS} plus `extra` (tsconfig names, e.g. `{ module:
 * "NodeNext", moduleResolution: "NodeNext", types: ["node"] }`); answers each diagnostic as
 * `file message`, those of files `ignore` accepts left out.
 */
export function strictestDiagnostics(roots: readonly string[], extra: object, ignore: (file: string) => boolean = () => false): string[] {
  const { options, errors } = ts.convertCompilerOptionsFromJson({ ...STRICTEST_FLAGS, ...extra }, process.cwd());
  if (errors.length > 0) throw new Error(errors.map((e) => ts.flattenDiagnosticMessageText(e.messageText, " ")).join("; "));
  return ts
    .getPreEmitDiagnostics(ts.createProgram([...roots], options))
    .filter((d) => d.file === undefined || !ignore(d.file.fileName))
    .map((d) => `${d.file?.fileName ?? ""} ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`);
}
