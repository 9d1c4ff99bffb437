/* Generic declarations and their uses. */
export type Box<T> = { value: T };

export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

export interface Tools extends Page<string> {
  total: number;
}
