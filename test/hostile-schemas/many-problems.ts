/* Problems of several kinds in one file: all are reported together, in source order. */
export interface Request {
  method: string;
}

export type Maybe<T> = T extends string ? T : never;

export type Route = `/${string}`;

export interface Timed {
  started: Promise<number>;
}

export interface Bounded {
  /**
   * @minimum 5
   * @maximum 1
   */
  count: number;
}

export interface Tagged { /** @maxItems 3 */ tags: string[] }

export type Huge = 1e999;

export enum Mode {
  Fast,
  Slow = "slow",
}
