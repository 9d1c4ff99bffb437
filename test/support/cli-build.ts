/**
 * A private build of the CLI for tests that spawn it: compiled from the sources into
 * `test/.tmp/<name>`, with its own copy of `templates/` (found first, beside it), so the test
 * runs the code of this tree whether or not `dist/` is current, and edits or builds elsewhere
 * cannot change it under the test. A test that needs a few modules in another process (run as
 * another user) and no CLI takes {@link transpilePrivate}, which costs a fraction of the time.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { transformSync } from "rolldown/utils";
import { ts } from "ts-morph";
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

/**
 * `entry` (a `.ts` file of this repository) and every module it loads (imports that are not
 * `import type`), directly or not, with their types stripped one file at a time by rolldown's
 * transform (no type check: `tsc` checks the sources in `npm test`), into `test/.tmp/<name>` at
 * the same relative paths; packages are found in the repository's `node_modules` above.
 * Returns the path of the entry's `.js`.
 */
export function transpilePrivate(name: string, entry: string): string {
  const out = join(ROOT, "test", ".tmp", name);
  rmSync(out, { recursive: true, force: true });
  const pending = [resolve(entry)];
  const done = new Set<string>();
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (done.has(file)) continue;
    done.add(file);
    const source = readFileSync(file, "utf8");
    for (const statement of ts.createSourceFile(file, source, ts.ScriptTarget.Latest).statements) {
      if (!(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) || !statement.moduleSpecifier || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
      // `import type` and `export type … from` leave nothing to load.
      if (ts.isImportDeclaration(statement) ? statement.importClause?.isTypeOnly : statement.isTypeOnly) continue;
      const specifier = statement.moduleSpecifier.text;
      if (specifier.startsWith(".")) pending.push(resolve(dirname(file), specifier.replace(/\.js$/, ".ts")));
    }
    // rolldown's (oxc's) transform: milliseconds a file, where TypeScript's transpileModule takes a tenth of a second.
    const transformed = transformSync(file, source, { lang: "ts", target: "es2022" });
    if (transformed.errors.length > 0) throw new Error(`cannot strip the types of ${file}: ${transformed.errors.map((e) => e.message).join("; ")}`);
    const js = transformed.code;
    const target = join(out, relative(ROOT, file)).replace(/\.ts$/, ".js");
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, js);
  }
  return join(out, relative(ROOT, resolve(entry))).replace(/\.ts$/, ".js");
}
