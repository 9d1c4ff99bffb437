/**
 * The CLI's commands for following the spec: `spec fetch` (download and pin a revision) and
 * `diff` (what changed between two schemas, in the protocol's terms), plus the `--offline` and
 * `--lock` flags that `generate` and `scaffold` take for `--spec-version` without `--spec`.
 *
 * Exit codes: `spec fetch` 0 success, 2 error; `diff` 0 nothing changed, 1 something did, 2 error.
 */
import type { Command } from "commander";
import { EXIT_ERROR, EXIT_OK, reportError, type CliIO } from "./cli.js";
import { fetchSpec, LOCK_FILE_NAME } from "./spec/index.js";

/** The flags that choose how a locked revision is read. */
export interface LockedInputFlags {
  offline?: boolean;
  lock?: string;
}

/** Adds `--offline` and `--lock` to a command that reads a schema. */
export function addLockedInputOptions(command: Command): void {
  command
    .option("--offline", "with --spec-version alone: never use the network; the locked revision must be in the cache")
    .option("--lock <file>", `the spec lock file (default: ./${LOCK_FILE_NAME})`);
}

interface FetchFlags extends LockedInputFlags {
  ref?: string;
  update?: boolean;
  debug?: boolean;
}

/** Adds `spec fetch` (and later `diff`) to the program. */
export function addSpecCommands(program: Command, io: CliIO, setDebug: (debug: boolean) => void, setExit: (code: number) => void): void {
  const spec = program.command("spec").description("follow the upstream spec: download and pin a revision");
  const fetchCommand = spec
    .command("fetch")
    .description(`download the spec repository at a ref, pin it in ./${LOCK_FILE_NAME} and keep schema/ and docs/specification/ in the cache`)
    .option("--ref <ref>", "a tag, branch or commit (default: the locked pins, or main when there is no lock)")
    .option("--update", "move the pin to what the ref names now and rewrite the lock")
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
  addLockedInputOptions(fetchCommand);
}

async function runFetch(flags: FetchFlags, io: CliIO): Promise<number> {
  try {
    const fetched = await fetchSpec({
      ...(flags.ref !== undefined ? { ref: flags.ref } : {}),
      ...(flags.lock !== undefined ? { lockFile: flags.lock } : {}),
      ...(flags.update ? { update: true } : {}),
      ...(flags.offline ? { offline: true } : {}),
      onProgress: (line) => io.stderr(`${line}\n`),
    });
    for (const f of fetched) {
      io.stdout(`${f.pin.ref} ${f.pin.commit} ${f.dir} (versions: ${Object.keys(f.pin.schemas).join(", ")})\n`);
    }
    return EXIT_OK;
  } catch (error) {
    reportError(error, io, Boolean(flags.debug), "nothing was cached");
    return EXIT_ERROR;
  }
}
