// Plans, the trial checkout and the billing portal (SPEC §5 Trial sign-up, §8 Billing;
// docs/billing.md). The JSON routes prepare a session with the payment processor and answer the
// address of its page; the reference processor's pages are served here too.

import { RealtimeEvent } from '../../domain/api.ts';
import {
  AFFILIATE_ID,
  EMAIL_MESSAGES,
  PORTAL_ERRORS,
  TRIAL_ERRORS,
  type TrialErrorCode,
} from '../../domain/billing.ts';
import { UUID } from '../../domain/constants.ts';
import { BILLING_PERIODS, type BillingPeriod, type Plan, planPrice } from '../../domain/plans.ts';
import { emailProblem } from '../billing/email.ts';
import { enforceLimits } from '../billing/limits.ts';
import { checkoutPage, portalPage, previewPage } from '../billing/pages.ts';
import { CHECKOUT_HOURS, PaymentFailed, PORTAL_SESSION_MINUTES } from '../billing/processor.ts';
import {
  activeFor,
  cancelAtPeriodEnd,
  changePlan,
  hadSubscription,
  invoicesOf,
  planOf,
  quoteChange,
  refund,
  refundable,
  startPlan,
} from '../billing/subscriptions.ts';
import type { ServerContext } from '../context.ts';
import { parseJson, readFields, readText, str } from '../http/body.ts';
import { ApiException } from '../http/errors.ts';
import { htmlPage } from '../http/html.ts';
import { fromOwnPage, returnAllowed } from '../http/origin.ts';
import { type ApiRouter, type Ctx, json, param } from '../http/router.ts';
import { CONSOLE_APP_ID } from '../model/application.ts';
import { publishToUsers } from '../model/service.ts';

const trialError = (
  status: number,
  code: TrialErrorCode,
  message: string = TRIAL_ERRORS[code],
  details: unknown = null,
) => new ApiException(status, message, code, details);

const portalError = (status: number, code: keyof typeof PORTAL_ERRORS) =>
  new ApiException(status, PORTAL_ERRORS[code], code);

/** A processor's refusal as a value, for the page that asked to show; any other error stays thrown. */
const orRefusal = <T>(p: Promise<T>): Promise<T | PaymentFailed> =>
  p.catch((e) => {
    if (e instanceof PaymentFailed) return e;
    throw e;
  });
const refusalText = (e: PaymentFailed) =>
  `The payment processor refused: ${e.message.slice(0, 200) || 'no reason given'}. Nothing was changed; please try again.`;

const PERIOD_REQUIRED = 'Choose monthly or yearly billing.';
/** How long a price the portal showed holds: confirmed within it, the change charges that price. */
const QUOTE_HOLDS_MS = 10 * 60_000;
const PRICE_MOVED = 'The price has changed since it was shown. Here is the price now.';
const isPeriod = (v: unknown): v is BillingPeriod => BILLING_PERIODS.includes(v as BillingPeriod);

export function registerBillingRoutes(router: ApiRouter, ctx: ServerContext): void {
  const { db, config, billing } = ctx;
  const plans = config.plans;

  /** Return addresses must be pages of the console: its origin or one of its callbacks'. */
  async function allowedReturn(address: string): Promise<boolean> {
    const { rows } = await db.query<{ callbacks: string[] }>(
      'SELECT callbacks FROM applications WHERE application_id = $1',
      [CONSOLE_APP_ID],
    );
    return returnAllowed(address, [`${config.publicUrl}/`, ...(rows[0]?.callbacks ?? [])]);
  }

  router.open('GET', '/billing/plans', (c) => json(c, plans));

  // A trial is for the signed-in account, with its email (SPEC §5): signed out, anyone could take
  // another person's trial, which each email gets once.
  router.authed('POST', '/billing/checkout', ['users:read'], async (c, caller) => {
    if (!/^application\/json\b/i.test(c.req.header('content-type') ?? ''))
      throw trialError(415, 'incorrectContentType');
    let body: unknown;
    try {
      body = parseJson(await readText(c));
    } catch (e) {
      // Text that is not JSON at all; the API's input limits keep their own codes.
      if (e instanceof ApiException && e.code === 'badRequestBody')
        throw trialError(400, 'incorrectContentType');
      throw e;
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw trialError(400, 'incorrectContentType');
    const b = body as Record<string, unknown>;
    const successUrl = str(b.successUrl);
    const cancelUrl = str(b.cancelUrl);
    if (!(await allowedReturn(successUrl)) || !(await allowedReturn(cancelUrl)))
      throw trialError(400, 'invalidUrl');
    const size = b.planSize;
    if (typeof size !== 'number' || !Number.isInteger(size) || size < 1) throw trialError(400, 'emptyCart');
    if (size > plans.maxServers)
      throw trialError(
        400,
        'cartTooLarge',
        `${TRIAL_ERRORS.cartTooLarge} The most is ${plans.maxServers} servers.`,
        {
          maxServers: plans.maxServers,
        },
      );
    if (!isPeriod(b.period)) throw trialError(400, 'generic', PERIOD_REQUIRED, { field: 'period' });
    const email = str(b.email).trim();
    const problem = await emailProblem(email, { mx: config.emailMx });
    if (problem)
      throw trialError(400, 'invalidEmail', EMAIL_MESSAGES[problem], { field: 'email', reason: problem });
    const { rows: account } = await db.query<{ email: string }>(
      'SELECT email FROM users WHERE user_id = $1',
      [caller.userId],
    );
    if (account[0]?.email.toLowerCase() !== email.toLowerCase())
      throw trialError(400, 'invalidEmail', EMAIL_MESSAGES.wrongAccount, {
        field: 'email',
        reason: 'wrongAccount',
      });
    if (b.acceptRefundPolicy !== true) throw trialError(400, 'declinedRefundPolicy');
    const existing = await activeFor(db, email, new Date());
    if (existing?.gift) throw trialError(409, 'subscriptionIsGift');
    if (existing) throw trialError(409, 'duplicateSubscription');

    const plan: Plan = { size, period: b.period };
    const trial = !(await hadSubscription(db, email));
    const affiliateId =
      typeof b.affiliateId === 'string' && AFFILIATE_ID.test(b.affiliateId) ? b.affiliateId : null;
    const { rows } = await db.query<{ checkout_id: string }>(
      `INSERT INTO billing_checkouts (email, plan_size, plan_period, success_url, cancel_url, trial, affiliate_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING checkout_id`,
      [email, size, plan.period, successUrl, cancelUrl, trial, affiliateId],
    );
    try {
      const session = await billing.createCheckout({
        checkoutId: rows[0].checkout_id,
        email,
        planSize: size,
        period: plan.period,
        amount: planPrice(plans, size, plan.period),
        affiliateId,
      });
      return json(c, session, 201);
    } catch (e) {
      console.error('billing: preparing a checkout failed:', (e as Error).message);
      throw trialError(502, 'checkoutSessionFailed');
    }
  });

  async function checkoutOf(id: string) {
    if (!UUID.test(id)) return null;
    const { rows } = await db.query<{
      email: string;
      plan_size: number;
      plan_period: BillingPeriod;
      success_url: string;
      cancel_url: string;
      trial: boolean;
    }>(
      `SELECT email, plan_size, plan_period, success_url, cancel_url, trial FROM billing_checkouts
        WHERE checkout_id = $1 AND completed IS NULL AND created > now() - make_interval(hours => $2)`,
      [id, CHECKOUT_HOURS],
    );
    return rows[0] ?? null;
  }

  const gone = (c: Ctx) =>
    htmlPage(
      c,
      'Link expired',
      '<h1>This link has expired</h1><p>Return to the console and start again.</p>',
      404,
    );

  type Checkout = NonNullable<Awaited<ReturnType<typeof checkoutOf>>>;
  const showCheckout = (c: Ctx, id: string, co: Checkout, problem?: string, status = 200) =>
    htmlPage(
      c,
      co.trial ? 'Start your free trial' : 'Start your plan',
      checkoutPage(plans, {
        checkoutId: id,
        email: co.email,
        plan: { size: co.plan_size, period: co.plan_period },
        trial: co.trial,
        cancelUrl: co.cancel_url,
        problem,
      }),
      status,
    );

  router.open('GET', '/billing/checkout/:id', async (c) => {
    const id = param(c, 'id');
    const co = await checkoutOf(id);
    if (!co) return gone(c);
    return showCheckout(c, id, co);
  });

  router.open('POST', '/billing/checkout/:id', async (c) => {
    const id = param(c, 'id');
    if (!fromOwnPage(c, config.publicUrl)) return gone(c);
    const co = await checkoutOf(id);
    if (!co) return gone(c);
    const now = new Date();
    const completed = db.transaction(async (tx) => {
      const taken = await tx.query(
        'UPDATE billing_checkouts SET completed = now() WHERE checkout_id = $1 AND completed IS NULL RETURNING 1',
        [id],
      );
      if (taken.rows.length === 0) return undefined;
      await startPlan(
        tx,
        billing,
        plans,
        { email: co.email, plan: { size: co.plan_size, period: co.plan_period }, trial: co.trial },
        now,
      );
      const { rows } = await tx.query<{ user_id: string }>(
        'SELECT user_id FROM users WHERE lower(email) = lower($1)',
        [co.email],
      );
      return rows[0]?.user_id ?? null;
    });
    // A refused first payment leaves the checkout open (the transaction took nothing back but
    // its own writes): the page says why and the buyer can try again.
    const userId = await orRefusal(completed);
    if (userId instanceof PaymentFailed) return showCheckout(c, id, co, refusalText(userId), 402);
    if (userId === undefined) return gone(c);
    if (userId) await publishToUsers(ctx, [userId], RealtimeEvent.userUpdated);
    // The console's welcome page says what to do next: sign in with the account, or create it.
    const next = new URL(co.success_url);
    next.searchParams.set('reason', userId ? 'notSignedIn' : 'createAccount');
    return c.redirect(next.href, 303);
  });

  // One portal being prepared per user at a time: a second request meanwhile is refused.
  const preparing = new Set<string>();

  router.authed('POST', '/billing/portal', ['users:read'], async (c, caller) => {
    const fields = await readFields(c);
    const { rows } = await db.query<{ is_anonymous: boolean; banned: boolean }>(
      'SELECT is_anonymous, banned FROM users WHERE user_id = $1',
      [caller.userId],
    );
    if (!rows[0] || rows[0].is_anonymous || rows[0].banned) throw portalError(403, 'forbidden');
    const returnUrl = str(fields.returnUrl);
    if (!(await allowedReturn(returnUrl))) throw portalError(400, 'invalidReturnUrl');
    if (preparing.has(caller.userId)) throw portalError(409, 'alreadyPreparing');
    preparing.add(caller.userId);
    try {
      if (!(await planOf(db, caller.userId))) throw portalError(404, 'customerNotFound');
      return json(c, await billing.createPortalSession(caller.userId, returnUrl), 201);
    } finally {
      preparing.delete(caller.userId);
    }
  });

  async function portalSession(id: string) {
    if (!UUID.test(id)) return null;
    const { rows } = await db.query<{ user_id: string; return_url: string }>(
      `SELECT user_id, return_url FROM billing_portal_sessions
        WHERE session_id = $1 AND created > now() - make_interval(mins => $2)`,
      [id, PORTAL_SESSION_MINUTES],
    );
    const session = rows[0];
    if (!session) return null;
    const sub = await planOf(db, session.user_id);
    return sub ? { ...session, sub } : null;
  }

  async function showPortal(c: Ctx, id: string, notice?: { text: string; error?: boolean }, status = 200) {
    const s = await portalSession(id);
    if (!s) return gone(c);
    const now = new Date();
    const body = portalPage({
      sessionId: id,
      plans,
      sub: s.sub,
      invoices: await invoicesOf(db, s.sub.subscriptionId),
      refundable: s.sub.expiration > now.getTime() ? await refundable(db, plans, s.sub, now) : null,
      returnUrl: s.return_url,
      now: now.getTime(),
      notice,
    });
    return htmlPage(c, 'Billing', body, status);
  }

  router.open('GET', '/billing/portal/:id', (c) => showPortal(c, param(c, 'id')));

  /** A portal form post: from our own page, on a live session whose plan can still change. */
  async function portalAction(c: Ctx) {
    const id = param(c, 'id');
    const s = fromOwnPage(c, config.publicUrl) ? await portalSession(id) : null;
    const fields = await readFields(c);
    return { id, s, fields, now: new Date() };
  }

  /** The plan the portal's form asks for, or why it cannot be had. */
  function planFrom(fields: Record<string, unknown>, current: Plan): Plan | string {
    const size = Number(str(fields.size));
    if (!Number.isInteger(size) || size < 1) return TRIAL_ERRORS.emptyCart;
    if (size > plans.maxServers)
      return `${TRIAL_ERRORS.cartTooLarge} The most is ${plans.maxServers} servers.`;
    const period = str(fields.period);
    if (!isPeriod(period)) return PERIOD_REQUIRED;
    if (size === current.size && period === current.period) return 'That is your plan already.';
    return { size, period };
  }

  type Session = NonNullable<Awaited<ReturnType<typeof portalSession>>>;
  const changeable = (s: Session, now: Date) => !s.sub.gift && s.sub.expiration > now.getTime();

  async function afterChange(userId: string) {
    await publishToUsers(ctx, [userId], RealtimeEvent.userUpdated);
    await enforceLimits(ctx, [userId]);
  }

  const preview = (c: Ctx, id: string, s: Session, to: Plan, now: Date, notice?: string) =>
    htmlPage(
      c,
      'Confirm the change',
      previewPage(id, plans, to, { ...quoteChange(plans, s.sub, to, now), at: now.getTime() }, notice),
    );

  /**
   * The time the confirmed price was quoted at, when that price still holds: quoted at most
   * QUOTE_HOLDS_MS ago, in this period, on the plan as it is, for the amount the page showed.
   */
  function heldQuote(fields: Record<string, unknown>, s: Session, to: Plan, now: Date): Date | null {
    const at = Number(str(fields.quotedAt));
    const fresh = Number.isSafeInteger(at) && at <= now.getTime() && now.getTime() - at <= QUOTE_HOLDS_MS;
    if (!fresh || at < s.sub.periodStart) return null;
    const quote = quoteChange(plans, s.sub, to, new Date(at));
    return String(quote.due) === str(fields.due) ? new Date(at) : null;
  }

  router.open('POST', '/billing/portal/:id/preview', async (c) => {
    const { id, s, fields, now } = await portalAction(c);
    if (!s) return gone(c);
    if (!changeable(s, now))
      return showPortal(c, id, { text: 'This plan can no longer be changed.', error: true }, 409);
    const to = planFrom(fields, s.sub);
    if (typeof to === 'string') return showPortal(c, id, { text: to, error: true }, 400);
    return preview(c, id, s, to, now);
  });

  router.open('POST', '/billing/portal/:id/change', async (c) => {
    const { id, s, fields, now } = await portalAction(c);
    if (!s) return gone(c);
    if (!changeable(s, now))
      return showPortal(c, id, { text: 'This plan can no longer be changed.', error: true }, 409);
    const to = planFrom(fields, s.sub);
    if (typeof to === 'string') return showPortal(c, id, { text: to, error: true }, 400);
    // The change charges the price the page showed; one no longer held is shown again, anew.
    const at = heldQuote(fields, s, to, now);
    if (!at) return preview(c, id, s, to, now, PRICE_MOVED);
    const changed = await orRefusal(db.transaction((tx) => changePlan(tx, billing, plans, s.sub, to, at)));
    if (changed instanceof PaymentFailed)
      return showPortal(c, id, { text: refusalText(changed), error: true }, 402);
    await afterChange(s.user_id);
    return showPortal(c, id, { text: 'Your plan was changed.' });
  });

  for (const [action, cancel] of [
    ['cancel', true],
    ['resume', false],
  ] as const) {
    router.open('POST', `/billing/portal/:id/${action}`, async (c) => {
      const { id, s, now } = await portalAction(c);
      if (!s) return gone(c);
      if (!changeable(s, now))
        return showPortal(c, id, { text: 'This plan has already ended.', error: true }, 409);
      await cancelAtPeriodEnd(db, s.sub, cancel);
      await publishToUsers(ctx, [s.user_id], RealtimeEvent.userUpdated);
      return showPortal(c, id, {
        text: cancel ? 'Your plan will not renew.' : 'Your plan will renew again.',
      });
    });
  }

  router.open('POST', '/billing/portal/:id/refund', async (c) => {
    const { id, s, now } = await portalAction(c);
    if (!s) return gone(c);
    const invoice = s.sub.expiration > now.getTime() ? await refundable(db, plans, s.sub, now) : null;
    if (!invoice)
      return showPortal(
        c,
        id,
        { text: `Only a payment of the last ${plans.refundDays} days can be refunded.`, error: true },
        409,
      );
    const refunded = await orRefusal(db.transaction((tx) => refund(tx, billing, s.sub, invoice, now)));
    if (refunded instanceof PaymentFailed)
      return showPortal(c, id, { text: refusalText(refunded), error: true }, 402);
    await afterChange(s.user_id);
    return showPortal(c, id, { text: 'Refunded. Your plan has ended.' });
  });
}
