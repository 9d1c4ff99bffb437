/**
 * Output writes: all or nothing, recovery from a killed run through the lock's journal,
 * nothing outside the output folder touched, symbolic links kept, dangerous folders refused,
 * generated files no longer produced removed (other files kept).
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { GeneratorError } from "../generator/errors.js";
import { generate, TARGET_NAMES, type GeneratedFile } from "../generator/index.js";
import { asideName, compareOutput, GENERATED_MARK, holdingLock, TARGETS_WITHOUT_RUNTIME, writeOutput } from "../generator/write.js";
import { MANIFEST_FILE } from "../generator/diff/manifest.js";
import { buildPrivateCli, transpilePrivate } from "./support/cli-build.js";
import { cli } from "./support/cli.js";
import { ROOT, scratchDir, SPEC_DIR } from "./support/corpus.js";

const file = (path: string, body: string): GeneratedFile => ({ path, contents: `${GENERATED_MARK}test\n${body}\n` });
const DEAD_PID = 2 ** 22 + 12345; // above Linux's pid_max default: never a live process

/** Makes a lock (or takeover) folder holding the pid file `pid`, as a run of the tool leaves it. */
function lockFolder(path: string, pid: string | number): void {
  mkdirSync(path, { recursive: true });
  writeFileSync(join(path, "pid"), String(pid));
}

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return error instanceof GeneratorError ? error.diagnostics[0]?.code : "not a GeneratorError";
  }
}

describe("compareOutput", () => {
  it("shows the first change past the generator's header, not the header's new input hash", () => {
    const out = join(scratchDir("writes-diff-header"), "out");
    const body = (changed: string) => ["a", "b", "c", "d", "e", "f", "g", "h", "i", changed, "k"].join("\n");
    writeOutput(out, [{ path: "a.ts", contents: `${GENERATED_MARK}1 (sha256 aaa)\n// Options: x\n${body("j")}\n` }]);
    const [status] = compareOutput(out, [{ path: "a.ts", contents: `${GENERATED_MARK}1 (sha256 bbb)\n// Options: x\n${body("J")}\n` }]);
    expect(status).toEqual({ path: "a.ts", state: "changed", diff: "@@ line 12 @@\n- j\n+ J" });
  });
});

describe("writeOutput", () => {
  it("knows which targets write no runtime/ as the emitter does: each target alone, and those targets together", async () => {
    const schema = { path: join(SPEC_DIR, "schema", "draft", "schema.ts") };
    const writesRuntime = async (targets: readonly string[]) =>
      (await generate({ schema, targets: targets as never, docs: "none" })).files.some((f) => f.path.startsWith("runtime/"));
    const alone = await Promise.all(TARGET_NAMES.map(async (target) => [target, await writesRuntime([target])] as const));
    expect(alone).toEqual(TARGET_NAMES.map((target) => [target, !TARGETS_WITHOUT_RUNTIME.has(target)]));
    expect(await writesRuntime([...TARGETS_WITHOUT_RUNTIME])).toBe(false);
  }, 60_000);

  it("writes runtime/ files, removes stale ones and the runtime/ folder they leave empty", () => {
    const out = join(scratchDir("writes-runtime"), "out");
    writeOutput(out, [file("a.ts", "1"), file("runtime/json.ts", "2"), file("runtime/meta.ts", "3")]);
    expect(readdirSync(join(out, "runtime")).sort()).toEqual(["json.ts", "meta.ts"]);
    writeOutput(out, [file("a.ts", "1"), file("runtime/json.ts", "2")]);
    expect(readdirSync(join(out, "runtime"))).toEqual(["json.ts"]);
    writeOutput(out, [file("a.ts", "1")]);
    expect(readdirSync(out)).toEqual(["a.ts"]);
  });

  it("refuses (MCG402, nothing written anywhere) a runtime/ that is a symbolic link or a file", () => {
    const dir = scratchDir("writes-runtime-link");
    const out = join(dir, "out");
    mkdirSync(join(dir, "elsewhere"));
    writeFileSync(join(dir, "elsewhere", "meta.ts"), `${GENERATED_MARK}someone else's\n`);
    writeOutput(out, [file("a.ts", "1")]);
    symlinkSync(join(dir, "elsewhere"), join(out, "runtime"), "dir");
    expect(codeOf(() => writeOutput(out, [file("a.ts", "2"), file("runtime/json.ts", "2")]))).toBe("MCG402");
    expect(readdirSync(join(dir, "elsewhere"))).toEqual(["meta.ts"]);
    expect(readFileSync(join(out, "a.ts"), "utf8")).toBe(file("a.ts", "1").contents);
    renameSync(join(out, "runtime"), join(dir, "link"));
    writeFileSync(join(out, "runtime"), "a file");
    expect(codeOf(() => writeOutput(out, [file("a.ts", "2")]))).toBe("MCG402");
    expect(readdirSync(dir).sort()).toEqual(["elsewhere", "link", "out"]);
  });

  it("leaves folders beside the output alone, even when their names look like ours", () => {
    const dir = scratchDir("writes-siblings");
    mkdirSync(join(dir, "out.old-backup"));
    writeFileSync(join(dir, "out.old-backup", "IMPORTANT.txt"), "keep");
    mkdirSync(join(dir, "out.tmp-notes"));
    writeFileSync(join(dir, "out.tmp-notes", "n.txt"), "keep");
    // Names a run of this tool would use (a pid after .old-/.tmp-), not made by one: never touched.
    mkdirSync(join(dir, "out.old-2024"));
    writeFileSync(join(dir, "out.old-2024", "x"), "keep");
    writeFileSync(join(dir, "out.tmp-7"), "keep");
    writeOutput(join(dir, "out"), [file("a.ts", "1")]);
    writeOutput(join(dir, "out"), [file("a.ts", "2")]);
    expect(readdirSync(dir).sort()).toEqual(["out", "out.old-2024", "out.old-backup", "out.tmp-7", "out.tmp-notes"]);
    expect(readdirSync(join(dir, "out"))).toEqual(["a.ts"]);
  });

  it("an interrupt (SIGINT, SIGTERM) during a write takes effect once the write is done: the output whole, no copy or lock left (helper-106)", () => {
    const module = transpilePrivate("writes-signals", join(ROOT, "generator", "write.ts"));
    const dir = scratchDir("writes-signals-out");
    const script = join(dir, "write.mjs");
    // The run signals itself once it holds the lock, and goes on for a moment, as a Ctrl-C in the middle of a write.
    writeFileSync(
      script,
      [
        `import { writeOutput } from ${JSON.stringify(pathToFileURL(module).href)};`,
        "const [out, signal] = process.argv.slice(2);",
        "const files = Array.from({ length: 40 }, (_, i) => ({ path: `m${i}.ts`, contents: `// module ${i}\\n` }));",
        "writeOutput(out, files, { onLocked: () => { process.kill(process.pid, signal); const end = Date.now() + 200; while (Date.now() < end) {} } });",
        "process.stdout.write('written\\n');",
        "setTimeout(() => process.stdout.write('not ended\\n'), 3000);",
      ].join("\n"),
    );
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      const out = join(dir, signal);
      const run = spawnSync(process.execPath, [script, out, signal], { encoding: "utf8", timeout: 30_000 });
      // Ended by the signal, once the write was done: not before it (nothing written), not never (it ran on).
      expect([run.signal, run.stdout]).toEqual([signal, "written\n"]);
      expect(readdirSync(out).length).toBe(40);
      expect(readFileSync(join(out, "m39.ts"), "utf8")).toBe("// module 39\n");
      expect(readdirSync(dir).filter((name) => name.startsWith(`${signal}.`))).toEqual([]);
    }
    // A caller that awaits heldSignalsReleased before its next write, or before it exits at once, as the CLI does: the
    // signal ends it there, so the next output is not written and the exit is not 0 (helper-108). Twelve writes in a
    // row share one set of listeners (helper-108: a warning of too many listeners).
    const sequence = join(dir, "sequence.mjs");
    writeFileSync(
      sequence,
      [
        `import { writeOutput, heldSignalsReleased, setInterruptNote } from ${JSON.stringify(pathToFileURL(module).href)};`,
        "const [dir] = process.argv.slice(2);",
        "const files = [{ path: 'a.ts', contents: '// a\\n' }];",
        "for (let i = 0; i < 12; i++) writeOutput(dir + '/quiet-' + i, files);",
        "await heldSignalsReleased();",
        // What the command line says of the outputs left unwritten (helper-112: a config run said nothing).
        "setInterruptNote('interrupted: second was not written');",
        "writeOutput(dir + '/first', files, { onLocked: () => process.kill(process.pid, 'SIGINT') });",
        "await heldSignalsReleased();",
        "writeOutput(dir + '/second', files);",
        "process.exit(0);",
      ].join("\n"),
    );
    const both = spawnSync(process.execPath, [sequence, dir], { encoding: "utf8", timeout: 30_000 });
    expect([both.signal, both.stderr]).toEqual(["SIGINT", "interrupted: second was not written (SIGINT)\n"]);
    expect(existsSync(join(dir, "first", "a.ts"))).toBe(true);
    expect(existsSync(join(dir, "second"))).toBe(false);
  });

  it("recovers from a run killed between its two renames, using the dead run's journal", () => {
    const dir = scratchDir("writes-journal");
    const out = join(dir, "out");
    writeOutput(out, [file("a.ts", "old")]);
    // What a killed run leaves: out moved aside, the new folder built, the lock and its journal.
    const old = `${out}.old-${DEAD_PID}`;
    const tmp = `${out}.tmp-${DEAD_PID}`;
    writeOutput(tmp, [file("a.ts", "half")]);
    renameSync(out, old);
    lockFolder(`${out}.lock`, DEAD_PID);
    writeFileSync(join(`${out}.lock`, "journal"), JSON.stringify({ tmp, old }));
    expect(compareOutput(out, [file("a.ts", "old")])[0]!.state).toBe("missing");
    const statuses = writeOutput(out, [file("a.ts", "old")]);
    expect(statuses.map((s) => s.state)).toEqual(["unchanged"]); // the old folder came back first
    expect(readdirSync(dir)).toEqual(["out"]);
  });

  it("--check names what a killed run left beside the output, and the next write removes it (helper-106)", async () => {
    const dir = scratchDir("writes-check-leftovers");
    const out = join(dir, "out");
    const schema = join(dir, "schema.ts");
    writeFileSync(schema, "/** A. */\nexport interface A {\n  a: string;\n}\n");
    const args = ["generate", "--schema", schema, "--out", out, "--targets", "types"];
    expect((await cli(...args)).code).toBe(0);
    // A run killed (SIGKILL) with its copy half-built.
    const tmp = `${out}.tmp-${DEAD_PID}`;
    mkdirSync(tmp);
    writeFileSync(join(tmp, "types.ts"), "// half\n");
    lockFolder(`${out}.lock`, DEAD_PID);
    writeFileSync(join(`${out}.lock`, "journal"), JSON.stringify({ tmp, old: `${out}.old-${DEAD_PID}` }));
    const check = await cli(...args, "--check");
    expect([check.code, check.stdout]).toEqual([0, `${out}: 1 file up to date\n`]);
    const said = `warning: a run killed while writing ${out} left ${out}.lock, ${tmp}; the next generate without --check recovers the output and removes them`;
    expect(check.stderr.split("\n")).toContain(said);
    expect((await cli(...args, "--docs", "none")).code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(["out", "schema.ts"]);
    expect((await cli(...args, "--docs", "none", "--check")).stderr).not.toContain("killed");
  });

  it("takes over a lock folder left empty by a run killed while taking it, after a few seconds", () => {
    const dir = scratchDir("writes-empty-lock");
    const out = join(dir, "out");
    mkdirSync(`${out}.lock`);
    const past = new Date(Date.now() - 60_000);
    utimesSync(`${out}.lock`, past, past);
    writeOutput(out, [file("a.ts", "1")], { lockTimeoutMs: 1000 });
    expect(readdirSync(dir)).toEqual(["out"]);
  });

  it("does not take over a fresh lock whose pid file is still empty (its owner is writing it)", () => {
    // Regression: an empty pid file read as pid 0, "not alive", so a run starting at the same
    // moment as another took over the other's live lock and both wrote the folder.
    const dir = scratchDir("writes-empty-pid");
    const out = join(dir, "out");
    lockFolder(`${out}.lock`, "");
    expect(codeOf(() => writeOutput(out, [file("a.ts", "1")], { lockTimeoutMs: 300 }))).toBe("MCG401");
    expect(existsSync(out)).toBe(false);
    // Left empty by a run killed while writing it: taken over once it is old.
    const past = new Date(Date.now() - 60_000);
    utimesSync(`${out}.lock`, past, past);
    writeOutput(out, [file("a.ts", "1")], { lockTimeoutMs: 300 });
    expect(readdirSync(dir)).toEqual(["out"]);
  });

  it("takes the lock when its owner releases it between this run's attempt and its look (no MCG403)", async () => {
    // A live process takes and releases the lock as fast as it can, so this run often finds the
    // folder at mkdir and then not at stat. Before the fix one of those ended the run with MCG403 ENOENT.
    const out = join(scratchDir("writes-released-lock"), "out");
    const churn = [
      "const fs = require('node:fs'), path = require('node:path');",
      "const [lock, ms] = process.argv.slice(1); const until = Date.now() + Number(ms); let said = false;",
      "while (Date.now() < until) {",
      // Released as writeOutput releases: the pid file, then the folder if it is still empty.
      "  try { fs.mkdirSync(lock); fs.writeFileSync(path.join(lock, 'pid'), String(process.pid)); fs.rmSync(path.join(lock, 'pid'));",
      "    try { fs.rmdirSync(lock); } catch (e) { if (e.code !== 'ENOTEMPTY') throw e; } }",
      "  catch (e) { if (e.code !== 'EEXIST') throw e; }",
      "  if (!said) { said = true; process.stdout.write('go\\n'); }",
      "}",
    ].join("\n");
    const child = spawn(process.execPath, ["-e", churn, `${out}.lock`, "2500"], { stdio: ["ignore", "pipe", "inherit"] });
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    await new Promise<void>((resolve) => child.stdout!.once("data", () => resolve()));
    let writes = 0;
    const until = Date.now() + 1_500;
    while (Date.now() < until) writeOutput(out, [file("a.ts", String(++writes))], { lockTimeoutMs: 10_000 });
    expect(await exited).toBe(0);
    expect(readFileSync(join(out, "a.ts"), "utf8")).toBe(file("a.ts", String(writes)).contents);
    expect(readdirSync(join(out, ".."))).toEqual(["out"]);
  }, 20_000);

  it("removes at once a takeover guard without a pid file (a guard is claimed with its pid; one without is being removed)", () => {
    const out = join(scratchDir("writes-takeover-guard"), "out");
    lockFolder(`${out}.lock`, DEAD_PID);
    mkdirSync(`${out}.lock.takeover`);
    writeOutput(out, [file("a.ts", "1")], { lockTimeoutMs: 1000 });
    expect(readdirSync(join(out, ".."))).toEqual(["out"]);
    expect(readFileSync(join(out, "a.ts"), "utf8")).toBe(file("a.ts", "1").contents);
    // Left by a run killed while removing its guard, with no lock in the way: the next run removes it too.
    mkdirSync(`${out}.lock.takeover`);
    writeOutput(out, [file("a.ts", "2")], { lockTimeoutMs: 1000 });
    expect(readdirSync(join(out, ".."))).toEqual(["out"]);
  });

  it("recovers through a symbolic link --out whose folder a killed run left moved aside", () => {
    const parent = scratchDir("writes-link-recover");
    const real = join(parent, "real");
    // What a run killed between its two renames leaves: the folder aside, the lock and its journal.
    mkdirSync(`${real}.old-${DEAD_PID}`);
    writeFileSync(join(`${real}.old-${DEAD_PID}`, "keep.txt"), "the user's");
    mkdirSync(`${real}.tmp-${DEAD_PID}`);
    lockFolder(`${real}.lock`, DEAD_PID);
    writeFileSync(join(`${real}.lock`, "journal"), JSON.stringify({ tmp: `${real}.tmp-${DEAD_PID}`, old: `${real}.old-${DEAD_PID}` }));
    symlinkSync("real", join(parent, "link"));
    writeOutput(join(parent, "link"), [file("a.ts", "1")], { lockTimeoutMs: 1000 });
    expect(readdirSync(parent).sort()).toEqual(["link", "real"]);
    expect(readFileSync(join(parent, "link", "keep.txt"), "utf8")).toBe("the user's");
    expect(readlinkSync(join(parent, "link"))).toBe("real");
  });

  it("leaves a takeover guard whose owner is alive, however old; removes one whose owner is dead, with or without a lock", () => {
    const parent = scratchDir("writes-guard-owner");
    const out = join(parent, "out");
    const past = new Date(Date.now() - 60_000);
    lockFolder(`${out}.lock`, DEAD_PID);
    // A live run stalled while it takes the dead lock over (stopped, in a debugger): not stale.
    lockFolder(`${out}.lock.takeover`, process.ppid);
    utimesSync(`${out}.lock.takeover`, past, past);
    expect(codeOf(() => writeOutput(out, [file("a.ts", "1")], { lockTimeoutMs: 300 }))).toBe("MCG401");
    expect(readdirSync(parent).sort()).toEqual(["out.lock", "out.lock.takeover"]);
    // Its owner died: the guard goes, then the lock.
    writeFileSync(join(`${out}.lock.takeover`, "pid"), String(DEAD_PID));
    writeOutput(out, [file("a.ts", "1")], { lockTimeoutMs: 1000 });
    expect(readdirSync(parent)).toEqual(["out"]);
    // A guard left by a run killed after it removed the dead lock: no takeover is needed, and the next run removes it.
    lockFolder(`${out}.lock.takeover`, DEAD_PID);
    writeOutput(out, [file("a.ts", "2")], { lockTimeoutMs: 1000 });
    expect(readdirSync(parent)).toEqual(["out"]);
  });

  it("removes a folder a killed run of this pid space left renamed aside, and never another space's", () => {
    const parent = scratchDir("writes-asides");
    const out = join(parent, "out");
    const ours = asideName(`${out}.lock`, DEAD_PID);
    const untagged = `${out}.lock.gone-${DEAD_PID}`; // read as this space's, as a bare pid in a pid file is
    const foreign = `${out}.lock.gone-${DEAD_PID}-0a1b2c3d`;
    const live = asideName(`${out}.lock.takeover`, process.ppid);
    const unrelated = `${out}.lock.gone-${DEAD_PID}-0a1b2c3d-x`;
    for (const folder of [ours, untagged, foreign, live, unrelated]) lockFolder(folder, DEAD_PID);
    writeOutput(out, [file("a.ts", "1")]);
    expect(ours).toMatch(new RegExp(`\\.lock\\.gone-${DEAD_PID}-[0-9a-f]{8}$`));
    expect(readdirSync(parent).sort()).toEqual(["out", ...[foreign, live, unrelated].map((f) => f.slice(parent.length + 1))].sort());
  });

  it("never judges a lock whose pid belongs to another pid space (another host or container)", () => {
    const parent = scratchDir("writes-foreign-lock");
    const out = join(parent, "out");
    lockFolder(`${out}.lock`, `${DEAD_PID} elsewhere/pid:[4026531836]`);
    const past = new Date(Date.now() - 60_000);
    utimesSync(`${out}.lock`, past, past);
    let message = "";
    try {
      writeOutput(out, [file("a.ts", "1")], { lockTimeoutMs: 300 });
    } catch (error) {
      message = error instanceof GeneratorError ? error.diagnostics.map((d) => `${d.code} ${d.message}`).join("\n") : String(error);
    }
    expect(message).toMatch(/^MCG401 .*pid \d+ of elsewhere\/pid:\[4026531836\].*remove .*out\.lock and run again/);
    expect(readdirSync(parent)).toEqual(["out.lock"]);
  });

  it("refuses a lock path that is a symbolic link (dangling or not) at once, without spinning", () => {
    const parent = scratchDir("writes-link-lock");
    const out = join(parent, "out");
    symlinkSync(join(parent, "nowhere"), `${out}.lock`);
    const started = Date.now();
    expect(codeOf(() => writeOutput(out, [file("a.ts", "1")], { lockTimeoutMs: 5000 }))).toBe("MCG401");
    expect(Date.now() - started).toBeLessThan(2000);
    expect(readdirSync(parent)).toEqual(["out.lock"]);
  });

  it("stops with MCG403 (no spin) when the folder that holds --out is removed while it waits", () => {
    const parent = join(scratchDir("writes-parent-gone"), "gen");
    const out = join(parent, "out");
    lockFolder(`${out}.lock`, process.ppid);
    const started = Date.now();
    const onWait = () => rmSync(parent, { recursive: true, force: true });
    expect(codeOf(() => writeOutput(out, [file("a.ts", "1")], { lockTimeoutMs: 3000, onWait }))).toBe("MCG403");
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("follows a symbolic link --out whose target climbs with .. from where the link really is", () => {
    const root = scratchDir("writes-link-dotdot");
    mkdirSync(join(root, "x"));
    mkdirSync(join(root, "y", "b"), { recursive: true });
    symlinkSync(join("..", "y", "b"), join(root, "x", "a"));
    symlinkSync(join("..", "real"), join(root, "y", "b", "out"));
    writeOutput(join(root, "x", "a", "out"), [file("a.ts", "1")], { lockTimeoutMs: 1000 });
    expect(readFileSync(join(root, "y", "real", "a.ts"), "utf8")).toBe(file("a.ts", "1").contents);
    expect(readdirSync(join(root, "x")).sort()).toEqual(["a"]);
    expect(readdirSync(join(root, "y")).sort()).toEqual(["b", "real"]);
  });

  it("waits for a live lock, says so, and then gives up with MCG401", () => {
    const dir = scratchDir("writes-live-lock");
    const out = join(dir, "out");
    lockFolder(`${out}.lock`, process.pid);
    const waits: string[] = [];
    expect(codeOf(() => writeOutput(out, [file("a.ts", "1")], { lockTimeoutMs: 200, onWait: (lock) => waits.push(lock) }))).toBe("MCG401");
    expect(waits).toEqual([`${out}.lock`]);
    expect(existsSync(out)).toBe(false);
  });

  it("writes through a symbolic link into the folder it names, and keeps the link", () => {
    const dir = scratchDir("writes-symlink");
    mkdirSync(join(dir, "real"));
    symlinkSync("real", join(dir, "out"));
    writeOutput(join(dir, "out"), [file("a.ts", "1")]);
    expect(readlinkSync(join(dir, "out"))).toBe("real");
    expect(readdirSync(join(dir, "real"))).toEqual(["a.ts"]);
  });

  it("keeps a relative link of yours relative; replaces a link where a generated file goes with the file, its target untouched; refuses a folder there (helper-102)", () => {
    const dir = scratchDir("writes-links-inside");
    const out = join(dir, "out");
    writeOutput(out, [file("a.ts", "1"), file("b.ts", "2")]);
    writeFileSync(join(dir, "notes.md"), "notes\n");
    symlinkSync(join("..", "notes.md"), join(out, "NOTES.md"));
    // a.ts a link to a file outside the folder, b.ts a link to nothing.
    writeFileSync(join(dir, "outside.ts"), readFileSync(join(out, "a.ts"), "utf8"));
    rmSync(join(out, "a.ts"));
    symlinkSync(join("..", "outside.ts"), join(out, "a.ts"));
    rmSync(join(out, "b.ts"));
    symlinkSync(join(dir, "nowhere.ts"), join(out, "b.ts"));
    expect(writeOutput(out, [file("a.ts", "one"), file("b.ts", "2")]).map((s) => `${s.path} ${s.state}`)).toEqual(["a.ts changed", "b.ts missing"]);
    expect(readlinkSync(join(out, "NOTES.md"))).toBe(join("..", "notes.md"));
    expect(readFileSync(join(dir, "outside.ts"), "utf8")).toBe(`${GENERATED_MARK}test\n1\n`);
    expect(readFileSync(join(out, "a.ts"), "utf8")).toBe(`${GENERATED_MARK}test\none\n`);
    expect(existsSync(join(dir, "nowhere.ts"))).toBe(false);
    expect(readFileSync(join(out, "b.ts"), "utf8")).toBe(`${GENERATED_MARK}test\n2\n`);
    // A folder where a file goes is in the way (MCG402), for a write and a comparison alike; nothing changes.
    rmSync(join(out, "b.ts"));
    mkdirSync(join(out, "b.ts"));
    expect(codeOf(() => writeOutput(out, [file("a.ts", "one"), file("b.ts", "2")]))).toBe("MCG402");
    expect(() => compareOutput(out, [file("b.ts", "2")])).toThrow(`${join(out, "b.ts")} is a folder, where the generator writes a file: move it away and run again`);
    expect(readdirSync(out).sort()).toEqual(["NOTES.md", "a.ts", "b.ts"]);
  });

  it("keeps links of yours to generated files (never stale); a link to a folder where a file goes is a file it did not write (MCG404, --force replaces it); one that is not a regular file is MCG402, read never (helper-103, helper-105)", async () => {
    const dir = scratchDir("writes-links-yours");
    const out = join(dir, "out");
    writeOutput(out, [file("a.ts", "1"), file("runtime/json.ts", "2")]);
    symlinkSync("a.ts", join(out, "alias.ts"));
    symlinkSync(join("..", "a.ts"), join(out, "runtime", "alias.ts"));
    expect(compareOutput(out, [file("a.ts", "1"), file("runtime/json.ts", "2")]).map((s) => s.state)).toEqual(["unchanged", "unchanged"]);
    writeOutput(out, [file("a.ts", "one"), file("runtime/json.ts", "2")]);
    expect([readlinkSync(join(out, "alias.ts")), readlinkSync(join(out, "runtime", "alias.ts"))]).toEqual(["a.ts", join("..", "a.ts")]);
    // A link to a folder where a generated file goes.
    mkdirSync(join(dir, "elsewhere"));
    rmSync(join(out, "a.ts"));
    symlinkSync(join("..", "elsewhere"), join(out, "a.ts"));
    expect(codeOf(() => writeOutput(out, [file("a.ts", "one")]))).toBe("MCG404");
    writeOutput(out, [file("a.ts", "one"), file("runtime/json.ts", "2")], { replaceForeign: true });
    expect(readFileSync(join(out, "a.ts"), "utf8")).toBe(`${GENERATED_MARK}test\none\n`);
    expect(readdirSync(join(dir, "elsewhere"))).toEqual([]);
    // Something that is not a regular file where one goes (a socket; a named pipe would block the read).
    rmSync(join(out, "a.ts"));
    const socket = createServer().listen(join(out, "a.ts"));
    await new Promise((resolve) => socket.once("listening", resolve));
    try {
      expect(() => compareOutput(out, [file("a.ts", "one")])).toThrow(`${join(out, "a.ts")} is not a regular file, where the generator writes one: move it away and run again`);
    } finally {
      await new Promise((resolve) => socket.close(resolve));
    }
    // A named pipe: refused without reading it (helper-105: the read blocked for ever).
    expect(spawnSync("mkfifo", [join(out, "a.ts")]).status).toBe(0);
    expect(codeOf(() => compareOutput(out, [file("a.ts", "one")]))).toBe("MCG402");
  });

  it("calls onLocked under the folder's lock and before the write, so that what it reads is what the write replaces (helper-103)", () => {
    const out = join(scratchDir("writes-on-locked"), "out");
    writeOutput(out, [file("a.ts", "1")]);
    let seen: [boolean, string] | undefined;
    writeOutput(out, [file("a.ts", "2")], { onLocked: (folder) => (seen = [existsSync(`${folder}.lock`), readFileSync(join(folder, "a.ts"), "utf8")]) });
    expect(seen).toEqual([true, `${GENERATED_MARK}test\n1\n`]);
    expect(readFileSync(join(out, "a.ts"), "utf8")).toBe(`${GENERATED_MARK}test\n2\n`);
  });

  it("refuses to replace the current folder or one of its parents", () => {
    const dir = scratchDir("writes-cwd");
    const cwd = process.cwd();
    try {
      process.chdir(dir);
      expect(codeOf(() => writeOutput(".", [file("a.ts", "1")]))).toBe("MCG402");
      expect(codeOf(() => writeOutput("..", [file("a.ts", "1")]))).toBe("MCG402");
      expect(codeOf(() => writeOutput("/", [file("a.ts", "1")]))).toBe("MCG402");
    } finally {
      process.chdir(cwd);
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it("removes generated files it no longer produces, and keeps every other file", () => {
    const dir = scratchDir("writes-stale");
    const out = join(dir, "out");
    writeOutput(out, [file("a.ts", "1"), file("b.ts", "2")]);
    writeFileSync(join(out, "mine.ts"), "// not generated\n");
    const statuses = writeOutput(out, [file("a.ts", "1")]);
    expect(statuses).toEqual([
      { path: "a.ts", state: "unchanged" },
      { path: "b.ts", state: "stale" },
    ]);
    expect(readdirSync(out).sort()).toEqual(["a.ts", "mine.ts"]);
    expect(readFileSync(join(out, "mine.ts"), "utf8")).toBe("// not generated\n");
  });

  it("reads a generated file after a byte order mark as generated wherever it looks, and passes over a link to nothing (helper-81)", () => {
    const dir = scratchDir("writes-bom");
    const out = join(dir, "out");
    writeOutput(out, [file("a.ts", "1"), file("b.ts", "2")]);
    // An editor's byte order mark before the header: the file is regenerated, not refused as one the generator did not write.
    writeFileSync(join(out, "a.ts"), "\uFEFF" + readFileSync(join(out, "a.ts"), "utf8"));
    const [a] = compareOutput(out, [file("a.ts", "1"), file("b.ts", "2")]);
    expect([a!.state, "foreign" in a!]).toEqual(["changed", false]);
    // A .ts link to nothing, or to itself, is no file of this output: kept, and no internal error (its stat threw).
    symlinkSync(join(dir, "nowhere"), join(out, "dangling.ts"));
    symlinkSync("loop.ts", join(out, "loop.ts"));
    expect(writeOutput(out, [file("a.ts", "1")]).map((s) => `${s.path} ${s.state}`)).toEqual(["a.ts changed", "b.ts stale"]);
    expect(readdirSync(out).sort()).toEqual(["a.ts", "dangling.ts", "loop.ts"]);
  });

  it("removes the folder it put aside even when a user's read-only folder is inside it (no out.old-<pid> is left), and a copy it could not build", () => {
    // Run as a user the file modes bind (root's writes ignore them): the tool's own user, or nobody when that is root.
    const cli = buildPrivateCli("writes-read-only-cli");
    const dir = scratchDir("writes-read-only");
    chmodSync(dir, 0o777);
    const script = [
      `import { writeOutput, GENERATED_MARK } from ${JSON.stringify(pathToFileURL(join(dirname(dirname(cli)), "generator", "write.js")).href)};`,
      'import { chmodSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";',
      'import { join } from "node:path";',
      "const [dir] = process.argv.slice(1);",
      'const out = join(dir, "out");',
      "const file = (body) => ({ path: \"a.ts\", contents: GENERATED_MARK + \"test\\n\" + body + \"\\n\" });",
      'writeOutput(out, [file("1")]);',
      'mkdirSync(join(out, "ro"));',
      'writeFileSync(join(out, "ro", "mine.txt"), "mine");',
      'chmodSync(join(out, "ro"), 0o555);',
      "const warnings = [];",
      'for (const body of ["2", "3"]) writeOutput(out, [file(body)], { onWarning: (m) => warnings.push(m) });',
      // The generator's own runtime/ made read-only: a write that must change it stops, leaving nothing half-built.
      'const other = join(dir, "other");',
      'writeOutput(other, [file("1"), { ...file("x"), path: "runtime/x.ts" }]);',
      'chmodSync(join(other, "runtime"), 0o555);',
      'let refused = "";',
      'try { writeOutput(other, [file("1")]); } catch (error) { refused = String(error.message); }',
      'const result = { warnings, beside: readdirSync(dir).sort(), mode: statSync(join(out, "ro")).mode & 0o777, kept: readdirSync(join(out, "ro")), refused, runtime: readdirSync(join(other, "runtime")) };',
      "console.log(JSON.stringify(result));",
    ].join("\n");
    const asUser = process.getuid?.() === 0 ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", process.execPath] : [process.execPath];
    const run = spawnSync(asUser[0]!, [...asUser.slice(1), "--input-type=module", "-e", script, dir], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toEqual({
      warnings: [],
      beside: ["other", "out"],
      mode: 0o555,
      kept: ["mine.txt"],
      refused: expect.stringMatching(/^error MCG403: cannot build .*other\.tmp-\d+: EACCES.* \(a read-only file or folder in the output\? the generator rewrites its own files and folders\); .*other was not changed$/),
      runtime: ["x.ts"],
    });
  });

  it.runIf(process.getuid?.() === 0)("an output of another user's, replaced by a run that cannot remove it: the warning says to remove it by hand (helper-106)", () => {
    const module = transpilePrivate("writes-old-aside", join(ROOT, "generator", "write.ts"));
    const dir = scratchDir("writes-old-aside-out");
    chmodSync(dir, 0o777);
    // root's output, in a folder nobody may write in: nobody can move it aside, not empty it.
    writeOutput(join(dir, "out"), [file("a.ts", "root's")]);
    const script = [
      `import { writeOutput, GENERATED_MARK } from ${JSON.stringify(pathToFileURL(module).href)};`,
      'import { join } from "node:path";',
      "const warnings = [];",
      'writeOutput(join(process.argv[1], "out"), [{ path: "a.ts", contents: GENERATED_MARK + "test\\nnobody\\n" }], { onWarning: (m) => warnings.push(m) });',
      "console.log(JSON.stringify(warnings));",
    ].join("\n");
    const run = spawnSync("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, "--input-type=module", "-e", script, dir], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    const [warning, ...others] = JSON.parse(run.stdout) as string[];
    expect(others).toEqual([]);
    expect(warning).toMatch(/^the previous output was replaced but .*out\.old-\d+ could not be removed \(EACCES.*\); nothing reads it: remove it by hand$/);
    expect(readFileSync(join(dir, "out", "a.ts"), "utf8")).toContain("nobody");
  });

  it("keeps another output nested inside it (a subfolder with a manifest of its own): its files are not stale", () => {
    const outer = join(scratchDir("writes-nested"), "gen");
    const inner = join(outer, "legacy");
    const innerFiles = [file("types.ts", "inner"), file("runtime/json.ts", "inner"), { path: MANIFEST_FILE, contents: "{}\n" }];
    writeOutput(outer, [file("types.ts", "outer")]);
    writeOutput(inner, innerFiles);
    expect(writeOutput(outer, [file("types.ts", "outer 2")]).map((s) => s.state)).toEqual(["changed"]);
    expect(compareOutput(inner, innerFiles).map((s) => s.state)).toEqual(["unchanged", "unchanged", "unchanged"]);
    expect(compareOutput(outer, [file("types.ts", "outer 2")])).toEqual([{ path: "types.ts", state: "unchanged" }]);
    // One written without a manifest (a program writing generate()'s files) is kept too: only the subfolders this output
    // writes in, or its manifest names as its revisions, hold its generated files.
    const bare = join(outer, "bare");
    writeOutput(bare, [file("types.ts", "bare")]);
    expect(writeOutput(outer, [file("types.ts", "outer 3")]).map((s) => s.state)).toEqual(["changed"]);
    expect(readdirSync(bare)).toEqual(["types.ts"]);
  });

  it("a write of an output nested in another's folder takes the enclosing output's lock first, so the two never interleave", () => {
    // A write of gen copies and swaps its whole folder: one of gen/legacy made meanwhile was put back as it was.
    const outer = join(scratchDir("writes-nested-lock"), "gen");
    const inner = join(outer, "legacy");
    const manifest = { path: MANIFEST_FILE, contents: "{}\n" };
    writeOutput(outer, [file("types.ts", "outer"), manifest]);
    writeOutput(inner, [file("types.ts", "inner"), manifest]);
    // While gen's lock is held (here by this process, as a run of gen would hold it), gen/legacy waits, then gives up.
    const message = holdingLock(outer, () => {
      try {
        writeOutput(inner, [file("types.ts", "inner 2"), manifest], { lockTimeoutMs: 300 });
      } catch (error) {
        return error instanceof GeneratorError ? error.diagnostics.map((d) => `${d.code} ${d.message}`).join("\n") : String(error);
      }
      return "written";
    });
    expect(message).toMatch(new RegExp(`^MCG401 output folder ${outer.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} is locked by another generate run`));
    expect(readFileSync(join(inner, "types.ts"), "utf8")).toContain("inner\n");
    // Free, it writes, and leaves no lock behind, its own or gen's.
    expect(writeOutput(inner, [file("types.ts", "inner 2"), manifest]).map((s) => s.state)).toEqual(["changed", "unchanged"]);
    expect([existsSync(`${outer}.lock`), existsSync(`${inner}.lock`)]).toEqual([false, false]);
  });

  it("refuses (MCG402) to write a revision's modules into a folder that is another output", () => {
    const out = join(scratchDir("writes-revision-output"), "out");
    writeOutput(join(out, "draft"), [file("types.ts", "other"), { path: MANIFEST_FILE, contents: "{}\n" }]);
    let message = "";
    try {
      writeOutput(out, [file("index.ts", "1"), file("draft/types.ts", "mine")]);
    } catch (error) {
      message = error instanceof GeneratorError ? error.diagnostics.map((d) => `${d.code} ${d.message}`).join("\n") : String(error);
    }
    expect(message).toBe(
      `MCG402 ${join(out, "draft")} is another output (it holds a ${MANIFEST_FILE}); the generator writes a revision's modules there: give one of the two outputs another folder`,
    );
    expect(readFileSync(join(out, "draft", "types.ts"), "utf8")).toBe(file("types.ts", "other").contents);
  });

  it("refuses (MCG402) an --out inside a file, naming the file", () => {
    const parent = scratchDir("writes-under-file");
    writeFileSync(join(parent, "afile"), "x");
    let message = "";
    try {
      writeOutput(join(parent, "afile", "sub", "out"), [file("a.ts", "1")]);
    } catch (error) {
      message = error instanceof GeneratorError ? error.diagnostics.map((d) => `${d.code} ${d.message}`).join("\n") : String(error);
    }
    expect(message).toBe(`MCG402 --out ${join(parent, "afile", "sub", "out")} is inside ${join(parent, "afile")}, which is not a folder`);
    expect(readdirSync(parent)).toEqual(["afile"]);
  });
});
