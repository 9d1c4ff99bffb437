/**
 * The commands messages print, written so that they work pasted into a POSIX shell: the program's
 * name as the user runs it, and words quoted where the shell would split or expand them.
 */
import { fileURLToPath } from "node:url";

/**
 * How a person runs this program from a shell, for the commands messages print: `npx
 * mcp-schema-codegen` when the package is installed in a `node_modules` folder (as a project's
 * dependency, its bin is on the PATH of npm scripts and npx only), else `mcp-schema-codegen`.
 * `where` is this module's own file.
 */
export function commandName(where: string = fileURLToPath(import.meta.url)): string {
  return /[\\/]node_modules[\\/]/.test(where) ? "npx mcp-schema-codegen" : "mcp-schema-codegen";
}

/** `dir` as one shell word: as it is when it is plainly safe, else in single quotes. */
export function shellQuote(dir: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(dir) && !dir.startsWith("-") ? dir : `'${dir.replace(/'/g, "'\\''")}'`;
}
