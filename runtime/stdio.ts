/**
 * The stdio transport (basic/transports/stdio): newline-delimited JSON-RPC messages on stdin,
 * responses and notifications on stdout, one message per line. stdout carries nothing but
 * protocol messages; diagnostics go to stderr. A malformed line is answered with its error
 * response and the server keeps running.
 */
import type { Readable, Writable } from "node:stream";
import type { OutgoingNotification, TransportDispatcher } from "./dispatcher.js";

/** Options of {@link serveStdio}. */
export interface StdioOptions {
  /** Default: `process.stdin`. */
  readonly input?: Readable;
  /** Default: `process.stdout`. */
  readonly output?: Writable;
  /** A line longer than this many bytes is answered `-32600` and dropped as it arrives, never held whole. Default: 4 MiB. */
  readonly maxLineBytes?: number;
}

/** A running stdio server. */
export interface StdioServer {
  /** Resolves when the input has ended and every answer is written. */
  readonly closed: Promise<void>;
}

const NEWLINE = 0x0a;

/**
 * Serves `dispatcher` over stdio. Requests are answered concurrently, each as soon as it is
 * done; one channel is shared by the whole connection, so `notifications/cancelled` reaches
 * any request in flight and an id already in flight is refused. Lines end at `\n` (a `\r`
 * before it is dropped); a message may contain `\r` as JSON whitespace.
 */
export function serveStdio(dispatcher: TransportDispatcher, options: StdioOptions = {}): StdioServer {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const maxLineBytes = options.maxLineBytes ?? 4 * 1024 * 1024;
  const channel = {};
  let broken = false;
  output.on("error", () => {
    // The reader went away (EPIPE): nothing more can be answered.
    broken = true;
  });
  const write = (message: unknown) => {
    if (broken) return;
    let text: string;
    try {
      text = JSON.stringify(message);
    } catch (error) {
      // The dispatcher only answers JSON data; this is a last line of defence, never a crash.
      process.stderr.write(`stdio: an answer could not be written: ${String(error)}\n`);
      const id = typeof message === "object" && message !== null ? (message as { id?: unknown }).id : undefined;
      if (typeof id !== "string" && typeof id !== "number") return;
      text = JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32603, message: "Internal error" } });
    }
    output.write(text + "\n");
  };
  const notify = (notification: OutgoingNotification) => write(notification);
  const pending = new Set<Promise<void>>();

  const handleLine = (line: string) => {
    if (line.trim() === "") return;
    const done = dispatcher
      .handle(line, { channel, notify, transport: { kind: "stdio" } })
      .then((response) => {
        if (response !== undefined) write(response);
      })
      .catch((error: unknown) => {
        process.stderr.write(`stdio: ${String(error)}\n`);
      });
    pending.add(done);
    void done.finally(() => pending.delete(done));
  };

  // Bytes of the current line, and whether it already went over the limit (then it is skipped to its end).
  let chunks: Buffer[] = [];
  let size = 0;
  let skipping = false;
  const endLine = (last: Buffer) => {
    if (skipping) {
      skipping = false;
    } else {
      const bytes = Buffer.concat([...chunks, last]);
      const end = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
      handleLine(bytes.subarray(0, end).toString("utf8"));
    }
    chunks = [];
    size = 0;
  };
  input.on("data", (data: Buffer | string) => {
    let chunk = typeof data === "string" ? Buffer.from(data) : data;
    for (let newline = chunk.indexOf(NEWLINE); newline !== -1; newline = chunk.indexOf(NEWLINE)) {
      // The limit counts the message: a CR ending the line is not part of it.
      const held = chunks[chunks.length - 1];
      const before = newline > 0 ? chunk[newline - 1] : held?.[held.length - 1];
      const length = size + newline - (before === 0x0d ? 1 : 0);
      if (!skipping && length > maxLineBytes) tooLong();
      endLine(chunk.subarray(0, newline));
      chunk = chunk.subarray(newline + 1);
    }
    if (chunk.length === 0 || skipping) return;
    if (size + chunk.length > maxLineBytes + 1) {
      tooLong();
      return;
    }
    chunks.push(chunk);
    size += chunk.length;
  });
  function tooLong(): void {
    skipping = true;
    chunks = [];
    size = 0;
    write({ jsonrpc: "2.0", error: { code: -32600, message: `Invalid request: the message is longer than ${maxLineBytes} bytes` } });
  }

  const closed = new Promise<void>((resolve) => {
    const finish = () => {
      if (size > 0 && !skipping) endLine(Buffer.alloc(0));
      // No more requests can come: open subscriptions/listen streams end with their result.
      dispatcher.closeSubscriptions();
      void Promise.all([...pending]).then(() => resolve());
    };
    input.once("end", finish);
    input.once("error", finish);
  });
  return { closed };
}
