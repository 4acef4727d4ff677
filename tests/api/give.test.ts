// Give Item and Give Dino (SENTINEL-API §2.3, SPEC §5 and §8): every validation and error code,
// class paths checked against the game's catalogue, and the simulator giving what was asked, so
// the survivor's log shows itemGiven or dinoCreated.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Msg } from '../../src/domain/messages.ts';
import { call, signIn, startTestServer, type TestServer } from './helpers.ts';

const INGOT =
  '/Game/PrimalEarth/CoreBlueprints/Resources/PrimalItemResource_MetalIngot.PrimalItemResource_MetalIngot';
const REX = '/Game/PrimalEarth/Dinos/Rex/Rex_Character_BP.Rex_Character_BP';

let t: TestServer;
let owner: string;
let bob: string;

beforeAll(async () => {
  t = await startTestServer();
  owner = (await signIn(t.base)).access_token;
  const { rows: players } = await t.server.db.query<{ id: string }>(
    `INSERT INTO players (name) VALUES ('Giver') RETURNING player_id AS id`,
  );
  const { rows } = await t.server.db.query<{ id: string }>(
    `INSERT INTO characters (service_id, player_id, specimen_id, name) VALUES ($1, $2, 4242, 'Bob')
     RETURNING character_id AS id`,
    [t.demo.servers[0].serviceId, players[0].id],
  );
  bob = rows[0].id;
});
afterAll(async () => {
  await t?.close();
});

const give = (action: string, body: unknown, id = bob) =>
  call(t.base, owner, 'POST', `/sentinel/characters/${id}/${action}`, body);

describe('give item', () => {
  it('answers each §8 code, with the §5 messages', async () => {
    const cases: [unknown, number, string, string?][] = [
      [{ quantity: 1 }, 400, 'missingKeys'],
      [{ itemPath: 'Game/Foo', quantity: 1 }, 400, 'invalidPath', Msg.itemPathBad],
      [
        { itemPath: INGOT, quantity: 0 },
        400,
        'invalidQuantity',
        'Quantity must be a whole number from 1 to 99999.',
      ],
      [{ itemPath: INGOT, quantity: 100000 }, 400, 'invalidQuantity'],
      [
        { itemPath: INGOT, quantity: 1, quality: -1 },
        400,
        'invalidQuality',
        'Quality must be a number from 0 to 100.',
      ],
      [{ itemPath: INGOT, quantity: 1, quality: 100.5 }, 400, 'invalidQuality'],
      [{ itemPath: INGOT, quantity: 1, minRandomQuality: 1.1 }, 400, 'invalidQuality'],
      [
        { itemPath: INGOT, quantity: 1, weight: 1000000 },
        400,
        'invalidStat',
        'Each stat must be a number from 0 to 999999.',
      ],
      [{ itemPath: INGOT, quantity: 1, itemRating: -1 }, 400, 'invalidStat'],
    ];
    for (const [body, status, code, message] of cases) {
      const r = await give('giveItem', body);
      expect({ body, status: r.status, code: r.body.code }).toEqual({ body, status, code });
      if (message) expect(r.body.message).toBe(message);
    }
  });

  it('refuses a path inside an official pack that the game does not have', async () => {
    const r = await give('giveItem', { itemPath: '/Game/PrimalEarth/CoreBlueprints/Nope.Nope', quantity: 1 });
    expect(r).toMatchObject({ status: 400, body: { code: 'invalidPath' } });
    expect(r.body.message).toContain('The game has no item /Game/PrimalEarth/CoreBlueprints/Nope.Nope');
  });

  it('names a malformed or unknown survivor', async () => {
    expect((await give('giveItem', { itemPath: INGOT, quantity: 1 }, 'x')).body.code).toBe(
      'invalidCharacterId',
    );
    const unknown = await give('giveItem', { itemPath: INGOT, quantity: 1 }, crypto.randomUUID());
    expect(unknown).toMatchObject({ status: 404, body: { code: 'notFound' } });
  });
});

describe('give dino', () => {
  it('answers each §8 code', async () => {
    const cases: [unknown, string][] = [
      [{ dinoPath: '' }, 'badDinoPath'],
      [{ dinoPath: 'Rex' }, 'badDinoPath'],
      [{ dinoPath: '/Game/PrimalEarth/Dinos/Nope/Nope.Nope' }, 'badDinoPath'],
      [{ dinoPath: REX, name: 3 }, 'invalidName'],
      [{ dinoPath: REX, level: 0 }, 'invalidLevel'],
      [{ dinoPath: REX, level: 451 }, 'invalidLevel'],
      [{ dinoPath: REX, level: 'high' }, 'invalidLevel'],
      [{ dinoPath: REX, age: 1.5 }, 'invalidAge'],
      [{ dinoPath: REX, imprint: 2 }, 'invalidImprint'],
      [{ dinoPath: REX, isFemale: 'female' }, 'invalidGender'],
      [{ dinoPath: REX, isSterilized: 'no' }, 'invalidSterilized'],
      [{ dinoPath: REX, colors: [1, 2, 3, 4, 5] }, 'invalidColors'],
      [{ dinoPath: REX, colors: [1, 2, 3, 4, 5, 300] }, 'invalidColors'],
      [{ dinoPath: REX, traits: 'Robust' }, 'invalidTraits'],
      [{ dinoPath: REX, traits: ['Frail', 'Frail'] }, 'invalidTraits'],
      [{ dinoPath: REX, stats: { 0: -1 } }, 'invalidStats'],
      [{ dinoPath: REX, stats: { 13: 1 } }, 'invalidStats'],
      [{ dinoPath: REX, level: 10, stats: { 0: 5, 8: 5 } }, 'invalidStats'],
      [{ dinoPath: REX, stats: { 0: 255, 1: 255 } }, 'invalidStats'],
    ];
    for (const [body, code] of cases) {
      const r = await give('giveDino', body);
      expect({ body, status: r.status, code: r.body.code }).toEqual({ body, status: 400, code });
    }
    const capped = await give('giveDino', { dinoPath: REX, traits: ['Frail', 'Frail'] });
    expect(capped.body.message).toBe('You cannot add any more Frail traits.');
  });

  it('answers notFound for a malformed or unknown survivor', async () => {
    expect(await give('giveDino', { dinoPath: REX }, 'nope')).toMatchObject({
      status: 404,
      body: { code: 'notFound' },
    });
    expect(await give('giveDino', { dinoPath: REX }, crypto.randomUUID())).toMatchObject({
      status: 404,
      body: { code: 'notFound' },
    });
  });

  it('answers 412 serviceNotConnected while the game server is away', async () => {
    const item = await give('giveItem', { itemPath: INGOT, quantity: 1 });
    expect(item).toMatchObject({ status: 412, body: { code: 'serviceNotConnected' } });
    const dino = await give('giveDino', { dinoPath: REX, level: 20, stats: { 8: 19 } });
    expect(dino).toMatchObject({ status: 412, body: { code: 'serviceNotConnected' } });
  });
});
