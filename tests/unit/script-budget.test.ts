// An account's script time (src/server/scripts/sandbox/budget.ts): earned at a steady rate, saved
// up to a burst, overdrawn by a run that ends past it, and each account's its own.

import { expect, it } from 'vitest';
import { createScriptTimeBudget } from '../../src/server/scripts/sandbox/budget.ts';

function clocked() {
  let t = 0;
  const budget = createScriptTimeBudget({ secondsPerMinute: 6, burstSeconds: 5, now: () => t });
  return { budget, pass: (ms: number) => (t += ms) };
}

it('starts full, refills at its rate and never beyond the burst', () => {
  const { budget, pass } = clocked();
  expect(budget.available('a')).toBe(5_000);
  budget.charge('a', 2_000);
  expect(budget.available('a')).toBe(3_000);
  pass(10_000); // 6 s a minute: 1 s in 10 s
  expect(budget.available('a')).toBe(4_000);
  pass(60_000);
  expect(budget.available('a')).toBe(5_000);
});

it('refuses while overdrawn and says how long until time comes back', () => {
  const { budget, pass } = clocked();
  budget.charge('a', 6_000); // a run that ended 1 s past what the account had
  expect(budget.available('a')).toBe(0);
  expect(budget.waitMs('a')).toBeGreaterThanOrEqual(10_000);
  expect(budget.waitMs('a')).toBeLessThanOrEqual(10_002);
  pass(10_001);
  expect(budget.waitMs('a')).toBe(0);
  expect(budget.available('a')).toBeGreaterThan(0);
});

it('after cutting a run, waits until a second is saved rather than starting runs on crumbs', () => {
  const { budget, pass } = clocked();
  budget.charge('a', 5_000, true);
  expect(budget.waitMs('a')).toBe(10_000);
  pass(5_000); // half a second saved: still not enough to start
  expect(budget.available('a')).toBe(500);
  expect(budget.waitMs('a')).toBe(5_000);
  pass(5_000);
  expect(budget.waitMs('a')).toBe(0);
  // Started again, the account runs on whatever it has, as before the cut.
  budget.charge('a', 900);
  expect(budget.waitMs('a')).toBe(0);
});

it("keeps each account's time apart", () => {
  const { budget } = clocked();
  budget.charge('a', 5_000);
  expect(budget.waitMs('a')).toBeGreaterThan(0);
  expect(budget.waitMs('b')).toBe(0);
  expect(budget.available('b')).toBe(5_000);
});

it('names the accounts that may not start a run now, and only those', () => {
  const { budget, pass } = clocked();
  budget.charge('spent', 5_000, true);
  budget.charge('some', 1_000);
  expect(budget.outOfTime()).toEqual(['spent']);
  pass(10_000);
  expect(budget.outOfTime()).toEqual([]);
});
