/**
 * Starts the server: over stdio by default (`npm start`), or over Streamable HTTP with
 * `--http` (`npm run start:http`; `--port N`, `--host H`, or the PORT environment variable).
 * stdout carries only protocol messages; everything else goes to stderr.
 */
import { serveHttp } from "./generated/runtime/http.js";
import { serveStdio } from "./generated/runtime/stdio.js";
import { createDispatcher } from "./server.js";

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
}

const dispatcher = createDispatcher();
if (process.argv.includes("--http")) {
  const port = Number(flag("--port") ?? process.env["PORT"] ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`error: --port must be an integer from 0 to 65535\n`);
    process.exit(2);
  }
  const host = flag("--host") ?? "127.0.0.1";
  const http = await serveHttp(dispatcher, { port, host, toolInputSchema: (name) => dispatcher.findTool(name)?.inputSchema }).catch(
    (error: NodeJS.ErrnoException) => {
      const why = error.code === "EADDRINUSE" ? `port ${port} is in use (choose another with --port)` : error.message;
      process.stderr.write(`error: cannot listen on ${host}:${port}: ${why}\n`);
      process.exit(1);
    },
  );
  process.stderr.write(`listening on ${http.url}\n`);
  const stop = () => {
    dispatcher.closeSubscriptions();
    void http.close().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
} else {
  const stdio = serveStdio(dispatcher);
  await stdio.closed;
}
