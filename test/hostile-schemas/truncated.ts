/* A download cut off in the middle of a declaration. */
export interface Tool {
  name: string;
}

export interface Resource {
  uri: str