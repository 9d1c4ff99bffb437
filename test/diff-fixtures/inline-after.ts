/*
 * diff fixture, newer side. Against inline-before.ts: resources/read's params moved into
 * ReadResourceRequestParams with the same members; tools/call's into CallToolRequestParams, which
 * also gains `_meta` (from RequestParams), `task`, and makes `arguments` required.
 */
export const LATEST_PROTOCOL_VERSION = "2026-07-28";
export const JSONRPC_VERSION = "2.0";

export type RequestId = string | number;
export interface RequestParams {
  _meta?: { [key: string]: unknown };
}
export interface Request {
  jsonrpc: typeof JSONRPC_VERSION;
  id: RequestId;
  method: string;
  params?: RequestParams;
}
export interface Result {
  _meta?: { [key: string]: unknown };
}
export interface ReadResourceRequestParams extends RequestParams {
  uri: string;
}
export interface ReadResourceRequest extends Request {
  method: "resources/read";
  params: ReadResourceRequestParams;
}
export interface ReadResourceResult extends Result {
  contents: string[];
}
export interface CallToolRequestParams extends RequestParams {
  name: string;
  arguments: { [key: string]: unknown };
  task?: { ttl?: number };
}
export interface CallToolRequest extends Request {
  method: "tools/call";
  params: CallToolRequestParams;
}
export interface CallToolResult extends Result {
  content: string[];
}
export type ClientRequest = ReadResourceRequest | CallToolRequest;
