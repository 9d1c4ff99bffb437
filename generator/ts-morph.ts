/**
 * ts-morph, and the TypeScript compiler it bundles, for the rest of the generator.
 *
 * Loaded with `require`, not `import`: ts-morph is a CommonJS package, and an ES `import` of
 * one makes Node scan its source and every module it re-exports (the 9 MB `typescript.js`
 * among them) with cjs-module-lexer to find the export names, about 0.2 s of CPU on every run
 * (measured: `import` 480–530 ms of CPU, `require` 260–330 ms). `require` gives the same
 * module object without the scan.
 *
 * Import values from here and types from `"ts-morph"` (`import type`); the compiler's types
 * the generator names are re-declared in the `ts` namespace below.
 */
import { createRequire } from "node:module";
import type * as TsMorph from "ts-morph";

const tsMorph = createRequire(import.meta.url)("ts-morph") as typeof TsMorph;

export const { Node, Project, SyntaxKind, ts } = tsMorph;
export type Node = TsMorph.Node;
export type SyntaxKind = TsMorph.SyntaxKind;

/** The TypeScript compiler's types the generator names (`ts.Node`, …): type aliases only, beside the `ts` value. */
export declare namespace ts {
  type Node = TsMorph.ts.Node;
  type Statement = TsMorph.ts.Statement;
  type Expression = TsMorph.ts.Expression;
  type StringLiteral = TsMorph.ts.StringLiteral;
  type SourceFile = TsMorph.ts.SourceFile;
  type JsonSourceFile = TsMorph.ts.JsonSourceFile;
  type Diagnostic = TsMorph.ts.Diagnostic;
  type CommentRange = TsMorph.ts.CommentRange;
  type PropertyAssignment = TsMorph.ts.PropertyAssignment;
  type SyntaxKind = TsMorph.ts.SyntaxKind;
}
