/**
 * The stdio transport (basic/transports/stdio): newline-delimited JSON-RPC messages on stdin,
 * responses and notifications on stdout, one message per line. stdout carries nothing but
 * protocol messages; diagnostics go to stderr. A malformed line is answered with its error
 * response and the server keeps running.
 *
 * The process is one channel: an `initialize` opens a legacy session on it (draft
 * basic/versioning, "Backward Compatibility"), whose notifications (`publish`) and server→client
 * requests go to stdout, and whose client's responses, read from stdin, go to the dispatcher.
 * Until an `initialize` came, an error answering a request without the modern per-request
 * version ends with "; a 2025-11-25 client opens with initialize" (the dispatcher's, for a legacy
 * client that skipped it). A request read while an `initialize` is being answered waits for that
 * answer, which is the session's first line.
 *
 * A session that negotiated a revision taking JSON-RPC batches (2025-03-26) may send a line
 * holding an array: its answer is one line holding the array of its requests' responses (none
 * when it held only notifications and responses; see `CoreDispatcher.handle`).
 *
 * Memory stays bounded whatever the reader's speed: input is not read while more than
 * `maxOutputBytes` of answers wait to be written, and notifications (a handler's progress and
 * log messages, change notifications) are dropped from when more than 16 MiB (or `maxOutputBytes`,
 * when larger) wait until no more than half as many do. While `maxInFlight` requests are running (a
 * batch counts as the requests it holds), the requests read are held in order, up to
 * `maxHeldBytes`; one read beyond is answered `-32603` "Server busy". Input is read on at the cap,
 * so that a client's response, a notification (such as `notifications/cancelled`) or a `ping`,
 * or a batch of only such messages, is always read: it is dispatched ahead of the requests held
 * (a cancellation can always reach the requests it names, and a server→client request its
 * answer).
 * When the input ends, or on {@link StdioServer.close}, open `subscriptions/listen` streams get
 * their result, the lines read are dispatched (served by the legacy session), then the channel is
 * closed (a request waiting for a legacy client's answer to a server→client request is answered
 * `-32603`: no answer can come any more), requests in flight
 * get `shutdownGraceMs` to finish (at input end, counted again each time a request held at the
 * cap is started: the lines held are served as the cap allows while they make progress; on close()
 * it is not counted again), and every request still running then is answered
 * `-32603` "Server shutting down": every request is answered once. The reader then has
 * `sendTimeoutMs` to take the answers written.
 */
import { setMaxListeners } from "node:events";
import type { Readable, Writable } from "node:stream";
import type { DispatchErrorObject, OutgoingMessage, TransportDispatcher } from "./dispatcher.js";
import { appendBytes, isNotificationMessage, isPlainObject, isResponse, messageOf, own, requestIdOf, wireText } from "./json.js";

/** What the stdio transport passes to handlers as `context.transport`: one client, the process's stdin and stdout. */
export interface StdioTransportInfo {
  readonly kind: "stdio";
}

/** The one `context.transport` of the stdio transport. */
const STDIO_TRANSPORT: StdioTransportInfo = Object.freeze({ kind: "stdio" });

/** Options of {@link serveStdio}. */
export interface StdioOptions {
  /** Default: `process.stdin`. */
  readonly input?: Readable;
  /** Default: `process.stdout`. */
  readonly output?: Writable;
  /** A line longer than this many bytes is answered `-32600` and dropped as it arrives, never held whole. Default: 4 MiB. */
  readonly maxLineBytes?: number;
  /** Requests running at once (open `subscriptions/listen` streams not counted; a batch counts as the requests it holds, and is dispatched while one more fits); at the cap, the requests read are held (see `maxHeldBytes`). Default: 64. */
  readonly maxInFlight?: number;
  /** At the `maxInFlight` cap: bytes of requests read and held, in order, until one finishes; a request read beyond them is answered `-32603` "Server busy". Default: 4 MiB. */
  readonly maxHeldBytes?: number;
  /** Input is not read while more than this many bytes of output wait to be written (at least the output's own high-water mark). Default: 1 MiB. */
  readonly maxOutputBytes?: number;
  /** Open `subscriptions/listen` streams at once; one more is answered `-32603`. Default: 256. */
  readonly maxSubscriptions?: number;
  /** A request running longer than this is aborted and answered `-32603` "Request timed out after N ms" (`subscriptions/listen` excepted). Default: none. */
  readonly requestTimeoutMs?: number;
  /** On input end or {@link StdioServer.close}: how long requests in flight may still finish before they are aborted and answered `-32603`. Default: 5000. */
  readonly shutdownGraceMs?: number;
  /**
   * At the end, once every request is answered: how long the reader has to take the answers
   * written (until the system has them all) before {@link StdioServer.closed} resolves anyway. A
   * reader that takes them slowly gets them whole; one that stopped reading does not hold the end
   * up for longer. Default: 30000.
   */
  readonly sendTimeoutMs?: number;
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
/** The notification a legacy client sends once its `initialize` is answered (every legacy revision names it so). */
const INITIALIZED = "notifications/initialized";
const SHUTTING_DOWN = "Server shutting down";
/** What keeping a held line costs besides its bytes (its entry, its keys and their index), counted against `maxHeldBytes`. */
const HELD_LINE_COST = 512;
const NO_BYTES = Buffer.alloc(0);
/** A reader this far behind (or `maxOutputBytes`, when larger) has notifications dropped until it catches up: see `behind` in {@link serveStdio}. */
const NOTIFICATION_BACKLOG_BYTES = 16 * 1024 * 1024;
/**
 * Notifications that say some state changed (a list, a subscribed resource), not what it is now:
 * one dropped for a reader far behind is written again once it caught up (see `behind`).
 */
const STATE_CHANGES = /^notifications\/(?:[a-z]+\/list_changed|resources\/updated)$/;
/** The most distinct state-change notifications kept for a reader far behind; more are dropped as the others are. */
const MAX_DEFERRED = 1024;

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
  const maxHeldBytes = options.maxHeldBytes ?? 4 * 1024 * 1024;
  const maxOutputBytes = Math.max(options.maxOutputBytes ?? 1024 * 1024, output.writableHighWaterMark);
  // Past this backlog, notifications are dropped (see behind()): the HTTP transport's bound on an SSE stream's reader.
  const maxBacklog = Math.max(NOTIFICATION_BACKLOG_BYTES, maxOutputBytes);
  const maxSubscriptions = options.maxSubscriptions ?? 256;
  const requestTimeoutMs = options.requestTimeoutMs;
  const shutdownGraceMs = options.shutdownGraceMs ?? 5000;
  const sendTimeoutMs = options.sendTimeoutMs ?? 30_000;
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  const channel = {};
  /** Whether the dispatcher serves the legacy era. */
  const servesLegacy = dispatcher.opensSession?.({ jsonrpc: "2.0", id: 0, method: "initialize" }) === true;
  // initialize requests dispatched and not answered yet: the requests read meanwhile are held until they are.
  let openingsRunning = 0;
  let broken = false;
  output.on("error", () => {
    // The reader went away (EPIPE): nothing more can be answered.
    broken = true;
    pump();
  });
  const write = (message: unknown) => {
    if (broken) return;
    // The dispatcher only sends JSON data; this is a last line of defence, never a crash.
    const text = wireText(message, (error) => process.stderr.write(`stdio: a message could not be written as it was: ${String(error)}\n`));
    if (text === undefined) return;
    output.write(text + "\n");
    track(message);
  };
  // The server→client requests written whose response has not been read (their ids): while there are any, input is read on.
  const awaiting = new Set<string>();
  /** Keeps {@link awaiting}: a request written is awaited until its response is read, or it is cancelled. */
  function track(message: unknown): void {
    if (!isPlainObject(message)) return;
    const method = own(message, "method");
    const id = requestIdOf(own(message, "id"));
    if (typeof method === "string" && id !== undefined) {
      awaiting.add(idKey(id));
      // Reading may have stopped at the cap: it goes on now, so the answer is read (see mayRead). Shutting down with
      // lines held: a request now waits for an answer that cannot come (see closeWhenServed).
      queueMicrotask(pump);
    }
    const params = own(message, "params");
    const cancelled = method === "notifications/cancelled" && isPlainObject(params) ? requestIdOf(own(params, "requestId")) : undefined;
    if (cancelled !== undefined) awaiting.delete(idKey(cancelled));
  }
  // Whether notifications are being dropped: the reader fell more than `maxBacklog` behind, and has not caught up to half
  // of it since (see behind()).
  let dropping = false;
  /**
   * Whether `message` is a notification the reader is too far behind to be sent: more than
   * `maxBacklog` bytes wait for it, or did and no fewer than half as many wait yet (a reader that read
   * a line let one notification through, and the next was dropped again with a note: one that kept
   * about 16 MiB behind had 147 notes in 8 s). Answers and server→client requests are always written (they are
   * bounded by the requests running); a handler's notifications (progress, log messages, a listen
   * stream's changes) are not, and a reader that stopped reading would have them kept without bound
   * (before, 4 progress streams to one held 1.3 GB after 20 s). `notifications/cancelled` is the
   * core's, a few per request, and ends what the client holds: it is kept. A state change dropped
   * (`notifications/tools/list_changed`, `notifications/resources/updated`, …) is kept, one of each
   * text, and written once the reader has caught up.
   */
  const behind = (message: OutgoingMessage, stream?: object): boolean => {
    if (!isNotificationMessage(message) || own(message, "method") === "notifications/cancelled") return false;
    if (output.writableLength <= (dropping ? maxBacklog / 2 : maxBacklog)) {
      caughtUp();
      return false;
    }
    if (!dropping) process.stderr.write(`stdio: the reader is more than ${maxBacklog} bytes behind: notifications are dropped until it catches up (answers are not)\n`);
    dropping = true;
    const method = own(message, "method");
    if (typeof method === "string" && STATE_CHANGES.test(method) && deferred.size < MAX_DEFERRED) {
      const text = wireText(message);
      if (text !== undefined) deferred.set(text, stream);
    }
    return true;
  };
  // The state changes dropped while the reader was behind, as written (one of each), with the listen stream they belong to:
  // a client that missed a list's change would keep the list it has for good. They are written once it has caught up,
  // those of a stream only while it is open (one that ended has had its result).
  const deferred = new Map<string, object | undefined>();
  function caughtUp(): void {
    dropping = false;
    const texts = [...deferred.keys()];
    deferred.clear();
    if (!broken) for (const text of texts) output.write(text + "\n");
  }
  // Notifications and server→client requests (of a request, or of the channel's legacy session) all go to stdout.
  const notify = (message: OutgoingMessage) => {
    if (!behind(message)) write(message);
  };
  const push = (message: OutgoingMessage): boolean => {
    if (broken || closing) return false;
    if (!behind(message)) write(message);
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

  /** Dispatches one complete line; `refuse` is told when the dispatcher refuses it (a notification it cannot accept). */
  const handleLine = (bytes: Buffer, refuse?: (error: DispatchErrorObject, element?: number) => void) => {
    let line: string;
    try {
      line = utf8.decode(bytes);
    } catch {
      write({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error: the message is not valid UTF-8" } });
      return;
    }
    if (line.trim() === "") return;
    // Parsed here to know a subscriptions/listen request; a line that is not JSON (or is a JSON string) goes to the dispatcher as text, which answers it.
    const message = messageOf(line);
    // A batch (2025-03-26) may carry the client's responses: one of responses only (the dispatcher refuses one mixing in others).
    for (const m of Array.isArray(message) ? (message.every((e) => isResponse(e)) ? message : []) : [message]) {
      if (!isPlainObject(m) || own(m, "method") !== undefined) continue;
      const id = own(m, "id");
      if (typeof id === "string" || typeof id === "number") awaiting.delete(idKey(id));
    }
    const request = requestOf(message);
    const listen = request?.method === LISTEN;
    if (listen && (closing || streams >= maxSubscriptions)) {
      const why = closing ? SHUTTING_DOWN : `Too many open ${LISTEN} streams (at most ${maxSubscriptions}); close one first`;
      write({ jsonrpc: "2.0", id: request.id, error: { code: -32603, message: why } });
      return;
    }
    // An initialize being answered holds the requests read after it (see mayDispatch).
    const opens = request !== undefined && servesLegacy && dispatcher.opensSession?.(message) === true;
    if (opens) openingsRunning++;
    // The requests of a batch (2025-03-26): timed as one, with the same limit.
    const batched = Array.isArray(message) ? message.filter((m) => typeof requestOf(m)?.method === "string").length : 0;
    let limit: AbortController | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    if (requestTimeoutMs !== undefined && !listen && (request !== undefined || batched > 0) && !graceOver) {
      const controller = (limit = new AbortController());
      timed.add(controller);
      timer = setTimeout(() => controller.abort(`Request timed out after ${requestTimeoutMs} ms`), requestTimeoutMs);
    }
    // A batch counts as the requests it holds (at least one), so that maxInFlight bounds what runs.
    const weight = Math.max(1, batched);
    running++;
    if (listen) streams++;
    else requests += weight;
    // A listen stream's notifications are told apart: a state change of it held for a reader far behind (see behind) is
    // dropped when it ends.
    const stream = listen ? {} : undefined;
    const notifyOf = stream === undefined ? notify : (m: OutgoingMessage) => behind(m, stream) || write(m);
    void dispatcher
      .handle(message, { channel, notify: notifyOf, push, deadline: (limit ?? shutdown).signal, transport: STDIO_TRANSPORT, ...(refuse === undefined ? {} : { refuse }) })
      .then((response) => {
        if (stream !== undefined) for (const [text, of] of deferred) if (of === stream) deferred.delete(text);
        if (response === undefined) return;
        // A batch's answer (an array) is written as one line, as it came.
        write(response);
      })
      .catch((error: unknown) => {
        process.stderr.write(`stdio: ${String(error)}\n`);
      })
      .finally(() => {
        if (timer !== undefined) clearTimeout(timer);
        if (limit !== undefined) timed.delete(limit);
        running--;
        if (opens) openingsRunning--;
        if (listen) streams--;
        else requests -= weight;
        pump();
      });
  };

  // The start of the current line read in earlier chunks (its first `size` bytes), and whether the line already went over
  // the limit (then it is skipped to its end).
  let line: Uint8Array = NO_BYTES;
  let size = 0;
  let skipping = false;
  const endLine = (last: Buffer) => {
    if (skipping) {
      skipping = false;
    } else {
      // A line read in pieces is copied once more, to a buffer of its own length: a request held at the cap keeps it, and
      // the array it grew in may be twice as long.
      let bytes = last;
      if (size > 0) {
        bytes = Buffer.allocUnsafe(size + last.length);
        bytes.set(line.subarray(0, size));
        bytes.set(last, size);
      }
      const end = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
      arrive(bytes.subarray(0, end));
    }
    line = NO_BYTES;
    size = 0;
  };
  function tooLong(): void {
    skipping = true;
    line = NO_BYTES;
    size = 0;
    write({ jsonrpc: "2.0", error: { code: -32600, message: `Invalid request: the message is longer than ${maxLineBytes} bytes` } });
  }

  /**
   * Whether another request may be dispatched now: under the caps, and no `initialize` being
   * answered (a request written before that answer is about the session it opens: its answer, or
   * a server→client request it makes, must not be written before the session's first line).
   */
  const mayDispatch = () => graceOver || (requests < maxInFlight && !outputFull() && openingsRunning === 0);
  /** Whether more than `maxOutputBytes` of answers wait to be written (input is not read then: a 'drain' resumes it). */
  const outputFull = () => !broken && !graceOver && output.writableLength >= maxOutputBytes;
  // Complete lines read and not dispatched yet, in order (requests waiting for room under the cap), from `heldHead` on,
  // `heldCount` of them not dropped, and their bytes. `keys` name the requests a `notifications/cancelled` may drop
  // ({@link idKey}; a batch's several); `heldByKey` finds the entries by key, so a cancellation costs no search (with 80 000
  // requests held, cancelling them one by one took a minute) and one that names none costs nothing. A dropped entry stays
  // in the array, marked, until the head passes it.
  interface HeldLine {
    line: Buffer;
    readonly keys: string[];
    readonly opens: boolean;
    dropped: boolean;
  }
  const held: HeldLine[] = [];
  let heldHead = 0;
  let heldCount = 0;
  const heldByKey = new Map<string, HeldLine[]>();
  let heldBytes = 0;
  // How many held lines open a legacy session (initialize): a notifications/initialized read meanwhile waits behind them.
  let heldOpenings = 0;
  /** The key a `notifications/cancelled` may drop a held request by: its {@link idKey}; none for an `initialize` (clients must not cancel it) or anything else. */
  function cancelKey(message: unknown): string | undefined {
    const request = isPlainObject(message) && own(message, "jsonrpc") === "2.0" && typeof own(message, "method") === "string" ? requestOf(message) : undefined;
    return request !== undefined && dispatcher.opensSession?.(message) !== true ? idKey(request.id) : undefined;
  }
  /** Takes `entry` out of the entries held under `key` (each entry is there once per key, however often its batch names it). */
  function forgetKey(entry: HeldLine, key: string): void {
    const entries = heldByKey.get(key);
    const at = entries === undefined ? -1 : entries.indexOf(entry);
    if (at < 0) return;
    entries!.splice(at, 1);
    if (entries!.length === 0) heldByKey.delete(key);
  }
  /** What a held line counts against `maxHeldBytes`: its bytes, and what keeping it costs besides (its entry, its keys). */
  const heldCost = (line: Buffer): number => line.length + HELD_LINE_COST;
  /**
   * Holds a line (`message`, as parsed), in order; a batch's requests are each found by their key.
   * The line is copied: a view would keep the whole chunk it was read in (64 KiB) alive for a line
   * of a few bytes, past what `heldBytes` counts.
   */
  function holdLine(line: Buffer, message: unknown): void {
    const opens = !Array.isArray(message) && dispatcher.opensSession?.(message) === true;
    const keys = (Array.isArray(message) ? message.map(cancelKey) : [cancelKey(message)]).filter((k): k is string => k !== undefined);
    const entry: HeldLine = { line: Buffer.from(line), keys, opens, dropped: false };
    held.push(entry);
    heldCount++;
    heldBytes += heldCost(entry.line);
    if (opens) heldOpenings++;
    for (const key of keys) {
      const entries = heldByKey.get(key);
      if (entries === undefined) heldByKey.set(key, [entry]);
      // Once per key: a batch that names one id twice (the client's mistake) is found once by it (its keys come in a row).
      else if (entries[entries.length - 1] !== entry) entries.push(entry);
    }
  }
  /**
   * Takes a held entry out of the count and returns its line. The entry stays in the array, dropped
   * and without its bytes, until the entries taken or dropped are most of the array (cancellations
   * while a request that never ends holds the cap: their lines kept 300 MiB); then the array keeps
   * the live ones only.
   */
  function release(entry: HeldLine): Buffer {
    const line = entry.line;
    entry.dropped = true;
    entry.line = NO_BYTES;
    heldCount--;
    heldBytes -= heldCost(line);
    if (entry.opens) heldOpenings--;
    for (const key of entry.keys) forgetKey(entry, key);
    if (heldCount === 0 || (held.length > 1024 && held.length > 2 * heldCount)) {
      let kept = 0;
      for (let i = heldHead; i < held.length; i++) if (!held[i]!.dropped) held[kept++] = held[i]!;
      held.length = kept;
      heldHead = 0;
    }
    return line;
  }
  /** Takes the next held line out of the queue (there is one: `heldCount > 0`). */
  function takeHeld(): Buffer {
    while (held[heldHead]!.dropped) heldHead++;
    // Past it first: release() may compact the array from the head on.
    return release(held[heldHead++]!);
  }
  let inputEnded = false;
  // The rest of a chunk read while reading had to stop (at most one chunk).
  let unread: Buffer | undefined;
  // Set while the lines kept unread are held at input end or close(): they are split to the end, and (in memory already)
  // none is answered busy.
  let holdingUnread = false;
  /** Dispatches held lines while capacity allows; reads on while it may; finishes the shutdown when all is answered. */
  function pump(): void {
    let started = 0;
    while (heldCount > 0 && mayDispatch()) {
      handleLine(takeHeld());
      started++;
    }
    if (closing) closeWhenServed();
    if (closing && started > 0) restartGrace();
    if (!closing && !inputEnded && mayRead()) readOn();
    if (closing && heldCount === 0 && running === 0) finish();
  }
  /** Splits what is left of the last chunk read, then reads the input on. */
  function readOn(): void {
    if (unread !== undefined) {
      const rest = unread;
      unread = undefined;
      split(rest);
      if (unread !== undefined) return;
    }
    input.resume();
  }
  /**
   * At input end or close(): the lines kept unread were read, so they are held to be served (the
   * shutdown's grace period applies to them); at input end the last line too, which needs no newline.
   */
  function holdUnread(last: boolean): void {
    holdingUnread = true;
    if (unread !== undefined) {
      const rest = unread;
      unread = undefined;
      split(rest);
    }
    if (last && size > 0 && !skipping) split(Buffer.from("\n"));
    holdingUnread = false;
  }
  /**
   * Whether input is read now: not while output waits to drain. At the in-flight cap it is: a
   * line that can help the requests in flight along (a cancellation, the client's response) may
   * come after requests (see {@link arrive}).
   */
  function mayRead(): boolean {
    return !outputFull();
  }
  /**
   * One complete line read: dispatched now when nothing is held and there is room; else a line
   * that can only help the requests in flight along (a client's response, a notification such
   * as `notifications/cancelled`, a `ping`) is dispatched out of its turn, and a request is held
   * in order, while fewer than `maxHeldBytes` are. A request beyond that is answered `-32603`
   * "Server busy" (memory stays bounded).
   */
  function arrive(line: Buffer): void {
    if (heldCount === 0 && mayDispatch()) return handleLine(line);
    const message = parsed(line);
    const kind = kindOf(message);
    if (kind === "ahead" && !graceOver) {
      // A cancellation the dispatcher refuses (its params fail the schema, a version not served) takes no effect:
      // the request it names stays held. In a batch that holds requests each element is taken alone, and the
      // refusal names its index; one without an index refuses the whole line. The dispatcher handles a
      // notification before `handle` returns.
      let wholeRefused = false;
      const refused = new Set<number>();
      handleLine(line, (_error, element) => (element === undefined ? (wholeRefused = true) : refused.add(element)));
      if (!wholeRefused) (Array.isArray(message) ? message : [message]).forEach((m, index) => refused.has(index) || dropCancelled(m));
      return;
    }
    if (graceOver) return handleLine(line);
    if (heldBytes < maxHeldBytes || heldCount === 0 || holdingUnread) return holdLine(line, message);
    // A notification is never answered: one beyond what is held is dropped.
    if (isNotificationMessage(message)) return;
    const busy = (id: string | number | undefined) => ({
      jsonrpc: "2.0",
      ...(id === undefined ? {} : { id }),
      error: { code: -32603, message: `Server busy: ${maxInFlight} request${maxInFlight === 1 ? " is" : "s are"} running and ${heldCount} more wait (maxHeldBytes: ${maxHeldBytes}); send it again later` },
    });
    // A line holding no request that would run (not JSON, not a message, an id that is no id, no method, an empty batch, a
    // batch of such) runs nothing: the dispatcher answers it at once, as when the server is idle (before,
    // it was told Server busy, or a batch of them got no answer).
    const runs = (m: unknown) => isPlainObject(m) && own(m, "jsonrpc") === "2.0" && typeof own(m, "method") === "string" && requestOf(m) !== undefined;
    if (!(Array.isArray(message) ? message.some(runs) : runs(message))) return handleLine(line);
    if (!Array.isArray(message)) return write(busy(requestOf(message)!.id));
    // A batch: each of its requests that would run gets the error, in one array (JSON-RPC 2.0 § 6); each other element
    // the dispatcher answers (not a message, no jsonrpc "2.0", no method, an id that is no id) gets the answer it gives
    // alone, at once, running nothing (before, they were left unanswered); notifications and the client's
    // responses none.
    const answered = (m: unknown) => !isNotificationMessage(m) && !isResponse(m);
    void Promise.all(message.map((m) => (runs(m) ? busy(requestOf(m)!.id) : answered(m) ? dispatcher.handle(m, { channel, transport: STDIO_TRANSPORT }) : undefined))).then(
      (answers) => write(answers.filter((a) => a !== undefined)),
    );
  }
  /**
   * What a line read is: one that may go ahead of held requests (a response, a notification, a
   * `ping`), or a request (or anything else), held in order. `notifications/initialized` read
   * while an `initialize` is held or being answered waits behind it: it is about the session that
   * one opens.
   */
  function kindOf(message: unknown): "ahead" | "request" {
    // A batch (2025-03-26) goes ahead when every message in it may (the client's responses, sent as one batch), or when it
    // holds a response beside other messages: the dispatcher refuses such a batch at once, running nothing.
    if (Array.isArray(message)) {
      const ahead = message.map((m) => !Array.isArray(m) && kindOf(m) === "ahead");
      return message.length > 0 && (ahead.every(Boolean) || message.some((m) => isResponse(m))) ? "ahead" : "request";
    }
    if (!isPlainObject(message) || own(message, "jsonrpc") !== "2.0") return "request";
    const method = own(message, "method");
    if (method === undefined) return own(message, "id") !== undefined ? "ahead" : "request";
    if (method === "ping") return "ahead";
    if (!isNotificationMessage(message)) return "request";
    return method === INITIALIZED && heldOpenings + openingsRunning > 0 ? "request" : "ahead";
  }
  /**
   * A `notifications/cancelled` the dispatcher accepted, for a request still held (not dispatched
   * yet, at the in-flight cap): the request is dropped unanswered, as a cancelled request is
   * (basic/utilities/cancellation), instead of running once the cancellation has found nothing to
   * cancel. An `initialize` is not dropped: clients must not cancel it. A request held in a batch
   * (2025-03-26) is taken out of it: the batch runs without it, and its answer lacks it.
   */
  function dropCancelled(message: unknown): void {
    const params = isPlainObject(message) && own(message, "method") === "notifications/cancelled" ? own(message, "params") : undefined;
    const cancelled: unknown = isPlainObject(params) ? own(params, "requestId") : undefined;
    if (typeof cancelled !== "string" && typeof cancelled !== "number") return;
    const key = idKey(cancelled);
    // The first held with that id (a client that gave two requests one id cancels the first).
    const entry = heldByKey.get(key)?.[0];
    if (entry === undefined) return;
    const batch = parsed(entry.line);
    if (!Array.isArray(batch)) {
      release(entry);
      return;
    }
    // A request of a held batch (2025-03-26): the batch goes on without it, or not at all when nothing else is left.
    const at = batch.findIndex((m) => cancelKey(m) === key);
    const rest = batch.filter((_, i) => i !== at);
    if (rest.length === 0) {
      release(entry);
      return;
    }
    const line = Buffer.from(JSON.stringify(rest));
    heldBytes += heldCost(line) - heldCost(entry.line);
    entry.line = line;
    entry.keys.splice(entry.keys.indexOf(key), 1);
    if (!entry.keys.includes(key)) forgetKey(entry, key);
  }
  /** A line as JSON, or `undefined` when it is not. */
  function parsed(line: Buffer): unknown {
    try {
      return JSON.parse(utf8.decode(line));
    } catch {
      return undefined;
    }
  }
  /**
   * Splits a chunk read into lines (a line longer than `maxLineBytes` is answered `-32600` and
   * skipped to its end). When reading has to stop ({@link mayRead}) before a line, the rest of the
   * chunk is kept as {@link unread} and split when reading goes on (or, at a shutdown, by
   * {@link holdUnread}, to its end).
   */
  function split(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      if (!holdingUnread && !graceOver && start < chunk.length && !mayRead()) {
        unread = chunk.subarray(start);
        return;
      }
      const newline = chunk.indexOf(NEWLINE, start);
      if (newline === -1) {
        hold(chunk.subarray(start));
        return;
      }
      // The limit counts the message: a CR ending the line is not part of it.
      const before = newline > start ? chunk[newline - 1] : size > 0 ? line[size - 1] : undefined;
      const length = size + newline - start - (before === 0x0d ? 1 : 0);
      if (!skipping && length > maxLineBytes) tooLong();
      endLine(chunk.subarray(start, newline));
      start = newline + 1;
    }
  }
  /** Keeps the start of a line that continues in the next chunk. */
  function hold(chunk: Buffer): void {
    if (chunk.length === 0 || skipping) return;
    if (size + chunk.length > maxLineBytes + 1) {
      tooLong();
      return;
    }
    // Copied: a small remainder must not keep the whole chunk it came in alive.
    line = appendBytes(line, size, chunk, maxLineBytes + 1);
    size += chunk.length;
  }
  input.on("data", (data: Buffer | string) => {
    if (closing && !inputEnded) return; // close() was called: nothing more is read
    input.pause();
    split(typeof data === "string" ? Buffer.from(data) : data);
    pump();
  });
  // Paused for output: resume when it drains (the mark is at least the output's own high-water mark, so a 'drain' comes).
  output.on("drain", () => {
    if (dropping) caughtUp();
    pump();
  });

  let resolveClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  let finished = false;
  function finish(): void {
    if (finished) return;
    finished = true;
    clearTimeout(graceTimer);
    // Nothing is written after the last answer: a state change still held for a reader far behind is moot now.
    deferred.clear();
    // Written in order: this callback runs once every answer before it is flushed. A reader that
    // stopped reading does not hold the end up: after sendTimeoutMs, `closed` resolves anyway (as
    // the HTTP transport's answers get sendTimeoutMs to be taken). Before, that was one second, and
    // a reader taking 5 MB of answers at 2 MB/s lost most of them, the last one cut mid-line.
    if (broken || output.writableEnded) return resolveClosed();
    const stalled = setTimeout(resolveClosed, sendTimeoutMs);
    stalled.unref?.();
    output.write("", () => {
      clearTimeout(stalled);
      resolveClosed();
    });
  }
  let graceTimer: ReturnType<typeof setTimeout> | undefined;
  // Set by close(): the grace period running is not started again.
  let graceFixed = false;
  let channelClosed = false;
  /**
   * Shutting down: closes the channel once the lines read are dispatched, so they are served by
   * the session (the cap still holds them back while the requests running can finish). No client
   * response can be read any more: when a request waits for one, what is held is dispatched at
   * once, over the cap (at most `maxHeldBytes` of it), and the channel closed, which answers the
   * requests waiting `-32603`.
   */
  function closeWhenServed(): void {
    if (channelClosed || (heldCount > 0 && awaiting.size === 0 && !graceOver)) return;
    channelClosed = true;
    while (heldCount > 0) handleLine(takeHeld());
    dispatcher.closeChannel(channel, SHUTTING_DOWN);
    awaiting.clear();
  }
  /**
   * No more input: listen streams end with their result; what still runs after the grace period
   * is answered -32603. On close() the grace period starts now. At input end it starts again each
   * time a held request is started: the client sent them all before it ended its input, as a `cat`
   * of requests does, and they are served as the cap allows while they make progress (a close()
   * then, as SIGTERM, stops that: the grace period running is the last).
   */
  function beginShutdown(byClose: boolean): void {
    if (closing) {
      if (byClose) graceFixed = true;
      return;
    }
    closing = true;
    graceFixed = byClose;
    input.pause();
    dispatcher.closeSubscriptions();
    closeWhenServed();
    startGrace();
    pump();
  }
  function startGrace(): void {
    if (graceTimer !== undefined || finished) return;
    graceTimer = setTimeout(() => {
      graceOver = true;
      shutdown.abort(SHUTTING_DOWN);
      for (const controller of timed) controller.abort(SHUTTING_DOWN);
      pump();
    }, shutdownGraceMs);
  }
  /** At input end, a held request started: the grace period counts from now (see {@link beginShutdown}). */
  function restartGrace(): void {
    if (graceFixed || graceOver || finished || graceTimer === undefined) return;
    clearTimeout(graceTimer);
    graceTimer = undefined;
    startGrace();
  }
  function ended(): void {
    if (inputEnded) return;
    inputEnded = true;
    if (!closing) holdUnread(true);
    beginShutdown(false);
  }
  input.once("end", ended);
  input.once("error", ended);
  return {
    closed,
    close: () => {
      // Lines already read are still answered (those kept unread too); a line not read to its end is dropped.
      if (!closing) holdUnread(false);
      line = NO_BYTES;
      size = 0;
      beginShutdown(true);
      return closed;
    },
  };
}

/** A request id as one key, the number 1 and the string "1" apart. */
function idKey(id: string | number): string {
  return typeof id + ":" + String(id);
}

/** A request's id and method (`undefined` for anything else: a notification, a malformed message). */
function requestOf(message: unknown): { readonly id: string | number; readonly method: unknown } | undefined {
  if (!isPlainObject(message)) return undefined;
  const id = requestIdOf(own(message, "id"));
  return id === undefined ? undefined : { id, method: own(message, "method") };
}

