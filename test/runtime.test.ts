/**
 * The runtime modules (`runtime/*.ts`) tested as they are, not through rendered output: the
 * JSON helpers, the tool-arguments check and the dispatcher core, driven by a small revision
 * table written here (no schema involved).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import ts from "typescript";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { generate } from "../generator/index.js";
import {
  createDispatcher,
  HandlerError,
  notImplemented,
  type CheckOutcome,
  type DispatchRevision,
  type DispatchResponse,
  type MethodRow,
  type RequestContextCore,
} from "../runtime/dispatcher.js";
import { appendBytes, deepFreeze, escapeToken, isJsonData, retainedBytes, isPlainArray, isPlainObject, MAX_DEPTH, own, unescapeToken } from "../runtime/json.js";
import { checkToolArguments } from "../runtime/tool-arguments.js";
import { generateInto, ROOT, SPEC_DIR } from "./support/corpus.js";
import { strictestDiagnostics } from "./support/strict.js";

describe("runtime modules' exported values", () => {
  it("every exported object of every runtime module is frozen (helper-98: DEFAULT_ALLOWED_HOSTS, read by each new server, could be widened)", async () => {
    const open: string[] = [];
    for (const file of readdirSync(join(ROOT, "runtime")).filter((f) => f.endsWith(".ts"))) {
      const module = (await import(join(ROOT, "runtime", file))) as Record<string, unknown>;
      // A regular expression is a pattern, not a table (and validators.ts keeps its copies private).
      for (const [name, value] of Object.entries(module)) if (typeof value === "object" && value !== null && !(value instanceof RegExp) && !Object.isFrozen(value)) open.push(`${file}: ${name}`);
    }
    expect(open).toEqual([]);
  });
});

describe("runtime/json.ts", () => {
  it("appendBytes writes into the array while it has room, then into one twice as long (at most the limit), keeping the bytes before", () => {
    const bytes = (...b: number[]) => Uint8Array.from(b);
    let into: Uint8Array = new Uint8Array(0);
    let size = 0;
    const grownTo: number[] = [];
    for (let i = 0; i < 10; i++) {
      const next = appendBytes(into, size, bytes(i), 12);
      if (next !== into) grownTo.push(next.length);
      into = next;
      size++;
    }
    expect(grownTo).toEqual([1, 2, 4, 8, 12]);
    expect([...into.subarray(0, size)]).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // A chunk larger than the doubling: the array is as long as both.
    const wide = appendBytes(bytes(1, 2), 1, bytes(7, 8, 9, 10, 11), 100);
    expect([...wide]).toEqual([1, 7, 8, 9, 10, 11]);
    // The bytes past `size` in the old array are not copied.
    expect([...appendBytes(bytes(5, 6, 7), 1, bytes(8, 9, 10), 100)]).toEqual([5, 8, 9, 10, 0, 0]);
  });

  it("retainedBytes counts a parsed JSON value's memory by its weights, walks any depth, and stops past its cap", () => {
    // 8 a value; numbers other than small integers 16 more; strings 16 + length (2 × length past U+00FF); arrays 32, objects 48,
    // members 32 + the key's length.
    expect(retainedBytes(1)).toBe(8);
    for (const n of [1.5, -0, 2 ** 30, -(2 ** 31), 1e300]) expect(retainedBytes(n)).toBe(8 + 16);
    expect(retainedBytes("abc")).toBe(8 + 16 + 3);
    expect(retainedBytes("aé")).toBe(8 + 16 + 2);
    expect(retainedBytes("a中")).toBe(8 + 16 + 4);
    expect(retainedBytes([])).toBe(8 + 32);
    expect(retainedBytes({})).toBe(8 + 48);
    expect(retainedBytes({ ab: [true, null] })).toBe(8 + 48 + (32 + 2) + (8 + 32 + 8 + 8));
    // `[{},{},…]`: 3 bytes of text an element, 56 counted.
    const empties = JSON.parse(`[${Array(1000).fill("{}").join(",")}]`) as unknown;
    expect(retainedBytes(empties)).toBe(8 + 32 + 1000 * 56);
    // Any depth, without recursion.
    let deep: unknown = 1;
    for (let i = 0; i < 1_000_000; i++) deep = [deep];
    expect(retainedBytes(deep)).toBe(1_000_000 * 40 + 8);
    // Past the cap it stops and answers more than the cap, never more than the whole.
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat({ max: 2000 }), (v, cap) => {
        const whole = retainedBytes(v);
        const capped = retainedBytes(v, cap);
        if (whole <= cap) expect(capped).toBe(whole);
        else expect(capped > cap && capped <= whole).toBe(true);
      }),
    );
  });

  it("deepFreeze freezes every object and array it reaches, leaves functions, and stops at a cycle or a frozen object", () => {
    const f = () => 1;
    const inner = { list: [{ a: 1 }], f };
    const table: Record<string, any> = { row: inner, again: inner };
    table.self = table;
    const before = Object.freeze({ open: { x: 1 } });
    table.before = before;
    expect(deepFreeze(table)).toBe(table);
    for (const o of [table, inner, inner.list, inner.list[0]]) expect(Object.isFrozen(o)).toBe(true);
    expect(Object.isFrozen(f)).toBe(false);
    // An object frozen already is taken as it is (its members are not walked).
    expect(Object.isFrozen(before.open)).toBe(false);
    expect(deepFreeze(5)).toBe(5);
    expect(deepFreeze(null)).toBe(null);
  });

  it("isPlainObject accepts plain and null-prototype objects, and Object.prototype of another realm", () => {
    expect(isPlainObject({})).toBe(true);
    expect(isPlainObject(Object.create(null))).toBe(true);
    expect(isPlainObject(runInNewContext("({ a: 1 })"))).toBe(true);
  });

  it("isPlainObject refuses arrays, class instances, boxed values and objects inheriting from a null-prototype object", () => {
    const base = Object.create(null) as Record<string, unknown>;
    base["secret"] = 1;
    class Point {
      x = 1;
    }
    for (const v of [[], new Point(), new Date(0), Object(1), Object.create(base), Object.create({ a: 1 }), null, "x"]) {
      expect(isPlainObject(v)).toBe(false);
    }
  });

  it("isPlainArray accepts arrays of this realm and of another, and refuses subclass instances and arrays with another prototype", () => {
    expect(isPlainArray([])).toBe(true);
    expect(isPlainArray(runInNewContext("[1, 2]"))).toBe(true);
    class Items extends Array {}
    const others = [new Items(), Object.setPrototypeOf([], null), Object.setPrototypeOf([], Object.prototype), Object.setPrototypeOf([], [1])];
    for (const v of [...others, {}, new Uint8Array(1), "x", null]) expect(isPlainArray(v)).toBe(false);
    // Another realm's Array.prototype is an array whose prototype is that realm's Object.prototype; a forged one is not,
    // nor an array whose prototype is an array of this realm given Object.prototype.
    expect(isPlainArray(Object.setPrototypeOf([], Object.setPrototypeOf([], Object.create(null))))).toBe(false);
    expect(isPlainArray(Object.setPrototypeOf([], Object.setPrototypeOf([], Object.prototype)))).toBe(false);
  });

  it("isJsonData: cycles, shared members, non-finite numbers, depth", () => {
    const shared = { a: 1 };
    expect(isJsonData({ x: shared, y: [shared, shared] })).toBe(true);
    const cyclic: Record<string, unknown> = {};
    cyclic["self"] = cyclic;
    expect(isJsonData(cyclic)).toBe(false);
    expect(isJsonData({ n: Number.NaN })).toBe(false);
    expect(isJsonData({ n: 1n })).toBe(false);
    expect(isJsonData({ u: undefined })).toBe(true);
    expect(isJsonData([undefined])).toBe(false);
    let deep: unknown = 1;
    for (let i = 0; i < MAX_DEPTH; i++) deep = [deep];
    expect(isJsonData(deep)).toBe(true);
    expect(isJsonData([deep])).toBe(false);
  });

  it("isJsonData: a hole, a replaced iterator or an Array subclass is not JSON data, and a long array costs no memory per member", () => {
    const holes = new Array<unknown>(100_000_000);
    const before = process.memoryUsage().heapUsed;
    const started = performance.now();
    expect(isJsonData({ content: holes })).toBe(false);
    expect(isJsonData([1, , 3])).toBe(false); // eslint-disable-line no-sparse-arrays
    expect(performance.now() - started).toBeLessThan(1000);
    // A member the array's own iterator hides is still read.
    const hiding = [1, 2n];
    Object.defineProperty(hiding, Symbol.iterator, { value: function* () { yield 1; } });
    expect(isJsonData({ content: hiding })).toBe(false);
    class Listing extends Array<unknown> {}
    expect(isJsonData(Listing.from([1]))).toBe(false);
    const long = new Array<number>(2_000_000).fill(1);
    expect(isJsonData({ content: long })).toBe(true);
    long[1_999_999] = Number.NaN;
    expect(isJsonData({ content: long })).toBe(false);
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(64 * 1024 * 1024);
  });

  it("own reads own members only; JSON Pointer tokens round-trip", () => {
    expect(own(Object.create({ a: 1 }), "a")).toBeUndefined();
    expect(own({ a: 2 }, "a")).toBe(2);
    expect(escapeToken("a/b~c")).toBe("a~1b~0c");
    expect(unescapeToken("a~1b~0c")).toBe("a/b~c");
    expect(unescapeToken(escapeToken("~1"))).toBe("~1");
  });
});

describe("runtime/tool-arguments.ts", () => {
  const schema = { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] };

  it("reports every problem, not only the first", () => {
    expect(checkToolArguments(schema, { a: "x" })).toBe('missing required property "b"; /a: expected number, got string');
    expect(checkToolArguments(schema, { a: 1, b: 2 })).toBeUndefined();
  });

  it("counts characters, items and properties in the singular for one (helper-110: \"at least 1 characters\")", () => {
    const limits = { type: "object", properties: { s: { type: "string", minLength: 1, maxLength: 2 }, a: { type: "array", minItems: 1 }, o: { type: "object", maxProperties: 1 } } };
    expect(checkToolArguments(limits, { s: "", a: [], o: { x: 1, y: 2 } })).toBe(
      "/s: must have at least 1 character; /a: must have at least 1 item; /o: must have at most 1 property",
    );
    expect(checkToolArguments(limits, { s: "abc" })).toBe("/s: must have at most 2 characters");
  });

  it("patternProperties: a matching name is checked against its schema and is not an additional property", () => {
    const headers = { type: "object", patternProperties: { "^x-": { type: "string" } }, additionalProperties: false };
    expect(checkToolArguments(headers, { "x-trace": "t" })).toBeUndefined();
    expect(checkToolArguments(headers, { "x-trace": 1, other: true })).toBe("/x-trace: expected string, got integer; /other: is not an allowed property");
  });

  it("lists problems of every array item and stops at the issue limit", () => {
    const many = checkToolArguments({ type: "array", items: { type: "string" } }, Array.from({ length: 150 }, (_, i) => i));
    expect(many?.split("; ").length).toBe(101);
    // The walk stops past the limit, so how many more there are is not known (helper-94: this said "and 1 more" of 150).
    expect(many?.endsWith("; and more")).toBe(true);
  });
});

/** A revision table small enough to read: three requests, a cancellation notification, results checked by hand. */
function revision(era: "modern" | "legacy"): DispatchRevision {
  const rows: Record<string, MethodRow> = {
    "tools/call": { kind: "request", direction: "client-to-server", messageType: "CallToolRequest", capability: { side: "server", path: ["tools"] } },
    "tools/list": { kind: "request", direction: "client-to-server", messageType: "ListToolsRequest", capability: { side: "server", path: ["tools"] } },
    "slow/op": { kind: "request", direction: "client-to-server", messageType: "SlowRequest", capability: null },
    "elicitation/create": { kind: "input-request", direction: "server-to-client", messageType: "ElicitRequest", capability: { side: "client", path: ["elicitation"] } },
    "notifications/cancelled": { kind: "notification", direction: "both", messageType: "CancelledNotification", capability: null },
  };
  const ok: CheckOutcome = { ok: true };
  return {
    protocolVersion: "2099-01-01",
    era,
    methodInfo: (method) => (Object.prototype.hasOwnProperty.call(rows, method) ? rows[method] : undefined),
    validatorsByType: {},
    parseResult: () => ok,
    metaKeys: {
      protocolVersion: "example.test/protocolVersion",
      clientCapabilities: "example.test/clientCapabilities",
      clientInfo: "example.test/clientInfo",
      logLevel: "example.test/logLevel",
    },
    cancelledMethod: "notifications/cancelled",
    builtins: {},
    tools: true,
    absentResultType: "complete",
    inputRequiredResultType: "input_required",
    cacheable: [],
  };
}

const modernMeta = { "example.test/protocolVersion": "2099-01-01", "example.test/clientCapabilities": {} };

function call(id: number, method: string, params: object = { _meta: modernMeta }): string {
  return JSON.stringify({ jsonrpc: "2.0", id, method, params });
}

describe("runtime/dispatcher.ts", () => {
  it("answers -32603 for a tool result whose structuredContent holds inherited data (it used to be sent as {})", async () => {
    const errors: unknown[] = [];
    const base = Object.create(null) as Record<string, unknown>;
    base["answer"] = 42;
    const dispatcher = createDispatcher(revision("modern"), {
      serverInfo: { name: "t", version: "1" },
      onError: (e) => errors.push(e),
      tools: [{ definition: { name: "t", inputSchema: { type: "object" } }, call: () => ({ content: [], structuredContent: Object.create(base) }) }],
    });
    const answer = await dispatcher.handle(call(1, "tools/call", { name: "t", arguments: {}, _meta: modernMeta }));
    expect(answer).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "Internal error" } });
    expect(errors).toHaveLength(1);
  });

  it("answers a request whose deadline passes with -32603 and the reason, aborts the handler's signal and frees the id", async () => {
    let seen: RequestContextCore | undefined;
    const dispatcher = createDispatcher(revision("modern"), {
      serverInfo: { name: "t", version: "1" },
      handlers: {
        "slow/op": (_params: unknown, context: RequestContextCore) => {
          seen = context;
          return new Promise(() => {});
        },
      },
    });
    const deadline = new AbortController();
    const channel = {};
    const pending = dispatcher.handle(call(7, "slow/op"), { channel, deadline: deadline.signal });
    await new Promise((r) => setTimeout(r, 5));
    deadline.abort("Request timed out after 5 ms");
    expect(await pending).toEqual({ jsonrpc: "2.0", id: 7, error: { code: -32603, message: "Request timed out after 5 ms" } });
    expect(seen?.signal.aborted).toBe(true);
    // The id is free again: a new request with it is not a duplicate.
    const again = new AbortController();
    const second = dispatcher.handle(call(7, "slow/op"), { channel, deadline: again.signal });
    again.abort();
    expect(await second).toEqual({ jsonrpc: "2.0", id: 7, error: { code: -32603, message: "Request aborted before it completed" } });
  });

  it("a deadline already passed is answered without running the handler; a cancelled request is not answered", async () => {
    let runs = 0;
    const dispatcher = createDispatcher(revision("modern"), {
      serverInfo: { name: "t", version: "1" },
      handlers: { "slow/op": () => (runs++, new Promise(() => {})) },
    });
    expect(await dispatcher.handle(call(1, "slow/op"), { deadline: AbortSignal.abort("Server shutting down") })).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32603, message: "Server shutting down" },
    });
    expect(runs).toBe(0);
    const cancel = new AbortController();
    const pending = dispatcher.handle(call(2, "slow/op"), { signal: cancel.signal });
    await new Promise((r) => setTimeout(r, 1));
    cancel.abort();
    expect(await pending).toBeUndefined();
    expect(runs).toBe(1);
  });

  it("a handler that stops on its aborted signal (its reason, an AbortError) is not reported to onError; any other exception is, aborted or not", async () => {
    const errors: unknown[] = [];
    const dispatcher = createDispatcher(revision("modern"), {
      serverInfo: { name: "t", version: "1" },
      onError: (e) => errors.push(e),
      handlers: {
        "slow/op": (params: { throws?: string }, context: RequestContextCore) => {
          if (params.throws === "now") throw new Error("a bug");
          return new Promise((_, reject) =>
            context.signal.addEventListener(
              "abort",
              () => {
                if (params.throws === "reason") reject(context.signal.reason);
                else if (params.throws === "abort-error") reject(new DOMException("The operation was aborted", "AbortError"));
                else reject(new TypeError("a bug in the clean-up"));
              },
              { once: true },
            ),
          );
        },
      },
    });
    const cancelled = async (throws: string) => {
      const cancel = new AbortController();
      const pending = dispatcher.handle(call(1, "slow/op", { _meta: modernMeta, throws }), { signal: cancel.signal });
      await new Promise((r) => setTimeout(r, 1));
      cancel.abort(new Error("the client closed the response stream"));
      expect(await pending).toBeUndefined();
      await new Promise((r) => setTimeout(r, 5));
    };
    await cancelled("reason");
    await cancelled("abort-error");
    const deadline = new AbortController();
    const late = dispatcher.handle(call(2, "slow/op", { _meta: modernMeta, throws: "reason" }), { deadline: deadline.signal });
    await new Promise((r) => setTimeout(r, 1));
    deadline.abort("Request timed out after 1 ms");
    expect(await late).toEqual({ jsonrpc: "2.0", id: 2, error: { code: -32603, message: "Request timed out after 1 ms" } });
    await new Promise((r) => setTimeout(r, 5));
    expect(errors).toEqual([]);
    // A fault is a fault, also while the request is being cancelled.
    await cancelled("something else");
    expect(await dispatcher.handle(call(3, "slow/op", { _meta: modernMeta, throws: "now" }))).toEqual({ jsonrpc: "2.0", id: 3, error: { code: -32603, message: "Internal error" } });
    expect(errors.map((e) => (e as Error).message)).toEqual(["a bug in the clean-up", "a bug"]);
  });

  it("modern arrival: the request's _meta names the revision and the client's capabilities", async () => {
    const contexts: RequestContextCore[] = [];
    const dispatcher = createDispatcher(revision("modern"), {
      serverInfo: { name: "t", version: "1" },
      handlers: { "slow/op": (_p: unknown, c: RequestContextCore) => (contexts.push(c), {}) },
    });
    const unsupported = await dispatcher.handle(call(1, "slow/op", { _meta: { ...modernMeta, "example.test/protocolVersion": "1999-01-01" } }));
    expect(unsupported).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32022, message: 'Unsupported protocol version: "1999-01-01"', data: { supported: ["2099-01-01"], requested: "1999-01-01" } },
    });
    const meta = { ...modernMeta, "example.test/clientCapabilities": { elicitation: {} }, "example.test/logLevel": "debug", "example.test/clientInfo": { name: "c" } };
    expect(await dispatcher.handle(call(2, "slow/op", { _meta: meta }))).toEqual({ jsonrpc: "2.0", id: 2, result: { resultType: "complete" } });
    expect(contexts[0]).toMatchObject({ era: "modern", protocolVersion: "2099-01-01", clientCapabilities: { elicitation: {} }, logLevel: "debug", clientInfo: { name: "c" } });
  });

  it("legacy arrival: the channel's session gives the revision and capabilities; requireClientCapabilities and input requests read them", async () => {
    const dispatcher = createDispatcher(revision("legacy"), {
      serverInfo: { name: "t", version: "1" },
      supportedProtocolVersions: ["2099-01-01", "2098-01-01"],
      handlers: {
        "slow/op": (_p: unknown, c: RequestContextCore) => {
          c.requireClientCapabilities({ sampling: {} });
          return { era: c.era, version: c.protocolVersion };
        },
        "tools/list": () => ({ resultType: "input_required", inputRequests: { q: { method: "elicitation/create", params: {} } } }),
      },
    });
    const session = { protocolVersion: "2098-01-01", clientCapabilities: { sampling: {} } };
    expect(await dispatcher.handle(call(1, "slow/op", {}), { session })).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { era: "legacy", version: "2098-01-01", resultType: "complete" },
    });
    const without: DispatchResponse | readonly DispatchResponse[] | undefined = await dispatcher.handle(call(2, "slow/op", {}));
    // No session: the error also says how a legacy client starts one.
    expect(without).toEqual({
      jsonrpc: "2.0",
      id: 2,
      error: { code: -32021, message: "Missing required client capability: sampling; a 2099-01-01 client opens with initialize", data: { requiredCapabilities: { sampling: {} } } },
    });
    expect(await dispatcher.handle(call(3, "tools/list", {}), { session })).toEqual({
      jsonrpc: "2.0",
      id: 3,
      error: { code: -32021, message: "Missing required client capability: elicitation", data: { requiredCapabilities: { elicitation: {} } } },
    });
  });

  it("a HandlerError keeps its code; anything else thrown is -32603 with nothing of it on the wire", async () => {
    const dispatcher = createDispatcher(revision("modern"), {
      serverInfo: { name: "t", version: "1" },
      onError: () => {},
      handlers: {
        "slow/op": (params: { which?: string }) => {
          if (params.which === "handler") throw new HandlerError(-32050, "resting", { retryAfterMs: 10 });
          throw new Error("secret");
        },
      },
    });
    expect(await dispatcher.handle(call(1, "slow/op", { which: "handler", _meta: modernMeta }))).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32050, message: "resting", data: { retryAfterMs: 10 } },
    });
    expect(await dispatcher.handle(call(2, "slow/op"))).toEqual({ jsonrpc: "2.0", id: 2, error: { code: -32603, message: "Internal error" } });
  });

  it("a HandlerError of another copy of the runtime (a second generated output in the program) keeps its code too; a look-alike does not", async () => {
    // The committed 2025-11-25 output has a runtime of its own: another module, another class.
    const copy = (await import(join(ROOT, "generated", "2025-11-25", "runtime", "dispatcher.ts"))) as { HandlerError: typeof HandlerError };
    expect(copy.HandlerError).not.toBe(HandlerError);
    const lookAlike = Object.assign(new Error("resting"), { name: "HandlerError", code: -32050, data: null });
    const logged: unknown[] = [];
    const dispatcher = createDispatcher(revision("modern"), {
      serverInfo: { name: "t", version: "1" },
      onError: (_error, info) => logged.push(info.reason),
      handlers: {
        "slow/op": (params: { which?: string }) => {
          throw params.which === "copy" ? new copy.HandlerError(-32050, "resting", { retryAfterMs: 10 }) : lookAlike;
        },
      },
    });
    expect(await dispatcher.handle(call(1, "slow/op", { which: "copy", _meta: modernMeta }))).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32050, message: "resting", data: { retryAfterMs: 10 } },
    });
    expect(await dispatcher.handle(call(2, "slow/op", { which: "look-alike", _meta: modernMeta }))).toEqual({ jsonrpc: "2.0", id: 2, error: { code: -32603, message: "Internal error" } });
    expect(logged).toEqual(["handler-threw"]);
  });
});

describe("notImplemented", () => {
  it("is a handler stub answering -32601 with the method and where it lives", async () => {
    const dispatcher = createDispatcher(revision("modern"), { serverInfo: { name: "t", version: "1" }, handlers: { "slow/op": notImplemented("slow/op") } });
    expect(await dispatcher.handle(call(1, "slow/op"))).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32601, message: "Method not implemented yet: slow/op (see src/handlers.ts)" },
    });
  });
});

/** Function bodies (declarations, expressions, arrows, methods, accessors) in a TypeScript text. */
function functionBodies(text: string): string[] {
  const file = ts.createSourceFile("x.ts", text, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isFunctionLike(node) && "body" in node && node.body !== undefined) || ts.isClassStaticBlockDeclaration(node)) {
      const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
      found.push(`line ${line + 1}: ${node.getText(file).slice(0, 60)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe("generated modules lay out data and types; their code is the runtime's", () => {
  it.each(["draft", "2025-11-25"])("%s: dispatch.ts, methods.ts, errors.ts, meta.ts and index.ts hold no function body", async (version) => {
    const { files } = await generate({ schema: { specDir: SPEC_DIR, version }, docs: "none" });
    for (const name of ["dispatch.ts", "methods.ts", "errors.ts", "meta.ts", "index.ts"]) {
      const file = files.find((f) => f.path === name);
      expect(file, name).toBeDefined();
      expect(functionBodies(file!.contents), name).toEqual([]);
    }
    // The check itself finds bodies where there are some.
    expect(functionBodies(files.find((f) => f.path === "runtime/dispatcher.ts")!.contents).length).toBeGreaterThan(10);
  });

  it("the output templates, read as TypeScript as they stand, hold no function body (a `=> {{type}}` reads as one: function types come as data)", () => {
    const dir = join(ROOT, "templates");
    const templates = readdirSync(dir).filter((f) => f.endsWith(".hbs"));
    expect(templates.length).toBeGreaterThan(5);
    for (const name of templates) expect(functionBodies(readFileSync(join(dir, name), "utf8")), name).toEqual([]);
    // The check finds what such a line used to be.
    expect(functionBodies("export const {{checkName}}: ({{param}}: unknown) => {{resultType}} = metaChecker(RULES);").length).toBe(1);
  });
});

describe("isJsonData refuses what JSON.stringify would send differently", () => {
  it("a toJSON (own, inherited, non-enumerable, on an Array subclass), a non-enumerable member", () => {
    class Listy extends Array<unknown> {
      toJSON(): string {
        return "not an array";
      }
    }
    const hiddenText = { type: "text" };
    Object.defineProperty(hiddenText, "text", { value: "secret", enumerable: false });
    const hiddenToJSON = { type: "text", text: "t" };
    Object.defineProperty(hiddenToJSON, "toJSON", { value: () => ({ type: "bogus" }), enumerable: false });
    const arrayToJSON = Object.assign([1], { toJSON: () => 1n });
    for (const bad of [Listy.from([1]), { content: [hiddenText] }, { content: [hiddenToJSON] }, arrayToJSON, { toJSON: () => ({}) }]) {
      expect(isJsonData(bad)).toBe(false);
    }
    expect(isJsonData({ content: [{ type: "text", text: "ok" }] })).toBe(true);
  });

  it("a result holding such a value is answered -32603, never sent altered", async () => {
    const hidden = { type: "text" };
    Object.defineProperty(hidden, "text", { value: "secret", enumerable: false });
    const dispatcher = createDispatcher(revision("modern"), { serverInfo: { name: "t", version: "1" }, onError: () => {}, handlers: { "slow/op": () => ({ content: [hidden] }) } });
    expect(await dispatcher.handle(call(1, "slow/op"))).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "Internal error" } });
  });
});

describe("a schema without methods", () => {
  it("gets a dispatch.ts and runtime that compile at the strictest settings (no unused type parameter)", async () => {
    const dir = await generateInto("runtime-methodless", { schema: { path: join(ROOT, "test", "fixtures", "aliases", "schema.ts") }, docs: "none" });
    const roots = (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith(".ts")).map((f) => join(dir, f));
    expect(strictestDiagnostics(roots, { module: "ESNext", moduleResolution: "Bundler" })).toEqual([]);
    expect(roots.some((f) => f.endsWith("dispatch.ts"))).toBe(true);
  });
});

describe("a union's issues follow the member the value is closest to (helper-107: every malformed response read as a request without its method)", () => {
  it("weighs a property missing, or a constant not held, at the union's level above any other issue; a nested union's summary weighs nothing", async () => {
    const dir = await generateInto("runtime-union-closest", { schema: { specDir: SPEC_DIR, version: "draft" }, docs: "none", targets: ["types", "validators"] });
    type Issues = { ok: boolean; issues?: { path: string; message: string }[] };
    const v = (await import(join(dir, "validators.ts"))) as Record<string, (value: unknown) => Issues>;
    // The issue the message leads with, after the unions' summaries.
    const lead = (name: string, value: unknown) => v[`validate${name}`]!(value).issues!.find((i) => !i.message.startsWith("matches none of"));
    expect(lead("JSONRPCMessage", { jsonrpc: "2.0", id: 1, error: { code: -32602 } })).toEqual({ path: "/error/message", message: 'missing required property "message"', keyword: "required" });
    expect(lead("JSONRPCMessage", { jsonrpc: "2.0", id: 1, result: [] })).toEqual({ path: "/result", message: "expected object, got array", keyword: "type" });
    expect(lead("JSONRPCMessage", { jsonrpc: "2.0", id: 1, error: { code: 1.5, message: "x" } })).toEqual({ path: "/error/code", message: "expected integer, got number 1.5", keyword: "type" });
    expect(lead("JSONRPCResponse", { jsonrpc: "2.0", id: 1, error: { code: 1.5, message: "x" } })?.path).toBe("/error/code");
    // Two faults in a response, or an empty error, still read as a response (helper-109).
    expect(lead("JSONRPCMessage", { jsonrpc: "2.0", id: 1, error: { code: "x", message: 5 } })?.path).toBe("/error/code");
    expect(lead("JSONRPCMessage", { jsonrpc: "2.0", id: "x", error: {} })?.path).toBe("/error/code");
    expect(lead("JSONRPCMessage", { jsonrpc: "2.0", id: 1.5, result: {} })?.path).toBe("/id");
    // A discriminator held picks its member (helper-109: a string schema with a bad format was told its type should be "boolean").
    expect(lead("PrimitiveSchemaDefinition", { type: "string", format: "nope" })).toMatchObject({ path: "/format", keyword: "enum" });
    expect(lead("PrimitiveSchemaDefinition", { type: "number", minimum: "0" })).toMatchObject({ path: "/minimum", keyword: "type" });
    // A request with a bad method is still read as a request.
    expect(lead("JSONRPCMessage", { jsonrpc: "2.0", id: 1, method: 5 })).toEqual({ path: "/method", message: "expected string, got 5", keyword: "type" });
    // The verdicts are the validators' as before: only which member's issues are shown changed.
    expect(v.validateJSONRPCMessage!({ jsonrpc: "2.0", id: 1, result: { resultType: "complete" } }).ok).toBe(true);
  });
});
