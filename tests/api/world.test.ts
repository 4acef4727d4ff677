// /sentinel/characters, /sentinel/tribes, /sentinel/dinos: visibility through services, fields,
// filters and sorts of SENTINEL-API §3.9–3.11, PATCH and DELETE with ControlServices.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/server/crypto.ts';
import { call, DEMO, signIn, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let owner: string;
let moderator: string;
let viewer: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestServer();
  const db = t.server.db;
  const [island, , aberration] = t.demo.servers.map((s) => s.serviceId);
  const one = async (sql: string, params: unknown[]) =>
    (await db.query<{ id: string }>(sql, params)).rows[0].id;
  const viewerId = await one(
    `INSERT INTO users (username, email, password_hash) VALUES ('Viewer', 'viewer@palisade.local', $1) RETURNING user_id AS id`,
    [await hashPassword('viewer-pass')],
  );
  await db.query('INSERT INTO group_users (group_id, user_id, permissions) VALUES ($1, $2, 1)', [
    t.demo.groupId,
    viewerId,
  ]);
  ids.player = await one(`INSERT INTO players (name) VALUES ('Rex Hunter') RETURNING player_id AS id`, []);
  ids.alpha = await one(
    `INSERT INTO tribes (service_id, tribe_number, name) VALUES ($1, 1001, 'Alpha Tribe') RETURNING tribe_id AS id`,
    [island],
  );
  ids.beta = await one(
    `INSERT INTO tribes (service_id, tribe_number, name) VALUES ($1, 2002, 'Beta Clan') RETURNING tribe_id AS id`,
    [island],
  );
  ids.hidden = await one(
    `INSERT INTO tribes (service_id, tribe_number, name) VALUES ($1, 3003, 'Far Away') RETURNING tribe_id AS id`,
    [aberration],
  );
  ids.bob = await one(
    `INSERT INTO characters (service_id, player_id, specimen_id, name, tribe_id)
     VALUES ($1, $2, 123456789, 'Bob Builder', $3) RETURNING character_id AS id`,
    [island, ids.player, ids.alpha],
  );
  ids.zed = await one(
    `INSERT INTO characters (service_id, player_id, specimen_id, name, tribe_id)
     VALUES ($1, $2, 42, 'Zed', $3) RETURNING character_id AS id`,
    [island, ids.player, ids.beta],
  );
  // Zed was in Alpha before Beta: an Alpha filter finds him too.
  await db.query('INSERT INTO tribe_characters (tribe_id, character_id, left_time) VALUES ($1, $2, now())', [
    ids.alpha,
    ids.zed,
  ]);
  ids.rex = await one(
    `INSERT INTO dinos (service_id, tribe_id, dino_number64, name, species, species_path, level, age, status, gender, restore_data)
     VALUES ($1, $2, 4294967298, 'Rexy', 'Rex', '/Game/Rex', 150, 1, 'Dead', 'Female', '{}') RETURNING dino_id AS id`,
    [island, ids.alpha],
  );
  ids.raptor = await one(
    `INSERT INTO dinos (service_id, tribe_id, dino_number64, name, species, species_path, level, age, status)
     VALUES ($1, $2, 7, '', 'Raptor', '/Game/Raptor', 30, 0.3, 'Frozen') RETURNING dino_id AS id`,
    [island, ids.beta],
  );
  [owner, moderator, viewer] = await Promise.all([
    signIn(t.base).then((x) => x.access_token),
    signIn(t.base, t.demo.moderator.email, DEMO.password).then((x) => x.access_token),
    signIn(t.base, 'viewer@palisade.local', 'viewer-pass').then((x) => x.access_token),
  ]);
});
afterAll(() => t?.close());

const get = (token: string, path: string) => call(t.base, token, 'GET', path);
const field = (r: { body: { results: Record<string, unknown>[] } }, key: string) =>
  r.body.results.map((x) => x[key]);

describe('survivors', () => {
  it('lists the fields of §3.9, sorted by name, visible through services only', async () => {
    const all = await get(owner, '/sentinel/characters');
    expect(field(all, 'characterName')).toEqual(['Bob Builder', 'Zed']);
    expect(all.body.results[0]).toMatchObject({
      characterId: ids.bob,
      specimenId: 123456789,
      playerId: ids.player,
      playerName: 'Rex Hunter',
      serviceId: t.demo.servers[0].serviceId,
      serviceDisplayName: 'Island PvE',
      serviceColor: 'None',
      tribeId: ids.alpha,
      tribeName: 'Alpha Tribe',
      permissions: 9007199254740991,
    });
    expect((await get(moderator, '/sentinel/characters')).body.results[0].permissions).toBe(3);
  });

  it('filters by tribe (current or earlier), specimen, player, names; sorts by specimen', async () => {
    expect(field(await get(owner, `/sentinel/characters?tribeId=${ids.alpha}`), 'characterName')).toEqual([
      'Bob Builder',
      'Zed',
    ]);
    expect(field(await get(owner, '/sentinel/characters?specimenId=42'), 'characterName')).toEqual(['Zed']);
    expect(field(await get(owner, '/sentinel/characters?characterName=build'), 'characterName')).toEqual([
      'Bob Builder',
    ]);
    expect(field(await get(owner, '/sentinel/characters?tribeName=beta'), 'characterName')).toEqual(['Zed']);
    expect((await get(owner, `/sentinel/characters?playerId=${ids.player}`)).body.totalResults).toBe(2);
    const bySpecimen = await get(
      owner,
      '/sentinel/characters?sortedColumn=specimenId&sortDirection=descending',
    );
    expect(field(bySpecimen, 'specimenId')).toEqual([123456789, 42]);
  });
});

describe('tribes', () => {
  it('lists, filters and sorts; another owner’s tribe stays hidden from the group', async () => {
    expect(field(await get(owner, '/sentinel/tribes'), 'tribeName')).toEqual([
      'Alpha Tribe',
      'Beta Clan',
      'Far Away',
    ]);
    expect(field(await get(moderator, '/sentinel/tribes'), 'tribeName')).toEqual([
      'Alpha Tribe',
      'Beta Clan',
    ]);
    expect(field(await get(owner, '/sentinel/tribes?tribeNumber=2002'), 'tribeName')).toEqual(['Beta Clan']);
    expect(
      field(await get(owner, `/sentinel/tribes?serviceId=${t.demo.servers[2].serviceId}`), 'tribeName'),
    ).toEqual(['Far Away']);
    const desc = await get(owner, '/sentinel/tribes?sortedColumn=tribeNumber&sortDirection=descending');
    expect(field(desc, 'tribeNumber')).toEqual([3003, 2002, 1001]);
    expect((await get(moderator, `/sentinel/tribes/${ids.hidden}`)).status).toBe(404);
    expect((await get(owner, `/sentinel/tribes/${ids.hidden}`)).body.tribeName).toBe('Far Away');
  });
});

describe('dinos', () => {
  it('lists the fields of §3.11 sorted by display name', async () => {
    const all = await get(owner, '/sentinel/dinos');
    expect(field(all, 'dinoDisplayName')).toEqual(['Raptor', 'Rexy']);
    expect(all.body.results[1]).toMatchObject({
      dinoId: ids.rex,
      dinoNumber: '12',
      dinoNumber64: '4294967298',
      dinoName: 'Rexy',
      dinoSpecies: 'Rex',
      dinoLevel: 150,
      dinoIsDead: true,
      dinoRestoreEligible: true,
      dinoStatus: 'Dead',
      dinoGender: 'Female',
      dinoHasGender: true,
      dinoIsFemale: true,
      tribeName: 'Alpha Tribe',
    });
  });

  it('filters by status list, dead flag, species, number and tribe', async () => {
    expect(field(await get(owner, '/sentinel/dinos?dinoStatus=Deployed,Frozen'), 'dinoSpecies')).toEqual([
      'Raptor',
    ]);
    expect(field(await get(owner, '/sentinel/dinos?dinoIsDead=true'), 'dinoSpecies')).toEqual(['Rex']);
    expect(field(await get(owner, '/sentinel/dinos?dinoSpecies=raptor'), 'dinoSpecies')).toEqual(['Raptor']);
    expect(field(await get(owner, '/sentinel/dinos?dinoNumber=07'), 'dinoSpecies')).toEqual(['Raptor']);
    expect(field(await get(owner, `/sentinel/dinos?tribeId=${ids.alpha}`), 'dinoSpecies')).toEqual(['Rex']);
  });

  it('PATCH changes status and gender with ControlServices; bad values and viewers are refused', async () => {
    const ok = await call(t.base, moderator, 'PATCH', `/sentinel/dinos/${ids.raptor}`, {
      dinoStatus: 'Deployed',
      dinoGender: 'Male',
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ dinoStatus: 'Deployed', dinoGender: 'Male', dinoIsFrozen: false });
    const bad = await call(t.base, owner, 'PATCH', `/sentinel/dinos/${ids.raptor}`, {
      dinoStatus: 'Sleeping',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('dinoStatus must be one of Deployed, Dead, Uploaded, Frozen.');
    const refused = await call(t.base, viewer, 'PATCH', `/sentinel/dinos/${ids.raptor}`, {
      dinoStatus: 'Dead',
    });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('forbidden');
    const unknown = await call(
      t.base,
      owner,
      'PATCH',
      '/sentinel/dinos/0b7c1c1e-0000-4000-8000-000000000000',
      {},
    );
    expect(unknown.status).toBe(404);
    const bulk = await call(t.base, owner, 'PATCH', '/sentinel/dinos', [
      { dinoId: ids.raptor, dinoStatus: 'Uploaded' },
    ]);
    expect(bulk.body.updated[0]).toMatchObject({ dinoStatus: 'Uploaded', dinoIsUploaded: true });
  });
});

describe('deleting', () => {
  it('needs ControlServices; a tribe takes its survivors and dinos with it', async () => {
    const refused = await call(t.base, viewer, 'DELETE', `/sentinel/tribes/${ids.alpha}`);
    expect(refused.status).toBe(403);
    expect((await call(t.base, moderator, 'DELETE', `/sentinel/tribes/${ids.alpha}`)).status).toBe(204);
    expect(field(await get(owner, '/sentinel/tribes'), 'tribeName')).toEqual(['Beta Clan', 'Far Away']);
    expect(field(await get(owner, '/sentinel/characters'), 'characterName')).toEqual(['Zed']);
    expect(field(await get(owner, '/sentinel/dinos'), 'dinoSpecies')).toEqual(['Raptor']);
    // Unknown ids are skipped, as in the original.
    expect((await call(t.base, owner, 'DELETE', '/sentinel/dinos', [{ dinoId: 'nope' }])).status).toBe(204);
    expect(
      (await call(t.base, owner, 'DELETE', '/sentinel/characters', [{ characterId: ids.zed }])).status,
    ).toBe(204);
    expect((await get(owner, `/sentinel/characters/${ids.zed}`)).status).toBe(404);
  });
});

describe('reappearing', () => {
  const report = async (eventName: string, metadata: Record<string, unknown>) => {
    const { applyGameEvent } = await import('../../src/server/model/world.ts');
    const island = t.demo.servers[0].serviceId;
    const e = { eventName, time: Date.now() / 1000, type: 'Gameplay', level: 'Informational', message: '' };
    await applyGameEvent(t.server.db, island, { ...e, metadata });
  };

  it('brings a deleted tribe, survivor or dino back when its server reports it again', async () => {
    // Deleted above with Alpha: the tribe, Bob and Rexy. An event naming each brings it back.
    await report('playerDied', { characterId: ids.bob, tribeId: ids.alpha });
    expect(field(await get(owner, '/sentinel/tribes'), 'tribeName')).toContain('Alpha Tribe');
    expect((await get(owner, `/sentinel/characters/${ids.bob}`)).status).toBe(200);
    expect((await get(owner, `/sentinel/dinos/${ids.rex}`)).status).toBe(404);
    await report('dinoRenamed', { dinoId: ids.rex, tribeId: ids.alpha, newDinoName: 'Rexy II' });
    expect((await get(owner, `/sentinel/dinos/${ids.rex}`)).body).toMatchObject({ dinoName: 'Rexy II' });
  });

  it('keeps a tribe the game disbanded gone, and never touches another server’s rows', async () => {
    await report('tribeDestroyed', { tribeId: ids.alpha });
    expect(field(await get(owner, '/sentinel/tribes'), 'tribeName')).not.toContain('Alpha Tribe');
    await call(t.base, owner, 'DELETE', `/sentinel/tribes/${ids.hidden}`);
    // Far Away lives on Aberration: an event from Island naming it does not bring it back.
    await report('playerDied', { tribeId: ids.hidden });
    expect(field(await get(owner, '/sentinel/tribes'), 'tribeName')).not.toContain('Far Away');
  });

  it('brings back a dino deleted with a tribe the game disbanded since without the tribe', async () => {
    await report('dinoClaimed', { dinoId: ids.rex, tribeId: ids.alpha });
    expect((await get(owner, `/sentinel/dinos/${ids.rex}`)).body.tribeId).toBe(ids.alpha);
    expect((await call(t.base, owner, 'DELETE', `/sentinel/dinos/${ids.rex}`)).status).toBe(204);
    await report('tribeDestroyed', { tribeId: ids.alpha });
    await report('dinoRenamed', { dinoId: ids.rex, newDinoName: 'Rexy III' });
    expect((await get(owner, `/sentinel/dinos/${ids.rex}`)).body).toMatchObject({
      dinoName: 'Rexy III',
      tribeId: null,
    });
  });
});

describe('inside a group', () => {
  it('lists the survivors, tribes and dinos of the group’s servers only', async () => {
    const group = t.demo.groupId;
    const all = await get(owner, '/sentinel/tribes?pageSize=100');
    const inGroup = await get(owner, `/sentinel/tribes?groupId=${group}`);
    expect(inGroup.status).toBe(200);
    const groupServers = (await get(owner, `/sentinel/groupServices?groupId=${group}`)).body.results.map(
      (g: { serviceId: string }) => g.serviceId,
    );
    expect(field(inGroup, 'tribeName')).toContain('Beta Clan');
    for (const r of inGroup.body.results) expect(groupServers).toContain(r.serviceId);
    const outside = await get(
      owner,
      `/sentinel/tribes?groupId=${group}&serviceId=${t.demo.servers[2].serviceId}`,
    );
    expect(outside.body.results).toEqual([]);
    expect(all.body.totalResults).toBeGreaterThanOrEqual(inGroup.body.totalResults);
    expect((await get(owner, `/sentinel/dinos?groupId=${group}`)).status).toBe(200);
    expect((await get(owner, '/sentinel/characters?groupId=not-a-uuid')).body.results).toEqual([]);
  });
});

describe('cluster id change flag', () => {
  it('turns itself off once the game reports a clusterIdChanged event', async () => {
    const { applyGameEvent } = await import('../../src/server/model/world.ts');
    const island = t.demo.servers[0].serviceId;
    const flag = async () => (await get(owner, `/sentinel/services/${island}`)).body.allowClusterIdChange;
    expect(await flag()).toBe(true);
    await applyGameEvent(t.server.db, island, {
      eventName: 'clusterIdChanged',
      time: Date.now() / 1000,
      type: 'Service',
      level: 'Warning',
      message: 'The cluster id changed.',
      metadata: {},
    });
    expect(await flag()).toBe(false);
  });
});
