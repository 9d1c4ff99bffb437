/**
 * Several schemas in one output (issue 11): one folder per protocol revision, the runtime
 * shared at the top, one `dispatch.ts` typed with the modern revision and serving all of them
 * (`resultDrop` per older revision), `index.ts`; the combinations one output cannot serve are
 * refused; one schema keeps today's layout.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { ts } from "ts-morph";
import { beforeAll, describe, expect, it } from "vitest";
import { analyzeSchema, DEFAULT_OPTIONS, generate, GeneratorError, type GenerateResult, type SchemaInput } from "../generator/index.js";
import { resultDrop } from "../generator/emit/dispatch.js";
import { expandTargets } from "../generator/emit/index.js";
import { CONFIG_FILE_NAME } from "../generator/config.js";
import { cli } from "./support/cli.js";
import { scratchDir, SPEC_DIR, writeGenerated } from "./support/corpus.js";
import { strictestDiagnostics } from "./support/strict.js";

const DRAFT: SchemaInput = { specDir: SPEC_DIR, version: "draft" };
const LEGACY: SchemaInput = { specDir: SPEC_DIR, version: "2025-11-25" };
const NODE_NEXT = { module: "NodeNext", moduleResolution: "NodeNext", types: ["node"] };

/** Every file under `dir`, relative, sorted. */
function listFiles(dir: string, prefix = ""): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true })
    .flatMap((e) => {
      const path = prefix === "" ? e.name : `${prefix}/${e.name}`;
      return e.isDirectory() ? listFiles(dir, path) : [path];
    })
    .sort();
}

/** The relative module specifiers of a file's imports and re-exports. */
function relativeSpecifiers(contents: string): string[] {
  const file = ts.createSourceFile("f.ts", contents, ts.ScriptTarget.ES2022, false);
  return file.statements
    .map((s) => ((ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) && s.moduleSpecifier && ts.isStringLiteral(s.moduleSpecifier) ? s.moduleSpecifier.text : ""))
    .filter((s) => s.startsWith("."));
}

/** The diagnostics' codes and messages of a failed generation. */
async function refusal(options: Parameters<typeof generate>[0]): Promise<string[]> {
  try {
    await generate(options);
  } catch (error) {
    if (error instanceof GeneratorError) return error.diagnostics.map((d) => `${d.code} ${d.message}`);
    throw error;
  }
  return [];
}

const MODULES = ["errors.ts", "index.ts", "meta.ts", "methods.ts", "revision.ts", "types.ts", "validators.ts"];

describe("draft + 2025-11-25 in one output", () => {
  let result: GenerateResult;
  let dir = "";
  beforeAll(async () => {
    result = await generate({ schema: [DRAFT, LEGACY], transports: "node" });
    dir = writeGenerated("multi-revision/dual", result.files);
    // An ESM project, as NodeNext needs to read the files as modules.
    writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
  });

  it("has a folder per protocol version, runtime/ shared, dispatch.ts, index.ts and the modern revision's modules re-exported at the top", () => {
    expect(result.files.map((f) => f.path).sort()).toEqual(
      [
        ...MODULES.map((m) => `2025-11-25/${m}`),
        ...MODULES.map((m) => `2026-07-28/${m}`),
        "dispatch.ts",
        "errors.ts",
        "index.ts",
        "meta.ts",
        "methods.ts",
        ...["dispatcher", "errors", "http", "json", "meta", "methods", "stdio", "tool-arguments"].map((m) => `runtime/${m}.ts`),
        "types.ts",
        "validators.ts",
      ].sort(),
    );
    expect(result.revisions?.map((r) => [r.folder, r.protocol.protocolVersion])).toEqual([
      ["2026-07-28", "2026-07-28"],
      ["2025-11-25", "2025-11-25"],
    ]);
    expect(readFileSync(join(dir, "types.ts"), "utf8").split("\n").slice(3)).toEqual(['export * from "./2026-07-28/types.js";', ""]);
    expect(readFileSync(join(dir, "index.ts"), "utf8").split("\n").slice(3)).toEqual([
      'export * from "./dispatch.js";',
      'export * from "./2026-07-28/index.js";',
      'export * as v2025_11_25 from "./2025-11-25/index.js";',
      "",
    ]);
  });

  it("compiles under the strictest flags (NodeNext, with the Node.js transports)", () => {
    const roots = listFiles(dir).filter((f) => f.endsWith(".ts")).map((f) => join(dir, f));
    expect(strictestDiagnostics(roots, NODE_NEXT)).toEqual([]);
  });

  it("lets a server set the legacy input-round options through the typed options, and refuses a misspelt one", () => {
    const consumer = join(dirname(dir), "dual-options.ts");
    const serverInfo = '{ serverInfo: { name: "s", version: "1" }';
    writeFileSync(consumer, `import { createServerDispatcher } from "./dual/dispatch.js";\ncreateServerDispatcher(${serverInfo}, maxInputRounds: 2, inputTimeoutMs: 1000 });\n`);
    expect(strictestDiagnostics([consumer], NODE_NEXT)).toEqual([]);
    writeFileSync(consumer, `import { createServerDispatcher } from "./dual/dispatch.js";\ncreateServerDispatcher(${serverInfo}, maxInputRound: 2 });\n`);
    expect(strictestDiagnostics([consumer], NODE_NEXT).join("\n")).toMatch(/maxInputRound/);
  });

  it("imports the shared runtime as ../runtime/ from the revision folders, and every relative import names a generated file", () => {
    const paths = new Set(result.files.map((f) => f.path));
    for (const file of result.files) {
      for (const specifier of relativeSpecifiers(file.contents)) {
        const target = relative(dir, resolve(dir, dirname(file.path), specifier.replace(/\.js$/, ".ts")));
        expect(paths.has(target), `${file.path} imports ${specifier}`).toBe(true);
        if (/^20\d\d-\d\d-\d\d\//.test(file.path) && specifier.includes("runtime/")) expect(specifier).toMatch(/^\.\.\/runtime\//);
      }
    }
  });

  it("types createServerDispatcher with the modern revision and serves both tables, the legacy one with its resultDrop", () => {
    const dispatch = readFileSync(join(dir, "dispatch.ts"), "utf8");
    expect(dispatch).toContain('import type * as T from "./2026-07-28/types.js";\nimport type { MethodTypes } from "./2026-07-28/methods.js";\n');
    expect(dispatch).toContain(
      'import { DISPATCH_REVISION as REVISION_2026_07_28 } from "./2026-07-28/revision.js";\nimport { DISPATCH_REVISION as REVISION_2025_11_25 } from "./2025-11-25/revision.js";\n',
    );
    expect(dispatch).toContain('export const DISPATCH_PROTOCOL_VERSION = "2026-07-28";');
    expect(dispatch).toContain('export const DISPATCH_PROTOCOL_VERSIONS: readonly string[] = ["2026-07-28", "2025-11-25"];');
    const call = dispatch.slice(dispatch.indexOf("export const createServerDispatcher"));
    expect(call).toBe(
      [
        "export const createServerDispatcher: (options: ServerDispatcherOptions) => ServerDispatcher = dispatcherFor<",
        "  ServerDispatcherOptions,",
        "  ServerDispatcher",
        ">([",
        "  REVISION_2026_07_28,",
        "  {",
        "    ...REVISION_2025_11_25,",
        "    resultDrop: {",
        '      "completion/complete": ["resultType"],',
        '      "prompts/get": ["resultType"],',
        '      "prompts/list": ["resultType", "ttlMs", "cacheScope"],',
        '      "resources/list": ["resultType", "ttlMs", "cacheScope"],',
        '      "resources/templates/list": ["resultType", "ttlMs", "cacheScope"],',
        '      "resources/read": ["resultType", "ttlMs", "cacheScope"],',
        '      "tools/call": ["resultType"],',
        '      "tools/list": ["resultType", "ttlMs", "cacheScope"],',
        "    },",
        "  },",
        "]);",
        "",
      ].join("\n"),
    );
  });

  it("computes resultDrop from both models: the modern result members the legacy result types lack", () => {
    const options = { ...DEFAULT_OPTIONS, targets: expandTargets(DEFAULT_OPTIONS.targets) };
    const [modern, legacy] = [analyzeSchema(DRAFT, options), analyzeSchema(LEGACY, options)];
    const drops = Object.fromEntries(resultDrop({ facts: modern.protocol, model: modern.model }, { facts: legacy.protocol, model: legacy.model }).map((d) => [d.method, d.members]));
    expect(drops["tools/call"]).toEqual(["resultType"]);
    for (const [method, members] of Object.entries(drops)) {
      const legacyResults = legacy.protocol.methods.find((m) => m.method === method)!.results;
      const legacyMembers = new Set(legacyResults.flatMap((r) => legacy.model.shapeOf({ kind: "ref", name: r })!.properties.map((p) => p.name)));
      for (const member of members) expect(legacyMembers.has(member), `${method} ${member}`).toBe(false);
    }
    // Methods only one revision has (initialize, server/discover) drop nothing.
    expect(Object.keys(drops).filter((m) => !modern.protocol.methods.some((x) => x.method === m))).toEqual([]);
  });

  it("fills each table from its own schema: the legacy one names its session requests and initializedNotification", async () => {
    const legacy = (await import(join(dir, "2025-11-25", "revision.ts"))) as { DISPATCH_REVISION: Record<string, unknown> };
    const modern = (await import(join(dir, "2026-07-28", "revision.ts"))) as { DISPATCH_REVISION: Record<string, unknown> };
    expect(legacy.DISPATCH_REVISION["era"]).toBe("legacy");
    expect(legacy.DISPATCH_REVISION["builtins"]).toEqual({
      initialize: "initialize",
      ping: "ping",
      setLevel: "logging/setLevel",
      subscribe: "resources/subscribe",
      unsubscribe: "resources/unsubscribe",
    });
    expect(legacy.DISPATCH_REVISION["initializedNotification"]).toBe("notifications/initialized");
    expect(modern.DISPATCH_REVISION["era"]).toBe("modern");
    expect(modern.DISPATCH_REVISION["builtins"]).toEqual({ discover: "server/discover", listen: "subscriptions/listen" });
    expect(modern.DISPATCH_REVISION["initializedNotification"]).toBeUndefined();
  });
});

describe("one schema", () => {
  it("given alone or as a list of one, keeps today's layout, byte for byte", async () => {
    const [alone, listed] = [await generate({ schema: DRAFT, docs: "tags" }), await generate({ schema: [DRAFT], docs: "tags" })];
    expect(listed.files).toEqual(alone.files);
    expect(listed.revisions).toBeUndefined();
    expect(alone.files.filter((f) => f.path.includes("/") && !f.path.startsWith("runtime/"))).toEqual([]);
  });
});

describe("generate with several schemas (CLI)", () => {
  it("writes one manifest for every file; --check finds it up to date and names each revision that changed", async () => {
    const out = join(scratchDir("multi-revision/cli"), "out");
    const written = await cli("generate", "--spec", SPEC_DIR, "--spec-version", "draft,2025-11-25", "--out", out, "--docs", "tags");
    expect([written.code, written.stderr]).toEqual([0, ""]);
    const manifest = JSON.parse(readFileSync(join(out, "codegen-manifest.json"), "utf8")) as { revisions: { folder: string; input: { sha256: string } }[] };
    expect(manifest.revisions.map((r) => r.folder)).toEqual(["2026-07-28", "2025-11-25"]);
    const fresh = await cli("generate", "--spec", SPEC_DIR, "--spec-version", "draft,2025-11-25", "--out", out, "--docs", "tags", "--check");
    expect([fresh.code, fresh.stdout]).toEqual([0, `${out}: 27 files up to date\n`]);
    // Repeated --schema is the same output.
    const schemas = ["draft", "2025-11-25"].flatMap((v) => ["--schema", join(SPEC_DIR, "schema", v, "schema.ts")]);
    expect((await cli("generate", ...schemas, "--out", out, "--docs", "tags", "--check")).code).toBe(0);
    const moved = await cli("generate", "--spec", SPEC_DIR, "--spec-version", "draft,2025-06-18", "--out", out, "--docs", "tags", "--check");
    expect(moved.code).toBe(1);
    const lines = moved.stdout.split("\n");
    expect(lines.slice(0, 2)).toEqual([`${out}/2025-06-18 is a new revision (schema.ts)`, `${out}/2025-11-25 (schema.ts) is no longer generated`]);
    // Back to one schema: the revision folders are generated files no longer produced, and go.
    expect((await cli("generate", "--spec", SPEC_DIR, "--spec-version", "draft", "--out", out, "--docs", "tags")).code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(["codegen-manifest.json", "dispatch.ts", "errors.ts", "index.ts", "meta.ts", "methods.ts", "runtime", "types.ts", "validators.ts"]);
  });

  it("reads several inputs from a configuration file's input list", async () => {
    const dir = scratchDir("multi-revision/config");
    const config = {
      outputs: [{ input: [DRAFT, LEGACY].map((i) => ({ spec: SPEC_DIR, version: (i as { version: string }).version })), out: "gen", options: { docs: "none" } }],
    };
    writeFileSync(join(dir, CONFIG_FILE_NAME), JSON.stringify(config));
    const run = await cli("generate", "--config", join(dir, CONFIG_FILE_NAME));
    expect([run.code, run.stderr]).toEqual([0, ""]);
    expect(existsSync(join(dir, "gen", "2025-11-25", "revision.ts"))).toBe(true);
    writeFileSync(join(dir, CONFIG_FILE_NAME), JSON.stringify({ outputs: [{ input: [], out: "gen" }] }));
    const empty = await cli("generate", "--config", join(dir, CONFIG_FILE_NAME));
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/error MCG020: outputs\[0\]\.input must be an input object or a non-empty array of them/);
  });

  it.each([
    ["two schemas of one version", ["--spec-version", "draft,2026-07-28"], /^error MCG320: .*draft\/schema\.ts \(protocol version 2026-07-28\) and .*2026-07-28\/schema\.ts \(protocol version 2026-07-28\) are both modern-era revisions 2026-07-28: one output serves each protocol version once; give one of them\n/],
    ["no modern revision", ["--spec-version", "2025-11-25,2025-06-18"], /^error MCG320: none of the schemas is of a modern \(stateless\) revision/],
    ["--protocol-rules with several", ["--spec-version", "draft,2025-11-25", "--protocol-rules", "2026-07-28"], /^error MCG320: --protocol-rules 2026-07-28 applies to one schema/],
    ["a version named twice", ["--spec-version", "draft,draft"], /^error MCG001: --spec-version draft,draft names draft twice\n/],
  ])("refuses %s: exit 2, nothing written", async (_name, flags, message) => {
    const out = join(scratchDir("multi-revision/refused"), "out");
    const refused = await cli("generate", "--spec", SPEC_DIR, ...flags, "--out", out);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(message);
    expect(existsSync(out)).toBe(false);
  });
});

/** Small schemas: a modern one (its requests carry the protocol version in `_meta`) and a legacy one, of one method. */
const MODERN_FIXTURE = {
  fileName: "modern.ts",
  text: `export const LATEST_PROTOCOL_VERSION = "2030-01-01";
export interface RequestMetaObject { "io.modelcontextprotocol/protocolVersion": string; }
export interface Result { resultType: "complete"; _meta?: { [key: string]: unknown }; }
export interface Request { method: string; params?: { _meta?: RequestMetaObject } }
export interface EchoRequest extends Request { method: "echo"; params: { text: string; _meta?: RequestMetaObject } }
export interface EchoResult extends Result { text: string; echoedAt: string; }
export type ClientRequest = EchoRequest;
export type ServerResult = EchoResult;
`,
};
const legacyFixture = (version: string, fileName = `legacy-${version}.ts`) => ({
  fileName,
  text: `export const LATEST_PROTOCOL_VERSION = "${version}";
export interface Result { _meta?: { [key: string]: unknown }; [key: string]: unknown; }
export interface Request { method: string; params?: { [key: string]: unknown } }
export interface EchoRequest extends Request { method: "echo"; params: { text: string } }
export interface EchoResult extends Result { text: string; }
export type ClientRequest = EchoRequest;
export type ServerResult = EchoResult;
`,
});

describe("fixture schemas", () => {
  it("puts the modern revision first whatever the order given, drops what the legacy result lacks, and compiles at the strictest", async () => {
    const result = await generate({ schema: [legacyFixture("2020-01-01"), MODERN_FIXTURE], docs: "none" });
    expect(result.revisions?.map((r) => r.folder)).toEqual(["2030-01-01", "2020-01-01"]);
    const dispatch = result.files.find((f) => f.path === "dispatch.ts")!.contents;
    expect(dispatch).toContain('    ...REVISION_2020_01_01,\n    resultDrop: {\n      echo: ["resultType", "echoedAt"],\n    },\n');
    const dir = writeGenerated("multi-revision/fixtures", result.files);
    writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
    const roots = listFiles(dir).filter((f) => f.endsWith(".ts")).map((f) => join(dir, f));
    expect(strictestDiagnostics(roots, { ...NODE_NEXT, types: [] })).toEqual([]);
  });

  it("generates the same bytes twice, and compiles with only some targets (meta and index)", async () => {
    const [first, second] = [await generate({ schema: [MODERN_FIXTURE, legacyFixture("2020-01-01")] }), await generate({ schema: [MODERN_FIXTURE, legacyFixture("2020-01-01")] })];
    expect(second.files).toEqual(first.files);
    const some = await generate({ schema: [MODERN_FIXTURE, legacyFixture("2020-01-01")], targets: ["meta", "index"], docs: "none" });
    expect(some.files.map((f) => f.path).filter((p) => !p.startsWith("runtime/"))).toEqual([
      "types.ts",
      "validators.ts",
      "meta.ts",
      "index.ts",
      "2030-01-01/types.ts",
      "2030-01-01/validators.ts",
      "2030-01-01/meta.ts",
      "2030-01-01/index.ts",
      "2020-01-01/types.ts",
      "2020-01-01/validators.ts",
      "2020-01-01/meta.ts",
      "2020-01-01/index.ts",
    ]);
    const dir = writeGenerated("multi-revision/some-targets", some.files);
    writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
    expect(strictestDiagnostics(listFiles(dir).filter((f) => f.endsWith(".ts")).map((f) => join(dir, f)), { ...NODE_NEXT, types: [] })).toEqual([]);
  });

  it("refuses two legacy schemas of one version, none modern, and a version that cannot name a folder (MCG320)", async () => {
    expect(await refusal({ schema: [MODERN_FIXTURE, legacyFixture("2020-01-01", "a.ts"), legacyFixture("2020-01-01", "b.ts")] })).toEqual([
      "MCG320 a.ts (protocol version 2020-01-01) and b.ts (protocol version 2020-01-01) are both legacy-era revisions 2020-01-01: one output serves each protocol version once; give one of them",
    ]);
    expect(await refusal({ schema: [legacyFixture("2020-01-01"), legacyFixture("2019-01-01")] })).toEqual([
      "MCG320 none of the schemas is of a modern (stateless) revision (2026-07-28 or later), whose types the handlers are written against: legacy-2020-01-01.ts (protocol version 2020-01-01), legacy-2019-01-01.ts (protocol version 2019-01-01); add one (e.g. --spec-version draft,2025-11-25)",
    ]);
    expect(await refusal({ schema: [MODERN_FIXTURE, legacyFixture("../up", "up.ts")] })).toEqual(["MCG320 up.ts (protocol version ../up): the protocol version cannot name a folder of the output"]);
    expect(await refusal({ schema: [] })).toEqual(["MCG001 no schema given"]);
  });
});
