/** Reading a run of the official conformance suite (@modelcontextprotocol/conformance). */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

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
