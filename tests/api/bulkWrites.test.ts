// Bulk writes (SENTINEL-API §2.2) are a few set-based statements rather than a few statements per
// object (issue 11): what they answer and write must stay what one statement per object gave.
// Mixed bodies (creates, updates, the same id twice, a create then its update), the answer in the
// body's order, and all-or-nothing when any object is refused, whatever its place in the body.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let owner: string;
let moderator: string;
const players: string[] = [];
const dinos: string[] = [];
const island = () => t.demo.servers[0].serviceId;
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const future = (days: number) => Math.floor(Date.now() / 1000) + days * 86400;

beforeAll(async () => {
  t = await startTestServer();
  owner = (await signIn(t.base)).access_token;
  moderator = (await signIn(t.base, t.demo.moderator.email, 'palisade-demo')).access_token;
  const made = await t.server.db.query<{ id: string }>(
    `INSERT INTO players (name) SELECT 'Bulk ' || i FROM generate_series(1, 4) i RETURNING player_id AS id`,
  );
  players.push(...made.rows.map((r) => r.id));
  const d = await t.server.db.query<{ id: string }>(
    `INSERT INTO dinos (service_id, dino_number64, species, species_path)
     SELECT $1, i, 'Rex', '/Game/Rex' FROM generate_series(1, 3) i ORDER BY i RETURNING dino_id AS id`,
    [island()],
  );
  dinos.push(...d.rows.map((r) => r.id));
});
afterAll(() => t?.close());

const count = async (sql: string, params: unknown[] = []) =>
  (await t.server.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params)).rows[0].n;

describe('player notes in bulk', () => {
  const post = (body: unknown, token = owner) => call(t.base, token, 'POST', '/sentinel/playerNotes', body);

  it('creates and updates in one body, in the body order, keeping every edit of a note written twice', async () => {
    const first = await post({ noteId: uuid(1), playerId: players[0], content: 'First note here.' });
    expect(first.status).toBe(200);
    const r = await post([
      { playerId: players[1], content: 'A fresh note here.' },
      { noteId: uuid(1), content: 'First note, edited once.' },
      { noteId: uuid(2), playerId: players[2], content: 'Made with its id.' },
      { noteId: uuid(1), content: 'First note, edited twice.' },
      { noteId: uuid(2), content: 'Made, then edited.' },
    ]);
    expect(r.status).toBe(200);
    expect(r.body.created.map((n: { content: string }) => n.content)).toEqual([
      'A fresh note here.',
      'Made, then edited.',
    ]);
    expect(r.body.created[1].noteId).toBe(uuid(2));
    expect(r.body.created[1].edits.map((e: { previousContent: string }) => e.previousContent)).toEqual([
      'Made with its id.',
    ]);
    expect(r.body.updated.map((n: { noteId: string; content: string }) => [n.noteId, n.content])).toEqual([
      [uuid(1), 'First note, edited twice.'],
      [uuid(1), 'First note, edited twice.'],
      [uuid(2), 'Made, then edited.'],
    ]);
    expect(r.body.updated[0].edits.map((e: { previousContent: string }) => e.previousContent).sort()).toEqual(
      ['First note here.', 'First note, edited once.'],
    );
  });

  it('writes nothing when one object is refused, wherever it stands', async () => {
    const before = await count('player_notes');
    const bad = await post([
      { playerId: players[0], content: 'Would be written.' },
      { playerId: players[0], content: 'meh' },
    ]);
    expect([bad.status, bad.body.code, bad.body.details]).toEqual([400, 'validation', { field: 'content' }]);
    const foreign = await post(
      [
        { playerId: players[0], content: 'Would be written.' },
        { noteId: uuid(1), content: 'Not your note to edit.' },
      ],
      moderator,
    );
    expect([foreign.status, foreign.body.code]).toEqual([403, 'forbidden']);
    const unknownPlayer = await post([
      { playerId: players[0], content: 'Would be written.' },
      { playerId: uuid(99), content: 'Nobody to note.' },
    ]);
    expect([unknownPlayer.status, unknownPlayer.body.code]).toEqual([400, 'notFound']);
    expect(await count('player_notes')).toBe(before);
    expect((await call(t.base, owner, 'GET', `/sentinel/playerNotes/${uuid(1)}`)).body.content).toBe(
      'First note, edited twice.',
    );
  });
});

describe('server bans in bulk', () => {
  const post = (body: unknown, token = owner) => call(t.base, token, 'POST', '/sentinel/serviceBans', body);
  const ban = (player: string, extra: Record<string, unknown> = {}) => ({
    serviceId: island(),
    playerId: player,
    comments: 'griefing',
    ...extra,
  });

  it('creates and updates in one body, in the body order', async () => {
    const tomorrow = future(1);
    const r = await post([
      ban(players[0], { serviceBanId: uuid(11) }),
      ban(players[1], { expiration: future(3) }),
    ]);
    expect(r.status).toBe(200);
    expect(r.body.created.map((b: { playerId: string }) => b.playerId)).toEqual([players[0], players[1]]);
    expect(r.body.created[0].serviceBanId).toBe(uuid(11));
    const mixed = await post([
      ban(players[2]),
      { serviceBanId: uuid(11), comments: 'griefing, twice' },
      { serviceBanId: uuid(11), expiration: tomorrow },
    ]);
    expect(mixed.status).toBe(200);
    expect(mixed.body.created.map((b: { playerId: string }) => b.playerId)).toEqual([players[2]]);
    expect(mixed.body.updated).toHaveLength(2);
    expect(mixed.body.updated[0]).toMatchObject({ serviceBanId: uuid(11), comments: 'griefing, twice' });
    expect(mixed.body.updated[1].expiration).toBe(tomorrow);
  });

  it('refuses a second ban of one player, in the body or stored, and writes nothing', async () => {
    const before = await count('service_bans');
    const twice = await post([ban(players[3]), ban(players[3])]);
    expect([twice.status, twice.body.code]).toEqual([400, 'duplicate']);
    const stored = await post([ban(players[3]), ban(players[0])]);
    expect([stored.status, stored.body.code, stored.body.details.serviceBanId]).toEqual([
      400,
      'duplicate',
      uuid(11),
    ]);
    const foreign = await post([ban(players[3]), { serviceBanId: uuid(11), comments: 'x' }], moderator);
    // The moderator holds ControlServices on the demo servers.
    expect([foreign.status, foreign.body.updated[0].comments]).toEqual([200, 'x']);
    expect(await count('service_bans')).toBe(before + 1);
    const badComment = await post([
      { serviceBanId: uuid(11), comments: 'would be changed' },
      { serviceBanId: uuid(11), comments: '  ' },
    ]);
    expect([badComment.status, badComment.body.details]).toEqual([400, { field: 'comments' }]);
    const unknown = await post([ban(uuid(98))]);
    expect(unknown.status).toBe(404);
    expect(await count('service_bans')).toBe(before + 1);
    expect((await call(t.base, owner, 'GET', `/sentinel/serviceBans/${uuid(11)}`)).body.comments).toBe('x');
  });
});

describe('dinos in bulk', () => {
  const patch = (body: unknown, token = owner) => call(t.base, token, 'PATCH', '/sentinel/dinos', body);

  it('updates each in the body order, the last write of a dino winning', async () => {
    const r = await patch([
      { dinoId: dinos[2], dinoStatus: 'Frozen' },
      { dinoId: dinos[0], dinoGender: 'Female' },
      { dinoId: dinos[2], dinoStatus: 'Dead', dinoGender: 'Male' },
    ]);
    expect(r.status).toBe(200);
    expect(r.body.created).toEqual([]);
    expect(
      r.body.updated.map((d: { dinoId: string; dinoStatus: string; dinoGender: string }) => [
        d.dinoId,
        d.dinoStatus,
        d.dinoGender,
      ]),
    ).toEqual([
      [dinos[2], 'Dead', 'Male'],
      [dinos[0], 'Deployed', 'Female'],
      [dinos[2], 'Dead', 'Male'],
    ]);
  });

  it('writes nothing when one is unknown or refused', async () => {
    const unknown = await patch([
      { dinoId: dinos[1], dinoStatus: 'Dead' },
      { dinoId: uuid(77), dinoStatus: 'Dead' },
    ]);
    expect([unknown.status, unknown.body.code]).toEqual([404, 'objectNotFound']);
    const bad = await patch([
      { dinoId: dinos[1], dinoStatus: 'Dead' },
      { dinoId: dinos[0], dinoStatus: 'Asleep' },
    ]);
    expect([bad.status, bad.body.code]).toEqual([400, 'validation']);
    expect((await call(t.base, owner, 'GET', `/sentinel/dinos/${dinos[1]}`)).body.dinoStatus).toBe(
      'Deployed',
    );
  });
});

describe('groups in bulk (a class path)', () => {
  const post = (body: unknown) => call(t.base, owner, 'POST', '/sentinel/groups', body);

  it('creates and updates in one body, in the body order', async () => {
    const r = await post([{ groupId: uuid(21), name: 'Bulk One' }, { name: 'Bulk Two' }]);
    expect(r.status).toBe(200);
    expect(r.body.created.map((g: { name: string }) => g.name)).toEqual(['Bulk One', 'Bulk Two']);
    const mixed = await post([
      { name: 'Bulk Three' },
      { groupId: uuid(21), name: 'Bulk One, renamed' },
      { groupId: uuid(22), name: 'Bulk Four' },
      { groupId: uuid(22), name: 'Bulk Four, renamed' },
    ]);
    expect(mixed.status).toBe(200);
    expect(mixed.body.created.map((g: { name: string }) => g.name)).toEqual([
      'Bulk Three',
      'Bulk Four, renamed',
    ]);
    expect(mixed.body.updated.map((g: { groupId: string; name: string }) => [g.groupId, g.name])).toEqual([
      [uuid(21), 'Bulk One, renamed'],
      [uuid(22), 'Bulk Four, renamed'],
    ]);
  });

  it('writes nothing when one object is refused', async () => {
    const before = await count('groups');
    const r = await post([{ name: 'Would Be' }, { name: '' }]);
    expect(r.status).toBe(400);
    expect(await count('groups')).toBe(before);
  });
});

describe('bucket values in bulk (upserts on bucket, player and key)', () => {
  it('updates a stored key and a key written earlier in the same body, in the body order', async () => {
    const bucketId = (await call(t.base, owner, 'POST', '/sentinel/buckets', { name: 'Bulk Bucket' })).body
      .created[0].bucketId;
    const post = (body: unknown) => call(t.base, owner, 'POST', '/sentinel/bucketValues', body);
    expect((await post({ bucketId, key: 'stored', value: 'one' })).status).toBe(200);
    const r = await post([
      { bucketId, key: 'fresh', value: 'a' },
      { bucketId, key: 'STORED', value: 'two' },
      { bucketId, key: 'Fresh', value: 'b' },
      { bucketId, key: 'stored', value: 'three' },
      { bucketId, key: 'other', value: 'c', playerId: players[0] },
    ]);
    expect(r.status).toBe(200);
    expect(r.body.created.map((v: { key: string; value: string }) => [v.key, v.value])).toEqual([
      ['fresh', 'b'],
      ['other', 'c'],
    ]);
    expect(r.body.updated.map((v: { key: string; value: string }) => [v.key, v.value])).toEqual([
      ['stored', 'three'],
      ['fresh', 'b'],
      ['stored', 'three'],
    ]);
    expect(await count('bucket_values WHERE bucket_id = $1', [bucketId])).toBe(3);
  });
});
