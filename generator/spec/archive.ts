/**
 * The spec repository's archive: checks every entry of a downloaded `.tar.gz` before
 * anything is written, learns the commit it holds, then extracts the kept folders
 * (`schema/`, `docs/specification/`) with `tar`'s own extractor.
 *
 * The resolved commit comes from, in this order: the pax global header's `comment` (what
 * `git archive`, and so GitHub, writes there: the commit's full sha); the top folder's name
 * when it ends in `-<40 hex digits>` (GitHub names it `<repo>-<ref>`); the requested ref when
 * it is itself a full commit sha. An archive that gives none of them is refused (MCG502).
 *
 * Errors (GeneratorError): MCG502 an archive refused (not a tar.gz, entries outside one top
 * folder, `..` or absolute paths, links or special files in a kept folder, an entry or the
 * whole larger than the limits, no commit to be learnt).
 */
import { createGunzip } from "node:zlib";
import { Parser, Unpack, type ReadEntry } from "tar";
import { fail } from "../errors.js";

/** The folders of the spec repository that are kept, relative to its root. */
export const KEPT_FOLDERS = ["schema/", "docs/specification/"] as const;

/** Limits on what an archive may hold. */
export interface ArchiveLimits {
  /** Largest entry in a kept folder, in bytes (the largest upstream file there is well under 1 MB). */
  readonly maxEntryBytes: number;
  /** Largest sum of all entry sizes, kept or not (a decompression bomb stops here). */
  readonly maxTotalBytes: number;
  /** Most entries. */
  readonly maxEntries: number;
}

export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxEntryBytes: 16 * 1024 * 1024,
  maxTotalBytes: 1024 * 1024 * 1024,
  maxEntries: 200_000,
};

/** What the check of an archive learnt. */
export interface ArchiveInfo {
  /** The commit the archive holds (40 hex digits, lowercase). */
  readonly commit: string;
  /** The top folder every entry sits in, without its `/`. */
  readonly topFolder: string;
  /** Files in the kept folders, relative to the repository root. */
  readonly keptFiles: readonly string[];
}

const SHA = /^[0-9a-f]{40}$/;

/**
 * Most bytes an archive may hold after the end of its tar (the two zero blocks that end it): `git archive`
 * pads to a 10 KiB record. The `tar` parser keeps what follows the end in one buffer that it copies at
 * each chunk the decompression gives, so a few MB of zeros there took seconds and a 1.3 MB download of
 * 1 GB of them ran for more than ten minutes, unbounded by the limits on entries (helper-127).
 */
export const MAX_TRAILING_BYTES = 1024 * 1024;

/**
 * Most bytes an archive may decompress to: the entries' sizes ({@link ArchiveLimits.maxTotalBytes}), 2 KiB
 * of headers for each entry allowed, and what may follow the end. Extended (pax) headers are no entries, and
 * their sizes count nowhere else: a header declaring gigabytes of zeros decompressed for minutes (helper-127).
 */
export function maxDecompressedBytes(limits: ArchiveLimits): number {
  return limits.maxTotalBytes + limits.maxEntries * 2048 + MAX_TRAILING_BYTES;
}

/**
 * Whether `name` can be a version folder's name under `schema/` (`draft`, `2025-11-25`): a letter
 * or digit, then letters, digits, `.`, `_` or `-` (no path separator, no leading dot). Another
 * folder there (`_template`, `a b`) is no version: not pinned, refused in a lock, in
 * `--spec-version` and in a configuration's input.
 */
export function isVersionName(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name);
}

/**
 * Longest path (without the top folder) of an entry in a kept folder, in characters: the spec repository's longest
 * is about 120. Each kept path is walked segment by segment, so this bounds the work an entry costs (helper-130).
 */
export const MAX_KEPT_PATH_LENGTH = 1024;

/** A kept path's segment in {@link checkArchive}'s tree: a file, or a folder with what it holds. */
interface PathNode {
  readonly file: boolean;
  readonly children: Map<string, PathNode>;
}

/** The compressed stream `bytes` starts as, by its magic number, that the `tar` parser would decompress on its own; else `undefined`. */
function streamKind(bytes: Uint8Array): "gzip" | "zstd" | undefined {
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return "gzip";
  if (bytes[0] === 0x28 && bytes[1] === 0xb5 && bytes[2] === 0x2f && bytes[3] === 0xfd) return "zstd";
  return undefined;
}

function refuse(url: string, reason: string): Error {
  return fail("MCG502", `the archive from ${url} was refused: ${reason}; nothing was cached`);
}

/** Whether a repository-relative path lies in a kept folder. */
export function isKept(path: string): boolean {
  return KEPT_FOLDERS.some((folder) => path === folder.slice(0, -1) || path.startsWith(folder));
}

/**
 * Splits an entry path into its top folder and the rest; refuses absolute paths, `..`, `\` and NUL. In time linear in
 * the path's length, with no array of its segments: a path may be a megabyte (a pax header's), and `/\/+$/` on a run of
 * slashes took the square of its length (a 400-byte archive with one entry of 100 000 slashes ran 7 s; helper-130).
 */
function splitEntryPath(raw: string, url: string): { top: string; rest: string } {
  let end = raw.length;
  while (end > 0 && raw.charCodeAt(end - 1) === 0x2f) end--;
  const path = raw.slice(0, end);
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path)) throw refuse(url, `entry ${JSON.stringify(shortPath(raw))} has an absolute path`);
  if (/[\\\u0000]/.test(path)) throw refuse(url, `entry ${JSON.stringify(shortPath(raw))} has a backslash or NUL in its path`);
  if (/(?:^|\/)\.\.(?:\/|$)/.test(path)) throw refuse(url, `entry ${JSON.stringify(shortPath(raw))} climbs out of the archive's folder (..)`);
  const normal = withoutDotSegments(path);
  const slash = normal.indexOf("/");
  const top = slash === -1 ? normal : normal.slice(0, slash);
  if (top === "") throw refuse(url, `entry ${JSON.stringify(shortPath(raw))} has an empty path`);
  return { top, rest: slash === -1 ? "" : normal.slice(slash + 1) };
}

/** An entry's path for a message: at most 200 characters of it. */
function shortPath(path: string): string {
  return path.length > 200 ? path.slice(0, 200) + "…" : path;
}

/**
 * Reads every entry of `archive` (a gzip-compressed tar) and checks it against the rules
 * above. `requestedRef` is used for the commit only when the archive names none.
 *
 * @throws GeneratorError MCG502 naming the first entry refused and why.
 */
export async function checkArchive(archive: Uint8Array, url: string, requestedRef: string, limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS): Promise<ArchiveInfo> {
  let topFolder: string | undefined;
  let comment: string | undefined;
  let entries = 0;
  let total = 0;
  const keptFiles: string[] = [];
  // Kept paths by kind, as a tree of their segments: a folder is one written as such or holding a kept entry. A tree, not
  // the set of every ancestor's path: that cost the square of a path's length, and a 400-byte archive with one kept
  // entry 120 KB deep ran out of memory (helper-130).
  const kept: PathNode = { file: false, children: new Map() };
  let folders = 0;
  let problem: Error | undefined;
  /** Records a kept path; refuses one that is a file in one entry and a folder in another (extracting both would lose the file; helper-89). */
  const checkKind = (rest: string, folder: boolean, raw: string): void => {
    if (rest.length > MAX_KEPT_PATH_LENGTH) throw refuse(url, `entry ${JSON.stringify(shortPath(raw))} has a path of ${rest.length} characters; the limit is ${MAX_KEPT_PATH_LENGTH}`);
    const segments = rest.split("/");
    let node = kept;
    for (let i = 0; i < segments.length; i++) {
      const last = i === segments.length - 1;
      const existing = node.children.get(segments[i]!);
      // An ancestor that is a file, or the path itself of the other kind.
      if (existing !== undefined && (last ? existing.file !== !folder : existing.file)) throw refuse(url, `entry ${JSON.stringify(raw)} makes a path both a file and a folder`);
      if (existing !== undefined) {
        node = existing;
        continue;
      }
      // Folders no entry names itself count against the limit on entries too: each is one a tar would list.
      if (!last || folder) folders++;
      if (folders > limits.maxEntries) throw refuse(url, `its kept folders hold more than ${limits.maxEntries} folders`);
      const child: PathNode = { file: last && !folder, children: new Map() };
      node.children.set(segments[i]!, child);
      node = child;
    }
  };
  const parser = new Parser({
    strict: true,
    onReadEntry: (entry: ReadEntry) => {
      entry.resume();
      if (problem) return;
      try {
        const c = entry.globalExtended?.comment?.trim().toLowerCase();
        if (comment === undefined && c !== undefined && SHA.test(c)) comment = c;
        if (++entries > limits.maxEntries) throw refuse(url, `it holds more than ${limits.maxEntries} entries`);
        const { top, rest } = splitEntryPath(entry.path, url);
        if (topFolder === undefined) topFolder = top;
        else if (top !== topFolder) throw refuse(url, `entry ${JSON.stringify(entry.path)} is outside the top folder ${topFolder}/`);
        const size = entry.size ?? 0;
        total += size;
        if (total > limits.maxTotalBytes) throw refuse(url, `its entries add up to more than ${limits.maxTotalBytes} bytes`);
        if (!isKept(rest)) return;
        if (entry.type === "SymbolicLink" || entry.type === "Link") {
          throw refuse(url, `entry ${JSON.stringify(entry.path)} is a ${entry.type === "Link" ? "hard" : "symbolic"} link (links are not extracted)`);
        }
        if (entry.type === "Directory") return checkKind(rest, true, entry.path);
        if (entry.type !== "File" && entry.type !== "OldFile" && entry.type !== "ContiguousFile") {
          throw refuse(url, `entry ${JSON.stringify(entry.path)} is a ${entry.type}, not a file or folder`);
        }
        if (size > limits.maxEntryBytes) throw refuse(url, `entry ${JSON.stringify(entry.path)} is ${size} bytes; the limit is ${limits.maxEntryBytes}`);
        checkKind(rest, false, entry.path);
        keptFiles.push(rest);
      } catch (error) {
        problem = error as Error;
        parser.abort(problem);
      }
    },
  });
  // The tar's end (two zero blocks): what follows is not read, and is refused past MAX_TRAILING_BYTES.
  let ended = false;
  parser.on("eof", () => {
    ended = true;
  });
  const bytes = asBuffer(archive);
  await new Promise<void>((resolve, reject) => {
    parser.on("error", (error: Error) => reject(problem ?? refuse(url, `it is not a readable tar.gz (${error.message})`)));
    parser.on("end", () => resolve());
    // Not gzip: the parser reads it as it is (a plain tar, or what it refuses), in one write, so what follows the end is
    // kept once, bounded by the download's size.
    const kind = streamKind(bytes);
    if (kind !== "gzip") {
      // The parser would decompress a zstd stream itself, unbounded (a TypeError where the platform lacks zstd).
      if (kind === "zstd") return reject(refuse(url, "it is a zstd stream, not a tar.gz"));
      parser.end(bytes);
      return;
    }
    // Decompressed here, not by the parser, so that the decompressed bytes are counted, and those after the end dropped.
    const gunzip = createGunzip();
    const cap = maxDecompressedBytes(limits);
    let decompressed = 0;
    let trailing = 0;
    // The first bytes of the tar, until there are enough to tell another compressed stream from a tar: the parser would
    // decompress that itself, past the bounds here (helper-128).
    let head: Buffer | undefined = Buffer.alloc(0);
    const toParser = (chunk: Buffer, last: boolean) => {
      if (head !== undefined) {
        head = Buffer.concat([head, chunk]);
        if (head.length < 4 && !last) return;
        const inner = streamKind(head);
        if (inner !== undefined) return stop(refuse(url, `it is compressed twice: what the gzip holds is another ${inner} stream, not a tar`));
        chunk = head;
        head = undefined;
      }
      if (last) parser.end(chunk);
      else parser.write(chunk);
    };
    const stop = (error: Error) => {
      problem ??= error;
      gunzip.destroy();
      reject(problem);
    };
    gunzip.on("data", (chunk: Buffer) => {
      if (problem) return stop(problem);
      decompressed += chunk.length;
      if (decompressed > cap) return stop(refuse(url, `it decompresses to more than ${cap} bytes`));
      if (!ended) {
        toParser(chunk, false);
        return;
      }
      trailing += chunk.length;
      if (trailing > MAX_TRAILING_BYTES) stop(refuse(url, `it holds more than ${MAX_TRAILING_BYTES} bytes after the end of its tar`));
    });
    gunzip.on("end", () => {
      if (head !== undefined) toParser(Buffer.alloc(0), true);
      else parser.end();
    });
    gunzip.on("error", (error: Error) => stop(refuse(url, `it is not a readable tar.gz (zlib: ${error.message})`)));
    gunzip.end(bytes);
  });
  if (problem) throw problem;
  if (topFolder === undefined) throw refuse(url, "it holds no entries");
  if (keptFiles.length === 0) throw refuse(url, `it holds no ${KEPT_FOLDERS.join(" or ")} folder: is it the spec repository?`);
  // helper-89: an archive of docs alone was cached, and pinned with no schemas, which the lock's reader then refused.
  const versions = keptFiles.map((file) => /^schema\/([^/]+)\/schema\.ts$/.exec(file)?.[1]).filter((v) => v !== undefined && isVersionName(v));
  if (versions.length === 0) throw refuse(url, "it holds no schema/<version>/schema.ts: is it the spec repository?");
  const fromFolder = /-([0-9a-f]{40})$/.exec(topFolder)?.[1];
  const commit = comment ?? fromFolder ?? (SHA.test(requestedRef) ? requestedRef : undefined);
  if (commit === undefined) {
    throw refuse(url, `it names no commit (no pax comment that is a commit, and the top folder ${topFolder}/ does not end in one)`);
  }
  return { commit, topFolder, keptFiles: keptFiles.sort() };
}

/**
 * Extracts the kept folders of an archive that {@link checkArchive} accepted into `dir`
 * (which must exist and be empty), with the top folder stripped. Only files and folders are
 * written, with fixed modes (files `rw-r--r--`, folders `rwxr-xr-x`: an archive's setuid, setgid,
 * sticky or executable bits are not kept); owners and times are not restored.
 */
export async function extractArchive(archive: Uint8Array, dir: string): Promise<void> {
  const unpack = new Unpack({
    cwd: dir,
    strip: 1,
    strict: true,
    preservePaths: false,
    preserveOwner: false,
    noMtime: true,
    onReadEntry: (entry: ReadEntry) => {
      entry.mode = entry.type === "Directory" ? 0o755 : 0o644;
      // `./top/schema/…` (what `tar czf x.tgz ./top` writes) is `top/schema/…`, as checkArchive read it: strip takes `top`.
      entry.path = withoutDotSegments(entry.path);
    },
    filter: (path: string, entry: ReadEntry | import("node:fs").Stats) => {
      const type = "type" in entry ? entry.type : undefined;
      // The filter sees the path as written (before onReadEntry).
      const rest = withoutDotSegments(path).split("/").slice(1).join("/");
      return isKept(rest) && (type === "File" || type === "OldFile" || type === "ContiguousFile" || type === "Directory");
    },
  });
  await new Promise<void>((resolve, reject) => {
    unpack.on("error", reject);
    unpack.on("close", () => resolve());
    unpack.end(asBuffer(archive));
  });
}

/** `path` without its `.` and empty segments (`./top//schema/x` → `top/schema/x`): how {@link checkArchive} and the extraction read an entry's path. */
function withoutDotSegments(path: string): string {
  // Most paths have no such segment: kept as they are, without splitting them.
  if (!/(?:^|\/)\.?(?:\/|$)/.test(path)) return path;
  return path
    .split("/")
    .filter((segment) => segment !== "." && segment !== "")
    .join("/");
}

/** `bytes` as a Buffer, without a copy (tar's streams take Buffers; the signatures take any Uint8Array, so they need no Node types). */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
