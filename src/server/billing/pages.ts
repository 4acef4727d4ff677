// The reference billing server's own pages: the checkout where a trial is confirmed (no card is
// asked for) and the billing portal (plan, change with its prorated price, cancel, refund,
// invoices). Plain HTML forms, so they work by keyboard and without script.

import {
  describePlan,
  formatUsd,
  PERIOD_LABELS,
  type Plan,
  type PlanConfig,
  type Proration,
  planPrice,
} from '../../domain/plans.ts';
import { escapeHtml } from '../http/html.ts';
import type { Invoice, PlanSubscription } from './subscriptions.ts';

const WIDE = `<style>main{width:min(40rem,92vw)}table{width:100%;border-collapse:collapse;margin:.5rem 0}
th,td{text-align:left;padding:.3rem .4rem;border-bottom:1px solid var(--border)}td.amount,th.amount{text-align:right}
select{box-sizing:border-box;width:100%;padding:.5rem;border-radius:4px;border:1px solid var(--border);background:var(--bg);color:inherit;font:inherit}
a{color:var(--link)}section{margin-top:1.5rem}button.secondary{background:var(--secondary)}h2{font-size:1.05rem;margin:0 0 .5rem}</style>`;

const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export interface CheckoutView {
  checkoutId: string;
  email: string;
  plan: Plan;
  trial: boolean;
  cancelUrl: string;
  /** Why the last attempt failed (the processor refused), shown above the button. */
  problem?: string;
}

export function checkoutPage(plans: PlanConfig, v: CheckoutView): string {
  const renews = v.plan.period === 'monthly' ? 'every month' : 'every year';
  const terms = v.trial
    ? `Due today: ${formatUsd(0)}. Your ${plans.trialDays} day trial starts now; then the plan renews
${renews} until you cancel.`
    : `Due today: ${formatUsd(planPrice(plans, v.plan.size, v.plan.period))}. This email has had a plan
before, so there is no free trial: the plan starts now and renews ${renews} until you cancel.`;
  return `${WIDE}<h1>${v.trial ? 'Start your free trial' : 'Start your plan'}</h1>
<p>Plan: ${escapeHtml(describePlan(plans, v.plan))}</p>
<p>Account email: ${escapeHtml(v.email)}</p>
<p>${terms} You can ask for a refund within ${plans.refundDays} days of a payment.</p>
<p class="small">This reference checkout takes no card.</p>
${v.problem ? `<p role="alert" class="error">${escapeHtml(v.problem)}</p>` : ''}
<form method="post" action="/v4/billing/checkout/${escapeHtml(v.checkoutId)}">
<button type="submit">${v.trial ? 'Start trial' : 'Start plan'}</button></form>
<p><a href="${escapeHtml(v.cancelUrl)}">Cancel and go back</a></p>`;
}

function status(sub: PlanSubscription, now: number): string {
  if (sub.expiration <= now) return `Expired on ${date(sub.expiration)}`;
  if (sub.cancelAtPeriodEnd) return `Cancelled: ends on ${date(sub.expiration)}`;
  if (sub.trialEnd !== null && now < sub.trialEnd) return `Free trial until ${date(sub.trialEnd)}`;
  return `Renews on ${date(sub.expiration)}`;
}

function planFields(plans: PlanConfig, plan: Plan): string {
  const options = (['monthly', 'yearly'] as const)
    .map((p) => `<option value="${p}"${p === plan.period ? ' selected' : ''}>${PERIOD_LABELS[p]}</option>`)
    .join('');
  return `<label for="size">Servers</label>
<input id="size" name="size" type="number" min="1" max="${plans.maxServers}" required value="${plan.size}">
<label for="period">Billing period</label><select id="period" name="period">${options}</select>`;
}

export interface PortalView {
  sessionId: string;
  plans: PlanConfig;
  sub: PlanSubscription;
  invoices: Invoice[];
  refundable: Invoice | null;
  returnUrl: string;
  now: number;
  /** A line saying what the last action did, or what was wrong with it. */
  notice?: { text: string; error?: boolean };
}

export function portalPage(v: PortalView): string {
  const base = `/v4/billing/portal/${escapeHtml(v.sessionId)}`;
  const { sub } = v;
  const live = sub.expiration > v.now;
  const rows = v.invoices
    .map(
      (i) =>
        `<tr><td>${date(i.created)}</td><td>${escapeHtml(i.description)}${i.refunded ? ' (refunded)' : ''}</td><td class="amount">${formatUsd(i.amount)}</td></tr>`,
    )
    .join('');
  const invoiceRows = rows || '<tr><td colspan="3">No invoices yet.</td></tr>';
  const notice = v.notice
    ? `<p role="${v.notice.error ? 'alert' : 'status'}" class="${v.notice.error ? 'error' : ''}">${escapeHtml(v.notice.text)}</p>`
    : '';
  const change =
    live && !sub.gift
      ? `<section aria-labelledby="change-title"><h2 id="change-title">Change plan</h2>
<form method="post" action="${base}/preview">${planFields(v.plans, sub)}<button type="submit">Preview change</button></form></section>`
      : '';
  const cancel =
    live && !sub.gift
      ? `<section aria-labelledby="cancel-title"><h2 id="cancel-title">${sub.cancelAtPeriodEnd ? 'Resume' : 'Cancel'}</h2>
<form method="post" action="${base}/${sub.cancelAtPeriodEnd ? 'resume' : 'cancel'}">
<p>${sub.cancelAtPeriodEnd ? 'Keep renewing your plan.' : `Your plan stays until ${date(sub.expiration)}, then ends.`}</p>
<button type="submit" class="secondary">${sub.cancelAtPeriodEnd ? 'Resume plan' : 'Cancel plan'}</button></form></section>`
      : '';
  const refund = v.refundable
    ? `<section aria-labelledby="refund-title"><h2 id="refund-title">Refund</h2>
<form method="post" action="${base}/refund"><p>Refund ${formatUsd(v.refundable.amount)} for “${escapeHtml(v.refundable.description)}” and end the plan now.</p>
<button type="submit" class="secondary">Refund and end plan</button></form></section>`
    : '';
  return `${WIDE}<h1>Billing</h1>${notice}
<section aria-labelledby="plan-title"><h2 id="plan-title">Your plan</h2>
<p data-testid="current-plan">${escapeHtml(describePlan(v.plans, sub))}</p>
<p>${escapeHtml(sub.gift ? `A gift: ends on ${date(sub.expiration)}` : status(sub, v.now))}</p></section>
${change}${cancel}${refund}
<section aria-labelledby="invoices-title"><h2 id="invoices-title">Invoices</h2>
<table><thead><tr><th scope="col">Date</th><th scope="col">Description</th><th scope="col" class="amount">Amount</th></tr></thead>
<tbody>${invoiceRows}</tbody></table></section>
<p><a href="${escapeHtml(v.returnUrl)}">Return to the console</a></p>`;
}

/**
 * The price of a change before it is made. The form carries the time it was priced at, so the
 * change charges what was shown (a cent can move with every second otherwise).
 */
export function previewPage(
  sessionId: string,
  plans: PlanConfig,
  to: Plan,
  quote: Proration & { at: number },
  notice?: string,
): string {
  const base = `/v4/billing/portal/${escapeHtml(sessionId)}`;
  const due =
    quote.due >= 0 ? `Due now: ${formatUsd(quote.due)}` : `Credited back now: ${formatUsd(-quote.due)}`;
  const told = notice ? `<p role="status">${escapeHtml(notice)}</p>\n` : '';
  return `${WIDE}<h1>Confirm the change</h1>
${told}<p>New plan: ${escapeHtml(describePlan(plans, to))}</p>
<table><tbody>
<tr><th scope="row">Unused time on your current plan</th><td class="amount">${formatUsd(-quote.credit)}</td></tr>
<tr><th scope="row">New plan until ${date(quote.periodEnd)}</th><td class="amount">${formatUsd(quote.charge)}</td></tr>
</tbody></table>
<p data-testid="prorated-due"><strong>${due}</strong> (prorated)</p>
<form method="post" action="${base}/change">
<input type="hidden" name="size" value="${to.size}"><input type="hidden" name="period" value="${to.period}">
<input type="hidden" name="quotedAt" value="${quote.at}"><input type="hidden" name="due" value="${quote.due}">
<button type="submit">Confirm change</button></form>
<p><a href="${base}">Back to billing</a></p>`;
}
