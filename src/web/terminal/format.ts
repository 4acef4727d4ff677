// What the console prints: results as aligned tables, messages, errors in red. Every piece of text
// passes through sanitise first; colour is only ever wrapped around text that already has.

import type { CommandResult, TableResult } from '../../../commands/context.ts';
import { type ArgErrors, CommandError } from '../../../commands/registry.ts';
import { ApiError } from '../api/http.ts';
import { type Safe, sanitise, sanitiseLines } from './sanitise.ts';
import { padToWidth, stringWidth, truncateToWidth } from './width.ts';

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

/** Column widths: content-sized, capped, then the widest shrunk until the row fits `maxWidth`. */
function columnWidths(cells: Safe[][], maxWidth: number): number[] {
  const widths = cells[0].map((_, c) =>
    Math.min(MAX_COLUMN_WIDTH, Math.max(...cells.map((row) => stringWidth(row[c] ?? '')))),
  );
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

/** A header, a rule and one line per row; numbers right-aligned, long cells cut with …. */
export function formatTable(table: TableResult, maxWidth: number): Safe[] {
  if (table.columns.length === 0) return [];
  const header = table.columns.map((c) => sanitise(c));
  const body = table.rows.map((row) => table.columns.map((_, c) => sanitise(cellText(row[c] ?? null))));
  const widths = columnWidths([header, ...body], maxWidth);
  const numeric = table.columns.map(
    (_, c) => table.rows.length > 0 && table.rows.every((r) => r[c] === null || typeof r[c] === 'number'),
  );
  const line = (cells: Safe[]) =>
    cells
      .map((cell, c) => padToWidth(truncateToWidth(cell, widths[c]), widths[c], numeric[c]))
      .join(GAP)
      .trimEnd() as Safe;
  const rule = widths.map((w) => '─'.repeat(w)).join(GAP) as Safe;
  const rows = body.length > 0 ? body.map(line) : [paint('muted', sanitise('(no rows)'))];
  return [paint('bold', line(header)), paint('muted', rule), ...rows];
}

/** Items side by side in as many columns as fit (completion candidates, help lists). */
export function formatColumns(items: readonly string[], maxWidth: number): Safe[] {
  if (items.length === 0) return [];
  const cells = items.map((i) => sanitise(i));
  const width = Math.min(Math.max(...cells.map(stringWidth)), maxWidth);
  const perRow = Math.max(1, Math.floor((maxWidth + GAP.length) / (width + GAP.length)));
  const lines: Safe[] = [];
  for (let i = 0; i < cells.length; i += perRow) {
    const row = cells.slice(i, i + perRow).map((c) => padToWidth(truncateToWidth(c, width), width));
    lines.push(row.join(GAP).trimEnd() as Safe);
  }
  return lines;
}

export const UNDO_HINT = 'Undo available: type undo.';

export function formatResult(result: CommandResult | undefined, maxWidth: number): Safe[] {
  if (!result) return [];
  return [
    ...(result.message ? sanitiseLines(result.message) : []),
    ...(result.table ? formatTable(result.table, maxWidth) : []),
    ...(result.undo ? [paint('muted', sanitise(UNDO_HINT))] : []),
  ];
}

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

export const WRITE_CHUNK = 4096;

/**
 * Lines joined with CRLF and cut into ~4 KiB writes: one large write is one long task in xterm's
 * parser (BROWSER-PERF §3), chunks let it yield between them. Cuts never split a surrogate pair;
 * escape sequences may be cut, xterm's parser keeps its state across writes.
 */
export function toChunks(lines: readonly Safe[], size = WRITE_CHUNK): string[] {
  const text = lines.map((l) => `${l}\r\n`).join('');
  const chunks: string[] = [];
  let at = 0;
  while (at < text.length) {
    let end = Math.min(text.length, at + size);
    const c = text.charCodeAt(end - 1);
    if (end < text.length && c >= 0xd800 && c <= 0xdbff) end--;
    chunks.push(text.slice(at, end));
    at = end;
  }
  return chunks;
}
