/**
 * vitest global setup: installs the pinned Node.js 22 and 24 binaries (`.ci/nodes`, from its
 * lock file, preferring npm's cache) before any test runs, once, so that test files running in
 * parallel never install them at the same time. A failed install fails the run loudly.
 */
import { spawnSync } from "node:child_process";
import { NODES_DIR, pinnedNodesInstalled } from "./node-versions.js";

export default function setup(): void {
  if (pinnedNodesInstalled()) return;
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const result = spawnSync(npm, ["ci", "--prefer-offline", "--no-audit", "--no-fund"], { cwd: NODES_DIR, encoding: "utf8" });
  if (result.status !== 0 || !pinnedNodesInstalled()) {
    throw new Error(`installing the pinned Node binaries in ${NODES_DIR} failed (npm ci): ${result.stdout}${result.stderr}`);
  }
}
