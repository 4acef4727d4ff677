// OAuth 2.1 + PKCE, token refresh, the current user, sessions and the /v4 conventions.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/server/crypto.ts';
import { createSharedRateLimiter } from '../../src/server/http/rateLimit.ts';
import { CONSOLE_APP_ID } from '../../src/server/model/application.ts';
import { sweepExpiredAuth } from '../../src/server/model/authSweep.ts';
import { FREE_FAILURES } from '../../src/server/model/signInBackoff.ts';
import {
  authorizeUrl,
  CONSOLE_SCOPE,
  call,
  DEMO,
  flowIdOf,
  REDIRECT,
  signIn,
  startTestServer,
  submitSignIn,
  type TestServer,
  verifierAndChallenge,
} from './helpers.ts';

let t: TestServer;
beforeAll(async () => {
  // Sweeps run when a test says so (the cleanup tests), not on a timer mid-count.
  t = await startTestServer({ authSweepMs: 3_600_000 });
});
afterAll(() => t?.close());

const tokenCall = (body: Record<string, string>, form = false) =>
  fetch(`${t.base}/login`, {
    method: 'POST',
    headers: { 'Content-Type': form ? 'application/x-www-form-urlencoded' : 'application/json' },
    body: form ? new URLSearchParams(body) : JSON.stringify(body),
  });

/** The policy page's form post, with the headers a browser would send. */
const acceptPolicies = (url: string, headers: Record<string, string>) =>
  fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: 'accept=true',
  });

describe('authorize (GET /v4/login)', () => {
  it('renders a sign-in page with labelled Email and Password inputs', async () => {
    const res = await fetch(authorizeUrl(t.base));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    expect(html).toMatch(/<label for="email">Email<\/label>/);
    expect(html).toMatch(/<label for="password">Password<\/label>/);
    expect(html).toContain('>Sign in</button>');
    // Nothing from elsewhere, nothing inline: the passkey button's two scripts are our own files.
    expect(html).not.toMatch(/<link\b/);
    const scripts = [...html.matchAll(/<script\b([^>]*)>([^<]*)<\/script>/g)];
    expect(scripts.map((m) => /src="([^"]+)"/.exec(m[1])?.[1])).toEqual([
      '/v4/login/webauthn.js',
      '/v4/login/passkey.js',
    ]);
    expect(scripts.every((m) => m[2] === '')).toBe(true);
    expect(flowIdOf(html)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it.each([
    [{ client_id: null }, 'missingParameters'],
    [{ response_type: 'token' }, 'badResponseType'],
    [{ code_challenge_method: 'plain' }, 'badChallengeMethod'],
    [{ code_challenge: 'tooShort' }, 'badChallenge'],
    [{ code_challenge: '47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU' }, 'badChallenge'],
    [{ client_id: '00000000-0000-4000-8000-000000000000' }, 'invalidClientId'],
    [{ redirect_uri: 'https://evil.example/oauth' }, 'badRedirectUri'],
    [{ redirect_uri: 'http://127.0.0.1:9999/elsewhere' }, 'badRedirectUri'],
    [{ scope: 'common apps:create' }, 'invalidScope'],
  ])('refuses %j with %s', async (over, code) => {
    const res = await fetch(authorizeUrl(t.base, over));
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe(code);
  });

  it('accepts any loopback port for /oauth and resumes the same pending flow', async () => {
    const { challenge } = verifierAndChallenge();
    const url = authorizeUrl(t.base, { redirect_uri: 'http://localhost:41234/oauth' }, challenge);
    const a = flowIdOf(await (await fetch(url)).text());
    const b = flowIdOf(await (await fetch(url)).text());
    expect(a).not.toBe('');
    expect(b).toBe(a);
  });

  it('answers no_redirect=true with a login_url', async () => {
    const res = await fetch(authorizeUrl(t.base, { no_redirect: 'true' }));
    const { login_url } = await res.json();
    expect(login_url).toMatch(/\/v4\/login\/signin\?flow_id=/);
    expect(flowIdOf(await (await fetch(login_url)).text())).not.toBe('');
  });
});

describe('sign in and token', () => {
  it('wrong credentials re-render the page with the message, keeping the (escaped) email', async () => {
    const flow = flowIdOf(await (await fetch(authorizeUrl(t.base))).text());
    const email = 'x"><b>@example.com';
    const res = await submitSignIn(t.base, flow, email, 'nope');
    const html = await res.text();
    expect(html).toContain('The email or password is not correct.');
    expect(html).toContain('value="x&quot;&gt;&lt;b&gt;@example.com"');
    expect(html).not.toContain('<b>');
  });

  it('redirects with code, state and iss, and the code redeems once for a 200 token pair', async () => {
    const { verifier, challenge } = verifierAndChallenge();
    const flow = flowIdOf(await (await fetch(authorizeUrl(t.base, {}, challenge))).text());
    const res = await submitSignIn(t.base, flow, DEMO.email, DEMO.password);
    expect(res.status).toBe(302);
    const loc = new URL(res.headers.get('location')!);
    expect(`${loc.origin}${loc.pathname}`).toBe(REDIRECT);
    expect(loc.searchParams.get('state')).toBe('st4te');
    expect(loc.searchParams.get('iss')).toBe(t.server.url);
    const code = loc.searchParams.get('code')!;
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const body = {
      grant_type: 'authorization_code',
      client_id: CONSOLE_APP_ID,
      code,
      redirect_uri: REDIRECT,
    };
    const bad = await tokenCall({ ...body, code_verifier: verifierAndChallenge().verifier });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      error: 'invalid_grant',
      error_description: 'Invalid code',
      details: { code: 'INVALID_CODE' },
    });

    const ok = await tokenCall({ ...body, code_verifier: verifier }, true);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('no-store');
    const token = await ok.json();
    expect(token).toMatchObject({ token_type: 'Bearer', scope: CONSOLE_SCOPE.split(' ').sort().join(' ') });
    expect(token.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(token.access_token_expiration - token.now).toBeCloseTo(3600, -1);
    expect(token.refresh_token_expires_in).toBeCloseTo(30 * 86400, -1);
    expect(Number.isInteger(token.expires_in)).toBe(true);
    expect(token.expires_in).toBeCloseTo(3600, -1);

    const again = await tokenCall({ ...body, code_verifier: verifier });
    expect((await again.json()).details.code).toBe('INVALID_CODE');
  });

  it('refuses a missing parameter and an unknown grant as RFC 6749 §5.2 says, keeping INVALID_GRANT', async () => {
    const bodies: [Record<string, string>, string][] = [
      [{ grant_type: 'authorization_code', code: 'x' }, 'invalid_request'],
      [{ code: 'x' }, 'invalid_request'],
      [{ grant_type: 'password' }, 'unsupported_grant_type'],
    ];
    for (const [body, error] of bodies) {
      const res = await tokenCall(body);
      expect(res.status).toBe(400);
      const answer = await res.json();
      expect(answer.details).toEqual({ code: 'INVALID_GRANT' });
      expect(answer.error).toBe(error);
      expect(typeof answer.error_description).toBe('string');
    }
  });

  it('rotates on refresh: new pair, old pair dead; scope optional, else a subset', async () => {
    const first = await signIn(t.base);
    const wider = await tokenCall({
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
      scope: `${CONSOLE_SCOPE} apps:create`,
    });
    expect(wider.status).toBe(400);
    expect(await wider.json()).toMatchObject({ error: 'invalid_scope', details: { code: 'INVALID_SCOPES' } });

    const res = await tokenCall({
      grant_type: 'refresh_token',
      client_id: CONSOLE_APP_ID,
      refresh_token: first.refresh_token,
      scope: 'common sentinel:read',
    });
    expect(res.status).toBe(200);
    const second = await res.json();
    expect(second.scope).toBe('common sentinel:read');
    expect(second.access_token).not.toBe(first.access_token);
    expect((await call(t.base, first.access_token, 'GET', '/session')).status).toBe(401);
    // The narrower session cannot read the user.
    const user = await call(t.base, second.access_token, 'GET', '/user');
    expect(user.status).toBe(403);
    expect(user.headers.get('www-authenticate')).toContain('insufficient_scope');

    // Without scope, the session's own.
    const third = await tokenCall({ grant_type: 'refresh_token', refresh_token: second.refresh_token });
    expect(third.status).toBe(200);
    expect((await third.json()).scope).toBe('common sentinel:read');
  });

  it('an expired or unknown refresh token is 400 invalid_grant, keeping EXPIRED', async () => {
    const res = await tokenCall({ grant_type: 'refresh_token', refresh_token: 'A'.repeat(43) });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: 'invalid_grant',
      error_description: 'The refresh token has expired',
      details: { code: 'EXPIRED' },
    });
  });

  it('a replayed refresh token revokes its whole family, the pair issued from it too', async () => {
    const first = await signIn(t.base);
    const other = await signIn(t.base);
    const refresh = (token: string) =>
      tokenCall({ grant_type: 'refresh_token', client_id: CONSOLE_APP_ID, refresh_token: token });
    const second = await (await refresh(first.refresh_token)).json();
    const third = await (await refresh(second.refresh_token)).json();
    expect((await call(t.base, third.access_token, 'GET', '/session')).status).toBe(200);

    const replay = await refresh(first.refresh_token);
    expect(replay.status).toBe(400);
    expect((await replay.json()).error).toBe('invalid_grant');
    expect((await call(t.base, third.access_token, 'GET', '/session')).status).toBe(401);
    expect((await refresh(third.refresh_token)).status).toBe(400);
    // Another sign-in of the same user is another family.
    expect((await call(t.base, other.access_token, 'GET', '/session')).status).toBe(200);
  });

  it('a replayed authorization code revokes the tokens issued from it', async () => {
    const { verifier, challenge } = verifierAndChallenge();
    const flow = flowIdOf(await (await fetch(authorizeUrl(t.base, {}, challenge))).text());
    const res = await submitSignIn(t.base, flow, DEMO.email, DEMO.password);
    const code = new URL(res.headers.get('location')!).searchParams.get('code')!;
    const body = {
      grant_type: 'authorization_code',
      client_id: CONSOLE_APP_ID,
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    };
    const token = await (await tokenCall(body)).json();
    const renewed = await (
      await tokenCall({ grant_type: 'refresh_token', refresh_token: token.refresh_token })
    ).json();
    expect((await call(t.base, renewed.access_token, 'GET', '/session')).status).toBe(200);

    const replay = await tokenCall(body);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error: 'invalid_grant', details: { code: 'INVALID_CODE' } });
    expect((await call(t.base, renewed.access_token, 'GET', '/session')).status).toBe(401);
    expect(
      (await tokenCall({ grant_type: 'refresh_token', refresh_token: renewed.refresh_token })).status,
    ).toBe(400);
  });

  it('revokes (RFC 7009): either token ends the sign-in; unknown tokens are fine', async () => {
    const revoke = (fields: Record<string, string>) =>
      fetch(`${t.base}/login/revoke`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields),
      });
    const a = await signIn(t.base);
    const r = await revoke({
      token: a.refresh_token,
      token_type_hint: 'refresh_token',
      client_id: CONSOLE_APP_ID,
    });
    expect(r.status).toBe(200);
    expect((await call(t.base, a.access_token, 'GET', '/session')).status).toBe(401);
    const b = await signIn(t.base);
    expect((await revoke({ token: b.access_token })).status).toBe(200);
    expect((await tokenCall({ grant_type: 'refresh_token', refresh_token: b.refresh_token })).status).toBe(
      400,
    );
    expect((await revoke({ token: 'A'.repeat(43) })).status).toBe(200);
    const c = await signIn(t.base);
    const wrongClient = await revoke({
      token: c.access_token,
      client_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(wrongClient.status).toBe(400);
    expect((await wrongClient.json()).error).toBe('invalid_client');
    expect((await call(t.base, c.access_token, 'GET', '/session')).status).toBe(200);
    expect((await revoke({})).status).toBe(400);
  });

  it('publishes RFC 8414 metadata', async () => {
    const res = await fetch(`${t.server.url}/.well-known/oauth-authorization-server`);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.json()).toMatchObject({
      issuer: t.server.url,
      authorization_endpoint: `${t.base}/login`,
      token_endpoint: `${t.base}/login`,
      revocation_endpoint: `${t.base}/login/revoke`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
    });
  });

  it('backs off per account after repeated wrong passwords, whichever address guesses', async () => {
    const { rows } = await t.server.db.query<{ user_id: string }>(
      `INSERT INTO users (username, email, password_hash) VALUES ('Guessed', 'guessed@palisade.local', $1)
       RETURNING user_id`,
      [await hashPassword('right-pass')],
    );
    expect(rows.length).toBe(1);
    const attempt = async (password: string, email = 'Guessed@palisade.local') => {
      const flow = flowIdOf(await (await fetch(authorizeUrl(t.base))).text());
      return submitSignIn(t.base, flow, email, password);
    };
    for (let i = 0; i < 5; i++) expect((await attempt(`wrong-${i}`)).status).toBe(401);
    const locked = await attempt('right-pass', 'guessed@palisade.local');
    expect(locked.status).toBe(429);
    expect(await locked.text()).toMatch(
      /Too many failed sign-ins for this email address\. Try again in 1 second\./,
    );
    // An unknown address backs off the same way, so the answer tells nothing about accounts.
    for (let i = 0; i < 5; i++) expect((await attempt('x', 'nobody@palisade.local')).status).toBe(401);
    expect((await attempt('x', 'nobody@palisade.local')).status).toBe(429);

    await new Promise((r) => setTimeout(r, 1100));
    expect((await attempt('wrong-again')).status).toBe(401);
    expect((await attempt('right-pass')).status).toBe(429); // now 2 s
    await new Promise((r) => setTimeout(r, 2100));
    expect((await attempt('right-pass')).status).toBe(302);
    // Success forgets the failures.
    expect((await attempt('wrong-after')).status).toBe(401);
  });

  it('counts a burst of parallel guesses before checking any, so only the free ones are tried', async () => {
    const attempt = async (i: number) => {
      const flow = flowIdOf(await (await fetch(authorizeUrl(t.base))).text());
      return (await submitSignIn(t.base, flow, 'burst@palisade.local', `guess-${i}`)).status;
    };
    const statuses = await Promise.all(Array.from({ length: 12 }, (_, i) => attempt(i)));
    expect(statuses.filter((s) => s === 401)).toHaveLength(FREE_FAILURES);
    expect(statuses.filter((s) => s === 429)).toHaveLength(12 - FREE_FAILURES);
  });
});

describe('cleanup', () => {
  it('deletes expired flows, sessions, rotated tokens, policy requests and old failures', async () => {
    const swept = await startTestServer({ authSweepMs: 200 });
    try {
      const count = async (table: string) =>
        Number((await swept.server.db.query<{ n: number }>(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);
      for (let i = 0; i < 20; i++) await fetch(authorizeUrl(swept.base));
      expect(await count('auth_flows')).toBe(20);
      const token = await signIn(swept.base);
      await fetch(`${swept.base}/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ grant_type: 'refresh_token', refresh_token: token.refresh_token }),
      });
      const flow = flowIdOf(await (await fetch(authorizeUrl(swept.base))).text());
      await submitSignIn(swept.base, flow, 'someone@palisade.local', 'wrong');
      await swept.server.db.query(
        `INSERT INTO policy_signing_requests (user_id, policies) VALUES ($1, '{terms}')`,
        [swept.demo.userId],
      );
      const tables = [
        'auth_flows',
        'sessions',
        'rotated_refresh_tokens',
        'policy_signing_requests',
        'sign_in_failures',
      ];
      await new Promise((r) => setTimeout(r, 500));
      for (const table of tables) expect(await count(table), table).toBeGreaterThan(0);

      // Time passes: everything reaches the end of its life.
      await swept.server.db.exec(`
        UPDATE auth_flows SET expires = now() - interval '1 second', code_expires = now() - interval '1 second';
        UPDATE sessions SET refresh_expires = now() - interval '1 second';
        UPDATE rotated_refresh_tokens SET expires = now() - interval '1 second';
        UPDATE policy_signing_requests SET created = now() - interval '25 hours';
        UPDATE sign_in_failures SET last_failure = now() - interval '25 hours';`);
      const left = async () => Promise.all(tables.map(count));
      for (let i = 0; i < 50 && (await left()).some((n) => n > 0); i++)
        await new Promise((r) => setTimeout(r, 100));
      expect(await left()).toEqual([0, 0, 0, 0, 0]);
    } finally {
      await swept.close();
    }
  }, 60_000);

  it('deletes in bounded batches, so a sweep never holds the database long', async () => {
    await t.server.db.query(
      `INSERT INTO policy_signing_requests (user_id, policies, created)
       SELECT $1, '{terms}', now() - interval '2 days' FROM generate_series(1, 30)`,
      [t.demo.userId],
    );
    // Batches of 2, at most 10 rounds: 20 of the 30 now, the rest on the next sweep.
    expect(await sweepExpiredAuth(t.server.db, 2)).toBe(20);
    expect(await sweepExpiredAuth(t.server.db, 2)).toBe(10);
  });
});

describe('user and sessions', () => {
  it('GET /user answers §3.19 plus email, and /users/{me} is the same', async () => {
    const { access_token } = await signIn(t.base);
    const me = await call(t.base, access_token, 'GET', '/user?requiredPolicies=terms,privacy');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      userId: t.demo.userId,
      username: 'Demo Admin',
      usernameFull: `Demo Admin#${t.demo.userId.slice(0, 8)}`,
      email: DEMO.email,
      isAnonymous: false,
      banned: false,
      signature: null,
      licenses: [],
    });
    expect(me.body.subscriptions[0]).toMatchObject({ productGameId: 'Sentinel', unitsUsed: 3 });
    expect(me.body.subscriptions[0].expiration).toBeGreaterThan(Date.now() / 1000);
    expect((await call(t.base, access_token, 'GET', `/users/${t.demo.userId}`)).body).toEqual(me.body);
    const other = await call(t.base, access_token, 'GET', `/users/${t.demo.moderator.userId}`);
    expect(Object.keys(other.body).sort()).toEqual([
      'isAnonymous',
      'publicKey',
      'userId',
      'username',
      'usernameFull',
    ]);
    const missing = await call(t.base, access_token, 'GET', '/users/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
  });

  it('answers 412 policyRequired until the policies are accepted on the linked page', async () => {
    await t.server.db.query(
      `INSERT INTO users (username, email, password_hash) VALUES ('Newbie', 'new@palisade.local', $1)`,
      [await hashPassword('secret-pass')],
    );
    const { access_token } = await signIn(t.base, 'new@palisade.local', 'secret-pass');
    const back = 'http://127.0.0.1:5173/servers';
    const res = await call(
      t.base,
      access_token,
      'GET',
      `/user?requiredPolicies=terms,privacy&return=${encodeURIComponent(back)}`,
    );
    expect(res.status).toBe(412);
    expect(res.body.code).toBe('policyRequired');
    const { url, policySigningRequestId } = res.body.details;
    expect(url).toContain(policySigningRequestId);
    expect(await (await fetch(url)).text()).toContain('Terms of Service');
    const accept = await acceptPolicies(url, { 'Sec-Fetch-Site': 'same-origin' });
    expect(accept.status).toBe(302);
    expect(accept.headers.get('location')).toBe(back);
    expect((await call(t.base, access_token, 'GET', '/user?requiredPolicies=terms,privacy')).status).toBe(
      200,
    );
  });

  it('never redirects off the console, and accepts only a post from its own page', async () => {
    const { rows } = await t.server.db.query<{ user_id: string }>(
      `INSERT INTO users (username, email, password_hash) VALUES ('Target', 'target@palisade.local', $1)
       RETURNING user_id`,
      [await hashPassword('secret-pass')],
    );
    const userId = rows[0].user_id;
    const { access_token } = await signIn(t.base, 'target@palisade.local', 'secret-pass');
    const signed = async () =>
      (await t.server.db.query('SELECT 1 FROM user_policies WHERE user_id = $1', [userId])).rows.length;
    const ask = async (back: string) => {
      await t.server.db.query('DELETE FROM user_policies WHERE user_id = $1', [userId]);
      const path = `/user?requiredPolicies=terms&return=${encodeURIComponent(back)}`;
      return (await call(t.base, access_token, 'GET', path)).body.details.url as string;
    };
    for (const back of [
      'https://evil.example/',
      '//evil.example/',
      'http://127.0.0.1.evil.example/oauth',
      'javascript:alert(1)',
      `http://user@${new URL(t.server.url).host}/servers`,
    ]) {
      const res = await acceptPolicies(await ask(back), { Origin: t.server.url });
      expect(res.status, back).toBe(200);
      expect(res.headers.get('location'), back).toBeNull();
      expect(await signed()).toBe(1);
    }
    const onConsole = `${t.server.url}/servers/x?tab=logs`;
    const url = await ask(onConsole);
    const crossSite: Record<string, string>[] = [
      { 'Sec-Fetch-Site': 'cross-site' },
      { 'Sec-Fetch-Site': 'same-site' },
      { Origin: 'https://evil.example' },
      {},
    ];
    for (const headers of crossSite) {
      const res = await acceptPolicies(url, headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(await signed()).toBe(0);
    }
    const ok = await acceptPolicies(url, { Origin: t.server.url });
    expect(ok.status).toBe(302);
    expect(ok.headers.get('location')).toBe(onConsole);
  });

  it('shows and deletes sessions; an unknown one is 404 NOT_FOUND', async () => {
    const a = await signIn(t.base);
    const b = await signIn(t.base);
    const info = await call(t.base, a.access_token, 'GET', '/session');
    expect(info.body).toMatchObject({
      accessToken: a.access_token,
      refreshToken: a.refresh_token,
      userId: t.demo.userId,
      application: { id: CONSOLE_APP_ID, name: 'Palisade' },
    });
    expect((await call(t.base, a.access_token, 'DELETE', `/sessions/${b.access_token}`)).status).toBe(204);
    expect((await call(t.base, b.access_token, 'GET', '/session')).status).toBe(401);
    const gone = await call(t.base, a.access_token, 'DELETE', `/sessions/${b.access_token}`);
    expect(gone.status).toBe(404);
    expect(gone.body.details).toEqual({ code: 'NOT_FOUND' });
    expect((await call(t.base, a.access_token, 'DELETE', '/session')).status).toBe(204);
    expect((await call(t.base, a.access_token, 'GET', '/session')).status).toBe(401);
  });
});

describe('/v4 conventions', () => {
  it('OPTIONS is 204 with CORS and max-age; errors carry the beacon.error body', async () => {
    const pre = await fetch(`${t.base}/sentinel/services`, { method: 'OPTIONS' });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(pre.headers.get('access-control-max-age')).toBe('1728000');
    expect(pre.headers.get('access-control-allow-headers')).toContain('X-Beacon-Pusher-Id');

    const unknown = await call(t.base, null, 'GET', '/no/such/thing');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({
      type: 'beacon.error',
      message: 'Endpoint not found: Route not registered.',
    });
    expect(unknown.headers.get('cache-control')).toBe('no-store');
    expect((await call(t.base, null, 'PUT', '/user')).status).toBe(405);

    const anon = await call(t.base, null, 'GET', '/user');
    expect(anon.status).toBe(401);
    expect(anon.body).toEqual({ type: 'beacon.error', message: 'Unauthorized', details: null });
    expect(anon.headers.get('www-authenticate')).toBe('Bearer realm="Beacon API"');
    const bad = await fetch(`${t.base}/user`, { headers: { 'X-Beacon-Token': 'not-a-token' } });
    expect(bad.headers.get('www-authenticate')).toContain('invalid_token');
    expect(anon.headers.get('x-ratelimit-limit')).toBe('600');
    expect(anon.headers.get('x-ratelimit-reset')).toBe('60');
  });

  it('the rate limiter counts one window across processes, exactly near the limit', async () => {
    // Two limiters on one database are two server processes.
    let now = 120_000;
    const a = createSharedRateLimiter(t.server.db, () => now).take;
    const b = createSharedRateLimiter(t.server.db, () => now).take;
    // Limit 20: every request is within 20 of it, so each one is written before it is answered.
    const seen = [];
    for (let i = 0; i < 22; i++) seen.push(await (i % 2 ? b : a)('u:exact', 20));
    expect(seen.map((d) => d.remaining)).toEqual(Array.from({ length: 22 }, (_, i) => Math.max(0, 19 - i)));
    expect(seen.map((d) => d.allowed)).toEqual(Array.from({ length: 22 }, (_, i) => i < 20));
    // A new window starts from nothing.
    now = 180_000;
    expect(await a('u:exact', 20)).toEqual({ allowed: true, limit: 20, remaining: 19 });
  });

  it('the rate limiter writes far-from-limit counts in batches that the other processes see', async () => {
    const now = 240_000;
    const a = createSharedRateLimiter(t.server.db, () => now).take;
    const b = createSharedRateLimiter(t.server.db, () => now).take;
    const stored = async () =>
      (await t.server.db.query<{ count: number }>("SELECT count FROM rate_limits WHERE key = 'u:batch'"))
        .rows[0]?.count ?? 0;
    const flushed = () => new Promise((r) => setTimeout(r, 250));
    // Limit 70: the first 50 requests are more than 20 from it.
    for (let i = 0; i < 50; i++) expect((await a('u:batch', 70)).remaining).toBe(69 - i);
    expect(await stored()).toBe(0);
    await flushed();
    expect(await stored()).toBe(50);
    // b has not heard of a's requests until it writes its own: far from the limit it guesses…
    expect((await b('u:batch', 70)).remaining).toBe(69);
    await flushed();
    expect(await stored()).toBe(51);
    // …and its write told it the shared count, which is now near the limit: exact from here.
    expect(await b('u:batch', 70)).toEqual({ allowed: true, limit: 70, remaining: 18 });
    expect(await stored()).toBe(52);
  });

  it('serves /config.json for the console', async () => {
    const cfg = await (await fetch(`${t.server.url}/config.json`)).json();
    expect(cfg).toEqual({
      apiUrl: `${t.server.url}/v4`,
      clientId: CONSOLE_APP_ID,
      pusher: {
        key: 'palisade',
        cluster: 'mt1',
        wsHost: '127.0.0.1',
        wsPort: t.server.port,
        forceTLS: false,
      },
      controlPanelUrl: `${t.server.url}/servers`,
    });
  });
});
