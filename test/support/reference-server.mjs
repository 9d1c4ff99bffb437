/**
 * The reference server for test/clients.test.ts: the official `@modelcontextprotocol/server`
 * serving, under the same names, the part of the conformance fixture
 * (templates/scaffold/examples/conformance/handlers.ts) the client tests use. It proves the
 * client harness against an independent server that serves both eras:
 *
 *     node test/support/reference-server.mjs           # stdio (serveStdio: both eras)
 *     node test/support/reference-server.mjs --http    # Streamable HTTP on 127.0.0.1, a free port
 *
 * Over HTTP, `createMcpHandler` serves 2025-era requests statelessly by default, one fresh
 * instance per request, which cannot carry a server→client request (elicitation) and its
 * answer. So 2025-era traffic goes, as the SDK documents for "an existing legacy deployment",
 * to a sessionful `WebStandardStreamableHTTPServerTransport` per `Mcp-Session-Id`, chosen with
 * `isLegacyRequest` in front of a `legacy: 'reject'` modern handler.
 *
 * Plain JavaScript: the test runs it with `node` as a process.
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import {
  acceptedContent,
  createMcpHandler,
  inputRequired,
  isLegacyRequest,
  McpServer,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import * as z from "zod";

/** One server instance: the tools, resource and prompt the client tests use, handlers written once (both eras). */
function build() {
  const server = new McpServer({ name: "reference", version: "1.0.0" }, { capabilities: { tools: {}, resources: {}, prompts: {} } });
  server.registerTool("test_simple_text", { description: "Returns simple text content" }, async () => ({
    content: [{ type: "text", text: "This is a simple text response for testing." }],
  }));
  const name = z.object({ name: z.string() });
  server.registerTool("test_input_required_result_elicitation", { description: "Asks for the user's name with one elicitation" }, async (ctx) => {
    const answer = acceptedContent(ctx.mcpReq.inputResponses, "user_name", name);
    if (answer !== undefined) return { content: [{ type: "text", text: `Hello, ${answer.name}!` }] };
    return inputRequired({ inputRequests: { user_name: inputRequired.elicit({ message: "What is your name?", requestedSchema: name }) } });
  });
  server.registerResource("static-text", "test://static-text", { description: "Static text resource", mimeType: "text/plain" }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: "text/plain", text: "This is the content of the static text resource." }],
  }));
  server.registerPrompt("test_simple_prompt", { description: "Simple prompt without arguments" }, async () => ({
    messages: [{ role: "user", content: { type: "text", text: "This is a simple prompt for testing." } }],
  }));
  return server;
}

const onerror = (error) => process.stderr.write(`reference server: ${error.message}\n`);

/** Answers a fetch `Request`: legacy traffic on its session's transport, modern traffic statelessly. */
function fetchHandler() {
  const modern = createMcpHandler(build, { legacy: "reject", onerror });
  const sessions = new Map();
  return async (request) => {
    const id = request.headers.get("mcp-session-id");
    if (id !== null) {
      const transport = sessions.get(id);
      return transport === undefined ? new Response("Session not found", { status: 404 }) : transport.handleRequest(request);
    }
    if (!(await isLegacyRequest(request.clone()))) return modern.fetch(request);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (session) => void sessions.set(session, transport),
      onsessionclosed: (session) => void sessions.delete(session),
    });
    await build().connect(transport);
    return transport.handleRequest(request);
  };
}

if (process.argv.includes("--http")) {
  const handle = fetchHandler();
  const http = createServer(async (req, res) => {
    try {
      const chunks = [];
      for await (const chunk of req) chunks.push(chunk);
      const body = Buffer.concat(chunks);
      const headers = Object.entries(req.headers).flatMap(([key, value]) => (value === undefined ? [] : [[key, String(value)]]));
      const response = await handle(
        new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body: body.length === 0 ? undefined : body }),
      );
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body !== null) for await (const chunk of response.body) res.write(chunk);
      res.end();
    } catch (error) {
      onerror(error);
      res.destroy();
    }
  });
  http.listen(0, "127.0.0.1", () => process.stderr.write(`listening on http://127.0.0.1:${http.address().port}/mcp\n`));
  process.on("SIGTERM", () => process.exit(0));
} else {
  serveStdio(build, { onerror });
}
