// Plans and billing (ACTIONS.md account.startTrial, account.managePlan): the trial sign-up asks the
// billing server for a checkout and goes there; the plan is managed on the billing portal, which
// the server prepares for the signed-in user. The landing's trial form runs the same requestTrial.

import { BILLING_PERIODS, type BillingPeriod } from '../src/domain/plans.ts';
import { trialEligible } from '../src/domain/subscription.ts';
import type { SentinelApi } from '../src/web/api/sentinel.ts';
import { bool, int, oneOf, text } from './args.ts';
import { defineCommand } from './registry.ts';

const group = 'Account';

export interface TrialValues {
  email: string;
  planSize: number;
  period: BillingPeriod;
  acceptRefundPolicy: boolean;
}

/**
 * Prepares the checkout of a trial for the signed-in account and answers the address of its page.
 * `consoleOrigin` is where the checkout returns: the servers once the trial starts, the pricing
 * when cancelled.
 */
export async function requestTrial(
  api: SentinelApi,
  values: TrialValues,
  opts: { consoleOrigin: string; affiliateId?: string },
): Promise<string> {
  const { url } = await api.startTrial({
    ...values,
    email: values.email.trim(),
    successUrl: `${opts.consoleOrigin}/servers`,
    cancelUrl: `${opts.consoleOrigin}/features#pricing`,
    ...(opts.affiliateId ? { affiliateId: opts.affiliateId } : {}),
  });
  return url;
}

export const billingCommands = [
  defineCommand({
    id: 'account.startTrial',
    title: 'Start a free trial',
    group,
    aliases: ['trial'],
    args: {
      email: text().describe('Contact email', 'The email address of your account'),
      planSize: int({ min: 1 }).describe('Plan size', 'How many servers the plan is for'),
      period: oneOf(BILLING_PERIODS).describe('Billing period'),
      acceptRefundPolicy: bool().describe('I agree to the refund policy'),
    },
    // Offered to whoever has never had a subscription (SPEC §4 trial eligibility), signed in with
    // the account the trial is for (SPEC §5).
    when: (ctx) => !ctx.user || trialEligible(ctx.user),
    enabled: (ctx) => (ctx.user ? true : 'Sign in first'),
    run: async (args, ctx) => {
      const url = await requestTrial(ctx.app.api, args, { consoleOrigin: ctx.app.links.console });
      ctx.app.openExternal(url);
      return { message: 'The checkout opened in a new tab.' };
    },
  }),
  defineCommand({
    id: 'account.managePlan',
    title: 'Manage plan',
    group,
    aliases: ['billing'],
    enabled: (ctx) => (ctx.user ? true : 'Sign in first'),
    run: async (_a, ctx) => {
      const { url } = await ctx.app.api.billingPortal(`${ctx.app.links.console}${ctx.route}`);
      ctx.app.openExternal(url);
      return { message: 'The billing portal opened in a new tab.' };
    },
  }),
];
