// The console's registered OAuth application, present in every database the server opens.

import type { Db } from '../db/db.ts';

/** The console's client id, served to it in /config.json. */
export const CONSOLE_APP_ID = '6f1d7c2a-3b8e-4d5f-9a10-b2c3d4e5f601';

/** What the console requests at sign-in (SPEC §6). */
export const CONSOLE_SCOPES = ['common', 'sentinel:read', 'sentinel:write', 'users:read', 'users.billing'];

export async function ensureConsoleApplication(db: Db, publicUrl: string, rateLimit: number): Promise<void> {
  // Loopback addresses are allowed by the RFC 8252 rule in login.ts; a public origin is listed.
  await db.query(
    `INSERT INTO applications (application_id, name, website, callbacks, scopes, rate_limit)
     VALUES ($1, 'Palisade', $2, $3, $4, $5)
     ON CONFLICT (application_id) DO UPDATE
       SET website = EXCLUDED.website, scopes = EXCLUDED.scopes, rate_limit = EXCLUDED.rate_limit,
           callbacks = (SELECT array_agg(DISTINCT c) FROM unnest(applications.callbacks || EXCLUDED.callbacks) c)`,
    [CONSOLE_APP_ID, publicUrl, [`${publicUrl}/oauth`], CONSOLE_SCOPES, rateLimit],
  );
}
