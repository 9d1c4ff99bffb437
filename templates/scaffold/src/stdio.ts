/**
 * The stdio transport (basic/transports/stdio): newline-delimited JSON-RPC messages on stdin,
 * responses and notifications on stdout, one message per line. stdout carries nothing but
 * protocol messages; diagnostics go to stderr. A malformed line is answered with its error
 * response and the server keeps running.
 */
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import type { OutgoingNotification, ServerDispatcher } from "./generated/dispatch.js";

/** Options of {@link serveStdio}. */
export interface StdioOptions {
  /** Default: `process.stdin`. */
  readonly input?: Readable;
  /** Default: `process.stdout`. */
  readonly output?: Writable;
  /** A line longer than this many UTF-16 code units is answered `-32600` unread. Default: 4 MiB. */
  readonly maxLineLength?: number;
}

/** A running stdio server. */
export interface StdioServer {
  /** Resolves when the input has ended and every answer is written. */
  readonly closed: Promise<void>;
}

/**
 * Serves `dispatcher` over stdio. Requests are answered concurrently, each as soon as it is
 * done; one channel is shared by the whole connection, so `notifications/cancelled` reaches
 * any request in flight and an id already in flight is refused.
 */
export function serveStdio(dispatcher: ServerDispatcher, options: StdioOptions = {}): StdioServer {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const maxLineLength = options.maxLineLength ?? 4 * 1024 * 1024;
  const channel = {};
  let broken = false;
  output.on("error", () => {
    // The reader went away (EPIPE): nothing more can be answered.
    broken = true;
  });
  const write = (message: unknown) => {
    if (broken) return;
    output.write(JSON.stringify(message) + "\n");
  };
  const notify = (notification: OutgoingNotification) => write(notification);
  const pending = new Set<Promise<void>>();
  const lines = createInterface({ input, crlfDelay: Infinity });
  lines.on("line", (line) => {
    if (line.trim() === "") return;
    if (line.length > maxLineLength) {
      write({ jsonrpc: "2.0", error: { code: -32600, message: "Invalid request: the message is longer than " + maxLineLength + " characters" } });
      return;
    }
    const done = dispatcher.handle(line, { channel, notify, transport: { kind: "stdio" } }).then((response) => {
      if (response !== undefined) write(response);
    });
    pending.add(done);
    void done.finally(() => pending.delete(done));
  });
  const closed = new Promise<void>((resolve) => {
    lines.on("close", () => {
      // No more requests can come: open subscriptions/listen streams end with their result.
      dispatcher.closeSubscriptions();
      void Promise.all([...pending]).then(() => resolve());
    });
  });
  return { closed };
}
