// account.startTrial and account.managePlan as the palette and the console pane run them: what goes
// over the wire, where the browser is sent, and who is offered a trial.

import { describe, expect, it, vi } from 'vitest';
import { createRegistry } from '../../commands/index.ts';
import { availability, execute, isVisible } from '../../commands/registry.ts';
import type { User } from '../../src/domain/api.ts';
import { PORTAL_ERRORS } from '../../src/domain/billing.ts';
import { ApiError } from '../../src/web/api/http.ts';
import { fakeCommandContext } from './commandContext-fixture.ts';

const registry = createRegistry();
const subscribed = {
  userId: 'u1',
  email: 'owner@example.com',
  subscriptions: [{ productGameId: 'Sentinel', expiration: 2e9, unitsAllowed: 5 }],
} as unknown as User;
const newcomer = { ...subscribed, subscriptions: [] } as unknown as User;

function context(user: User | null, answer: () => Promise<unknown>) {
  const http = vi.fn(async (_m: string, _p: string, _o?: unknown) => answer());
  const openExternal = vi.fn();
  const ctx = fakeCommandContext(http, {
    route: '/servers/s1/setup',
    user,
    surface: 'palette',
    app: { openExternal, links: { console: 'https://console.test', controlPanel: '', planner: '' } },
  });
  return { ctx, http, openExternal };
}

describe('account.startTrial', () => {
  const cmd = registry.get('account.startTrial')!;

  it('is offered to whoever never had a subscription, and runs once they are signed in', () => {
    expect(isVisible(cmd, context(null, async () => null).ctx)).toBe(true);
    expect(availability(cmd, context(null, async () => null).ctx)).toBe('Sign in first');
    expect(isVisible(cmd, context(newcomer, async () => null).ctx)).toBe(true);
    expect(availability(cmd, context(newcomer, async () => null).ctx)).toBe(true);
    expect(isVisible(cmd, context(subscribed, async () => null).ctx)).toBe(false);
  });

  it('asks for a checkout with the account’s token and opens it', async () => {
    const { ctx, http, openExternal } = context(newcomer, async () => ({ url: 'https://billing.test/c/1' }));
    const values = { email: ' owner@example.com ', planSize: 12, period: 'yearly', acceptRefundPolicy: true };
    await execute(cmd, values, ctx);
    expect(http).toHaveBeenCalledWith('POST', '/billing/checkout', {
      body: {
        email: 'owner@example.com',
        planSize: 12,
        period: 'yearly',
        acceptRefundPolicy: true,
        successUrl: 'https://console.test/servers',
        cancelUrl: 'https://console.test/features#pricing',
      },
      expect: expect.arrayContaining(['invalidEmail', 'declinedRefundPolicy', 'cartTooLarge']),
    });
    expect(openExternal).toHaveBeenCalledWith('https://billing.test/c/1');
  });
});

describe('account.managePlan', () => {
  const cmd = registry.get('account.managePlan')!;

  it('prepares the portal to return to the page the user is on, and opens it', async () => {
    const { ctx, http, openExternal } = context(subscribed, async () => ({
      url: 'https://billing.test/p/1',
    }));
    await execute(cmd, {}, ctx);
    expect(http.mock.calls[0].slice(0, 2)).toEqual(['POST', '/billing/portal']);
    expect(http.mock.calls[0][2]).toMatchObject({
      body: { returnUrl: 'https://console.test/servers/s1/setup' },
    });
    expect(openExternal).toHaveBeenCalledWith('https://billing.test/p/1');
  });

  it('says why the portal could not be prepared, and opens nothing', async () => {
    const { ctx, openExternal } = context(subscribed, () =>
      Promise.reject(new ApiError(PORTAL_ERRORS.customerNotFound, 'customerNotFound', 404)),
    );
    await expect(execute(cmd, {}, ctx)).rejects.toThrow(PORTAL_ERRORS.customerNotFound);
    expect(openExternal).not.toHaveBeenCalled();
  });

  it('needs a signed-in user', () => {
    expect(availability(cmd, context(null, async () => null).ctx)).toBe('Sign in first');
  });
});
