/**
 * `--import-extension ts` output runs as it is under type stripping (Node 22.18+ and 24 run
 * `.ts` files directly): the README's usage example, pointed at such output, runs under the
 * pinned Node 22 and 24 binaries and prints what its comments say. The default (`js`)
 * output's specifiers are `./x.js`, which type stripping cannot find: that is why the option
 * exists, and a test here holds it.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { generate } from "../generator/index.js";
import { rewriteImportExtensions } from "../generator/emit/imports.js";
import { scratchDir, SPEC_DIR, writeGenerated } from "./support/corpus.js";
import { PINNED_NODES } from "./support/node-versions.js";
import { readmeUsageExample } from "./support/readme.js";

/** Writes draft output with `importExtension` and the example beside it; returns the folder. */
async function project(name: string, importExtension: "js" | "ts"): Promise<string> {
  const dir = scratchDir(name);
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
  const { files } = await generate({ schema: { specDir: SPEC_DIR, version: "draft" }, docs: "none", importExtension });
  writeGenerated(join(name, "generated"), files);
  const example = readmeUsageExample();
  writeFileSync(join(dir, "example.ts"), importExtension === "ts" ? example.replaceAll('/index.js"', '/index.ts"') : example);
  return dir;
}

describe("rewriteImportExtensions", () => {
  const source = 'import type * as T from "./types.js";\nexport * from "./meta.js";\nimport x from "node:fs";\nconst s = "./not-an-import.js";\ntype U = import("./types.js").A;\n';
  it("rewrites relative specifiers only, from one place", () => {
    expect(rewriteImportExtensions(source, "js")).toBe(source);
    expect(rewriteImportExtensions(source, "ts")).toBe(
      'import type * as T from "./types.ts";\nexport * from "./meta.ts";\nimport x from "node:fs";\nconst s = "./not-an-import.js";\ntype U = import("./types.ts").A;\n',
    );
    expect(rewriteImportExtensions(source, "none")).toBe(
      'import type * as T from "./types";\nexport * from "./meta";\nimport x from "node:fs";\nconst s = "./not-an-import.js";\ntype U = import("./types").A;\n',
    );
  });

  it("leaves no ./x.js specifier in any generated file under ts", async () => {
    const { files } = await generate({ schema: { specDir: SPEC_DIR, version: "draft" }, docs: "none", importExtension: "ts" });
    const specifiers = files.flatMap((f) => [...f.contents.matchAll(/from "(\.[^"]*)"/g)].map((m) => m[1]));
    expect(specifiers.length).toBeGreaterThan(10);
    expect(specifiers.filter((s) => !s!.endsWith(".ts"))).toEqual([]);
  });
});

describe("--enum-style ts-enum with --import-extension ts", () => {
  it("generates with warning MCG258 (Node's type stripping refuses enums), once for several revisions, and none without errors.ts (helper-90)", async () => {
    const single = await generate({ schema: { specDir: SPEC_DIR, version: "draft" }, docs: "none", importExtension: "ts", enumStyle: "ts-enum" });
    expect(single.warnings.map((w) => w.code)).toEqual(["MCG258"]);
    const two = await generate({ schema: [{ specDir: SPEC_DIR, version: "draft" }, { specDir: SPEC_DIR, version: "2025-11-25" }], docs: "none", importExtension: "ts", enumStyle: "ts-enum" });
    expect(two.warnings.filter((w) => w.code === "MCG258").length).toBe(1);
    const typesOnly = await generate({ schema: { specDir: SPEC_DIR, version: "draft" }, docs: "none", importExtension: "ts", enumStyle: "ts-enum", targets: ["types"] });
    expect(typesOnly.warnings).toEqual([]);
    const asConst = await generate({ schema: { specDir: SPEC_DIR, version: "draft" }, docs: "none", importExtension: "ts" });
    expect(asConst.warnings).toEqual([]);
    // What the warning says: the pinned Node 24 refuses the enum under type stripping.
    const dir = scratchDir("strip-enum");
    writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
    writeGenerated(join("strip-enum", "generated"), single.files);
    const run = spawnSync(PINNED_NODES["24"]!, ["--no-warnings", "-e", 'await import("./generated/errors.ts")'], { cwd: dir, encoding: "utf8", input: "" });
    expect(run.stderr).toContain("ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX");
  });
});

let tsDir: string;
let jsDir: string;
beforeAll(async () => {
  tsDir = await project("strip-ts", "ts");
  jsDir = await project("strip-js", "js");
});

for (const [major, node] of Object.entries(PINNED_NODES)) {
  describe(`Node ${major} with type stripping`, () => {
    it("runs the README's usage example on --import-extension ts output", () => {
      const run = spawnSync(node, ["--experimental-strip-types", "--no-warnings", "example.ts"], { cwd: tsDir, encoding: "utf8" });
      expect(run.stderr).toBe("");
      expect(run.status).toBe(0);
      const lines = run.stdout.trim().split("\n");
      expect(lines[0]).toBe("2026-07-28");
      expect(JSON.parse(lines[1]!)).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32602, message: "city is required" } });
      expect(JSON.parse(lines[2]!).result.tools).toEqual([{ name: "forecast", inputSchema: { type: "object" } }]);
    });

    it("cannot run the default (./x.js) output that way", () => {
      const run = spawnSync(node, ["--experimental-strip-types", "--no-warnings", "example.ts"], { cwd: jsDir, encoding: "utf8" });
      expect(run.status).not.toBe(0);
      expect(run.stderr).toContain("ERR_MODULE_NOT_FOUND");
    });
  });
}
