/*
 * diff fixture, newer side. Against before.ts: protocol version 2026-07-28 → 2026-09-01; method
 * ping removed, resources/read added, tools/list's params now required; types Legacy removed,
 * ReadResourceRequest/ReadResourceRequestParams/ReadResourceResult added; Tool: title now required,
 * icon's @format uri → uri-reference, priority's @maximum 10 → 100, name's type string → ToolName,
 * description added; error code HEADER_MISMATCH renumbered -32020 → -32030, OLD_CODE removed,
 * RESOURCE_GONE added; _meta key clientInfo now required, progressToken removed, traceparent added;
 * capability roots.listChanged removed, server.resources added; resultType input_required added;
 * Percent's @maximum 100 → 1000, Tool's score now any number (@TJS-type number) and the @maximum of
 * its inline annotations.weight 1 → 5; constant TOOL_PREFIX "t_" → "tool_", DEFAULT_TTL added;
 * CallToolResult and ClientCapabilities.sampling now deprecated, the deprecated Legacy removed.
 */
export const LATEST_PROTOCOL_VERSION = "2026-09-01";
export const JSONRPC_VERSION = "2.0";
export const INVALID_PARAMS = -32602;
export const HEADER_MISMATCH = -32030;
export const RESOURCE_GONE = -32031;
export const TOOL_PREFIX = "tool_";
export const DEFAULT_TTL = 60;

export type RequestId = string | number;
export type ResultType = "complete" | "input_required";
export type ToolName = string;
/** @maximum 1000 */
export type Percent = number;

export interface RequestMetaObject {
  "io.modelcontextprotocol/protocolVersion": string;
  "io.modelcontextprotocol/clientInfo": Implementation;
  traceparent?: string;
}
export interface RequestParams {
  _meta?: RequestMetaObject;
}
export interface Request {
  jsonrpc: typeof JSONRPC_VERSION;
  id: RequestId;
  method: string;
  params?: RequestParams;
}
export interface Result {
  resultType?: ResultType;
}
export interface Implementation {
  name: string;
  version: string;
}
export interface ClientCapabilities {
  roots?: {};
  /** @deprecated */
  sampling?: object;
}
export interface ServerCapabilities {
  tools?: { listChanged?: boolean };
  resources?: { subscribe?: boolean };
}
export interface ListToolsRequest extends Request {
  method: "tools/list";
  params: RequestParams;
}
export interface ListToolsResult extends Result {
  tools: Tool[];
}
export interface CallToolRequestParams extends RequestParams {
  name: string;
  arguments?: { [key: string]: unknown };
}
export interface CallToolRequest extends Request {
  method: "tools/call";
  params: CallToolRequestParams;
}
/** @deprecated */
export interface CallToolResult extends Result {
  content: string[];
}
export interface ReadResourceRequestParams extends RequestParams {
  /** @format uri */
  uri: string;
}
export interface ReadResourceRequest extends Request {
  method: "resources/read";
  params: ReadResourceRequestParams;
}
export interface ReadResourceResult extends Result {
  contents: string[];
}
export interface Tool {
  name: ToolName;
  title: string;
  description?: string;
  /** @format uri-reference */
  icon?: string;
  /** @maximum 100 */
  priority?: number;
  /** @TJS-type number */
  score?: number;
  annotations?: {
    /** @maximum 5 */
    weight?: number;
  };
}
export type ClientRequest = ListToolsRequest | CallToolRequest | ReadResourceRequest;
