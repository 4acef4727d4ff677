// Plan subscriptions as the provider runs them: a checkout starts the trial, the period renews on
// its date (or, cancelled, the subscription expires then), plan changes are prorated, and a charge
// may be refunded within the refund period. Every change writes an invoice line.

import { randomUUID } from 'node:crypto';
import {
  type BillingPeriod,
  type Plan,
  type PlanConfig,
  type Proration,
  periodEnd,
  planPrice,
  prorate,
} from '../../domain/plans.ts';
import type { Queryable } from '../db/db.ts';
import { moveMoney, type PaymentProcessor } from './processor.ts';

/** The product every plan is a subscription to (SENTINEL-API §3.19 productGameId "Sentinel"). */
export const SENTINEL_PRODUCT_ID = 'a3f5e1d2-7c4b-4e8a-9f60-1b2c3d4e5f70';
const DAY_MS = 86_400_000;

export interface PlanSubscription {
  subscriptionId: string;
  userId: string | null;
  email: string | null;
  size: number;
  period: BillingPeriod;
  /** Epoch ms. */
  periodStart: number;
  expiration: number;
  trialEnd: number | null;
  cancelAtPeriodEnd: boolean;
  gift: boolean;
}

export interface Invoice {
  invoiceId: string;
  created: number;
  description: string;
  amount: number;
  refunded: number | null;
}

const COLUMNS = `subscription_id AS "subscriptionId", user_id AS "userId", customer_email AS email,
  units_allowed AS size, plan_period AS period,
  (extract(epoch FROM period_start) * 1000)::float8 AS "periodStart",
  (extract(epoch FROM expiration) * 1000)::float8 AS expiration,
  (extract(epoch FROM trial_end) * 1000)::float8 AS "trialEnd",
  cancel_at_period_end AS "cancelAtPeriodEnd", gift`;

export const productName = (size: number) => `Sentinel, ${size} server${size === 1 ? '' : 's'}`;

/** The user's newest plan (the one the billing portal manages), or null: no customer. */
export async function planOf(db: Queryable, userId: string): Promise<PlanSubscription | null> {
  const { rows } = await db.query<PlanSubscription>(
    `SELECT ${COLUMNS} FROM subscriptions
      WHERE user_id = $1 AND product_game_id = 'Sentinel' AND plan_period IS NOT NULL
      ORDER BY expiration DESC LIMIT 1`,
    [userId],
  );
  return rows[0] ?? null;
}

/** The still valid subscription held by this email's account or waiting on this email. */
export async function activeFor(db: Queryable, email: string, now: Date): Promise<PlanSubscription | null> {
  const { rows } = await db.query<PlanSubscription>(
    `SELECT ${COLUMNS} FROM subscriptions
      WHERE product_game_id = 'Sentinel' AND expiration > $2
        AND (lower(customer_email) = lower($1)
             OR user_id = (SELECT user_id FROM users WHERE lower(email) = lower($1)))
      ORDER BY gift DESC, expiration DESC LIMIT 1`,
    [email, now],
  );
  return rows[0] ?? null;
}

/**
 * A trial bought before its account existed joins the account that has its email: the body of a
 * data-modifying WITH query, the user's id in `user`, yielding the subscriptions it claimed. The
 * statement it is part of reads the subscriptions as they were before it, so it adds these.
 */
export const claimedByEmail = (user: string) =>
  `UPDATE subscriptions s SET user_id = u.user_id FROM users u
    WHERE u.user_id = ${user} AND s.user_id IS NULL AND lower(s.customer_email) = lower(u.email)
  RETURNING s.*`;

async function addInvoice(
  db: Queryable,
  subscriptionId: string,
  description: string,
  amount: number,
  period?: { start: Date; end: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO invoices (subscription_id, description, amount, period_start, period_end)
     VALUES ($1, $2, $3, $4, $5)`,
    [subscriptionId, description, amount, period?.start ?? null, period?.end ?? null],
  );
}

export async function invoicesOf(db: Queryable, subscriptionId: string): Promise<Invoice[]> {
  const { rows } = await db.query<Invoice>(
    `SELECT invoice_id AS "invoiceId", (extract(epoch FROM created) * 1000)::float8 AS created,
            description, amount, (extract(epoch FROM refunded) * 1000)::float8 AS refunded
       FROM invoices WHERE subscription_id = $1 ORDER BY created DESC, invoice_id`,
    [subscriptionId],
  );
  return rows;
}

/** Whether this email's account (or the email itself) ever held a plan: then no trial again. */
export async function hadSubscription(db: Queryable, email: string): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM subscriptions
      WHERE product_game_id = 'Sentinel'
        AND (lower(customer_email) = lower($1)
             OR user_id = (SELECT user_id FROM users WHERE lower(email) = lower($1)))
      LIMIT 1`,
    [email],
  );
  return rows.length > 0;
}

/**
 * Starts the plan of a completed checkout: free until the trial ends, or (SPEC §4: the trial is
 * for whoever never had a subscription) paid for its first period at once.
 */
export async function startPlan(
  db: Queryable,
  processor: PaymentProcessor,
  plans: PlanConfig,
  checkout: { email: string; plan: Plan; trial: boolean },
  now: Date,
): Promise<string> {
  const { plan } = checkout;
  const end = checkout.trial
    ? new Date(now.getTime() + plans.trialDays * DAY_MS)
    : new Date(periodEnd(now.getTime(), plan.period));
  const { rows } = await db.query<{ subscription_id: string }>(
    `INSERT INTO subscriptions (user_id, product_id, product_name, product_game_id, created, expiration,
            units_allowed, customer_email, plan_period, period_start, trial_end, processor_ref)
     VALUES ((SELECT user_id FROM users WHERE lower(email) = lower($1)), $2, $3, 'Sentinel', $4, $5,
             $6, $1, $7, $4, $8, $9)
     RETURNING subscription_id`,
    [
      checkout.email,
      SENTINEL_PRODUCT_ID,
      productName(plan.size),
      now,
      end,
      plan.size,
      plan.period,
      checkout.trial ? end : null,
      randomUUID(),
    ],
  );
  const id = rows[0].subscription_id;
  if (checkout.trial) {
    await addInvoice(db, id, `Free trial, ${plans.trialDays} days`, 0, { start: now, end });
    return id;
  }
  const amount = planPrice(plans, plan.size, plan.period);
  const description = `${productName(plan.size)}, ${plan.period}`;
  await moveMoney(() => processor.charge(id, amount, description));
  await addInvoice(db, id, description, amount, { start: now, end });
  return id;
}

const inTrial = (sub: PlanSubscription, now: Date) => sub.trialEnd !== null && now.getTime() < sub.trialEnd;

/** What changing to `to` now would cost (the portal shows it before the change is confirmed). */
export function quoteChange(plans: PlanConfig, sub: PlanSubscription, to: Plan, now: Date): Proration {
  return prorate(plans, { size: sub.size, period: sub.period }, to, {
    periodStart: sub.periodStart,
    periodEnd: sub.expiration,
    now: now.getTime(),
    trial: inTrial(sub, now),
  });
}

export async function changePlan(
  db: Queryable,
  processor: PaymentProcessor,
  plans: PlanConfig,
  sub: PlanSubscription,
  to: Plan,
  now: Date,
): Promise<Proration> {
  const quote = quoteChange(plans, sub, to, now);
  const trial = inTrial(sub, now);
  // A change of period starts a new paid period now; in the trial the dates stay as they are.
  const restart = !trial && to.period !== sub.period;
  const description = `Change to ${productName(to.size).toLowerCase()}, ${to.period}${trial ? ' (trial)' : ' (prorated)'}`;
  if (quote.due > 0) await moveMoney(() => processor.charge(sub.subscriptionId, quote.due, description));
  if (quote.due < 0) await moveMoney(() => processor.refund(sub.subscriptionId, -quote.due));
  await db.query(
    `UPDATE subscriptions SET units_allowed = $2, plan_period = $3, product_name = $4,
            period_start = CASE WHEN $5 THEN $6 ELSE period_start END, expiration = $7
      WHERE subscription_id = $1`,
    [sub.subscriptionId, to.size, to.period, productName(to.size), restart, now, new Date(quote.periodEnd)],
  );
  await addInvoice(db, sub.subscriptionId, description, quote.due, {
    start: restart ? now : new Date(sub.periodStart),
    end: new Date(quote.periodEnd),
  });
  return quote;
}

/** Stops renewal: the subscription expires at the end of the period already paid (or the trial). */
export async function cancelAtPeriodEnd(
  db: Queryable,
  sub: PlanSubscription,
  cancel: boolean,
): Promise<void> {
  await db.query('UPDATE subscriptions SET cancel_at_period_end = $2 WHERE subscription_id = $1', [
    sub.subscriptionId,
    cancel,
  ]);
}

/** The newest charge still inside the refund period, or null. */
export async function refundable(
  db: Queryable,
  plans: PlanConfig,
  sub: PlanSubscription,
  now: Date,
): Promise<Invoice | null> {
  const { rows } = await db.query<Invoice>(
    `SELECT invoice_id AS "invoiceId", (extract(epoch FROM created) * 1000)::float8 AS created,
            description, amount, NULL AS refunded
       FROM invoices
      WHERE subscription_id = $1 AND amount > 0 AND refunded IS NULL AND created > $2
      ORDER BY created DESC LIMIT 1`,
    [sub.subscriptionId, new Date(now.getTime() - plans.refundDays * DAY_MS)],
  );
  return rows[0] ?? null;
}

/** Refunds the charge and ends the subscription now. */
export async function refund(
  db: Queryable,
  processor: PaymentProcessor,
  sub: PlanSubscription,
  invoice: Invoice,
  now: Date,
): Promise<void> {
  await moveMoney(() => processor.refund(sub.subscriptionId, invoice.amount));
  await db.query('UPDATE invoices SET refunded = $2 WHERE invoice_id = $1', [invoice.invoiceId, now]);
  await addInvoice(db, sub.subscriptionId, `Refund: ${invoice.description}`, -invoice.amount);
  await db.query(
    'UPDATE subscriptions SET expiration = $2, cancel_at_period_end = true WHERE subscription_id = $1',
    [sub.subscriptionId, now],
  );
}

/**
 * Renews every plan whose period (or trial) has ended and that is not cancelled: a new period is
 * charged and the expiration moves on. A cancelled or gifted one just expires on its date. Returns
 * the users whose subscription changed.
 */
export async function renewDue(
  db: Queryable,
  processor: PaymentProcessor,
  plans: PlanConfig,
  now: Date,
): Promise<string[]> {
  const { rows } = await db.query<PlanSubscription>(
    `SELECT ${COLUMNS} FROM subscriptions
      WHERE plan_period IS NOT NULL AND NOT gift AND NOT cancel_at_period_end AND expiration <= $1
      ORDER BY expiration LIMIT 500`,
    [now],
  );
  const users = new Set<string>();
  for (const sub of rows) {
    // A period missed while the server was down is not charged: the new one starts now.
    let start = new Date(sub.expiration);
    let end = new Date(periodEnd(start.getTime(), sub.period));
    if (end <= now) {
      start = now;
      end = new Date(periodEnd(now.getTime(), sub.period));
    }
    // Claimed by moving the date, so two processes running this job never renew one plan twice.
    const claimed = await db.query(
      `UPDATE subscriptions SET period_start = $2, expiration = $3
        WHERE subscription_id = $1 AND date_trunc('milliseconds', expiration) = $4 RETURNING 1`,
      [sub.subscriptionId, start, end, new Date(sub.expiration)],
    );
    if (claimed.rows.length === 0) continue;
    if (sub.userId) users.add(sub.userId);
    const amount = planPrice(plans, sub.size, sub.period);
    const description = `${productName(sub.size)}, ${sub.period}`;
    try {
      await processor.charge(sub.subscriptionId, amount, description);
    } catch (e) {
      // Not paid: it expires on its old date, and the owner sees the expired banner.
      console.error(`billing: renewing ${sub.subscriptionId} failed:`, (e as Error).message);
      await db.query(
        'UPDATE subscriptions SET expiration = $2, cancel_at_period_end = true WHERE subscription_id = $1',
        [sub.subscriptionId, new Date(sub.expiration)],
      );
      continue;
    }
    await addInvoice(db, sub.subscriptionId, description, amount, { start, end });
  }
  return [...users];
}
