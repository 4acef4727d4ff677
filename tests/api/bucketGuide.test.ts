// The Guide tab's examples (src/domain/buckets.ts), each run as a script in the real engine (the
// QuickJS sandbox) against a real bucket: each changes, reads or deletes the value it says, for
// the whole bucket or for the event's player only, and the bucket's channel hears of each write.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { bucketGuide, GUIDE_KEYS, GUIDE_MOTD, type GuideExample } from '../../src/domain/buckets.ts';
import { call, signIn, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let owner: string;
let serviceId: string;
let bucketId: string;
let ann: string;
let bob: string;
let examples: GuideExample[];
const published: { event: string; channels: string[] }[] = [];

beforeAll(async () => {
  t = await startTestServer({ scripts: { manualCron: true } });
  owner = (await signIn(t.base)).access_token;
  serviceId = t.demo.servers[0].serviceId;
  bucketId = (await call(t.base, owner, 'POST', '/sentinel/buckets', { name: 'Guide bucket' })).body
    .created[0].bucketId;
  const players = await t.server.db.query<{ id: string }>(
    `INSERT INTO players (name) VALUES ('Ann'), ('Bob') RETURNING player_id AS id`,
  );
  [ann, bob] = players.rows.map((r) => r.id);
  const publish = t.server.publisher.publish.bind(t.server.publisher);
  t.server.publisher.publish = async (channels, event, data, except) => {
    published.push({ channels, event });
    return publish(channels, event, data, except);
  };
  // Each example as a webhook of its own, attached to a demo server.
  examples = bucketGuide(bucketId);
  for (const [i, e] of examples.entries()) {
    const made = await call(t.base, owner, 'POST', '/sentinel/scripts', {
      name: `Guide: ${e.title}`,
      events: [
        { language: 'JavaScript', context: 'webhook', keyword: `guide${i}`, arguments: [], code: e.code },
      ],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const attached = await call(t.base, owner, 'POST', '/sentinel/serviceScripts', {
      serviceId,
      scriptId: made.body.created[0].scriptId,
      parameterValues: {},
    });
    expect(attached.status).toBe(200);
  }
}, 60_000);
afterAll(() => t?.close());

/** Runs the example of that scope and operation, for a player's event when given; its output. */
async function run(scope: GuideExample['scope'], operation: GuideExample['operation'], playerId?: string) {
  const i = examples.findIndex((e) => e.scope === scope && e.operation === operation);
  const before = published.length;
  const [record] = await t.server.scripts.trigger(serviceId, {
    context: 'webhook',
    keyword: `guide${i}`,
    values: playerId ? { playerId, playerName: 'someone' } : {},
  });
  expect(record, `${examples[i].title} ran`).toBeDefined();
  expect({ outcome: record.outcome, error: record.error }).toEqual({ outcome: 'success', error: null });
  const wrote = published
    .slice(before)
    .some((p) => p.event === 'valueUpdated' && p.channels[0] === `private-sentinel.buckets.${bucketId}`);
  return { output: record.output, wrote };
}

/** The stored value of a key, global or a player's. */
async function stored(key: string, playerId: string | null = null): Promise<string | null> {
  const { rows } = await t.server.db.query<{ value: string }>(
    `SELECT value FROM bucket_values WHERE bucket_id = $1 AND lower(key) = lower($2)
        AND player_id IS NOT DISTINCT FROM $3::uuid`,
    [bucketId, key, playerId],
  );
  return rows[0]?.value ?? null;
}

it('gives six examples for this bucket: read, set and delete, global and per player', () => {
  expect(examples.map((e) => `${e.scope} ${e.operation}`)).toEqual([
    'global read',
    'global set',
    'global delete',
    'player read',
    'player set',
    'player delete',
  ]);
  for (const e of examples) expect(e.code).toContain(JSON.stringify(bucketId));
});

it('sets, reads and deletes a global key', async () => {
  expect(await run('global', 'read')).toEqual({ output: 'No message of the day yet.', wrote: false });
  expect((await run('global', 'set')).wrote).toBe(true);
  expect(await stored(GUIDE_KEYS.global)).toBe(GUIDE_MOTD);
  expect((await run('global', 'read')).output).toBe(GUIDE_MOTD);
  expect((await run('global', 'delete')).wrote).toBe(true);
  expect(await stored(GUIDE_KEYS.global)).toBeNull();
});

it("sets, reads and deletes the event's player's key, leaving other players' and the global value", async () => {
  await call(t.base, owner, 'POST', '/sentinel/bucketValues', [
    { bucketId, key: GUIDE_KEYS.player, value: '40', playerId: bob },
    { bucketId, key: GUIDE_KEYS.player, value: 'global' },
  ]);
  expect((await run('player', 'read', ann)).output).toBe('0');
  await run('player', 'set', ann);
  expect((await run('player', 'set', ann)).wrote).toBe(true);
  expect(await stored(GUIDE_KEYS.player, ann)).toBe('2');
  expect((await run('player', 'read', ann)).output).toBe('2');
  expect((await run('player', 'read', bob)).output).toBe('40');
  expect((await run('player', 'delete', ann)).wrote).toBe(true);
  expect(await stored(GUIDE_KEYS.player, ann)).toBeNull();
  expect(await stored(GUIDE_KEYS.player, bob)).toBe('40');
  expect(await stored(GUIDE_KEYS.player)).toBe('global');
});
