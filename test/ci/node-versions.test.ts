/**
 * A scaffolded project under the pinned Node 22 and 24 (besides the machine's Node, which
 * `npm test` covers): its own `npm test` (build, then its stdio and HTTP tests), and the
 * `--example conformance` server, served and tested by the official conformance suite
 * running on that Node too (no `fs.globSync` shim: Node 22 has it).
 *
 * Part of the CI suite (`npm run test:ci`, run by `.ci/run`), not of `npm test`.
 */
import { spawnSync } from "node:child_process";
import { symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cli } from "../support/cli.js";
import { conformanceLine, runConformance } from "../support/conformance.js";
import { ROOT, scratchDir, SPEC_DIR } from "../support/corpus.js";
import { PINNED_NODES } from "../support/node-versions.js";

const SPEC = ["--spec", SPEC_DIR, "--spec-version", "draft"];

/**
 * The environment that puts `node` (the binary) first on PATH, for npm and every script it
 * runs. The `npm_*` and `NODE` variables of the npm that started vitest are left out: with
 * them, a nested npm runs its scripts on that npm's Node, whatever PATH says.
 */
function withNode(node: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) && key !== "NODE"));
  return { ...env, PATH: `${dirname(node)}:${process.env.PATH ?? ""}` };
}

let project: string;
let fixture: string;

beforeAll(async () => {
  project = join(scratchDir("nodes-scaffold"), "server");
  expect((await cli("scaffold", project, ...SPEC, "--docs", "tags")).code).toBe(0);
  const install = spawnSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund"], { cwd: project, encoding: "utf8" });
  expect(install.status, install.stderr).toBe(0);

  fixture = join(scratchDir("nodes-conformance"), "fixture");
  expect((await cli("scaffold", fixture, ...SPEC, "--example", "conformance", "--docs", "tags")).code).toBe(0);
  symlinkSync(join(ROOT, "node_modules"), join(fixture, "node_modules"), "dir");
  const tsc = spawnSync(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", join(fixture, "tsconfig.json")], { encoding: "utf8" });
  expect(tsc.stdout + tsc.stderr).toBe("");
}, 600_000);

for (const [major, node] of Object.entries(PINNED_NODES)) {
  describe(`Node ${major}`, () => {
    it("a scaffolded project passes its own npm test (stdio and HTTP)", { timeout: 300_000 }, () => {
      const test = spawnSync("npm", ["test"], { cwd: project, encoding: "utf8", env: withNode(node) });
      expect(test.status, test.stdout + test.stderr).toBe(0);
      expect(test.stdout).toMatch(/^(# |ℹ )pass 13$/m);
      expect(test.stdout).toMatch(/^(# |ℹ )fail 0$/m);
      // npm, and the scripts it runs, find that Node first on PATH.
      const version = spawnSync("npm", ["exec", "--", "node", "--version"], { cwd: project, encoding: "utf8", env: withNode(node) });
      expect(version.stdout).toMatch(new RegExp(`^v${major}\\.`));
    });

    it("the conformance server passes every scored scenario of both requirement sets (one process), suite and server on this Node", { timeout: 600_000 }, async () => {
      const runs = await runConformance(node, [], join(fixture, "dist", "src", "main.js"), join(fixture, `results-${major}`), ["2025-11-25", "2026-07-28"]);
      for (const [set, scored] of [["2025-11-25", 30], ["2026-07-28", 37]] as const) {
        const run = runs[set];
        if (run === undefined) throw new Error(`no ${set} run`);
        console.log(conformanceLine(`Node ${major}: conformance ${set}`, run));
        expect.soft(run.summary.failures, set).toEqual([]);
        expect.soft(run.summary.scored.length, set).toBe(scored);
        expect.soft(run.summary.scored.filter((s) => !s.ok).map((s) => s.name), set).toEqual([]);
        expect.soft(run.exitCode, set).toBe(0);
      }
    });
  });
}
