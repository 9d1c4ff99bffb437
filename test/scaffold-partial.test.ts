/**
 * `scaffold --force` that stops part-way (helper-102: a full disk): it says what it had replaced
 * and where it kept your files, not that nothing was written. A write that fails is injected by
 * mocking `writeFileAtomic` for one path; everything else is the real file system.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { cli } from "./support/cli.js";
import { scratchDir, SPEC_DIR } from "./support/corpus.js";
import { GeneratorError } from "../generator/errors.js";
import { ScaffoldWriteError, writeScaffold } from "../generator/scaffold/index.js";

/** The path whose write fails (its end), or undefined. */
let failing: string | undefined;
/** Run before the write of the path it names (its end): a change made while the scaffold writes. */
let meanwhile: { readonly at: string; readonly run: () => void } | undefined;

vi.mock("../generator/write.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../generator/write.js")>();
  return {
    ...original,
    writeFileAtomic: (path: string, contents: string) => {
      if (meanwhile !== undefined && path.endsWith(meanwhile.at)) meanwhile.run();
      if (failing !== undefined && path.endsWith(failing)) throw new GeneratorError([{ code: "MCG403", message: `cannot write ${path}: ENOSPC: no space left on device` }]);
      original.writeFileAtomic(path, contents);
    },
  };
});

describe("scaffold --force stopped part-way", () => {
  it("writeScaffold: ScaffoldWriteError says what was written, replaced and kept; a failure before any change is the plain error, with no copy left", () => {
    const dir = scratchDir("scaffold-partial-unit");
    mkdirSync(join(dir, "src"));
    writeFileSync(join(dir, "README.md"), "my readme\n");
    writeFileSync(join(dir, "src/handlers.ts"), "// my handlers\n");
    const files = [
      { path: "README.md", contents: "# new\n" },
      { path: "src/handlers.ts", contents: "// new handlers\n" },
      { path: "src/main.ts", contents: "// main\n" },
      { path: "src/server.ts", contents: "// server\n" },
      { path: "src/generated/types.ts", contents: "// types\n" },
    ];
    failing = "README.md";
    try {
      // Project files alone (the generated code, written first, is another case below).
      const projectOnly = files.filter((f) => !f.path.startsWith("src/generated/"));
      expect(() => writeScaffold(dir, projectOnly, true)).toThrow(GeneratorError);
      expect(() => writeScaffold(dir, projectOnly, true)).not.toThrow(ScaffoldWriteError);
      expect(readFileSync(join(dir, "README.md"), "utf8")).toBe("my readme\n");
      expect(existsSync(join(dir, "README.md.orig"))).toBe(false);

      failing = "src/server.ts";
      let stopped: unknown;
      try {
        writeScaffold(dir, files, true);
      } catch (error) {
        stopped = error;
      }
      expect(stopped).toBeInstanceOf(ScaffoldWriteError);
      // The generated code is written first, under its lock: a refusal there would have changed nothing.
      expect((stopped as ScaffoldWriteError).done).toEqual({
        written: ["src/generated/types.ts", "src/main.ts"],
        replaced: ["README.md", "src/handlers.ts"],
        unchanged: [],
        backups: [
          { path: "README.md", backup: "README.md.orig" },
          { path: "src/handlers.ts", backup: "src/handlers.ts.orig" },
        ],
        removed: [],
        merged: [],
      });
      expect(readFileSync(join(dir, "src/handlers.ts.orig"), "utf8")).toBe("// my handlers\n");
      expect(readFileSync(join(dir, "src/handlers.ts"), "utf8")).toBe("// new handlers\n");
      expect(readFileSync(join(dir, "src/generated/types.ts"), "utf8")).toBe("// types\n");
    } finally {
      failing = undefined;
    }
  });

  it("a project file made a symbolic link after the check is not written through: MCG410, the file outside untouched (helper-103)", () => {
    const dir = scratchDir("scaffold-partial-link");
    const project = join(dir, "p");
    mkdirSync(join(project, "src"), { recursive: true });
    writeFileSync(join(project, "README.md"), "my readme\n");
    writeFileSync(join(project, "src/handlers.ts"), "// my handlers\n");
    writeFileSync(join(dir, "victim.ts"), "// outside\n");
    meanwhile = {
      at: "README.md",
      run: () => {
        rmSync(join(project, "src/handlers.ts"));
        symlinkSync(join(dir, "victim.ts"), join(project, "src/handlers.ts"));
      },
    };
    try {
      let stopped: unknown;
      try {
        writeScaffold(project, [
          { path: "README.md", contents: "# new\n" },
          { path: "src/handlers.ts", contents: "// new handlers\n" },
        ], true);
      } catch (error) {
        stopped = error;
      }
      expect(stopped).toBeInstanceOf(ScaffoldWriteError);
      expect((stopped as ScaffoldWriteError).diagnostics[0]).toMatchObject({ code: "MCG410" });
      expect((stopped as ScaffoldWriteError).done.replaced).toEqual(["README.md"]);
      expect(readFileSync(join(dir, "victim.ts"), "utf8")).toBe("// outside\n");
    } finally {
      meanwhile = undefined;
    }
  });

  it("src/generated/ is written first, under its lock: a lock it cannot take leaves the project files as they were (helper-105)", () => {
    const dir = scratchDir("scaffold-partial-lock");
    mkdirSync(join(dir, "src"));
    writeFileSync(join(dir, "README.md"), "my readme\n");
    // Not a lock folder: nothing can take it (before, README.md was replaced and only then did the generated write stop).
    writeFileSync(join(dir, "src", "generated.lock"), "");
    let stopped: unknown;
    try {
      writeScaffold(dir, [{ path: "README.md", contents: "# new\n" }, { path: "src/generated/types.ts", contents: "// types\n" }], true, { onWait: () => {} });
    } catch (error) {
      stopped = error;
    }
    expect(stopped).toBeInstanceOf(GeneratorError);
    expect(stopped).not.toBeInstanceOf(ScaffoldWriteError);
    expect(readFileSync(join(dir, "README.md"), "utf8")).toBe("my readme\n");
    expect(existsSync(join(dir, "README.md.orig"))).toBe(false);
  });

  it("a project file that cannot be replaced is found before anything is written: the generated code is not updated beside the old configuration (helper-119)", async () => {
    const dir = scratchDir("scaffold-partial-unwritable");
    const first = await cli("scaffold", dir, "--spec", SPEC_DIR, "--spec-version", "2026-07-28", "--name", "partial", "--docs", "none");
    expect(first.code).toBe(0);
    const snapshot = () => ["mcp-schema-codegen.config.json", "src/generated/codegen-manifest.json", "src/generated/types.ts"].map((f) => readFileSync(join(dir, f), "utf8"));
    const before = snapshot();
    // Root writes anywhere but into an immutable file; anyone else is kept out by a folder's mode. The configuration names
    // the version, so the scaffold replaces it.
    const config = join(dir, "mcp-schema-codegen.config.json");
    const root = process.getuid?.() === 0;
    if (root) execFileSync("chattr", ["+i", config]);
    else chmodSync(dir, 0o555);
    try {
      const run = await cli("scaffold", dir, "--spec", SPEC_DIR, "--spec-version", "draft", "--name", "partial", "--docs", "none", "--force");
      expect(run.code).toBe(2);
      if (root) expect(run.stderr).toBe(`error MCG403: cannot write ${config} (EPERM), where the scaffold replaces mcp-schema-codegen.config.json; nothing was changed\n1 error; nothing was written\n`);
      else expect(run.stderr).toMatch(/^error MCG403: cannot write .* \(EACCES\), where the scaffold replaces .*; nothing was changed\n1 error; nothing was written\n$/);
      expect(snapshot()).toEqual(before);
    } finally {
      if (root) execFileSync("chattr", ["-i", config]);
      else chmodSync(dir, 0o755);
    }
    // Once it can be written, the same run updates the project.
    expect((await cli("scaffold", dir, "--spec", SPEC_DIR, "--spec-version", "draft", "--name", "partial", "--docs", "none", "--force")).code).toBe(0);
    expect(snapshot()).not.toEqual(before);
  });

  it("a read-only project file (its mode) in a folder that can be written is replaced, as the atomic write allows: only an immutable one or a folder kept from writes is refused", async () => {
    const dir = scratchDir("scaffold-partial-read-only");
    const args = ["scaffold", dir, "--spec", SPEC_DIR, "--spec-version", "2026-07-28", "--name", "partial", "--docs", "none"];
    expect((await cli(...args)).code).toBe(0);
    const tsconfig = join(dir, "tsconfig.json");
    writeFileSync(tsconfig, "{}\n");
    chmodSync(tsconfig, 0o444);
    const root = process.getuid?.() === 0;
    // Root may write any file: the check is seen as another user (nobody), who owns the project.
    const run = root
      ? (() => {
          execFileSync("chown", ["-R", "nobody", dir]);
          const bin = join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "bin", "mcp-schema-codegen.js");
          const done = spawnSync("runuser", ["-u", "nobody", "--", process.execPath, bin, ...args, "--force"], { encoding: "utf8" });
          return { code: done.status, stderr: done.stderr };
        })()
      : await cli(...args, "--force");
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(readFileSync(tsconfig, "utf8")).not.toBe("{}\n");
    expect(readFileSync(`${tsconfig}.orig`, "utf8")).toBe("{}\n");
  });

  it("the CLI lists what it replaced, with the copies, and the tally says what was done (exit 2)", async () => {
    const dir = scratchDir("scaffold-partial-cli");
    mkdirSync(join(dir, "src"));
    writeFileSync(join(dir, "src/handlers.ts"), "// my handlers\n");
    failing = "test/client.ts";
    try {
      const run = await cli("scaffold", dir, "--spec", SPEC_DIR, "--spec-version", "draft", "--name", "partial", "--docs", "none", "--force");
      expect(run.code).toBe(2);
      expect(run.stdout).toBe(`replaced: ${join(dir, "src/handlers.ts")} (what was there is kept as ${join(dir, "src/handlers.ts.orig")})\n`);
      const lines = run.stderr.trimEnd().split("\n");
      expect(lines[0]).toMatch(/^error MCG403: cannot write .*test\/client\.ts: ENOSPC: no space left on device$/);
      expect(lines.at(-1)).toMatch(new RegExp(`^1 error; ${dir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: \\d+ written and 1 replaced before it stopped; run it again to finish$`));
      expect(readFileSync(join(dir, "src/handlers.ts.orig"), "utf8")).toBe("// my handlers\n");
    } finally {
      failing = undefined;
    }
  });
});
