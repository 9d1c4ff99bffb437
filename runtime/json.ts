/**
 * JSON data helpers shared by every runtime module and by generated validators: own-property
 * reads, the plain-object check, the JSON-data check, JSON Pointer escaping, and the limits
 * on issues and nesting. One copy of each: the generator copies these declarations into the
 * output (pruned to what the output uses), never a variant of them.
 */

/** `Object.prototype.hasOwnProperty`, called as `hasOwn.call(object, key)`. */
export const hasOwn: (this: unknown, key: PropertyKey) => boolean = Object.prototype.hasOwnProperty;

/**
 * Deepest nesting of arrays and objects a value may have: validators report deeper values as
 * invalid, and results nested deeper are not sent (`JSON.stringify` recurses, and overflows the
 * stack a few thousand levels down).
 */
export const MAX_DEPTH = 1000;

/**
 * The most issues a validation or an error's `data.issues` lists; past it, one more issue
 * (`maxIssues`) says that the list stopped.
 */
export const MAX_ISSUES = 100;

/**
 * Freezes `value` and every object and array reachable through its own enumerable properties
 * (functions are left as they are), and returns it. The generated modules export tables that
 * their runtime also reads (`METHODS`, `DISPATCH_REVISION`): frozen, code holding the exported
 * table cannot change what the runtime answers from it. An object already frozen is not walked.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/** The own property `key` of `o`, or `undefined` when `o` has none (inherited members are never read). */
export function own(o: any, key: string): any {
  return hasOwn.call(o, key) ? o[key] : undefined;
}

/**
 * Whether `v` is a JSON object: a plain object whose prototype is `Object.prototype` (of any
 * realm) or `null`. Arrays, `Date`, `Map`, boxed primitives, class instances and objects that
 * inherit from another object are not.
 */
export function isPlainObject(v: unknown): v is Record<string, any> {
  return objectLike(v) && plainPrototype(v);
}

/**
 * `v` when it is a JSON-RPC request id this runtime takes (a string, or a number that is a safe
 * integer); else `undefined`. (Not named `is…`: generated `isX` guards share the output's names.)
 */
export function requestIdOf(v: unknown): string | number | undefined {
  return typeof v === "string" || (typeof v === "number" && Number.isSafeInteger(v)) ? v : undefined;
}

/**
 * The `-32600` message for a request whose id {@link requestIdOf} does not take (answered without
 * an id: it has none the answer could carry). An integer past 2^53 - 1 is named as such: JSON
 * allows it, but JavaScript reads it rounded, and an answer would carry another id.
 */
export function invalidRequestIdMessage(id: unknown): string {
  const unsafe =
    typeof id === "number" && Number.isInteger(id) ? " (of at most 2^53 - 1 either side of zero, which JavaScript reads exactly)" : "";
  return "Invalid request: id must be a string or an integer" + unsafe;
}

/** Whether a JSON-RPC message is a response: an `id`, a `result` or an `error`, and no `method`. */
export function isResponse(message: unknown): boolean {
  if (!isPlainObject(message) || own(message, "method") !== undefined || own(message, "id") === undefined) return false;
  return own(message, "result") !== undefined || own(message, "error") !== undefined;
}

/** Whether a message is a JSON-RPC notification: `jsonrpc` "2.0", a string `method`, and no `id`. */
export function isNotificationMessage(message: unknown): message is { readonly [key: string]: unknown } {
  if (!isPlainObject(message) || Object.prototype.hasOwnProperty.call(message, "id")) return false;
  return own(message, "jsonrpc") === "2.0" && typeof own(message, "method") === "string";
}

/**
 * One message's text as a transport reads it for its own checks (a `subscriptions/listen`
 * request, the HTTP headers it must match): the JSON value, or `text` itself when it is not JSON
 * or is a JSON string. A dispatcher's `handle` reads a string as a message's text and answers it
 * (`-32700`, or `-32600` for a JSON string), so no string's content is parsed as a second message.
 */
export function messageOf(text: string): unknown {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return text;
  }
  return typeof message === "string" ? text : message;
}

/**
 * A message's text for the wire (stdio line, HTTP body, SSE event). The dispatcher sends only JSON data, but a getter
 * may answer differently between its check and this write: when `JSON.stringify` throws (a bigint, a cycle) or gives
 * no text, a response (an `id` that is a string or number, no `method`) becomes a `-32603` error response with the same
 * `id`, so its request is still answered once, and `onFailure` is told; any other message gives `undefined` (not sent).
 */
export function wireText(message: unknown, onFailure: (error: unknown) => void = () => {}): string | undefined {
  let failure: unknown;
  try {
    const text: unknown = JSON.stringify(message);
    if (typeof text === "string") return text;
    failure = new TypeError("the message has no JSON text");
  } catch (error) {
    failure = error;
  }
  onFailure(failure);
  const id = isPlainObject(message) && own(message, "method") === undefined ? own(message, "id") : undefined;
  if (typeof id !== "string" && typeof id !== "number") return undefined;
  return JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32603, message: "Internal error" } });
}

/**
 * Whether `v` is a JSON array: an array whose prototype is `Array.prototype` (of any realm).
 * Instances of a subclass of `Array`, and arrays given another prototype, are not: like a class
 * instance in place of an object, they are not plain JSON data. Narrows as `Array.isArray`
 * does (to `any[]`), so generated checks read elements as they did before.
 */
export function isPlainArray(v: unknown): v is any[] {
  if (!Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Array.prototype || (Array.isArray(proto) && isForeignObjectPrototype(Object.getPrototypeOf(proto)));
}

/**
 * Whether `v` is an object and not `null`: the cheap first half of {@link isPlainObject}, which
 * generated checks test before reading `v`'s properties and finish with {@link plainPrototype}
 * (so that the prototype is read after the property reads, where the engine already knows
 * `v`'s hidden class and can answer from it). Small enough for the engine to inline everywhere.
 */
export function objectLike(v: unknown): v is Record<string, any> {
  return typeof v === "object" && v !== null;
}

/**
 * The rest of {@link isPlainObject} for a `v` that {@link objectLike} accepted: not an array,
 * and its prototype is `Object.prototype` (of any realm) or `null`. Where the engine knows
 * `v`'s hidden class (after reads of `v`'s properties), it answers this from the class alone.
 */
export function plainPrototype(v: object): boolean {
  if (Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null || isForeignObjectPrototype(proto);
}

/**
 * Whether `proto` is `Object.prototype` of another realm: not this realm's, no prototype of its
 * own, and an own `isPrototypeOf`, as `Object.prototype` has (so not a null-prototype object
 * someone inherits data from, unless that data names `isPrototypeOf`: a value only code can
 * build, and the check kept to one name for the validators' size budget).
 */
export function isForeignObjectPrototype(proto: object): boolean {
  return proto !== Object.prototype && Object.getPrototypeOf(proto) === null && hasOwn.call(proto, "isPrototypeOf");
}

/**
 * Whether `value` is JSON data, as `JSON.stringify` would send it unchanged: strings, finite
 * numbers, booleans, `null`, plain arrays (no holes, no subclass) and plain objects of those (an
 * `undefined` member of an object is allowed: `JSON.stringify` drops it), none with a `toJSON` or
 * (objects) a non-enumerable own member, without cycles, nested at most {@link MAX_DEPTH} deep.
 * Iterative, and its memory is one entry per level open (not per member), so it answers for any
 * depth and length. May throw only when reading the value throws (a getter or a Proxy trap);
 * callers that take hostile values catch.
 */
export function isJsonData(value: unknown): boolean {
  // The arrays and objects open on the way to the value checked now, each with the members it has left.
  const path: JsonDataFrame[] = [];
  const open = new Set<object>();
  let v: unknown = value;
  for (;;) {
    if (typeof v === "number") {
      if (!Number.isFinite(v)) return false;
    } else if (typeof v === "object" && v !== null) {
      const isArray = isPlainArray(v);
      if (!isArray && !isPlainObject(v)) return false;
      // `JSON.stringify` would send something else: what a `toJSON` returns, or an object without its non-enumerable members.
      if ("toJSON" in v) return false;
      const keys = isArray ? undefined : Object.keys(v);
      if (keys !== undefined && Object.getOwnPropertyNames(v).length !== keys.length) return false;
      if (open.has(v) || open.size >= MAX_DEPTH) return false;
      open.add(v);
      path.push({ of: v, keys, length: keys === undefined ? (v as readonly unknown[]).length : keys.length, next: 0 });
    } else if (v !== null && typeof v !== "string" && typeof v !== "boolean") return false;
    // The next member to check: of the innermost open array or object that has one left. Leaving one closes it
    // again, so a value shared by two members is not a cycle.
    let found = false;
    while (!found) {
      const frame = path[path.length - 1];
      if (frame === undefined) return true;
      if (frame.next === frame.length) {
        path.pop();
        open.delete(frame.of);
        continue;
      }
      const i = frame.next++;
      if (frame.keys === undefined) {
        // By index, not the array's own iterator (which code can replace); a hole is not JSON data (`JSON.stringify` sends `null`).
        if (!hasOwn.call(frame.of, i)) return false;
        v = (frame.of as readonly unknown[])[i];
        if (v === undefined) return false;
        found = true;
      } else {
        v = (frame.of as Record<string, unknown>)[frame.keys[i]!];
        found = v !== undefined;
      }
    }
  }
}

/** An array or object open in {@link isJsonData}: its own keys (objects), how many members, the next to check. */
interface JsonDataFrame {
  readonly of: object;
  readonly keys: readonly string[] | undefined;
  readonly length: number;
  next: number;
}

/** A character that makes a string take two bytes a character in memory. */
const TWO_BYTE = /[^\u0000-\u00ff]/;

/**
 * About how many bytes of memory a parsed JSON value holds (V8, 64-bit): 8 for the slot that
 * holds each value, and 16 more for a number that is not a small integer (a heap number), 16
 * plus its length for a string (twice its length when a character is past U+00FF), 32 for an
 * array, 48 for an object and 32 plus its key's length for each member. Measured against
 * `JSON.parse` on Node 20, it reads from about a third (objects of 50 to 100 keys no other object
 * has, so a hidden class each) to about four times (a short string repeated, which the parser
 * shares; fractions in objects, which it stores unboxed) what the value holds, where the JSON text
 * can be 21 times smaller (`[{},{},…]`: 3 bytes of text, 64 of memory and 56 counted an element).
 * The HTTP transport's budget of bodies in flight and the legacy sessions' budget count this
 * rather than the text.
 *
 * Walked without recursion, one entry per level open; the walk stops once the count is past
 * `cap` and answers that count (greater than `cap`, not the whole). A value that is not JSON
 * data is counted as far as it is read (anything but strings, arrays and objects as a slot); a
 * getter or Proxy trap that throws makes it throw.
 */
export function retainedBytes(value: unknown, cap: number = Number.POSITIVE_INFINITY): number {
  let total = 0;
  const path: JsonDataFrame[] = [];
  let v: unknown = value;
  for (;;) {
    total += 8;
    // A string of characters past U+00FF takes two bytes a character; a number that is no small integer is a heap number.
    if (typeof v === "string") total += 16 + (TWO_BYTE.test(v) ? 2 * v.length : v.length);
    else if (typeof v === "number") total += Number.isInteger(v) && Math.abs(v) < 2 ** 30 && !Object.is(v, -0) ? 0 : 16;
    else if (typeof v === "object" && v !== null) {
      const keys = Array.isArray(v) ? undefined : Object.keys(v);
      total += keys === undefined ? 32 : 48;
      path.push({ of: v, keys, length: keys === undefined ? (v as readonly unknown[]).length : keys.length, next: 0 });
    }
    if (total > cap) return total;
    // The next member: of the innermost open array or object that has one left.
    for (;;) {
      const frame = path[path.length - 1];
      if (frame === undefined) return total;
      if (frame.next === frame.length) {
        path.pop();
        continue;
      }
      const i = frame.next++;
      if (frame.keys === undefined) v = (frame.of as readonly unknown[])[i];
      else {
        const key = frame.keys[i]!;
        total += 32 + key.length;
        v = (frame.of as Record<string, unknown>)[key];
      }
      break;
    }
  }
}

/**
 * `bytes`' first `size` bytes with `chunk` after them: written into `bytes` when it has room, else
 * into a new array twice as long (at least `size + chunk.length`, at most `limit` bytes) that the
 * first `size` bytes are copied to. The transports gather a message that arrives in pieces so, in
 * one array grown by doubling: kept as they came, a message sent a byte at a time costs an object
 * of about a hundred bytes for each byte. The caller keeps `size + chunk.length` within `limit`.
 */
export function appendBytes(bytes: Uint8Array, size: number, chunk: Uint8Array, limit: number): Uint8Array {
  if (size + chunk.length > bytes.length) {
    const grown = new Uint8Array(Math.min(limit, Math.max(2 * bytes.length, size + chunk.length)));
    grown.set(bytes.subarray(0, size));
    bytes = grown;
  }
  bytes.set(chunk, size);
  return bytes;
}

/** A JSON Pointer reference token for a property name (RFC 6901 § 3): `~` → `~0`, `/` → `~1`. */
export function escapeToken(k: string): string {
  return k.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** The property name a reference token stands for (RFC 6901 § 4): `a~1b` → `a/b`. */
export function unescapeToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/**
 * `name` in double quotes, escaped as JSON would write it (control characters too: a shortcut for
 * names without `"` or `\\` wrote them raw).
 */
export function quote(name: string): string {
  return JSON.stringify(name);
}

/** `s` quoted for a message, cut to its first 60 characters. */
export function quoteShort(s: string): string {
  return JSON.stringify(s.length > 60 ? s.slice(0, 60) + "…" : s);
}
