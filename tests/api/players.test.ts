// Players, identifiers, name history, sessions and notes: search by any name or identifier,
// connection facts, anonymous players, notes' validation, edit history and their refusal to die.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Msg } from '../../src/domain/messages.ts';
import { gameIdOn } from '../../src/server/model/gameKind.ts';
import { banTargetPlayers } from '../../src/server/model/player.ts';
import { applyGameEvent } from '../../src/server/model/world.ts';
import { call, recording, signIn, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let owner: string;
let moderator: string;
const RIVER = '11111111-1111-4111-8111-111111111111';
const GHOST = '22222222-2222-4222-8222-222222222222';
const EOS = '0002aaaaaaaaaaaaaaaaaaaaaaaaaaaa';

beforeAll(async () => {
  t = await startTestServer();
  owner = (await signIn(t.base)).access_token;
  moderator = (await signIn(t.base, t.demo.moderator.email, 'palisade-demo')).access_token;
  const island = t.demo.servers[0].serviceId;
  const third = t.demo.servers[2].serviceId;
  await t.server.db.exec(`
    INSERT INTO players (player_id, name, timezone, is_using_vpn, ip_lookup_success, ip_fingerprint, country_code, continent_code)
      VALUES ('${RIVER}', 'River Stone', 'Europe/Berlin', true, true, 'fp-river', 'DE', 'EU');
    INSERT INTO players (player_id, name, ip_fingerprint, opted_out) VALUES ('${GHOST}', 'Secret Sam', 'fp-ghost', true);
    INSERT INTO player_identifiers (player_id, provider, identifier, name) VALUES ('${RIVER}', 'EOS', '${EOS}', 'River');
    INSERT INTO player_name_changes (player_id, name, change_time) VALUES
      ('${RIVER}', 'Dodo Slayer', now() - interval '2 days'), ('${RIVER}', 'Kai Walker', now() - interval '1 day');
    INSERT INTO player_sessions (player_id, service_id, connect_time, disconnect_time) VALUES
      ('${RIVER}', '${island}', now() - interval '3 hours', now() - interval '2 hours'),
      ('${RIVER}', '${island}', now() - interval '1 hour', NULL),
      ('${RIVER}', '${third}', now() - interval '5 hours', now() - interval '4 hours');
  `);
});
afterAll(() => t?.close());

const list = async (path: string, token = owner) => (await call(t.base, token, 'GET', path)).body;

describe('players', () => {
  it('finds a player by current name, a former name, or an EOS id, sorted by name', async () => {
    for (const q of ['River', 'Dodo%20Slayer', 'kai', EOS]) {
      const page = await list(`/sentinel/players?name=${q}`);
      expect(
        page.results.map((p: { playerId: string }) => p.playerId),
        q,
      ).toEqual([RIVER]);
    }
    expect((await list(`/sentinel/players?identifier=${EOS.toUpperCase()}`)).totalResults).toBe(1);
    expect((await list('/sentinel/players?name=nobody-like-this')).totalResults).toBe(0);
  });

  it('shows connection facts and former names; anonymous players show neither', async () => {
    const river = (await call(t.base, owner, 'GET', `/sentinel/players/${RIVER}`)).body;
    expect(river).toMatchObject({
      playerName: 'River Stone',
      timezone: 'Europe/Berlin',
      isUsingVpn: true,
      ipLookupSuccess: true,
      ipFingerprint: 'fp-river',
      countryCode: 'DE',
      continentCode: 'EU',
      isAnonymous: false,
      otherNames: ['Dodo Slayer', 'Kai Walker'],
    });
    const ghost = (await call(t.base, owner, 'GET', `/sentinel/players/${GHOST}`)).body;
    expect(ghost).toMatchObject({ playerName: 'Anonymous', isAnonymous: true, ipFingerprint: null });
    expect((await list('/sentinel/players?name=Secret')).totalResults).toBe(0);
    expect((await call(t.base, owner, 'GET', '/sentinel/players/nope')).status).toBe(404);
  });

  it('lists identifiers and name history only when filtered', async () => {
    expect((await list('/sentinel/playerIdentifiers')).totalResults).toBe(0);
    const ids = await list(`/sentinel/playerIdentifiers?playerId=${RIVER}`);
    expect(ids.results).toEqual([expect.objectContaining({ provider: 'EOS', identifier: EOS })]);
    const names = await list(`/sentinel/playerNameChanges?playerId=${RIVER}&sortDirection=descending`);
    expect(names.results.map((n: { name: string }) => n.name)).toEqual(['Kai Walker', 'Dodo Slayer']);
    expect(names.results[0].changeTime).toBeGreaterThan(names.results[1].changeTime);
  });

  it('keeps the former name when the game reports a rename, and finds the player by it', async () => {
    const island = t.demo.servers[0].serviceId;
    const flint = '33333333-3333-4333-8333-333333333333';
    const eos = '0002bbbbbbbbbbbbbbbbbbbbbbbbbbbb';
    await t.server.db.exec(`
      INSERT INTO players (player_id, name) VALUES ('${flint}', 'Flint Stone');
      INSERT INTO player_identifiers (player_id, provider, identifier, name) VALUES ('${flint}', 'EOS', '${eos}', 'Flint');
    `);
    const rename = (oldName: string, newName: string, time: number) =>
      applyGameEvent(t.server.db, island, {
        eventName: 'playerRenamed',
        time,
        type: 'Gameplay',
        level: 'Notice',
        message: `${oldName} is now known as ${newName}`,
        metadata: { eosId: eos, oldName, newName },
      });
    const now = Date.now() / 1000;
    await rename('Flint Stone', 'Flint Rock', now);
    await rename('Flint Rock', 'Flint Rock', now + 1); // the same name: nothing to keep
    await rename('Flint Rock', 'Pebble', now + 2);
    const names = await list(`/sentinel/playerNameChanges?playerId=${flint}&sortDirection=descending`);
    expect(names.results.map((n: { name: string }) => n.name)).toEqual(['Flint Rock', 'Flint Stone']);
    const found = await list('/sentinel/players?name=Flint%20Rock');
    expect(found.results.map((p: { playerName: string }) => p.playerName)).toEqual(['Pebble']);
  });
});

describe('player sessions', () => {
  it('lists by player, server and group, connected only on request, and needs a filter', async () => {
    expect((await list('/sentinel/playerSessions')).totalResults).toBe(0);
    expect((await list(`/sentinel/playerSessions?playerId=${RIVER}`)).totalResults).toBe(3);
    const live = await list(`/sentinel/playerSessions?playerId=${RIVER}&isConnected=true`);
    expect(live.results).toEqual([
      expect.objectContaining({
        playerName: 'River Stone',
        serviceDisplayName: 'Island PvE',
        isConnected: true,
      }),
    ]);
    expect(live.results[0].disconnectTime).toBeNull();
    // The demo group holds the first two servers only.
    expect((await list(`/sentinel/playerSessions?groupId=${t.demo.groupId}`)).totalResults).toBe(2);
    // The moderator sees the group's servers, not the third one.
    expect((await list(`/sentinel/playerSessions?playerId=${RIVER}`, moderator)).totalResults).toBe(2);
    const sorted = await list(
      `/sentinel/playerSessions?playerId=${RIVER}&sortedColumn=connectTime&sortDirection=descending`,
    );
    expect(sorted.results[0].isConnected).toBe(true);
  });

  it('lists the sessions on at or after a moment for a timeline, and none for a moment that is not one', async () => {
    const now = Math.floor(Date.now() / 1000);
    const since = (s: string) => list(`/sentinel/playerSessions?playerId=${RIVER}&activeSince=${s}`);
    // Ended 4 h ago (left out), ended 2 h ago, still on.
    expect((await since(String(now - 3 * 3600))).totalResults).toBe(2);
    expect((await since(String(now - 90 * 60))).totalResults).toBe(1);
    expect((await since(String(now - 6 * 3600))).totalResults).toBe(3);
    for (const bad of ['soon', '', '-5', '1e400']) expect((await since(bad)).totalResults).toBe(0);
  });
});

describe('player notes', () => {
  const post = (body: unknown, token = owner) => call(t.base, token, 'POST', '/sentinel/playerNotes', body);

  it('refuses an empty note and a too-short one with the spec messages', async () => {
    const empty = await post({ playerId: RIVER, content: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ code: 'validation', message: Msg.noteEmpty });
    const short = await post({ playerId: RIVER, content: 'meh' });
    expect(short.body).toMatchObject({ code: 'validation', message: Msg.noteShort });
    const missing = await post({ playerId: RIVER });
    expect(missing.body.code).toBe('missingProperties');
  });

  it('adds, lets only the author edit, keeps every edit, and never deletes', async () => {
    const created = await post({ playerId: RIVER, content: 'Griefed the north base twice.' });
    expect(created.status).toBe(200);
    const note = created.body.created[0];
    expect(note).toMatchObject({ playerId: RIVER, username: 'Demo Admin', edits: [] });
    expect(note.usernameFull).toMatch(/^Demo Admin#[0-9a-f]{8}$/);

    const other = await call(t.base, moderator, 'PATCH', `/sentinel/playerNotes/${note.noteId}`, {
      content: 'I rewrote your note.',
    });
    expect(other.status).toBe(403);
    const bad = await call(t.base, owner, 'PATCH', `/sentinel/playerNotes/${note.noteId}`, { content: '' });
    expect(bad.body.message).toBe(Msg.noteEmpty);

    const edited = await call(t.base, owner, 'PATCH', `/sentinel/playerNotes/${note.noteId}`, {
      content: 'Griefed the north base three times.',
    });
    expect(edited.body.content).toBe('Griefed the north base three times.');
    expect(edited.body.edits).toEqual([
      { previousContent: 'Griefed the north base twice.', previousTimestamp: expect.any(Number) },
    ]);

    await post({ playerId: RIVER, content: 'Moderator here: warned in chat.' }, moderator);
    const notes = await list(`/sentinel/playerNotes?playerId=${RIVER}`, moderator);
    expect(notes.results.map((n: { username: string }) => n.username)).toEqual(['Moderator', 'Demo Admin']);
    expect((await list(`/sentinel/playerNotes?playerId=${RIVER}&content=twice`)).totalResults).toBe(1);

    expect((await call(t.base, owner, 'DELETE', `/sentinel/playerNotes/${note.noteId}`)).status).toBe(403);
    expect((await call(t.base, owner, 'GET', '/sentinel/playerNotes')).status).toBe(403);
    expect((await call(t.base, owner, 'GET', `/sentinel/playerNotes/${note.noteId}`)).status).toBe(200);
  });
});

describe('looking a player up by game id', () => {
  /**
   * The plans PostgreSQL picks for what `fn` asks of player_identifiers, each explained with the
   * statement's own parameters before it runs.
   */
  async function plansOf(fn: () => Promise<void>): Promise<string[]> {
    const plans: string[] = [];
    await recording(t.server.db, fn, async (sql, params, ask) => {
      if (!sql.includes('player_identifiers')) return;
      const { rows } = await ask<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params);
      plans.push(rows.map((r) => r['QUERY PLAN']).join('\n'));
    });
    return plans;
  }

  it('reads an index, not every identifier: a ban list, the players list, a command’s target', async () => {
    await t.server.db.exec(`
      WITH p AS (
        INSERT INTO players (player_id, name)
        SELECT gen_random_uuid(), 'Lookup ' || g FROM generate_series(1, 20000) g RETURNING player_id)
      INSERT INTO player_identifiers (player_id, provider, identifier)
      SELECT player_id, 'EOS', '0002' || md5(player_id::text) FROM p;
      ANALYZE player_identifiers`);
    const id = '0002aaaabbbbccccddddeeeeffff0000';
    const serviceId = t.demo.servers[0]!.serviceId;
    const plans = await plansOf(async () => {
      await banTargetPlayers(t.server.db, [id]);
      await gameIdOn(t.server.db, id, serviceId);
      await gameIdOn(t.server.db, '11111111-1111-4111-8111-111111111111', serviceId);
      const r = await call(t.base, owner, 'GET', `/sentinel/players?identifier=${id}`);
      expect(r.status).toBe(200);
    });
    expect(plans).toHaveLength(4);
    for (const plan of plans) expect(plan).not.toMatch(/Seq Scan on player_identifiers/);
  });
});
