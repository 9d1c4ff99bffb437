/* Mapped types. */
export interface Flags {
  a: boolean;
  b: boolean;
}

export type Strings = { [K in "x" | "y"]: string };

export type ReadonlyFlags = { readonly [K in keyof Flags]?: Flags[K] };
