/** Reading a run of the official conformance suite (@modelcontextprotocol/conformance). */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./corpus.js";
import { startHttpServer } from "./servers.js";

/** Scenario counts of a conformance run: scored ones from its summary, checks from its `checks.json` files. */
export function conformanceSummary(stdout: string, resultsDir: string) {
  const summary = stdout.slice(stdout.indexOf("=== SUMMARY ==="));
  const scenarios = [...summary.matchAll(/^([✓✗]) (\S+): (\d+) passed, (\d+) failed$/gm)].map((m) => ({
    name: m[2]!,
    ok: m[1] === "✓",
  }));
  const notScored = new Set([...summary.matchAll(/^ {2}[✓✗] (\S+) \(/gm)].map((m) => m[1]!));
  const scored = scenarios.filter((s) => !notScored.has(s.name));
  const checks = { success: 0, failure: 0, warning: 0 };
  const failures: string[] = [];
  for (const entry of readdirSync(resultsDir)) {
    const name = /^server-(.+)-\d{4}-\d{2}-\d{2}T/.exec(entry)?.[1];
    if (name === undefined || notScored.has(name)) continue;
    const list = JSON.parse(readFileSync(join(resultsDir, entry, "checks.json"), "utf8")) as { id: string; status: string; errorMessage?: string }[];
    for (const check of list) {
      if (check.status === "SUCCESS") checks.success++;
      if (check.status === "WARNING") checks.warning++;
      if (check.status === "FAILURE") {
        checks.failure++;
        failures.push(`${name}:${check.id}: ${check.errorMessage ?? ""}`);
      }
    }
  }
  return { scored, notScored: [...notScored], checks, failures };
}

/** The requirement sets the suite knows (`conformance list --requirements`): one per spec revision, frozen at its release. */
export type Requirements = "2025-11-25" | "2026-07-28";

/** One requirement set's run: its summary and the suite's exit code. */
export interface ConformanceRun {
  readonly summary: ReturnType<typeof conformanceSummary>;
  readonly exitCode: number;
}

/** Per-run bound: the suite's own per-scenario timeout is 30 s, and a run has some 40 scenarios. */
const RUN_TIMEOUT_MS = 240_000;

/**
 * Runs the conformance suite's server scenarios for `requirements` against `url` with `node`
 * and `nodeArgs` (the globsync shim on Node 20), writing results into `resultsDir`. Killed after
 * {@link RUN_TIMEOUT_MS}.
 */
export async function runConformanceSuite(
  node: string,
  nodeArgs: readonly string[],
  url: string,
  requirements: Requirements,
  resultsDir: string,
): Promise<ConformanceRun> {
  mkdirSync(resultsDir, { recursive: true });
  const suite = join(ROOT, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
  const child = spawn(node, [...nodeArgs, suite, "server", "--url", url, "--requirements", requirements, "-o", resultsDir], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stdout += d.toString()));
  const timer = setTimeout(() => child.kill("SIGKILL"), RUN_TIMEOUT_MS);
  const [exitCode] = (await once(child, "exit")) as [number | null];
  clearTimeout(timer);
  if (exitCode === null) throw new Error(`conformance --requirements ${requirements} did not finish within ${RUN_TIMEOUT_MS} ms:\n${stdout}`);
  return { summary: conformanceSummary(stdout, resultsDir), exitCode };
}

/**
 * Starts ONE built scaffolded server process (`mainJs`) over HTTP on a free 127.0.0.1 port with
 * `node`, runs the conformance suite's server scenarios for each of `requirements` in turn
 * against its one endpoint (results in `resultsDir/<requirements>`), and stops the server.
 * Answers each set's summary and the suite's exit code.
 */
export async function runConformance(
  node: string,
  nodeArgs: readonly string[],
  mainJs: string,
  resultsDir: string,
  requirements: readonly Requirements[] = ["2026-07-28"],
): Promise<Record<Requirements, ConformanceRun | undefined>> {
  const server = await startHttpServer(node, [mainJs, "--http", "--port", "0"]);
  try {
    const runs: Record<Requirements, ConformanceRun | undefined> = { "2025-11-25": undefined, "2026-07-28": undefined };
    for (const set of requirements) runs[set] = await runConformanceSuite(node, nodeArgs, server.url, set, join(resultsDir, set));
    return runs;
  } finally {
    await server.stop();
  }
}

/** One line for the test log: a run's scored scenarios and checks. */
export function conformanceLine(label: string, run: ConformanceRun): string {
  const { summary } = run;
  const passed = summary.scored.filter((s) => s.ok).length;
  return (
    `${label}: ${passed}/${summary.scored.length} scored scenarios pass; scored checks ${summary.checks.success} passed, ` +
    `${summary.checks.failure} failed, ${summary.checks.warning} warnings; not scored: ${summary.notScored.length} (${summary.notScored.join(", ")})` +
    (summary.failures.length === 0 ? "" : `\n  failures:\n    ${summary.failures.join("\n    ")}`)
  );
}
