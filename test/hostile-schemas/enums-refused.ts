/* Enums whose values are not spelled out, or not of one kind. */
export enum Implicit {
  First,
  Second,
}

export enum Mixed {
  Name = "name",
  Count = 1,
}

export const enum Shifted {
  Big = 1 << 10,
}

export enum Computed {
  Length = "abc".length,
}

export enum Chained {
  A = "a",
  B = A,
}

export enum Nothing {}
