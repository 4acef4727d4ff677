// The process of a bans.txt import (banImport.ts): reads the list it is sent, stores its bans a
// batch at a time and tidies after them, then answers the players newly banned and ends.

import { BanMsg, banListLines, banListReader } from '../../domain/bans.ts';
import { BAN_IMPORT_MAX } from '../../domain/limits.ts';
import { inBackground } from '../db/db.ts';
import { batchCost, GROUP_BANS, inBanBatches, SERVICE_BANS, storeImportedBans } from './ban.ts';
import type { BanImportJob, BanImportOutcome } from './banImport.ts';

async function run({ db, owner, ownerId, issuerId, list, now }: BanImportJob): Promise<BanImportOutcome> {
  const k = owner === 'service' ? SERVICE_BANS : GROUP_BANS;
  const reader = banListReader(now);
  await inBanBatches(banListLines(list), (lines, first) => {
    for (const [i, raw] of lines.entries()) reader.read(raw, first + i + 1);
  });
  const { bans, problems } = reader;
  if (bans.length === 0)
    return { type: 'refused', code: 'noValidLines', message: BanMsg.noValidLines, details: problems };
  if (bans.length > BAN_IMPORT_MAX)
    return {
      type: 'refused',
      code: 'tooManyBans',
      message: BanMsg.listTooLong(bans.length),
      details: { max: BAN_IMPORT_MAX },
    };
  // Set-based, a batch at a time: a list of 30,000 bans is a statement a batch, not 90,000. A
  // transaction a batch, not one for the list: one held open across the paced batches (40 s and
  // more) held back PostgreSQL's clean-up of every table (no row version newer than its start can
  // be removed), while the game servers update their rows all the time. An import cut short keeps
  // the batches it stored; the same list imported again completes it, the bans already held skipped.
  const players = await inBackground(db, async (conn) => {
    const stored: string[] = [];
    await inBanBatches(
      bans,
      async (batch) => {
        stored.push(...(await storeImportedBans(conn, k, ownerId, issuerId, batch)));
      },
      batchCost(conn),
    );
    // What autovacuum would do next to the rows just written (their visibility and the planner's
    // statistics), done here at the import's priority, and at autovacuum's pace: a VACUUM typed by
    // hand runs flat out, and for the 0.3 s it took, the consoles' p99 rose to 190 ms.
    await conn.exec("SET vacuum_cost_delay = '2ms'");
    await conn.exec(`VACUUM (ANALYZE) players, player_identifiers, ${k.table}`);
    return stored;
  });
  return { type: 'stored', players };
}

// The server gone, the import stops: the batches stored are kept, and the same list imported
// again completes it.
process.once('disconnect', () => process.exit(0));
process.once('message', async (job: BanImportJob) => {
  let outcome: BanImportOutcome;
  try {
    outcome = await run(job);
  } catch (e) {
    outcome = { type: 'failed', message: (e as Error).message };
  }
  process.send!(outcome, () => process.exit(0));
});
