#!/usr/bin/env node
// The command-line entry: everything lives in generator/cli.ts.
import { run } from "../generator/cli.js";

process.exitCode = await run(process.argv.slice(2));
