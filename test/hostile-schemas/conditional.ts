/* Conditional types, with and without infer. */
export type IsString = string extends number ? "yes" : "no";

export type ElementOf = string[] extends (infer E)[] ? E : never;
