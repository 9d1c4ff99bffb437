/* diff fixture, older side: request params written inline; see inline-after.ts. */
export const LATEST_PROTOCOL_VERSION = "2026-07-28";
export const JSONRPC_VERSION = "2.0";

export type RequestId = string | number;
export interface Request {
  jsonrpc: typeof JSONRPC_VERSION;
  id: RequestId;
  method: string;
  params?: { _meta?: { [key: string]: unknown }; [key: string]: unknown };
}
export interface Result {
  _meta?: { [key: string]: unknown };
}
export interface ReadResourceRequest extends Request {
  method: "resources/read";
  params: { _meta?: { [key: string]: unknown }; uri: string };
}
export interface ReadResourceResult extends Result {
  contents: string[];
}
export interface CallToolRequest extends Request {
  method: "tools/call";
  params: { name: string; arguments?: { [key: string]: unknown } };
}
export interface CallToolResult extends Result {
  content: string[];
}
export type ClientRequest = ReadResourceRequest | CallToolRequest;
