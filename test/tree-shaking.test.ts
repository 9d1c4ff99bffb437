/**
 * What a bundler keeps of the committed output when a program imports a table alone: the
 * module-level checkers `methods.ts` and `meta.ts` build from the validators are marked
 * `/* @__PURE__ *\/`, so that with `"sideEffects": false` (the README's advice) importing
 * `METHODS`, `MetaKey` or `ErrorCode` does not keep `validators.ts` (about 115 KB minified).
 * Bundled with Rolldown, the bundler Vite 8 runs; the bundle is then run and compared.
 */
import { writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "rolldown";
import { describe, expect, it } from "vitest";
import { ROOT, scratchDir } from "./support/corpus.js";

const DRAFT = join(ROOT, "generated", "draft");

/** Bundles `source` (an entry module's text) minified, modules free of side effects; the modules kept and the bundle's exports. */
async function bundle(name: string, source: string): Promise<{ modules: string[]; exports: Record<string, unknown> }> {
  const dir = scratchDir(`tree-shaking/${name}`);
  writeFileSync(join(dir, "entry.ts"), source);
  const out = await build({ input: join(dir, "entry.ts"), write: false, output: { minify: true, format: "esm" }, treeshake: { moduleSideEffects: false }, logLevel: "silent" });
  const chunk = out.output[0];
  writeFileSync(join(dir, "bundle.mjs"), chunk.code);
  const exports = (await import(pathToFileURL(join(dir, "bundle.mjs")).href)) as Record<string, unknown>;
  return { modules: chunk.moduleIds.map((id) => relative(DRAFT, id)).filter((id) => !id.startsWith("..")).sort(), exports };
}

describe("tree shaking the output", () => {
  it.each([
    ["METHODS", `export { METHODS } from "${DRAFT}/methods.ts";`, ["methods.ts"]],
    ["MetaKey and isValidMetaKey", `export { MetaKey, isValidMetaKey } from "${DRAFT}/meta.ts";`, ["meta.ts", "runtime/meta.ts"]],
    ["tables through index.ts", `export { METHODS, MetaKey, ErrorCode } from "${DRAFT}/index.ts";`, ["errors.ts", "meta.ts", "methods.ts", "runtime/errors.ts"]],
  ])("importing %s keeps no validators", async (_name, source, modules) => {
    const bundled = await bundle(_name.replace(/\W+/g, "-"), source);
    expect(bundled.modules).toEqual(modules);
    // What the bundle exports is what the module does (a key test, on keys it accepts and refuses).
    const direct = (await import(join(DRAFT, "index.ts"))) as Record<string, unknown>;
    const seen = (value: unknown) => (typeof value === "function" ? ["io.modelcontextprotocol/x", "a b", "-x/y"].map((key) => (value as (key: string) => boolean)(key)) : value);
    for (const [key, value] of Object.entries(bundled.exports)) expect(seen(value)).toEqual(seen(direct[key]));
  });

  it("a checker that is used keeps what it reads: methodInfo answers from the frozen table, parseResult validates", async () => {
    const { modules, exports } = await bundle("used", `export { METHODS, methodInfo, parseResult } from "${DRAFT}/methods.ts";`);
    expect(modules).toEqual(["methods.ts", "runtime/json.ts", "runtime/methods.ts", "validators.ts"]);
    const { METHODS, methodInfo, parseResult } = exports as {
      METHODS: Record<string, unknown>;
      methodInfo: (method: string) => unknown;
      parseResult: (method: string, result: unknown) => { ok: boolean };
    };
    expect(Object.isFrozen(METHODS)).toBe(true);
    expect(methodInfo("tools/call")).toBe(METHODS["tools/call"]);
    expect(parseResult("tools/list", { resultType: "complete", tools: [], ttlMs: 0, cacheScope: "public" }).ok).toBe(true);
    expect(parseResult("tools/list", { resultType: "complete", tools: [{}], ttlMs: 0, cacheScope: "public" }).ok).toBe(false);
  });
});
