import { defineConfig } from "vitest/config";
import SummaryReporter from "./test/support/summary-reporter.js";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Scaffolded projects written into test/.tmp carry their own node:test files.
    // test/ci/ is the slower CI suite (vitest.ci.config.ts, `npm run test:ci`).
    exclude: ["test/.tmp/**", "**/node_modules/**", "test/ci/**"],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: "forks",
    // Before any test file runs: the spec corpus ($MCP_SPEC_DIR when it exists, else the revisions of
    // mcp-spec.lock.json, fetched once into the cache), and the pinned Node 22 and 24 binaries (.ci/nodes).
    globalSetup: ["test/support/global-setup.ts", "test/support/install-nodes.ts"],
    reporters: ["default", new SummaryReporter()],
  },
});
