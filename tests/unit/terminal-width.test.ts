import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { charWidth, fitToWidth, stringWidth, truncateToWidth } from '../../src/web/terminal/width.ts';

/** Cell by cell, as xterm's Unicode 6 provider counts: what the short cut for narrow text must agree with. */
const cellByCell = (s: string) => [...s].reduce((w, ch) => w + charWidth(ch.codePointAt(0)!), 0);

describe('stringWidth', () => {
  it('counts wide, zero-width and narrow characters by cells', () => {
    expect(stringWidth('Rex 150')).toBe(7);
    expect(stringWidth('恐竜')).toBe(4);
    expect(stringWidth('e\u0301')).toBe(1);
    expect(stringWidth('Ünïcödé')).toBe(7);
    expect(stringWidth('🦖')).toBe(1);
  });

  it('agrees with a count cell by cell for any text, short cut or not', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (s) => stringWidth(s) === cellByCell(s)),
    );
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 30 }), (s) => stringWidth(s) === cellByCell(s)),
    );
    fc.assert(fc.property(fc.string({ maxLength: 60 }), (s) => stringWidth(s) === s.length));
  });

  it('pads and cuts by cells', () => {
    expect(fitToWidth('恐竜', 6)).toBe('恐竜  ');
    expect(fitToWidth('7', 3, true)).toBe('  7');
    expect(fitToWidth('abcdef', 4)).toBe('abc…');
    expect(fitToWidth('恐竜恐竜', 6)).toBe('恐竜… ');
    expect(fitToWidth('12345', 3, true)).toBe('12…');
    expect(truncateToWidth('abcdef', 4)).toBe('abc…');
    expect(truncateToWidth('恐竜恐竜', 5)).toBe('恐竜…');
  });
});
