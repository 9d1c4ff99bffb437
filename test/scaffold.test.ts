/**
 * `scaffold`: the project it writes, what it refuses, and that the project works: a fresh
 * scaffold installs with npm, builds and passes its own tests; the `--example conformance`
 * project, built and served over Streamable HTTP, passes the official conformance suite
 * (@modelcontextprotocol/conformance, requirement set 2026-07-28).
 */
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { cli } from "./support/cli.js";
import { ROOT, scratchDir, SPEC_DIR, SPEC_DIR_2026_07_13 } from "./support/corpus.js";
import { strictestDiagnostics } from "./support/strict.js";
import { PINNED_NODES } from "./support/node-versions.js";
import { conformanceLine, runConformance } from "./support/conformance.js";
import { buildWithRepoModules, startHttpServer } from "./support/servers.js";
import { packageNameFor } from "../generator/scaffold/index.js";


const SPEC = ["--spec", SPEC_DIR, "--spec-version"];

/** Every file under `dir`, relative, sorted (node_modules and dist left out). */
function listFiles(dir: string, prefix = ""): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true })
    .flatMap((e) => {
      const path = prefix === "" ? e.name : `${prefix}/${e.name}`;
      if (e.name === "node_modules" || e.name === "dist") return [];
      return e.isDirectory() ? listFiles(dir, path) : [path];
    })
    .sort();
}

describe("scaffolded sources", () => {
  it.each([
    ["default example", []],
    ["conformance", ["--example", "conformance"]],
    ["default example, --eras modern", ["--eras", "modern"]],
  ])("%s: src/ and test/ type-check at the strictest settings", async (label, flags) => {
    const dir = join(scratchDir(`scaffold-strict-${label.replace(/\W+/g, "-")}`), "p");
    const { code } = await cli("scaffold", dir, ...SPEC, "draft", ...flags);
    expect(code).toBe(0);
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
    const roots = listFiles(dir).filter((f) => f.endsWith(".ts")).map((f) => join(dir, f));
    // Every file, the generated ones and the example handlers included, meets every flag (isolatedDeclarations too: the
    // handler table names its type); Node.js typings for the transports and tests.
    const problems = strictestDiagnostics(roots, { module: "NodeNext", moduleResolution: "NodeNext", types: ["node"], skipLibCheck: true });
    expect(problems).toEqual([]);
  });
});

describe("the package name from the folder's name", () => {
  it("keeps every name npm takes, one character too (helper-65: q, 9 and _x became mcp-server); mcp-server only when none is left or npm refuses it", () => {
    const names = ["My Server", "q", "9", "_x", "Café Münster", "--a--", "a.b_c", "___", "http", "node_modules", "x".repeat(300) + "-y"].map((n) => packageNameFor(join("/tmp", n)));
    expect(names).toEqual(["my-server", "q", "9", "x", "cafe-munster", "a", "a.b_c", "mcp-server", "mcp-server", "mcp-server", "x".repeat(214)]);
  });
});

describe("scaffold command", () => {
  it("writes the project: package.json scripts, tsconfig, README, config, generated code of both eras, handlers, transports, tests", async () => {
    const dir = join(scratchDir("scaffold-files"), "My Server");
    const { code, stdout, stderr } = await cli("scaffold", dir, ...SPEC, "draft");
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toContain("65 files written (package my-server)");
    // generate --check compares src/generated/ byte for byte: git keeps its line ends as written on any checkout (core.autocrlf).
    expect(readFileSync(join(dir, ".gitattributes"), "utf8")).toContain("\nsrc/generated/** -text\n");
    expect(stdout).toContain(`next: cd '${dir}' && npm install && npm test\n`);
    const revision = ["errors.ts", "index.ts", "meta.ts", "methods.ts", "revision.ts", "types.ts", "validators.ts"];
    expect(listFiles(dir)).toEqual([
      ".gitattributes",
      ".gitignore",
      ".prettierignore",
      "README.md",
      "mcp-schema-codegen.config.json",
      "package.json",
      // The legacy revisions beside draft, all of them: clients negotiate only a version they know (helper-155: the SDK
      // before 1.25 refused a server answering 2025-11-25).
      ...["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"].flatMap((v) => revision.map((f) => `src/generated/${v}/${f}`)),
      "src/generated/codegen-manifest.json",
      "src/generated/dispatch.ts",
      "src/generated/errors.ts",
      "src/generated/index.ts",
      "src/generated/meta.ts",
      "src/generated/methods.ts",
      "src/generated/runtime/dispatcher.ts",
      "src/generated/runtime/errors.ts",
      "src/generated/runtime/http.ts",
      "src/generated/runtime/json.ts",
      "src/generated/runtime/meta.ts",
      "src/generated/runtime/methods.ts",
      "src/generated/runtime/stdio.ts",
      "src/generated/runtime/tool-arguments.ts",
      "src/generated/types.ts",
      "src/generated/validators.ts",
      "src/handlers.ts",
      "src/main.ts",
      "src/server-info.ts",
      "src/server.ts",
      "test/client.ts",
      "test/example.test.ts",
      "test/server.test.ts",
      "tsconfig.json",
    ]);
    // The project's configuration names both schemas and the options; generate in the project finds it up to date.
    expect(JSON.parse(readFileSync(join(dir, "mcp-schema-codegen.config.json"), "utf8"))).toEqual({
      outputs: [
        {
          input: ["draft", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"].map((version) => ({ spec: SPEC_DIR, version })),
          out: "src/generated",
          options: { transports: "node" },
        },
      ],
    });
    const check = await cli("generate", "--config", join(dir, "mcp-schema-codegen.config.json"), "--check");
    expect([check.code, check.stderr]).toEqual([0, ""]);
    expect(readFileSync(join(dir, "src/generated/dispatch.ts"), "utf8")).toContain(
      'export const DISPATCH_PROTOCOL_VERSIONS: readonly string[] = ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];',
    );
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name: string; scripts: Record<string, string> };
    expect(pkg.name).toBe("my-server");
    expect(Object.keys(pkg.scripts).sort()).toEqual(["build", "start", "start:http", "test"]);
    const handlers = readFileSync(join(dir, "src/handlers.ts"), "utf8");
    // The default handlers are a working example, not stubs; the README shows its input-asking tool as it is in src/handlers.ts.
    expect(handlers).not.toContain("notImplemented");
    expect(handlers).toContain("Built in, and not listed here: server/discover, subscriptions/listen.");
    expect(handlers).toContain("against 2026-07-28. Built in for them: initialize, ping, logging/setLevel, resources/subscribe, resources/unsubscribe.");
    const readme = readFileSync(join(dir, "README.md"), "utf8");
    for (const text of [readme, readFileSync(join(ROOT, "README.md"), "utf8")]) {
      const snippet = /### Asking the user for input\n[^]*?```ts\n([^]*?)```/.exec(text)?.[1];
      expect(snippet).toBeDefined();
      expect(handlers).toContain(snippet!.split("\n").map((line) => (line === "" ? line : `  ${line}`)).join("\n"));
    }
    expect(readme).toContain("GET with `Accept: text/event-stream`");
    expect(readme).not.toContain("POST only");
    expect(readFileSync(join(dir, "src/generated/types.ts"), "utf8")).toContain("--docs full");
  });

  it("--force over a project writes src/generated/ as generate does: an earlier legacy revision's folder goes; the package keeps its name; the next step says to merge the copies (helper-104)", async () => {
    const dir = join(scratchDir("scaffold-force-revisions"), "first");
    expect((await cli("scaffold", dir, ...SPEC, "draft,2025-06-18", "--docs", "none", "--name", "kept-name")).code).toBe(0);
    expect(readdirSync(join(dir, "src", "generated")).sort()).toContain("2025-06-18");
    writeFileSync(join(dir, "src", "handlers.ts"), readFileSync(join(dir, "src", "handlers.ts"), "utf8") + "// mine\n");
    // An editor's byte order mark before package.json: its name is still read (helper-105).
    writeFileSync(join(dir, "package.json"), "\uFEFF" + readFileSync(join(dir, "package.json"), "utf8"));
    // Back to 2025-11-25 alone, in a folder whose name is not the package's: no --name.
    const forced = await cli("scaffold", dir, ...SPEC, "draft,2025-11-25", "--docs", "none", "--force");
    expect(forced.code).toBe(0);
    expect(readdirSync(join(dir, "src", "generated")).sort()).not.toContain("2025-06-18");
    expect(readdirSync(join(dir, "src", "generated")).sort()).toContain("2025-11-25");
    const removed = forced.stdout.split("\n").find((l) => l.startsWith("removed (the generated code no longer has them): "));
    expect(removed).toContain(join(dir, "src/generated/2025-06-18/types.ts"));
    expect(forced.stdout).toMatch(/\(package kept-name\)\nnext: merge what you need back from the \d+ \.orig cop(y|ies) above, then cd .* && npm install && npm test\n$/);
    // Merged as the file was written: its byte order mark kept (helper-108).
    const packageText = readFileSync(join(dir, "package.json"), "utf8");
    expect(packageText.startsWith("\uFEFF")).toBe(true);
    expect(JSON.parse(packageText.slice(1))).toMatchObject({ name: "kept-name" });
    expect(readFileSync(join(dir, ".gitignore"), "utf8")).toContain("*.orig\n");
    // The project's own check finds it up to date: nothing of the earlier revision is left for it to miss.
    const home = process.cwd();
    process.chdir(dir);
    try {
      const check = await cli("generate", "--check");
      expect([check.code, check.stdout]).toEqual([0, expect.stringMatching(/^src\/generated: \d+ files up to date\n$/)]);
    } finally {
      process.chdir(home);
    }
  });

  it("--force merges the scaffold's package.json fields into the project's: dependencies, other scripts and devDependency versions kept; a copy only when a value of yours was replaced (helper-104)", async () => {
    const dir = join(scratchDir("scaffold-force-package"), "server");
    expect((await cli("scaffold", dir, ...SPEC, "draft", "--docs", "none")).code).toBe(0);
    const path = join(dir, "package.json");
    const scaffolded = JSON.parse(readFileSync(path, "utf8")) as { scripts: Record<string, string>; devDependencies: Record<string, string> };
    // What a team adds: a dependency, a script, a newer compiler; in its own indentation.
    const mine = { ...scaffolded, scripts: { ...scaffolded.scripts, lint: "eslint ." }, devDependencies: { ...scaffolded.devDependencies, typescript: "9.9.9" }, dependencies: { zod: "4.0.0" } };
    writeFileSync(path, `${JSON.stringify(mine, null, 4)}\n`);
    const kept = await cli("scaffold", dir, ...SPEC, "draft", "--docs", "none", "--force");
    expect(kept.code).toBe(0);
    // Nothing of the scaffold's was missing or different: the file is left as it is, and no copy is made.
    expect(readFileSync(path, "utf8")).toBe(`${JSON.stringify(mine, null, 4)}\n`);
    expect(kept.stdout).not.toContain("package.json");
    expect(existsSync(`${path}.orig`)).toBe(false);
    // A scaffold field gone and one of its scripts edited: both set again, the rest kept, the copy named with the field it replaced.
    const { type: _type, ...withoutType } = mine as typeof mine & { type: string };
    writeFileSync(path, `${JSON.stringify({ ...withoutType, scripts: { ...mine.scripts, test: "my-test" } }, null, 4)}\n`);
    const merged = await cli("scaffold", dir, ...SPEC, "draft", "--docs", "none", "--force");
    expect(merged.code).toBe(0);
    expect(merged.stdout.split("\n")).toContain(`merged: ${path} (the scaffold's fields set, the rest of yours kept; it replaced your scripts.test: what was there is kept as ${path}.orig)`);
    const now = JSON.parse(readFileSync(path, "utf8")) as typeof mine & { type: string };
    expect(now).toMatchObject({ type: "module", dependencies: { zod: "4.0.0" }, scripts: { lint: "eslint .", test: scaffolded.scripts.test }, devDependencies: { typescript: "9.9.9" } });
    expect(readFileSync(path, "utf8")).toMatch(/^\{\n {4}"name"/);
    expect(JSON.parse(readFileSync(`${path}.orig`, "utf8"))).toMatchObject({ scripts: { test: "my-test" } });
    // A description of the project's own, though it ends as a scaffold's does, is kept; CRLF line ends and a file on one
    // line are written back so; what JSON.parse cannot keep as written (a key twice, a number past 2^53) gets a copy (helper-108).
    rmSync(`${path}.orig`);
    const own = { ...now, description: "ACME weather, first scaffolded by mcp-schema-codegen" };
    writeFileSync(path, JSON.stringify(own, null, 2).replace(/\n/g, "\r\n") + "\r\n");
    const crlf = await cli("scaffold", dir, ...SPEC, "draft", "--docs", "none", "--force");
    expect(crlf.stdout).not.toContain("package.json");
    expect(readFileSync(path, "utf8")).toBe(JSON.stringify(own, null, 2).replace(/\n/g, "\r\n") + "\r\n");
    const { type: _t, ...oneLineOwn } = own;
    writeFileSync(path, JSON.stringify(oneLineOwn));
    await cli("scaffold", dir, ...SPEC, "draft", "--docs", "none", "--force");
    expect(readFileSync(path, "utf8")).toBe(JSON.stringify(own));
    expect(existsSync(`${path}.orig`)).toBe(false);
    const lossy = JSON.stringify(own, null, 2).replace('"version": "0.1.0"', '"version": "0.1.0",\n  "buildId": 12345678901234567890,\n  "version": "0.1.1"');
    writeFileSync(path, lossy);
    const lossyRun = await cli("scaffold", dir, ...SPEC, "draft", "--docs", "none", "--force");
    expect(lossyRun.stdout.split("\n")).toContain(
      `merged: ${path} (the scaffold's fields set, the rest of yours kept; JSON could not keep the number 12345678901234567890 at buildId, the key version given twice as your file wrote it: what was there is kept as ${path}.orig)`,
    );
    expect(readFileSync(`${path}.orig`, "utf8")).toBe(lossy);
    // A layout JSON.stringify does not give back (an escape, an array on one line): kept as a copy too (helper-109).
    rmSync(`${path}.orig`);
    const escaped = `${JSON.stringify(own, null, 2).replace('"version": "0.1.0"', '"version": "0.1.0",\n  "keywords": ["caf\\u00e9"]')}\n`;
    writeFileSync(path, escaped);
    const layout = await cli("scaffold", dir, ...SPEC, "draft", "--docs", "none", "--force");
    expect(layout.stdout.split("\n")).toContain(
      `merged: ${path} (the scaffold's fields set, the rest of yours kept; JSON could not keep its layout as your file wrote it: what was there is kept as ${path}.orig)`,
    );
    expect(readFileSync(`${path}.orig`, "utf8")).toBe(escaped);
    // A package.json that is no JSON object is replaced whole, with its copy.
    writeFileSync(path, "not json\n");
    const replaced = await cli("scaffold", dir, ...SPEC, "draft", "--docs", "none", "--force");
    expect(replaced.stdout.split("\n")).toContain(`replaced: ${path} (what was there is kept as ${path}.orig.1)`);
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual(scaffolded);
  });

  it("--force keeps the project's .gitignore, .gitattributes and .prettierignore, adding the scaffold's rules they lack after their own lines (helper-122: they were replaced, kept as .orig)", async () => {
    const dir = scratchDir("scaffold-force-lines");
    writeFileSync(join(dir, ".gitattributes"), "*.png binary\r\n*.psd filter=lfs diff=lfs merge=lfs -text\r\n");
    writeFileSync(join(dir, ".gitignore"), "coverage/\n  dist/  \n.env");
    const forced = await cli("scaffold", dir, ...SPEC, "draft", "--docs", "none", "--force");
    expect(forced.code).toBe(0);
    const scaffoldAttributes = readFileSync(join(ROOT, "templates", "scaffold", "gitattributes"), "utf8");
    // Its own lines as they were, in its line ends; then the scaffold's rule, after the scaffold's comment lines above it.
    expect(readFileSync(join(dir, ".gitattributes"), "utf8")).toBe(`*.png binary\r\n*.psd filter=lfs diff=lfs merge=lfs -text\r\n${scaffoldAttributes.trimEnd().replace(/\n/g, "\r\n")}\r\n`);
    // A rule it has (spaces aside) is not added again; the last line gets its line end first.
    // Spaces before a pattern are part of it (git ignores only those after it): "  dist/" does not ignore dist/.
    expect(readFileSync(join(dir, ".gitignore"), "utf8")).toBe("coverage/\n  dist/  \n.env\nnode_modules/\ndist/\n*.orig\n*.orig.[0-9]*\n");
    expect(existsSync(join(dir, ".gitattributes.orig")) || existsSync(join(dir, ".gitignore.orig"))).toBe(false);
    expect(forced.stdout).toContain(`merged: ${join(dir, ".gitattributes")} (the scaffold's rules added after yours)\n`);
    // Once merged, nothing is left to add: the files are unchanged.
    const again = await cli("scaffold", dir, ...SPEC, "draft", "--docs", "none", "--force");
    expect(again.stdout).not.toContain(".git");
  });

  it("--force keeps the project's negations working: a rule it negates goes before its lines, one excluding a folder it re-includes a file in is left out; a BOM is passed over", async () => {
    const dir = scratchDir("scaffold-force-negations");
    spawnSync("git", ["init", "-q", dir]);
    writeFileSync(join(dir, ".gitignore"), "\uFEFFnode_modules/\ndist/*\n!dist/schema.json\n!keep.orig\n");
    writeFileSync(join(dir, ".prettierignore"), "!/src/generated/README.md");
    mkdirSync(join(dir, "dist"));
    writeFileSync(join(dir, "dist", "schema.json"), "{}\n");
    writeFileSync(join(dir, "keep.orig"), "x\n");
    const ignored = (path: string) => spawnSync("git", ["-C", dir, "check-ignore", "-q", path]).status === 0;
    expect([ignored("dist/schema.json"), ignored("keep.orig"), ignored("dist/other.js")]).toEqual([false, false, true]);
    const forced = await cli("scaffold", dir, ...SPEC, "draft,2025-11-25", "--docs", "none", "--force");
    expect(forced.code).toBe(0);
    expect(readFileSync(join(dir, ".gitignore"), "utf8")).toBe("\uFEFF*.orig\nnode_modules/\ndist/*\n!dist/schema.json\n!keep.orig\n*.orig.[0-9]*\n");
    expect(readFileSync(join(dir, ".prettierignore"), "utf8")).toBe("!/src/generated/README.md");
    expect([ignored("dist/schema.json"), ignored("keep.orig"), ignored("dist/other.js"), ignored("other.orig"), ignored("node_modules/x")]).toEqual([false, false, true, true, true]);
    const again = await cli("scaffold", dir, ...SPEC, "draft,2025-11-25", "--docs", "none", "--force");
    expect(again.stdout).not.toContain(".git");
  });

  it("refuses a folder that is not empty (exit 2, nothing changed); --force replaces its files, keeping what they held as .orig, and keeps the others", async () => {
    const dir = scratchDir("scaffold-refuse");
    writeFileSync(join(dir, "notes.txt"), "mine\n");
    writeFileSync(join(dir, "README.md"), "my readme\n");
    const before = statSync(join(dir, "README.md")).mtimeMs;
    const refused = await cli("scaffold", dir, ...SPEC, "draft,2025-11-25");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `error MCG410: ${dir} is not empty; choose an empty folder, or pass --force to overwrite the scaffold's files in it\n1 error; nothing was written\n`,
    );
    expect(listFiles(dir)).toEqual(["README.md", "notes.txt"]);
    expect(statSync(join(dir, "README.md")).mtimeMs).toBe(before);
    const forced = await cli("scaffold", dir, ...SPEC, "draft,2025-11-25", "--force", "--name", "forced");
    expect(forced.code).toBe(0);
    // Only files that were there with other contents are listed as replaced.
    expect(forced.stdout.split("\n").filter((l) => l.startsWith("replaced: "))).toEqual([
      `replaced: ${join(dir, "README.md")} (what was there is kept as ${join(dir, "README.md.orig")})`,
    ]);
    expect(readFileSync(join(dir, "notes.txt"), "utf8")).toBe("mine\n");
    expect(readFileSync(join(dir, "README.md"), "utf8")).toMatch(/^# forced\n/);
    expect(readFileSync(join(dir, "README.md.orig"), "utf8")).toBe("my readme\n");
    expect(listFiles(dir)).toHaveLength(46);
    expect(forced.stdout).toContain(`${dir}: 43 files written, 1 replaced, 0 unchanged (package forced)\n`);
    // Edited handlers are kept too (helper-100: --force lost them), beside the first backup's name when that is taken.
    const handlers = join(dir, "src/handlers.ts");
    writeFileSync(handlers, readFileSync(handlers, "utf8") + "// mine\n");
    writeFileSync(join(dir, "src/handlers.ts.orig"), "an older backup\n");
    const edited = await cli("scaffold", dir, ...SPEC, "draft,2025-11-25", "--force", "--name", "forced");
    expect(edited.stdout).toContain(`replaced: ${handlers} (what was there is kept as ${handlers}.orig.1)\n`);
    expect(readFileSync(`${handlers}.orig.1`, "utf8")).toMatch(/\/\/ mine\n$/);
    expect(readFileSync(`${handlers}.orig`, "utf8")).toBe("an older backup\n");
    expect(readFileSync(handlers, "utf8")).not.toContain("// mine");
    // Generated files are the generator's: replaced without a backup.
    const types = join(dir, "src/generated/types.ts");
    writeFileSync(types, "// edited\n");
    const regenerated = await cli("scaffold", dir, ...SPEC, "draft,2025-11-25", "--force", "--name", "forced");
    expect(regenerated.stdout).toContain(`replaced: ${types}\n`);
    expect(existsSync(`${types}.orig`)).toBe(false);
    // A file with the same contents is left as it is, and said to be unchanged.
    const typesPath = join(dir, "src/generated/types.ts");
    const typesWritten = statSync(typesPath).mtimeMs;
    writeFileSync(join(dir, "package.json"), "{}\n");
    const again = await cli("scaffold", dir, ...SPEC, "draft,2025-11-25", "--force", "--name", "forced");
    expect(again.stdout).toContain(`${dir}: 0 files written, 1 replaced, 43 unchanged (package forced)\n`);
    expect(statSync(typesPath).mtimeMs).toBe(typesWritten);
    // Written into the current folder: the next step needs no cd.
    const home = process.cwd();
    process.chdir(dir);
    try {
      const here = await cli("scaffold", ".", ...SPEC, "draft,2025-11-25", "--force", "--name", "forced");
      expect(here.stdout).toMatch(/\nnext: npm install && npm test\n$/);
    } finally {
      process.chdir(home);
    }
  });

  it("with --force, refuses (changing nothing) a project path that is in the way: a folder where a file goes, a symbolic link", async () => {
    const dir = scratchDir("scaffold-in-the-way");
    expect((await cli("scaffold", join(dir, "p"), ...SPEC, "draft,2025-11-25", "--docs", "none")).code).toBe(0);
    const project = join(dir, "p");
    writeFileSync(join(project, "package.json"), "mine\n");
    rmSync(join(project, "src", "handlers.ts"));
    mkdirSync(join(project, "src", "handlers.ts"));
    const folder = await cli("scaffold", project, ...SPEC, "draft,2025-11-25", "--docs", "none", "--force");
    expect(folder.code).toBe(2);
    expect(folder.stderr).toBe(`error MCG410: ${join(project, "src", "handlers.ts")} is a folder, where the scaffold writes a file; move it away first\n1 error; nothing was written\n`);
    expect(readFileSync(join(project, "package.json"), "utf8")).toBe("mine\n");
    rmSync(join(project, "src", "handlers.ts"), { recursive: true });
    mkdirSync(join(dir, "outside"));
    rmSync(join(project, "test"), { recursive: true });
    symlinkSync(join(dir, "outside"), join(project, "test"), "dir");
    const link = await cli("scaffold", project, ...SPEC, "draft,2025-11-25", "--docs", "none", "--force");
    expect(link.code).toBe(2);
    expect(link.stderr).toContain(`error MCG410: ${join(project, "test")} is a symbolic link, where the scaffold writes a folder`);
    expect(readdirSync(join(dir, "outside"))).toEqual([]);
  });

  it("fills an existing empty folder in place (same folder, same mode), and removes folders killed runs left beside it", async () => {
    const dir = scratchDir("scaffold-empty");
    const project = join(dir, "p");
    mkdirSync(project, { mode: 0o750 });
    const before = statSync(project);
    mkdirSync(join(dir, "p.scaffold-999999999"));
    writeFileSync(join(dir, "p.scaffold-999999999", "half.ts"), "");
    expect((await cli("scaffold", project, ...SPEC, "draft,2025-11-25", "--docs", "none")).code).toBe(0);
    const after = statSync(project);
    expect([after.ino, after.mode]).toEqual([before.ino, before.mode]);
    expect(readdirSync(dir)).toEqual(["p"]);
    expect(listFiles(project)).toHaveLength(44);
  });

  it("refuses a schema of a revision before the stateless one (MCG411), a bad package name (MCG412), and writes nothing", async () => {
    const parent = scratchDir("scaffold-refuse-schema");
    const old = await cli("scaffold", join(parent, "old"), ...SPEC, "2025-11-25");
    expect(old.code).toBe(2);
    expect(old.stderr).toMatch(/^error MCG411: scaffold needs a schema of a stateless protocol revision .*; this schema is 2025-11-25, and its request _meta has no required io\.modelcontextprotocol\/protocolVersion\. Use generate for it\.\n/);
    // A schema without LATEST_PROTOCOL_VERSION is read with the newest rules; the message says what it lacks, not a version it does not have.
    const bareSchema = join(scratchDir("scaffold-refuse-bare"), "bare.ts");
    writeFileSync(bareSchema, "export interface Request {\n  method: string;\n  params?: { _meta?: { [key: string]: unknown } };\n}\n");
    const bare = await cli("scaffold", join(parent, "bare"), "--schema", bareSchema, "--eras", "modern");
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/^error MCG411: .*; this schema declares no LATEST_PROTOCOL_VERSION, and its request _meta has no required io\.modelcontextprotocol\/protocolVersion\./);
    // Without --eras modern no legacy schema is beside it either; the schema's own revision is what is wrong, so that is the error (not MCG413).
    const bareDual = await cli("scaffold", join(parent, "bare-dual"), "--schema", bareSchema);
    expect(bareDual.code).toBe(2);
    expect(bareDual.stderr).toMatch(/^error MCG411: .*; this schema declares no LATEST_PROTOCOL_VERSION/);
    const named = await cli("scaffold", join(parent, "named"), ...SPEC, "draft", "--name", "Bad Name");
    expect(named.code).toBe(2);
    expect(named.stderr).toMatch(/^error MCG412: --name "Bad Name" is not an npm package name/);
    for (const reserved of ["http", "node_modules", "favicon.ico"]) {
      const refused = await cli("scaffold", join(parent, "named"), ...SPEC, "draft", "--name", reserved);
      expect(refused.stderr).toMatch(/^error MCG412: --name ".*" is a name npm refuses/);
    }
    for (const bad of ["@Acme/x", "@acme/", "@/x", "@acme", "@acme/x/y", "x".repeat(215)]) {
      const refused = await cli("scaffold", join(parent, "named"), ...SPEC, "draft", "--name", bad);
      expect(refused.stderr, bad).toMatch(/^error MCG412: --name ".*" is not an npm package name: .*, with an optional @scope\/ in front\n/);
    }
    const missing = await cli("scaffold", join(parent, "missing"));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^error MCG001: missing input/);
    expect(readdirSync(parent)).toEqual([]);
  });

  it("takes a scoped package name (helper-53): in package.json and the server's name", async () => {
    const dir = join(scratchDir("scaffold-scoped"), "p");
    const { code, stdout } = await cli("scaffold", dir, ...SPEC, "draft", "--eras", "modern", "--docs", "none", "--name", "@acme/weather");
    expect(code).toBe(0);
    expect(stdout).toContain("(package @acme/weather)");
    expect((JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name: string }).name).toBe("@acme/weather");
    expect(readFileSync(join(dir, "src", "server-info.ts"), "utf8")).toContain('name: "@acme/weather"');
  });

  it("--eras modern writes today's single-revision project (and its configuration keeps it so)", async () => {
    const dir = join(scratchDir("scaffold-modern"), "p");
    const { code, stdout } = await cli("scaffold", dir, ...SPEC, "draft", "--eras", "modern", "--docs", "tags");
    expect(code).toBe(0);
    expect(stdout).toContain("30 files written");
    expect(readFileSync(join(dir, "README.md"), "utf8")).toMatch(/It accepts\s+POST only: GET and DELETE are answered 405/);
    expect(listFiles(join(dir, "src", "generated")).filter((f) => !f.startsWith("runtime/"))).toEqual([
      "codegen-manifest.json",
      "dispatch.ts",
      "errors.ts",
      "index.ts",
      "meta.ts",
      "methods.ts",
      "types.ts",
      "validators.ts",
    ]);
    expect(JSON.parse(readFileSync(join(dir, "mcp-schema-codegen.config.json"), "utf8"))).toEqual({
      outputs: [{ input: { spec: SPEC_DIR, version: "draft" }, out: "src/generated", options: { docs: "tags", transports: "node" } }],
    });
    const check = await cli("generate", "--config", join(dir, "mcp-schema-codegen.config.json"), "--check");
    expect([check.code, check.stderr]).toEqual([0, ""]);
    // The same bytes as generate writes from the one schema.
    const same = await cli("generate", ...SPEC, "draft", "--out", join(dir, "src", "generated"), "--transports", "node", "--docs", "tags", "--check");
    expect(same.code).toBe(0);
    // A modern-only server answers a legacy client's initialize with -32022 naming the versions it serves (issue 11, item 5).
    buildWithRepoModules(dir);
    const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } } };
    const served = spawnSync(process.execPath, [join(dir, "dist", "src", "main.js")], { input: `${JSON.stringify(initialize)}\n`, encoding: "utf8", timeout: 20_000 });
    expect(JSON.parse(served.stdout.trim())).toMatchObject({ id: 1, error: { code: -32022, data: { supported: ["2026-07-28"] } } });
  });

  it("names a schema file or spec folder inside the project relative to its configuration, one outside by its absolute path; a moved project still regenerates (helper-114)", async () => {
    const parent = scratchDir("scaffold-relative");
    const home = process.cwd();
    process.chdir(parent);
    try {
      // A vendored schema of each era in the project, and a spec folder in another, named from the current folder as a user types them.
      for (const [at, version] of [["srv/vendor", "draft"], ["srv/vendor", "2025-11-25"], ["specs/spec/schema", "draft"]] as const) {
        mkdirSync(join(at, version), { recursive: true });
        copyFileSync(join(SPEC_DIR, "schema", version, "schema.ts"), join(at, version, "schema.ts"));
      }
      const inputOf = (project: string) => (JSON.parse(readFileSync(join(project, "mcp-schema-codegen.config.json"), "utf8")) as { outputs: { input: unknown }[] }).outputs[0]!.input;
      expect((await cli("scaffold", "srv", "--schema", "srv/vendor/draft/schema.ts", "--docs", "none", "--force")).code).toBe(0);
      expect(inputOf("srv")).toEqual([{ schema: "vendor/draft/schema.ts" }, { schema: "vendor/2025-11-25/schema.ts" }]);
      expect((await cli("scaffold", "specs", "--spec", "specs/spec", "--spec-version", "draft", "--eras", "modern", "--docs", "none", "--force")).code).toBe(0);
      expect(inputOf("specs")).toEqual({ spec: "spec", version: "draft" });
      // Outside the project, given relative to the current folder: absolute (the project may move, the checkout stays).
      expect((await cli("scaffold", "outside", "--spec", relative(parent, SPEC_DIR), "--spec-version", "draft", "--eras", "modern", "--docs", "none")).code).toBe(0);
      expect(inputOf("outside")).toEqual({ spec: SPEC_DIR, version: "draft" });
      // The schema named through a link to the parent folder is still inside the project (helper-116: absolute, and lost when moved).
      symlinkSync(parent, "linked");
      expect((await cli("scaffold", "srv", "--schema", join(parent, "linked", "srv", "vendor", "draft", "schema.ts"), "--docs", "none", "--force")).code).toBe(0);
      expect(inputOf("srv")).toEqual([{ schema: "vendor/draft/schema.ts" }, { schema: "vendor/2025-11-25/schema.ts" }]);
      // Moved (as a clone elsewhere would be): each project's check reads the copies that moved with it.
      mkdirSync("elsewhere");
      for (const project of ["srv", "specs"]) {
        renameSync(project, join("elsewhere", project));
        const check = await cli("generate", "--config", join(parent, "elsewhere", project, "mcp-schema-codegen.config.json"), "--check");
        expect([check.code, check.stderr]).toEqual([0, ""]);
      }
    } finally {
      process.chdir(home);
    }
  });

  it("names a spec folder given through a link inside the project relative to the project, so the moved project still reads it through its link", async () => {
    const parent = scratchDir("scaffold-link-inside");
    mkdirSync(join(parent, "specs", "spec", "schema", "draft"), { recursive: true });
    copyFileSync(join(SPEC_DIR, "schema", "draft", "schema.ts"), join(parent, "specs", "spec", "schema", "draft", "schema.ts"));
    mkdirSync(join(parent, "srv"));
    // A relative link in the project to a checkout beside it: it moves with the project and still names the checkout.
    symlinkSync(join("..", "specs", "spec"), join(parent, "srv", "spec"), "dir");
    expect((await cli("scaffold", join(parent, "srv"), "--spec", join(parent, "srv", "spec"), "--spec-version", "draft", "--eras", "modern", "--docs", "none", "--force")).code).toBe(0);
    const config = JSON.parse(readFileSync(join(parent, "srv", "mcp-schema-codegen.config.json"), "utf8")) as { outputs: { input: unknown }[] };
    expect(config.outputs[0]!.input).toEqual({ spec: "spec", version: "draft" });
    mkdirSync(join(parent, "elsewhere"));
    renameSync(join(parent, "srv"), join(parent, "elsewhere", "srv"));
    symlinkSync(join("..", "specs"), join(parent, "elsewhere", "specs"), "dir");
    const check = await cli("generate", "--config", join(parent, "elsewhere", "srv", "mcp-schema-codegen.config.json"), "--check");
    expect([check.code, check.stderr]).toEqual([0, ""]);
  });

  it("refuses (MCG001, nothing written) a schema path holding ${, which the project's configuration would read as a variable", async () => {
    const parent = scratchDir("scaffold-dollar");
    const spec = join(parent, "d${HOME}", "spec");
    mkdirSync(join(spec, "schema", "draft"), { recursive: true });
    copyFileSync(join(SPEC_DIR, "schema", "draft", "schema.ts"), join(spec, "schema", "draft", "schema.ts"));
    const bySpec = await cli("scaffold", join(parent, "p"), "--spec", spec, "--spec-version", "draft", "--eras", "modern");
    expect([bySpec.code, bySpec.stderr]).toEqual([2, `error MCG001: --spec ${spec}: the project's mcp-schema-codegen.config.json would read the \${…} in this path as an environment variable, and cannot name it as it is; give the path another way (a link to it whose path has no "\${")\n1 error; nothing was written\n`]);
    const bySchema = await cli("scaffold", join(parent, "p"), "--schema", join(spec, "schema", "draft", "schema.ts"), "--eras", "modern");
    expect(bySchema.code).toBe(2);
    expect(bySchema.stderr).toContain("error MCG001: --schema ");
    expect(readdirSync(parent)).toEqual(["d${HOME}"]);
  });

  it("takes both schemas given explicitly (--spec-version draft,2025-11-25, or two --schema), and refuses --eras modern with two", async () => {
    const parent = scratchDir("scaffold-explicit");
    const listed = await cli("scaffold", join(parent, "listed"), ...SPEC, "draft,2025-11-25", "--docs", "none");
    expect(listed.code).toBe(0);
    const schemas = ["draft", "2025-11-25"].flatMap((v) => ["--schema", join(SPEC_DIR, "schema", v, "schema.ts")]);
    const twice = await cli("scaffold", join(parent, "schemas"), ...schemas, "--docs", "none", "--eras", "modern,legacy");
    expect(twice.code).toBe(0);
    expect(readdirSync(join(parent, "schemas", "src", "generated")).filter((f) => /^\d/.test(f)).sort()).toEqual(["2025-11-25", "2026-07-28"]);
    const refused = await cli("scaffold", join(parent, "refused"), ...schemas, "--eras", "modern");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe("error MCG001: --eras modern serves one schema; 2 were given\n1 error; nothing was written\n");
    expect(readdirSync(parent).sort()).toEqual(["listed", "schemas"]);
  });

  it("refuses (MCG413, exit 2, nothing written) when the legacy schema is not beside the modern one and --eras modern is not given", async () => {
    const parent = scratchDir("scaffold-no-legacy");
    const spec = join(parent, "spec");
    mkdirSync(join(spec, "schema", "draft"), { recursive: true });
    writeFileSync(join(spec, "schema", "draft", "schema.ts"), readFileSync(join(SPEC_DIR, "schema", "draft", "schema.ts")));
    const bySpec = await cli("scaffold", join(parent, "p"), "--spec", spec, "--spec-version", "draft");
    expect(bySpec.code).toBe(2);
    expect(bySpec.stderr).toBe(
      `error MCG413: scaffold serves both eras by default and needs the 2025-11-25 schema for clients that open with initialize; it is not at ${join(spec, "schema", "2025-11-25", "schema.ts")}. ` +
        "Give it (--spec-version <modern>,2025-11-25, or a second --schema), or pass --eras modern for a modern-only server\n1 error; nothing was written\n",
    );
    const bySchema = await cli("scaffold", join(parent, "p"), "--schema", join(spec, "schema", "draft", "schema.ts"));
    expect(bySchema.code).toBe(2);
    expect(bySchema.stderr).toContain(`it is not at ${join(spec, "schema", "2025-11-25", "schema.ts")}.`);
    expect(readdirSync(parent)).toEqual(["spec"]);
    const modern = await cli("scaffold", join(parent, "p"), "--spec", spec, "--spec-version", "draft", "--eras", "modern");
    expect(modern.code).toBe(0);
  });

  it("documents itself in --help with its exit codes", async () => {
    const { code, stdout } = await cli("scaffold", "--help");
    expect(code).toBe(0);
    for (const flag of ["--schema", "--spec", "--spec-version", "--eras", "--name", "--example", "--force", "--docs"]) expect(stdout).toContain(flag);
    expect(stdout).toContain("By default the server is dual-era");
    expect(stdout).toContain("Exit codes: 0 success, 2 error");
  });
});

describe("the scaffold's test script", () => {
  // `node --test dist/test/` reads the folder as a file on Node 22 and later; the script must
  // find the compiled tests on every Node from 20 up. Run as npm runs it (sh -c), on a stand-in
  // dist/test, under the machine's Node and the pinned 22 and 24.
  const nodes: [string, string][] = [["this Node", process.execPath], ...Object.entries(PINNED_NODES).map(([m, p]): [string, string] => [`Node ${m}`, p])];
  it.each(nodes)("runs the compiled tests under %s", async (_label, node) => {
    const dir = join(scratchDir("scaffold-test-script"), _label.replace(/\s/g, "-"));
    expect((await cli("scaffold", dir, ...SPEC, "draft", "--docs", "none")).code).toBe(0);
    const script = (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { scripts: { test: string } }).scripts.test;
    const [build, run] = script.split(" && ");
    expect(build).toBe("npm run build");
    mkdirSync(join(dir, "dist", "test"), { recursive: true });
    writeFileSync(join(dir, "dist", "test", "server.test.js"), 'import test from "node:test";\ntest("stand-in", () => {});\n');
    const result = spawnSync("sh", ["-c", run!], { cwd: dir, encoding: "utf8", env: { ...process.env, PATH: `${dirname(node)}:${process.env.PATH}` } });
    expect(result.stdout + result.stderr).toMatch(/^(# |ℹ )pass 1$/m);
    expect(result.status).toBe(0);
  });
});

describe("a scaffolded project", () => {
  it("installs with npm, builds, and passes its own tests (stdio and HTTP)", { timeout: 240_000 }, async () => {
    const dir = join(scratchDir("scaffold-npm"), "server");
    expect((await cli("scaffold", dir, ...SPEC, "draft", "--docs", "tags")).code).toBe(0);
    // The README's commands; the npm cache serves the two pinned devDependencies when it has them.
    const install = spawnSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund"], { cwd: dir, encoding: "utf8" });
    expect(install.status, install.stderr).toBe(0);
    const test = spawnSync("npm", ["test"], { cwd: dir, encoding: "utf8" });
    expect(test.status, test.stdout + test.stderr).toBe(0);
    expect(test.stdout).toMatch(/^# pass 13$/m);
    expect(test.stdout).toMatch(/^# fail 0$/m);
    // The tests' client names itself though 2026-07-28 no longer requires it (clients SHOULD): a handler reading
    // context.clientInfo got undefined after a spec update (helper-137).
    const read = spawnSync(process.execPath, ["--input-type=module", "-e", 'const { meta } = await import("./dist/test/client.js"); console.log(JSON.stringify(meta));'], { cwd: dir, encoding: "utf8" });
    expect(JSON.parse(read.stdout.split("\n")[0]!)).toEqual({
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": { name: "test", version: "1" },
    });
  });

  it("passes its own HTTP tests when its server writes a line to stderr before the one saying where it listens; one that ends first fails them, and they end (a banner made them stop on it and wait forever)", { timeout: 240_000 }, async () => {
    const dir = join(scratchDir("scaffold-stderr-banner"), "server");
    expect((await cli("scaffold", dir, ...SPEC, "draft", "--eras", "modern", "--docs", "none")).code).toBe(0);
    const main = join(dir, "src", "main.ts");
    const source = readFileSync(main, "utf8");
    expect(source).toContain("\nconst args = commandLine();");
    writeFileSync(main, source.replace("\nconst args = commandLine();", '\nprocess.stderr.write("notes-server starting\\n");\nconst args = commandLine();'));
    buildWithRepoModules(dir);
    const run = () => spawnSync(process.execPath, ["--test", "dist/test/server.test.js"], { cwd: dir, encoding: "utf8", timeout: 60_000 });
    const banner = run();
    expect(banner.status, banner.stdout + banner.stderr).toBe(0);
    expect(banner.stdout).toMatch(/^# fail 0$/m);
    // A server that exits before it listens: the tests fail, naming what it wrote, and the run ends.
    writeFileSync(join(dir, "dist", "src", "main.js"), 'process.stderr.write("no port for you\\n");\nprocess.exit(1);\n');
    const ended = run();
    expect(ended.signal).toBeNull();
    expect(ended.status).toBe(1);
    expect(ended.stdout).toContain("the server ended before it said where it listens");
    expect(ended.stdout).toContain("no port for you");
  });

  it("with --example conformance, passes its own tests too: they check that example's handlers, not the default ones", { timeout: 240_000 }, async () => {
    const dir = join(scratchDir("scaffold-npm-conformance"), "server");
    expect((await cli("scaffold", dir, ...SPEC, "draft", "--example", "conformance", "--docs", "tags")).code).toBe(0);
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
    const test = spawnSync("npm", ["test"], { cwd: dir, encoding: "utf8" });
    expect(test.status, test.stdout + test.stderr).toBe(0);
    expect(test.stdout).toMatch(/^# pass 13$/m);
    expect(test.stdout).toMatch(/^# fail 0$/m);
    expect(readFileSync(join(dir, "test", "example.test.ts"), "utf8")).toContain("test_simple_text");
    expect(readFileSync(join(dir, "README.md"), "utf8")).toContain("holds the `conformance` example");
  });
});

describe("a project scaffolded from the 2026-07-13 draft (clientInfo required in every request's _meta, serverInfo a property of the discover result)", () => {
  it("passes its own tests, shows a discover request that draft takes, and serves the SDK v2 client (helper-85: 4 of 10 failed, and the client could not discover)", { timeout: 240_000 }, async () => {
    const dir = join(scratchDir("scaffold-2026-07-13"), "server");
    const schema = join(SPEC_DIR_2026_07_13, "schema", "draft", "schema.ts");
    expect((await cli("scaffold", dir, "--schema", schema, "--eras", "modern", "--docs", "none")).code).toBe(0);
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
    // A test compiled before and deleted since is not run: the build starts from an empty dist/ (helper-104).
    mkdirSync(join(dir, "dist", "test"), { recursive: true });
    writeFileSync(join(dir, "dist", "test", "deleted.test.js"), 'import { test } from "node:test";\ntest("deleted", () => { throw new Error("stale"); });\n');
    const test = spawnSync("npm", ["test"], { cwd: dir, encoding: "utf8" });
    expect(test.status, test.stdout + test.stderr).toBe(0);
    expect(test.stdout).toMatch(/^# fail 0$/m);
    // The README's request, sent as it is written, is answered with the server's name.
    const readme = readFileSync(join(dir, "README.md"), "utf8");
    const request = /^echo '(\{"jsonrpc":"2\.0","id":1,"method":"server\/discover".*\})' \| node dist\/src\/main\.js$/m.exec(readme)?.[1];
    expect(request).toBeDefined();
    const answered = spawnSync(process.execPath, [join(dir, "dist", "src", "main.js")], { input: request + "\n", encoding: "utf8", timeout: 10_000 });
    expect((JSON.parse(answered.stdout.split("\n")[0]!) as { result?: { serverInfo?: { name?: unknown } } }).result?.serverInfo?.name).toBe("server");
    const http = await startHttpServer(process.execPath, [join(dir, "dist", "src", "main.js"), "--http", "--port", "0"]);
    const client = new ClientV2({ name: "scaffold-test", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    try {
      await client.connect(new HttpV2(new URL(http.url)));
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["echo", "greet"]);
    } finally {
      await client.close();
      await http.stop();
    }
  });
});

describe("conformance (@modelcontextprotocol/conformance, requirement sets 2025-11-25 and 2026-07-28)", () => {
  it("the --example conformance server passes every scored scenario of both sets, one process on one Streamable HTTP endpoint", { timeout: 400_000 }, async () => {
    const dir = join(scratchDir("scaffold-conformance"), "fixture");
    expect((await cli("scaffold", dir, ...SPEC, "draft", "--example", "conformance", "--docs", "tags")).code).toBe(0);
    buildWithRepoModules(dir);
    const shim = join(ROOT, "test", "support", "globsync-shim.mjs");
    const runs = await runConformance(process.execPath, ["--import", shim], join(dir, "dist", "src", "main.js"), join(dir, "results"), ["2025-11-25", "2026-07-28"]);
    for (const [set, scored] of [["2025-11-25", 30], ["2026-07-28", 37]] as const) {
      const run = runs[set];
      if (run === undefined) throw new Error(`no ${set} run`);
      console.log(conformanceLine(`conformance ${set}`, run));
      expect.soft(run.summary.failures, set).toEqual([]);
      expect.soft(run.summary.scored.length, set).toBe(scored);
      expect.soft(run.summary.scored.filter((s) => !s.ok).map((s) => s.name), set).toEqual([]);
      expect.soft(run.exitCode, set).toBe(0);
    }
  });
});
