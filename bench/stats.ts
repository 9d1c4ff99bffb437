/** Small statistics helpers. */

/** The median of a non-empty list (mean of the two middle values for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error("median of an empty list");
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** (max - min) / median: how far apart the rounds were. */
export function spread(values: readonly number[]): number {
  return (Math.max(...values) - Math.min(...values)) / median(values);
}
