/* One root cause (a library type with no JSON form, in a base interface's own members) gives one diagnostic. */
export interface Annotated {
  annotations?: { pending?: Promise<string>; priority?: number };
}
export interface TextContent extends Annotated {
  text: string;
}
export interface ImageContent extends Annotated {
  data: string;
}
export interface AudioContent extends Annotated {
  data: string;
}
export interface ResourceLink extends Annotated {
  uri: string;
}
export interface EmbeddedResource extends Omit<Annotated, "priority"> {
  resource: string;
}
export interface ToolUseContent extends TextContent {
  name: string;
}
