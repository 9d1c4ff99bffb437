/* diff fixture, older side: see after.ts for the changes test/diff.test.ts expects. */
export const LATEST_PROTOCOL_VERSION = "2026-07-28";
export const JSONRPC_VERSION = "2.0";
export const INVALID_PARAMS = -32602;
export const HEADER_MISMATCH = -32020;
export const OLD_CODE = -32001;
export const TOOL_PREFIX = "t_";

export type RequestId = string | number;
export type ResultType = "complete";
/** @maximum 100 */
export type Percent = number;

export interface RequestMetaObject {
  "io.modelcontextprotocol/protocolVersion": string;
  "io.modelcontextprotocol/clientInfo"?: Implementation;
  progressToken?: string;
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
  roots?: { listChanged?: boolean };
  sampling?: object;
}
export interface ServerCapabilities {
  tools?: { listChanged?: boolean };
}
export interface ListToolsRequest extends Request {
  method: "tools/list";
  params?: RequestParams;
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
export interface CallToolResult extends Result {
  content: string[];
}
export interface PingRequest extends Request {
  method: "ping";
}
export interface Tool {
  name: string;
  title?: string;
  /** @format uri */
  icon?: string;
  /** @maximum 10 */
  priority?: number;
  score?: number;
  annotations?: {
    /** @maximum 1 */
    weight?: number;
  };
}
/** @deprecated */
export interface Legacy {
  x: string;
}
export type ClientRequest = ListToolsRequest | CallToolRequest | PingRequest;
