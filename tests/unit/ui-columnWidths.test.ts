// A list's grid tracks: whatever width a column declares, its title fits its header.

import { describe, expect, it } from 'vitest';
import { type Column, gridTemplate, titleWidth, valueWidth } from '../../src/web/ui/columns.ts';

const column = (title: string, width?: number | string): Column<unknown> => ({
  id: title,
  title,
  value: () => null,
  width,
});

describe('gridTemplate', () => {
  it('never makes a track narrower than its title, keeping what the column declares', () => {
    const title = titleWidth('Identifiable');
    expect(title).toBe('calc(14ch + var(--fs-small) + 16px)');
    expect(
      gridTemplate([
        column('Identifiable', '4.5rem'),
        column('Message', 'minmax(16rem, 3fr)'),
        column('Server', '2fr'),
        column('Id', 80),
        column('Name'),
      ]),
    ).toBe(
      [
        `max(4.5rem, ${title})`,
        `minmax(max(16rem, ${titleWidth('Message')}), 3fr)`,
        `minmax(${titleWidth('Server')}, 2fr)`,
        `max(80px, ${titleWidth('Id')})`,
        `minmax(max(6rem, ${titleWidth('Name')}), 1fr)`,
      ].join(' '),
    );
  });

  it('sizes a value column by its widest value', () => {
    expect(valueWidth('12/28/2000, 12:59:59 PM')).toBe('calc(23ch + 12px)');
  });
});
