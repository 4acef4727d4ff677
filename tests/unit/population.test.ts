import { describe, expect, it } from 'vitest';
import {
  POPULATION_MAX_POINTS,
  POPULATION_MIN_STEP,
  POPULATION_RANGES,
} from '../../src/domain/population.ts';
import { populationSummary } from '../../src/web/views/servers/population.ts';

describe('population', () => {
  it('says what a chart shows in a sentence', () => {
    const p = {
      serviceId: 's',
      since: 0,
      step: 60,
      points: [3, 5, 1, 2].map((players, i) => ({ time: i * 60, players })),
    };
    expect(populationSummary(p, '24h')).toBe('Over 24 hours: at most 5, on average 2.8, now 2.');
    expect(populationSummary({ ...p, points: [] }, '7d')).toBe('No players yet.');
  });

  it('asks for every range a number of points an answer holds, at steps the API takes', () => {
    for (const r of POPULATION_RANGES) {
      const points = r.seconds / r.step;
      expect(points).toBeGreaterThanOrEqual(150);
      expect(points).toBeLessThanOrEqual(Math.min(400, POPULATION_MAX_POINTS));
      expect(r.step).toBeGreaterThanOrEqual(POPULATION_MIN_STEP);
    }
  });
});
