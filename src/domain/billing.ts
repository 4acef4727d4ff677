// Trial sign-up and billing portal (SPEC §5 "Trial sign-up", §8 "Billing"): the error codes the
// server answers with and the words the console shows for each, shared by both sides.

import type { BillingPeriod, PlanConfig } from './plans.ts';

export const TRIAL_ERRORS = {
  generic: 'The trial could not be started. Please try again, or contact support if it keeps happening.',
  invalidEmail: 'This email address could not be verified as real. Check it for typos.',
  checkoutSessionFailed: 'The checkout could not be prepared. Please try again in a moment.',
  incorrectContentType: 'The trial request must be sent as JSON.',
  emptyCart: 'Choose how many servers your plan is for: at least one.',
  declinedRefundPolicy: 'Please agree to the refund policy to start your trial.',
  invalidUrl: 'The return address must be a page of this site.',
  duplicateSubscription:
    'This account already has an active subscription. Manage it from the billing portal.',
  subscriptionIsGift: 'This account’s subscription is a gift, so it cannot be changed by a trial.',
  cartTooLarge: 'That plan is larger than one checkout can hold.',
} as const;
export type TrialErrorCode = keyof typeof TRIAL_ERRORS;

/** The email's own messages, kept apart so the form can say which rule the address broke. */
export const EMAIL_MESSAGES = {
  empty: 'Enter the email address for your account.',
  format: 'This does not look like an email address.',
  disposable: 'Throwaway email addresses cannot start a trial. Use an address you keep.',
  noMail: 'The domain of this email address does not receive mail.',
  wrongAccount:
    'You are signed in with an account that does not have this email address. Use that account’s address, or sign out first.',
} as const;

export const PORTAL_ERRORS = {
  alreadyPreparing: 'Your billing portal is already being prepared. Wait a moment, then try again.',
  invalidReturnUrl: 'The billing portal can only return to a page on an allowed domain.',
  forbidden: 'You do not have permission to access this resource.',
  customerNotFound: 'There is no billing account for you yet. Start a trial or choose a plan first.',
} as const;
export type PortalErrorCode = keyof typeof PORTAL_ERRORS;

/** The public plan configuration (`GET /v4/billing/plans`). */
export type PublicPlans = PlanConfig;

export interface TrialRequest {
  email: string;
  planSize: number;
  period: BillingPeriod;
  acceptRefundPolicy: boolean;
  /** Where the checkout returns after the trial starts, and where Cancel goes. */
  successUrl: string;
  cancelUrl: string;
  /** Who sent the visitor (SPEC §2 /a/{affiliateId}), when the browser remembers one. */
  affiliateId?: string;
}

/** Affiliate ids are short codes; anything else is ignored rather than stored. */
export const AFFILIATE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** A checkout or portal session: the page of the billing server the browser goes to. */
export interface BillingSession {
  url: string;
}

/** Why the game-server link refuses a server (shown on the server list and setup page). */
export const LINK_REFUSALS = {
  noSubscription: 'Refused: the owner has no Sentinel subscription.',
  expired: 'Refused: the owner’s subscription has expired.',
  tooManyServers: 'Refused: the owner has more servers than the subscription allows, so none connect.',
} as const;
export type LinkRefusal = keyof typeof LINK_REFUSALS;
