/**
 * Following the upstream spec: `spec fetch` downloads the spec repository
 * (`modelcontextprotocol/modelcontextprotocol`) as one `.tar.gz` for a ref, pins it in a
 * lock file and keeps `schema/` and `docs/specification/` in a per-commit cache folder;
 * `--spec-version <v>` without `--spec` then reads the locked revision from that cache.
 *
 * Lock file (`mcp-spec.lock.json` in the user's project), one pin per revision followed;
 * the first pin is the one `--spec-version` reads:
 *
 * ```json
 * { "lockVersion": 1, "repository": "modelcontextprotocol/modelcontextprotocol",
 *   "pins": [{ "ref": "main", "commit": "<40 hex>", "schemas": { "draft": "<sha256 of schema/draft/schema.ts>", … } }] }
 * ```
 *
 * The lock keeps the sha256 of every `schema.ts` (hosted archives are not byte-stable, their
 * contents are): written on the first fetch, enforced after (a pinned revision is always
 * downloaded by its commit), changed only with `update`. Offline, `from` copies a locked revision
 * from a local folder at its commit instead, vouched for by the same digests; with no lock (or
 * `update`) it pins the folder as the full commit `ref` names (or a clone's HEAD, read with git),
 * its digests taken as they are: a download of that commit is checked against them.
 *
 * Environment: `MCP_SPEC_BASE_URL` replaces the archive base URL (default {@link DEFAULT_BASE_URL};
 * the archive of ref R is `<base>/<R>`); `MCP_SPEC_CACHE_DIR` replaces the cache folder (default
 * `$XDG_CACHE_HOME/mcp-schema-codegen/spec`, else `~/.cache/mcp-schema-codegen/spec`). A
 * revision's folder is `<cache>/<commit>/`, built in a temporary folder beside it and renamed
 * into place, so it is complete or absent.
 *
 * Errors (GeneratorError): MCG501 the download failed (network, HTTP status, truncated, too
 * large, timed out; the URL is named, then, for a locked revision, `spec fetch --from <clone>` (which
 * keeps the lock), and the alternatives `--spec <clone>` and `--schema <file>`, or what the caller gives
 * as `downloadAlternatives`); MCG502 the archive was refused (see `archive.ts`); MCG503 a `schema.ts` whose sha256
 * differs from the lock (nothing cached), or a `from` clone with changes not committed or at another
 * commit than `ref`; MCG504 a lock file that cannot be read or used, a ref other than the locked one
 * without `update`, or `from` with no lock and no full commit to pin it as; MCG505 `offline` and the revision is not
 * cached; MCG506 a version the locked revision does not have; MCG403 a cache file-system step
 * failed, or (before any download) the cache folder or the lock's folder cannot be written in.
 */
import { spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { accessSync, constants as fsConstants, copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, type Stats } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fail, GeneratorError } from "../errors.js";
import { jsonPlace, jsonSyntaxProblem, repeatedKey, withoutByteOrderMark, type JsonStep } from "../json-text.js";
import { ts } from "../ts-morph.js";
import { holdingLock, isAlive, isInside, writeFileAtomic, writeTarget } from "../write.js";
import { checkArchive, DEFAULT_ARCHIVE_LIMITS, extractArchive, isVersionName, KEPT_FOLDERS, type ArchiveLimits } from "./archive.js";
import { commandName, shellQuote } from "../shell.js";

export { DEFAULT_ARCHIVE_LIMITS, isVersionName, type ArchiveLimits } from "./archive.js";

export const SPEC_REPOSITORY = "modelcontextprotocol/modelcontextprotocol";
/** Where archives come from: `<base>/<ref>` is the `.tar.gz` of `ref`. */
export const DEFAULT_BASE_URL = `https://codeload.github.com/${SPEC_REPOSITORY}/tar.gz`;
export const LOCK_FILE_NAME = "mcp-spec.lock.json";
/** Largest download accepted, in bytes (the repository's archive is a few MB). */
export const MAX_ARCHIVE_BYTES = 256 * 1024 * 1024;
/** How long one download may take, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 120_000;
/** What messages offer instead of the lock, by default (`generate`, `scaffold`). */
const ALTERNATIVES = "give a local clone with --spec <clone> --spec-version <v>, or one file with --schema <file>";

/** One followed revision. */
export interface SpecPin {
  /** The ref asked for: a tag, branch or commit. */
  readonly ref: string;
  /** The commit it resolved to. */
  readonly commit: string;
  /** sha256 (hex) of `schema/<version>/schema.ts`, by version folder name, sorted. */
  readonly schemas: Readonly<Record<string, string>>;
}

/** The lock file's contents. */
export interface SpecLock {
  readonly lockVersion: 1;
  readonly repository: string;
  readonly pins: readonly SpecPin[];
}

/** Where things are; every field has a default from the environment. */
export interface SpecLocation {
  /** The lock file. Default: `mcp-spec.lock.json` in the current folder. */
  readonly lockFile?: string;
  /** The cache folder holding one folder per commit. */
  readonly cacheDir?: string;
  /** The archive base URL. */
  readonly baseUrl?: string;
}

export interface FetchOptions extends SpecLocation {
  /** The ref to follow; default: every locked pin, or `main` when there is no lock. */
  readonly ref?: string;
  /** Move the pin (of `ref`, or every pin) to what its ref names now, rewriting the lock. */
  readonly update?: boolean;
  /** Never use the network: only check that the locked revisions are cached. */
  readonly offline?: boolean;
  /**
   * A spec repository folder (a local clone, an unpacked archive) at a locked commit: the locked
   * revisions the cache lacks are copied from it (`schema/`, `docs/specification/`) instead of
   * downloaded, when every locked `schema.ts` there has its locked sha256. With no lock, or with
   * `update`, the folder is pinned as the commit `ref` names (a full commit sha), or, when `ref` is
   * not given, as the HEAD of the clone whose top it is; a clone is refused when it has changes to
   * the kept folders not committed, or another HEAD than `ref`. Never uses the network.
   */
  readonly from?: string;
  readonly timeoutMs?: number;
  /** How long to wait for another run writing the lock file (its `<lock>.lock`), in milliseconds (default 30 000). */
  readonly lockTimeoutMs?: number;
  readonly limits?: ArchiveLimits;
  /** Progress lines (what is downloaded, what was found in the cache). */
  readonly onProgress?: (line: string) => void;
  /** What error messages offer instead of the lock, in the calling command's flags (default: `--spec <clone> --spec-version <v>`, or `--schema <file>`). */
  readonly alternatives?: string;
  /** What a failed download (MCG501) offers last, after "without a download," (default: {@link alternatives}); see {@link downloadAdvice}. */
  readonly downloadAlternatives?: string;
}

/**
 * What a failed download (MCG501) advises: the network, the server `MCP_SPEC_BASE_URL` names (or
 * that it can name one), then `copy`, the `spec fetch --from <clone>` way when there is one (for a
 * locked revision: fill the cache from a clone at its commit, keeping the lock; with no lock: pin
 * a clone), then `alternatives`, the calling command's ways to do without a download (helper-114:
 * only those were offered, and both leave the lock aside).
 */
function downloadAdvice(alternatives: string, copy?: string, env: Environment = process.env): string {
  const server = env.MCP_SPEC_BASE_URL ? "check the network and MCP_SPEC_BASE_URL" : "check the network (or set MCP_SPEC_BASE_URL to a server that has the archives)";
  return `${server}; without a download, ${copy === undefined ? "" : `${copy}, or `}${alternatives}`;
}

/** What one fetched (or found) pin gave. */
export interface FetchedSpec {
  readonly pin: SpecPin;
  /** The revision's folder in the cache: a spec repository folder (`schema/`, `docs/specification/`). */
  readonly dir: string;
  /** Whether it was downloaded now (false: found in the cache). */
  readonly downloaded: boolean;
  /** Whether the lock was written. */
  readonly lockWritten: boolean;
  /** The pin of the lock this one took the place of (`update`, or a ref the lock did not pin), as it was. */
  readonly replaced?: SpecPin;
}

/** Environment variables, as `process.env` holds them (a plain record: the declarations need no Node types). */
export type Environment = { readonly [name: string]: string | undefined };

/** The cache folder: `MCP_SPEC_CACHE_DIR`, else the XDG cache location. */
export function defaultCacheDir(env: Environment = process.env): string {
  if (env.MCP_SPEC_CACHE_DIR) return resolve(env.MCP_SPEC_CACHE_DIR);
  const xdg = env.XDG_CACHE_HOME && env.XDG_CACHE_HOME.startsWith("/") ? env.XDG_CACHE_HOME : join(homedir(), ".cache");
  return join(xdg, "mcp-schema-codegen", "spec");
}

/**
 * A base URL without the spaces around it and the slashes that end it (`<base>/<ref>` adds one),
 * when it is an http(s) URL with a host; anything else is kept as written, so that its refusal names
 * it as it was set (helper-86, helper-87, helper-88: "/", "http://", "file:///" and "ftp://h/" were
 * named "", "http:", "file:" and "ftp://h").
 */
function withoutTrailingSlashes(url: string): string {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  return (parsed?.protocol === "http:" || parsed?.protocol === "https:") && parsed.host !== "" ? url.trim().replace(/\/+$/, "") : url;
}

function located(location: SpecLocation): Required<SpecLocation> {
  return {
    lockFile: resolve(location.lockFile ?? LOCK_FILE_NAME),
    cacheDir: resolve(location.cacheDir ?? defaultCacheDir()),
    // Set but empty is unset, as for MCP_SPEC_CACHE_DIR (helper-85: "the base URL \"\"" was refused).
    baseUrl: withoutTrailingSlashes(location.baseUrl ?? (process.env.MCP_SPEC_BASE_URL || DEFAULT_BASE_URL)),
  };
}

/**
 * Checked where a download is about to start (a run served from the cache never reads it).
 * @throws GeneratorError MCG001 for a base URL (`MCP_SPEC_BASE_URL`) that is not an http:// or https:// URL, has a
 *   query or fragment (the ref would be added after it), or holds credentials (not repeated in the message).
 */
function checkBaseUrl(baseUrl: string, given: boolean): void {
  const url = URL.canParse(baseUrl) ? new URL(baseUrl) : undefined;
  const name = `${given ? "the base URL" : "MCP_SPEC_BASE_URL"} ${JSON.stringify(shownUrl(baseUrl))}`;
  if (url !== undefined && (url.username !== "" || url.password !== "")) {
    throw fail("MCG001", `${name} holds a user name or password, which a download cannot send (fetch refuses such a URL): use a server that needs none`);
  }
  if (url?.protocol !== "http:" && url?.protocol !== "https:") {
    throw fail("MCG001", `${name} is not an http:// or https:// URL (archives are downloaded from <base URL>/<ref>)`);
  }
  if (url.search !== "" || url.hash !== "" || baseUrl.includes("?") || baseUrl.includes("#")) {
    throw fail("MCG001", `${name} has a query or fragment, after which the ref would be added: archives are downloaded from <base URL>/<ref>`);
  }
}

/**
 * A URL as messages show it: a user name, password, query or fragment in it (a token) replaced by
 * `…`, so that what a mirror's address carries reaches neither the terminal nor logs (helper-78,
 * helper-79). Read as the WHATWG URL parser reads it, which fetch uses (helper-81: ` https://u:p@h`,
 * `https:u:p@h` and `https:\\u:p@h` are URLs with credentials too); then shown as that parser
 * writes it. A URL without any of them is shown as written; one the parser refuses, with what lies
 * between its scheme and its last `@`, and after a `?` or `#`, hidden.
 */
export function shownUrl(url: string): string {
  if (!URL.canParse(url)) return url.replace(/^(\s*[A-Za-z][A-Za-z0-9+.-]*:[\\/]*)?.*@/s, (_, scheme: string | undefined) => `${scheme ?? ""}…@`).replace(/[?#].*$/s, "?…");
  const parsed = new URL(url);
  if (parsed.username === "" && parsed.password === "" && parsed.search === "" && parsed.hash === "" && !url.includes("?") && !url.includes("#")) return url;
  const credentials = parsed.username !== "" || parsed.password !== "" ? "…@" : "";
  return `${parsed.protocol}//${credentials}${parsed.host}${parsed.pathname}${url.includes("?") ? "?…" : ""}${url.includes("#") ? "#…" : ""}`;
}

/** The archive URL of `ref` (each path segment encoded; a branch may hold `/`). */
export function archiveUrl(baseUrl: string, ref: string): string {
  return `${baseUrl}/${ref.split("/").map(encodeURIComponent).join("/")}`;
}

/** Whether `ref` is a ref as git allows it, without what would escape a URL path: no `..`, no leading `-` or `/`. */
function isRefName(ref: string): boolean {
  return /^[A-Za-z0-9_][A-Za-z0-9._/-]*$/.test(ref) && !ref.includes("..") && !ref.endsWith("/") && ref.length <= 200;
}

function checkRef(ref: string): void {
  if (!isRefName(ref)) throw fail("MCG001", `--ref ${JSON.stringify(ref)} is not a tag, branch or commit name`);
}

/** A full commit id: a ref that names one commit, whatever the archive says (git reads its hex digits in either case). */
const FULL_COMMIT = /^[0-9a-f]{40}$/i;
/** What git accepts as an abbreviated commit: 4 to 39 hex digits (it shows 7 or more). */
const ABBREVIATED_COMMIT = /^[0-9a-f]{4,39}$/i;

/** A pin in a progress line: `main: <commit>`, or the commit alone when it is the ref. */
function refAndCommit(ref: string, commit: string): string {
  return ref.toLowerCase() === commit ? commit : `${ref}: ${commit}`;
}

// ---- lock file -----------------------------------------------------------------------

/** Reads the lock file; `undefined` when there is none. @throws MCG504 when it cannot be read or has the wrong shape. */
export function readLock(lockFile: string): SpecLock | undefined {
  const text = lockText(lockFile);
  return text === undefined ? undefined : parseLock(lockFile, text);
}

/** The lock file's text, `undefined` when there is none. @throws MCG504 when it is not a file. */
function lockText(lockFile: string): string | undefined {
  if (!existsSync(lockFile)) {
    // A loop of symbolic links exists to `lstat` alone; a dangling link is a lock to write where it points.
    if (entryError(lockFile) === "ELOOP") throw fail("MCG504", `the lock file ${lockFile} is a loop of symbolic links; name the lock file itself`);
    return undefined;
  }
  if (!statSync(lockFile).isFile()) throw fail("MCG504", `the lock file ${lockFile} is not a file (a folder?); name the lock file itself`);
  return readFileSync(lockFile, "utf8");
}

/** The error code `stat` gives for `path` (`ENOENT`, `ELOOP`, …), `undefined` when it gives none. */
function entryError(path: string): string | undefined {
  try {
    statSync(path);
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code;
  }
}

/** The lock in `text` (a byte order mark before it is allowed). @throws MCG504 when it is not JSON or has the wrong shape, at the place in the file. */
function parseLock(lockFile: string, text: string): SpecLock {
  const json = withoutByteOrderMark(text);
  const source = ts.parseJsonText(lockFile, json);
  const problem = jsonSyntaxProblem(json, lockFile, source);
  if (problem !== undefined) throw fail("MCG504", `the lock file is not valid JSON (${problem.why}); fix it, or delete it and run \`${fetchCommand(lockFile)}\``, problem.span);
  const data: unknown = JSON.parse(json);
  const bad = (what: string, at: readonly JsonStep[] = [], key = false) =>
    fail("MCG504", `the lock file ${lockFile} ${what}; fix it, or delete it and run \`${fetchCommand(lockFile)}\``, jsonPlace(source, at, key));
  // As the configuration file: a key written twice is a mistake JSON.parse would hide (the last one read; helper-112).
  const twice = repeatedKey(source);
  if (twice !== undefined) throw fail("MCG504", `the lock file ${lockFile} gives the key ${JSON.stringify(twice.key)} twice in one object; fix it, or delete it and run \`${fetchCommand(lockFile)}\``, twice.span);
  if (typeof data !== "object" || data === null || Array.isArray(data)) throw bad("is not an object");
  const lock = data as Partial<SpecLock>;
  // A later lock format is a newer generator's, before anything about its keys (a later format may add some): deleting the
  // lock would lose its pins.
  if (typeof lock.lockVersion === "number" && Number.isInteger(lock.lockVersion) && lock.lockVersion > 1) {
    throw fail(
      "MCG504",
      `the lock file ${lockFile} has lockVersion ${lock.lockVersion}, written by a newer mcp-schema-codegen; this one reads lockVersion 1: upgrade mcp-schema-codegen (keep the lock)`,
      jsonPlace(source, ["lockVersion"], false),
    );
  }
  const unknown = Object.keys(lock).find((key) => !LOCK_KEYS.includes(key));
  if (unknown !== undefined) throw bad(`has an unknown key ${JSON.stringify(unknown)} (a lock has ${LOCK_KEYS.join(", ")})`, [unknown], true);
  if (lock.lockVersion !== 1) throw bad(`has lockVersion ${JSON.stringify(lock.lockVersion)}; this generator reads 1`, ["lockVersion"]);
  // Downloads always go to the upstream repository (or MCP_SPEC_BASE_URL): a lock naming another would pin what it does not fetch.
  if (lock.repository !== undefined && lock.repository !== SPEC_REPOSITORY) {
    throw bad(`names the repository ${JSON.stringify(lock.repository)}; this generator follows ${SPEC_REPOSITORY} only (MCP_SPEC_BASE_URL names another server for it)`, ["repository"]);
  }
  if (!Array.isArray(lock.pins) || lock.pins.length === 0) throw bad("has no pins", ["pins"]);
  for (const [i, pin] of lock.pins.entries()) {
    const problem = pinProblem(pin);
    if (problem !== undefined) throw bad(`has a pin (${i}) ${problem.why}`, ["pins", i, ...problem.at], problem.key);
    // Two pins of one ref would be fetched, and moved by --update, as two (helper-112).
    const first = lock.pins.findIndex((other: SpecPin) => other.ref === (pin as SpecPin).ref);
    if (first < i) throw bad(`pins the ref ${JSON.stringify((pin as SpecPin).ref)} twice (pins ${first} and ${i})`, ["pins", i, "ref"]);
  }
  return { lockVersion: 1, repository: SPEC_REPOSITORY, pins: lock.pins };
}

/** The keys of a lock, and of one of its pins, in the order they are written. */
const LOCK_KEYS: readonly string[] = ["lockVersion", "repository", "pins"];
const PIN_KEYS: readonly string[] = ["ref", "commit", "schemas"];

/**
 * What is wrong with one pin of a lock, as `whose commit … is not …`, and where in the pin (`at`;
 * `key` when it is a property's name rather than its value), or `undefined` when nothing is.
 */
function pinProblem(pin: unknown): { readonly why: string; readonly at: readonly JsonStep[]; readonly key?: boolean } | undefined {
  if (typeof pin !== "object" || pin === null || Array.isArray(pin)) return { why: "that is not an object", at: [] };
  const p = pin as Partial<SpecPin>;
  const unknown = Object.keys(p).find((key) => !PIN_KEYS.includes(key));
  if (unknown !== undefined) return { why: `with an unknown key ${JSON.stringify(unknown)} (a pin has ${PIN_KEYS.join(", ")})`, at: [unknown], key: true };
  if (typeof p.ref !== "string") return { why: "without a ref (a string)", at: ["ref"] };
  // The ref becomes a path in the archive URL, as `--ref` does, and is held to the same rule.
  if (!isRefName(p.ref)) return { why: `whose ref ${JSON.stringify(p.ref)} is not a tag, branch or commit name`, at: ["ref"] };
  if (typeof p.commit !== "string") return { why: "without a commit (a string of 40 lowercase hex digits)", at: ["commit"] };
  if (!/^[0-9a-f]{40}$/.test(p.commit)) {
    return { why: `whose commit ${JSON.stringify(p.commit)} is not 40 lowercase hex digits${FULL_COMMIT.test(p.commit) ? " (write it in lower case)" : ""}`, at: ["commit"] };
  }
  // A full commit sha as the ref names that commit and no other: fetched, it would move the pin back to it (helper-127).
  if (FULL_COMMIT.test(p.ref) && p.ref.toLowerCase() !== p.commit) {
    return { why: `whose ref ${JSON.stringify(p.ref)} is a full commit sha other than its commit ${p.commit} (a commit names one revision: pin it as its own ref)`, at: ["ref"] };
  }
  if (typeof p.schemas !== "object" || p.schemas === null || Array.isArray(p.schemas)) return { why: "whose schemas are not sha256 digests by version", at: ["schemas"] };
  const notDigest = Object.entries(p.schemas).find(([, v]) => typeof v !== "string" || !/^[0-9a-f]{64}$/.test(v));
  if (notDigest !== undefined) return { why: "whose schemas are not sha256 digests by version", at: ["schemas", notDigest[0]] };
  if (Object.keys(p.schemas).length === 0) return { why: "whose schemas are empty (it names no version's schema.ts)", at: ["schemas"] };
  // A version is a folder under schema/ (`draft`, `2025-11-25`): not a path, and not a name objects inherit (helper-89: `__proto__`).
  const badVersion = Object.keys(p.schemas).find((version) => !isVersionName(version));
  if (badVersion !== undefined) {
    return { why: `whose schemas name ${JSON.stringify(badVersion)}, which is not a version folder name (such as draft or 2025-11-25)`, at: ["schemas", badVersion], key: true };
  }
  return undefined;
}

/** The lock file's text for `lock`. */
function lockFileText(lock: SpecLock): string {
  return `${JSON.stringify(lock, null, 2)}\n`;
}

// ---- cache ---------------------------------------------------------------------------

/** sha256 of every `schema/<version>/schema.ts` under `dir`, by version, sorted. */
export function schemaDigests(dir: string): Record<string, string> {
  const digests: Record<string, string> = {};
  const schemaDir = join(dir, "schema");
  if (!existsSync(schemaDir)) return digests;
  for (const version of readdirSync(schemaDir).sort()) {
    // A folder that is no version name (`_template`) is not a version: not pinned, as a lock would refuse it.
    if (!isVersionName(version)) continue;
    const file = join(schemaDir, version, "schema.ts");
    if (existsSync(file) && statSync(file).isFile()) digests[version] = createHash("sha256").update(readFileSync(file)).digest("hex");
  }
  return digests;
}

/**
 * The locked versions whose digest differs from the one found, as `schema/draft/schema.ts:
 * locked …, got …` lines. A version the lock does not name is never read (MCG506), so it is
 * not compared.
 */
function digestMismatches(locked: Readonly<Record<string, string>>, found: Readonly<Record<string, string>>, labels: readonly [string, string] = ["locked", "got"]): string[] {
  const versions = Object.keys(locked).sort();
  return versions
    .map((v) => [v, locked[v], Object.hasOwn(found, v) ? found[v] : undefined] as const)
    .filter(([, lock, got]) => lock !== got)
    // Own keys only: a version named `constructor` or `toString` is no digest every object inherits (helper-127: "got function Object() …").
    .map(([v, lock, got]) => `schema/${v}/schema.ts: ${labels[0]} ${lock ?? "(absent)"}, ${labels[1]} ${got ?? "(absent)"}`);
}

/**
 * Warns (through `progress`) of versions a locked revision has that its pin names no sha256 for:
 * they cannot be read through the lock (MCG506), and a lock edited by hand is the likely cause.
 */
function warnUnnamed(pin: SpecPin, found: Readonly<Record<string, string>>, lockFile: string, pins: readonly SpecPin[], progress: (line: string) => void): void {
  const unnamed = Object.keys(found).filter((v) => !Object.hasOwn(pin.schemas, v));
  if (unnamed.length === 0) return;
  progress(
    `warning: the revision ${pin.commit} has ${unnamed.length === 1 ? "version" : "versions"} ${unnamed.join(", ")}, for which the lock ${lockFile} names no sha256, so ${unnamed.length === 1 ? "it is" : "they are"} not read through the lock; if it was edited, ${lockSideAdvice(lockFile, pins, pin.ref).replace(/^then /, "")}`,
  );
}

/**
 * The `spec fetch` command line that acts on `lockFile`: `spec fetch <flags>`, with `--lock <file>`
 * first when it is not the default lock of the current folder (a path with characters a shell
 * reads specially is quoted).
 */
function fetchCommand(lockFile: string, ...flags: string[]): string {
  const lock = lockFile === resolve(LOCK_FILE_NAME) ? [] : ["--lock", shellQuote(lockFile)];
  // A value a user gave (a --from path) is quoted where a shell would split it (helper-116); a placeholder (`<clone>`) is not.
  return ["spec fetch", ...lock, ...flags.map((flag) => (/^<[^>]*>$|^--[a-z-]+$/.test(flag) ? flag : shellQuote(flag)))].join(" ");
}

/**
 * What mends a lock file edited by hand, in a message about a digest it names: `then restore it from
 * version control, or run \`spec fetch --update\` to pin what the ref names now` (`--ref <ref>` when
 * the lock has several pins, `--lock <file>` when it is not the default one).
 */
function lockSideAdvice(lockFile: string, pins: readonly SpecPin[], ref: string): string {
  return `then restore it from version control, or run \`${fetchCommand(lockFile, ...(pins.length > 1 ? ["--ref", ref] : []), "--update")}\` to pin what the ref names now`;
}

/** The cache folder of a commit, or `undefined` when it is not cached. */
function cachedDir(cacheDir: string, commit: string): string | undefined {
  const dir = join(cacheDir, commit);
  return existsSync(join(dir, "schema")) ? dir : undefined;
}

/**
 * Why `folder` cannot be written in, or created: the system's reason (`EROFS`, `EACCES`; `ENOTDIR`
 * for a file in the way) at the folder, or at its nearest existing ancestor when it does not exist
 * yet (where a recursive mkdir would start); `undefined` when it can. Asked before a download:
 * Node's recursive mkdir reports a read-only mount as `ENOENT`, and only after the download.
 */
function writeDenied(folder: string): { readonly at: string; readonly code: string } | undefined {
  let at = folder;
  let stat = entryStat(at);
  while (stat === undefined && dirname(at) !== at) {
    at = dirname(at);
    stat = entryStat(at);
  }
  if (stat === undefined) return undefined; // the root itself is missing: let the mkdir say why
  if (!stat.isDirectory()) return { at, code: "ENOTDIR" };
  try {
    accessSync(at, fsConstants.W_OK | fsConstants.X_OK);
    return undefined;
  } catch (error) {
    return { at, code: (error as NodeJS.ErrnoException).code ?? (error as Error).message };
  }
}

/** `statSync` of `path`, `undefined` when there is nothing there or it cannot be looked at (a file as a parent, no search permission). */
function entryStat(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/**
 * @throws GeneratorError MCG403 when the cache folder cannot be created or written in, naming the system's reason;
 *   checked before a download (`done`: what was not done, "downloaded" or "copied").
 */
function checkCacheWritable(cacheDir: string, done = "downloaded"): void {
  const denied = writeDenied(cacheDir);
  if (denied === undefined) return;
  const where = denied.code === "ENOTDIR" ? `${denied.at} is not a folder` : `${denied.at === cacheDir ? "it" : denied.at} is not writable (${denied.code})`;
  const what = denied.at === cacheDir ? "write in the cache folder" : "create the cache folder";
  throw fail("MCG403", `cannot ${what} ${cacheDir}: ${where}; nothing was ${done} (MCP_SPEC_CACHE_DIR names another cache folder)`);
}

function fsStep<T>(what: string, path: string, step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (error instanceof GeneratorError) throw error;
    throw fail("MCG403", `cannot ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

// ---- download ------------------------------------------------------------------------

/**
 * GETs `url` into memory, at most {@link MAX_ARCHIVE_BYTES}. A connection reset before the
 * response starts (a kept-alive connection the server closed at that moment) is retried once.
 *
 * @throws MCG501 naming the URL and `advice` (what to do instead).
 */
async function download(url: string, timeoutMs: number, advice: string): Promise<Buffer> {
  const failed = (reason: string) => fail("MCG501", `cannot download the spec from ${shownUrl(url)}: ${reason}; ${advice}`);
  let response: Response | undefined;
  const signal = AbortSignal.timeout(timeoutMs);
  for (let attempt = 1; response === undefined; attempt++) {
    try {
      response = await fetch(url, { redirect: "follow", signal });
    } catch (error) {
      const code = (error as { cause?: { code?: string } }).cause?.code;
      if (attempt === 1 && (code === "ECONNRESET" || code === "UND_ERR_SOCKET")) continue;
      throw failed(networkReason(error, timeoutMs));
    }
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw failed(`HTTP ${response.status}${response.status === 404 ? " (no such ref?)" : ""}`);
  }
  const declared = Number(response.headers.get("content-length") ?? NaN);
  if (declared > MAX_ARCHIVE_BYTES) {
    await response.body?.cancel().catch(() => undefined);
    throw failed(`it is ${declared} bytes; the limit is ${MAX_ARCHIVE_BYTES}`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body ?? []) {
      size += chunk.length;
      if (size > MAX_ARCHIVE_BYTES) throw failed(`it is larger than ${MAX_ARCHIVE_BYTES} bytes`);
      chunks.push(Buffer.from(chunk));
    }
  } catch (error) {
    if (error instanceof GeneratorError) throw error;
    throw failed(`the download broke off after ${size} bytes (${networkReason(error, timeoutMs, true)})`);
  }
  if (Number.isFinite(declared) && size !== declared) throw failed(`the download broke off after ${size} of ${declared} bytes`);
  return Buffer.concat(chunks);
}

/** A network error's reason in a few words: `ECONNREFUSED`, `timed out after 120 s`, … (`answered`: the error came while the body was read). */
function networkReason(error: unknown, timeoutMs: number, answered = false): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === "TimeoutError" || e.name === "AbortError") return `timed out after ${timeoutMs / 1000} s`;
  // Once the answer began (its status and headers came), the connection closed in the middle of it (helper-106).
  if (e.cause?.code === "UND_ERR_SOCKET") return `the server closed the connection ${answered ? "before the answer's end" : "without an answer"} (UND_ERR_SOCKET)`;
  // fetch() refuses ports browsers block (1, 22, 25, …) before it connects.
  if (e.cause?.message === "bad port") return "fetch() does not connect to that port (a port it blocks, such as 1, 22 or 25: bad port); serve the archives on another";
  return e.cause?.code ?? e.cause?.message ?? e.message ?? String(error);
}

// ---- fetch ---------------------------------------------------------------------------

/**
 * Downloads (or finds in the cache) the revisions to follow, checks them against the lock and
 * writes the lock when it is new or `update` is given. See the module comment for the rules.
 *
 * @returns one {@link FetchedSpec} per pin handled, in lock order.
 * @throws GeneratorError MCG001 a bad ref, MCG403, MCG501–MCG505.
 */
export async function fetchSpec(given: FetchOptions = {}): Promise<FetchedSpec[]> {
  // A full commit is one name in either case (git reads its hex digits so): compared, pinned and requested in lower case.
  const options = given.ref !== undefined && FULL_COMMIT.test(given.ref) ? { ...given, ref: given.ref.toLowerCase() } : given;
  const where = located(options);
  const alternatives = options.alternatives ?? ALTERNATIVES;
  if (options.ref !== undefined) checkRef(options.ref);
  // With --from, --update pins the folder as the commit --ref names, and needs no network.
  if (options.update && options.offline && options.from === undefined) {
    throw fail(
      "MCG001",
      "--update moves pins to what their refs name now, which needs the network: it cannot go with --offline; with no network, `--from <clone> --update` pins a local clone (its HEAD, or the commit a full --ref sha names)",
    );
  }
  if (options.from === "") throw fail("MCG001", "--from needs a folder: a spec repository folder (a local clone) at the locked commit");
  const from = options.from === undefined ? undefined : resolve(options.from);
  const fromProblem = from === undefined ? undefined : copySourceProblem(from);
  if (fromProblem !== undefined) throw fail("MCG001", `--from ${options.from}: ${fromProblem}`);
  // The text as read: the lock is written back only if no other run changed it meanwhile.
  const text = lockText(where.lockFile);
  const lock = text === undefined ? undefined : parseLock(where.lockFile, text);
  const progress = options.onProgress ?? (() => {});
  // A pin written from a folder (no lock, or --update) names the commit it is taken as: --ref, or the HEAD of a clone, which
  // is checked against --ref and for changes not committed (helper-114).
  const tree = from !== undefined && (!lock || options.update) ? workTree(from) : undefined;
  if (tree !== undefined) checkWorkTree(tree, options.from!, options.ref);
  const ref = options.ref ?? tree?.commit;
  if (options.update && from !== undefined && (ref === undefined || !FULL_COMMIT.test(ref))) {
    throw fail(
      "MCG001",
      `--from with --update pins the folder as the commit --ref names, which must be a full commit sha (40 hex digits${ref === undefined ? "" : `, not ${JSON.stringify(ref)}`}): a folder does not say which commit it holds, nor what a branch or tag names now` +
        // Without --ref the first pin moves: not said when --ref names another (a lock may pin several).
        (tree !== undefined && options.ref !== undefined && (lock?.pins.findIndex((p) => p.ref === options.ref) ?? -1) <= 0
          ? `; leave --ref out to pin the clone's HEAD, ${tree.commit}`
          : ""),
    );
  }

  // Which pins to handle, and whether each is downloaded by its commit (enforced) or by its ref (new or updated).
  interface Job {
    readonly ref: string;
    /** The ref a pin written for it names, when not `ref`: a pin moved to a clone's HEAD keeps its own (helper-116: "main" became the sha). */
    readonly pinRef?: string;
    readonly locked?: SpecPin;
    readonly index: number;
  }
  let jobs: Job[];
  if (!lock) {
    if (from !== undefined && (ref === undefined || !FULL_COMMIT.test(ref))) {
      // A first pin from a folder names its commit (helper-114: offline, a new lock could only be written by hand).
      const why =
        ref === undefined
          ? "a folder does not say which commit it holds (a clone's HEAD does, read with git when the folder is the top of a git work tree: it is not, or git is not there)"
          : `--ref ${ref} is no full commit sha, and a folder does not say what a branch or tag names${tree !== undefined ? ` (leave --ref out to pin the clone's HEAD, ${tree.commit})` : ""}`;
      throw fail(
        "MCG504",
        `--from: there is no lock file ${where.lockFile} naming the revision to copy, and ${why}; ` +
          `name it with \`${fetchCommand(where.lockFile, "--from", options.from!, "--ref", "<full commit sha>")}\` to pin the folder as that commit, ` +
          `or read the folder itself with --spec ${shellQuote(options.from!)} --spec-version <v>, or run \`${fetchCommand(where.lockFile)}\` once with the network`,
      );
    }
    if (options.offline && from === undefined) {
      throw fail(
        "MCG504",
        `--offline: there is no lock file ${where.lockFile} naming a revision to find in the cache; run \`${fetchCommand(where.lockFile)}\` once with the network, ` +
          `or pin a local clone with \`${fetchCommand(where.lockFile, "--from", "<clone>")}\`, or ${alternatives}`,
      );
    }
    jobs = [{ ref: ref ?? "main", index: 0 }];
  } else if (ref === undefined) {
    jobs = lock.pins.map((pin, index) => ({ ref: pin.ref, locked: pin, index }));
  } else {
    const index = lock.pins.findIndex((p) => p.ref === ref || p.commit === ref);
    if (index < 0 && !options.update) {
      const pinned = lock.pins.map((p) => `${p.ref} (${p.commit})`).join(", ");
      // With --from, a pin's ref or full commit picks it; --update with a full commit moves the first pin to the folder (helper-108, helper-114).
      const mend =
        from === undefined
          ? `run \`${fetchCommand(where.lockFile, "--ref", ref, "--update")}\` to move the first pin`
          : FULL_COMMIT.test(ref)
            ? `with --from, --ref names one of them by its ref or its full commit; run \`${fetchCommand(where.lockFile, "--from", options.from!, "--ref", ref, "--update")}\` to move the first pin to the folder, taken as that commit`
            : "with --from, --ref names one of them by its ref or its full commit";
      throw fail("MCG504", `the lock file ${where.lockFile} pins ${pinned}, not ${ref}; ${mend}`);
    }
    // The pin keeps its ref (a branch or tag, now naming the clone's commit), unless that ref is a commit: the new pin's ref is then the clone's.
    const keptRef = lock.pins[Math.max(index, 0)]!.ref;
    const pinRef = options.ref === undefined && tree !== undefined && !FULL_COMMIT.test(keptRef) ? keptRef : undefined;
    jobs = [{ ref, index: Math.max(index, 0), ...(index >= 0 ? { locked: lock.pins[index]! } : {}), ...(pinRef !== undefined ? { pinRef } : {}) }];
  }

  // A lock that will be written needs its folder: found missing now, not after the downloads.
  const lockFolder = dirname(writeTarget(where.lockFile));
  if ((!lock || options.update) && !statSync(lockFolder, { throwIfNoEntry: false })?.isDirectory()) {
    const missing = !existsSync(lockFolder);
    throw fail("MCG403", `cannot write the lock file ${where.lockFile}: ${lockFolder} ${missing ? "does not exist" : "is not a folder"}; nothing was downloaded`);
  }
  // And one it cannot write in (read-only, another user's): the temporary file and `<lock>.lock` go there.
  const lockDenied = !lock || options.update ? writeDenied(lockFolder) : undefined;
  if (lockDenied !== undefined) throw fail("MCG403", `cannot write the lock file ${where.lockFile}: ${lockFolder} is not writable (${lockDenied.code}); nothing was downloaded`);

  // What an interrupted run (Ctrl-C during an extraction) left is removed now, not only when a download comes.
  if (existsSync(where.cacheDir)) removeAbandoned(where.cacheDir);

  const results: FetchedSpec[] = [];
  /** With `from`: the locked revisions the folder does not hold, and why. */
  const notCopied: string[] = [];
  const pins = [...(lock?.pins ?? [])];
  let lockChanged = !lock;
  for (const job of jobs) {
    const enforce = job.locked !== undefined && !options.update;
    // The cache serves a pin it holds as the lock says: the locked one, or under `update` a full commit the lock
    // already pins (a commit names one tree for good). A cache the lock cannot vouch for is downloaded again and compared.
    const vouched = enforce ? job.locked : FULL_COMMIT.test(job.ref) ? pins.find((p) => p.commit === job.ref) : undefined;
    const cached = vouched === undefined ? undefined : cachedDir(where.cacheDir, vouched.commit);
    if (vouched !== undefined && cached !== undefined) {
      const found = schemaDigests(cached);
      const mismatches = digestMismatches(vouched.schemas, found);
      if (mismatches.length > 0) {
        // Either side may be the one changed: the cache (by hand, or a disk) or the lock (edited). Under --update a fresh
        // download is pinned as it is, so deleting the folder mends both.
        const advice = options.update
          ? `either the cache was changed or the lock file was edited: delete that folder and run again (--update pins what the ${from !== undefined ? "copy from --from" : "download"} holds)`
          : `either the cache was changed (then delete that folder and fetch again) or the lock file was edited (${lockSideAdvice(where.lockFile, pins, vouched.ref)})`;
        throw fail("MCG503", `the cached revision ${cached} does not match the lock ${where.lockFile}: ${mismatches.join("; ")}; ${advice}`);
      }
      const pin: SpecPin = enforce ? vouched : { ref: job.pinRef ?? job.ref, commit: vouched.commit, schemas: vouched.schemas };
      const replaced = enforce ? undefined : pins[job.index];
      if (!enforce) {
        pins[job.index] = pin;
        lockChanged = true;
      }
      // With --from, the folder was not read (helper-108: nothing said so, whatever commit it held), and without --update a
      // folder at another commit left the pin where it was with no word of it (helper-137).
      const unread = from === undefined ? "" : ` (${from} was not read${enforce ? unreadFolderNote(from, pin.commit) : ""})`;
      progress(`${refAndCommit(pin.ref, pin.commit)} found in the cache ${cached}${unread}`);
      if (enforce) warnUnnamed(pin, found, where.lockFile, pins, progress);
      results.push({ pin, dir: cached, downloaded: false, lockWritten: false, ...(replaced !== undefined ? { replaced } : {}) });
      continue;
    }
    if (from !== undefined) {
      // A pin of the lock (the locked one, or under --update one of that commit) vouches for the copy with its digests: the
      // copy itself is checked, as an archive's extraction is (helper-108: the folder was read through links that the copy
      // passed over, and a cache without a version was kept). Otherwise (no lock, or --update to a commit the lock does not
      // pin) --ref is a full commit, checked above, and the folder is taken as that commit: the copy's digests are pinned,
      // and a download of that commit is checked against them (helper-114).
      const commit = vouched?.commit ?? job.ref;
      checkCacheWritable(where.cacheDir, "copied");
      const mismatched: string[] = [];
      try {
        const { dir, digests } = await install(
          where.cacheDir,
          commit,
          "copy",
          (temp) => copyKept(from, temp, where.cacheDir, options.limits ?? DEFAULT_ARCHIVE_LIMITS),
          (digests) => {
            if (vouched === undefined) {
              if (Object.keys(digests).length === 0) throw fail("MCG001", `--from ${options.from}: it has no schema/<version>/schema.ts, so there is nothing to pin; nothing was cached`);
              return;
            }
            mismatched.push(...digestMismatches(vouched.schemas, digests));
            if (mismatched.length > 0) throw new NotHeld();
          },
        );
        const pin: SpecPin = enforce ? vouched! : { ref: job.pinRef ?? job.ref, commit, schemas: vouched?.schemas ?? digests };
        const replaced = enforce ? undefined : pins[job.index];
        if (!enforce) {
          pins[job.index] = pin;
          lockChanged = true;
        }
        if (vouched === undefined) {
          const taken =
            tree !== undefined
              ? `is a git work tree at commit ${commit} with no changes to schema/ or docs/specification/ that are not committed: it is taken as that commit of ${SPEC_REPOSITORY}, which cannot be checked offline`
              : `is taken to hold commit ${commit}, as --ref says: a folder does not say which commit it holds, so this cannot be checked offline`;
          progress(
            `note: ${from} ${taken}; the sha256s of its schema.ts files are pinned, and a download of that commit (a \`spec fetch\` with the network where the cache lacks it, as in CI) is checked against them`,
          );
        }
        progress(`${refAndCommit(pin.ref, commit)} cached in ${dir}, copied from ${from}`);
        results.push({ pin, dir, downloaded: false, lockWritten: false, ...(replaced !== undefined ? { replaced } : {}) });
      } catch (error) {
        if (!(error instanceof NotHeld)) throw error;
        // The pins after it are still tried: one folder holds one commit, and a lock may pin several.
        notCopied.push(`${commit} (${mismatched.join("; ")})`);
      }
      continue;
    }
    const ref = enforce ? job.locked!.commit : job.ref;
    const url = archiveUrl(where.baseUrl, ref);
    const shown = shownUrl(url);
    if (options.offline) {
      // A clone at that commit fills the cache with no network (helper-108: the advice did not say so).
      throw fail(
        "MCG505",
        `--offline: the locked revision ${job.locked?.commit ?? ref} is not in the cache ${where.cacheDir} (it would be downloaded from ${shown}); run without --offline, ` +
          `or fill the cache from a clone at that commit with \`${fetchCommand(where.lockFile, "--from", "<clone>")}\`, or ${alternatives}`,
      );
    }
    checkBaseUrl(where.baseUrl, options.baseUrl !== undefined);
    checkCacheWritable(where.cacheDir);
    progress(`${job.ref}: downloading ${shown}`);
    // `--from <clone> --update` moves the first pin, whatever pin --ref named: offered for that one only.
    const copy = enforce
      ? `fill the cache from a clone at commit ${job.locked!.commit} with \`${fetchCommand(where.lockFile, "--from", "<clone>")}\`, which keeps the lock`
      : !lock
        ? `pin a local clone as the commit its HEAD names with \`${fetchCommand(where.lockFile, "--from", "<clone>")}\` (a folder that is no clone needs --ref <full commit sha>)`
        : options.update && job.index === 0
          ? `move the pin to the commit a local clone's HEAD names with \`${fetchCommand(where.lockFile, "--from", "<clone>", "--update")}\``
          : undefined;
    const archive = await download(url, options.timeoutMs ?? DEFAULT_TIMEOUT_MS, downloadAdvice(options.downloadAlternatives ?? alternatives, copy));
    const info = await checkArchive(archive, shown, ref, options.limits ?? DEFAULT_ARCHIVE_LIMITS);
    if (enforce && info.commit !== job.locked!.commit) {
      throw fail("MCG503", `the archive from ${shown} holds commit ${info.commit}, but the lock ${where.lockFile} pins ${job.locked!.commit}; nothing was cached`);
    }
    if (!enforce && FULL_COMMIT.test(job.ref) && info.commit !== job.ref) {
      throw fail("MCG503", `the archive from ${shown} holds commit ${info.commit}, not the commit ${job.ref} asked for; nothing was cached`);
    }
    // An abbreviated commit names the commit it abbreviates unless a branch or tag has that name (git prefers the ref).
    if (!enforce && ABBREVIATED_COMMIT.test(job.ref) && !info.commit.startsWith(job.ref.toLowerCase())) {
      progress(`warning: ${job.ref} looks like an abbreviated commit, but the archive from ${shown} holds commit ${info.commit}: pinned as a branch or tag of that name`);
    }
    const { dir, digests } = await install(where.cacheDir, info.commit, "archive", (temp) => extracted(archive, temp), (digests) => {
      if (!enforce) return;
      const mismatches = digestMismatches(job.locked!.schemas, digests);
      if (mismatches.length > 0) {
        throw fail(
          "MCG503",
          `the archive from ${shown} does not match the lock ${where.lockFile}: ${mismatches.join("; ")}; nothing was cached: ` +
            `either the lock file was edited, or written by \`spec fetch --from <dir>\` from a folder that did not hold that commit (${lockSideAdvice(where.lockFile, pins, job.ref)}), ` +
            "or the server sent other contents for that commit",
        );
      }
    });
    const pin: SpecPin = enforce ? job.locked! : { ref: job.ref, commit: info.commit, schemas: digests };
    const replaced = enforce ? undefined : pins[job.index];
    if (!enforce) {
      pins[job.index] = pin;
      lockChanged = true;
    }
    progress(`${refAndCommit(job.ref, info.commit)} cached in ${dir}`);
    if (enforce) warnUnnamed(pin, digests, where.lockFile, pins, progress);
    results.push({ pin, dir, downloaded: true, lockWritten: false, ...(replaced !== undefined ? { replaced } : {}) });
  }
  if (notCopied.length > 0) {
    const cached = results.length > 0 ? `; ${results.map((r) => r.pin.commit).join(", ")} ${results.length === 1 ? "is" : "are"} in the cache` : "";
    throw fail(
      "MCG503",
      `--from ${from} does not hold ${notCopied.length === 1 ? "the locked revision" : "the locked revisions"} ${notCopied.join(", ")}, so ${notCopied.length === 1 ? "it was" : "they were"} not cached${cached}. In a clone, \`git checkout <commit>\` and run it again`,
    );
  }
  if (lockChanged) {
    const written = lockFileText({ lockVersion: 1, repository: lock?.repository ?? SPEC_REPOSITORY, pins });
    const wrote = holdingLock(
      where.lockFile,
      () => {
        const now = lockText(where.lockFile);
        // Another run wrote the same pins meanwhile (two fetches of one ref): nothing to change.
        if (now === written) return false;
        if (now !== text) {
          throw fail(
            "MCG504",
            `the lock file ${where.lockFile} changed while this run was fetching (another \`spec fetch\`?), so this run left it as it is; what it downloaded stays cached: run the command again to see the new pins (\`--update\` moves one)`,
          );
        }
        writeFileAtomic(where.lockFile, written);
        return true;
      },
      { by: "another spec fetch", ...(options.lockTimeoutMs !== undefined ? { timeoutMs: options.lockTimeoutMs } : {}), onWait: (lockPath) => progress(`waiting for ${lockPath}: another run is writing ${where.lockFile}`) },
    );
    if (!wrote) return results;
    progress(`${where.lockFile} written`);
    // A new lock in a subfolder of a project that has one: from here on, generate and diff read this one (helper-127).
    const above = text === undefined && options.lockFile === undefined ? lockAbove(dirname(where.lockFile)) : undefined;
    if (above !== undefined) {
      progress(
        `warning: a folder above holds a lock, ${above}, and this run wrote another, ${where.lockFile}, which commands run here read from now on; ` +
          `if this folder is part of that project, delete ${where.lockFile} and run from ${dirname(above)}, or give \`--lock ${shellQuote(above)}\``,
      );
    }
    return results.map((r) => ({ ...r, lockWritten: true }));
  }
  return results;
}

/** @throws GeneratorError MCG502 when `archive` cannot be extracted into `temp`. */
async function extracted(archive: Buffer, temp: string): Promise<void> {
  try {
    await extractArchive(archive, temp);
  } catch (error) {
    throw fail("MCG502", `the archive could not be extracted (${(error as Error).message}); nothing was cached`);
  }
}

/**
 * What keeps `from` from being a spec repository folder to copy (`spec fetch --from`), as the end of
 * a sentence about it, or `undefined` when it has a `schema/` folder. A file in the way is named as
 * one (helper-114: a file as `from` was an internal error, ENOTDIR, and a file `schema` was "no schema/ folder").
 */
function copySourceProblem(from: string): string | undefined {
  const notFolder = (stat: Stats) => (stat.isFile() ? "a file, not a folder" : "not a folder");
  const stat = entryStat(from);
  if (stat === undefined) return "no such folder";
  if (!stat.isDirectory()) return `it is ${notFolder(stat)}: give a spec repository folder (a local clone)`;
  const schema = entryStat(join(from, "schema"));
  if (schema === undefined) return "it has no schema/ folder, so it is no spec repository folder";
  if (!schema.isDirectory()) return `its schema is ${notFolder(schema)}, so it is no spec repository folder`;
  return undefined;
}

/** A git work tree whose top is a `--from` folder: the commit checked out, and the paths under the kept folders that differ from it. */
interface WorkTree {
  readonly commit: string;
  /** Paths under the kept folders not as the commit has them: changed, staged, untracked or ignored, or hidden from git (skip-worktree, assume-unchanged). */
  readonly changed: readonly string[];
  /** `schema/` files whose bytes differ from the commit's though git sees no change: end-of-line conversion (`core.autocrlf`) or a filter. */
  readonly converted: readonly string[];
}

/**
 * The git work tree whose top is `folder` (a clone of the spec repository), read with `git`: `undefined`
 * when `folder` is not the top of one (a folder inside another repository: its HEAD says nothing of the
 * spec), or `git` is missing or refuses it (another user's repository). No hook or fsmonitor of the
 * repository runs, and `GIT_*` variables of the environment are not passed on.
 */
/**
 * Why a `--from` folder was not read when the lock's pin was served from the cache, as a clause: a clone at the pinned
 * commit, one at another commit (which `--update` pins), or a folder that does not say which commit it holds.
 */
function unreadFolderNote(folder: string, pinned: string): string {
  let head: string | undefined;
  try {
    head = workTree(folder)?.commit;
  } catch {
    head = undefined;
  }
  if (head === pinned) return ": it is a clone at the pinned commit";
  if (head !== undefined) return `: it is a clone at ${head}, not the pinned commit; \`--update\` pins it`;
  return ": the lock's pin is served; `--update` with --ref <full commit sha> pins the folder instead";
}

function workTree(folder: string): WorkTree | undefined {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("GIT_")));
  const git = (...args: string[]): string | undefined => {
    const run = spawnSync("git", ["-c", "core.fsmonitor=false", "-C", folder, ...args], { encoding: "utf8", env, timeout: 30_000, stdio: ["ignore", "pipe", "ignore"] });
    return run.status === 0 ? run.stdout : undefined;
  };
  const [top, commit] = git("rev-parse", "--show-toplevel", "HEAD")?.trim().split("\n") ?? [];
  if (top === undefined || commit === undefined || !FULL_COMMIT.test(commit) || realpathSync(top) !== realpathSync(folder)) return undefined;
  // Ignored files too: a .gitignore'd schema/<v>/schema.ts would be copied and pinned as part of the commit (helper-116).
  const status = git("status", "--porcelain", "--untracked-files=all", "--ignored", "-z", "--", ...KEPT_FOLDERS);
  // Tracked files git is told not to look at (`ls-files -v`: S skip-worktree, a lower-case letter assume-unchanged).
  const hidden = git("ls-files", "-v", "-z", "--", ...KEPT_FOLDERS);
  const blobs = git("ls-tree", "-r", "-z", "HEAD", "--", "schema/");
  if (status === undefined || hidden === undefined || blobs === undefined) return undefined;
  // `-z`: entries end in NUL, a rename's entry is followed by its old path; each entry is two status letters, a space, the path.
  const changed = status.split("\0").filter((entry) => /^.. /.test(entry)).map((entry) => entry.slice(3));
  changed.push(...hidden.split("\0").filter((entry) => /^(?:S|[a-z]) /.test(entry)).map((entry) => entry.slice(2)));
  // The bytes in the folder against the commit's blobs, without git's conversions: a clone made with core.autocrlf (Git for
  // Windows' default) has CRLF lines that git reports as no change, and their sha256 is not the commit's (helper-116).
  const tracked = blobs
    .split("\0")
    .map((entry) => /^\d+ blob ([0-9a-f]+)\t(.+)$/.exec(entry))
    .filter((m): m is RegExpExecArray => m !== null && !changed.includes(m[2]!) && existsSync(join(folder, m[2]!)));
  const raw = tracked.length === 0 ? "" : git("hash-object", "--no-filters", "--", ...tracked.map((m) => m[2]!));
  if (raw === undefined) return undefined;
  const hashes = raw.trim().split("\n");
  const converted = tracked.filter((m, i) => hashes[i] !== m[1]).map((m) => m[2]!);
  return { commit: commit.toLowerCase(), changed, converted };
}

/**
 * @throws GeneratorError MCG503 when the clone `tree` (`--from <given>`) has changes to the kept folders not committed, or
 *   HEAD is not `ref`, a full commit (what a branch or tag names, a clone may not know: such a ref is refused later).
 */
function checkWorkTree(tree: WorkTree, given: string, ref: string | undefined): void {
  if (tree.changed.length > 0) {
    const shown = tree.changed.slice(0, 3).join(", ") + (tree.changed.length > 3 ? `, and ${tree.changed.length - 3} more` : "");
    throw fail(
      "MCG503",
      `--from ${given} is a git work tree whose schema/ or docs/specification/ has changes that are not committed (${shown}), so it does not hold commit ${tree.commit} as it is; ` +
        "commit or stash them (or `git checkout` the commit to pin) and run again; nothing was cached",
    );
  }
  if (tree.converted.length > 0) {
    const shown = tree.converted.slice(0, 3).join(", ") + (tree.converted.length > 3 ? `, and ${tree.converted.length - 3} more` : "");
    throw fail(
      "MCG503",
      `--from ${given} is a git work tree whose files are not byte for byte those of commit ${tree.commit} (${shown}): git changed them as it checked them out ` +
        "(line ends under core.autocrlf, or a filter), and their sha256 would not be the commit's; check them out as they are " +
        `(\`git -C ${shellQuote(given)} -c core.autocrlf=false checkout -f HEAD -- schema\`, or clone with -c core.autocrlf=false) and run again; nothing was cached`,
    );
  }
  if (ref !== undefined && FULL_COMMIT.test(ref) && ref.toLowerCase() !== tree.commit) {
    throw fail("MCG503", `--from ${given} is a git work tree at commit ${tree.commit}, not ${ref} as --ref says; \`git -C ${shellQuote(given)} checkout ${ref}\` first, or leave --ref out to pin ${tree.commit}; nothing was cached`);
  }
}

/** Thrown by the check of a copy (`spec fetch --from`) that does not hold the locked revision: caught where the copy is made. */
class NotHeld {}

/**
 * Copies the kept folders (`schema/`, `docs/specification/`) of the spec repository folder `from`
 * into `temp`: folders and regular files only, as an archive's extraction keeps them (a link or
 * special file is passed over, and never read), each file at most `limits.maxEntryBytes`, and
 * not the cache folder `cacheDir` when it lies inside (helper-108: the copy went into itself).
 *
 * @throws GeneratorError MCG403 naming a file larger than the limit, or a step that failed.
 */
function copyKept(from: string, temp: string, cacheDir: string, limits: ArchiveLimits): void {
  let total = 0;
  // As real paths: a link among the cache folder's parents names it another way (it exists: the copy is made in it).
  // Passed over only when it lies inside `from`; a `from` inside the cache is copied (helper-109: all of it was passed over).
  const cache = realpathSync(cacheDir);
  const root = realpathSync(from);
  const cacheInside = cache === root || isInside(cache, root);
  const copy = (relative: string): void => {
    const source = join(from, relative);
    const stat = lstatSync(source, { throwIfNoEntry: false });
    if (stat?.isDirectory()) {
      const real = realpathSync(source);
      if (cacheInside && (real === cache || isInside(real, cache))) return;
      fsStep("create", join(temp, relative), () => mkdirSync(join(temp, relative), { recursive: true }));
      for (const name of fsStep("read", source, () => readdirSync(source)).sort()) copy(join(relative, name));
    } else if (stat?.isFile()) {
      total += stat.size;
      if (stat.size > limits.maxEntryBytes || total > limits.maxTotalBytes) {
        throw fail("MCG403", `cannot copy ${source}: ${stat.size > limits.maxEntryBytes ? `it is ${stat.size} bytes, more than the ${limits.maxEntryBytes} a file may hold` : `the kept folders pass ${limits.maxTotalBytes} bytes`}; nothing was cached`);
      }
      fsStep("copy", source, () => copyFileSync(source, join(temp, relative)));
    }
  };
  for (const folder of KEPT_FOLDERS) copy(folder.slice(0, -1));
}

/**
 * Fills a temporary folder beside `<cacheDir>/<commit>` with `fill` (`source`: an archive's
 * extraction, or a copy of a folder), checks it with `check` (which throws to refuse), then renames it into place,
 * so the commit's folder is complete or absent. When another run put the same commit in place
 * first, its folder is kept if it holds the same `schema.ts` files.
 *
 * @returns the folder and the digests of its `schema.ts` files.
 * @throws GeneratorError what `fill` and `check` throw, MCG503 (the cached folder of that commit
 *   differs from the one filled), MCG403.
 */
async function install(
  cacheDir: string,
  commit: string,
  source: "archive" | "copy",
  fill: (temp: string) => Promise<void> | void,
  check: (digests: Record<string, string>) => void,
): Promise<{ dir: string; digests: Record<string, string> }> {
  const target = join(cacheDir, commit);
  fsStep("create the cache folder", cacheDir, () => mkdirSync(cacheDir, { recursive: true }));
  const temp = join(cacheDir, `.tmp-${commit}-${process.pid}-${randomBytes(4).toString("hex")}`);
  fsStep("create", temp, () => mkdirSync(temp));
  try {
    await fill(temp);
    const digests = schemaDigests(temp);
    check(digests);
    const keepExisting = () => {
      const mismatches = digestMismatches(digests, schemaDigests(target), [source, "cached"]);
      if (mismatches.length > 0) {
        throw fail("MCG503", `the cached folder ${target} differs from the ${source} of its commit (${mismatches.join("; ")}); delete it and fetch again`);
      }
      return { dir: target, digests };
    };
    if (existsSync(target)) return keepExisting();
    try {
      renameSync(temp, target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Another run renamed the same commit into place between our check and our rename.
      if ((code === "ENOTEMPTY" || code === "EEXIST") && existsSync(target)) return keepExisting();
      throw fail("MCG403", `cannot rename ${temp} to ${target}: ${code ?? (error as Error).message}`);
    }
    return { dir: target, digests };
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

/**
 * How long a temporary folder in the cache is left alone, in ms, whatever its pid says: a run in
 * another PID namespace (a container sharing the cache) or on another host (a network cache) has a
 * pid this one cannot see. An extraction takes seconds.
 */
const ABANDONED_AFTER_MS = 10 * 60 * 1000;

/**
 * Removes temporary folders that killed runs left in the cache (`.tmp-<commit>-<pid>-<hex>` of a
 * pid no longer alive, not changed for {@link ABANDONED_AFTER_MS}), once a fetch, before it
 * downloads anything. A cache it cannot read or write in is left as it is.
 */
function removeAbandoned(cacheDir: string): void {
  try {
    for (const name of readdirSync(cacheDir)) {
      const pid = Number(/^\.tmp-[0-9a-f]{40}-(\d+)-[0-9a-f]+$/.exec(name)?.[1]);
      if (!Number.isInteger(pid) || pid <= 0 || isAlive(pid)) continue;
      const folder = join(cacheDir, name);
      const changed = statSync(folder, { throwIfNoEntry: false })?.mtimeMs;
      if (changed !== undefined && Date.now() - changed >= ABANDONED_AFTER_MS) rmSync(folder, { recursive: true, force: true });
    }
  } catch {
    // A cache it cannot read or write in (read-only, another user's) is left as it is: a run may only read the cache.
  }
}


// ---- reading the locked revision -------------------------------------------------------

export interface LockedSpecOptions extends SpecLocation {
  readonly offline?: boolean;
  readonly timeoutMs?: number;
  readonly onProgress?: (line: string) => void;
  /** As {@link FetchOptions.alternatives}. */
  readonly alternatives?: string;
}

/** The nearest {@link LOCK_FILE_NAME} in a folder above `dir` (not `dir` itself), as a path; `undefined` when there is none. */
function lockAbove(dir: string): string | undefined {
  for (let folder = dirname(dir); ; folder = dirname(folder)) {
    const candidate = join(folder, LOCK_FILE_NAME);
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
    if (dirname(folder) === folder) return undefined;
  }
}

/**
 * The versions the lock's first pin names (those {@link lockedSpecDir} reads), sorted; none when
 * there is no lock file.
 *
 * @throws GeneratorError MCG504 a lock file that cannot be read.
 */
export function lockedVersions(location: SpecLocation = {}): string[] {
  const lock = readLock(located(location).lockFile);
  return lock === undefined ? [] : Object.keys(lock.pins[0]!.schemas).sort();
}

/**
 * The spec folder of the lock's first pin, fetched into the cache when it is not there (unless
 * `offline`), checked against the lock, and holding `version` when one is given.
 *
 * @throws GeneratorError MCG504 no lock file (naming `spec fetch` and the alternatives), MCG506
 *   a version the revision lacks, and what {@link fetchSpec} throws.
 */
export async function lockedSpecDir(version: string | undefined, options: LockedSpecOptions = {}): Promise<string> {
  const where = located(options);
  const lock = readLock(where.lockFile);
  if (!lock) {
    // `spec fetch` writes ./mcp-spec.lock.json unless told otherwise: name the lock this run looked for, and one a folder above
    // holds (run from a subfolder of the project; helper-118: the advice was to pin a second revision there).
    const above = options.lockFile === undefined ? lockAbove(dirname(where.lockFile)) : undefined;
    if (above !== undefined) {
      throw fail(
        "MCG504",
        `no lock file ${where.lockFile}, but a folder above holds one, ${above}: give \`--lock ${shellQuote(above)}\`, or run from ${dirname(above)} ` +
          `(to pin a revision here instead: \`${commandName()} ${fetchCommand(where.lockFile)}\`)`,
      );
    }
    throw fail(
      "MCG504",
      `no lock file ${where.lockFile}: run \`${commandName()} ${fetchCommand(where.lockFile)}\` to pin a spec revision (with no network, \`${fetchCommand(where.lockFile, "--from", "<clone>")}\` pins a local clone), ` +
        `or ${options.alternatives ?? ALTERNATIVES}`,
    );
  }
  const pin = lock.pins[0]!;
  if (version !== undefined && !Object.hasOwn(pin.schemas, version)) {
    const named = Object.keys(pin.schemas).sort().join(", ");
    // The revision may have it and the lock not name it (an edited lock; helper-106: "has no version" was said of a
    // revision whose cached folder held it).
    const cached = cachedDir(where.cacheDir, pin.commit);
    if (cached !== undefined && existsSync(join(cached, "schema", version, "schema.ts"))) {
      throw fail(
        "MCG506",
        `the lock ${where.lockFile} names no sha256 for version ${version}, though the revision ${pin.commit} has it (in the cache ${cached}); the lock names ${named}: ` +
          `it was edited (${lockSideAdvice(where.lockFile, lock.pins, pin.ref)})`,
      );
    }
    // The lock's versions, named as such: the revision may hold more than an edited lock names (helper-108).
    throw fail("MCG506", `the locked spec revision ${pin.commit} (${where.lockFile}) has no version ${version}; versions the lock names: ${named}`);
  }
  const [fetched] = await fetchSpec({
    ...where,
    ref: pin.ref,
    ...(options.offline ? { offline: true } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.alternatives !== undefined ? { alternatives: options.alternatives } : {}),
  });
  return fetched!.dir;
}

// ---- this repository's own corpus --------------------------------------------------------

/** Where a spec corpus was found: the folder of each pin (the first is the main one). */
export interface Corpus {
  /** `environment`: the folder the caller named; `cache`: the lock's revisions in the cache. */
  readonly source: "environment" | "cache";
  readonly dirs: readonly string[];
}

/**
 * The spec corpus a repository's scripts and tests read (this one's `npm run generate` and
 * `npm test`): `specDir` when it exists (the caller passes `$MCP_SPEC_DIR` or its default, and
 * `besides` the folders of the other pins, when they exist beside it); otherwise every pin of
 * `lockFile`, fetched into the cache when missing (unless `offline`).
 *
 * @throws GeneratorError MCG507, one message naming both ways to provide the spec, with the
 *   reason the locked revision could not be had.
 */
export async function findCorpus(
  specDir: string,
  options: LockedSpecOptions & { readonly besides?: readonly string[]; readonly variable?: string },
): Promise<Corpus> {
  if (existsSync(join(specDir, "schema"))) {
    return { source: "environment", dirs: [specDir, ...(options.besides ?? []).filter((d) => existsSync(d))] };
  }
  const where = located(options);
  try {
    const fetched = await fetchSpec({
      ...where,
      ...(options.offline ? { offline: true } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
    return { source: "cache", dirs: fetched.map((f) => f.dir) };
  } catch (error) {
    if (!(error instanceof GeneratorError)) throw error;
    const reason = error.diagnostics.map((d) => `${d.code} ${d.message}`).join("; ");
    throw fail(
      "MCG507",
      `no spec corpus: ${options.variable ?? "the spec folder"} ${specDir} does not exist, and the revisions pinned in ${where.lockFile} could not be had (${reason}). ` +
        `Either set ${options.variable ?? "the spec folder"} to a spec repository folder (one holding schema/<version>/schema.ts), or connect to the internet so that the pinned revisions are downloaded into ${where.cacheDir}`,
    );
  }
}
