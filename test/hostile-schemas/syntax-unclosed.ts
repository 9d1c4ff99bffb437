/* An interface whose closing brace was lost in a merge. */
export interface Tool {
  name: string;

export interface Resource {
  uri: string;
}
