import { describe, expect, it } from 'vitest';
import { VOLUME_BARS, VOLUME_MAX_STEPS, VOLUME_RANGES, volumeStep } from '../../src/domain/logVolume.ts';
import { EMPTY_CRITERIA } from '../../src/web/views/logs/logQuery.ts';
import {
  barAt,
  barsRange,
  selectionSummary,
  spanOf,
  volumeQuery,
  volumeSummary,
} from '../../src/web/views/logs/logVolume.ts';

describe('log volume', () => {
  it('keeps every offered range near the bars a chart aims for, in whole nice steps', () => {
    for (const r of VOLUME_RANGES) {
      const step = volumeStep(r.seconds);
      expect(r.seconds / step).toBeLessThanOrEqual(VOLUME_BARS);
      expect(r.seconds / step).toBeGreaterThan(VOLUME_BARS / 3);
      expect(r.seconds / step).toBeLessThanOrEqual(VOLUME_MAX_STEPS);
    }
    expect(volumeStep(86_400)).toBe(900);
    expect(volumeStep(10)).toBe(1);
  });

  it('covers the list’s time range where it has one, else the range up to now on step bounds', () => {
    const now = 1_700_000_123;
    expect(spanOf({ from: null, to: null }, '24h', now)).toEqual({
      since: 1_700_000_100 - 86_400 + 900,
      until: 1_700_000_100 + 900,
      step: 900,
    });
    expect(spanOf({ from: 1000.5, to: 4600.2 }, '24h', now)).toEqual({ since: 1000, until: 4601, step: 60 });
    expect(spanOf({ from: null, to: 90_000 }, '1h', now)).toEqual({ since: 86_400, until: 90_000, step: 30 });
  });

  it('asks with the list’s filters but its time range and sort', () => {
    const q = volumeQuery(
      { serviceId: 's1' },
      { ...EMPTY_CRITERIA, level: 'Warning+', from: 5, to: 9, text: 'saves' },
      { since: 0, until: 60, step: 1 },
    );
    expect(q).toEqual({
      serviceId: 's1',
      level: 'Warning,Error,Critical,Alert,Emergency',
      message: 'saves',
      since: '0',
      until: '60',
      step: '1',
    });
  });

  it('turns chosen bars into the time they cover, and a moment into its bar', () => {
    const v = { since: 1000, until: 1250, step: 60 };
    expect(barsRange(v, 3, 1)).toEqual({ from: 1060, to: 1240 });
    // The last bar ends with the chart, not a step past it.
    expect(barsRange(v, 4, 4)).toEqual({ from: 1240, to: 1250 });
    expect(barAt(v, 999)).toBe(0);
    expect(barAt(v, 1119)).toBe(1);
    expect(barAt(v, 5000)).toBe(4);
  });

  it('says in words how many lines, and how many warnings and errors', () => {
    const v = {
      since: 0,
      until: 180,
      step: 60,
      levels: [
        { level: 'Informational' as const, counts: [1000, 0, 2] },
        { level: 'Warning' as const, counts: [1, 0, 0] },
        { level: 'Critical' as const, counts: [0, 0, 3] },
      ],
    };
    expect(volumeSummary(v, '24h')).toBe(
      '1,006 lines, 1 warning and 3 errors or worse in the last 24 hours.',
    );
    expect(volumeSummary({ ...v, levels: [] }, null)).toMatch(/^0 lines from Jan 1, .+ to Jan 1, .+\.$/);
    expect(selectionSummary(v, 2, 1)).toMatch(
      /: 5 lines, 3 errors or worse\. Enter shows them in the list\.$/,
    );
  });
});
