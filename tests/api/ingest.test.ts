// Storing the game's events (link/ingest.ts) several at once, as the RCON connector stores a
// poll's lines: in order, each once under its key, text exactly as the game said it, a side effect
// the tables refuse costing neither its event nor the others, and two writers of the same lines
// storing each once.

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogMessage } from '../../src/domain/api.ts';
import { uuidv7 } from '../../src/server/crypto.ts';
import { groupStore, type KeyedEvent, storeGameEvents } from '../../src/server/game/ingest.ts';
import { LOG_FROM, logColumns } from '../../src/server/model/logMessage.ts';
import type { GameEvent } from '../../src/server/model/world.ts';
import { startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let serviceId: string;

beforeAll(async () => {
  t = await startTestServer();
  serviceId = t.demo.servers[0].serviceId;
});
afterAll(async () => t?.close());

const at = Date.now() / 1000;

const chat = (text: string, time = at): GameEvent => ({
  eventName: 'chat',
  time,
  type: 'Gameplay',
  level: 'Informational',
  message: `Rex: ${text}`,
  metadata: { source: 'Game', senderName: 'Rex', originalMessage: text },
});

const keyed = (event: GameEvent): KeyedEvent => ({ event, key: { rconKey: randomUUID() } });

/** A new EOS id, as Ascended prints one. */
const newEosId = () => `0002${randomUUID().replaceAll('-', '').slice(4)}`;

/** A player's join as RCON reads it: their game id and name, no player id. */
const join = (eosId: string, name: string): KeyedEvent => ({
  event: {
    eventName: 'playerJoined',
    time: at,
    type: 'Gameplay',
    level: 'Informational',
    message: `${name} joined the server`,
    metadata: { eosId, playerName: name },
  },
  key: { rconKey: randomUUID() },
});

/** The lines with these ids as the log list reads them, in its order (time, then id). */
async function stored(all: (LogMessage | null)[]) {
  const lines = all.filter((l) => l !== null);
  const { rows } = await t.server.db.query<LogMessage>(
    `SELECT ${logColumns("'en'")} FROM ${LOG_FROM} WHERE m.message_id = ANY($1::uuid[]) ORDER BY m.time, m.message_id`,
    [lines.map((l) => l.messageId)],
  );
  return rows;
}

describe('storeGameEvents', () => {
  it('stores lines that share a time in the order the game said them', async () => {
    const said = Array.from({ length: 40 }, (_, i) => `line ${i}`);
    const lines = await storeGameEvents(
      t.server.db,
      serviceId,
      said.map((s) => keyed(chat(s))),
    );
    expect((await stored(lines)).map((r) => r.message)).toEqual(said.map((s) => `Rex: ${s}`));
    // What is published is what the list reads.
    expect(lines).toEqual(await stored(lines));
    expect(lines.every((l) => l !== null)).toBe(true);
  });

  it('keeps text exactly: quotes, backslashes, braces, commas, line breaks and other scripts', async () => {
    const texts = ['say "hi", {friend}', 'C:\\path\\to\\{x}', 'two\nlines\ttab', 'NULL', '', '🦖 Ärger 恐竜'];
    const rows = await stored(
      await storeGameEvents(
        t.server.db,
        serviceId,
        texts.map((s) => keyed(chat(s))),
      ),
    );
    expect(rows.map((r) => r.message)).toEqual(texts.map((s) => `Rex: ${s}`));
    expect(rows.map((r) => (r.metadata as { originalMessage: string }).originalMessage)).toEqual(texts);
  });

  it('skips events already stored under their key, by RCON key or by link sequence', async () => {
    const first = [keyed(chat('once a')), { event: chat('once b'), key: { seq: 900_001 } }];
    expect(await storeGameEvents(t.server.db, serviceId, first)).toHaveLength(2);
    const again = [first[1], keyed(chat('new c')), first[0], { event: chat('new d'), key: { seq: 900_002 } }];
    expect((await storeGameEvents(t.server.db, serviceId, again)).map((r) => r?.message ?? null)).toEqual([
      null,
      'Rex: new c',
      null,
      'Rex: new d',
    ]);
    // The same with a side effect in the batch, which takes the transaction's way.
    const withEffect = {
      event: { ...chat('new e'), metadata: { tribeId: randomUUID() } },
      key: { seq: 900_003 },
    };
    expect(
      (await storeGameEvents(t.server.db, serviceId, [...again, withEffect])).map((r) => r?.message ?? null),
    ).toEqual([null, null, null, null, 'Rex: new e']);
    // Told the keys were never tried (an RCON poll's lines), though one committed unseen: still once.
    const joined = {
      event: { ...chat('new f'), metadata: { tribeId: randomUUID() } },
      key: { rconKey: randomUUID() },
    };
    const [repeated, fresh] = [
      [first[0], joined],
      [keyed(chat('new g')), joined],
    ];
    expect(
      (await storeGameEvents(t.server.db, serviceId, repeated, true)).map((r) => r?.message ?? null),
    ).toEqual([null, 'Rex: new f']);
    expect(
      (await storeGameEvents(t.server.db, serviceId, fresh, true)).map((r) => r?.message ?? null),
    ).toEqual(['Rex: new g', null]);
  });

  it('stores every event when a side effect of one is refused, without that side effect', async () => {
    await t.server.db.exec(`
      CREATE FUNCTION refuse_tribe() RETURNS trigger LANGUAGE plpgsql AS
        $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$;
      CREATE TRIGGER refuse_tribe BEFORE INSERT ON tribes FOR EACH ROW
        WHEN (NEW.name = 'Refused') EXECUTE FUNCTION refuse_tribe();`);
    const tribe = (name: string): GameEvent => ({
      eventName: 'tribeCreated',
      time: at,
      type: 'Gameplay',
      level: 'Informational',
      message: `${name} was created`,
      metadata: { tribeId: randomUUID(), tribeNumber: Math.floor(Math.random() * 1e9), tribeName: name },
    });
    const lines = await storeGameEvents(t.server.db, serviceId, [
      keyed(chat('before')),
      keyed(tribe('Refused')),
      keyed(tribe('Accepted')),
      keyed(chat('after')),
    ]);
    expect(lines.map((r) => r?.message).sort()).toEqual(
      ['Accepted was created', 'Refused was created', 'Rex: after', 'Rex: before'].sort(),
    );
    const { rows } = await t.server.db.query<{ name: string }>(
      `SELECT name FROM tribes WHERE service_id = $1 AND name IN ('Refused', 'Accepted')`,
      [serviceId],
    );
    expect(rows.map((r) => r.name)).toEqual(['Accepted']);
  });

  it('stores an event alone whose side effect is refused as a duplicate, without that side effect', async () => {
    // A refusal with the code of a line stored twice: it must not be taken for one.
    await t.server.db.exec(`
      CREATE FUNCTION refuse_taken() RETURNS trigger LANGUAGE plpgsql AS
        $$ BEGIN RAISE EXCEPTION 'number taken' USING ERRCODE = 'unique_violation'; END $$;
      CREATE TRIGGER refuse_taken BEFORE INSERT ON tribes FOR EACH ROW
        WHEN (NEW.name = 'Taken') EXECUTE FUNCTION refuse_taken();`);
    const tribeId = randomUUID();
    const [line] = await storeGameEvents(t.server.db, serviceId, [
      keyed({
        eventName: 'tribeCreated',
        time: at,
        type: 'Gameplay',
        level: 'Informational',
        message: 'Taken was created',
        metadata: { tribeId, tribeNumber: 77, tribeName: 'Taken' },
      }),
    ]);
    expect(line?.message).toBe('Taken was created');
    const { rows } = await t.server.db.query('SELECT 1 FROM tribes WHERE tribe_id = $1', [tribeId]);
    expect(rows).toEqual([]);
  });

  it('gives an event named after a property of every object no side effect of another kind', async () => {
    const dino = {
      dinoId: randomUUID(),
      dinoNumber64: '4242',
      dinoSpecies: 'Rex',
      dinoSpeciesPath: '/Game/PrimalEarth/Dinos/Rex/Rex_Character_BP.Rex_Character_BP_C',
    };
    const event = (eventName: string, metadata: Record<string, unknown>): GameEvent => ({
      eventName,
      time: at,
      type: 'Gameplay',
      level: 'Informational',
      message: eventName,
      metadata,
    });
    await storeGameEvents(t.server.db, serviceId, [keyed(event('dinoTamed', dino))]);
    // Had "constructor" found Object, its metadata keys would have become the columns written:
    // this key names every value bound (the dino's id, then one per key), so the statement runs.
    const everyValue = [1, 2, 3, 4, 5, 6].map((n) => `$${n}::text IS NOT NULL`).join(' AND ');
    const hostile = { [`species = 'Hacked' WHERE ${everyValue} --`]: 'x', ...dino };
    const lines = await storeGameEvents(
      t.server.db,
      serviceId,
      ['constructor', 'toString', '__proto__', 'hasOwnProperty'].map((name) => keyed(event(name, hostile))),
    );
    expect(lines.every((l) => l !== null)).toBe(true);
    const { rows } = await t.server.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM dinos WHERE species = 'Hacked'`,
    );
    expect(rows[0].n).toBe(0);
  });

  it('keeps a dino’s region colours as its events report them, and ignores colours that are not six ids', async () => {
    const dino = {
      dinoId: randomUUID(),
      dinoNumber64: '4343',
      dinoSpecies: 'Raptor',
      dinoSpeciesPath: '/Game/PrimalEarth/Dinos/Raptor/Raptor_Character_BP.Raptor_Character_BP_C',
    };
    const event = (dinoColors: unknown): KeyedEvent =>
      keyed({
        eventName: 'dinoTamed',
        time: at,
        type: 'Gameplay',
        level: 'Informational',
        message: 'tamed',
        metadata: { ...dino, dinoColors },
      });
    const colours = async () =>
      (
        await t.server.db.query<{ colors: number[] }>('SELECT colors FROM dinos WHERE dino_id = $1', [
          dino.dinoId,
        ])
      ).rows[0].colors;
    await storeGameEvents(t.server.db, serviceId, [event([1, 2, 3, 0, 55, 255])]);
    expect(await colours()).toEqual([1, 2, 3, 0, 55, 255]);
    for (const bad of [
      [1, 2, 3],
      [1, 2, 3, 4, 5, 256],
      [1, 2, 3, 4, 5, -1],
      [1, 2, 3, 4, 5, 1.5],
      '1,2,3,4,5,6',
      null,
    ])
      await storeGameEvents(t.server.db, serviceId, [event(bad)]);
    expect(await colours()).toEqual([1, 2, 3, 0, 55, 255]);
  });

  /** Two writers store the same lines at once, in opposite orders: each line comes back from exactly one. */
  async function race(lines: KeyedEvent[]) {
    const [a, b] = await Promise.all([
      storeGameEvents(t.server.db, serviceId, lines),
      storeGameEvents(t.server.db, serviceId, [...lines].reverse()),
    ]);
    expect(
      [...a, ...b]
        .filter((r) => r !== null)
        .map((r) => r.message)
        .sort(),
    ).toEqual(lines.map((l) => l.event.message).sort());
  }

  it('stores each line once when two writers store the same lines at once', async () => {
    await race(Array.from({ length: 20 }, (_, i) => keyed(chat(`race ${i}`))));
    const { rows } = await t.server.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM log_messages WHERE service_id = $1 AND message LIKE 'Rex: race %'`,
      [serviceId],
    );
    expect(rows[0].n).toBe(20);
  });

  it('stores each line once when two writers store the same lines with side effects at once', async () => {
    await race(
      Array.from({ length: 10 }, (_, i) => ({
        event: { ...chat(`effect race ${i}`), metadata: { tribeId: randomUUID() } },
        key: { rconKey: randomUUID() },
      })),
    );
  });
});

describe('groupStore', () => {
  const servers = () => t.demo.servers.map((s) => s.serviceId);

  it('stores batches of several servers that arrive together, each caller getting its own lines', async () => {
    const store = groupStore(t.server.db);
    const batches = servers().flatMap((serviceId, n) =>
      [0, 1, 2].map((b) => ({
        serviceId,
        events: [
          keyed(chat(`group ${n}.${b} a`)),
          join(newEosId(), `Grouped ${n}.${b}`),
          keyed(chat(`group ${n}.${b} b`)),
        ],
      })),
    );
    const got = await Promise.all(
      batches.map((b) => store(b.serviceId, b.events, { fresh: true, gather: true })),
    );
    for (const [i, lines] of got.entries()) {
      expect(lines.map((l) => l?.message)).toEqual(batches[i]!.events.map((e) => e.event.message));
      expect(lines.every((l) => l?.serviceId === batches[i]!.serviceId)).toBe(true);
    }
    const { rows } = await t.server.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM player_sessions s JOIN players p USING (player_id)
        WHERE p.name LIKE 'Grouped %' AND s.disconnect_time IS NULL`,
    );
    expect(rows[0].n).toBe(batches.length);
  });

  it('stores each batch on its own when the group is refused, the one already stored skipped', async () => {
    const store = groupStore(t.server.db);
    const [a, b, c] = servers();
    const stored = keyed(chat('stored before'));
    await storeGameEvents(t.server.db, a!, [stored]);
    // Told fresh, wrongly: its key was stored; another's side effect breaks a rule of the tables.
    const refused: KeyedEvent = keyed({
      eventName: 'tribeCreated',
      time: at,
      type: 'Gameplay',
      level: 'Informational',
      message: 'Refused in a group was created',
      metadata: { tribeId: randomUUID(), tribeNumber: 78, tribeName: 'Refused' },
    });
    const got = await Promise.all([
      store(a!, [stored, keyed(chat('beside a stored one'))], { fresh: true, gather: true }),
      store(b!, [refused, join(newEosId(), 'Beside a refused one')], { fresh: true, gather: true }),
      store(c!, [keyed(chat('in a refused group'))], { fresh: true, gather: true }),
    ]);
    expect(got.map((lines) => lines.map((l) => l?.message ?? null))).toEqual([
      [null, 'Rex: beside a stored one'],
      ['Refused in a group was created', 'Beside a refused one joined the server'],
      ['Rex: in a refused group'],
    ]);
  });
});

describe('players shared by servers', () => {
  it('stores joins of the same players on two servers at once, in other orders, with every session', async () => {
    const [a, b] = [t.demo.servers[1].serviceId, t.demo.servers[2].serviceId];
    const players = Array.from({ length: 6 }, (_, i) => ({
      eosId: newEosId(),
      name: `Shared ${i}`,
    }));
    const rounds = 15;
    for (let round = 0; round < rounds; round++) {
      const forward = players.map((p) => join(p.eosId, p.name));
      const backward = [...players].reverse().map((p) => join(p.eosId, p.name));
      // Each batch locks the players' rows as it goes: in opposite orders, two of them deadlocked.
      await Promise.all([
        storeGameEvents(t.server.db, a, forward),
        storeGameEvents(t.server.db, b, backward),
      ]);
    }
    const { rows } = await t.server.db.query<{ identifier: string; service_id: string; n: number }>(
      `SELECT i.identifier, s.service_id, count(*)::int AS n
         FROM player_identifiers i JOIN player_sessions s USING (player_id)
        WHERE i.identifier = ANY($1) GROUP BY 1, 2`,
      [players.map((p) => p.eosId)],
    );
    // Every join opened a session (closing the one before it), on each server, for each player.
    expect(rows).toHaveLength(players.length * 2);
    expect(rows.every((r) => r.n === rounds)).toBe(true);
  });
  it('makes one player of a new game id that two servers report at once, and no other', async () => {
    const [a, b] = [t.demo.servers[1].serviceId, t.demo.servers[2].serviceId];
    const players = Array.from({ length: 20 }, (_, i) => ({
      eosId: newEosId(),
      name: `Newcomer ${randomUUID().slice(0, 8)} ${i}`,
    }));
    // One join a store, as a poll that finds one newcomer stores it: no lock orders these.
    await Promise.all(
      players.flatMap((p) =>
        [a, b].map((server) => storeGameEvents(t.server.db, server, [join(p.eosId, p.name)])),
      ),
    );
    const { rows } = await t.server.db.query<{ name: string; ids: number; sessions: number }>(
      `SELECT p.name, (SELECT count(*)::int FROM player_identifiers i WHERE i.player_id = p.player_id) AS ids,
              (SELECT count(*)::int FROM player_sessions s WHERE s.player_id = p.player_id) AS sessions
         FROM players p WHERE p.name = ANY($1)`,
      [players.map((p) => p.name)],
    );
    expect(rows).toHaveLength(players.length);
    expect(rows.every((r) => r.ids === 1 && r.sessions === 2)).toBe(true);
  });
});

describe('a join', () => {
  const joined = (eosId: string, metadata: Record<string, unknown>, time: number): KeyedEvent => ({
    event: {
      eventName: 'playerJoined',
      time,
      type: 'Gameplay',
      level: 'Informational',
      message: 'joined',
      metadata: { eosId, ...metadata },
    },
    key: { rconKey: randomUUID() },
  });

  it('keeps the name it replaces, takes the connection details, and ends the session still open', async () => {
    const eosId = newEosId();
    const details = {
      success: true,
      countryCode: 'NZ',
      continentCode: 'OC',
      timezone: 'Pacific/Auckland',
      vpn: true,
    };
    await storeGameEvents(t.server.db, serviceId, [
      joined(eosId, { playerName: 'Kea', ipFingerprint: 'fp-a', connectionDetails: details }, at - 60),
    ]);
    // Joined again, never having left: a new name, no fingerprint, lookup failed.
    await storeGameEvents(t.server.db, serviceId, [
      joined(eosId, { playerName: 'Kākāpō', connectionDetails: { success: false } }, at),
    ]);
    const { rows } = await t.server.db.query(
      `SELECT p.name, p.ip_fingerprint, p.ip_lookup_success, p.country_code, p.is_using_vpn,
              (SELECT array_agg(c.name) FROM player_name_changes c WHERE c.player_id = p.player_id) AS was,
              (SELECT array_agg(s.disconnect_time IS NULL ORDER BY s.connect_time) FROM player_sessions s
                WHERE s.player_id = p.player_id AND s.service_id = $2) AS open
         FROM player_identifiers i JOIN players p USING (player_id) WHERE i.identifier = $1`,
      [eosId, serviceId],
    );
    expect(rows).toEqual([
      {
        name: 'Kākāpō',
        ip_fingerprint: 'fp-a',
        ip_lookup_success: false,
        country_code: null,
        is_using_vpn: null,
        was: ['Kea'],
        open: [false, true],
      },
    ]);
  });
});

describe('uuidv7', () => {
  it('makes ids for one millisecond that increase in the order they were made', () => {
    const ms = Date.now();
    const ids = Array.from({ length: 1000 }, () => uuidv7(ms));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(1000);
    expect(
      ids.every((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id)),
    ).toBe(true);
  });
});
