/* Types with no JSON value. */
export interface Odd {
  big: bigint;
  literalBig: 10n;
  sym: symbol;
  nothing: void;
  callback: () => void;
  ctor: new () => object;
}
