// CSV export of a list as shown. Cells are data from players and servers, so a cell that a
// spreadsheet would run as a formula is prefixed with a quote (OWASP "CSV injection").

import Papa from 'papaparse';
import { type CellValue, type Column, cellText } from './columns.ts';
import { downloadText } from './download.ts';

const FORMULA_START = /^[=+\-@\t\r]/;

export function guardText(s: string): string {
  return FORMULA_START.test(s) ? `'${s}` : s;
}

/** Numbers stay numbers: a negative amount is data, not a formula. */
export function guardCell(v: CellValue): string | number {
  return typeof v === 'number' ? v : guardText(cellText(v));
}

export function toCsv<T>(columns: readonly Column<T>[], rows: readonly T[]): string {
  return Papa.unparse(
    {
      fields: columns.map((c) => guardText(c.title)),
      data: rows.map((row) => columns.map((c) => guardCell(c.value(row)))),
    },
    { newline: '\r\n' },
  );
}

export function downloadCsv(filename: string, csv: string): void {
  // The BOM makes spreadsheet programs read the file as UTF-8 (player names are not ASCII).
  downloadText(
    filename.endsWith('.csv') ? filename : `${filename}.csv`,
    ['\ufeff', csv],
    'text/csv;charset=utf-8',
  );
}
