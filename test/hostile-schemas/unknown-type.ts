/* References to types that are declared nowhere (an upstream draft commit did this). */
export interface Tool {
  name: string;
  annotations?: ToolAnnotations;
}

export type ContentBlock = TextContent | ImageContent;

export interface TextContent {
  type: "text";
  text: string;
}
