// Palisade's kept formatters write what the platform's own toLocale* calls write (they replace
// them), for instants across the year and the day, and counts of every size.
import { describe, expect, it } from 'vitest';
import {
  formatClockTime,
  formatCount,
  formatDate,
  formatLongDate,
  formatShortTime,
  formatTime,
} from '../../src/domain/format.ts';

const instants = [0, 1_764_345_600, 1_767_225_599, 1_780_000_000.5, 1_799_999_999];

describe('kept formatters', () => {
  it('write times as toLocaleString and its kin do, in English', () => {
    for (const t of instants) {
      const d = new Date(t * 1000);
      expect(formatTime(t)).toBe(d.toLocaleString('en'));
      expect(formatClockTime(t)).toBe(d.toLocaleTimeString('en'));
      expect(formatDate(t)).toBe(d.toLocaleDateString('en'));
      expect(formatLongDate(t)).toBe(
        d.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' }),
      );
      expect(formatShortTime(t)).toBe(
        d.toLocaleString('en', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }),
      );
    }
  });

  it('leave a missing time empty', () => {
    expect(formatTime(null)).toBe('');
  });

  it('mark thousands in counts', () => {
    expect([0, 7, 1_000, 1_000_000, 123_456_789].map(formatCount)).toEqual([
      '0',
      '7',
      '1,000',
      '1,000,000',
      '123,456,789',
    ]);
  });
});
