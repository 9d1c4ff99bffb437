/**
 * Generation cost: wall time and peak RSS of our generator beside typescript-json-schema
 * (upstream's tool for `schema.json`) on the same `schema.ts`. Each run is a fresh child
 * process (so module loading and the TypeScript program count for both); runs of the two
 * tools alternate and the median is reported. Peak RSS and CPU time come from `usage-probe.ts`.
 */
import { spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { median } from "./stats.js";

/** One child process run. */
export interface ProcessRun {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly peakRssKiB: number;
  readonly stdout: string;
}

/** Medians over the runs of one tool. */
export interface ToolCost {
  readonly tool: string;
  readonly command: string;
  readonly runs: number;
  readonly wallMs: number;
  /** User + system CPU time (all threads of the process). */
  readonly cpuMs: number;
  readonly peakRssKiB: number;
  /** Time inside `generate()` alone (ours only): excludes Node start-up and module loading. */
  readonly innerMs?: number;
}

export interface GenerationReport {
  readonly ours: ToolCost;
  readonly tjs: ToolCost;
  /** The folder holding our last run's output files. */
  readonly outDir: string;
}

/** typescript-json-schema flags: upstream's `--defaultNumberType integer --required`, plus strict null checks and skipLibCheck. */
export const TJS_FLAGS = [
  "--defaultNumberType",
  "integer",
  "--required",
  "--strictNullChecks",
  "--skipLibCheck",
] as const;

const HERE = dirname(fileURLToPath(import.meta.url));
const PROBE = pathToFileURL(join(HERE, "usage-probe.js")).href;

/** Runs both generators `runs` times each, alternating, on `<specDir>/schema/<version>/schema.ts`. */
export async function measureGeneration(
  specDir: string,
  version: string,
  schemaTs: string,
  tmpDir: string,
  runs: number,
): Promise<GenerationReport> {
  const outDir = join(tmpDir, "generated");
  const oursArgs = [join(HERE, "gen-child.js"), specDir, version, outDir];
  const tjsArgs = [tjsBin(), schemaTs, "*", ...TJS_FLAGS, "-o", join(tmpDir, "tjs-schema.json")];
  const ours: ProcessRun[] = [];
  const tjs: ProcessRun[] = [];
  for (let i = 0; i < runs; i++) {
    ours.push(await runChild(oursArgs, tmpDir));
    tjs.push(await runChild(tjsArgs, tmpDir));
  }
  const inner = ours.map((r) => (JSON.parse(r.stdout) as { generateMs: number }).generateMs);
  return {
    ours: {
      ...summarize("mcp-schema-codegen generate()", "gen-child.js (generate() + write, --docs tags)", ours),
      innerMs: median(inner),
    },
    tjs: summarize("typescript-json-schema", `typescript-json-schema schema.ts "*" ${TJS_FLAGS.join(" ")}`, tjs),
    outDir,
  };
}

/** One untimed run of our generator (for `--only validators`): the folder it wrote. */
export async function generateOnce(specDir: string, version: string, tmpDir: string): Promise<string> {
  const outDir = join(tmpDir, "generated");
  await runChild([join(HERE, "gen-child.js"), specDir, version, outDir], tmpDir);
  return outDir;
}

function summarize(tool: string, command: string, runs: readonly ProcessRun[]): ToolCost {
  return {
    tool,
    command,
    runs: runs.length,
    wallMs: median(runs.map((r) => r.wallMs)),
    cpuMs: median(runs.map((r) => r.cpuMs)),
    peakRssKiB: median(runs.map((r) => r.peakRssKiB)),
  };
}

/** The typescript-json-schema CLI script, resolved from its package.json. */
function tjsBin(): string {
  const require = createRequire(import.meta.url);
  const pkgPath = require.resolve("typescript-json-schema/package.json");
  const pkg = JSON.parse(readFileSync(pkgPath, "utf8")) as { bin: Record<string, string> };
  const bin = pkg.bin["typescript-json-schema"];
  if (bin === undefined) throw new Error(`no typescript-json-schema bin in ${pkgPath}`);
  return join(dirname(pkgPath), bin);
}

/** Runs `node --import usage-probe <args>`; rejects with its stderr when it fails. */
function runChild(args: readonly string[], tmpDir: string): Promise<ProcessRun> {
  const usageFile = join(tmpDir, "usage.json");
  rmSync(usageFile, { force: true });
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, ["--import", PROBE, ...args], {
      env: { ...process.env, BENCH_USAGE_FILE: usageFile },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      const wallMs = performance.now() - start;
      if (code !== 0) {
        reject(new Error(`${args.join(" ")} exited with ${String(code)}:\n${stderr}`));
        return;
      }
      const usage = JSON.parse(readFileSync(usageFile, "utf8")) as { peakRssKiB: number; cpuMs: number };
      resolve({ wallMs, cpuMs: usage.cpuMs, peakRssKiB: usage.peakRssKiB, stdout });
    });
  });
}
