import { defineConfig } from "vitest/config";
import SummaryReporter from "./test/support/summary-reporter.js";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The spec corpus: $MCP_SPEC_DIR when it exists, else the revisions of mcp-spec.lock.json, fetched once into the cache.
    globalSetup: ["test/support/global-setup.ts"],
    // Scaffolded projects written into test/.tmp carry their own node:test files.
    exclude: ["test/.tmp/**", "**/node_modules/**"],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: "forks",
    reporters: ["default", new SummaryReporter()],
  },
});
