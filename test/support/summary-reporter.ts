/**
 * A vitest reporter that ends the run with one plain line, `tests: N passed, N failed`
 * (`, N skipped` when some were), which CI logs and other tools can read without knowing
 * vitest's own output.
 */
import type { Reporter, TestModule } from "vitest/node";

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const count = { passed: 0, failed: 0, skipped: 0, suites: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") count.passed++;
        else if (state === "failed") count.failed++;
        else count.skipped++;
      }
      if (module.state() === "failed" && module.children.size === 0) count.failed++;
      // A hook that throws (say a beforeAll that cannot generate a fixture) fails its suite and skips its tests.
      for (const suite of module.children.allSuites()) {
        const testFailed = [...suite.children.allTests()].some((t) => t.result().state === "failed");
        if (suite.state() === "failed" && !testFailed) count.suites++;
      }
    }
    const skipped = count.skipped > 0 ? `, ${count.skipped} skipped` : "";
    const suites = count.suites > 0 ? `; ${count.suites} ${count.suites === 1 ? "suite" : "suites"} failed in a hook` : "";
    process.stdout.write(`\ntests: ${count.passed} passed, ${count.failed} failed${skipped}${suites}\n`);
  }
}
