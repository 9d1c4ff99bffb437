/**
 * A private build of the CLI for tests that spawn it: compiled from the sources into
 * `test/.tmp/<name>`, with its own copy of `templates/` (found first, beside it), so the test
 * runs the code of this tree whether or not `dist/` is current, and edits or builds elsewhere
 * cannot change it under the test.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./corpus.js";

/** Builds the CLI into `test/.tmp/<name>` and returns the path of its entry script. */
export function buildPrivateCli(name: string): string {
  const dir = join(ROOT, "test", ".tmp", name);
  const cli = join(dir, "bin", "mcp-schema-codegen.js");
  rmSync(dir, { recursive: true, force: true });
  const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
  const build = spawnSync(process.execPath, [tsc, "-p", join(ROOT, "tsconfig.json"), "--outDir", dir], { encoding: "utf8" });
  if (!existsSync(cli)) throw new Error(`building the CLI into ${dir} failed: ${build.stdout}${build.stderr}`);
  cpSync(join(ROOT, "templates"), join(dir, "templates"), { recursive: true });
  return cli;
}
