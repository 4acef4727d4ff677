// Player flags: an account's named, coloured marks on players, checked field by field, one per
// name per player, listed and found by flag, and nobody else's to see, change or remove.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { FLAG_NAME_MAX, FLAG_REASON_MAX, FlagMsg } from '../../src/domain/flags.ts';
import { call, signIn, signInStranger, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let owner: string;
let moderator: string;
let stranger: string;
const RIVER = '11111111-1111-4111-8111-111111111111';
const SAM = '22222222-2222-4222-8222-222222222222';

beforeAll(async () => {
  t = await startTestServer();
  owner = (await signIn(t.base)).access_token;
  moderator = (await signIn(t.base, t.demo.moderator.email, 'palisade-demo')).access_token;
  stranger = await signInStranger(t);
  await t.server.db.exec(`
    INSERT INTO players (player_id, name) VALUES ('${RIVER}', 'River Stone');
    INSERT INTO players (player_id, name, opted_out) VALUES ('${SAM}', 'Secret Sam', true);
  `);
});
afterAll(() => t?.close());

const flag = (token: string, body: unknown) => call(t.base, token, 'POST', '/sentinel/playerFlags', body);
const flagsOf = async (token: string, query = '') =>
  (await call(t.base, token, 'GET', `/sentinel/playerFlags${query}`)).body.results as {
    flagId: string;
    playerId: string;
    playerName: string;
    name: string;
    colour: string;
    reason: string;
  }[];

it('flags a player, and flagging again by the same name changes that flag', async () => {
  const made = await flag(owner, {
    playerId: RIVER,
    name: 'Griefer',
    colour: 'red',
    reason: 'Burned the town',
  });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  expect(made.body.created).toEqual([
    expect.objectContaining({ playerId: RIVER, playerName: 'River Stone', name: 'Griefer', colour: 'red' }),
  ]);
  const again = await flag(owner, {
    playerId: RIVER,
    name: ' griefer ',
    colour: 'orange',
    reason: 'Said sorry',
  });
  expect(again.body).toMatchObject({ created: [], updated: [{ name: 'griefer', colour: 'orange' }] });
  expect(await flagsOf(owner, `?playerId=${RIVER}`)).toEqual([
    expect.objectContaining({ name: 'griefer', colour: 'orange', reason: 'Said sorry' }),
  ]);
  // Who flagged whom and when: the account's own activity trail keeps each write, in words.
  const trail = (await call(t.base, owner, 'GET', '/sentinel/activity?kind=playerFlags')).body.results;
  expect(trail.map((e: { action: string; summary: string }) => [e.action, e.summary])).toEqual([
    ['create', expect.stringContaining('Reason: Said sorry')],
    ['create', expect.stringContaining('Name: Griefer, Colour: red, Reason: Burned the town')],
  ]);
  // An anonymous player's flag lists them under the anonymous name, as every list does.
  await flag(owner, { playerId: SAM, name: 'Watch chat', colour: 'blue', reason: 'Slurs' });
  expect((await flagsOf(owner, `?playerId=${SAM}`))[0].playerName).not.toBe('Secret Sam');
});

it('finds the players flagged by a name, of the caller’s flags only', async () => {
  const players = async (token: string) =>
    (await call(t.base, token, 'GET', '/sentinel/players?flag=GRIEFER')).body.results.map(
      (p: { playerId: string }) => p.playerId,
    );
  expect(await players(owner)).toEqual([RIVER]);
  expect(await players(moderator)).toEqual([]);
  // Each player carries the caller's flags, for lists and the palette to show beside the name.
  const river = async (token: string) =>
    (await call(t.base, token, 'GET', `/sentinel/players/${RIVER}`)).body;
  expect((await river(owner)).flags).toEqual([
    expect.objectContaining({ name: 'griefer', colour: 'orange', reason: 'Said sorry' }),
  ]);
  expect((await river(moderator)).flags).toEqual([]);
  const page = (await call(t.base, owner, 'GET', '/sentinel/players?name=River')).body;
  expect(page.results[0].flags).toEqual([expect.objectContaining({ name: 'griefer' })]);
  // Unfiltered and paged, so the page is counted too.
  const all = await call(t.base, owner, 'GET', '/sentinel/players?pageSize=1');
  expect(all.status, JSON.stringify(all.body)).toBe(200);
  expect(all.body.totalResults).toBeGreaterThan(1);
});

it('refuses a bad flag by its field, and stores nothing of the body', async () => {
  const cases: [Record<string, unknown>, string, string][] = [
    [{ name: '  ' }, 'name', FlagMsg.nameEmpty],
    [{ name: 'x'.repeat(FLAG_NAME_MAX + 1) }, 'name', FlagMsg.nameLong],
    [{ colour: 'chartreuse' }, 'colour', FlagMsg.colourBad],
    [{ reason: '' }, 'reason', FlagMsg.reasonEmpty],
    [{ reason: 'x'.repeat(FLAG_REASON_MAX + 1) }, 'reason', FlagMsg.reasonLong],
  ];
  for (const [change, field, message] of cases) {
    const good = { playerId: RIVER, name: 'Builder', colour: 'green', reason: 'Nice bases' };
    const r = await flag(owner, [good, { ...good, name: 'Other', ...change }]);
    expect(r.status, field).toBe(400);
    expect(r.body).toMatchObject({ code: 'validation', message, details: { field } });
  }
  const missing = await flag(owner, {
    playerId: '33333333-3333-4333-8333-333333333333',
    name: 'A',
    colour: 'red',
    reason: 'B',
  });
  expect(missing.status).toBe(400);
  expect((await flagsOf(owner)).map((f) => f.name).sort()).toEqual(['Watch chat', 'griefer']);
});

it('keeps each account’s flags its own: not listed, found, changed or removed by another', async () => {
  const [mine] = await flagsOf(owner, `?playerId=${RIVER}`);
  for (const token of [moderator, stranger]) {
    expect(await flagsOf(token)).toEqual([]);
    const gone = await call(t.base, token, 'DELETE', `/sentinel/playerFlags/${mine.flagId}`);
    expect(gone.status).toBe(404);
  }
  // The moderator's own flag of the same name is theirs alone.
  await flag(moderator, { playerId: RIVER, name: 'Griefer', colour: 'purple', reason: 'Mine' });
  expect(await flagsOf(owner, `?playerId=${RIVER}`)).toEqual([expect.objectContaining({ colour: 'orange' })]);
  // The owner removes theirs.
  expect((await call(t.base, owner, 'DELETE', `/sentinel/playerFlags/${mine.flagId}`)).status).toBe(200);
  expect(await flagsOf(owner, `?playerId=${RIVER}`)).toEqual([]);
  expect(await flagsOf(moderator, `?playerId=${RIVER}`)).toHaveLength(1);
});

it('keeps an account within its number of flags', async () => {
  await t.server.db.query(
    `INSERT INTO player_flags (flag_id, owner_id, player_id, name, colour, reason)
     SELECT gen_random_uuid(), u.user_id, $1, 'bulk ' || n, 'grey', 'filler'
       FROM users u, generate_series(1, 10000) n WHERE u.email = 'stranger@palisade.local'`,
    [RIVER],
  );
  const r = await flag(stranger, { playerId: SAM, name: 'One more', colour: 'red', reason: 'Too many' });
  expect(r.status).toBe(400);
  expect(r.body.message).toBe(FlagMsg.tooMany);
});

it('shows the caller’s flags beside the player in sessions and bans, nobody else’s', async () => {
  const serviceId = t.demo.servers[0].serviceId;
  await flag(owner, { playerId: RIVER, name: 'Raider', colour: 'orange', reason: 'Seen at the gate' });
  await t.server.db.query(
    'INSERT INTO player_sessions (player_id, service_id, connect_time) VALUES ($1, $2, now())',
    [RIVER, serviceId],
  );
  await call(t.base, owner, 'POST', '/sentinel/serviceBans', {
    serviceId,
    playerId: RIVER,
    expiration: null,
    comments: 'Raiding',
  });
  const names = (list: { playerFlags: { name: string }[] }[]) =>
    list.flatMap((r) => r.playerFlags.map((f) => f.name));
  const sessions = async (token: string) =>
    (await call(t.base, token, 'GET', `/sentinel/playerSessions?playerId=${RIVER}`)).body.results;
  const bans = async (token: string) =>
    (await call(t.base, token, 'GET', `/sentinel/serviceBans?serviceId=${serviceId}`)).body.results;
  expect(names(await sessions(owner))).toContain('Raider');
  expect(names(await bans(owner))).toContain('Raider');
  // The moderator sees the same session with their own flags on the player, not the owner's.
  const theirs = await sessions(moderator);
  expect(theirs.length).toBeGreaterThan(0);
  expect(names(theirs)).not.toContain('Raider');
});
