/* One name declared as a type alias and as an interface: TypeScript rejects both. */
export type Cursor = string;

export interface Cursor {
  value: string;
}
