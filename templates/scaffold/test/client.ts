/**
 * What the tests share: the built server (dist/src/main.js) started over stdio or Streamable
 * HTTP, the `_meta` of a modern request, a legacy `initialize`, and readers for answers.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { after, before } from "node:test";
import { fileURLToPath } from "node:url";
import { DISPATCH_PROTOCOL_VERSION } from "../src/generated/dispatch.js";
import { MetaKey, REQUIRED_REQUEST_META_KEYS } from "../src/generated/meta.js";
import { createDispatcher } from "../src/server.js";

/** A JSON object as the tests write one (a message, a `_meta`). */
export type Message = { readonly [key: string]: unknown };

const main = join(dirname(fileURLToPath(import.meta.url)), "..", "src", "main.js");
/** What the tests' client says for each `_meta` key a revision may require of every request. */
const META_VALUES: Message = {
  "io.modelcontextprotocol/protocolVersion": DISPATCH_PROTOCOL_VERSION,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "test", version: "1" },
};
const CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
const required: readonly string[] = REQUIRED_REQUEST_META_KEYS;
/**
 * The keys the tests' client sends: those the schema requires, and its name and version where the
 * revision has that key without requiring it (clients SHOULD send it on every request, draft
 * basic/index § Per-request protocol fields), as a handler that reads `context.clientInfo` expects.
 */
const sentKeys: readonly string[] = [...required, ...(Object.values(MetaKey) as readonly string[]).filter((key) => key === CLIENT_INFO && !required.includes(key))];
const unknownKeys = sentKeys.filter((key) => !(key in META_VALUES));
if (unknownKeys.length > 0) throw new Error(`the schema requires _meta keys the tests give no value for: ${unknownKeys.join(", ")}; add them to META_VALUES in test/client.ts`);
/** The `_meta` every modern request carries: the keys the schema requires (the protocol version, the client's capabilities: none, …) and the client's name. */
export const meta: Message = Object.fromEntries(sentKeys.map((key) => [key, META_VALUES[key]]));
/** The `_meta` of a client that can answer elicitation requests. */
export const eliciting: Message = { ...meta, "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } };
export const discover: Message = { jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: meta } };
/** A legacy (2025-11-25) client's opening request, able to answer elicitation requests. */
export const initialize: Message = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: { elicitation: {} }, clientInfo: { name: "test", version: "1" } } };
/** Whether the server serves legacy clients, which open with `initialize` (a dual-era project). */
export const servesLegacy: boolean = createDispatcher().opensSession(initialize);

/** The text of the first content block of a result (tools/call, prompts/get's first message, resources/read). */
export function firstText(response: Record<string, unknown>): unknown {
  const result = response["result"] as { content?: { text?: unknown }[]; messages?: { content?: { text?: unknown } }[]; contents?: { text?: unknown }[] };
  return (result.content?.[0] ?? result.messages?.[0]?.content ?? result.contents?.[0])?.text;
}

/** The server over stdio: `send` writes one message, `next` reads the next one. */
export interface Stdio {
  readonly server: ChildProcessWithoutNullStreams;
  send(message: unknown): void;
  next(): Promise<Record<string, unknown>>;
}

export function startStdio(): Stdio {
  const server = spawn(process.execPath, [main], { stdio: "pipe" });
  const lines = createInterface({ input: server.stdout })[Symbol.asyncIterator]();
  return {
    server,
    send: (message) => server.stdin.write((typeof message === "string" ? message : JSON.stringify(message)) + "\n"),
    next: async () => JSON.parse((await lines.next()).value as string) as Record<string, unknown>,
  };
}

/**
 * One server over stdio for the tests of the suite (`describe`) this is called in: started
 * before them, stopped after. `send` and `next` as in {@link Stdio}.
 */
export function stdioPerSuite(): Pick<Stdio, "send" | "next"> {
  let stdio: Stdio | undefined;
  before(() => (stdio = startStdio()));
  after(() => stdio?.server.kill());
  return { send: (message) => stdio!.send(message), next: () => stdio!.next() };
}

/**
 * The server over Streamable HTTP on a free port of 127.0.0.1: its process and endpoint, once it
 * says where it listens (`listening on <url>`, on stderr). Lines it writes there before (a log
 * line of yours) are passed over; a server that ends first fails the tests with what it wrote.
 */
export async function startHttp(): Promise<{ readonly server: ChildProcessWithoutNullStreams; readonly url: string }> {
  const server = spawn(process.execPath, [main, "--http", "--port", "0"], { stdio: "pipe" });
  let written = "";
  const url = await new Promise<string | undefined>((resolve) => {
    const lines = createInterface({ input: server.stderr });
    lines.on("line", (line) => {
      const listening = /listening on (\S+)/.exec(line)?.[1];
      if (listening !== undefined) resolve(listening);
      else written += `${line}\n`;
    });
    lines.on("close", () => resolve(undefined));
  });
  if (url === undefined) throw new Error(`the server ended before it said where it listens; it wrote:\n${written}`);
  return { server, url };
}
