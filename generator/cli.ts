/**
 * The command line, thin over {@link generate}: parses flags (commander, fed by the
 * options table), runs the generator, writes atomically or checks for drift.
 *
 * Exit codes: 0 success (or `--check` found no drift); 1 `--check` found drift;
 * 2 error (bad input, unsupported construct, bad usage). Errors print as
 * `file:line:col - error CODE: message`; stack traces only with `--debug`.
 */
import { existsSync, lstatSync, readFileSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { Command, CommanderError, Option } from "commander";
import { CONFIG_FILE_NAME, configInputs, findConfigFile, loadConfig, locatedAtInputs, specFolderProblem, versionsIn, type ConfigInput } from "./config.js";
import { formatDiagnostic, formatRelated, GeneratorError } from "./errors.js";
import { analyzeSchema, generate, GENERATOR_VERSION, type GenerateOptions } from "./index.js";
import type { SchemaInput } from "./load/index.js";
import { DEFAULT_OPTIONS, describeOptions, OPTION_SPECS, type GeneratorOptions, type OptionSpec } from "./options.js";
import { TARGET_NAMES } from "./emit/index.js";
import { checkOutput, fileHead, heldSignalsReleased, isInside, leftByKilledRun, setInterruptNote, writeFileAtomic, writeOutput, writeTarget, type FileStatus } from "./write.js";
import { withoutByteOrderMark } from "./json-text.js";
import { diffSnapshots, formatDiff, hasChanges } from "./diff/index.js";
import type { ProtocolSnapshot } from "./diff/snapshot.js";
import { headerOptions, MANIFEST_FILE, manifestFile, parseOptionsLine, readManifest, type Manifest, type ManifestRevision } from "./diff/manifest.js";
import type { GeneratedFile, GenerateResult } from "./index.js";
import { addLockedInputOptions, addSpecCommands, type LockedInputFlags } from "./cli-spec.js";
import { isVersionName, LOCK_FILE_NAME, lockedSpecDir, readLock } from "./spec/index.js";
import { isPackageName, LEGACY_SPEC_VERSION, OLDER_LEGACY_SPEC_VERSIONS, packageNameFor, requireStateless, SCAFFOLD_EXAMPLES, scaffoldFiles, ScaffoldWriteError, writeScaffold, type ScaffoldExample, type ScaffoldWrite } from "./scaffold/index.js";
import { shellQuote } from "./shell.js";

/** Where the CLI prints. Tests pass their own. */
export interface CliIO {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/**
 * Writes to `stream`, and stops quietly once its reader has closed the pipe (`… | head -1`
 * has all it wanted): an EPIPE is not an error of the command, so it prints no stack trace.
 */
function pipeWriter(stream: NodeJS.WriteStream): (text: string) => void {
  let closed = false;
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    closed = true;
  });
  return (text) => {
    if (!closed) stream.write(text);
  };
}

let processIO: CliIO | undefined;

/** The process's stdout and stderr, set up once, on first use. */
function defaultIO(): CliIO {
  processIO ??= { stdout: pipeWriter(process.stdout), stderr: pipeWriter(process.stderr) };
  return processIO;
}

export const EXIT_OK = 0;
export const EXIT_DRIFT = 1;
export const EXIT_ERROR = 2;

/** The generate flags: the options table's (commander names them by `key`), and the rest. */
interface GenerateFlags extends Partial<Record<keyof GeneratorOptions, string>>, LockedInputFlags {
  schema?: string[];
  spec?: string;
  specVersion?: string;
  out?: string;
  config?: string;
  check?: boolean;
  dumpIr?: string;
  force?: boolean;
  debug?: boolean;
}

/**
 * commander's "unknown command" message with `(Did you mean generate?)` added when the name is the
 * start of one command only (`gen`, `scaf`), which commander's own suggestion, by edit distance,
 * leaves out; a message that has a suggestion, or any other, is returned as it is.
 */
function withPrefixSuggestion(text: string, commands: readonly Command[]): string {
  const match = /^(error MCG001: unknown command '([^' ]{2,})'\n)(\(Did you mean [^\n]*\?\)\n)?$/.exec(text);
  const starting = match === null ? undefined : commandStarting(match[2]!, commands);
  // The one command the name starts, before commander's nearest by edit distance (`sc`: scaffold, not spec).
  return starting !== undefined ? `${match![1]}(Did you mean ${starting}?)\n` : text;
}

/** The name of the one command of `commands` (help aside) that `asked`, two characters or more, starts; else undefined. */
function commandStarting(asked: string, commands: readonly Command[]): string | undefined {
  const starting = asked.length < 2 ? [] : commands.map((c) => c.name()).filter((name) => name !== "help" && name.startsWith(asked));
  return starting.length === 1 ? starting[0] : undefined;
}

/**
 * What the CLI says of an unknown command it finds itself (before commander would): `shown` as
 * written, with the one of `commands` that `asked` starts, as commander's own message says it.
 */
function unknownCommand(shown: string, asked: string, commands: readonly Command[]): string {
  const starting = commandStarting(asked, commands);
  return `error MCG001: unknown command '${shown}'\n${starting === undefined ? "" : `(Did you mean ${starting}?)\n`}(run with --help for usage)\n`;
}

/** The commands an unknown name in `argv` is one of: the subcommands of a command that has them (`spec fe`), else the top level. */
function commandsAt(program: Command, argv: readonly string[]): readonly Command[] {
  const first = program.commands.find((c) => c.name() === argv.find((a) => !a.startsWith("-")));
  return first !== undefined && first.commands.length > 0 ? first.commands : program.commands;
}

/** Runs the CLI with `argv` (without `node` and the script) and returns the exit code. */
export async function run(argv: readonly string[], io: CliIO = defaultIO()): Promise<number> {
  let exitCode = EXIT_OK;
  let debug = argv.includes("--debug");
  const program = new Command("mcp-schema-codegen")
    .description("Generate validators and types for the Model Context Protocol from the spec's schema.ts.")
    .version(GENERATOR_VERSION, "-V, --version")
    .exitOverride()
    .configureOutput({
      writeOut: io.stdout,
      writeErr: io.stderr,
      // Usage errors carry the same code as the generator's own usage checks.
      // An unknown subcommand (`spec fe`) is matched against its command's subcommands, not the top-level commands.
      outputError: (text, write) => write(withPrefixSuggestion(text.replace(/^error: /, "error MCG001: "), commandsAt(program, argv))),
    })
    .showHelpAfterError("(run with --help for usage)")
    .addHelpText(
      "after",
      "\nFollowing the spec: spec fetch pins the upstream repository in\n" +
        "mcp-spec.lock.json; generate --spec-version draft reads the pinned revision;\n" +
        "spec fetch --update moves the pin and prints the diff command for what\n" +
        "changed; generate --check in CI exits 1 when the output drifted.\n" +
        "Run mcp-schema-codegen help <command> for a command's options; the package's\n" +
        "README.md is the full reference.\n",
    );

  const generateCommand = program
    .command("generate")
    .description("generate code from one schema.ts, or several (one per protocol revision served), into a folder")
    .option("--schema <file>", "the schema: a schema.ts or .d.ts file; repeat it for several revisions", collect)
    .option("--spec <dir>", "a spec repository folder (with schema/<version>/schema.ts); use with --spec-version")
    .option("--spec-version <names>", "the version folder under <dir>/schema, e.g. draft or 2025-11-25, or several: draft,2025-11-25 or the flag repeated (without --spec: of the locked spec revision)", joinVersions)
    .option("--out <dir>", "the output folder (written atomically)")
    .option("--config <file>", `a configuration file to read instead of the nearest ${CONFIG_FILE_NAME} (used when no input and --out are given)`);
  addLockedInputOptions(
    generateCommand,
    'with --spec-version alone, or a configuration input { "version": … } alone: never use the network; the locked revision must be in the cache',
    `the spec lock file of --spec-version alone (default: ./${LOCK_FILE_NAME}; a configuration input names its own with "lock")`,
  );
  for (const spec of OPTION_SPECS) {
    const option = new Option(spec.flag, spec.list ? `${spec.description} (from: ${spec.choices.join(", ")}; default: all)` : spec.description);
    generateCommand.addOption(spec.list ? option : option.choices(spec.choices).default(DEFAULT_OPTIONS[spec.key]));
  }
  generateCommand
    .option("--check", "write nothing; exit 1 and show a short diff if the folder differs from what would be generated")
    .option("--dump-ir <file>", "also write the intermediate representation as JSON (several revisions: { revisions: [{ folder, ir }] })")
    .option("--force", "replace files in --out that the generator did not write (without it: MCG404, nothing written)")
    .option("--debug", "print stack traces for errors")
    .addHelpText(
      "after",
      `\nTargets: ${TARGET_NAMES.join(", ")}\n` +
        `Without an input and --out, every output of ${CONFIG_FILE_NAME} (the nearest, from the current folder up) is generated;\n` +
        "option flags given then apply to every output.\nExit codes: 0 success, 1 --check found drift, 2 error.\n" +
        "Several schemas (repeated --schema, or --spec-version draft,2025-11-25) make one output serving every revision:\n" +
        "a folder per protocol revision (e.g. 2026-07-28/, 2025-11-25/) with its modules, runtime/ shared, and one dispatch.ts\n" +
        "and index.ts at the top; handlers are typed with the first modern (2026-07-28 or later) revision.\n" +
        "Examples:\n  mcp-schema-codegen generate --schema schema/draft/schema.ts --out src/generated --docs tags\n" +
        "  mcp-schema-codegen generate --spec ../spec --spec-version draft,2025-11-25 --out src/generated\n  mcp-schema-codegen generate --check\n",
    )
    .action(async (flags: GenerateFlags, command: Command) => {
      debug = Boolean(flags.debug);
      const given = new Set(OPTION_SPECS.filter((spec) => command.getOptionValueSource(spec.key) === "cli").map((spec) => spec.key));
      exitCode = await runGenerate(flags, given, io);
    });

  const scaffoldCommand = program
    .command("scaffold")
    .description("write a runnable MCP server project: generated code, example handlers to replace, stdio and HTTP transports, tests")
    .argument("<dir>", "the project folder to create (must be empty unless --force)")
    .option("--schema <file>", "the schema: a schema.ts or .d.ts file of a stateless revision (2026-07-28 or later); repeat it to name the legacy one too", collect)
    .option("--spec <dir>", "a spec repository folder (with schema/<version>/schema.ts); use with --spec-version")
    .option("--spec-version <names>", "the version folder under <dir>/schema, e.g. draft, or several: draft,2025-11-25 or the flag repeated (without --spec: of the locked spec revision)", joinVersions)
    .addOption(
      new Option(
        "--eras <list>",
        `the eras served: modern,legacy (default: also the ${LEGACY_SPEC_VERSION} schema, found beside the modern one, and the older ones there (${OLDER_LEGACY_SPEC_VERSIONS.join(", ")}), for clients that open with initialize) or modern (the modern revision only)`,
      ).choices(["modern,legacy", "legacy,modern", "modern"]),
    )
    .option("--name <name>", "the npm package name (default: from the folder name)")
    .addOption(new Option("--example <name>", "handlers of another example instead of the default one").choices([...SCAFFOLD_EXAMPLES]))
    .addOption(new Option("--docs <mode>", "doc comments in the generated code").choices(["full", "tags", "none"]).default("full"))
    .option("--force", "write into a folder that is not empty, replacing the scaffold's files (yours outside src/generated/ are kept as <file>.orig) and keeping the others")
    .option("--debug", "print stack traces for errors")
    .addHelpText(
      "after",
      `\nBy default the server is dual-era: the modern schema given and the ${LEGACY_SPEC_VERSION} schema of the same spec folder\n` +
        `(--spec/--spec-version: <dir>/schema/${LEGACY_SPEC_VERSION}/schema.ts; --schema <dir>/<v>/schema.ts: <dir>/${LEGACY_SPEC_VERSION}/schema.ts),\n` +
        `and the older legacy schemas found there (${OLDER_LEGACY_SPEC_VERSIONS.join(", ")}: clients of the SDK before 1.25 refuse a server that\n` +
        "answers 2025-11-25), so clients of both eras connect. Without the 2025-11-25 schema scaffold refuses; --eras modern writes\n" +
        "a modern-only server. Name the versions yourself (--spec-version draft,2025-11-25) to serve fewer.\n" +
        "The project's mcp-schema-codegen.config.json regenerates src/generated/ with the same schemas (generate, in the project);\n" +
        `with --spec-version alone they are versions of the locked revision, and the project gets a copy of the lock (${LOCK_FILE_NAME}).\n` +
        "Exit codes: 0 success, 2 error (bad input, a folder that is not empty, a schema of an older revision, no legacy schema).\n" +
        "Example:\n  mcp-schema-codegen scaffold my-server --spec ../spec --spec-version draft\n  cd my-server && npm install && npm test\n",
    )
    .action(async (dir: string, flags: ScaffoldFlags) => {
      debug = Boolean(flags.debug);
      exitCode = await runScaffold(dir, flags, io);
    });
  addLockedInputOptions(scaffoldCommand, undefined, `the spec lock file of --spec-version alone (default: ./${LOCK_FILE_NAME}); the project gets a copy`);

  addSpecCommands(program, io, (flagDebug) => (debug = flagDebug), (code) => (exitCode = code));
  refuseRepeatedOptions(program);

  if (argv.length === 0) {
    io.stderr(program.helpInformation());
    io.stderr(`error MCG001: missing command: give one of ${program.commands.map((c) => c.name()).filter((n) => n !== "help").join(", ")}\n`);
    return EXIT_ERROR;
  }
  // `help help`: commander shows the general help as an error (exit 1, on stderr); it is help asked for, the same as `help`.
  // `help help <words>` is `help <words>` (helper-93: `help help generate` showed the general help, `help help nosuch` exit 0).
  if (argv[0] === "help" && argv[1] === "help") {
    if (argv.length === 2) {
      program.outputHelp();
      return EXIT_OK;
    }
    argv = ["help", ...argv.slice(2)];
  }
  // commander's `help <command>` shows the general help for a command it does not know: say so, as for the command itself.
  const asked = argv[0] === "help" ? argv[1] : undefined;
  if (asked !== undefined && !asked.startsWith("-") && asked !== "help" && !program.commands.some((c) => c.name() === asked)) {
    io.stderr(unknownCommand(asked, asked, program.commands));
    return EXIT_ERROR;
  }
  // `help spec fetch`: commander's help command looks one level down only; ask the subcommand itself.
  // Only `help <command> <subcommand>`, nothing after it: anything else goes to commander as written.
  const sub = asked !== undefined && argv.length === 3 && !argv[2]!.startsWith("-") ? argv[2]! : undefined;
  const subcommands = program.commands.find((c) => c.name() === asked)?.commands ?? [];
  if (sub !== undefined && subcommands.length > 0 && !subcommands.some((c) => c.name() === sub)) {
    io.stderr(unknownCommand(`${asked} ${sub}`, sub, subcommands));
    return EXIT_ERROR;
  }
  // `fe --help`: commander answers --help before it looks at the command, and would show the general help (helper-88).
  const first = argv[0];
  if (first !== undefined && !first.startsWith("-") && first !== "help" && !program.commands.some((c) => c.name() === first) && argv.some((a) => a === "--help" || a === "-h")) {
    io.stderr(unknownCommand(first, first, program.commands));
    return EXIT_ERROR;
  }
  // `spec fe --help`: commander answers --help before it looks at the subcommand, and would show spec's help (helper-86).
  const top = program.commands.find((c) => c.name() === argv[0]);
  const second = argv[1];
  if (top !== undefined && top.commands.length > 0 && second !== undefined && !second.startsWith("-") && second !== "help" && !top.commands.some((c) => c.name() === second)) {
    io.stderr(unknownCommand(second, second, top.commands));
    return EXIT_ERROR;
  }
  const parsed = sub !== undefined && subcommands.length > 0 ? [asked!, sub, "--help"] : [...argv];
  try {
    await program.parseAsync(parsed, { from: "user" });
    // A signal held by a write takes effect before the exit code is returned, which a caller may exit with at once.
    await heldSignalsReleased();
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help or the version asked for exits 0; help shown because a command is incomplete (`spec` without its subcommand) is bad usage.
      if (error.code === "commander.helpDisplayed" || error.code === "commander.version" || error.code === "commander.help") {
        if (error.exitCode === 0) return EXIT_OK;
        const incomplete = program.commands.find((c) => c.name() === argv.find((a) => !a.startsWith("-")));
        const names = incomplete?.commands.map((c) => c.name()).filter((n) => n !== "help") ?? [];
        if (names.length > 0) io.stderr(`error MCG001: missing subcommand of '${incomplete!.name()}': give one of ${names.join(", ")}\n`);
        return EXIT_ERROR;
      }
      return EXIT_ERROR;
    }
    reportError(error, io, debug);
    return EXIT_ERROR;
  }
  return exitCode;
}

/** The `name` of `dir`'s package.json, when it has one that a scaffold takes; else undefined. */
function existingPackageName(dir: string): string | undefined {
  try {
    // A regular file only (helper-105: a named pipe there hung the run), after a byte order mark.
    if (!lstatSync(join(dir, "package.json")).isFile()) return undefined;
    const name: unknown = (JSON.parse(withoutByteOrderMark(readFileSync(join(dir, "package.json"), "utf8"))) as { name?: unknown }).name;
    return typeof name === "string" && isPackageName(name) ? name : undefined;
  } catch {
    return undefined;
  }
}

/** The scaffold flags. */
interface ScaffoldFlags extends LockedInputFlags {
  schema?: string[];
  eras?: string;
  spec?: string;
  specVersion?: string;
  name?: string;
  example?: ScaffoldExample;
  docs: "full" | "tags" | "none";
  force?: boolean;
  debug?: boolean;
}

async function runScaffold(dir: string, flags: ScaffoldFlags, io: CliIO): Promise<number> {
  try {
    // Over a project already there (--force), its own package name, which clients see in serverInfo (helper-104: the folder's name replaced it).
    const name = flags.name ?? (flags.force ? existingPackageName(dir) : undefined) ?? packageNameFor(dir);
    const { schema, partnerAdded } = await scaffoldInputs(flags, io);
    // Inputs read through the lock: the project keeps a copy and names versions, not the cache's folders.
    const specLock = lockedInputs(flags) ? readFileSync(flags.lock ?? LOCK_FILE_NAME, "utf8") : undefined;
    if (specLock !== undefined && flags.force) warnPinMoved(dir, flags.lock ?? LOCK_FILE_NAME, io);
    const files = await scaffoldFiles({
      schema,
      name,
      projectDir: dir,
      ...(specLock !== undefined ? { specLock } : {}),
      docs: flags.docs,
      ...(flags.example !== undefined ? { example: flags.example } : {}),
    }).catch((error: unknown) => {
      // An old schema and the legacy partner scaffold added to it: "none is modern" (MCG320) is
      // about a schema the user never named; the given one's own refusal (MCG411) says it all.
      if (partnerAdded && error instanceof GeneratorError && error.diagnostics.some((d) => d.code === "MCG320")) {
        requireStatelessInput(schema[0]!);
      }
      throw error;
    });
    const { written, replaced, unchanged, backups, removed, merged } = writeScaffold(dir, files, Boolean(flags.force), {
      onWait: (lockPath, owner) => io.stderr(`waiting for ${lockPath}: another generate run (pid ${owner}) is writing ${join(dir, "src", "generated")}\n`),
    });
    printReplaced(dir, { replaced, backups, removed, merged }, io);
    const cd = resolve(dir) === process.cwd() ? "" : `cd ${shellQuote(dir)} && `;
    const kept = replaced.length + unchanged.length > 0 ? `, ${replaced.length} replaced, ${unchanged.length} unchanged` : "";
    // Your edits are in the copies: merged back first, or `npm install` would go by the scaffold's package.json alone.
    const merge = backups.length > 0 ? `merge what you need back from the ${backups.length} .orig ${backups.length === 1 ? "copy" : "copies"} above, then ` : "";
    io.stdout(`${dir}: ${written.length} ${written.length === 1 ? "file" : "files"} written${kept} (package ${name})\nnext: ${merge}${cd}npm install && npm test\n`);
    return EXIT_OK;
  } catch (error) {
    if (error instanceof ScaffoldWriteError) {
      // Stopped part-way: what it had replaced (and where the files were kept) is said, and not that nothing was written (helper-102).
      printReplaced(dir, error.done, io);
      const { written, replaced } = error.done;
      reportError(error, io, Boolean(flags.debug), `${dir}: ${written.length} written and ${replaced.length} replaced before it stopped; run it again to finish`);
      return EXIT_ERROR;
    }
    reportError(error, io, Boolean(flags.debug));
    return EXIT_ERROR;
  }
}

/**
 * Warns when `scaffold --force` would replace the project's lock with one pinning another commit (the lock of the folder
 * it runs from, say): the project's `src/generated/` would then be regenerated from that revision, which may be older.
 * A lock that cannot be read is left to the write, which keeps a copy of it.
 */
function warnPinMoved(dir: string, sourceLock: string, io: CliIO): void {
  const projectLock = join(dir, LOCK_FILE_NAME);
  let pins: [string, string] | undefined;
  try {
    if (!existsSync(projectLock) || realpathSync(projectLock) === realpathSync(sourceLock)) return;
    const [was, now] = [readLock(projectLock)?.pins[0], readLock(sourceLock)?.pins[0]];
    if (was !== undefined && now !== undefined && was.commit !== now.commit) pins = [`${was.ref} (${was.commit})`, `${now.ref} (${now.commit})`];
  } catch {
    return;
  }
  if (pins === undefined) return;
  io.stderr(
    `warning: ${projectLock} pins ${pins[0]}; this scaffold replaces it with ${sourceLock}, which pins ${pins[1]}, and generates from that revision. ` +
      `To keep the project's pin, give --lock ${shellQuote(projectLock)}; to move it, \`spec fetch --update\` in the project and \`generate\` need no scaffold\n`,
  );
}

/**
 * `replaced: <file>` for each file a scaffold replaced, naming the copy it kept of a file of yours
 * (`merged: package.json`, naming the fields of yours it replaced); then the generated files it removed.
 */
function printReplaced(dir: string, done: Pick<ScaffoldWrite, "replaced" | "backups" | "removed" | "merged">, io: CliIO): void {
  for (const path of done.replaced) {
    const kept = done.backups.find((b) => b.path === path);
    const merged = done.merged.find((m) => m.path === path);
    const copy = kept === undefined ? "" : `what was there is kept as ${join(dir, kept.backup)}`;
    if (merged === undefined) io.stdout(`replaced: ${join(dir, path)}${kept === undefined ? "" : ` (${copy})`}\n`);
    else {
      const replaced = merged.replacedFields.length > 0 ? [`it replaced your ${merged.replacedFields.join(", ")}`] : [];
      const lost = merged.notKept.length > 0 ? [`JSON could not keep ${merged.notKept.join(", ")} as your file wrote it`] : [];
      const fields = [...replaced, ...lost].length > 0 ? `; ${[...replaced, ...lost].join("; ")}: ${copy}` : "";
      const what = path.endsWith(".json") ? "the scaffold's fields set, the rest of yours kept" : "the scaffold's rules added after yours";
      io.stdout(`merged: ${join(dir, path)} (${what}${fields})\n`);
    }
  }
  if (done.removed.length > 0) io.stdout(`removed (the generated code no longer has them): ${done.removed.map((path) => join(dir, path)).join(", ")}\n`);
}

/** Commander's collector of a repeated option: every value, in order. */
function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** `--spec-version` repeated: one comma-separated list, as written in one flag. */
function joinVersions(value: string, previous: string | undefined): string {
  return previous === undefined ? value : `${previous},${value}`;
}

/**
 * Refuses an option with a value given twice (commander would keep the last one silently):
 * `--out a --out b` says nothing of which was meant. Options that take repeats (`--schema`,
 * `--spec-version`) are not counted.
 *
 * @throws GeneratorError MCG001 (from the hook that runs before a command's action)
 */
function refuseRepeatedOptions(program: Command): void {
  const counts = new Map<Command, Map<string, number>>();
  const visit = (command: Command) => {
    for (const option of command.options) {
      if (!(option.required || option.optional) || option.parseArg === collect || option.parseArg === joinVersions) continue;
      command.on(`option:${option.name()}`, () => {
        const seen = counts.get(command) ?? new Map<string, number>();
        counts.set(command, seen.set(option.long ?? option.name(), (seen.get(option.long ?? option.name()) ?? 0) + 1));
      });
    }
    command.commands.forEach(visit);
  };
  visit(program);
  program.hook("preAction", (_program, action) => {
    const twice = [...(counts.get(action) ?? [])].find(([, n]) => n > 1);
    if (twice !== undefined) throw usage(`${twice[0]} is given more than once; give it once`);
  });
}

/**
 * The inputs the flags name: `--schema` (repeated for several), `--spec` + `--spec-version`, or
 * `--spec-version` alone, which reads the revision pinned in the lock file from the cache
 * (fetching it unless `--offline`); `--spec-version` takes a comma-separated list.
 */
export async function schemaInputs(flags: Pick<GenerateFlags, "schema" | "spec" | "specVersion" | "offline" | "lock">, io: CliIO, onProgress = progressOnce(io)): Promise<SchemaInput[]> {
  if (flags.schema && (flags.spec || flags.specVersion)) throw usage("--schema cannot be combined with --spec or --spec-version");
  if (flags.lock !== undefined && (flags.specVersion === undefined || flags.spec !== undefined)) {
    throw usage("--lock names the lock of --spec-version alone (the locked revision); --schema and --spec read no lock");
  }
  if (flags.offline && (flags.schema !== undefined || flags.spec !== undefined)) {
    throw usage("--offline goes with --spec-version alone (the locked revision, read from the cache); --schema and --spec read local files and never use the network");
  }
  if (flags.schema) return flags.schema.map((path) => ({ path }));
  const versions = flags.specVersion?.split(",").map((v) => v.trim());
  if (versions !== undefined) {
    if (versions.includes("")) throw usage(`--spec-version ${JSON.stringify(flags.specVersion)} has an empty name in its list`);
    const twice = versions.find((v, i) => versions.indexOf(v) !== i);
    if (twice !== undefined) throw usage(`--spec-version ${flags.specVersion} names ${twice} twice`);
  }
  if (versions && !flags.spec) {
    const bad = versions.find((v) => !isVersionName(v));
    if (bad !== undefined) throw usage(`--spec-version ${JSON.stringify(bad)} is not a version name`);
    const inputs: SchemaInput[] = [];
    for (const version of versions) {
      const specDir = await lockedSpecDir(version, {
        ...(flags.lock !== undefined ? { lockFile: flags.lock } : {}),
        ...(flags.offline ? { offline: true } : {}),
        onProgress,
      });
      inputs.push({ specDir, version });
    }
    return inputs;
  }
  checkSpecFolder(flags.spec);
  if (flags.spec && versions) {
    const missing = versions.find((v) => !isVersionName(v) || !existsSync(join(flags.spec!, "schema", v)));
    if (missing !== undefined) throw usage(`--spec-version ${JSON.stringify(missing)} is not a version folder under ${join(flags.spec, "schema")}${versionsIn(flags.spec)}`);
    return versions.map((version) => ({ specDir: flags.spec!, version }));
  }
  if (flags.spec) throw usage(`--spec needs --spec-version${versionsIn(flags.spec)}`);
  throw usage("missing input: give --schema <file>, or --spec <dir> with --spec-version <name>, or --spec-version <name> alone for the locked spec revision (see `spec fetch`)");
}

/**
 * The schemas a scaffold serves. With one modern schema and `--eras` not `modern`, the
 * {@link LEGACY_SPEC_VERSION} schema of the same spec folder joins it (dual-era); when it cannot
 * be found, scaffold refuses (MCG413) naming where it looked and `--eras modern`, unless the
 * schema is too old to scaffold at all (MCG411). `partnerAdded`: the legacy schema was added here
 * (with a locked version: the lock's own).
 */
async function scaffoldInputs(flags: ScaffoldFlags, io: CliIO): Promise<{ schema: SchemaInput[]; partnerAdded: boolean }> {
  const inputs = await schemaInputs(flags, io);
  const modernOnly = flags.eras === "modern";
  if (inputs.length > 1) {
    if (modernOnly) throw usage(`--eras modern serves one schema; ${inputs.length} were given`);
    return { schema: inputs, partnerAdded: false };
  }
  if (modernOnly || isLegacyInput(inputs[0]!)) return { schema: inputs, partnerAdded: false };
  if (lockedInputs(flags)) {
    // The partner of a locked version is a version of the same lock, read and checked as the first was.
    const lockFile = flags.lock ?? LOCK_FILE_NAME;
    const pin = readLock(lockFile)?.pins[0];
    if (pin !== undefined && !Object.hasOwn(pin.schemas, LEGACY_SPEC_VERSION)) {
      throw missingLegacy(
        inputs[0]!,
        `the locked revision ${pin.commit} (${lockFile}) does not name it (versions there: ${Object.keys(pin.schemas).sort().join(", ")})`,
        "Pin a revision that has it (spec fetch --ref <ref> --update)",
      );
    }
    const older = OLDER_LEGACY_SPEC_VERSIONS.filter((v) => pin !== undefined && Object.hasOwn(pin.schemas, v));
    const partners = await schemaInputs({ ...flags, specVersion: [LEGACY_SPEC_VERSION, ...older].join(",") }, { ...io, stderr: () => {} });
    return { schema: [inputs[0]!, ...partners], partnerAdded: true };
  }
  const legacy = legacyBeside(inputs[0]!);
  if (legacy === undefined || !existsSync(legacy.path)) {
    throw missingLegacy(
      inputs[0]!,
      legacy ? `it is not at ${legacy.path}` : "a schema given as text has no spec folder to find it in",
      `Give it (--spec-version <modern>,${LEGACY_SPEC_VERSION}, or a second --schema)`,
    );
  }
  const older = OLDER_LEGACY_SPEC_VERSIONS.map((v) => legacyBeside(inputs[0]!, v)).filter((l) => l !== undefined && existsSync(l.path));
  return { schema: [inputs[0]!, legacy.input, ...older.map((l) => l!.input)], partnerAdded: true };
}

/** Refuses a schema too old to scaffold (MCG411): that says more than anything else wrong with the inputs. */
function requireStatelessInput(input: SchemaInput): void {
  const { protocol, ir } = analyzeSchema(input, DEFAULT_OPTIONS);
  requireStateless(protocol, ir);
}

/**
 * MCG413: the legacy schema a dual-era scaffold needs is missing (`why`), with `remedy` and
 * `--eras modern`; throws MCG411 instead when the modern `input` is too old to scaffold anyway.
 */
function missingLegacy(input: SchemaInput, why: string, remedy: string): GeneratorError {
  requireStatelessInput(input);
  return new GeneratorError([
    {
      code: "MCG413",
      message:
        `scaffold serves both eras by default and needs the ${LEGACY_SPEC_VERSION} schema for clients that open with initialize; ${why}. ` +
        `${remedy}, or pass --eras modern for a modern-only server`,
    },
  ]);
}

/** Whether the flags read the inputs through the spec lock: `--spec-version` without `--spec`. */
function lockedInputs(flags: Pick<ScaffoldFlags, "spec" | "specVersion">): boolean {
  return flags.specVersion !== undefined && flags.spec === undefined;
}

/** Where a legacy schema (`version`) of a modern input's spec folder is: `<spec>/schema/<version>/schema.ts`, or beside `--schema`'s version folder. */
function legacyBeside(input: SchemaInput, version: string = LEGACY_SPEC_VERSION): { path: string; input: SchemaInput } | undefined {
  if ("specDir" in input) {
    const path = join(input.specDir, "schema", version, "schema.ts");
    return { path, input: { specDir: input.specDir, version } };
  }
  if ("path" in input) {
    const path = join(dirname(dirname(resolve(input.path))), version, "schema.ts");
    return { path, input: { path } };
  }
  return undefined;
}

/** Whether `input` is itself the legacy schema (scaffold then refuses it as of an older revision, MCG411). */
function isLegacyInput(input: SchemaInput): boolean {
  if ("specDir" in input) return input.version === LEGACY_SPEC_VERSION;
  return "path" in input && basename(dirname(resolve(input.path))) === LEGACY_SPEC_VERSION;
}

/** A progress printer (stderr) that says each distinct line once: several versions of one locked revision report it once. */
export function progressOnce(io: CliIO): (line: string) => void {
  const said = new Set<string>();
  return (line) => {
    if (said.has(line)) return;
    said.add(line);
    io.stderr(`${line}\n`);
  };
}

/** @throws GeneratorError MCG001 when `--spec` names no spec repository's folder ({@link specFolderProblem}). */
export function checkSpecFolder(spec: string | undefined): void {
  const problem = spec === undefined ? undefined : specFolderProblem(spec);
  if (problem !== undefined) throw usage(`--spec ${spec} ${problem}`);
}

export function usage(message: string): GeneratorError {
  return new GeneratorError([{ code: "MCG001", message }]);
}

/** A list option's value (`--targets types,meta`): every name must be one of its choices. */
function parseList(spec: OptionSpec, list: string): string[] {
  const names = list.split(",").map((s) => s.trim()).filter(Boolean);
  const unknown = names.filter((n) => !spec.choices.includes(n));
  if (unknown.length > 0 || names.length === 0) {
    throw usage(`unknown ${spec.flag.split(" ")[0]!.slice(2).replace(/s$/, "")} ${unknown.join(", ") || "(empty list)"}; choose from ${spec.choices.join(", ")}`);
  }
  return names;
}

/** The options given on the command line (`only`: those the user typed, not commander's defaults). */
function chosenOptions(flags: GenerateFlags, only?: ReadonlySet<string>): Partial<GeneratorOptions> {
  const chosen: Record<string, unknown> = {};
  for (const spec of OPTION_SPECS) {
    const value = flags[spec.key];
    if (value !== undefined && (!only || only.has(spec.key))) chosen[spec.key] = spec.list ? parseList(spec, value) : value;
  }
  return chosen as Partial<GeneratorOptions>;
}

/** One generation the command runs: from the flags, or one output of the configuration file. */
interface GenerateJob {
  readonly options: Omit<GenerateOptions, "schema">;
  /** The input(s); `undefined` when the flags name them. Locked versions are read (and fetched if need be) when the job runs. */
  readonly schema: ConfigInput | readonly ConfigInput[] | undefined;
  readonly out: string;
}

/**
 * What `generate` runs: the flags' one output, or, without an input and `--out`, every output of
 * the configuration file (`--config`, else the nearest one), with option flags applied to each.
 */
function generateJobs(flags: GenerateFlags, given: ReadonlySet<string>): GenerateJob[] {
  const hasInput = flags.schema !== undefined || flags.spec !== undefined || flags.specVersion !== undefined;
  if (flags.config === undefined && (hasInput || flags.out !== undefined)) {
    if (flags.out === undefined) throw usage("missing --out <dir>: the output folder");
    if (flags.check && flags.dumpIr !== undefined) throw usage("--dump-ir writes a file and --check writes nothing: give one of them");
    // --out alone beside a configuration file: the file is not read then, and the input is missing; say both.
    const file = hasInput ? undefined : findConfigFile(process.cwd());
    if (file !== undefined) {
      throw usage(`missing input for --out: give --schema <file>, or --spec <dir> with --spec-version <name>; or leave --out out to generate every output of ${relative(process.cwd(), file) || file}`);
    }
    return [{ options: chosenOptions(flags), schema: undefined, out: flags.out }];
  }
  if (hasInput || flags.out !== undefined) throw usage("--config cannot be combined with --schema, --spec, --spec-version or --out");
  if (flags.lock !== undefined) throw usage(`--lock goes with --spec-version; in a configuration file, an input { "version": "<name>" } names its lock with "lock" (default: ${LOCK_FILE_NAME} beside the file)`);
  if (flags.dumpIr !== undefined) throw usage("--dump-ir needs an input and --out (a configuration file may have several outputs)");
  const file = flags.config ?? findConfigFile(process.cwd());
  if (file === undefined) {
    throw usage(
      `missing input: give --schema <file> (or --spec <dir> with --spec-version <name>, or --spec-version <name> alone for the locked spec revision) and --out <dir>, or write a ${CONFIG_FILE_NAME} (none was found in ${process.cwd()} or above)`,
    );
  }
  const config = loadConfig(file);
  const overrides = chosenOptions(flags, given);
  return config.outputs.map((output) => ({ options: { ...output.options, ...overrides }, schema: output.input, out: relativeOut(output.out) }));
}

/** An output folder as printed: relative to the current folder when inside it. */
function relativeOut(out: string): string {
  const rel = relative(process.cwd(), out);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel : out;
}

/**
 * The nearest configuration file when it names `out` as one of its outputs, which a run whose
 * command line names the input and `--out` does not read; `undefined` otherwise, and when the
 * file cannot be read (this is a note, not a check of the file).
 */
function configAlsoWriting(out: string): string | undefined {
  const file = findConfigFile(process.cwd());
  if (file === undefined) return undefined;
  // The same folder however it is spelled, as output folders are compared: through links, in its parents too (helper-102, helper-103).
  try {
    return loadConfig(file).outputs.some((output) => writeTarget(output.out) === writeTarget(out)) ? file : undefined;
  } catch {
    return undefined;
  }
}

async function runGenerate(flags: GenerateFlags, given: ReadonlySet<string>, io: CliIO): Promise<number> {
  let jobs: GenerateJob[];
  try {
    jobs = generateJobs(flags, given);
  } catch (error) {
    reportError(error, io, Boolean(flags.debug));
    return EXIT_ERROR;
  }
  // A scaffolded project's configuration names its output and options (`transports`): a run with flags that writes the
  // same folder uses none of them (helper-100).
  const config = flags.config === undefined && flags.out !== undefined ? configAlsoWriting(flags.out) : undefined;
  if (config !== undefined) {
    io.stderr(`note: ${relative(process.cwd(), config) || config} also writes ${flags.out}, with inputs and options of its own; it is not read when the command line names the input and --out (run generate without them to use it)\n`);
  }
  // Every output is generated before any is written: one that fails leaves all of them as they were.
  const several = jobs.length > 1;
  const debug = Boolean(flags.debug);
  const prepared: Prepared[] = [];
  let failed = 0;
  // With several outputs and no --check, the errors of all of them stop every write: one tally says so at the end.
  let errors = 0;
  const stopsAll = several && !flags.check;
  const nothingWritten = () => io.stderr(tally(errors, `nothing was written to any of the ${jobs.length} outputs`));
  // Outputs and versions of one locked revision say where it was found once.
  const onProgress = progressOnce(io);
  for (const job of jobs) {
    try {
      prepared.push(await prepareOne(job, flags, io, onProgress));
    } catch (error) {
      failed++;
      if (stopsAll) {
        errors += printError(error, io, debug);
        printStack(error, io, debug);
      } else reportError(error, io, debug, several ? `${job.out} was not checked` : flags.check ? "nothing was checked" : undefined);
    }
  }
  if (failed > 0 && !flags.check) {
    if (stopsAll) nothingWritten();
    return EXIT_ERROR;
  }
  // What writing would refuse (a file the generator did not write, a link where its folders go) is checked for every output first too.
  if (stopsAll) {
    for (const one of prepared) {
      try {
        checkOutput(one.out, one.files, { replaceForeign: Boolean(flags.force) });
      } catch (error) {
        failed++;
        errors += printError(error, io, debug);
        printStack(error, io, debug);
      }
    }
    if (failed > 0) {
      nothingWritten();
      return EXIT_ERROR;
    }
  }
  let code = failed > 0 ? EXIT_ERROR : EXIT_OK;
  try {
    for (const [i, one] of prepared.entries()) {
      // A Ctrl-C during the write before ends the run here, not after the next output's wait for its lock (helper-108).
      await heldSignalsReleased();
      // Said if a signal ends the run once this output is written: the outputs after it are not (helper-112: nothing was said).
      const left = prepared.slice(i + 1).map((p) => p.out);
      setInterruptNote(left.length === 0 ? undefined : `interrupted: ${left.join(", ")} ${left.length === 1 ? "was" : "were"} not written`);
      code = Math.max(code, finishOne(one, flags, io, several));
    }
  } finally {
    setInterruptNote(undefined);
  }
  return code;
}

/** One output generated, not written yet: where it goes, its files (the manifest last) and what generate returned. */
interface Prepared {
  readonly out: string;
  readonly result: Awaited<ReturnType<typeof generate>>;
  readonly manifest: GeneratedFile;
  readonly files: readonly GeneratedFile[];
}

/** Generates one output in memory (its warnings printed); throws what stops it. */
async function prepareOne(job: GenerateJob, flags: GenerateFlags, io: CliIO, onProgress: (line: string) => void): Promise<Prepared> {
  const progress = { ...(flags.offline ? { offline: true } : {}), onProgress };
  const schema = job.schema !== undefined ? await configInputs(job.schema, progress) : await schemaInputs(flags, io, onProgress);
  if (flags.dumpIr !== undefined) checkDumpIrPath(flags.dumpIr, job.out, schema);
  let result: GenerateResult;
  try {
    result = await generate({ ...job.options, schema });
  } catch (error) {
    // Inputs one output cannot serve together are said at the configuration's inputs that name them.
    throw job.schema !== undefined && error instanceof GeneratorError ? locatedAtInputs(error, job.schema) : error;
  }
  for (const warning of result.warnings) io.stderr(`${formatDiagnostic(warning, "warning")}\n`);
  // The manifest goes with the generated files: `--check` reads it to explain drift.
  const manifest = manifestFile(result, GENERATOR_VERSION);
  return { out: job.out, result, manifest, files: [...result.files, manifest] };
}

/**
 * Refuses, before anything is generated or written, a `--dump-ir` path whose write would fail
 * or destroy something: its folder missing or the path a folder (MCG403); the path in the output
 * folder, which is written as a whole, or an input schema (MCG001).
 */
function checkDumpIrPath(path: string, out: string, schema: readonly SchemaInput[]): void {
  const target = writeTarget(path, "--dump-ir");
  const folder = dirname(target);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new GeneratorError([{ code: "MCG403", message: `--dump-ir ${path}: the folder ${folder} does not exist` }]);
  if (existsSync(target) && statSync(target).isDirectory()) throw new GeneratorError([{ code: "MCG403", message: `--dump-ir ${path} is a folder; give the path of a file` }]);
  const output = writeTarget(out);
  if (target === output || isInside(target, output)) throw usage(`--dump-ir ${path} is in the output folder ${out}, which is written as a whole; give a path outside it`);
  for (const input of schema) {
    const file = "path" in input ? input.path : "specDir" in input ? join(input.specDir, "schema", input.version, "schema.ts") : undefined;
    if (file !== undefined && writeTarget(file) === target) throw usage(`--dump-ir ${path} is the input schema ${file}; give another path`);
  }
}

/** What `--dump-ir` writes: the IR, or with several revisions `{ revisions: [{ folder, ir }] }`, one per revision. */
function dumpedIr(result: Prepared["result"]): unknown {
  return result.revisions === undefined ? result.ir : { revisions: result.revisions.map((r) => ({ folder: r.folder, ir: r.ir })) };
}

/** Checks (`--check`) or writes one generated output; with several, an error writing one names it, and the others go on. */
function finishOne(prepared: Prepared, flags: GenerateFlags, io: CliIO, several: boolean): number {
  const { out, result, manifest, files } = prepared;
  try {
    if (flags.check) {
      // The folder is judged as a write would judge it (MCG402: not a folder, or inside a file): a check of an output
      // that cannot be written is an error, not drift; it may be the current folder or hold it (a check replaces nothing).
      // Files the generator did not write are drift here.
      const statuses = checkOutput(out, files, { replaceForeign: true, compareOnly: true });
      // What a killed run left beside the folder, which a project's own build may pick up (helper-106: a copy beside
      // src/generated/ was compiled into dist/, and --check said nothing).
      const left = leftByKilledRun(out);
      if (left.length > 0) io.stderr(`warning: a run killed while writing ${out} left ${left.join(", ")}; the next generate without --check recovers the output and removes them\n`);
      const drift = statuses.filter((s) => s.state !== "unchanged");
      if (drift.length === 0) {
        io.stdout(`${out}: ${result.files.length} ${result.files.length === 1 ? "file" : "files"} up to date\n`);
        return EXIT_OK;
      }
      explainDrift(out, manifest, files, drift, io);
      return EXIT_DRIFT;
    }
    // Read before the write replaces it: options that changed since are said, as --check says them (helper-100: a
    // scaffolded project regenerated with flags lost its transports, and only "2 stale removed" told of it).
    // Without a readable manifest, from a generated file's header, as --check reads it (helper-102).
    // Read under the write's lock, so that it is what this write replaces (helper-103: a run that waited for another
    // compared with the folder as it was before the other's write).
    const fresh = JSON.parse(manifest.contents) as Manifest;
    // The protocol revisions served, when they changed: dropping one drops its clients (helper-104: a dual-era project
    // regenerated from the draft alone stopped serving 2025-11-25 clients, and nothing said so).
    // Only between schemas that name their protocol version (a fixture schema may name none: then nothing is said).
    const served = (m: Manifest): string[] | undefined => {
      const versions = revisionsOf(m).map((r) => r.protocol.protocolVersion);
      return versions.every((v) => v !== undefined) ? (versions as string[]) : undefined;
    };
    let changedOptions: string[] = [];
    let revisionsBefore: string[] | undefined;
    let manifestBefore: Manifest | undefined;
    const readBefore = (folder: string) => {
      const onDisk = readManifest(folder);
      manifestBefore = onDisk.state === "read" ? onDisk.manifest : undefined;
      const before = onDisk.state === "read" ? onDisk.manifest.options : headerFacts(folder, result.files.map((f) => f.path), result.files)?.options;
      changedOptions = before !== undefined ? optionChanges(before, fresh.options) : [];
      revisionsBefore = onDisk.state === "read" ? served(onDisk.manifest) : undefined;
    };
    const statuses = writeOutput(out, files, {
      onWait: (lockPath, owner) => io.stderr(`waiting for ${lockPath}: another generate run (pid ${owner}) is writing ${out}\n`),
      onWarning: (message) => io.stderr(`warning: ${message}\n`),
      onLocked: readBefore,
      replaceForeign: Boolean(flags.force),
    });
    const count = (state: string) => statuses.filter((s) => s.state === state && s.path !== MANIFEST_FILE).length;
    const removed = statuses.filter((s) => s.state === "stale" && s.path !== MANIFEST_FILE).map((s) => inFolder(out, s.path));
    const written = count("changed") + count("missing");
    // The manifest changes with any file, and is counted with none; rewritten alone (damaged, or deleted), it is named
    // (helper-106: "0 written" was said of a run that rewrote it).
    const manifestAlone = written === 0 && statuses.some((s) => s.path === MANIFEST_FILE && (s.state === "changed" || s.state === "missing"));
    io.stdout(`${out}: ${written} written, ${count("unchanged")} unchanged${removed.length > 0 ? `, ${removed.length} stale removed` : ""}${manifestAlone ? `; ${MANIFEST_FILE} rewritten` : ""}\n`);
    const revisionsNow = served(fresh);
    if (revisionsBefore !== undefined && revisionsNow !== undefined && revisionsBefore.join() !== revisionsNow.join()) {
      const gone = revisionsBefore.filter((v) => !revisionsNow.includes(v));
      // An output without a dispatcher (a client's: --targets without dispatch) serves no one: say what left it (helper-158).
      const serves = files.some((f) => f.path === "dispatch.ts");
      const noLonger =
        gone.length === 0
          ? ""
          : serves
            ? ` (clients of ${gone.join(", ")} are no longer served)`
            : ` (${gone.join(", ")} ${gone.length === 1 ? "is" : "are"} no longer in the output)`;
      // The same revisions in another order (helper-105): the handler revision, or the order they are listed in, moved.
      const what = [...revisionsBefore].sort().join() === [...revisionsNow].sort().join() ? "the order of the protocol revisions" : "the protocol revisions";
      io.stdout(`${what} changed since ${out} was generated: ${revisionsBefore.join(", ")} → ${revisionsNow.join(", ")}${noLonger}\n`);
    }
    // A revision whose input changed: its protocol changes listed, as --check lists them (helper-100: only --check said
    // what an update changed, and a plain run that followed the update said nothing of it).
    if (manifestBefore !== undefined) printInputChanges(out, manifestBefore, fresh, io);
    if (changedOptions.length > 0) io.stdout(`the options changed since ${out} was generated: ${changedOptions.join(", ")}\n`);
    if (removed.length > 0) io.stdout(`removed (this run does not produce them): ${removed.join(", ")}\n`);
    if (flags.dumpIr) {
      try {
        writeFileAtomic(flags.dumpIr, `${JSON.stringify(dumpedIr(result), null, 2)}\n`);
      } catch (error) {
        // The output is in place by now: say so, rather than that nothing was written.
        reportError(error, io, Boolean(flags.debug), `${out} was written; the IR was not`);
        return EXIT_ERROR;
      }
    }
    return EXIT_OK;
  } catch (error) {
    reportError(error, io, Boolean(flags.debug), flags.check ? `${out} was not checked` : several ? `nothing was written to ${out}` : undefined);
    return EXIT_ERROR;
  }
}

/**
 * What `--check` prints for drift: when the input changed, the protocol changes (from the
 * manifest on disk) before the file diffs; when only the options changed, which ones and the
 * files that differ, without their diffs; otherwise the file diffs.
 */
function explainDrift(out: string, manifest: GeneratedFile, generated: readonly GeneratedFile[], drift: readonly FileStatus[], io: CliIO): void {
  const inOut = (path: string) => inFolder(out, path);
  const fresh = JSON.parse(manifest.contents) as Manifest;
  const onDisk = readManifest(out);
  const old = onDisk.state === "read" ? onDisk.manifest : undefined;
  const code = drift.filter((s) => s.path !== MANIFEST_FILE);
  // The manifest changes with any file, and is named beside them only when it is missing (helper-85: a folder not there
  // listed every file but it).
  const files = code.length > 0 ? [...code, ...drift.filter((s) => s.path === MANIFEST_FILE && s.state === "missing")] : drift;
  const differ = `${files.length} ${files.length === 1 ? "file differs" : "files differ"}; run without --check to regenerate\n`;
  // An output written before manifests existed (or whose manifest went) still names its input and options in each header:
  // the sha256s of a changed file's header are compared with those of this run's file of the same path (a multi-revision
  // header names one per revision; helper-102: its last was compared with the first revision's).
  const fromHeaders = old ? undefined : headerFacts(out, code.filter((s) => s.state === "changed").map((s) => s.path), generated);
  const before = old ? { options: old.options } : fromHeaders;
  let inputChanged: boolean;
  // An output of several revisions (now or before) names each revision whose input changed.
  if (old && (old.revisions !== undefined || fresh.revisions !== undefined)) inputChanged = revisionChanges(out, old, fresh, io);
  else {
    // As sets: the same inputs named in another order are the same inputs (helper-103).
    const sameInputs = (a: readonly string[], b: readonly string[]) => [...a].sort().join() === [...b].sort().join();
    inputChanged = old ? old.input.sha256 !== fresh.input.sha256 : fromHeaders !== undefined && !sameInputs(fromHeaders.sha256s, fromHeaders.freshSha256s);
    if (inputChanged) {
      const change =
        old !== undefined
          ? inputChange(old.input.file, old.input.sha256, fresh.input)
          : fromHeaders!.sha256s.length === 1 && fromHeaders!.freshSha256s.length === 1
            ? inputChange(undefined, fromHeaders!.sha256s[0]!, { file: fresh.input.file, sha256: fromHeaders!.freshSha256s[0]! })
            : `sha256 ${fromHeaders!.sha256s.map(shortSha).join(", ")} → ${fromHeaders!.freshSha256s.map(shortSha).join(", ")}`;
      io.stdout(`the input changed since ${out} was generated: ${change}\n`);
      if (old) io.stdout(protocolChanges(old.protocol, fresh.protocol));
      else if (onDisk.state === "unreadable") {
        io.stdout(`(${inOut(MANIFEST_FILE)} cannot be read (${onDisk.reason}), so the protocol changes cannot be listed; it is rewritten by the next run without --check)\n`);
      } else io.stdout(`(${out} has no ${MANIFEST_FILE}, so the protocol changes cannot be listed; it is written by the next run without --check)\n`);
    }
  }
  // Options changed with the input: said too, since the files' headers are then not shown (see headerOnly below).
  const changedOptions = before ? optionChanges(before.options, fresh.options) : [];
  if (inputChanged && changedOptions.length > 0) io.stdout(`the options changed too: ${changedOptions.join(", ")}\n`);
  if (!inputChanged && onDisk.state === "unreadable") {
    io.stdout(`${inOut(MANIFEST_FILE)} cannot be read (${onDisk.reason}); it is rewritten by the next run without --check\n`);
  }
  if (!inputChanged && changedOptions.length > 0) {
    io.stdout(`only the options changed since ${out} was generated: ${changedOptions.join(", ")}\n`);
    for (const s of files) io.stdout(`${s.state}: ${inOut(s.path)}\n`);
    io.stdout(differ);
    return;
  } else if (!inputChanged && old && old.generator !== fresh.generator) {
    io.stdout(`${out} was generated by mcp-schema-codegen ${old.generator}; this is ${fresh.generator}\n`);
  }
  // Files whose header alone changed (the input's hash) are named together: their diffs would repeat that one line.
  const headerOnly = inputChanged ? files.filter((s) => s.headerOnly) : [];
  for (const s of files) {
    if (headerOnly.includes(s)) continue;
    io.stdout(`${s.state}: ${inOut(s.path)}\n`);
    if (s.diff) io.stdout(`${s.diff}\n`);
  }
  if (headerOnly.length > 0) io.stdout(`changed in their header only (the input's sha256): ${headerOnly.map((s) => inOut(s.path)).join(", ")}\n`);
  io.stdout(differ);
}

/** `path` inside the folder `out` as the user wrote it (`gen/x.ts`, `/x.ts`, not `//x.ts`). */
function inFolder(out: string, path: string): string {
  return `${out.replace(sep === "/" ? /\/+$/ : /[\\/]+$/, "")}/${path}`;
}

/** A manifest's revisions: those of a multi-revision output, or its one input as folder "" (the output folder itself). */
function revisionsOf(manifest: Manifest): readonly ManifestRevision[] {
  return manifest.revisions ?? [{ folder: "", input: manifest.input, protocol: manifest.protocol }];
}

/**
 * For an output of several revisions (before or now): prints each revision whose input changed
 * (with its protocol changes), was added or is gone. Answers whether there was any.
 */
function revisionChanges(out: string, old: Manifest, fresh: Manifest, io: CliIO): boolean {
  const before = revisionsOf(old);
  const after = revisionsOf(fresh);
  const where = (folder: string) => (folder === "" ? out : inFolder(out, folder));
  let any = false;
  for (const revision of after) {
    const was = before.find((r) => r.folder === revision.folder);
    if (was?.input.sha256 === revision.input.sha256) continue;
    any = true;
    if (was === undefined) {
      io.stdout(revision.folder === "" ? `${out} now holds one revision (${revision.input.file}), not a folder per revision\n` : `${where(revision.folder)} is a new revision (${revision.input.file})\n`);
      continue;
    }
    io.stdout(inputChangedLine(out, was, revision));
    io.stdout(protocolChanges(was.protocol, revision.protocol));
  }
  for (const revision of before) {
    if (after.some((r) => r.folder === revision.folder)) continue;
    any = true;
    io.stdout(revision.folder === "" ? `${out} held one revision (${revision.input.file}); it now holds a folder per revision\n` : `${where(revision.folder)} (${revision.input.file}) is no longer generated\n`);
  }
  io.stdout(handlerRevisionMoved(out, old, fresh));
  const options = optionChanges(old.options, fresh.options);
  if (any && options.length > 0) io.stdout(`the options changed too: ${options.join(", ")}\n`);
  return any;
}

/**
 * When the handler revision (the first) is in another folder than before, from another input (a spec update that
 * moved the draft's protocol version on): its protocol changes against the handler revision before, since handlers
 * are typed with it. The folders alone say only that one revision is new and another gone. Empty otherwise.
 */
function handlerRevisionMoved(out: string, old: Manifest, fresh: Manifest): string {
  const [was] = revisionsOf(old);
  const [now] = revisionsOf(fresh);
  if (was === undefined || now === undefined || was.folder === now.folder || was.input.sha256 === now.input.sha256) return "";
  const where = (folder: string) => (folder === "" ? out : inFolder(out, folder));
  const moved = `the handler revision moved from ${where(was.folder)} to ${where(now.folder)}: ${inputChange(was.input.file, was.input.sha256, now.input)}\n`;
  return moved + protocolChanges(was.protocol, now.protocol);
}

/** What changed in the protocol's terms between two snapshots, as `--check` and a write say it: each change as `diff` prints it, indented, or none. */
function protocolChanges(before: ProtocolSnapshot, after: ProtocolSnapshot): string {
  const diff = diffSnapshots(before, after);
  return hasChanges(diff) ? `protocol changes:\n${formatDiff(diff).replace(/^(?=.)/gm, "  ")}` : "protocol changes: none\n";
}

/**
 * After a write: for each revision folder of `fresh` that `old` had with another input, the
 * change of input and its protocol changes, each listed as `--check` lists them.
 */
function printInputChanges(out: string, old: Manifest, fresh: Manifest, io: CliIO): void {
  const before = revisionsOf(old);
  for (const revision of revisionsOf(fresh)) {
    const was = before.find((r) => r.folder === revision.folder);
    if (was === undefined || was.input.sha256 === revision.input.sha256) continue;
    io.stdout(inputChangedLine(out, was, revision));
    // Each change, as --check lists them: after the write, --check is clean and the input it was compared with is gone.
    io.stdout(protocolChanges(was.protocol, revision.protocol));
  }
  io.stdout(handlerRevisionMoved(out, old, fresh));
}

/** `the input of <out>/<folder> changed since it was generated: …`, said by a write and by `--check` alike. */
function inputChangedLine(out: string, was: ManifestRevision, now: ManifestRevision): string {
  const where = now.folder === "" ? out : inFolder(out, now.folder);
  return `the input of ${where} changed since it was generated: ${inputChange(was.input.file, was.input.sha256, now.input)}\n`;
}

/** How an input changed: `a.ts sha256 1234… → 5678…`, naming the file before too when its name changed (`old.ts sha256 … → new.ts sha256 …`). */
function inputChange(wasFile: string | undefined, wasSha256: string, now: { readonly file: string; readonly sha256: string }): string {
  if (wasFile !== undefined && wasFile !== now.file) return `${wasFile} sha256 ${shortSha(wasSha256)} → ${now.file} sha256 ${shortSha(now.sha256)}`;
  return `${now.file} sha256 ${shortSha(wasSha256)} → ${shortSha(now.sha256)}`;
}

/** A sha256 as messages show it: its first 12 digits. */
function shortSha(sha256: string): string {
  return `${sha256.slice(0, 12)}…`;
}

/** What an output's file on disk says of its generation in its header, beside what this run's file of that path says. */
interface HeaderFacts {
  /** The sha256 of each input its "Generated by" line names (one, or one per revision of a multi-revision output). */
  readonly sha256s: readonly string[];
  /** The same of this run's file. */
  readonly freshSha256s: readonly string[];
  readonly options: Record<string, string>;
}

/** The sha256s a header's "Generated by" line names, in order; undefined without such a line. */
function headerSha256s(contents: string): string[] | undefined {
  const line = /^\/\/ Generated by .*$/m.exec(contents.slice(0, 4096))?.[0];
  const found = line === undefined ? [] : [...line.matchAll(/\(sha256 ([0-9a-f]{64})\)/g)].map((m) => m[1]!);
  return found.length > 0 ? found : undefined;
}

/**
 * For an output without a readable manifest: the header of the first of `paths` whose file on
 * disk has one (a folder, a file that cannot be read, or one without a header is passed over),
 * with the header of this run's file of that path.
 */
function headerFacts(out: string, paths: readonly string[], files: readonly GeneratedFile[]): HeaderFacts | undefined {
  for (const path of paths) {
    // Its first 4 KiB, of a regular file only (a named pipe would block the read), after a byte order mark (helper-103).
    const read = fileHead(join(out, path), 4096);
    if (read === undefined) continue;
    const head = withoutByteOrderMark(read);
    const sha256s = headerSha256s(head);
    const options = headerOptions(head);
    const freshSha256s = headerSha256s(files.find((f) => f.path === path)?.contents ?? "");
    if (sha256s && options && freshSha256s) return { sha256s, freshSha256s, options };
  }
  return undefined;
}

/** Each option's default as a header or manifest writes it (`--docs` → `full`). */
const DEFAULT_OPTION_VALUES: Readonly<Record<string, string>> = parseOptionsLine(describeOptions(DEFAULT_OPTIONS));

/**
 * `--docs full → tags` for each option whose value differs. An option `before` lacks (a folder
 * generated before the option existed) had its default: what the generator then did (helper-103:
 * such headers read as `--transports (unset) → none`).
 */
function optionChanges(before: Readonly<Record<string, string>>, after: Readonly<Record<string, string>>): string[] {
  return Object.keys(after)
    .map((flag) => [flag, before[flag] ?? DEFAULT_OPTION_VALUES[flag] ?? "(unset)"] as const)
    .filter(([flag, was]) => was !== after[flag])
    .map(([flag, was]) => `${flag} ${was} → ${after[flag]}`);
}

/** Prints `error`, a tally line, `N errors; <outcome>` (none after an internal error), then with `debug` its stack. */
export function reportError(error: unknown, io: CliIO, debug: boolean, outcome = "nothing was written"): void {
  const n = printError(error, io, debug);
  if (error instanceof GeneratorError) io.stderr(tally(n, outcome));
  printStack(error, io, debug);
}

/** Prints `error` (a GeneratorError's warnings and diagnostics, or MCG999), not its stack; answers how many errors it held. */
function printError(error: unknown, io: CliIO, debug: boolean): number {
  let n = 1;
  if (error instanceof GeneratorError) {
    for (const w of error.warnings) io.stderr(`${formatDiagnostic(w, "warning")}\n`);
    for (const d of error.diagnostics) io.stderr([formatDiagnostic(d), ...formatRelated(d)].map((line) => `${line}\n`).join(""));
    n = error.diagnostics.length;
  } else {
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(`error MCG999: internal error: ${message}\n`);
    if (!debug) io.stderr("run again with --debug for the stack trace\n");
  }
  return n;
}

function printStack(error: unknown, io: CliIO, debug: boolean): void {
  if (debug && error instanceof Error && error.stack) io.stderr(`${error.stack}\n`);
}

function tally(errors: number, outcome: string): string {
  return `${errors} error${errors === 1 ? "" : "s"}; ${outcome}\n`;
}
