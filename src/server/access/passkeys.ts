// Passkeys (WebAuthn Level 3), made and checked by SimpleWebAuthn rather than by hand: the
// attestation and assertion formats, COSE keys and signature counters are a specification's worth
// of detail a maintained library already gets right. The relying party is the console's public
// address: its host name is the RP ID, its origin the only origin accepted (a host that is an IP
// address cannot hold passkeys; `localhost` can).

import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { ACCESS_MESSAGES, PASSKEY_LIMITS } from '../../domain/access.ts';
import type { Queryable } from '../db/db.ts';
import { ApiException } from '../http/errors.ts';

export interface RelyingParty {
  id: string;
  origin: string;
}

export const relyingParty = (publicUrl: string): RelyingParty => {
  const u = new URL(publicUrl);
  return { id: u.hostname, origin: u.origin };
};

const CHALLENGE_SECONDS = 300;
const refused = () => new ApiException(400, ACCESS_MESSAGES.passkeyRefused, 'passkeyRefused');

/** Keeps a challenge for an account or a sign-in flow, answered once within five minutes. */
async function keepChallenge(db: Queryable, challenge: string, owner: { userId?: string; flowId?: string }) {
  await db.query(
    `INSERT INTO passkey_challenges (challenge, user_id, flow_id, expires)
     VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
    [challenge, owner.userId ?? null, owner.flowId ?? null, CHALLENGE_SECONDS],
  );
}

/** Uses up the challenge the response answers, if it was handed to this owner and is still good. */
const claimChallenge =
  (db: Queryable, owner: { userId?: string; flowId?: string }) =>
  async (challenge: string): Promise<boolean> => {
    const { rows } = await db.query(
      `DELETE FROM passkey_challenges WHERE challenge = $1 AND expires > now()
         AND user_id IS NOT DISTINCT FROM $2::uuid AND flow_id IS NOT DISTINCT FROM $3::uuid RETURNING 1`,
      [challenge, owner.userId ?? null, owner.flowId ?? null],
    );
    return rows.length > 0;
  };

/** Options for the browser to make a passkey for the account (its existing ones excluded). */
export async function registrationOptions(
  db: Queryable,
  rp: RelyingParty,
  user: { userId: string; email: string; username: string },
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const { rows } = await db.query<{ credential_id: string; transports: string[] }>(
    'SELECT credential_id, transports FROM passkeys WHERE user_id = $1',
    [user.userId],
  );
  if (rows.length >= PASSKEY_LIMITS.perUser)
    throw new ApiException(400, ACCESS_MESSAGES.passkeyCount, 'tooManyPasskeys');
  const options = await generateRegistrationOptions({
    rpName: 'Palisade',
    rpID: rp.id,
    userName: user.email,
    userDisplayName: user.username,
    userID: Buffer.from(user.userId.replace(/-/g, ''), 'hex'),
    attestationType: 'none',
    excludeCredentials: rows.map((r) => ({ id: r.credential_id, transports: r.transports })),
    // Discoverable, so it can sign in without the email typed; verified, so it is two factors alone.
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  await keepChallenge(db, options.challenge, { userId: user.userId });
  return options;
}

/** Checks the browser's new credential and keeps it; resolves to its id. */
export async function addPasskey(
  db: Queryable,
  rp: RelyingParty,
  userId: string,
  name: string,
  response: RegistrationResponseJSON,
): Promise<string> {
  const result = await verifyRegistrationResponse({
    response,
    expectedChallenge: claimChallenge(db, { userId }),
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: true,
  }).catch(() => {
    throw refused();
  });
  if (!result.verified) throw refused();
  const { credential } = result.registrationInfo;
  const { rows } = await db.query<{ passkey_id: string }>(
    `INSERT INTO passkeys (user_id, credential_id, public_key, counter, transports, name)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING passkey_id`,
    [
      userId,
      credential.id,
      Buffer.from(credential.publicKey),
      credential.counter,
      credential.transports ?? [],
      name,
    ],
  );
  return rows[0].passkey_id;
}

/**
 * Options for a sign-in: any of the site's passkeys (in place of the password), or one of the
 * account's (the second step after its password).
 */
export async function authenticationOptions(
  db: Queryable,
  rp: RelyingParty,
  flowId: string,
  userId: string | null,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const { rows } = userId
    ? await db.query<{ credential_id: string; transports: string[] }>(
        'SELECT credential_id, transports FROM passkeys WHERE user_id = $1',
        [userId],
      )
    : { rows: [] };
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials: rows.map((r) => ({ id: r.credential_id, transports: r.transports })),
    userVerification: userId ? 'preferred' : 'required',
  });
  await keepChallenge(db, options.challenge, { flowId });
  return options;
}

/**
 * Checks a sign-in's assertion: resolves to the account it proves (a passkey of `userId` when
 * that is given). Alone, a passkey must have verified its user (a PIN, a fingerprint): two factors.
 */
export async function checkPasskey(
  db: Queryable,
  rp: RelyingParty,
  flowId: string,
  userId: string | null,
  response: AuthenticationResponseJSON,
): Promise<string> {
  const { rows } = await db.query<{
    passkey_id: string;
    user_id: string;
    credential_id: string;
    public_key: Buffer;
    counter: string;
    transports: string[];
  }>(
    `SELECT p.passkey_id, p.user_id, p.credential_id, p.public_key, p.counter, p.transports
       FROM passkeys p JOIN users u ON u.user_id = p.user_id AND NOT u.banned
      WHERE p.credential_id = $1`,
    [typeof response?.id === 'string' ? response.id : ''],
  );
  const key = rows[0];
  if (!key || (userId && key.user_id !== userId)) throw refused();
  const result = await verifyAuthenticationResponse({
    response,
    expectedChallenge: claimChallenge(db, { flowId }),
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: !userId,
    credential: {
      id: key.credential_id,
      publicKey: new Uint8Array(key.public_key),
      counter: Number(key.counter),
      transports: key.transports,
    },
  }).catch(() => {
    throw refused();
  });
  if (!result.verified) throw refused();
  await db.query('UPDATE passkeys SET counter = $2, last_used = now() WHERE passkey_id = $1', [
    key.passkey_id,
    result.authenticationInfo.newCounter,
  ]);
  return key.user_id;
}
