/* A malformed tag whose intent is clear: `@format: uri` (a colon after the tag name). */
export interface Icon {
  /** @format: uri */
  src: string;
  /**
   * The largest size, in pixels.
   * @maximum: 4096
   */
  size?: number;
}
