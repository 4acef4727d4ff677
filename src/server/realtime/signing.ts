// The two HMAC signatures of the Pusher Channels protocol: private-channel subscriptions and
// HTTP API requests. Both ends (our server and our HTTP publisher) use these, so they cannot drift.

import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export const hmacHex = (secret: string, text: string): string =>
  createHmac('sha256', secret).update(text).digest('hex');

export const md5Hex = (text: string): string => createHash('md5').update(text).digest('hex');

/** The hex HMAC a private channel's `auth` carries after `<key>:`. */
export const signChannel = (secret: string, socketId: string, channel: string): string =>
  hmacHex(secret, `${socketId}:${channel}`);

/**
 * The built-in endpoint's private-channel `auth`: `<key>:<userId>:<hex HMAC of socket:channel:user>`.
 * pusher-js hands it over as it came; naming the user lets the endpoint check the subscription
 * again when that user's access narrows (realtime/access.ts), which a bare signature cannot.
 */
export const userChannelAuth = (
  key: string,
  secret: string,
  socketId: string,
  channel: string,
  userId: string,
) => `${key}:${userId}:${hmacHex(secret, `${socketId}:${channel}:${userId}`)}`;

/** Compares two strings without leaking, through timing, how much of a guess was right. */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The string an HTTP API request signs: method, path and every query parameter except the
 * signature itself, keys lower-cased and sorted, values unencoded (as the official SDKs do).
 */
export function requestSigningString(method: string, path: string, params: Record<string, string>): string {
  const query = Object.entries(params)
    .filter(([k]) => k !== 'auth_signature')
    .map(([k, v]) => [k.toLowerCase(), v] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  return `${method}\n${path}\n${query}`;
}

/** The query parameters that authenticate one HTTP API request. */
export function signRequest(
  key: string,
  secret: string,
  method: string,
  path: string,
  body: string,
  nowSeconds: number,
): Record<string, string> {
  const params: Record<string, string> = {
    auth_key: key,
    auth_timestamp: String(Math.floor(nowSeconds)),
    auth_version: '1.0',
    body_md5: md5Hex(body),
  };
  params.auth_signature = hmacHex(secret, requestSigningString(method, path, params));
  return params;
}
