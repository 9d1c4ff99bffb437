import { defineConfig } from "vitest/config";
import SummaryReporter from "./test/support/summary-reporter.js";

/**
 * The CI suite (`npm run test:ci`, run by `.ci/run` after `npm test`): the packed package
 * installed and run, and scaffolded projects under the pinned Node 22 and 24. Slower than
 * `npm test` (vitest.config.ts), which leaves test/ci/ out.
 */
export default defineConfig({
  test: {
    include: ["test/ci/**/*.test.ts"],
    testTimeout: 300_000,
    hookTimeout: 600_000,
    pool: "forks",
    globalSetup: ["test/support/global-setup.ts", "test/support/install-nodes.ts"],
    reporters: ["default", new SummaryReporter()],
  },
});
