/**
 * A tool's `outputSchema` to a legacy client whose revision has no `structuredContent` (2025-03-26,
 * 2024-11-05): the dispatcher drops `structuredContent` from such a client's `tools/call` results
 * (`resultDrop`), so it must not advertise the `outputSchema` that promises it. A client that reads
 * `outputSchema` (the TypeScript SDK v1 `Client`, which negotiates 2025-03-26 with a server serving
 * 2026-07-28 and 2025-03-26) otherwise refuses every call to that tool: "Tool x has an output schema
 * but did not return structured content". A 2025-06-18 client, whose revision has both, keeps both.
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { generateInto, SPEC_DIR } from "./support/corpus.js";

type Json = { [key: string]: unknown };
type Answer = { result?: Json; error?: { code: number; message: string } } | undefined;
interface Dispatcher {
  handle(message: unknown, context?: { channel: object }): Promise<Answer>;
}
type Create = (options: Json) => Dispatcher;

const TOOL = {
  name: "weather",
  inputSchema: { type: "object" },
  outputSchema: { type: "object", properties: { tempC: { type: "number" } }, required: ["tempC"] },
};
const STRUCTURED = { tempC: 21.5 };

let create: Create;

beforeAll(async () => {
  const dir = await generateInto("legacy-output-schema", {
    schema: [
      { specDir: SPEC_DIR, version: "draft" },
      { specDir: SPEC_DIR, version: "2025-06-18" },
      { specDir: SPEC_DIR, version: "2025-03-26" },
    ],
    docs: "none",
  });
  create = ((await import(join(dir, "dispatch.ts"))) as { createServerDispatcher: Create }).createServerDispatcher;
});

/** A legacy session of `version` on a channel of its own: the tool list and a call of the tool. */
async function legacy(version: string): Promise<{ tool: Json | undefined; call: Json | undefined; errors: unknown[] }> {
  const errors: unknown[] = [];
  const dispatcher = create({
    serverInfo: { name: "s", version: "1" },
    onError: (error: unknown) => errors.push(error),
    tools: [{ definition: TOOL, call: () => ({ content: [{ type: "text", text: JSON.stringify(STRUCTURED) }], structuredContent: STRUCTURED }) }],
  });
  const context = { channel: {} };
  const opened = await dispatcher.handle({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "c", version: "1" } } }, context);
  expect(opened?.result?.["protocolVersion"]).toBe(version);
  await dispatcher.handle({ jsonrpc: "2.0", method: "notifications/initialized" }, context);
  const list = await dispatcher.handle({ jsonrpc: "2.0", id: 2, method: "tools/list" }, context);
  const call = await dispatcher.handle({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: TOOL.name, arguments: {} } }, context);
  return { tool: (list?.result?.["tools"] as Json[] | undefined)?.[0], call: call?.result, errors };
}

describe("a tool's outputSchema to a legacy client", () => {
  it("is left out of tools/list for a revision whose tools/call results have no structuredContent (2025-03-26), as structuredContent is left out of its calls", async () => {
    const { tool, call, errors } = await legacy("2025-03-26");
    expect(call).toEqual({ content: [{ type: "text", text: '{"tempC":21.5}' }] });
    expect(tool).toEqual({ name: "weather", inputSchema: { type: "object" } });
    expect(errors).toEqual([]);
  });

  it("is kept, with structuredContent, for a revision that has both (2025-06-18)", async () => {
    const { tool, call, errors } = await legacy("2025-06-18");
    expect(call?.["structuredContent"]).toEqual(STRUCTURED);
    expect(tool?.["outputSchema"]).toEqual(TOOL.outputSchema);
    expect(errors).toEqual([]);
  });
});
