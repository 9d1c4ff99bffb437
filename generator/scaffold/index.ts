/**
 * `scaffold`: a runnable MCP server project around the generated code.
 *
 * The project holds `package.json` (build, start, start:http, test), `tsconfig.json`, a
 * README, the generated modules under `src/generated/`, `src/handlers.ts` (a small working
 * example: two tools, one of them asking for input, a resource, a prompt, completions; or the
 * handlers of `--example`), `src/server.ts`, the stdio and Streamable
 * HTTP transports (`src/generated/runtime/stdio.ts`, `src/generated/runtime/http.ts`, copied from
 * the runtime), `src/main.ts`, and tests that start the
 * server over both transports and talk to it.
 *
 * The handlers are written against a stateless revision (2026-07-28 and later: per-request
 * `_meta`, `server/discover`); a schema of an earlier revision alone is refused (MCG411). By
 * default the project is dual-era: the CLI adds the {@link LEGACY_SPEC_VERSION} schema (and the
 * {@link OLDER_LEGACY_SPEC_VERSIONS} found beside it), and the
 * generated code serves both (one folder per revision under `src/generated/`). The project's
 * `mcp-schema-codegen.config.json` names the schemas and options, so `generate` run in the
 * project regenerates `src/generated/` as the scaffold wrote it, eras included; schemas read
 * through the spec lock (`--spec-version` alone) are named as versions of the revision a copy of
 * the lock (`mcp-spec.lock.json`) pins.
 */
import { accessSync, constants, copyFileSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { fail, GeneratorError } from "../errors.js";
import { manifestFile } from "../diff/manifest.js";
import { generate, GENERATOR_VERSION, type GeneratedFile, type GenerateOptions } from "../index.js";
import { builtinRequests, clientRequests, isStateless } from "../emit/dispatch.js";
import { readTemplate, renderTemplate } from "../emit/templates.js";
import { CONFIG_FILE_NAME } from "../config.js";
import { LOCK_FILE_NAME } from "../spec/index.js";
import type { SchemaInput } from "../load/index.js";
import type { SchemaIR } from "../ir.js";
import type { ProtocolFacts } from "../analyze/protocol.js";
import { ts } from "../ts-morph.js";
import { holdSignals, isAlive, isInside, writeFileAtomic, writeOutput } from "../write.js";

/**
 * The latest legacy revision (draft basic/versioning: revisions up to 2025-11-25 open with
 * `initialize`): a dual-era scaffold serves it beside the modern one.
 */
export const LEGACY_SPEC_VERSION = "2025-11-25";

/**
 * The earlier legacy revisions a dual-era scaffold also serves when their schemas are beside the
 * modern one, newest first: a client negotiates its own version only when the server serves it,
 * and clients of the SDK before 1.25 (2025-06-18 and older) refuse a server answering 2025-11-25.
 */
export const OLDER_LEGACY_SPEC_VERSIONS: readonly string[] = ["2025-06-18", "2025-03-26", "2024-11-05"];

/** Examples `--example` can put in place of the default example handlers. */
export const SCAFFOLD_EXAMPLES = ["conformance"] as const;
export type ScaffoldExample = (typeof SCAFFOLD_EXAMPLES)[number];

/** Input of {@link scaffoldFiles}. */
export interface ScaffoldOptions extends GenerateOptions {
  /** The npm package name (lowercase, URL-safe). */
  readonly name: string;
  /** Handlers of an example instead of the default example. */
  readonly example?: ScaffoldExample;
  /**
   * The text of the spec lock file the inputs were read through (`--spec-version` alone; every
   * input is then a version of its first pin): the project gets a copy as `mcp-spec.lock.json`,
   * and its configuration names the versions (`{ "version": "draft" }`) instead of the cache's
   * folder, so that `generate` in the project reads the same revision on any machine.
   */
  readonly specLock?: string;
  /**
   * The project's folder (where its configuration file goes): a schema file or spec folder inside it
   * (a vendored `schema.ts`) is named relative to it, as the configuration reads paths, so the
   * project can move or be cloned. Without it, or outside it, a path is absolute.
   */
  readonly projectDir?: string;
}

/** Files copied as they are (path in the project ← path under `templates/scaffold/`). */
const STATIC_FILES = ["tsconfig.json", "src/main.ts", "src/server.ts", "test/server.test.ts", "test/client.ts"];
/**
 * Files npm would leave out of the package under their own name: project path ← template name.
 * `.prettierignore` keeps Prettier off `src/generated/`, which `generate --check` compares byte for byte.
 * `.gitattributes` keeps git's line end conversion off it, for the same reason.
 */
const RENAMED_FILES: readonly (readonly [string, string])[] = [
  [".gitattributes", "gitattributes"],
  [".gitignore", "gitignore"],
  [".prettierignore", "prettierignore"],
];

/** npm's rules for a package name (at most 214 characters in all), with an optional scope: `my-server`, `@acme/my-server`. */
const PACKAGE_NAME = /^(?:@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/;
const PACKAGE_NAME_LENGTH = 214;

/**
 * A package name from a folder name: `My Server` → `my-server`, `q` → `q`; cut to npm's 214
 * characters; `mcp-server` when nothing is left (`___`) or npm refuses the name (`http`).
 */
export function packageNameFor(dir: string): string {
  const name = basename(resolve(dir))
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[._-]+/, "")
    .slice(0, PACKAGE_NAME_LENGTH)
    .replace(/-+$/, "");
  return PACKAGE_NAME.test(name) && !RESERVED_NAMES.has(name) ? name : "mcp-server";
}

/** Whether `name` is a package name a scaffold takes (npm's rules, {@link RESERVED_NAMES} aside). */
export function isPackageName(name: string): boolean {
  return PACKAGE_NAME.test(name) && name.length <= PACKAGE_NAME_LENGTH && !RESERVED_NAMES.has(name);
}

/** Names npm refuses for new packages: Node's core modules, and two it blacklists. */
const RESERVED_NAMES: ReadonlySet<string> = new Set([...builtinModules.filter((m) => !m.includes(":")), "node_modules", "favicon.ico"]);

/**
 * Every file of a scaffolded project, paths relative to the project folder.
 *
 * @throws GeneratorError MCG412 for a bad package name, MCG411 for a schema whose revision the
 *   transports do not speak, and whatever {@link generate} throws for the schema
 */
export async function scaffoldFiles(options: ScaffoldOptions): Promise<GeneratedFile[]> {
  if (!PACKAGE_NAME.test(options.name) || options.name.length > PACKAGE_NAME_LENGTH) {
    throw fail(
      "MCG412",
      `--name ${JSON.stringify(options.name)} is not an npm package name: lowercase letters, digits, ".", "_" and "-", starting with a letter or digit, at most ${PACKAGE_NAME_LENGTH} characters, with an optional @scope/ in front`,
    );
  }
  if (RESERVED_NAMES.has(options.name)) {
    throw fail("MCG412", `--name ${JSON.stringify(options.name)} is a name npm refuses (a Node.js core module, node_modules or favicon.ico)`);
  }
  const { example, name, specLock, projectDir, targets: _targets, ...generateOptions } = options;
  // Before the schemas are read: a path the configuration cannot name is refused with nothing done.
  const config = configFile(generateOptions.schema, generateOptions.docs, specLock !== undefined, projectDir);
  // The runtime's transports are written into src/generated/runtime/ beside the dispatcher core they import.
  const result = await generate({ ...generateOptions, transports: "node" });
  const facts = result.protocol;
  requireStateless(facts, result.ir);
  const version = facts.protocolVersion;
  const revisions = result.revisions ?? [];
  // With the manifest `generate` writes beside them, so `generate --check` finds a fresh project up to date.
  const generated = [...result.files, manifestFile(result, GENERATOR_VERSION)];
  const requests = clientRequests(facts);
  const builtins = new Set(Object.values(builtinRequests(facts)).map((m) => m.method));
  const builtin = (m: (typeof requests)[number]) => builtins.has(m.method);
  const view = {
    nameJson: JSON.stringify(name),
    name,
    version,
    builtins: requests.filter(builtin).map((m) => m.method).join(", ") || "none",
    example: example ?? "",
    locked: specLock !== undefined,
    // The flags that regenerate src/generated/ as it was written (the header of each file names them all).
    regenerateFlags: ["--transports node", ...(generateOptions.docs !== undefined && generateOptions.docs !== "full" ? [`--docs ${generateOptions.docs}`] : [])].join(" "),
    dualEra: revisions.length > 1,
    versions: revisions.map((r) => r.protocol.protocolVersion).join(", ") || version,
    legacyVersions: revisions.slice(1).map((r) => r.protocol.protocolVersion).join(", "),
    legacyVersion: revisions[1]?.protocol.protocolVersion ?? "",
    legacyBuiltins: [...new Set(revisions.slice(1).flatMap((r) => Object.values(builtinRequests(r.protocol)).map((m) => m.method)))].join(", "),
    // The README's example request, its `_meta` holding every key the revision requires of a request.
    discoverRequest: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: exampleRequestMeta(facts) } }),
    // Where the handler revision's modules are (src/generated/types.ts also re-exports them in a dual-era project).
    modules: revisions.length > 1 ? `src/generated/${revisions[0]!.folder}/` : "src/generated/",
  };
  const files: GeneratedFile[] = [
    { path: "package.json", contents: renderTemplate("scaffold/package.json.hbs", view) },
    { path: "README.md", contents: renderTemplate("scaffold/README.md.hbs", view) },
    { path: "src/server-info.ts", contents: renderTemplate("scaffold/src/server-info.ts.hbs", view) },
    {
      path: "src/handlers.ts",
      contents: example === undefined ? renderTemplate("scaffold/src/handlers.ts.hbs", view) : readTemplate(`scaffold/examples/${example}/handlers.ts`),
    },
    // The handlers' own tests come with them: the default example's, or the chosen example's.
    { path: "test/example.test.ts", contents: readTemplate(example === undefined ? "scaffold/test/example.test.ts" : `scaffold/examples/${example}/example.test.ts`) },
    ...STATIC_FILES.map((path) => ({ path, contents: readTemplate(`scaffold/${path}`) })),
    ...RENAMED_FILES.map(([path, template]) => ({ path, contents: readTemplate(`scaffold/${template}`) })),
    ...(config !== undefined ? [{ path: CONFIG_FILE_NAME, contents: config }] : []),
    ...(specLock !== undefined ? [{ path: LOCK_FILE_NAME, contents: specLock }] : []),
    ...generated.map((f) => ({ path: `src/generated/${f.path}`, contents: f.contents })),
  ];
  return files.map((f) => (f.contents.endsWith("\n") ? f : { path: f.path, contents: f.contents + "\n" }));
}

/**
 * A request `_meta` holding each key `facts` says a request must carry, as a shell client would
 * send it: the revision's protocol version, an `…/clientInfo` naming the shell, and `{}` for
 * another (no capabilities).
 */
function exampleRequestMeta(facts: ProtocolFacts): { [key: string]: unknown } {
  const required = (facts.requestMeta?.properties ?? []).filter((p) => !p.optional).map((p) => p.name);
  const valueOf = (key: string) => (key.endsWith("/protocolVersion") ? facts.protocolVersion : key.endsWith("/clientInfo") ? { name: "sh", version: "1" } : {});
  return Object.fromEntries(required.map((key) => [key, valueOf(key)]));
}

/**
 * Refuses a schema whose revision the scaffold's handlers and transports do not speak: one
 * before the stateless revision (2026-07-28), whose requests carry no required
 * `io.modelcontextprotocol/protocolVersion` in `_meta`.
 *
 * @throws GeneratorError MCG411 saying which revision the schema is, or that it declares none
 */
export function requireStateless(facts: ProtocolFacts, ir: SchemaIR): void {
  if (isStateless(facts)) return;
  const declared = ir.declarations.some((d) => d.name === "LATEST_PROTOCOL_VERSION");
  throw fail(
    "MCG411",
    `scaffold needs a schema of a stateless protocol revision (2026-07-28 or later), whose requests carry io.modelcontextprotocol/protocolVersion in _meta; ` +
      `this schema ${declared ? `is ${facts.protocolVersion}` : "declares no LATEST_PROTOCOL_VERSION"}, and its request _meta has no required io.modelcontextprotocol/protocolVersion. Use generate for it.`,
  );
}

/** `path` with the links of its longest existing part resolved (a project folder may not exist yet). */
function realPathOf(path: string): string {
  const rest: string[] = [];
  for (let head = path; ; ) {
    try {
      return join(realpathSync(head), ...rest);
    } catch {
      const parent = dirname(head);
      if (parent === head) return path;
      rest.unshift(basename(head));
      head = parent;
    }
  }
}

/**
 * The project's configuration file: `src/generated/` from the scaffold's schemas with its
 * options, so that `generate` in the project regenerates it as written (both eras, or one).
 * `locked`: the inputs are versions of the revision the project's `mcp-spec.lock.json` pins,
 * written as `{ "version": … }`. Otherwise a path inside `projectDir` is relative to it (the
 * configuration file's folder, from which the configuration reads paths), so that it moves with the
 * project (helper-114: a vendored schema was named by its absolute path, and `generate --check` in a
 * clone failed); a path outside is absolute (the project may move; the spec checkout stays where it
 * is; edit it, or write `${NAME:-default}`, to use another); `undefined` for a schema given as
 * text, which has no path to name.
 */
function configFile(schema: SchemaInput | readonly SchemaInput[], docs: string | undefined, locked: boolean, projectDir: string | undefined): string | undefined {
  const inputs: readonly SchemaInput[] = Array.isArray(schema) ? schema : [schema as SchemaInput];
  const named = (path: string): string => {
    const absolute = resolve(path);
    if (projectDir === undefined) return absolute;
    // Given inside the project as written: named so, a link inside the project included (a `spec` link to a checkout
    // elsewhere is read through the project's link wherever the project is; its absolute path went with the old place).
    const given = resolve(projectDir);
    if (absolute === given) return ".";
    if (isInside(absolute, given)) return relative(given, absolute).split(sep).join("/");
    // Else compared as real paths: a link among the parents of either names the same folder another way (helper-116: a schema given
    // through a linked folder was named by its absolute path, and the moved project lost it).
    const [real, root] = [realPathOf(absolute), realPathOf(resolve(projectDir))];
    if (real === root) return ".";
    return isInside(real, root) ? relative(root, real).split(sep).join("/") : absolute;
  };
  const entries: object[] = [];
  // The configuration reads `${NAME}` in a path as a variable, and has no way to write `${` as it is: the project's
  // `generate --check` would read another folder, or stop at an unset variable.
  const plain = (path: string, flag: string): string => {
    if (!path.includes("${")) return path;
    throw fail(
      "MCG001",
      `${flag} ${path}: the project's ${CONFIG_FILE_NAME} would read the \${…} in this path as an environment variable, and cannot name it as it is; give the path another way (a link to it whose path has no "\${")`,
    );
  };
  for (const input of inputs) {
    if ("specDir" in input) entries.push(locked ? { version: input.version } : { spec: plain(named(input.specDir), "--spec"), version: input.version });
    else if ("path" in input) entries.push({ schema: plain(named(input.path), "--schema") });
    else return undefined;
  }
  const options = { ...(docs !== undefined && docs !== "full" ? { docs } : {}), transports: "node" };
  const output = { input: entries.length === 1 ? entries[0] : entries, out: "src/generated", options };
  return `${JSON.stringify({ outputs: [output] }, null, 2)}\n`;
}

/** The kind of thing at `path`, without following a final symbolic link. */
function kindOf(path: string): "missing" | "file" | "folder" | "link" | "other" {
  let stat;
  try {
    stat = lstatSync(path);
  } catch {
    return "missing";
  }
  if (stat.isSymbolicLink()) return "link";
  if (stat.isDirectory()) return "folder";
  return stat.isFile() ? "file" : "other";
}

/**
 * Checks, before anything is written (and for each project file again right before it is), that every file of the project can go where it belongs
 * in `target`: each folder on its way is a real folder (not a file, not a symbolic link that
 * could lead outside the project) or missing, and the file itself is a regular file or missing.
 *
 * @throws GeneratorError MCG410 naming the first path that is in the way
 */
function checkPlaces(target: string, dir: string, files: readonly GeneratedFile[]): void {
  for (const file of files) {
    const parts = file.path.split("/");
    for (let i = 1; i <= parts.length; i++) {
      const path = join(target, ...parts.slice(0, i));
      const kind = kindOf(path);
      const want = i === parts.length ? "file" : "folder";
      if (kind === "missing") break;
      if (kind !== want) {
        const shown = join(dir, ...parts.slice(0, i));
        const what = kind === "link" ? "a symbolic link" : kind === "folder" ? "a folder" : kind === "file" ? "a file" : "not a regular file";
        throw fail("MCG410", `${shown} is ${what}, where the scaffold writes ${want === "file" ? "a file" : "a folder"}; move it away first`);
      }
    }
  }
}

/**
 * Before a `--force` write changes anything: each project file outside `src/generated/` can be
 * written (a file there, and the folder its replacement and copy are made in, or the nearest
 * folder there for a new one). A file that cannot be replaced (another owner's folder, an
 * immutable file) was found only after `src/generated/` had been swapped in, leaving generated
 * code of the new revision beside a configuration of the old one.
 *
 * @throws GeneratorError MCG403 naming the first place that cannot be written; nothing was changed
 */
function checkWritable(target: string, dir: string, files: readonly GeneratedFile[]): void {
  for (const file of files) {
    if (file.path.startsWith(GENERATED_FOLDER)) continue;
    const path = join(target, file.path);
    const exists = kindOf(path) === "file";
    // A file that keeps its bytes is not written (package.json: once the scaffold's fields are merged into it).
    if (exists) {
      const before = readFileSync(path);
      if (before.equals(Buffer.from(forceContents(file, before).file.contents))) continue;
    }
    let folder = dirname(path);
    while (kindOf(folder) === "missing" && folder !== target) folder = dirname(folder);
    for (const place of exists ? [path, folder] : [folder]) {
      try {
        accessSync(place, constants.W_OK);
      } catch (error) {
        // A read-only file (its mode) is replaced all the same: the write renames a new file over it, which its folder
        // allows. An immutable one (EPERM) is not.
        if (place === path && (error as NodeJS.ErrnoException).code === "EACCES") continue;
        const shown = join(dir, relative(target, place));
        throw fail("MCG403", `cannot write ${shown} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}), where the scaffold replaces ${file.path}; nothing was changed`);
      }
    }
  }
}

/** Removes `<target>.scaffold-<pid>` folders left by scaffold runs that were killed (their process is gone). */
function removeAbandoned(target: string): void {
  const prefix = `${basename(target)}.scaffold-`;
  let names: string[];
  try {
    names = readdirSync(dirname(target));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = name.startsWith(prefix) ? Number(name.slice(prefix.length)) : NaN;
    if (!Number.isSafeInteger(pid) || pid === process.pid || isAlive(pid)) continue;
    rmSync(join(dirname(target), name), { recursive: true, force: true });
  }
}


/** Runs a write step, turning a file-system error into MCG403 naming `dir`. */
function writing<T>(dir: string, step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (error instanceof GeneratorError) throw error;
    throw fail("MCG403", `cannot write ${dir}: ${(error as Error).message}`);
  }
}

/** What {@link writeScaffold} did with each file of the project: paths relative to its folder. */
export interface ScaffoldWrite {
  written: string[];
  replaced: string[];
  unchanged: string[];
  /** Of the replaced files outside `src/generated/`, where the contents they had were kept (`src/handlers.ts` → `src/handlers.ts.orig`). */
  backups: { readonly path: string; readonly backup: string }[];
  /** Generated files of an earlier run that this one does not produce, removed (`src/generated/2025-06-18/types.ts`). */
  removed: string[];
  /**
   * Of the replaced files, those the scaffold's fields were merged into (`package.json`), with the
   * fields whose value of yours was replaced (`scripts.test`) and what JSON could not keep as your
   * file wrote it (a key given twice; a backup is kept only when either is there).
   */
  merged: { readonly path: string; readonly replacedFields: readonly string[]; readonly notKept: readonly string[] }[];
}

/**
 * A `force` write of {@link writeScaffold} that stopped part-way (a full disk, a read-only file):
 * `done` is what it wrote, replaced and backed up before it stopped, for the caller to tell.
 */
export class ScaffoldWriteError extends GeneratorError {
  readonly done: ScaffoldWrite;

  constructor(error: GeneratorError, done: ScaffoldWrite) {
    super(error.diagnostics, error.warnings);
    this.done = done;
  }
}

/** Options of {@link writeScaffold}. */
export interface ScaffoldWriteOptions {
  /** Called once when `src/generated/` is locked by another live run (a `generate`) and this one starts waiting. */
  readonly onWait?: (lockPath: string, owner: number) => void;
}

/** The generated code's folder in a project: its files are the generator's, and are replaced without a backup. */
const GENERATED_FOLDER = "src/generated/";

/** The first of `<path>.orig`, `<path>.orig.1`, … that nothing is at (relative to `target`). */
function backupPath(target: string, path: string): string {
  for (let n = 0; ; n++) {
    const candidate = `${path}.orig${n === 0 ? "" : `.${n}`}`;
    if (kindOf(join(target, candidate)) === "missing") return candidate;
  }
}

/** The top-level objects of a scaffold's package.json whose entries are set one by one over a project's. */
const PACKAGE_OBJECTS = ["engines", "scripts", "devDependencies"] as const;

/** The top-level fields of a scaffold's package.json a merge sets, or adds when the project lacks them. */
const PACKAGE_FIELDS = ["name", "type", ...PACKAGE_OBJECTS] as const;

/**
 * The description a scaffold writes (`An MCP server (protocol revisions 2026-07-28, 2025-11-25) scaffolded by
 * mcp-schema-codegen`): one the project still has follows the revisions; any other is the project's own (helper-108: one
 * that merely ended so was replaced).
 */
const SCAFFOLD_DESCRIPTION = /^An MCP server \(protocol revisions? [^()]*\) scaffolded by mcp-schema-codegen$/;

/**
 * What `JSON.parse` of a package.json's text cannot keep as written, so that a merge written back
 * from it would change: a key given twice in one object (the last one wins), a number it reads
 * otherwise (`12345678901234567890`, `1.0`), and, from the caller, bytes that are not UTF-8.
 */
function notKeptByParse(text: string): string[] {
  const found: string[] = [];
  const source = ts.parseJsonText("package.json", text);
  const walk = (node: ts.Node, at: string): void => {
    if (ts.isObjectLiteralExpression(node)) {
      const seen = new Set<string>();
      for (const property of node.properties) {
        if (!ts.isPropertyAssignment(property) || !ts.isStringLiteral(property.name)) continue;
        const key = property.name.text;
        const path = at === "" ? key : `${at}.${key}`;
        if (seen.has(key)) found.push(`the key ${path} given twice`);
        seen.add(key);
        walk(property.initializer, path);
      }
    } else if (ts.isArrayLiteralExpression(node)) {
      node.elements.forEach((element, i) => walk(element, `${at}[${i}]`));
    } else if (ts.isNumericLiteral(node) || (ts.isPrefixUnaryExpression(node) && ts.isNumericLiteral(node.operand))) {
      const written = node.getText(source);
      if (JSON.stringify(Number(written)) !== written) found.push(`the number ${written} at ${at}`);
    }
  };
  const root = source.statements[0]?.expression;
  if (root !== undefined) walk(root, "");
  return found;
}

/**
 * The scaffold's `package.json` over a project's own (`scaffold --force`): the project's, in its
 * order, indentation, line ends and byte order mark, with what the scaffold's layout needs set.
 * `name` (the project's own unless `--name` gave another), `type`, and each entry of the scaffold's
 * `engines` and `scripts` (the build, start and test lines its files rely on) take the scaffold's
 * value; a `devDependencies` entry the project lacks is added (one it has keeps its version); the
 * description is the scaffold's while it is still the one a scaffold wrote. Nothing else is added,
 * and everything else (dependencies, other scripts, version, private, description) is kept.
 *
 * @returns the merged text; the fields whose value of the project's was replaced (`scripts.test`);
 *   and what `JSON.parse` could not keep as written (a key given twice, a number it reads
 *   otherwise), which the merge loses: a copy is kept for either. `undefined` when the project's
 *   file is not a JSON object (it is then replaced whole, with a copy).
 */
export function mergedPackageJson(
  project: string,
  scaffold: string,
): { readonly contents: string; readonly replacedFields: readonly string[]; readonly notKept: readonly string[] } | undefined {
  const bom = project.startsWith("\uFEFF") ? "\uFEFF" : "";
  const text = project.slice(bom.length);
  let mine: unknown;
  try {
    mine = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof mine !== "object" || mine === null || Array.isArray(mine)) return undefined;
  const merged = mine as Record<string, unknown>;
  const ours = JSON.parse(scaffold) as Record<string, unknown>;
  const replacedFields: string[] = [];
  const set = (into: Record<string, unknown>, key: string, value: unknown, field: string) => {
    if (Object.hasOwn(into, key) && JSON.stringify(into[key]) !== JSON.stringify(value)) replacedFields.push(field);
    into[key] = value;
  };
  for (const [key, value] of Object.entries(ours)) {
    const theirs = merged[key];
    if ((PACKAGE_OBJECTS as readonly string[]).includes(key) && typeof theirs === "object" && theirs !== null && !Array.isArray(theirs)) {
      for (const [entry, entryValue] of Object.entries(value as Record<string, unknown>)) {
        if (key === "devDependencies" && Object.hasOwn(theirs, entry)) continue;
        set(theirs as Record<string, unknown>, entry, entryValue, `${key}.${entry}`);
      }
    } else if ((PACKAGE_FIELDS as readonly string[]).includes(key)) {
      set(merged, key, value, key);
    } else if (key === "description" && typeof theirs === "string" && SCAFFOLD_DESCRIPTION.test(theirs)) {
      merged[key] = value;
    }
  }
  // Written as the project's file is: its indentation (none for a file on one line), line ends and byte order mark.
  const oneLine = !/\n\s*\S/.test(text.trim());
  const indent = oneLine ? undefined : (/^([ \t]+)"/m.exec(text)?.[1] ?? "  ");
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const laidOut = (value: unknown) => `${bom}${JSON.stringify(value, null, indent).replace(/\n/g, eol)}${/\r?\n$/.test(text) || !oneLine ? eol : ""}`;
  // A layout that way does not give back (an escape, an array on one line, mixed line ends) changes too: a copy is kept
  // (helper-109: such changes were made without one).
  const lost = notKeptByParse(text);
  if (lost.length === 0 && laidOut(JSON.parse(text)) !== project) lost.push("its layout");
  return { contents: laidOut(merged), replacedFields, notKept: lost };
}

/**
 * A line-based file of the project (`.gitignore`, `.gitattributes`, `.prettierignore`) with the
 * scaffold's rules it lacks added at its end, each after the comment lines the scaffold writes
 * above it; the project's lines stay as they are, in its line ends. A rule is compared as git reads
 * it: in `.gitattributes` without the spaces around it; in an ignore file (`ignore`) without the
 * spaces after it only (spaces before a pattern are part of it: `  dist/` does not ignore dist/).
 * The last matching line decides, so in an ignore file a rule the project negates (`!keep.orig`
 * beside `*.orig`) goes before the project's lines, not after them (where it would undo the
 * negation), and a rule excluding a folder the project re-includes something in (`!dist/types.d.ts`
 * beside `dist/`) is not added: git cannot re-include a file whose folder is excluded.
 */
export function mergedLines(
  project: string,
  scaffold: string,
  ignore = false,
): { readonly contents: string; readonly replacedFields: readonly string[]; readonly notKept: readonly string[] } {
  const eol = project.includes("\r\n") ? "\r\n" : "\n";
  const bom = project.startsWith("\uFEFF") ? "\uFEFF" : "";
  const lines = project.slice(bom.length).split(/\r?\n/);
  const key = (line: string) => (ignore ? line.trimEnd() : line.trim());
  const have = new Set(lines.map(key));
  const negated = ignore ? lines.map(key).filter((line) => line.startsWith("!")).map((line) => line.slice(1).replace(/^\//, "").replace(/\/$/, "")) : [];
  const added: string[] = [];
  const first: string[] = [];
  let comments: string[] = [];
  for (const line of scaffold.split("\n")) {
    if (line.trim() === "" || line.trim().startsWith("#")) {
      comments = line.trim() === "" ? [] : [...comments, line];
      continue;
    }
    const rule = line.trim();
    const concern = have.has(rule) ? undefined : negated.map((path) => negationConcerns(rule, path)).reduce<"same" | "inside" | undefined>((a, b) => (a === "inside" || b === "inside" ? "inside" : a ?? b), undefined);
    if (have.has(rule) || concern === "inside") {
      comments = [];
      continue;
    }
    (concern === "same" ? first : added).push(...comments, line);
    comments = [];
  }
  if (added.length === 0 && first.length === 0) return { contents: project, replacedFields: [], notKept: [] };
  const body = project.slice(bom.length);
  const head = first.length === 0 ? "" : first.join(eol) + eol;
  const ended = body === "" || /\n$/.test(body) ? body : body + eol;
  return { contents: bom + head + ended + (added.length === 0 ? "" : added.join(eol) + eol), replacedFields: [], notKept: [] };
}

/**
 * Whether an ignore rule of the scaffold (`dist/`, `*.orig`, `src/generated/`) matches the path a
 * project's negation re-includes (`same`), or a folder above it (`inside`); `undefined` when
 * neither. A rule without a slash but a last one matches a name at any depth, as git reads it.
 */
function negationConcerns(rule: string, path: string): "same" | "inside" | undefined {
  const pattern = rule.replace(/^\//, "").replace(/\/$/, "");
  const glob = new RegExp(
    "^" +
      pattern.replace(/\*\*|\*|\?|\[[^\]]*\]|[.+^${}()|\\]/g, (token) =>
        token === "**" ? ".*" : token === "*" ? "[^/]*" : token === "?" ? "[^/]" : token.startsWith("[") ? token : "\\" + token,
      ) +
      "$",
  );
  const parts = path.split("/");
  const anywhere = !pattern.includes("/");
  for (let i = 1; i <= parts.length; i++) {
    const candidate = anywhere ? parts[i - 1]! : parts.slice(0, i).join("/");
    if (!glob.test(candidate)) continue;
    if (i < parts.length) return "inside";
    return "same";
  }
  return undefined;
}

/** The files a `force` write merges into the project's own, by path: what each merge makes of the project's text and the scaffold's. */
const MERGED_FILES: Readonly<Record<string, (project: string, scaffold: string) => ReturnType<typeof mergedLines> | undefined>> = {
  "package.json": mergedPackageJson,
  ...Object.fromEntries(RENAMED_FILES.map(([path]) => [path, (project: string, scaffold: string) => mergedLines(project, scaffold, path !== ".gitattributes")])),
};

/**
 * What a `force` write puts at `given.path` over the project's file `before` (its bytes): the
 * scaffold's file, or the merge of the two for a file of {@link MERGED_FILES}. Bytes that are not
 * UTF-8 are read as U+FFFD, and would be written so (helper-108): the merge says so in `notKept`.
 */
function forceContents(given: GeneratedFile, before: Buffer | undefined): { file: GeneratedFile; merge: ReturnType<typeof mergedLines> | undefined } {
  const merging = before !== undefined && Object.hasOwn(MERGED_FILES, given.path) ? MERGED_FILES[given.path] : undefined;
  const read = merging !== undefined ? before!.toString("utf8") : undefined;
  const parsed = read !== undefined ? merging!(read, given.contents) : undefined;
  const merge = parsed && (Buffer.from(read!, "utf8").equals(before!) ? parsed : { ...parsed, notKept: [...parsed.notKept, "bytes that are not UTF-8"] });
  return { file: merge === undefined ? given : { path: given.path, contents: merge.contents }, merge };
}

/** The `force` write of {@link writeScaffold}: each file in turn, `result` filled as it goes (a step that throws leaves it saying what was done). */
function writeEach(target: string, dir: string, files: readonly GeneratedFile[], result: ScaffoldWrite): void {
  for (const given of files) {
    const path = join(target, given.path);
    // Checked again right before the write, which follows links: a file or folder made a link since the first check
    // would take the write outside the project (helper-103).
    checkPlaces(target, dir, [given]);
    const before = kindOf(path) === "file" ? readFileSync(path) : undefined;
    // The project's package.json keeps its dependencies and scripts: the scaffold's fields are merged into it
    // (helper-104: it was replaced whole, and merging the copy back was by hand); its .gitignore and the like keep
    // their lines, and get the scaffold's rules they lack.
    const { file, merge } = forceContents(given, before);
    if (before !== undefined && before.equals(Buffer.from(file.contents))) {
      result.unchanged.push(file.path);
      continue;
    }
    let backup: string | undefined;
    // A merge that replaced no value of yours needs no copy: everything you had is still there.
    if (before !== undefined && !file.path.startsWith(GENERATED_FOLDER) && (merge === undefined || merge.replacedFields.length > 0 || merge.notKept.length > 0)) {
      backup = backupPath(target, file.path);
      // A new name: nothing is replaced there, and the file the project has stays until the copy is whole.
      copyFileSync(path, join(target, backup), constants.COPYFILE_EXCL);
    }
    try {
      mkdirSync(dirname(path), { recursive: true });
      writeFileAtomic(path, file.contents);
    } catch (error) {
      // The write is atomic: the file is as it was, and its copy says nothing new.
      if (backup !== undefined) rmSync(join(target, backup), { force: true });
      throw error;
    }
    if (backup !== undefined) result.backups.push({ path: file.path, backup });
    if (merge !== undefined) result.merged.push({ path: file.path, replacedFields: merge.replacedFields, notKept: merge.notKept });
    (before === undefined ? result.written : result.replaced).push(file.path);
  }
}

/**
 * Writes a scaffolded project into `dir`, after checking that nothing is in its way (so a
 * refusal changes nothing). A missing folder is built beside it and renamed into place; an
 * empty folder (kept, with its owner and mode) gets the entries of a folder built beside it,
 * moved in. A folder with files in it is refused unless `force`; then each file that is missing
 * or has other contents is written atomically, and other files are kept (a file with the same
 * contents is left as it is). A file replaced outside `src/generated/` (your handlers, your
 * `main.ts`) is first copied to `<path>.orig` (or `.orig.1`, … when that is taken), so `force`
 * loses nothing. `src/generated/` itself is written first, as `generate` writes an output
 * (atomically, under its lock; the generated files of an earlier run that this one does not
 * produce are removed), so that a refusal there changes nothing. Folders left beside the target
 * by killed runs are removed.
 *
 * @returns the paths (relative to `dir`) written where nothing was, replaced (there before with
 *   other contents; only with `force`), unchanged (there before with the same contents), and the
 *   backups of replaced files
 * @throws GeneratorError MCG410 when `dir` is not empty and `force` is not set, is not a folder,
 *   is a symbolic link, or holds something where a project file or folder belongs; MCG403 when a
 *   file-system step fails ({@link ScaffoldWriteError}, saying what was done, when a `force` write
 *   had changed something before it stopped)
 */
export function writeScaffold(dir: string, files: readonly GeneratedFile[], force: boolean, options: ScaffoldWriteOptions = {}): ScaffoldWrite {
  const target = resolve(dir);
  const kind = kindOf(target);
  if (kind === "link") throw fail("MCG410", `${dir} is a symbolic link; give a real folder`);
  if (kind === "file" || kind === "other") throw fail("MCG410", `${dir} exists and is not a folder`);
  const empty = kind === "missing" || writing(dir, () => readdirSync(target)).length === 0;
  if (!empty) {
    if (!force) throw fail("MCG410", `${dir} is not empty; choose an empty folder, or pass --force to overwrite the scaffold's files in it`);
    checkPlaces(target, dir, files);
    checkWritable(target, dir, files);
    // A run killed while it filled this folder (then empty) left its copy beside it: --force, which such a folder then
    // needs, removes it too (it stayed for good).
    removeAbandoned(target);
    // src/generated/ is an output of the generator, written as `generate` writes one: atomically, and without the files
    // of an earlier run that this one does not produce (helper-104: an earlier legacy revision's folder stayed, and
    // `generate --check` found the project up to date). It is written first, and checked under its lock.
    const generatedDir = join(target, GENERATED_FOLDER);
    const generated = files.filter((f) => f.path.startsWith(GENERATED_FOLDER)).map((f) => ({ path: f.path.slice(GENERATED_FOLDER.length), contents: f.contents }));
    const result: ScaffoldWrite = { written: [], replaced: [], unchanged: [], backups: [], removed: [], merged: [] };
    try {
      // The generated code first, under its lock (waiting for a generate run, and saying so): a refusal or a failure
      // there leaves the project files as they were (helper-105: they were replaced before the lock was taken).
      const statuses = generated.length === 0 ? [] : writeOutput(generatedDir, generated, {
        replaceForeign: true,
        ...(options.onWait !== undefined ? { onWait: options.onWait } : {}),
        // Checked again once locked: a folder on the way made a link while the run waited would take the write outside.
        onLocked: () => {
          for (const path of ["src", GENERATED_FOLDER.slice(0, -1)]) {
            if (kindOf(join(target, path)) === "link") throw fail("MCG410", `${join(dir, path)} became a symbolic link while the scaffold was waiting; nothing is written through it`);
          }
        },
      });
      for (const status of statuses) {
        const path = GENERATED_FOLDER + status.path;
        if (status.state === "stale") result.removed.push(path);
        else (status.state === "missing" ? result.written : status.state === "changed" ? result.replaced : result.unchanged).push(path);
      }
      writeEach(
        target,
        dir,
        files.filter((f) => !f.path.startsWith(GENERATED_FOLDER)),
        result,
      );
    } catch (error) {
      const stopped = error instanceof GeneratorError ? error : fail("MCG403", `cannot write ${dir}: ${(error as Error).message}`);
      if (result.written.length + result.replaced.length + result.backups.length + result.removed.length === 0) throw stopped;
      throw new ScaffoldWriteError(stopped, result);
    }
    return result;
  }

  writing(dir, () => mkdirSync(dirname(target), { recursive: true }));
  removeAbandoned(target);
  const tmp = `${target}.scaffold-${process.pid}`;
  // An interrupt (Ctrl-C, SIGTERM) takes effect once the project is in place: one that came while an empty folder got the
  // entries one by one left it half filled (then refused as not empty), and the rest beside it.
  const resume = holdSignals();
  try {
    writing(dir, () => {
      rmSync(tmp, { recursive: true, force: true });
      for (const file of files) {
        const path = join(tmp, file.path);
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, file.contents);
      }
      if (kind === "missing") renameSync(tmp, target);
      else {
        for (const entry of readdirSync(tmp)) renameSync(join(tmp, entry), join(target, entry));
        rmdirSync(tmp);
      }
    });
    return { written: files.map((f) => f.path), replaced: [], unchanged: [], backups: [], removed: [], merged: [] };
  } finally {
    try {
      rmSync(tmp, { recursive: true, force: true });
    } catch {
      // a folder that cannot be removed is removed by the next run (removeAbandoned)
    }
    resume();
  }
}
