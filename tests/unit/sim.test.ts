import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';
import { EOS_ID } from '../../src/domain/constants.ts';
import { MODERATION_SCORES } from '../../src/domain/enums.ts';
import type { CommandReply, GameCommand, LinkEvent, ModFrame, StatusFrame } from '../../src/domain/link.ts';
import { chatter } from '../../src/sim/behaviours.ts';
import { runCommand } from '../../src/sim/commands.ts';
import { EventQueue } from '../../src/sim/eventQueue.ts';
import { type Simulator, startSimulator } from '../../src/sim/index.ts';
import { createPopulation } from '../../src/sim/population.ts';
import { createRng } from '../../src/sim/random.ts';
import { World } from '../../src/sim/world.ts';

const KEY = 'k'.repeat(43);
const SERVICE_ID = '11111111-2222-4333-8444-555555555555';
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The server side of the link, as the protocol defines it, with a record of every frame. */
class FakeLink {
  readonly wss: WebSocketServer;
  readonly stored = new Map<number, LinkEvent>();
  readonly seqsReceived: number[] = [];
  readonly statuses: StatusFrame[] = [];
  readonly hellos: unknown[] = [];
  /** Players online according to the events stored so far, checked against every status frame. */
  readonly online = new Set<string>();
  readonly populationMismatches: string[] = [];
  accepting = true;
  private socket: WebSocket | null = null;
  private commandSeq = 0;
  private readonly replies = new Map<number, (r: CommandReply) => void>();

  constructor() {
    this.wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    this.wss.on('connection', (ws) => {
      if (!this.accepting) {
        ws.close(1013, 'Try again later');
        return;
      }
      ws.on('message', (raw) => this.onFrame(ws, JSON.parse(raw.toString())));
    });
  }

  get url() {
    return `ws://127.0.0.1:${(this.wss.address() as AddressInfo).port}/v4/sentinel/link`;
  }

  get lastStoredSeq() {
    return Math.max(0, ...this.stored.keys());
  }

  events(name?: string) {
    return [...this.stored.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, e]) => e)
      .filter((e) => !name || e.eventName === name);
  }

  private onFrame(ws: WebSocket, frame: ModFrame) {
    switch (frame.type) {
      case 'hello':
        this.hellos.push(frame);
        if (frame.accessKey !== KEY) {
          ws.send(JSON.stringify({ type: 'error', code: 'badAccessKey', message: 'Unknown access key.' }));
          ws.close(4001);
          return;
        }
        this.socket = ws;
        ws.send(JSON.stringify({ type: 'welcome', serviceId: SERVICE_ID, lastEventSeq: this.lastStoredSeq }));
        return;
      case 'event': {
        const { seq, event } = frame;
        this.seqsReceived.push(seq);
        if (!this.stored.has(seq)) {
          this.stored.set(seq, event);
          const playerId = event.metadata.playerId as string;
          if (event.eventName === 'playerJoined') this.online.add(playerId);
          if (event.eventName === 'playerLeft') this.online.delete(playerId);
        }
        ws.send(JSON.stringify({ type: 'ack', seq }));
        return;
      }
      case 'status': {
        this.statuses.push(frame);
        if (frame.currentPlayers !== this.online.size) {
          this.populationMismatches.push(`${frame.currentPlayers} vs ${this.online.size}`);
        }
        return;
      }
      case 'commandResult': {
        const { seq, ok, result, error } = frame;
        this.replies.get(seq)?.({ ok, result, error });
        return;
      }
      case 'ping':
        ws.send(JSON.stringify({ type: 'pong' }));
    }
  }

  command(command: GameCommand): Promise<CommandReply> {
    const seq = ++this.commandSeq;
    return new Promise((resolve) => {
      this.replies.set(seq, resolve);
      this.socket?.send(JSON.stringify({ type: 'command', seq, command }));
    });
  }

  dropLink() {
    this.socket?.terminate();
    this.socket = null;
  }

  close() {
    for (const ws of this.wss.clients) ws.terminate();
    return new Promise((resolve) => this.wss.close(resolve));
  }
}

let link: FakeLink;
let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.stop();
  sim = undefined;
  await link?.close();
});

async function start(accessKey = KEY, logs: string[] = []) {
  link = new FakeLink();
  await new Promise((resolve) => link.wss.once('listening', resolve));
  sim = startSimulator({
    linkUrl: link.url,
    servers: [{ accessKey, name: 'The Island' }],
    tickMs: 20,
    seed: 7,
    onLog: (line) => logs.push(line),
  });
  return sim.servers[0];
}

const POLL = { timeout: 5000, interval: 20 };

describe('simulator over the link', () => {
  it('says hello with its access key and protocol, and is welcomed', async () => {
    const server = await start();
    await expect.poll(() => server.link?.connected, POLL).toBe(true);
    expect(link.hellos[0]).toEqual({ type: 'hello', accessKey: KEY, protocol: 1 });
    expect(server.link?.serviceId).toBe(SERVICE_ID);
  });

  it('keeps retrying, without being welcomed, when its access key is refused', async () => {
    const logs: string[] = [];
    const server = await start('unknown-key', logs);
    await expect.poll(() => logs.some((l) => l.includes('access key refused')), POLL).toBe(true);
    expect(server.link?.connected).toBe(false);
    expect(link.stored.size).toBe(0);
  });

  it('numbers events from 1 and drops them once acknowledged', async () => {
    const server = await start();
    await expect.poll(() => link.stored.size, POLL).toBeGreaterThan(20);
    const seqs = [...link.stored.keys()];
    expect(seqs.slice(0, 20)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    // Only what was sent since the last ack can still be queued.
    expect(server.queue.pending).toBeLessThan(link.stored.size);
    await expect.poll(() => server.queue.lastSeq - server.queue.pending, POLL).toBeGreaterThan(20);
  });

  it('delivers every event exactly once across a dropped link and an outage', async () => {
    const server = await start();
    await expect.poll(() => link.stored.size, POLL).toBeGreaterThan(10);
    link.accepting = false;
    link.dropLink();
    // Events made while disconnected wait in the queue.
    await expect.poll(() => server.queue.pending, POLL).toBeGreaterThan(5);
    link.accepting = true;
    await expect.poll(() => server.link?.connected, POLL).toBe(true);
    await expect.poll(() => server.queue.pending, POLL).toBeLessThan(3);
    const made = server.queue.lastSeq;
    await expect.poll(() => link.lastStoredSeq, POLL).toBeGreaterThanOrEqual(made);
    await sim?.stop();

    const n = link.lastStoredSeq;
    expect([...link.stored.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    expect(link.seqsReceived).toEqual(Array.from({ length: link.seqsReceived.length }, (_, i) => i + 1));
    expect(link.populationMismatches).toEqual([]);
  });

  it('sends status frames whose clock advances and whose population follows joins and leaves', async () => {
    await start();
    await expect
      .poll(() => new Set(link.statuses.map((s) => s.currentPlayers)).size, POLL)
      .toBeGreaterThan(2);
    const clocks = link.statuses.map((s) => s.gameClock);
    expect(clocks.every((c, i) => i === 0 || c > clocks[i - 1])).toBe(true);
    expect(link.statuses[0]).toMatchObject({ maxPlayers: 70, rconConnected: true });
    expect(link.statuses[0].clusterId).toMatch(UUID_V4);
    expect(link.populationMismatches).toEqual([]);
  });

  it('obeys admin commands: banplayer kicks, kickplayer kicks, unknown verbs still answer', async () => {
    const server = await start();
    await expect.poll(() => server.world.online.size, POLL).toBeGreaterThan(1);
    const [victim, other] = [...server.world.online.values()];

    const ban = await link.command({ type: 'admin', command: `banplayer ${victim.eosId}` });
    expect(ban).toEqual({ ok: true, result: `${victim.eosId} banned and kicked` });
    await expect
      .poll(() => link.events('playerLeft').some((e) => e.metadata.playerId === victim.playerId), POLL)
      .toBe(true);
    expect(server.world.online.has(victim.playerId)).toBe(false);

    const kick = await link.command({ type: 'admin', command: `kickplayer ${other.eosId}` });
    expect(kick.ok).toBe(true);
    expect(server.world.online.has(other.playerId)).toBe(false);

    const list = await link.command({ type: 'admin', command: 'listplayers' });
    expect(list.ok).toBe(true);
    expect(String(list.result)).not.toContain(victim.eosId);

    expect(await link.command({ type: 'admin', command: 'saveworld' })).toMatchObject({ ok: true });
    expect(await link.command({ type: 'admin', command: `unbanplayer ${victim.eosId}` })).toEqual({
      ok: true,
      result: `${victim.eosId} unbanned`,
    });
    expect(await link.command({ type: 'teleportDino', dinoId: 'x', x: 0, y: 0, z: 0 })).toEqual({
      ok: false,
      error: 'No such dino on this server',
    });
    expect(await link.command({ type: 'summonMeteor' })).toEqual({ ok: false, error: 'Unsupported command' });
    expect(link.populationMismatches).toEqual([]);
  });

  it('echoes web chat and broadcasts as events from the web service', async () => {
    const server = await start();
    await expect.poll(() => server.link?.connected, POLL).toBe(true);
    const chat = await link.command({
      type: 'chat',
      message: 'Hallo',
      senderName: 'Admin',
      languageCode: 'de',
    });
    expect(chat.ok).toBe(true);
    await link.command({ type: 'broadcast', message: 'Restart in 5 minutes' });
    await expect
      .poll(() => link.events('chat').find((e) => e.metadata.source === 'WebService')?.metadata, POLL)
      .toMatchObject({ originalMessage: 'Hallo', originalLanguage: 'de', senderName: 'Admin' });
    await expect
      .poll(() => link.events('broadcasted')[0]?.metadata, POLL)
      .toMatchObject({ originalMessage: 'Restart in 5 minutes', source: 'WebService' });
  });

  it('sends game chat with translations and nine scores', async () => {
    await start();
    await expect.poll(() => link.events('chat').length, POLL).toBeGreaterThan(3);
    for (const e of link.events('chat')) {
      const m = e.metadata as {
        translations: Record<string, string>;
        originalLanguage: string;
        originalMessage: string;
        analysis: { success: boolean; scores: Record<string, number> };
      };
      expect(m.translations.en).toBeTruthy();
      expect(m.translations[m.originalLanguage]).toBe(m.originalMessage);
      expect(Object.keys(m.analysis.scores).sort()).toEqual([...MODERATION_SCORES].sort());
      for (const s of Object.values(m.analysis.scores)) expect(s >= 0 && s <= 1).toBe(true);
    }
  });
});

describe('simulator pieces', () => {
  it('derives the same players from the same seed, with v4 player ids and EOS ids', () => {
    const a = createPopulation(createRng(42), 50);
    const b = createPopulation(createRng(42), 50);
    expect(a.map((p) => p.playerId)).toEqual(b.map((p) => p.playerId));
    expect(new Set(a.map((p) => p.playerId)).size).toBe(50);
    for (const p of a) {
      expect(p.playerId).toMatch(UUID_V4);
      expect(p.eosId).toMatch(EOS_ID);
    }
    expect(createPopulation(createRng(43), 1)[0].playerId).not.toBe(a[0].playerId);
  });

  it('keeps a banned player out until unbanned', () => {
    const rng = createRng(1);
    const world = new World(rng, createPopulation(rng, 5));
    const p = world.population[0];
    world.ban(p.eosId.toUpperCase());
    expect(world.join(p)).toEqual([]);
    expect(world.candidates()).not.toContain(p);
    world.unban(p.eosId);
    expect(world.join(p).map((e) => e.eventName)).toEqual(['playerJoined', 'playerSpawned']);
  });

  it('simtype: an online player types the line, as chat or as the command it is', () => {
    const rng = createRng(5);
    const world = new World(rng, createPopulation(rng, 5));
    const p = world.population[0];
    world.join(p);
    const said = runCommand(world, { type: 'admin', command: 'simtype !rules please' });
    expect(said.reply).toMatchObject({ ok: true });
    expect(said.events.map((e) => [e.eventName, e.metadata.originalMessage, e.metadata.playerId])).toEqual([
      ['chat', '!rules please', p.playerId],
    ]);
    const slash = runCommand(world, { type: 'admin', command: 'simtype /kit starter' });
    expect(slash.events.map((e) => e.eventName)).toEqual(['slashCommand']);
    expect(runCommand(world, { type: 'admin', command: 'simtype' }).reply).toEqual({
      ok: false,
      error: 'Missing text',
    });
  });

  it('chats in several languages, mostly with low scores and sometimes high ones', () => {
    const rng = createRng(3);
    const world = new World(rng, createPopulation(rng, 60));
    for (const p of world.population.slice(0, 30)) world.join(p);
    const chats = Array.from({ length: 400 }, () => chatter(world)).flat();
    const languages = new Set(chats.map((e) => e.metadata.originalLanguage));
    expect(languages.size).toBeGreaterThanOrEqual(4);
    const peaks = chats.map((e) =>
      Math.max(...Object.values((e.metadata.analysis as { scores: Record<string, number> }).scores)),
    );
    expect(peaks.filter((s) => s < 0.3).length).toBeGreaterThan(chats.length / 2);
    expect(peaks.some((s) => s > 0.8)).toBe(true);
  });

  it('renumbers unsent events after a server that has seen more than this queue issued', () => {
    const q = new EventQueue();
    const e = {
      eventName: 'chat',
      time: 0,
      type: 'Gameplay',
      level: 'Debug',
      message: '',
      metadata: {},
    } as const;
    for (let i = 0; i < 3; i++) q.push(e);
    q.welcome(2);
    expect(q.after(0).map((x) => x.seq)).toEqual([3]);
    q.welcome(500);
    expect(q.after(0).map((x) => x.seq)).toEqual([501]);
    expect(q.push(e)).toBe(502);
    q.ack(502);
    expect(q.pending).toBe(0);
  });
});
