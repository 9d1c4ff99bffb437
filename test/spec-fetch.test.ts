/**
 * `spec fetch` (issue 12, part 1) against a loopback HTTP server (127.0.0.1 only, bounded in
 * time) that serves GitHub-shaped archives built on the fly from the corpus folder: fetch,
 * cache reuse, `--offline`, the lock written then enforced, a checksum mismatch, a truncated
 * download, 404, a refused connection, two fetches at once, and hostile archives (`../` paths,
 * symbolic links, a huge entry), each refused with nothing cached.
 */
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { gunzipSync, gzipSync } from "node:zlib";
import { Header } from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatDiagnostic, generate, GeneratorError } from "../generator/index.js";
import { fetchSpec, findCorpus, lockedSpecDir, readLock, type FetchOptions } from "../generator/spec/index.js";
import { configInputs, loadConfig } from "../generator/config.js";
import { cli } from "./support/cli.js";
import { transpilePrivate } from "./support/cli-build.js";
import { ROOT, SPEC_DIR, SPEC_DIR_2026_07_13, SPEC_LOCK, scratchDir } from "./support/corpus.js";
import { corpusEntries, refusedPort, startSpecServer, tarGz, type SpecServer, type TarEntry } from "./support/spec-server.js";

const COMMIT = "b0f60ba5409db7a6582440a7b473cc0398890f15";
const OTHER = "1111111111111111111111111111111111111111";
const TOP = `modelcontextprotocol-${COMMIT}`;
/** The project's own lock: its first pin is the corpus's commit, with the digests of every schema.ts. */
const LOCK = JSON.parse(readFileSync(join(ROOT, "mcp-spec.lock.json"), "utf8")) as { pins: { schemas: Record<string, string> }[] };
const execFileAsync = promisify(execFile);
/** Whether git runs here (the clone tests need it). */
const HAS_GIT = spawnSync("git", ["--version"]).status === 0;
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const DIGESTS = LOCK.pins[0]!.schemas;

let server: SpecServer;
let good: Buffer;

beforeAll(async () => {
  server = await startSpecServer();
  good = tarGz(TOP, corpusEntries(SPEC_DIR), COMMIT);
  server.routes.set("main", { kind: "archive", body: good });
  server.routes.set(COMMIT, { kind: "archive", body: good });
});
afterAll(async () => {
  await server.close();
});

/** A fresh project folder and cache folder; the options that point fetchSpec at them and at the server. */
function place(name: string): { dir: string; cache: string; lock: string; options: FetchOptions } {
  const dir = scratchDir(`spec-fetch-${name}`);
  const cache = join(dir, "cache");
  const lock = join(dir, "mcp-spec.lock.json");
  return { dir, cache, lock, options: { lockFile: lock, cacheDir: cache, baseUrl: server.baseUrl, timeoutMs: 20_000 } };
}

/** What a failed download with no lock offers first without a download: pinning a clone (helper-114). */
const pinClone = (lock: string) => `pin a local clone as the commit its HEAD names with \`spec fetch --lock ${lock} --from <clone>\` (a folder that is no clone needs --ref <full commit sha>), or `;

async function failure(promise: Promise<unknown>): Promise<string[]> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof GeneratorError)) throw new Error(`expected a GeneratorError, got ${String(error)}`);
  return error.diagnostics.map((d) => formatDiagnostic(d));
}

/** Every entry under the cache folder (temporary folders included). */
function cacheEntries(cache: string): string[] {
  return existsSync(cache) ? readdirSync(cache).sort() : [];
}

describe("spec fetch", () => {
  it("downloads the archive, keeps schema/ and docs/specification/ under the commit, and writes the lock", async () => {
    const { cache, lock, options } = place("first");
    const before = server.requests.length;
    const [fetched] = await fetchSpec({ ...options, ref: "main" });
    expect(server.requests.slice(before)).toEqual(["main"]);
    expect(fetched).toEqual({ pin: { ref: "main", commit: COMMIT, schemas: DIGESTS }, dir: join(cache, COMMIT), downloaded: true, lockWritten: true });
    expect(cacheEntries(cache)).toEqual([COMMIT]);
    expect(readdirSync(join(cache, COMMIT)).sort()).toEqual(["docs", "schema"]);
    expect(readdirSync(join(cache, COMMIT, "docs"))).toEqual(["specification"]);
    expect(readFileSync(join(cache, COMMIT, "schema", "draft", "schema.ts"))).toEqual(readFileSync(join(SPEC_DIR, "schema", "draft", "schema.ts")));
    expect(JSON.parse(readFileSync(lock, "utf8"))).toEqual({
      lockVersion: 1,
      repository: "modelcontextprotocol/modelcontextprotocol",
      pins: [{ ref: "main", commit: COMMIT, schemas: DIGESTS }],
    });
  });

  it("reuses the cache: a second fetch makes no request", async () => {
    const { cache, options } = place("reuse");
    await fetchSpec({ ...options, ref: "main" });
    const before = server.requests.length;
    const [again] = await fetchSpec(options);
    expect(server.requests.length).toBe(before);
    expect(again).toEqual({ pin: { ref: "main", commit: COMMIT, schemas: DIGESTS }, dir: join(cache, COMMIT), downloaded: false, lockWritten: false });
  });

  it("--offline reads the cache, and without it names the URL it would use and the alternatives", async () => {
    const { options, cache } = place("offline");
    await fetchSpec({ ...options, ref: "main" });
    const before = server.requests.length;
    expect(await lockedSpecDir("draft", { ...options, offline: true })).toBe(join(cache, COMMIT));
    const { options: empty, lock } = place("offline-empty");
    writeFileSync(lock, readFileSync(options.lockFile!));
    expect(await failure(lockedSpecDir("draft", { ...empty, offline: true }))).toEqual([
      `error MCG505: --offline: the locked revision ${COMMIT} is not in the cache ${empty.cacheDir} (it would be downloaded from ${server.baseUrl}/${COMMIT}); run without --offline, or fill the cache from a clone at that commit with \`spec fetch --lock ${empty.lockFile} --from <clone>\`, or give a local clone with --spec <clone> --spec-version <v>, or one file with --schema <file>`,
    ]);
    expect(server.requests.length).toBe(before);
    // No lock at all: the lock is what is missing (MCG504), not a cached revision.
    const { options: unlocked, lock: none } = place("offline-unlocked");
    expect((await failure(fetchSpec({ ...unlocked, offline: true })))[0]).toMatch(new RegExp(`^error MCG504: --offline: there is no lock file ${none.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} `));
  });

  it("enforces the lock: another ref needs --update, which moves the pin", async () => {
    const { options, lock } = place("enforce");
    await fetchSpec({ ...options, ref: "main" });
    expect(await failure(fetchSpec({ ...options, ref: "v2" }))).toEqual([
      `error MCG504: the lock file ${lock} pins main (${COMMIT}), not v2; run \`spec fetch --lock ${lock} --ref v2 --update\` to move the first pin`,
    ]);
    // The advice names the lock as the command line must: not at all for ./mcp-spec.lock.json (this project's own,
    // read and left as it is), quoted when a shell would split the path.
    const own = resolve("mcp-spec.lock.json");
    expect(own).toBe(join(ROOT, "mcp-spec.lock.json"));
    const ownText = readFileSync(own, "utf8");
    expect((await failure(fetchSpec({ ...options, lockFile: own, ref: "v2" })))[0]).toMatch(/; run `spec fetch --ref v2 --update` to move the first pin$/);
    expect(readFileSync(own, "utf8")).toBe(ownText);
    const spaced = join(dirname(lock), "my locks", "spec lock.json");
    mkdirSync(dirname(spaced));
    writeFileSync(spaced, readFileSync(lock));
    expect((await failure(fetchSpec({ ...options, lockFile: spaced, ref: "v2" })))[0]).toContain(`; run \`spec fetch --lock '${spaced}' --ref v2 --update\` to move`);
    const otherArchive = tarGz(`modelcontextprotocol-${OTHER}`, corpusEntries(SPEC_DIR, { "schema/draft/schema.ts": Buffer.from("export type Changed = string;\n") }), OTHER);
    server.routes.set("v2", { kind: "archive", body: otherArchive });
    const [moved] = await fetchSpec({ ...options, ref: "v2", update: true });
    expect(moved!.pin.commit).toBe(OTHER);
    expect(moved!.pin.schemas.draft).toBe(sha256("export type Changed = string;\n"));
    expect(readLock(lock)!.pins).toEqual([moved!.pin]);
  });

  it("--update says which pin moved, from what to what, and the diff command that shows what changed (helper-85: it did not say)", async () => {
    const { dir, cache, lock } = place("moved");
    const NEXT = "2222222222222222222222222222222222222222";
    const draft = readFileSync(join(SPEC_DIR, "schema", "draft", "schema.ts"), "utf8");
    const added = tarGz(`modelcontextprotocol-${NEXT}`, corpusEntries(SPEC_DIR, { "schema/draft/schema.ts": Buffer.from(`${draft}\nexport interface AddedInUpdate {\n  a: string;\n}\n`) }), NEXT);
    server.routes.set("next", { kind: "archive", body: added });
    server.routes.set(NEXT, { kind: "archive", body: added });
    const previous = { base: process.env.MCP_SPEC_BASE_URL, cache: process.env.MCP_SPEC_CACHE_DIR };
    process.env.MCP_SPEC_BASE_URL = server.baseUrl;
    process.env.MCP_SPEC_CACHE_DIR = cache;
    try {
      expect((await cli("spec", "fetch", "--ref", "main", "--lock", lock)).code).toBe(0);
      const moved = await cli("spec", "fetch", "--ref", "next", "--update", "--lock", lock);
      expect(moved.code).toBe(0);
      const [oldSchema, newSchema] = [join(cache, COMMIT, "schema", "draft", "schema.ts"), join(cache, NEXT, "schema", "draft", "schema.ts")];
      expect(moved.stderr.split("\n").slice(-3)).toEqual([
        `main → next: moved from ${COMMIT} to ${NEXT}; schema.ts changed in draft`,
        `  what changed in draft: mcp-schema-codegen diff ${oldSchema} ${newSchema}`,
        "",
      ]);
      // The command it gives runs as written, and says what the update added.
      const diff = await cli("diff", oldSchema, newSchema);
      expect([diff.code, diff.stdout]).toEqual([1, expect.stringContaining("AddedInUpdate")]);
      // An update that moves nothing says so.
      const still = await cli("spec", "fetch", "--update", "--lock", lock);
      expect([still.code, still.stderr.split("\n").at(-2)]).toEqual([0, `next: still at ${NEXT}`]);
      // A ref that is the commit of the second pin replaces that pin, and is named as such (helper-86: the first pin was
      // named, as moved from its commit to the second's).
      const nextPin = readLock(lock)!.pins[0]!;
      writeFileSync(lock, `${JSON.stringify({ lockVersion: 1, repository: "modelcontextprotocol/modelcontextprotocol", pins: [{ ref: "main", commit: COMMIT, schemas: DIGESTS }, nextPin] })}\n`);
      const byCommit = await cli("spec", "fetch", "--ref", NEXT, "--update", "--lock", lock);
      expect([byCommit.code, byCommit.stderr.split("\n").at(-2)]).toEqual([0, `next → ${NEXT}: still at ${NEXT}`]);
      expect(readLock(lock)!.pins.map((p) => `${p.ref}@${p.commit}`)).toEqual([`main@${COMMIT}`, `${NEXT}@${NEXT}`]);
      expect(existsSync(join(dir, "mcp-spec.lock.json"))).toBe(true);
      // A revision without a version the pin had says which (helper-89: the next generate naming it failed, MCG506, unexplained).
      const LATER = "3333333333333333333333333333333333333333";
      const without = corpusEntries(SPEC_DIR).filter((e) => !e.path.startsWith("schema/2025-11-25"));
      server.routes.set("later", { kind: "archive", body: tarGz(`modelcontextprotocol-${LATER}`, without, LATER) });
      const gone = await cli("spec", "fetch", "--ref", "later", "--update", "--lock", lock);
      expect([gone.code, gone.stderr.split("\n").at(-2)]).toEqual([0, `main → later: moved from ${COMMIT} to ${LATER} (versions gone: 2025-11-25); no schema.ts of a version both have changed`]);
      // Only 2025-11-25 changed: that version is named, and its diff offered, not the draft's (helper-106).
      const ERRATUM = "4444444444444444444444444444444444444444";
      const legacy = readFileSync(join(SPEC_DIR, "schema", "2025-11-25", "schema.ts"), "utf8");
      const erratum = corpusEntries(SPEC_DIR, { "schema/2025-11-25/schema.ts": Buffer.from(`${legacy}\nexport const ERRATUM = -32043;\n`) });
      server.routes.set("erratum", { kind: "archive", body: tarGz(`modelcontextprotocol-${ERRATUM}`, erratum, ERRATUM) });
      writeFileSync(lock, `${JSON.stringify({ lockVersion: 1, repository: "modelcontextprotocol/modelcontextprotocol", pins: [{ ref: "main", commit: COMMIT, schemas: DIGESTS }] })}\n`);
      const fixed = await cli("spec", "fetch", "--ref", "erratum", "--update", "--lock", lock);
      const [before, after] = [join(cache, COMMIT, "schema", "2025-11-25", "schema.ts"), join(cache, ERRATUM, "schema", "2025-11-25", "schema.ts")];
      expect([fixed.code, ...fixed.stderr.split("\n").slice(-3)]).toEqual([
        0,
        `main → erratum: moved from ${COMMIT} to ${ERRATUM}; schema.ts changed in 2025-11-25`,
        `  what changed in 2025-11-25: mcp-schema-codegen diff ${before} ${after}`,
        "",
      ]);
      expect((await cli("diff", before, after)).stdout).toContain("ERRATUM");
    } finally {
      for (const [key, value] of [["MCP_SPEC_BASE_URL", previous.base], ["MCP_SPEC_CACHE_DIR", previous.cache]] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  });

  it("refuses an archive whose schema.ts differs from the lock (MCG503), caching nothing", async () => {
    const { options, cache, lock } = place("mismatch");
    writeFileSync(lock, `${JSON.stringify({ lockVersion: 1, repository: "modelcontextprotocol/modelcontextprotocol", pins: [{ ref: "main", commit: COMMIT, schemas: DIGESTS }] })}\n`);
    const tampered = tarGz(TOP, corpusEntries(SPEC_DIR, { "schema/draft/schema.ts": Buffer.from("export type Tampered = string;\n") }), COMMIT);
    const local = await startSpecServer(30_000);
    local.routes.set(COMMIT, { kind: "archive", body: tampered });
    try {
      expect(await failure(fetchSpec({ ...options, baseUrl: local.baseUrl }))).toEqual([
        `error MCG503: the archive from ${local.baseUrl}/${COMMIT} does not match the lock ${lock}: schema/draft/schema.ts: locked ${DIGESTS.draft}, got ${sha256("export type Tampered = string;\n")}; nothing was cached: ` +
          `either the lock file was edited, or written by \`spec fetch --from <dir>\` from a folder that did not hold that commit ` +
          `(then restore it from version control, or run \`spec fetch --lock ${lock} --update\` to pin what the ref names now), or the server sent other contents for that commit`,
      ]);
    } finally {
      await local.close();
    }
    expect(cacheEntries(cache)).toEqual([]);
  });

  it("refuses a cached folder that was changed (MCG503), with or without a lock", async () => {
    const { options, cache, lock } = place("tampered-cache");
    await fetchSpec({ ...options, ref: "main" });
    const schema = join(cache, COMMIT, "schema", "draft", "schema.ts");
    writeFileSync(schema, "export type Edited = string;\n");
    const edited = sha256("export type Edited = string;\n");
    expect(await failure(fetchSpec(options))).toEqual([
      `error MCG503: the cached revision ${join(cache, COMMIT)} does not match the lock ${lock}: schema/draft/schema.ts: locked ${DIGESTS.draft}, got ${edited}; ` +
        `either the cache was changed (then delete that folder and fetch again) or the lock file was edited (then restore it from version control, or run \`spec fetch --lock ${lock} --update\` to pin what the ref names now)`,
    ]);
    rmSync(lock);
    expect(await failure(fetchSpec({ ...options, ref: "main" }))).toEqual([
      `error MCG503: the cached folder ${join(cache, COMMIT)} differs from the archive of its commit (schema/draft/schema.ts: archive ${DIGESTS.draft}, cached ${edited}); delete it and fetch again`,
    ]);
    expect(existsSync(lock)).toBe(false);
    expect(cacheEntries(cache)).toEqual([COMMIT]);
  });

  it("reports a truncated download (MCG501), caching nothing and writing no lock", async () => {
    const { options, cache, lock } = place("truncated");
    server.routes.set("truncated", { kind: "truncated", body: good, bytes: 1000 });
    const lines = await failure(fetchSpec({ ...options, ref: "truncated" }));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(`^error MCG501: cannot download the spec from ${server.baseUrl}/truncated: the download broke off after 1000 (of ${good.length} )?bytes.*; check the network \\(or set MCP_SPEC_BASE_URL to a server that has the archives\\); without a download, pin a local clone .*, or give a local clone with --spec <clone> --spec-version <v>, or one file with --schema <file>$`),
    );
    expect(cacheEntries(cache)).toEqual([]);
    expect(existsSync(lock)).toBe(false);
    // Sent in chunks, with no length to fall short of: the connection closed in the middle of the answer (helper-106).
    server.routes.set("truncated-chunked", { kind: "truncated", body: good, bytes: 1000, chunked: true });
    const chunked = await failure(fetchSpec({ ...options, ref: "truncated-chunked" }));
    expect(chunked[0]).toMatch(/: the download broke off after 1000 bytes \(the server closed the connection before the answer's end \(UND_ERR_SOCKET\)\); check the network/);
    expect(cacheEntries(cache)).toEqual([]);
  });

  it("retries a connection reset once, and reports a second one (MCG501)", async () => {
    const { options } = place("reset");
    server.routes.set("reset-once", { kind: "reset", resets: 1, body: good });
    const before = server.requests.length;
    const [fetched] = await fetchSpec({ ...options, ref: "reset-once" });
    expect(fetched!.pin.commit).toBe(COMMIT);
    expect(server.requests.slice(before)).toEqual(["reset-once", "reset-once"]);
    const { options: other, lock } = place("reset-twice");
    server.routes.set("reset-twice", { kind: "reset", resets: 2, body: good });
    expect(await failure(fetchSpec({ ...other, ref: "reset-twice" }))).toEqual([
      `error MCG501: cannot download the spec from ${server.baseUrl}/reset-twice: the server closed the connection without an answer (UND_ERR_SOCKET); check the network (or set MCP_SPEC_BASE_URL to a server that has the archives); without a download, ${pinClone(lock)}give a local clone with --spec <clone> --spec-version <v>, or one file with --schema <file>`,
    ]);
  });

  it("reports 404 (MCG501) with the URL and the alternatives", async () => {
    const { options, lock } = place("404");
    expect(await failure(fetchSpec({ ...options, ref: "no-such-tag" }))).toEqual([
      `error MCG501: cannot download the spec from ${server.baseUrl}/no-such-tag: HTTP 404 (no such ref?); check the network (or set MCP_SPEC_BASE_URL to a server that has the archives); without a download, ${pinClone(lock)}give a local clone with --spec <clone> --spec-version <v>, or one file with --schema <file>`,
    ]);
  });

  it("says what a port fetch() blocks means (MCG501), not undici's bare \"bad port\" (helper-75)", async () => {
    const { options, lock } = place("bad-port");
    expect(await failure(fetchSpec({ ...options, baseUrl: "http://127.0.0.1:1/tar.gz", ref: "main" }))).toEqual([
      "error MCG501: cannot download the spec from http://127.0.0.1:1/tar.gz/main: fetch() does not connect to that port (a port it blocks, such as 1, 22 or 25: bad port); serve the archives on another; " +
        `check the network (or set MCP_SPEC_BASE_URL to a server that has the archives); without a download, ${pinClone(lock)}give a local clone with --spec <clone> --spec-version <v>, or one file with --schema <file>`,
    ]);
  });

  it("reports a refused connection (MCG501) in spec fetch's own terms, and the CLI exits 2 without a stack trace, saying what became of the lock file", async () => {
    const { dir, cache } = place("refused");
    const port = await refusedPort();
    const base = `http://127.0.0.1:${port}/tar.gz`;
    const lock = join(dir, "mcp-spec.lock.json");
    const previous = { base: process.env.MCP_SPEC_BASE_URL, cache: process.env.MCP_SPEC_CACHE_DIR };
    process.env.MCP_SPEC_BASE_URL = base;
    process.env.MCP_SPEC_CACHE_DIR = cache;
    // Not --spec or --schema, which spec fetch does not take: the network, the server, and the commands that read a clone.
    const advice = "check the network and MCP_SPEC_BASE_URL; without a download, generate, diff and scaffold can read a local clone with --spec <clone>, which needs no lock";
    try {
      expect(await cli("spec", "fetch", "--ref", "main", "--lock", lock)).toEqual({
        code: 2,
        stdout: "",
        stderr: `main: downloading ${base}/main\nerror MCG501: cannot download the spec from ${base}/main: ECONNREFUSED; ${advice.replace("without a download, ", `without a download, ${pinClone(lock)}`)}\n1 error; no lock file was written\n`,
      });
      expect(existsSync(lock)).toBe(false);
      // With a lock, whose first pin is not cached: that lock is what was not changed, and a clone at the locked commit fills the cache.
      writeFileSync(lock, readFileSync(SPEC_LOCK));
      const copy = `fill the cache from a clone at commit ${COMMIT} with \`spec fetch --lock ${lock} --from <clone>\`, which keeps the lock, or `;
      expect((await cli("spec", "fetch", "--lock", lock)).stderr).toBe(
        `${COMMIT}: downloading ${base}/${COMMIT}\nerror MCG501: cannot download the spec from ${base}/${COMMIT}: ECONNREFUSED; ${advice.replace("without a download, ", `without a download, ${copy}`)}\n1 error; the lock file was not changed\n`,
      );
      expect((await cli("spec", "fetch", "--offline", "--lock", lock)).stderr).toBe(
        `error MCG505: --offline: the locked revision ${COMMIT} is not in the cache ${cache} (it would be downloaded from ${base}/${COMMIT}); ` +
          `run without --offline, or fill the cache from a clone at that commit with \`spec fetch --lock ${lock} --from <clone>\`, or let generate, diff and scaffold read a local clone with --spec <clone>, which needs no lock\n1 error; the lock file was not changed\n`,
      );
      // --update with no network: a clone's HEAD moves the pin (helper-139: only --spec was offered).
      expect((await cli("spec", "fetch", "--update", "--lock", lock)).stderr).toBe(
        `${COMMIT}: downloading ${base}/${COMMIT}\nerror MCG501: cannot download the spec from ${base}/${COMMIT}: ECONNREFUSED; ` +
          `${advice.replace("without a download, ", `without a download, move the pin to the commit a local clone's HEAD names with \`spec fetch --lock ${lock} --from <clone> --update\`, or `)}\n1 error; the lock file was not changed\n`,
      );
      expect(readFileSync(lock, "utf8")).toBe(readFileSync(SPEC_LOCK, "utf8"));
      // A pin after the first: --from <clone> --update would move the first one, so it is not offered.
      const pinned = JSON.parse(readFileSync(SPEC_LOCK, "utf8")) as { pins: { ref: string }[] };
      writeFileSync(lock, JSON.stringify({ ...pinned, pins: [pinned.pins[0], { ...pinned.pins[0], ref: "next" }] }, null, 2) + "\n");
      expect((await cli("spec", "fetch", "--update", "--ref", "next", "--lock", lock)).stderr).toBe(
        `next: downloading ${base}/next\nerror MCG501: cannot download the spec from ${base}/next: ECONNREFUSED; ${advice}\n1 error; the lock file was not changed\n`,
      );
      writeFileSync(lock, readFileSync(SPEC_LOCK));
      // Set but empty is unset: the default server (helper-85: 'the base URL "" is not an http:// or https:// URL').
      process.env.MCP_SPEC_BASE_URL = "";
      expect((await cli("spec", "fetch", "--offline", "--lock", lock)).stderr).toContain(
        `(it would be downloaded from https://codeload.github.com/modelcontextprotocol/modelcontextprotocol/tar.gz/${COMMIT})`,
      );
      // A value refused is named as it was set (helper-86: "/" was named "", its trailing slash dropped).
      for (const written of ["/", "http://", "file:///", "ftp://host/"]) {
        process.env.MCP_SPEC_BASE_URL = written;
        expect((await cli("spec", "fetch", "--lock", lock)).stderr).toContain(`error MCG001: MCP_SPEC_BASE_URL "${written}" is not an http:// or https:// URL`);
      }
    } finally {
      for (const [key, value] of [["MCP_SPEC_BASE_URL", previous.base], ["MCP_SPEC_CACHE_DIR", previous.cache]] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  });

  /** A temporary folder as a run makes one, last changed `ageMs` ago. */
  const leftBehind = (cache: string, pid: number, ageMs: number): string => {
    const folder = join(cache, `.tmp-${COMMIT}-${pid}-abcd1234`);
    mkdirSync(join(folder, "schema"), { recursive: true });
    const when = new Date(Date.now() - ageMs);
    utimesSync(folder, when, when);
    return folder;
  };
  const TEN_MINUTES = 10 * 60 * 1000;

  it("removes a temporary folder a killed run left in the cache once it is 10 minutes old; a live run's, or a recent one (a pid of another namespace or host), stays", async () => {
    const { options, cache } = place("abandoned");
    leftBehind(cache, 99999999, TEN_MINUTES + 1000);
    leftBehind(cache, process.pid, TEN_MINUTES + 1000);
    // helper-96: a run in another PID namespace sharing the cache has a pid this one cannot see, and lost its folder.
    const other = leftBehind(cache, 99999998, 60_000);
    await fetchSpec({ ...options, ref: "main" });
    expect(cacheEntries(cache)).toEqual([`.tmp-${COMMIT}-${process.pid}-abcd1234`, `.tmp-${COMMIT}-99999998-abcd1234`, COMMIT]);
    expect(existsSync(join(other, "schema"))).toBe(true);
  });

  it("removes a killed run's temporary folder on a fetch that downloads nothing, also --offline (it stayed until a download)", async () => {
    const { options, cache } = place("abandoned-cached");
    await fetchSpec({ ...options, ref: "main" });
    const requests = server.requests.length;
    for (const offline of [false, true]) {
      leftBehind(cache, 99999999, TEN_MINUTES + 1000);
      const [found] = await fetchSpec({ ...options, offline });
      expect(found!.downloaded).toBe(false);
      expect(cacheEntries(cache)).toEqual([COMMIT]);
    }
    expect(server.requests.length).toBe(requests);
  });

  it("two fetches at once both succeed, leaving one cache folder and no temporary folder", async () => {
    const { options, cache } = place("concurrent");
    const before = server.requests.length;
    const [a, b] = await Promise.all([fetchSpec({ ...options, ref: "main" }), fetchSpec({ ...options, ref: "main" })]);
    expect(server.requests.length - before).toBe(2);
    expect(a![0]!.dir).toBe(join(cache, COMMIT));
    expect(b![0]!.dir).toBe(join(cache, COMMIT));
    expect(cacheEntries(cache)).toEqual([COMMIT]);
    expect(readLock(options.lockFile!)!.pins).toEqual([{ ref: "main", commit: COMMIT, schemas: DIGESTS }]);
  });
});

describe("spec fetch: locks and refs it must not trust", () => {
  it("--update with --offline is a usage error (MCG001): an update needs the network", async () => {
    const { options } = place("update-offline");
    await fetchSpec({ ...options, ref: "main" });
    expect(await failure(fetchSpec({ ...options, update: true, offline: true }))).toEqual([
      "error MCG001: --update moves pins to what their refs name now, which needs the network: it cannot go with --offline; with no network, `--from <clone> --update` pins a local clone (its HEAD, or the commit a full --ref sha names)",
    ]);
  });

  it("a base URL that is not http:// or https:// is a usage error (MCG001) where a download would start; a run served from the cache never reads it", async () => {
    const { options, cache } = place("base-url");
    for (const baseUrl of ["file:///tmp/archives", "not a url"]) {
      expect(await failure(fetchSpec({ ...options, baseUrl }))).toEqual([
        `error MCG001: the base URL ${JSON.stringify(baseUrl)} is not an http:// or https:// URL (archives are downloaded from <base URL>/<ref>)`,
      ]);
    }
    // Before, the ref went after the query: http://127.0.0.1/x?y/main (helper-77).
    // A query is not repeated either: it may hold a token (helper-79).
    for (const [baseUrl, shown] of [["http://127.0.0.1/x?token=s3cret", "http://127.0.0.1/x?…"], ["http://127.0.0.1/x#y", "http://127.0.0.1/x#…"]] as const) {
      expect(await failure(fetchSpec({ ...options, baseUrl }))).toEqual([
        `error MCG001: the base URL ${JSON.stringify(shown)} has a query or fragment, after which the ref would be added: archives are downloaded from <base URL>/<ref>`,
      ]);
    }
    // Credentials: fetch refuses them, and no message repeats the password (helper-78: MCG501 echoing it; helper-79: MCG505,
    // and a URL that does not parse).
    const secret = await failure(fetchSpec({ ...options, baseUrl: "http://me:s3cret@127.0.0.1/archives" }));
    expect(secret).toEqual([
      'error MCG001: the base URL "http://…@127.0.0.1/archives" holds a user name or password, which a download cannot send (fetch refuses such a URL): use a server that needs none',
    ]);
    expect(await failure(fetchSpec({ ...options, baseUrl: "http://me:s3cret@127.0.0.1:99999/archives" }))).toEqual([
      'error MCG001: the base URL "http://…@127.0.0.1:99999/archives" is not an http:// or https:// URL (archives are downloaded from <base URL>/<ref>)',
    ]);
    // Forms the URL parser (and fetch) reads as credentials too, though they are not written scheme://user@ (helper-81).
    for (const baseUrl of [" http://me:s3cret@127.0.0.1/archives", "http:me:s3cret@127.0.0.1/archives", "http:\\\\me:s3cret@127.0.0.1/archives"]) {
      expect(await failure(fetchSpec({ ...options, baseUrl })), baseUrl).toEqual([
        'error MCG001: the base URL "http://…@127.0.0.1/archives" holds a user name or password, which a download cannot send (fetch refuses such a URL): use a server that needs none',
      ]);
    }
    await fetchSpec({ ...options, ref: "main" });
    // Locked, and not in the cache: MCG505 names the URL it would download from.
    rmSync(cache, { recursive: true, force: true });
    const offline = (await failure(fetchSpec({ ...options, baseUrl: "http://me:s3cret@127.0.0.1/archives", offline: true }))).join("\n");
    expect([offline.startsWith("error MCG505"), offline.includes("s3cret"), offline.includes("http://…@127.0.0.1/archives/")]).toEqual([true, false, true]);
    const loose = (await failure(fetchSpec({ ...options, baseUrl: "http:me:s3cret@127.0.0.1/archives#x", offline: true }))).join("\n");
    expect([loose.startsWith("error MCG505"), loose.includes("s3cret"), loose.includes("http://…@127.0.0.1/archives#…")]).toEqual([true, false, true]);
    await fetchSpec({ ...options, ref: "main" });
    expect((await fetchSpec({ ...options, baseUrl: "file:///tmp/archives", offline: true }))[0]).toMatchObject({ downloaded: false });
    expect((await fetchSpec({ ...options, baseUrl: "file:///tmp/archives" }))[0]).toMatchObject({ downloaded: false });
  });

  it("two first fetches of different refs at once: one pins its ref, the other changes nothing and says so (MCG504)", async () => {
    const { options, lock } = place("race-first");
    server.routes.set(OTHER, { kind: "archive", body: tarGz(`modelcontextprotocol-${OTHER}`, corpusEntries(SPEC_DIR), OTHER) });
    const settled = await Promise.allSettled([fetchSpec({ ...options, ref: "main" }), fetchSpec({ ...options, ref: OTHER })]);
    const won = settled.flatMap((s) => (s.status === "fulfilled" ? [s.value[0]!.pin] : []));
    const lost = settled.flatMap((s) => (s.status === "rejected" ? [s.reason as unknown] : []));
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]).toBeInstanceOf(GeneratorError);
    expect((lost[0] as GeneratorError).diagnostics.map((d) => d.code)).toEqual(["MCG504"]);
    expect((lost[0] as GeneratorError).diagnostics[0]!.message).toContain("changed while this run was fetching");
    expect(readLock(lock)!.pins).toEqual(won);
  });

  it("a full commit as the ref: an archive of another commit is refused (MCG503), nothing locked", async () => {
    const { options, lock, cache } = place("commit-ref");
    const asked = "4444444444444444444444444444444444444444";
    server.routes.set(asked, { kind: "archive", body: good });
    expect(await failure(fetchSpec({ ...options, ref: asked }))).toEqual([
      `error MCG503: the archive from ${server.baseUrl}/${asked} holds commit ${COMMIT}, not the commit ${asked} asked for; nothing was cached`,
    ]);
    expect(existsSync(lock)).toBe(false);
    expect(cacheEntries(cache)).toEqual([]);
  });

  it("an abbreviated commit as the ref: an archive of a commit it does not abbreviate is pinned with a warning (a branch or tag of that name)", async () => {
    const lines: string[] = [];
    for (const asked of [COMMIT.slice(0, 7).toUpperCase(), "deadbee"]) {
      const { options } = place(`short-ref-${asked}`);
      server.routes.set(asked, { kind: "archive", body: good });
      const [fetched] = await fetchSpec({ ...options, ref: asked, onProgress: (line) => lines.push(line) });
      expect(fetched!.pin).toMatchObject({ ref: asked, commit: COMMIT });
    }
    expect(lines.filter((l) => l.startsWith("warning:"))).toEqual([
      `warning: deadbee looks like an abbreviated commit, but the archive from ${server.baseUrl}/deadbee holds commit ${COMMIT}: pinned as a branch or tag of that name`,
    ]);
    // A full commit as the ref is said once in a progress line (helper-55).
    const { options } = place("full-ref");
    server.routes.set(COMMIT, { kind: "archive", body: good });
    const said: string[] = [];
    await fetchSpec({ ...options, ref: COMMIT, onProgress: (line) => said.push(line) });
    expect(said.at(-2)).toBe(`${COMMIT} cached in ${join(options.cacheDir!, COMMIT)}`);
  });

  it.each([
    ["climbs out of the URL path", "../../evil?x=1#"],
    ["is empty", ""],
  ])("a lock whose ref %s is refused (MCG504) before any request", async (_, ref) => {
    const { options, lock } = place(`lock-ref-${ref === "" ? "empty" : "climb"}`);
    const text = JSON.stringify({ lockVersion: 1, repository: "modelcontextprotocol/modelcontextprotocol", pins: [{ ref, commit: COMMIT, schemas: DIGESTS }] });
    writeFileSync(lock, text);
    const before = server.requests.length;
    // Placed at the ref's value, on the one line.
    expect(await failure(fetchSpec({ ...options, update: true }))).toEqual([
      `${lock}:1:${text.indexOf('"ref":') + '"ref":'.length + 1} - error MCG504: the lock file ${lock} has a pin (0) whose ref ${JSON.stringify(ref)} is not a tag, branch or commit name; fix it, or delete it and run \`spec fetch --lock ${lock}\``,
    ]);
    expect(server.requests.length).toBe(before);
  });

  it("a lock edited by hand is named as a party to a mismatch (MCG503) with what mends it; --update then pins what the ref names", async () => {
    const { options, cache, dir, lock } = place("edited-lock");
    await fetchSpec({ ...options, ref: "main" });
    const zeros = "0".repeat(64);
    const copy = join(dir, "copy.lock.json");
    const edited = JSON.parse(readFileSync(lock, "utf8")) as { pins: { schemas: Record<string, string> }[] };
    edited.pins[0]!.schemas.draft = zeros;
    writeFileSync(copy, JSON.stringify(edited));
    const mend = `then restore it from version control, or run \`spec fetch --lock ${copy} --update\` to pin what the ref names now`;
    expect(await failure(fetchSpec({ ...options, lockFile: copy }))).toEqual([
      `error MCG503: the cached revision ${join(cache, COMMIT)} does not match the lock ${copy}: schema/draft/schema.ts: locked ${zeros}, got ${DIGESTS.draft}; ` +
        `either the cache was changed (then delete that folder and fetch again) or the lock file was edited (${mend})`,
    ]);
    // The folder deleted as the cache side says: the download (of the locked commit) is compared with the same lock.
    rmSync(join(cache, COMMIT), { recursive: true });
    expect(await failure(fetchSpec({ ...options, lockFile: copy }))).toEqual([
      `error MCG503: the archive from ${server.baseUrl}/${COMMIT} does not match the lock ${copy}: schema/draft/schema.ts: locked ${zeros}, got ${DIGESTS.draft}; nothing was cached: ` +
        `either the lock file was edited, or written by \`spec fetch --from <dir>\` from a folder that did not hold that commit (${mend}), or the server sent other contents for that commit`,
    ]);
    expect(cacheEntries(cache)).toEqual([]);
    // What the lock side says mends it.
    const [moved] = await fetchSpec({ ...options, lockFile: copy, update: true });
    expect(moved!.pin).toEqual({ ref: "main", commit: COMMIT, schemas: DIGESTS });
    // A version the revision lacks, in a lock of two pins: `--ref` names the pin to move.
    const absent = { ref: "main", commit: COMMIT, schemas: { "2099-01-01": zeros } };
    writeFileSync(copy, JSON.stringify({ lockVersion: 1, repository: "modelcontextprotocol/modelcontextprotocol", pins: [absent, { ref: OTHER, commit: OTHER, schemas: DIGESTS }] }));
    expect(await failure(fetchSpec({ ...options, lockFile: copy }))).toEqual([
      `error MCG503: the cached revision ${join(cache, COMMIT)} does not match the lock ${copy}: schema/2099-01-01/schema.ts: locked ${zeros}, got (absent); ` +
        `either the cache was changed (then delete that folder and fetch again) or the lock file was edited (then restore it from version control, or run \`spec fetch --lock ${copy} --ref main --update\` to pin what the ref names now)`,
    ]);
    // helper-127: a version named as a property every object inherits was "got function Object() { [native code] }".
    writeFileSync(copy, JSON.stringify({ lockVersion: 1, repository: "modelcontextprotocol/modelcontextprotocol", pins: [{ ref: "main", commit: COMMIT, schemas: { constructor: zeros } }] }));
    expect((await failure(fetchSpec({ ...options, lockFile: copy })))[0]).toContain(`: schema/constructor/schema.ts: locked ${zeros}, got (absent); either the cache was changed`);
  });

  const pin = { ref: "main", commit: COMMIT, schemas: DIGESTS };
  // Each case names where the error is placed: the text around it in the written (indented) lock, `‸` at the place.
  const shapes: [string, unknown, string, string][] = [
    ["an unknown key", { lockVersion: 1, repository: "modelcontextprotocol/modelcontextprotocol", pins: [pin], pinned: true }, 'has an unknown key "pinned" (a lock has lockVersion, repository, pins)', '‸"pinned"'],
    ["an unknown key in a pin", { lockVersion: 1, pins: [{ ...pin, comment: "x" }] }, 'has a pin (0) with an unknown key "comment" (a pin has ref, commit, schemas)', '‸"comment"'],
    [
      "another repository",
      { lockVersion: 1, repository: "someone/fork", pins: [pin] },
      'names the repository "someone/fork"; this generator follows modelcontextprotocol/modelcontextprotocol only (MCP_SPEC_BASE_URL names another server for it)',
      '"repository": ‸"someone/fork"',
    ],
    ["a lockVersion of 0", { lockVersion: 0, pins: [pin] }, "has lockVersion 0; this generator reads 1", '"lockVersion": ‸0'],
    ["a lockVersion that is text", { lockVersion: "2", pins: [pin] }, 'has lockVersion "2"; this generator reads 1', '"lockVersion": ‸"2"'],
    ["no lockVersion", { pins: [pin] }, "has lockVersion undefined; this generator reads 1", '‸{\n  "pins"'],
    ["an empty pins", { lockVersion: 1, pins: [] }, "has no pins", '"pins": ‸[]'],
    ["a pin with no schemas", { lockVersion: 1, pins: [{ ...pin, schemas: {} }] }, "has a pin (0) whose schemas are empty (it names no version's schema.ts)", '"schemas": ‸{}'],
    ["a digest that is no digest", { lockVersion: 1, pins: [{ ...pin, schemas: { ...DIGESTS, draft: "abc" } }] }, "has a pin (0) whose schemas are not sha256 digests by version", '"draft": ‸"abc"'],
    // helper-89: `__proto__` was read as the object's prototype ("got [object Object]"), and a path passed the shape check.
    [
      "a version named __proto__",
      { lockVersion: 1, pins: [{ ...pin, schemas: JSON.parse(`{"__proto__":"${DIGESTS.draft}"}`) as object }] },
      'has a pin (0) whose schemas name "__proto__", which is not a version folder name (such as draft or 2025-11-25)',
      '‸"__proto__"',
    ],
    [
      "a version that is a path",
      { lockVersion: 1, pins: [{ ...pin, schemas: { ...DIGESTS, "../../x": DIGESTS.draft } }] },
      'has a pin (0) whose schemas name "../../x", which is not a version folder name (such as draft or 2025-11-25)',
      '‸"../../x"',
    ],
    ["an abbreviated commit", { lockVersion: 1, pins: [{ ...pin, commit: "97b41b6" }] }, 'has a pin (0) whose commit "97b41b6" is not 40 lowercase hex digits', '"commit": ‸"97b41b6"'],
    // helper-127: the pin was taken, its commit used, and a fetch of its ref would move it back.
    [
      "a ref that is another commit",
      { lockVersion: 1, pins: [{ ...pin, ref: "1".repeat(40) }] },
      `has a pin (0) whose ref "${"1".repeat(40)}" is a full commit sha other than its commit ${COMMIT} (a commit names one revision: pin it as its own ref)`,
      `"ref": ‸"${"1".repeat(40)}"`,
    ],
    [
      "a commit in capitals",
      { lockVersion: 1, pins: [{ ...pin, commit: COMMIT.toUpperCase() }] },
      `has a pin (0) whose commit "${COMMIT.toUpperCase()}" is not 40 lowercase hex digits (write it in lower case)`,
      `"commit": ‸"${COMMIT.toUpperCase()}"`,
    ],
    ["a pin without a commit", { lockVersion: 1, pins: [{ ref: "main", schemas: DIGESTS }] }, "has a pin (0) without a commit (a string of 40 lowercase hex digits)", '"pins": [\n    ‸{'],
    ["a pin without a ref", { lockVersion: 1, pins: [{ commit: COMMIT, schemas: DIGESTS }] }, "has a pin (0) without a ref (a string)", '"pins": [\n    ‸{'],
    ["a second pin that is no object", { lockVersion: 1, pins: [pin, "main"] }, "has a pin (1) that is not an object", '‸"main"\n'],
    // helper-112: it was fetched twice.
    ["a ref pinned twice", { lockVersion: 1, pins: [pin, { ...pin, commit: OTHER }] }, 'pins the ref "main" twice (pins 0 and 1)', `"ref": ‸"main",\n      "commit": "${OTHER}"`],
  ];
  it.each(shapes)("a lock with %s is refused (MCG504) at its place in the file, saying what is wrong, before any request", async (name, content, what, around) => {
    const { options, lock, cache } = place(`lock-shape-${name.replace(/\W+/g, "-")}`);
    const text = JSON.stringify(content, null, 2);
    writeFileSync(lock, text);
    // The place the case names, found in the text as written (one occurrence, so the case cannot name it ambiguously).
    const [before, after] = around.split("‸") as [string, string];
    expect(text.split(before + after)).toHaveLength(2);
    const lines = text.slice(0, text.indexOf(before + after) + before.length).split("\n");
    const at = `${lock}:${lines.length}:${lines.at(-1)!.length + 1}`;
    const requests = server.requests.length;
    expect(await failure(fetchSpec(options))).toEqual([`${at} - error MCG504: the lock file ${lock} ${what}; fix it, or delete it and run \`spec fetch --lock ${lock}\``]);
    expect(server.requests.length).toBe(requests);
    expect(cacheEntries(cache)).toEqual([]);
  });

  it("refuses a lock of a later lockVersion with the advice to upgrade the generator and keep the lock, not to delete it (helper-127)", async () => {
    const { options, lock } = place("lock-later");
    writeFileSync(lock, JSON.stringify({ lockVersion: 2, pins: [pin] }, null, 2));
    const requests = server.requests.length;
    expect(await failure(fetchSpec(options))).toEqual([
      `${lock}:2:18 - error MCG504: the lock file ${lock} has lockVersion 2, written by a newer mcp-schema-codegen; this one reads lockVersion 1: upgrade mcp-schema-codegen (keep the lock)`,
    ]);
    // helper-128: with a key lockVersion 1 lacks (a later format may add some), it was told "fix it, or delete it".
    writeFileSync(lock, JSON.stringify({ lockVersion: 2, mirrors: ["https://example.org"], pins: [pin] }, null, 2));
    expect(await failure(fetchSpec(options))).toEqual([
      `${lock}:2:18 - error MCG504: the lock file ${lock} has lockVersion 2, written by a newer mcp-schema-codegen; this one reads lockVersion 1: upgrade mcp-schema-codegen (keep the lock)`,
    ]);
    expect(server.requests.length).toBe(requests);
  });

  it("refuses a lock that gives a key twice in one object (MCG504), at the second, as the configuration file does (helper-112: JSON.parse kept the last)", async () => {
    const { options, lock } = place("lock-twice");
    await fetchSpec({ ...options, ref: "main" });
    const text = readFileSync(lock, "utf8").replace('"lockVersion": 1,', '"lockVersion": 1,\n  "lockVersion": 1,');
    writeFileSync(lock, text);
    expect(await failure(fetchSpec(options))).toEqual([
      `${lock}:3:3 - error MCG504: the lock file ${lock} gives the key "lockVersion" twice in one object; fix it, or delete it and run \`spec fetch --lock ${lock}\``,
    ]);
  });

  it("reads a lock with a byte order mark, and calls a JSON array no lock object (MCG504)", async () => {
    const { options, lock, cache } = place("lock-bom");
    await fetchSpec({ ...options, ref: "main" });
    writeFileSync(lock, `\uFEFF${readFileSync(lock, "utf8")}`);
    expect((await fetchSpec(options))[0]!.dir).toBe(join(cache, COMMIT));
    writeFileSync(lock, "\n  []");
    expect(await failure(fetchSpec(options))).toEqual([`${lock}:2:3 - error MCG504: the lock file ${lock} is not an object; fix it, or delete it and run \`spec fetch --lock ${lock}\``]);
    // Not JSON: the first problem, at its line and column, on one line.
    writeFileSync(lock, '{\n  "lockVersion": 1,\n  "pins": [nope]\n}\n');
    expect(await failure(fetchSpec(options))).toEqual([
      `${lock}:3:12 - error MCG504: the lock file is not valid JSON (Property value can only be string literal, numeric literal, 'true', 'false', 'null', object literal or array literal.); fix it, or delete it and run \`spec fetch --lock ${lock}\``,
    ]);
    // U+2028 between tokens: no JSON whitespace, where TypeScript's parser sees a line break; placed at JSON.parse's position (helper-97: 1:1).
    writeFileSync(lock, '{\n  "lockVersion": 1,\u2028 "pins": []\n}\n');
    const [problem] = await failure(fetchSpec(options));
    expect(problem).toMatch(new RegExp(`^${lock.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:2:20 - error MCG504: the lock file is not valid JSON \\(`));
  });

  it("a lock file whose folder is missing stops the fetch before it downloads (MCG403)", async () => {
    const { options, dir, cache } = place("lock-folder");
    const lock = join(dir, "no such folder", "mcp-spec.lock.json");
    const before = server.requests.length;
    expect(await failure(fetchSpec({ ...options, lockFile: lock, ref: "main" }))).toEqual([
      `error MCG403: cannot write the lock file ${lock}: ${join(dir, "no such folder")} does not exist; nothing was downloaded`,
    ]);
    expect(server.requests.length).toBe(before);
    expect(cacheEntries(cache)).toEqual([]);
  });

  it("a cache folder or lock folder it cannot write in stops the fetch before it downloads, with the system's reason (MCG403)", async () => {
    // Run as a user the file modes bind (root's writes ignore them): the tool's own user, or nobody when that is root. A read-only
    // mount gives EROFS where this gives EACCES: the same check (access(2) on the folder, or its nearest existing ancestor) finds both.
    const module = transpilePrivate("spec-fetch-read-only-modules", join(ROOT, "generator", "spec", "index.ts"));
    const dir = scratchDir("spec-fetch-read-only");
    const ro = join(dir, "ro");
    chmodSync(dir, 0o777);
    mkdirSync(join(ro, "cache"), { recursive: true });
    chmodSync(join(ro, "cache"), 0o555);
    chmodSync(ro, 0o555);
    const script = [
      `import { fetchSpec } from ${JSON.stringify(pathToFileURL(module).href)};`,
      'import { join } from "node:path";',
      "const [dir, baseUrl] = process.argv.slice(1);",
      'const run = (lockFile, cacheDir) => fetchSpec({ ref: "main", lockFile, cacheDir, baseUrl, timeoutMs: 20000 }).then(() => "fetched", (e) => e.message);',
      'const results = [await run(join(dir, "a.json"), join(dir, "ro", "new", "cache")), await run(join(dir, "b.json"), join(dir, "ro", "cache")), await run(join(dir, "ro", "c.json"), join(dir, "cache"))];',
      "console.log(JSON.stringify(results));",
    ].join("\n");
    const asUser = process.getuid?.() === 0 ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", process.execPath] : [process.execPath];
    const before = server.requests.length;
    try {
      // Not spawnSync: were a download to start, this process's server must be free to answer it.
      const run = await execFileAsync(asUser[0]!, [...asUser.slice(1), "--input-type=module", "-e", script, dir, server.baseUrl], { encoding: "utf8", timeout: 60_000 });
      expect(run.stderr).toBe("");
      expect(JSON.parse(run.stdout)).toEqual([
        `error MCG403: cannot create the cache folder ${join(ro, "new", "cache")}: ${ro} is not writable (EACCES); nothing was downloaded (MCP_SPEC_CACHE_DIR names another cache folder)`,
        `error MCG403: cannot write in the cache folder ${join(ro, "cache")}: it is not writable (EACCES); nothing was downloaded (MCP_SPEC_CACHE_DIR names another cache folder)`,
        `error MCG403: cannot write the lock file ${join(ro, "c.json")}: ${ro} is not writable (EACCES); nothing was downloaded`,
      ]);
      expect(server.requests.length).toBe(before);
      expect(readdirSync(dir)).toEqual(["ro"]);
    } finally {
      chmodSync(ro, 0o755);
      chmodSync(join(ro, "cache"), 0o755);
    }
  });

  it("a linked lock file whose target folder is missing stops the fetch before it downloads (MCG403)", async () => {
    const { options, dir, cache } = place("lock-link-missing");
    symlinkSync(join("missing", "real.json"), options.lockFile!);
    const before = server.requests.length;
    expect(await failure(fetchSpec({ ...options, ref: "main" }))).toEqual([
      `error MCG403: cannot write the lock file ${options.lockFile}: ${join(dir, "missing")} does not exist; nothing was downloaded`,
    ]);
    expect(server.requests.length).toBe(before);
    expect(cacheEntries(cache)).toEqual([]);
  });

  it("writes the lock file only holding <lock>.lock: a live holder makes it wait, then stop (MCG401), the lock unchanged", async () => {
    const { options, lock } = place("lock-held");
    const progress: string[] = [];
    // A live run of this pid space holds the lock file's lock folder (this process's pid, as a run of the tool writes it).
    mkdirSync(`${lock}.lock`);
    writeFileSync(join(`${lock}.lock`, "pid"), String(process.pid));
    const lines = await failure(fetchSpec({ ...options, ref: "main", lockTimeoutMs: 300, onProgress: (l) => progress.push(l) }));
    expect(lines).toEqual([`error MCG401: ${lock} is locked by another spec fetch (pid ${process.pid}); if no run is active, remove ${lock}.lock and run again`]);
    expect(progress).toContain(`waiting for ${lock}.lock: another run is writing ${lock}`);
    expect(existsSync(lock)).toBe(false);
    rmSync(`${lock}.lock`, { recursive: true });
    expect((await fetchSpec({ ...options, ref: "main" }))[0]!.lockWritten).toBe(true);
  });

  it("a full commit in capitals is the same commit: its own archive is accepted, another's refused (MCG503)", async () => {
    const { options, lock } = place("commit-ref-case");
    // Requested, compared and pinned in lower case.
    expect((await fetchSpec({ ...options, ref: COMMIT.toUpperCase() }))[0]!.pin).toMatchObject({ ref: COMMIT, commit: COMMIT });
    const other = place("commit-ref-case-other");
    const asked = "A".repeat(40);
    server.routes.set(asked.toLowerCase(), { kind: "archive", body: good });
    expect((await failure(fetchSpec({ ...other.options, ref: asked })))[0]).toMatch(/^error MCG503: .* holds commit b0f60ba5.*, not the commit a{40} asked for/);
    expect(readLock(lock)!.pins[0]!.commit).toBe(COMMIT);
  });

  it("a linked lock file is locked beside the file it names, so every link to it shares one lock", async () => {
    const { options, dir } = place("lock-link-held");
    mkdirSync(join(dir, "kept"));
    const real = join(dir, "kept", "real.json");
    symlinkSync(join("kept", "real.json"), options.lockFile!);
    mkdirSync(`${real}.lock`);
    writeFileSync(join(`${real}.lock`, "pid"), String(process.pid));
    expect(await failure(fetchSpec({ ...options, ref: "main", lockTimeoutMs: 200 }))).toEqual([
      `error MCG401: ${real} is locked by another spec fetch (pid ${process.pid}); if no run is active, remove ${real}.lock and run again`,
    ]);
    expect(existsSync(real)).toBe(false);
  });

  it("a commit in capitals names the pin of that commit; --update to the same pins leaves the lock untouched", async () => {
    const { options, lock } = place("commit-ref-pin");
    server.routes.set(COMMIT, { kind: "archive", body: good });
    await fetchSpec({ ...options, ref: COMMIT });
    const [found] = await fetchSpec({ ...options, ref: COMMIT.toUpperCase() });
    expect(found).toMatchObject({ pin: { ref: COMMIT, commit: COMMIT }, downloaded: false });
    const before = readFileSync(lock, "utf8");
    const mtime = statSync(lock).mtimeMs;
    const requests = server.requests.length;
    const [again] = await fetchSpec({ ...options, ref: COMMIT.toUpperCase(), update: true });
    expect(again).toMatchObject({ pin: { ref: COMMIT, commit: COMMIT }, lockWritten: false, downloaded: false });
    expect(readFileSync(lock, "utf8")).toBe(before);
    expect(statSync(lock).mtimeMs).toBe(mtime);
    // A commit names one tree for good: --update of one the lock pins, cached as the lock says, downloads nothing.
    const [all] = await fetchSpec({ ...options, update: true });
    expect(all).toMatchObject({ pin: { ref: COMMIT, commit: COMMIT, schemas: DIGESTS }, downloaded: false });
    expect(server.requests.length).toBe(requests);
    // A cache that differs from the lock is refused, as without --update; one no lock vouches for is downloaded and compared.
    const draft = join(options.cacheDir!, COMMIT, "schema", "draft", "schema.ts");
    const original = readFileSync(draft, "utf8");
    writeFileSync(draft, `${original}export type Injected = string;\n`);
    try {
      expect((await failure(fetchSpec({ ...options, update: true })))[0]).toMatch(/^error MCG503: the cached revision .* does not match the lock .*schema\/draft\/schema\.ts: locked [0-9a-f]{64}, got [0-9a-f]{64}; either the cache was changed or the lock file was edited: delete that folder and run again \(--update pins what the download holds\)$/);
      // With --from, what --update pins is the folder's copy.
      expect((await failure(fetchSpec({ ...options, from: SPEC_DIR, ref: COMMIT, update: true })))[0]).toMatch(/delete that folder and run again \(--update pins what the copy from --from holds\)$/);
      expect(readFileSync(lock, "utf8")).toBe(before);
      rmSync(lock);
      expect((await failure(fetchSpec({ ...options, ref: COMMIT })))[0]).toMatch(/^error MCG503: the cached folder .* differs from the archive of its commit/);
      expect(existsSync(lock)).toBe(false);
    } finally {
      writeFileSync(draft, original);
    }
    const [fresh] = await fetchSpec({ ...options, ref: COMMIT });
    expect(fresh).toMatchObject({ pin: { ref: COMMIT, commit: COMMIT, schemas: DIGESTS }, downloaded: true, lockWritten: true });
    expect(readFileSync(lock, "utf8")).toBe(before);
  });

  it("a lock file that is a symbolic link stays one: the file it names is rewritten", async () => {
    const { options, dir } = place("lock-link");
    const real = join(dir, "kept", "real.lock.json");
    mkdirSync(join(dir, "kept"));
    symlinkSync(join("kept", "real.lock.json"), options.lockFile!); // dangling until the first fetch writes it
    await fetchSpec({ ...options, ref: "main" });
    expect(lstatSync(options.lockFile!).isSymbolicLink()).toBe(true);
    expect(readLock(real)!.pins.map((p) => p.ref)).toEqual(["main"]);
    server.routes.set(OTHER, { kind: "archive", body: tarGz(`modelcontextprotocol-${OTHER}`, corpusEntries(SPEC_DIR), OTHER) });
    await fetchSpec({ ...options, ref: OTHER, update: true });
    expect(lstatSync(options.lockFile!).isSymbolicLink()).toBe(true);
    expect(readLock(real)!.pins.map((p) => p.commit)).toEqual([OTHER]);
  });

  it("a lock file that is a loop of symbolic links is MCG504, saying so, online and --offline, before any request (MCG402, an --out code, before)", async () => {
    const { options, dir, cache } = place("lock-loop");
    symlinkSync(join(dir, "b.json"), options.lockFile!);
    symlinkSync(options.lockFile!, join(dir, "b.json"));
    const said = `error MCG504: the lock file ${options.lockFile!} is a loop of symbolic links; name the lock file itself`;
    const requests = server.requests.length;
    expect(await failure(fetchSpec({ ...options, ref: "main" }))).toEqual([said]);
    expect(await failure(fetchSpec({ ...options, offline: true }))).toEqual([said]);
    expect(server.requests.length).toBe(requests);
    expect(cacheEntries(cache)).toEqual([]);
  });

  it("an archive whose entries start ./<top>/ (as tar czf x.tgz ./<top> writes them) is cached with its schemas (helper-89: an empty folder was cached)", async () => {
    const { options, cache } = place("dot-top");
    const ref = "dot-top";
    const entries = corpusEntries(SPEC_DIR).map((e) => ({ ...e, path: `./${TOP}/${e.path}`, raw: true }));
    server.routes.set(ref, { kind: "archive", body: tarGz(TOP, entries, COMMIT) });
    const [fetched] = await fetchSpec({ ...options, ref });
    expect(fetched).toMatchObject({ pin: { ref, commit: COMMIT, schemas: DIGESTS } });
    expect(existsSync(join(cache, COMMIT, "schema", "draft", "schema.ts"))).toBe(true);
  });

  it("pins only folders with version names, and reads a path with an empty segment as the lock's reader does (helper-91: the next run refused the lock)", async () => {
    const { options, cache } = place("odd-versions");
    const ref = "odd-versions";
    const odd = ["_x", "a b", "-rf"].map((name) => ({ path: `schema/${name}/schema.ts`, body: Buffer.from("export type A = string;\n") }));
    const entries = [...corpusEntries(SPEC_DIR).map((e) => (e.path === "schema/draft/schema.ts" ? { ...e, path: `${TOP}//schema/draft/schema.ts`, raw: true } : e)), ...odd];
    server.routes.set(ref, { kind: "archive", body: tarGz(TOP, entries, COMMIT) });
    const [fetched] = await fetchSpec({ ...options, ref });
    expect(fetched).toMatchObject({ pin: { ref, commit: COMMIT, schemas: DIGESTS } });
    expect(existsSync(join(cache, COMMIT, "schema", "draft", "schema.ts"))).toBe(true);
    // The lock it wrote is one the next run reads.
    const [again] = await fetchSpec({ ...options, offline: true });
    expect(again!.pin.schemas).toEqual(DIGESTS);
  });

  it("keeps no setuid, setgid, sticky or executable bit from the archive", async () => {
    const { options, cache } = place("modes");
    const ref = "modes";
    const entries = corpusEntries(SPEC_DIR).map((e) =>
      e.path === "schema/draft/schema.ts" ? { ...e, mode: 0o4755 } : e.path === "schema/draft" ? { ...e, mode: 0o3777 } : e,
    );
    server.routes.set(ref, { kind: "archive", body: tarGz(TOP, entries, COMMIT) });
    await fetchSpec({ ...options, ref });
    expect(statSync(join(cache, COMMIT, "schema", "draft", "schema.ts")).mode & 0o7777).toBe(0o644);
    expect(statSync(join(cache, COMMIT, "schema", "draft")).mode & 0o7777).toBe(0o755);
  });
});

describe("spec fetch --from: the locked revisions copied from a local folder, checked against the lock (helper-100: offline, a clone could only be read with --spec)", () => {
  /** Writes into `folder` a spec repository folder at the corpus's commit: each locked version's `schema.ts`. */
  function writeClone(folder: string): void {
    for (const version of Object.keys(DIGESTS)) {
      mkdirSync(join(folder, "schema", version), { recursive: true });
      writeFileSync(join(folder, "schema", version, "schema.ts"), readFileSync(join(SPEC_DIR, "schema", version, "schema.ts")));
    }
  }

  /** A lock of the first pin of the project's own lock (the corpus's commit). */
  function lockedPlace(name: string): ReturnType<typeof place> {
    const at = place(name);
    writeFileSync(at.lock, `${JSON.stringify({ lockVersion: 1, repository: "modelcontextprotocol/modelcontextprotocol", pins: [{ ref: "main", commit: COMMIT, schemas: DIGESTS }] }, null, 2)}\n`);
    return at;
  }

  it("copies schema/ and docs/specification/ of a folder at the locked commit into the cache, with no request; generate --offline then reads it", async () => {
    const { dir, cache, lock, options } = lockedPlace("from");
    const lockText = readFileSync(lock, "utf8");
    const before = server.requests.length;
    const lines: string[] = [];
    const [fetched] = await fetchSpec({ ...options, from: SPEC_DIR, onProgress: (l) => lines.push(l) });
    expect(server.requests.length).toBe(before);
    expect(fetched).toEqual({ pin: { ref: "main", commit: COMMIT, schemas: DIGESTS }, dir: join(cache, COMMIT), downloaded: false, lockWritten: false });
    expect(lines).toEqual([`main: ${COMMIT} cached in ${join(cache, COMMIT)}, copied from ${resolve(SPEC_DIR)}`]);
    expect(cacheEntries(cache)).toEqual([COMMIT]);
    expect(readdirSync(join(cache, COMMIT)).sort()).toEqual(["docs", "schema"]);
    const versioning = join("docs", "specification", "draft", "basic", "versioning.mdx");
    expect(readFileSync(join(cache, COMMIT, versioning))).toEqual(readFileSync(join(SPEC_DIR, versioning)));
    expect(readFileSync(lock, "utf8")).toBe(lockText);
    // The same again: found in the cache, nothing copied.
    const again: string[] = [];
    await fetchSpec({ ...options, from: SPEC_DIR, onProgress: (l) => again.push(l) });
    // Said why, and what would pin the folder (helper-137: a folder at a newer revision was a quiet no-op without --update).
    expect(again).toEqual([
      `main: ${COMMIT} found in the cache ${join(cache, COMMIT)} (${resolve(SPEC_DIR)} was not read: the lock's pin is served; \`--update\` with --ref <full commit sha> pins the folder instead)`,
    ]);
    // The CLI reads it offline.
    const previous = process.env.MCP_SPEC_CACHE_DIR;
    process.env.MCP_SPEC_CACHE_DIR = cache;
    try {
      const generated = await cli("generate", "--spec-version", "draft", "--offline", "--lock", lock, "--out", join(dir, "out"), "--targets", "types");
      expect([generated.code, generated.stderr]).toEqual([0, `main: ${COMMIT} found in the cache ${join(cache, COMMIT)}\n`]);
    } finally {
      if (previous === undefined) delete process.env.MCP_SPEC_CACHE_DIR;
      else process.env.MCP_SPEC_CACHE_DIR = previous;
    }
  });

  it("a folder whose schema.ts differs from the lock is refused (MCG503), caching nothing; links in it are not followed", async () => {
    const { dir, cache, options } = lockedPlace("from-edited");
    const copy = join(dir, "clone");
    writeClone(copy);
    const draft = join(copy, "schema", "draft", "schema.ts");
    writeFileSync(draft, `${readFileSync(draft, "utf8")}// edited\n`);
    const edited = createHash("sha256").update(readFileSync(draft)).digest("hex");
    expect(await failure(fetchSpec({ ...options, from: copy }))).toEqual([
      `error MCG503: --from ${copy} does not hold the locked revision ${COMMIT} (schema/draft/schema.ts: locked ${DIGESTS.draft}, got ${edited}), so it was not cached. In a clone, \`git checkout <commit>\` and run it again`,
    ]);
    expect(cacheEntries(cache)).toEqual([]);
    // Mended, with a link beside the schemas: the link is passed over, as an archive's extraction passes over links.
    writeFileSync(draft, readFileSync(join(SPEC_DIR, "schema", "draft", "schema.ts")));
    writeFileSync(join(dir, "outside.txt"), "outside\n");
    symlinkSync(join(dir, "outside.txt"), join(copy, "schema", "link.txt"));
    await fetchSpec({ ...options, from: copy });
    expect(cacheEntries(cache)).toEqual([COMMIT]);
    expect(existsSync(join(cache, COMMIT, "schema", "link.txt"))).toBe(false);
    expect(readdirSync(join(cache, COMMIT, "schema")).sort()).toEqual(Object.keys(DIGESTS).sort());
  });

  it("the copy is what the lock vouches for: a version folder or schema/ that is a link is not copied, so the copy lacks it and is refused; a cache inside the folder is not copied into itself (helper-108)", async () => {
    const { dir, cache, options } = lockedPlace("from-links");
    const copy = join(dir, "clone");
    writeClone(copy);
    // The draft's folder a link to a real one elsewhere: read through the link, it matches; the copy has no draft.
    rmSync(join(copy, "schema", "draft"), { recursive: true });
    symlinkSync(join(SPEC_DIR, "schema", "draft"), join(copy, "schema", "draft"));
    expect(await failure(fetchSpec({ ...options, from: copy }))).toEqual([
      `error MCG503: --from ${copy} does not hold the locked revision ${COMMIT} (schema/draft/schema.ts: locked ${DIGESTS.draft}, got (absent)), so it was not cached. In a clone, \`git checkout <commit>\` and run it again`,
    ]);
    expect(cacheEntries(cache)).toEqual([]);
    // schema/ itself a link: nothing is copied, and nothing cached.
    const linked = join(dir, "linked");
    mkdirSync(linked);
    symlinkSync(join(SPEC_DIR, "schema"), join(linked, "schema"));
    expect((await failure(fetchSpec({ ...options, from: linked })))[0]).toMatch(/^error MCG503: --from .*linked does not hold the locked revision .*got \(absent\)/);
    expect(cacheEntries(cache)).toEqual([]);
    // The cache inside the folder: passed over by the copy.
    const inner = lockedPlace("from-cache-inside");
    const withCache = join(inner.dir, "clone");
    writeClone(withCache);
    const innerCache = join(withCache, "schema", ".cache");
    const [copied] = await fetchSpec({ ...inner.options, cacheDir: innerCache, from: withCache });
    expect(copied!.dir).toBe(join(innerCache, COMMIT));
    expect(readdirSync(join(innerCache, COMMIT, "schema")).sort()).toEqual(Object.keys(DIGESTS).sort());
    // The folder inside the cache (a clone kept there): copied (helper-109: it was passed over whole).
    const outer = lockedPlace("from-inside-cache");
    const cloneInCache = join(outer.cache, "clone");
    writeClone(cloneInCache);
    const [inCache] = await fetchSpec({ ...outer.options, from: cloneInCache });
    expect(readdirSync(join(inCache!.dir, "schema")).sort()).toEqual(Object.keys(DIGESTS).sort());
  });

  it("a lock of two pins: the one the folder holds is cached, the other named; --ref picks one", async () => {
    const { cache, lock, options } = place("from-two-pins");
    writeFileSync(lock, readFileSync(SPEC_LOCK));
    const [, second] = readLock(lock)!.pins;
    expect(await failure(fetchSpec({ ...options, from: SPEC_DIR }))).toEqual([
      `error MCG503: --from ${resolve(SPEC_DIR)} does not hold the locked revision ${second!.commit} (schema/draft/schema.ts: locked ${second!.schemas.draft}, got ${DIGESTS.draft}), so it was not cached; ${COMMIT} is in the cache. In a clone, \`git checkout <commit>\` and run it again`,
    ]);
    expect(cacheEntries(cache)).toEqual([COMMIT]);
    const [picked] = await fetchSpec({ ...options, from: SPEC_DIR_2026_07_13, ref: second!.commit });
    expect(picked!.dir).toBe(join(cache, second!.commit));
    expect(cacheEntries(cache)).toEqual([COMMIT, second!.commit].sort());
  });

  it("needs a lock or a full commit as --ref (MCG504), a spec folder (MCG001, naming a file as a file), and --update only with a full commit (MCG001)", async () => {
    const { dir, cache, options } = place("from-refused");
    // A plain folder (not the top of a git work tree): a copy of the corpus in this test's folder.
    const plain = join(dir, "plain");
    mkdirSync(join(plain, "schema", "draft"), { recursive: true });
    writeFileSync(join(plain, "schema", "draft", "schema.ts"), readFileSync(join(SPEC_DIR, "schema", "draft", "schema.ts")));
    expect(await failure(fetchSpec({ ...options, from: plain }))).toEqual([
      `error MCG504: --from: there is no lock file ${join(dir, "mcp-spec.lock.json")} naming the revision to copy, and a folder does not say which commit it holds ` +
        "(a clone's HEAD does, read with git when the folder is the top of a git work tree: it is not, or git is not there); " +
        `name it with \`spec fetch --lock ${join(dir, "mcp-spec.lock.json")} --from ${plain} --ref <full commit sha>\` to pin the folder as that commit, ` +
        `or read the folder itself with --spec ${plain} --spec-version <v>, or run \`spec fetch --lock ${join(dir, "mcp-spec.lock.json")}\` once with the network`,
    ]);
    // A folder whose name the shell would split is quoted in the commands the message gives (helper-116).
    const spaced = join(dir, "my spec");
    mkdirSync(join(spaced, "schema", "draft"), { recursive: true });
    writeFileSync(join(spaced, "schema", "draft", "schema.ts"), readFileSync(join(SPEC_DIR, "schema", "draft", "schema.ts")));
    const quoted = (await failure(fetchSpec({ ...options, from: spaced })))[0]!;
    expect(quoted).toContain(` --from '${spaced}' --ref <full commit sha>\``);
    expect(quoted).toContain(`read the folder itself with --spec '${spaced}' --spec-version <v>`);
    // --offline with no lock at all offers the same way.
    expect((await failure(fetchSpec({ ...options, offline: true })))[0]).toContain(
      `run \`spec fetch --lock ${join(dir, "mcp-spec.lock.json")}\` once with the network, or pin a local clone with \`spec fetch --lock ${join(dir, "mcp-spec.lock.json")} --from <clone>\`, or give a local clone`,
    );
    // A ref that is no full commit names no commit the folder could be taken as.
    for (const ref of ["main", COMMIT.slice(0, 12)]) {
      expect((await failure(fetchSpec({ ...options, from: plain, ref })))[0]).toContain(`naming the revision to copy, and --ref ${ref} is no full commit sha, and a folder does not say what a branch or tag names; name it with`);
    }
    const locked = lockedPlace("from-refused-locked");
    expect(await failure(fetchSpec({ ...locked.options, from: dir }))).toEqual([`error MCG001: --from ${dir}: it has no schema/ folder, so it is no spec repository folder`]);
    expect(await failure(fetchSpec({ ...locked.options, from: join(dir, "nowhere") }))).toEqual([`error MCG001: --from ${join(dir, "nowhere")}: no such folder`]);
    // A file, and a folder whose schema is a file, are named as such (helper-114: the file was an internal error, ENOTDIR).
    expect(await failure(fetchSpec({ ...locked.options, from: locked.lock }))).toEqual([
      `error MCG001: --from ${locked.lock}: it is a file, not a folder: give a spec repository folder (a local clone)`,
    ]);
    const schemaFile = join(dir, "schema-file");
    mkdirSync(schemaFile);
    writeFileSync(join(schemaFile, "schema"), "");
    expect(await failure(fetchSpec({ ...locked.options, from: schemaFile }))).toEqual([`error MCG001: --from ${schemaFile}: its schema is a file, not a folder, so it is no spec repository folder`]);
    expect(await failure(fetchSpec({ ...locked.options, from: SPEC_DIR, update: true }))).toEqual([
      "error MCG001: --from with --update pins the folder as the commit --ref names, which must be a full commit sha (40 hex digits): a folder does not say which commit it holds, nor what a branch or tag names now",
    ]);
    expect((await failure(fetchSpec({ ...locked.options, from: SPEC_DIR, update: true, ref: "main" })))[0]).toContain('which must be a full commit sha (40 hex digits, not "main")');
    expect(cacheEntries(cache)).toEqual([]);
    expect(cacheEntries(locked.cache)).toEqual([]);
    // The command line's flag.
    const previous = process.env.MCP_SPEC_CACHE_DIR;
    process.env.MCP_SPEC_CACHE_DIR = locked.cache;
    try {
      expect(await cli("spec", "fetch", "--from", dir, "--lock", locked.lock)).toEqual({
        code: 2,
        stdout: "",
        stderr: `error MCG001: --from ${dir}: it has no schema/ folder, so it is no spec repository folder\n1 error; the lock file was not changed\n`,
      });
      expect(await cli("spec", "fetch", "--from", locked.lock, "--lock", locked.lock)).toEqual({
        code: 2,
        stdout: "",
        stderr: `error MCG001: --from ${locked.lock}: it is a file, not a folder: give a spec repository folder (a local clone)\n1 error; the lock file was not changed\n`,
      });
      const copied = await cli("spec", "fetch", "--from", SPEC_DIR, "--lock", locked.lock);
      expect([copied.code, copied.stdout]).toEqual([0, `main ${COMMIT} ${join(locked.cache, COMMIT)} (versions: ${Object.keys(DIGESTS).join(", ")})\n`]);
    } finally {
      if (previous === undefined) delete process.env.MCP_SPEC_CACHE_DIR;
      else process.env.MCP_SPEC_CACHE_DIR = previous;
    }
  });
});

describe("spec fetch --from <dir> --ref <commit>: a folder pinned as the commit --ref names, offline (helper-114: a new lock had to be written by hand)", () => {
  /** A lock of the first pin of the project's own lock (the corpus's commit). */
  const lockOf = (ref: string, commit: string, schemas: Record<string, string>) =>
    `${JSON.stringify({ lockVersion: 1, repository: "modelcontextprotocol/modelcontextprotocol", pins: [{ ref, commit, schemas }] }, null, 2)}\n`;
  const note = (from: string, commit: string) =>
    `note: ${from} is taken to hold commit ${commit}, as --ref says: a folder does not say which commit it holds, so this cannot be checked offline; ` +
    "the sha256s of its schema.ts files are pinned, and a download of that commit (a `spec fetch` with the network where the cache lacks it, as in CI) is checked against them";

  it("without a lock, writes one naming that commit with the folder's sha256s and fills the cache, with no request; generate --offline then reads it", async () => {
    const { dir, cache, lock, options } = place("from-pin");
    const before = server.requests.length;
    const lines: string[] = [];
    const [fetched] = await fetchSpec({ ...options, baseUrl: `http://127.0.0.1:${await refusedPort()}/tar.gz`, from: SPEC_DIR, ref: COMMIT, onProgress: (l) => lines.push(l) });
    expect(server.requests.length).toBe(before);
    expect(fetched).toEqual({ pin: { ref: COMMIT, commit: COMMIT, schemas: DIGESTS }, dir: join(cache, COMMIT), downloaded: false, lockWritten: true });
    expect(lines).toEqual([note(resolve(SPEC_DIR), COMMIT), `${COMMIT} cached in ${join(cache, COMMIT)}, copied from ${resolve(SPEC_DIR)}`, `${lock} written`]);
    expect(readFileSync(lock, "utf8")).toBe(lockOf(COMMIT, COMMIT, DIGESTS));
    expect(readdirSync(join(cache, COMMIT)).sort()).toEqual(["docs", "schema"]);
    // The command line, --offline too (a folder needs no network); generate then reads the new lock.
    const other = place("from-pin-cli");
    const previous = process.env.MCP_SPEC_CACHE_DIR;
    process.env.MCP_SPEC_CACHE_DIR = other.cache;
    try {
      expect(await cli("spec", "fetch", "--from", SPEC_DIR, "--ref", COMMIT, "--offline", "--lock", other.lock)).toEqual({
        code: 0,
        stdout: `${COMMIT} ${COMMIT} ${join(other.cache, COMMIT)} (versions: ${Object.keys(DIGESTS).join(", ")})\n`,
        stderr: `${note(resolve(SPEC_DIR), COMMIT)}\n${COMMIT} cached in ${join(other.cache, COMMIT)}, copied from ${resolve(SPEC_DIR)}\n${other.lock} written\n`,
      });
      const generated = await cli("generate", "--spec-version", "draft", "--offline", "--lock", other.lock, "--out", join(dir, "out"), "--targets", "types");
      expect([generated.code, generated.stderr]).toEqual([0, `${COMMIT} found in the cache ${join(other.cache, COMMIT)}\n`]);
    } finally {
      if (previous === undefined) delete process.env.MCP_SPEC_CACHE_DIR;
      else process.env.MCP_SPEC_CACHE_DIR = previous;
    }
  });

  it("a folder that does not hold that commit is pinned as it is, and a download of the commit then refuses the lock (MCG503) saying a --from pin may be the cause; a cache of that commit refuses it at once", async () => {
    const { dir, cache, lock, options } = place("from-pin-wrong");
    const clone = join(dir, "clone");
    for (const version of Object.keys(DIGESTS)) {
      mkdirSync(join(clone, "schema", version), { recursive: true });
      writeFileSync(join(clone, "schema", version, "schema.ts"), readFileSync(join(SPEC_DIR, "schema", version, "schema.ts")));
    }
    const draft = join(clone, "schema", "draft", "schema.ts");
    writeFileSync(draft, `${readFileSync(draft, "utf8")}// not at that commit\n`);
    const edited = createHash("sha256").update(readFileSync(draft)).digest("hex");
    await fetchSpec({ ...options, from: clone, ref: COMMIT });
    expect(readLock(lock)!.pins[0]!.schemas.draft).toBe(edited);
    // Where the cache lacks it (CI, another machine), a fetch with the network downloads the commit and compares.
    const fresh = join(dir, "fresh-cache");
    expect(await failure(fetchSpec({ ...options, cacheDir: fresh }))).toEqual([
      `error MCG503: the archive from ${server.baseUrl}/${COMMIT} does not match the lock ${lock}: schema/draft/schema.ts: locked ${edited}, got ${DIGESTS.draft}; nothing was cached: ` +
        `either the lock file was edited, or written by \`spec fetch --from <dir>\` from a folder that did not hold that commit ` +
        `(then restore it from version control, or run \`spec fetch --lock ${lock} --update\` to pin what the ref names now), or the server sent other contents for that commit`,
    ]);
    expect(cacheEntries(fresh)).toEqual([]);
    // A cache that holds the commit (downloaded before) is compared with the copy: the folder is refused, no lock written.
    const second = place("from-pin-cached");
    await fetchSpec({ ...second.options, ref: COMMIT });
    rmSync(second.lock);
    expect(await failure(fetchSpec({ ...second.options, from: clone, ref: COMMIT }))).toEqual([
      `error MCG503: the cached folder ${join(second.cache, COMMIT)} differs from the copy of its commit (schema/draft/schema.ts: copy ${edited}, cached ${DIGESTS.draft}); delete it and fetch again`,
    ]);
    expect(existsSync(second.lock)).toBe(false);
    expect(cacheEntries(cache)).toEqual([COMMIT]);
  });

  it("with a lock, --update moves the first pin to the folder as that commit; without --update a commit the lock does not pin is refused (MCG504), naming it", async () => {
    const { cache, lock, options } = place("from-pin-update");
    writeFileSync(lock, lockOf("main", OTHER, DIGESTS));
    expect(await failure(fetchSpec({ ...options, from: SPEC_DIR, ref: COMMIT }))).toEqual([
      `error MCG504: the lock file ${lock} pins main (${OTHER}), not ${COMMIT}; with --from, --ref names one of them by its ref or its full commit; ` +
        `run \`spec fetch --lock ${lock} --from ${SPEC_DIR} --ref ${COMMIT} --update\` to move the first pin to the folder, taken as that commit`,
    ]);
    expect(cacheEntries(cache)).toEqual([]);
    // --offline too: a folder needs no network.
    const [moved] = await fetchSpec({ ...options, from: SPEC_DIR, ref: COMMIT, update: true, offline: true });
    expect(moved).toEqual({
      pin: { ref: COMMIT, commit: COMMIT, schemas: DIGESTS },
      dir: join(cache, COMMIT),
      downloaded: false,
      lockWritten: true,
      replaced: { ref: "main", commit: OTHER, schemas: DIGESTS },
    });
    expect(readFileSync(lock, "utf8")).toBe(lockOf(COMMIT, COMMIT, DIGESTS));
  });

  it.skipIf(!HAS_GIT)("a clone's HEAD names the commit when --ref is left out; a clone with changes not committed to schema/ or docs/specification/, or at another commit than --ref, is refused (MCG503)", async () => {
    const { dir, lock, options } = place("from-pin-git");
    const clone = join(dir, "clone");
    for (const version of Object.keys(DIGESTS)) {
      mkdirSync(join(clone, "schema", version), { recursive: true });
      writeFileSync(join(clone, "schema", version, "schema.ts"), readFileSync(join(SPEC_DIR, "schema", version, "schema.ts")));
    }
    writeFileSync(join(clone, "README.md"), "a clone\n");
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", ...args], { cwd: clone, encoding: "utf8" }).trim();
    git("init", "-q");
    git("add", "-A");
    git("commit", "-qm", "spec");
    const head = git("rev-parse", "HEAD");
    // A GIT_DIR of the environment (a hook's) is not passed on: git reads the clone itself.
    const previous = process.env.GIT_DIR;
    process.env.GIT_DIR = join(dir, "elsewhere.git");
    const lines: string[] = [];
    try {
      const [fetched] = await fetchSpec({ ...options, from: clone, onProgress: (l) => lines.push(l) });
      expect(fetched!.pin).toEqual({ ref: head, commit: head, schemas: DIGESTS });
    } finally {
      if (previous === undefined) delete process.env.GIT_DIR;
      else process.env.GIT_DIR = previous;
    }
    expect(lines[0]).toBe(
      `note: ${clone} is a git work tree at commit ${head} with no changes to schema/ or docs/specification/ that are not committed: it is taken as that commit of modelcontextprotocol/modelcontextprotocol, which cannot be checked offline; ` +
        "the sha256s of its schema.ts files are pinned, and a download of that commit (a `spec fetch` with the network where the cache lacks it, as in CI) is checked against them",
    );
    // Without --update, the pin is served from the cache: said of a clone at the pinned commit, and of one at another,
    // which --update would pin (helper-137: a newer folder was a quiet no-op).
    const served = async () => {
      const said: string[] = [];
      await fetchSpec({ ...options, from: clone, onProgress: (l) => said.push(l) });
      return said;
    };
    expect(await served()).toEqual([`${head} found in the cache ${join(options.cacheDir!, head)} (${clone} was not read: it is a clone at the pinned commit)`]);
    writeFileSync(join(clone, "README.md"), "later\n");
    git("commit", "-qam", "later");
    const later = git("rev-parse", "HEAD");
    expect(await served()).toEqual([`${head} found in the cache ${join(options.cacheDir!, head)} (${clone} was not read: it is a clone at ${later}, not the pinned commit; \`--update\` pins it)`]);
    git("reset", "-q", "--hard", head);
    rmSync(lock);
    // A change outside the kept folders is no matter; one inside, committed or not, tracked or not, is.
    writeFileSync(join(clone, "README.md"), "edited\n");
    writeFileSync(join(clone, "schema", "draft", "schema.ts"), `${readFileSync(join(clone, "schema", "draft", "schema.ts"), "utf8")}// edited\n`);
    writeFileSync(join(clone, "schema", "notes.txt"), "mine\n");
    expect(await failure(fetchSpec({ ...options, from: clone }))).toEqual([
      `error MCG503: --from ${clone} is a git work tree whose schema/ or docs/specification/ has changes that are not committed (schema/draft/schema.ts, schema/notes.txt), so it does not hold commit ${head} as it is; ` +
        "commit or stash them (or `git checkout` the commit to pin) and run again; nothing was cached",
    ]);
    git("checkout", "-q", "--", "schema");
    rmSync(join(clone, "schema", "notes.txt"));
    expect(await failure(fetchSpec({ ...options, from: clone, ref: COMMIT }))).toEqual([
      `error MCG503: --from ${clone} is a git work tree at commit ${head}, not ${COMMIT} as --ref says; \`git -C ${clone} checkout ${COMMIT}\` first, or leave --ref out to pin ${head}; nothing was cached`,
    ]);
    expect((await failure(fetchSpec({ ...options, from: clone, ref: "main" })))[0]).toContain(`--ref main is no full commit sha, and a folder does not say what a branch or tag names (leave --ref out to pin the clone's HEAD, ${head}); name it with`);
    // With --update too (helper-139: only the full-sha rule was said).
    expect(await failure(fetchSpec({ ...options, from: clone, ref: "main", update: true }))).toEqual([
      `error MCG001: --from with --update pins the folder as the commit --ref names, which must be a full commit sha (40 hex digits, not "main"): a folder does not say which commit it holds, nor what a branch or tag names now; leave --ref out to pin the clone's HEAD, ${head}`,
    ]);
    // --ref naming a pin after the first: leaving it out would move the first pin, so that is not offered.
    const pinned = JSON.parse(readFileSync(SPEC_LOCK, "utf8")) as { pins: { ref: string }[] };
    writeFileSync(lock, JSON.stringify({ ...pinned, pins: [pinned.pins[0], { ...pinned.pins[0], ref: "next" }] }, null, 2) + "\n");
    expect(await failure(fetchSpec({ ...options, from: clone, ref: "next", update: true }))).toEqual([
      `error MCG001: --from with --update pins the folder as the commit --ref names, which must be a full commit sha (40 hex digits, not "next"): a folder does not say which commit it holds, nor what a branch or tag names now`,
    ]);
    rmSync(lock);
    expect(existsSync(lock)).toBe(false);
    // A file git ignores, or one it is told not to look at, is no part of the commit either (helper-116: both were pinned).
    writeFileSync(join(clone, ".gitignore"), "schema/extra/\n");
    git("add", ".gitignore");
    git("commit", "-qm", "ignore");
    const ignoring = git("rev-parse", "HEAD");
    mkdirSync(join(clone, "schema", "extra"));
    writeFileSync(join(clone, "schema", "extra", "schema.ts"), "export type Evil = 1;\n");
    expect((await failure(fetchSpec({ ...options, from: clone })))[0]).toContain("has changes that are not committed (schema/extra/schema.ts)");
    rmSync(join(clone, "schema", "extra"), { recursive: true });
    git("update-index", "--skip-worktree", "schema/draft/schema.ts");
    writeFileSync(join(clone, "schema", "draft", "schema.ts"), "// hidden\n");
    expect((await failure(fetchSpec({ ...options, from: clone })))[0]).toContain("has changes that are not committed (schema/draft/schema.ts)");
    git("update-index", "--no-skip-worktree", "schema/draft/schema.ts");
    git("checkout", "-q", "--", "schema");
    // A clone whose checkout converted its line ends (core.autocrlf, Git for Windows' default): git sees no change, the bytes differ.
    const lf = join(dir, "lf");
    mkdirSync(join(lf, "schema", "draft"), { recursive: true });
    writeFileSync(join(lf, "schema", "draft", "schema.ts"), 'export const LATEST_PROTOCOL_VERSION = "draft";\nexport interface A {\n  a: string;\n}\n');
    execFileSync("git", ["init", "-q"], { cwd: lf });
    execFileSync("git", ["-c", "core.autocrlf=false", "add", "-A"], { cwd: lf });
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", "commit", "-q", "-m", "lf"], { cwd: lf });
    const lfHead = execFileSync("git", ["rev-parse", "HEAD"], { cwd: lf, encoding: "utf8" }).trim();
    const crlf = join(dir, "crlf");
    execFileSync("git", ["clone", "-q", "-c", "core.autocrlf=true", lf, crlf]);
    expect(readFileSync(join(crlf, "schema", "draft", "schema.ts"), "utf8")).toContain("\r\n");
    expect(await failure(fetchSpec({ ...options, from: crlf }))).toEqual([
      `error MCG503: --from ${crlf} is a git work tree whose files are not byte for byte those of commit ${lfHead} (schema/draft/schema.ts): git changed them as it checked them out ` +
        "(line ends under core.autocrlf, or a filter), and their sha256 would not be the commit's; check them out as they are " +
        `(\`git -C ${crlf} -c core.autocrlf=false checkout -f HEAD -- schema\`, or clone with -c core.autocrlf=false) and run again; nothing was cached`,
    ]);
    expect(existsSync(lock)).toBe(false);
    // --update with the HEAD filled in moves the pin and keeps its ref (helper-116: "main" became the sha).
    writeFileSync(lock, JSON.stringify({ lockVersion: 1, repository: "modelcontextprotocol/modelcontextprotocol", pins: [{ ref: "main", commit: COMMIT, schemas: DIGESTS }] }));
    const [moved] = await fetchSpec({ ...options, from: clone, update: true });
    expect(moved!.pin).toEqual({ ref: "main", commit: ignoring, schemas: DIGESTS });
    // A pin whose ref is a commit moves with its ref: the old commit kept as the ref would name the old revision (helper-127).
    writeFileSync(lock, JSON.stringify({ lockVersion: 1, repository: "modelcontextprotocol/modelcontextprotocol", pins: [{ ref: COMMIT, commit: COMMIT, schemas: DIGESTS }] }));
    const [movedCommit] = await fetchSpec({ ...options, from: clone, update: true });
    expect(movedCommit!.pin).toEqual({ ref: ignoring, commit: ignoring, schemas: DIGESTS });
    rmSync(lock);
    // A spec folder inside another repository: that repository's HEAD says nothing of the spec, and is not read.
    const outer = join(dir, "outer");
    mkdirSync(join(outer, "vendor", "spec", "schema", "draft"), { recursive: true });
    writeFileSync(join(outer, "vendor", "spec", "schema", "draft", "schema.ts"), readFileSync(join(SPEC_DIR, "schema", "draft", "schema.ts")));
    execFileSync("git", ["init", "-q"], { cwd: outer });
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", "commit", "-q", "--allow-empty", "-m", "x"], { cwd: outer });
    expect((await failure(fetchSpec({ ...options, from: join(outer, "vendor", "spec") })))[0]).toContain("it is not, or git is not there");
  });

  it("a folder with no version's schema.ts pins nothing (MCG001): no lock written, nothing cached", async () => {
    const { dir, cache, lock, options } = place("from-pin-empty");
    mkdirSync(join(dir, "empty", "schema"), { recursive: true });
    expect(await failure(fetchSpec({ ...options, from: join(dir, "empty"), ref: COMMIT }))).toEqual([
      `error MCG001: --from ${join(dir, "empty")}: it has no schema/<version>/schema.ts, so there is nothing to pin; nothing was cached`,
    ]);
    expect(existsSync(lock)).toBe(false);
    expect(cacheEntries(cache)).toEqual([]);
  });
});

describe("spec fetch refuses hostile archives (MCG502), caching nothing", () => {
  const schema: TarEntry = { path: "schema/draft/schema.ts", body: Buffer.from("export type A = string;\n") };
  const cases: [string, Buffer, string][] = [
    [
      "a ../ path",
      tarGz(TOP, [schema, { path: `${TOP}/schema/../../../evil.txt`, body: Buffer.from("x"), raw: true }], COMMIT),
      `entry "${TOP}/schema/../../../evil.txt" climbs out of the archive's folder (..)`,
    ],
    ["an absolute path", tarGz(TOP, [schema, { path: "/tmp/evil.txt", body: Buffer.from("x"), raw: true }], COMMIT), 'entry "/tmp/evil.txt" has an absolute path'],
    [
      "a symbolic link in schema/",
      tarGz(TOP, [schema, { path: "schema/draft/examples", type: "SymbolicLink", linkpath: "/etc" }], COMMIT),
      `entry "${TOP}/schema/draft/examples" is a symbolic link (links are not extracted)`,
    ],
    [
      "a hard link in docs/specification/",
      tarGz(TOP, [schema, { path: "docs/specification/x.mdx", type: "Link", linkpath: "/etc/passwd" }], COMMIT),
      `entry "${TOP}/docs/specification/x.mdx" is a hard link (links are not extracted)`,
    ],
    [
      "a huge entry",
      tarGz(TOP, [schema, { path: "schema/draft/schema.json", body: Buffer.alloc(17 * 1024 * 1024) }], COMMIT),
      `entry "${TOP}/schema/draft/schema.json" is 17825792 bytes; the limit is 16777216`,
    ],
    ["a second top folder", tarGz(TOP, [schema, { path: "other/x", body: Buffer.from("x"), raw: true }], COMMIT), `entry "other/x" is outside the top folder ${TOP}/`],
    [
      "a pax comment that is no commit",
      tarGz("modelcontextprotocol-main", [schema], "release notes"),
      "it names no commit (no pax comment that is a commit, and the top folder modelcontextprotocol-main/ does not end in one)",
    ],
    ["no commit anywhere", tarGz("modelcontextprotocol-main", [schema], undefined), "it names no commit (no pax comment that is a commit, and the top folder modelcontextprotocol-main/ does not end in one)"],
    ["not a tar.gz at all", Buffer.from("<html>rate limited</html>\n"), "it is not a readable tar.gz (TAR_BAD_ARCHIVE: Unrecognized archive format)"],
    // helper-89: extracting both lost the file, and draft was missing from the cache and the pin without a word.
    [
      "a path that is a file and then a folder",
      tarGz(TOP, [schema, { path: "schema/2025-11-25/schema.ts", body: Buffer.from("export type B = string;\n") }, { path: "schema/draft/schema.ts", type: "Directory" }], COMMIT),
      `entry "${TOP}/schema/draft/schema.ts/" makes a path both a file and a folder`,
    ],
    [
      "a path that is a folder and then a file",
      tarGz(TOP, [schema, { path: "schema/draft/schema.ts/x", body: Buffer.from("x") }], COMMIT),
      `entry "${TOP}/schema/draft/schema.ts/x" makes a path both a file and a folder`,
    ],
    // helper-127: the tar parser copied what follows the end at each decompressed chunk; 1 GB of zeros there (a 1.3 MB
    // download) ran for more than ten minutes.
    [
      "zeros after the end of the tar",
      gzipSync(Buffer.concat([gunzipSync(tarGz(TOP, [schema], COMMIT)), Buffer.alloc(2 * 1024 * 1024)])),
      "it holds more than 1048576 bytes after the end of its tar",
    ],
    // helper-128: the tar parser decompressed an inner stream itself, past the bound on what follows the end (8 MiB of zeros
    // there, a 300-byte download, took 2 s; 16 MiB 8 s), and a corpus compressed twice was cached.
    [
      "a tar.gz inside the gzip",
      gzipSync(gzipSync(Buffer.concat([gunzipSync(tarGz(TOP, [schema], COMMIT)), Buffer.alloc(2 * 1024 * 1024)]))),
      "it is compressed twice: what the gzip holds is another gzip stream, not a tar",
    ],
    [
      "a zstd stream",
      Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd]), Buffer.alloc(600)]),
      "it is a zstd stream, not a tar.gz",
    ],
    // helper-89: cached, and pinned with no schemas, which the lock's reader then refused.
    [
      "docs without any schema.ts",
      tarGz(TOP, [{ path: "docs/specification/x.mdx", body: Buffer.from("x") }, { path: "schema/draft/schema.json", body: Buffer.from("{}") }], COMMIT),
      "it holds no schema/<version>/schema.ts: is it the spec repository?",
    ],
  ];
  it.each(cases)("%s", async (name, body, reason) => {
    const ref = `hostile-${name.replace(/\W+/g, "-")}`;
    const { options, cache, lock } = place(ref);
    server.routes.set(ref, { kind: "archive", body });
    const lines = await failure(fetchSpec({ ...options, ref }));
    const prefix = `error MCG502: the archive from ${server.baseUrl}/${ref} was refused: ${reason}`;
    expect(lines).toEqual([`${prefix}; nothing was cached`]);
    expect(cacheEntries(cache)).toEqual([]);
    expect(existsSync(lock)).toBe(false);
    expect(existsSync(join(options.cacheDir!, "..", "evil.txt"))).toBe(false);
  });
});

describe("spec fetch bounds what an archive decompresses to (helper-127)", () => {
  it("refuses an extended header of megabytes of zeros, which no entry size counted (MCG502), caching nothing", async () => {
    const ref = "hostile-pax-zeros";
    const { options, cache, lock } = place(ref);
    const size = 4 * 1024 * 1024;
    const header = Buffer.alloc(512);
    new Header({ path: "PaxHeader/x", type: "ExtendedHeader", size, mode: 0o644, mtime: new Date(0) }).encode(header);
    const tar = gunzipSync(tarGz(TOP, [{ path: "schema/draft/schema.ts", body: Buffer.from("export type A = string;\n") }], COMMIT));
    server.routes.set(ref, { kind: "archive", body: gzipSync(Buffer.concat([header, Buffer.alloc(size), tar])) });
    const limits = { maxEntryBytes: 1024 * 1024, maxTotalBytes: 1024 * 1024, maxEntries: 100 };
    expect(await failure(fetchSpec({ ...options, ref, limits }))).toEqual([
      `error MCG502: the archive from ${server.baseUrl}/${ref} was refused: it decompresses to more than ${1024 * 1024 + 100 * 2048 + 1024 * 1024} bytes; nothing was cached`,
    ]);
    expect(cacheEntries(cache)).toEqual([]);
    expect(existsSync(lock)).toBe(false);
  });
});

describe("--spec-version without --spec", () => {
  it("generates from the locked revision in the cache", async () => {
    const { dir, options } = place("generate");
    await fetchSpec({ ...options, ref: "main" });
    mkdirSync(join(dir, "out"));
    const previous = process.env.MCP_SPEC_CACHE_DIR;
    process.env.MCP_SPEC_CACHE_DIR = options.cacheDir;
    try {
      const result = await cli("generate", "--spec-version", "2025-11-25", "--offline", "--lock", options.lockFile!, "--out", join(dir, "out"), "--targets", "types");
      expect(result.stderr).toBe(`main: ${COMMIT} found in the cache ${join(options.cacheDir!, COMMIT)}\n`);
      expect(result.code).toBe(0);
      const both = await cli("generate", "--spec-version", "draft,2025-11-25", "--offline", "--lock", options.lockFile!, "--out", join(dir, "both"), "--targets", "types");
      expect([both.code, both.stderr]).toEqual([0, `main: ${COMMIT} found in the cache ${join(options.cacheDir!, COMMIT)}\n`]);
      expect(readFileSync(join(dir, "out", "types.ts"), "utf8").split("\n")[0]).toBe(
        `// Generated by mcp-schema-codegen 0.1.0 from schema.ts (sha256 ${DIGESTS["2025-11-25"]}).`,
      );
      expect(await cli("diff", "2025-11-25", "2025-11-25", "--offline", "--lock", options.lockFile!)).toEqual({
        code: 0,
        stdout: "no protocol changes\n",
        // One locked revision for both sides: said once.
        stderr:
          `main: ${COMMIT} found in the cache ${join(options.cacheDir!, COMMIT)}\n` +
          `note: both sides are ${realpathSync(join(options.cacheDir!, COMMIT, "schema", "2025-11-25", "schema.ts"))}, so nothing can differ (compare two versions or two files)\n`,
      });
      const scaffold = await cli("scaffold", join(dir, "server"), "--spec-version", "draft", "--offline", "--lock", options.lockFile!, "--docs", "none");
      expect(scaffold.code).toBe(0);
      // Dual-era by default: the locked revision's 2025-11-25 joins draft, and its older legacy versions.
      expect(readFileSync(join(dir, "server", "src", "generated", "2026-07-28", "types.ts"), "utf8").split("\n")[0]).toBe(
        `// Generated by mcp-schema-codegen 0.1.0 from schema.ts (sha256 ${DIGESTS.draft}).`,
      );
      expect(readFileSync(join(dir, "server", "src", "generated", "2025-11-25", "types.ts"), "utf8").split("\n")[0]).toBe(
        `// Generated by mcp-schema-codegen 0.1.0 from schema.ts (sha256 ${DIGESTS["2025-11-25"]}).`,
      );
      // The project names versions of the revision its own copy of the lock pins, not the cache's folder (another machine has another cache).
      expect(readFileSync(join(dir, "server", "mcp-spec.lock.json"), "utf8")).toBe(readFileSync(options.lockFile!, "utf8"));
      const projectConfig = join(dir, "server", "mcp-schema-codegen.config.json");
      expect(JSON.parse(readFileSync(projectConfig, "utf8")).outputs[0].input).toEqual(["draft", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"].map((version) => ({ version })));
      expect(readFileSync(projectConfig, "utf8")).not.toContain(options.cacheDir!);
      expect(readFileSync(join(dir, "server", "README.md"), "utf8")).toContain("revision `mcp-spec.lock.json` pins");
      const check = await cli("generate", "--config", projectConfig, "--check", "--offline");
      expect(check).toEqual({ code: 0, stdout: `${relative(ROOT, join(dir, "server", "src", "generated"))}: 50 files up to date\n`, stderr: `main: ${COMMIT} found in the cache ${join(options.cacheDir!, COMMIT)}\n` });
      expect(await configInputs(loadConfig(projectConfig).outputs[0]!.input, { offline: true })).toEqual(
        ["draft", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"].map((version) => ({ specDir: join(options.cacheDir!, COMMIT), version })),
      );
      // scaffold --force over it with a lock pinning another commit (the one of the folder it runs from): said, since the
      // project's pin, and the revision it generates from, go back without a word otherwise (helper-137).
      const projectLock = join(dir, "server", "mcp-spec.lock.json");
      const own = readFileSync(options.lockFile!, "utf8").replace(COMMIT, OTHER).replace('"ref": "main"', '"ref": "later"');
      writeFileSync(projectLock, own);
      const forced = await cli("scaffold", join(dir, "server"), "--force", "--spec-version", "draft", "--offline", "--lock", options.lockFile!, "--docs", "none");
      expect(forced.code).toBe(0);
      expect(forced.stderr).toContain(
        `warning: ${projectLock} pins later (${OTHER}); this scaffold replaces it with ${options.lockFile}, which pins main (${COMMIT}), and generates from that revision. ` +
          `To keep the project's pin, give --lock ${projectLock}; to move it, \`spec fetch --update\` in the project and \`generate\` need no scaffold\n`,
      );
      expect(readFileSync(`${projectLock}.orig`, "utf8")).toBe(own);
      // The same pin: nothing to say.
      const again = await cli("scaffold", join(dir, "server"), "--force", "--spec-version", "draft", "--offline", "--lock", options.lockFile!, "--docs", "none");
      expect([again.code, again.stderr.includes("warning")]).toEqual([0, false]);
      // --lock belongs to --spec-version; a configuration's input names its own lock.
      const lockFlag = await cli("generate", "--config", projectConfig, "--lock", options.lockFile!);
      expect(lockFlag.code).toBe(2);
      expect(lockFlag.stderr).toMatch(/^error MCG001: --lock goes with --spec-version; in a configuration file, an input \{ "version": "<name>" \} names its lock with "lock"/);
      const missing = await cli("generate", "--spec-version", "1999-01-01", "--offline", "--lock", options.lockFile!, "--out", join(dir, "out"));
      expect(missing.code).toBe(2);
      expect(missing.stderr).toBe(
        `error MCG506: the locked spec revision ${COMMIT} (${options.lockFile}) has no version 1999-01-01; versions the lock names: 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28, draft\n1 error; nothing was written\n`,
      );
      // A version the revision has and an edited lock no longer names: said as such, and spec fetch warns of it (helper-106).
      const { ["2025-11-25"]: _dropped, ...edited } = DIGESTS;
      const editedLock = join(dir, "edited.lock.json");
      writeFileSync(editedLock, `${JSON.stringify({ lockVersion: 1, repository: "modelcontextprotocol/modelcontextprotocol", pins: [{ ref: "main", commit: COMMIT, schemas: edited }] })}\n`);
      const unnamed = await cli("generate", "--spec-version", "2025-11-25", "--offline", "--lock", editedLock, "--out", join(dir, "out"));
      expect([unnamed.code, unnamed.stderr]).toEqual([
        2,
        `error MCG506: the lock ${editedLock} names no sha256 for version 2025-11-25, though the revision ${COMMIT} has it (in the cache ${join(options.cacheDir!, COMMIT)}); ` +
          `the lock names 2024-11-05, 2025-03-26, 2025-06-18, 2026-07-28, draft: it was edited (then restore it from version control, or run \`spec fetch --lock ${editedLock} --update\` to pin what the ref names now)\n1 error; nothing was written\n`,
      ]);
      const warned = await cli("spec", "fetch", "--offline", "--lock", editedLock);
      expect([warned.code, warned.stderr.split("\n")[1]]).toEqual([
        0,
        `warning: the revision ${COMMIT} has version 2025-11-25, for which the lock ${editedLock} names no sha256, so it is not read through the lock; if it was edited, restore it from version control, or run \`spec fetch --lock ${editedLock} --update\` to pin what the ref names now`,
      ]);
    } finally {
      if (previous === undefined) delete process.env.MCP_SPEC_CACHE_DIR;
      else process.env.MCP_SPEC_CACHE_DIR = previous;
    }
  });

  it("scaffold takes the legacy schema from the lock too, and refuses what the lock does not pin or an old revision (MCG413, MCG411)", async () => {
    const { dir, options } = place("scaffold-lock");
    await fetchSpec({ ...options, ref: "main" });
    const previous = process.env.MCP_SPEC_CACHE_DIR;
    process.env.MCP_SPEC_CACHE_DIR = options.cacheDir;
    try {
      // A lock pinning the same commit without 2025-11-25: the cached folder has it, but the lock does not name it.
      const lock = JSON.parse(readFileSync(options.lockFile!, "utf8")) as { pins: { schemas: Record<string, string> }[] };
      delete lock.pins[0]!.schemas["2025-11-25"];
      const draftOnly = join(dir, "draft-only.lock.json");
      writeFileSync(draftOnly, JSON.stringify(lock));
      const refused = await cli("scaffold", join(dir, "a"), "--spec-version", "draft", "--offline", "--lock", draftOnly);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/\nerror MCG413: .*; the locked revision b0f60ba5\w+ \(.*draft-only\.lock\.json\) does not name it \(versions there: 2024-11-05, 2025-03-26, 2025-06-18, 2026-07-28, draft\)\. .*--eras modern/);
      // An old revision with its partner present: the error is about the schema named (MCG411), not the pair (MCG320).
      const old = await cli("scaffold", join(dir, "b"), "--spec-version", "2025-06-18", "--offline", "--lock", options.lockFile!);
      expect(old.code).toBe(2);
      expect(old.stderr).toMatch(/\nerror MCG411: .*this schema is 2025-06-18/);
      const oldSpec = await cli("scaffold", join(dir, "c"), "--spec", SPEC_DIR, "--spec-version", "2025-06-18");
      expect(oldSpec.stderr).toMatch(/^error MCG411: .*this schema is 2025-06-18/);
      expect(existsSync(join(dir, "a")) || existsSync(join(dir, "b")) || existsSync(join(dir, "c"))).toBe(false);
      // --lock belongs to --spec-version alone.
      const lockWithSchema = await cli("generate", "--schema", join(SPEC_DIR, "schema", "draft", "schema.ts"), "--out", join(dir, "o"), "--lock", options.lockFile!);
      expect(lockWithSchema.code).toBe(2);
      expect(lockWithSchema.stderr).toMatch(/^error MCG001: --lock names the lock of --spec-version alone/);
      // So does --offline: --schema and --spec never use the network.
      for (const input of [["--schema", join(SPEC_DIR, "schema", "draft", "schema.ts")], ["--spec", SPEC_DIR, "--spec-version", "draft"]]) {
        const offline = await cli("generate", ...input, "--out", join(dir, "o"), "--offline");
        expect([offline.code, offline.stderr.split("\n")[0]]).toEqual([2, "error MCG001: --offline goes with --spec-version alone (the locked revision, read from the cache); --schema and --spec read local files and never use the network"]);
      }
    } finally {
      if (previous === undefined) delete process.env.MCP_SPEC_CACHE_DIR;
      else process.env.MCP_SPEC_CACHE_DIR = previous;
    }
  });

  it("a locked revision that cannot be downloaded offers spec fetch --from <clone>, which keeps the lock, besides --spec and --schema (MCG501; helper-114: only those two, which drop the lock)", async () => {
    const { dir, cache, lock } = place("locked-no-network");
    writeFileSync(lock, `${JSON.stringify({ lockVersion: 1, repository: "modelcontextprotocol/modelcontextprotocol", pins: [{ ref: "main", commit: COMMIT, schemas: DIGESTS }] }, null, 2)}\n`);
    const base = `http://127.0.0.1:${await refusedPort()}/tar.gz`;
    const previous = { base: process.env.MCP_SPEC_BASE_URL, cache: process.env.MCP_SPEC_CACHE_DIR };
    process.env.MCP_SPEC_BASE_URL = base;
    process.env.MCP_SPEC_CACHE_DIR = cache;
    const failed = (ran: string) =>
      `main: downloading ${base}/${COMMIT}\nerror MCG501: cannot download the spec from ${base}/${COMMIT}: ECONNREFUSED; check the network and MCP_SPEC_BASE_URL; without a download, ` +
      `fill the cache from a clone at commit ${COMMIT} with \`spec fetch --lock ${lock} --from <clone>\`, which keeps the lock, or give a local clone with --spec <clone> --spec-version <v>, or one file with --schema <file>\n1 error; ${ran}\n`;
    try {
      expect(await cli("generate", "--spec-version", "draft", "--lock", lock, "--out", join(dir, "out"))).toEqual({ code: 2, stdout: "", stderr: failed("nothing was written") });
      const scaffold = await cli("scaffold", join(dir, "server"), "--spec-version", "draft", "--lock", lock);
      expect([scaffold.code, scaffold.stderr]).toEqual([2, failed("nothing was written")]);
      // What it offers works: the clone fills the cache, and generate then reads the lock's revision.
      expect((await cli("spec", "fetch", "--lock", lock, "--from", SPEC_DIR)).code).toBe(0);
      expect((await cli("generate", "--spec-version", "draft", "--lock", lock, "--out", join(dir, "out"), "--targets", "types")).code).toBe(0);
    } finally {
      for (const [key, value] of [["MCP_SPEC_BASE_URL", previous.base], ["MCP_SPEC_CACHE_DIR", previous.cache]] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  });

  it("a configuration input's lock errors point into the configuration file and name its own alternatives", async () => {
    const { dir } = place("config-lock");
    const config = join(dir, "mcp-schema-codegen.config.json");
    writeFileSync(config, '{\n  "outputs": [\n    { "input": { "version": "draft" }, "out": "gen" }\n  ]\n}\n');
    const result = await cli("generate", "--config", config, "--offline");
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `${relative(ROOT, config)}:3:16 - error MCG504: no lock file ${join(dir, "mcp-spec.lock.json")}: run \`mcp-schema-codegen spec fetch --lock ${join(dir, "mcp-spec.lock.json")}\` to pin a spec revision ` +
        `(with no network, \`spec fetch --lock ${join(dir, "mcp-spec.lock.json")} --from <clone>\` pins a local clone), or ` +
        'name a local clone ({ "spec": "<clone>", "version": "<v>" }) or one file ({ "schema": "<file>" }) in this input instead\n1 error; nothing was written\n',
    );
    // The library refuses a locked input that did not go through configInputs, saying so.
    const locked = loadConfig(config).outputs[0]!.input;
    await expect(generate({ schema: locked as never })).rejects.toThrow(/MCG001: a schema input is \{ path \}, \{ specDir, version \} or \{ text, fileName \}, not \["version","lockFile","span"\]: a locked version \(\{ version, lockFile \}\) is read by configInputs\(\) first/);
  });

  it("without a lock names spec fetch and the two alternatives (MCG504)", async () => {
    const { dir } = place("nolock");
    const result = await cli("generate", "--spec-version", "draft", "--lock", join(dir, "none.json"), "--out", join(dir, "out"));
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `error MCG504: no lock file ${join(dir, "none.json")}: run \`mcp-schema-codegen spec fetch --lock ${join(dir, "none.json")}\` to pin a spec revision ` +
        `(with no network, \`spec fetch --lock ${join(dir, "none.json")} --from <clone>\` pins a local clone), or give a local clone with --spec <clone> --spec-version <v>, or one file with --schema <file>\n1 error; nothing was written\n`,
    );
  });

  it("run from a subfolder of a project with a lock: names that lock, and how to use it, before pinning another (helper-118)", async () => {
    const { dir } = place("lock-above");
    const lock = join(dir, "mcp-spec.lock.json");
    writeFileSync(lock, readFileSync(SPEC_LOCK, "utf8"));
    const sub = join(dir, "src", "deeper");
    mkdirSync(sub, { recursive: true });
    const home = process.cwd();
    process.chdir(sub);
    try {
      const here = join(sub, "mcp-spec.lock.json");
      const said = `error MCG504: no lock file ${here}, but a folder above holds one, ${lock}: give \`--lock ${lock}\`, or run from ${dir} (to pin a revision here instead: \`mcp-schema-codegen spec fetch\`)\n`;
      expect(await cli("generate", "--spec-version", "draft", "--out", "gen", "--offline")).toEqual({ code: 2, stdout: "", stderr: `${said}1 error; nothing was written\n` });
      expect(await cli("diff", "2025-11-25", "draft")).toEqual({ code: 2, stdout: "", stderr: `${said}1 error; nothing was compared\n` });
      expect(existsSync(here)).toBe(false);
      // A lock named with --lock is the one looked for: no other is offered.
      expect((await cli("generate", "--spec-version", "draft", "--out", "gen", "--lock", "none.json")).stderr).toMatch(/^error MCG504: no lock file \S+none\.json: run /);
    } finally {
      process.chdir(home);
    }
  });

  it("spec fetch run from a subfolder of a project with a lock writes its own and warns that commands run there read it from now on (helper-127: it did so quietly)", async () => {
    const { dir, cache } = place("lock-above-fetch");
    const lock = join(dir, "mcp-spec.lock.json");
    writeFileSync(lock, readFileSync(SPEC_LOCK, "utf8"));
    const sub = join(dir, "src");
    mkdirSync(sub, { recursive: true });
    const home = process.cwd();
    process.chdir(sub);
    try {
      const said: string[] = [];
      await fetchSpec({ cacheDir: cache, baseUrl: server.baseUrl, timeoutMs: 20_000, onProgress: (line) => said.push(line) });
      const here = join(sub, "mcp-spec.lock.json");
      expect(existsSync(here)).toBe(true);
      expect(said.filter((line) => line.startsWith("warning:"))).toEqual([
        `warning: a folder above holds a lock, ${lock}, and this run wrote another, ${here}, which commands run here read from now on; ` +
          `if this folder is part of that project, delete ${here} and run from ${dir}, or give \`--lock ${lock}\``,
      ]);
      // Run again with the lock it wrote, or with --lock: no warning (the lock was there, or named).
      said.length = 0;
      await fetchSpec({ cacheDir: cache, baseUrl: server.baseUrl, timeoutMs: 20_000, onProgress: (line) => said.push(line) });
      await fetchSpec({ lockFile: join(sub, "other.json"), cacheDir: cache, baseUrl: server.baseUrl, timeoutMs: 20_000, onProgress: (line) => said.push(line) });
      expect(said.filter((line) => line.startsWith("warning:"))).toEqual([]);
    } finally {
      process.chdir(home);
    }
  });
});

describe("this repository's own corpus (npm run generate, npm test)", () => {
  const COMMIT_2026_07_13 = "9a4ff8af92ba00cbddbf94672dfade9279987e66";

  it("is $MCP_SPEC_DIR when it exists, else every pin of mcp-spec.lock.json, fetched into the cache", async () => {
    const { dir, cache } = place("corpus");
    server.routes.set(COMMIT_2026_07_13, { kind: "archive", body: tarGz(`modelcontextprotocol-${COMMIT_2026_07_13}`, corpusEntries(SPEC_DIR_2026_07_13), COMMIT_2026_07_13) });
    const options = { lockFile: SPEC_LOCK, cacheDir: cache, baseUrl: server.baseUrl, variable: "MCP_SPEC_DIR" };
    expect(await findCorpus(SPEC_DIR, options)).toEqual({ source: "environment", dirs: [SPEC_DIR] });
    const before = server.requests.length;
    expect(await findCorpus(join(dir, "no-such-spec"), options)).toEqual({ source: "cache", dirs: [join(cache, COMMIT), join(cache, COMMIT_2026_07_13)] });
    expect(server.requests.slice(before)).toEqual([COMMIT, COMMIT_2026_07_13]);
    expect(readdirSync(join(cache, COMMIT_2026_07_13, "schema"))).toEqual(["draft"]);
  });

  it("missing, with no network, is one message naming both ways to provide it (MCG507)", async () => {
    const { dir, cache } = place("corpus-missing");
    const port = await refusedPort();
    const base = `http://127.0.0.1:${port}/tar.gz`;
    const options = { lockFile: SPEC_LOCK, cacheDir: cache, baseUrl: base, variable: "MCP_SPEC_DIR" };
    expect(await failure(findCorpus(join(dir, "no-such-spec"), options))).toEqual([
      `error MCG507: no spec corpus: MCP_SPEC_DIR ${join(dir, "no-such-spec")} does not exist, and the revisions pinned in ${SPEC_LOCK} could not be had ` +
        `(MCG501 cannot download the spec from ${base}/${COMMIT}: ECONNREFUSED; check the network (or set MCP_SPEC_BASE_URL to a server that has the archives); without a download, ` +
        // The lock is the current folder's (tests run in the repository's folder): named without --lock.
        `fill the cache from a clone at commit ${COMMIT} with \`spec fetch --from <clone>\`, which keeps the lock, or give a local clone with --spec <clone> --spec-version <v>, or one file with --schema <file>). ` +
        `Either set MCP_SPEC_DIR to a spec repository folder (one holding schema/<version>/schema.ts), or connect to the internet so that the pinned revisions are downloaded into ${cache}`,
    ]);
  });
});
