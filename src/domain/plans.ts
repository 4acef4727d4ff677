// Plans and prices (SPEC §1, §9): priced per server in three tiers (the first `tierSize` servers at
// one price, the next `tierSize` at another, any further at a third), billed monthly or yearly in
// USD. One pure module, so the landing's pricing, the checkout, the billing portal and the renewal
// job all compute the same figure. Amounts are whole cents: no float drift in sums or prorations.

import { REFUND_DAYS, TRIAL_DAYS } from './constants.ts';
import { formatCount } from './format.ts';

export const BILLING_PERIODS = ['monthly', 'yearly'] as const;
export type BillingPeriod = (typeof BILLING_PERIODS)[number];

export const PERIOD_LABELS: Record<BillingPeriod, string> = { monthly: 'Monthly', yearly: 'Yearly' };

export interface PlanConfig {
  currency: 'USD';
  /** How many servers each of the first two tiers holds. */
  tierSize: number;
  /** Cents per server per month, for the first, second and further tiers. */
  monthly: [number, number, number];
  /** Cents per server per year, for the first, second and further tiers. */
  yearly: [number, number, number];
  /** The largest plan one checkout may hold (cartTooLarge beyond it). */
  maxServers: number;
  trialDays: number;
  refundDays: number;
}

/** The defaults the server's configuration overrides (README "Configuration"). */
export const DEFAULT_PLAN_CONFIG: PlanConfig = {
  currency: 'USD',
  tierSize: 10,
  monthly: [400, 300, 200],
  yearly: [4000, 3000, 2000],
  maxServers: 100,
  trialDays: TRIAL_DAYS,
  refundDays: REFUND_DAYS,
};

export interface TierLine {
  servers: number;
  /** Cents per server for the period. */
  unit: number;
  /** Cents. */
  amount: number;
}

/** The tier lines of a plan: how many servers fall in each tier and what they cost. */
export function priceLines(config: PlanConfig, size: number, period: BillingPeriod): TierLine[] {
  const units = config[period];
  const counts = [
    Math.min(size, config.tierSize),
    Math.min(Math.max(size - config.tierSize, 0), config.tierSize),
    Math.max(size - 2 * config.tierSize, 0),
  ];
  return counts
    .map((servers, i) => ({ servers, unit: units[i], amount: servers * units[i] }))
    .filter((l) => l.servers > 0);
}

/** Cents for `size` servers over one `period`. */
export function planPrice(config: PlanConfig, size: number, period: BillingPeriod): number {
  return priceLines(config, size, period).reduce((sum, l) => sum + l.amount, 0);
}

export const PERIOD_MONTHS: Record<BillingPeriod, number> = { monthly: 1, yearly: 12 };

/** When a period that starts at `start` (epoch ms) ends: the same day of the next month or year. */
export function periodEnd(start: number, period: BillingPeriod): number {
  const d = new Date(start);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + PERIOD_MONTHS[period]);
  // 31 January plus a month is the last day of February, not 3 March.
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d.getTime();
}

export interface Plan {
  size: number;
  period: BillingPeriod;
}

export interface Proration {
  /** Cents given back for the unused part of the current plan. */
  credit: number;
  /** Cents for the new plan from now until `periodEnd`. */
  charge: number;
  /** charge − credit: positive is paid now, negative is credited back. */
  due: number;
  /** Epoch ms: when the changed plan next renews. */
  periodEnd: number;
}

/**
 * A plan change at `now` within the paid period [periodStart, periodEnd). Same period: both plans
 * are charged for the time left and the renewal date stays. A change of period starts a new period
 * now, less the unused part of the old one. During the trial nothing was paid, so nothing is due.
 */
export function prorate(
  config: PlanConfig,
  from: Plan,
  to: Plan,
  span: { periodStart: number; periodEnd: number; now: number; trial: boolean },
): Proration {
  if (span.trial) return { credit: 0, charge: 0, due: 0, periodEnd: span.periodEnd };
  const total = span.periodEnd - span.periodStart;
  const left = Math.min(Math.max(span.periodEnd - span.now, 0), total);
  const share = total > 0 ? left / total : 0;
  const credit = Math.round(planPrice(config, from.size, from.period) * share);
  if (from.period === to.period) {
    const charge = Math.round(planPrice(config, to.size, to.period) * share);
    return { credit, charge, due: charge - credit, periodEnd: span.periodEnd };
  }
  const charge = planPrice(config, to.size, to.period);
  return { credit, charge, due: charge - credit, periodEnd: periodEnd(span.now, to.period) };
}

/** "$460.00", or "−$12.50" for a credit. */
export function formatUsd(cents: number): string {
  const sign = cents < 0 ? '−' : '';
  const abs = Math.abs(cents);
  const dollars = formatCount(Math.floor(abs / 100));
  return `${sign}$${dollars}.${String(abs % 100).padStart(2, '0')}`;
}

/** "12 servers, yearly: $460.00 a year". */
export function describePlan(config: PlanConfig, plan: Plan): string {
  const per = plan.period === 'monthly' ? 'a month' : 'a year';
  const servers = `${plan.size} server${plan.size === 1 ? '' : 's'}`;
  return `${servers}, ${plan.period}: ${formatUsd(planPrice(config, plan.size, plan.period))} ${per}`;
}

/** Parses "4,3,2.50" (dollars per server for the three tiers) into cents; null when malformed. */
export function parseTierPrices(text: string): [number, number, number] | null {
  const parts = text.split(',').map((p) => p.trim());
  if (parts.length !== 3 || parts.some((p) => !/^\d+(\.\d{1,2})?$/.test(p))) return null;
  const [a, b, c] = parts.map((p) => Math.round(Number(p) * 100));
  return [a, b, c];
}

/**
 * How long an owner's history (log lines and chat, player sessions, the activity trail of their
 * servers) is kept, in days, by what their plan is now (docs/billing.md). An owner with no valid
 * plan keeps the trial's days, so a lapsed plan does not lose everything at once.
 */
export const RETENTION_DAYS = { trial: 7, monthly: 30, yearly: 90, none: 7 } as const;
export type RetentionClass = keyof typeof RETENTION_DAYS;

/** The longest any plan keeps: history older than this goes for everyone. */
export const MAX_RETENTION_DAYS = Math.max(...Object.values(RETENTION_DAYS));

/** Which retention an owner's subscription gives; a gift or a plan from before billing keeps a year's. */
export function retentionClass(sub: {
  valid: boolean;
  trial: boolean;
  period: BillingPeriod | null;
}): RetentionClass {
  if (!sub.valid) return 'none';
  if (sub.trial) return 'trial';
  return sub.period ?? 'yearly';
}
