/**
 * Stage 3, analyze: derives from the IR what the emitters need but the IR does not
 * spell out: a declaration index, which declarations are recursive (and so need a
 * depth guard), resolved object shapes behind references, and union discriminants
 * (a property such as `type`, `method` or `mode` whose literal value picks the member).
 */
import type { Declaration, ObjectType, Property, SchemaIR, TypeExpr, UnionType } from "../ir.js";
import { checkShape, flatShape, mergedIndexSignature, mergedShape, refsIn } from "../shape.js";

/** One case of a discriminated union: the literal values that select `member`. */
export interface DiscriminantCase {
  readonly values: readonly (string | number | boolean)[];
  readonly member: TypeExpr;
}

/** How a union is discriminated. */
export interface Discriminant {
  /** The property name, e.g. `method`. */
  readonly property: string;
  readonly cases: readonly DiscriminantCase[];
  /** The one member whose discriminant property is optional: chosen when it is absent. */
  readonly whenAbsent?: TypeExpr;
}

/** Properties tried as discriminants first, in this order; then any other, by name. */
const PREFERRED_DISCRIMINANTS = ["type", "method", "mode", "kind", "resultType"];

/** The analysed schema the emitters read. Pure data plus lookups; no ts-morph. */
export class Model {
  readonly declarations: ReadonlyMap<string, Declaration>;
  /** Names of declarations that can reach themselves through references. */
  readonly recursive: ReadonlySet<string>;
  private readonly discriminants = new Map<UnionType, Discriminant | null>();

  constructor(readonly ir: SchemaIR) {
    this.declarations = new Map(ir.declarations.map((d) => [d.name, d]));
    this.recursive = findRecursive(ir.declarations);
  }

  /** Declarations that are types (interfaces and aliases), in source order. */
  get types(): (Declaration & { kind: "interface" | "alias" })[] {
    return this.ir.declarations.filter((d): d is Declaration & { kind: "interface" | "alias" } => d.kind !== "const");
  }

  /** Whether `name` is an exported interface or alias: one that `types.ts` exports and that has public validators. */
  isExportedType(name: string): boolean {
    const decl = this.declarations.get(name);
    return decl !== undefined && decl.kind !== "const" && decl.exported;
  }

  /** The type a declaration names. */
  typeOf(name: string): TypeExpr | undefined {
    const decl = this.declarations.get(name);
    if (!decl || decl.kind === "const") return undefined;
    return decl.type;
  }

  /** Follows references to aliases until a non-reference type (interfaces stop the walk). */
  resolve(type: TypeExpr): TypeExpr {
    let current = type;
    for (let guard = 0; current.kind === "ref" && guard < 64; guard++) {
      const decl = this.declarations.get(current.name);
      if (!decl || decl.kind !== "alias") break;
      current = decl.type;
    }
    return current;
  }

  /**
   * The object shape a type stands for, if it is one (through references and intersections),
   * in the flat view of `generator/shape.ts`: a property several intersected members declare
   * is listed once per member, each entry a constraint that holds (the module doc there states
   * the rule); the index signature is the intersection of the members' ones.
   */
  shapeOf(type: TypeExpr): ObjectType | undefined {
    const flat = flatShape(type, this.lookup);
    if (!flat) return undefined;
    if (flat.sole) return flat.sole;
    const index = mergedIndexSignature(flat.indexSignatures);
    return index ? { kind: "object", properties: [...flat.properties], indexSignature: index } : { kind: "object", properties: [...flat.properties] };
  }

  /**
   * The merged view of the object shape `type` stands for (see `generator/shape.ts`): a property several members of an
   * intersection declare listed once, required when one requires it, of the intersected type; `undefined` when `type` is
   * no object shape.
   */
  mergedShapeOf(type: TypeExpr): ObjectType | undefined {
    const flat = flatShape(type, this.lookup);
    return flat && mergedShape(flat);
  }

  /**
   * The object shape a validator may test as one object, or `undefined` (see `checkShape` in
   * `generator/shape.ts`): its properties through references and intersections, a property in
   * several members listed once per member; refused when an index signature constrains values.
   * Recursive references stop the walk (their own check holds the depth guard) unless
   * `throughRecursive`; `anyIndexSignature: false` refuses every index signature, `unknown` ones too.
   */
  checkShape(type: TypeExpr, options: { readonly throughRecursive?: boolean; readonly anyIndexSignature?: boolean } = {}): ObjectType | undefined {
    return checkShape(type, this.lookup, {
      ...(options.throughRecursive ? {} : { stopAt: (name: string) => this.recursive.has(name) }),
      unconstrained: (index) => options.anyIndexSignature !== false && index.kind === "keyword" && (index.name === "unknown" || index.name === "any"),
    });
  }

  /** The type a declaration name stands for, for the shape resolver. */
  private readonly lookup = (name: string): TypeExpr | undefined => this.typeOf(name);

  /** Members of a union, with members that are references to union aliases spread in place, each named member once. */
  flattenUnion(type: UnionType): TypeExpr[] {
    const out: TypeExpr[] = [];
    const seen = new Set<string>();
    const visit = (t: TypeExpr) => {
      // A named member met again adds no value (`A | B | A`, `K | K`, `A | AliasOfA`): once, so a discriminant still tells the members apart.
      if (t.kind === "ref") {
        if (seen.has(t.name)) return;
        seen.add(t.name);
      }
      const resolved = this.resolve(t);
      if (resolved.kind === "union") return resolved.members.forEach(visit);
      if (resolved !== t && resolved.kind === "ref") {
        if (seen.has(resolved.name)) return;
        seen.add(resolved.name);
      }
      out.push(t);
    };
    type.members.forEach(visit);
    return out;
  }

  /** The discriminant of a union of object types, or `undefined` when it has none. */
  discriminantOf(union: UnionType): Discriminant | undefined {
    let known = this.discriminants.get(union);
    if (known === undefined) {
      known = this.findDiscriminant(union) ?? null;
      this.discriminants.set(union, known);
    }
    return known ?? undefined;
  }

  private findDiscriminant(union: UnionType): Discriminant | undefined {
    const members = this.flattenUnion(union);
    if (members.length < 2) return undefined;
    const shapes = members.map((m) => this.shapeOf(m));
    if (shapes.some((s) => s === undefined)) return undefined;
    const names = new Set(shapes.flatMap((s) => s!.properties.map((p) => p.name)));
    const candidates = [
      ...PREFERRED_DISCRIMINANTS.filter((n) => names.has(n)),
      ...[...names].filter((n) => !PREFERRED_DISCRIMINANTS.includes(n)).sort(),
    ];
    for (const property of candidates) {
      const found = this.tryDiscriminant(property, members, shapes as ObjectType[]);
      if (found) return found;
    }
    return undefined;
  }

  private tryDiscriminant(property: string, members: TypeExpr[], shapes: ObjectType[]): Discriminant | undefined {
    const cases: DiscriminantCase[] = [];
    const seen = new Set<string>();
    let whenAbsent: TypeExpr | undefined;
    for (let i = 0; i < members.length; i++) {
      const props = shapes[i]!.properties.filter((p) => p.name === property);
      if (props.length === 0) return undefined;
      const values = literalValues(props, this);
      if (!values || values.length === 0) return undefined;
      for (const v of values) {
        const key = JSON.stringify(v);
        if (seen.has(key)) return undefined;
        seen.add(key);
      }
      if (props.every((p) => p.optional)) {
        if (whenAbsent) return undefined;
        whenAbsent = members[i]!;
      }
      cases.push({ values, member: members[i]! });
    }
    return whenAbsent ? { property, cases, whenAbsent } : { property, cases };
  }
}

/** Literal values a property can take, or `undefined` if any part is not a literal. */
function literalValues(props: Property[], model: Model): (string | number | boolean)[] | undefined {
  // Several entries come from an intersection: the value must satisfy all, so take the
  // literal sets and intersect them; non-literal entries (e.g. `number`) do not narrow.
  let result: (string | number | boolean)[] | undefined;
  for (const p of props) {
    const values = literalsOf(p.type, model);
    if (values === "open") continue;
    if (values === undefined) return undefined;
    result = result === undefined ? values : result.filter((v) => values.includes(v));
  }
  return result;
}

function literalsOf(type: TypeExpr, model: Model): (string | number | boolean)[] | "open" | undefined {
  const t = model.resolve(type);
  if (t.kind === "literal") return [t.value];
  if (t.kind === "keyword" && (t.name === "string" || t.name === "number" || t.name === "boolean")) return "open";
  if (t.kind === "union") {
    const out: (string | number | boolean)[] = [];
    for (const m of t.members) {
      const v = literalsOf(m, model);
      if (v === undefined || v === "open") return undefined;
      out.push(...v);
    }
    return out;
  }
  if (t.kind === "intersection") {
    let result: (string | number | boolean)[] | undefined;
    for (const m of t.members) {
      const v = literalsOf(m, model);
      if (v === undefined) return undefined;
      if (v === "open") continue;
      result = result === undefined ? v : result.filter((x) => v.includes(x));
    }
    return result;
  }
  return undefined;
}

/** Names of declarations that reach themselves through `ref`s (Tarjan's SCC, iterative over names). */
function findRecursive(declarations: readonly Declaration[]): Set<string> {
  const edges = new Map<string, string[]>();
  for (const d of declarations) edges.set(d.name, d.kind === "const" ? [] : [...refsIn(d.type)]);
  const recursive = new Set<string>();
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  // Tarjan's algorithm with an explicit work stack: a chain of 10^4 references must not
  // overflow the call stack. Each frame is a node and the index of its next edge.
  const strongConnect = (root: string) => {
    const frames: { v: string; next: number }[] = [];
    const enter = (v: string) => {
      indices.set(v, index);
      low.set(v, index);
      index++;
      stack.push(v);
      onStack.add(v);
      frames.push({ v, next: 0 });
    };
    enter(root);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      const out = edges.get(frame.v) ?? [];
      if (frame.next < out.length) {
        const w = out[frame.next++]!;
        if (!edges.has(w)) continue;
        if (!indices.has(w)) enter(w);
        else if (onStack.has(w)) low.set(frame.v, Math.min(low.get(frame.v)!, indices.get(w)!));
        continue;
      }
      frames.pop();
      const v = frame.v;
      if (low.get(v) === indices.get(v)) {
        const component: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          component.push(w);
        } while (w !== v);
        if (component.length > 1 || out.includes(v)) component.forEach((c) => recursive.add(c));
      }
      const parent = frames[frames.length - 1];
      if (parent) low.set(parent.v, Math.min(low.get(parent.v)!, low.get(v)!));
    }
  };
  for (const d of declarations) if (!indices.has(d.name)) strongConnect(d.name);
  return recursive;
}

export { refsIn };

/** Builds the {@link Model} for a lowered schema. */
export function analyze(ir: SchemaIR): Model {
  return new Model(ir);
}
