/**
 * `scaffold`: a runnable MCP server project around the generated code.
 *
 * The project holds `package.json` (build, start, start:http, test), `tsconfig.json`, a
 * README, the generated modules under `src/generated/`, `src/handlers.ts` (one stub per
 * client→server method, or an example's handlers), `src/server.ts`, the stdio and Streamable
 * HTTP transports (`src/stdio.ts`, `src/http.ts`), `src/main.ts`, and tests that start the
 * server over both transports and talk to it.
 *
 * The transports speak the stateless revisions (2026-07-28 and later: per-request `_meta`,
 * `server/discover`); a schema of an earlier revision is refused (MCG411).
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fail, GeneratorError } from "../errors.js";
import { generate, type GeneratedFile, type GenerateOptions } from "../index.js";
import { objectLiteralKey } from "../emit/names.js";
import { isStateless } from "../emit/dispatch.js";
import { readTemplate, renderTemplate } from "../emit/templates.js";
import { writeFileAtomic } from "../write.js";

/** Examples `--example` can put in place of the handler stubs. */
export const SCAFFOLD_EXAMPLES = ["conformance"] as const;
export type ScaffoldExample = (typeof SCAFFOLD_EXAMPLES)[number];

/** Input of {@link scaffoldFiles}. */
export interface ScaffoldOptions extends GenerateOptions {
  /** The npm package name (lowercase, URL-safe). */
  readonly name: string;
  /** Handlers of an example instead of the stubs. */
  readonly example?: ScaffoldExample;
}

/** Files copied as they are (path in the project ← path under `templates/scaffold/`). */
const STATIC_FILES = ["tsconfig.json", "src/stdio.ts", "src/http.ts", "src/main.ts", "test/server.test.ts"];
/** Files npm would leave out of the package under their own name: project path ← template name. */
const RENAMED_FILES: readonly (readonly [string, string])[] = [[".gitignore", "gitignore"]];
/** Methods the dispatcher answers by itself, unless a handler is given. */
const BUILTIN_RESULTS = ["DiscoverResult", "InitializeResult"];
const BUILTIN_METHODS = ["ping", "subscriptions/listen"];

/** npm's rules for a package name, without a scope. */
const PACKAGE_NAME = /^[a-z0-9][a-z0-9._-]{0,213}$/;

/** A package name from a folder name: `My Server` → `my-server`. */
export function packageNameFor(dir: string): string {
  const name = basename(resolve(dir))
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[._-]+|-+$/g, "");
  return PACKAGE_NAME.test(name) ? name : "mcp-server";
}

/**
 * Every file of a scaffolded project, paths relative to the project folder.
 *
 * @throws GeneratorError MCG412 for a bad package name, MCG411 for a schema whose revision the
 *   transports do not speak, and whatever {@link generate} throws for the schema
 */
export async function scaffoldFiles(options: ScaffoldOptions): Promise<GeneratedFile[]> {
  if (!PACKAGE_NAME.test(options.name)) {
    throw fail("MCG412", `--name ${JSON.stringify(options.name)} is not an npm package name: lowercase letters, digits, ".", "_" and "-", starting with a letter or digit`);
  }
  const { example, name, targets: _targets, ...generateOptions } = options;
  const result = await generate(generateOptions);
  const facts = result.protocol;
  if (!isStateless(facts)) {
    throw fail(
      "MCG411",
      `scaffold needs a schema of a stateless protocol revision (per-request _meta with io.modelcontextprotocol/protocolVersion, 2026-07-28 or later); this schema is ${facts.protocolVersion}. Use generate for it.`,
    );
  }
  const version = facts.protocolVersion;
  const requests = facts.methods.filter((m) => m.kind === "request" && (m.direction === "client-to-server" || m.direction === "both"));
  const builtin = (m: (typeof requests)[number]) => BUILTIN_METHODS.includes(m.method) || m.results.some((r) => BUILTIN_RESULTS.includes(r));
  const view = {
    nameJson: JSON.stringify(name),
    name,
    version,
    builtins: requests.filter(builtin).map((m) => m.method).join(", ") || "none",
    stubs: requests
      .filter((m) => !builtin(m))
      .map((m) => ({
        method: JSON.stringify(m.method),
        methodKey: objectLiteralKey(m.method),
        messageType: m.messageType,
        resultTypes: m.results.join(" | ") || "unknown",
      })),
    example: example ?? "",
  };
  const files: GeneratedFile[] = [
    { path: "package.json", contents: renderTemplate("scaffold/package.json.hbs", view) },
    { path: "README.md", contents: renderTemplate("scaffold/README.md.hbs", view) },
    { path: "src/server.ts", contents: renderTemplate("scaffold/src/server.ts.hbs", view) },
    {
      path: "src/handlers.ts",
      contents: example === undefined ? renderTemplate("scaffold/src/handlers.ts.hbs", view) : readTemplate(`scaffold/examples/${example}/handlers.ts`),
    },
    ...STATIC_FILES.map((path) => ({ path, contents: readTemplate(`scaffold/${path}`) })),
    ...RENAMED_FILES.map(([path, template]) => ({ path, contents: readTemplate(`scaffold/${template}`) })),
    ...result.files.map((f) => ({ path: `src/generated/${f.path}`, contents: f.contents })),
  ];
  return files.map((f) => (f.contents.endsWith("\n") ? f : { path: f.path, contents: f.contents + "\n" }));
}

/** Whether a folder is missing or empty. */
function isEmptyFolder(dir: string): boolean {
  if (!existsSync(dir)) return true;
  if (!statSync(dir).isDirectory()) throw fail("MCG410", `${dir} exists and is not a folder`);
  return readdirSync(dir).length === 0;
}

/**
 * Writes a scaffolded project into `dir`. A missing or empty folder is filled all at once
 * (built beside it, then renamed into place). A folder with files in it is refused unless
 * `force`; then each file is replaced atomically and other files are kept.
 *
 * @returns the files that were there before with other contents, and are now replaced (only with `force`)
 * @throws GeneratorError MCG410 when `dir` is not empty and `force` is not set, or is a file
 */
export function writeScaffold(dir: string, files: readonly GeneratedFile[], force: boolean): string[] {
  const target = resolve(dir);
  if (existsSync(target) && lstatSync(target).isSymbolicLink()) throw fail("MCG410", `${dir} is a symbolic link; give a real folder`);
  if (!isEmptyFolder(target)) {
    if (!force) throw fail("MCG410", `${dir} is not empty; choose an empty folder, or pass --force to overwrite the scaffold's files in it`);
    const replaced: string[] = [];
    for (const file of files) {
      const path = join(target, file.path);
      if (existsSync(path) && readFileSync(path, "utf8") !== file.contents) replaced.push(file.path);
      mkdirSync(dirname(path), { recursive: true });
      writeFileAtomic(path, file.contents);
    }
    return replaced;
  }
  const tmp = `${target}.scaffold-${process.pid}`;
  try {
    rmSync(tmp, { recursive: true, force: true });
    for (const file of files) {
      const path = join(tmp, file.path);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, file.contents);
    }
    mkdirSync(dirname(target), { recursive: true });
    if (existsSync(target)) rmdirSync(target);
    renameSync(tmp, target);
    return [];
  } catch (error) {
    rmSync(tmp, { recursive: true, force: true });
    if (error instanceof GeneratorError) throw error;
    throw fail("MCG403", `cannot write ${dir}: ${(error as Error).message}`);
  }
}
