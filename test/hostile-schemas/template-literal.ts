/* Template literal types. */
export type MetaKey = `io.modelcontextprotocol/${string}`;

export interface Meta {
  key: `${"a" | "b"}-${number}`;
}
