/**
 * The command line: exit codes, --help/--version, errors with locations and nothing
 * written, atomic and idempotent writes, --check drift detection, --dump-ir, --targets.
 * Runs `run(argv, io)` in-process (no build of dist/ needed).
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawn, spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { Project } from "ts-morph";
import { buildPrivateCli } from "./support/cli-build.js";
import { cli } from "./support/cli.js";
import { OPTION_SPECS, GENERATOR_VERSION } from "../generator/index.js";
import { ROOT, scratchDir, SPEC_DIR } from "./support/corpus.js";


const DRAFT = join(SPEC_DIR, "schema", "draft", "schema.ts");

describe("mcp-schema-codegen CLI", () => {
  it("prints help listing every option of the options table, exit 0", async () => {
    const { code, stdout } = await cli("generate", "--help");
    expect(code).toBe(0);
    for (const spec of OPTION_SPECS) {
      expect(stdout).toContain(spec.flag.split(" ")[0]);
      for (const choice of spec.choices) expect(stdout).toContain(choice);
    }
    expect(stdout).toContain("Exit codes: 0 success, 1 --check found drift, 2 error.");
    expect(stdout).toContain("Several schemas (repeated --schema, or --spec-version draft,2025-11-25) make one output serving every revision:");
  });

  it("prints the package version", async () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
    const { code, stdout } = await cli("--version");
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(pkg.version);
    expect(GENERATOR_VERSION).toBe(pkg.version);
  });

  it("exits 2 on usage errors", async () => {
    expect((await cli()).code).toBe(2);
    expect((await cli("frobnicate")).code).toBe(2);
    // help for a command that does not exist says so, as the command itself does.
    expect(await cli("help", "frobnicate")).toMatchObject({ code: 2, stdout: "", stderr: "error MCG001: unknown command 'frobnicate'\n(run with --help for usage)\n" });
    // The start of one command's name is said to be it (helper-80); a close misspelling is commander's, said once.
    const suggested = (asked: string, name: string) => `error MCG001: unknown command '${asked}'\n(Did you mean ${name}?)\n(run with --help for usage)\n`;
    expect(await cli("gen", "--schema", "x.ts")).toMatchObject({ code: 2, stdout: "", stderr: suggested("gen", "generate") });
    expect(await cli("help", "scaf")).toMatchObject({ code: 2, stdout: "", stderr: suggested("scaf", "scaffold") });
    expect(await cli("generat")).toMatchObject({ code: 2, stdout: "", stderr: suggested("generat", "generate") });
    expect(await cli("s")).toMatchObject({ code: 2, stdout: "", stderr: "error MCG001: unknown command 's'\n(run with --help for usage)\n" });
    // Among the command's own subcommands, and before commander's nearest by edit distance (helper-82: `spec ge` was told
    // generate, `sc` spec).
    expect(await cli("spec", "fe")).toMatchObject({ code: 2, stdout: "", stderr: suggested("fe", "fetch") });
    expect(await cli("spec", "ge")).toMatchObject({ code: 2, stdout: "", stderr: "error MCG001: unknown command 'ge'\n(run with --help for usage)\n" });
    // With --help too: commander answered it with spec's help, exit 0 (helper-86).
    expect(await cli("spec", "fe", "--help")).toMatchObject({ code: 2, stdout: "", stderr: suggested("fe", "fetch") });
    expect(await cli("gen", "--help")).toMatchObject({ code: 2, stdout: "", stderr: suggested("gen", "generate") });
    expect(await cli("fe", "-h")).toMatchObject({ code: 2, stdout: "", stderr: "error MCG001: unknown command 'fe'\n(run with --help for usage)\n" });
    expect(await cli("spec", "help", "fetch")).toMatchObject({ code: 0, stdout: expect.stringContaining("Usage: mcp-schema-codegen spec fetch") as unknown });
    expect(await cli("sc")).toMatchObject({ code: 2, stdout: "", stderr: suggested("sc", "scaffold") });
    expect(await cli("help", "generate")).toMatchObject({ code: 0, stdout: expect.stringContaining("Usage: mcp-schema-codegen generate") as unknown });
    expect(await cli("help", "spec", "fetch")).toMatchObject({ code: 0, stdout: expect.stringContaining("Usage: mcp-schema-codegen spec fetch") as unknown });
    expect(await cli("help", "spec", "bogus")).toMatchObject({ code: 2, stdout: "", stderr: "error MCG001: unknown command 'spec bogus'\n(run with --help for usage)\n" });
    // help of a subcommand's start is told it as the subcommand itself is.
    expect(await cli("help", "spec", "fe")).toMatchObject({ code: 2, stdout: "", stderr: suggested("spec fe", "fetch") });
    expect(await cli("help", "spec", "f")).toMatchObject({ code: 2, stdout: "", stderr: "error MCG001: unknown command 'spec f'\n(run with --help for usage)\n" });
    // Anything else after help is commander's: help, never a run of the command.
    expect(await cli("help", "-h", "spec")).toMatchObject({ code: 0, stdout: expect.stringContaining("Usage: mcp-schema-codegen") as unknown });
    expect(await cli("help", "scaffold", "my-server")).toMatchObject({ code: 0, stdout: expect.stringContaining("Usage: mcp-schema-codegen scaffold") as unknown });
    const dir = scratchDir("cli-help-lock");
    const home = process.cwd();
    process.chdir(dir);
    try {
      expect((await cli("help", "spec", "fetch", "--lock")).stdout).toContain("Usage: mcp-schema-codegen spec");
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      process.chdir(home);
    }
    // help of help is the general help, asked for: exit 0 on stdout (it was exit 2 with the help on stderr and no message).
    const general = await cli("help");
    expect(general.code).toBe(0);
    for (const argv of [["help", "help"], ["help", "help", "-h"], ["help", "help", "--help"]]) expect(await cli(...argv)).toEqual(general);
    // help help <words> is help <words> (helper-93: it showed the general help, and exit 0 for an unknown command).
    expect(await cli("help", "help", "generate")).toEqual(await cli("help", "generate"));
    expect(await cli("help", "help", "spec", "fetch")).toEqual(await cli("help", "spec", "fetch"));
    expect(await cli("help", "help", "nosuch")).toMatchObject({ code: 2, stdout: "", stderr: "error MCG001: unknown command 'nosuch'\n(run with --help for usage)\n" });
    for (const flag of ["--help", "-h"]) expect(await cli("help", flag)).toMatchObject({ code: 0, stdout: expect.stringContaining("Usage: mcp-schema-codegen") as unknown });
    // The top-level help says how the spec is followed and where the reference is (helper-85: it pointed nowhere).
    const help = (await cli("--help")).stdout;
    expect(help.slice(help.indexOf("\nFollowing the spec:"))).toMatch(/^\nFollowing the spec: spec fetch pins .*\n(.*\n)+README\.md is the full reference\.\n\n$/);
    // Within commander's 80 columns (helper-87: 84).
    expect(Math.max(...help.split("\n").map((line) => line.length))).toBeLessThanOrEqual(80);
    const noInput = await cli("generate", "--out", join(scratchDir("cli-usage"), "out"));
    expect(noInput.code).toBe(2);
    expect(noInput.stderr).toContain("error MCG001: missing input");
    const badChoice = await cli("generate", "--schema", DRAFT, "--out", "x", "--docs", "some");
    expect(badChoice.code).toBe(2);
    expect(badChoice.stderr).toContain("error MCG001: option '--docs <mode>' argument 'some' is invalid");
    const outside = await cli("generate", "--spec", SPEC_DIR, "--spec-version", "../schema/draft", "--out", "x");
    expect(outside.code).toBe(2);
    expect(outside.stderr).toContain('error MCG001: --spec-version "../schema/draft" is not a version folder under');
    expect(outside.stderr).toContain("versions there: 2024-11-05, 2025-03-26");
    const noVersion = await cli("generate", "--spec", SPEC_DIR, "--out", "x");
    expect(noVersion.stderr).toContain("error MCG001: --spec needs --spec-version; versions there: ");
    // A --spec that is no spec repository's folder is said to be so, not blamed on --spec-version (helper-80).
    const specFolder = join(SPEC_DIR, "schema");
    const nowhere = join(scratchDir("cli-spec-folder"), "nowhere");
    for (const [command, spec, said] of [
      [["generate", "--spec-version", "draft", "--out", "x"], specFolder, `has no schema/ folder: it is one itself (it holds 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28, draft); give the repository's folder, ${SPEC_DIR}`],
      [["diff", "draft", "2025-11-25"], specFolder, `has no schema/ folder: it is one itself (it holds 2024-11-05`],
      [["scaffold", join(nowhere, "..", "server"), "--spec-version", "draft"], nowhere, "does not exist"],
      [["generate", "--spec-version", "draft", "--out", "x"], DRAFT, "is not a folder"],
      [["generate", "--spec-version", "draft", "--out", "x"], join(SPEC_DIR, "docs"), "has no schema/ folder (a clone of the spec repository has schema/<version>/schema.ts)"],
    ] as const) {
      const result = await cli(...command, "--spec", spec);
      expect([result.code, result.stderr]).toEqual([2, expect.stringContaining(`error MCG001: --spec ${spec} ${said}`)]);
    }
    // An unknown flag is named (not a missing --out or input).
    const unknownFlag = await cli("generate", "--frobnicate");
    expect(unknownFlag.code).toBe(2);
    expect(unknownFlag.stderr).toBe("error MCG001: unknown option '--frobnicate'\n(run with --help for usage)\n");
    const noOut = await cli("generate", "--schema", DRAFT);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toContain("error MCG001: missing --out <dir>");
    const badTarget = await cli("generate", "--schema", DRAFT, "--out", "x", "--targets", "types,nope");
    expect(badTarget.code).toBe(2);
    expect(badTarget.stderr).toContain("unknown target nope");
  });

  it("reports unsupported constructs with file:line:col, exit 2, and writes nothing", async () => {
    const dir = scratchDir("cli-bad");
    const schema = join(dir, "schema.ts");
    writeFileSync(schema, 'export interface A { x: string }\nexport type M = { [K in "a" | "b"]: number };\nexport type G<T> = T[];\n');
    const out = join(dir, "out");
    const { code, stderr } = await cli("generate", "--schema", schema, "--out", out);
    expect(code).toBe(2);
    expect(stderr).toContain(`${schema}:2:17 - error MCG201: unsupported construct: mapped type`);
    expect(stderr).toContain(`${schema}:3:1 - error MCG201: unsupported construct: generic type alias`);
    expect(stderr).toContain("2 errors; nothing was written");
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(out)).toBe(false);
  });

  it("reports imports as MCG202, not as module-resolution errors", async () => {
    const dir = scratchDir("cli-imports");
    const schema = join(dir, "schema.ts");
    writeFileSync(schema, 'import { Foo } from "./other.js";\nexport interface A { x: Foo }\n');
    const { code, stderr } = await cli("generate", "--schema", schema, "--out", join(dir, "out"));
    expect(code).toBe(2);
    expect(stderr).toBe(
      `${schema}:1:1 - error MCG202: imports from other files are not supported: the schema must be one self-contained file\n` +
        "1 error; nothing was written\n",
    );
  });

  it("refuses a lock path that is not its lock folder, at once", async () => {
    const dir = scratchDir("cli-lock");
    writeFileSync(join(dir, "out.lock"), "");
    const started = Date.now();
    const { code, stderr } = await cli("generate", "--schema", DRAFT, "--out", join(dir, "out"), "--targets", "types");
    expect(code).toBe(2);
    expect(stderr).toContain(`error MCG401: ${join(dir, "out.lock")} exists and is not a lock folder of this tool`);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(existsSync(join(dir, "out"))).toBe(false);
  });

  it("shows a stack trace only with --debug", async () => {
    const dir = scratchDir("cli-debug");
    const { stderr } = await cli("generate", "--schema", join(dir, "missing.ts"), "--out", join(dir, "out"), "--debug");
    expect(stderr).toContain("error MCG101: schema file not found");
    expect(stderr).toMatch(/\n\s+at /);
  });

  it("passes every option of the options table to the generator (--enum-style, --protocol-rules)", async () => {
    const dir = scratchDir("cli-options");
    const out = join(dir, "out");
    const run = await cli("generate", "--schema", DRAFT, "--out", out, "--targets", "errors,meta", "--enum-style", "ts-enum", "--protocol-rules", "2025-06-18");
    expect(run.code).toBe(0);
    const errors = readFileSync(join(out, "errors.ts"), "utf8");
    expect(errors.split("\n")[1]).toBe("// Options: --docs full --number-type integer --targets types,validators,errors,meta --enum-style ts-enum --protocol-rules 2025-06-18 --import-extension js --transports none");
    expect(errors).toMatch(/^export enum ErrorCode \{/m);
    // The 2025-06-18 rules: a label `mcp` followed by another label reserves the prefix (`mcp.dev/`, not `dev.mcp/`).
    const meta = (await import(join(out, "meta.ts"))) as { isReservedMetaKey: (key: string) => boolean };
    expect(meta.isReservedMetaKey("mcp.dev/x")).toBe(true);
    expect(meta.isReservedMetaKey("io.modelcontextprotocol/x")).toBe(false);
  });

  it("writes, then leaves unchanged files alone, and --check detects a one-byte change", async () => {
    const dir = scratchDir("cli-write");
    const out = join(dir, "out");
    const first = await cli("generate", "--schema", DRAFT, "--out", out, "--docs", "tags");
    expect(first.code).toBe(0);
    // Seven generated modules and the six runtime modules they import.
    expect(first.stdout).toContain("13 written, 0 unchanged");
    expect(readdirSync(out).sort()).toEqual(["codegen-manifest.json", "dispatch.ts", "errors.ts", "index.ts", "meta.ts", "methods.ts", "runtime", "types.ts", "validators.ts"]);
    expect(readdirSync(join(out, "runtime")).sort()).toEqual(["dispatcher.ts", "errors.ts", "json.ts", "meta.ts", "methods.ts", "tool-arguments.ts"]);
    expect(readdirSync(dir).sort()).toEqual(["out"]); // no temporary or lock folder left behind

    const past = new Date("2020-01-01T00:00:00Z");
    utimesSync(join(out, "types.ts"), past, past);
    const second = await cli("generate", "--schema", DRAFT, "--out", out, "--docs", "tags");
    expect(second.stdout).toContain("0 written, 13 unchanged");
    expect(statSync(join(out, "types.ts")).mtime.getTime()).toBe(past.getTime());

    expect((await cli("generate", "--schema", DRAFT, "--out", out, "--docs", "tags", "--check")).code).toBe(0);

    const file = join(out, "validators.ts");
    const original = readFileSync(file, "utf8");
    const at = original.indexOf("MAX_DEPTH = 1000");
    writeFileSync(file, `${original.slice(0, at)}MAX_DEPTH = 1001${original.slice(at + "MAX_DEPTH = 1000".length)}`);
    const drift = await cli("generate", "--schema", DRAFT, "--out", out, "--docs", "tags", "--check");
    expect(drift.code).toBe(1);
    expect(drift.stdout).toContain(`changed: ${out}/validators.ts`);
    expect(drift.stdout).toContain("- export const MAX_DEPTH = 1001;");
    expect(drift.stdout).toContain("+ export const MAX_DEPTH = 1000;");
    expect(drift.stdout).toContain("1 file differs; run without --check to regenerate");
    expect(readFileSync(file, "utf8")).not.toBe(original); // --check wrote nothing

    // a different option is drift too
    expect((await cli("generate", "--schema", DRAFT, "--out", out, "--docs", "none", "--check")).code).toBe(1);
  });

  it("refuses to replace a file it did not write (MCG404, nothing written) unless --force", async () => {
    const out = join(scratchDir("cli-foreign"), "out");
    mkdirSync(out);
    writeFileSync(join(out, "index.ts"), "export const mine = 1;\n");
    writeFileSync(join(out, "notes.ts"), "// kept\n");
    const refused = await cli("generate", "--schema", DRAFT, "--out", out, "--docs", "tags");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`error MCG404: ${out} holds a file the generator did not write, where it writes its own: index.ts; move it away, or give --force to replace it`);
    expect(readdirSync(out).sort()).toEqual(["index.ts", "notes.ts"]);
    expect(readFileSync(join(out, "index.ts"), "utf8")).toBe("export const mine = 1;\n");
    const forced = await cli("generate", "--schema", DRAFT, "--out", out, "--docs", "tags", "--force");
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(join(out, "index.ts"), "utf8")).toMatch(/^\/\/ Generated by mcp-schema-codegen /);
    expect(readFileSync(join(out, "notes.ts"), "utf8")).toBe("// kept\n");
    // Its own files, changed by hand, are replaced without --force (they still carry the header).
    writeFileSync(join(out, "types.ts"), `${readFileSync(join(out, "types.ts"), "utf8")}// edited\n`);
    expect((await cli("generate", "--schema", DRAFT, "--out", out, "--docs", "tags")).stdout).toContain("1 written, 12 unchanged");
  });

  it("--check judges --out as a write would (a file is an error, exit 2, not drift), but may run from inside it", async () => {
    const dir = scratchDir("cli-check-bad-out");
    writeFileSync(join(dir, "afile"), "x");
    const file = await cli("generate", "--schema", DRAFT, "--out", join(dir, "afile"), "--check");
    expect(file).toEqual({ code: 2, stdout: "", stderr: `error MCG402: --out ${join(dir, "afile")} exists and is not a folder\n1 error; ${join(dir, "afile")} was not checked\n` });
    // A schema that cannot be read: the tally says nothing was checked, as --check writes nothing anyway (helper-104).
    const missing = await cli("generate", "--schema", join(dir, "nope.ts"), "--out", join(dir, "out0"), "--check");
    expect([missing.code, missing.stderr.trimEnd().split("\n").at(-1)]).toEqual([2, "1 error; nothing was checked"]);
    // A check replaces nothing: an output holding the current folder is compared, as a write would refuse to replace it.
    const out = join(dir, "out");
    expect((await cli("generate", "--schema", DRAFT, "--out", out)).code).toBe(0);
    const home = process.cwd();
    process.chdir(out);
    try {
      expect(await cli("generate", "--schema", DRAFT, "--out", ".", "--check")).toMatchObject({ code: 0, stdout: ".: 13 files up to date\n" });
      expect((await cli("generate", "--schema", DRAFT, "--out", ".")).code).toBe(2);
    } finally {
      process.chdir(home);
    }
  });

  it("names the bad entry of a --spec-version list, an empty one included (exit 2)", async () => {
    const out = join(scratchDir("cli-bad-version"), "out");
    const empty = await cli("generate", "--spec-version", "draft,", "--out", out);
    expect(empty.code).toBe(2);
    expect(empty.stderr.split("\n")[0]).toBe('error MCG001: --spec-version "draft," has an empty name in its list');
    const climbing = await cli("generate", "--spec-version", "draft,../x", "--out", out);
    expect(climbing.stderr.split("\n")[0]).toBe('error MCG001: --spec-version "../x" is not a version name');
    // The same with --spec <dir>.
    const local = await cli("generate", "--spec", SPEC_DIR, "--spec-version", "draft,", "--out", out);
    expect(local.stderr.split("\n")[0]).toBe('error MCG001: --spec-version "draft," has an empty name in its list');
    const twice = await cli("generate", "--spec-version", "draft,,", "--out", out);
    expect(twice.stderr.split("\n")[0]).toBe('error MCG001: --spec-version "draft,," has an empty name in its list');
    expect(existsSync(out)).toBe(false);
  });

  it("--check on a missing folder reports every file missing", async () => {
    const out = join(scratchDir("cli-check-missing"), "out");
    const { code, stdout } = await cli("generate", "--schema", DRAFT, "--out", out, "--check");
    expect(code).toBe(1);
    expect(stdout).toContain(`missing: ${out}/types.ts`);
    // The manifest too, last (helper-85: every file but it was named).
    expect(stdout.split("\n").slice(-3)).toEqual([`missing: ${out}/codegen-manifest.json`, "14 files differ; run without --check to regenerate", ""]);
    expect(existsSync(out)).toBe(false);
    // A folder given with its trailing slash is named as given, with one slash before each file.
    for (const slashes of ["/", "//"]) {
      const slashed = await cli("generate", "--schema", DRAFT, "--out", `${out}${slashes}`, "--check");
      expect(slashed.stdout).toContain(`missing: ${out}/types.ts\n`);
    }
  });

  it("--targets generates only what is asked for, plus what it imports", async () => {
    const dir = scratchDir("cli-targets");
    expect((await cli("generate", "--schema", DRAFT, "--out", join(dir, "a"), "--targets", "types")).code).toBe(0);
    expect(readdirSync(join(dir, "a")).sort()).toEqual(["codegen-manifest.json", "types.ts"]);
    expect((await cli("generate", "--schema", DRAFT, "--out", join(dir, "b"), "--targets", "validators")).code).toBe(0);
    expect(readdirSync(join(dir, "b")).sort()).toEqual(["codegen-manifest.json", "types.ts", "validators.ts"]);
  });

  it("shows the warnings of a run that fails, before its errors", async () => {
    const dir = scratchDir("cli-warnings-on-failure");
    const schema = join(dir, "s.ts");
    writeFileSync(schema, 'export interface A { a: string }\nexport interface A { b: number }\nexport type B = { [K in "a"]: string };\n');
    const run = await cli("generate", "--schema", schema, "--out", join(dir, "out"));
    expect(run.code).toBe(2);
    expect(run.stderr.split("\n")).toEqual([
      `${schema}:2:1 - warning MCG250: interface A is declared more than once; the declarations are merged as TypeScript merges them`,
      `${schema}:3:17 - error MCG201: unsupported construct: mapped type \`{ [K in "a"]: string }\``,
      "1 error; nothing was written",
      "",
    ]);
  });

  it("--dump-ir into a missing folder is refused before anything is written", async () => {
    const dir = scratchDir("cli-dump-ir-missing");
    const run = await cli("generate", "--schema", DRAFT, "--out", join(dir, "out"), "--dump-ir", join(dir, "nodir", "ir.json"));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`error MCG403: --dump-ir ${join(dir, "nodir", "ir.json")}: the folder ${join(dir, "nodir")} does not exist`);
    expect(run.stderr).toContain("nothing was written");
    expect(readdirSync(dir)).toEqual([]);
  });

  it("--dump-ir at a folder, in the output folder or at the input schema is refused before anything is written; with --check it is a usage error (helper-53)", async () => {
    const dir = scratchDir("cli-dump-ir-places");
    const out = join(dir, "out");
    const schema = join(dir, "schema.ts");
    writeFileSync(schema, readFileSync(DRAFT, "utf8"));
    expect((await cli("generate", "--schema", schema, "--out", out, "--targets", "types")).code).toBe(0);
    const types = readFileSync(join(out, "types.ts"), "utf8");
    const refused = async (dumpIr: string, line: string, extra: string[] = []) => {
      const run = await cli("generate", "--schema", schema, "--out", out, "--targets", "types", "--docs", "none", "--dump-ir", dumpIr, ...extra);
      expect(run.code).toBe(2);
      expect(run.stderr.split("\n")[0]).toBe(line);
      expect(readFileSync(join(out, "types.ts"), "utf8")).toBe(types);
      expect(readFileSync(schema, "utf8")).toBe(readFileSync(DRAFT, "utf8"));
    };
    await refused(out, `error MCG403: --dump-ir ${out} is a folder; give the path of a file`);
    await refused(join(out, "types.ts"), `error MCG001: --dump-ir ${join(out, "types.ts")} is in the output folder ${out}, which is written as a whole; give a path outside it`);
    await refused(join(out, "new.json"), `error MCG001: --dump-ir ${join(out, "new.json")} is in the output folder ${out}, which is written as a whole; give a path outside it`);
    await refused(schema, `error MCG001: --dump-ir ${schema} is the input schema ${schema}; give another path`);
    await refused(join(dir, "ir.json"), "error MCG001: --dump-ir writes a file and --check writes nothing: give one of them", ["--check"]);
  });

  it("--dump-ir into a pipe (as /dev/stdout is) writes into it instead of replacing it with a file (helper-54)", async () => {
    const dir = scratchDir("cli-dump-ir-fifo");
    const fifo = join(dir, "ir.fifo");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    // A reader, as a shell pipeline is: it copies what comes through into a file.
    const reader = spawn("sh", ["-c", `timeout 60 cat "${fifo}" > "${join(dir, "received.json")}"`]);
    // Listened for before the run: the reader may end while the run still turns the event loop (it waits for the
    // signals its write held to be released), and an exit already emitted would not be heard.
    const readerDone = new Promise((resolve) => reader.on("exit", resolve));
    const run = await cli("generate", "--schema", DRAFT, "--out", join(dir, "out"), "--targets", "types", "--dump-ir", fifo);
    await readerDone;
    expect(run.code).toBe(0);
    expect(statSync(fifo).isFIFO()).toBe(true);
    expect((JSON.parse(readFileSync(join(dir, "received.json"), "utf8")) as { irVersion: number }).irVersion).toBe(1);
  });

  it("--dump-ir writes the IR as JSON with source positions", async () => {
    const dir = scratchDir("cli-ir");
    const irFile = join(dir, "ir.json");
    expect((await cli("generate", "--spec", SPEC_DIR, "--spec-version", "draft", "--out", join(dir, "out"), "--dump-ir", irFile)).code).toBe(0);
    const ir = JSON.parse(readFileSync(irFile, "utf8")) as { source: string; declarations: { name: string; kind: string; span: { line: number } }[] };
    expect(ir.source).toBe("schema.ts");
    const request = ir.declarations.find((d) => d.name === "JSONRPCRequest");
    expect(request?.kind).toBe("interface");
    const text = readFileSync(DRAFT, "utf8").split("\n");
    expect(text[request!.span.line - 1]).toContain("export interface JSONRPCRequest");
    // Several revisions: each one's IR, by its folder.
    const several = join(dir, "several.json");
    expect((await cli("generate", "--spec", SPEC_DIR, "--spec-version", "draft,2025-11-25", "--out", join(dir, "out2"), "--dump-ir", several)).code).toBe(0);
    const dumped = JSON.parse(readFileSync(several, "utf8")) as { revisions: { folder: string; ir: { declarations: { name: string }[] } }[] };
    expect(dumped.revisions.map((r) => r.folder)).toEqual(["2026-07-28", "2025-11-25"]);
    expect(dumped.revisions[1]!.ir.declarations.some((d) => d.name === "InitializeRequest")).toBe(true);
    expect(dumped.revisions[0]!.ir.declarations.some((d) => d.name === "InitializeRequest")).toBe(false);
  });
});

describe("library options", () => {
  it("rejects values outside the options table with MCG001, as the CLI does", async () => {
    const { generate, GeneratorError } = await import("../generator/index.js");
    const failure = await generate({ schema: { path: DRAFT }, docs: "bogus" as "full", targets: ["nope" as "types"] }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(GeneratorError);
    expect((failure as InstanceType<typeof GeneratorError>).diagnostics.map((d) => d.message)).toEqual([
      'docs: "bogus" is not one of full, tags, none',
      'targets: "nope" is not one of types, validators, errors, meta, methods, dispatch, index',
    ]);
  });
});

describe("the built CLI in a shell pipeline", () => {
  it("exits 0 for help asked for, and 2 (bad usage) for a command without its subcommand, which shows its help on stderr", async () => {
    const incomplete = await cli("spec");
    expect(incomplete.code).toBe(2);
    expect(incomplete.stderr).toContain("Usage: mcp-schema-codegen spec");
    expect(incomplete.stderr.trimEnd().split("\n").at(-1)).toBe("error MCG001: missing subcommand of 'spec': give one of fetch");
    const bare = await cli();
    expect(bare.code).toBe(2);
    expect(bare.stderr.trimEnd().split("\n").at(-1)).toBe("error MCG001: missing command: give one of generate, scaffold, spec, diff");
    expect((await cli("spec", "--help")).code).toBe(0);
    expect((await cli("help", "generate")).code).toBe(0);
  });

  it("takes --spec-version repeated as one list, and refuses another option with a value given twice (helper-55)", async () => {
    const dir = scratchDir("cli-repeated");
    const twice = await cli("generate", "--schema", DRAFT, "--out", join(dir, "a"), "--out", join(dir, "b"));
    expect(twice).toEqual({ code: 2, stdout: "", stderr: "error MCG001: --out is given more than once; give it once\n1 error; nothing was written\n" });
    expect(readdirSync(dir)).toEqual([]);
    expect((await cli("generate", "--schema", DRAFT, "--out", join(dir, "a"), "--docs", "none", "--docs=tags")).stderr).toMatch(/^error MCG001: --docs is given more than once/);
    const versions = await cli("generate", "--spec", SPEC_DIR, "--spec-version", "draft", "--spec-version", "2025-11-25", "--out", join(dir, "both"));
    expect(versions.code).toBe(0);
    expect(readdirSync(join(dir, "both"))).toContain("2025-11-25");
  });

  it("a first write into a folder of other things says they are there and kept (helper-55)", async () => {
    const out = join(scratchDir("cli-out-own-folder"), "src");
    mkdirSync(out);
    writeFileSync(join(out, "main.ts"), "export {};\n");
    const first = await cli("generate", "--schema", DRAFT, "--out", out, "--targets", "types");
    expect(first.code).toBe(0);
    expect(first.stderr).toBe(
      `warning: ${out} already holds what the generator did not write (main.ts); it is kept beside the generated files, which are rewritten as a whole by each run: an output folder of its own keeps them apart\n`,
    );
    expect(readFileSync(join(out, "main.ts"), "utf8")).toBe("export {};\n");
    // Once the output is there (its manifest), it is not said again.
    expect((await cli("generate", "--schema", DRAFT, "--out", out, "--targets", "types", "--docs", "none")).stderr).toBe("");
  });

  it("refuses (MCG402) to write into a folder an enclosing output writes in (a revision folder, runtime/), which it would have clobbered; an earlier generation's file there is not said to be kept (helper-75)", async () => {
    const dir = scratchDir("cli-inside-output");
    const both = join(dir, "both");
    expect((await cli("generate", "--spec", SPEC_DIR, "--spec-version", "draft,2025-11-25", "--out", both)).code).toBe(0);
    const before = readdirSync(join(both, "2025-11-25"));
    expect(before).toContain("revision.ts");
    for (const [inside, what] of [
      [join(both, "2025-11-25"), `a revision's modules in ${join(both, "2025-11-25")} (its codegen-manifest.json says so): generate that output as a whole (--spec-version naming each of its revisions, --out ${both}), or give this output a folder of its own`],
      [join(both, "runtime", "mine"), `its runtime modules in ${join(both, "runtime")}: give this output a folder of its own`],
    ] as const) {
      const refused = await cli("generate", "--schema", DRAFT, "--out", inside);
      expect(refused.code).toBe(2);
      expect(refused.stderr.split("\n").filter((l) => !l.includes("MCG260"))).toEqual([`error MCG402: ${inside} is inside the output in ${both}, which writes ${what}`, "1 error; nothing was written", ""]);
      expect((await cli("generate", "--schema", DRAFT, "--out", inside, "--check")).code).toBe(2);
    }
    // Nothing was replaced: the enclosing output is still whole, and up to date.
    expect(readdirSync(join(both, "2025-11-25"))).toEqual(before);
    expect((await cli("generate", "--spec", SPEC_DIR, "--spec-version", "draft,2025-11-25", "--out", both, "--check")).code).toBe(0);
    // An output that writes no runtime/ leaves that name free for an output nested there (helper-76).
    const bare = join(dir, "bare");
    expect((await cli("generate", "--schema", DRAFT, "--out", bare, "--targets", "types")).code).toBe(0);
    expect((await cli("generate", "--schema", DRAFT, "--out", join(bare, "runtime"), "--targets", "types")).code).toBe(0);
    expect((await cli("generate", "--schema", DRAFT, "--out", join(bare, "runtime"), "--targets", "types", "--check")).code).toBe(0);
    // Also when a runtime/ folder holding nothing generated is there first (a .gitkeep): before, MCG402 (helper-77).
    const kept = join(dir, "kept");
    expect((await cli("generate", "--schema", DRAFT, "--out", kept, "--targets", "types")).code).toBe(0);
    mkdirSync(join(kept, "runtime"));
    writeFileSync(join(kept, "runtime", ".gitkeep"), "");
    expect((await cli("generate", "--schema", DRAFT, "--out", join(kept, "runtime"), "--targets", "types")).code).toBe(0);
    // An output that does write runtime/ keeps it, emptied or not: an output nested there could not be generated again
    // once the enclosing one is (helper-78).
    const full = join(dir, "full");
    expect((await cli("generate", "--schema", DRAFT, "--out", full, "--targets", "types,errors")).code).toBe(0);
    for (const name of readdirSync(join(full, "runtime"))) rmSync(join(full, "runtime", name));
    const emptied = await cli("generate", "--schema", DRAFT, "--out", join(full, "runtime", "x"), "--targets", "types");
    expect([emptied.code, emptied.stderr.split("\n").find((l) => l.startsWith("error"))]).toEqual([2, `error MCG402: ${join(full, "runtime", "x")} is inside the output in ${full}, which writes its runtime modules in ${join(full, "runtime")}: give this output a folder of its own`]);
    // So does an output of types alone with the transports, which are runtime modules (helper-79).
    const served = join(dir, "served");
    expect((await cli("generate", "--schema", DRAFT, "--out", served, "--targets", "types", "--transports", "node")).code).toBe(0);
    for (const name of readdirSync(join(served, "runtime"))) rmSync(join(served, "runtime", name));
    expect((await cli("generate", "--schema", DRAFT, "--out", join(served, "runtime", "x"), "--targets", "types")).code).toBe(2);
    // A folder that is no output's own, holding a file of an earlier generation and one of the user's: the earlier one is
    // removed as stale, and the warning names only the user's as kept.
    const mixed = join(dir, "mixed");
    mkdirSync(mixed);
    copyFileSync(join(both, "2025-11-25", "revision.ts"), join(mixed, "revision.ts"));
    writeFileSync(join(mixed, "main.ts"), "export {};\n");
    const mixedRun = await cli("generate", "--schema", DRAFT, "--out", mixed, "--targets", "types");
    expect(mixedRun.stderr).toContain(`warning: ${mixed} already holds what the generator did not write (main.ts); it is kept`);
    expect(readdirSync(mixed).sort()).toEqual(["codegen-manifest.json", "main.ts", "types.ts"]);
  });

  it("--out without an input beside a configuration file says the file is not read then (helper-55)", async () => {
    const dir = scratchDir("cli-out-beside-config");
    writeFileSync(join(dir, "mcp-schema-codegen.config.json"), JSON.stringify({ outputs: [{ input: { schema: DRAFT }, out: "gen" }] }));
    const home = process.cwd();
    process.chdir(dir);
    try {
      expect(await cli("generate", "--out", "gen2")).toEqual({
        code: 2,
        stdout: "",
        stderr:
          "error MCG001: missing input for --out: give --schema <file>, or --spec <dir> with --spec-version <name>; or leave --out out to generate every output of mcp-schema-codegen.config.json\n1 error; nothing was written\n",
      });
    } finally {
      process.chdir(home);
    }
  });

  it("a write says which files it removed and which options changed; flags writing a configured output say the file is not read (helper-100)", async () => {
    const dir = scratchDir("cli-flags-beside-config");
    writeFileSync(join(dir, "mcp-schema-codegen.config.json"), JSON.stringify({ outputs: [{ input: { schema: DRAFT }, out: "gen", options: { targets: ["types"], transports: "node" } }] }));
    const home = process.cwd();
    process.chdir(dir);
    try {
      expect((await cli("generate")).code).toBe(0);
      expect(readdirSync(join(dir, "gen", "runtime")).sort()).toEqual(["dispatcher.ts", "http.ts", "json.ts", "stdio.ts", "tool-arguments.ts"]);
      // The same folder from flags, without the transports: a note first, then what changed and what went.
      const run = await cli("generate", "--schema", DRAFT, "--out", "gen", "--targets", "types");
      expect(run.code).toBe(0);
      expect(run.stderr).toBe(
        "note: mcp-schema-codegen.config.json also writes gen, with inputs and options of its own; it is not read when the command line names the input and --out (run generate without them to use it)\n",
      );
      expect(run.stdout).toBe(
        "gen: 1 written, 0 unchanged, 5 stale removed\n" +
          "the options changed since gen was generated: --transports node → none\n" +
          "removed (this run does not produce them): gen/runtime/dispatcher.ts, gen/runtime/http.ts, gen/runtime/json.ts, gen/runtime/stdio.ts, gen/runtime/tool-arguments.ts\n",
      );
      // The same folder through a symbolic link is the same output: the note still comes (helper-102).
      symlinkSync("gen", join(dir, "linked"));
      expect((await cli("generate", "--schema", DRAFT, "--out", "linked", "--targets", "types")).stderr).toContain("note: mcp-schema-codegen.config.json also writes linked");
      // Without the manifest, a file's header says what the options were, as --check reads them (helper-102).
      rmSync(join(dir, "gen", "codegen-manifest.json"));
      const headerOnly = await cli("generate", "--schema", DRAFT, "--out", "gen", "--targets", "types", "--docs", "none");
      expect(headerOnly.stdout).toContain("the options changed since gen was generated: --docs full → none\n");
      // Another folder: no note; nothing changed: neither line.
      const other = await cli("generate", "--schema", DRAFT, "--out", "other", "--targets", "types");
      expect([other.stderr, other.stdout]).toEqual(["", "other: 1 written, 0 unchanged\n"]);
      expect((await cli("generate", "--schema", DRAFT, "--out", "other", "--targets", "types")).stdout).toBe("other: 0 written, 1 unchanged\n");
    } finally {
      process.chdir(home);
    }
  });

  it("--check of a multi-revision output without its manifest reads each header's sha256s against this run's: only the options changed (helper-102)", async () => {
    const out = join(scratchDir("cli-multi-no-manifest"), "out");
    expect((await cli("generate", "--spec", SPEC_DIR, "--spec-version", "draft,2025-11-25", "--out", out, "--docs", "none")).code).toBe(0);
    rmSync(join(out, "codegen-manifest.json"));
    const check = await cli("generate", "--spec", SPEC_DIR, "--spec-version", "draft,2025-11-25", "--out", out, "--docs", "tags", "--check");
    expect(check.code).toBe(1);
    expect(check.stdout).not.toContain("the input changed");
    expect(check.stdout).toContain(`only the options changed since ${out} was generated: --docs none → tags\n`);
  });

  it("a write that drops a protocol revision says whose clients are no longer served (helper-104)", async () => {
    const out = join(scratchDir("cli-revisions-dropped"), "out");
    expect((await cli("generate", "--spec", SPEC_DIR, "--spec-version", "draft,2025-11-25", "--out", out, "--docs", "none")).code).toBe(0);
    const modernOnly = await cli("generate", "--spec", SPEC_DIR, "--spec-version", "draft", "--out", out, "--docs", "none");
    expect(modernOnly.code).toBe(0);
    expect(modernOnly.stdout).toContain(`the protocol revisions changed since ${out} was generated: 2026-07-28, 2025-11-25 → 2026-07-28 (clients of 2025-11-25 are no longer served)\n`);
    // The same again: nothing changed, nothing said.
    expect((await cli("generate", "--spec", SPEC_DIR, "--spec-version", "draft", "--out", out, "--docs", "none")).stdout).toBe(`${out}: 0 written, 13 unchanged\n`);
    // The same revisions in another order: said as such (helper-105).
    expect((await cli("generate", "--spec", SPEC_DIR, "--spec-version", "draft,2025-11-25,2025-06-18", "--out", out, "--docs", "none")).code).toBe(0);
    const reordered = await cli("generate", "--spec", SPEC_DIR, "--spec-version", "draft,2025-06-18,2025-11-25", "--out", out, "--docs", "none");
    expect(reordered.stdout).toContain(`the order of the protocol revisions changed since ${out} was generated: 2026-07-28, 2025-11-25, 2025-06-18 → 2026-07-28, 2025-06-18, 2025-11-25\n`);
  });

  it("an output without a dispatcher that drops a protocol revision says it is no longer in the output, not that its clients are no longer served (helper-158)", async () => {
    const out = join(scratchDir("cli-revisions-dropped-client"), "out");
    const client = ["--targets", "types,validators,methods,index", "--docs", "none"];
    expect((await cli("generate", "--spec", SPEC_DIR, "--spec-version", "draft,2025-11-25,2025-06-18", "--out", out, ...client)).code).toBe(0);
    const modernOnly = await cli("generate", "--spec", SPEC_DIR, "--spec-version", "draft", "--out", out, ...client);
    expect(modernOnly.code).toBe(0);
    expect(modernOnly.stdout).toContain(
      `the protocol revisions changed since ${out} was generated: 2026-07-28, 2025-11-25, 2025-06-18 → 2026-07-28 (2025-11-25, 2025-06-18 are no longer in the output)\n`,
    );
    expect(modernOnly.stdout).not.toContain("served");
  });

  it("without a manifest: headers after a byte order mark are read, inputs in another order are the same inputs, and runtime/ removed is not said to be kept (helper-103)", async () => {
    const dir = scratchDir("cli-headers-helper-103");
    const out = join(dir, "out");
    const versions = ["--spec", SPEC_DIR, "--spec-version"];
    expect((await cli("generate", ...versions, "draft,2025-11-25,2025-06-18", "--out", out, "--docs", "none")).code).toBe(0);
    rmSync(join(out, "codegen-manifest.json"));
    const reordered = await cli("generate", ...versions, "draft,2025-06-18,2025-11-25", "--out", out, "--docs", "none", "--check");
    expect(reordered.stdout).not.toContain("the input changed");
    // A byte order mark before each header: the options are still read from it.
    const single = join(dir, "single");
    expect((await cli("generate", "--schema", DRAFT, "--out", single, "--docs", "none")).code).toBe(0);
    rmSync(join(single, "codegen-manifest.json"));
    for (const name of ["types.ts", "validators.ts", "errors.ts", "meta.ts", "methods.ts", "dispatch.ts", "index.ts"]) {
      writeFileSync(join(single, name), "\uFEFF" + readFileSync(join(single, name), "utf8"));
    }
    const bom = await cli("generate", "--schema", DRAFT, "--out", single, "--docs", "tags", "--targets", "types");
    expect(bom.stdout).toContain("the options changed since");
    expect(bom.stdout).toContain("--docs none → tags");
    // The runtime/ folder whose files all went is not named as kept in the first write's warning.
    expect(bom.stderr).not.toContain("runtime");
    // The configuration note through a link in the parents of a folder not there yet.
    const project = join(dir, "project");
    mkdirSync(join(project, "src"), { recursive: true });
    writeFileSync(join(project, "mcp-schema-codegen.config.json"), JSON.stringify({ outputs: [{ input: { schema: DRAFT }, out: "src/generated" }] }));
    symlinkSync("src", join(project, "code"));
    const home = process.cwd();
    process.chdir(project);
    try {
      expect((await cli("generate", "--schema", DRAFT, "--out", "code/generated", "--targets", "types")).stderr).toContain("also writes code/generated");
    } finally {
      process.chdir(home);
    }
  });

  it("a header written before --import-extension and --transports existed reads as their defaults, not as '(unset)' (helper-103)", async () => {
    const out = join(scratchDir("cli-old-header"), "out");
    expect((await cli("generate", "--schema", DRAFT, "--out", out, "--targets", "types")).code).toBe(0);
    rmSync(join(out, "codegen-manifest.json"));
    const types = join(out, "types.ts");
    const old = readFileSync(types, "utf8").replace(" --import-extension js --transports none\n", "\n");
    expect(old).not.toContain("--import-extension");
    writeFileSync(types, old);
    // The same options as then: none named as changed.
    const check = await cli("generate", "--schema", DRAFT, "--out", out, "--targets", "types", "--check");
    expect(check.code).toBe(1);
    expect(check.stdout).not.toContain("options changed");
    expect(check.stdout).not.toContain("(unset)");
    // One of them changed: named from its default.
    const write = await cli("generate", "--schema", DRAFT, "--out", out, "--targets", "types", "--import-extension", "none");
    expect(write.stdout).toContain("the options changed since");
    expect(write.stdout).toContain(": --import-extension js → none\n");
  });

  it("a named pipe where a generated file goes, in an output without its manifest, is MCG402 for a write and --check, never read (review)", () => {
    // In another process, with a time limit: a read of the pipe would block this one for good.
    const cliPath = buildPrivateCli("cli-fifo");
    const out = join(scratchDir("cli-fifo-out"), "out");
    const run = (...args: string[]) => spawnSync(process.execPath, [cliPath, "generate", "--schema", DRAFT, "--out", out, "--targets", "types", ...args], { encoding: "utf8", timeout: 60_000 });
    expect(run().status).toBe(0);
    rmSync(join(out, "codegen-manifest.json"));
    rmSync(join(out, "types.ts"));
    expect(spawnSync("mkfifo", [join(out, "types.ts")]).status).toBe(0);
    for (const args of [["--docs", "none"], ["--check"]]) {
      const result = run(...args);
      expect([result.status, result.signal, result.stderr.split("\n")[0]]).toEqual([
        2,
        null,
        `error MCG402: ${join(out, "types.ts")} is not a regular file, where the generator writes one: move it away and run again`,
      ]);
    }
  });

  it("stops quietly when the reader closes the pipe (help generate | head -1): no EPIPE, exit 0", () => {
    const cliPath = buildPrivateCli("cli-epipe");
    // Several runs: whether the write races the reader's exit varies.
    for (let i = 0; i < 5; i++) {
      const run = spawnSync("bash", ["-o", "pipefail", "-c", `"${process.execPath}" "${cliPath}" help generate | head -1`], { encoding: "utf8" });
      expect(run.stdout).toBe("Usage: mcp-schema-codegen generate [options]\n");
      expect(run.stderr).toBe("");
      expect(run.status).toBe(0);
    }
  });
});

describe("README", () => {
  it("documents every option of the options table and its choices", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    for (const spec of OPTION_SPECS) {
      const flag = spec.flag.split(" ")[0]!;
      const row = readme.split("\n").find((line) => line.startsWith(`| \`${flag}`));
      expect(row, flag).toBeDefined();
      for (const choice of spec.choices) expect(row).toContain(choice);
    }
  });

  it("documents every error and warning code the generator gives in the error codes tables", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    // A row names one code or several (`| `MCG204`, `MCG205` |`).
    const listed = [...readme.matchAll(/^\| ((?:`MCG\d{3}`(?:, )?)+) \|/gm)].flatMap((m) => m[1]!.match(/MCG\d{3}/g)!);
    // One row a code: a code given to two things is two meanings for one number.
    expect(listed.filter((code, i) => listed.indexOf(code) !== i)).toEqual([]);
    const rows = new Set(listed);
    const given = new Set<string>();
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) walk(join(dir, entry.name));
        else if (entry.name.endsWith(".ts")) for (const m of readFileSync(join(dir, entry.name), "utf8").matchAll(/"(MCG\d{3})"/g)) given.add(m[1]!);
      }
    };
    walk(join(ROOT, "generator"));
    expect(given.size).toBeGreaterThan(40);
    expect([...given].filter((code) => !rows.has(code)).sort()).toEqual([]);
  });

  it("documents every option of serveHttp and serveStdio in the transports' options table (helper-65: path, port, maxBodyBytes … were missing)", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const rows = readme.split("\n").filter((line) => /^\| `[a-zA-Z]/.test(line) && /\| (both|HTTP|stdio) \|/.test(line));
    const project = new Project({ skipAddingFilesFromTsConfig: true });
    for (const [file, name] of [["http.ts", "HttpOptions"], ["stdio.ts", "StdioOptions"]] as const) {
      const options = project.addSourceFileAtPath(join(ROOT, "runtime", file)).getInterfaceOrThrow(name);
      const keys = options.getProperties().map((p) => p.getName());
      expect(keys.length).toBeGreaterThan(5);
      for (const key of keys) expect(rows.some((row) => row.split("|")[1]!.includes(`\`${key}\``)), `${name}.${key}`).toBe(true);
    }
  });
});
