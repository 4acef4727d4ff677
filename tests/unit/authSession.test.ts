import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Subscription, TokenResponse, User } from '../../src/domain/api.ts';
import { SCOPES } from '../../src/domain/constants.ts';
import { Msg } from '../../src/domain/messages.ts';
import { isSubscriptionValid, trialEligible } from '../../src/domain/subscription.ts';
import { createHttp } from '../../src/web/api/http.ts';
import { createSentinelApi } from '../../src/web/api/sentinel.ts';
import { challengeFor } from '../../src/web/auth/pkce.ts';
import { type Auth, createAuth, RENEW_AHEAD_S, RENEW_RETRY_MS } from '../../src/web/auth/session.ts';
import { memoryStorage } from '../../src/web/auth/storage.ts';
import { AUTH_KEY, readStoredAuth, storedAuthFrom, writeStoredAuth } from '../../src/web/auth/storedAuth.ts';

const API = 'https://api.test/v4';
const ORIGIN = 'https://console.test';
const CLIENT = 'client-1';
const T0 = Date.UTC(2026, 0, 1);

const user: User = {
  userId: 'u1',
  username: 'Ann',
  usernameFull: 'Ann#1234',
  isAnonymous: false,
  publicKey: 'pk',
  banned: false,
  signature: null,
  licenses: [],
  subscriptions: [],
};

interface Request {
  method: string;
  url: URL;
  authorization?: string;
  body: Record<string, string> | null;
}
type Handler = (req: Request) => Response | Promise<Response>;

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
const beaconError = (status: number, message: string, code?: string, details: unknown = null) =>
  json(status, { type: 'beacon.error', ...(code ? { code } : {}), message, details });

let issued = 0;
function tokenResponse(): TokenResponse {
  issued++;
  return {
    token_type: 'Bearer',
    access_token: `access-${issued}`,
    refresh_token: `refresh-${issued}`,
    access_token_expiration: 0,
    refresh_token_expiration: 0,
    access_token_expires_in: 3600,
    refresh_token_expires_in: 30 * 86400,
    scope: 'common sentinel:read sentinel:write users:read',
    now: 0,
  };
}

/** A fake provider behind the real API helper, answering by "METHOD /path". */
function fakeProvider(routes: Record<string, Handler>) {
  const requests: Request[] = [];
  const fetchFn = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const headers = (init?.headers ?? {}) as Record<string, string>;
    const req: Request = {
      method: init?.method ?? 'GET',
      url,
      authorization: headers.Authorization,
      body: init?.body ? JSON.parse(String(init.body)) : null,
    };
    requests.push(req);
    const handler = routes[`${req.method} ${url.pathname.replace('/v4', '')}`];
    if (!handler) return beaconError(404, 'Endpoint not found');
    return handler(req);
  };
  return { fetch: fetchFn as typeof fetch, requests, routes };
}

const defaultRoutes = (): Record<string, Handler> => ({
  'POST /login': () => json(201, tokenResponse()),
  'GET /user': () => json(200, user),
  'GET /session': () => json(200, { ok: true }),
});

function setup(routes: Record<string, Handler> = {}, local = memoryStorage()) {
  const provider = fakeProvider({ ...defaultRoutes(), ...routes });
  const session = memoryStorage();
  const events = new EventTarget();
  const navigate = vi.fn<(url: string) => void>();
  let auth: Auth | null = null;
  const http = createHttp({
    baseUrl: API,
    fetch: provider.fetch,
    accessToken: () => auth!.accessToken(),
    onUnauthorized: () => auth!.onUnauthorized(),
    socketId: () => null,
  });
  const api = createSentinelApi(http);
  auth = createAuth({
    config: { apiUrl: API, clientId: CLIENT },
    api,
    navigate,
    local,
    session,
    events,
    origin: ORIGIN,
    currentUrl: () => `${ORIGIN}/servers`,
  });
  const calls = (key: string) =>
    provider.requests.filter((r) => `${r.method} ${r.url.pathname.replace('/v4', '')}` === key);
  return { auth, api, provider, calls, navigate, local, session, events };
}

/** Signed in with tokens issued `ageS` seconds ago. */
function signedInStorage(ageS = 0) {
  const local = memoryStorage();
  writeStoredAuth(local, storedAuthFrom(tokenResponse(), Date.now() - ageS * 1000));
  return local;
}

async function startSignIn(s: ReturnType<typeof setup>, returnTo?: string) {
  await s.auth.signIn(returnTo);
  const loginUrl = new URL(s.navigate.mock.calls[0][0]);
  return { loginUrl, state: loginUrl.searchParams.get('state')! };
}

beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
  issued = 0;
});
afterEach(() => {
  vi.useRealTimers();
});

describe('sign-in', () => {
  it('sends the browser to the provider with the PKCE parameters and keeps the verifier for the return', async () => {
    const s = setup();
    const { loginUrl } = await startSignIn(s, '/players?q=1');
    expect(`${loginUrl.origin}${loginUrl.pathname}`).toBe(`${API}/login`);
    const p = Object.fromEntries(loginUrl.searchParams);
    expect(p).toMatchObject({
      client_id: CLIENT,
      scope: SCOPES.join(' '),
      redirect_uri: `${ORIGIN}/oauth`,
      response_type: 'code',
      code_challenge_method: 'S256',
      device_id: s.auth.deviceId(),
    });
    expect(s.navigate.mock.calls[0][0]).toContain('scope=common%20sentinel%3Aread');
    const pending = JSON.parse(s.session.getItem('palisade.signIn')!);
    expect(pending).toMatchObject({ state: p.state, returnTo: '/players?q=1' });
    expect(p.code_challenge).toBe(await challengeFor(pending.verifier));
    expect(s.provider.requests).toHaveLength(0);
  });

  it("returns to the guard's saved address, and never to another site", async () => {
    const s = setup();
    s.auth.setReturnTo('/dinos/5');
    await s.auth.signIn();
    await s.auth.signIn('//evil.test/x');
    const first = JSON.parse(s.session.getItem('palisade.signIn')!);
    expect(first.returnTo).toBe('/servers');
    const s2 = setup();
    s2.auth.setReturnTo('/dinos/5');
    await s2.auth.signIn();
    expect(JSON.parse(s2.session.getItem('palisade.signIn')!).returnTo).toBe('/dinos/5');
  });

  it('refuses a returned state that does not match, without redeeming the code', async () => {
    const s = setup();
    await startSignIn(s);
    await expect(s.auth.completeSignIn(`${ORIGIN}/oauth?code=c&state=forged`)).rejects.toThrow(
      Msg.signInState,
    );
    expect(s.auth.state).toEqual({ status: 'signedOut', reason: Msg.signInState });
    expect(s.provider.requests).toHaveLength(0);
  });

  it('redeems the code, stores the auth, loads the user and gives the return address', async () => {
    const s = setup();
    const { state } = await startSignIn(s, '/players');
    const { verifier } = JSON.parse(s.session.getItem('palisade.signIn')!);
    const seen: string[] = [];
    s.auth.subscribe(() => seen.push(s.auth.state.status));

    await expect(s.auth.completeSignIn(`${ORIGIN}/oauth?code=the-code&state=${state}`)).resolves.toBe(
      '/players',
    );

    const [tokenCall] = s.calls('POST /login');
    expect(tokenCall.url.searchParams.get('deviceId')).toBe(s.auth.deviceId());
    expect(tokenCall.body).toEqual({
      client_id: CLIENT,
      code: 'the-code',
      grant_type: 'authorization_code',
      redirect_uri: `${ORIGIN}/oauth`,
      code_verifier: verifier,
    });
    const [userCall] = s.calls('GET /user');
    expect(userCall.authorization).toBe('Bearer access-1');
    expect(Object.fromEntries(userCall.url.searchParams)).toEqual({
      deviceId: s.auth.deviceId(),
      requiredPolicies: 'terms,privacy',
      return: `${ORIGIN}/players`,
    });
    expect(s.auth.state).toEqual({ status: 'signedIn', user });
    expect(seen).toEqual(['signingIn', 'signedIn']);
    expect(readStoredAuth(s.local)).toMatchObject({
      access_token: 'access-1',
      refresh_token: 'refresh-1',
      access_token_expiration: T0 / 1000 + 3600,
      refresh_token_expiration: T0 / 1000 + 30 * 86400,
    });
    expect(s.session.getItem('palisade.signIn')).toBeNull();
  });

  it('sends the browser to sign the policies when the user call answers 412 policyRequired', async () => {
    const url = 'https://provider.test/policies/sign?id=9';
    const s = setup({
      'GET /user': () => beaconError(412, 'Policies', 'policyRequired', { policySigningRequestId: '9', url }),
    });
    const { state } = await startSignIn(s);
    s.navigate.mockClear();
    await expect(s.auth.completeSignIn(`${ORIGIN}/oauth?code=c&state=${state}`)).resolves.toBeNull();
    expect(s.navigate).toHaveBeenCalledWith(url);
    expect(s.auth.state.status).toBe('signingIn');
  });

  it('is signed out with the reason when the token call fails', async () => {
    const s = setup({
      'POST /login': () => beaconError(400, 'Invalid code', undefined, { code: 'INVALID_CODE' }),
    });
    const { state } = await startSignIn(s);
    await expect(s.auth.completeSignIn(`${ORIGIN}/oauth?code=c&state=${state}`)).rejects.toThrow(
      'Invalid code',
    );
    expect(s.auth.state).toEqual({ status: 'signedOut', reason: 'Invalid code' });
    expect(readStoredAuth(s.local)).toBeNull();
    expect(s.calls('GET /user')).toHaveLength(0);
  });

  it('clears the user and tells listeners when the user call fails otherwise', async () => {
    const s = setup({ 'GET /user': () => beaconError(500, 'Database down') });
    const listener = vi.fn();
    s.auth.subscribe(listener);
    const { state } = await startSignIn(s);
    await expect(s.auth.completeSignIn(`${ORIGIN}/oauth?code=c&state=${state}`)).rejects.toThrow(
      'Database down',
    );
    expect(s.auth.state).toEqual({ status: 'signedOut', reason: 'Database down' });
    expect(listener).toHaveBeenCalled();
  });

  it('redeems a code once even when asked twice (React StrictMode)', async () => {
    const s = setup();
    const { state } = await startSignIn(s);
    const url = `${ORIGIN}/oauth?code=c&state=${state}`;
    const [a, b] = await Promise.all([s.auth.completeSignIn(url), s.auth.completeSignIn(url)]);
    expect([a, b]).toEqual(['/servers', '/servers']);
    expect(s.calls('POST /login')).toHaveLength(1);
  });
});

describe('restoring and renewing', () => {
  it('restores a stored session on start', async () => {
    const s = setup({}, signedInStorage());
    expect(s.auth.state.status).toBe('signingIn');
    const stop = s.auth.start();
    await vi.waitFor(() => expect(s.auth.state).toEqual({ status: 'signedIn', user }));
    expect(s.calls('GET /user')[0].url.searchParams.get('return')).toBe(`${ORIGIN}/servers`);
    stop();
  });

  it('keeps the user when a reload cannot reach the API, and drops it when the API refuses', async () => {
    let answer: () => Response = () => json(200, user);
    const s = setup({ 'GET /user': () => answer() }, signedInStorage());
    const stop = s.auth.start();
    await vi.waitFor(() => expect(s.auth.state.status).toBe('signedIn'));
    answer = () => {
      throw new TypeError('Failed to fetch');
    };
    await s.auth.reloadUser();
    expect(s.auth.state.status).toBe('signedIn');
    answer = () => beaconError(500, 'Database down');
    await s.auth.reloadUser();
    expect(s.auth.state).toEqual({ status: 'signedOut', reason: 'Database down' });
    stop();
  });

  it('keeps the session while the rate limit refuses its reload and its renewal, and renews once it lets up', async () => {
    let limited = false;
    const tooMany = () => beaconError(429, 'Rate limit exceeded');
    const s = setup(
      {
        'GET /user': () => (limited ? tooMany() : json(200, user)),
        'POST /login': () => (limited ? tooMany() : json(201, tokenResponse())),
      },
      signedInStorage(),
    );
    const stop = s.auth.start();
    await vi.waitFor(() => expect(s.auth.state.status).toBe('signedIn'));
    limited = true;
    // Each call waits out Retry-After six times before it gives up.
    const reload = s.auth.reloadUser();
    await vi.advanceTimersByTimeAsync(6 * 10_000);
    await reload;
    expect(s.calls('GET /user')).toHaveLength(1 + 7);
    expect(s.auth.state.status).toBe('signedIn');
    // Due for renewal, which the limit refuses too.
    await vi.advanceTimersByTimeAsync((3600 - RENEW_AHEAD_S) * 1000);
    expect(s.calls('POST /login')).toHaveLength(7);
    expect(readStoredAuth(s.local)?.access_token).toBe('access-1');
    expect(s.auth.state.status).toBe('signedIn');
    limited = false;
    await vi.advanceTimersByTimeAsync(RENEW_RETRY_MS + 10);
    expect(readStoredAuth(s.local)?.access_token).toBe('access-2');
    expect(s.auth.state.status).toBe('signedIn');
    stop();
  });

  it('renews once for concurrent callers when the access token expires within a minute', async () => {
    const s = setup({}, signedInStorage(3600 - RENEW_AHEAD_S + 5));
    const results = await Promise.all([s.api.session(), s.api.session(), s.auth.accessToken()]);
    expect(results[2]).toBe('access-2');
    const renewals = s.calls('POST /login');
    expect(renewals).toHaveLength(1);
    expect(renewals[0].body).toEqual({
      grant_type: 'refresh_token',
      client_id: CLIENT,
      refresh_token: 'refresh-1',
      scope: 'common sentinel:read sentinel:write users:read',
    });
    expect(s.calls('GET /session').map((r) => r.authorization)).toEqual([
      'Bearer access-2',
      'Bearer access-2',
    ]);
    expect(readStoredAuth(s.local)?.refresh_token).toBe('refresh-2');
  });

  it('does not renew a token that is still good for more than a minute', async () => {
    const s = setup({}, signedInStorage(3600 - RENEW_AHEAD_S - 5));
    expect(await s.auth.accessToken()).toBe('access-1');
    expect(s.calls('POST /login')).toHaveLength(0);
  });

  it('renews ahead of expiry on a timer while started', async () => {
    const s = setup({}, signedInStorage());
    const stop = s.auth.start();
    await vi.advanceTimersByTimeAsync((3600 - RENEW_AHEAD_S) * 1000 - 1000);
    expect(s.calls('POST /login')).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(2000);
    expect(s.calls('POST /login')).toHaveLength(1);
    expect(readStoredAuth(s.local)?.access_token).toBe('access-2');
    // …and again an hour later, from the new token's expiry.
    await vi.advanceTimersByTimeAsync(3600 * 1000);
    expect(s.calls('POST /login')).toHaveLength(2);
    stop();
    await vi.advanceTimersByTimeAsync(3600 * 1000);
    expect(s.calls('POST /login')).toHaveLength(2);
  });

  it.each([201, 200])('renews on a %i token answer (the provider 201, our server 200)', async (status) => {
    const s = setup({ 'POST /login': () => json(status, tokenResponse()) }, signedInStorage(3600));
    const token = await s.auth.accessToken();
    expect(token).toMatch(/^access-\d+$/);
    expect(readStoredAuth(s.local)?.access_token).toBe(token);
  });

  it.each([
    ['the provider', () => beaconError(403, 'Refresh token expired', undefined, { code: 'EXPIRED' })],
    [
      'our server (RFC 6749)',
      () =>
        json(400, {
          type: 'beacon.error',
          message: 'The refresh token has expired',
          details: { code: 'EXPIRED' },
          error: 'invalid_grant',
          error_description: 'The refresh token has expired',
        }),
    ],
  ])('clears stored auth and signs out when renewal is refused by %s', async (_who, refuse) => {
    const s = setup({ 'POST /login': refuse }, signedInStorage(3600));
    expect(await s.auth.accessToken()).toBeNull();
    expect(readStoredAuth(s.local)).toBeNull();
    expect(s.auth.state).toEqual({ status: 'signedOut', reason: Msg.refreshExpired });
    await expect(s.api.session()).rejects.toThrow(Msg.authFailed);
  });

  it('does not try to renew with an expired refresh token', async () => {
    const local = memoryStorage();
    writeStoredAuth(local, {
      ...storedAuthFrom(tokenResponse(), T0 - 3600_000),
      refresh_token_expiration: T0 / 1000 - 1,
    });
    const s = setup({}, local);
    expect(s.auth.state.status).toBe('signedOut');
    expect(await s.auth.accessToken()).toBeNull();
    expect(s.calls('POST /login')).toHaveLength(0);
    expect(readStoredAuth(local)).toBeNull();
  });

  it('keeps the session when the provider cannot be reached, and tries again later', async () => {
    let down = true;
    const s = setup(
      {
        'POST /login': () => {
          if (down) throw new TypeError('Failed to fetch');
          return json(201, tokenResponse());
        },
      },
      signedInStorage(3600 - 30),
    );
    const stop = s.auth.start();
    expect(await s.auth.accessToken()).toBe('access-1');
    expect(readStoredAuth(s.local)).not.toBeNull();
    down = false;
    await vi.advanceTimersByTimeAsync(RENEW_RETRY_MS + 10);
    expect(readStoredAuth(s.local)?.access_token).toBe('access-2');
    stop();
  });

  it('renews after a 401 and retries the call with the new token', async () => {
    let sessionCalls = 0;
    const s = setup(
      {
        'GET /session': () =>
          ++sessionCalls === 1 ? beaconError(401, 'Unauthorized') : json(200, { ok: true }),
      },
      signedInStorage(600),
    );
    await expect(s.api.session()).resolves.toEqual({ ok: true });
    expect(s.calls('POST /login')).toHaveLength(1);
    expect(s.calls('GET /session').map((r) => r.authorization)).toEqual([
      'Bearer access-1',
      'Bearer access-2',
    ]);
  });

  it('does not rotate again for a 401 that raced a renewal a moment ago', async () => {
    const s = setup({}, signedInStorage(2));
    expect(await s.auth.onUnauthorized()).toBe(true);
    expect(s.calls('POST /login')).toHaveLength(0);
  });
});

describe('other tabs', () => {
  const storageEvent = () => Object.assign(new Event('storage'), { key: AUTH_KEY });

  it('signs out here when another tab signs out, and in when another tab signs in', async () => {
    const local = signedInStorage();
    const here = setup({}, local);
    const stop = here.auth.start();
    await vi.waitFor(() => expect(here.auth.state.status).toBe('signedIn'));

    local.removeItem(AUTH_KEY);
    here.events.dispatchEvent(storageEvent());
    expect(here.auth.state).toEqual({ status: 'signedOut', reason: null });

    writeStoredAuth(local, storedAuthFrom(tokenResponse(), Date.now()));
    here.events.dispatchEvent(storageEvent());
    await vi.waitFor(() => expect(here.auth.state.status).toBe('signedIn'));
    expect(here.calls('GET /user').at(-1)?.authorization).toBe('Bearer access-2');
    stop();
  });

  it('follows a renewal made in another tab instead of rotating the token again', async () => {
    const local = signedInStorage();
    const here = setup({}, local);
    const stop = here.auth.start();
    await vi.advanceTimersByTimeAsync(1000_000);
    writeStoredAuth(local, storedAuthFrom(tokenResponse(), Date.now()));
    here.events.dispatchEvent(storageEvent());
    // Past the moment the first token would have been renewed.
    await vi.advanceTimersByTimeAsync((3600 - RENEW_AHEAD_S) * 1000 - 1000_000 + 5000);
    expect(here.calls('POST /login')).toHaveLength(0);
    expect(await here.auth.accessToken()).toBe('access-2');
    stop();
  });

  it('adopts the token of a tab whose renewal won the race', async () => {
    const local = signedInStorage(3600 - 30);
    const s = setup(
      {
        'POST /login': () => {
          // The other tab renewed first: our refresh token is already rotated away.
          writeStoredAuth(local, storedAuthFrom(tokenResponse(), Date.now()));
          return beaconError(403, 'Expired', undefined, { code: 'EXPIRED' });
        },
      },
      local,
    );
    expect(await s.auth.accessToken()).toBe('access-2');
    expect(readStoredAuth(local)?.access_token).toBe('access-2');
  });
});

describe('sign-out', () => {
  it('deletes the session on the server, then clears state and stored auth', async () => {
    const del = vi.fn((_req: Request) => new Response(null, { status: 204 }));
    const s = setup({ 'DELETE /sessions/access-1': del }, signedInStorage());
    s.auth.start();
    await vi.waitFor(() => expect(s.auth.state.status).toBe('signedIn'));
    await expect(s.auth.signOut()).resolves.toBeNull();
    expect(del).toHaveBeenCalledTimes(1);
    expect(del.mock.calls[0][0].authorization).toBe('Bearer access-1');
    expect(s.auth.state).toEqual({ status: 'signedOut', reason: null });
    expect(readStoredAuth(s.local)).toBeNull();
  });

  it('still clears when the server cannot be told, with a notice', async () => {
    const s = setup({ 'DELETE /sessions/access-1': () => beaconError(404, 'Not found') }, signedInStorage());
    await expect(s.auth.signOut()).resolves.toBe(Msg.logoutFailed);
    expect(readStoredAuth(s.local)).toBeNull();
    expect(s.auth.state.status).toBe('signedOut');
  });
});

describe('subscriptions', () => {
  const sub = (productGameId: string, expiration: number): Subscription => ({
    subscriptionId: 's',
    productId: 'p',
    productName: 'Plan',
    productGameId,
    productFlags: 0,
    created: 0,
    expiration,
    lastPurchaseId: null,
    unitsUsed: 0,
    unitsAllowed: 5,
  });
  const now = T0;

  it("counts only the product's own subscription, valid while its expiration is ahead", () => {
    expect(isSubscriptionValid({ ...user, subscriptions: [sub('Sentinel', now / 1000 + 60)] }, now)).toBe(
      true,
    );
    expect(isSubscriptionValid({ ...user, subscriptions: [sub('Sentinel', now / 1000 - 60)] }, now)).toBe(
      false,
    );
    expect(isSubscriptionValid({ ...user, subscriptions: [sub('Beacon', now / 1000 + 60)] }, now)).toBe(
      false,
    );
  });

  it('offers the trial only to users without a subscription', () => {
    expect(trialEligible(user)).toBe(true);
    expect(trialEligible({ ...user, subscriptions: [sub('Sentinel', 0)] })).toBe(false);
  });
});
