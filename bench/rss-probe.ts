/**
 * Preloaded into a measured child process with `node --import`: when the process exits,
 * writes its peak resident set size (KiB, from getrusage) to the file `$BENCH_RSS_FILE`.
 * Works for any Node program, so both generators are measured the same way.
 */
import { writeFileSync } from "node:fs";

const out = process.env.BENCH_RSS_FILE;
if (out) process.on("exit", () => writeFileSync(out, String(process.resourceUsage().maxRSS)));
