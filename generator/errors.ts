import type { Diagnostic, SourceSpan } from "./ir.js";

/**
 * The one error type the generator throws for bad input or unsupported constructs.
 * It carries every problem found (not only the first), each with a stable code and,
 * where there is one, a `file:line:col` location. The CLI prints {@link formatDiagnostic}
 * lines and exits with code 2; the stack trace is shown only with `--debug`.
 */
export class GeneratorError extends Error {
  readonly diagnostics: readonly Diagnostic[];
  /** Warnings found before the errors (say a merged interface), so that a failed run still shows them. */
  readonly warnings: readonly Diagnostic[];

  constructor(diagnostics: readonly Diagnostic[], warnings: readonly Diagnostic[] = []) {
    super(diagnostics.map((d) => formatDiagnostic(d)).join("\n"));
    this.name = "GeneratorError";
    this.diagnostics = diagnostics;
    this.warnings = warnings;
  }
}

/** Creates a one-diagnostic {@link GeneratorError}. */
export function fail(code: string, message: string, span?: SourceSpan): GeneratorError {
  return new GeneratorError([span ? { code, message, span } : { code, message }]);
}

/** `file:line:col - error MCG201: message`, compiler style. */
export function formatDiagnostic(d: Diagnostic, severity: "error" | "warning" = "error"): string {
  const where = d.span ? `${d.span.file}:${d.span.line}:${d.span.column} - ` : "";
  // Anything but "warning" is an error: `diagnostics.map(formatDiagnostic)` passes each index here.
  return `${where}${severity === "warning" ? "warning" : "error"} ${d.code}: ${d.message}`;
}

/** The related places of a diagnostic, one line each, indented under it: `  s.ts:1:1 - the schema's isFoo is declared here`. */
export function formatRelated(d: Diagnostic): string[] {
  return (d.related ?? []).map((r) => `  ${r.span.file}:${r.span.line}:${r.span.column} - ${r.message}`);
}

/** Collects diagnostics across a stage so all problems are reported together. */
export class DiagnosticBag {
  readonly items: Diagnostic[] = [];

  add(code: string, message: string, span?: SourceSpan): void {
    this.items.push(span ? { code, message, span } : { code, message });
  }

  /**
   * Throws every collected diagnostic at once, each once and ordered by file, line and column
   * ({@link distinctDiagnostics}), with the stage's warnings.
   */
  throwIfAny(warnings: readonly Diagnostic[] = []): void {
    if (this.items.length === 0) return;
    throw new GeneratorError(distinctDiagnostics(this.items), warnings);
  }
}

/**
 * `items` ordered by file, line and column, each said once: one found again at the same place in
 * the same words (a type lowered for itself and again for a declaration built from it) is one cause.
 */
export function distinctDiagnostics(items: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  const distinct = items.filter((d) => {
    const key = formatDiagnostic(d);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return sortDiagnostics(distinct);
}

/** Orders diagnostics by location (unlocated ones first), then code; stable. */
export function sortDiagnostics(items: readonly Diagnostic[]): Diagnostic[] {
  const key = (d: Diagnostic) => [d.span?.file ?? "", d.span?.line ?? 0, d.span?.column ?? 0] as const;
  return [...items].sort((a, b) => {
    const [fa, la, ca] = key(a);
    const [fb, lb, cb] = key(b);
    if (fa !== fb) return fa < fb ? -1 : 1;
    return la - lb || ca - cb || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0);
  });
}

/** Whether `error` is V8's stack overflow (a `RangeError` about the call stack). */
export function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}
