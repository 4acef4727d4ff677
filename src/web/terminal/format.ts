// What the console prints: results as aligned tables, messages, errors in red. Every piece of text
// passes through sanitise first; colour is only ever wrapped around text that already has.

import type { CommandResult, ResultSection, TableResult } from '../../../commands/context.ts';
import { type ArgErrors, CommandError } from '../../../commands/registry.ts';
import { ApiError } from '../api/http.ts';
import { type Safe, sanitise, sanitiseLines } from './sanitise.ts';
import { fitToWidth, stringWidth } from './width.ts';

export type Tone = 'error' | 'warning' | 'success' | 'muted' | 'accent' | 'bold';

// Plain ANSI colours; the pane maps them onto the theme's CSS variables (TerminalPane's theme).
const SGR: Record<Tone, string> = {
  error: '31',
  success: '32',
  warning: '33',
  accent: '35',
  muted: '90',
  bold: '1',
};

export function paint(tone: Tone, text: Safe): Safe {
  return `\x1b[${SGR[tone]}m${text}\x1b[0m` as Safe;
}

/** The widest a column grows before its cells are cut with …. */
export const MAX_COLUMN_WIDTH = 40;
const MIN_COLUMN_WIDTH = 3;
const GAP = '  ';

type Cell = TableResult['rows'][number][number];
const cellText = (v: Cell): string =>
  v === null ? '' : typeof v === 'boolean' ? (v ? 'yes' : 'no') : String(v);

/**
 * Rows measured, then rows formatted, between two points where whoever prints may let the browser
 * run; how much is written at once is the printer's choice (printer.ts), by time and size.
 */
export const SLICE_ROWS = 250;

/** Content widths capped, then the widest shrunk until a row fits `maxWidth`. */
function fitWidths(natural: readonly number[], maxWidth: number): number[] {
  const widths = natural.map((w) => Math.min(MAX_COLUMN_WIDTH, w));
  const budget = maxWidth - GAP.length * (widths.length - 1);
  let total = widths.reduce((a, b) => a + b, 0);
  while (total > budget) {
    const widest = widths.indexOf(Math.max(...widths));
    if (widths[widest] <= MIN_COLUMN_WIDTH) break;
    widths[widest]--;
    total--;
  }
  return widths;
}

/** Lines the console keeps above the screen (xterm's scrollback; TerminalPane sets it). */
export const SCROLLBACK = 5000;
/** Room for the header, rule and notice within what the console keeps. */
const KEPT_ROWS = SCROLLBACK - 10;

/**
 * A header, a rule and one line per row (numbers right-aligned, long cells cut with …), in slices.
 * Widths need every row, so each cell is sanitised and measured once, first, in slices that carry
 * no lines yet; lines are then built from what was measured.
 */
export function* tableSlices(table: TableResult, maxWidth: number): Generator<Safe[]> {
  const cols = table.columns.length;
  if (cols === 0) return;
  // Rows before the last KEPT_ROWS would scroll out of the console while it printed them:
  // say so instead of spending the time to print what nobody can scroll back to.
  const dropped = Math.max(0, table.rows.length - KEPT_ROWS);
  const rows = dropped > 0 ? table.rows.slice(dropped) : table.rows;
  if (dropped > 0)
    yield [
      paint(
        'muted',
        sanitise(
          `The first ${dropped} of ${table.rows.length} rows are not shown: the console keeps ${SCROLLBACK} lines.`,
        ),
      ),
    ];
  const header = table.columns.map((c) => sanitise(c));
  const headerWidths = header.map(stringWidth);
  const natural = [...headerWidths];
  const numeric = header.map(() => rows.length > 0);
  // Row after row, flat: cell (r, c) is at r * cols + c.
  const cells: Safe[] = new Array(rows.length * cols);
  const cellWidths = new Uint32Array(rows.length * cols);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r];
    for (let c = 0; c < cols; c++) {
      const v = row[c] ?? null;
      const cell = sanitise(cellText(v));
      const w = stringWidth(cell);
      cells[r * cols + c] = cell;
      cellWidths[r * cols + c] = w;
      if (w > natural[c]) natural[c] = w;
      numeric[c] &&= v === null || typeof v === 'number';
    }
    if ((r + 1) % SLICE_ROWS === 0) yield [];
  }
  const widths = fitWidths(natural, maxWidth);
  const line = (texts: readonly Safe[], measured: ArrayLike<number>, at: number): Safe => {
    let out = '';
    for (let c = 0; c < cols; c++) {
      if (c > 0) out += GAP;
      out += fitToWidth(texts[at + c], widths[c], numeric[c], measured[at + c]);
    }
    return out.trimEnd() as Safe;
  };
  const rule = widths.map((w) => '─'.repeat(w)).join(GAP) as Safe;
  const top = [paint('bold', line(header, headerWidths, 0)), paint('muted', rule)];
  if (rows.length === 0) {
    yield [...top, paint('muted', sanitise('(no rows)'))];
    return;
  }
  yield top;
  for (let at = 0; at < rows.length; at += SLICE_ROWS) {
    const end = Math.min(rows.length, at + SLICE_ROWS);
    const lines: Safe[] = new Array(end - at);
    for (let r = at; r < end; r++) lines[r - at] = line(cells, cellWidths, r * cols);
    yield lines;
  }
}

export const formatTable = (table: TableResult, maxWidth: number): Safe[] =>
  [...tableSlices(table, maxWidth)].flat();

/** Items side by side in as many columns as fit (completion candidates, help lists). */
export function formatColumns(items: readonly string[], maxWidth: number): Safe[] {
  if (items.length === 0) return [];
  const cells = items.map((i) => sanitise(i));
  const width = Math.min(Math.max(...cells.map(stringWidth)), maxWidth);
  const perRow = Math.max(1, Math.floor((maxWidth + GAP.length) / (width + GAP.length)));
  const lines: Safe[] = [];
  for (let i = 0; i < cells.length; i += perRow) {
    const row = cells.slice(i, i + perRow).map((c) => fitToWidth(c, width));
    lines.push(row.join(GAP).trimEnd() as Safe);
  }
  return lines;
}

export const UNDO_HINT = 'Undo available: type undo.';

/** A section's heading, then its text line by line as it came, none cut (xterm wraps long lines). */
const sectionLines = (section: ResultSection): Safe[] => [
  paint(section.failed ? 'error' : 'bold', sanitise(section.heading)),
  ...sanitiseLines(section.text, Number.POSITIVE_INFINITY),
];

/**
 * A result's lines a slice at a time (see tableSlices): its message, its table, its sections, the
 * undo hint.
 */
export function* resultSlices(result: CommandResult | undefined, maxWidth: number): Generator<Safe[]> {
  if (!result) return;
  if (result.message) yield sanitiseLines(result.message);
  if (result.table) yield* tableSlices(result.table, maxWidth);
  for (const section of result.sections ?? []) yield sectionLines(section);
  if (result.undo) yield [paint('muted', sanitise(UNDO_HINT))];
}

export const formatResult = (result: CommandResult | undefined, maxWidth: number): Safe[] =>
  [...resultSlices(result, maxWidth)].flat();

const red = (text: string) => paint('error', sanitise(text));

/** Any failure as red lines: the API's message and reason, a command's field, or an error's text. */
export function formatError(err: unknown): Safe[] {
  if (err instanceof ApiError) {
    const reason = err.reason !== err.message ? sanitiseLines(err.reason).map((l) => paint('error', l)) : [];
    return [red(err.message), ...reason];
  }
  if (err instanceof CommandError && err.field) return [red(`--${err.field}: ${err.message}`)];
  if (err instanceof Error) return sanitiseLines(err.message).map((l) => paint('error', l));
  return [red(String(err))];
}

/** parseArgs' messages, each with the flag it belongs to. */
export function formatArgErrors(errors: ArgErrors): Safe[] {
  return Object.entries(errors).map(([field, message]) => red(`--${field}: ${message}`));
}

export const formatErrors = (messages: readonly string[]): Safe[] => messages.map(red);
