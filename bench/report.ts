/** Text layout of the benchmark's printout: aligned tables and number formats. */

/**
 * Lays out rows as columns; the first row is the header. `align` has one letter per
 * column, `l` or `r`; by default the first column aligns left and the others right.
 */
export function table(rows: readonly (readonly string[])[], align = "l"): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map(
    (row) =>
      "  " +
      row
        .map((cell, i) => ((align[i] ?? "r") === "l" ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
        .join("  ")
        .trimEnd(),
  );
}

/** 1234567.8 → "1,234,568". */
export function int(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

/** 4.567 → "4.57×". */
export function ratio(n: number): string {
  return `${n.toFixed(2)}×`;
}

/** 0.0312 → "3.1%". */
export function percent(n: number): string {
  return `${(n * 100).toFixed(1)}%`;
}

/** Milliseconds → "1.23 s". */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

/** KiB → "245.1 MiB". */
export function mib(kib: number): string {
  return `${(kib / 1024).toFixed(1)} MiB`;
}

/** Bytes → "290,942 B (284.1 KiB)". */
export function bytes(n: number): string {
  return `${int(n)} B (${(n / 1024).toFixed(1)} KiB)`;
}

/** "[PASS]" or "[MISS]". */
export function verdict(pass: boolean): string {
  return pass ? "[PASS]" : "[MISS]";
}
