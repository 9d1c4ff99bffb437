/**
 * `runtime-index.json` (the runtime modules parsed at build time, see RUNTIME_INDEX in
 * generator/emit/runtime.ts) holds, per module, exactly what parsing the module gives, with the
 * sha256 of the text it was parsed from.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseRuntimeModule, runtimeIndexJson } from "../generator/emit/runtime.js";
import { ROOT } from "./support/corpus.js";

describe("runtime index", () => {
  const index = JSON.parse(runtimeIndexJson()) as Record<string, { sha256: string; doc: string; imports: unknown[]; declarations: { uses: string[] }[] }>;

  it("has every runtime module, each as parsing gives it, keyed by the sha256 of its text", () => {
    expect(Object.keys(index)).toEqual(expect.arrayContaining(["dispatcher", "errors", "json", "meta", "methods", "validation"]));
    for (const [name, entry] of Object.entries(index)) {
      const text = readFileSync(join(ROOT, "runtime", `${name}.ts`), "utf8");
      expect(entry.sha256, name).toBe(createHash("sha256").update(text).digest("hex"));
      const parsed = parseRuntimeModule(name, text);
      expect({ doc: entry.doc, imports: entry.imports, declarations: entry.declarations.map((d) => ({ ...d, uses: new Set(d.uses) })) }, name).toEqual({
        doc: parsed.doc,
        imports: parsed.imports,
        declarations: parsed.declarations,
      });
    }
  });
});
