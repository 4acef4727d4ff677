// The game-server link protocol end to end with the `ws` client: hello/welcome, refusals, events
// stored once and acknowledged, side effects on players, status, commands, realtime, the log
// view's list, and the reconnect grace of SENTINEL-API §6.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { LogMessage } from '../../src/domain/api.ts';
import { hashToken, randomToken } from '../../src/server/crypto.ts';
import { signChannel } from '../../src/server/realtime/pusherServer.ts';
import { call, signIn, startTestServer, type TestServer, until } from './helpers.ts';

let t: TestServer;
let owner: string;
let moderator: string;
beforeAll(async () => {
  t = await startTestServer();
  owner = (await signIn(t.base)).access_token;
  moderator = (await signIn(t.base, t.demo.moderator.email, 'palisade-demo')).access_token;
});
afterAll(() => t?.close());

type Frame = Record<string, unknown> & { type?: string; event?: string };

/** A socket whose frames are read in order, waiting when none has arrived yet. */
async function open(
  path: string,
): Promise<{ ws: WebSocket; next(): Promise<Frame>; closed: Promise<number> }> {
  const ws = new WebSocket(t.server.url.replace('http', 'ws') + path);
  const queue: Frame[] = [];
  const waiters: ((f: Frame) => void)[] = [];
  ws.on('message', (d) => {
    const f = JSON.parse(d.toString()) as Frame;
    const w = waiters.shift();
    if (w) w(f);
    else queue.push(f);
  });
  const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
  await new Promise((r, j) => {
    ws.once('open', r);
    ws.once('error', j);
  });
  return {
    ws,
    next: () =>
      queue.length > 0
        ? Promise.resolve(queue.shift()!)
        : new Promise<Frame>((r, j) => {
            const timer = setTimeout(() => j(new Error('no frame within 5 s')), 5000);
            waiters.push((f) => {
              clearTimeout(timer);
              r(f);
            });
          }),
    closed,
  };
}

const send = (ws: WebSocket, f: unknown) => ws.send(JSON.stringify(f));
const island = () => t.demo.servers[0];
const EOS = '0002aabbccddeeff00112233445566aa';
const PLAYER = '4d6f8a10-1c2b-4e3d-9f80-a1b2c3d4e5f6';
// Earlier than anything the server logs itself during the test, so the order is known.
const start = Date.now() / 1000 - 100;

const event = (seq: number, eventName: string, metadata: Record<string, unknown>, message = eventName) => ({
  type: 'event',
  seq,
  event: { eventName, time: start + seq, type: 'Gameplay', level: 'Informational', message, metadata },
});

async function hello(accessKey = island().accessKey) {
  const link = await open('/v4/sentinel/link');
  send(link.ws, { type: 'hello', accessKey, protocol: 1 });
  return link;
}

/**
 * The link's frames up to the ack of `lastSeq`, and the acks among them, which must rise: acks
 * are cumulative, one for each batch stored together.
 */
async function framesUntilAck(link: Awaited<ReturnType<typeof hello>>, lastSeq: number) {
  const frames: Record<string, unknown>[] = [];
  while (!frames.some((f) => f.type === 'ack' && f.seq === lastSeq)) frames.push(await link.next());
  const acks = frames.filter((f) => f.type === 'ack').map((f) => Number(f.seq));
  expect(acks).toEqual([...acks].sort((a, b) => a - b));
  return { frames, acks };
}

async function service(token = owner, serviceId = island().serviceId) {
  return (await call(t.base, token, 'GET', `/sentinel/services/${serviceId}`)).body;
}

/** A console's realtime socket subscribed to `channel` through the built-in Pusher endpoint. */
async function watch(channel: string) {
  const rt = await open('/app/palisade?protocol=7');
  const established = await rt.next();
  const socketId = JSON.parse(established.data as string).socket_id as string;
  send(rt.ws, {
    event: 'pusher:subscribe',
    data: { channel, auth: `palisade:${signChannel(t.server.config.pusher.secret, socketId, channel)}` },
  });
  expect((await rt.next()).event).toBe('pusher_internal:subscription_succeeded');
  return rt;
}

describe('game-server link', () => {
  it('refuses an unknown access key with badAccessKey and close code 4001', async () => {
    const link = await hello('A'.repeat(43));
    expect(await link.next()).toEqual({
      type: 'error',
      code: 'badAccessKey',
      message: 'Unknown access key.',
    });
    expect(await link.closed).toBe(4001);
  });

  it('welcomes, stores events once, applies player and status updates, and publishes', async () => {
    const rt = await watch(`private-sentinel.services.${island().serviceId}`);

    const link = await hello();
    const welcome = await link.next();
    expect(welcome).toEqual({ type: 'welcome', serviceId: island().serviceId, lastEventSeq: 0 });
    expect((await service()).isConnected).toBe(true);

    send(
      link.ws,
      event(1, 'playerJoined', {
        playerId: PLAYER,
        playerName: 'Rexy',
        eosId: EOS,
        ipFingerprint: 'fp1',
        connectionDetails: {
          success: true,
          countryCode: 'DE',
          continentCode: 'EU',
          timezone: 'Europe/Berlin',
          vpn: false,
        },
      }),
    );
    expect(await link.next()).toEqual({ type: 'ack', seq: 1 });
    send(
      link.ws,
      event(
        2,
        'chat',
        {
          source: 'Game',
          senderName: 'Rexy',
          originalMessage: 'hallo <b>zusammen</b>',
          originalLanguage: 'de',
          scope: 'Global',
          playerId: PLAYER,
          translations: { en: 'hello <b>everyone</b>' },
          analysis: { success: true, scores: { hateScore: 0.01 } },
        },
        'Rexy: hallo',
      ),
    );
    expect(await link.next()).toEqual({ type: 'ack', seq: 2 });
    send(link.ws, event(2, 'chat', { playerId: PLAYER }, 'resent'));
    expect(await link.next()).toEqual({ type: 'ack', seq: 2 });
    send(link.ws, event(3, 'playerLeft', { playerId: PLAYER, playerName: 'Rexy' }));
    expect(await link.next()).toEqual({ type: 'ack', seq: 3 });
    send(link.ws, {
      type: 'status',
      currentPlayers: 7,
      maxPlayers: 70,
      gameClock: 12.5,
      clusterId: '11111111-2222-4333-8444-555555555555',
      ipAddress: '203.0.113.9',
      rconConnected: true,
      difficulty: 6,
    });
    send(link.ws, { type: 'ping' });
    expect(await link.next()).toEqual({ type: 'pong' });

    expect(await service()).toMatchObject({
      currentPlayers: 7,
      maxPlayers: 70,
      gameClock: 12.5,
      clusterId: '11111111-2222-4333-8444-555555555555',
      ipAddress: '203.0.113.9',
      rconConnected: true,
      difficulty: 6,
    });

    const db = t.server.db;
    const logs = await db.query<{ n: number }>(
      'SELECT count(*) AS n FROM log_messages WHERE service_id = $1 AND link_seq IS NOT NULL',
      [island().serviceId],
    );
    expect(logs.rows[0].n).toBe(3);
    const sessions = await db.query<{ player_id: string; open: boolean }>(
      'SELECT player_id, disconnect_time IS NULL AS open FROM player_sessions',
    );
    expect(sessions.rows).toEqual([{ player_id: PLAYER, open: false }]);
    const ids = await db.query('SELECT player_id, identifier FROM player_identifiers');
    expect(ids.rows).toEqual([{ player_id: PLAYER, identifier: EOS }]);

    // Realtime: the connect notice, each stored event (chat twice), and the status change.
    const seen: Frame[] = [];
    while (
      !seen.some((f) => f.event === 'serviceUpdated' && JSON.parse(f.data as string).currentPlayers === 7)
    )
      seen.push(await rt.next());
    const chat = seen.find((f) => f.event === 'chatMessage');
    expect(JSON.parse(chat!.data as string)).toMatchObject({
      eventName: 'chat',
      serviceDisplayName: 'Island PvE',
      message: 'Rexy: hallo',
      metadata: { originalMessage: 'hallo <b>zusammen</b>' },
    });
    expect(
      seen.filter((f) => f.event === 'logMessage').map((f) => JSON.parse(f.data as string).eventName),
    ).toEqual(['serverConnected', 'playerJoined', 'chat', 'playerLeft']);
    expect(JSON.parse(seen.at(-1)!.data as string)).not.toHaveProperty('permissions');

    // A reconnect is told where the server's record ends.
    link.ws.close();
    await link.closed;
    const again = await hello();
    expect(await again.next()).toMatchObject({ type: 'welcome', lastEventSeq: 3 });

    // Commands travel to the game server and their results come back.
    const pending = t.server.links.sendCommand(island().serviceId, { type: 'admin', command: 'listplayers' });
    const cmd = await again.next();
    expect(cmd).toEqual({ type: 'command', seq: 1, command: { type: 'admin', command: 'listplayers' } });
    send(again.ws, { type: 'commandResult', seq: 1, ok: true, result: { players: 7 } });
    expect(await pending).toEqual({ players: 7 });

    again.ws.close();
    await again.closed;
    rt.ws.close();
    await expect(
      t.server.links.sendCommand(island().serviceId, { type: 'admin', command: 'x' }),
    ).rejects.toMatchObject({ status: 412, code: 'serviceNotConnected' });
    await until('the server shown disconnected', async () => (await service()).isConnected === false);
  });
});

describe('log messages', () => {
  it('lists newest first with filters, and hides services the caller cannot see', async () => {
    const path = `/sentinel/logMessages?serviceId=${island().serviceId}`;
    const all = await call(t.base, owner, 'GET', path);
    const events = all.body.results.map((m: { eventName: string }) => m.eventName);
    // The first test connected, dropped, came straight back and left: the quick reconnect left no
    // line of its own and took its disconnect's line with it.
    expect(events.slice(0, 2)).toEqual(['serverDisconnected', 'serverConnected']);
    expect(events).toContain('chat');
    const times = all.body.results.map((m: { time: number }) => m.time);
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const chat = await call(
      t.base,
      owner,
      'GET',
      `${path}&eventName=chat,playerLeft&sortDirection=ascending`,
    );
    expect(chat.body.results.map((m: { eventName: string }) => m.eventName)).toEqual(['chat', 'playerLeft']);
    const english = await call(t.base, owner, 'GET', `${path}&eventName=chat&lang=en`);
    expect(english.body.results[0].message).toBe('Rexy: hallo');
    const byPlayer = await call(t.base, owner, 'GET', `/sentinel/logMessages?playerId=${PLAYER}`);
    expect(byPlayer.body.totalResults).toBe(3);
    const text = await call(t.base, owner, 'GET', `/sentinel/logMessages?message=hallo`);
    expect(text.body.results.map((m: { eventName: string }) => m.eventName)).toEqual(['chat']);
    const levels = await call(t.base, owner, 'GET', `${path}&level=Notice&type=Service`);
    expect(levels.body.totalResults).toBe(2);

    const one = await call(t.base, owner, 'GET', `/sentinel/logMessages/${all.body.results[0].messageId}`);
    expect(one.body).toEqual(all.body.results[0]);

    const aberration = t.demo.servers[2].serviceId;
    await t.server.db.query(
      `INSERT INTO log_messages (message_id, service_id, event_name, type, level, time, message)
       VALUES (gen_random_uuid(), $1, 'customMessage', 'Service', 'Notice', now(), 'secret')`,
      [aberration],
    );
    const mod = await call(t.base, moderator, 'GET', '/sentinel/logMessages?pageSize=250');
    expect(mod.body.results.some((m: { serviceId: string }) => m.serviceId === aberration)).toBe(false);
    expect(mod.body.totalResults).toBe(all.body.totalResults);
  });
});

/** The service's connect and disconnect lines, newest first. */
async function outageLines(serviceId: string): Promise<{ messageId: string; eventName: string }[]> {
  const { body } = await call(
    t.base,
    owner,
    'GET',
    `/sentinel/logMessages?serviceId=${serviceId}&eventName=serverConnected,serverDisconnected`,
  );
  return body.results.map((m: LogMessage) => ({ messageId: m.messageId, eventName: m.eventName }));
}

const eventsOf = (lines: { eventName: string }[]) => lines.map((l) => l.eventName);

/** Links the game server, then drops it and waits until the drop is recorded. */
async function linkAndDrop(accessKey: string, serviceId: string) {
  const link = await hello(accessKey);
  expect(await link.next()).toMatchObject({ type: 'welcome', serviceId });
  link.ws.close();
  await link.closed;
  await until(
    'the server shown disconnected',
    async () => (await service(owner, serviceId)).isConnected === false,
  );
}

/** Frames of `rt` up to and including the first that `done` accepts. */
async function framesUntil(rt: { next(): Promise<Frame> }, done: (f: Frame) => boolean) {
  const seen: Frame[] = [];
  do seen.push(await rt.next());
  while (!done(seen.at(-1)!));
  return seen;
}

// After the tests above, which expect no other service's lines in the moderator's list.
describe('reconnects (SENTINEL-API §6: a disconnect is removed if the server is back within 2 minutes)', () => {
  it('a quick reconnect deletes the disconnect line, writes no connect line, and says so on the channels', async () => {
    const scorched = t.demo.servers[1];
    const serviceChannel = `private-sentinel.services.${scorched.serviceId}`;
    const groupChannel = `private-sentinel.groups.${t.demo.groupId}`;
    const onService = await watch(serviceChannel);
    const onGroup = await watch(groupChannel);

    await linkAndDrop(scorched.accessKey, scorched.serviceId);
    // The outage shows at once, live and in the list.
    const dropped = await framesUntil(
      onService,
      (f) => f.event === 'logMessage' && JSON.parse(f.data as string).eventName === 'serverDisconnected',
    );
    expect(dropped.map((f) => f.event)).toContain('serviceUpdated');
    const during = await outageLines(scorched.serviceId);
    expect(eventsOf(during)).toEqual(['serverDisconnected', 'serverConnected']);

    const again = await hello(scorched.accessKey);
    expect(await again.next()).toMatchObject({ type: 'welcome' });
    expect((await service(owner, scorched.serviceId)).isConnected).toBe(true);
    expect(await outageLines(scorched.serviceId)).toEqual([during[1]]);
    const one = await call(t.base, owner, 'GET', `/sentinel/logMessages/${during[0].messageId}`);
    expect(one.status).toBe(404);

    // Both list views hear which line went away; no connect line is published for the blip.
    const back = await framesUntil(onService, (f) => f.event === 'logMessageRemoved');
    expect(back.at(-1)).toMatchObject({ channel: serviceChannel });
    expect(JSON.parse(back.at(-1)!.data as string)).toEqual({
      messageId: during[0].messageId,
      serviceId: scorched.serviceId,
    });
    expect(back.filter((f) => f.event === 'logMessage')).toEqual([]);
    const groupFrames = await framesUntil(onGroup, (f) => f.event === 'logMessageRemoved');
    expect(groupFrames.at(-1)).toMatchObject({ channel: groupChannel });
    expect(
      groupFrames.filter((f) => f.event === 'logMessage').map((f) => JSON.parse(f.data as string).eventName),
    ).toEqual(['serverConnected', 'serverDisconnected']);

    again.ws.close();
    await again.closed;
    await until(
      'Scorched shown disconnected',
      async () => (await service(owner, scorched.serviceId)).isConnected === false,
    );
    onService.ws.close();
    onGroup.ws.close();
  });

  it('a reconnect after the grace period keeps the disconnect line and writes a connect line', async () => {
    const aberration = t.demo.servers[2];
    await linkAndDrop(aberration.accessKey, aberration.serviceId);
    // Two minutes and a second pass, as far as the record of the outage can tell.
    await t.server.db.query(
      `UPDATE services SET connection_change_time = connection_change_time - interval '121 seconds'
        WHERE service_id = $1`,
      [aberration.serviceId],
    );
    const during = await outageLines(aberration.serviceId);

    const again = await hello(aberration.accessKey);
    expect(await again.next()).toMatchObject({ type: 'welcome' });
    const after = await outageLines(aberration.serviceId);
    expect(eventsOf(after)).toEqual(['serverConnected', 'serverDisconnected', 'serverConnected']);
    expect(after.slice(1)).toEqual(during);

    again.ws.close();
    await again.closed;
    await until(
      'Aberration shown disconnected',
      async () => (await service(owner, aberration.serviceId)).isConnected === false,
    );
  });

  it('applies to the disconnect the stale-link sweep records for a process that died', async () => {
    const scorched = t.demo.servers[1];
    const before = await outageLines(scorched.serviceId);
    // Linked through a process that stopped without recording its disconnect.
    await t.server.db.query(
      `UPDATE services SET is_connected = true, connected_to = 'a-process-that-died', outage_message_id = NULL
        WHERE service_id = $1`,
      [scorched.serviceId],
    );
    // The sweep runs every NODE_HEARTBEAT_MS (5 s).
    await until(
      'Scorched shown disconnected',
      async () => (await service(owner, scorched.serviceId)).isConnected === false,
    );
    const swept = await outageLines(scorched.serviceId);
    expect(eventsOf(swept)[0]).toBe('serverDisconnected');
    expect(swept.slice(1)).toEqual(before);

    const again = await hello(scorched.accessKey);
    expect(await again.next()).toMatchObject({ type: 'welcome' });
    expect(await outageLines(scorched.serviceId)).toEqual(before);
    again.ws.close();
    await again.closed;
  });
});

describe('every event is stored, or refused back to the game and counted; none is lost', () => {
  /** A server of its own, so the seqs and lines here are this test's alone. */
  async function ownServer(): Promise<{ serviceId: string; accessKey: string }> {
    const accessKey = randomToken();
    const { rows } = await t.server.db.query<{ id: string }>(
      `INSERT INTO services (user_id, game_id, name, platform, access_key, access_key_hash)
       VALUES ($1, 'ArkSA', 'Refusals', 'PC', $2, $3) RETURNING service_id AS id`,
      [t.demo.userId, accessKey, hashToken(accessKey)],
    );
    return { serviceId: rows[0].id, accessKey };
  }
  const linesBySeq = async (serviceId: string) =>
    (
      await t.server.db.query<{ seq: number; event_name: string; message: string }>(
        'SELECT link_seq AS seq, event_name, message FROM log_messages WHERE service_id = $1 AND link_seq IS NOT NULL ORDER BY link_seq',
        [serviceId],
      )
    ).rows;

  it('refuses an event it cannot store with an error naming its seq, records the refusal, and goes on', async () => {
    const server = await ownServer();
    const link = await hello(server.accessKey);
    expect(await link.next()).toMatchObject({ type: 'welcome', lastEventSeq: 0 });

    send(link.ws, event(1, 'chat', { source: 'Game' }, 'hello\u0000world'));
    expect(await link.next()).toEqual({
      type: 'error',
      code: 'badEvent',
      seq: 1,
      message: 'Event 1: message contains a control character (U+0000).',
    });
    expect(await link.next()).toEqual({ type: 'ack', seq: 1 });
    send(link.ws, event(2, 'chat', { source: 'Game', playerName: 'x\ud800' }, 'fine'));
    expect(await link.next()).toMatchObject({ type: 'error', code: 'badEvent', seq: 2 });
    expect(await link.next()).toEqual({ type: 'ack', seq: 2 });
    // Escape sequences are the game's text, stored as sent and shown inert by the console.
    send(link.ws, event(3, 'chat', { source: 'Game' }, '\u001b[31mred'));
    expect(await link.next()).toEqual({ type: 'ack', seq: 3 });

    // A store the database itself refuses is refused back the same way.
    await t.server.db.exec(
      `ALTER TABLE log_messages ADD CONSTRAINT test_no_boom CHECK (message <> 'boom') NOT VALID`,
    );
    try {
      send(link.ws, event(4, 'chat', { source: 'Game' }, 'boom'));
      expect(await link.next()).toMatchObject({ type: 'error', code: 'eventNotStored', seq: 4 });
      expect(await link.next()).toEqual({ type: 'ack', seq: 4 });
    } finally {
      await t.server.db.exec('ALTER TABLE log_messages DROP CONSTRAINT test_no_boom');
    }
    expect(await linesBySeq(server.serviceId)).toEqual([
      { seq: 1, event_name: 'eventRefused', message: expect.stringContaining('event 1 was refused') },
      { seq: 2, event_name: 'eventRefused', message: expect.stringContaining('unpaired surrogate') },
      { seq: 3, event_name: 'chat', message: '\u001b[31mred' },
      { seq: 4, event_name: 'eventRefused', message: expect.stringContaining('could not store it') },
    ]);
    link.ws.close();
    await link.closed;
  });

  it('acknowledges a burst stored together once, with its last seq', async () => {
    const server = await ownServer();
    const link = await hello(server.accessKey);
    expect(await link.next()).toMatchObject({ type: 'welcome', lastEventSeq: 0 });
    for (let i = 1; i <= 20; i++) send(link.ws, event(i, 'chat', { source: 'Game' }, `line ${i}`));
    // The first is stored alone; those that arrived meanwhile are stored, and acknowledged, together.
    const { acks } = await framesUntilAck(link, 20);
    expect(acks.length).toBeLessThan(20);
    link.ws.close();
    await link.closed;
  });

  it('stores a burst of events together, in order, refusing only the bad and the unstorable ones', async () => {
    const server = await ownServer();
    const link = await hello(server.accessKey);
    expect(await link.next()).toMatchObject({ type: 'welcome', lastEventSeq: 0 });
    await t.server.db.exec(
      `ALTER TABLE log_messages ADD CONSTRAINT test_no_boom CHECK (message <> 'boom') NOT VALID`,
    );
    try {
      // All sent at once: they wait while the first is stored, and are then stored together.
      const says = ['one', 'two', 'hello\u0000world', 'three', 'boom', 'four', 'five'];
      for (const [i, text] of says.entries()) send(link.ws, event(i + 1, 'chat', { source: 'Game' }, text));
      const { frames } = await framesUntilAck(link, says.length);
      expect(frames.filter((f) => f.type === 'error').map((f) => [f.seq, f.code])).toEqual([
        [3, 'badEvent'],
        [5, 'eventNotStored'],
      ]);
    } finally {
      await t.server.db.exec('ALTER TABLE log_messages DROP CONSTRAINT test_no_boom');
    }
    expect((await linesBySeq(server.serviceId)).map((l) => [l.seq, l.event_name])).toEqual([
      [1, 'chat'],
      [2, 'chat'],
      [3, 'eventRefused'],
      [4, 'chat'],
      [5, 'eventRefused'],
      [6, 'chat'],
      [7, 'chat'],
    ]);
    // The lines list in the order the game said them (the list's order: time, then id).
    const { rows } = await t.server.db.query<{ message: string }>(
      `SELECT message FROM log_messages WHERE service_id = $1 AND event_name = 'chat' ORDER BY time, message_id`,
      [server.serviceId],
    );
    expect(rows.map((r) => r.message)).toEqual(['one', 'two', 'three', 'four', 'five']);
    link.ws.close();
    await link.closed;
  });

  it('acknowledges nothing past an event it could neither store nor refuse, and gets it again', async () => {
    const server = await ownServer();
    const link = await hello(server.accessKey);
    expect(await link.next()).toMatchObject({ type: 'welcome', lastEventSeq: 0 });
    send(link.ws, event(1, 'chat', { source: 'Game' }, 'first'));
    expect(await link.next()).toEqual({ type: 'ack', seq: 1 });

    // Event 2 can be neither stored nor refused; a refusal of a later one could be written.
    await t.server.db.exec(
      `ALTER TABLE log_messages ADD CONSTRAINT test_no_boom
         CHECK (message <> 'boom' AND NOT (event_name = 'eventRefused' AND metadata->>'refusedSeq' = '2')) NOT VALID`,
    );
    try {
      send(link.ws, event(2, 'chat', { source: 'Game' }, 'boom'));
      send(link.ws, event(3, 'chat', { source: 'Game' }, 'bad\u0000'));
      send(link.ws, event(4, 'chat', { source: 'Game' }, 'after'));
      expect(await link.next()).toMatchObject({ type: 'error', code: 'eventNotStored', seq: 2 });
      expect(await link.closed).toBe(1011);
    } finally {
      await t.server.db.exec('ALTER TABLE log_messages DROP CONSTRAINT test_no_boom');
    }
    expect((await linesBySeq(server.serviceId)).map((l) => l.seq)).toEqual([1]);
    const again = await hello(server.accessKey);
    expect(await again.next()).toMatchObject({ type: 'welcome', lastEventSeq: 1 });
    again.ws.close();
    await again.closed;
  });
});
