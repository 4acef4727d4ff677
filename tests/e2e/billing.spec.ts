// Plans, trial and billing by keyboard only (issue 16): the landing's pricing for 12 servers yearly;
// a trial started with a good email after two refusals (a throwaway domain, the refund box left
// unchecked); the billing portal changing the plan at a prorated price; and, with the plan shrunk
// below the server count, every simulated server refused with the reason on the server list.

import { expect, type Page, test } from '@playwright/test';
import { EMAIL_MESSAGES, LINK_REFUSALS, TRIAL_ERRORS } from '../../src/domain/billing.ts';
import { signIn, tabTo } from './helpers.ts';

const pricing = (page: Page) => page.locator('#pricing');
const trialForm = (page: Page) => page.locator('#trial');
const MODERATOR = 'moderator@palisade.local';

/** Replaces what the focused field holds. */
async function retype(page: Page, text: string) {
  await page.keyboard.press('Control+a');
  await page.keyboard.type(text);
}

test('signed out, the pricing computes 12 servers yearly', async ({ page }) => {
  await page.goto('/');
  const size = pricing(page).getByRole('spinbutton', { name: 'Servers' });
  await tabTo(page, size, 60);
  await retype(page, '12');
  await page.keyboard.press('Tab');
  await expect(pricing(page).getByRole('radio', { name: 'Monthly' })).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(pricing(page).getByRole('radio', { name: 'Yearly' })).toBeChecked();
  const price = pricing(page).getByTestId('plan-price');
  await expect(price).toContainText('10 servers × $40.00 = $400.00');
  await expect(price).toContainText('2 servers × $30.00 = $60.00');
  await expect(price).toContainText('$460.00 a year for 12 servers');
});

test('a visitor is asked to sign in; signed in, a trial starts after a throwaway domain and an unchecked refund box', async ({
  page,
}) => {
  await page.goto('/');
  // Signed out, the trial asks for the account first.
  await expect(trialForm(page).getByRole('button', { name: 'Sign In to Start' })).toBeVisible();
  await expect(trialForm(page).getByRole('textbox', { name: 'Email' })).toHaveCount(0);

  // The moderator's account has never had a plan.
  await signIn(page, '/servers', MODERATOR);
  // Signed in, the landing is at /features (/ goes to the servers).
  await page.goto('/features');
  const email = trialForm(page).getByRole('textbox', { name: 'Email' });
  const refund = trialForm(page).getByRole('checkbox', { name: /refund policy/ });
  const submit = trialForm(page).getByRole('button', { name: 'Start Free Trial' });
  await expect(email).toHaveValue(MODERATOR);

  await tabTo(page, email, 80);
  await retype(page, 'visitor@mailinator.com');
  await page.keyboard.press('Tab');
  await retype(page, '3');
  await tabTo(page, refund);
  await page.keyboard.press('Space');
  await tabTo(page, submit);
  await page.keyboard.press('Enter');
  await expect(trialForm(page).getByRole('alert')).toHaveText(EMAIL_MESSAGES.disposable);
  await expect(email).toBeFocused();
  // Refused, the form keeps every field.
  await expect(email).toHaveValue('visitor@mailinator.com');
  await expect(trialForm(page).getByRole('spinbutton', { name: 'Servers' })).toHaveValue('3');
  await expect(refund).toBeChecked();

  await retype(page, MODERATOR);
  await tabTo(page, refund);
  await page.keyboard.press('Space');
  await tabTo(page, submit);
  await page.keyboard.press('Enter');
  await expect(trialForm(page).getByRole('alert')).toHaveText(TRIAL_ERRORS.declinedRefundPolicy);
  await expect(refund).toBeFocused();
  await expect(email).toHaveValue(MODERATOR);

  await page.keyboard.press('Space');
  await tabTo(page, submit);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/v4\/billing\/checkout\//);
  await expect(page.getByRole('heading', { name: 'Start your free trial' })).toBeVisible();
  await expect(page.getByText('3 servers, monthly: $12.00 a month')).toBeVisible();
  await expect(page.getByText(/Due today: \$0\.00/)).toBeVisible();
  await tabTo(page, page.getByRole('button', { name: 'Start trial' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/servers/);
  await expect(page.getByRole('grid')).toBeVisible();
});

/** Opens the billing portal from the console's palette; it opens in a tab of its own. */
async function openPortal(page: Page): Promise<Page> {
  const opened = page.context().waitForEvent('page');
  await page.keyboard.press('Control+k');
  await expect(page.getByRole('combobox', { name: /command palette/i })).toBeFocused();
  await page.keyboard.type('Manage plan');
  await expect(page.getByRole('option', { name: /Manage plan/ }).first()).toBeVisible();
  await page.keyboard.press('Enter');
  const portal = await opened;
  await expect(portal.getByRole('heading', { name: 'Billing' })).toBeVisible();
  return portal;
}

/** Changes the plan on the portal by keyboard; answers the prorated line the preview showed. */
async function changePlan(portal: Page, size: number): Promise<string> {
  const servers = portal.getByRole('spinbutton', { name: 'Servers' });
  await tabTo(portal, servers);
  await retype(portal, String(size));
  await tabTo(portal, portal.getByRole('button', { name: 'Preview change' }));
  await portal.keyboard.press('Enter');
  const due = portal.getByTestId('prorated-due');
  await expect(due).toBeVisible();
  const text = (await due.textContent()) ?? '';
  await tabTo(portal, portal.getByRole('button', { name: 'Confirm change' }));
  await portal.keyboard.press('Enter');
  await expect(portal.getByText('Your plan was changed.')).toBeVisible();
  return text;
}

test('the billing portal changes the plan at a prorated price; shrunk below the servers, none connect', async ({
  page,
}) => {
  test.setTimeout(150_000);
  await signIn(page);
  const portal = await openPortal(page);
  await expect(portal.getByTestId('current-plan')).toHaveText('10 servers, yearly: $400.00 a year');

  // Nearly the whole year is left: two more servers at $30 a year cost a little under $60 now.
  const due = await changePlan(portal, 12);
  const [, dollars, cents] = /Due now: \$(\d+)\.(\d\d) \(prorated\)/.exec(due) ?? [];
  const amount = Number(dollars) * 100 + Number(cents);
  expect(amount).toBeGreaterThan(5900);
  expect(amount).toBeLessThanOrEqual(6000);
  await expect(portal.getByTestId('current-plan')).toHaveText('12 servers, yearly: $460.00 a year');
  await expect(portal.getByRole('row', { name: /prorated/ }).first()).toContainText(`$${dollars}.${cents}`);

  const grid = page.getByRole('grid', { name: 'Servers' });
  try {
    await changePlan(portal, 2);
    await expect(page.getByTestId('subscription-tooMany')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('subscription-tooMany')).toContainText('none of them connect');
    const island = grid.getByRole('row', { name: /Island PvE/ });
    await expect(island).toContainText(LINK_REFUSALS.tooManyServers, { timeout: 20_000 });
    await expect(grid.getByRole('row', { name: /Connected/ })).toHaveCount(0);
  } finally {
    // Back as the demo had it, so the other browser tests find their servers connected.
    await changePlan(portal, 10);
  }
  await expect(page.getByTestId('subscription-tooMany')).toHaveCount(0, { timeout: 20_000 });
  await expect(grid.getByRole('row', { name: /Island PvE/ })).toContainText('Connected', { timeout: 60_000 });
});
