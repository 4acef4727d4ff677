// Servers connected over RCON (docs/servers-connecting.md): adding one, its write-only sealed
// password, the connector polling a simulated server (players, chat, the game log, renames),
// commands out over RCON and refusals for what RCON cannot do, a wrong password, and the game
// server going away and coming back without a chat line lost or doubled. The simulator's RCON side
// is also driven with rcon-client, a library we did not write, so the protocol is not only ours.

import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { Rcon } from 'rcon-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unseal } from '../../src/server/crypto.ts';
import type { Simulator } from '../../src/sim/index.ts';
import type { SimServer } from '../../src/sim/server.ts';
import { call, signIn, startTestServer, type TestServer, until } from './helpers.ts';
import { addRconServer as addServer, startRconGame } from './rconGame.ts';
import { RCON_TEST_TIMINGS } from './rconTimings.ts';

const PASSWORD = 'correct horse';

let t: TestServer;
let token: string;
let sim: Simulator;
let game: SimServer;

const addRconServer = (name: string, password: string, port = game.rcon!.port) =>
  addServer(t.base, token, name, port, password);

const service = async (id: string) => (await call(t.base, token, 'GET', `/sentinel/services/${id}`)).body;

const lines = async (id: string, eventName: string) =>
  (
    await call(
      t.base,
      token,
      'GET',
      `/sentinel/logMessages?serviceId=${id}&eventName=${eventName}&pageSize=250`,
    )
  ).body.results as { message: string; metadata: Record<string, unknown> }[];

beforeAll(async () => {
  t = await startTestServer({ rconTimings: RCON_TEST_TIMINGS, rconKey: 'test-rcon-key' });
  token = (await signIn(t.base)).access_token;
  // Raise the demo owner's plan so the added servers fit.
  await t.server.db.query('UPDATE subscriptions SET units_allowed = 100');
  ({ sim, game } = await startRconGame('RCON island', PASSWORD));
});

afterAll(async () => {
  await sim?.stop();
  await t?.close();
});

describe('the simulator speaks Source RCON to a third-party client', () => {
  it('authenticates, refuses a wrong password, and answers ListPlayers, GetChat and admin commands', async () => {
    await expect(
      Rcon.connect({ host: '127.0.0.1', port: game.rcon!.port, password: 'nope' }),
    ).rejects.toThrow(/Authentication failed/);
    const rcon = await Rcon.connect({ host: '127.0.0.1', port: game.rcon!.port, password: PASSWORD });
    try {
      expect(await rcon.send('ListPlayers')).toBe('No Players Connected');
      const p = game.world.candidates()[0];
      game.play((w) => w.join(p));
      expect(await rcon.send('ListPlayers')).toBe(`0. ${p.name}, ${p.eosId}`);
      expect(await rcon.send('ServerChat hello there')).toMatch(/no response/);
      expect(await rcon.send('GetChat')).toBe('SERVER: hello there\n');
      expect(await rcon.send('GetChat')).toMatch(/no response/);
      expect(await rcon.send(`KickPlayer ${p.eosId}`)).toBe(`${p.eosId} kicked`);
      expect(await rcon.send('ListPlayers')).toBe('No Players Connected');
    } finally {
      await rcon.end();
    }
  });
});

describe('an RCON server', () => {
  let id: string;

  it('is added with its password write-only and sealed with the configured key', async () => {
    const created = await addRconServer('RCON island', PASSWORD);
    id = created.serviceId;
    expect(created).toMatchObject({ connectionKind: 'rcon', rconHost: '127.0.0.1', rconPasswordSet: true });
    expect(JSON.stringify(created)).not.toContain(PASSWORD);
    expect(JSON.stringify(await service(id))).not.toContain(PASSWORD);
    const { rows } = await t.server.db.query<{ sealed: string }>(
      'SELECT rcon_password_sealed AS sealed FROM services WHERE service_id = $1',
      [id],
    );
    expect(rows[0].sealed).not.toContain(PASSWORD);
    expect(unseal(rows[0].sealed, 'test-rcon-key')).toBe(PASSWORD);
    expect(() => unseal(rows[0].sealed, 'another key')).toThrow();
  });

  it('refuses an RCON server without a password or with a bad port', async () => {
    const base = { gameId: 'ArkSA', name: 'X', platform: 'PC', languages: ['en'], connectionKind: 'rcon' };
    const noPw = await call(t.base, token, 'POST', '/sentinel/services', {
      ...base,
      rconHost: 'example.org',
      rconPort: 27020,
    });
    expect(noPw.status).toBe(400);
    expect(noPw.body.message).toBe('An RCON server needs rconPassword.');
    const badPort = await call(t.base, token, 'POST', '/sentinel/services', {
      ...base,
      rconHost: 'example.org',
      rconPort: 70000,
      rconPassword: 'x',
    });
    expect(badPort.body.message).toBe('rconPort must be a whole number from 1 to 65535.');
  });

  it('only editors change the password, and only they see where RCON listens', async () => {
    // The moderator reaches the server through the demo group, with bits short of editing servers.
    await t.server.db.query(
      `INSERT INTO group_services (group_id, service_id, permissions_mask)
       SELECT group_id, $1, permissions_mask FROM group_services LIMIT 1`,
      [id],
    );
    const moderator = (await signIn(t.base, t.demo.moderator.email, t.demo.moderator.password)).access_token;
    const seen = await call(t.base, moderator, 'GET', `/sentinel/services/${id}`);
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ rconHost: null, rconPort: null, rconPasswordSet: true });
    const patch = await call(t.base, moderator, 'PATCH', `/sentinel/services/${id}`, {
      rconPassword: 'stolen',
    });
    // SENTINEL-API §2.2's refusal, echoing what was sent but never a password.
    expect(patch).toMatchObject({
      status: 403,
      body: { code: 'forbidden', message: 'Forbidden', details: { rconPassword: '(write-only)' } },
    });
    expect(JSON.stringify(patch.body)).not.toContain('stolen');
    const bulk = await call(t.base, moderator, 'POST', '/sentinel/services', [
      { serviceId: id, rconHost: 'evil.example', rconPassword: 'stolen' },
    ]);
    expect(bulk).toMatchObject({ status: 403, body: { code: 'forbidden' } });
    expect(JSON.stringify(bulk.body)).not.toContain('stolen');
    expect((await service(id)).rconHost).toBe('127.0.0.1');
    const { rows } = await t.server.db.query<{ sealed: string }>(
      'SELECT rcon_password_sealed AS sealed FROM services WHERE service_id = $1',
      [id],
    );
    expect(unseal(rows[0].sealed, 'test-rcon-key')).toBe(PASSWORD);
  });

  it('connects, and its players, chat, renames and game log arrive once', async () => {
    await until('connected', async () => (await service(id)).isConnected);
    const [a, b] = game.world.candidates();
    game.play((w) => [...w.join(a), ...w.join(b)]);
    await until('two sessions', async () => (await service(id)).currentPlayers === 2);
    const joined = await until('joins', async () => {
      const l = await lines(id, 'playerJoined');
      return l.length === 2 && l;
    });
    expect(joined.map((l) => l.metadata.eosId).sort()).toEqual([a.eosId, b.eosId].sort());
    const sessions = await call(t.base, token, 'GET', `/sentinel/playerSessions?serviceId=${id}`);
    expect(sessions.body.results.filter((s: { disconnectTime: unknown }) => !s.disconnectTime)).toHaveLength(
      2,
    );

    game.play((w) => w.rename(a, 'Renamed Rex'));
    const renamed = await until('rename', async () => (await lines(id, 'playerRenamed'))[0]);
    expect(renamed.metadata).toMatchObject({ newName: 'Renamed Rex' });

    game.play((w) => w.leave(b, 'left'));
    await until('leave', async () => (await lines(id, 'playerLeft')).length === 1);

    game.play(() => [customLine('The wild was culled')]);
    await until('game log line', async () =>
      (await lines(id, 'customMessage')).some((l) => l.message === 'The wild was culled'),
    );
  });

  it('sends chat, kicks, bans and admin commands over RCON, and refuses what RCON cannot do', async () => {
    const chat = await call(t.base, token, 'POST', '/sentinel/chat', {
      serviceId: id,
      message: 'Server restart soon',
    });
    expect(chat.status).toBe(204);
    await until('our chat line back from GetChat', async () =>
      (await lines(id, 'chat')).some((l) => l.metadata.originalMessage === 'Server restart soon'),
    );
    const victim = [...game.world.online.values()][0];
    const ban = await call(t.base, token, 'POST', '/sentinel/gameCommands', {
      serviceId: id,
      type: 'admin',
      command: `BanPlayer ${victim.eosId}`,
    });
    expect(ban.body.results[0]).toMatchObject({ ok: true, result: `${victim.eosId} banned and kicked` });
    expect(game.world.online.has(victim.playerId)).toBe(false);
    await until('the kick ends the session', async () => (await service(id)).currentPlayers === 0);

    const refused = await call(t.base, token, 'POST', '/sentinel/gameCommands', {
      serviceId: id,
      type: 'destroyWildDinos',
    });
    expect(refused.body.results[0].ok).toBe(true);
    const locate = await call(t.base, token, 'POST', '/sentinel/gameCommands', {
      serviceId: id,
      type: 'locate',
      dinoId: '00000000-0000-0000-0000-000000000000',
    });
    expect(locate.body.results[0]).toMatchObject({ ok: false, code: 'rconUnsupported' });
    expect(locate.body.results[0].message).toMatch(/over RCON, which cannot do it\. Nothing was sent\./);
  });

  it('loses and doubles no chat line while the game server restarts', async () => {
    const before = (await lines(id, 'chat')).length;
    const speaker = game.world.candidates()[0];
    game.play((w) => w.join(speaker));
    const say = (n: number) => game.play(() => [chatLine(speaker.name, `line ${n}`)]);
    say(1);
    await until('line 1', async () => (await lines(id, 'chat')).length === before + 1);
    await game.rcon!.stop();
    await until('disconnected', async () => !(await service(id)).isConnected);
    // Said while nobody could poll: the game keeps it for the next GetChat.
    say(2);
    say(3);
    await game.rcon!.start();
    await until('reconnected', async () => (await service(id)).isConnected);
    say(4);
    const all = await until('lines 2–4', async () => {
      const l = await lines(id, 'chat');
      return l.length >= before + 4 && l;
    });
    await new Promise((r) => setTimeout(r, 500));
    const said = (await lines(id, 'chat'))
      .map((l) => l.metadata.originalMessage)
      .filter((m) => /^line \d$/.test(String(m)));
    expect(said.sort()).toEqual(['line 1', 'line 2', 'line 3', 'line 4']);
    expect(all.length).toBe(before + 4);
  });

  it('keeps the chat a poll read when the connection drops before the poll ends', async () => {
    // The game hands each line out once: here GetChat answers, then the connection drops while
    // GetGameLog is asked, so the chat already read exists only in the connector's hands.
    const listener = game.rcon as unknown as { answer(command: string): string; sockets: Set<Socket> };
    const answer = listener.answer;
    let dropped = 0;
    listener.answer = function (this: typeof listener, command: string) {
      if (dropped === 0 && /^getgamelog/i.test(command.trim())) {
        dropped++;
        for (const socket of this.sockets) socket.destroy();
      }
      return answer.call(this, command);
    };
    try {
      const speaker = [...game.world.online.values()][0] ?? game.world.candidates()[0];
      if (!game.world.online.has(speaker.playerId)) game.play((w) => w.join(speaker));
      game.play(() => [chatLine(speaker.name, 'said just before the drop')]);
      await until('the drop', async () => dropped > 0);
      await until('reconnected', async () => (await service(id)).isConnected);
      const said = await until('the line', async () => {
        const l = (await lines(id, 'chat')).filter(
          (m) => m.metadata.originalMessage === 'said just before the drop',
        );
        return l.length > 0 && l;
      });
      await new Promise((r) => setTimeout(r, 500));
      expect(said).toHaveLength(1);
    } finally {
      delete (listener as Partial<typeof listener>).answer;
    }
  });

  it('shows RCON error with the reason for a wrong password, and recovers once it is corrected', async () => {
    const wrong = await addRconServer('Wrong password', 'not it');
    const failed = await until('RCON error', async () => (await service(wrong.serviceId)).rconError);
    expect(failed).toBe(
      "Wrong RCON password: the server refused it (it is the server's ServerAdminPassword).",
    );
    expect((await service(wrong.serviceId)).isConnected).toBe(false);
    const fixed = await call(t.base, token, 'PATCH', `/sentinel/services/${wrong.serviceId}`, {
      rconPassword: PASSWORD,
    });
    expect(fixed.status).toBe(200);
    expect(JSON.stringify(fixed.body)).not.toContain(PASSWORD);
    await until('connected with the new password', async () => (await service(wrong.serviceId)).isConnected);
    expect((await service(wrong.serviceId)).rconError).toBeNull();
  });

  it('counts against the subscription like any server', async () => {
    const { rows } = await t.server.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM services WHERE NOT deleted
          AND user_id = (SELECT user_id FROM services WHERE service_id = $1)`,
      [id],
    );
    await t.server.db.query('UPDATE subscriptions SET units_allowed = $1', [rows[0].n]);
    const over = await call(t.base, token, 'POST', '/sentinel/services', {
      gameId: 'ArkSA',
      name: 'One too many',
      platform: 'PC',
      languages: ['en'],
      connectionKind: 'rcon',
      rconHost: '127.0.0.1',
      rconPort: game.rcon!.port,
      rconPassword: PASSWORD,
    });
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({
      code: 'tooManyResources',
      message: 'Your subscription does not allow more servers.',
      details: { used: rows[0].n, allowed: rows[0].n },
    });
    await t.server.db.query('UPDATE subscriptions SET units_allowed = 100');
  });

  it('is let go, with the reason shown, while its owner has more servers than the plan allows', async () => {
    await until('connected', async () => (await service(id)).isConnected);
    await t.server.db.query('UPDATE subscriptions SET units_allowed = 1');
    const refused = await until('let go', async () => {
      const s = await service(id);
      return !s.isConnected && s;
    });
    expect(refused.linkRefusal).toBe('tooManyServers');
    await t.server.db.query('UPDATE subscriptions SET units_allowed = 100');
    const back = await until('connected again', async () => {
      const s = await service(id);
      return s.isConnected && s;
    });
    expect(back.linkRefusal).toBeNull();
  });

  it('says a closed port refused the connection, and what to check', async () => {
    const closed = await addRconServer('Nobody home', PASSWORD, 1);
    expect(await until('RCON error', async () => (await service(closed.serviceId)).rconError)).toBe(
      'RCON at 127.0.0.1:1 refused the connection: check that the server runs with RCONEnabled=True and RCONPort=1.',
    );
  });
});

const chatLine = (senderName: string, text: string) => ({
  eventName: 'chat' as const,
  time: Date.now() / 1000,
  type: 'Gameplay' as const,
  level: 'Informational' as const,
  message: text,
  metadata: { source: 'Game', senderName, originalMessage: text },
});

const customLine = (message: string) => ({
  eventName: 'customMessage' as const,
  time: Date.now() / 1000,
  type: 'Gameplay' as const,
  level: 'Informational' as const,
  message,
  metadata: { message },
});

describe('addresses a subscriber chooses', () => {
  let strict: TestServer;
  let owner: string;
  beforeAll(async () => {
    // No range of this machine allowed: a hosted instance's default.
    strict = await startTestServer({
      rconTimings: RCON_TEST_TIMINGS,
      rconKey: 'strict-key',
      outboundAllow: [],
    });
    owner = (await signIn(strict.base)).access_token;
    await strict.server.db.query('UPDATE subscriptions SET units_allowed = 100');
  });
  afterAll(() => strict?.close());

  const add = (rconHost: string, rconPort = game.rcon!.port) =>
    call(strict.base, owner, 'POST', '/sentinel/services', {
      gameId: 'ArkSA',
      name: `At ${rconHost}`,
      platform: 'PC',
      languages: ['en'],
      connectionKind: 'rcon',
      rconHost,
      rconPort,
      rconPassword: PASSWORD,
    });

  it('refuses an address inside this server’s networks when saved, in any of its forms', async () => {
    for (const [host, words] of [
      ['127.0.0.1', 'a loopback address (this machine)'],
      ['10.0.0.5', 'a private network address'],
      ['169.254.169.254', 'a link-local address'],
      ['100.64.0.1', 'a carrier-grade NAT address'],
      ['::1', 'a loopback address (this machine)'],
      ['::ffff:127.0.0.1', 'a loopback address (this machine)'],
      ['64:ff9b::a00:5', 'a private network address'],
    ]) {
      const r = await add(host);
      expect({ host, status: r.status, code: r.body.code }).toEqual({
        host,
        status: 400,
        code: 'validation',
      });
      expect(r.body.message).toBe(
        `rconHost ${host} is ${words}, which this server does not connect to; the operator of this installation can allow it.`,
      );
    }
  });

  it('judges a name by where it leads, at connection, and sends no password there', async () => {
    // Anything listening on this machine would be sent the RCON login: count who knocks.
    let knocked = 0;
    const listener = createNetServer((socket) => {
      knocked++;
      socket.destroy();
    });
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
    try {
      const r = await add('localhost', (listener.address() as AddressInfo).port);
      expect(r.status).toBe(200);
      const id = r.body.created[0].serviceId;
      const error = await until('RCON error', async () => {
        const s = (await call(strict.base, owner, 'GET', `/sentinel/services/${id}`)).body;
        return s.rconError;
      });
      expect(error).toMatch(
        /^RCON address localhost \((127\.0\.0\.1|::1)\) is a loopback address \(this machine\), which this server does not connect to/,
      );
      expect(knocked).toBe(0);
    } finally {
      listener.close();
    }
  });
});
