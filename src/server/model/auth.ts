// Sessions and the token response of SENTINEL-API §4. Tokens are 32 random bytes; only their
// SHA3-512 hashes are stored, with the refresh token sealed by the access token.

import type { TokenResponse } from '../../domain/api.ts';
import type { TokenLifetimes } from '../context.ts';
import { hashToken, randomToken, seal } from '../crypto.ts';
import type { Queryable } from '../db/db.ts';

export const normaliseScopes = (scopes: Iterable<string>): string[] =>
  [...new Set(['common', ...scopes])].sort();

export const parseScopes = (scope: string): string[] => scope.split(/[\s+]+/).filter(Boolean);

/** Where and how a sign-in began: the signed-in device the account's list shows. */
export interface SignInOrigin {
  address: string;
  userAgent: string;
  /** How the sign-in was proven (SIGN_IN_METHODS of domain/access.ts). */
  method: string;
}

/**
 * A new pair of tokens. The first of a family (a sign-in, `origin` given) also records the
 * signed-in device; a refresh continues it.
 */
export async function createSession(
  tx: Queryable,
  lifetimes: TokenLifetimes,
  s: {
    userId: string;
    applicationId: string;
    scopes: string[];
    deviceId: string | null;
    familyId: string;
    origin?: SignInOrigin;
  },
): Promise<TokenResponse> {
  if (s.origin)
    await tx.query(
      `INSERT INTO sign_ins (family_id, user_id, application_id, address, user_agent, method, last_address)
       VALUES ($1, $2, $3, $4, $5, $6, $4)`,
      [
        s.familyId,
        s.userId,
        s.applicationId,
        s.origin.address,
        s.origin.userAgent.slice(0, 300),
        s.origin.method,
      ],
    );
  const access = randomToken();
  const refresh = randomToken();
  const now = Date.now() / 1000;
  const accessExp = Math.floor(now + lifetimes.access);
  const refreshExp = Math.floor(now + lifetimes.refresh);
  const scopes = normaliseScopes(s.scopes);
  await tx.query(
    `INSERT INTO sessions (access_token_hash, refresh_token_hash, refresh_token_sealed, user_id, application_id,
                           scopes, device_id, access_expires, refresh_expires, family_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, to_timestamp($8), to_timestamp($9), $10)`,
    [
      hashToken(access),
      hashToken(refresh),
      seal(refresh, access),
      s.userId,
      s.applicationId,
      scopes,
      s.deviceId,
      accessExp,
      refreshExp,
      s.familyId,
    ],
  );
  return {
    token_type: 'Bearer',
    access_token: access,
    refresh_token: refresh,
    access_token_expiration: accessExp,
    refresh_token_expiration: refreshExp,
    access_token_expires_in: accessExp - now,
    refresh_token_expires_in: refreshExp - now,
    expires_in: accessExp - Math.floor(now),
    scope: scopes.join(' '),
    now,
  };
}

/**
 * Ends every session of a sign-in (a replayed code or refresh token, a revocation). Resolves to
 * their access-token hashes, for Callers.revoke once committed.
 */
export async function revokeFamily(tx: Queryable, familyId: string): Promise<string[]> {
  const { rows } = await tx.query<{ hash: string }>(
    'DELETE FROM sessions WHERE family_id = $1 RETURNING access_token_hash AS hash',
    [familyId],
  );
  await tx.query('DELETE FROM sign_ins WHERE family_id = $1', [familyId]);
  return rows.map((r) => r.hash);
}
