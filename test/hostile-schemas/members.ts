/* Interface members and tuple elements that have no JSON shape. */
export interface Handler {
  handle(request: string): void;
  (value: string): boolean;
  new (name: string): Handler;
  [index: number]: string;
  get size(): number;
}

export type Args = [string, number?];

export type Rest = [first: string, ...rest: number[]];
