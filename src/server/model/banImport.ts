// An imported bans.txt (routes/banList.ts) is read and stored in a process of its own
// (banImportProcess.ts), at the least priority, with a database connection of its own, not on the
// thread that answers requests: there its reading, its statements' parameters and results, and
// their garbage (some 300 MB of short-lived objects for 30,000 bans, collected in pauses during
// which no request moves) were the consoles' requests' to wait behind. Not a thread: a thread
// lowers its own priority only, and the collector's helpers it shares with the server's thread
// ran 1.2 s an import at the usual one. So, while an import stores, the server's process uses no
// more processor time at the usual priority than without one.

import type { Db, DbOptions } from '../db/db.ts';
import { badRequest } from '../http/errors.ts';
import { startLowProcess } from '../offThread.ts';
import { createFairRunner } from '../scripts/fairRunner.ts';

export interface BanImport {
  owner: 'service' | 'group';
  ownerId: string;
  issuerId: string;
  /** The list as sent. */
  list: string;
  /** Expirations are read against this time (seconds since the epoch). */
  now: number;
}

/** What the process answers: the players newly banned, or why nothing was stored. */
export type BanImportOutcome =
  | { type: 'stored'; players: string[] }
  | { type: 'refused'; code: 'noValidLines' | 'tooManyBans'; message: string; details: unknown }
  | { type: 'failed'; message: string };

export type BanImportJob = BanImport & { db: DbOptions };

/**
 * Imports under way in this server process at once, at most, and one per account: each is a
 * process of some 100 MB for most of a minute, and a flood of imports from one account, which the
 * rate limit allows by the hundred, would otherwise be as many processes. More wait their turn, an
 * account's behind its own (scripts/fairRunner.ts).
 */
const IMPORTS_AT_ONCE = 2;
const imports = createFairRunner({ total: IMPORTS_AT_ONCE, perOwner: 1 });

/**
 * Reads and stores `job`'s list, BAN_IMPORT_MAX bans at most; the answer is the players newly
 * banned. A list with no valid line, or too many, is refused (400) with nothing stored.
 */
export function importBanList(db: Db, job: BanImport): Promise<string[]> {
  return new Promise((resolve, reject) =>
    imports.add(job.issuerId, () => importNow(db, job).then(resolve, reject)),
  );
}

async function importNow(db: Db, job: BanImport): Promise<string[]> {
  const child = startLowProcess(new URL('./banImportProcess.ts', import.meta.url));
  const outcome = await new Promise<BanImportOutcome>((resolve, reject) => {
    child.once('message', (m) => resolve(m as BanImportOutcome));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the import's process ended early (${code})`)));
    child.send({ ...job, db: db.options } satisfies BanImportJob);
  });
  if (outcome.type === 'refused') throw badRequest(outcome.code, outcome.message, outcome.details);
  if (outcome.type === 'failed') throw new Error(`bans: the import failed: ${outcome.message}`);
  return outcome.players;
}
