// The trial form (SPEC §5 Trial sign-up): for the signed-in account only; its own checks before
// anything is sent, the server's refusals beside the field they concern with focus there, every
// field kept, and the checkout the server answers opened.

import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EMAIL_MESSAGES, TRIAL_ERRORS } from '../../src/domain/billing.ts';
import { ApiError } from '../../src/web/api/http.ts';
import { AuthProvider } from '../../src/web/auth/react.tsx';
import type { Auth } from '../../src/web/auth/session.ts';
import { TrialForm } from '../../src/web/views/public/TrialForm.tsx';
import { fakeBillingApi, PublicDeps } from './publicDeps-fixture.tsx';

const signedOut = {
  state: { status: 'signedOut', reason: null },
  subscribe: () => () => {},
} as unknown as Auth;
const signedIn = {
  state: { status: 'signedIn', user: { userId: 'u1', email: 'owner@example.com', subscriptions: [] } },
  subscribe: () => () => {},
} as unknown as Auth;

function renderForm(api = fakeBillingApi(), auth = signedIn) {
  render(
    <AuthProvider auth={auth}>
      <PublicDeps api={api}>
        <TrialForm />
      </PublicDeps>
    </AuthProvider>,
  );
  return api;
}

const email = () => screen.getByRole('textbox', { name: 'Email' });
const size = () => screen.getByRole('spinbutton', { name: 'Servers' });
const refund = () => screen.getByRole('checkbox', { name: /refund policy/ });
const submit = () => userEvent.click(screen.getByRole('button', { name: 'Start Free Trial' }));

afterEach(cleanup);

describe('trial form', () => {
  it('asks a visitor to sign in first, and shows no form to fill', async () => {
    const api = renderForm(fakeBillingApi(), signedOut);
    expect(await screen.findByRole('button', { name: 'Sign In to Start' })).toBeTruthy();
    expect(screen.getByText(/A trial belongs to your account/)).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Email' })).toBeNull();
    expect(api.startTrial).not.toHaveBeenCalled();
  });

  it('shows the plan’s price and highlights as its size and period change', async () => {
    renderForm();
    await userEvent.clear(await screen.findByRole('spinbutton', { name: 'Servers' }));
    await userEvent.type(size(), '12');
    await userEvent.click(screen.getByRole('radio', { name: 'Yearly' }));
    expect(screen.getByTestId('plan-price').textContent).toContain('$460.00 a year for 12 servers');
    expect(screen.getByText(/Then renews every year/)).toBeTruthy();
  });

  it('refuses a malformed address and an unchecked refund box before sending anything', async () => {
    const api = renderForm();
    await userEvent.clear(await screen.findByRole('textbox', { name: 'Email' }));
    await userEvent.type(email(), 'not-an-address');
    await submit();
    expect(screen.getByText(EMAIL_MESSAGES.format)).toBeTruthy();
    expect(screen.getByText(TRIAL_ERRORS.declinedRefundPolicy)).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(email()));
    expect(email().getAttribute('aria-invalid')).toBe('true');
    expect(api.startTrial).not.toHaveBeenCalled();
  });

  it('puts a server refusal beside its field, keeps every field, then opens the checkout', async () => {
    const api = fakeBillingApi();
    api.startTrial.mockRejectedValueOnce(
      new ApiError(TRIAL_ERRORS.cartTooLarge, 'cartTooLarge', 400, { maxServers: 100 }),
    );
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, origin: 'http://console.test', assign });
    try {
      renderForm(api);
      // The account's address is already there.
      expect((await screen.findByRole('textbox', { name: 'Email' })).getAttribute('value')).toBe(
        'owner@example.com',
      );
      await userEvent.clear(size());
      await userEvent.type(size(), '500');
      await userEvent.click(refund());
      await submit();
      expect(await screen.findByText(TRIAL_ERRORS.cartTooLarge)).toBeTruthy();
      await waitFor(() => expect(document.activeElement).toBe(size()));
      expect(email()).toHaveProperty('value', 'owner@example.com');
      expect(size()).toHaveProperty('value', '500');
      expect(refund()).toHaveProperty('checked', true);

      await userEvent.clear(size());
      await userEvent.type(size(), '5');
      await submit();
      await waitFor(() => expect(assign).toHaveBeenCalledWith('http://billing.test/checkout/1'));
      expect(api.startTrial).toHaveBeenLastCalledWith({
        email: 'owner@example.com',
        planSize: 5,
        period: 'monthly',
        acceptRefundPolicy: true,
        successUrl: 'http://console.test/servers',
        cancelUrl: 'http://console.test/features#pricing',
      });
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
