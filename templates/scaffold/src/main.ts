/**
 * Starts the server: over stdio by default (`npm start`), or over Streamable HTTP with
 * `--http` (`npm run start:http`; `--port N`, `--host H`, or the PORT environment variable;
 * `--allow-host NAME`, repeatable, adds a `Host` name the server answers beside the loopback ones).
 * stdout carries only protocol messages; everything else goes to stderr.
 *
 * SIGTERM and SIGINT shut down gracefully (see the transports' `shutdownGraceMs`): no new
 * requests, open `subscriptions/listen` streams get their result, requests in flight may
 * finish, the rest are answered `-32603`; then the process exits 0. A second signal exits at once (1).
 */
import { parseArgs } from "node:util";
import { DEFAULT_ALLOWED_HOSTS, serveHttp, type HttpServer } from "./generated/runtime/http.js";
import { serveStdio } from "./generated/runtime/stdio.js";
import { createDispatcher } from "./server.js";

const USAGE = "usage: node dist/src/main.js [--http [--port N] [--host H] [--allow-host NAME]...]";

const HELP = `${USAGE}

Serves MCP over stdio (npm start), or over Streamable HTTP with --http (npm run start:http).
  --http              serve over Streamable HTTP instead of stdio
  --port N            the HTTP port (default: the PORT environment variable, else 3000; 0 picks a free one)
  --host H            the address to listen on (default: 127.0.0.1)
  --allow-host NAME   a Host header name answered beside the loopback ones (repeatable)
  -h, --help          show this help
SIGTERM or SIGINT shuts down gracefully; a second signal exits at once.
`;

/**
 * The command line; `--help` prints the options and exits 0. An unknown flag, `--port`/`--host`/`--allow-host`
 * without a value or without `--http`, or `--port`/`--host` given twice, exits 2 with the usage (so does a `--allow-host`
 * that is no host name, which serveHttp refuses).
 */
function commandLine(): { readonly http: boolean; readonly port: string | undefined; readonly host: string | undefined; readonly allowHosts: readonly string[] } {
  try {
    const { values, tokens } = parseArgs({
      options: { http: { type: "boolean" }, port: { type: "string" }, host: { type: "string" }, "allow-host": { type: "string", multiple: true }, help: { type: "boolean", short: "h" } },
      strict: true,
      tokens: true,
    });
    if (values.help === true) {
      process.stdout.write(HELP);
      process.exit(0);
    }
    // A value given twice is a mistake; a flag given twice (npm run start:http -- --http) is not.
    const given = tokens.flatMap((t) => (t.kind === "option" && (t.name === "port" || t.name === "host") ? [t.name] : []));
    const twice = given.find((name, i) => given.indexOf(name) !== i);
    if (twice !== undefined) throw new Error(`--${twice} is given more than once`);
    const httpOnly = values.port !== undefined ? "--port" : values.host !== undefined ? "--host" : values["allow-host"] !== undefined ? "--allow-host" : undefined;
    if (values.http !== true && httpOnly !== undefined) throw new Error(`${httpOnly} is for --http; without --http the server speaks stdio`);
    return { http: values.http === true, port: values.port, host: values.host, allowHosts: values["allow-host"] ?? [] };
  } catch (error) {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    process.exit(2);
  }
}

/** Calls `stop` on the first SIGTERM or SIGINT, then exits 0; a second signal exits at once. */
function onSignal(stop: () => Promise<void>): void {
  let stopping = false;
  const handler = () => {
    if (stopping) process.exit(1);
    stopping = true;
    void stop().then(() => process.exit(0));
  };
  process.on("SIGINT", handler);
  process.on("SIGTERM", handler);
}

const args = commandLine();
const dispatcher = createDispatcher();
if (args.http) {
  // An empty PORT is unset, as `${PORT:-3000}` would read it.
  const given = args.port ?? (process.env["PORT"] || undefined) ?? "3000";
  const port = Number(given);
  if (given.trim() === "" || !Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`error: --port must be an integer from 0 to 65535, not ${JSON.stringify(given)}\n${USAGE}\n`);
    process.exit(2);
  }
  const host = args.host ?? "127.0.0.1";
  // Requests are answered only for the Host names allowed (DNS-rebinding protection): the loopback ones, and those named.
  const allowedHosts = [...DEFAULT_ALLOWED_HOSTS, ...args.allowHosts];
  let listening: Promise<HttpServer>;
  try {
    listening = serveHttp(dispatcher, { port, host, allowedHosts, allowedHostsSetting: "the server's --allow-host", toolInputSchema: (name) => dispatcher.findTool(name)?.inputSchema });
  } catch (error) {
    // An option serveHttp refuses (RangeError): here a --allow-host that is no host name, a usage error.
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    process.exit(2);
  }
  const http = await listening.catch((error: NodeJS.ErrnoException) => {
    const why = error.code === "EADDRINUSE" ? `port ${port} is in use (choose another with --port)` : error.message;
    process.stderr.write(`error: cannot listen on ${host}:${port}: ${why}\n`);
    process.exit(1);
  });
  process.stderr.write(`listening on ${http.url}\n`);
  if (!DEFAULT_ALLOWED_HOSTS.includes(host) && host !== "::1" && args.allowHosts.length === 0) {
    process.stderr.write(`note: requests are answered only when their Host header names ${DEFAULT_ALLOWED_HOSTS.join(", ")}; name this server's other host names with --allow-host NAME\n`);
  }
  onSignal(() => http.close());
} else {
  const stdio = serveStdio(dispatcher);
  onSignal(() => stdio.close());
  await stdio.closed;
  // Every request is answered and stdout is flushed: a handler's pending timer does not keep the process alive.
  process.exit(0);
}
