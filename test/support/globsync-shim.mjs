// Supplies `globSync` to `import … from "fs"` on Node 20 (Node 22 added it), for
// @modelcontextprotocol/conformance, which imports it by name.
//
//   node --import ./test/support/globsync-shim.mjs node_modules/@modelcontextprotocol/conformance/dist/index.js …
//
// Node's built-in ES module facades are fixed at startup, so setting `fs.globSync` is not
// enough: this module registers itself as a resolve/load hook that serves "fs" and "node:fs"
// from a module re-exporting node:fs plus `globSync`. The suite calls it once, as
// `globSync("**/checks.json", { cwd })`; the implementation covers `*`, `**` and `?` in
// relative patterns, with `cwd`, returning relative paths.
import { readdirSync } from "node:fs";
import { register } from "node:module";
import { join, sep } from "node:path";
import { isMainThread } from "node:worker_threads";

const FACADE = "globsync-shim:fs";

if (isMainThread && !globalThis.__mcpGlobSyncShim) {
  globalThis.__mcpGlobSyncShim = true;
  register(import.meta.url);
}

export async function resolve(specifier, context, next) {
  if ((specifier === "fs" || specifier === "node:fs") && context.parentURL !== FACADE) return { url: FACADE, shortCircuit: true };
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (url !== FACADE) return next(url, context);
  const source = [
    'import fs from "node:fs";',
    `import { globSync as shim } from ${JSON.stringify(import.meta.url)};`,
    'export * from "node:fs";',
    "export default fs;",
    'export const globSync = typeof fs.globSync === "function" ? fs.globSync : shim;',
  ].join("\n");
  return { format: "module", source, shortCircuit: true };
}

/** `a/**\/*.json` → a regular expression over `/`-separated relative paths. */
function patternToRegExp(pattern) {
  let re = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "*" && pattern[i + 1] === "*" && pattern[i + 2] === "/") {
      re += "(?:[^/]*/)*";
      i += 2;
    } else if (c === "*" && pattern[i + 1] === "*") {
      re += ".*";
      i += 1;
    } else if (c === "*") re += "[^/]*";
    else if (c === "?") re += "[^/]";
    else re += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${re}$`);
}

export function globSync(pattern, options = {}) {
  const cwd = options.cwd === undefined ? process.cwd() : String(options.cwd instanceof URL ? options.cwd.pathname : options.cwd);
  const patterns = (Array.isArray(pattern) ? pattern : [pattern]).map(patternToRegExp);
  const found = [];
  const walk = (relative) => {
    let entries;
    try {
      entries = readdirSync(join(cwd, relative), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = relative === "" ? entry.name : `${relative}/${entry.name}`;
      if (patterns.some((p) => p.test(path))) found.push(path.split("/").join(sep));
      if (entry.isDirectory()) walk(path);
    }
  };
  walk("");
  return found;
}
