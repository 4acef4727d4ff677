// Summary statistics as BROWSER-PERF reports them: nearest-rank percentiles over pooled samples.

export function percentile(values, p) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];
}

export const median = (values) => percentile(values, 0.5);

/** The largest of `values`, or 0 for none: `Math.max(...values)` overflows the stack past about 120,000. */
export const maximum = (values) => values.reduce((m, x) => (x > m ? x : m), 0);

export function round(x, digits = 1) {
  if (x === null || x === undefined) return null;
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/**
 * `slow` against `fast`, to two decimals: targets such as "at most 1.2×" are judged on it, and to
 * one decimal a bans bench's 16.2 ms against 13.3 (1.22) read as 1.2×, seemingly met.
 */
export function ratio(slow, fast) {
  return slow === null || fast === null || fast === 0 ? null : round(slow / fast, 2);
}
