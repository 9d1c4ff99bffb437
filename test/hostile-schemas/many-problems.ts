/* Problems of several kinds in one file: all are reported together, in source order. */
export interface Fine {
  name: string;
}

export type Flags = { [K in "a" | "b"]: boolean };

export type Box<T> = { value: T };

export interface Dated {
  when: Date;
}

export type Keys = keyof Fine;

export interface Shaded {
  /** @format color */
  shade: string;
}

export interface Sized { /** @minimum 1 */ size: number }

export enum Level {
  Low,
  High = 2,
}
