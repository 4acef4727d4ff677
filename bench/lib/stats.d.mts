export function percentile(values: number[], p: number): number | null;
export function median(values: number[]): number | null;
export function round(x: number | null | undefined, digits?: number): number | null;
export function ratio(slow: number | null, fast: number | null): number | null;
