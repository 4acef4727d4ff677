// /sentinel/buckets and /sentinel/bucketValues: owner-unique names, value upserts on
// (bucket, player, key) case-insensitively, the spec's value messages, realtime notices.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Perm } from '../../src/domain/permissions.ts';
import { call, signIn, signInStranger, startTestServer, type TestServer } from './helpers.ts';

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
  // Unique per owner in any case; another owner may use the name.
  for (const name of ['Economy', 'ECONOMY ']) {
    const again = await call(t.base, owner, 'POST', '/sentinel/buckets', { name });
    expect({ status: again.status, code: again.body.code }).toEqual({ status: 400, code: 'duplicate' });
  }
  const stranger = await signInStranger(t);
  expect((await call(t.base, stranger, 'POST', '/sentinel/buckets', { name: 'Economy' })).status).toBe(200);
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

describe('a bucket shared through a group follows the member’s bits and the group’s mask (SPEC §6)', () => {
  const ALL = 16383;
  let mod: string;
  let shared: string;
  let frontier: string;
  let modsOwn: string;
  /** The moderator's bits in the demo group, and what the group allows on the bucket. */
  const setBits = async (member: number, mask = ALL) => {
    await t.server.db.query('UPDATE group_users SET permissions = $1 WHERE group_id = $2 AND user_id = $3', [
      member,
      t.demo.groupId,
      t.demo.moderator.userId,
    ]);
    await t.server.db.query(
      'UPDATE group_buckets SET permissions_mask = $1 WHERE group_id = $2 AND bucket_id = $3',
      [mask, t.demo.groupId, shared],
    );
  };
  const as = (method: string, path: string, body?: unknown) => call(t.base, mod, method, path, body);
  const sees = async () => {
    const list = await as('GET', '/sentinel/buckets');
    return list.body.results.some((b: { bucketId: string }) => b.bucketId === shared);
  };
  const writeValue = async () =>
    (await as('POST', '/sentinel/bucketValues', { bucketId: shared, key: 'gold', value: '1' })).status;
  const rename = async (name: string) => (await as('PATCH', `/sentinel/buckets/${shared}`, { name })).status;
  const bitsOnShared = async () => (await as('GET', `/sentinel/buckets/${shared}`)).body.permissions;
  const addTo = async (groupId: string) => {
    const r = await as('POST', '/sentinel/groupBuckets', { groupId, bucketId: shared, permissionsMask: ALL });
    if (r.status === 200) {
      // The link allows no more than the moderator holds on the bucket, whatever was asked.
      expect(r.body.created[0].permissionsMask).toBe(await bitsOnShared());
      await as('DELETE', `/sentinel/groupBuckets/${r.body.created[0].groupBucketId}`);
    }
    return r.status;
  };

  beforeAll(async () => {
    mod = (await signIn(t.base, t.demo.moderator.email, t.demo.moderator.password)).access_token;
    shared = (await call(t.base, owner, 'POST', '/sentinel/buckets', { name: 'Shared economy' })).body
      .created[0].bucketId;
    await call(t.base, owner, 'POST', '/sentinel/bucketValues', {
      bucketId: shared,
      key: 'motd',
      value: 'hi',
    });
    const link = await call(t.base, owner, 'POST', '/sentinel/groupBuckets', {
      groupId: t.demo.groupId,
      bucketId: shared,
      permissionsMask: ALL,
    });
    expect(link.status).toBe(200);
    // The owner's second group, where the moderator is a plain member; and the moderator's own.
    frontier = (await call(t.base, owner, 'POST', '/sentinel/groups', { name: 'Frontier' })).body.created[0]
      .groupId;
    await call(t.base, owner, 'POST', '/sentinel/groupUsers', {
      groupId: frontier,
      userId: t.demo.moderator.userId,
      permissions: Perm.Membership,
    });
    modsOwn = (await as('POST', '/sentinel/groups', { name: 'Moderators' })).body.created[0].groupId;
  });

  it('membership reads the bucket and its values, and changes nothing', async () => {
    await setBits(Perm.Membership);
    expect(await sees()).toBe(true);
    expect((await as('GET', `/sentinel/buckets/${shared}`)).body).toMatchObject({
      name: 'Shared economy',
      permissions: Perm.Membership,
    });
    const values = await as('GET', `/sentinel/bucketValues?bucketId=${shared}`);
    expect(values.body.results.map((v: { key: string }) => v.key)).toEqual(['motd']);
    expect(await writeValue()).toBe(403);
    expect(await rename('Mine now')).toBe(403);
    expect((await as('DELETE', `/sentinel/buckets/${shared}`)).status).toBe(403);
    expect(await addTo(modsOwn)).toBe(403);
  });

  it('edit buckets writes, edits and deletes values and renames, only where the group allows it too', async () => {
    await setBits(Perm.Membership | Perm.EditBuckets);
    expect(await writeValue()).toBe(200);
    const gold = (await as('GET', `/sentinel/bucketValues?bucketId=${shared}&key=gold`)).body.results[0];
    expect(
      (await as('PATCH', `/sentinel/bucketValues/${gold.bucketValueId}`, { value: '2' })).body.value,
    ).toBe('2');
    expect((await as('DELETE', `/sentinel/bucketValues/${gold.bucketValueId}`)).status).toBe(204);
    expect(await rename('Shared bank')).toBe(200);
    expect(await addTo(modsOwn)).toBe(403);
    // The member holds edit buckets, the group's link does not allow it: both are needed.
    await setBits(Perm.Membership | Perm.EditBuckets, Perm.Membership);
    expect(await writeValue()).toBe(403);
    expect(await rename('Shared vault')).toBe(403);
  });

  it('share buckets adds it to a group where the member manages buckets, and only there', async () => {
    await setBits(Perm.Membership | Perm.ShareBuckets);
    expect(await addTo(modsOwn)).toBe(200);
    // Nor can the link be widened afterwards.
    const link = (
      await as('POST', '/sentinel/groupBuckets', { groupId: modsOwn, bucketId: shared, permissionsMask: 1 })
    ).body.created[0].groupBucketId;
    expect((await as('PATCH', `/sentinel/groupBuckets/${link}`, { permissionsMask: ALL })).status).toBe(403);
    expect((await as('DELETE', `/sentinel/groupBuckets/${link}`)).status).toBe(204);
    expect(await addTo(frontier)).toBe(403);
    await t.server.db.query('UPDATE group_users SET permissions = $1 WHERE group_id = $2 AND user_id = $3', [
      Perm.Membership | Perm.ManageBuckets,
      frontier,
      t.demo.moderator.userId,
    ]);
    expect(await addTo(frontier)).toBe(200);
    // Managing the target group is not enough without share buckets on the bucket.
    await setBits(Perm.Membership | Perm.ManageBuckets);
    expect(await addTo(frontier)).toBe(403);
    expect(await writeValue()).toBe(403);
  });

  it('outside the group the bucket is not there; with edit buckets a member deletes it and its values', async () => {
    await t.server.db.query('DELETE FROM group_users WHERE group_id = $1 AND user_id = $2', [
      t.demo.groupId,
      t.demo.moderator.userId,
    ]);
    expect(await sees()).toBe(false);
    expect((await as('GET', `/sentinel/buckets/${shared}`)).status).toBe(404);
    expect((await as('GET', `/sentinel/bucketValues?bucketId=${shared}`)).status).toBe(403);
    await t.server.db.query('INSERT INTO group_users (group_id, user_id, permissions) VALUES ($1, $2, $3)', [
      t.demo.groupId,
      t.demo.moderator.userId,
      Perm.Membership | Perm.EditBuckets,
    ]);
    await setBits(Perm.Membership | Perm.EditBuckets);
    expect((await as('DELETE', `/sentinel/buckets/${shared}`)).status).toBe(204);
    const { rows } = await t.server.db.query('SELECT 1 FROM bucket_values WHERE bucket_id = $1', [shared]);
    expect(rows).toHaveLength(0);
  });
});
