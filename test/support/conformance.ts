/** Reading a run of the official conformance suite (@modelcontextprotocol/conformance). */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { ROOT } from "./corpus.js";

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

/**
 * Starts a built scaffolded server (`mainJs`) over HTTP on a free 127.0.0.1 port with `node`,
 * runs the conformance suite's server scenarios (`--requirements 2026-07-28`) against it with
 * `node` and `nodeArgs` (the globsync shim on Node 20), writing results into `resultsDir`, and
 * stops the server. Answers the run's summary and the suite's exit code.
 */
export async function runConformance(
  node: string,
  nodeArgs: readonly string[],
  mainJs: string,
  resultsDir: string,
): Promise<{ summary: ReturnType<typeof conformanceSummary>; exitCode: number }> {
  const server = spawn(node, [mainJs, "--http", "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] });
  try {
    const [line] = (await once(createInterface({ input: server.stderr }), "line")) as [string];
    const url = /listening on (\S+)/.exec(line)?.[1];
    if (url === undefined) throw new Error(`the server did not say where it listens: ${line}`);
    mkdirSync(resultsDir);
    const suite = join(ROOT, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
    const child = spawn(node, [...nodeArgs, suite, "server", "--url", url, "--requirements", "2026-07-28", "-o", resultsDir], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stdout += d.toString()));
    const [exitCode] = (await once(child, "exit")) as [number];
    return { summary: conformanceSummary(stdout, resultsDir), exitCode };
  } finally {
    server.kill();
  }
}
