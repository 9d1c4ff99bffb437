/**
 * The generator on bad schemas (issue 5, part 1): the real CLI, built privately, runs on
 * every file of `test/hostile-schemas/` (and on inputs made at run time: a missing file, a
 * directory, a 50 MB file, broken links, a spec folder without its schema) with an `--out`
 * folder that already holds a previous good output. Each run must end with exit code 2,
 * print exactly the reviewed diagnostic lines of `test/hostile-schemas/expected.json` (or of
 * the table below), show no stack trace, and leave `--out` and the folder around it
 * byte-for-byte and timestamp-for-timestamp unchanged, with no `.tmp`/`.lock` leftovers.
 */
import { spawn } from "node:child_process";
import {
  cpSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, scratchDir } from "./support/corpus.js";
import { buildPrivateCli } from "./support/cli-build.js";

const CORPUS = join(ROOT, "test", "hostile-schemas");
/** The CLI under test: a private build (see test/support/cli-build.ts). */
let CLI: string;
/** A schema that generates: the previous good output every run starts from. */
const GOOD_SCHEMA = join(ROOT, "test", "fixtures", "discriminated", "schema.ts");
/** A fixed, old timestamp for everything in a prepared `--out`, so any rewrite would show. */
const OLD_TIME = new Date("2001-02-03T04:05:06Z");
const PARALLEL = 4;
/** Output files of the previous good run (other targets may come and go; these two stay). */
const TARGETS = ["--targets", "types,validators"];

interface Expectation {
  readonly file: string;
  readonly covers: string;
  readonly exit: number;
  readonly stderr: readonly string[];
}

const EXPECTED = (JSON.parse(readFileSync(join(CORPUS, "expected.json"), "utf8")) as { cases: Expectation[] }).cases;

/** Inputs made at run time in the scratch folder (no 50 MB file in the repository). */
interface RuntimeCase {
  readonly name: string;
  readonly covers: string;
  /** Makes the input inside `dir`. */
  readonly make: (dir: string) => void;
  /** The input flags, relative to `dir` (the working directory of the run). */
  readonly args: readonly string[];
  readonly stderr: readonly string[];
}

const HUGE_BYTES = 50 * 1024 * 1024;

const RUNTIME: readonly RuntimeCase[] = [
  {
    name: "missing",
    covers: "a schema file that does not exist",
    make: () => {},
    args: ["--schema", "does-not-exist.ts"],
    stderr: ["error MCG101: schema file not found: does-not-exist.ts", "1 error; nothing was written"],
  },
  {
    name: "directory",
    covers: "a directory given as the schema",
    make: (dir) => mkdirSync(join(dir, "schema.ts")),
    args: ["--schema", "schema.ts"],
    stderr: ["error MCG102: schema path is a directory, not a file: schema.ts", "1 error; nothing was written"],
  },
  {
    name: "huge",
    covers: "a 50 MB file (refused by size before it is read)",
    make: (dir) => writeFileSync(join(dir, "huge.ts"), Buffer.alloc(HUGE_BYTES, "export type A = string;\n")),
    args: ["--schema", "huge.ts"],
    stderr: [`error MCG103: schema file is ${HUGE_BYTES} bytes; the limit is 5242880 bytes: huge.ts`, "1 error; nothing was written"],
  },
  {
    name: "dangling-link",
    covers: "a symbolic link to nothing",
    make: (dir) => symlinkSync("nowhere.ts", join(dir, "link.ts")),
    args: ["--schema", "link.ts"],
    stderr: ["error MCG101: schema file not found: link.ts", "1 error; nothing was written"],
  },
  {
    name: "link-loop",
    covers: "a symbolic link to itself",
    make: (dir) => symlinkSync("loop.ts", join(dir, "loop.ts")),
    args: ["--schema", "loop.ts"],
    stderr: ["error MCG101: schema file cannot be read: loop.ts (ELOOP)", "1 error; nothing was written"],
  },
  {
    name: "path-through-file",
    covers: "a path that goes through a file as if it were a folder",
    make: (dir) => writeFileSync(join(dir, "plain.ts"), "export type A = string;\n"),
    args: ["--schema", "plain.ts/schema.ts"],
    stderr: ["error MCG101: schema file not found: plain.ts/schema.ts", "1 error; nothing was written"],
  },
  {
    name: "spec-without-schema",
    covers: "a spec folder whose version folder has no schema.ts",
    make: (dir) => mkdirSync(join(dir, "spec", "schema", "v1"), { recursive: true }),
    args: ["--spec", "spec", "--spec-version", "v1"],
    stderr: ["error MCG101: schema file not found: spec/schema/v1/schema.ts", "1 error; nothing was written"],
  },
];

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function runCli(cwd: string, args: readonly string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, "generate", ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs `jobs` at most {@link PARALLEL} at a time, results in order. */
async function pool<T>(jobs: readonly (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, jobs.length) }, worker));
  return results;
}

/** Every entry under `dir` (and `dir` itself as ""): kind, size, mode, mtime, and the bytes of files. */
function tree(dir: string): Map<string, string> {
  const entries = new Map<string, string>();
  const visit = (path: string, rel: string) => {
    const stat = lstatSync(path);
    const kind = stat.isDirectory() ? "dir" : stat.isFile() ? "file" : stat.isSymbolicLink() ? "link" : "other";
    const bytes = stat.isFile() ? readFileSync(path).toString("base64") : "";
    entries.set(rel, `${kind} ${stat.size} ${stat.mode.toString(8)} ${stat.mtimeMs} ${bytes}`);
    if (stat.isDirectory()) for (const name of readdirSync(path).sort()) visit(join(path, name), rel ? `${rel}/${name}` : name);
  };
  visit(dir, "");
  return entries;
}

/** The run folder: `work/` (inputs, working directory) and `target/out/` (the previous good output). */
interface Prepared {
  readonly work: string;
  readonly target: string;
  readonly out: string;
  readonly before: Map<string, string>;
}

let template = "";

function prepare(name: string): Prepared {
  const root = scratchDir(`hostile-schemas/${name}`);
  const work = join(root, "work");
  const target = join(root, "target");
  const out = join(target, "out");
  mkdirSync(work);
  mkdirSync(target);
  cpSync(template, out, { recursive: true });
  writeFileSync(join(out, "NOTES.md"), "a file the generator did not write\n");
  for (const entry of readdirSync(out)) utimesSync(join(out, entry), OLD_TIME, OLD_TIME);
  utimesSync(out, OLD_TIME, OLD_TIME);
  utimesSync(target, OLD_TIME, OLD_TIME);
  return { work, target, out, before: tree(target) };
}

/** What must hold after a refused run: exit 2, exactly `stderr`, no stack trace, nothing touched. */
function expectRefused(run: Run, prepared: Prepared, stderr: readonly string[]): void {
  const lines = run.stderr.split("\n");
  if (lines.at(-1) === "") lines.pop();
  expect(lines).toEqual(stderr);
  expect(run.code).toBe(2);
  expect(run.stdout).toBe("");
  expect(run.stderr).not.toMatch(/^ {4}at /m);
  // `target/` holds `out/` alone, unchanged to the byte and the millisecond: no new, removed or
  // rewritten file, and no `out.lock`/`.tmp` folder made and removed beside it (that would move target's mtime).
  expect(readdirSync(prepared.target)).toEqual(["out"]);
  expect(tree(prepared.target)).toEqual(prepared.before);
}

beforeAll(async () => {
  CLI = buildPrivateCli("hostile-cli");
  const dir = scratchDir("hostile-schemas/template");
  template = join(dir, "out");
  const good = await runCli(dir, ["--schema", GOOD_SCHEMA, "--out", template, "--docs", "none", ...TARGETS]);
  expect(good.code, good.stderr).toBe(0);
  expect(readdirSync(template).sort()).toEqual(["codegen-manifest.json", "types.ts", "validators.ts"]);
});

afterAll(() => {
  rmSync(join(ROOT, "test", ".tmp", "hostile-schemas", "rt-huge"), { recursive: true, force: true });
});

describe("the corpus", () => {
  it("has at least 25 bad schemas, each with reviewed expectations, and every file is listed", () => {
    const files = readdirSync(CORPUS).filter((f) => f !== "expected.json").sort();
    expect(EXPECTED.map((c) => c.file).sort()).toEqual(files);
    expect(EXPECTED.filter((c) => c.exit === 2).length).toBeGreaterThanOrEqual(25);
    for (const c of EXPECTED) {
      expect(c.stderr.length, c.file).toBeGreaterThan(0);
      if (c.exit === 2) {
        // Every diagnostic is coded; inside the file's text, it is located at file:line:col.
        const diagnostics = c.stderr.slice(0, -1);
        for (const line of diagnostics) expect(line, c.file).toMatch(/^(?:[^\s:]+:\d+:\d+ - )?error MCG\d{3}: \S/);
        const n = diagnostics.length;
        expect(c.stderr.at(-1)).toBe(`${n} error${n === 1 ? "" : "s"}; nothing was written`);
      }
    }
  });

  it("holds the inputs it claims (sizes and encodings that an editor could silently fix)", () => {
    expect(statSync(join(CORPUS, "empty.ts")).size).toBe(0);
    const latin1 = readFileSync(join(CORPUS, "latin1.ts"));
    expect(latin1.includes(0xe9)).toBe(true);
    expect(() => new TextDecoder("utf-8", { fatal: true }).decode(latin1)).toThrow();
    expect([...readFileSync(join(CORPUS, "utf16.ts")).subarray(0, 2)]).toEqual([0xff, 0xfe]);
    expect(readFileSync(join(CORPUS, "binary-nul.ts")).includes(0)).toBe(true);
    const crlf = readFileSync(join(CORPUS, "crlf-bom-syntax.ts"));
    expect([...crlf.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(crlf.toString("utf8")).toContain("\r\n");
    const cr = readFileSync(join(CORPUS, "cr-lines.ts"), "utf8");
    expect(cr.includes("\n")).toBe(false);
    expect(cr).toContain("\r");
    expect(cr).toContain("\u2028");
  });
});

describe("the CLI on bad schemas: exit 2, exact diagnostics, no stack trace, --out untouched", () => {
  const refused = EXPECTED.filter((c) => c.exit === 2);
  let results: { prepared: Prepared; run: Run }[] = [];

  beforeAll(async () => {
    const jobs = [
      ...refused.map((c) => async () => {
        const prepared = prepare(`corpus-${c.file}`);
        return { prepared, run: await runCli(CORPUS, ["--schema", c.file, "--out", prepared.out]) };
      }),
      ...RUNTIME.map((c) => async () => {
        const prepared = prepare(`rt-${c.name}`);
        c.make(prepared.work);
        return { prepared, run: await runCli(prepared.work, [...c.args, "--out", prepared.out]) };
      }),
    ];
    results = await pool(jobs);
  });

  refused.forEach((c, i) => {
    it(`${c.file}: ${c.covers}`, () => {
      const { prepared, run } = results[i]!;
      expectRefused(run, prepared, c.stderr);
    });
  });

  RUNTIME.forEach((c, i) => {
    it(`${c.name}: ${c.covers}`, () => {
      const { prepared, run } = results[refused.length + i]!;
      expectRefused(run, prepared, c.stderr);
    });
  });

  it("shows the stack trace with --debug, after the same diagnostics", async () => {
    const c = EXPECTED.find((e) => e.file === "syntax-several.ts")!;
    const prepared = prepare("debug");
    const run = await runCli(CORPUS, ["--schema", c.file, "--out", prepared.out, "--debug"]);
    expect(run.code).toBe(2);
    const lines = run.stderr.split("\n");
    expect(lines.slice(0, c.stderr.length)).toEqual(c.stderr);
    expect(lines[c.stderr.length]).toMatch(/^GeneratorError: /);
    expect(run.stderr).toMatch(/^ {4}at /m);
    expect(tree(prepared.target)).toEqual(prepared.before);
  });
});

describe("merged interfaces: generated, with warning MCG250", () => {
  const c = EXPECTED.find((e) => e.file === "merged-interfaces.ts")!;

  it("exits 0, warns once at the second declaration, and generates the merged interface", async () => {
    expect(c.exit).toBe(0);
    const prepared = prepare("merged");
    const run = await runCli(CORPUS, ["--schema", c.file, "--out", prepared.out, "--docs", "none", ...TARGETS]);
    expect(run.code, run.stderr).toBe(0);
    // Exactly the reviewed MCG250 lines; any other line may only be a warning (other rules may warn too).
    const lines = run.stderr.split("\n").filter(Boolean);
    expect(lines.filter((l) => l.includes("MCG250"))).toEqual(c.stderr);
    for (const line of lines) expect(line).toMatch(/^(?:\S+:\d+:\d+ - )?warning MCG\d{3}: /);
    // The folder held another schema's output: the write also says the input changed, and lists the protocol changes.
    const said = run.stdout.split("\n");
    expect(said[0]).toBe(`${prepared.out}: 2 written, 0 unchanged`);
    expect(said[1]).toMatch(new RegExp(`^the input of ${prepared.out.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} changed since it was generated: schema\\.ts sha256 \\w+… → merged-interfaces\\.ts sha256 \\w+…$`));
    expect(said[2]).toBe("protocol changes:");
    expect(readdirSync(prepared.target)).toEqual(["out"]);
    expect(readdirSync(prepared.out).sort()).toEqual(["NOTES.md", "codegen-manifest.json", "types.ts", "validators.ts"]);
    const types = readFileSync(join(prepared.out, "types.ts"), "utf8");
    expect(types).toContain("export interface Tool {\n  name: string;\n  title?: string;\n  version: number;\n}\n");
    const v = (await import(join(prepared.out, "validators.ts"))) as Record<string, (x: unknown) => boolean>;
    expect(v.isTool!({ name: "n", version: 1 })).toBe(true);
    expect(v.isTool!({ name: "n", title: "t", version: 2 })).toBe(true);
    expect(v.isTool!({ name: "n" })).toBe(false); // from the second declaration
    expect(v.isTool!({ version: 1 })).toBe(false); // from the first
    expect(v.isTool!({ name: "n", title: 1, version: 1 })).toBe(false);
  });
});
