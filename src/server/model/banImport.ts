// An imported bans.txt (routes/banList.ts) is read and stored on a thread of its own
// (banImportThread.ts), at the least priority, with a database connection of its own: on the
// thread that answers requests, its reading, its statements' parameters and results, and the
// garbage they leave (some 300 MB of short-lived objects for 30,000 bans, collected in pauses
// during which no request moves) raised 100 consoles' p99 by a quarter while it ran.

import type { Db, DbOptions } from '../db/db.ts';
import { badRequest } from '../http/errors.ts';
import { startThread } from '../threads.ts';

export interface BanImport {
  owner: 'service' | 'group';
  ownerId: string;
  issuerId: string;
  /** The list as sent. */
  list: string;
  /** Expirations are read against this time (seconds since the epoch). */
  now: number;
}

/** What the thread answers: the players newly banned, or why nothing was stored. */
export type BanImportOutcome =
  | { type: 'stored'; players: string[] }
  | { type: 'refused'; code: 'noValidLines' | 'tooManyBans'; message: string; details: unknown }
  | { type: 'failed'; message: string };

export type BanImportJob = BanImport & { db: DbOptions };

/**
 * Reads and stores `job`'s list, BAN_IMPORT_MAX bans at most; the answer is the players newly
 * banned. A list with no valid line, or too many, is refused (400) with nothing stored.
 */
export async function importBanList(db: Db, job: BanImport): Promise<string[]> {
  const thread = startThread(new URL('./banImportThread.ts', import.meta.url), {
    ...job,
    db: db.options,
  } satisfies BanImportJob);
  const outcome = await new Promise<BanImportOutcome>((resolve, reject) => {
    thread.once('message', resolve);
    thread.once('error', reject);
    thread.once('exit', (code) => reject(new Error(`the import's thread ended early (${code})`)));
  });
  if (outcome.type === 'refused') throw badRequest(outcome.code, outcome.message, outcome.details);
  if (outcome.type === 'failed') throw new Error(`bans: the import failed: ${outcome.message}`);
  return outcome.players;
}
