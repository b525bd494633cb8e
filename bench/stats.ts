/** Small timing helpers for benchmarks (figures are compared within one run, never asserted). */

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Runs `fn` `runs` times (after `warmup` runs) and returns the median duration in ms. */
export async function timeMedian(
  fn: () => unknown | Promise<unknown>,
  runs = 5,
  warmup = 1,
): Promise<number> {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return median(times);
}

export const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 1)} ms`;
export const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

/** Formats rows as an aligned text table. */
export function table(header: string[], rows: (string | number)[][]): string[] {
  const all = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(all[0]), line(widths.map((w) => '-'.repeat(w))), ...all.slice(1).map(line)];
}
