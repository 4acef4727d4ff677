import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import {
  type Column,
  filterRows,
  nextSort,
  sortRows,
  toggleColumn,
  visibleColumns,
} from '../../src/web/ui/columns.ts';
import { toCsv } from '../../src/web/ui/csv.ts';

interface Row {
  name: string;
  note: string | null;
  n: number | null;
}
const cols: Column<Row>[] = [
  { id: 'name', title: 'Name', value: (r) => r.name },
  { id: 'note', title: 'Note', value: (r) => r.note },
  { id: 'n', title: 'N', value: (r) => r.n, defaultVisible: false },
];

describe('toCsv', () => {
  it('quotes commas, quotes and newlines so the text reads back unchanged', () => {
    const rows: Row[] = [{ name: 'Rex, "the" king', note: 'line 1\nline 2', n: 3 }];
    const csv = toCsv(cols, rows);
    expect(csv).toBe('Name,Note,N\r\n"Rex, ""the"" king","line 1\nline 2",3');
    expect(Papa.parse(csv).data).toEqual([
      ['Name', 'Note', 'N'],
      ['Rex, "the" king', 'line 1\nline 2', '3'],
    ]);
  });

  it('prefixes cells a spreadsheet would run as formulas, but not numbers', () => {
    const rows: Row[] = [
      { name: '=HYPERLINK("http://x")', note: '+1', n: -5 },
      { name: '-2+3', note: '@SUM(A1)', n: null },
      { name: '\tcmd', note: 'safe = text', n: 0 },
    ];
    const data = Papa.parse<string[]>(toCsv(cols, rows)).data;
    expect(data.slice(1)).toEqual([
      ['\'=HYPERLINK("http://x")', "'+1", '-5'],
      ["'-2+3", "'@SUM(A1)", ''],
      ["'\tcmd", 'safe = text', '0'],
    ]);
  });
});

describe('columns', () => {
  it('shows default-visible columns until the user chooses, keeping declared order', () => {
    expect(visibleColumns(cols, null).map((c) => c.id)).toEqual(['name', 'note']);
    expect(toggleColumn(cols, null, 'n')).toEqual(['name', 'note', 'n']);
    expect(toggleColumn(cols, ['n', 'name'], 'note')).toEqual(['name', 'note', 'n']);
    expect(toggleColumn(cols, ['name', 'note'], 'name')).toEqual(['note']);
    expect(toggleColumn(cols, ['note'], 'note')).toEqual(['note']); // the last one stays
  });

  it('filters on every word, case-insensitively, over the given columns', () => {
    const rows: Row[] = [
      { name: 'Ragnarok PvP', note: 'EU', n: 1 },
      { name: 'Island PvE', note: 'eu west', n: 2 },
      { name: 'Ragnarok PvE', note: 'US', n: 3 },
    ];
    expect(filterRows(rows, cols, 'ragnarok eu').map((r) => r.n)).toEqual([1]);
    expect(filterRows(rows, cols, '  ').length).toBe(3);
    expect(filterRows(rows, cols.slice(0, 1), 'eu')).toEqual([]);
  });

  it('sorts numbers numerically, text naturally, empty cells last, stably', () => {
    const rows: Row[] = [
      { name: 'Server 10', note: null, n: 10 },
      { name: 'server 9', note: 'b', n: null },
      { name: 'Server 9', note: 'a', n: 2 },
      { name: 'Server 1', note: 'c', n: -1 },
    ];
    const by = (id: string, dir: 'asc' | 'desc') =>
      sortRows(
        rows,
        cols.find((c) => c.id === id),
        dir,
      ).map((r) => r.name);
    expect(by('name', 'asc')).toEqual(['Server 1', 'server 9', 'Server 9', 'Server 10']);
    expect(by('n', 'asc')).toEqual(['Server 1', 'Server 9', 'Server 10', 'server 9']);
    expect(by('n', 'desc')).toEqual(['Server 10', 'Server 9', 'Server 1', 'server 9']);
    expect(by('note', 'desc')).toEqual(['Server 1', 'server 9', 'Server 9', 'Server 10']);
  });

  it('goes ascending on a new column, then toggles', () => {
    expect(nextSort(null, 'a')).toEqual({ column: 'a', direction: 'asc' });
    expect(nextSort({ column: 'a', direction: 'asc' }, 'a')).toEqual({ column: 'a', direction: 'desc' });
    expect(nextSort({ column: 'a', direction: 'desc' }, 'a')).toEqual({ column: 'a', direction: 'asc' });
    expect(nextSort({ column: 'a', direction: 'desc' }, 'b')).toEqual({ column: 'b', direction: 'asc' });
  });
});
