/* Type errors TypeScript reports, each with its location, all at once. */
export interface Base {
  id: string;
}

export interface Derived extends Base {
  id: number;
}

export type Pair = Array<string, number>;

export const VERSION: string = 2025;

export type Narrow = Omit<Base>;
