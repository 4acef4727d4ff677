// Columns of a list and the pure operations over them (filter, sort, visibility), kept apart
// from the component so they are tested without a DOM and reused by CSV export.

import type { ReactNode } from 'react';
import type { SortState } from '../store/prefs.ts';

export type CellValue = string | number | null;

export interface Column<T> {
  id: string;
  title: string;
  /** The cell as data: used to sort, filter and export. */
  value(row: T): CellValue;
  /** The cell as shown; defaults to the value as text. */
  render?(row: T): ReactNode;
  /** Pixels, or any CSS grid track (`2fr`, `minmax(8rem, 1fr)`). */
  width?: number | string;
  /** Shown unless the user hides it; true when omitted. */
  defaultVisible?: boolean;
  align?: 'start' | 'end' | 'center';
}

export function visibleColumns<T>(
  columns: readonly Column<T>[],
  chosen: readonly string[] | null,
): Column<T>[] {
  if (!chosen) return columns.filter((c) => c.defaultVisible !== false);
  return columns.filter((c) => chosen.includes(c.id));
}

/** Toggles one column, keeping the declared order; the last visible column cannot be hidden. */
export function toggleColumn<T>(
  columns: readonly Column<T>[],
  chosen: readonly string[] | null,
  id: string,
): string[] {
  const shown = visibleColumns(columns, chosen).map((c) => c.id);
  if (shown.includes(id)) return shown.length > 1 ? shown.filter((c) => c !== id) : shown;
  return columns.map((c) => c.id).filter((c) => c === id || shown.includes(c));
}

/**
 * The width a column's title needs in its header (ui.css): bold text, the sort mark after a 4px
 * gap, 6px padding each side. `ch` is a digit of the list's regular font; a bold letter of a UI
 * font averages less, so 1.1ch a character holds titles of capitals and wide letters too.
 */
export const titleWidth = (title: string): string =>
  `calc(${Math.ceil(title.length * 1.1)}ch + var(--fs-small) + 16px)`;

/** A text column as wide as a value of that many characters (digits, mostly) and the padding. */
export const valueWidth = (sample: string): string => `calc(${sample.length}ch + 12px)`;

const FLEXIBLE = /(fr|auto|content)$/;
const MINMAX = /^minmax\((.+),(.+)\)$/;

/** The column's track, never narrower than its title: a header is never clipped. */
function track(c: Column<unknown>): string {
  const width = typeof c.width === 'number' ? `${c.width}px` : (c.width ?? 'minmax(6rem, 1fr)');
  const title = titleWidth(c.title);
  const range = MINMAX.exec(width);
  if (range) return `minmax(max(${range[1].trim()}, ${title}), ${range[2].trim()})`;
  return FLEXIBLE.test(width) ? `minmax(${title}, ${width})` : `max(${width}, ${title})`;
}

export function gridTemplate(columns: readonly Column<unknown>[]): string {
  return columns.map(track).join(' ');
}

export function cellText(v: CellValue): string {
  return v === null ? '' : String(v);
}

/** Rows where any of the columns contains every word of the filter, case-insensitively. */
export function filterRows<T>(
  rows: readonly T[],
  columns: readonly Column<T>[],
  filter: string,
): readonly T[] {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return rows;
  return rows.filter((row) => {
    const hay = columns.map((c) => cellText(c.value(row)).toLowerCase()).join('\u0000');
    return words.every((w) => hay.includes(w));
  });
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

function compareCells(a: CellValue, b: CellValue): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return collator.compare(String(a), String(b));
}

/** A stable sort; empty cells last in either direction. */
export function sortRows<T>(
  rows: readonly T[],
  column: Column<T> | undefined,
  direction: SortState['direction'],
) {
  if (!column) return rows;
  const sign = direction === 'asc' ? 1 : -1;
  const keyed = rows.map((row, i) => ({ row, i, v: column.value(row) }));
  keyed.sort((x, y) => {
    if (x.v === null || y.v === null) return compareCells(x.v, y.v) || x.i - y.i;
    return sign * compareCells(x.v, y.v) || x.i - y.i;
  });
  return keyed.map((k) => k.row);
}

/** Header clicks go ascending first, then toggle. */
export function nextSort(current: SortState | null, column: string): SortState {
  return current?.column === column && current.direction === 'asc'
    ? { column, direction: 'desc' }
    : { column, direction: 'asc' };
}
