/**
 * The stdio transport (basic/transports/stdio): newline-delimited JSON-RPC messages on stdin,
 * responses and notifications on stdout, one message per line. stdout carries nothing but
 * protocol messages; diagnostics go to stderr. A malformed line is answered with its error
 * response and the server keeps running.
 *
 * The process is one channel: an `initialize` opens a legacy session on it (draft
 * basic/versioning, "Backward Compatibility"), whose notifications (`publish`) and server→client
 * requests go to stdout, and whose client's responses, read from stdin, go to the dispatcher.
 *
 * Memory stays bounded whatever the reader's speed: input is not read while `maxInFlight`
 * requests are running or while more than `maxOutputBytes` of answers wait to be written. At
 * the in-flight cap, up to 64 KiB more are read to find a client's response to a
 * server→client request (the requests running may be waiting for it), which is dispatched
 * ahead of the requests held.
 * When the input ends, or on {@link StdioServer.close}, open `subscriptions/listen` streams get
 * their result, the channel is closed (a request waiting for a legacy client's answer to a
 * server→client request is answered `-32603`: no answer can come any more), requests in flight
 * get `shutdownGraceMs` to finish, and every request still running then is answered `-32603`
 * "Server shutting down": every request is answered once.
 */
import { setMaxListeners } from "node:events";
import type { Readable, Writable } from "node:stream";
import type { OutgoingMessage, TransportDispatcher } from "./dispatcher.js";
import { isPlainObject, own } from "./json.js";

/** Options of {@link serveStdio}. */
export interface StdioOptions {
  /** Default: `process.stdin`. */
  readonly input?: Readable;
  /** Default: `process.stdout`. */
  readonly output?: Writable;
  /** A line longer than this many bytes is answered `-32600` and dropped as it arrives, never held whole. Default: 4 MiB. */
  readonly maxLineBytes?: number;
  /** Requests running at once (open `subscriptions/listen` streams not counted); at the cap, input is not read until one finishes. Default: 64. */
  readonly maxInFlight?: number;
  /** Input is not read while more than this many bytes of output wait to be written (at least the output's own high-water mark). Default: 1 MiB. */
  readonly maxOutputBytes?: number;
  /** Open `subscriptions/listen` streams at once; one more is answered `-32603`. Default: 256. */
  readonly maxSubscriptions?: number;
  /** A request running longer than this is aborted and answered `-32603` "Request timed out after N ms" (`subscriptions/listen` excepted). Default: none. */
  readonly requestTimeoutMs?: number;
  /** On input end or {@link StdioServer.close}: how long requests in flight may still finish before they are aborted and answered `-32603`. Default: 5000. */
  readonly shutdownGraceMs?: number;
}

/** A running stdio server. */
export interface StdioServer {
  /** Resolves when the input has ended (or {@link close} was called), every request is answered and the output is flushed. */
  readonly closed: Promise<void>;
  /** Stops reading input and shuts down as when the input ends (see {@link StdioOptions.shutdownGraceMs}); resolves with {@link closed}. */
  close(): Promise<void>;
}

const NEWLINE = 0x0a;
const LISTEN = "subscriptions/listen";
const SHUTTING_DOWN = "Server shutting down";
/** At the in-flight cap, how much input may be held while looking for a client's response. */
const LOOKAHEAD_BYTES = 64 * 1024;

/**
 * Serves `dispatcher` over stdio. Requests are answered concurrently, each as soon as it is
 * done; one channel is shared by the whole connection, so `notifications/cancelled` reaches
 * any request in flight and an id already in flight is refused. Lines end at `\n` (a `\r`
 * before it is dropped); a message may contain `\r` as JSON whitespace. A line that is not
 * UTF-8 is answered `-32700`; a UTF-8 byte order mark starting a line is ignored.
 */
export function serveStdio(dispatcher: TransportDispatcher, options: StdioOptions = {}): StdioServer {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const maxLineBytes = options.maxLineBytes ?? 4 * 1024 * 1024;
  const maxInFlight = options.maxInFlight ?? 64;
  const maxOutputBytes = Math.max(options.maxOutputBytes ?? 1024 * 1024, output.writableHighWaterMark);
  const maxSubscriptions = options.maxSubscriptions ?? 256;
  const requestTimeoutMs = options.requestTimeoutMs;
  const shutdownGraceMs = options.shutdownGraceMs ?? 5000;
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  const channel = {};
  let broken = false;
  output.on("error", () => {
    // The reader went away (EPIPE): nothing more can be answered.
    broken = true;
    pump();
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
  // Notifications and server→client requests (of a request, or of the channel's legacy session) all go to stdout.
  const notify = (message: OutgoingMessage) => write(message);
  const push = (message: OutgoingMessage): boolean => {
    if (broken || closing) return false;
    write(message);
    return true;
  };
  // Every request's deadline: aborted when the shutdown's grace period is over. A request with a time limit gets its own.
  const shutdown = new AbortController();
  setMaxListeners(0, shutdown.signal);
  const timed = new Set<AbortController>();
  let running = 0;
  let requests = 0; // running, listen streams not counted
  let streams = 0; // open subscriptions/listen streams
  let closing = false;
  let graceOver = false;

  /** Dispatches one complete line. */
  const handleLine = (bytes: Buffer) => {
    let line: string;
    try {
      line = utf8.decode(bytes);
    } catch {
      write({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error: the message is not valid UTF-8" } });
      return;
    }
    if (line.trim() === "") return;
    // Parsed here to know a subscriptions/listen request; a line that is not JSON goes to the dispatcher as text, which answers it.
    let message: unknown = line;
    try {
      message = JSON.parse(line);
    } catch {
      // answered -32700 by the dispatcher
    }
    const request = requestOf(message);
    const listen = request?.method === LISTEN;
    if (listen && (closing || streams >= maxSubscriptions)) {
      const why = closing ? SHUTTING_DOWN : `Too many open ${LISTEN} streams (at most ${maxSubscriptions}); close one first`;
      write({ jsonrpc: "2.0", id: request.id, error: { code: -32603, message: why } });
      return;
    }
    let own: AbortController | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    if (requestTimeoutMs !== undefined && !listen && request !== undefined && !graceOver) {
      const controller = (own = new AbortController());
      timed.add(controller);
      timer = setTimeout(() => controller.abort(`Request timed out after ${requestTimeoutMs} ms`), requestTimeoutMs);
    }
    running++;
    if (listen) streams++;
    else requests++;
    void dispatcher
      .handle(message, { channel, notify, push, deadline: (own ?? shutdown).signal, transport: { kind: "stdio" } })
      .then((response) => {
        if (response !== undefined) write(response);
      })
      .catch((error: unknown) => {
        process.stderr.write(`stdio: ${String(error)}\n`);
      })
      .finally(() => {
        if (timer !== undefined) clearTimeout(timer);
        if (own !== undefined) timed.delete(own);
        running--;
        if (listen) streams--;
        else requests--;
        pump();
      });
  };

  // Bytes of the current line, and whether it already went over the limit (then it is skipped to its end).
  let chunks: Buffer[] = [];
  let size = 0;
  let skipping = false;
  const endLine = (last: Buffer) => {
    if (skipping) {
      skipping = false;
    } else {
      const bytes = chunks.length === 0 ? last : Buffer.concat([...chunks, last]);
      const end = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
      handleLine(bytes.subarray(0, end));
    }
    chunks = [];
    size = 0;
  };
  function tooLong(): void {
    skipping = true;
    chunks = [];
    size = 0;
    write({ jsonrpc: "2.0", error: { code: -32600, message: `Invalid request: the message is longer than ${maxLineBytes} bytes` } });
  }

  /** Whether another line may be dispatched now. */
  const mayDispatch = () => graceOver || (requests < maxInFlight && (broken || output.writableLength < maxOutputBytes));
  // What was read and is not dispatched yet: at most one chunk is held (at the in-flight cap, up to LOOKAHEAD_BYTES more, see lookingForResponses).
  let rest: Buffer | undefined;
  let inputEnded = false;
  /** Dispatches held lines while capacity allows; reads on when none are held; finishes the shutdown when all is answered. */
  function pump(): void {
    while (rest !== undefined) {
      if (!mayDispatch()) {
        if (takeResponse()) continue;
        break;
      }
      const newline = rest.indexOf(NEWLINE);
      if (newline === -1) {
        hold(rest);
        rest = undefined;
        break;
      }
      // The limit counts the message: a CR ending the line is not part of it.
      const held = chunks[chunks.length - 1];
      const before = newline > 0 ? rest[newline - 1] : held?.[held.length - 1];
      const length = size + newline - (before === 0x0d ? 1 : 0);
      if (!skipping && length > maxLineBytes) tooLong();
      endLine(rest.subarray(0, newline));
      rest = newline + 1 < rest.length ? rest.subarray(newline + 1) : undefined;
    }
    if (!closing && !inputEnded && (rest === undefined || lookingForResponses())) input.resume();
    if (closing && rest === undefined && running === 0) finish();
  }
  /**
   * At the in-flight cap: dispatches the first complete line held that is a client's response
   * to a server→client request (a legacy session's elicitation, say), out of its turn, since the
   * requests in flight may be the ones waiting for it (it writes nothing). Answers whether it
   * found one; the lines before it stay held, in order.
   */
  function takeResponse(): boolean {
    if (rest === undefined || skipping) return false;
    // A line whose start is held in `chunks` is not looked at: the first line of `rest` ends it.
    let start = chunks.length > 0 ? rest.indexOf(NEWLINE) + 1 : 0;
    while (start > 0 || chunks.length === 0) {
      const newline = rest.indexOf(NEWLINE, start);
      if (newline === -1) return false;
      if (newline - start <= maxLineBytes + 1 && isResponse(rest.subarray(start, newline))) {
        const line = rest.subarray(start, newline);
        const after = newline + 1 < rest.length ? rest.subarray(newline + 1) : undefined;
        rest = start === 0 ? after : after === undefined ? rest.subarray(0, start) : Buffer.concat([rest.subarray(0, start), after]);
        handleLine(line.length > 0 && line[line.length - 1] === 0x0d ? line.subarray(0, line.length - 1) : line);
        return true;
      }
      start = newline + 1;
    }
    return false;
  }
  /** Whether a line is a JSON-RPC response (an `id`, no `method`). */
  function isResponse(bytes: Buffer): boolean {
    try {
      const message: unknown = JSON.parse(utf8.decode(bytes));
      return isPlainObject(message) && own(message, "method") === undefined && own(message, "id") !== undefined;
    } catch {
      return false;
    }
  }
  /**
   * At the in-flight cap (and not waiting for output to drain), input is still read, up to
   * 64 KiB held, for a client's response that requests in flight may be waiting for.
   */
  function lookingForResponses(): boolean {
    return rest !== undefined && !graceOver && requests >= maxInFlight && (broken || output.writableLength < maxOutputBytes) && rest.length < LOOKAHEAD_BYTES;
  }
  /** Keeps the start of a line that continues in the next chunk. */
  function hold(chunk: Buffer): void {
    if (chunk.length === 0 || skipping) return;
    if (size + chunk.length > maxLineBytes + 1) {
      tooLong();
      return;
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  input.on("data", (data: Buffer | string) => {
    if (closing && !inputEnded) return; // close() was called: nothing more is read
    input.pause();
    const chunk = typeof data === "string" ? Buffer.from(data) : data;
    rest = rest === undefined ? chunk : Buffer.concat([rest, chunk]);
    pump();
  });
  // Paused for output: resume when it drains (the mark is at least the output's own high-water mark, so a 'drain' comes).
  output.on("drain", () => pump());

  let resolveClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  let finished = false;
  function finish(): void {
    if (finished) return;
    finished = true;
    clearTimeout(graceTimer);
    // Written in order: this callback runs once every answer before it is flushed. A reader that
    // stopped reading does not hold the end up: after a second more, `closed` resolves anyway
    // (as the HTTP transport gives open responses a second to flush).
    if (broken || output.writableEnded) return resolveClosed();
    const stalled = setTimeout(resolveClosed, 1000);
    stalled.unref?.();
    output.write("", () => {
      clearTimeout(stalled);
      resolveClosed();
    });
  }
  let graceTimer: ReturnType<typeof setTimeout> | undefined;
  /** No more input: listen streams end with their result; what still runs after the grace period is answered -32603. */
  function beginShutdown(): void {
    if (closing) return;
    closing = true;
    input.pause();
    dispatcher.closeSubscriptions();
    // No client response can be read any more: requests waiting for one are answered now.
    dispatcher.closeChannel(channel);
    graceTimer = setTimeout(() => {
      graceOver = true;
      shutdown.abort(SHUTTING_DOWN);
      for (const controller of timed) controller.abort(SHUTTING_DOWN);
      pump();
    }, shutdownGraceMs);
    pump();
  }
  const ended = () => {
    if (inputEnded) return;
    inputEnded = true;
    if (!closing) {
      // The last line needs no newline.
      if (rest !== undefined) rest = Buffer.concat([rest, Buffer.from("\n")]);
      else if (size > 0 && !skipping) rest = Buffer.from("\n");
    }
    beginShutdown();
  };
  input.once("end", ended);
  input.once("error", ended);
  return {
    closed,
    close: () => {
      // Lines already read are still answered; a line not read to its end is dropped.
      chunks = [];
      size = 0;
      beginShutdown();
      return closed;
    },
  };
}

/** A request's id and method (`undefined` for anything else: a notification, a malformed message). */
function requestOf(message: unknown): { readonly id: string | number; readonly method: unknown } | undefined {
  if (!isPlainObject(message)) return undefined;
  const id = own(message, "id");
  const method = own(message, "method");
  return typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id)) ? { id, method } : undefined;
}
