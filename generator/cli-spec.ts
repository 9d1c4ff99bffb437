/**
 * The CLI's commands for following the spec: `spec fetch` (download and pin a revision) and
 * `diff` (what changed between two schemas, in the protocol's terms), plus the `--offline` and
 * `--lock` flags that `generate` and `scaffold` take for `--spec-version` without `--spec`.
 *
 * Exit codes: `spec fetch` 0 success, 2 error; `diff` 0 nothing changed, 1 something did, 2 error.
 */
import type { Command } from "commander";
import { existsSync, realpathSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { checkSpecFolder, EXIT_DRIFT, EXIT_ERROR, EXIT_OK, progressOnce, reportError, usage, type CliIO } from "./cli.js";
import { versionsIn } from "./config.js";
import { diffSnapshots, formatDiff, hasChanges, schemaSnapshot } from "./diff/index.js";
import { formatDiagnostic, GeneratorError } from "./errors.js";
import { folderHint, type SchemaInput } from "./load/index.js";
import { fetchSpec, isVersionName, LOCK_FILE_NAME, lockedSpecDir, lockedVersions, type FetchedSpec } from "./spec/index.js";
import { commandName, shellQuote } from "./shell.js";

/** The flags that choose how a locked revision is read. */
export interface LockedInputFlags {
  offline?: boolean;
  lock?: string;
}

/** Adds `--offline` and `--lock` to a command that reads a schema. */
export function addLockedInputOptions(
  command: Command,
  offline = "with --spec-version alone: never use the network; the locked revision must be in the cache",
  lock = `the spec lock file (default: ./${LOCK_FILE_NAME})`,
): void {
  command.option("--offline", offline).option("--lock <file>", lock);
}

interface FetchFlags extends LockedInputFlags {
  ref?: string;
  update?: boolean;
  from?: string;
  debug?: boolean;
}

interface DiffFlags extends LockedInputFlags {
  spec?: string;
  json?: boolean;
  debug?: boolean;
}

/** Adds `spec fetch` and `diff` to the program. */
export function addSpecCommands(program: Command, io: CliIO, setDebug: (debug: boolean) => void, setExit: (code: number) => void): void {
  const spec = program.command("spec").description("follow the upstream spec: download and pin a revision");
  const fetchCommand = spec
    .command("fetch")
    .description(`download the spec repository at a ref, pin it in ./${LOCK_FILE_NAME} and keep schema/ and docs/specification/ in the cache`)
    .option("--ref <ref>", "a tag, branch or commit (default: the locked pins, or main when there is no lock; with --from and no lock: a clone's HEAD)")
    .option("--update", "move the pin to what the ref names now and rewrite the lock (with --from: to the folder, as the full commit --ref names)")
    .option(
      "--from <dir>",
      "copy the locked revisions the cache lacks from a spec repository folder at that commit (a local clone), checked against the lock's sha256s, instead of downloading them; " +
        "with no lock (or --update), pin the folder as the full commit --ref names, or as a clone's HEAD",
    )
    .option("--debug", "print stack traces for errors")
    .addHelpText(
      "after",
      "\nEnvironment: MCP_SPEC_BASE_URL (archive base URL; the archive of ref R is <base>/R), MCP_SPEC_CACHE_DIR (cache folder).\n" +
        "Exit codes: 0 success, 2 error.\n",
    )
    .action(async (flags: FetchFlags) => {
      setDebug(Boolean(flags.debug));
      setExit(await runFetch(flags, io));
    });
  addLockedInputOptions(fetchCommand, "never use the network: only check that the locked revisions are in the cache");

  const diffCommand = program
    .command("diff")
    .description(
      "what changed between two schemas in the protocol's terms: methods, types, error codes, _meta keys, capabilities, resultType values, protocol version, constants, deprecations",
    )
    .argument("<from>", "a schema.ts file, or a version name (of --spec <dir>, else of the locked spec revision)")
    .argument("<to>", "the same, for the newer side")
    .option("--spec <dir>", "a spec repository folder in which version names are read")
    .option("--json", "print the diff as JSON (methods, types, errorCodes, metaKeys, capabilities, resultTypes, protocolVersion, constants, deprecated; each added/removed/changed)")
    .option("--debug", "print stack traces for errors")
    .addHelpText("after", "\nExit codes: 0 nothing changed, 1 something changed, 2 error.\nExample:\n  mcp-schema-codegen diff 2025-11-25 draft\n")
    .action(async (from: string, to: string, flags: DiffFlags) => {
      setDebug(Boolean(flags.debug));
      setExit(await runDiff(from, to, flags, io));
    });
  addLockedInputOptions(diffCommand, "for version names without --spec: never use the network; the locked revision must be in the cache");
}

/** What `diff`'s messages offer instead of the lock, in its own terms. */
const DIFF_ALTERNATIVES = "name versions of a local clone with --spec <clone>, or give two schema.ts files";

/**
 * A `diff` side: a version name is read from `--spec` or else the locked revision; an existing file
 * is a schema file, except one whose bare name is a version there (warning MCG256: `./name` is the file).
 *
 * @throws GeneratorError MCG001 a version `--spec` does not have (naming those it has); what
 *   `lockedSpecDir` throws (MCG504–MCG506, offering {@link DIFF_ALTERNATIVES}).
 */
async function diffInput(side: string, flags: DiffFlags, onProgress: (line: string) => void, warn: (line: string) => void): Promise<SchemaInput> {
  const isFile = existsSync(side) && statSync(side).isFile();
  if (!isVersionName(side) || side.endsWith(".ts")) return { path: side };
  checkSpecFolder(flags.spec);
  if (flags.spec !== undefined && existsSync(join(flags.spec, "schema", side, "schema.ts"))) {
    // With --spec a bare name is its version; a file of that name here is read only as a path.
    if (isFile) warn(`warning MCG256: ${side} is the version under ${join(flags.spec, "schema")}; the file ${side} here is not read (write ./${side} to compare it)`);
    return { specDir: flags.spec, version: side };
  }
  if (flags.spec !== undefined) {
    if (isFile) return { path: side };
    throw usage(`${side} is neither a file nor a version folder under ${join(flags.spec, "schema")}${versionsIn(flags.spec)}`);
  }
  const location = flags.lock !== undefined ? { lockFile: flags.lock } : {};
  // A folder here holding a schema.ts or a spec clone's schema/ is most likely what was meant: said before the lock is
  // looked for, whose absence would be all the error said. Another folder may share a version's name by chance.
  const hint = !isFile && existsSync(side) && statSync(side).isDirectory() ? folderHint(side) : "";
  if (hint !== "" && !lockedVersions(location).includes(side)) throw usage(`${side} is a folder here, not a schema file (nor a version a lock file names)${hint}`);
  if (isFile) {
    // Without --spec, a bare name the lock names is its version, as with --spec; a file of any other name is read.
    if (!lockedVersions(location).includes(side)) return { path: side };
    warn(`warning MCG256: ${side} is the version of the locked spec revision (${flags.lock ?? LOCK_FILE_NAME}); the file ${side} here is not read (write ./${side} to compare it)`);
  }
  const specDir = await lockedSpecDir(side, {
    ...location,
    ...(flags.offline ? { offline: true } : {}),
    onProgress,
    alternatives: DIFF_ALTERNATIVES,
  });
  return { specDir, version: side };
}

/**
 * Both sides' snapshots; when a side cannot be read, the other is still read, so that one run
 * names every problem of both.
 *
 * @throws GeneratorError the diagnostics (and warnings) of every side that failed, in order.
 */
function snapshotsOfBoth(inputs: readonly [SchemaInput, SchemaInput]): [ReturnType<typeof schemaSnapshot>, ReturnType<typeof schemaSnapshot>] {
  const failed: GeneratorError[] = [];
  const read = (input: SchemaInput) => {
    try {
      return schemaSnapshot(input);
    } catch (error) {
      if (!(error instanceof GeneratorError)) throw error;
      failed.push(error);
      return undefined;
    }
  };
  const [a, b] = [read(inputs[0]), read(inputs[1])];
  if (a === undefined || b === undefined) {
    throw new GeneratorError(
      failed.flatMap((e) => e.diagnostics),
      failed.flatMap((e) => e.warnings),
    );
  }
  return [a, b];
}

async function runDiff(from: string, to: string, flags: DiffFlags, io: CliIO): Promise<number> {
  try {
    const onProgress = progressOnce(io);
    const warn = (line: string) => io.stderr(`${line}\n`);
    const inputs = [await diffInput(from, flags, onProgress, warn), await diffInput(to, flags, onProgress, warn)] as const;
    const [one, other] = inputs.map(inputFile);
    if (one !== undefined && one.id === other?.id) warn(`note: both sides are ${one.path}, so nothing can differ (compare two versions or two files)`);
    const [a, b] = snapshotsOfBoth(inputs);
    for (const w of [...a.warnings, ...b.warnings]) io.stderr(`${formatDiagnostic(w, "warning")}\n`);
    const diff = diffSnapshots(a.snapshot, b.snapshot);
    io.stdout(flags.json ? `${JSON.stringify(diff, null, 2)}\n` : formatDiff(diff));
    return hasChanges(diff) ? EXIT_DRIFT : EXIT_OK;
  } catch (error) {
    reportError(error, io, Boolean(flags.debug), "nothing was compared");
    return EXIT_ERROR;
  }
}

/**
 * The schema file a `diff` side reads: its path resolved through symbolic links, and the device and inode that make it
 * one file through hard links too; `undefined` when it cannot be read (the read says why).
 */
function inputFile(input: SchemaInput): { readonly path: string; readonly id: string } | undefined {
  const file = "path" in input ? input.path : "specDir" in input ? join(input.specDir, "schema", input.version, "schema.ts") : undefined;
  try {
    if (file === undefined) return undefined;
    const stat = statSync(file, { bigint: true });
    return { path: realpathSync(file), id: `${stat.dev}:${stat.ino}` };
  } catch {
    return undefined;
  }
}

/** What `spec fetch`'s messages offer instead of the lock: `--spec`, which `spec fetch` itself does not take. */
const FETCH_ALTERNATIVES = "let generate, diff and scaffold read a local clone with --spec <clone>, which needs no lock";

/**
 * What `spec fetch` did to each pin it replaced (`--update`, or a ref the lock did not pin): kept
 * at its commit, or moved from one commit to another, with the versions whose `schema.ts` changed
 * (their sha256s in the two pins differ; or that none did) and the versions one of them lacks;
 * then, for each changed version, the `diff` command that shows what changed in the protocol's
 * terms, when the earlier revision is still in the cache. A ref that changed is named with the one
 * before.
 */
function movedPins(fetched: readonly FetchedSpec[]): string[] {
  return fetched.flatMap((f) => {
    const old = f.replaced;
    if (old === undefined) return [];
    const refs = old.ref === f.pin.ref ? f.pin.ref : `${old.ref} → ${f.pin.ref}`;
    if (old.commit === f.pin.commit) return [`${refs}: still at ${old.commit}`];
    // Versions the new revision lacks, or adds: a configuration or --spec-version naming a gone one fails next (MCG506).
    const gone = Object.keys(old.schemas).filter((v) => !Object.hasOwn(f.pin.schemas, v));
    const added = Object.keys(f.pin.schemas).filter((v) => !Object.hasOwn(old.schemas, v));
    // The versions whose schema.ts changed, by the pins' digests (helper-106: the draft's diff was offered when only
    // 2025-11-25 had changed, and said there was no change).
    const changed = Object.keys(f.pin.schemas).filter((v) => Object.hasOwn(old.schemas, v) && old.schemas[v] !== f.pin.schemas[v]);
    const versions = [gone.length > 0 ? `versions gone: ${gone.join(", ")}` : "", added.length > 0 ? `versions new: ${added.join(", ")}` : ""].filter(Boolean).join("; ");
    const schemas = changed.length > 0 ? `schema.ts changed in ${changed.join(", ")}` : "no schema.ts of a version both have changed";
    const moved = `${refs}: moved from ${old.commit} to ${f.pin.commit}${versions === "" ? "" : ` (${versions})`}; ${schemas}`;
    const commands = changed.flatMap((version) => {
      const oldSchema = join(dirname(f.dir), old.commit, "schema", version, "schema.ts");
      if (!existsSync(oldSchema)) return [];
      const newSchema = join(f.dir, "schema", version, "schema.ts");
      return [`  what changed in ${version}: ${commandName()} diff ${shellQuote(oldSchema)} ${shellQuote(newSchema)}`];
    });
    return [moved, ...commands];
  });
}

async function runFetch(flags: FetchFlags, io: CliIO): Promise<number> {
  // The closing line says what happened to the lock: there may have been none to leave unchanged.
  const hadLock = existsSync(flags.lock ?? LOCK_FILE_NAME);
  try {
    const fetched = await fetchSpec({
      ...(flags.ref !== undefined ? { ref: flags.ref } : {}),
      ...(flags.lock !== undefined ? { lockFile: flags.lock } : {}),
      ...(flags.update ? { update: true } : {}),
      ...(flags.offline ? { offline: true } : {}),
      ...(flags.from !== undefined ? { from: flags.from } : {}),
      onProgress: (line) => io.stderr(`${line}\n`),
      alternatives: FETCH_ALTERNATIVES,
      downloadAlternatives: "generate, diff and scaffold can read a local clone with --spec <clone>, which needs no lock",
    });
    for (const f of fetched) {
      io.stdout(`${f.pin.ref} ${f.pin.commit} ${f.dir} (versions: ${Object.keys(f.pin.schemas).join(", ")})\n`);
    }
    for (const line of movedPins(fetched)) io.stderr(`${line}\n`);
    return EXIT_OK;
  } catch (error) {
    reportError(error, io, Boolean(flags.debug), hadLock ? "the lock file was not changed" : "no lock file was written");
    return EXIT_ERROR;
  }
}
