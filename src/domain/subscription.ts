// Subscription rules of SPEC §4: only the product's own subscription counts (SENTINEL-API §3.19).

import type { Subscription, User } from './api.ts';

export const PRODUCT_GAME_ID = 'Sentinel';

export function productSubscription(user: User): Subscription | undefined {
  return user.subscriptions.find((s) => s.productGameId === PRODUCT_GAME_ID);
}

/** `nowMs` is milliseconds (Date.now()); subscription expirations are epoch seconds. */
export function isSubscriptionValid(user: User, nowMs: number = Date.now()): boolean {
  const sub = productSubscription(user);
  return sub !== undefined && sub.expiration * 1000 > nowMs;
}

export function trialEligible(user: User): boolean {
  return productSubscription(user) === undefined;
}
