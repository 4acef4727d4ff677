// The seam between billing and whoever takes the money (docs/billing.md "Payment processors").
// The reference processor takes none: its checkout and portal are this server's own pages, and a
// charge or refund is only written down as an invoice. An adapter for a real processor implements
// the same four calls and reports back through the same subscription model.

import type { BillingPeriod } from '../../domain/plans.ts';
import type { Db } from '../db/db.ts';

export interface CheckoutRequest {
  checkoutId: string;
  email: string;
  planSize: number;
  period: BillingPeriod;
  /** Cents a period after the trial. */
  amount: number;
  /** Who sent the buyer, for the processor to credit; null when nobody did. */
  affiliateId: string | null;
}

export interface PaymentProcessor {
  /** Prepares the page where the buyer confirms the trial; its address is where the browser goes. */
  createCheckout(req: CheckoutRequest): Promise<{ url: string }>;
  /** Prepares the page where a customer manages their plan; returns its address. */
  createPortalSession(userId: string, returnUrl: string): Promise<{ url: string }>;
  /** Takes `amount` cents (a renewal or a prorated change); throws when it cannot. */
  charge(subscriptionId: string, amount: number, description: string): Promise<void>;
  /** Gives back `amount` cents of an earlier charge. */
  refund(subscriptionId: string, amount: number): Promise<void>;
}

/**
 * The processor refused or could not be reached while money moved (a declined card, an outage).
 * Nothing was written: the page that asked shows the reason and the buyer can try again.
 */
export class PaymentFailed extends Error {}

/** Runs one charge or refund, any failure of the processor's turned into a PaymentFailed. */
export async function moveMoney(what: () => Promise<void>): Promise<void> {
  try {
    await what();
  } catch (e) {
    throw new PaymentFailed(e instanceof Error ? e.message : String(e));
  }
}

/** How long a portal page stays valid after it is prepared. */
export const PORTAL_SESSION_MINUTES = 60;
/** How long a prepared checkout waits for its buyer. */
export const CHECKOUT_HOURS = 24;

export function referenceProcessor(db: Db, publicUrl: string): PaymentProcessor {
  return {
    async createCheckout(req) {
      return { url: `${publicUrl}/v4/billing/checkout/${req.checkoutId}` };
    },
    async createPortalSession(userId, returnUrl) {
      const { rows } = await db.query<{ session_id: string }>(
        'INSERT INTO billing_portal_sessions (user_id, return_url) VALUES ($1, $2) RETURNING session_id',
        [userId, returnUrl],
      );
      return { url: `${publicUrl}/v4/billing/portal/${rows[0].session_id}` };
    },
    async charge() {},
    async refund() {},
  };
}
