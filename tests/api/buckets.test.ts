// /sentinel/buckets and /sentinel/bucketValues: owner-unique names, value upserts on
// (bucket, player, key) case-insensitively, the spec's value messages, realtime notices.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, signIn, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let owner: string;
let bucketId: string;
const published: { event: string; channels: string[]; data: unknown }[] = [];

beforeAll(async () => {
  t = await startTestServer();
  owner = (await signIn(t.base)).access_token;
  const publish = t.server.publisher.publish.bind(t.server.publisher);
  t.server.publisher.publish = async (channels, event, data, except) => {
    published.push({ channels, event, data });
    return publish(channels, event, data, except);
  };
});
afterAll(() => t?.close());

it('creates, renames and refuses a duplicate bucket name', async () => {
  const made = await call(t.base, owner, 'POST', '/sentinel/buckets', { name: 'Economy' });
  bucketId = made.body.created[0].bucketId;
  expect(made.body.created[0]).toMatchObject({
    name: 'Economy',
    usernameFull: `Demo Admin#${t.demo.userId.slice(0, 8)}`,
  });
  expect(published.find((p) => p.event === 'bucketsUpdated')).toMatchObject({
    channels: [`private-users.${t.demo.userId}`],
    data: bucketId,
  });
  expect((await call(t.base, owner, 'POST', '/sentinel/buckets', { name: 'Economy' })).body.code).toBe(
    'duplicate',
  );
  expect((await call(t.base, owner, 'POST', '/sentinel/buckets', { name: ' ' })).body.code).toBe('emptyName');
});

it('upserts values by key, case-insensitively, per player', async () => {
  const { rows } = await t.server.db.query<{ id: string }>(
    `INSERT INTO players (name) VALUES ('Ann') RETURNING player_id AS id`,
  );
  const player = rows[0].id;
  const first = await call(t.base, owner, 'POST', '/sentinel/bucketValues', [
    { bucketId, key: 'Coins', value: '10' },
    { bucketId, key: 'coins', value: '5', playerId: player },
  ]);
  expect(first.body.created).toHaveLength(2);
  const again = await call(t.base, owner, 'POST', '/sentinel/bucketValues', {
    bucketId,
    key: 'COINS',
    value: '20',
  });
  expect(again.body).toMatchObject({ created: [], updated: [{ key: 'Coins', value: '20', playerId: null }] });
  const list = await call(
    t.base,
    owner,
    'GET',
    `/sentinel/bucketValues?bucketId=${bucketId}&sortedColumn=playerName`,
  );
  expect(
    list.body.results.map((v: { value: string; playerName: string | null }) => [v.value, v.playerName]),
  ).toEqual([
    ['5', 'Ann'],
    ['20', null],
  ]);
  expect(
    published.some(
      (p) => p.event === 'valueUpdated' && p.channels[0] === `private-sentinel.buckets.${bucketId}`,
    ),
  ).toBe(true);
});

it('refuses values with the spec messages', async () => {
  const cases: [unknown, string, string][] = [
    [{ bucketId, key: ' ', value: 'x' }, 'emptyKey', 'A key is required.'],
    [{ bucketId, key: 'k', value: '' }, 'emptyValue', 'A value is required.'],
    [
      { bucketId, key: 'k', value: 'x', playerId: 'bob' },
      'badPlayer',
      'The player id must look like a product player id.',
    ],
    [
      { bucketId, key: 'k', value: 'x', playerId: '00000000-0000-4000-8000-000000000000' },
      'notFound',
      'A referenced object does not exist.',
    ],
    [{ key: 'k', value: 'x' }, 'missingProperties', 'Missing property bucketId.'],
  ];
  for (const [body, code, message] of cases) {
    const r = await call(t.base, owner, 'POST', '/sentinel/bucketValues', body);
    expect({ status: r.status, code: r.body.code, message: r.body.message }).toEqual({
      status: 400,
      code,
      message,
    });
  }
});

it('deleting a bucket deletes its values', async () => {
  expect((await call(t.base, owner, 'DELETE', '/sentinel/buckets', [{ bucketId }])).status).toBe(204);
  const { rows } = await t.server.db.query('SELECT 1 FROM bucket_values WHERE bucket_id = $1', [bucketId]);
  expect(rows).toHaveLength(0);
});
