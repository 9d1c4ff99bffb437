/**
 * Stage 2, lower: every top-level declaration of the loaded `schema.ts` becomes an IR
 * {@link Declaration}. One small function per TypeScript construct; anything else raises
 * an `MCG2xx` diagnostic naming the construct and its `file:line:col`. All problems in
 * the file are collected before failing.
 *
 * `extends` (one or many, including `Omit<…>` and type aliases), `Omit`/`Pick`/`Partial`/
 * `Required`/`Record` are resolved here into flat object shapes; named references stay
 * named (`{ kind: "ref" }`) everywhere else.
 *
 * Lowered into existing IR kinds (the emitters see nothing new):
 * - `enum E { A = "a", B = "b" }` (also `const`/`declare` enums) becomes `type E = "a" | "b"`,
 *   and `E.A` in a type becomes the literal `"a"`; every member needs an explicit string or
 *   number literal value, all of one kind (implicit, computed and mixed values are refused);
 * - `const O = { A: "a", B: "b" } as const` is not emitted itself; `(typeof O)[keyof typeof O]`
 *   becomes `"a" | "b"`, `(typeof O)["A"]` and `typeof O.A` become `"a"`, `keyof typeof O`
 *   becomes `"A" | "B"`;
 * - named tuple members `[name: string]` are tuple elements.
 */
import type { JSDoc, SourceFile, TypeNode } from "ts-morph";
import { Node, SyntaxKind, ts } from "../ts-morph.js";
import { DiagnosticBag, GeneratorError, distinctDiagnostics, isStackOverflow } from "../errors.js";
import type {
  AliasDecl,
  ConstDecl,
  Declaration,
  Diagnostic,
  Docs,
  InterfaceDecl,
  ObjectType,
  Property,
  SchemaIR,
  SourceSpan,
  TypeExpr,
} from "../ir.js";
import { lineAndColumnAt, snippet, unknownTypeMessage, type LoadedSchema } from "../load/index.js";
import { extendShape, flatShape, inheritedFrom, intersectShapes, mergedShape, refsIn, selectProperties, withOptional } from "../shape.js";
import { applyConstraintTags, CHECKED_TAGS, docsOf, isConstraintTag, isSchemaTag, roundedNumber, roundedNumberWarning, type TaggedKind, type TaggedReach } from "./docs.js";

/** A type every constraint tag fits (a string, a number or an array): what a property's tags are read against when its own type cannot be lowered. */
const ANY_TAGGED_TYPE: TypeExpr = {
  kind: "union",
  members: [
    { kind: "keyword", name: "string" },
    { kind: "keyword", name: "number" },
    { kind: "array", element: { kind: "keyword", name: "unknown" } },
  ],
};

/** Options that change lowering. */
export interface LowerOptions {
  /** `integer` (default, as upstream's schema.json) or `number` for every `number` without `@TJS-type`. */
  readonly numberType: "integer" | "number";
}

type DeclNode =
  | import("ts-morph").InterfaceDeclaration
  | import("ts-morph").TypeAliasDeclaration
  | import("ts-morph").VariableDeclaration
  | import("ts-morph").EnumDeclaration;

type LiteralValue = string | number | boolean;

/** An `as const` object constant: its keys and literal values, in source order. */
interface ConstObject {
  readonly node: import("ts-morph").VariableDeclaration;
  readonly entries: ReadonlyMap<string, LiteralValue>;
}

/** Lowers a loaded schema to IR. Throws {@link GeneratorError} with every unsupported construct. */
export function lowerSchema(loaded: LoadedSchema, options: LowerOptions): SchemaIR {
  return new Lowerer(loaded, options).run();
}

/**
 * A utility type's shape is refused (MCG207) when written out it is more than this many type
 * nodes, at least {@link COPIES_FACTOR} times its links, and holds copies of copies ({@link Lowerer.checkCopies}).
 * Upstream's largest type is 41 nodes; 6,000 literals written once still pass.
 */
const COPIED_NODES = 2_000;
const COPIES_FACTOR = 4;

/** The types directly inside `type`: an array's element, tuple elements, members, property types, an index signature. */
function innerTypes(type: TypeExpr): readonly TypeExpr[] {
  switch (type.kind) {
    case "array":
      return [type.element];
    case "tuple":
      return type.elements;
    case "union":
    case "intersection":
      return type.members;
    case "object":
      return type.indexSignature ? [...type.properties.map((p) => p.type), type.indexSignature] : type.properties.map((p) => p.type);
    default:
      return [];
  }
}

/** The utility types read as object shapes (a schema's own declaration of one of these names is read instead). */
const UTILITY_TYPES: ReadonlySet<string> = new Set(["Omit", "Pick", "Partial", "Required", "Readonly", "Record"]);

class Lowerer {
  private readonly bag = new DiagnosticBag();
  private readonly warnings: Diagnostic[] = [];
  /** Declaration nodes by name; interfaces may have several (declaration merging). */
  private readonly nodes = new Map<string, DeclNode[]>();
  private readonly consts = new Map<string, string | number>();
  /** `as const` object constants; `null` marks one already reported as unusable. */
  private readonly constObjects = new Map<string, ConstObject | null>();
  /** Member values of each enum, in source order; `null` marks an enum already reported as refused. */
  private readonly enums = new Map<string, ReadonlyMap<string, string | number> | null>();
  /**
   * Flattened interface shapes, memoised; `null` marks one being resolved (a cycle), and
   * `"failed"` one whose problems were already reported (so that each root cause is reported
   * once, not again by every interface that extends it).
   */
  private readonly shapes = new Map<string, ObjectType | null | "failed">();
  /** The utility types ({@link UTILITY_TYPES}) being resolved, innermost last: where a shape that depends on itself through one is reported. */
  private readonly utilities: Node[] = [];
  /**
   * The keys each alias read by {@link keyLiterals} stands for. Such an alias is used, though the
   * output spells its keys out and never names it (no MCG253).
   */
  private readonly aliasKeys = new Map<string, readonly string[]>();
  /** What each alias or enum a constraint tag's type names reaches ({@link aliasHolds}), by name. */
  private readonly reach = new Map<string, TaggedReach>();
  /** Type aliases whose type {@link shapeOf} is lowering, to resolve a utility type of them (a cycle when met again). */
  private readonly aliasesInShape = new Set<string>();
  /**
   * The type of each alias {@link shapeOf} has lowered, so that every utility type of it shares one
   * lowered type (lowered again at each use, a chain of `Pick`s of aliases took 2^n steps).
   */
  private readonly aliasTypes = new Map<string, TypeExpr>();
  /**
   * The error each alias {@link shapeOf} failed to lower with, and the aliases being resolved then when the failure
   * met one of them or another type being resolved (a cycle: {@link cycleHits}); none when it did not.
   */
  private readonly aliasFailures = new Map<string, { readonly error: GeneratorError; readonly resolving: readonly string[] }>();
  /** How many times a type being resolved was met again (a cycle refused): a failure that counted one depends on where it happened. */
  private cycleHits = 0;
  /** How many type nodes each type lowered so far is when written out ({@link checkCopies}). */
  private readonly writtenSizes = new WeakMap<TypeExpr, number>();

  constructor(
    private readonly loaded: LoadedSchema,
    private readonly options: LowerOptions,
  ) {}

  run(): SchemaIR {
    const sf = this.loaded.sourceFile;
    this.bag.items.push(...this.loaded.libraryTypes);
    this.collect(sf);
    this.checkStrayDocComments(sf);
    const declarations: Declaration[] = [];
    for (const [name, nodes] of this.nodes) {
      const decl = this.guard(() => this.lowerDeclaration(name, nodes), nodes[0]);
      if (decl) declarations.push(decl);
    }
    this.bag.throwIfAny(distinctDiagnostics(this.warnings));
    const used = this.withoutUnused(declarations);
    return {
      irVersion: 1,
      source: this.loaded.fileName,
      sha256: this.loaded.sha256,
      declarations: used,
      warnings: distinctDiagnostics(this.warnings),
    };
  }

  /**
   * The declarations less the interfaces, aliases and constants that are neither exported nor reached from
   * an exported declaration's types (an interface only extended is copied, not referred to), each named in a warning
   * (MCG253; not an alias read for keys, whose keys the output spells out): their generated code would be read by nothing, which a vendoring project's
   * `noUnusedLocals` refuses.
   */
  private withoutUnused(declarations: readonly Declaration[]): Declaration[] {
    const byName = new Map(declarations.map((d) => [d.name, d]));
    const reached = new Set<string>();
    const reach = (name: string): void => {
      const decl = byName.get(name);
      if (decl === undefined || reached.has(name)) return;
      reached.add(name);
      if (decl.kind === "const") return;
      // An interface's `extends` is resolved into its properties: the output reads only the types they name.
      for (const other of refsIn(decl.type, new Set(), true)) reach(other);
    };
    for (const decl of declarations) if (decl.exported) reach(decl.name);
    for (const decl of declarations) {
      if (reached.has(decl.name) || this.aliasKeys.has(decl.name)) continue;
      this.warnings.push({
        code: "MCG253",
        message: `${decl.name} is neither exported nor used by an exported declaration; it is left out of the output (export it to generate it)`,
        span: decl.span,
      });
    }
    return declarations.filter((d) => reached.has(d.name));
  }

  /**
   * Runs `fn`, turning a thrown GeneratorError into collected diagnostics, and a stack
   * overflow (a type nested too deeply to lower) into MCG107 at `at`.
   */
  private guard<T>(fn: () => T, at?: Node): T | undefined {
    try {
      return fn();
    } catch (error) {
      if (at && isStackOverflow(error)) {
        this.bag.add("MCG107", "this declaration nests types too deeply to be lowered (the stack overflowed)", this.span(at));
        return undefined;
      }
      if (!(error instanceof GeneratorError)) throw error;
      for (const d of error.diagnostics) this.bag.items.push(d);
      return undefined;
    }
  }

  span(node: Node): SourceSpan {
    const { line, column } = lineAndColumnAt(this.loaded.sourceFile, node.getStart());
    return { file: this.loaded.displayPath, line, column };
  }

  unsupported(node: Node, construct: string): GeneratorError {
    return new GeneratorError([
      { code: "MCG201", message: `unsupported construct: ${construct}`, span: this.span(node) },
    ]);
  }

  /**
   * A `/** … *\/` comment that TypeScript does not attach to a declaration (for example one
   * on the same line after `{`) would silently lose its constraint tags: report it (MCG221).
   */
  private checkStrayDocComments(sf: SourceFile): void {
    const attached = new Set<number>();
    const visit = (node: ts.Node) => {
      // The end of the file and an empty statement take a doc comment, but nothing reads it (helper-88).
      const holdsNothing = node.kind === ts.SyntaxKind.EndOfFileToken || node.kind === ts.SyntaxKind.EmptyStatement;
      if (!holdsNothing) for (const doc of ts.getJSDocCommentsAndTags(node)) if (ts.isJSDoc(doc)) attached.add(doc.pos);
      ts.forEachChild(node, visit);
    };
    visit(sf.compilerNode);
    // Every comment in the file, from TypeScript's scanner (so text inside strings never counts).
    const comments = new Map<number, string>();
    const scanner = ts.createScanner(ts.ScriptTarget.ES2022, false, ts.LanguageVariant.Standard, sf.getFullText());
    // Inside a template literal the scanner sees `}` as a brace: it must rescan it as the
    // template's continuation, or the rest of the file reads as template text (and its comments vanish).
    const openBraces: number[] = []; // one entry per open template: braces opened inside its current `${`
    for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
      if (token === ts.SyntaxKind.MultiLineCommentTrivia) comments.set(scanner.getTokenStart(), scanner.getTokenText());
      else if (token === ts.SyntaxKind.TemplateHead) openBraces.push(0);
      else if (openBraces.length > 0 && token === ts.SyntaxKind.OpenBraceToken) openBraces[openBraces.length - 1]!++;
      else if (openBraces.length > 0 && token === ts.SyntaxKind.CloseBraceToken) {
        if (openBraces[openBraces.length - 1]! > 0) openBraces[openBraces.length - 1]!--;
        else if (scanner.reScanTemplateToken(false) === ts.SyntaxKind.TemplateTail) openBraces.pop();
      }
    }
    const text = sf.getFullText();
    const starts = [...comments.keys()].sort((a, b) => a - b);
    for (const [index, pos] of starts.entries()) {
      const comment = comments.get(pos)!;
      if (!comment.startsWith("/**") || attached.has(pos)) continue;
      // Every tag the constraint reading acts on, the refused ones too (helper-87: @minLength went through unchecked), read
      // as TypeScript reads a doc comment's tags (helper-88: a mail address or a URL holding "@default" was one).
      const tag = tagNamesOf(comment).find(isSchemaTag);
      if (tag === undefined) continue;
      const { line, column } = lineAndColumnAt(sf, pos);
      // A comment after code on its line is that code's, whatever follows it (helper-88).
      const startsLine = text.slice(text.lastIndexOf("\n", pos - 1) + 1, pos).trim() === "";
      this.bag.add(
        "MCG221",
        startsLine && this.beforeAttachedDoc(starts, index, comments, text, attached)
          ? `this doc comment's @${tag} applies to nothing: of the doc comments before a declaration, TypeScript reads the tags of the last one alone; put the tags in that one`
          : `this doc comment's @${tag} applies to nothing: TypeScript attaches a doc comment only to the declaration on the lines below it`,
        { file: this.loaded.displayPath, line, column },
      );
    }
  }

  /**
   * Whether the comment at `starts[index]` is followed, with only spaces and other comments
   * between, by a doc comment TypeScript attaches (helper-86, helper-87: one before a trailing
   * comment, or with a `//` note between, was said to be the last).
   */
  private beforeAttachedDoc(starts: readonly number[], index: number, comments: ReadonlyMap<number, string>, text: string, attached: ReadonlySet<number>): boolean {
    let end = starts[index]! + comments.get(starts[index]!)!.length;
    for (const next of starts.slice(index + 1)) {
      const between = text.slice(end, next).replace(/\/\/[^\n]*/g, "");
      if (between.trim() !== "") return false;
      if (comments.get(next)!.startsWith("/**") && attached.has(next)) return true;
      end = next + comments.get(next)!.length;
    }
    return false;
  }

  // ---- top level -------------------------------------------------------------------

  private collect(sf: SourceFile): void {
    for (const statement of sf.getStatements()) {
      if (Node.isInterfaceDeclaration(statement) && statement.hasDefaultKeyword()) {
        // A default export has no name a consumer imports it by, as `export default A;` has none.
        this.bag.add("MCG201", `unsupported construct: \`export default interface ${statement.getName()}\`; export it by name (\`export interface ${statement.getName()}\`)`, this.span(statement));
      } else if (Node.isInterfaceDeclaration(statement)) {
        this.addNode(statement.getName(), statement);
      } else if (Node.isTypeAliasDeclaration(statement)) {
        this.addNode(statement.getName(), statement);
      } else if (Node.isVariableStatement(statement)) {
        this.collectVariables(statement);
      } else if (Node.isEnumDeclaration(statement)) {
        this.collectEnum(statement);
      } else if (Node.isImportDeclaration(statement) || Node.isImportEqualsDeclaration(statement)) {
        // reported by load (MCG202)
      } else if (Node.isExportDeclaration(statement) && statement.getNamedExports().length === 0 && !statement.getModuleSpecifier()) {
        // `export {}` only marks the file as a module.
      } else if (Node.isEmptyStatement(statement)) {
        // a stray `;`
      } else {
        // A class, function, namespace or statement: a schema holds declarations of types and constants.
        this.bag.add("MCG201", `unsupported construct: ${describeKind(statement)}; a schema declares interfaces, type aliases, enums and constants only`, this.span(statement));
      }
    }
  }

  private addNode(name: string, node: DeclNode): void {
    const list = this.nodes.get(name);
    if (!list) {
      this.nodes.set(name, [node]);
      return;
    }
    const allInterfaces = [...list, node].every((n) => Node.isInterfaceDeclaration(n));
    if (allInterfaces) {
      list.push(node);
      this.warnings.push({
        code: "MCG250",
        message: `interface ${name} is declared more than once; the declarations are merged as TypeScript merges them`,
        span: this.span(node),
      });
    } else {
      const first = list[0]!;
      const where = this.span(first);
      this.bag.add(
        "MCG203",
        `${name} is declared more than once: as ${declarationKind(first)} (line ${where.line}) and as ${declarationKind(node)}`,
        this.span(node),
      );
    }
  }

  /**
   * Checks an enum and records its member values. Every member needs an explicit string or
   * finite number literal, all members of one kind: implicit values (which follow member
   * order, so reordering would change the wire values), computed values and mixed kinds are
   * refused, all reported together.
   */
  private collectEnum(node: import("ts-morph").EnumDeclaration): void {
    const name = node.getName();
    const values = new Map<string, string | number>();
    const problems = new DiagnosticBag();
    const members = node.getMembers();
    if (members.length === 0) problems.add("MCG201", `unsupported construct: enum ${name} has no members`, this.span(node));
    for (const member of members) {
      const initializer = member.getInitializer();
      const memberName = `${name}.${member.getName()}`;
      const value = this.literalValue(initializer);
      if (!initializer) {
        problems.add(
          "MCG201",
          `unsupported construct: enum member ${memberName} has an implicit value; give every member an explicit string or number value`,
          this.span(member),
        );
      } else if (value === undefined || typeof value === "boolean" || (typeof value === "number" && !Number.isFinite(value))) {
        problems.add(
          "MCG201",
          `unsupported construct: enum member ${memberName} has the computed value \`${snippet(initializer)}\`; only string and finite number literals are supported`,
          this.span(member),
        );
      } else {
        // The name as TypeScript reads it: `"ab" = "x"` is the member `E.ab`, not `E."ab"`.
        const nameNode = member.getNameNode();
        values.set(Node.isStringLiteral(nameNode) ? nameNode.getLiteralValue() : member.getName(), value);
      }
    }
    const kinds = new Set([...values.values()].map((v) => typeof v));
    if (kinds.size > 1) {
      problems.add("MCG201", `unsupported construct: enum ${name} mixes string and number members`, this.span(node));
    }
    if (problems.items.length > 0) this.bag.items.push(...problems.items);
    this.enums.set(name, problems.items.length > 0 || this.enums.has(name) ? null : values);
    this.addNode(name, node);
  }

  /**
   * Records an `as const` object constant (`{ A: "a", B: 2 }`): keys are identifiers or
   * string literals, values string, finite number or boolean literals. Every bad property
   * is reported (MCG205).
   */
  private collectConstObject(decl: import("ts-morph").VariableDeclaration, object: import("ts-morph").ObjectLiteralExpression): void {
    const name = decl.getName();
    const entries = new Map<string, LiteralValue>();
    const problems = new DiagnosticBag();
    for (const property of object.getProperties()) {
      if (!Node.isPropertyAssignment(property)) {
        problems.add("MCG205", `constant ${name}: \`${snippet(property)}\` is not a \`key: literal\` property`, this.span(property));
        continue;
      }
      const nameNode = property.getNameNode();
      let key: string;
      if (Node.isIdentifier(nameNode)) key = nameNode.getText();
      else if (Node.isStringLiteral(nameNode) || Node.isNoSubstitutionTemplateLiteral(nameNode)) key = nameNode.getLiteralText();
      else {
        problems.add("MCG205", `constant ${name}: property name ${nameNode.getText()} must be an identifier or a string literal`, this.span(nameNode));
        continue;
      }
      const value = this.literalValue(property.getInitializer());
      if (value === undefined || (typeof value === "number" && !Number.isFinite(value))) {
        problems.add("MCG205", `constant ${name}: property ${key} must be a string, finite number or boolean literal`, this.span(property));
        continue;
      }
      entries.set(key, value);
    }
    if (problems.items.length > 0) {
      this.bag.items.push(...problems.items);
      this.constObjects.set(name, null);
    } else {
      this.constObjects.set(name, { node: decl, entries });
    }
  }

  private collectVariables(statement: import("ts-morph").VariableStatement): void {
    if (statement.getDeclarationKind() !== "const") {
      this.bag.add("MCG204", `only \`const\` declarations are supported, not \`${statement.getDeclarationKind()}\``, this.span(statement));
      return;
    }
    for (const decl of statement.getDeclarations()) {
      const initializer = decl.getInitializer();
      if (initializer && Node.isAsExpression(initializer) && initializer.getTypeNode()?.getText() === "const") {
        const inner = initializer.getExpression();
        if (Node.isObjectLiteralExpression(inner)) {
          this.collectConstObject(decl, inner);
          continue;
        }
      }
      if (initializer && Node.isObjectLiteralExpression(initializer)) {
        this.bag.add(
          "MCG205",
          `constant ${decl.getName()} is an object without \`as const\`: its properties have types like string, not literal types; add \`as const\``,
          this.span(decl),
        );
        continue;
      }
      const value = this.literalValue(initializer);
      if (value === undefined || typeof value === "boolean" || (typeof value === "number" && !Number.isFinite(value))) {
        this.bag.add("MCG205", `constant ${decl.getName()} must be initialised with a string or finite number literal`, this.span(decl));
        continue;
      }
      this.consts.set(decl.getName(), value);
      this.addNode(decl.getName(), decl);
    }
  }

  private lowerDeclaration(name: string, nodes: DeclNode[]): Declaration {
    const first = nodes[0]!;
    if (Node.isVariableDeclaration(first)) return this.lowerConst(first);
    if (Node.isTypeAliasDeclaration(first)) return this.lowerAlias(first);
    if (Node.isEnumDeclaration(first)) return this.lowerEnum(first);
    return this.lowerInterface(name, nodes as import("ts-morph").InterfaceDeclaration[]);
  }

  private lowerConst(node: import("ts-morph").VariableDeclaration): ConstDecl {
    const statement = node.getVariableStatementOrThrow();
    this.refuseConstraintTags(statement.getJsDocs(), `constant ${node.getName()}`);
    return {
      kind: "const",
      name: node.getName(),
      value: this.consts.get(node.getName())!,
      exported: statement.isExported(),
      docs: docsOf(statement.getJsDocs()),
      span: this.span(node),
    };
  }

  /** An enum as the type alias of its member values (checked in {@link collectEnum}). */
  private lowerEnum(node: import("ts-morph").EnumDeclaration): AliasDecl {
    this.refuseConstraintTags(node.getJsDocs(), `enum ${node.getName()}`);
    // A member's value is what it is written as (helper-87: a tag there was dropped).
    for (const member of node.getMembers()) this.refuseConstraintTags(member.getJsDocs(), `enum member ${node.getName()}.${member.getName()}`);
    const values = this.enums.get(node.getName());
    // A refused enum was reported when it was collected; the placeholder is never emitted.
    const type: TypeExpr = values ? literalUnion([...values.values()]) : { kind: "keyword", name: "never" };
    return { kind: "alias", name: node.getName(), type, exported: node.isExported(), docs: docsOf(node.getJsDocs()), span: this.span(node) };
  }

  private lowerAlias(node: import("ts-morph").TypeAliasDeclaration): AliasDecl {
    if (node.getTypeParameters().length > 0) {
      const generic = this.unsupported(node, `generic type alias ${node.getName()}<${node.getTypeParameters().map((p) => p.getName()).join(", ")}>${GENERIC_INSTEAD}`);
      // Its tags' own problems beside it, as beside a type that cannot be lowered (helper-92).
      throw this.withTagProblems(generic, node.getJsDocs(), node);
    }
    const docs = docsOf(node.getJsDocs());
    const type = this.constrainedType(node.getTypeNodeOrThrow(), node.getJsDocs(), node);
    return { kind: "alias", name: node.getName(), type, exported: node.isExported(), docs, span: this.span(node) };
  }

  private lowerInterface(name: string, nodes: import("ts-morph").InterfaceDeclaration[]): InterfaceDecl {
    const first = nodes[0]!;
    for (const node of nodes) this.refuseConstraintTags(node.getJsDocs(), `interface ${name}`);
    return {
      kind: "interface",
      name,
      heritage: nodes.flatMap((n) => n.getExtends().map((e) => oneLine(e.getText()))),
      type: this.interfaceShape(name),
      exported: nodes.some((n) => n.isExported()),
      docs: docsOf(nodes.flatMap((n) => n.getJsDocs())),
      span: this.span(first),
    };
  }

  // ---- object shapes -----------------------------------------------------------------

  /** The flattened shape of interface `name`: inherited properties, then its own. */
  interfaceShape(name: string): ObjectType {
    const known = this.shapes.get(name);
    // Its problems were reported where it first failed: nothing new to say here.
    if (known === "failed") throw new GeneratorError([]);
    if (known) return known;
    const nodes = (this.nodes.get(name) ?? []) as import("ts-morph").InterfaceDeclaration[];
    if (known === null) {
      const utility = this.utilities.at(-1);
      if (utility !== undefined) throw this.selfUtility(utility, name);
      this.cycleHits++;
      throw this.unsupported(nodes[0]!, `interface ${name} extends itself`);
    }
    this.shapes.set(name, null);
    try {
      const shape = this.resolveInterfaceShape(name, nodes);
      this.shapes.set(name, shape);
      return shape;
    } catch (error) {
      this.shapes.set(name, "failed");
      throw error;
    }
  }

  private resolveInterfaceShape(name: string, nodes: import("ts-morph").InterfaceDeclaration[]): ObjectType {
    let shape: ObjectType = { kind: "object", properties: [] };
    for (const node of nodes) {
      if (node.getTypeParameters().length > 0) {
        throw this.unsupported(node, `generic interface ${name}<${node.getTypeParameters().map((p) => p.getName()).join(", ")}>${GENERIC_INSTEAD}`);
      }
      for (const heritage of node.getExtends()) {
        shape = intersectShapes(shape, this.heritageShape(heritage));
      }
    }
    for (const node of nodes) {
      const own = this.members(node.getMembers());
      shape = extendShape(shape, own);
    }
    return shape;
  }

  private heritageShape(heritage: import("ts-morph").ExpressionWithTypeArguments): ObjectType {
    const expression = heritage.getExpression();
    if (!Node.isIdentifier(expression)) throw this.unsupported(heritage, `extends ${expression.getText()}`);
    const name = expression.getText();
    const args = heritage.getTypeArguments();
    const base = this.utilityShape(name, args, heritage);
    if (base) return inheritedFrom(base, this.utilityBase(name, args));
    // `extends Map<…>` names a type the schema does not declare, not a generic type of its own (helper-82).
    if (args.length > 0) throw this.nodes.has(name) ? this.unsupported(heritage, `extends a generic type ${heritage.getText()}`) : this.unknownType(name, heritage);
    return inheritedFrom(this.shapeOf({ kind: "ref", name }, heritage), name);
  }

  /**
   * The declaration whose properties the utility type `name<args>` takes: the type it is applied to
   * (`JSONRPCErrorResponse` in `Omit<JSONRPCErrorResponse, "error">`, through nested utility types
   * too), which `diff` names as where an inherited property comes from; the utility's own name when
   * it is applied to no named type (`Record<…>`, an inline object).
   */
  private utilityBase(name: string, args: TypeNode[]): string {
    const target = name === "Record" ? undefined : args[0];
    if (target === undefined || !Node.isTypeReference(target)) return name;
    const inner = target.getTypeName().getText();
    return !this.nodes.has(inner) && UTILITY_TYPES.has(inner) ? this.utilityBase(inner, target.getTypeArguments()) : inner;
  }

  /**
   * A utility type whose shape needs the shape being resolved (`children: Omit<Tree, "value">[]`
   * inside `Tree`): its shape is taken when it is lowered, so it cannot be one of the type's own
   * members. Through a named alias it is a reference, resolved later.
   */
  private selfUtility(utility: Node, name: string): GeneratorError {
    this.cycleHits++;
    return this.unsupported(
      utility,
      `${utility.getText()} needs the shape of ${name} while ${name} is being resolved; name it with a type alias (type ${name}Part = ${utility.getText()}) and use the alias`,
    );
  }

  /**
   * `Omit`, `Pick`, `Partial`, `Required`, `Readonly` and `Record` as object shapes, or `undefined`
   * when `name` is none of them.
   */
  private utilityShape(name: string, args: TypeNode[], at: Node): ObjectType | undefined {
    if (this.nodes.has(name) || !UTILITY_TYPES.has(name)) return undefined;
    this.utilities.push(at);
    try {
      const shape = this.knownUtilityShape(name, args, at);
      if (shape) this.checkCopies(shape, at);
      return shape;
    } finally {
      this.utilities.pop();
    }
  }

  /**
   * Refuses (MCG207) a utility type's shape that, written out, is more than {@link COPIED_NODES}
   * type nodes, at least {@link COPIES_FACTOR} times its links (the type nodes it would be with each
   * type it repeats written once), and holds copies of copies. A utility type copies the types of
   * the properties it takes; a property's object literal type is then written out again at each use
   * (in `types.ts`, and checked again in `validators.ts`), and a chain of them
   * (`X_n = { p: { q: Pick<X_{n-1}, "p"> & { y: Pick<X_{n-1}, "p"> } } }`) doubles it at each
   * link. One level of copies is what the schema wrote (`Record<K, V>`: `V` for each key; helper-82:
   * a `Record` of 2,000 keys was refused); a type repeated inside a type that is itself repeated
   * (`Record<K, Record<K, V>>`, the chain above; helper-83) grows with the product. Naming the
   * object type makes each use a reference.
   */
  private checkCopies(shape: ObjectType, at: Node): void {
    const written = this.writtenSize(shape);
    if (written <= COPIED_NODES) return;
    // The types inside `shape` once each, with how many uses each has, and the links between them.
    const uses = new Map<TypeExpr, number>();
    let links = 1;
    const visit = (type: TypeExpr): void => {
      const inner = innerTypes(type);
      links += inner.length;
      for (const t of inner) {
        const seen = uses.get(t);
        uses.set(t, (seen ?? 0) + 1);
        if (seen === undefined) visit(t);
      }
    };
    visit(shape);
    if (written < COPIES_FACTOR * links) return;
    // How deep repeated types nest: 1 for `Record<K, V>`, 2 or more once a repeated type holds another.
    const depths = new Map<TypeExpr, number>();
    const depth = (type: TypeExpr): number => {
      let known = depths.get(type);
      if (known === undefined) {
        known = 0;
        for (const t of innerTypes(type)) known = Math.max(known, depth(t) + ((uses.get(t) ?? 0) > 1 ? 1 : 0));
        depths.set(type, known);
      }
      return known;
    };
    if (depth(shape) < 2) return;
    throw new GeneratorError([
      {
        code: "MCG207",
        message:
          `${snippet(at)} written out is ${written.toLocaleString("en-US")} type nodes, from ${links.toLocaleString("en-US")} with each type it repeats written once: ` +
          "a utility type copies each object literal type of the properties it takes, and a chain of them copies it again at each link; " +
          "give those object types names (an interface or type alias) so that each use refers to one",
        span: this.span(at),
      },
    ]);
  }

  /** The number of type nodes `type` is when written out (a shared type counted at each use), memoised by type. */
  private writtenSize(type: TypeExpr): number {
    let size = this.writtenSizes.get(type);
    if (size === undefined) {
      size = 1;
      for (const inner of innerTypes(type)) size += this.writtenSize(inner);
      this.writtenSizes.set(type, size);
    }
    return size;
  }

  private knownUtilityShape(name: string, args: TypeNode[], at: Node): ObjectType | undefined {
    switch (name) {
      case "Omit":
      case "Pick": {
        if (args.length !== 2) throw this.unsupported(at, `${name} with ${args.length} type arguments`);
        const target = this.shapeOf(this.lowerType(args[0]!), args[0]!);
        if (target.indexSignature) {
          // TypeScript's Omit/Pick over an index signature drop every named property; say so rather than guess.
          throw this.unsupported(at, `${name} of a type with an index signature`);
        }
        return selectProperties(target, this.keyLiterals(args[1]!), name === "Pick");
      }
      case "Partial":
      case "Required": {
        if (args.length !== 1) throw this.unsupported(at, `${name} with ${args.length} type arguments`);
        const target = this.shapeOf(this.lowerType(args[0]!), args[0]!);
        return withOptional(target, name === "Partial");
      }
      case "Readonly": {
        // Reached from `extends Readonly<T>`: a property type is read in `reference` (an array keeps the modifier).
        if (args.length !== 1) throw this.unsupported(at, `Readonly with ${args.length} type arguments`);
        return this.shapeOf(this.lowerType(args[0]!), args[0]!);
      }
      case "Record": {
        if (args.length !== 2) throw this.unsupported(at, `Record with ${args.length} type arguments`);
        const value = this.lowerType(args[1]!);
        const keyNode = args[0]!;
        if (keyNode.getKind() === SyntaxKind.StringKeyword) return { kind: "object", properties: [], indexSignature: value };
        const keys = this.keyLiterals(keyNode);
        return {
          kind: "object",
          properties: keys.map((key) => ({ name: key, optional: false, type: value, span: this.span(keyNode) })),
        };
      }
      default:
        return undefined;
    }
  }

  /**
   * String-literal keys of `"a" | "b"`, through type aliases (`type Keys = "a" | "b"`) and string
   * enums (the alias of their values), each once and in the order first written (`Record<K | "a", V>`
   * with `K = "a" | "b"` has the properties a and b). An alias or enum read here counts as used
   * ({@link aliasKeys}).
   */
  private keyLiterals(node: TypeNode): string[] {
    // The aliases being read: an alias may be reached twice (`K | K2` with `K2 = K | "b"`), not through itself.
    const reading = new Set<string>();
    const visit = (type: TypeExpr, keys: Set<string>): void => {
      if (type.kind === "union") return type.members.forEach((m) => visit(m, keys));
      if (type.kind === "literal" && typeof type.value === "string") return void keys.add(type.value);
      if (type.kind === "ref" && this.enums.has(type.name)) {
        const values = this.enums.get(type.name);
        // A refused enum was reported at the enum (helper-142: `Record<Region, V>` of a string enum was refused).
        if (!values) throw new GeneratorError([]);
        const strings = [...values.values()].filter((v): v is string => typeof v === "string");
        if (strings.length === values.size) {
          this.aliasKeys.set(type.name, strings);
          for (const key of strings) keys.add(key);
          return;
        }
      }
      const alias = type.kind === "ref" && !reading.has(type.name) ? this.nodes.get(type.name)?.[0] : undefined;
      if (alias === undefined || !Node.isTypeAliasDeclaration(alias)) {
        throw this.unsupported(node, `key type ${node.getText()} (only string literals, or aliases of them, are supported)`);
      }
      // Each alias is read once per run (`type K2 = K1 | K1` chains would otherwise be read 2^n times).
      let known = this.aliasKeys.get(alias.getName());
      if (known === undefined) {
        const own = new Set<string>();
        reading.add(alias.getName());
        visit(this.lowerType(alias.getTypeNodeOrThrow()), own);
        reading.delete(alias.getName());
        this.aliasKeys.set(alias.getName(), (known = [...own]));
      }
      for (const key of known) keys.add(key);
    };
    const keys = new Set<string>();
    visit(this.lowerType(node), keys);
    return [...keys];
  }

  /**
   * Resolves a type expression to an object shape (the merged view of `generator/shape.ts`,
   * whose module doc states the intersection rule), through references and intersections;
   * `object`, `unknown` and `any` are the empty shape. Declarations are looked up in the
   * source, as they may not be lowered yet: an interface through {@link interfaceShape}, an
   * alias by lowering its type.
   */
  shapeOf(type: TypeExpr, at: Node): ObjectType {
    const lookup = (name: string): TypeExpr | undefined => {
      const node = this.nodes.get(name)?.[0];
      if (node && Node.isInterfaceDeclaration(node)) return this.interfaceShape(name);
      if (!node || !Node.isTypeAliasDeclaration(node)) return undefined;
      // `type Tree = { children: Omit<Tree, "value">[] }`: lowering Tree's type would ask for Tree's shape again.
      const utility = this.utilities.at(-1);
      if (this.aliasesInShape.has(name) && utility !== undefined) throw this.selfUtility(utility, name);
      const known = this.aliasTypes.get(name);
      if (known !== undefined) return known;
      // A failure is said again as it was (lowered again at each use, a chain of utility types over a failing alias took
      // 2^n steps; helper-82). One that met a type being resolved (a cycle) failed for that, and is said again only where
      // the aliases being resolved then still are; any other, everywhere (helper-83: a diamond of failing aliases was
      // lowered along each path).
      const failed = this.aliasFailures.get(name);
      if (failed !== undefined && failed.resolving.every((other) => this.aliasesInShape.has(other))) {
        if (failed.resolving.length > 0) this.cycleHits++;
        throw failed.error;
      }
      const resolving = [...this.aliasesInShape];
      const hits = this.cycleHits;
      this.aliasesInShape.add(name);
      try {
        const type = this.lowerType(node.getTypeNodeOrThrow());
        this.aliasTypes.set(name, type);
        return type;
      } catch (error) {
        if (error instanceof GeneratorError) this.aliasFailures.set(name, { error, resolving: this.cycleHits === hits ? [] : resolving });
        throw error;
      } finally {
        this.aliasesInShape.delete(name);
      }
    };
    const flat = flatShape(type, lookup, { emptyKeywords: true });
    if (flat) return mergedShape(flat);
    throw this.unsupported(at, `${at.getText()} is not an object type and cannot be extended or used with Omit/Pick/Partial/Required`);
  }

  private members(members: Node[]): ObjectType {
    const properties: Property[] = [];
    let indexSignature: TypeExpr | undefined;
    this.eachLowered(members, (member) => {
      if (Node.isPropertySignature(member)) {
        properties.push(this.property(member));
      } else if (Node.isIndexSignatureDeclaration(member)) {
        const keyType = member.getKeyTypeNode();
        if (keyType.getKind() !== SyntaxKind.StringKeyword) {
          throw this.unsupported(member, `index signature with ${keyType.getText()} keys (only string keys are supported)`);
        }
        const valueNode = member.getReturnTypeNode();
        if (!valueNode) throw this.unsupported(member, "index signature without a value type");
        // Its tags constrain each value, as a property's do its value (helper-86: they were dropped unchecked).
        indexSignature = this.constrainedType(valueNode, member.getJsDocs(), member);
      } else {
        throw this.unsupported(member, describeKind(member));
      }
    });
    return indexSignature ? { kind: "object", properties, indexSignature } : { kind: "object", properties };
  }

  private property(node: import("ts-morph").PropertySignature): Property {
    const nameNode = node.getNameNode();
    let name: string;
    if (Node.isIdentifier(nameNode) || Node.isPrivateIdentifier(nameNode)) name = nameNode.getText();
    else if (Node.isStringLiteral(nameNode) || Node.isNoSubstitutionTemplateLiteral(nameNode)) name = nameNode.getLiteralText();
    else if (Node.isNumericLiteral(nameNode)) name = this.numericName(nameNode);
    else throw this.unsupported(nameNode, "computed property name");
    const typeNode = node.getTypeNode();
    if (!typeNode) throw this.unsupported(node, `property ${name} without a type annotation`);
    const jsDocs = node.getJsDocs();
    const type = this.constrainedType(typeNode, jsDocs, node);
    const docs = docsOf(jsDocs);
    const property: Property = { name, optional: node.hasQuestionToken(), type, span: this.span(node) };
    // A required property is present when its value is not `undefined`; typed `undefined` or
    // `never`, it can hold no value, so no object of the type is valid. Said, not refused: the
    // types and validators still follow the schema.
    if (!property.optional && type.kind === "keyword" && (type.name === "undefined" || type.name === "never")) {
      this.warnings.push({
        code: "MCG252",
        message: `property ${name} is required but typed \`${type.name}\`: no value satisfies it, so no object of this type is valid (write \`${name}?: ${type.name}\` if the property must be absent)`,
        span: this.span(node),
      });
    }
    return docs.text || docs.tags.length ? { ...property, docs } : property;
  }

  /**
   * The members of an intersection that constrain a JSON value, judged by the types TypeScript
   * gives them (through aliases and parentheses). An empty object type adds nothing to a
   * primitive (`string & {}`, TypeScript's "any string, with completions" idiom, is a string),
   * and `object` nothing to an object type (`object & { a: string }`: one object test, one
   * issue). A primitive with an object type (`string & { __brand: "x" }`, a brand that exists
   * only in the type) is something no JSON value is: warning MCG255, generated as written.
   */
  private intersectionMembers(node: import("ts-morph").IntersectionTypeNode): TypeNode[] {
    const members = node.getTypeNodes().map((n) => ({ node: n, kind: intersectionMemberKind(n), keyword: n.getKind() === SyntaxKind.ObjectKeyword }));
    const primitive = members.find((m) => m.kind === "primitive");
    const objectType = members.some((m) => (m.kind === "object" || m.kind === "empty") && !m.keyword);
    const kept = members.filter((m) => !(primitive !== undefined && m.kind === "empty") && !(objectType && m.keyword));
    const object = primitive === undefined ? undefined : kept.find((m) => m.kind === "object");
    if (primitive !== undefined && object !== undefined) {
      const [p, o] = [snippet(primitive.node), snippet(object.node)];
      this.warnings.push({
        code: "MCG255",
        message: `intersection of ${p} and ${o}: no JSON value is both a primitive and an object, so no value is valid (a brand exists only in the type: write ${p} alone to accept its values)`,
        span: this.span(node),
      });
    }
    return kept.map((m) => m.node);
  }

  /**
   * MCG220, at the tag, for a constraint tag in `jsDocs` of a declaration whose values it cannot
   * constrain (`what`: `interface X`, `enum E`, `constant C`): refused rather than left unchecked.
   */
  private refuseConstraintTags(jsDocs: readonly JSDoc[], what: string): void {
    // Refused keywords and @TJS- tags too (helper-88: @minLength on an enum member went through); @default documents, and stays.
    const tag = readTags(jsDocs).find((t) => isSchemaTag(t.getTagName()) && t.getTagName() !== "default");
    if (tag === undefined) return;
    const name = tag.getTagName();
    const instead = isConstraintTag(name) ? "put it on a property" : `the generated validators check ${CHECKED_TAGS}, on a property`;
    throw new GeneratorError([{ code: "MCG220", message: `@${name} on ${what} applies to nothing: ${instead}`, span: this.span(tag) }]);
  }

  /**
   * `typeNode` (a property's, an index signature's or an alias's) lowered, with the constraint tags of `jsDocs` (see {@link constrain}). When the type
   * cannot be lowered, the tags are still read, against a type every tag fits, so that the run
   * reports their own problems (a refused keyword, a bound that is no number) beside the type's.
   */
  private constrainedType(typeNode: TypeNode, jsDocs: JSDoc[], at: Node): TypeExpr {
    let type: TypeExpr;
    try {
      type = this.lowerType(typeNode);
    } catch (error) {
      if (!(error instanceof GeneratorError)) throw error;
      throw this.withTagProblems(error, jsDocs, at);
    }
    return this.constrain(type, jsDocs, at);
  }

  /** `error` (a type's problems) with the problems of the tags of `jsDocs` on `at`, read against a type every tag fits. */
  private withTagProblems(error: GeneratorError, jsDocs: JSDoc[], at: Node): GeneratorError {
    try {
      this.constrain(ANY_TAGGED_TYPE, jsDocs, at);
    } catch (tagError) {
      if (tagError instanceof GeneratorError) return new GeneratorError(distinctDiagnostics([...error.diagnostics, ...tagError.diagnostics]));
      throw tagError;
    }
    return error;
  }

  /**
   * What a reference to the type alias or enum `name` reaches that a constraint tag applies to,
   * through aliases, unions, parentheses and `readonly`: `type P = number | Q` with
   * `type Q = readonly string[]` holds a number and an array; `type One = 1` a number literal; an
   * enum the literals of its members. Nothing for an interface or a name the schema does not declare.
   */
  private aliasHolds(name: string, reading = new Set<string>()): TaggedReach {
    // Each name is read once per run (a tag per property naming it would read it again); a read inside another is not
    // kept, as a cycle may have cut it short.
    const top = reading.size === 0;
    const known = top ? this.reach.get(name) : undefined;
    if (known !== undefined) return known;
    const read = this.readReach(name, reading);
    if (top) this.reach.set(name, read);
    return read;
  }

  /** {@link aliasHolds}, read. */
  private readReach(name: string, reading: Set<string>): TaggedReach {
    const kinds = new Set<TaggedKind>();
    const literals: (string | number)[] = [];
    const found: TaggedReach = { kinds, literals };
    const declaration = this.nodes.get(name)?.[0];
    if (declaration !== undefined && Node.isEnumDeclaration(declaration)) {
      for (const member of declaration.getMembers()) {
        const value = member.getValue();
        if (value !== undefined) literals.push(value);
      }
      return found;
    }
    const alias = declaration;
    if (alias === undefined || !Node.isTypeAliasDeclaration(alias) || reading.has(name)) return found;
    reading.add(name);
    const visit = (node: TypeNode): void => {
      if (Node.isParenthesizedTypeNode(node)) return visit(node.getTypeNode());
      // An intersection's members each (`number & {}` is a number): more than it may hold, never less.
      if (Node.isUnionTypeNode(node) || Node.isIntersectionTypeNode(node)) return node.getTypeNodes().forEach(visit);
      if (Node.isTypeOperatorTypeNode(node) && node.getOperator() === SyntaxKind.ReadonlyKeyword) return visit(node.getTypeNode());
      // Literals written through a name (helper-130): `E.A` (an enum member), `typeof C`, `typeof E.A`, `(typeof O)[keyof typeof O]`,
      // `keyof typeof O`. Lowered as a property's type lowers them; one that cannot be is reported where the alias is lowered.
      const qualified = Node.isTypeReference(node) && Node.isQualifiedName(node.getTypeName());
      const keyOf = Node.isTypeOperatorTypeNode(node) && node.getOperator() === SyntaxKind.KeyOfKeyword;
      if (qualified || keyOf || Node.isLiteralTypeNode(node) || Node.isTypeQuery(node) || Node.isIndexedAccessTypeNode(node)) {
        let lowered: TypeExpr;
        try {
          lowered = this.lowerType(node);
        } catch (error) {
          if (error instanceof GeneratorError) return;
          throw error;
        }
        const collect = (t: TypeExpr): void => {
          if (t.kind === "union") t.members.forEach(collect);
          else if (t.kind === "literal" && typeof t.value !== "boolean") literals.push(t.value);
        };
        return collect(lowered);
      }
      const referenced = Node.isTypeReference(node) ? node.getTypeName().getText() : undefined;
      if (node.getKind() === SyntaxKind.NumberKeyword) kinds.add("number");
      else if (node.getKind() === SyntaxKind.StringKeyword) kinds.add("string");
      else if (Node.isArrayTypeNode(node) || Node.isTupleTypeNode(node) || referenced === "Array" || referenced === "ReadonlyArray") kinds.add("array");
      // A library type the schema does not declare, lowered as a JSON type (`Date`: a date-time string; helper-131: `q: D | string`
      // with `type D = Date` under @TJS-pattern ^x passed "2020-01-01T00:00:00Z").
      else if (referenced !== undefined && !this.nodes.has(referenced) && LIBRARY_TYPES_AS_JSON.get(referenced)?.kind === "keyword") {
        const json = LIBRARY_TYPES_AS_JSON.get(referenced) as Extract<TypeExpr, { kind: "keyword" }>;
        if (json.name === "string" || json.name === "number") kinds.add(json.name);
      } else if (referenced !== undefined) {
        const inner = this.aliasHolds(referenced, reading);
        for (const kind of inner.kinds) kinds.add(kind);
        literals.push(...inner.literals);
      }
    };
    const typeNode = alias.getTypeNode();
    if (typeNode !== undefined) visit(typeNode);
    return found;
  }

  /** `type` with the constraint tags of `jsDocs`; a tag's problem (MCG220) and warnings are located at the tag, on `at`'s declaration. */
  private constrain(type: TypeExpr, allDocs: JSDoc[], at: Node): TypeExpr {
    const jsDocs = allDocs.slice(-1);
    const tags = readTags(allDocs);
    const tagSpan = (tag: number) => this.span(tags[tag] ?? at);
    const result = applyConstraintTags(
      type,
      jsDocs,
      (code, message, tag) => this.warnings.push({ code, message, span: tagSpan(tag) }),
      (name) => this.aliasHolds(name),
    );
    if ("message" in result) throw new GeneratorError([{ code: "MCG220", message: result.message, span: tagSpan(result.tag) }]);
    return result;
  }

  // ---- type expressions --------------------------------------------------------------

  lowerType(node: TypeNode): TypeExpr {
    switch (node.getKind()) {
      case SyntaxKind.StringKeyword:
        return { kind: "keyword", name: "string" };
      case SyntaxKind.NumberKeyword:
        return { kind: "keyword", name: "number", numberType: this.options.numberType };
      case SyntaxKind.BooleanKeyword:
        return { kind: "keyword", name: "boolean" };
      case SyntaxKind.UnknownKeyword:
        return { kind: "keyword", name: "unknown" };
      case SyntaxKind.AnyKeyword:
        return { kind: "keyword", name: "any" };
      case SyntaxKind.NeverKeyword:
        return { kind: "keyword", name: "never" };
      case SyntaxKind.ObjectKeyword:
        return { kind: "keyword", name: "object" };
      case SyntaxKind.UndefinedKeyword:
        return { kind: "keyword", name: "undefined" };
      case SyntaxKind.NullKeyword:
        return { kind: "keyword", name: "null" };
      case SyntaxKind.LiteralType:
        return this.literal(node.asKindOrThrow(SyntaxKind.LiteralType));
      case SyntaxKind.ParenthesizedType:
        return this.lowerType(node.asKindOrThrow(SyntaxKind.ParenthesizedType).getTypeNode());
      case SyntaxKind.ArrayType:
        return { kind: "array", element: this.lowerType(node.asKindOrThrow(SyntaxKind.ArrayType).getElementTypeNode()) };
      case SyntaxKind.TupleType:
        return this.tuple(node.asKindOrThrow(SyntaxKind.TupleType));
      case SyntaxKind.UnionType: {
        // `any` and `unknown` absorb the other members (`Loose | number` with `type Loose = any` is `any`).
        const type = node.getType();
        if ((type.isAny() && !isErrorType(type)) || type.isUnknown()) return { kind: "keyword", name: type.isAny() ? "any" : "unknown" };
        return { kind: "union", members: this.eachLowered(node.asKindOrThrow(SyntaxKind.UnionType).getTypeNodes()) };
      }
      case SyntaxKind.IntersectionType: {
        // `any` absorbs the other members (`any & string` is `any`, also through aliases): every value passes.
        const type = node.getType();
        if (type.isAny() && !isErrorType(type)) return { kind: "keyword", name: "any" };
        // Members TypeScript reduces to never (`string & number`, `Loose & never`): no value is valid. It keeps some
        // intersections as written (`{ k: "a" } & { k: "b" }`): the validators merge such literal declarations themselves.
        if (type.isNever()) {
          this.warnings.push({
            code: "MCG257",
            message: `intersection \`${snippet(node)}\` is never (TypeScript reduces it to never: its members are disjoint, or one is never): no value is valid`,
            span: this.span(node),
          });
          return { kind: "keyword", name: "never" };
        }
        const members = this.intersectionMembers(node.asKindOrThrow(SyntaxKind.IntersectionType));
        return members.length === 1 ? this.lowerType(members[0]!) : { kind: "intersection", members: this.eachLowered(members) };
      }
      case SyntaxKind.TypeLiteral:
        return this.members(node.asKindOrThrow(SyntaxKind.TypeLiteral).getMembers());
      case SyntaxKind.TypeQuery:
        return this.typeQuery(node.asKindOrThrow(SyntaxKind.TypeQuery));
      case SyntaxKind.TypeReference:
        return this.reference(node.asKindOrThrow(SyntaxKind.TypeReference));
      case SyntaxKind.TypeOperator: {
        const op = node.asKindOrThrow(SyntaxKind.TypeOperator);
        if (op.getOperator() === SyntaxKind.ReadonlyKeyword) {
          // TypeScript allows `readonly` on array and tuple types only.
          const inner = this.lowerType(op.getTypeNode());
          return inner.kind === "array" || inner.kind === "tuple" ? { ...inner, readonly: true } : inner;
        }
        if (op.getOperator() === SyntaxKind.KeyOfKeyword) {
          const object = this.constObjectOf(op.getTypeNode());
          if (object) return literalUnion([...object.entries.keys()]);
          if (object === null) return { kind: "keyword", name: "never" }; // the constant itself was reported
        }
        const instead = op.getOperator() === SyntaxKind.KeyOfKeyword ? "; write the keys out as a union of string literals" : "";
        throw this.unsupported(node, `${ts.tokenToString(op.getOperator()) ?? "type"} operator type \`${snippet(node)}\`${instead}`);
      }
      case SyntaxKind.IndexedAccessType:
        return this.indexedAccess(node.asKindOrThrow(SyntaxKind.IndexedAccessType));
      default:
        throw this.unsupported(node, describeKind(node));
    }
  }

  /**
   * The value of a numeric literal. TypeScript keeps the literal's text normalised (`1e21` is
   * `1e+21`, separators dropped, `0x10` as `16`); ts-morph's getLiteralValue() reads that text with
   * parseInt, which turns `1e+21` into 1 and `1e-7` into 1. An integer no double holds exactly is
   * read as the nearest one, and warned of (MCG254) against the text as written.
   */
  private numericValue(node: import("ts-morph").NumericLiteral, signed?: Node): number {
    const written = (signed ?? node).getText();
    const rounded = roundedNumber(written);
    if (rounded !== undefined) this.warnings.push({ code: "MCG254", message: roundedNumberWarning(written, rounded), span: this.span(signed ?? node) });
    return Number(node.compilerNode.text);
  }

  /** A numeric property name (`9007199254740993: string`): TypeScript names the property by the double it reads. */
  private numericName(node: import("ts-morph").NumericLiteral): string {
    const name = String(Number(node.compilerNode.text));
    const written = node.getText();
    if (roundedNumber(written) !== undefined) {
      const message = `the property name ${written} is a number beyond 2^53 in magnitude, which TypeScript reads as the double ${name}: the property is "${name}", not "${written.replace(/_/g, "")}" (quote the name to keep it as written)`;
      this.warnings.push({ code: "MCG254", message, span: this.span(node) });
    }
    return name;
  }

  private literalValue(node: Node | undefined): string | number | boolean | undefined {
    if (!node) return undefined;
    if (Node.isAsExpression(node) && node.getTypeNode()?.getText() === "const") return this.literalValue(node.getExpression());
    if (Node.isStringLiteral(node) || Node.isNoSubstitutionTemplateLiteral(node)) return node.getLiteralText();
    if (Node.isNumericLiteral(node)) return this.numericValue(node);
    if (Node.isTrueLiteral(node)) return true;
    if (Node.isFalseLiteral(node)) return false;
    if (Node.isPrefixUnaryExpression(node) && Node.isNumericLiteral(node.getOperand())) {
      const operand = node.getOperand() as import("ts-morph").NumericLiteral;
      if (node.getOperatorToken() === SyntaxKind.MinusToken) return -this.numericValue(operand, node);
      if (node.getOperatorToken() === SyntaxKind.PlusToken) return this.numericValue(operand, node);
    }
    return undefined;
  }

  private literal(node: import("ts-morph").LiteralTypeNode): TypeExpr {
    const literal = node.getLiteral();
    if (literal.getKind() === SyntaxKind.NullKeyword) return { kind: "keyword", name: "null" };
    const value = this.literalValue(literal);
    if (value === undefined || (typeof value === "number" && !Number.isFinite(value))) {
      throw this.unsupported(node, `literal type ${node.getText()}${typeof value === "number" ? " (not a finite number; JSON has no such value)" : ""}`);
    }
    return { kind: "literal", value };
  }

  private tuple(node: import("ts-morph").TupleTypeNode): TypeExpr {
    const elements = this.eachLowered(node.getElements(), (element) => {
      if (Node.isNamedTupleMember(element)) {
        // A label (`[name: string]`) documents the element and changes nothing else.
        if (element.hasQuestionToken() || element.getDotDotDotToken()) throw this.unsupported(element, `optional or rest tuple element \`${element.getText()}\``);
        return this.lowerType(element.getTypeNode());
      }
      if (Node.isRestTypeNode(element) || Node.isOptionalTypeNode(element)) {
        throw this.unsupported(element, `optional or rest tuple element \`${element.getText()}\``);
      }
      return this.lowerType(element);
    });
    return { kind: "tuple", elements };
  }

  /**
   * `lower` of each of `nodes` (`lowerType` unless given); when some cannot be lowered, one
   * GeneratorError with the problems of every one, each once, so that a type literal, a union, an
   * intersection or a tuple says all its members' problems in one run, not its first member's alone.
   */
  private eachLowered<N extends Node, T = TypeExpr>(nodes: readonly N[], lower: (node: N) => T = (node) => this.lowerType(node as unknown as TypeNode) as T): T[] {
    const lowered: T[] = [];
    const problems: Diagnostic[] = [];
    for (const node of nodes) {
      try {
        lowered.push(lower(node));
      } catch (error) {
        if (!(error instanceof GeneratorError)) throw error;
        // One by one: a member may carry thousands (a spread of them overflowed the stack; helper-82).
        for (const d of error.diagnostics) problems.push(d);
      }
    }
    if (problems.length > 0) throw new GeneratorError(distinctDiagnostics(problems));
    return lowered;
  }

  private typeQuery(node: import("ts-morph").TypeQueryNode): TypeExpr {
    const exprName = node.getExprName();
    if (Node.isQualifiedName(exprName) && Node.isIdentifier(exprName.getLeft())) {
      // `typeof O.A` (an `as const` object) or `typeof E.A` (an enum member).
      const owner = exprName.getLeft().getText();
      const key = exprName.getRight().getText();
      const object = this.constObjects.get(owner);
      if (object) {
        const value = object.entries.get(key);
        if (value !== undefined) return { kind: "literal", value };
      } else if (object === null) {
        return { kind: "keyword", name: "never" }; // the constant itself was reported
      }
      const member = this.enumMember(owner, key, node);
      if (member) return member;
    }
    const name = exprName.getText();
    const value = this.consts.get(name);
    if (value !== undefined) return { kind: "literal", value, fromConst: name };
    if (this.constObjects.has(name)) {
      throw this.unsupported(node, `typeof ${name} as a type (use (typeof ${name})[keyof typeof ${name}] for its values, or (typeof ${name})["Key"] for one)`);
    }
    if (this.enums.has(name)) throw this.unsupported(node, `typeof ${name} on an enum (use ${name} for the union of its values)`);
    throw this.unsupported(node, `typeof ${name} (only string or number constants, \`as const\` objects and enum members can be used with typeof)`);
  }

  /**
   * The `as const` object `node` names as `typeof O` (parentheses allowed); `null` for one
   * already reported as unusable; `undefined` when `node` is something else.
   */
  private constObjectOf(node: TypeNode): ConstObject | null | undefined {
    let inner: Node = node;
    while (Node.isParenthesizedTypeNode(inner)) inner = inner.getTypeNode();
    if (!Node.isTypeQuery(inner)) return undefined;
    const exprName = inner.getExprName();
    if (!Node.isIdentifier(exprName)) return undefined;
    return this.constObjects.get(exprName.getText());
  }

  /** `(typeof O)[keyof typeof O]` and `(typeof O)["A" | "B"]` on an `as const` object. */
  private indexedAccess(node: import("ts-morph").IndexedAccessTypeNode): TypeExpr {
    const object = this.constObjectOf(node.getObjectTypeNode());
    if (object === null) return { kind: "keyword", name: "never" }; // the constant itself was reported
    if (!object) throw this.unsupported(node, describeKind(node));
    const index = node.getIndexTypeNode();
    const indexObject = Node.isTypeOperatorTypeNode(index) && index.getOperator() === SyntaxKind.KeyOfKeyword ? this.constObjectOf(index.getTypeNode()) : undefined;
    if (indexObject === object) return literalUnion([...object.entries.values()]);
    const keyType = this.lowerType(index);
    const keys = keyType.kind === "union" ? keyType.members : [keyType];
    const values = keys.map((k) => {
      const value = k.kind === "literal" && typeof k.value === "string" ? object.entries.get(k.value) : undefined;
      if (value === undefined) throw this.unsupported(index, `index ${index.getText()} on typeof ${object.node.getName()} (only its own keys, or keyof typeof ${object.node.getName()})`);
      return value;
    });
    return literalUnion(values);
  }

  /** The literal of enum member `owner.key`, or `undefined` when `owner` is not an enum. */
  private enumMember(owner: string, key: string, at: Node): TypeExpr | undefined {
    if (!this.enums.has(owner)) return undefined;
    const values = this.enums.get(owner);
    if (!values) return { kind: "keyword", name: "never" }; // the enum itself was reported
    const value = values.get(key);
    if (value === undefined) throw this.unsupported(at, `${owner}.${key} is not a member of enum ${owner}`);
    return { kind: "literal", value };
  }

  private reference(node: import("ts-morph").TypeReferenceNode): TypeExpr {
    const nameNode = node.getTypeName();
    if (Node.isQualifiedName(nameNode) && Node.isIdentifier(nameNode.getLeft()) && node.getTypeArguments().length === 0) {
      const member = this.enumMember(nameNode.getLeft().getText(), nameNode.getRight().getText(), node);
      if (member) return member;
    }
    if (!Node.isIdentifier(nameNode)) throw this.unsupported(node, `qualified type name ${nameNode.getText()}`);
    const name = nameNode.getText();
    const args = node.getTypeArguments();
    if (this.nodes.has(name)) {
      const target = this.nodes.get(name)![0]!;
      if (Node.isVariableDeclaration(target)) throw this.unsupported(node, `${name} is a value; use typeof ${name}`);
      if (args.length > 0) throw this.unsupported(node, `type arguments on ${name}`);
      return { kind: "ref", name };
    }
    if (name === "Array" || name === "ReadonlyArray") {
      if (args.length !== 1) throw this.unsupported(node, `${name} with ${args.length} type arguments`);
      const element = this.lowerType(args[0]!);
      return name === "ReadonlyArray" ? { kind: "array", element, readonly: true } : { kind: "array", element };
    }
    if (name === "Readonly") {
      // The JSON is the same: an array or tuple keeps the modifier for `types.ts` (as `readonly T[]` does), anything else
      // is its argument (an object type's members are written without `readonly`, as an interface's are).
      if (args.length !== 1) throw this.unsupported(node, `Readonly with ${args.length} type arguments`);
      const target = this.lowerType(args[0]!);
      return target.kind === "array" || target.kind === "tuple" ? { ...target, readonly: true } : target;
    }
    const shape = this.utilityShape(name, args, node);
    if (shape) return shape;
    const json = LIBRARY_TYPES_AS_JSON.get(name);
    if (json && args.length === 0) return json;
    throw this.unknownType(name, node);
  }

  /** MCG206 for `name`, which the schema does not declare, at `node`: in load's words, so that a place load named too is said once. */
  private unknownType(name: string, node: Node): GeneratorError {
    return new GeneratorError([{ code: "MCG206", message: unknownTypeMessage(name), span: this.span(node) }]);
  }
}

/**
 * What a member of an intersection is, by the type TypeScript gives it: a primitive (`string`,
 * `number`, `boolean`, a literal), an object type with nothing in it (`{}`, an alias of it), an
 * object type (`object`, an interface, a type literal, a record, an array), or something else.
 */
function intersectionMemberKind(node: TypeNode): "primitive" | "empty" | "object" | "other" {
  if (node.getKind() === SyntaxKind.ObjectKeyword) return "object";
  const type = node.getType();
  if (type.isString() || type.isNumber() || type.isBoolean() || type.isStringLiteral() || type.isNumberLiteral() || type.isBooleanLiteral()) return "primitive";
  if (isEmptyObjectType(type)) return "empty";
  if (type.isObject() || (type.isIntersection() && type.getIntersectionTypes().every((t) => t.isObject()))) return "object";
  return "other";
}

/**
 * The tags of a declaration's doc comments that count: the last comment's alone, as TypeScript reads
 * them; an earlier one's are MCG221 ({@link Lowerer.checkStrayDocComments}; helper-86: they were
 * applied as well, and said to be given twice beside that MCG221).
 */
function readTags(jsDocs: readonly JSDoc[]): import("ts-morph").JSDocTag[] {
  return jsDocs.at(-1)?.getTags() ?? [];
}

/** The names of the tags TypeScript reads in a doc comment (`/** … *\/`), as it reads them before a declaration. */
function tagNamesOf(comment: string): string[] {
  if (!comment.includes("@")) return [];
  const file = ts.createSourceFile("comment.ts", `${comment}\nlet x;`, ts.ScriptTarget.ES2022, true);
  const statement = file.statements[0];
  return statement === undefined ? [] : ts.getJSDocTags(statement).map((tag) => tag.tagName.text);
}

/**
 * Whether `type` is TypeScript's stand-in for a type it could not resolve (an undeclared name such
 * as `Map` without its library): it reads as `any`, but absorbs nothing; the name is reported.
 */
function isErrorType(type: import("ts-morph").Type): boolean {
  return (type.compilerType as { intrinsicName?: string }).intrinsicName === "error";
}

/** Whether a type is an object type with no property, index signature or signature: `{}`, or an intersection of such. */
function isEmptyObjectType(type: import("ts-morph").Type): boolean {
  if (type.isIntersection()) return type.getIntersectionTypes().every(isEmptyObjectType);
  return (
    type.isObject() &&
    !type.isArray() &&
    !type.isTuple() &&
    type.getProperties().length === 0 &&
    type.getStringIndexType() === undefined &&
    type.getNumberIndexType() === undefined &&
    type.getCallSignatures().length === 0 &&
    type.getConstructSignatures().length === 0
  );
}

/**
 * Standard library types a schema may use, as upstream's JSON Schema pipeline
 * (typescript-json-schema) publishes them: `Date` is a `date-time` string. Any other
 * library type (`Promise`, `RegExp`, …) has no JSON form and stays an error (MCG206).
 */
const LIBRARY_TYPES_AS_JSON: ReadonlyMap<string, TypeExpr> = new Map([
  ["Date", { kind: "keyword", name: "string", constraints: { format: "date-time" } }],
]);

/** One literal, or the union of the distinct literals, in first-seen order. */
function literalUnion(values: readonly LiteralValue[]): TypeExpr {
  const distinct = [...new Set(values)];
  if (distinct.length === 1) return { kind: "literal", value: distinct[0]! };
  return { kind: "union", members: distinct.map((value) => ({ kind: "literal", value })) };
}

/** "a constant", "an interface", … for MCG203. */
function declarationKind(node: DeclNode): string {
  if (Node.isVariableDeclaration(node)) return "a constant";
  if (Node.isTypeAliasDeclaration(node)) return "a type alias";
  if (Node.isEnumDeclaration(node)) return "an enum";
  return "an interface";
}

/** A readable name for a node kind: "MappedType" → "mapped type". */
/** What an MCG201 for a generic declaration advises. */
const GENERIC_INSTEAD = "; declare a type of its own for each type argument it is used with";

export function describeKind(node: Node): string {
  // A keyword is named as written (`bigint keyword`, not "big int keyword").
  const kind = node.getKindName().replace(/^(\w+)Keyword$/, (_, word: string) => `${word.toLowerCase()}Keyword`);
  const words = kind.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return `${words} \`${snippet(node)}\``;
}

export type { Docs };

/**
 * TypeScript source on one line: its comments left out (helper-116: a comment in an `extends`
 * clause was read as part of it), each run of white space one space.
 */
function oneLine(text: string): string {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  let out = "";
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    out += kind === ts.SyntaxKind.SingleLineCommentTrivia || kind === ts.SyntaxKind.MultiLineCommentTrivia ? " " : scanner.getTokenText();
  }
  return out.replace(/\s+/g, " ").trim();
}
