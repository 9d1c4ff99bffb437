/* Type aliases that refer to each other without ever reaching an object. */
export type A = B;
export type B = A;

export type Self = Self | string;

export type Wrapped = Partial<Wrapped>;
