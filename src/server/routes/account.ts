// The account's own security (docs/api.md "Access"): two-factor sign-in and backup codes, the
// signed-in devices, and API tokens. Each is the signed-in person's alone; an API token can use
// none of them, so a leaked token cannot make itself a wider one or lock its maker out.

import { randomUUID } from 'node:crypto';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import {
  ACCESS_MESSAGES,
  PASSKEY_LIMITS,
  SECURITY_UPDATED,
  TOKEN_ACCESS,
  TOKEN_LIMITS,
  TOKEN_PREFIX,
  type TokenAccess,
} from '../../domain/access.ts';
import { userChannel } from '../../domain/api.ts';
import { UUID } from '../../domain/constants.ts';
import { addPasskey, registrationOptions, relyingParty } from '../access/passkeys.ts';
import { confirmPassword } from '../access/reauth.ts';
import {
  checkSecondFactor,
  newBackupCodes,
  newTotpSecret,
  sealSecret,
  syncSecondFactor,
  totpUri,
  unsealSecret,
} from '../access/secondFactor.ts';
import type { ServerContext } from '../context.ts';
import { hashToken, randomToken } from '../crypto.ts';
import type { Caller } from '../http/auth.ts';
import { readObject, str } from '../http/body.ts';
import { ApiException, badRequest } from '../http/errors.ts';
import { type ApiRouter, json, noContent, param } from '../http/router.ts';
import { revokeFamily } from '../model/auth.ts';
import { bitsOn } from '../model/permissions.ts';
import { epoch } from '../model/service.ts';

const byToken = () => new ApiException(403, ACCESS_MESSAGES.tokensByToken, 'signInRequired');

/** The routes here are the signed-in person's: never an API token's. */
function person(caller: Caller): Caller {
  if (caller.tokenId) throw byToken();
  return caller;
}

/** A short list whole, in the shape of a list page (§2.4): at most TOKEN_LIMITS.perUser tokens, a few devices. */
const onePage = <T>(results: T[]) => ({
  totalResults: results.length,
  pageSize: Math.max(results.length, 1),
  pages: 1,
  page: 1,
  results,
});

export function registerAccountRoutes(router: ApiRouter, ctx: ServerContext): void {
  const { db, config } = ctx;
  const rp = relyingParty(config.publicUrl);

  /** The account's open Security and API token pages refresh (every device of the account). */
  const changed = (userId: string) => ctx.publisher.publish([userChannel(userId)], SECURITY_UPDATED, '');

  /** Ends sign-ins of the account (all but `keep`), telling every process at once. */
  async function endSignIns(userId: string, keep: string | undefined): Promise<number> {
    const ended = await db.transaction(async (tx) => {
      const { rows } = await tx.query<{ family_id: string }>(
        'SELECT DISTINCT family_id FROM sessions WHERE user_id = $1 AND family_id IS DISTINCT FROM $2::uuid',
        [userId, keep ?? null],
      );
      const hashes: string[] = [];
      for (const r of rows) hashes.push(...(await revokeFamily(tx, r.family_id)));
      return { hashes, count: rows.length };
    });
    if (ended.hashes.length > 0) await ctx.callers.revoke(ended.hashes);
    return ended.count;
  }

  router.authed('GET', '/sentinel/account/security', [], async (c, caller) => {
    const me = person(caller).userId;
    const { rows } = await db.query<{ totp: boolean; secret: string | null; email: string }>(
      `SELECT t.enabled IS NOT NULL AS totp, CASE WHEN t.enabled IS NULL THEN t.secret END AS secret, u.email,
              (SELECT count(*)::int FROM backup_codes WHERE user_id = $1 AND used IS NULL) AS "backupCodesLeft",
              (SELECT coalesce(json_agg(json_build_object('groupId', g.group_id, 'name', g.name) ORDER BY lower(g.name)), '[]')
                 FROM group_users gu JOIN groups g ON g.group_id = gu.group_id AND g.require_two_factor
                WHERE gu.user_id = $1) AS "requiredBy",
              (SELECT coalesce(json_agg(json_build_object('passkeyId', p.passkey_id, 'name', p.name,
                        'created', ${epoch('p.created')}, 'lastUsed', ${epoch('p.last_used')}) ORDER BY p.created), '[]')
                 FROM passkeys p WHERE p.user_id = $1) AS passkeys
         FROM users u LEFT JOIN totp_secrets t ON t.user_id = u.user_id WHERE u.user_id = $1`,
      [me],
    );
    const { secret, email, ...rest } = rows[0];
    // A setup begun and not confirmed: shown again to its owner, so the page can finish it.
    const pending = secret ? unsealSecret(secret, config.rconKey) : null;
    return json(c, { ...rest, pending: pending ? { secret: pending, uri: totpUri(pending, email) } : null });
  });

  // Setting up: a new secret each time until a code confirms it (a secret shown on a screen that
  // was abandoned is never turned on).
  router.authed('POST', '/sentinel/account/totp', [], async (c, caller) => {
    const me = person(caller).userId;
    const { rows } = await db.query<{ email: string; on: boolean }>(
      `SELECT u.email, EXISTS (SELECT 1 FROM totp_secrets t WHERE t.user_id = u.user_id AND t.enabled IS NOT NULL) AS on
         FROM users u WHERE u.user_id = $1`,
      [me],
    );
    if (rows[0]?.on) throw new ApiException(409, ACCESS_MESSAGES.totpOn, 'totpOn');
    const secret = newTotpSecret();
    const uri = totpUri(secret, rows[0]?.email ?? '');
    await db.query(
      `INSERT INTO totp_secrets (user_id, secret) VALUES ($1, $2)
       ON CONFLICT (user_id) DO UPDATE SET secret = $2, last_step = 0, created = now()`,
      [me, sealSecret(secret, config.rconKey)],
    );
    await changed(me);
    return json(c, { secret, uri }, 201);
  });

  // Confirming (with the password again: reauth.ts) turns two-factor on, hands out the backup
  // codes (shown once) and ends every other sign-in: none of them proved a second factor, and a
  // group requiring one counts on that.
  router.authed('POST', '/sentinel/account/totp/confirm', [], async (c, caller) => {
    const me = person(caller).userId;
    const f = await readObject(c);
    const code = str(f.code);
    const pending = await db.query<{ enabled: Date | null }>(
      'SELECT enabled FROM totp_secrets WHERE user_id = $1',
      [me],
    );
    if (!pending.rows[0]) throw new ApiException(409, ACCESS_MESSAGES.totpNotStarted, 'totpNotStarted');
    if (pending.rows[0].enabled) throw new ApiException(409, ACCESS_MESSAGES.totpOn, 'totpOn');
    await confirmPassword(db, me, str(f.password));
    await checkSecondFactor(db, config.rconKey, me, code, { pendingTotp: true });
    const backupCodes = await db.transaction(async (tx) => {
      await tx.query('UPDATE totp_secrets SET enabled = now() WHERE user_id = $1', [me]);
      await syncSecondFactor(tx, me);
      return newBackupCodes(tx, me);
    });
    const signedOut = await endSignIns(me, caller.familyId);
    await changed(me);
    return json(c, { backupCodes, signedOut });
  });

  router.authed('DELETE', '/sentinel/account/totp', [], async (c, caller) => {
    const me = person(caller).userId;
    const code = str((await readObject(c)).code);
    const on = await db.query('SELECT 1 FROM totp_secrets WHERE user_id = $1 AND enabled IS NOT NULL', [me]);
    if (!on.rows[0]) throw new ApiException(409, ACCESS_MESSAGES.totpOff, 'totpOff');
    await checkSecondFactor(db, config.rconKey, me, code);
    await db.transaction(async (tx) => {
      await tx.query('DELETE FROM totp_secrets WHERE user_id = $1', [me]);
      // Backup codes recover any second factor: they go with the last one.
      if (!(await syncSecondFactor(tx, me)))
        await tx.query('DELETE FROM backup_codes WHERE user_id = $1', [me]);
    });
    await changed(me);
    return noContent(c);
  });

  router.authed('POST', '/sentinel/account/backupCodes', [], async (c, caller) => {
    const me = person(caller).userId;
    const code = str((await readObject(c)).code);
    const on = await db.query('SELECT 1 FROM users WHERE user_id = $1 AND second_factor', [me]);
    if (!on.rows[0]) throw new ApiException(409, ACCESS_MESSAGES.twoFactorOff, 'totpOff');
    await checkSecondFactor(db, config.rconKey, me, code);
    const backupCodes = await db.transaction((tx) => newBackupCodes(tx, me));
    await changed(me);
    return json(c, { backupCodes });
  });

  // The password is asked here, before the device makes a key: the challenge this answers is then
  // what lets the key be added (once, within five minutes).
  router.authed('POST', '/sentinel/account/passkeys/options', [], async (c, caller) => {
    const me = person(caller).userId;
    await confirmPassword(db, me, str((await readObject(c)).password));
    const { rows } = await db.query<{ email: string; username: string }>(
      'SELECT email, username FROM users WHERE user_id = $1',
      [me],
    );
    return json(c, await registrationOptions(db, rp, { userId: me, ...rows[0] }));
  });

  // The first second factor also hands out backup codes: a passkey's device can be lost too.
  router.authed('POST', '/sentinel/account/passkeys', [], async (c, caller) => {
    const me = person(caller).userId;
    const f = await readObject(c);
    const name = str(f.name).trim();
    if (!name || name.length > PASSKEY_LIMITS.nameMax)
      throw badRequest('validation', ACCESS_MESSAGES.passkeyName, { field: 'name' });
    const passkeyId = await addPasskey(db, rp, me, name, f.response as RegistrationResponseJSON);
    const backupCodes = await db.transaction(async (tx) => {
      const before = await tx.query('SELECT second_factor FROM users WHERE user_id = $1', [me]);
      await syncSecondFactor(tx, me);
      const left = await tx.query('SELECT 1 FROM backup_codes WHERE user_id = $1 AND used IS NULL', [me]);
      return before.rows[0]?.second_factor || left.rows[0] ? null : newBackupCodes(tx, me);
    });
    const signedOut = backupCodes ? await endSignIns(me, caller.familyId) : 0;
    await changed(me);
    return json(c, { passkeyId, name, backupCodes, signedOut }, 201);
  });

  router.authed('DELETE', '/sentinel/account/passkeys/:passkeyId', [], async (c, caller) => {
    const me = person(caller).userId;
    const id = param(c, 'passkeyId');
    const removed = UUID.test(id)
      ? await db.transaction(async (tx) => {
          const { rows } = await tx.query(
            'DELETE FROM passkeys WHERE passkey_id = $1 AND user_id = $2 RETURNING 1',
            [id, me],
          );
          if (rows[0] && !(await syncSecondFactor(tx, me)))
            await tx.query('DELETE FROM backup_codes WHERE user_id = $1', [me]);
          return rows.length > 0;
        })
      : false;
    if (!removed) throw new ApiException(404, ACCESS_MESSAGES.passkeyNotFound, 'objectNotFound');
    await changed(me);
    return noContent(c);
  });

  router.authed('GET', '/sentinel/account/signIns', [], async (c, caller) => {
    const me = person(caller);
    const { rows } = await db.query(
      `SELECT s.family_id AS "signInId", a.name AS "application", ${epoch('s.created')} AS "created",
              s.address, s.user_agent AS "userAgent", s.method, ${epoch('s.last_used')} AS "lastUsed",
              s.last_address AS "lastAddress", s.family_id = $2::uuid AS "current"
         FROM sign_ins s JOIN applications a ON a.application_id = s.application_id
        WHERE s.user_id = $1 AND EXISTS (SELECT 1 FROM sessions x WHERE x.family_id = s.family_id)
        ORDER BY s.family_id = $2::uuid DESC, s.last_used DESC LIMIT 200`,
      [me.userId, me.familyId ?? null],
    );
    return json(c, onePage(rows));
  });

  router.authed('DELETE', '/sentinel/account/signIns/:signInId', [], async (c, caller) => {
    const me = person(caller).userId;
    const id = param(c, 'signInId');
    const hashes = UUID.test(id)
      ? await db.transaction(async (tx) => {
          const { rows } = await tx.query('SELECT 1 FROM sign_ins WHERE family_id = $1 AND user_id = $2', [
            id,
            me,
          ]);
          return rows[0] ? revokeFamily(tx, id) : null;
        })
      : null;
    if (!hashes) throw new ApiException(404, ACCESS_MESSAGES.signInNotFound, 'objectNotFound');
    await ctx.callers.revoke(hashes);
    await changed(me);
    return noContent(c);
  });

  const TOKEN_COLUMNS = `t.token_id AS "tokenId", t.name, t.scopes, t.group_id AS "groupId", g.name AS "groupName",
    t.service_id AS "serviceId", coalesce(s.nickname, s.name) AS "serviceName",
    CASE WHEN 'sentinel:write' = ANY(t.scopes) THEN 'write' ELSE 'read' END AS "access",
    ${epoch('t.created')} AS "created", ${epoch('t.expires')} AS "expires", ${epoch('t.last_used')} AS "lastUsed",
    t.last_address AS "lastAddress"`;
  const TOKEN_FROM = `api_tokens t LEFT JOIN groups g ON g.group_id = t.group_id
    LEFT JOIN services s ON s.service_id = t.service_id`;

  router.authed('GET', '/sentinel/apiTokens', [], async (c, caller) => {
    const me = person(caller).userId;
    const { rows } = await db.query(
      `SELECT ${TOKEN_COLUMNS} FROM ${TOKEN_FROM}
        WHERE t.user_id = $1 AND t.revoked IS NULL AND t.expires > now() ORDER BY t.created DESC`,
      [me],
    );
    return json(c, onePage(rows));
  });

  router.authed('POST', '/sentinel/apiTokens', [], async (c, caller) => {
    const me = person(caller);
    const f = await readObject(c);
    const name = str(f.name).trim();
    if (!name || name.length > TOKEN_LIMITS.nameMax)
      throw badRequest('validation', ACCESS_MESSAGES.tokenName, { field: 'name' });
    const access = (f.access ?? 'read') as TokenAccess;
    if (!(access in TOKEN_ACCESS))
      throw badRequest('validation', 'Access is read or write.', { field: 'access' });
    const scopes = [...TOKEN_ACCESS[access].scopes];
    // Never more than the sign-in that makes it.
    if (!scopes.every((s) => me.scopes.includes(s)))
      throw new ApiException(403, 'This sign-in may not make a token with those rights.', 'forbidden');
    const days = f.expiresInDays ?? TOKEN_LIMITS.expiryDaysDefault;
    if (typeof days !== 'number' || !Number.isInteger(days) || days < 1 || days > TOKEN_LIMITS.expiryDaysMax)
      throw badRequest('validation', ACCESS_MESSAGES.tokenExpiry, { field: 'expiresInDays' });
    const groupId = f.groupId ?? null;
    const serviceId = f.serviceId ?? null;
    if (groupId !== null && serviceId !== null) throw badRequest('validation', ACCESS_MESSAGES.tokenScope);
    if (groupId !== null && (await bitsOn(db, 'group', groupId, me.userId)) === null)
      throw new ApiException(403, ACCESS_MESSAGES.tokenPlace, 'forbidden', { field: 'groupId' });
    if (serviceId !== null && (await bitsOn(db, 'service', serviceId, me.userId)) === null)
      throw new ApiException(403, ACCESS_MESSAGES.tokenPlace, 'forbidden', { field: 'serviceId' });
    const token = `${TOKEN_PREFIX}${randomToken()}`;
    const tokenId = randomUUID();
    const limited = groupId !== null || serviceId !== null;
    const row = await db.transaction(async (tx) => {
      const live = await tx.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM api_tokens WHERE user_id = $1 AND revoked IS NULL AND expires > now()',
        [me.userId],
      );
      if ((live.rows[0]?.n ?? 0) >= TOKEN_LIMITS.perUser)
        throw badRequest('tooManyTokens', ACCESS_MESSAGES.tokenCount);
      // A limited token is its own principal: an account that cannot sign in (no password, an
      // address that cannot exist) and cannot join a group (anonymous), whose rights are its maker's
      // cut to the group or server by the permission views.
      const principal = limited ? tokenId : me.userId;
      if (limited)
        await tx.query(
          `INSERT INTO users (user_id, username, email, password_hash, is_anonymous, token_of)
           VALUES ($1, $2, $3, '!', true, $4)`,
          [tokenId, name, `token-${tokenId}@tokens.invalid`, me.userId],
        );
      await tx.query(
        `INSERT INTO api_tokens (token_id, user_id, principal_id, name, token_hash, scopes, group_id, service_id, mask, expires)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now() + make_interval(days => $10))`,
        [
          tokenId,
          me.userId,
          principal,
          name,
          hashToken(token),
          scopes,
          groupId,
          serviceId,
          access === 'read' ? 1 : 9007199254740991,
          days,
        ],
      );
      const { rows } = await tx.query(`SELECT ${TOKEN_COLUMNS} FROM ${TOKEN_FROM} WHERE t.token_id = $1`, [
        tokenId,
      ]);
      return rows[0];
    });
    await changed(me.userId);
    return json(c, { ...row, token }, 201);
  });

  router.authed('DELETE', '/sentinel/apiTokens/:tokenId', [], async (c, caller) => {
    const me = person(caller).userId;
    const id = param(c, 'tokenId');
    const { rows } = UUID.test(id)
      ? await db.query<{ token_hash: string }>(
          `UPDATE api_tokens SET revoked = now() WHERE token_id = $1 AND user_id = $2 AND revoked IS NULL
           RETURNING token_hash`,
          [id, me],
        )
      : { rows: [] };
    if (!rows[0]) throw new ApiException(404, ACCESS_MESSAGES.tokenNotFound, 'objectNotFound');
    await ctx.callers.revoke([rows[0].token_hash]);
    await changed(me);
    return noContent(c);
  });
}
