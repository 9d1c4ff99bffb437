/**
 * Files whose emitter prints Prettier's layout itself (`layout: "emitter"` in the target
 * table) are written without running Prettier: each must be exactly what Prettier prints.
 * Prettier runs here over every such file generated from the upstream schemas (the committed
 * outputs' inputs, both docs modes that print comments) and from every fixture family (each
 * docs mode), and must change nothing.
 */
import { describe, expect, it } from "vitest";
import { formatModule, TARGET_NAMES, TARGETS } from "../generator/emit/index.js";
import { generate, GeneratorError, type GenerateOptions } from "../generator/index.js";
import { fixtureSchema } from "./support/fixtures.js";
import { SPEC_DIR } from "./support/corpus.js";

/** Output file names of the targets laid out by their emitters. */
const EMITTER_LAID_OUT: ReadonlySet<string> = new Set(TARGET_NAMES.filter((t) => TARGETS[t].layout === "emitter").map((t) => TARGETS[t].file));

const FIXTURE_FAMILIES = ["aliases", "constraints", "discriminated", "enums", "interfaces", "names", "objects", "recursive"] as const;

/** Each generated file laid out by its emitter, with what Prettier makes of it. */
async function reformatted(options: GenerateOptions): Promise<{ path: string; contents: string; formatted: string }[]> {
  const { files } = await generate(options);
  const laidOut = files.filter((f) => EMITTER_LAID_OUT.has(f.path));
  return Promise.all(laidOut.map(async (f) => ({ ...f, formatted: await formatModule(f.contents) })));
}

describe("files laid out by their emitters are Prettier's fixed point", () => {
  it("lays out at least the index without Prettier", () => {
    expect(EMITTER_LAID_OUT.has("index.ts")).toBe(true);
  });

  for (const version of ["draft", "2025-11-25"]) {
    for (const docs of ["tags", "full"] as const) {
      it(`upstream ${version}, --docs ${docs}`, async () => {
        for (const file of await reformatted({ schema: { specDir: SPEC_DIR, version }, docs })) {
          expect(file.contents, file.path).toBe(file.formatted);
        }
      });
    }
  }

  for (const family of FIXTURE_FAMILIES) {
    it(`fixture ${family}, every --docs mode`, async () => {
      for (const docs of ["none", "tags", "full"] as const) {
        let files: Awaited<ReturnType<typeof reformatted>>;
        try {
          files = await reformatted({ schema: { path: fixtureSchema(family) }, docs });
        } catch (error) {
          if (error instanceof GeneratorError) continue;
          throw error;
        }
        for (const file of files) expect(file.contents, `${family} --docs ${docs}: ${file.path}`).toBe(file.formatted);
      }
    });
  }
});
