/**
 * Stage 2, lower: every top-level declaration of the loaded `schema.ts` becomes an IR
 * {@link Declaration}. One small function per TypeScript construct; anything else raises
 * an `MCG2xx` diagnostic naming the construct and its `file:line:col`. All problems in
 * the file are collected before failing.
 *
 * `extends` (one or many, including `Omit<…>` and type aliases), `Omit`/`Pick`/`Partial`/
 * `Required`/`Record` are resolved here into flat object shapes; named references stay
 * named (`{ kind: "ref" }`) everywhere else.
 */
import { Node, SyntaxKind, ts, type JSDoc, type SourceFile, type TypeNode } from "ts-morph";
import { DiagnosticBag, GeneratorError } from "../errors.js";
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
import type { LoadedSchema } from "../load/index.js";
import { applyConstraintTags, docsOf, isConstraintTag } from "./docs.js";

/** Options that change lowering. */
export interface LowerOptions {
  /** `integer` (default, as upstream's schema.json) or `number` for every `number` without `@TJS-type`. */
  readonly numberType: "integer" | "number";
}

type DeclNode =
  | import("ts-morph").InterfaceDeclaration
  | import("ts-morph").TypeAliasDeclaration
  | import("ts-morph").VariableDeclaration;

/** Lowers a loaded schema to IR. Throws {@link GeneratorError} with every unsupported construct. */
export function lowerSchema(loaded: LoadedSchema, options: LowerOptions): SchemaIR {
  return new Lowerer(loaded, options).run();
}

class Lowerer {
  private readonly bag = new DiagnosticBag();
  private readonly warnings: Diagnostic[] = [];
  /** Declaration nodes by name; interfaces may have several (declaration merging). */
  private readonly nodes = new Map<string, DeclNode[]>();
  private readonly consts = new Map<string, string | number>();
  /** Flattened interface shapes, memoised; `null` marks one being resolved (a cycle). */
  private readonly shapes = new Map<string, ObjectType | null>();

  constructor(
    private readonly loaded: LoadedSchema,
    private readonly options: LowerOptions,
  ) {}

  run(): SchemaIR {
    const sf = this.loaded.sourceFile;
    this.collect(sf);
    this.checkStrayDocComments(sf);
    const declarations: Declaration[] = [];
    for (const [name, nodes] of this.nodes) {
      const decl = this.guard(() => this.lowerDeclaration(name, nodes));
      if (decl) declarations.push(decl);
    }
    this.bag.throwIfAny();
    return {
      irVersion: 1,
      source: this.loaded.fileName,
      sha256: this.loaded.sha256,
      declarations,
      warnings: this.warnings,
    };
  }

  /** Runs `fn`, turning a thrown GeneratorError into collected diagnostics. */
  private guard<T>(fn: () => T): T | undefined {
    try {
      return fn();
    } catch (error) {
      if (!(error instanceof GeneratorError)) throw error;
      for (const d of error.diagnostics) this.bag.items.push(d);
      return undefined;
    }
  }

  span(node: Node): SourceSpan {
    const { line, column } = this.loaded.sourceFile.getLineAndColumnAtPos(node.getStart());
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
      for (const doc of ts.getJSDocCommentsAndTags(node)) if (ts.isJSDoc(doc)) attached.add(doc.pos);
      ts.forEachChild(node, visit);
    };
    visit(sf.compilerNode);
    // Every comment in the file, from TypeScript's scanner (so text inside strings never counts).
    const comments = new Map<number, string>();
    const scanner = ts.createScanner(ts.ScriptTarget.ES2022, false, ts.LanguageVariant.Standard, sf.getFullText());
    for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
      if (token === ts.SyntaxKind.MultiLineCommentTrivia) comments.set(scanner.getTokenStart(), scanner.getTokenText());
    }
    for (const [pos, comment] of comments) {
      if (!comment.startsWith("/**") || attached.has(pos)) continue;
      const tag = /@(TJS-[\w-]+|format|minimum|maximum|maxItems|nullable|default)\b/.exec(comment);
      if (!tag) continue;
      const { line, column } = sf.getLineAndColumnAtPos(pos);
      this.bag.add(
        "MCG221",
        `this doc comment's @${tag[1]} applies to nothing: TypeScript attaches a doc comment only to the declaration on the lines below it`,
        { file: this.loaded.displayPath, line, column },
      );
    }
  }

  // ---- top level -------------------------------------------------------------------

  private collect(sf: SourceFile): void {
    for (const statement of sf.getStatements()) {
      if (Node.isInterfaceDeclaration(statement)) {
        this.addNode(statement.getName(), statement);
      } else if (Node.isTypeAliasDeclaration(statement)) {
        this.addNode(statement.getName(), statement);
      } else if (Node.isVariableStatement(statement)) {
        this.collectVariables(statement);
      } else if (Node.isImportDeclaration(statement) || Node.isImportEqualsDeclaration(statement)) {
        // reported by load (MCG202)
      } else if (Node.isExportDeclaration(statement) && statement.getNamedExports().length === 0 && !statement.getModuleSpecifier()) {
        // `export {}` only marks the file as a module.
      } else if (Node.isEmptyStatement(statement)) {
        // a stray `;`
      } else {
        this.bag.add("MCG201", `unsupported construct: ${describeKind(statement)}`, this.span(statement));
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
      this.bag.add("MCG203", `${name} is declared more than once`, this.span(node));
    }
  }

  private collectVariables(statement: import("ts-morph").VariableStatement): void {
    if (statement.getDeclarationKind() !== "const") {
      this.bag.add("MCG204", `only \`const\` declarations are supported, not \`${statement.getDeclarationKind()}\``, this.span(statement));
      return;
    }
    for (const decl of statement.getDeclarations()) {
      const value = literalValue(decl.getInitializer());
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
    return this.lowerInterface(name, nodes as import("ts-morph").InterfaceDeclaration[]);
  }

  private lowerConst(node: import("ts-morph").VariableDeclaration): ConstDecl {
    const statement = node.getVariableStatementOrThrow();
    return {
      kind: "const",
      name: node.getName(),
      value: this.consts.get(node.getName())!,
      exported: statement.isExported(),
      docs: docsOf(statement.getJsDocs()),
      span: this.span(node),
    };
  }

  private lowerAlias(node: import("ts-morph").TypeAliasDeclaration): AliasDecl {
    if (node.getTypeParameters().length > 0) throw this.unsupported(node, "generic type alias");
    const docs = docsOf(node.getJsDocs());
    const type = this.constrain(this.lowerType(node.getTypeNodeOrThrow()), node.getJsDocs(), node);
    return { kind: "alias", name: node.getName(), type, exported: node.isExported(), docs, span: this.span(node) };
  }

  private lowerInterface(name: string, nodes: import("ts-morph").InterfaceDeclaration[]): InterfaceDecl {
    const first = nodes[0]!;
    for (const node of nodes) {
      const tag = docsOf(node.getJsDocs()).tags.find((t) => isConstraintTag(t.name));
      if (tag) {
        throw new GeneratorError([
          { code: "MCG220", message: `@${tag.name} on interface ${name} applies to nothing: put it on a property`, span: this.span(node) },
        ]);
      }
    }
    return {
      kind: "interface",
      name,
      heritage: nodes.flatMap((n) => n.getExtends().map((e) => e.getText().replace(/\s+/g, " "))),
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
    if (known) return known;
    const nodes = (this.nodes.get(name) ?? []) as import("ts-morph").InterfaceDeclaration[];
    if (known === null) throw this.unsupported(nodes[0]!, `interface ${name} extends itself`);
    this.shapes.set(name, null);
    let shape: ObjectType = { kind: "object", properties: [] };
    for (const node of nodes) {
      if (node.getTypeParameters().length > 0) throw this.unsupported(node, "generic interface");
      for (const heritage of node.getExtends()) {
        const base = this.heritageShape(heritage);
        shape = mergeShapes(shape, base, false);
      }
    }
    for (const node of nodes) {
      const own = this.members(node.getMembers());
      shape = mergeShapes(shape, own, true);
    }
    this.shapes.set(name, shape);
    return shape;
  }

  private heritageShape(heritage: import("ts-morph").ExpressionWithTypeArguments): ObjectType {
    const expression = heritage.getExpression();
    if (!Node.isIdentifier(expression)) throw this.unsupported(heritage, `extends ${expression.getText()}`);
    const name = expression.getText();
    const args = heritage.getTypeArguments();
    const base = this.utilityShape(name, args, heritage);
    if (base) return withOrigin(base, name);
    if (args.length > 0) throw this.unsupported(heritage, `extends a generic type ${heritage.getText()}`);
    return withOrigin(this.shapeOf({ kind: "ref", name }, heritage), name);
  }

  /**
   * `Omit`, `Pick`, `Partial`, `Required` and `Record` as object shapes, or `undefined`
   * when `name` is none of them.
   */
  private utilityShape(name: string, args: TypeNode[], at: Node): ObjectType | undefined {
    if (this.nodes.has(name)) return undefined;
    switch (name) {
      case "Omit":
      case "Pick": {
        if (args.length !== 2) throw this.unsupported(at, `${name} with ${args.length} type arguments`);
        const target = this.shapeOf(this.lowerType(args[0]!), args[0]!);
        if (target.indexSignature) {
          // TypeScript's Omit/Pick over an index signature drop every named property; say so rather than guess.
          throw this.unsupported(at, `${name} of a type with an index signature`);
        }
        const keys = this.keyLiterals(args[1]!);
        const keep = (p: Property) => (name === "Omit" ? !keys.includes(p.name) : keys.includes(p.name));
        return { ...target, properties: target.properties.filter(keep) };
      }
      case "Partial":
      case "Required": {
        if (args.length !== 1) throw this.unsupported(at, `${name} with ${args.length} type arguments`);
        const target = this.shapeOf(this.lowerType(args[0]!), args[0]!);
        return { ...target, properties: target.properties.map((p) => ({ ...p, optional: name === "Partial" })) };
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

  /** String-literal keys of `"a" | "b"`. */
  private keyLiterals(node: TypeNode): string[] {
    const type = this.lowerType(node);
    const members = type.kind === "union" ? type.members : [type];
    return members.map((m) => {
      if (m.kind === "literal" && typeof m.value === "string") return m.value;
      throw this.unsupported(node, `key type ${node.getText()} (only string literals are supported)`);
    });
  }

  /** Resolves a type expression to an object shape, through references and intersections. */
  shapeOf(type: TypeExpr, at: Node): ObjectType {
    switch (type.kind) {
      case "object":
        return type;
      case "ref": {
        const nodes = this.nodes.get(type.name);
        const node = nodes?.[0];
        if (node && Node.isInterfaceDeclaration(node)) return this.interfaceShape(type.name);
        if (node && Node.isTypeAliasDeclaration(node)) return this.shapeOf(this.lowerType(node.getTypeNodeOrThrow()), node);
        break;
      }
      case "intersection":
        return type.members.map((m) => this.shapeOf(m, at)).reduce((a, b) => mergeShapes(a, b, false));
      case "keyword":
        if (type.name === "object" || type.name === "unknown" || type.name === "any") return { kind: "object", properties: [] };
        break;
      default:
        break;
    }
    throw this.unsupported(at, `${at.getText()} is not an object type and cannot be extended or used with Omit/Pick/Partial/Required`);
  }

  private members(members: Node[]): ObjectType {
    const properties: Property[] = [];
    let indexSignature: TypeExpr | undefined;
    const problems = new DiagnosticBag();
    for (const member of members) {
      try {
        if (Node.isPropertySignature(member)) {
          properties.push(this.property(member));
        } else if (Node.isIndexSignatureDeclaration(member)) {
          const keyType = member.getKeyTypeNode();
          if (keyType.getKind() !== SyntaxKind.StringKeyword) {
            throw this.unsupported(member, `index signature with ${keyType.getText()} keys (only string keys are supported)`);
          }
          const valueNode = member.getReturnTypeNode();
          if (!valueNode) throw this.unsupported(member, "index signature without a value type");
          indexSignature = this.lowerType(valueNode);
        } else {
          throw this.unsupported(member, describeKind(member));
        }
      } catch (error) {
        if (!(error instanceof GeneratorError)) throw error;
        problems.items.push(...error.diagnostics);
      }
    }
    if (problems.items.length > 0) throw new GeneratorError(problems.items);
    return indexSignature ? { kind: "object", properties, indexSignature } : { kind: "object", properties };
  }

  private property(node: import("ts-morph").PropertySignature): Property {
    const nameNode = node.getNameNode();
    let name: string;
    if (Node.isIdentifier(nameNode) || Node.isPrivateIdentifier(nameNode)) name = nameNode.getText();
    else if (Node.isStringLiteral(nameNode) || Node.isNoSubstitutionTemplateLiteral(nameNode)) name = nameNode.getLiteralText();
    else if (Node.isNumericLiteral(nameNode)) name = String(nameNode.getLiteralValue());
    else throw this.unsupported(nameNode, "computed property name");
    const typeNode = node.getTypeNode();
    if (!typeNode) throw this.unsupported(node, `property ${name} without a type annotation`);
    const jsDocs = node.getJsDocs();
    const type = this.constrain(this.lowerType(typeNode), jsDocs, node);
    const docs = docsOf(jsDocs);
    const property: Property = { name, optional: node.hasQuestionToken(), type, span: this.span(node) };
    return docs.text || docs.tags.length ? { ...property, docs } : property;
  }

  private constrain(type: TypeExpr, jsDocs: JSDoc[], at: Node): TypeExpr {
    const result = applyConstraintTags(type, jsDocs);
    if (typeof result === "string") throw new GeneratorError([{ code: "MCG220", message: result, span: this.span(at) }]);
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
      case SyntaxKind.UnionType:
        return { kind: "union", members: node.asKindOrThrow(SyntaxKind.UnionType).getTypeNodes().map((n) => this.lowerType(n)) };
      case SyntaxKind.IntersectionType:
        return {
          kind: "intersection",
          members: node.asKindOrThrow(SyntaxKind.IntersectionType).getTypeNodes().map((n) => this.lowerType(n)),
        };
      case SyntaxKind.TypeLiteral:
        return this.members(node.asKindOrThrow(SyntaxKind.TypeLiteral).getMembers());
      case SyntaxKind.TypeQuery:
        return this.typeQuery(node.asKindOrThrow(SyntaxKind.TypeQuery));
      case SyntaxKind.TypeReference:
        return this.reference(node.asKindOrThrow(SyntaxKind.TypeReference));
      case SyntaxKind.TypeOperator: {
        const op = node.asKindOrThrow(SyntaxKind.TypeOperator);
        if (op.getOperator() === SyntaxKind.ReadonlyKeyword) return this.lowerType(op.getTypeNode());
        throw this.unsupported(node, `${ts.tokenToString(op.getOperator()) ?? "type"} operator type`);
      }
      default:
        throw this.unsupported(node, describeKind(node));
    }
  }

  private literal(node: import("ts-morph").LiteralTypeNode): TypeExpr {
    const literal = node.getLiteral();
    if (literal.getKind() === SyntaxKind.NullKeyword) return { kind: "keyword", name: "null" };
    const value = literalValue(literal);
    if (value === undefined || (typeof value === "number" && !Number.isFinite(value))) {
      throw this.unsupported(node, `literal type ${node.getText()}${typeof value === "number" ? " (not a finite number; JSON has no such value)" : ""}`);
    }
    return { kind: "literal", value };
  }

  private tuple(node: import("ts-morph").TupleTypeNode): TypeExpr {
    const elements = node.getElements().map((element) => {
      if (Node.isNamedTupleMember(element) || Node.isRestTypeNode(element) || Node.isOptionalTypeNode(element)) {
        throw this.unsupported(element, "named, optional or rest tuple element");
      }
      return this.lowerType(element);
    });
    return { kind: "tuple", elements };
  }

  private typeQuery(node: import("ts-morph").TypeQueryNode): TypeExpr {
    const name = node.getExprName().getText();
    const value = this.consts.get(name);
    if (value === undefined) throw this.unsupported(node, `typeof ${name} (only exported string or number constants can be used with typeof)`);
    return { kind: "literal", value, fromConst: name };
  }

  private reference(node: import("ts-morph").TypeReferenceNode): TypeExpr {
    const nameNode = node.getTypeName();
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
      return { kind: "array", element: this.lowerType(args[0]!) };
    }
    const shape = this.utilityShape(name, args, node);
    if (shape) return shape;
    throw new GeneratorError([
      { code: "MCG206", message: `reference to an unknown type ${name}: it is not declared in this file`, span: this.span(node) },
    ]);
  }
}

/** Merges `extra` into `base`: a property of `extra` replaces one of the same name in place. */
function mergeShapes(base: ObjectType, extra: ObjectType, override: boolean): ObjectType {
  const properties = [...base.properties];
  for (const property of extra.properties) {
    const at = properties.findIndex((p) => p.name === property.name);
    if (at < 0) properties.push(property);
    else if (override) properties[at] = property;
    else {
      const existing = properties[at]!;
      properties[at] = {
        ...existing,
        optional: existing.optional && property.optional,
        type: sameType(existing.type, property.type) ? existing.type : { kind: "intersection", members: [existing.type, property.type] },
      };
    }
  }
  const index = base.indexSignature && extra.indexSignature && !override
    ? sameType(base.indexSignature, extra.indexSignature)
      ? base.indexSignature
      : ({ kind: "intersection", members: [base.indexSignature, extra.indexSignature] } as TypeExpr)
    : (extra.indexSignature ?? base.indexSignature);
  return index ? { kind: "object", properties, indexSignature: index } : { kind: "object", properties };
}

function sameType(a: TypeExpr, b: TypeExpr): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function withOrigin(shape: ObjectType, origin: string): ObjectType {
  return { ...shape, properties: shape.properties.map((p) => (p.inheritedFrom ? p : { ...p, inheritedFrom: origin })) };
}

function literalValue(node: Node | undefined): string | number | boolean | undefined {
  if (!node) return undefined;
  if (Node.isAsExpression(node) && node.getTypeNode()?.getText() === "const") return literalValue(node.getExpression());
  if (Node.isStringLiteral(node) || Node.isNoSubstitutionTemplateLiteral(node)) return node.getLiteralText();
  if (Node.isNumericLiteral(node)) return node.getLiteralValue();
  if (Node.isTrueLiteral(node)) return true;
  if (Node.isFalseLiteral(node)) return false;
  if (Node.isPrefixUnaryExpression(node) && Node.isNumericLiteral(node.getOperand())) {
    const value = (node.getOperand() as import("ts-morph").NumericLiteral).getLiteralValue();
    if (node.getOperatorToken() === SyntaxKind.MinusToken) return -value;
    if (node.getOperatorToken() === SyntaxKind.PlusToken) return value;
  }
  return undefined;
}

/** A readable name for a node kind: "MappedType" → "mapped type". */
export function describeKind(node: Node): string {
  const kind = node.getKindName();
  const words = kind.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  const snippet = node.getText().split("\n")[0]!.slice(0, 60);
  return `${words} \`${snippet}\``;
}

export type { Docs };
