/* One root cause in a type alias that other declarations are built from (extends, Omit) gives one diagnostic. */
export type Base = { pending: Promise<string>; x: string };
export interface A extends Base { a: string }
export interface B extends Base { b: string }
export type C = Omit<Base, "x">;
