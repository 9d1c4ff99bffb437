/** Runs the CLI in-process (`run(argv, io)`, no build of dist/ needed) and collects what it prints. */
import { run } from "../../generator/cli.js";

/** The exit code and everything printed on stdout and stderr. */
export async function cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await run(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}
