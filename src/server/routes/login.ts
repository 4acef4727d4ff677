// OAuth 2.1 with PKCE (SENTINEL-API §4): GET /login authorizes and shows our own sign-in page,
// POST /login/signin checks the password, /login/second a second factor and /login/passkey a
// passkey (token.ts redeems the code).

import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { SIGN_IN_METHODS } from '../../domain/access.ts';
import { deviceName } from '../../domain/userAgent.ts';
import { authenticationOptions, checkPasskey, relyingParty } from '../access/passkeys.ts';
import { checkSecondFactor } from '../access/secondFactor.ts';
import { registerSignInScripts, secondFactorPage, signInPage } from '../access/signInPages.ts';
import { recordSignIn } from '../activity/trail.ts';
import type { ServerContext } from '../context.ts';
import { hashToken, randomToken, verifyPassword } from '../crypto.ts';
import { readFields, str } from '../http/body.ts';
import { ApiException, badRequest } from '../http/errors.ts';
import { htmlPage } from '../http/html.ts';
import { redirectAllowed } from '../http/origin.ts';
import { type ApiRouter, type Ctx, clientIp, json } from '../http/router.ts';
import { normaliseScopes, parseScopes } from '../model/auth.ts';
import { claimAttempt, clearFailures } from '../model/signInBackoff.ts';

/** base64url(SHA-256("")): a client that hashed nothing. */
const EMPTY_CHALLENGE = '47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU';
const BASE64URL_43 = /^[A-Za-z0-9_-]{43}$/;
export const WRONG_CREDENTIALS = 'The email or password is not correct.';
// Compared against when the email is unknown, so both failures take the same time.
const DUMMY_HASH = 'scrypt$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

interface Application {
  application_id: string;
  callbacks: string[];
  scopes: string[];
}

export function registerLoginRoutes(router: ApiRouter, ctx: ServerContext): void {
  const { db, config } = ctx;
  const rp = relyingParty(config.publicUrl);
  registerSignInScripts(router);

  /** Whether the account has a passkey, for the second step's button. */
  const hasPasskey = async (userId: string) =>
    (await db.query('SELECT 1 FROM passkeys WHERE user_id = $1 LIMIT 1', [userId])).rows.length > 0;

  async function application(id: string): Promise<Application | null> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
    const { rows } = await db.query<Application>(
      'SELECT application_id, callbacks, scopes FROM applications WHERE application_id = $1',
      [id],
    );
    return rows[0] ?? null;
  }

  router.open('GET', '/login', async (c) => {
    const q = new URL(c.req.url).searchParams;
    const get = (k: string) => q.get(k) ?? '';
    const required = [
      'client_id',
      'redirect_uri',
      'response_type',
      'code_challenge',
      'code_challenge_method',
    ];
    const missing = required.filter((k) => !get(k));
    if (missing.length > 0) throw badRequest('missingParameters', 'Missing parameters', { missing });
    if (get('response_type') !== 'code') throw badRequest('badResponseType', 'Response type should be code');
    if (get('code_challenge_method') !== 'S256')
      throw badRequest('badChallengeMethod', 'Unsupported code challenge method; use S256');
    const challenge = get('code_challenge');
    if (!BASE64URL_43.test(challenge))
      throw badRequest('badChallenge', 'The code challenge should be 43 base64url characters');
    if (challenge === EMPTY_CHALLENGE)
      throw badRequest('badChallenge', 'The code challenge is of an empty string');
    const app = await application(get('client_id'));
    if (!app) throw badRequest('invalidClientId', 'Invalid client id');
    const redirectUri = get('redirect_uri');
    if (!redirectAllowed(redirectUri, app.callbacks))
      throw badRequest('badRedirectUri', 'The redirect uri is not whitelisted for this application');
    const scopes = normaliseScopes(parseScopes(get('scope')));
    const refused = scopes.filter((s) => !app.scopes.includes(s));
    if (refused.length > 0)
      throw badRequest('invalidScope', `The application may not request ${refused.join(', ')}`, {
        scopes: refused,
      });

    const state = get('state');
    const deviceId = q.get('device_id') ?? q.get('deviceId');
    // The same challenge with identical parameters resumes the same pending flow (§4).
    const existing = await db.query<{ flow_id: string }>(
      `SELECT flow_id FROM auth_flows
        WHERE application_id = $1 AND code_challenge = $2 AND redirect_uri = $3 AND state = $4
          AND scopes = $5 AND device_id IS NOT DISTINCT FROM $6 AND user_id IS NULL AND expires > now()`,
      [app.application_id, challenge, redirectUri, state, scopes, deviceId],
    );
    const flowId =
      existing.rows[0]?.flow_id ??
      (
        await db.query<{ flow_id: string }>(
          `INSERT INTO auth_flows (application_id, scopes, redirect_uri, state, code_challenge, device_id, expires)
           VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7)) RETURNING flow_id`,
          [app.application_id, scopes, redirectUri, state, challenge, deviceId, config.tokenLifetimes.flow],
        )
      ).rows[0].flow_id;

    if (q.get('no_redirect') === 'true')
      return json(c, { login_url: `${config.publicUrl}/v4/login/signin?flow_id=${flowId}` });
    return signInPage(c, flowId);
  });

  interface PendingFlow {
    flow_id: string;
    application_id: string;
    redirect_uri: string;
    state: string;
    pending_user_id: string | null;
  }

  /** A flow not yet signed in: waiting for a password, or (`secondStep`) for the second factor. */
  async function pendingFlow(flowId: string, secondStep = false): Promise<PendingFlow | null> {
    if (!/^[0-9a-f-]{36}$/i.test(flowId)) return null;
    const { rows } = await db.query<PendingFlow>(
      `SELECT flow_id, application_id, redirect_uri, state, pending_user_id FROM auth_flows
        WHERE flow_id = $1 AND user_id IS NULL AND expires > now()
          AND pending_user_id IS ${secondStep ? 'NOT NULL' : 'NULL'}`,
      [flowId],
    );
    return rows[0] ?? null;
  }

  const expiredPage = (c: Ctx) =>
    htmlPage(
      c,
      'Sign-in expired',
      '<h1>This sign-in has expired</h1><p>Go back to the console and sign in again.</p>',
      404,
    );

  /** Where the sign-in came from, in the account's trail. */
  const fromWhere = (c: Ctx) => {
    const device = deviceName(c.req.header('user-agent') ?? '');
    return `From ${clientIp(c)}${device ? `, ${device}` : ''}.`;
  };

  /** The password (and second factor, if any) were right: the code goes back to the console. */
  async function signedIn(c: Ctx, flow: PendingFlow, userId: string, method: string): Promise<Response> {
    const code = randomToken();
    await db.query(
      `UPDATE auth_flows SET user_id = $2, code_hash = $3, code_expires = now() + make_interval(secs => $4),
              pending_method = $5
        WHERE flow_id = $1`,
      [flow.flow_id, userId, hashToken(code), config.tokenLifetimes.code, method],
    );
    await recordSignIn(db, {
      userId,
      applicationId: flow.application_id,
      action: 'sign in',
      summary: `${SIGN_IN_METHODS[method] ?? method}. ${fromWhere(c)}`,
      outcome: 'ok',
    });
    const target = new URL(flow.redirect_uri);
    target.searchParams.set('code', code);
    target.searchParams.set('state', flow.state);
    // RFC 9207: names the issuer, so a client talking to several cannot be sent another's code.
    target.searchParams.set('iss', config.publicUrl);
    return c.redirect(target.toString(), 302);
  }

  router.open('GET', '/login/signin', async (c) => {
    const flow = await pendingFlow(c.req.query('flow_id') ?? '');
    return flow ? signInPage(c, flow.flow_id) : expiredPage(c);
  });

  router.open('POST', '/login/signin', async (c) => {
    const fields = await readFields(c);
    const flow = await pendingFlow(str(fields.flow_id));
    if (!flow) return expiredPage(c);
    const email = str(fields.email).trim();
    const wait = await claimAttempt(db, email);
    if (wait > 0)
      return signInPage(
        c,
        flow.flow_id,
        email,
        `Too many failed sign-ins for this email address. Try again in ${wait} second${wait === 1 ? '' : 's'}.`,
        429,
      );
    const { rows } = await db.query<{ user_id: string; password_hash: string; second_factor: boolean }>(
      'SELECT user_id, password_hash, second_factor FROM users WHERE lower(email) = lower($1) AND NOT banned',
      [email],
    );
    const user = rows[0];
    const ok = await verifyPassword(str(fields.password), user?.password_hash ?? DUMMY_HASH);
    if (user && !ok)
      await recordSignIn(db, {
        userId: user.user_id,
        applicationId: flow.application_id,
        action: 'wrong password',
        summary: fromWhere(c),
        outcome: 'wrongPassword',
      });
    if (!user || !ok) return signInPage(c, flow.flow_id, email, WRONG_CREDENTIALS);
    await clearFailures(db, email);
    if (!user.second_factor) return signedIn(c, flow, user.user_id, 'password');
    await db.query('UPDATE auth_flows SET pending_user_id = $2 WHERE flow_id = $1', [
      flow.flow_id,
      user.user_id,
    ]);
    return secondFactorPage(c, flow.flow_id, { passkey: await hasPasskey(user.user_id) });
  });

  // The second step: an authenticator's code or a backup code, counted per account (a guesser
  // who knows the password waits as one guessing it would), or a passkey (below).
  router.open('POST', '/login/second', async (c) => {
    const fields = await readFields(c);
    const flow = await pendingFlow(str(fields.flow_id), true);
    if (!flow?.pending_user_id) return expiredPage(c);
    const userId = flow.pending_user_id;
    try {
      const kind = await checkSecondFactor(db, config.rconKey, userId, str(fields.code));
      return signedIn(c, flow, userId, `password+${kind}`);
    } catch (e) {
      if (!(e instanceof ApiException)) throw e;
      if (e.code === 'codeInvalid')
        await recordSignIn(db, {
          userId,
          applicationId: flow.application_id,
          action: 'wrong code',
          summary: fromWhere(c),
          outcome: 'wrongCode',
        });
      return secondFactorPage(c, flow.flow_id, { passkey: await hasPasskey(userId) }, e.message, e.status);
    }
  });

  /** The flow a passkey answers: one waiting for its password, or for its second step. */
  async function passkeyFlow(c: Ctx): Promise<{ flow: PendingFlow; fields: Record<string, unknown> }> {
    const fields = await readFields(c);
    const id = str(fields.flow_id);
    const flow = (await pendingFlow(id, true)) ?? (await pendingFlow(id));
    if (!flow)
      throw new ApiException(
        404,
        'This sign-in has expired. Go back to the console and sign in again.',
        'expired',
      );
    return { flow, fields };
  }

  router.open('POST', '/login/passkey/options', async (c) => {
    const { flow } = await passkeyFlow(c);
    return json(c, await authenticationOptions(db, rp, flow.flow_id, flow.pending_user_id));
  });

  // Answers where the browser goes next as JSON: the page's script follows it.
  router.open('POST', '/login/passkey', async (c) => {
    const { flow, fields } = await passkeyFlow(c);
    const userId = await checkPasskey(
      db,
      rp,
      flow.flow_id,
      flow.pending_user_id,
      fields.response as AuthenticationResponseJSON,
    );
    const done = await signedIn(c, flow, userId, flow.pending_user_id ? 'password+passkey' : 'passkey');
    return json(c, { redirect: done.headers.get('location') });
  });
}
