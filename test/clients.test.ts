/**
 * Real MCP clients, written independently of this project, against a server made by `scaffold`
 * with default options (dual-era: the draft schema and the legacy ones beside it), over stdio and Streamable
 * HTTP (issue 11, item 7):
 *
 * - the TypeScript SDK v1 `Client` (`@modelcontextprotocol/sdk` 1.32.2) with its
 *   `StdioClientTransport` and `StreamableHTTPClientTransport`: opens with `initialize`;
 * - the same `Client` of SDK 1.17.5 (installed as `@modelcontextprotocol/sdk-1.17`), whose latest
 *   version is 2025-06-18 and which refuses a server answering any version it does not know: as
 *   the SDK before 1.25, and the clients built on it, still in use;
 * - the SDK v2 `Client` (`@modelcontextprotocol/client` 2.4.0) in its default mode (`legacy`:
 *   `initialize`), in `auto` (probes with `server/discover`, falls back to `initialize`) and
 *   pinned to 2026-07-28 (`server/discover`, then per-request `_meta`).
 *
 * Each connects, lists and calls tools, lists and reads resources, gets a prompt, and completes
 * a tool call that needs elicitation: the server's handler, written once with the modern types
 * (the scaffold's default example, templates/scaffold/src/handlers.ts.hbs: `greet`), answers
 * the first round with an `InputRequiredResult`; the client's elicitation handler answers (a
 * server→client request on the legacy session, or the client's own retry with `inputResponses`
 * and `requestState` in the modern era).
 * Which era each client spoke is read off the wire, not assumed; a legacy client must receive no
 * modern-only result member (`resultType`, `ttlMs`, `cacheScope`, `io.modelcontextprotocol/` `_meta` keys).
 *
 * The same clients run first against the official `@modelcontextprotocol/server` 2.4.0 serving
 * the conformance fixture's names (test/support/reference-server.mjs): that proves the harness,
 * independently of this project's server. (The `--example conformance` project itself is
 * checked by the conformance suite, in test/scaffold.test.ts.)
 */
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client as ClientV117 } from "@modelcontextprotocol/sdk-1.17/client/index.js";
import { StdioClientTransport as StdioV117 } from "@modelcontextprotocol/sdk-1.17/client/stdio.js";
import { StreamableHTTPClientTransport as HttpV117 } from "@modelcontextprotocol/sdk-1.17/client/streamableHttp.js";
import { ElicitRequestSchema as ElicitRequestSchemaV117 } from "@modelcontextprotocol/sdk-1.17/types.js";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, SPEC_DIR } from "./support/corpus.js";
import { scaffoldBuilt, startHttpServer, type HttpServer } from "./support/servers.js";

/** How long one client may take for its whole exchange (connect to close) before the test fails. */
const EXCHANGE_MS = 20_000;
const NAME = "Ada";

/** What a client calls on a server, and the text each call must answer. */
interface Script {
  /** A tool without input rounds, its arguments and the text it answers. */
  readonly tool: { readonly name: string; readonly arguments: { readonly [key: string]: unknown }; readonly text: string };
  /** A tool that asks for the user's name (elicitation), the message it asks with, and its text when the name is given. */
  readonly asking: { readonly name: string; readonly message: string; readonly text: string };
  readonly resource: { readonly uri: string; readonly text: string };
  readonly prompt: { readonly name: string; readonly text: string };
}

/** A server to talk to: how to start it over stdio, and how to start it over HTTP. */
interface Target {
  readonly name: string;
  /** `node` arguments that serve stdio; `--http` is appended to serve HTTP. */
  args(): readonly string[];
  /** The `serverInfo.name` it reports. */
  readonly serverName: string;
  readonly script: Script;
}

type Endpoint = { readonly transport: "stdio"; readonly args: readonly string[] } | { readonly transport: "http"; readonly url: string };

/** What both SDKs' `Client` offer that the exchange uses, in the shape the test reads. */
interface ClientFace {
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(params: { name: string; arguments: { [key: string]: unknown } }): Promise<unknown>;
  listResources(): Promise<{ resources: { uri: string }[] }>;
  readResource(params: { uri: string }): Promise<{ contents: unknown[] }>;
  getPrompt(params: { name: string }): Promise<{ messages: unknown[] }>;
  getServerVersion(): { name: string } | undefined;
  close(): Promise<void>;
}

/** The messages a client transport sent and received, in order (both SDKs' `Transport`: `send` and `onmessage`). */
interface Wire {
  readonly sent: { [key: string]: unknown }[];
  readonly received: { [key: string]: unknown }[];
}

/** Records what passes through `transport`; set before `connect`, which installs `onmessage`. */
function recordWire(transport: object): Wire {
  const wire: Wire = { sent: [], received: [] };
  const t = transport as { send(message: unknown, options?: unknown): Promise<void>; onmessage?: (message: unknown, extra?: unknown) => void };
  const send = t.send.bind(t);
  t.send = (message, options) => {
    wire.sent.push(message as { [key: string]: unknown });
    return send(message, options);
  };
  let handler: ((message: unknown, extra?: unknown) => void) | undefined;
  Object.defineProperty(t, "onmessage", {
    configurable: true,
    enumerable: true,
    get: () =>
      handler === undefined
        ? undefined
        : (message: unknown, extra?: unknown) => {
            wire.received.push(message as { [key: string]: unknown });
            handler?.(message, extra);
          },
    set: (value: ((message: unknown, extra?: unknown) => void) | undefined) => (handler = value),
  });
  return wire;
}

const MODERN_VERSION_KEY = "io.modelcontextprotocol/protocolVersion";

/** The era and protocol version a client spoke, from its wire: `initialize` and its result, or the modern `_meta` key of its requests. */
function spoken(wire: Wire): { era: "legacy" | "modern"; protocolVersion: unknown } {
  const initialize = wire.sent.find((m) => m["method"] === "initialize");
  if (initialize !== undefined) {
    const answer = wire.received.find((m) => m["id"] === initialize["id"] && "result" in m);
    return { era: "legacy", protocolVersion: (answer?.["result"] as { protocolVersion?: unknown } | undefined)?.protocolVersion };
  }
  const request = wire.sent.find((m) => typeof m["method"] === "string" && "id" in m);
  const meta = (request?.["params"] as { _meta?: { [key: string]: unknown } } | undefined)?._meta;
  return { era: "modern", protocolVersion: meta?.[MODERN_VERSION_KEY] };
}

/**
 * The modern-only members in what a legacy client received: `resultType`, `ttlMs`, `cacheScope`
 * at a result's top level and `io.modelcontextprotocol/` keys in its `_meta` (a 2025-11-25
 * result has none of them). Empty for a modern client, which may get them all.
 */
function modernMembersSeenByLegacy(wire: Wire): string[] {
  if (spoken(wire).era === "modern") return [];
  return wire.received.flatMap((message) => {
    const result = message["result"];
    if (typeof result !== "object" || result === null) return [];
    const r = result as { [key: string]: unknown };
    const meta = typeof r["_meta"] === "object" && r["_meta"] !== null ? Object.keys(r["_meta"]) : [];
    return [
      ...["resultType", "ttlMs", "cacheScope"].filter((key) => key in r),
      ...meta.filter((key) => key.startsWith("io.modelcontextprotocol/")).map((key) => `_meta.${key}`),
    ].map((member) => `id ${String(message["id"])}: ${member}`);
  });
}

/** The text of the first content block of a `CallToolResult` (with `isError` when set). */
function toolText(result: unknown): string {
  const r = result as { content?: { type?: string; text?: string }[]; isError?: boolean };
  const first = r.content?.[0];
  const text = first?.type === "text" ? String(first.text) : JSON.stringify(r);
  return r.isError === true ? `isError: ${text}` : text;
}

function firstText(items: readonly unknown[] | undefined, pick: (item: { [key: string]: unknown }) => unknown): unknown {
  const first = items?.[0];
  return typeof first === "object" && first !== null ? pick(first as { [key: string]: unknown }) : undefined;
}

/** A client kind: how it is built and connected, and the era it must end up speaking with a dual-era server. */
interface ClientKind {
  readonly name: string;
  readonly expected: { era: "legacy" | "modern"; protocolVersion: string };
  connect(endpoint: Endpoint, elicited: string[], stderr: { text: string }): Promise<{ client: ClientFace; wire: Wire }>;
}

function collect(stream: Readable | null, into: { text: string }): void {
  stream?.on("data", (chunk: Buffer) => (into.text += chunk.toString()));
}

const INFO = { name: "clients-test", version: "1.0.0" } as const;

/** What the exchange uses of one SDK v1 release: its `Client`, its two transports and its elicitation request schema (each release its own classes). */
interface SdkV1 {
  readonly Client: new (info: typeof INFO, options: { capabilities: { elicitation: object } }) => {
    setRequestHandler(schema: never, handler: (request: { params: { message: string } }) => Promise<unknown>): void;
    connect(transport: never): Promise<void>;
  };
  readonly Stdio: new (options: { command: string; args: string[]; stderr: "pipe" }) => object & { readonly stderr: unknown };
  readonly Http: new (url: URL) => object;
  readonly ElicitRequestSchema: unknown;
}

/** An SDK v1 `Client` of one release (`sdk`), which must end up speaking `protocolVersion` with a dual-era server. */
function sdkV1(name: string, protocolVersion: string, sdk: SdkV1): ClientKind {
  return {
    name,
    expected: { era: "legacy", protocolVersion },
    async connect(endpoint, elicited, stderr) {
      const client = new sdk.Client(INFO, { capabilities: { elicitation: {} } });
      client.setRequestHandler(sdk.ElicitRequestSchema as never, async (request) => {
        elicited.push(request.params.message);
        return { action: "accept", content: { name: NAME } };
      });
      const transport =
        endpoint.transport === "stdio" ? new sdk.Stdio({ command: process.execPath, args: [...endpoint.args], stderr: "pipe" }) : new sdk.Http(new URL(endpoint.url));
      if (transport instanceof sdk.Stdio) collect(transport.stderr as Readable | null, stderr);
      const wire = recordWire(transport);
      await client.connect(transport as never);
      return { client: client as unknown as ClientFace, wire };
    },
  };
}

const SDK_V1 = sdkV1("SDK v1 Client (@modelcontextprotocol/sdk 1.32.2)", "2025-11-25", { Client: ClientV1, Stdio: StdioV1, Http: HttpV1, ElicitRequestSchema } as unknown as SdkV1);

/** SDK 1.17.5: 2025-06-18 at the latest; before this project's default scaffold served 2025-06-18 it failed to connect ("Server's protocol version is not supported: 2025-11-25", helper-155). */
const SDK_V1_17 = sdkV1("SDK v1 Client of 1.17.5 (@modelcontextprotocol/sdk-1.17)", "2025-06-18", {
  Client: ClientV117,
  Stdio: StdioV117,
  Http: HttpV117,
  ElicitRequestSchema: ElicitRequestSchemaV117,
} as unknown as SdkV1);

function sdkV2(mode: "default" | "auto" | "pinned"): ClientKind {
  const negotiation = mode === "default" ? {} : { versionNegotiation: { mode: mode === "auto" ? ("auto" as const) : { pin: "2026-07-28" } } };
  return {
    name: `SDK v2 Client (@modelcontextprotocol/client 2.4.0), ${mode === "pinned" ? "pinned to 2026-07-28" : mode === "auto" ? "mode auto" : "default mode"}`,
    expected: mode === "default" ? { era: "legacy", protocolVersion: "2025-11-25" } : { era: "modern", protocolVersion: "2026-07-28" },
    async connect(endpoint, elicited, stderr) {
      const client = new ClientV2(INFO, { capabilities: { elicitation: { form: {} } }, ...negotiation });
      client.setRequestHandler("elicitation/create", async (request) => {
        elicited.push(request.params.message);
        return { action: "accept", content: { name: NAME } };
      });
      const transport =
        endpoint.transport === "stdio"
          ? new StdioV2({ command: process.execPath, args: [...endpoint.args], stderr: "pipe" })
          : new HttpV2(new URL(endpoint.url));
      if (transport instanceof StdioV2) collect(transport.stderr as Readable | null, stderr);
      const wire = recordWire(transport);
      await client.connect(transport);
      return { client: client as unknown as ClientFace, wire };
    },
  };
}

const CLIENTS: readonly ClientKind[] = [SDK_V1, SDK_V1_17, sdkV2("default"), sdkV2("auto"), sdkV2("pinned")];

/** `promise`, or a rejection after `ms`. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Connects `kind` to `endpoint`, runs the exchange, closes, and answers what it observed. */
async function exchange(kind: ClientKind, endpoint: Endpoint, script: Script, serverStderr: () => string) {
  const elicited: string[] = [];
  const stderr = { text: "" };
  let connected: { client: ClientFace; wire: Wire } | undefined;
  try {
    return await within(
      (async () => {
        connected = await kind.connect(endpoint, elicited, stderr);
        const { client, wire } = connected;
        const tools = await client.listTools();
        const simple = await client.callTool({ name: script.tool.name, arguments: { ...script.tool.arguments } });
        const resources = await client.listResources();
        const read = await client.readResource({ uri: script.resource.uri });
        const prompt = await client.getPrompt({ name: script.prompt.name });
        const elicitation = await client.callTool({ name: script.asking.name, arguments: {} });
        return {
          ...spoken(wire),
          serverName: client.getServerVersion()?.name,
          tools: [script.tool.name, script.asking.name].filter((name) => tools.tools.some((t) => t.name === name)),
          simple: toolText(simple),
          resources: resources.resources.map((r) => r.uri).filter((uri) => uri === script.resource.uri),
          read: firstText(read.contents, (c) => c["text"]),
          prompt: firstText(prompt.messages, (m) => (m["content"] as { text?: unknown } | undefined)?.text),
          elicitation: toolText(elicitation),
          elicited,
          modernMembersSeenByLegacy: modernMembersSeenByLegacy(wire),
        };
      })(),
      EXCHANGE_MS,
      kind.name,
    );
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    const wire = connected?.wire;
    throw new Error(
      `${kind.name} over ${endpoint.transport}: ${detail}\n` +
        (wire === undefined ? "" : `sent: ${JSON.stringify(wire.sent).slice(0, 3000)}\nreceived: ${JSON.stringify(wire.received).slice(0, 3000)}\n`) +
        `server stderr: ${(endpoint.transport === "stdio" ? stderr.text : serverStderr()).slice(0, 2000)}`,
      { cause: error },
    );
  } finally {
    await within(connected?.client.close() ?? Promise.resolve(), 5_000, `${kind.name}: close`).catch(() => {});
  }
}

/** What every client must observe against a dual-era server running `target.script`. */
function expectedFor(kind: ClientKind, target: Target) {
  const { script } = target;
  return {
    ...kind.expected,
    serverName: target.serverName,
    tools: [script.tool.name, script.asking.name],
    simple: script.tool.text,
    resources: [script.resource.uri],
    read: script.resource.text,
    prompt: script.prompt.text,
    elicitation: script.asking.text,
    elicited: [script.asking.message],
    modernMembersSeenByLegacy: [],
  };
}

const REFERENCE: Target = {
  name: "the official @modelcontextprotocol/server 2.4.0 (reference: proves the harness)",
  serverName: "reference",
  args: () => [join(ROOT, "test", "support", "reference-server.mjs")],
  // The conformance fixture's names, which the reference server serves.
  script: {
    tool: { name: "test_simple_text", arguments: {}, text: "This is a simple text response for testing." },
    asking: { name: "test_input_required_result_elicitation", message: "What is your name?", text: `Hello, ${NAME}!` },
    resource: { uri: "test://static-text", text: "This is the content of the static text resource." },
    prompt: { name: "test_simple_prompt", text: "This is a simple prompt for testing." },
  },
};

let scaffolded: string | undefined;
const SCAFFOLDED: Target = {
  name: "a server made by scaffold with default options (its example handlers)",
  serverName: "server",
  // The default example of src/handlers.ts.
  script: {
    tool: { name: "echo", arguments: { text: "hi" }, text: "hi" },
    asking: { name: "greet", message: "What is your name?", text: `Hello, ${NAME}!` },
    resource: { uri: "example://about", text: "An MCP server scaffolded by mcp-schema-codegen." },
    prompt: { name: "haiku", text: "Write a haiku about the sea." },
  },
  args: () => {
    if (scaffolded === undefined) throw new Error("the scaffolded project was not built");
    return [join(scaffolded, "dist", "src", "main.js")];
  },
};

describe.each([REFERENCE, SCAFFOLDED])("$name", (target) => {
  let http: HttpServer | undefined;
  beforeAll(async () => {
    if (target === SCAFFOLDED)
      scaffolded = await scaffoldBuilt("clients-scaffold", ["--spec", SPEC_DIR, "--spec-version", "draft", "--docs", "none"]);
    http = await startHttpServer(process.execPath, [...target.args(), "--http", "--port", "0"]);
  }, 120_000);
  afterAll(async () => {
    await http?.stop();
  });

  for (const transport of ["stdio", "http"] as const)
    describe(`over ${transport === "stdio" ? "stdio" : "Streamable HTTP"}`, () => {
      it.each(CLIENTS.map((kind) => [kind.name, kind] as const))("%s", { timeout: EXCHANGE_MS + 10_000 }, async (_name, kind) => {
        if (http === undefined) throw new Error("the HTTP server did not start");
        const endpoint: Endpoint = transport === "stdio" ? { transport, args: target.args() } : { transport, url: http.url };
        const observed = await exchange(kind, endpoint, target.script, http.stderr);
        expect(observed).toEqual(expectedFor(kind, target));
      });
    });
});
