// Where the browser may be sent and who may submit our forms: the rules against open redirects
// and cross-site form posts, in one place.

import type { Ctx } from './router.ts';

/** A plain http(s) address without credentials, or null. */
function plainUrl(address: string): URL | null {
  try {
    const u = new URL(address);
    return (u.protocol === 'http:' || u.protocol === 'https:') && !u.username && !u.password ? u : null;
  } catch {
    return null;
  }
}

/** RFC 8252 §7.3: a native or development client on this machine, on any port. */
const isLoopback = (u: URL) =>
  u.protocol === 'http:' && (u.hostname === '127.0.0.1' || u.hostname === 'localhost');

/** Whitelisted: the application's callbacks, or (RFC 8252 loopback rule) 127.0.0.1/localhost:<any port>/oauth. */
export function redirectAllowed(uri: string, callbacks: string[]): boolean {
  if (callbacks.includes(uri)) return true;
  const u = plainUrl(uri);
  return u !== null && isLoopback(u) && u.pathname === '/oauth' && u.search === '' && u.hash === '';
}

/**
 * A page the browser may be sent back to after signing policies: on the origin of one of the
 * application's callbacks, or on a loopback origin (the same clients redirectAllowed admits).
 */
export function returnAllowed(address: string, callbacks: string[]): boolean {
  const u = plainUrl(address);
  if (!u) return false;
  return isLoopback(u) || callbacks.some((cb) => plainUrl(cb)?.origin === u.origin);
}

/**
 * A form post from one of our own pages: the browser says so in Sec-Fetch-Site, or (older
 * browsers) names our origin in Origin. A request that shows neither is refused.
 */
export function fromOwnPage(c: Ctx, publicUrl: string): boolean {
  const site = c.req.header('sec-fetch-site');
  if (site) return site === 'same-origin';
  return c.req.header('origin') === new URL(publicUrl).origin;
}
