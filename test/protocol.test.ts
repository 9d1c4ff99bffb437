/**
 * The spec semantics of `errors.ts`, `meta.ts` and `methods.ts`, on the generated output
 * of every corpus version. Expectations come from the issue's cases, from the spec prose
 * they cite, and from each version's own `schema.json` as an independent reading of the
 * unions and constants.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { generate, GeneratorError, type GenerateOptions } from "../generator/index.js";
import { corpusVersions, typecheck, type CorpusVersion, writeGenerated } from "./support/corpus.js";
import { seededRandom } from "./support/random.js";
import { thrown } from "./support/thrown.js";

type Fn = (...args: any[]) => any;
type Module = Record<string, any>;

interface Output {
  readonly dir: string;
  readonly errors: Module;
  readonly meta: Module;
  readonly methods: Module;
  readonly validators: Module;
  readonly warnings: readonly { code: string; message: string }[];
}

const versions = new Map(corpusVersions().map((v) => [v.label, v]));

function version(label: string): CorpusVersion {
  const v = versions.get(label);
  if (!v) throw new Error(`corpus version ${label} is missing`);
  return v;
}

const cache = new Map<string, Promise<Output>>();

/** Generates (once) into `test/.tmp/protocol-<name>` and imports the modules. */
function output(label: string, options: Partial<GenerateOptions> = {}, name = label): Promise<Output> {
  let p = cache.get(name);
  if (!p) {
    p = (async () => {
      const result = await generate({ schema: { path: version(label).schemaTs }, docs: "none", ...options });
      const dir = writeGenerated(`protocol-${name}`, result.files);
      const load = async (f: string) => (await import(join(dir, f))) as Module;
      return {
        dir,
        errors: await load("errors.ts"),
        meta: await load("meta.ts"),
        methods: await load("methods.ts"),
        validators: await load("validators.ts"),
        warnings: result.warnings,
      };
    })();
    cache.set(name, p);
  }
  return p;
}

/** The schema's `export const NAME = -N;` constants, read from the text (an independent reading). */
function numericConstants(v: CorpusVersion): Map<string, number> {
  const text = readFileSync(v.schemaTs, "utf8");
  return new Map([...text.matchAll(/^export const ([A-Z_]+) = (-?\d+);$/gm)].map((m) => [m[1]!, Number(m[2])]));
}

/** `schema.json`'s definitions. */
function definitions(v: CorpusVersion): Record<string, any> {
  const json = JSON.parse(readFileSync(v.schemaJson, "utf8")) as Record<string, any>;
  return (json.$defs ?? json.definitions) as Record<string, any>;
}

/** Method names of a union in `schema.json` (`ClientRequest` → `["ping", …]`). */
function methodsOfUnion(defs: Record<string, any>, union: string): string[] {
  const u = defs[union];
  if (!u) return [];
  // A one-member union is inlined by schema.json's generator: the member's own definition.
  const members: any[] = (u.anyOf ?? [u]).map((m: any) => (typeof m.$ref === "string" ? defs[m.$ref.split("/").pop()] : m));
  return members.map((m) => m?.properties?.method?.const).filter((m): m is string => typeof m === "string");
}

const requestMeta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

const labels = [...versions.keys()];

describe("every corpus version", () => {
  describe.each(labels)("%s", (label) => {
    it("generates errors.ts, meta.ts and methods.ts that type-check with the rest", async () => {
      const out = await output(label);
      expect(typecheck(out.dir)).toEqual([]);
    });

    it("has an ErrorCode member for every numeric constant of schema.ts, and classifies it", async () => {
      const { errors } = await output(label);
      const constants = numericConstants(version(label));
      expect(constants.size).toBeGreaterThanOrEqual(5);
      const values = new Set(Object.values(errors.ErrorCode as Record<string, number>));
      for (const [name, code] of constants) {
        expect(values.has(code), name).toBe(true);
        expect(errors.isErrorCode(code)).toBe(true);
        expect(["standard", "mcp"]).toContain(errors.classifyErrorCode(code));
      }
    });

    it("builds error responses that the schema's own validators accept, for every code", async () => {
      const { errors, validators } = await output(label);
      const envelope = (validators.validateJSONRPCErrorResponse ?? validators.validateJSONRPCError) as Fn;
      for (const [member, code] of Object.entries(errors.ErrorCode as Record<string, number>)) {
        const name = member[0]!.toLowerCase() + member.slice(1);
        const make = errors[name] as Fn;
        expect(typeof make, name).toBe("function");
        const response = make(7, sampleData(name));
        expect(response.error.code).toBe(code);
        expect(response.id).toBe(7);
        expect(envelope(response)).toEqual({ ok: true, value: response });
      }
    });

    it("never lets errorResponse produce a reserved code the version does not define", async () => {
      const { errors } = await output(label);
      // JSON-RPC 2.0 keeps -32768..-32100 for itself; from 2026-07-28 the specification keeps -32020..-32099
      // (those revisions define -32020, HEADER_MISMATCH, read from schema.ts).
      const partitioned = [...numericConstants(version(label)).values()].includes(-32020);
      const reserved = (c: number) => (c >= -32768 && c <= -32100) || (partitioned && c >= -32099 && c <= -32020);
      fc.assert(
        fc.property(fc.integer({ min: -33000, max: -31000 }), (code) => {
          let made: any;
          try {
            made = errors.errorResponse(1, code, "m");
          } catch (e) {
            expect(e).toBeInstanceOf(RangeError);
            // Refused: an undefined reserved code, or a defined one whose data only its constructor builds.
            const retired = partitioned && (code === -32002 || code === -32042);
            return reserved(code) ? !errors.isErrorCode(code) || /use \w+\(\)/.test((e as Error).message) : errors.isErrorCode(code) || retired;
          }
          return made.error.code === code && (!reserved(code) || errors.isErrorCode(code));
        }),
        { seed: 42, numRuns: 2000 },
      );
    });

    it("lists exactly the methods of schema.json's unions, each with its direction", async () => {
      const { methods } = await output(label);
      const defs = definitions(version(label));
      const c2s = new Set([...methodsOfUnion(defs, "ClientRequest"), ...methodsOfUnion(defs, "ClientNotification")]);
      const s2c = new Set([...methodsOfUnion(defs, "ServerRequest"), ...methodsOfUnion(defs, "ServerNotification"), ...methodsOfUnion(defs, "InputRequest")]);
      const table = methods.METHODS as Record<string, { direction: string; kind: string; results: string[] }>;
      expect(new Set(Object.keys(table))).toEqual(new Set([...c2s, ...s2c]));
      for (const [method, row] of Object.entries(table)) {
        const expected = c2s.has(method) && s2c.has(method) ? "both" : c2s.has(method) ? "client-to-server" : "server-to-client";
        expect(row.direction, method).toBe(expected);
        if (row.kind === "notification") expect(row.results).toEqual([]);
        else for (const r of row.results) expect(defs[r], `${method} → ${r}`).toBeDefined();
      }
    });

    it("resolves an absent resultType to complete and refuses unknown ones (where the schema names resultType; before, it is extra data)", async () => {
      const { methods } = await output(label);
      const names = readFileSync(version(label).schemaTs, "utf8").includes("resultType");
      expect(methods.resolveResultType({})).toEqual({ ok: true, resultType: "complete" });
      expect(methods.resolveResultType({ resultType: "partial" })).toEqual(names ? { ok: false, reason: `unknown resultType "partial" (an extension's is accepted when options.known names it)` } : { ok: true, resultType: "complete" });
      expect(methods.resolveResultType({ resultType: "partial" }, { known: ["partial"] })).toEqual({ ok: true, resultType: names ? "partial" : "complete" });
      expect(methods.resolveResultType({ resultType: 3 }).ok).toBe(!names);
      expect(methods.resolveResultType(null).ok).toBe(false);
    });
  });
});

/** A `data` value for constructors whose schema requires one. */
function sampleData(constructor: string): unknown {
  switch (constructor) {
    case "unsupportedProtocolVersion":
      return { supported: ["2026-07-28"], requested: "1999-01-01" };
    case "missingRequiredClientCapability":
      return { requiredCapabilities: { sampling: {} } };
    case "urlElicitationRequired":
      return { elicitations: [{ mode: "url", elicitationId: "e1", url: "https://example.com/x", message: "go" }] };
    case "resourceNotFound":
      return { uri: "file:///missing.txt" };
    default:
      return undefined;
  }
}

describe("errors.ts follows each version", () => {
  it("draft: -32020/-32021/-32022 and no -32002 or -32042", async () => {
    const { errors } = await output("draft");
    expect(errors.ErrorCode).toMatchObject({ HeaderMismatch: -32020, MissingRequiredClientCapability: -32021, UnsupportedProtocolVersion: -32022 });
    const values = Object.values(errors.ErrorCode);
    expect(values).not.toContain(-32002);
    expect(values).not.toContain(-32042);
  });

  it("2025-11-25: -32002 (from the prose) and -32042 (from the schema), and no -32020..-32022", async () => {
    const { errors } = await output("2025-11-25");
    expect(errors.ErrorCode).toMatchObject({ ResourceNotFound: -32002, UrlElicitationRequired: -32042 });
    for (const code of [-32020, -32021, -32022]) expect(Object.values(errors.ErrorCode)).not.toContain(code);
  });

  it.each([
    ["draft", -32700, "standard"],
    ["draft", -32603, "standard"],
    ["draft", -32000, "legacy"],
    ["draft", -32002, "legacy"],
    ["draft", -32019, "legacy"],
    ["draft", -32020, "mcp"],
    ["draft", -32099, "mcp"],
    ["draft", -32100, "jsonrpc-reserved"],
    ["draft", -32768, "jsonrpc-reserved"],
    ["draft", -32769, "application"],
    ["draft", -31999, "application"],
    ["draft", 0, "application"],
    ["draft", 1.5, "application"],
    ["2025-11-25", -32002, "mcp"],
    ["2025-11-25", -32042, "mcp"],
    ["2025-11-25", -32001, "legacy"],
    ["2025-11-25", -32020, "legacy"],
    ["2025-11-25", -32100, "jsonrpc-reserved"],
  ])("%s classifies %d as %s", async (label, code, expected) => {
    const { errors } = await output(label);
    expect(errors.classifyErrorCode(code)).toBe(expected);
  });

  it("draft: unsupportedProtocolVersion carries data exactly as UnsupportedProtocolVersionError says", async () => {
    const { errors, validators } = await output("draft");
    const r = errors.unsupportedProtocolVersion("a", { supported: ["2026-07-28"], requested: "2020-01-01" });
    expect(r).toEqual({
      jsonrpc: "2.0",
      id: "a",
      error: { code: -32022, message: "Unsupported protocol version", data: { supported: ["2026-07-28"], requested: "2020-01-01" } },
    });
    expect(validators.isUnsupportedProtocolVersionError(r)).toBe(true);
    expect(validators.isMissingRequiredClientCapabilityError(errors.missingRequiredClientCapability(1, { requiredCapabilities: { elicitation: {} } }))).toBe(true);
    expect(validators.isHeaderMismatchError(errors.headerMismatch(1, undefined, "Mcp-Method header does not match"))).toBe(true);
    // An id that could not be read is left out, as the schema allows.
    expect(errors.parseError(undefined)).toEqual({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error" } });
  });

  it("resources/read of an unknown URI: draft -32602 with data.uri, 2025-11-25 -32002", async () => {
    const draft = (await output("draft")).errors;
    const old = (await output("2025-11-25")).errors;
    expect(draft.resourceNotFound(3, { uri: "file:///x" }).error).toEqual({ code: -32602, message: "Resource not found", data: { uri: "file:///x" } });
    expect(old.resourceNotFound(3, { uri: "file:///x" }).error).toEqual({ code: -32002, message: "Resource not found", data: { uri: "file:///x" } });
  });

  it("a draft client classifies -32002 and -32602-with-uri as resource not found, and nothing else", async () => {
    const { errors } = await output("draft");
    const yes = [
      { code: -32002, message: "Resource not found" },
      { code: -32602, message: "x", data: { uri: "file:///a" } },
      { jsonrpc: "2.0", id: 1, error: { code: -32002, message: "gone" } },
    ];
    const no = [
      { code: -32602, message: "bad params" },
      { code: -32602, message: "x", data: { uri: 5 } },
      { code: -32603, message: "x", data: { uri: "file:///a" } },
      null,
      "error",
      { error: null },
      // Members inherited, not its own (helper-107): not an error object of JSON data.
      Object.create({ code: -32002 }),
      { code: -32602, message: "x", data: Object.create({ uri: "file:///a" }) },
      { jsonrpc: "2.0", id: 1, error: Object.create({ code: -32002, message: "gone" }) },
    ];
    for (const e of yes) expect(errors.isResourceNotFoundError(e), JSON.stringify(e)).toBe(true);
    for (const e of no) expect(errors.isResourceNotFoundError(e), JSON.stringify(e)).toBe(false);
    const hostile = new Proxy({}, { get: () => { throw new Error("trap"); } });
    expect(errors.isResourceNotFoundError(hostile)).toBe(false);
  });

  it("2025-11-25 reads -32002 as resource not found, with or without data.uri, and not -32602", async () => {
    const { errors } = await output("2025-11-25");
    expect(errors.isResourceNotFoundError({ code: -32002, message: "x" })).toBe(true);
    expect(errors.isResourceNotFoundError({ code: -32602, message: "x", data: { uri: "file:///a" } })).toBe(false);
  });

  it("errorResponse refuses undefined codes in the reserved ranges and codes whose data needs their constructor", async () => {
    const draft = (await output("draft")).errors;
    const old = (await output("2025-11-25")).errors;
    expect(() => draft.errorResponse(1, -32050, "x")).toThrow(RangeError);
    expect(() => draft.errorResponse(1, -32022, "x")).toThrow(/use unsupportedProtocolVersion\(\)/);
    expect(() => draft.errorResponse(1, -32200, "x")).toThrow(RangeError);
    expect(draft.errorResponse(1, -32000, "legacy, still allowed").error.code).toBe(-32000);
    expect(() => draft.errorResponse(1, -32002, "x")).toThrow(/retired/);
    expect(old.errorResponse(1, -32001, "implementation-defined").error.code).toBe(-32001);
    expect(old.errorResponse(1, -32050, "implementation-defined").error.code).toBe(-32050);
    expect(() => draft.errorResponse(1, -32043, "x")).toThrow(/not defined by protocol revision 2026-07-28/);
    expect(() => draft.errorResponse(1, 1.5, "x")).toThrow(/not an integer/);
    expect(() => old.errorResponse(1, -32042, "x")).toThrow(/use urlElicitationRequired\(\)/);
    expect(draft.errorResponse(1, 4000, "quota", { left: 0 })).toEqual({ jsonrpc: "2.0", id: 1, error: { code: 4000, message: "quota", data: { left: 0 } } });
  });

  it("errorResponse checks message and id; standard codes are always allowed; retired codes get no constructor", async () => {
    const draft = (await output("draft")).errors;
    expect(() => draft.errorResponse(1, 4000, Symbol("m"))).toThrow(TypeError);
    expect(() => draft.errorResponse(null, 4000, "m")).toThrow(/request id/);
    expect(() => draft.errorResponse(1.5, 4000, "m")).toThrow(/request id/);
    expect(() => draft.errorResponse(1, -32042, "m")).toThrow(/retired/);
    const bare = await generate({ schema: { text: "export type X = string;\n", fileName: "s.ts" } });
    const dir = writeGenerated("protocol-bare-errors", bare.files);
    const errors = (await import(join(dir, "errors.ts"))) as Module;
    expect(errors.errorResponse(1, -32603, "internal").error.code).toBe(-32603);
    const retiring = await output("2025-11-25", { protocolRules: "2026-07-28" }, "2025-11-25-with-2026-07-28-rules");
    expect(retiring.errors.urlElicitationRequired).toBeUndefined();
    expect(() => retiring.errors.errorResponse(1, -32042, "m")).toThrow(/retired/);
  });

  it.each(["draft", "2025-11-25"])("%s: every constructor applies errorResponse's id rule, so no response it builds fails validateJSONRPCErrorResponse", async (label) => {
    const { errors, validators } = await output(label);
    const notConstructors = new Set(["errorResponse", "isErrorCode", "classifyErrorCode", "isResourceNotFoundError"]);
    const constructors = Object.keys(errors).filter((name) => typeof errors[name] === "function" && !notConstructors.has(name));
    expect(constructors).toContain("parseError");
    expect(constructors).toContain("invalidParams");
    for (const id of [null, 1.5, Number.NaN, Number.POSITIVE_INFINITY, true, {}]) {
      const expected = thrown(() => errors.errorResponse(id, 4000, "m"));
      expect(expected).toBe("TypeError: a request id is a string or an integer");
      for (const name of constructors) expect(thrown(() => errors[name](id, undefined)), `${name}(${String(id)})`).toBe(expected);
    }
    const badMessage = thrown(() => errors.errorResponse(1, 4000, null));
    expect(badMessage).toBe("TypeError: an error message is a string");
    for (const name of constructors) expect(thrown(() => errors[name](1, undefined, null)), `${name}(1, undefined, null)`).toBe(badMessage);
    // Every id the validators take in a request, integers past 2^53 too (helper-107: a client could not answer them).
    for (const id of [undefined, 0, -3, "1", 2 ** 53, 2 ** 60, -(2 ** 60)]) {
      if (id !== undefined) expect(validators.validateJSONRPCRequest({ jsonrpc: "2.0", id, method: "ping" }).ok, String(id)).toBe(true);
      const r = errors.parseError(id);
      expect(r).toEqual(id === undefined ? { jsonrpc: "2.0", error: { code: -32700, message: "Parse error" } } : { jsonrpc: "2.0", id, error: { code: -32700, message: "Parse error" } });
      expect(validators.validateJSONRPCErrorResponse(r).ok).toBe(true);
    }
  });

  it("--enum-style ts-enum emits a TypeScript enum with the same values", async () => {
    const out = await output("draft", { enumStyle: "ts-enum" }, "draft-ts-enum");
    expect(typecheck(out.dir)).toEqual([]);
    const text = readFileSync(join(out.dir, "errors.ts"), "utf8");
    expect(text).toMatch(/^export enum ErrorCode \{/m);
    expect(out.errors.ErrorCode.ParseError).toBe(-32700);
    expect(out.errors.ErrorCode[-32022]).toBe("UnsupportedProtocolVersion");
    expect(out.errors.unsupportedProtocolVersion(1, { supported: [], requested: "x" }).error.code).toBe(-32022);
  });
});

describe("meta.ts follows each version", () => {
  it("REQUIRED_REQUEST_META_KEYS comes from RequestMetaObject: clientInfo required in the 2026-07-13 draft, optional at HEAD, nothing in 2025-11-25", async () => {
    expect((await output("draft")).meta.REQUIRED_REQUEST_META_KEYS).toEqual([
      "io.modelcontextprotocol/protocolVersion",
      "io.modelcontextprotocol/clientCapabilities",
    ]);
    expect([...(await output("2026-07-13-draft")).meta.REQUIRED_REQUEST_META_KEYS].sort()).toEqual([
      "io.modelcontextprotocol/clientCapabilities",
      "io.modelcontextprotocol/clientInfo",
      "io.modelcontextprotocol/protocolVersion",
    ]);
    expect((await output("2025-11-25")).meta.REQUIRED_REQUEST_META_KEYS).toEqual([]);
  });

  it("has a constant per key the schema's _meta shapes name", async () => {
    const draft = (await output("draft")).meta;
    expect(draft.MetaKey).toEqual({
      ProgressToken: "progressToken",
      ProtocolVersion: "io.modelcontextprotocol/protocolVersion",
      ClientInfo: "io.modelcontextprotocol/clientInfo",
      ClientCapabilities: "io.modelcontextprotocol/clientCapabilities",
      LogLevel: "io.modelcontextprotocol/logLevel",
      SubscriptionId: "io.modelcontextprotocol/subscriptionId",
      ServerInfo: "io.modelcontextprotocol/serverInfo",
    });
    // 2025-11-25 names io.modelcontextprotocol/related-task only in RelatedTaskMetadata's doc comment: a prose rule.
    expect((await output("2025-11-25")).meta.MetaKey).toEqual({ ProgressToken: "progressToken", RelatedTask: "io.modelcontextprotocol/related-task" });
    expect(draft.OPENTELEMETRY_META_KEYS).toEqual(["traceparent", "tracestate", "baggage"]);
  });

  it("a draft tools/list request: missing protocolVersion or clientCapabilities → -32602 naming the key; both present without clientInfo → accepted", async () => {
    const { meta } = await output("draft");
    const noVersion = meta.checkRequestMeta({ _meta: { "io.modelcontextprotocol/clientCapabilities": {} } });
    expect(noVersion.ok).toBe(false);
    expect(noVersion.error.code).toBe(-32602);
    expect(noVersion.error.message).toContain("io.modelcontextprotocol/protocolVersion");
    expect(noVersion.error.data.problems).toEqual([
      { key: "io.modelcontextprotocol/protocolVersion", problem: "missing", message: "missing required key io.modelcontextprotocol/protocolVersion" },
    ]);
    const noCaps = meta.checkRequestMeta({ _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } });
    expect(noCaps.ok).toBe(false);
    expect(noCaps.error.code).toBe(-32602);
    expect(noCaps.error.data.problems.map((p: any) => p.key)).toEqual(["io.modelcontextprotocol/clientCapabilities"]);
    const ok = meta.checkRequestMeta({ cursor: "c", _meta: requestMeta });
    expect(ok).toEqual({ ok: true, meta: requestMeta, fields: { protocolVersion: "2026-07-28", clientCapabilities: {} } });
  });

  it("the 2026-07-13 draft refuses the same request without clientInfo", async () => {
    const { meta } = await output("2026-07-13-draft");
    const r = meta.checkRequestMeta({ _meta: requestMeta });
    expect(r.ok).toBe(false);
    expect(r.error.data.problems.map((p: any) => p.key)).toEqual(["io.modelcontextprotocol/clientInfo"]);
  });

  it("names every missing and malformed key at once, and a missing _meta as its missing keys", async () => {
    const { meta } = await output("draft");
    const r = meta.checkRequestMeta({ _meta: { "io.modelcontextprotocol/protocolVersion": 7, "io.modelcontextprotocol/logLevel": "loud" } });
    expect(r.error.data.problems.map((p: any) => [p.key, p.problem])).toEqual([
      ["io.modelcontextprotocol/protocolVersion", "malformed"],
      ["io.modelcontextprotocol/clientCapabilities", "missing"],
      ["io.modelcontextprotocol/logLevel", "malformed"],
    ]);
    expect(meta.checkRequestMeta({}).error.data.problems.map((p: any) => p.key)).toEqual([
      "io.modelcontextprotocol/protocolVersion",
      "io.modelcontextprotocol/clientCapabilities",
    ]);
    expect(meta.checkRequestMeta({ _meta: [] }).error.data.problems[0].problem).toBe("not-an-object");
    expect(meta.checkRequestMeta(undefined).ok).toBe(false);
  });

  it("2025-11-25 has no required per-request keys but still checks progressToken", async () => {
    const { meta } = await output("2025-11-25");
    expect(meta.checkRequestMeta({}).ok).toBe(true);
    expect(meta.checkRequestMeta({ _meta: { progressToken: 1.5 } }).ok).toBe(false);
    expect(meta.checkRequestMeta({ _meta: { progressToken: "t" } }).fields).toEqual({ progressToken: "t" });
  });

  const reserved = ["io.modelcontextprotocol/", "dev.mcp/", "org.modelcontextprotocol.api/", "com.mcp.tools/"];
  const notReserved = ["com.example.mcp/", "modelcontextprotocol.io/", "mcp.dev/", "com.example/"];

  it.each(["draft", "2026-07-28", "2025-11-25"])("%s: the second-label rule reserves exactly the issue's prefixes", async (label) => {
    const { meta } = await output(label);
    for (const p of reserved) expect(meta.isReservedMetaKey(`${p}x`), p).toBe(true);
    for (const p of notReserved) expect(meta.isReservedMetaKey(`${p}x`), p).toBe(false);
  });

  it("2025-06-18: a label `modelcontextprotocol` or `mcp` followed by another label reserves the prefix", async () => {
    const { meta } = await output("2025-06-18");
    for (const p of ["modelcontextprotocol.io/", "mcp.dev/", "api.modelcontextprotocol.org/", "tools.mcp.com/", "org.modelcontextprotocol.api/"]) {
      expect(meta.isReservedMetaKey(`${p}x`), p).toBe(true);
    }
    for (const p of ["com.example.mcp/", "io.modelcontextprotocol/", "com.example/"]) expect(meta.isReservedMetaKey(`${p}x`), p).toBe(false);
  });

  it("2024-11-05 and 2025-03-26 state no key grammar: every key is valid, no prefix reserved", async () => {
    for (const label of ["2024-11-05", "2025-03-26"]) {
      const { meta } = await output(label);
      expect(meta.isValidMetaKey("not a/valid/key!")).toBe(true);
      expect(meta.isReservedMetaKey("io.modelcontextprotocol/x")).toBe(false);
      expect(meta.isReservedMetaKey("progressToken")).toBe(true);
    }
  });

  it("OpenTelemetry keys are reserved from 2026-07-28 on, not before", async () => {
    expect((await output("draft")).meta.isReservedMetaKey("traceparent")).toBe(true);
    expect((await output("2025-11-25")).meta.isReservedMetaKey("traceparent")).toBe(false);
    expect((await output("2025-11-25")).meta.OPENTELEMETRY_META_KEYS).toEqual([]);
  });

  it.each([
    ["io.modelcontextprotocol/protocolVersion", { ok: true, prefix: "io.modelcontextprotocol/", labels: ["io", "modelcontextprotocol"], name: "protocolVersion" }],
    ["traceparent", { ok: true, labels: [], name: "traceparent" }],
    ["com.example/", { ok: true, prefix: "com.example/", labels: ["com", "example"], name: "" }],
    ["", { ok: true, labels: [], name: "" }],
    ["a-b.c9/x_y.z-1", { ok: true, prefix: "a-b.c9/", labels: ["a-b", "c9"], name: "x_y.z-1" }],
  ])("parseMetaKey(%j)", async (key, expected) => {
    expect((await output("draft")).meta.parseMetaKey(key)).toEqual(expected);
  });

  it.each(["9com.example/x", "com-.example/x", "com..example/x", "/x", "com.example/x/y", "com.example/-x", "com.example/x_", "_x", "a b", "com.exa mple/x"])(
    "parseMetaKey(%j) gives a reason",
    async (key) => {
      const { meta } = await output("draft");
      const r = meta.parseMetaKey(key);
      expect(r.ok).toBe(false);
      expect(r.reason).toMatch(/label|name|"\/"/);
      expect(meta.isValidMetaKey(key)).toBe(false);
    },
  );

  it("is lenient on unknown or malformed third-party keys by default; strict mode reports them", async () => {
    const { meta } = await output("draft");
    const params = { _meta: { ...requestMeta, "bad key!": 1, "io.modelcontextprotocol/unknownThing": 2, "com.example/fine": 3 } };
    expect(meta.checkRequestMeta(params).ok).toBe(true);
    const strict = meta.checkRequestMeta(params, { strict: true });
    expect(strict.ok).toBe(false);
    expect(strict.error.data.problems.map((p: any) => [p.key, p.problem])).toEqual([
      ["bad key!", "invalid-key"],
      ["io.modelcontextprotocol/unknownThing", "unknown-reserved-key"],
    ]);
  });

  it("strict mode knows the OpenTelemetry keys (strings) and 2025-11-25's related-task key", async () => {
    const draft = (await output("draft")).meta;
    const trace = { traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", tracestate: "a=b", baggage: "k=v" };
    expect(draft.checkNotificationMeta({ _meta: trace }, { strict: true }).ok).toBe(true);
    const bad = draft.checkNotificationMeta({ _meta: { traceparent: 42 } }, { strict: true });
    expect(bad.error.data.problems.map((p: any) => [p.key, p.problem])).toEqual([["traceparent", "malformed"]]);
    expect(draft.checkNotificationMeta({ _meta: { traceparent: 42 } }).ok).toBe(true); // lenient by default
    const old = (await output("2025-11-25")).meta;
    const related = { _meta: { "io.modelcontextprotocol/related-task": { taskId: "t1" } } };
    expect(old.checkRequestMeta(related, { strict: true })).toEqual({ ok: true, meta: related._meta, fields: { relatedTask: { taskId: "t1" } } });
    expect(old.checkRequestMeta({ _meta: { "io.modelcontextprotocol/related-task": { taskId: 1 } } }).ok).toBe(false);
  });

  it("reads only plain objects as _meta, and never trusts options", async () => {
    const { meta } = await output("draft");
    for (const value of [new Date(0), new Map(), Object.create({ a: 1 }), Object.create(Object.assign(Object.create(null), requestMeta))]) {
      expect(meta.checkResultMeta({ _meta: value }).error.data.problems[0].problem).toBe("not-an-object");
      expect(meta.checkRequestMeta({ _meta: value }).error.data.problems[0].problem).toBe("not-an-object");
    }
    const getterThrows = { get strict(): boolean { throw new Error("x"); } };
    for (const options of [null, 5, "strict", getterThrows]) {
      expect(meta.checkRequestMeta({ _meta: requestMeta }, options).ok).toBe(true);
      expect(meta.checkNotificationMeta({}, options).ok).toBe(true);
    }
  });

  it("lists at most MAX_META_PROBLEMS problems, and describes keys too long to copy", async () => {
    const { meta } = await output("draft");
    const many: Record<string, unknown> = { ...requestMeta };
    for (let i = 0; i < 10_000; i++) many[`bad key ${i}`] = i;
    many["x".repeat(1000) + " "] = 1;
    const r = meta.checkRequestMeta({ _meta: many }, { strict: true });
    expect(r.error.data.problems).toHaveLength(meta.MAX_META_PROBLEMS + 1);
    expect(r.error.data.problems.at(-1)).toEqual({ key: "", problem: "too-many", message: "9901 more problems not listed" });
    expect(r.error.message.length).toBeLessThan(30_000);
    const long = meta.checkRequestMeta({ _meta: { ...requestMeta, ["y".repeat(1000) + " "]: 1 } }, { strict: true });
    expect(long.error.data.problems[0].key).toBe("a string of 1001 characters");
  });

  it("builders return valid _meta and throw a TypeError naming every problem", async () => {
    const { meta } = await output("draft");
    expect(meta.buildRequestMeta({ ...requestMeta, "com.example/trace": "x" })).toEqual({ ...requestMeta, "com.example/trace": "x" });
    expect(() => meta.buildRequestMeta({ "io.modelcontextprotocol/protocolVersion": "v", "bad key": 1 })).toThrow(
      /clientCapabilities[\s\S]*bad key/,
    );
    expect(meta.buildResultMeta({ "io.modelcontextprotocol/serverInfo": { name: "s", version: "1" } })).toBeDefined();
    expect(() => meta.buildResultMeta({ "io.modelcontextprotocol/serverInfo": { name: "s" } })).toThrow(TypeError);
    expect(meta.checkNotificationMeta({ _meta: { "io.modelcontextprotocol/subscriptionId": 1.5 } }).ok).toBe(false);
    // What we build is JSON data that JSON.stringify sends as checked.
    const cyclic: Record<string, unknown> = {};
    cyclic["self"] = cyclic;
    for (const value of [10n, cyclic, () => 1, Number.NaN, new Date(0), Symbol("s")]) {
      expect(() => meta.buildRequestMeta({ ...requestMeta, "com.example/x": value }), String(typeof value)).toThrow(/not JSON data/);
    }
    expect(() => meta.buildRequestMeta(new Date(0))).toThrow(/plain JSON object/);
    expect(() => meta.buildNotificationMeta({ traceparent: 42 })).toThrow(/traceparent is malformed/);
    // Official extensions define keys under io.modelcontextprotocol/: a builder cannot know them all.
    expect(meta.buildRequestMeta({ ...requestMeta, "io.modelcontextprotocol/extension-key": 1 })).toBeDefined();
    expect(meta.checkNotificationMeta({}).ok).toBe(true);
  });

  it("reads each known key once, and survives exceptions that are themselves hostile", async () => {
    const { meta } = await output("draft");
    let reads = 0;
    const flipping = {
      "io.modelcontextprotocol/clientCapabilities": {},
      get "io.modelcontextprotocol/protocolVersion"() {
        reads++;
        if (reads > 1) throw new Error("read twice");
        return "2026-07-28";
      },
    };
    expect(meta.checkRequestMeta({ _meta: flipping })).toMatchObject({ ok: true, fields: { protocolVersion: "2026-07-28" } });
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    const symbolMessage = Object.assign(new Error("x"), { message: Symbol("m") });
    for (const thrown of [revoked.proxy, symbolMessage, Object.defineProperty(new Error(), "message", { get: () => { throw new Error("again"); } })]) {
      const hostile = new Proxy({ ...requestMeta }, { ownKeys: () => { throw thrown; } });
      const r = meta.checkRequestMeta({ _meta: hostile }, { strict: true });
      expect(r.ok).toBe(false);
      expect(r.error.data.problems.at(-1).message).toBe("_meta could not be read: an exception");
      expect(() => meta.buildRequestMeta(hostile)).toThrow(/invalid request _meta/);
    }
  });

  it("strict mode accepts every key the revision defines in any shape (the spec's own listen-closed example)", async () => {
    const { meta } = await output("draft");
    const example = JSON.parse(readFileSync(join(version("draft").dir, "examples", "SubscriptionsListenResultResponse", "listen-closed-response.json"), "utf8"));
    expect(meta.checkResultMeta(example.result, { strict: true }).ok).toBe(true);
  });

  it("a key a derived _meta type names is checked by the generic check of its kind, with or without strict (helper-107: subscriptionId 1.5 passed)", async () => {
    const { meta } = await output("draft");
    const key = "io.modelcontextprotocol/subscriptionId";
    for (const strict of [false, true]) {
      for (const bad of [1.5, {}, null, true]) {
        const checked = meta.checkResultMeta({ _meta: { [key]: bad } }, { strict });
        expect(checked.ok, `${JSON.stringify(bad)} strict ${strict}`).toBe(false);
        expect(checked.error.data.problems.map((p: { key: string }) => p.key)).toEqual([key]);
      }
      const good = meta.checkResultMeta({ _meta: { [key]: 7 } }, { strict });
      expect([good.ok, good.fields.subscriptionId]).toEqual([true, 7]);
    }
    // The same rule as the notification's check, which names the key in its own shape.
    expect(meta.checkNotificationMeta({ _meta: { [key]: 1.5 } }).ok).toBe(false);
  });

  it("never throws on hostile params", async () => {
    const { meta } = await output("draft");
    const trap = new Proxy({}, { ownKeys: () => { throw new Error("trap"); }, get: () => { throw new Error("trap"); }, getOwnPropertyDescriptor: () => { throw new Error("trap"); } });
    // JSON.parse makes "__proto__" an own key, as a message off the wire has it (an object
    // literal's `__proto__:` would set the prototype instead, and test nothing).
    const withProtoKey = JSON.parse(
      '{ "__proto__": { "polluted": 1 }, "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} }',
    );
    expect(Object.keys(withProtoKey)).toContain("__proto__");
    // Strict mode sees the key itself (its name breaks the grammar), and nothing else is wrong.
    const own = meta.checkRequestMeta({ _meta: withProtoKey }, { strict: true });
    expect(own.ok ? [] : own.error.data.problems.map((p: { key: string; problem: string }) => `${p.key}: ${p.problem}`)).toEqual(["__proto__: invalid-key"]);
    for (const params of [trap, { _meta: trap }, { _meta: Object.create(null) }, { _meta: withProtoKey }, 42, "x", null]) {
      const r = meta.checkRequestMeta(params, { strict: true });
      expect(r.ok).toBe(false);
    }
    expect(({} as any).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(withProtoKey)).toBe(Object.prototype);
  });
});

describe("methods.ts follows each version", () => {
  it("draft: server/discover, no initialize; tools/call may answer InputRequiredResult and is gated by tools", async () => {
    const { methods } = await output("draft");
    expect(methods.methodInfo("initialize")).toBeUndefined();
    expect(methods.methodInfo("server/discover")).toMatchObject({ kind: "request", direction: "client-to-server", capability: null });
    expect(methods.methodInfo("tools/call")).toEqual({
      method: "tools/call",
      kind: "request",
      direction: "client-to-server",
      messageType: "CallToolRequest",
      params: "required",
      results: ["CallToolResult", "InputRequiredResult"],
      capability: { side: "server", path: ["tools"] },
    });
    expect(methods.methodInfo("tools/list").results).toEqual(["ListToolsResult"]);
    expect(methods.methodInfo("notifications/cancelled").direction).toBe("both");
    expect(methods.methodInfo("sampling/createMessage")).toMatchObject({ kind: "input-request", direction: "server-to-client", capability: { side: "client", path: ["sampling"] } });
    expect(methods.methodInfo("__proto__")).toBeUndefined();
    expect(methods.methodInfo("toString")).toBeUndefined();
  });

  it("the tables the runtime reads cannot be changed at run time: METHODS, its rows, RESULT_TYPES and DISPATCH_REVISION (they could: a capability gate removed by assignment)", async () => {
    const { methods, dir } = await output("draft");
    const dispatch = (await import(join(dir, "dispatch.ts"))) as Module;
    // ES modules are strict: an assignment to a frozen object throws.
    expect(thrown(() => (methods.METHODS["tools/call"].capability = null))).toMatch(/^TypeError: /);
    expect(thrown(() => methods.METHODS["tools/call"].capability.path.push("x"))).toMatch(/^TypeError: /);
    expect(thrown(() => (methods.METHODS["x/y"] = { method: "x/y" }))).toMatch(/^TypeError: /);
    expect(methods.methodInfo("tools/call").capability).toEqual({ side: "server", path: ["tools"] });
    expect(methods.methodInfo("x/y")).toBeUndefined();
    // RESULT_TYPES is what parseResult and the dispatcher accept (helper-96: a pushed "evil" was served).
    expect(thrown(() => methods.RESULT_TYPES.push("evil"))).toMatch(/^TypeError: /);
    expect(methods.resolveResultType({ resultType: "evil" }).ok).toBe(false);
    // OPENTELEMETRY_META_KEYS is what a strict _meta check holds to (helper-97: emptied, a traceparent of 5 was served).
    const meta = (await import(join(dir, "meta.ts"))) as Module;
    expect(thrown(() => (meta.OPENTELEMETRY_META_KEYS.length = 0))).toMatch(/^TypeError: /);
    // Every exported table either is frozen or is one the README lists as read by nothing but the user's code.
    const errors = (await import(join(dir, "errors.ts"))) as Module;
    const open: string[] = [];
    for (const [file, module] of Object.entries({ methods, meta, errors, dispatch, validators: (await import(join(dir, "validators.ts"))) as Module })) {
      for (const [name, value] of Object.entries(module)) {
        // The Standard Schema objects (`XSchema`) hold a validator, not a table; nothing of the runtime reads them.
        if (typeof value === "object" && value !== null && !Object.isFrozen(value) && !("~standard" in value)) open.push(`${file}.${name}`);
      }
    }
    expect(open.sort()).toEqual(["errors.ErrorCode", "meta.MetaKey", "meta.REQUIRED_REQUEST_META_KEYS"]);
    expect(thrown(() => (dispatch.DISPATCH_REVISION.tools = false))).toMatch(/^TypeError: /);
    expect(thrown(() => dispatch.DISPATCH_REVISION.cacheable.push("tools/call"))).toMatch(/^TypeError: /);
    expect(Object.isFrozen(dispatch.DISPATCH_REVISION.metaKeys)).toBe(true);
  });

  it("2025-11-25: initialize and ping; results by convention or EmptyResult; capability gates from the prose", async () => {
    const { methods } = await output("2025-11-25");
    expect(methods.methodInfo("initialize")).toMatchObject({ direction: "client-to-server", results: ["InitializeResult"] });
    expect(methods.methodInfo("ping")).toMatchObject({ direction: "both", results: ["EmptyResult"] });
    expect(methods.methodInfo("resources/subscribe").capability).toEqual({ side: "server", path: ["resources", "subscribe"] });
    expect(methods.methodInfo("notifications/tools/list_changed").capability).toEqual({ side: "server", path: ["tools", "listChanged"] });
    expect(methods.methodInfo("roots/list")).toMatchObject({ kind: "request", direction: "server-to-client", capability: { side: "client", path: ["roots"] } });
  });

  it("2025-11-25: a task-augmented request may be answered with CreateTaskResult (prose rule)", async () => {
    const { methods } = await output("2025-11-25");
    expect(methods.methodInfo("tools/call").results).toEqual(["CallToolResult", "CreateTaskResult"]);
    expect(methods.methodInfo("elicitation/create").results).toEqual(["ElicitResult", "CreateTaskResult"]);
    expect(methods.methodInfo("tools/list").results).toEqual(["ListToolsResult"]);
    const task = { task: { taskId: "t1", status: "working", createdAt: "2025-11-25T00:00:00Z", lastUpdatedAt: "2025-11-25T00:00:00Z", ttl: null } };
    expect(methods.parseResult("tools/call", task)).toMatchObject({ ok: true, type: "CreateTaskResult" });
    expect((await output("draft")).methods.methodInfo("tools/call").results).not.toContain("CreateTaskResult");
  });

  it("2025-11-25 names no resultType: a result's resultType member is extra data, kept and not read (helper-107: 'unknown resultType')", async () => {
    const { methods, validators } = await output("2025-11-25");
    const result = { resultType: "input_required", content: [] };
    expect(validators.validateCallToolResult(result).ok).toBe(true);
    expect(methods.parseResult("tools/call", result)).toEqual({ ok: true, resultType: "complete", type: "CallToolResult", value: result });
    expect(methods.resolveResultType({ resultType: 7 })).toEqual({ ok: true, resultType: "complete" });
    // The draft names it: there it is read, and refused when unknown.
    expect((await output("draft")).methods.parseResult("tools/call", { resultType: "nope", content: [] }).ok).toBe(false);
  });

  it("2024-11-05 has no completions capability, so completion/complete is not gated there", async () => {
    expect((await output("2024-11-05")).methods.methodInfo("completion/complete").capability).toBeNull();
    expect((await output("2025-03-26")).methods.methodInfo("completion/complete").capability).toEqual({ side: "server", path: ["completions"] });
  });

  it("tools/call: input_required alone is invalid; with inputRequests and requestState it is an InputRequiredResult, both kept", async () => {
    const { methods } = await output("draft");
    const bare = methods.parseResult("tools/call", { resultType: "input_required" });
    expect(bare.ok).toBe(false);
    expect(bare.issues[0].message).toMatch(/inputRequests or requestState/);
    const full = {
      resultType: "input_required",
      inputRequests: { a: { method: "roots/list", params: {} } },
      requestState: "opaque",
    };
    const r = methods.parseResult("tools/call", full);
    expect(r).toEqual({ ok: true, resultType: "input_required", type: "InputRequiredResult", value: full });
    expect(methods.parseResult("tools/call", { resultType: "input_required", requestState: "s" }).ok).toBe(true);
  });

  it("an input_required reply is never read as an empty completed result, even where the method cannot answer it", async () => {
    const { methods } = await output("draft");
    const r = methods.parseResult("tools/list", { resultType: "input_required", requestState: "s", tools: [] });
    expect(r.ok).toBe(false);
    expect(r.issues[0].path).toBe("/resultType");
  });

  it("partial is invalid unless known; a 2025-11-25-style result without resultType reads as complete; extra members are kept", async () => {
    const { methods } = await output("draft");
    expect(methods.parseResult("tools/call", { resultType: "partial", content: [] }).ok).toBe(false);
    expect(methods.parseResult("tools/call", { resultType: "partial", content: [] }, { known: ["partial"] })).toEqual({
      ok: true,
      resultType: "partial",
      type: null,
      value: { resultType: "partial", content: [] },
    });
    const old = { content: [{ type: "text", text: "hi" }], extra: { kept: true } };
    const r = methods.parseResult("tools/call", old);
    expect(r.ok).toBe(true);
    expect(r.resultType).toBe("complete");
    expect(r.type).toBe("CallToolResult");
    expect(r.value).toEqual({ ...old, resultType: "complete" });
    expect(old).not.toHaveProperty("resultType");
  });

  it("reads an older server's cacheable result without ttlMs and cacheScope as 0 and private, a negative ttlMs as 0 (helper-141)", async () => {
    const { methods } = await output("draft");
    // A 2025-11-25 server's tools/list result: no resultType, ttlMs or cacheScope.
    const old = { tools: [{ name: "hi", inputSchema: { type: "object" } }] };
    expect(methods.parseResult("tools/list", old)).toEqual({
      ok: true,
      resultType: "complete",
      type: "ListToolsResult",
      value: { ...old, resultType: "complete", ttlMs: 0, cacheScope: "private" },
    });
    expect(old).toEqual({ tools: [{ name: "hi", inputSchema: { type: "object" } }] });
    // Clients SHOULD treat a negative ttlMs as 0; what the server gave is kept otherwise.
    const given = { resultType: "complete", contents: [], ttlMs: -5, cacheScope: "public" };
    expect(methods.parseResult("resources/read", given)).toMatchObject({ ok: true, type: "ReadResourceResult", value: { ...given, ttlMs: 0 } });
    const fresh = { resultType: "complete", prompts: [], ttlMs: 60_000, cacheScope: "public" };
    expect(methods.parseResult("prompts/list", fresh)).toEqual({ ok: true, resultType: "complete", type: "ListPromptsResult", value: fresh });
    // A value of the wrong type is not filled over: it is an issue.
    expect(methods.parseResult("tools/list", { ...old, cacheScope: "shared" })).toMatchObject({ ok: false, issues: [{ path: "/cacheScope" }] });
    expect(methods.parseResult("tools/list", { ...old, ttlMs: "0" })).toMatchObject({ ok: false, issues: [{ path: "/ttlMs" }] });
    // Not cacheable: a tools/call result gets no caching fields; nor does an input_required result.
    expect(methods.parseResult("tools/call", { content: [] })).toMatchObject({ ok: true, value: { resultType: "complete", content: [] } });
    expect(methods.parseResult("tools/call", { content: [] }).value).not.toHaveProperty("ttlMs");
    expect(methods.parseResult("resources/read", { resultType: "input_required", requestState: "s" }).value).toEqual({ resultType: "input_required", requestState: "s" });
    // A 2025-11-25 output has no cacheable results to fill.
    const legacy = (await output("2025-11-25")).methods;
    expect(legacy.parseResult("tools/list", old)).toEqual({ ok: true, resultType: "complete", type: "ListToolsResult", value: old });
    // Only plain data is completed: a class instance is refused as the validators refuse it, not read through a plain copy (helper-144).
    class Listed {
      readonly resultType = "complete";
      readonly tools = [];
    }
    expect(methods.parseResult("tools/list", new Listed())).toMatchObject({ ok: false });
    expect(methods.parseResult("tools/call", Object.assign(new (class {})(), { content: [] }))).toMatchObject({ ok: false });
    // A getter that throws while the fields are read is an issue, not an exception.
    const hostile = Object.defineProperty({ tools: [] }, "ttlMs", { enumerable: true, get: () => { throw new Error("x"); } });
    expect(methods.parseResult("tools/list", hostile)).toMatchObject({ ok: false, issues: [{ path: "", keyword: "exception" }] });
  });

  it("a completed result that fails its schema gets its issues; unknown methods and notifications are refused", async () => {
    const { methods } = await output("draft");
    const r = methods.parseResult("tools/call", { resultType: "complete", content: "no" });
    expect(r.ok).toBe(false);
    expect(r.issues[0].path).toBe("/content");
    expect(methods.parseResult("no/such", {}).ok).toBe(false);
    expect(methods.parseResult("notifications/cancelled", {}).ok).toBe(false);
  });

  it("never throws on a hostile method or a result whose getters throw late", async () => {
    const { methods } = await output("draft");
    expect(methods.parseResult(Object.create(null), {})).toMatchObject({ ok: false, issues: [{ message: "a method is a string" }] });
    expect(methods.parseResult({ toString: () => { throw new Error("x"); } }, {}).ok).toBe(false);
    let reads = 0;
    const late = {
      resultType: "input_required",
      requestState: "s",
      get inputRequests() {
        reads++;
        if (reads > 1) throw new Error("late");
        return undefined;
      },
    };
    expect(methods.parseResult("tools/call", late)).toMatchObject({ ok: false, issues: [{ path: "", keyword: "exception" }] });
    // The getter was read again after its first answer, so the late throw was met (and caught).
    expect(reads).toBe(2);
  });

  it("never trusts options, and reads resultType once", async () => {
    const { methods } = await output("draft");
    for (const options of [null, 5, { known: 5 }, { known: "partial" }, { get known(): string[] { throw new Error("x"); } }]) {
      expect(methods.resolveResultType({ resultType: "art" }, options).ok).toBe(false);
      expect(methods.parseResult("tools/call", { resultType: "art" }, options).ok).toBe(false);
    }
    let reads = 0;
    const sneaky = {
      content: [],
      get resultType() {
        reads++;
        return reads === 1 ? "complete" : "input_required";
      },
    };
    const r = methods.parseResult("tools/call", sneaky);
    expect(r.ok && r.resultType).toBe("complete");
  });

  it("2025-11-25 parses results without resultType", async () => {
    const { methods } = await output("2025-11-25");
    expect(methods.parseResult("tools/list", { tools: [] })).toEqual({ ok: true, resultType: "complete", type: "ListToolsResult", value: { tools: [] } });
    expect(methods.parseResult("tools/list", { resultType: "input_required" }).ok).toBe(false);
  });
});

describe("validators carry the schema's number and requiredness rules", () => {
  it("CancelledNotification needs requestId; priority 0.5 is valid; id 1.5 and size 2.5 are not", async () => {
    const { validators } = await output("draft");
    expect(validators.isCancelledNotification({ jsonrpc: "2.0", method: "notifications/cancelled", params: {} })).toBe(false);
    expect(validators.isCancelledNotification({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } })).toBe(true);
    expect(validators.isAnnotations({ priority: 0.5 })).toBe(true);
    expect(validators.isJSONRPCRequest({ jsonrpc: "2.0", id: 1.5, method: "x" })).toBe(false);
    expect(validators.isJSONRPCRequest({ jsonrpc: "2.0", id: null, method: "x" })).toBe(false);
    expect(validators.isJSONRPCRequest({ jsonrpc: "2.0", id: 1, method: "x" })).toBe(true);
    expect(validators.isResource({ uri: "file:///a", name: "a", size: 2.5 })).toBe(false);
    expect(validators.isResource({ uri: "file:///a", name: "a", size: 2 })).toBe(true);
  });

  it("uri-template literals are RFC 6570's: ucschar yes; C1 controls, lone surrogates and noncharacters no", async () => {
    const { validators } = await output("draft");
    const template = (uriTemplate: string) => validators.isResourceTemplate({ uriTemplate, name: "t" });
    expect(template("file:///caf\u00e9/{name}")).toBe(true);
    expect(template("file:///\u{1F600}/{name}")).toBe(true);
    for (const bad of ["a\u0085b", "a\ud800b", "a\udc00b", "a\ufffeb", "a\ufdd0b", "a\u{1FFFE}b", "a\u{E0001}b"]) expect(template(bad), JSON.stringify(bad)).toBe(false);
  });

  it("an error response may omit id (draft)", async () => {
    const { validators } = await output("draft");
    expect(validators.isJSONRPCErrorResponse({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error" } })).toBe(true);
  });
});

describe("rule selection", () => {
  it("--protocol-rules overrides the schema's LATEST_PROTOCOL_VERSION", async () => {
    const out = await output("2025-06-18", { protocolRules: "2025-11-25" }, "2025-06-18-with-2025-11-25-rules");
    expect(out.meta.isReservedMetaKey("mcp.dev/x")).toBe(false);
    expect(out.meta.isReservedMetaKey("dev.mcp/x")).toBe(true);
  });

  it("a schema newer than the table uses the newest rules not after it, with warning MCG260", async () => {
    const result = await generate({ schema: { text: 'export const LATEST_PROTOCOL_VERSION = "2030-01-01";\nexport type RequestId = string | number;\n', fileName: "s.ts" } });
    // Located at LATEST_PROTOCOL_VERSION, or at the file's start when it has none: with several schemas, each warning names its own (helper-144).
    expect(result.warnings).toEqual([
      { code: "MCG260", message: "no rules for protocol version 2030-01-01; using those of 2026-07-28 (choose with --protocol-rules)", span: { file: "s.ts", line: 1, column: 14 } },
    ]);
    const none = await generate({ schema: { text: "export type RequestId = string | number;\n", fileName: "t.ts" } });
    expect(none.warnings).toEqual([{ code: "MCG260", message: "the schema has no LATEST_PROTOCOL_VERSION; using the rules of 2026-07-28", span: { file: "t.ts", line: 1, column: 1 } }]);
  });

  it("MCG260 says a LATEST_PROTOCOL_VERSION that is a type or a number constant is one, not that the schema has none (helper-144)", async () => {
    const said = async (declaration: string) =>
      (await generate({ schema: { text: `export interface A { x: string }\n${declaration}\n`, fileName: "s.ts" } })).warnings.map((w) => `${w.span?.line}:${w.span?.column} ${w.message}`);
    const reads = 'the version is read from a string constant (export const LATEST_PROTOCOL_VERSION = "…"); using the rules of 2026-07-28';
    expect(await said('export type LATEST_PROTOCOL_VERSION = "2025-11-25";')).toEqual([`2:1 LATEST_PROTOCOL_VERSION is a type: ${reads}`]);
    expect(await said("export const LATEST_PROTOCOL_VERSION = 20251125;")).toEqual([`2:14 LATEST_PROTOCOL_VERSION is a number constant: ${reads}`]);
    expect(await said("export interface LATEST_PROTOCOL_VERSION { v: string }")).toEqual([`2:1 LATEST_PROTOCOL_VERSION is an interface: ${reads}`]);
  });

  it("refuses an unknown --protocol-rules value (MCG001)", async () => {
    const failure = await generate({ schema: { text: "export type A = string;\n", fileName: "s.ts" }, protocolRules: "1999-01-01" }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(GeneratorError);
    expect((failure as GeneratorError).diagnostics[0]!.code).toBe("MCG001");
  });

  it.each([
    ["DELETE", "export const DELETE = -32050;\n"],
    ["_1_FOO", "export const _1_FOO = -32050;\n"],
    ["___", "export const ___ = -32050;\n"],
    ["FOO__BAR and FOO_BAR", "export const FOO__BAR = -32050;\nexport const FOO_BAR = -32051;\n"],
    ["ERROR_RESPONSE", "export const ERROR_RESPONSE = -32050;\n"],
    ["IS_ERROR_CODE", "export const IS_ERROR_CODE = -32050;\n"],
  ])("names an error-code constant that gives no usable name (%s) with MCG301, not a crash", async (_name, text) => {
    const failure = await generate({ schema: { text, fileName: "s.ts" } }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(GeneratorError);
    const diagnostics = (failure as GeneratorError).diagnostics;
    expect(diagnostics.map((d) => d.code)).toEqual(["MCG301"]);
    expect(diagnostics[0]!.span?.line).toBeGreaterThan(0);
  });

  it("says an error-code constant without ASCII letters or digits gives no name at all (helper-142: it printed an empty pair)", async () => {
    const failure = (await generate({ schema: { text: "export const ___ = -32050;\nexport const 名前エラー = -32051;\nexport const _1 = -32052;\n", fileName: "s.ts" } }).catch((e: unknown) => e)) as GeneratorError;
    expect(failure.diagnostics.map((d) => `${d.span?.line} ${d.message}`)).toEqual([
      "1 error-code constant ___ gives no name (the names are made of its ASCII letters and digits, and it has none); rename the constant",
      "2 error-code constant 名前エラー gives no name (the names are made of its ASCII letters and digits, and it has none); rename the constant",
      "3 error-code constant _1 gives no usable name (1, 1); rename the constant",
    ]);
  });

  it("refuses an error-code constant whose characters outside ASCII its names would drop (helper-142: ACME_ÉCHEC gave AcmeChec; helper-151: decomposed, AcmeEChec)", async () => {
    // The third writes its É decomposed, an E and a combining accent: the accent is named by its code point.
    const text = "export const ACME_ÉCHEC = -32050;\nexport const ÜBER_2_FAILED = -32051;\nexport const ACME_E\u0301CHEC = -32053;\nexport const ACME_FAILED = -32052;\n";
    const failure = (await generate({ schema: { text, fileName: "s.ts" } }).catch((e: unknown) => e)) as GeneratorError;
    expect(failure.diagnostics.map((d) => `${d.code} ${d.span?.line}:${d.span?.column} ${d.message}`)).toEqual([
      "MCG301 1:14 error-code constant ACME_ÉCHEC holds É, which the names would drop (they are made of its ASCII letters and digits: AcmeChec, acmeChec); rename the constant",
      "MCG301 2:14 error-code constant ÜBER_2_FAILED holds Ü, which the names would drop (they are made of its ASCII letters and digits: Ber2Failed, ber2Failed); rename the constant",
      "MCG301 3:14 error-code constant ACME_E\u0301CHEC holds U+0301, which the names would drop (they are made of its ASCII letters and digits: AcmeEChec, acmeEChec); rename the constant",
    ]);
  });


  it("generates a compiling errors.ts for constants named like its internal helpers or its types", async () => {
    const text = "export const RESERVED = -32053;\nexport const RESPONSE = -32054;\nexport const ERROR_CODE_CLASS = -32055;\n";
    const result = await generate({ schema: { text, fileName: "s.ts" } });
    const dir = writeGenerated("protocol-helper-names", result.files);
    expect(typecheck(dir)).toEqual([]);
  });

  it("generates compiling meta.ts and methods.ts for odd _meta keys and method names", async () => {
    const text = [
      "export type RequestId = string | number;",
      "export interface RequestParams {",
      '  _meta: { "io.modelcontextprotocol/a*/b": string; "com.x/1abc"?: number; "x/a-b"?: boolean; "x/aB"?: boolean; "com.x/list"?: string[]; __proto__?: string; [key: string]: unknown };',
      "}",
      'export interface ProtoRequest { method: "__proto__"; params?: RequestParams }',
      'export interface PingRequest { method: "ping"; params?: RequestParams }',
      "export type ClientRequest = ProtoRequest | PingRequest;",
      "",
    ].join("\n");
    const result = await generate({ schema: { text, fileName: "s.ts" }, docs: "none" });
    const dir = writeGenerated("protocol-odd-names", result.files);
    expect(typecheck(dir)).toEqual([]);
    const meta = (await import(join(dir, "meta.ts"))) as Module;
    expect(meta.MetaKey["x/a-b"]).toBe("x/a-b");
    expect(meta.MetaKey["x/aB"]).toBe("x/aB");
    expect(meta.MetaKey["com.x/1abc"]).toBe("com.x/1abc");
    expect(Object.getPrototypeOf(meta.MetaKey)).toBe(Object.prototype);
    const ok = meta.checkRequestMeta({ _meta: JSON.parse('{"io.modelcontextprotocol/a*/b": "v", "__proto__": "p"}') });
    expect(ok.ok).toBe(true);
    expect(Object.getPrototypeOf(ok.fields)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(ok.fields, "__proto__")?.value).toBe("p");
    const methods = (await import(join(dir, "methods.ts"))) as Module;
    expect(methods.methodInfo("__proto__")).toMatchObject({ method: "__proto__", kind: "request" });
    expect(Object.keys(methods.METHODS)).toEqual(["__proto__", "ping"]);
  });

  /**
   * The meta.ts of a schema whose requests' `_meta` is `metaType`, after `declarations` (one ping request, its params'
   * `_meta` of that type), written to `test/.tmp/<name>` and type-checked; `problems(values)` is `checkRequestMeta` of a
   * `_meta` holding `values`: its fields, or the messages of its problems.
   */
  async function metaOf(name: string, declarations: readonly string[], metaType = "RequestMetaObject") {
    const text = [...declarations, `export interface RequestParams { _meta?: ${metaType} }`, 'export interface PingRequest { method: "ping"; params?: RequestParams }', "export type ClientRequest = PingRequest;", ""];
    const dir = writeGenerated(name, (await generate({ schema: { text: text.join("\n"), fileName: "s.ts" }, docs: "none" })).files);
    expect(typecheck(dir)).toEqual([]);
    const meta = (await import(join(dir, "meta.ts"))) as Module;
    const problems = (values: Record<string, unknown>): unknown => {
      const r = meta.checkRequestMeta({ _meta: values });
      return r.ok ? r.fields : r.error.data.problems.map((p: { message: string }) => p.message);
    };
    return { meta, problems };
  }

  it("checks a _meta key whose value type has no validator of its own with the _meta type's, constraint tags included (helper-142: @minimum and @format were dropped)", async () => {
    const keys = [
      '  /** @minimum 1 */ "com.acme/tenant-id"?: number;',
      '  "com.acme/region"?: { zone: string; rack?: number };',
      '  /** @format uri */ "com.acme/callback"?: string;',
      '  "com.acme/plain"?: string;',
      "  [key: string]: unknown;",
    ];
    const { meta, problems } = await metaOf("protocol-meta-within", ["export interface RequestMetaObject {", ...keys, "}"]);
    expect(problems({ "com.acme/tenant-id": 0, "com.acme/region": { zone: 1 }, "com.acme/callback": "not a uri", "com.acme/plain": 5 })).toEqual([
      "com.acme/tenant-id is malformed: must be >= 1",
      "com.acme/region is malformed: /zone: expected string, got 1",
      'com.acme/callback is malformed: expected a uri string, got "not a uri"',
      "com.acme/plain is malformed: expected string",
    ]);
    const good = { "com.acme/tenant-id": 3, "com.acme/region": { zone: "a", rack: 2 }, "com.acme/callback": "https://x.example/cb", "com.acme/plain": "p" };
    expect(problems(good)).toEqual({ tenantId: 3, region: { zone: "a", rack: 2 }, callback: "https://x.example/cb", plain: "p" });
    expect(thrown(() => meta.buildRequestMeta({ "com.acme/tenant-id": -3 }))).toBe("TypeError: invalid request _meta: com.acme/tenant-id is malformed: must be >= 1");
    // A _meta type written in place has no validator: such keys stay unchecked, a keyword checked as its JSON type.
    const loose = await metaOf("protocol-meta-inline", [], `{\n${keys.join("\n")}\n}`);
    expect(loose.problems({ "com.acme/tenant-id": 0, "com.acme/region": { zone: 1 }, "com.acme/plain": 5 })).toEqual(["com.acme/plain is malformed: expected string"]);
  });

  it("refuses a _meta key checked by its _meta type's validator when reading the value throws, as a key with a validator of its own (helper-146: accepted)", async () => {
    const { problems: checked } = await metaOf("protocol-meta-within-throws", [
      "export interface Implementation { name: string }",
      "export interface RequestMetaObject {",
      '  "com.acme/region"?: { zone: string };',
      '  "com.acme/client"?: Implementation;',
      "  [key: string]: unknown;",
      "}",
    ]);
    const throwing = () => ({
      get zone(): string {
        throw new Error("boom");
      },
      get name(): string {
        throw new Error("boom");
      },
    });
    const trapped = new Proxy({ zone: "a" }, { get: () => { throw new Error("trap"); } });
    const problems = (values: Record<string, unknown>) => {
      const found = checked(values);
      return Array.isArray(found) ? found : "accepted";
    };
    // As a key whose value type has a validator of its own says it.
    expect(problems({ "com.acme/client": throwing() })).toEqual(["com.acme/client is malformed: the check threw: Error: boom"]);
    expect(problems({ "com.acme/region": throwing() })).toEqual(["com.acme/region is malformed: the check threw: Error: boom"]);
    expect(problems({ "com.acme/region": trapped })).toEqual(["com.acme/region is malformed: the check threw: Error: trap"]);
    expect(problems({ "com.acme/region": { zone: "a" } })).toBe("accepted");
  });

  it("checks a key a _meta type extending the kind's declares with that type's validator when its value type has none of its own (helper-146: @minimum was dropped, an object type unchecked)", async () => {
    const { meta, problems } = await metaOf("protocol-meta-derived-within", [
      "export interface RequestMetaObject { [key: string]: unknown }",
      "export interface TenantMetaObject extends RequestMetaObject {",
      '  "com.acme/stream": string;',
      "  /** @minimum 1 */",
      '  "com.acme/tenant-id"?: number;',
      '  "com.acme/region"?: { zone: string };',
      "}",
    ]);
    // TenantMetaObject's required key is no issue of these values'.
    expect(problems({ "com.acme/tenant-id": 0, "com.acme/region": { zone: 1 } })).toEqual([
      "com.acme/tenant-id is malformed: must be >= 1",
      "com.acme/region is malformed: /zone: expected string, got 1",
    ]);
    expect(problems({ "com.acme/tenant-id": 2, "com.acme/region": { zone: "a" } })).toEqual({ tenantId: 2, region: { zone: "a" } });
    expect(thrown(() => meta.buildRequestMeta({ "com.acme/tenant-id": 0 }))).toBe("TypeError: invalid request _meta: com.acme/tenant-id is malformed: must be >= 1");
  });

  it("a _meta key two members of an intersection declare is one key: one field, one check of both (helper-146: twice, meta.ts did not compile)", async () => {
    const { problems } = await metaOf("protocol-meta-intersection", [
      'export type RequestMetaObject = { "com.acme/k"?: { a: string }; [key: string]: unknown } & { "com.acme/k"?: { b: number } };',
    ]);
    expect(problems({ "com.acme/k": { a: "x", b: 1 } })).toEqual({ k: { a: "x", b: 1 } });
    expect(problems({ "com.acme/k": { a: "x" } })).toEqual(['com.acme/k is malformed: /b: missing required property "b"']);
  });

  it("names the _meta types through exported types when RequestParams and NotificationParams are not exported", async () => {
    const text = [
      "export type ProgressToken = string | number;",
      "interface RequestParams {",
      "  _meta?: { progressToken?: ProgressToken; note?: string; [key: string]: unknown };",
      "}",
      "interface NotificationParams {",
      "  _meta?: { level?: number; [key: string]: unknown };",
      "}",
      // Holds RequestParams as one of two declarations of params, which narrow it together: not a way to name it (helper-71).
      "export type Holder = { params: RequestParams } & { params: { _meta?: { progressToken?: number } } };",
      'export interface PingRequest { method: "ping"; params?: RequestParams }',
      // Reached only through a union: no exported type has a property of type NotificationParams.
      'export type PingNotification = { method: "notifications/ping"; params?: NotificationParams } | { method: "notifications/pong" };',
      "",
    ].join("\n");
    const result = await generate({ schema: { text, fileName: "s.ts" }, docs: "none" });
    const dir = writeGenerated("protocol-unexported-meta", result.files);
    expect(typecheck(dir)).toEqual([]);
    const source = result.files.find((f) => f.path === "meta.ts")!.contents;
    expect(source).toContain('progressToken?: NonNullable<NonNullable<T.PingRequest["params"]>["_meta"]>["progressToken"];');
    expect(source).toContain("level?: unknown;");
    const meta = (await import(join(dir, "meta.ts"))) as Module;
    expect(meta.checkRequestMeta({ _meta: { progressToken: 1, note: "n" } })).toMatchObject({ ok: true, fields: { progressToken: 1, note: "n" } });
    expect(meta.checkRequestMeta({ _meta: { progressToken: true } }).ok).toBe(false);
    expect((meta.buildRequestMeta as (m: unknown) => unknown)({ progressToken: "abc" })).toEqual({ progressToken: "abc" });
    expect(meta.checkNotificationMeta({ _meta: { level: 2 } })).toMatchObject({ ok: true, fields: { level: 2 } });
  });

  it("warns (MCG261) about union members the method table cannot read, and generates the rest", async () => {
    const text = [
      'export interface PingRequest { method: "ping" }',
      "export interface AnyRequest { method: string }",
      'export interface Ping2Request { method: "ping"; params: { a: string } }',
      'export type ClientRequest = PingRequest | AnyRequest | { method: "inline" };',
      "export type ServerRequest = Ping2Request;",
      "",
    ].join("\n");
    const result = await generate({ schema: { text, fileName: "s.ts" } });
    expect(result.warnings.filter((w) => w.code === "MCG261").map((w) => `${w.span?.line} ${w.message}`)).toEqual([
      "4 ClientRequest has 1 member(s) without a name; methods.ts leaves them out",
      "2 AnyRequest in ClientRequest has no string-literal method; methods.ts leaves it out",
      '3 method "ping" is both PingRequest and Ping2Request (in ServerRequest); methods.ts describes PingRequest',
    ]);
    expect(result.files.find((f) => f.path === "methods.ts")!.contents).toContain('messageType: "PingRequest"');
  });

  it("keeps the warnings of a run that fails after lowering (MCG260 and MCG250 with an MCG301)", async () => {
    const text = "export interface ParsedMetaKey {\n  a: string;\n}\nexport interface ParsedMetaKey {\n  b: string;\n}\n";
    const failure = await generate({ schema: { text, fileName: "s.ts" } }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(GeneratorError);
    expect((failure as GeneratorError).diagnostics.map((d) => d.code)).toEqual(["MCG301"]);
    expect((failure as GeneratorError).warnings.map((w) => w.code).sort()).toEqual(["MCG250", "MCG260"]);
  });

  it("reports a schema name that a protocol module also exports (MCG301)", async () => {
    const failure = await generate({ schema: { text: "export interface MetaKey {\n  a: string;\n}\nexport interface ParsedMetaKey {\n  b: string;\n}\n", fileName: "s.ts" } }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(GeneratorError);
    const messages = (failure as GeneratorError).diagnostics.map((d) => `${d.code} ${d.span?.line ?? "-"} ${d.message}`);
    expect(messages).toEqual(["MCG301 4 ParsedMetaKey is exported by both types.ts and meta.ts; rename the schema's ParsedMetaKey"]);
  });
});

describe("declaration order of the draft schema", () => {
  /** The draft's top-level statements, each with its leading comments, in a seeded shuffle. */
  function shuffledDraft(seed: number): string {
    const text = readFileSync(version("draft").schemaTs, "utf8");
    const file = ts.createSourceFile("schema.ts", text, ts.ScriptTarget.Latest, true);
    const parts = file.statements.map((st) => st.getFullText(file).replace(/^\n+/, ""));
    const rng = seededRandom(seed);
    for (let i = parts.length - 1; i > 0; i--) {
      const j = Math.floor(rng() * (i + 1));
      [parts[i], parts[j]] = [parts[j]!, parts[i]!];
    }
    return `${parts.join("\n\n")}\n`;
  }

  it("does not change what errors.ts, meta.ts and methods.ts export or answer; methods.ts follows the unions, byte for byte", async () => {
    const original = await output("draft", { docs: "none" }, "draft-order-original");
    const result = await generate({ schema: { text: shuffledDraft(7), fileName: "schema.ts" }, docs: "none" });
    const dir = writeGenerated("protocol-draft-shuffled", result.files);
    const load = async (f: string) => (await import(join(dir, f))) as Module;
    const shuffled = { errors: await load("errors.ts"), meta: await load("meta.ts"), methods: await load("methods.ts") };
    for (const m of ["errors", "meta", "methods"] as const) expect(Object.keys(shuffled[m]).sort(), m).toEqual(Object.keys(original[m]).sort());
    expect(shuffled.errors.ErrorCode).toEqual(original.errors.ErrorCode);
    expect(shuffled.meta.MetaKey).toEqual(original.meta.MetaKey);
    expect([...shuffled.meta.REQUIRED_REQUEST_META_KEYS].sort()).toEqual([...original.meta.REQUIRED_REQUEST_META_KEYS].sort());
    expect(shuffled.methods.METHODS).toEqual(original.methods.METHODS);
    const withoutHeader = (text: string) => text.split("\n").slice(3).join("\n");
    expect(withoutHeader(readFileSync(join(dir, "methods.ts"), "utf8"))).toBe(withoutHeader(readFileSync(join(original.dir, "methods.ts"), "utf8")));
    // and the shuffle did move declarations: types.ts differs
    expect(readFileSync(join(dir, "types.ts"), "utf8")).not.toBe(readFileSync(join(original.dir, "types.ts"), "utf8"));
  });
});
