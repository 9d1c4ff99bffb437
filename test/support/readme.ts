/** The README's usage example, which tests run and compile. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./corpus.js";

/** The ```ts block after the `<!-- usage-example -->` marker in README.md. */
export function readmeUsageExample(): string {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const match = /<!-- usage-example -->\s*```ts\n([\s\S]*?)```/.exec(readme);
  if (!match?.[1]) throw new Error("README.md has no ```ts block after <!-- usage-example -->");
  return match[1];
}
