// A script's run acts with the rights of whoever attached it (docs/workshop.md "Whose rights a
// script runs with"), checked here as a property: for random group grants of a server and a
// bucket to the attacher, a run's action reaches the game only when the attacher controls the
// server, and writes the bucket only when they may edit it; and it does when they may, so the
// check cannot pass by refusing everything.

import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Perm } from '../../src/domain/permissions.ts';
import type { Action, ActionType } from '../../src/domain/scripts/index.ts';
import type { ServerContext } from '../../src/server/context.ts';
import { createReadCache, type ReadCache } from '../../src/server/model/readCache.ts';
import { perform, type RunEnv } from '../../src/server/scripts/perform.ts';
import { startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let actorId: string;
let groupId: string;
let bucketId: string;
const sent: unknown[] = [];

beforeAll(async () => {
  t = await startTestServer();
  const db = t.server.db;
  const one = async (sql: string, params: unknown[]) =>
    (await db.query<{ id: string }>(sql, params)).rows[0]!.id;
  actorId = await one(
    `INSERT INTO users (username, email, password_hash) VALUES ('Attacher', 'attacher@example.com', 'x')
     RETURNING user_id AS id`,
    [],
  );
  groupId = await one(`INSERT INTO groups (user_id, name) VALUES ($1, 'Grants') RETURNING group_id AS id`, [
    t.demo.userId,
  ]);
  bucketId = await one(
    `INSERT INTO buckets (user_id, name) VALUES ($1, 'Owner data') RETURNING bucket_id AS id`,
    [t.demo.userId],
  );
  await db.query('INSERT INTO group_users (group_id, user_id, permissions) VALUES ($1, $2, 1)', [
    groupId,
    actorId,
  ]);
  await db.query('INSERT INTO group_services (group_id, service_id, permissions_mask) VALUES ($1, $2, 1)', [
    groupId,
    t.demo.servers[0].serviceId,
  ]);
  await db.query('INSERT INTO group_buckets (group_id, bucket_id, permissions_mask) VALUES ($1, $2, 1)', [
    groupId,
    bucketId,
  ]);
});
afterAll(() => t?.close());

/**
 * The run's surroundings: the real database and publisher; the game, a recorder of what is sent.
 * Nothing is kept between runs (a cache of its own each) unless `reads` is given: the property's
 * grants are written straight to the database, not by a write request, which is what makes the
 * server forget what it read.
 */
function runEnv(reads: ReadCache = createReadCache()): RunEnv {
  const ctx = {
    db: t.server.db,
    reads,
    publisher: t.server.publisher,
    config: t.server.config,
    links: {
      sendCommand: async (_serviceId: string, command: unknown) => {
        sent.push(command);
        return null;
      },
    },
  } as unknown as ServerContext;
  return {
    ctx,
    serviceId: t.demo.servers[0].serviceId,
    actorId,
    scriptName: 'Property',
    http: {},
    subroutine: async () => {},
  };
}

const GAME_ACTIONS: Action[] = [
  { type: 'sendChat', options: { message: 'hello' } },
  { type: 'kickPlayer', options: { playerId: `0002${'cd'.repeat(14)}` } },
  { type: 'runAdminCommand', options: { adminCommand: 'saveworld' } },
];
const BITS: number[] = [
  Perm.ControlServices,
  Perm.EditBuckets,
  Perm.ManageBuckets,
  Perm.ManageScripts,
  Perm.EditServices,
];
/** A grant: membership and any of the bits that could matter. */
const mask = fc.subarray(BITS).map((bits) => bits.reduce((m: number, b) => m | b, Perm.Membership));

it('takes an action only with the attacher’s rights on the server and the bucket', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        member: mask,
        service: mask,
        bucket: mask,
        action: fc.constantFrom<Action | 'bucket'>(...GAME_ACTIONS, 'bucket'),
      }),
      async ({ member, service, bucket, action }) => {
        const db = t.server.db;
        await db.query('UPDATE group_users SET permissions = $2 WHERE group_id = $1', [groupId, member]);
        await db.query('UPDATE group_services SET permissions_mask = $2 WHERE group_id = $1', [
          groupId,
          service,
        ]);
        await db.query('UPDATE group_buckets SET permissions_mask = $2 WHERE group_id = $1', [
          groupId,
          bucket,
        ]);
        await db.query('DELETE FROM bucket_values WHERE bucket_id = $1', [bucketId]);
        sent.length = 0;
        const taken: Action =
          action === 'bucket'
            ? { type: 'setBucketValue' as ActionType, options: { bucketId, key: 'k', value: 'v' } }
            : action;
        const outcome = await perform(runEnv(), taken).then(
          () => 'taken',
          (e: Error) => e.message,
        );
        if (action === 'bucket') {
          const may = (member & bucket & Perm.EditBuckets) !== 0;
          const { rows } = await db.query('SELECT 1 FROM bucket_values WHERE bucket_id = $1', [bucketId]);
          expect({ may, written: rows.length === 1, outcome }).toEqual({
            may,
            written: may,
            outcome: may ? 'taken' : `Whoever attached the script cannot change bucket ${bucketId}.`,
          });
        } else {
          const may = (member & service & Perm.ControlServices) !== 0;
          expect({ may, sent: sent.length === 1 }).toEqual({ may, sent: may });
          if (!may)
            expect(outcome).toBe(
              'Whoever attached the script cannot control this server, so it takes no game action.',
            );
        }
      },
    ),
    { numRuns: 40 },
  );
});

it('keeps whether the attacher controls the server until the next write, then asks again', async () => {
  const db = t.server.db;
  const grant = async (bits: number) => {
    await db.query('UPDATE group_users SET permissions = $2 WHERE group_id = $1', [groupId, bits]);
    await db.query('UPDATE group_services SET permissions_mask = $2 WHERE group_id = $1', [groupId, bits]);
  };
  const reads = createReadCache();
  const chat: Action = { type: 'sendChat', options: { message: 'hello' } };
  const outcome = () =>
    perform(runEnv(reads), chat).then(
      () => 'taken',
      (e: Error) => e.message,
    );
  await grant(Perm.Membership | Perm.ControlServices);
  expect(await outcome()).toBe('taken');
  await grant(Perm.Membership);
  // Kept: a run a thousand times a second does not ask the database each time.
  expect(await outcome()).toBe('taken');
  // What a write request does as it ends (http/router.ts): the next run asks again.
  reads.invalidate();
  expect(await outcome()).toBe(
    'Whoever attached the script cannot control this server, so it takes no game action.',
  );
});
