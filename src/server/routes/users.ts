// The current user (§3.19), other users' public records, sessions (§2.5), and the policy
// acceptance page a 412 policyRequired points to.

import type { SessionInfo, User } from '../../domain/api.ts';
import { UUID } from '../../domain/constants.ts';
import { GROUP_MESSAGES } from '../../domain/groups.ts';
import { claimedByEmail } from '../billing/subscriptions.ts';
import type { ServerContext } from '../context.ts';
import { hashToken, unseal } from '../crypto.ts';
import type { Caller } from '../http/auth.ts';
import { readFields, str } from '../http/body.ts';
import { ApiException } from '../http/errors.ts';
import { escapeHtml, htmlPage } from '../http/html.ts';
import { fromOwnPage, returnAllowed } from '../http/origin.ts';
import { type ApiRouter, type Ctx, json, noContent, param } from '../http/router.ts';
import { epoch } from '../model/service.ts';

const POLICY_TITLES: Record<string, string> = { terms: 'Terms of Service', privacy: 'Privacy Policy' };

const userNotFound = () => new ApiException(404, 'User not found', 'notFound');
const sessionNotFound = () => new ApiException(404, 'Session not found', undefined, { code: 'NOT_FOUND' });

export function registerUserRoutes(router: ApiRouter, ctx: ServerContext): void {
  const { db, config } = ctx;

  const PUBLIC_COLUMNS = `u.user_id AS "userId", u.username, u.username || '#' || left(u.user_id::text, 8) AS "usernameFull",
    u.is_anonymous AS "isAnonymous", u.public_key AS "publicKey"`;

  async function publicUser(userId: string) {
    const { rows } = await db.query<
      Pick<User, 'userId' | 'username' | 'usernameFull' | 'isAnonymous' | 'publicKey'>
    >(`SELECT ${PUBLIC_COLUMNS} FROM users u WHERE u.user_id = $1`, [userId]);
    return rows[0] ?? null;
  }

  /**
   * The caller's own record, with their subscriptions (a trial bought with their email before
   * the account signed in among them), in one statement: every console asks for it on load and
   * on focus, and it took four round trips.
   */
  async function fullUser(userId: string): Promise<User & { email: string }> {
    const { rows } = await db.query<User & { email: string }>(
      `WITH claimed AS (${claimedByEmail('$1')}),
            subs AS (
              SELECT s.subscription_id AS "subscriptionId", s.product_id AS "productId", s.product_name AS "productName",
                     s.product_game_id AS "productGameId", s.product_flags AS "productFlags",
                     round(${epoch('s.created')}) AS created, round(${epoch('s.expiration')}) AS expiration,
                     s.last_purchase_id AS "lastPurchaseId",
                     (SELECT count(*) FROM services sv WHERE sv.user_id = $1 AND NOT sv.deleted) AS "unitsUsed",
                     s.units_allowed AS "unitsAllowed"
                FROM (SELECT * FROM subscriptions WHERE user_id = $1 UNION ALL SELECT * FROM claimed) s)
       SELECT ${PUBLIC_COLUMNS}, u.banned, u.email, NULL AS signature, '[]'::json AS licenses,
              (SELECT coalesce(json_agg(subs ORDER BY subs.expiration DESC), '[]') FROM subs) AS subscriptions
         FROM users u WHERE u.user_id = $1`,
      [userId],
      'full-user',
    );
    if (!rows[0]) throw userNotFound();
    return rows[0];
  }

  async function requirePolicies(c: Ctx, caller: Caller): Promise<void> {
    const wanted = (c.req.query('requiredPolicies') ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);
    if (wanted.length === 0) return;
    const { rows } = await db.query<{ policy: string }>(
      'SELECT policy FROM user_policies WHERE user_id = $1 AND policy = ANY($2::text[])',
      [caller.userId, wanted],
    );
    const missing = wanted.filter((p) => !rows.some((r) => r.policy === p));
    if (missing.length === 0) return;
    const back = c.req.query('return') ?? '';
    const { rows: app } = await db.query<{ callbacks: string[] }>(
      'SELECT callbacks FROM applications WHERE application_id = $1',
      [caller.applicationId],
    );
    const { rows: req } = await db.query<{ request_id: string }>(
      'INSERT INTO policy_signing_requests (user_id, policies, return_url) VALUES ($1, $2, $3) RETURNING request_id',
      [caller.userId, missing, returnAllowed(back, app[0]?.callbacks ?? []) ? back : null],
    );
    const id = req[0].request_id;
    throw new ApiException(412, 'Please accept the updated policies.', 'policyRequired', {
      policySigningRequestId: id,
      url: `${config.publicUrl}/v4/policies/${id}`,
    });
  }

  const me = async (c: Ctx, caller: Caller) => {
    await requirePolicies(c, caller);
    return json(c, await fullUser(caller.userId));
  };
  router.authed('GET', '/user', ['users:read'], me);
  router.authed('GET', '/users/:userId', ['users:read'], async (c, caller) => {
    const id = param(c, 'userId').toLowerCase();
    if (id === caller.userId || id === 'me') return me(c, caller);
    const user = UUID.test(id) ? await publicUser(id) : null;
    if (!user) throw userNotFound();
    return json(c, user);
  });

  // Finding a user to add to a group (SPEC §5 "User lookup"): an email, a full user id, or
  // username#discriminator (the first 8 characters of the id). Anonymous accounts are refused.
  router.authed('GET', '/sentinel/userLookup', ['sentinel:read', 'users:read'], async (c) => {
    const query = (c.req.query('query') ?? '').trim();
    if (query === '') throw new ApiException(400, GROUP_MESSAGES.lookupEmpty, 'missingQuery');
    const tagged = /^(.+)#([0-9a-f]{8})$/i.exec(query);
    const { rows } = await db.query<{ user_id: string; is_anonymous: boolean }>(
      UUID.test(query)
        ? 'SELECT user_id, is_anonymous FROM users WHERE user_id = $1::uuid'
        : tagged
          ? `SELECT user_id, is_anonymous FROM users
              WHERE lower(username) = lower($1) AND left(user_id::text, 8) = lower($2)`
          : 'SELECT user_id, is_anonymous FROM users WHERE lower(email) = lower($1)',
      tagged ? [tagged[1], tagged[2]] : [query],
    );
    if (rows.length !== 1) throw new ApiException(404, GROUP_MESSAGES.userNotFound, 'userNotFound');
    if (rows[0].is_anonymous) throw new ApiException(400, GROUP_MESSAGES.anonymousUser, 'anonymousUser');
    const user = await publicUser(rows[0].user_id);
    return json(c, user);
  });

  async function sessionInfo(token: string, caller: Caller): Promise<SessionInfo> {
    const { rows } = await db.query<Omit<SessionInfo, 'accessToken' | 'refreshToken'> & { sealed: string }>(
      `SELECT s.refresh_token_sealed AS sealed,
              ${epoch('s.access_expires')}::bigint AS "accessTokenExpiration",
              ${epoch('s.refresh_expires')}::bigint AS "refreshTokenExpiration",
              s.user_id AS "userId", s.scopes,
              json_build_object('id', a.application_id, 'name', a.name, 'website', a.website) AS application
         FROM sessions s JOIN applications a ON a.application_id = s.application_id
        WHERE s.access_token_hash = $1 AND s.user_id = $2`,
      [hashToken(token), caller.userId],
    );
    const row = rows[0];
    if (!row) throw sessionNotFound();
    const { sealed, ...rest } = row;
    return { accessToken: token, refreshToken: unseal(sealed, token), ...rest };
  }

  async function deleteSession(token: string, caller: Caller): Promise<void> {
    const hash = hashToken(token);
    const { rows } = await db.query(
      'DELETE FROM sessions WHERE access_token_hash = $1 AND user_id = $2 RETURNING 1',
      [hash, caller.userId],
    );
    if (rows.length === 0) throw sessionNotFound();
    await ctx.callers.revoke([hash]);
  }

  router.authed('GET', '/session', [], async (c, caller) =>
    json(c, await sessionInfo(caller.accessToken, caller)),
  );
  router.authed('DELETE', '/session', [], async (c, caller) => {
    await deleteSession(caller.accessToken, caller);
    return noContent(c);
  });
  router.authed('GET', '/sessions/:token', [], async (c, caller) =>
    json(c, await sessionInfo(param(c, 'token'), caller)),
  );
  router.authed('DELETE', '/sessions/:token', [], async (c, caller) => {
    await deleteSession(param(c, 'token'), caller);
    return noContent(c);
  });

  // The request id is an unguessable capability: the browser reaches this page by navigation,
  // without the console's bearer token.
  async function signingRequest(id: string) {
    if (!UUID.test(id)) return null;
    const { rows } = await db.query<{ user_id: string; policies: string[]; return_url: string | null }>(
      `SELECT user_id, policies, return_url FROM policy_signing_requests
        WHERE request_id = $1 AND created > now() - interval '1 day'`,
      [id],
    );
    return rows[0] ?? null;
  }

  const gonePage = (c: Ctx) =>
    htmlPage(c, 'Request expired', '<h1>This request has expired</h1><p>Return to the console.</p>', 404);

  router.open('GET', '/policies/:requestId', async (c) => {
    const id = param(c, 'requestId');
    const req = await signingRequest(id);
    if (!req) return gonePage(c);
    const items = req.policies.map((p) => `<li>${escapeHtml(POLICY_TITLES[p] ?? p)}</li>`).join('');
    return htmlPage(
      c,
      'Accept policies',
      `<h1>Please accept our policies</h1><p>To continue, accept:</p><ul>${items}</ul>
<form method="post" action="/v4/policies/${escapeHtml(id)}"><input type="hidden" name="accept" value="true">
<button type="submit">Accept and continue</button></form>`,
    );
  });

  router.open('POST', '/policies/:requestId', async (c) => {
    const id = param(c, 'requestId');
    const req = await signingRequest(id);
    const fields = await readFields(c);
    if (!req || str(fields.accept) !== 'true') return gonePage(c);
    if (!fromOwnPage(c, config.publicUrl))
      return htmlPage(
        c,
        'Not accepted',
        '<h1>Not accepted</h1><p>Accept the policies on the page the console sent you to.</p>',
        403,
      );
    await db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO user_policies (user_id, policy) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`,
        [req.user_id, req.policies],
      );
      await tx.query('DELETE FROM policy_signing_requests WHERE request_id = $1', [id]);
    });
    if (req.return_url) return c.redirect(req.return_url, 302);
    return htmlPage(c, 'Accepted', '<h1>Thank you</h1><p>You can return to the console.</p>');
  });
}
