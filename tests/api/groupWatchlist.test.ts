// A group's watchlist: read by the group's members, changed by those who may manage its bans,
// each player once with why and who added them, in the group's trail; to anyone else it and its
// entries do not exist.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { FlagMsg } from '../../src/domain/flags.ts';
import { call, signIn, signInStranger, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let owner: string;
let moderator: string;
let stranger: string;
let group: string;
const RIVER = '11111111-1111-4111-8111-111111111111';

beforeAll(async () => {
  t = await startTestServer();
  owner = (await signIn(t.base)).access_token;
  moderator = (await signIn(t.base, t.demo.moderator.email, 'palisade-demo')).access_token;
  stranger = await signInStranger(t);
  group = t.demo.groupId;
  await t.server.db.exec(`INSERT INTO players (player_id, name) VALUES ('${RIVER}', 'River Stone')`);
});
afterAll(() => t?.close());

const watch = (token: string, body: Record<string, unknown>) =>
  call(t.base, token, 'POST', '/sentinel/groupWatchlist', { groupId: group, playerId: RIVER, ...body });
const watched = (token: string) => call(t.base, token, 'GET', `/sentinel/groupWatchlist?groupId=${group}`);

it('adds a player once, with why and who, and changes why when added again', async () => {
  const added = await watch(owner, { reason: 'Alt of a banned raider' });
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  expect(added.body).toMatchObject({ groupId: group, playerId: RIVER, playerName: 'River Stone' });
  expect(added.body.addedBy).toMatch(/^Demo Admin#[0-9a-f]{8}$/);
  await watch(owner, { reason: 'Seen with the raiders again' });
  const list = (await watched(owner)).body.results;
  expect(list).toEqual([expect.objectContaining({ reason: 'Seen with the raiders again' })]);
  // The group's trail says who watched whom, and when.
  const trail = (await call(t.base, owner, 'GET', `/sentinel/activity?groupId=${group}&kind=groupWatchlist`))
    .body.results;
  expect(trail).toHaveLength(2);
  expect(trail[0].summary).toContain('Reason: Seen with the raiders again');
});

it('lets members read it, and only those who may manage the group’s bans change it', async () => {
  expect((await watched(moderator)).body.results).toHaveLength(1);
  const refused = await watch(moderator, { reason: 'I think so too' });
  expect(refused.status).toBe(403);
  const [entry] = (await watched(owner)).body.results;
  expect((await call(t.base, moderator, 'DELETE', `/sentinel/groupWatchlist/${entry.watchId}`)).status).toBe(
    403,
  );
  expect((await watched(owner)).body.results[0].reason).toBe('Seen with the raiders again');
});

it('is nothing to an outsider: not listed, not changed, its entries not found', async () => {
  expect((await watched(stranger)).status).toBe(403);
  expect((await watch(stranger, { reason: 'Planted' })).status).toBe(403);
  const [entry] = (await watched(owner)).body.results;
  expect((await call(t.base, stranger, 'DELETE', `/sentinel/groupWatchlist/${entry.watchId}`)).status).toBe(
    404,
  );
  // Nothing planted in the group's trail by the refused write.
  const trail = (await call(t.base, owner, 'GET', `/sentinel/activity?groupId=${group}&kind=groupWatchlist`))
    .body.results;
  expect(trail.map((e: { summary: string }) => e.summary).join()).not.toContain('Planted');
});

it('refuses a missing reason and an unknown player, and removes an entry', async () => {
  const empty = await watch(owner, { reason: '  ' });
  expect(empty.status).toBe(400);
  expect(empty.body).toMatchObject({
    code: 'validation',
    message: FlagMsg.watchReasonEmpty,
    details: { field: 'reason' },
  });
  const unknown = await watch(owner, { playerId: '33333333-3333-4333-8333-333333333333', reason: 'Who?' });
  expect(unknown.status).toBe(400);
  const [entry] = (await watched(owner)).body.results;
  expect((await call(t.base, owner, 'DELETE', `/sentinel/groupWatchlist/${entry.watchId}`)).status).toBe(200);
  expect((await watched(owner)).body.results).toEqual([]);
});
