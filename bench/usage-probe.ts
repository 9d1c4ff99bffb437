/**
 * Preloaded into a measured child process with `node --import`: when the process exits,
 * writes `{ "peakRssKiB", "cpuMs" }` (peak resident set size and user + system CPU time,
 * from getrusage) to the file `$BENCH_USAGE_FILE`. Works for any Node program, so both
 * generators are measured the same way.
 */
import { writeFileSync } from "node:fs";

const out = process.env.BENCH_USAGE_FILE;
if (out) {
  process.on("exit", () => {
    const usage = process.resourceUsage();
    const cpuMs = (usage.userCPUTime + usage.systemCPUTime) / 1000;
    writeFileSync(out, JSON.stringify({ peakRssKiB: usage.maxRSS, cpuMs }));
  });
}
