/**
 * The package as users get it: `npm pack` (which runs `prepare`, the build), the tarball's
 * file list (what runs, nothing from test/ or the bench), then an install of the tarball into
 * a scratch project (dependencies from npm's cache when it has them) and, from there, the CLI
 * through `npx` (generate, generate --check from a config file, scaffold), the library API,
 * and the installed CLI under the pinned Node 22 and 24 (same bytes as under this Node).
 *
 * Part of the CI suite (`npm run test:ci`, run by `.ci/run`), not of `npm test`.
 */
import { spawnSync, type SpawnSyncOptions } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT, scratchDir, SPEC_DIR } from "../support/corpus.js";
import { PINNED_NODES } from "../support/node-versions.js";

const DRAFT = join(SPEC_DIR, "schema", "draft", "schema.ts");

function run(command: string, args: readonly string[], options: SpawnSyncOptions & { cwd: string }) {
  const result = spawnSync(command, [...args], { encoding: "utf8", ...options });
  return { status: result.status, stdout: String(result.stdout), stderr: String(result.stderr) };
}

let tarball: string;
let contents: string[];
let project: string;

beforeAll(() => {
  const packDir = scratchDir("pack");
  const pack = run("npm", ["pack", "--json", "--pack-destination", packDir], { cwd: ROOT });
  expect(pack.status, pack.stderr).toBe(0);
  // `npm pack --json` prints the prepare script's output first, then the JSON array.
  const json = JSON.parse(pack.stdout.slice(pack.stdout.lastIndexOf("\n[") + 1)) as { filename: string; files: { path: string }[] }[];
  tarball = join(packDir, json[0]!.filename);
  contents = json[0]!.files.map((f) => f.path).sort();
  project = scratchDir("pack-install");
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "scratch", version: "1.0.0", private: true, type: "module" }, null, 2));
  const install = run("npm", ["install", tarball, "--prefer-offline", "--no-audit", "--no-fund"], { cwd: project });
  expect(install.status, install.stderr).toBe(0);
}, 600_000);

describe("the packed tarball", () => {
  it("ships exactly what runs: the built bin and generator, the runtime modules, the templates, README, LICENSE and package.json", () => {
    const outside = contents.filter((p) => !/^(dist\/bin\/|dist\/generator\/|runtime\/[a-z-]+\.ts$|templates\/|README\.md$|LICENSE$|package\.json$)/.test(p));
    expect(outside).toEqual([]);
    expect(contents).toContain("LICENSE");
    expect(contents).toContain("dist/bin/mcp-schema-codegen.js");
    expect(contents).toContain("dist/generator/index.js");
    expect(contents).toContain("dist/generator/index.d.ts");
    expect(contents).toContain("runtime/validation.ts");
    expect(contents).toContain("runtime/dispatcher.ts");
    expect(contents.filter((p) => p.startsWith("runtime/") && !p.endsWith(".ts"))).toEqual([]);
    expect(contents.filter((p) => p.includes("test/support") || p.includes("bench"))).toEqual([]);
  });

  it("installed: npx mcp-schema-codegen generate writes the output", () => {
    const out = run("npx", ["--no", "mcp-schema-codegen", "generate", "--schema", DRAFT, "--out", "gen", "--docs", "none"], { cwd: project });
    expect(out.stderr).toBe("");
    expect(out.status).toBe(0);
    expect(readdirSync(join(project, "gen")).sort()).toEqual(["codegen-manifest.json", "dispatch.ts", "errors.ts", "index.ts", "meta.ts", "methods.ts", "runtime", "types.ts", "validators.ts"]);
    expect(readdirSync(join(project, "gen", "runtime")).sort()).toEqual(["dispatcher.ts", "errors.ts", "json.ts", "meta.ts", "methods.ts", "tool-arguments.ts"]);
  });

  it("installed: generate and generate --check read mcp-schema-codegen.config.json, no flags", () => {
    writeFileSync(
      join(project, "mcp-schema-codegen.config.json"),
      JSON.stringify({ outputs: [{ input: { spec: "${SPEC:-none}", version: "draft" }, out: "from-config", options: { docs: "tags" } }] }),
    );
    const env = { ...process.env, SPEC: SPEC_DIR };
    expect(run("npx", ["--no", "mcp-schema-codegen", "generate"], { cwd: project, env }).status).toBe(0);
    const check = run("npx", ["--no", "mcp-schema-codegen", "generate", "--check"], { cwd: project, env });
    expect(check.stdout).toBe("from-config: 13 files up to date\n");
    expect(check.status).toBe(0);
  });

  it("installed: npx mcp-schema-codegen scaffold writes a project", () => {
    const out = run("npx", ["--no", "mcp-schema-codegen", "scaffold", "srv", "--schema", DRAFT], { cwd: project });
    expect(out.stderr).toBe("");
    expect(out.status).toBe(0);
    // Dual-era by default: the legacy schemas beside the draft one are found from the installed package too.
    expect(out.stdout).toContain("srv: 65 files written (package srv)");
    for (const version of ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]) expect(existsSync(join(project, "srv", "src", "generated", version, "revision.ts"))).toBe(true);
    // The renamed templates are in the package under names npm keeps.
    expect(readFileSync(join(project, "srv", ".prettierignore"), "utf8")).toBe("src/generated/\n");
  });

  it("installed: the library API generates in memory", () => {
    const script = `import { generate, GENERATOR_VERSION } from "mcp-schema-codegen";
const { files } = await generate({ schema: { path: ${JSON.stringify(DRAFT)} }, targets: ["errors"] });
console.log(GENERATOR_VERSION, files.map((f) => f.path).join(","));`;
    const out = run(process.execPath, ["--input-type=module", "-e", script], { cwd: project });
    expect(out.stderr).toBe("");
    const version = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
    expect(out.stdout).toBe(`${version} types.ts,errors.ts,runtime/errors.ts\n`);
  });

  for (const [major, node] of Object.entries(PINNED_NODES)) {
    it(`installed: the CLI under Node ${major} generates the same bytes`, () => {
      const cli = join(project, "node_modules", "mcp-schema-codegen", "dist", "bin", "mcp-schema-codegen.js");
      const version = run(node, ["--version"], { cwd: project });
      expect(version.stdout).toMatch(new RegExp(`^v${major}\\.`));
      const out = run(node, [cli, "generate", "--schema", DRAFT, "--out", `gen-${major}`, "--docs", "none"], { cwd: project });
      expect(out.stderr).toBe("");
      expect(out.status).toBe(0);
      const files = (readdirSync(join(project, "gen"), { recursive: true }) as string[]).filter((f) => /\.(ts|json)$/.test(f));
      expect(files.length).toBeGreaterThanOrEqual(14);
      for (const file of files) {
        expect(readFileSync(join(project, `gen-${major}`, file), "utf8") === readFileSync(join(project, "gen", file), "utf8"), file).toBe(true);
      }
    });
  }
});
