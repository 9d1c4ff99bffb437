/**
 * Conformance fixture server: the tools, resources, prompts and completions that the official
 * MCP conformance suite (`@modelcontextprotocol/conformance`, `server --requirements 2026-07-28`
 * and `--requirements 2025-11-25`) calls by name, written once with the modern types: one process
 * on one endpoint serves both requirement sets (the dispatcher adapts them to 2025-11-25 clients).
 * Each fixture says which scenario it serves. Generate a project with this file as
 * src/handlers.ts, then run the suite against it, once per requirement set:
 *
 *     node dist/src/main.js --http --port 3000
 *     npx @modelcontextprotocol/conformance@0.2.0-alpha.12 server --url http://127.0.0.1:3000/mcp --requirements 2026-07-28
 *     npx @modelcontextprotocol/conformance@0.2.0-alpha.12 server --url http://127.0.0.1:3000/mcp --requirements 2025-11-25
 *
 * The suite imports `fs.globSync`, which Node 22 has and Node 20 lacks: on Node 20 run it from
 * an mcp-schema-codegen checkout, under its loader that supplies it:
 *
 *     node --import ./test/support/globsync-shim.mjs node_modules/@modelcontextprotocol/conformance/dist/index.js \
 *       server --url http://127.0.0.1:3000/mcp --requirements 2026-07-28
 *
 * Its summary's `Total:` line counts the not-scored scenarios too (the tasks extension, which this
 * fixture does not implement); the exit code and the "Not scored" list say what counts.
 *
 * The wire rules (`resultType`, `ttlMs`/`cacheScope`, `_meta` serverInfo, envelope checks,
 * `-32601` for removed methods, `-32021` for input requests the client cannot answer,
 * `subscriptions/listen`) are the generated dispatcher's job; the headers, status codes and SSE
 * streams are src/generated/runtime/http.ts's. What is here is fixture data and behaviour only.
 *
 * Nothing is stored between requests except the HMAC key that signs `requestState`
 * (MRTR, SEP-2322) and the dispatcher `onDispatcher` hands over for `publish`; what a 2025-11-25
 * session negotiated (its log level, its resource subscriptions) the dispatcher keeps.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import {
  defineHandlers,
  HandlerError,
  toolError,
  type RequestContext,
  type ServerDispatcher,
  type ServerDispatcherOptions,
  type ServerHandlers,
  type ToolCallResult,
  type ToolEntry,
} from "./generated/dispatch.js";
import type * as T from "./generated/types.js";

// ------------------------------------------------------------------------------ data ----

/** A 1×1 PNG (tools-call-image, tools-call-mixed-content, resources-read-binary, prompts-get-with-image). */
const PNG_1X1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/** A minimal WAV file (tools-call-audio). */
const WAV_MIN = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

/** `inputSchema` of a tool without arguments. */
const NO_ARGUMENTS: T.Tool["inputSchema"] = { type: "object", properties: {} };

/** json-schema-2020-12 (pending): this exact schema must come back from `tools/list` unchanged. */
const JSON_SCHEMA_2020_12: T.Tool["inputSchema"] = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  $defs: {
    address: {
      $anchor: "addressDef",
      type: "object",
      properties: { street: { type: "string" }, city: { type: "string" } },
    },
  },
  properties: {
    name: { type: "string" },
    address: { $ref: "#/$defs/address" },
    contactMethod: { type: "string", enum: ["phone", "email"] },
    phone: { type: "string" },
    email: { type: "string" },
  },
  allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
  if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
  then: { required: ["phone"] },
  else: { required: ["email"] },
  additionalProperties: false,
};

const LOG_LEVELS: readonly T.LoggingLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

// ------------------------------------------------------------------------ helpers ----

type Args = { readonly [key: string]: unknown };

/** The MRTR members of a retried request (SEP-2322): top-level `params.inputResponses` and `params.requestState`. */
interface RetryInput {
  readonly inputResponses?: T.InputResponses | undefined;
  readonly requestState?: string | undefined;
}

/** A fixture tool: its definition and what it does with the arguments and the MRTR retry input. */
interface Fixture {
  readonly definition: T.Tool;
  run(args: Args, input: RetryInput, context: RequestContext): ToolCallResult | Promise<ToolCallResult>;
}

function isObject(v: unknown): v is { readonly [key: string]: unknown } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function text(value: string): ToolCallResult {
  return { content: [{ type: "text", text: value }] };
}

function tool(name: string, description: string, run: Fixture["run"], inputSchema: T.Tool["inputSchema"] = NO_ARGUMENTS): Fixture {
  return { definition: { name, description, inputSchema }, run };
}

/**
 * Sends `notifications/message` at `level` when the client asked for log messages at that level or
 * below: `context.logLevel` is the request's io.modelcontextprotocol/logLevel `_meta` (modern) or
 * what the session set with logging/setLevel (2025-11-25); without it nothing is sent.
 */
function logger(context: RequestContext): (level: T.LoggingLevel, data: string) => void {
  const threshold = LOG_LEVELS.indexOf(context.logLevel as T.LoggingLevel);
  return (level, data) => {
    if (threshold !== -1 && LOG_LEVELS.indexOf(level) >= threshold) context.notify("notifications/message", { level, logger: "conformance-fixture", data });
  };
}

/** An `elicitation/create` input request for a form of string/boolean fields, all required. */
function elicit(message: string, fields: { readonly [field: string]: "string" | "boolean" }): T.ElicitRequest {
  const properties: { [field: string]: T.PrimitiveSchemaDefinition } = {};
  for (const [field, type] of Object.entries(fields)) properties[field] = type === "string" ? { type: "string" } : { type: "boolean" };
  return elicitForm(message, properties);
}

/** An `elicitation/create` input request for a form of the given fields (`required`: all of them unless given). */
function elicitForm(
  message: string,
  properties: { readonly [field: string]: T.PrimitiveSchemaDefinition },
  required: readonly string[] = Object.keys(properties),
): T.ElicitRequest {
  return { method: "elicitation/create", params: { mode: "form", message, requestedSchema: { type: "object", properties: { ...properties }, required: [...required] } } };
}

/** `action=…, content={…}` of an elicitation answer (accept, decline or cancel). */
function describeElicitation(response: { readonly [key: string]: unknown }): string {
  return `action=${String(response["action"])}, content=${JSON.stringify(response["content"] ?? {})}`;
}

/** The text a sampling answer carries (its content's `text`, else the content as JSON). */
function sampledText(response: { readonly [key: string]: unknown }): string {
  const content = response["content"];
  return isObject(content) && typeof content["text"] === "string" ? content["text"] : JSON.stringify(content);
}

function sample(prompt: string, maxTokens: number): T.CreateMessageRequest {
  return { method: "sampling/createMessage", params: { messages: [{ role: "user", content: { type: "text", text: prompt } }], maxTokens } };
}

const LIST_ROOTS: T.ListRootsRequest = { method: "roots/list", params: {} };

function inputRequired(inputRequests: T.InputRequests, requestState?: string): T.InputRequiredResult {
  return requestState === undefined
    ? { resultType: "input_required", inputRequests }
    : { resultType: "input_required", inputRequests, requestState };
}

/** The `content` of an accepted elicitation answer, else `undefined`. */
function accepted(response: T.InputResponse | undefined): { readonly [field: string]: unknown } | undefined {
  return isObject(response) && response["action"] === "accept" && isObject(response["content"]) ? response["content"] : undefined;
}

// --------------------------------------------------------------- requestState (HMAC) ----

/**
 * `requestState` is opaque to the client and comes back on the retry, so it is signed with a
 * per-process HMAC key: a state that was altered (input-required-result-tampered-state) or that
 * belongs to another tool is rejected with `-32602`.
 */
const STATE_KEY = randomBytes(32);

interface State {
  readonly tool: string;
  readonly round: number;
  readonly name?: string;
}

function mac(payload: string): string {
  return createHmac("sha256", STATE_KEY).update(payload).digest("base64url");
}

function signState(state: State): string {
  const payload = Buffer.from(JSON.stringify(state)).toString("base64url");
  return payload + "." + mac(payload);
}

function verifyState(requestState: string, toolName: string): State {
  const [payload, signature, extra] = requestState.split(".");
  const expected = payload === undefined ? "" : mac(payload);
  if (
    payload === undefined ||
    signature === undefined ||
    extra !== undefined ||
    signature.length !== expected.length ||
    !timingSafeEqual(Buffer.from(signature), Buffer.from(expected))
  )
    throw new HandlerError(-32602, "Invalid params: requestState failed its integrity check");
  const state: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  if (!isObject(state) || state["tool"] !== toolName || typeof state["round"] !== "number")
    throw new HandlerError(-32602, "Invalid params: requestState belongs to another request");
  return state as unknown as State;
}

// ------------------------------------------------------------------ subscriptions ----

/** The dispatcher, handed over by src/server.ts, for `publish` (server-stateless: subscriptions/listen checks). */
let dispatcher: ServerDispatcher | undefined;

/** Called once by src/server.ts with the dispatcher built from `handlers` and `options`. */
export function onDispatcher(created: ServerDispatcher): void {
  dispatcher = created;
}

// ------------------------------------------------------------------------- tools ----

const FIXTURES: readonly Fixture[] = [
  // tools-call-simple-text (called without `arguments`); also the first tool, which
  // http-header-validation (pending) calls with `{}`.
  tool("test_simple_text", "Returns simple text content", () => text("This is a simple text response for testing.")),

  // tools-call-image
  tool("test_image_content", "Returns image content", () => ({ content: [{ type: "image", data: PNG_1X1, mimeType: "image/png" }] })),

  // tools-call-audio (mimeType must be exactly audio/wav)
  tool("test_audio_content", "Returns audio content", () => ({ content: [{ type: "audio", data: WAV_MIN, mimeType: "audio/wav" }] })),

  // tools-call-embedded-resource
  tool("test_embedded_resource", "Returns an embedded resource", () => ({
    content: [
      {
        type: "resource",
        resource: { uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." },
      },
    ],
  })),

  // tools-call-mixed-content: text, image and resource in one result
  tool("test_multiple_content_types", "Returns text, image and resource content", () => ({
    content: [
      { type: "text", text: "Multiple content types test:" },
      { type: "image", data: PNG_1X1, mimeType: "image/png" },
      {
        type: "resource",
        resource: {
          uri: "test://mixed-content-resource",
          mimeType: "application/json",
          text: JSON.stringify({ test: "data", value: 123 }),
        },
      },
    ],
  })),

  // tools-call-error: a tool error (`isError: true` result), not a JSON-RPC error
  tool("test_error_handling", "Always returns a tool error (isError: true)", () =>
    toolError("This tool intentionally returns an error for testing"),
  ),

  // tools-call-with-progress: 0, 50, 100 of 100, ~50 ms apart, on the POST's SSE stream before the result
  tool("test_tool_with_progress", "Reports progress notifications when the request has a progressToken", async (_args, _input, context) => {
    const token = context.meta["progressToken"];
    for (const progress of [0, 50, 100]) {
      if (typeof token === "string" || typeof token === "number")
        context.notify("notifications/progress", {
          progressToken: token,
          progress,
          total: 100,
          message: `Completed step ${progress} of 100`,
        });
      if (progress !== 100) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return text("Progress tool completed");
  }),

  // server-stateless (sep-2575-server-no-log-without-loglevel): log messages only when the
  // request's `_meta` asks for them with io.modelcontextprotocol/logLevel, at or above that level
  tool("test_logging_tool", "Emits log messages only when the client asked for them (logLevel)", (_args, _input, context) => {
    const log = logger(context);
    log("info", "Tool execution started");
    log("info", "Tool execution completed");
    return text("Logging tool executed");
  }),

  // tools-call-with-logging (2025-11-25, after logging/setLevel): three info messages ~50 ms apart
  tool("test_tool_with_logging", "Sends three log messages while it runs, when the client asked for them", async (_args, _input, context) => {
    const log = logger(context);
    log("info", "Tool execution started");
    await new Promise((resolve) => setTimeout(resolve, 50));
    log("info", "Tool processing data");
    await new Promise((resolve) => setTimeout(resolve, 50));
    log("info", "Tool execution completed");
    return text("Logging tool completed");
  }),

  // server-stateless (sep-2575-server-rejects-undeclared-capability): without the sampling client
  // capability → -32021, data.requiredCapabilities {sampling: {}}, HTTP 400; with it → MRTR sampling
  tool("test_missing_capability", "Requires the client's sampling capability", (_args, input, context) => {
    context.requireClientCapabilities({ sampling: {} });
    if (input.inputResponses?.["sample"] !== undefined) return text("Sampling capability present; got a sampling response");
    return inputRequired({ sample: sample("Say hello", 20) });
  }),

  // server-stateless (sep-2575-http-server-no-independent-requests-on-stream): asks for input through
  // an InputRequiredResult, never with a server→client request on the response stream
  tool("test_streaming_elicitation", "Asks for elicitation input through an InputRequiredResult", (_args, input) => {
    const answer = accepted(input.inputResponses?.["answer"]);
    if (answer !== undefined) return text(`Got: ${JSON.stringify(answer)}`);
    return inputRequired({ answer: elicit("Please answer", { answer: "string" }) });
  }),

  // server-stateless (subscription checks): publish list_changed to subscriptions/listen streams
  tool("test_trigger_tool_change", "Diagnostic hook: sends notifications/tools/list_changed to listening subscriptions", () => {
    const reached = dispatcher?.publish("notifications/tools/list_changed") ?? 0;
    return text(`notifications/tools/list_changed sent to ${reached} subscription(s)`);
  }),
  tool("test_trigger_prompt_change", "Diagnostic hook: sends notifications/prompts/list_changed to listening subscriptions", () => {
    const reached = dispatcher?.publish("notifications/prompts/list_changed") ?? 0;
    return text(`notifications/prompts/list_changed sent to ${reached} subscription(s)`);
  }),

  // json-schema-2020-12 (pending): the schema must be listed verbatim
  tool(
    "json_schema_2020_12_tool",
    "Tool whose inputSchema uses JSON Schema 2020-12 features",
    (args) => text(`Received: ${JSON.stringify(args)}`),
    JSON_SCHEMA_2020_12,
  ),

  // http-custom-header-server-validation (pending): a string parameter mirrored into the
  // Mcp-Param-Region header, which src/generated/runtime/http.ts checks against the arguments
  tool(
    "test_custom_header",
    "Echoes a region argument that is mirrored into the Mcp-Param-Region header",
    (args) => text(`region=${String(args["region"])}`),
    {
      type: "object",
      properties: { region: { type: "string", description: "Any region name", "x-mcp-header": "Region" } },
      required: ["region"],
    },
  ),

  // ---- 2025-11-25 clients (--requirements 2025-11-25), served by the same handlers ----
  // These ask for input the modern way, with an InputRequiredResult; for a client that opened with
  // initialize the dispatcher sends each input request as a server→client request on its session
  // (elicitation/create, sampling/createMessage), collects the answers and calls the tool again with
  // them as inputResponses. A client without the capability is answered -32021 in both eras.

  // tools-call-sampling: one sampling/createMessage of the prompt argument, maxTokens 100
  tool(
    "test_sampling",
    "Asks the client's LLM to answer a prompt (sampling)",
    (args, input) => {
      const response = input.inputResponses?.["completion"];
      if (isObject(response) && response["content"] !== undefined) return text(`LLM response: ${sampledText(response)}`);
      return inputRequired({ completion: sample(String(args["prompt"]), 100) });
    },
    { type: "object", properties: { prompt: { type: "string", description: "The prompt to send to the LLM" } }, required: ["prompt"] },
  ),

  // tools-call-elicitation: one elicitation/create showing the message argument, asking for a username and an email
  tool(
    "test_elicitation",
    "Asks the user for a username and an email address (elicitation)",
    (args, input) => {
      const response = input.inputResponses?.["user_info"];
      if (isObject(response)) return text(`User response: ${describeElicitation(response)}`);
      return inputRequired({
        user_info: elicitForm(String(args["message"]), {
          username: { type: "string", description: "User's response" },
          email: { type: "string", description: "User's email address" },
        }),
      });
    },
    { type: "object", properties: { message: { type: "string", description: "The message to show the user" } }, required: ["message"] },
  ),

  // elicitation-sep1034-defaults: a form whose every primitive type carries a default
  tool("test_elicitation_sep1034_defaults", "Elicitation whose fields carry default values (SEP-1034)", (_args, input) => {
    const response = input.inputResponses?.["defaults"];
    if (isObject(response)) return text(`Elicitation completed: ${describeElicitation(response)}`);
    return inputRequired({
      defaults: elicitForm(
        "Please review and update the form fields with defaults",
        {
          name: { type: "string", description: "User name", default: "John Doe" },
          age: { type: "integer", description: "User age", default: 30 },
          score: { type: "number", description: "User score", default: 95.5 },
          status: { type: "string", description: "User status", enum: ["active", "inactive", "pending"], default: "active" },
          verified: { type: "boolean", description: "Verification status", default: true },
        },
        [],
      ),
    });
  }),

  // elicitation-sep1330-enums: the five enum shapes (untitled and titled single-select, the legacy
  // enumNames form, untitled and titled multi-select)
  tool("test_elicitation_sep1330_enums", "Elicitation with every enum schema variant (SEP-1330)", (_args, input) => {
    const response = input.inputResponses?.["enums"];
    if (isObject(response)) return text(`Elicitation completed: ${describeElicitation(response)}`);
    return inputRequired({
      enums: elicitForm(
        "Please choose from the enum fields",
        {
          untitledSingle: { type: "string", description: "Untitled single-select", enum: ["option1", "option2", "option3"] },
          titledSingle: {
            type: "string",
            description: "Titled single-select",
            oneOf: [
              { const: "value1", title: "First Option" },
              { const: "value2", title: "Second Option" },
              { const: "value3", title: "Third Option" },
            ],
          },
          legacyEnum: {
            type: "string",
            description: "Legacy titled enum (enumNames)",
            enum: ["opt1", "opt2", "opt3"],
            enumNames: ["Option One", "Option Two", "Option Three"],
          },
          untitledMulti: { type: "array", description: "Untitled multi-select", items: { type: "string", enum: ["option1", "option2", "option3"] } },
          titledMulti: {
            type: "array",
            description: "Titled multi-select",
            items: {
              anyOf: [
                { const: "value1", title: "First Choice" },
                { const: "value2", title: "Second Choice" },
                { const: "value3", title: "Third Choice" },
              ],
            },
          },
        },
        [],
      ),
    });
  }),

  // ---- MRTR (SEP-2322): input-required-result-* scenarios ----

  // input-required-result-basic-elicitation, -result-type, -missing-input-response (a wrong key → asked
  // again), -ignore-extra-params (extra keys ignored), -validate-input (malformed responses are
  // rejected by the dispatcher's params check, -32602). No requestState: a retry needs none.
  tool("test_input_required_result_elicitation", "MRTR: asks for the user's name with one elicitation", (_args, input) => {
    const name = accepted(input.inputResponses?.["user_name"])?.["name"];
    if (typeof name === "string") return text(`Hello, ${name}!`);
    return inputRequired({ user_name: elicit("What is your name?", { name: "string" }) });
  }),

  // input-required-result-basic-sampling
  tool("test_input_required_result_sampling", "MRTR: asks for one sampling completion", (_args, input) => {
    const response = input.inputResponses?.["capital_question"];
    if (isObject(response) && response["content"] !== undefined) return text(`Sampling said: ${sampledText(response)}`);
    return inputRequired({ capital_question: sample("What is the capital of France?", 100) });
  }),

  // input-required-result-basic-list-roots
  tool("test_input_required_result_list_roots", "MRTR: asks for the client's roots", (_args, input) => {
    const response = input.inputResponses?.["client_roots"];
    if (isObject(response) && Array.isArray(response["roots"]))
      return text(`Roots: ${response["roots"].map((root: unknown) => (isObject(root) ? String(root["uri"]) : "?")).join(", ")}`);
    return inputRequired({ client_roots: LIST_ROOTS });
  }),

  // input-required-result-request-state: the answer is accepted only with the signed requestState
  tool("test_input_required_result_request_state", "MRTR: elicitation with a requestState round trip", (_args, input) => {
    const name = "test_input_required_result_request_state";
    if (input.requestState !== undefined) {
      verifyState(input.requestState, name);
      const confirm = accepted(input.inputResponses?.["confirm"]);
      if (confirm !== undefined) return text(`state-ok: confirmed=${String(confirm["ok"])}`);
    }
    return inputRequired({ confirm: elicit("Please confirm", { ok: "boolean" }) }, signState({ tool: name, round: 1 }));
  }),

  // input-required-result-multiple-input-requests: elicitation, sampling and roots in one round
  tool("test_input_required_result_multiple_inputs", "MRTR: elicitation, sampling and roots in one round", (_args, input) => {
    const name = "test_input_required_result_multiple_inputs";
    if (input.requestState !== undefined) verifyState(input.requestState, name);
    const all: T.InputRequests = {
      user_name: elicit("What is your name?", { name: "string" }),
      greeting: sample("Generate a greeting", 50),
      client_roots: LIST_ROOTS,
    };
    const missing: T.InputRequests = {};
    for (const [key, request] of Object.entries(all)) if (!isObject(input.inputResponses?.[key])) missing[key] = request;
    if (Object.keys(missing).length === 0) return text(`All inputs received: ${Object.keys(all).join(", ")}`);
    return inputRequired(missing, signState({ tool: name, round: 1 }));
  }),

  // input-required-result-multi-round: step1 (name) → step2 (colour, with a new requestState) → result
  tool("test_input_required_result_multi_round", "MRTR: two input rounds with an evolving requestState", (_args, input) => {
    const name = "test_input_required_result_multi_round";
    const state: State = input.requestState !== undefined ? verifyState(input.requestState, name) : { tool: name, round: 0 };
    const step2 = elicit("Step 2: What is your favorite color?", { color: "string" });
    if (state.round === 2) {
      const color = accepted(input.inputResponses?.["step2"])?.["color"];
      if (typeof color === "string") return text(`${state.name ?? "You"}'s favorite color is ${color}`);
      return inputRequired({ step2 }, signState(state));
    }
    const userName = accepted(input.inputResponses?.["step1"])?.["name"];
    if (state.round === 1 && typeof userName === "string")
      return inputRequired({ step2 }, signState({ tool: name, round: 2, name: userName }));
    return inputRequired({ step1: elicit("Step 1: What is your name?", { name: "string" }) }, signState({ tool: name, round: 1 }));
  }),

  // input-required-result-tampered-state: a requestState that fails its HMAC → -32602
  tool("test_input_required_result_tampered_state", "MRTR: rejects a requestState that was altered", (_args, input) => {
    const name = "test_input_required_result_tampered_state";
    if (input.requestState !== undefined) {
      verifyState(input.requestState, name);
      if (accepted(input.inputResponses?.["confirm"]) !== undefined) return text("requestState verified");
    }
    return inputRequired({ confirm: elicit("Please confirm", { ok: "boolean" }) }, signState({ tool: name, round: 1 }));
  }),

  // input-required-result-capability-check: only asks for what the request's clientCapabilities
  // declare (the suite declares sampling only, so no elicitation/create may appear)
  tool(
    "test_input_required_result_capabilities",
    "MRTR: asks only for inputs the client declared it can provide",
    (_args, input, context) => {
      const declared = context.clientCapabilities;
      const responses = input.inputResponses;
      const requests: T.InputRequests = {};
      if (declared.elicitation !== undefined && responses?.["user_name"] === undefined)
        requests["user_name"] = elicit("What is your name?", { name: "string" });
      if (declared.sampling !== undefined && responses?.["greeting"] === undefined)
        requests["greeting"] = sample("Generate a greeting", 50);
      if (declared.roots !== undefined && responses?.["client_roots"] === undefined) requests["client_roots"] = LIST_ROOTS;
      if (Object.keys(requests).length > 0) return inputRequired(requests);
      // Nothing left to ask: either every declared input was answered, or the client declared
      // none of the three (then -32021 names one that would do).
      if (responses === undefined) context.requireClientCapabilities({ sampling: {} });
      return text("Completed with the inputs the client could provide");
    },
  ),
];

// --------------------------------------------------------------- resources, prompts ----

/** resources-list, caching (reads the first one: keep it readable). */
const RESOURCES: T.Resource[] = [
  { uri: "test://static-text", name: "static-text", description: "Static text resource", mimeType: "text/plain" },
  { uri: "test://static-binary", name: "static-binary", description: "Static binary resource (1x1 PNG)", mimeType: "image/png" },
];

/** caching (resources/templates/list); resources-templates-read reads test://template/123/data. */
const RESOURCE_TEMPLATES: T.ResourceTemplate[] = [
  { uriTemplate: "test://template/{id}/data", name: "template-data", description: "Templated JSON resource", mimeType: "application/json" },
];

/** prompts-list: every prompt needs a description. */
const PROMPTS: T.Prompt[] = [
  { name: "test_simple_prompt", description: "Simple prompt without arguments" },
  {
    name: "test_prompt_with_arguments",
    description: "Prompt with two required arguments",
    arguments: [
      { name: "arg1", description: "First test argument", required: true },
      { name: "arg2", description: "Second test argument", required: true },
    ],
  },
  {
    name: "test_prompt_with_embedded_resource",
    description: "Prompt embedding a resource",
    arguments: [{ name: "resourceUri", description: "URI of the resource to embed", required: true }],
  },
  { name: "test_prompt_with_image", description: "Prompt with image content" },
  { name: "test_input_required_result_prompt", description: "Prompt that asks for elicitation input first (MRTR)" },
];

/** completion-complete: values for `ref/prompt test_prompt_with_arguments`, argument arg1. */
const COMPLETIONS = ["test", "testing", "tested", "paris", "park", "party"];

function user(content: T.ContentBlock): T.PromptMessage {
  return { role: "user", content };
}

function requiredArgument(args: { readonly [key: string]: string } | undefined, name: string): string {
  const value = args?.[name];
  if (value === undefined) throw new HandlerError(-32602, `Invalid params: the prompt argument ${JSON.stringify(name)} is required`);
  return value;
}

// ------------------------------------------------------------------------ handlers ----

export const handlers: ServerHandlers = defineHandlers({
  // resources-list, caching
  "resources/list": () => ({ resources: RESOURCES }),

  // caching
  "resources/templates/list": () => ({ resourceTemplates: RESOURCE_TEMPLATES }),

  // resources-read-text, resources-read-binary, resources-templates-read, caching,
  // sep-2164-resource-not-found (-32602 with data.uri, never empty contents)
  "resources/read": (params) => {
    const uri = params.uri;
    if (uri === "test://static-text")
      return { contents: [{ uri, mimeType: "text/plain", text: "This is the content of the static text resource." }] };
    if (uri === "test://static-binary") return { contents: [{ uri, mimeType: "image/png", blob: PNG_1X1 }] };
    const id = /^test:\/\/template\/([^/]+)\/data$/.exec(uri)?.[1];
    if (id !== undefined)
      return {
        contents: [{ uri, mimeType: "application/json", text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) }],
      };
    throw new HandlerError(-32602, "Resource not found", { uri });
  },

  // prompts-list
  "prompts/list": () => ({ prompts: PROMPTS }),

  // prompts-get-simple, prompts-get-with-args, prompts-get-embedded-resource, prompts-get-with-image,
  // input-required-result-non-tool-request (MRTR on prompts/get)
  "prompts/get": (params) => {
    switch (params.name) {
      case "test_simple_prompt":
        return { messages: [user({ type: "text", text: "This is a simple prompt for testing." })] };
      case "test_prompt_with_arguments": {
        const arg1 = requiredArgument(params.arguments, "arg1");
        const arg2 = requiredArgument(params.arguments, "arg2");
        return { messages: [user({ type: "text", text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` })] };
      }
      case "test_prompt_with_embedded_resource": {
        const uri = requiredArgument(params.arguments, "resourceUri");
        return {
          messages: [
            user({ type: "resource", resource: { uri, mimeType: "text/plain", text: "Embedded resource content for testing." } }),
            user({ type: "text", text: "Please process the embedded resource above." }),
          ],
        };
      }
      case "test_prompt_with_image":
        return {
          messages: [
            user({ type: "image", data: PNG_1X1, mimeType: "image/png" }),
            user({ type: "text", text: "Please analyze the image above." }),
          ],
        };
      case "test_input_required_result_prompt": {
        const context = accepted(params.inputResponses?.["user_context"])?.["context"];
        if (typeof context === "string") return { messages: [user({ type: "text", text: `Context: ${context}` })] };
        return inputRequired({ user_context: elicit("What context should the prompt use?", { context: "string" }) });
      }
      default:
        throw new HandlerError(-32602, `Unknown prompt: ${JSON.stringify(params.name)}`);
    }
  },

  // completion-complete
  "completion/complete": (params) => {
    const values = COMPLETIONS.filter((value) => value.startsWith(params.argument.value));
    return { completion: { values, total: values.length, hasMore: false } };
  },
});

export const options: Partial<Omit<ServerDispatcherOptions, "serverInfo" | "handlers">> = {
  // Served by the built-in tools/list and tools/call (unknown tool → -32602, arguments checked
  // against inputSchema); their inputSchema also feeds src/generated/runtime/http.ts's Mcp-Param-* checks.
  tools: FIXTURES.map((fixture): ToolEntry => ({
    definition: fixture.definition,
    call: (args, context) => fixture.run(args, { inputResponses: context.inputResponses, requestState: context.requestState }, context),
  })),
  // listChanged is advertised because the trigger tools publish list_changed to subscriptions/listen
  // streams (server-stateless: sep-2575-server-sends-{tools,prompts}-list-changed-on-subscription).
  capabilities: {
    tools: { listChanged: true },
    prompts: { listChanged: true },
    // subscribe: resources-subscribe and resources-unsubscribe (2025-11-25), served by the dispatcher
    resources: { subscribe: true },
    completions: {},
    logging: {},
  },
  // The fixture lists are the same for every client (caching, SEP-2549).
  cache: { ttlMs: 0, cacheScope: "public" },
};
