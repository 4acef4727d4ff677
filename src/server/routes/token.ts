// The token endpoint (POST /login: codes and refresh tokens, SENTINEL-API §4), revocation
// (RFC 7009) and the metadata document (RFC 8414), answering as RFC 6749 §5 asks while keeping
// the fields the console and the contract read.

import { randomUUID } from 'node:crypto';
import type { TokenResponse } from '../../domain/api.ts';
import type { ServerContext } from '../context.ts';
import { hashToken, pkceChallenge } from '../crypto.ts';
import type { Queryable } from '../db/db.ts';
import { readFields, str } from '../http/body.ts';
import { ApiException } from '../http/errors.ts';
import { type ApiRouter, type Ctx, clientIp, json } from '../http/router.ts';
import { CONSOLE_SCOPES } from '../model/application.ts';
import { createSession, normaliseScopes, parseScopes, revokeFamily } from '../model/auth.ts';

/**
 * An RFC 6749 §5.2 error (`error`, `error_description`), keeping the original's `details.code`
 * (INVALID_GRANT, INVALID_CODE, EXPIRED, INVALID_SCOPES, INVALID_CLIENT) for its clients.
 */
const oauthError = (error: string, description: string, legacyCode: string) =>
  new ApiException(
    400,
    description,
    undefined,
    { code: legacyCode },
    {},
    { error, error_description: description },
  );

const missing = () => oauthError('invalid_request', 'Missing parameters', 'INVALID_GRANT');
const invalidClient = () => oauthError('invalid_client', 'Invalid client', 'INVALID_CLIENT');
const badCode = () => oauthError('invalid_grant', 'Invalid code', 'INVALID_CODE');
const expiredRefresh = () => oauthError('invalid_grant', 'The refresh token has expired', 'EXPIRED');

/**
 * What a grant ends in: a new pair, or a replay whose family was revoked. `revoked` are the access
 * tokens ended, for Callers.revoke once committed.
 */
type Outcome = { token: TokenResponse | null; revoked: string[] };

interface Client {
  application_id: string;
  secret_hash: string | null;
}

/** The client a token was issued to authenticates as it registered: public, or with its secret. */
async function checkClient(tx: Queryable, applicationId: string, sentId: string, secret: string) {
  if (sentId && sentId.toLowerCase() !== applicationId) throw invalidClient();
  const { rows } = await tx.query<Client>(
    'SELECT application_id, secret_hash FROM applications WHERE application_id = $1',
    [applicationId],
  );
  const app = rows[0];
  if (!app || (app.secret_hash && app.secret_hash !== hashToken(secret))) throw invalidClient();
}

export function registerTokenRoutes(router: ApiRouter, ctx: ServerContext): void {
  const { db, config } = ctx;
  const issuer = config.publicUrl;

  /** A code redeems once; its replay revokes the sessions it began (RFC 6749 §4.1.2, OAuth 2.1 §4.1.3). */
  function redeemCode(f: Record<string, unknown>, deviceId: string | null, c: Ctx): Promise<Outcome> {
    const [clientId, code, redirectUri, verifier] = [
      'client_id',
      'code',
      'redirect_uri',
      'code_verifier',
    ].map((k) => str(f[k]));
    if (!clientId || !code || !redirectUri || !verifier) throw missing();
    const familyId = randomUUID();
    return db.transaction(async (tx): Promise<Outcome> => {
      const { rows } = await tx.query<{
        application_id: string;
        redirect_uri: string;
        code_challenge: string;
        user_id: string;
        scopes: string[];
        device_id: string | null;
        pending_method: string | null;
      }>(
        `UPDATE auth_flows SET family_id = $2 WHERE code_hash = $1 AND code_expires > now() AND family_id IS NULL
         RETURNING application_id, redirect_uri, code_challenge, user_id, scopes, device_id, pending_method`,
        [hashToken(code), familyId],
      );
      const flow = rows[0];
      if (!flow) {
        const used = await tx.query<{ family_id: string }>(
          'SELECT family_id FROM auth_flows WHERE code_hash = $1 AND family_id IS NOT NULL',
          [hashToken(code)],
        );
        if (!used.rows[0]) throw badCode();
        return { token: null, revoked: await revokeFamily(tx, used.rows[0].family_id) };
      }
      // A wrong verifier or client rolls back: the code stays redeemable by its rightful holder.
      if (
        flow.application_id !== clientId.toLowerCase() ||
        flow.redirect_uri !== redirectUri ||
        flow.code_challenge !== pkceChallenge(verifier)
      )
        throw badCode();
      await checkClient(tx, flow.application_id, clientId, str(f.client_secret));
      const token = await createSession(tx, config.tokenLifetimes, {
        userId: flow.user_id,
        applicationId: flow.application_id,
        scopes: flow.scopes,
        deviceId: deviceId ?? flow.device_id,
        familyId,
        origin: {
          address: clientIp(c),
          userAgent: c.req.header('user-agent') ?? '',
          method: flow.pending_method ?? 'password',
        },
      });
      return { token, revoked: [] };
    });
  }

  /** Rotation: the old pair ends as the new one begins; a rotated token sent again revokes its family. */
  function refresh(f: Record<string, unknown>, deviceId: string | null): Promise<Outcome> {
    const sent = str(f.refresh_token);
    if (!sent) throw missing();
    const hash = hashToken(sent);
    return db.transaction(async (tx): Promise<Outcome> => {
      // Deleting first claims the token: of two concurrent uses, the second sees a replay.
      const { rows } = await tx.query<{
        access_token_hash: string;
        user_id: string;
        application_id: string;
        scopes: string[];
        device_id: string | null;
        family_id: string;
        refresh_expires: Date;
      }>(
        `DELETE FROM sessions WHERE refresh_token_hash = $1 AND refresh_expires > now()
         RETURNING access_token_hash, user_id, application_id, scopes, device_id, family_id, refresh_expires`,
        [hash],
      );
      const session = rows[0];
      if (!session) {
        const rotated = await tx.query<{ family_id: string }>(
          'SELECT family_id FROM rotated_refresh_tokens WHERE refresh_token_hash = $1 AND expires > now()',
          [hash],
        );
        if (!rotated.rows[0]) throw expiredRefresh();
        return { token: null, revoked: await revokeFamily(tx, rotated.rows[0].family_id) };
      }
      await checkClient(tx, session.application_id, str(f.client_id), str(f.client_secret));
      // RFC 6749 §6: without `scope` the new pair keeps the session's scopes.
      const wanted = str(f.scope) ? normaliseScopes(parseScopes(str(f.scope))) : session.scopes;
      if (!wanted.every((s) => session.scopes.includes(s)))
        throw oauthError('invalid_scope', 'The requested scopes exceed the session', 'INVALID_SCOPES');
      await tx.query(
        'INSERT INTO rotated_refresh_tokens (refresh_token_hash, family_id, expires) VALUES ($1, $2, $3)',
        [hash, session.family_id, session.refresh_expires],
      );
      const token = await createSession(tx, config.tokenLifetimes, {
        userId: session.user_id,
        applicationId: session.application_id,
        scopes: wanted,
        deviceId: deviceId ?? session.device_id,
        familyId: session.family_id,
      });
      return { token, revoked: [session.access_token_hash] };
    });
  }

  // 200 as RFC 6749 §5.1 says (the provider answers 201; the console accepts both).
  router.open('POST', '/login', async (c) => {
    const f = await readFields(c);
    const deviceId = str(f.device_id) || c.req.query('deviceId') || null;
    const grant = str(f.grant_type);
    if (!grant) throw missing();
    if (grant !== 'authorization_code' && grant !== 'refresh_token')
      throw oauthError('unsupported_grant_type', 'Unsupported grant type', 'INVALID_GRANT');
    const { token, revoked } =
      grant === 'authorization_code' ? await redeemCode(f, deviceId, c) : await refresh(f, deviceId);
    if (revoked.length > 0) await ctx.callers.revoke(revoked);
    if (!token) throw grant === 'authorization_code' ? badCode() : expiredRefresh();
    c.header('Pragma', 'no-cache');
    return json(c, token);
  });

  // RFC 7009: either token of a pair ends the whole sign-in it belongs to. Unknown tokens are not
  // an error (the client's goal, a dead token, is reached).
  router.open('POST', '/login/revoke', async (c) => {
    const f = await readFields(c);
    const token = str(f.token);
    if (!token) throw missing();
    const hash = hashToken(token);
    const revoked = await db.transaction(async (tx) => {
      const { rows } = await tx.query<{ family_id: string; application_id: string }>(
        'SELECT family_id, application_id FROM sessions WHERE access_token_hash = $1 OR refresh_token_hash = $1',
        [hash],
      );
      const session = rows[0];
      if (!session) return [];
      await checkClient(tx, session.application_id, str(f.client_id), str(f.client_secret));
      return revokeFamily(tx, session.family_id);
    });
    if (revoked.length > 0) await ctx.callers.revoke(revoked);
    return c.body(null, 200);
  });

  // RFC 8414, with RFC 9207's `iss` on the authorization response.
  router.app.get('/.well-known/oauth-authorization-server', (c) =>
    json(c, {
      issuer,
      authorization_endpoint: `${issuer}/v4/login`,
      token_endpoint: `${issuer}/v4/login`,
      revocation_endpoint: `${issuer}/v4/login/revoke`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_post'],
      revocation_endpoint_auth_methods_supported: ['none', 'client_secret_post'],
      scopes_supported: CONSOLE_SCOPES,
      authorization_response_iss_parameter_supported: true,
    }),
  );
}
