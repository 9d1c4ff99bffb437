/**
 * The generator's version, read from the package's own package.json so the output
 * header and `--version` always agree with the installed release.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

function readVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const file = join(dir, "package.json");
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string };
      if (pkg.name === "mcp-schema-codegen" && pkg.version) return pkg.version;
    }
    dir = dirname(dir);
  }
  return "0.0.0";
}

export const GENERATOR_VERSION: string = readVersion();
