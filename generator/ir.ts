/**
 * The intermediate representation (IR) between `lower` and `analyze`/`emit`.
 *
 * Plain, readonly, JSON-serialisable data: no ts-morph object crosses into it.
 * Every declaration keeps its source span and its documentation, so that errors
 * and `--docs` output can point back at `schema.ts`. `--dump-ir` prints a
 * {@link SchemaIR} as JSON.
 */

/** A 1-based position in the input file. */
export interface SourceSpan {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** A JSDoc tag kept from the source, e.g. `{ name: "deprecated", text: "" }`. */
export interface DocTag {
  readonly name: string;
  readonly text: string;
}

/** Documentation of a declaration or property: free text plus tags. */
export interface Docs {
  readonly text: string;
  readonly tags: readonly DocTag[];
}

/**
 * Value constraints taken from JSDoc tags (`@format`, `@minimum`, `@maximum`,
 * `@maxItems`, `@TJS-pattern`, `@default`). They are attached to the type node they
 * constrain: a string keyword, a number keyword or an array.
 */
export interface Constraints {
  /** A format name as ajv-formats spells it (`uri`, `uri-template`, `byte`, …). */
  readonly format?: string;
  /** Inclusive lower bound (numbers). */
  readonly minimum?: number;
  /** Inclusive upper bound (numbers). */
  readonly maximum?: number;
  /** Maximum array length. */
  readonly maxItems?: number;
  /** ECMAScript regular expression a string must match (`@TJS-pattern`). */
  readonly pattern?: string;
}

/** A TypeScript keyword type. `number` carries whether it means an integer. */
export type KeywordName =
  | "string"
  | "number"
  | "boolean"
  | "null"
  | "unknown"
  | "any"
  | "never"
  | "object"
  | "undefined";

/** A type expression. Named references stay named: one emitted function per declaration. */
export type TypeExpr =
  | KeywordType
  | LiteralType
  | RefType
  | ArrayType
  | TupleType
  | UnionType
  | IntersectionType
  | ObjectType;

export interface KeywordType {
  readonly kind: "keyword";
  readonly name: KeywordName;
  /**
   * For `number`: `"integer"` unless `@TJS-type number` (or `--number-type number`)
   * says otherwise; absent for other keywords.
   */
  readonly numberType?: "integer" | "number";
  readonly constraints?: Constraints;
}

export interface LiteralType {
  readonly kind: "literal";
  readonly value: string | number | boolean;
  /** Set when the literal came from `typeof CONST`: the constant's name. */
  readonly fromConst?: string;
}

export interface RefType {
  readonly kind: "ref";
  /** Name of a declaration in the same schema. */
  readonly name: string;
}

export interface ArrayType {
  readonly kind: "array";
  readonly element: TypeExpr;
  readonly constraints?: Constraints;
  /** Written `readonly T[]` or `ReadonlyArray<T>`: the types module keeps it; validators ignore it (the JSON is the same). */
  readonly readonly?: true;
}

export interface TupleType {
  readonly kind: "tuple";
  readonly elements: readonly TypeExpr[];
  /** Written `readonly [A, B]`: the types module keeps it; validators ignore it. */
  readonly readonly?: true;
}

export interface UnionType {
  readonly kind: "union";
  readonly members: readonly TypeExpr[];
}

export interface IntersectionType {
  readonly kind: "intersection";
  readonly members: readonly TypeExpr[];
}

/** One named property of an object type. */
export interface Property {
  /** The property name exactly as on the wire (`"io.modelcontextprotocol/protocolVersion"`, `$schema`). */
  readonly name: string;
  readonly optional: boolean;
  readonly type: TypeExpr;
  readonly docs?: Docs;
  readonly span: SourceSpan;
  /** Declaration the property was inherited from, when it came through `extends`. */
  readonly inheritedFrom?: string;
}

/** An object shape: named properties plus an optional string index signature. */
export interface ObjectType {
  readonly kind: "object";
  readonly properties: readonly Property[];
  /** Type of `[key: string]: T`, applying to keys not named in `properties`. */
  readonly indexSignature?: TypeExpr;
}

/** `interface X extends A, Omit<B, "k"> { … }`, with `extends` already resolved. */
export interface InterfaceDecl {
  readonly kind: "interface";
  readonly name: string;
  /** The heritage as written, for documentation (`["Result", "Omit<JSONRPCErrorResponse, \"error\">"]`). */
  readonly heritage: readonly string[];
  /** All properties, inherited ones first in heritage order, re-declared ones in place. */
  readonly type: ObjectType;
  readonly exported: boolean;
  readonly docs: Docs;
  readonly span: SourceSpan;
}

/** `type X = …`. */
export interface AliasDecl {
  readonly kind: "alias";
  readonly name: string;
  readonly type: TypeExpr;
  readonly exported: boolean;
  readonly docs: Docs;
  readonly span: SourceSpan;
}

/** `export const X = "…"` or a number constant. */
export interface ConstDecl {
  readonly kind: "const";
  readonly name: string;
  readonly value: string | number;
  readonly exported: boolean;
  readonly docs: Docs;
  readonly span: SourceSpan;
}

export type Declaration = InterfaceDecl | AliasDecl | ConstDecl;

/** The whole lowered schema, declarations in source order. */
export interface SchemaIR {
  /** IR format version; bumped when the shape changes. */
  readonly irVersion: 1;
  /** Input file name (base name only, so the IR does not depend on the machine). */
  readonly source: string;
  /** sha256 of the input bytes, hex. */
  readonly sha256: string;
  readonly declarations: readonly Declaration[];
  /** Non-fatal findings, e.g. merged interface declarations. */
  readonly warnings: readonly Diagnostic[];
}

/** A located message; `code` is stable (`MCG1xx` load, `MCG2xx` lower, `MCG3xx` emit). */
export interface Diagnostic {
  readonly code: string;
  readonly message: string;
  readonly span?: SourceSpan;
  /** Other places the finding involves (the other owner of a colliding name). */
  readonly related?: readonly { readonly message: string; readonly span: SourceSpan }[];
  /**
   * Of several inputs, the one (0-based, in the order given) a finding without a span is about, and the one it
   * involves besides: a caller that knows where it named them (a configuration file) locates it there.
   */
  readonly input?: { readonly index: number; readonly other?: number };
}
