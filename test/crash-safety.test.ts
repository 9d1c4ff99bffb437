/**
 * Crash safety of output writes (issue 5, part 2).
 *
 * 1. Every step killed, in-process: `node:fs` is wrapped so that the k-th file-system change
 *    of `writeOutput` "kills" the run (that change and every later call fail, the `finally`
 *    that releases the lock included), optionally after a torn partial effect (a file
 *    truncated, half a folder copied or removed). For every k, the folder must hold the old
 *    output or the new one (or the old one moved aside, which the next run puts back), and
 *    the next run must produce the new output and leave nothing beside the folder.
 * 2. The real CLI killed with SIGKILL at seeded random moments: spread over the whole run,
 *    and, for most kills, timed from the moment the lock folder appears (the write phase,
 *    made longer by a few hundred files of the user's in the folder, which are copied).
 *    `CRASH_KILLS=500 CRASH_SEED=7 npx vitest run test/crash-safety.test.ts` runs more kills
 *    (default 20); a failure names the seed and the kill that broke.
 * 3. Two CLI runs into one folder at once (different options): the folder ends as exactly
 *    one run's output, both exit 0 (or the loser says MCG401), nothing is left beside it.
 *    Also with a dead run's lock left in the way, which both runs try to take over, and with
 *    four runners that find such a lock at the same moment (none may remove a lock another has
 *    taken since it looked).
 */
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, watch, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { GeneratedFile } from "../generator/index.js";
import { MANIFEST_FILE } from "../generator/diff/manifest.js";
import { GENERATED_MARK, writeOutput } from "../generator/write.js";

/** A file the CLI writes: one with the generated-file header, or the manifest beside them. */
function isGenerated(path: string, bytes: Buffer): boolean {
  return path === MANIFEST_FILE || bytes.subarray(0, GENERATED_MARK.length).toString() === GENERATED_MARK;
}
import { ROOT, scratchDir } from "./support/corpus.js";
import { seededRandom } from "./support/random.js";
import { buildPrivateCli } from "./support/cli-build.js";

// ---------------------------------------------------------------------------------------
// Fault injection into node:fs (active only while `fault.armed`).

const fault = vi.hoisted(() => {
  class Killed extends Error {
    constructor() {
      super("killed (simulated)");
    }
  }
  return {
    Killed,
    /** While true, calls are counted (and may kill). */
    armed: false,
    /** The step (0-based count of file-system changes) at which the run dies. */
    at: Number.POSITIVE_INFINITY,
    /** Whether the fatal step leaves a partial effect first. */
    torn: false,
    dead: false,
    steps: [] as string[],
  };
});

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  type AnyFn = (...args: any[]) => any;
  const half = <T>(list: T[]): T[] => list.slice(0, Math.floor(list.length / 2));
  /** Partial effects of a change cut short by a kill. */
  const tears: Record<string, AnyFn> = {
    writeFileSync: (path: string, data: string | Uint8Array) => {
      const bytes = Buffer.from(data);
      fs.writeFileSync(path, bytes.length > 64 ? bytes.subarray(0, bytes.length >> 1) : Buffer.alloc(0));
    },
    rmSync: (path: string) => {
      if (!fs.existsSync(path) || !fs.statSync(path).isDirectory()) return;
      for (const name of half(fs.readdirSync(path).sort())) fs.rmSync(join(path, name), { recursive: true, force: true });
    },
    cpSync: (src: string, dst: string) => {
      fs.mkdirSync(dst, { recursive: true });
      for (const name of half(fs.readdirSync(src).sort())) fs.cpSync(join(src, name), join(dst, name), { recursive: true });
    },
  };
  const changes = [
    "mkdirSync",
    "writeFileSync",
    "renameSync",
    "rmSync",
    "cpSync",
    "unlinkSync",
    "rmdirSync",
    "utimesSync",
    "symlinkSync",
    "copyFileSync",
    "appendFileSync",
  ];
  const wrapped: Record<string, unknown> = { ...fs };
  for (const [name, value] of Object.entries(fs)) {
    if (typeof value !== "function" || !name.endsWith("Sync")) continue;
    const original = value as AnyFn;
    const isChange = changes.includes(name);
    wrapped[name] = (...args: unknown[]) => {
      if (!fault.armed) return original(...args);
      if (fault.dead) throw new fault.Killed();
      if (!isChange) return original(...args);
      const step = fault.steps.length;
      fault.steps.push(`${name} ${String(args[0])}`);
      if (step === fault.at) {
        fault.dead = true;
        if (fault.torn) tears[name]?.(...args);
        throw new fault.Killed();
      }
      return original(...args);
    };
  }
  return { ...wrapped, default: wrapped };
});

// ---------------------------------------------------------------------------------------
// Folder snapshots.

/** Every file under `dir` (relative path → bytes); undefined when `dir` does not exist. */
type Tree = Map<string, Buffer>;

function readTree(dir: string): Tree | undefined {
  if (!existsSync(dir)) return undefined;
  const tree: Tree = new Map();
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else tree.set(relative(dir, path), readFileSync(path));
    }
  };
  walk(dir);
  return tree;
}

function writeTree(dir: string, tree: Tree): void {
  rmSync(dir, { recursive: true, force: true });
  for (const [path, bytes] of tree) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), bytes);
  }
}

function sameTree(a: Tree | undefined, b: Tree | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.size !== b.size) return false;
  for (const [path, bytes] of a) if (!b.get(path)?.equals(bytes)) return false;
  return true;
}

/** How `actual` differs from `expected`, for failure messages. */
function treeDiff(actual: Tree | undefined, expected: Tree): string {
  if (actual === undefined) return "folder missing";
  const lines: string[] = [];
  for (const path of new Set([...actual.keys(), ...expected.keys()])) {
    const a = actual.get(path);
    const e = expected.get(path);
    if (!a) lines.push(`missing ${path}`);
    else if (!e) lines.push(`extra ${path}`);
    else if (!a.equals(e)) lines.push(`differs ${path} (${a.length} bytes, expected ${e.length})`);
  }
  return lines.slice(0, 10).join("; ");
}

/** A user's files kept in the output folder: they are copied into every new folder. */
function userFiles(count: number): Tree {
  const tree: Tree = new Map();
  for (let i = 0; i < count; i++) tree.set(`notes/n${String(i).padStart(4, "0")}.txt`, Buffer.from(`note ${i}\n`.repeat(40)));
  tree.set("README.md", Buffer.from("# vendored MCP code\n"));
  return tree;
}

const withFiles = (base: Tree, files: readonly GeneratedFile[], drop: readonly string[] = []): Tree => {
  const tree = new Map(base);
  for (const path of drop) tree.delete(path);
  for (const f of files) tree.set(f.path, Buffer.from(f.contents));
  return tree;
};

const DEAD_PID = 2 ** 22 + 54321; // above Linux's pid_max default: never a live process


// ---------------------------------------------------------------------------------------

describe("writeOutput killed at every file-system step (in-process fault injection)", () => {
  const file = (path: string, body: string): GeneratedFile => ({
    path,
    contents: `${GENERATED_MARK}test\n${body}\n`.repeat(3),
  });
  const OLD_FILES = [file("a.ts", "old a"), file("b.ts", "same b"), file("c.ts", "old c, no longer generated")];
  const NEW_FILES = [file("a.ts", "new a"), file("b.ts", "same b"), file("d.ts", "new d")];
  const USER = userFiles(6);

  type Outcome = "old" | "new" | "aside" | "absent";

  /** Runs writeOutput dying at step `at` (torn or not); returns the outcome, after checking it. */
  function killAt(out: string, old: Tree | undefined, next: Tree, at: number, torn: boolean): Outcome {
    const parent = join(out, "..");
    fault.at = at;
    fault.torn = torn;
    fault.dead = false;
    fault.steps = [];
    fault.armed = true;
    let threw: unknown;
    try {
      writeOutput(out, NEW_FILES);
    } catch (error) {
      threw = error;
    } finally {
      fault.armed = false;
    }
    const where = `killed at step ${at}${torn ? " (torn)" : ""}: ${fault.steps[at] ?? "(after the last step)"}`;
    // A kill surfaces as an exception of some kind (fsStep wraps it in MCG403); no more steps ran after it.
    expect(fault.dead, where).toBe(at < fault.steps.length);
    expect(threw !== undefined, `${where}: ${String(threw)}`).toBe(fault.dead);
    // The process is dead: what it left carries a pid that no longer runs (not this process's,
    // which the next run reuses), and time passes.
    const lock = `${out}.lock`;
    const renumber = (text: string) => text.split(`-${process.pid}`).join(`-${DEAD_PID}`);
    for (const kind of ["tmp", "old"]) {
      if (existsSync(`${out}.${kind}-${process.pid}`)) renameSync(`${out}.${kind}-${process.pid}`, `${out}.${kind}-${DEAD_PID}`);
    }
    if (existsSync(join(lock, "journal"))) writeFileSync(join(lock, "journal"), renumber(readFileSync(join(lock, "journal"), "utf8")));
    if (existsSync(join(lock, "pid")) && readFileSync(join(lock, "pid"), "utf8").split(" ")[0] === String(process.pid))
      writeFileSync(join(lock, "pid"), String(DEAD_PID));
    if (existsSync(lock)) utimesSync(lock, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));

    const leftovers = readdirSync(parent).filter((n) => n !== "out");
    for (const name of leftovers) expect([`out.lock`, `out.tmp-${DEAD_PID}`, `out.old-${DEAD_PID}`], `${where}: unexpected ${name}`).toContain(name);
    const now = readTree(out);
    let outcome: Outcome;
    if (sameTree(now, next)) outcome = "new";
    else if (old !== undefined && sameTree(now, old)) outcome = "old";
    else if (now === undefined && old === undefined) outcome = "absent";
    else if (now === undefined && sameTree(readTree(`${out}.old-${DEAD_PID}`), old)) {
      outcome = "aside";
      expect(JSON.parse(readFileSync(join(lock, "journal"), "utf8")), `${where}: the journal names the folder moved aside`).toMatchObject({
        old: `${out}.old-${DEAD_PID}`,
      });
    } else throw new Error(`${where}: the folder is neither the old output nor the new one: ${treeDiff(now, next)}`);

    // The next run recovers and writes the new output; nothing is left beside the folder.
    writeOutput(out, NEW_FILES, { lockTimeoutMs: 2000 });
    expect(treeDiff(readTree(out), next), where).toBe("");
    expect(readdirSync(parent), where).toEqual(["out"]);
    return outcome;
  }

  it.each([
    ["over a previous output", true],
    ["into a folder that does not exist yet", false],
  ])("leaves the old or the new output at every step, %s", (_name, existing) => {
    const dir = scratchDir(`crash-steps-${existing ? "replace" : "create"}`);
    const out = join(dir, "out");
    const old = existing ? withFiles(USER, OLD_FILES) : undefined;
    const next = withFiles(existing ? USER : new Map(), NEW_FILES, ["c.ts"]);
    // Count the steps of an undisturbed run.
    if (old) writeTree(out, old);
    killAt(out, old, next, Number.POSITIVE_INFINITY, false);
    const total = fault.steps.length;
    expect(total).toBeGreaterThan(8);
    const seen: Record<string, number> = {};
    for (let at = 0; at < total; at++) {
      for (const torn of [false, true]) {
        if (old) writeTree(out, old);
        else rmSync(out, { recursive: true, force: true });
        const outcome = killAt(out, old, next, at, torn);
        seen[outcome] = (seen[outcome] ?? 0) + 1;
      }
    }
    // Kills before the swap keep the old folder, kills after it keep the new one.
    if (existing) expect(Object.keys(seen).sort()).toEqual(["aside", "new", "old"]);
    else expect(Object.keys(seen).sort()).toEqual(["absent", "new"]);
  });
});

// ---------------------------------------------------------------------------------------
// The real CLI.

/** The CLI under test: a private build (see test/support/cli-build.ts). */
let CLI: string;
const SCHEMA = join(ROOT, "test", "fixtures", "discriminated", "schema.ts");
const OLD_ARGS = ["--docs", "none"];
const NEW_ARGS = ["--docs", "tags", "--targets", "types,validators"]; // index.ts becomes stale and is removed
const KILLS = Number(process.env.CRASH_KILLS ?? 20);
const SEED = Number(process.env.CRASH_SEED ?? 20260713);

interface Run {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
  readonly ms: number;
}

function cliArgs(out: string, args: readonly string[]): string[] {
  return [CLI, "generate", "--schema", SCHEMA, "--out", out, ...args];
}

function runCli(out: string, args: readonly string[]): Run {
  const started = performance.now();
  const r = spawnSync(process.execPath, cliArgs(out, args), {
    encoding: "utf8",
  });
  return {
    code: r.status,
    signal: r.signal,
    stderr: r.stderr,
    ms: performance.now() - started,
  };
}

/** Starts the CLI; `kill` decides when to SIGKILL it (or never). */
function startCli(out: string, args: readonly string[]): { child: ReturnType<typeof spawn>; done: Promise<Run> } {
  const started = performance.now();
  const child = spawn(process.execPath, cliArgs(out, args), {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<Run>((resolve) => child.on("close", (code, signal) => resolve({ code, signal, stderr, ms: performance.now() - started })));
  return { child, done };
}

/** Busy-waits below 2 ms (timers are too coarse), sleeps above. */
async function pause(ms: number): Promise<void> {
  if (ms >= 2) return new Promise((resolve) => setTimeout(resolve, ms));
  const until = performance.now() + ms;
  while (performance.now() < until);
}

let OLD: Tree;
let NEW: Tree;
let NEW_GENERATED: GeneratedFile[];
/** Calibration: a whole run, and the part of it from the lock folder's appearance to the exit. */
let runMs = 0;
let writeMs = 0;

describe("the real CLI", () => {
  beforeAll(async () => {
    CLI = buildPrivateCli("crash-cli");

    const dir = scratchDir("crash-reference");
    const user = userFiles(150);
    const first = runCli(join(dir, "old"), OLD_ARGS);
    expect(first.code, first.stderr).toBe(0);
    OLD = withFiles(readTree(join(dir, "old"))!, []);
    for (const [path, bytes] of user) OLD.set(path, bytes);
    // Calibrate on the real transition, watching for the lock folder.
    const times: { run: number; write: number }[] = [];
    for (let i = 0; i < 2; i++) {
      const parent = join(dir, `new-${i}`);
      writeTree(join(parent, "out"), OLD);
      let lockAt = Number.NaN;
      const watcher = watch(parent, (_event, name) => {
        if (name === "out.lock" && Number.isNaN(lockAt)) lockAt = performance.now();
      });
      const { done } = startCli(join(parent, "out"), NEW_ARGS);
      const run = await done;
      watcher.close();
      expect(run.code, run.stderr).toBe(0);
      times.push({ run: run.ms, write: performance.now() - lockAt });
      NEW = readTree(join(parent, "out"))!;
    }
    runMs = Math.max(...times.map((t) => t.run));
    writeMs = Math.max(...times.map((t) => t.write), 5);
    NEW_GENERATED = [...NEW]
      .filter(([path, bytes]) => isGenerated(path, bytes))
      .map(([path, bytes]) => ({ path, contents: bytes.toString() }));
    // The transition changes every generated file and removes the ones --targets no longer asks for.
    expect(NEW_GENERATED.map((f) => f.path).sort()).toEqual([MANIFEST_FILE, "types.ts", "validators.ts"]);
    for (const f of NEW_GENERATED) expect(OLD.get(f.path)?.equals(Buffer.from(f.contents))).toBe(false);
    const generatedOld = [...OLD.keys()].filter((path) => isGenerated(path, OLD.get(path)!));
    expect(generatedOld).toContain("index.ts");
    expect(NEW.size).toBe(OLD.size - generatedOld.length + NEW_GENERATED.length);
  }, 300_000);

  describe("the CLI killed with SIGKILL at random moments", () => {
    it(
      `leaves the old or the new output after each of ${KILLS} kills, and the next run recovers (seed ${SEED})`,
      async () => {
        const rng = seededRandom(SEED);
        const tally = {
          beforeLock: 0,
          holdingLock: 0,
          finished: 0,
          aside: 0,
          writePhaseKills: 0,
          writePhaseHits: 0,
        };
        for (let k = 0; k < KILLS; k++) {
          const parent = scratchDir(`crash-kill-${k % 4}`);
          const out = join(parent, "out");
          writeTree(out, OLD);
          // Two kills in three are timed from the lock folder's appearance (the write phase).
          const inWritePhase = rng() < 2 / 3;
          const delay = inWritePhase ? rng() * writeMs * 1.2 : rng() * runMs * 1.1;
          const where = `seed ${SEED}, kill ${k}: ${inWritePhase ? `${delay.toFixed(2)} ms after the lock appeared` : `${delay.toFixed(1)} ms after start`}`;
          const { child, done } = startCli(out, NEW_ARGS);
          let watcher: ReturnType<typeof watch> | undefined;
          if (inWritePhase) {
            tally.writePhaseKills++;
            let fired = false;
            watcher = watch(parent, (_event, name) => {
              if (name !== "out.lock" || fired) return;
              fired = true;
              void pause(delay).then(() => child.kill("SIGKILL"));
            });
          } else setTimeout(() => child.kill("SIGKILL"), delay);
          const run = await done;
          watcher?.close();
          const pid = child.pid!;

          // Right after the kill: the old output, the new one, or the old one moved aside by the journal.
          const siblings = readdirSync(parent)
            .filter((n) => n !== "out")
            .sort();
          for (const name of siblings) expect([`out.lock`, `out.old-${pid}`, `out.tmp-${pid}`], `${where}: unexpected ${name}`).toContain(name);
          const now = readTree(out);
          if (run.signal !== "SIGKILL") {
            expect(run.code, `${where}: ${run.stderr}`).toBe(0);
            tally.finished++;
          } else if (siblings.includes("out.lock")) {
            tally.holdingLock++;
            if (inWritePhase) tally.writePhaseHits++;
          } else tally.beforeLock++;
          if (now === undefined) {
            tally.aside++;
            expect(sameTree(readTree(join(parent, `out.old-${pid}`)), OLD), `${where}: the folder moved aside is the old output`).toBe(true);
          } else if (!sameTree(now, OLD)) {
            expect(treeDiff(now, NEW), `${where}: neither the old output nor the new one`).toBe("");
          }

          // The next normal run recovers and writes the new output (every fifth one the CLI itself, the others writeOutput in-process).
          if (k % 5 === 0) {
            const next = runCli(out, NEW_ARGS);
            expect(next.code, `${where}: ${next.stderr}`).toBe(0);
          } else writeOutput(out, NEW_GENERATED, { lockTimeoutMs: 10_000 });
          expect(treeDiff(readTree(out), NEW), `${where}: after recovery`).toBe("");
          expect(readdirSync(parent), `${where}: after recovery`).toEqual(["out"]);
          rmSync(parent, { recursive: true, force: true });
        }
        console.log(
          `crash-safety: ${KILLS} kills (seed ${SEED}; run ${runMs.toFixed(0)} ms, write phase ${writeMs.toFixed(1)} ms): ` +
            `${tally.beforeLock} before the lock, ${tally.holdingLock} holding the lock (${tally.aside} between the renames), ` +
            `${tally.finished} after the run finished; ${tally.writePhaseHits}/${tally.writePhaseKills} write-phase kills landed while the lock was held`,
        );
        // The timing aims at the write phase: some kills must land there, or the test proves little.
        if (KILLS >= 20) expect(tally.holdingLock).toBeGreaterThan(0);
      },
      Math.max(120_000, KILLS * 6_000),
    );
  });

  /** Leaves `out` as a run killed between its renames does: the old output aside, the dead run's lock and its journal. */
  function killedBetweenRenames(out: string): void {
    cpSync(out, `${out}.old-${DEAD_PID}`, { recursive: true });
    rmSync(out, { recursive: true });
    mkdirSync(`${out}.lock`);
    writeFileSync(join(`${out}.lock`, "pid"), String(DEAD_PID));
    writeFileSync(join(`${out}.lock`, "journal"), JSON.stringify({ tmp: `${out}.tmp-${DEAD_PID}`, old: `${out}.old-${DEAD_PID}` }));
  }

  describe("two CLI runs into one folder at once", () => {
    const A_ARGS = ["--docs", "tags"];
    const B_ARGS = ["--docs", "full", "--targets", "types,validators"];
    let A: Tree;
    let B: Tree;

    beforeAll(() => {
      const dir = scratchDir("crash-concurrent-reference");
      for (const [args, set] of [
        [A_ARGS, (t: Tree) => (A = t)],
        [B_ARGS, (t: Tree) => (B = t)],
      ] as const) {
        writeTree(join(dir, "out"), OLD);
        const run = runCli(join(dir, "out"), args);
        expect(run.code, run.stderr).toBe(0);
        set(readTree(join(dir, "out"))!);
      }
      expect(sameTree(A, B)).toBe(false);
    });

    it.each([
      ["from a previous output", false],
      ["with a dead run's lock in the way", true],
    ])(
      "never interleave: the folder is exactly one run's output, %s",
      async (_name, staleLock) => {
        const rng = seededRandom(SEED + (staleLock ? 1 : 0));
        for (let round = 0; round < 2; round++) {
          const parent = scratchDir(`crash-concurrent-${staleLock ? "stale" : "plain"}`);
          const out = join(parent, "out");
          writeTree(out, OLD);
          if (staleLock) killedBetweenRenames(out);
          const a = startCli(out, A_ARGS);
          await pause(rng() * 40);
          const b = startCli(out, B_ARGS);
          const runs = await Promise.all([a.done, b.done]);
          for (const run of runs) {
            if (run.code !== 0) expect(run.stderr, `round ${round}`).toMatch(/MCG401/);
            else expect(run.signal).toBe(null);
          }
          expect(runs.some((r) => r.code === 0)).toBe(true);
          const now = readTree(out);
          expect(sameTree(now, A) || sameTree(now, B), `round ${round}: ${treeDiff(now, A)} | ${treeDiff(now, B)}`).toBe(true);
          expect(readdirSync(parent), `round ${round}`).toEqual(["out"]);
        }
      },
      120_000,
    );

    it("several runs that find one dead run's lock at the same moment: one takes it over, the rest wait, none removes a live lock", async () => {
      // Each runner imports the private build's writeOutput, spins until a shared start time and
      // writes its own files. A runner that judged the dead lock abandoned must not, a moment
      // later, recover from and remove a lock that another runner has taken since.
      const write = pathToFileURL(join(CLI, "..", "..", "generator", "write.js")).href;
      const runner = [
        `import { writeOutput } from ${JSON.stringify(write)};`,
        "const [out, who, at] = process.argv.slice(1);",
        "const files = Array.from({ length: 40 }, (_, i) => ({ path: `f${i}.ts`, contents: `" + GENERATED_MARK + "t\\n${who}/${i}\\n` }));",
        "while (Date.now() < Number(at));",
        "writeOutput(out, files, { lockTimeoutMs: 20_000 });",
      ].join("\n");
      const RUNNERS = 4;
      for (let round = 0; round < 12; round++) {
        const parent = scratchDir("crash-takeover");
        const out = join(parent, "out");
        writeTree(out, OLD);
        killedBetweenRenames(out);
        const at = Date.now() + 400;
        const runs = await Promise.all(
          Array.from({ length: RUNNERS }, (_, who) => {
            const child = spawn(process.execPath, ["--input-type=module", "-e", runner, out, String(who), String(at)], { stdio: ["ignore", "ignore", "pipe"] });
            let stderr = "";
            child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
            return new Promise<{ code: number | null; stderr: string }>((resolve) => child.on("close", (code) => resolve({ code, stderr })));
          }),
        );
        for (const run of runs) expect(run.code, `round ${round}: ${run.stderr}`).toBe(0);
        const now = readTree(out)!;
        const owners = new Set([...now].filter(([path]) => /^f\d+\.ts$/.test(path)).map(([, bytes]) => bytes.toString().split("\n")[1]!.split("/")[0]));
        expect(owners.size, `round ${round}: files from runners ${[...owners].join(", ")}`).toBe(1);
        // writeOutput removes the old generated files (those with the header) and keeps the rest.
        const kept = [...OLD].filter(([, bytes]) => !bytes.subarray(0, GENERATED_MARK.length).equals(Buffer.from(GENERATED_MARK)));
        expect(now.size, `round ${round}`).toBe(40 + kept.length);
        expect(readdirSync(parent), `round ${round}`).toEqual(["out"]);
      }
    }, 120_000);
  });
});
