/**
 * The one shape resolver: what object shape a {@link TypeExpr} stands for, through
 * references, intersections, `extends`, `Omit`/`Pick`/`Partial`/`Required` and index
 * signatures. `lower` resolves `extends` and the utility types with it (naming its own
 * lookup, since declarations are lowered lazily), `analyze`'s `Model.shapeOf` delegates to it,
 * and the validators emitter asks it (through `Model.checkShape`) which intersections it may
 * check as one object. Pure functions over the IR; no ts-morph.
 *
 * ## The intersection rule
 *
 * The shape of `A & B`, and of `interface X extends A, B`, holds every property of every
 * member, in member order. A property that several members declare must satisfy every
 * declaration: it is required when any member requires it, and its value must have each
 * declared type. The resolver gives that rule in two views:
 *
 * - the **flat** view ({@link flatShape}) lists such a property once per declaring member,
 *   each entry one constraint that must hold. Checks (`isT` tests each entry) and the
 *   discriminant search (which intersects the literal sets of the entries) read this view;
 * - the **merged** view ({@link mergedShape}, {@link intersectShapes}) lists it once, at its
 *   first position: optional only when optional in every member, its type the intersection
 *   of the declared types (the one type when they are structurally equal, {@link sameType}).
 *   `lower` writes this view into the IR.
 *
 * Index signatures combine the same way: a key that no property names must satisfy every
 * member's index signature (flat: the list; merged: their intersection). In TypeScript a
 * member's index signature also constrains the properties other members name; the merged
 * view does not fold it into those properties' types (for `extends` TypeScript already
 * requires them to be assignable), which is why {@link checkShape} refuses to flatten an
 * intersection with an index signature that constrains values: each member is then checked
 * on its own.
 *
 * An interface's own members override inherited ones in place ({@link extendShape}; TypeScript
 * requires the override to be assignable, so the own declaration is the whole constraint).
 *
 * References are followed to the declaration's type through the caller's {@link ShapeLookup}.
 * A reference met again while it is being resolved (a cycle, which TypeScript reports as an
 * error before `lower` runs), or one the caller stops at, makes the type not a shape
 * (`undefined`).
 */
import { isDeepStrictEqual } from "node:util";
import type { ObjectType, Property, TypeExpr } from "./ir.js";

/** The type a declaration name stands for (an interface's shape, an alias's type); `undefined` for a constant or an unknown name. */
export type ShapeLookup = (name: string) => TypeExpr | undefined;

/** How {@link flatShape} walks. */
export interface ShapeOptions {
  /** References not followed: a type reaching one is not a shape (the validators stop at recursive types). */
  readonly stopAt?: (name: string) => boolean;
  /**
   * Whether the keywords `object`, `unknown` and `any` stand for the empty shape (as `lower`
   * reads them in `extends` and utility types: `Partial<object>` is `{}`); otherwise they are
   * not shapes.
   */
  readonly emptyKeywords?: boolean;
}

/** The flat view of a shape: one entry per declaring member (see the module doc). */
export interface FlatShape {
  /** Every property entry, in member order; a name several members declare appears once per member. */
  readonly properties: readonly Property[];
  /** The index signature of each member that has one, in member order (`[key: string]: T` as `T`). */
  readonly indexSignatures: readonly TypeExpr[];
  /** The object type itself when the walk met only one (no copy needed: both views are that object). */
  readonly sole?: ObjectType;
}

/**
 * The flat view of the object shape `type` stands for, through references and intersections;
 * `undefined` when it is not an object shape (a keyword, a union, a cycle, a stopped reference).
 */
export function flatShape(type: TypeExpr, lookup: ShapeLookup, options: ShapeOptions = {}): FlatShape | undefined {
  const properties: Property[] = [];
  const indexSignatures: TypeExpr[] = [];
  const objects: ObjectType[] = [];
  const active = new Set<string>();
  // What the walk has taken in whole: met again (`A & A`, alias chains of `A_n = A_{n-1} & A_{n-1}`), it adds no
  // constraint, so the walk stays linear in the declarations.
  const taken = new Set<string | ObjectType>();
  const visit = (t: TypeExpr): boolean => {
    switch (t.kind) {
      case "object":
        if (taken.has(t)) return true;
        taken.add(t);
        objects.push(t);
        properties.push(...t.properties);
        if (t.indexSignature) indexSignatures.push(t.indexSignature);
        return true;
      case "ref": {
        if (taken.has(t.name)) return true;
        if (active.has(t.name) || options.stopAt?.(t.name)) return false;
        const target = lookup(t.name);
        if (target === undefined) return false;
        active.add(t.name);
        const found = visit(target);
        active.delete(t.name);
        if (found) taken.add(t.name);
        return found;
      }
      case "intersection":
        return t.members.every(visit);
      case "keyword":
        return options.emptyKeywords === true && (t.name === "object" || t.name === "unknown" || t.name === "any");
      default:
        return false;
    }
  };
  if (!visit(type)) return undefined;
  return objects.length === 1 ? { properties, indexSignatures, sole: objects[0]! } : { properties, indexSignatures };
}

/** The merged view of a flat shape: one property per name, one index signature (the module doc's rule). */
export function mergedShape(flat: FlatShape): ObjectType {
  if (flat.sole) return flat.sole;
  const properties: Property[] = [];
  const at = new Map<string, number>();
  for (const property of flat.properties) {
    const i = at.get(property.name);
    if (i === undefined) {
      at.set(property.name, properties.length);
      properties.push(property);
    } else {
      const existing = properties[i]!;
      properties[i] = { ...existing, optional: existing.optional && property.optional, type: intersectTypes(existing.type, property.type) };
    }
  }
  const index = mergedIndexSignature(flat.indexSignatures);
  return index ? { kind: "object", properties, indexSignature: index } : { kind: "object", properties };
}

/** The index signature of the merged view: the intersection of the members' ones (`undefined` when none has one). */
export function mergedIndexSignature(indexSignatures: readonly TypeExpr[]): TypeExpr | undefined {
  return indexSignatures.reduce<TypeExpr | undefined>((a, b) => (a === undefined ? b : intersectTypes(a, b)), undefined);
}

/** `a & b` as one merged shape: `interface X extends A, B` and the intersection of object types. */
export function intersectShapes(a: ObjectType, b: ObjectType): ObjectType {
  return mergedShape({
    properties: [...a.properties, ...b.properties],
    indexSignatures: [a.indexSignature, b.indexSignature].filter((t) => t !== undefined),
  });
}

/** `base` with `own` members overriding: an own property replaces an inherited one of the same name in place. */
export function extendShape(base: ObjectType, own: ObjectType): ObjectType {
  const properties = [...base.properties];
  for (const property of own.properties) {
    const at = properties.findIndex((p) => p.name === property.name);
    if (at < 0) properties.push(property);
    else properties[at] = property;
  }
  const index = own.indexSignature ?? base.indexSignature;
  return index ? { kind: "object", properties, indexSignature: index } : { kind: "object", properties };
}

/** `Omit<T, keys>` (`keep: false`) or `Pick<T, keys>` (`keep: true`) of a shape. */
export function selectProperties(shape: ObjectType, keys: readonly string[], keep: boolean): ObjectType {
  return { ...shape, properties: shape.properties.filter((p) => keys.includes(p.name) === keep) };
}

/** `Partial<T>` (`optional: true`) or `Required<T>` (`optional: false`) of a shape. */
export function withOptional(shape: ObjectType, optional: boolean): ObjectType {
  return { ...shape, properties: shape.properties.map((p) => ({ ...p, optional })) };
}

/** A shape whose properties not yet marked as inherited are marked as inherited from `origin`. */
export function inheritedFrom(shape: ObjectType, origin: string): ObjectType {
  return { ...shape, properties: shape.properties.map((p) => (p.inheritedFrom ? p : { ...p, inheritedFrom: origin })) };
}

/** The intersections {@link intersectTypes} made: merged again, their members are taken one by one. */
const mergedIntersections = new WeakSet<TypeExpr>();

/**
 * `a & b`, each member once (structurally equal ones are one), or a member alone. An intersection
 * this function made is taken member by member, so that merging again adds only new members:
 * `interface I_n extends I_{n-1}, J_{n-1}` with `p: X & Y` and `p: Y & X` below is `X & Y`, not a
 * type twice as long at each level (helper-82). One written in the schema stays one member.
 */
export function intersectTypes(a: TypeExpr, b: TypeExpr): TypeExpr {
  const members: TypeExpr[] = [];
  for (const member of [a, b].flatMap((t) => (t.kind === "intersection" && mergedIntersections.has(t) ? t.members : [t]))) {
    if (!members.some((m) => m === member || sameType(m, member))) members.push(member);
  }
  if (members.length === 1) return members[0]!;
  const merged: TypeExpr = { kind: "intersection", members };
  mergedIntersections.add(merged);
  return merged;
}

/**
 * Whether two IR types are structurally equal: every field, docs and source spans included (IR
 * types are plain data, so this is deep equality; two properties declared at different places are
 * different declarations, and both stay).
 */
export function sameType(a: TypeExpr, b: TypeExpr): boolean {
  return isDeepStrictEqual(a, b);
}

/**
 * The object shape a check may test as one object (one plain-object test, each property entry
 * checked in place, a property several members declare checked once per member): the flat view
 * without index signatures; `undefined` when `type` is not an object shape or one of its
 * index signatures constrains values (`unconstrained` says which do not; see the module doc).
 */
export function checkShape(
  type: TypeExpr,
  lookup: ShapeLookup,
  options: ShapeOptions & { readonly unconstrained: (index: TypeExpr) => boolean },
): ObjectType | undefined {
  const flat = flatShape(type, lookup, options);
  if (!flat || !flat.indexSignatures.every(options.unconstrained)) return undefined;
  return { kind: "object", properties: [...flat.properties] };
}

/**
 * Every declaration name `type` refers to, added to `out`; with `constants`, also the constants a
 * literal came from (`typeof CONST`, which `types.ts` prints by name).
 */
export function refsIn(type: TypeExpr, out = new Set<string>(), constants = false): Set<string> {
  switch (type.kind) {
    case "ref":
      out.add(type.name);
      break;
    case "array":
      refsIn(type.element, out, constants);
      break;
    case "tuple":
    case "union":
    case "intersection":
      for (const m of type.kind === "tuple" ? type.elements : type.members) refsIn(m, out, constants);
      break;
    case "object":
      for (const p of type.properties) refsIn(p.type, out, constants);
      if (type.indexSignature) refsIn(type.indexSignature, out, constants);
      break;
    case "literal":
      if (constants && type.fromConst !== undefined) out.add(type.fromConst);
      break;
    default:
      break;
  }
  return out;
}
