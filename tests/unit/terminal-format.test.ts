import { describe, expect, it } from 'vitest';
import { CommandError } from '../../commands/registry.ts';
import { Msg } from '../../src/domain/messages.ts';
import { ApiError } from '../../src/web/api/http.ts';
import {
  formatArgErrors,
  formatColumns,
  formatError,
  formatResult,
  formatTable,
  MAX_COLUMN_WIDTH,
  paint,
  resultSlices,
  SCROLLBACK,
  SLICE_ROWS,
  tableSlices,
  UNDO_HINT,
} from '../../src/web/terminal/format.ts';
import { sanitise } from '../../src/web/terminal/sanitise.ts';
import { stringWidth } from '../../src/web/terminal/width.ts';

const plain = (lines: readonly string[]) => lines.map((l) => l.replace(/\x1b\[[0-9;]*m/g, ''));

describe('formatTable', () => {
  it('aligns columns to their content, numbers to the right', () => {
    const lines = plain(
      formatTable(
        {
          columns: ['Name', 'Level', 'Tamed'],
          rows: [
            ['Rex', 150, true],
            ['Giganotosaurus', 7, false],
            ['Dodo', null, null],
          ],
        },
        80,
      ),
    );
    expect(lines).toEqual([
      'Name            Level  Tamed',
      '──────────────  ─────  ─────',
      'Rex               150  yes',
      'Giganotosaurus      7  no',
      'Dodo',
    ]);
  });

  it('caps wide columns and shrinks the widest to fit, cutting with …', () => {
    const long = 'x'.repeat(100);
    const [, , row] = plain(formatTable({ columns: ['A', 'B'], rows: [[long, 'short']] }, 80));
    expect(row).toBe(`${'x'.repeat(MAX_COLUMN_WIDTH - 1)}…  short`);
    const narrow = plain(formatTable({ columns: ['A', 'B'], rows: [[long, long]] }, 30));
    for (const l of narrow) expect(stringWidth(l)).toBeLessThanOrEqual(30);
    expect(narrow[2]).toBe(`${'x'.repeat(13)}…  ${'x'.repeat(13)}…`);
  });

  it('measures wide characters by cells', () => {
    const lines = plain(
      formatTable(
        {
          columns: ['名前', 'n'],
          rows: [
            ['恐竜', 1],
            ['a', 22],
          ],
        },
        80,
      ),
    );
    expect(lines[2]).toBe('恐竜   1');
    expect(lines[3]).toBe('a     22');
  });

  it('sanitises every cell: no control sequence survives', () => {
    const lines = formatTable({ columns: ['\x1b]0;t\x07'], rows: [['\x1b[2J\u202Eevil']] }, 80);
    const body = plain(lines).join('\n');
    expect(body).toContain('␛]0;t␇');
    expect(body).toContain('␛[2J<U+202E>evil');
    expect(lines.join('').replace(/\x1b\[[0-9;]*m/g, '')).not.toMatch(/[\x00-\x1f]/);
  });

  it('says when there are no rows', () => {
    expect(plain(formatTable({ columns: ['A'], rows: [] }, 80)).at(-1)).toBe('(no rows)');
  });
});

describe('tableSlices', () => {
  const rows = Array.from({ length: 2 * SLICE_ROWS + 7 }, (_, i) => [`Survivor #${i + 1}`, i]);
  const table = { columns: ['Name', 'Level'], rows };

  it('measures every row before the first line, then gives the header and the rows in slices', () => {
    const slices = [...tableSlices(table, 80)];
    expect(slices.slice(0, 2)).toEqual([[], []]);
    expect(slices.slice(2).map((s) => s.length)).toEqual([2, SLICE_ROWS, SLICE_ROWS, 7]);
    expect(slices.flat()).toEqual(formatTable(table, 80));
  });

  it('aligns every slice by the widest cell of any slice', () => {
    const lines = plain(formatTable(table, 80));
    const name = `Survivor #${rows.length}`.length;
    expect(lines[2]).toBe(`${'Survivor #1'.padEnd(name)}  ${'0'.padStart('Level'.length)}`);
    expect(lines.at(-1)).toBe(`Survivor #${rows.length}  ${String(rows.length - 1).padStart(5)}`);
  });

  it('gives a result as its message, its table and its undo hint, in that order', () => {
    const slices = [...resultSlices({ message: 'Found.', table, undo: async () => {} }, 80)];
    expect(slices[0]).toEqual(['Found.']);
    expect(slices.at(-1)).toEqual([paint('muted', sanitise(UNDO_HINT))]);
    expect(plain(slices.flat())).toEqual(['Found.', ...plain(formatTable(table, 80)), UNDO_HINT]);
  });
});

describe('results and errors', () => {
  it('prints the message, the table and the undo hint', () => {
    const lines = plain(
      formatResult(
        {
          message: 'Banned Bob.\nOn 2 servers.',
          table: { columns: ['x'], rows: [[1]] },
          undo: async () => {},
        },
        80,
      ),
    );
    expect(lines).toEqual(['Banned Bob.', 'On 2 servers.', 'x', '─', '1', UNDO_HINT]);
    expect(formatResult(undefined, 80)).toEqual([]);
  });

  it('shows an API error with its message and reason, in red', () => {
    const lines = formatError(new ApiError('Ban failed', 'generic', 400, 'Player is \x1b[31mimmune'));
    expect(lines[0]).toBe('\x1b[31mBan failed\x1b[0m');
    expect(plain(lines)).toEqual(['Ban failed', 'Player is ␛[31mimmune']);
    expect(plain(formatError(new ApiError('Oops', 'generic', 500)))).toEqual(['Oops', Msg.noDetails]);
  });

  it('names the field of a command error and of each argument error', () => {
    expect(plain(formatError(new CommandError('Too long.', 'comments')))).toEqual(['--comments: Too long.']);
    expect(plain(formatError(new CommandError('Needs the manage bans permission')))).toEqual([
      'Needs the manage bans permission',
    ]);
    expect(plain(formatArgErrors({ player: 'No player matches "x".' }))).toEqual([
      '--player: No player matches "x".',
    ]);
    expect(plain(formatError('plain'))).toEqual(['plain']);
  });

  it('paints only what it is given', () => {
    expect(paint('muted', sanitise('a\x1bb'))).toBe('\x1b[90ma␛b\x1b[0m');
  });
});

describe('formatColumns', () => {
  it('lays items out in as many columns as fit', () => {
    expect(formatColumns(['alpha', 'be', 'gamma', 'delta'], 14)).toEqual(['alpha  be', 'gamma  delta']);
    expect(formatColumns([], 80)).toEqual([]);
  });
});

describe('tables longer than the console keeps', () => {
  it('prints the last rows with a notice instead of rows that would scroll out', () => {
    const rows = Array.from({ length: SCROLLBACK + 500 }, (_, i) => [i]);
    const lines = formatTable({ columns: ['n'], rows }, 40);
    expect(lines[0]).toContain(`The first 510 of ${SCROLLBACK + 500} rows are not shown`);
    // Header, rule, then exactly the kept rows, ending with the last one.
    expect(lines.length).toBe(1 + 2 + (SCROLLBACK - 10));
    expect(lines.at(-1)?.trim()).toBe(String(SCROLLBACK + 499));
    expect(lines.length).toBeLessThanOrEqual(SCROLLBACK);
  });
});
