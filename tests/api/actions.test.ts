// Dino and survivor actions that reach the game (locate, edit, restore, giveItem, giveDino): who may
// send them, how payloads are refused, 412 while the server is offline, and the result arriving
// as a realtime event once the game answers over the link.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { call, DEMO, signIn, startTestServer, type TestServer, until } from './helpers.ts';

let t: TestServer;
let owner: string;
let moderator: string;
const ids: Record<string, string> = {};
const published: { channels: string[]; event: string; data: unknown }[] = [];
let mod: WebSocket;
const commands: Record<string, unknown>[] = [];

/** A game server that answers commands: locate finds, editDino fails, the rest succeed. */
async function connectGame(accessKey: string): Promise<WebSocket> {
  const ws = new WebSocket(`${t.server.url.replace('http', 'ws')}/v4/sentinel/link`);
  await new Promise((r) => ws.once('open', r));
  const welcomed = new Promise<void>((resolve) =>
    ws.on('message', (data) => {
      const f = JSON.parse(data.toString());
      if (f.type === 'welcome') resolve();
      if (f.type !== 'command') return;
      commands.push(f.command);
      const reply =
        f.command.type === 'locate'
          ? { ok: true, result: { found: true, x: 1, y: 2, z: 3, lat: 50.5, lon: 40.1 } }
          : f.command.type === 'editDino'
            ? { ok: false, error: 'The dino is not loaded.' }
            : { ok: true, result: null };
      ws.send(JSON.stringify({ type: 'commandResult', seq: f.seq, ...reply }));
    }),
  );
  ws.send(JSON.stringify({ type: 'hello', accessKey, protocol: 1 }));
  await welcomed;
  return ws;
}

beforeAll(async () => {
  t = await startTestServer();
  const db = t.server.db;
  const publish = t.server.publisher.publish.bind(t.server.publisher);
  t.server.publisher.publish = async (channels, event, data, except) => {
    published.push({ channels, event, data });
    return publish(channels, event, data, except);
  };
  const [island, , aberration] = t.demo.servers.map((s) => s.serviceId);
  const one = async (sql: string, params: unknown[]) =>
    (await db.query<{ id: string }>(sql, params)).rows[0].id;
  ids.player = await one(`INSERT INTO players (name) VALUES ('Rex Hunter') RETURNING player_id AS id`, []);
  ids.bob = await one(
    `INSERT INTO characters (service_id, player_id, specimen_id, name) VALUES ($1, $2, 777, 'Bob') RETURNING character_id AS id`,
    [island, ids.player],
  );
  ids.far = await one(
    `INSERT INTO characters (service_id, player_id, specimen_id, name) VALUES ($1, $2, 778, 'Far') RETURNING character_id AS id`,
    [aberration, ids.player],
  );
  ids.alive = await one(
    `INSERT INTO dinos (service_id, dino_number64, species, species_path) VALUES ($1, 4294967298, 'Rex', '/Game/Rex')
     RETURNING dino_id AS id`,
    [island],
  );
  ids.dead = await one(
    `INSERT INTO dinos (service_id, dino_number64, species, species_path, status, restore_data)
     VALUES ($1, 5, 'Raptor', '/Game/Raptor', 'Dead', '{"cryo":1}') RETURNING dino_id AS id`,
    [island],
  );
  ids.hidden = await one(
    `INSERT INTO dinos (service_id, dino_number64, species, species_path) VALUES ($1, 6, 'Dodo', '/Game/Dodo')
     RETURNING dino_id AS id`,
    [aberration],
  );
  [owner, moderator] = await Promise.all([
    signIn(t.base).then((x) => x.access_token),
    signIn(t.base, t.demo.moderator.email, DEMO.password).then((x) => x.access_token),
  ]);
});
afterAll(async () => {
  mod?.close();
  await t?.close();
});

describe('before the game server connects', () => {
  it('answers 412 serviceNotConnected', async () => {
    const r = await call(t.base, owner, 'POST', `/sentinel/dinos/${ids.alive}/locate`);
    expect(r.status).toBe(412);
    expect(r.body).toMatchObject({
      code: 'serviceNotConnected',
      message: expect.stringContaining('disconnected'),
    });
  });
});

describe('refusals', () => {
  it('names malformed ids, unknown or invisible targets, and missing rights', async () => {
    expect((await call(t.base, owner, 'POST', '/sentinel/dinos/nope/locate')).body.code).toBe(
      'invalidDinoId',
    );
    expect((await call(t.base, owner, 'POST', '/sentinel/characters/nope/locate')).body.code).toBe(
      'invalidCharacterId',
    );
    const invisible = await call(t.base, moderator, 'POST', `/sentinel/dinos/${ids.hidden}/locate`);
    expect(invisible).toMatchObject({ status: 404, body: { code: 'notFound' } });
    await t.server.db.query('UPDATE group_users SET permissions = 1 WHERE user_id = $1', [
      t.demo.moderator.userId,
    ]);
    const lacking = await call(t.base, moderator, 'POST', `/sentinel/dinos/${ids.alive}/locate`);
    expect(lacking).toMatchObject({ status: 403, body: { code: 'forbidden' } });
    await t.server.db.query('UPDATE group_users SET permissions = 3 WHERE user_id = $1', [
      t.demo.moderator.userId,
    ]);
  });

  it('checks give item and give dino payloads with the spec messages', async () => {
    const give = (path: string, body: unknown) =>
      call(t.base, owner, 'POST', `/sentinel/characters/${ids.bob}/${path}`, body);
    const cases: [string, unknown, string][] = [
      ['giveItem', { quantity: 1 }, 'missingKeys'],
      ['giveItem', { itemPath: 'Game/Foo', quantity: 1 }, 'invalidPath'],
      ['giveItem', { itemPath: '/Game/A/B.B_C', quantity: 0 }, 'invalidQuantity'],
      ['giveItem', { itemPath: '/Game/A/B.B_C', quantity: 1.5 }, 'invalidQuantity'],
      ['giveItem', { itemPath: '/Game/A/B.B_C', quantity: 1, quality: 101 }, 'invalidQuality'],
      ['giveItem', { itemPath: '/Game/A/B.B_C', quantity: 1, armor: -1 }, 'invalidStat'],
      ['giveDino', { dinoPath: '' }, 'badDinoPath'],
      ['giveDino', { dinoPath: '/Game/Rex', level: 0 }, 'invalidLevel'],
      ['giveDino', { dinoPath: '/Game/Rex', age: 2 }, 'invalidAge'],
      ['giveDino', { dinoPath: '/Game/Rex', imprint: -0.1 }, 'invalidImprint'],
      ['giveDino', { dinoPath: '/Game/Rex', isFemale: 'yes' }, 'invalidGender'],
      ['giveDino', { dinoPath: '/Game/Rex', isSterilized: 1 }, 'invalidSterilized'],
      ['giveDino', { dinoPath: '/Game/Rex', colors: [1, 2, 3] }, 'invalidColors'],
      ['giveDino', { dinoPath: '/Game/Rex', traits: [3] }, 'invalidTraits'],
      ['giveDino', { dinoPath: '/Game/Rex', stats: { 12: 1 } }, 'invalidStats'],
      ['giveDino', { dinoPath: '/Game/Rex', stats: { 0: 256 } }, 'invalidStats'],
    ];
    for (const [path, body, code] of cases) {
      const r = await give(path, body);
      expect({ path, body, status: r.status, code: r.body.code }).toEqual({ path, body, status: 400, code });
    }
    const path = await give('giveItem', { itemPath: 'Game/Foo', quantity: 1 });
    expect(path.body.message).toBe(
      'This item path does not appear to be correct. All Ark paths start with /.',
    );
  });

  it('restore needs a survivor on the same server and a dead dino with a backup', async () => {
    const restore = (dino: string, body: unknown) =>
      call(t.base, owner, 'POST', `/sentinel/dinos/${dino}/restore`, body);
    expect((await restore(ids.dead, {})).body.code).toBe('characterNotSpecified');
    expect((await restore(ids.dead, { characterId: 'x' })).body.code).toBe('invalidCharacterId');
    expect((await restore(ids.dead, { characterId: ids.far })).body.code).toBe('invalidCharacterId');
    const alive = await restore(ids.alive, { characterId: ids.bob });
    expect(alive).toMatchObject({ status: 412, body: { code: 'restoreNotAvailable' } });
    expect((await call(t.base, owner, 'POST', `/sentinel/dinos/${ids.alive}/edit`, {})).body.code).toBe(
      'noApprovedKeys',
    );
  });
});

describe('with the game server connected', () => {
  beforeAll(async () => {
    mod = await connectGame(t.demo.servers[0].accessKey);
  });

  it('locates a dino: {requestId} at once, coordinates as locateResult', async () => {
    const r = await call(t.base, moderator, 'POST', `/sentinel/dinos/${ids.alive}/locate`);
    expect(r.status).toBe(200);
    expect(r.body.requestId).toMatch(/^[0-9a-f-]{36}$/);
    const cmd = await until('the command sent', () => commands.find((c) => c.requestId === r.body.requestId));
    expect(cmd).toMatchObject({ type: 'locate', dinoId1: 1, dinoId2: 2 });
    const ev = await until('the locate result', () => published.find((p) => p.event === 'locateResult'));
    expect(ev.data).toEqual({
      requestId: r.body.requestId,
      found: true,
      x: 1,
      y: 2,
      z: 3,
      lat: 50.5,
      lon: 40.1,
    });
    expect(ev.channels).toEqual([
      `private-sentinel.services.${t.demo.servers[0].serviceId}`,
      `private-users.${t.demo.moderator.userId}`,
    ]);
  });

  it('gives an item and reports the completion; a failed edit reports its error', async () => {
    const give = await call(t.base, owner, 'POST', `/sentinel/characters/${ids.bob}/giveItem`, {
      itemPath: '/Game/Items/Metal.Metal_C',
      quantity: 100,
      quality: 50,
      armor: 12,
    });
    expect(give.status).toBe(200);
    const cmd = await until('the command sent', () =>
      commands.find((c) => c.requestId === give.body.requestId),
    );
    expect(cmd).toMatchObject({
      type: 'giveItem',
      specimenId: 777,
      quantity: 100,
      stats: [{ index: 1, value: 12 }],
    });
    const done = await until('the request completed', () =>
      published.find(
        (p) =>
          p.event === 'requestCompleted' &&
          (p.data as { requestId: string }).requestId === give.body.requestId,
      ),
    );
    expect(done.data).toEqual({ requestId: give.body.requestId, ok: true });

    const edit = await call(t.base, owner, 'POST', `/sentinel/dinos/${ids.alive}/edit`, {
      isSterilized: true,
    });
    const failed = await until('the request completed', () =>
      published.find(
        (p) =>
          p.event === 'requestCompleted' &&
          (p.data as { requestId: string }).requestId === edit.body.requestId,
      ),
    );
    expect(failed.data).toEqual({
      requestId: edit.body.requestId,
      ok: false,
      error: 'The dino is not loaded.',
    });
  });

  it('restores a dead dino into a survivor and spawns a dino', async () => {
    const r = await call(t.base, owner, 'POST', `/sentinel/dinos/${ids.dead}/restore`, {
      characterId: ids.bob,
    });
    expect(r.status).toBe(200);
    expect(
      await until('the command sent', () => commands.find((c) => c.requestId === r.body.requestId)),
    ).toMatchObject({
      type: 'restoreDino',
      specimenId: 777,
      restoreData: { cryo: 1 },
    });
    const dino = await call(t.base, owner, 'POST', `/sentinel/characters/${ids.bob}/giveDino`, {
      dinoPath: '/Game/Rex.Rex_C',
      level: 300,
      age: 0.5,
      colors: [1, 2, 3, 4, 5, 6],
      stats: { 0: 10, 11: 255 },
    });
    expect(dino.status).toBe(200);
    expect(
      await until('the command sent', () => commands.find((c) => c.requestId === dino.body.requestId)),
    ).toMatchObject({
      type: 'giveDino',
      dinoPath: '/Game/Rex.Rex_C',
      level: 300,
    });
  });
});
