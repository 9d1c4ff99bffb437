/**
 * A scaffold into an empty folder moves the entries of the copy it built into it one by one: an
 * interrupt (Ctrl-C, SIGTERM) meanwhile takes effect once they are all in (it left the folder half
 * filled, refused after as not empty, and the rest beside it, which `--force` never removed).
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { scratchDir } from "./support/corpus.js";
import { writeScaffold } from "../generator/scaffold/index.js";

/** The SIGINT listeners there were at each rename. */
const atRename: number[] = [];

vi.mock("node:fs", async (importOriginal) => {
  const original = await importOriginal<typeof import("node:fs")>();
  return {
    ...original,
    renameSync: (from: string, to: string) => {
      atRename.push(process.listenerCount("SIGINT"));
      original.renameSync(from, to);
    },
  };
});

const FILES = [
  { path: "README.md", contents: "# p\n" },
  { path: "package.json", contents: "{}\n" },
  { path: "src/handlers.ts", contents: "// handlers\n" },
];

describe("scaffold and interrupts", () => {
  it("holds SIGINT while an empty folder gets the project's entries", async () => {
    const project = join(scratchDir("scaffold-signals"), "p");
    mkdirSync(project);
    const before = process.listenerCount("SIGINT");
    atRename.length = 0;
    writeScaffold(project, FILES, false);
    expect(readdirSync(project).sort()).toEqual(["README.md", "package.json", "src"]);
    expect(atRename).toHaveLength(3);
    expect(atRename.every((n) => n > before)).toBe(true);
    // Released two turns of the event loop later, as a generate write's.
    await new Promise((resolve) => setImmediate(() => setImmediate(() => setImmediate(resolve))));
    expect(process.listenerCount("SIGINT")).toBe(before);
  });

  it("--force removes a folder a killed run left beside the project", () => {
    const dir = scratchDir("scaffold-signals-force");
    const project = join(dir, "p");
    mkdirSync(project);
    writeFileSync(join(project, "README.md"), "# mine\n");
    mkdirSync(join(dir, "p.scaffold-999999999", "src"), { recursive: true });
    writeScaffold(project, FILES, true);
    expect(existsSync(join(dir, "p.scaffold-999999999"))).toBe(false);
    expect(readdirSync(dir)).toEqual(["p"]);
  });
});
