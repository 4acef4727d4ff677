// Real ARK servers over RCON, Survival Evolved and Ascended, played by a fake game written from
// ../shared/ARK-RCON.md on a third-party packet library (fakeArk.ts), not by our simulator: ids of
// both platforms through players, sessions and bans, a backlog split over many packets read whole,
// AdminCmd and tribe-log lines, the "no response" reply, the causes of a failed connection, a
// starting server waited for, a short drop that ends no session, and what follows a stored event
// (scripts, group chat) on RCON servers as on linked ones.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eosId, type FakeArk, type FakeArkOptions, startFakeArk, steamId } from './fakeArk.ts';
import { call, signIn, startTestServer, type TestServer, until } from './helpers.ts';
import { addRconServer } from './rconGame.ts';
import { RCON_TEST_TIMINGS } from './rconTimings.ts';

const PASSWORD = 'ServerAdminPassword!';
const GRACE_MS = 4_000;

let t: TestServer;
let token: string;
const games: FakeArk[] = [];

beforeAll(async () => {
  t = await startTestServer({
    rconTimings: {
      ...RCON_TEST_TIMINGS,
      dropGraceMs: GRACE_MS,
      startingWaitMs: 60_000,
      startingRetryMs: 100,
    },
    rconKey: 'test-rcon-key',
    scripts: { queuePollMs: 100 },
  });
  token = (await signIn(t.base)).access_token;
  await t.server.db.query('UPDATE subscriptions SET units_allowed = 100');
});

afterAll(async () => {
  await Promise.all(games.map((g) => g.stop()));
  await t?.close();
});

async function game(options: Partial<FakeArkOptions> & Pick<FakeArkOptions, 'kind'>): Promise<FakeArk> {
  const g = await startFakeArk({ password: PASSWORD, ...options });
  games.push(g);
  return g;
}

const addServer = async (name: string, g: FakeArk, password = PASSWORD) =>
  (await addRconServer(t.base, token, name, g.port, password)).serviceId;

const service = async (id: string) => (await call(t.base, token, 'GET', `/sentinel/services/${id}`)).body;

const connected = (id: string) =>
  until(`${id} connected`, async () => {
    const s = await service(id);
    return s.isConnected && s.rconConnected && s;
  });

type Line = { message: string; metadata: Record<string, unknown>; time: number };
async function lines(id: string, eventName: string): Promise<Line[]> {
  const { rows } = await t.server.db.query<Line>(
    `SELECT message, metadata, extract(epoch FROM time)::float8 AS time FROM log_messages
      WHERE service_id = $1 AND event_name = $2 ORDER BY time, message_id`,
    [id, eventName],
  );
  return rows;
}

async function openSessions(id: string): Promise<{ player: string; since: number }[]> {
  const { rows } = await t.server.db.query<{ player: string; since: number }>(
    `SELECT player_id::text AS player, extract(epoch FROM connect_time)::float8 AS since FROM player_sessions
      WHERE service_id = $1 AND disconnect_time IS NULL ORDER BY player_id`,
    [id],
  );
  return rows;
}

describe('a Survival Evolved server', () => {
  let ark: FakeArk;
  let id: string;
  const steve = { name: 'Steve', id: '76561198060363401' };
  const zoe = { name: 'Zoë, of the Ünïcode, Tribe', id: steamId(42) };

  beforeAll(async () => {
    ark = await game({ kind: 'evolved' });
    ark.players = [steve, zoe];
    id = await addServer('Evolved island', ark);
  });

  it('shows its players by SteamID64, and is known to run Evolved', async () => {
    const s = await until('two players', async () => {
      const s = await service(id);
      return s.currentPlayers === 2 && s;
    });
    expect(s).toMatchObject({ gameKind: 'evolved', rconGame: null, rconError: null });
    const { rows } = await t.server.db.query<{ identifier: string; name: string }>(
      `SELECT i.identifier, p.name FROM player_identifiers i JOIN players p USING (player_id)
        WHERE i.provider = 'Steam' AND i.identifier = ANY($1) ORDER BY i.identifier`,
      [[steve.id, zoe.id]],
    );
    // Evolved's RCON mangles what is not ASCII; the name after the last ", " is still whole.
    expect(rows).toEqual([
      { identifier: zoe.id, name: 'Zo?, of the ?n?code, Tribe' },
      { identifier: steve.id, name: 'Steve' },
    ]);
    expect(await openSessions(id)).toHaveLength(2);
  });

  it('bans by SteamID64, and banplayer goes out with the id the game knows', async () => {
    const ban = await call(t.base, token, 'POST', '/sentinel/serviceBans', {
      serviceId: id,
      playerId: steve.id,
      comments: 'griefing',
    });
    expect(ban.status, JSON.stringify(ban.body)).toBe(200);
    await until('banplayer sent', async () => ark.bans.has(steve.id));
    expect(ark.commands).toContain(`banplayer ${steve.id}`);
    // The game kicks the banned player: their session ends at the next poll, once.
    await until('the session ended', async () => (await openSessions(id)).length === 1);
    expect((await lines(id, 'playerLeft')).filter((l) => l.metadata.steamId === steve.id)).toHaveLength(1);
  });

  it('takes an admin’s word for which game it runs over the detection', async () => {
    const set = await call(t.base, token, 'PATCH', `/sentinel/services/${id}`, { rconGame: 'ascended' });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({ gameKind: 'ascended', rconGame: 'ascended' });
    const bad = await call(t.base, token, 'PATCH', `/sentinel/services/${id}`, { rconGame: 'mobile' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('rconGame must be one of evolved, ascended, or null to detect it.');
    const back = await call(t.base, token, 'PATCH', `/sentinel/services/${id}`, { rconGame: null });
    expect(back.body).toMatchObject({ gameKind: 'evolved', rconGame: null });
  });
});

describe('a Survival Ascended server', () => {
  let ark: FakeArk;
  let id: string;
  const smokey = { name: 'AFP_Smokey', id: '000283de23c04f9f81016833cce8691d' };
  const bones = { name: 'Dr. Bones Jr', id: eosId(7) };

  beforeAll(async () => {
    ark = await game({ kind: 'ascended' });
    ark.players = [smokey, bones];
    // A backlog said before Palisade first asks: one GetChat reply over many packets.
    for (let n = 0; n < 1_000; n++) ark.chat(smokey.name, 'Smokey', `backlog line ${n} — ünïcode ✓`);
    id = await addServer('Ascended island', ark);
  });

  it('reads a backlog of 1,000 chat lines split over packets whole, in order, once', async () => {
    const said = await until(
      '1,000 lines',
      async () => {
        const l = await lines(id, 'chat');
        return l.length >= 1_000 && l;
      },
      30_000,
    );
    expect(said.map((l) => l.metadata.originalMessage)).toEqual(
      Array.from({ length: 1_000 }, (_, n) => `backlog line ${n} — ünïcode ✓`),
    );
    // Spoken by a known player: the line carries their player id.
    expect(said[0].metadata).toMatchObject({ eosId: smokey.id, senderName: smokey.name });
    expect(typeof said[0].metadata.playerId).toBe('string');
    expect((await service(id)).gameKind).toBe('ascended');
  });

  it('stores AdminCmd lines as admin commands by that admin, and tribe logs on their tribe', async () => {
    ark.adminCmd('showAdminManager', smokey, 827627995);
    ark.tribeLog('Raiders', 1234567, 12, '04:05:06', 'Bones tamed a Raptor!');
    const admin = await until('the admin command', async () => (await lines(id, 'adminCommand'))[0]);
    expect(admin.message).toBe('AFP_Smokey executed `showAdminManager`');
    expect(admin.metadata).toMatchObject({
      command: 'showAdminManager',
      eosId: smokey.id,
      arkId: '827627995',
    });
    const { rows } = await t.server.db.query<{ player_id: string }>(
      `SELECT player_id FROM player_identifiers WHERE provider = 'EOS' AND identifier = $1`,
      [smokey.id],
    );
    expect(admin.metadata.playerId).toBe(rows[0].player_id);
    // Not a chat line from someone called "AdminCmd".
    expect((await lines(id, 'chat')).some((l) => String(l.metadata.senderName).startsWith('AdminCmd'))).toBe(
      false,
    );
    const tribe = await until('the tribe log line', async () => (await lines(id, 'tribeLog'))[0]);
    expect(tribe.message).toBe('Raiders: Bones tamed a Raptor!');
    const tribes = await t.server.db.query<{ tribe_id: string; name: string }>(
      'SELECT tribe_id, name FROM tribes WHERE service_id = $1 AND tribe_number = 1234567',
      [id],
    );
    expect(tribes.rows).toEqual([{ tribe_id: tribe.metadata.tribeId, name: 'Raiders' }]);
  });

  it('answers a command that printed nothing with no result rather than the game’s phrase', async () => {
    const saved = await call(t.base, token, 'POST', '/sentinel/gameCommands', {
      serviceId: id,
      type: 'admin',
      command: 'SaveWorld',
    });
    expect(saved.body.results[0]).toMatchObject({ ok: true, result: null });
    const listed = await call(t.base, token, 'POST', '/sentinel/gameCommands', {
      serviceId: id,
      type: 'admin',
      command: 'ListPlayers',
    });
    expect(listed.body.results[0].result).toBe(
      `0. ${smokey.name}, ${smokey.id}\n1. ${bones.name}, ${bones.id}`,
    );
  });

  it('keeps sessions whole through a 1 s drop, and a player gone meanwhile leaves once, when last seen', async () => {
    const before = await openSessions(id);
    expect(before).toHaveLength(2);
    const joins = (await lines(id, 'playerJoined')).length;
    await ark.stop();
    const stoppedAt = Date.now() / 1000;
    ark.players = [smokey];
    await until('the drop is shown', async () =>
      (await service(id)).rconError?.startsWith('The connection dropped; reconnecting.'),
    );
    expect((await service(id)).isConnected).toBe(true);
    await new Promise((r) => setTimeout(r, 1_000));
    await ark.start();
    await until('reconnected', async () => (await service(id)).rconError === null);
    const left = await until('Bones left', async () =>
      (await lines(id, 'playerLeft')).find((l) => l.metadata.eosId === bones.id),
    );
    // Last seen at the last poll before the drop, not when the connection came back.
    expect(left.time).toBeLessThanOrEqual(stoppedAt);
    expect(await openSessions(id)).toEqual(
      before.filter((s) => s.player !== (left.metadata.playerId as string)),
    );
    expect((await lines(id, 'playerJoined')).length).toBe(joins);
    expect((await lines(id, 'serverDisconnected')).length).toBe(0);
  });

  it('reconnects after a reply cut mid-way, losing the connection’s grace, nothing doubled', async () => {
    const before = (await lines(id, 'chat')).length;
    ark.cutNextReply(10);
    // Said once the connection is back: a line in the cut reply itself is gone for good (the game
    // hands each line out once), which no client can help.
    const accepted = ark.accepted;
    await until('reconnected after the cut', async () => ark.accepted > accepted && ark.connections > 0);
    ark.chat(smokey.name, 'Smokey', 'after the cut');
    const after = await until('the line after the cut', async () => {
      const l = (await lines(id, 'chat')).filter((x) => x.metadata.originalMessage === 'after the cut');
      return l.length > 0 && l;
    });
    expect(after).toHaveLength(1);
    expect((await lines(id, 'chat')).length).toBeGreaterThanOrEqual(before);
    await connected(id);
    expect(await openSessions(id)).toHaveLength(1);
  });

  it('records the disconnect once a drop outlasts its grace, sessions ended when last seen', async () => {
    await ark.stop();
    const stoppedAt = Date.now() / 1000;
    const down = await until(
      'disconnected',
      async () => {
        const s = await service(id);
        return !s.isConnected && s;
      },
      GRACE_MS * 4,
    );
    expect(down.rconError).toMatch(
      /^Waiting for RCON at 127\.0\.0\.1:\d+ \(the connection is refused so far\)/,
    );
    expect(await openSessions(id)).toEqual([]);
    const { rows } = await t.server.db.query<{ ended: number }>(
      `SELECT max(extract(epoch FROM disconnect_time))::float8 AS ended FROM player_sessions WHERE service_id = $1`,
      [id],
    );
    expect(rows[0].ended).toBeLessThanOrEqual(stoppedAt);
    await ark.start();
    await connected(id);
  });
});

describe('what a poll asks', () => {
  it('chat every poll, players every second, the game log every third; someone new who talks at once', async () => {
    const ark = await game({ kind: 'evolved' });
    const ann = { name: 'Ann', id: steamId(7001) };
    const bob = { name: 'Bob', id: steamId(7002) };
    ark.players = [ann];
    const id = await addServer('Quiet island', ark);
    await until('Ann online', async () => (await openSessions(id)).length === 1);
    // Over quiet polls: most answers would say nothing new, so fewer questions are asked.
    const from = ark.commands.length;
    const asked = (re: RegExp) => ark.commands.slice(from).filter((c) => re.test(c)).length;
    await until('twelve polls', async () => asked(/^getchat$/i) >= 12);
    const polls = asked(/^getchat$/i);
    expect(asked(/^listplayers$/i)).toBeGreaterThanOrEqual(Math.floor(polls / 2) - 1);
    expect(asked(/^listplayers$/i)).toBeLessThanOrEqual(Math.ceil(polls / 2) + 1);
    expect(asked(/^getgamelog$/i)).toBeGreaterThanOrEqual(Math.floor(polls / 3) - 1);
    expect(asked(/^getgamelog$/i)).toBeLessThanOrEqual(Math.ceil(polls / 3) + 1);

    // Bob joins and talks just after a list that did not show him: the same poll asks again, so
    // his join is stored with or before his line, and the line carries his id.
    ark.afterCommand = (line) => {
      if (!/^listplayers$/i.test(line)) return;
      ark.afterCommand = null;
      ark.players = [ann, bob];
      ark.chat(bob.name, 'Bobby', 'hello, just arrived');
    };
    const chat = await until('Bob’s line', async () => (await lines(id, 'chat'))[0]);
    expect(chat.metadata).toMatchObject({ senderName: 'Bob', steamId: bob.id });
    const { rows } = await t.server.db.query<{ joined: boolean }>(
      `SELECT j.xmin::text::bigint <= c.xmin::text::bigint AS joined
         FROM log_messages j, log_messages c
        WHERE j.service_id = $1 AND j.event_name = 'playerJoined' AND j.metadata->>'steamId' = $2
          AND c.service_id = $1 AND c.event_name = 'chat'`,
      [id, bob.id],
    );
    expect(rows).toEqual([{ joined: true }]);
  });
});

describe('a server that kept its chat and log while nobody asked', () => {
  it('brings the chat said after the first poll before the rest of the log, and the log whole, once', async () => {
    const ark = await game({ kind: 'evolved' });
    const kept = Array.from({ length: 3_000 }, (_, n) => `kept line ${n}`);
    for (const line of kept) ark.gameLog(line);
    // Said once the first poll has read the whole log: the second poll's GetChat brings it.
    ark.afterCommand = (line) => {
      if (!/^getgamelog/i.test(line)) return;
      ark.afterCommand = null;
      ark.chat('Wanderer', 'Wanderer', 'said while the log is stored');
    };
    const id = await addServer('Long log island', ark);
    const log = await until(
      'the whole log',
      async () => {
        const l = (await lines(id, 'customMessage')).filter((m) => m.message.startsWith('kept line'));
        return l.length >= kept.length && l;
      },
      60_000,
    );
    expect(log.map((l) => l.message).sort()).toEqual([...kept].sort());
    expect((await lines(id, 'chat')).map((l) => l.metadata.originalMessage)).toEqual([
      'said while the log is stored',
    ]);
    // Which transaction stored a line (xmin) orders the stores: most of the log came after the chat.
    const { rows } = await t.server.db.query<{ before: number }>(
      `SELECT count(*)::int AS before FROM log_messages
        WHERE service_id = $1 AND event_name = 'customMessage'
          AND xmin::text::bigint < (SELECT xmin::text::bigint FROM log_messages
                                     WHERE service_id = $1 AND event_name = 'chat')`,
      [id],
    );
    expect(rows[0].before).toBeLessThan(kept.length / 2);
  });

  it('sends a console’s command while a chat backlog is stored, not after it', async () => {
    const ark = await game({ kind: 'ascended' });
    for (let n = 0; n < 2_000; n++) ark.chat('Wanderer', 'Wanderer', `backlog line ${n}`);
    const added = addServer('Chatty island', ark);
    // Sent as soon as the first poll has read the backlog, while it is being stored.
    let sent: Promise<{ status: number }> | undefined;
    ark.afterCommand = (line) => {
      if (!/^getchat/i.test(line)) return;
      ark.afterCommand = null;
      sent = added.then((id) =>
        call(t.base, token, 'POST', '/sentinel/chat', { serviceId: id, message: 'Restart in five' }),
      );
    };
    const id = await added;
    const said = await until(
      'the backlog and the command’s line',
      async () => {
        const l = await lines(id, 'chat');
        return l.length >= 2_001 && l;
      },
      60_000,
    );
    expect((await sent)?.status).toBe(204);
    expect(said.filter((l) => l.metadata.originalMessage === 'Restart in five')).toHaveLength(1);
    // The game had it before the poll that read the backlog, once that was stored, asked for the log.
    const serverChat = ark.commands.findIndex((c) => c.startsWith('ServerChat'));
    expect(serverChat).toBeGreaterThan(-1);
    expect(serverChat).toBeLessThan(ark.commands.findIndex((c) => /^getgamelog/i.test(c)));
    expect(said).toHaveLength(2_001);
  });
});

describe('why an RCON server is not connected', () => {
  it('names a wrong password answered by -1, by silence and by a closed connection', async () => {
    const cases: [FakeArkOptions['wrongPassword'], RegExp][] = [
      ['minusOne', /^Wrong RCON password: the server refused it/],
      // Silence is what a starting server shows too: waited for (past the wait, the unit tests'
      // "did not answer the login … or the password is wrong").
      ['silence', /^Waiting for RCON at 127\.0\.0\.1:\d+ \(the login is not answered so far\)/],
      ['close', /closed the connection during the login: check the password/],
    ];
    for (const [how, says] of cases) {
      const ark = await game({ kind: 'ascended', wrongPassword: how });
      const id = await addServer(`Wrong password, ${how}`, ark, 'not it');
      const error = await until(`the error of ${how}`, async () => {
        const e = (await service(id)).rconError;
        return e && e;
      });
      expect(error).toMatch(says);
    }
  });

  it('drops a reply of more than 8 MiB and goes on with the next', async () => {
    const ark = await game({ kind: 'ascended' });
    // What no game sends: 9 MiB of log in one reply (an address is the subscriber's choice).
    const line = 'x'.repeat(1_000);
    for (let n = 0; n < 9 * 1_024; n++) ark.gameLog(line);
    const id = await addServer('Flooding island', ark);
    await connected(id);
    // The reply is dropped, the connection made again (the words: tests/unit/rcon.test.ts), and
    // what is said next arrives; nothing of the flood is kept.
    await until('a second connection', async () => ark.accepted >= 2);
    ark.chat('Wanderer', 'Wanderer', 'said after the flood');
    await until('the line after', async () => (await lines(id, 'chat')).length === 1);
    expect((await lines(id, 'customMessage')).filter((l) => l.message === line)).toEqual([]);
    expect((await service(id)).rconError).toBeNull();
  });

  it('waits for a server that is starting, and connects once its RCON opens', async () => {
    for (const starting of ['refuse', 'silent'] as const) {
      const ark = await game({ kind: 'ascended', starting });
      const id = await addServer(`Starting, ${starting}`, ark);
      const waiting = await until('waiting', async () => (await service(id)).rconError);
      expect(waiting).toMatch(
        /^Waiting for RCON at 127\.0\.0\.1:\d+ \(the (connection is refused|login is not answered|connection is not answered) so far\): a server that is starting opens it up to two minutes after start\.$/,
      );
      await ark.ready();
      await connected(id);
    }
  });
});

describe('what follows an event on an RCON server', () => {
  it('runs a chat-triggered Simple script, whose reply goes out over RCON', async () => {
    const ark = await game({ kind: 'ascended' });
    ark.players = [{ name: 'Ann', id: eosId(100) }];
    const id = await addServer('Scripted', ark);
    await connected(id);
    const made = await call(t.base, token, 'POST', '/sentinel/scripts', {
      name: 'Greeter',
      events: [
        {
          language: 'Simple',
          context: 'chat',
          code: JSON.stringify({
            match: 'all',
            conditions: [{ field: 'message', operator: 'beginsWith', value: 'hello' }],
            actions: [{ type: 'sendChat', options: { message: 'Welcome!', senderName: 'Greeter' } }],
          }),
        },
      ],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const attached = await call(t.base, token, 'POST', '/sentinel/serviceScripts', {
      serviceId: id,
      scriptId: made.body.created[0].scriptId,
      parameterValues: {},
    });
    expect(attached.status, JSON.stringify(attached.body)).toBe(200);
    ark.chat('Ann', 'Annie', 'hello there');
    await until('the reply in game', async () => ark.commands.includes('ServerChat Greeter: Welcome!'));
  });

  it('relays group chat from one RCON server to another, with its origin', async () => {
    const [a, b] = [await game({ kind: 'evolved' }), await game({ kind: 'ascended' })];
    a.players = [{ name: 'Rexina', id: steamId(7) }];
    const [idA, idB] = [await addServer('Relay A', a), await addServer('Relay B', b)];
    const group = await call(t.base, token, 'POST', '/sentinel/groups', { name: 'Relay cluster' });
    expect(group.status, JSON.stringify(group.body)).toBe(200);
    const groupId = group.body.created[0].groupId;
    for (const serviceId of [idA, idB])
      expect(
        (
          await call(t.base, token, 'POST', '/sentinel/groupServices', {
            groupId,
            serviceId,
            permissionsMask: 1,
          })
        ).status,
      ).toBe(200);
    expect(
      (await call(t.base, token, 'PATCH', `/sentinel/groups/${groupId}`, { enableGroupChat: true })).status,
    ).toBe(200);
    await Promise.all([connected(idA), connected(idB)]);
    await until('Rexina seen', async () => (await openSessions(idA)).length === 1);
    a.chat('Rexina', 'Rex', 'raptors at the river');
    await until('relayed to B', async () =>
      b.commands.includes('ServerChat [Relay A] Rexina: raptors at the river'),
    );
    // B's copy comes back as the console's line: it is not relayed again.
    await until('B stored it', async () =>
      (await lines(idB, 'chat')).some((l) => l.metadata.source === 'WebService'),
    );
    expect(a.commands.filter((c) => c.startsWith('ServerChat'))).toEqual([]);
  });
});
