/** The README's usage example, which tests run and compile. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./corpus.js";

/** The ```ts block after the `<!-- usage-example -->` marker in README.md. */
export function readmeUsageExample(): string {
  return readmeExample("usage-example");
}

/** The ```ts block after the `<!-- <marker> -->` comment in README.md. */
export function readmeExample(marker: string): string {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const at = readme.indexOf(`<!-- ${marker} -->`);
  const match = at < 0 ? null : /^\s*```ts\n([\s\S]*?)```/.exec(readme.slice(at + marker.length + 9));
  if (!match?.[1]) throw new Error(`README.md has no \`\`\`ts block after <!-- ${marker} -->`);
  return match[1];
}
