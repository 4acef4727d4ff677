// Plan prices and prorations (src/domain/plans.ts): the one function the landing, the checkout,
// the billing portal and the renewal job all compute with.

import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PLAN_CONFIG,
  describePlan,
  formatUsd,
  type PlanConfig,
  parseTierPrices,
  periodEnd,
  planPrice,
  priceLines,
  prorate,
} from '../../src/domain/plans.ts';

const config: PlanConfig = {
  ...DEFAULT_PLAN_CONFIG,
  tierSize: 10,
  monthly: [400, 300, 200],
  yearly: [4000, 3000, 2000],
};
const DAY = 86_400_000;

describe('planPrice', () => {
  it('charges the first tier for the first servers, the second for the next, the third beyond', () => {
    expect(planPrice(config, 1, 'monthly')).toBe(400);
    expect(planPrice(config, 10, 'monthly')).toBe(4000);
    expect(planPrice(config, 11, 'monthly')).toBe(4300);
    expect(planPrice(config, 20, 'monthly')).toBe(7000);
    expect(planPrice(config, 21, 'monthly')).toBe(7200);
    expect(planPrice(config, 0, 'monthly')).toBe(0);
  });

  it('prices 12 servers yearly as 10 at the first rate and 2 at the second', () => {
    expect(priceLines(config, 12, 'yearly')).toEqual([
      { servers: 10, unit: 4000, amount: 40000 },
      { servers: 2, unit: 3000, amount: 6000 },
    ]);
    expect(planPrice(config, 12, 'yearly')).toBe(46000);
    expect(describePlan(config, { size: 12, period: 'yearly' })).toBe('12 servers, yearly: $460.00 a year');
  });

  it('follows the configured tier size', () => {
    expect(planPrice({ ...config, tierSize: 2 }, 5, 'monthly')).toBe(2 * 400 + 2 * 300 + 200);
  });
});

describe('periodEnd', () => {
  it('is the same day of the next month or year, or the month’s last day', () => {
    expect(new Date(periodEnd(Date.UTC(2026, 0, 15), 'monthly')).toISOString()).toBe(
      '2026-02-15T00:00:00.000Z',
    );
    expect(new Date(periodEnd(Date.UTC(2026, 0, 31), 'monthly')).toISOString()).toBe(
      '2026-02-28T00:00:00.000Z',
    );
    expect(new Date(periodEnd(Date.UTC(2028, 1, 29), 'yearly')).toISOString()).toBe(
      '2029-02-28T00:00:00.000Z',
    );
    expect(new Date(periodEnd(Date.UTC(2026, 11, 5, 8), 'monthly')).toISOString()).toBe(
      '2027-01-05T08:00:00.000Z',
    );
  });
});

describe('prorate', () => {
  const start = Date.UTC(2026, 0, 1);
  const end = start + 100 * DAY;
  const span = (now: number, trial = false) => ({ periodStart: start, periodEnd: end, now, trial });

  it('charges the difference for the time left when the size changes within the period', () => {
    const q = prorate(
      config,
      { size: 10, period: 'monthly' },
      { size: 12, period: 'monthly' },
      span(start + 25 * DAY),
    );
    expect(q.credit).toBe(3000);
    expect(q.charge).toBe(3450);
    expect(q.due).toBe(450);
    expect(q.periodEnd).toBe(end);
  });

  it('credits a smaller plan', () => {
    const q = prorate(
      config,
      { size: 12, period: 'monthly' },
      { size: 2, period: 'monthly' },
      span(start + 50 * DAY),
    );
    expect(q.due).toBe(Math.round(800 / 2) - Math.round(4600 / 2));
    expect(q.due).toBeLessThan(0);
  });

  it('starts a new period now when the billing period changes, less the unused time', () => {
    const now = start + 75 * DAY;
    const q = prorate(config, { size: 1, period: 'monthly' }, { size: 1, period: 'yearly' }, span(now));
    expect(q.credit).toBe(100);
    expect(q.charge).toBe(4000);
    expect(q.due).toBe(3900);
    expect(q.periodEnd).toBe(periodEnd(now, 'yearly'));
  });

  it('is free during the trial, whatever changes', () => {
    const q = prorate(
      config,
      { size: 1, period: 'monthly' },
      { size: 50, period: 'yearly' },
      span(start + DAY, true),
    );
    expect(q).toEqual({ credit: 0, charge: 0, due: 0, periodEnd: end });
  });

  it('charges nothing for the time after the period ended', () => {
    const q = prorate(
      config,
      { size: 1, period: 'monthly' },
      { size: 2, period: 'monthly' },
      span(end + DAY),
    );
    expect(q.due).toBe(0);
  });
});

describe('formatting and configuration', () => {
  it('formats cents as US dollars, credits with a minus sign', () => {
    expect(formatUsd(46000)).toBe('$460.00');
    expect(formatUsd(123456789)).toBe('$1,234,567.89');
    expect(formatUsd(-1250)).toBe('−$12.50');
    expect(formatUsd(5)).toBe('$0.05');
  });

  it('reads three tier prices in dollars, refusing anything else', () => {
    expect(parseTierPrices('4, 3, 2.50')).toEqual([400, 300, 250]);
    expect(parseTierPrices('4,3')).toBeNull();
    expect(parseTierPrices('4,3,-2')).toBeNull();
    expect(parseTierPrices('4,3,2.505')).toBeNull();
  });
});
