/* Fixture for test/determinism.test.ts: every top-level declaration is one block, blocks are
   separated by one blank line, and none holds a blank line. The test shuffles the blocks. */

/** The protocol version. */
export const LATEST_VERSION = "2099-01-01";

/** @internal */
export const JSONRPC_VERSION = "2.0";

/** Any JSON value. */
export type JSONValue = string | number | boolean | null | JSONObject | JSONArray;

/** A JSON object. */
export type JSONObject = { [key: string]: JSONValue };

/** A JSON array. */
export type JSONArray = JSONValue[];

/** A request id. */
export type RequestId = string | number;

/** Who a message is for. */
export type Role = "user" | "assistant";

/** A base request. */
export interface Request {
  jsonrpc: typeof JSONRPC_VERSION;
  id: RequestId;
  method: string;
  params?: { [key: string]: unknown };
}

/** Asks for nothing. */
export interface PingRequest extends Request {
  method: "ping";
}

/** Calls a tool. */
export interface CallToolRequest extends Request {
  method: "tools/call";
  params: {
    name: string;
    arguments?: JSONObject;
    annotations?: {
      audience?: Role[];
      /**
       * @TJS-type number
       * @minimum 0
       * @maximum 1
       */
      priority?: number;
    };
  };
}

/** Reads a resource. */
export interface ReadResourceRequest extends Request {
  method: "resources/read";
  params: {
    /** @format uri */
    uri: string;
    version?: typeof LATEST_VERSION;
  };
}

/** What a client sends. */
export type ClientRequest = PingRequest | CallToolRequest | ReadResourceRequest;

/** Text. */
export interface TextContent {
  type: "text";
  text: string;
  annotations?: {
    audience?: Role[];
    /**
     * @TJS-type number
     * @minimum 0
     * @maximum 1
     */
    priority?: number;
  };
}

/** An image. */
export interface ImageContent {
  type: "image";
  /** @format byte */
  data: string;
  /** @TJS-pattern ^image/[a-z]+$ */
  mimeType: string;
  annotations?: {
    audience?: Role[];
    /**
     * @TJS-type number
     * @minimum 0
     * @maximum 1
     */
    priority?: number;
  };
}

/** A link. */
export interface ResourceLink {
  type: "resource_link";
  /** @format uri */
  uri: string;
  /** @maxItems 3 */
  tags?: string[];
}

/** Any content. */
export type ContentBlock = TextContent | ImageContent | ResourceLink;

/** Either a block or several. */
export type Content = ContentBlock | ContentBlock[];

/** A result. */
export interface Result {
  _meta?: JSONObject;
  content: Content;
  isError?: boolean;
  /** @nullable */
  next?: string;
}

/** A tree of nodes. */
export interface Node {
  name: string;
  children?: Node[];
  parent?: Node | null;
}

/** A node's kind, without a discriminant. */
export type Shape = { width: number; height: number } | { radius: number } | string[];

/** A name whose Standard Schema export would clash with the next declaration. */
export interface Item {
  id: RequestId;
}

/** Takes the name ItemSchema. */
export interface ItemSchema {
  items: Item[];
}
