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

/**
 * `dir` as one shell word: as it is when it is plainly safe, else in single quotes; a path that
 * starts with `-` gets `./` in front, since quotes do not keep a command (`cd '-p'`) from reading it as an option.
 */
export function shellQuote(dir: string): string {
  const path = dir.startsWith("-") ? `./${dir}` : dir;
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(path) ? path : `'${path.replace(/'/g, "'\\''")}'`;
}
