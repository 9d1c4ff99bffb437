/**
 * `spec fetch`'s check of an archive's entry paths (generator/spec/archive.ts): long paths cost time linear in their
 * length. Made-up archives, built here with pax path records (tar's own Header splits a long path in time that grows
 * faster than its length), checked without a server.
 */
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { checkArchive, MAX_KEPT_PATH_LENGTH } from "../generator/spec/archive.js";

const COMMIT = "0123456789abcdef0123456789abcdef01234567";

function block(buffer: Buffer): Buffer {
  return Buffer.concat([buffer, Buffer.alloc((512 - (buffer.length % 512)) % 512)]);
}

/** A ustar header block: `type` "0" a file, "5" a folder, "x" a pax header, "g" a pax global header. */
function header(name: string, type: string, size: number): Buffer {
  const h = Buffer.alloc(512);
  h.write(name.slice(0, 99), 0, "latin1");
  h.write("0000644\0", 100);
  h.write("0000000\0", 108);
  h.write("0000000\0", 116);
  h.write(size.toString(8).padStart(11, "0") + "\0", 124);
  h.write("00000000000\0", 136);
  h.write(type, 156);
  h.write("ustar\0", 257);
  h.write("00", 263);
  h.fill(" ", 148, 156);
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(sum.toString(8).padStart(6, "0") + "\0 ", 148);
  return h;
}

/** One pax record, `<length> <key>=<value>\n`, its length counting itself. */
function paxRecord(key: string, value: string): Buffer {
  const body = ` ${key}=${value}\n`;
  let length = body.length + 1;
  while (String(length).length + Buffer.byteLength(body) !== length) length = String(length).length + Buffer.byteLength(body);
  return Buffer.from(`${length}${body}`);
}

/** A tar.gz of `entries` (paths as written, a pax record for a long one) after a pax global header naming COMMIT. */
function archive(entries: readonly { path: string; folder?: boolean; body?: string }[]): Buffer {
  const comment = paxRecord("comment", COMMIT);
  const parts = [header("pax_global_header", "g", comment.length), block(comment)];
  for (const entry of entries) {
    const body = Buffer.from(entry.body ?? "");
    if (entry.path.length > 99) {
      const pax = paxRecord("path", entry.path);
      parts.push(header("PaxHeader", "x", pax.length), block(pax));
    }
    parts.push(header(entry.path, entry.folder === true ? "5" : "0", body.length), block(body));
  }
  parts.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(parts), { level: 9 });
}

const SCHEMA = { path: "top/schema/draft/schema.ts", body: "export type A = string;\n" };

describe("spec fetch: an archive's entry paths (helper-130)", () => {
  it("refuses a kept path longer than MAX_KEPT_PATH_LENGTH: each of its folders was kept as a path, and a 400-byte archive with one entry 120 KB deep ran out of memory (40 KB: 3 s and 500 MB)", async () => {
    const deep = archive([{ path: "top/", folder: true }, SCHEMA, { path: "top/schema/" + "a/".repeat(20_000) + "x", body: "x" }]);
    expect(deep.length).toBeLessThan(1000);
    const started = Date.now();
    await expect(checkArchive(deep, "http://localhost/deep", "main")).rejects.toThrow(`has a path of 40008 characters; the limit is ${MAX_KEPT_PATH_LENGTH}`);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("accepts kept paths up to the limit, and still tells a path that is a file in one entry and a folder in another", async () => {
    const nested = "schema/draft/" + "d/".repeat(200);
    const info = await checkArchive(archive([{ path: "top/", folder: true }, SCHEMA, { path: `top/${nested}f`, body: "x" }, { path: `top/${nested}g`, body: "y" }]), "http://localhost/ok", "main");
    expect(info.keptFiles).toEqual([`${nested}f`, `${nested}g`, "schema/draft/schema.ts"]);
    await expect(checkArchive(archive([{ path: "top/", folder: true }, SCHEMA, { path: `top/${nested}f`, body: "x" }, { path: `top/${nested}f/h`, body: "y" }]), "http://localhost/both", "main")).rejects.toThrow(
      "makes a path both a file and a folder",
    );
    await expect(checkArchive(archive([{ path: "top/", folder: true }, SCHEMA, { path: `top/${nested}f/h`, body: "x" }, { path: `top/${nested}f`, body: "y" }]), "http://localhost/both", "main")).rejects.toThrow(
      "makes a path both a file and a folder",
    );
  });

  it("counts the folders of kept paths against the limit on entries, named or not: each is a node of the tree the check keeps", async () => {
    const limits = { maxEntryBytes: 1024, maxTotalBytes: 1024 * 1024, maxEntries: 8 };
    const wide = archive([{ path: "top/", folder: true }, SCHEMA, ...["a", "b", "c"].map((f) => ({ path: `top/schema/${f}/1/2/x`, body: "x" }))]);
    await expect(checkArchive(wide, "http://localhost/wide", "main", limits)).rejects.toThrow("its kept folders hold more than 8 folders");
    expect((await checkArchive(wide, "http://localhost/wide", "main")).keptFiles).toHaveLength(4);
  });

  it("reads a path with a run of slashes in time linear in its length: /\\/+$/ took the square of it (200 000 slashes, a 500-byte archive, ran about 30 s)", async () => {
    const slashes = archive([{ path: "top/", folder: true }, SCHEMA, { path: "top/other" + "/".repeat(200_000) + "x", body: "x" }]);
    expect(slashes.length).toBeLessThan(1000);
    const started = Date.now();
    const info = await checkArchive(slashes, "http://localhost/slashes", "main");
    expect(info.keptFiles).toEqual(["schema/draft/schema.ts"]);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("still reads ./ and empty segments, and refuses .. however the path is written", async () => {
    const info = await checkArchive(archive([{ path: "./top/", folder: true }, { path: "./top//schema/./draft/schema.ts", body: "x" }]), "http://localhost/dots", "main");
    expect(info).toEqual({ commit: COMMIT, topFolder: "top", keptFiles: ["schema/draft/schema.ts"] });
    for (const path of ["top/schema/../x", "top/..", "top/schema/draft/.."]) {
      await expect(checkArchive(archive([SCHEMA, { path, body: "x" }]), "http://localhost/up", "main")).rejects.toThrow("climbs out of the archive's folder (..)");
    }
  });
});
