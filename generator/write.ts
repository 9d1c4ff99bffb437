/**
 * Writing generated files to an output folder, all or nothing, and `--check`.
 *
 * A write builds the complete new folder beside the old one (`<out>.tmp-<pid>`: the old
 * folder's files with their timestamps, plus the changed files), then swaps the two with
 * renames and removes the old one. A process killed at any moment leaves either the old
 * folder or the new one; a folder left half-swapped (`<out>` gone, `<out>.old-<pid>` present)
 * is put back by the next run. Files whose bytes did not change are not rewritten, and
 * when nothing changed nothing is touched. A lock folder (`<out>.lock`) keeps two runs
 * from swapping the same folder at once.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fail } from "./errors.js";
import type { GeneratedFile } from "./index.js";

/** How one file compares with what is on disk. */
export interface FileStatus {
  readonly path: string;
  readonly state: "unchanged" | "changed" | "missing";
  /** A short line diff for `changed` files. */
  readonly diff?: string;
}

/** Compares generated files with the folder's contents. */
export function compareOutput(outDir: string, files: readonly GeneratedFile[]): FileStatus[] {
  return files.map((file) => {
    const target = join(outDir, file.path);
    if (!existsSync(target)) return { path: file.path, state: "missing" };
    const current = readFileSync(target, "utf8");
    if (current === file.contents) return { path: file.path, state: "unchanged" };
    return { path: file.path, state: "changed", diff: shortDiff(current, file.contents) };
  });
}

/**
 * The first differing region of two texts as `-`/`+` lines with line numbers,
 * at most `limit` lines per side.
 */
export function shortDiff(before: string, after: string, limit = 8): string {
  const a = before.split("\n");
  const b = after.split("\n");
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length - 1;
  let endB = b.length - 1;
  while (endA >= start && endB >= start && a[endA] === b[endB]) {
    endA--;
    endB--;
  }
  const removed = a.slice(start, endA + 1);
  const added = b.slice(start, endB + 1);
  const lines = [`@@ line ${start + 1} @@`];
  for (const l of removed.slice(0, limit)) lines.push(`- ${l}`);
  if (removed.length > limit) lines.push(`- … ${removed.length - limit} more lines`);
  for (const l of added.slice(0, limit)) lines.push(`+ ${l}`);
  if (added.length > limit) lines.push(`+ … ${added.length - limit} more lines`);
  return lines.join("\n");
}

/** Puts back a folder that a killed run left half-swapped. */
function recover(out: string): void {
  if (existsSync(out)) return;
  const parent = dirname(out);
  if (!existsSync(parent)) return;
  const prefix = `${basename(out)}.old-`;
  const leftover = readdirSync(parent).filter((name) => name.startsWith(prefix)).sort();
  const last = leftover[leftover.length - 1];
  if (last) renameSync(join(parent, last), out);
}

function removeStale(out: string): void {
  const parent = dirname(out);
  if (!existsSync(parent)) return;
  for (const name of readdirSync(parent)) {
    if (name.startsWith(`${basename(out)}.tmp-`) || name.startsWith(`${basename(out)}.old-`)) {
      const pid = Number(name.slice(name.lastIndexOf("-") + 1));
      if (!isAlive(pid)) rmSync(join(parent, name), { recursive: true, force: true });
    }
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes `<out>.lock`, waiting up to `timeoutMs` for another live run to finish. */
function lock(out: string, timeoutMs: number, onWait?: (lockPath: string, owner: number) => void): () => void {
  const lockDir = `${out}.lock`;
  const deadline = Date.now() + timeoutMs;
  let told = false;
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(join(lockDir, "pid"), String(process.pid));
      return () => rmSync(lockDir, { recursive: true, force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (!statSync(lockDir).isDirectory()) {
        throw fail("MCG401", `${lockDir} exists and is not a lock folder of this tool; remove it and run again`);
      }
      let owner = NaN;
      try {
        owner = Number(readFileSync(join(lockDir, "pid"), "utf8"));
      } catch {
        // the owner has not written its pid yet
      }
      if (Number.isInteger(owner) && !isAlive(owner)) {
        rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) {
        throw fail(
          "MCG401",
          `output folder ${out} is locked by another generate run (pid ${Number.isNaN(owner) ? "unknown" : owner}); ` +
            `if no run is active, remove ${lockDir} and run again`,
        );
      }
      if (!told) onWait?.(lockDir, owner);
      told = true;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    }
  }
}

/** Options of {@link writeOutput}. */
export interface WriteOptions {
  /** How long to wait for another run's lock, in milliseconds (default 30 000). */
  readonly lockTimeoutMs?: number;
  /** Called once when the folder is locked by another live run and this one starts waiting. */
  readonly onWait?: (lockPath: string, owner: number) => void;
}

/**
 * Writes `files` into `outDir` atomically (see the module comment). Returns the status of
 * each file before the write; `unchanged` files were left as they were.
 */
export function writeOutput(outDir: string, files: readonly GeneratedFile[], options: WriteOptions = {}): FileStatus[] {
  const out = resolve(outDir);
  mkdirSync(dirname(out), { recursive: true });
  const release = lock(out, options.lockTimeoutMs ?? 30_000, options.onWait);
  try {
    recover(out);
    removeStale(out);
    if (existsSync(out) && !statSync(out).isDirectory()) throw fail("MCG402", `--out ${outDir} exists and is not a folder`);
    const statuses = compareOutput(out, files);
    if (statuses.every((s) => s.state === "unchanged")) return statuses;
    const tmp = `${out}.tmp-${process.pid}`;
    rmSync(tmp, { recursive: true, force: true });
    if (existsSync(out)) cpSync(out, tmp, { recursive: true, preserveTimestamps: true });
    else mkdirSync(tmp);
    for (const file of files) {
      const status = statuses.find((s) => s.path === file.path);
      if (status?.state === "unchanged") continue;
      const target = join(tmp, file.path);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, file.contents);
    }
    if (existsSync(out)) {
      const old = `${out}.old-${process.pid}`;
      renameSync(out, old);
      renameSync(tmp, out);
      rmSync(old, { recursive: true, force: true });
    } else renameSync(tmp, out);
    return statuses;
  } finally {
    release();
  }
}

/** Writes one file atomically (temporary file, then rename). */
export function writeFileAtomic(path: string, contents: string): void {
  const target = resolve(path);
  mkdirSync(dirname(target), { recursive: true });
  const tmp = `${target}.tmp-${process.pid}`;
  writeFileSync(tmp, contents);
  renameSync(tmp, target);
}
