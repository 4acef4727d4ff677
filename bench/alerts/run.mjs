// Alerts bench (the alerts issue): a game server sends 1,000 events a second up the mod's link
// (chat lines, and two joins a second of players flagged "Bench"), in phases with 100 alert
// rules on the server and with none, alternating (with, without, without, with) so the machine's
// drift is charged to neither. The rules: one raises for a flagged player's join and sends it to a
// Discord webhook (a receiver in this process, answering 204 as Discord does), the other 99 are
// of every event kind and match nothing, so each line is held against all of them.
//
// Figures: the ingest's cost, the CPU the API process and its database spent per phase, with rules
// against without (target ≤ 1.1×); and from a flagged player's join leaving the game to its
// notification reaching the webhook, p99 (target < 2 s). Each join of another player is an
// incident of its own, so each is one delivery.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import WebSocket from 'ws';
import { busyBetween, startBenchServer } from '../api/server.mjs';
import { api } from '../lib/api.mjs';
import { percentile, ratio, round } from '../lib/stats.mjs';

export const needsBrowser = false;
export const TARGETS = { costRatio: 1.1, deliveryP99Ms: 2000 };
const RATE = 1000;
const JOINS_PER_SECOND = 2;
const RULES = 100;
const FLAGGED = 400;
const WARM_UP_SECONDS = 3;
const DRAIN_MS = 20_000;

/** A Discord webhook that answers at once and notes when each player's notification came. */
async function webhook() {
  const arrived = new Map();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const name = /Watched player joined: (Bench \d+)/.exec(body)?.[1];
      if (name) arrived.set(name, performance.now());
      res.writeHead(204).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/api/webhooks/1/bench`,
    arrived,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** The game end of the link: chat at RATE a second, among it joins of flagged players. */
async function gameLink(server, players) {
  const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/v4/sentinel/link`);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const welcomed = new Promise((resolve) =>
    ws.on('message', (raw) => {
      const f = JSON.parse(raw.toString());
      if (f.type === 'welcome') resolve();
      if (f.type === 'command')
        ws.send(JSON.stringify({ type: 'commandResult', seq: f.seq, ok: true, result: null }));
    }),
  );
  ws.send(JSON.stringify({ type: 'hello', accessKey: server.accessKeys[0], protocol: 1 }));
  await welcomed;
  let seq = 0;
  const event = (eventName, message, metadata) => {
    seq += 1;
    ws.send(
      JSON.stringify({
        type: 'event',
        seq,
        event: {
          eventName,
          time: Date.now() / 1000,
          type: 'Gameplay',
          level: 'Informational',
          message,
          metadata,
        },
      }),
    );
  };
  const join = (p) =>
    event('playerJoined', `${p.name} joined the server`, { playerId: p.playerId, playerName: p.name });
  const leave = (p) =>
    event('playerLeft', `${p.name} left the server`, { playerId: p.playerId, playerName: p.name });
  let next = 0;
  return {
    /** Each player joins once and leaves, so the database knows them. */
    async introduce() {
      for (const p of players) {
        join(p);
        leave(p);
      }
    },
    /** RATE events a second for `seconds`; answers when each player's join was sent. */
    async send(seconds) {
      const joined = new Map();
      const total = RATE * seconds;
      const every = Math.round(RATE / JOINS_PER_SECOND);
      const started = performance.now();
      for (let i = 0; i < total; i++) {
        const wait = started + (i * 1000) / RATE - performance.now();
        if (wait > 1) await new Promise((r) => setTimeout(r, wait));
        if (i % every === every - 1) {
          const p = players[next++ % players.length];
          joined.set(p.name, performance.now());
          join(p);
          leave(p);
        } else
          event('chat', `Bench: hello ${seq}`, {
            originalMessage: `hello ${seq}`,
            senderName: 'Bench',
            source: 'Game',
          });
      }
      return joined;
    },
    close: () => ws.close(),
  };
}

/** The rules: one that sends, 99 that match nothing, of every event kind. */
function ruleBodies(serviceId, destinationId) {
  const quiet = [
    { kind: 'log', eventName: null, level: null, text: 'never said in this bench' },
    { kind: 'chat', category: 'any', score: 0.9 },
    { kind: 'evasion', vpn: false },
    { kind: 'scripts' },
    { kind: 'log', eventName: 'dinoTamed', level: null, text: null },
  ];
  return [
    {
      name: 'Bench watched',
      serviceId,
      condition: { kind: 'watched', flag: 'Bench' },
      destinationIds: [destinationId],
    },
    ...Array.from({ length: RULES - 1 }, (_, i) => ({
      name: `Bench quiet ${i}`,
      serviceId,
      condition: quiet[i % quiet.length],
      destinationIds: [],
    })),
  ];
}

/** Waits until the API thread is quiet: a phase that fell behind would load the next one. */
async function settle(server) {
  for (const end = Date.now() + 60_000; Date.now() < end; ) {
    const before = await server.elu();
    await new Promise((r) => setTimeout(r, 1000));
    if (busyBetween(before, await server.elu()) < 20) return;
  }
}

const cpuMs = (e) => (e.cpu.user + e.cpu.system) / 1000 + (e.databaseCpuMs ?? 0);

export async function run({ quick, log }) {
  const seconds = quick ? 5 : 10;
  const order = quick ? ['rules', 'none'] : ['rules', 'none', 'none', 'rules'];
  const hook = await webhook();
  const server = await startBenchServer({ BENCH_LOG_ROWS: '20000', BENCH_SERVERS: '1', BENCH_SIMULATE: '0' });
  const serviceId = server.serviceIds[0];
  const players = Array.from({ length: FLAGGED }, (_, i) => ({ playerId: randomUUID(), name: `Bench ${i}` }));
  const game = await gameLink(server, players);
  const cost = { rules: [], none: [] };
  const deliveries = [];
  let missing = 0;
  try {
    await game.introduce();
    await settle(server);
    for (const p of players)
      await api(server, 'POST', '/sentinel/playerFlags', {
        playerId: p.playerId,
        name: 'Bench',
        colour: 'red',
        reason: 'Bench',
      });
    const destination = await api(server, 'POST', '/sentinel/alertDestinations', {
      name: 'Bench webhook',
      kind: 'discord',
      address: hook.url,
    });
    for (const phase of order) {
      const ruleIds = [];
      if (phase === 'rules')
        for (const body of ruleBodies(serviceId, destination.destinationId))
          ruleIds.push((await api(server, 'POST', '/sentinel/alertRules', body)).ruleId);
      await settle(server);
      await game.send(WARM_UP_SECONDS);
      const before = await server.elu();
      const joined = await game.send(seconds);
      await settle(server);
      const after = await server.elu();
      cost[phase].push(cpuMs(after) - cpuMs(before));
      if (phase === 'rules') {
        for (
          const end = Date.now() + DRAIN_MS;
          Date.now() < end && [...joined.keys()].some((n) => !hook.arrived.has(n));
        )
          await new Promise((r) => setTimeout(r, 50));
        for (const [name, at] of joined) {
          const came = hook.arrived.get(name);
          if (came === undefined) missing++;
          else deliveries.push(came - at);
        }
        for (const id of ruleIds) await api(server, 'DELETE', `/sentinel/alertRules/${id}`);
      }
      log(
        `    ${phase}: ${round(cost[phase].at(-1))} ms of CPU (API process and database)` +
          (phase === 'rules' ? `, delivery p99 ${round(percentile(deliveries, 0.99))} ms` : ''),
      );
    }
  } finally {
    game.close();
    await server.stop();
    await hook.close();
  }
  const sum = (xs) => xs.reduce((a, b) => a + b, 0);
  return {
    eventsPerSecond: RATE,
    rules: RULES,
    cpuMsWithRules: cost.rules.map(round),
    cpuMsWithout: cost.none.map(round),
    costRatio: ratio(sum(cost.rules), sum(cost.none)),
    deliveries: deliveries.length,
    missing,
    deliveryP50Ms: round(percentile(deliveries, 0.5)),
    deliveryP99Ms: round(percentile(deliveries, 0.99)),
    targets: TARGETS,
  };
}

export function table(f) {
  return [
    {
      bench: 'alerts',
      case: `${f.eventsPerSecond} events/s, ${f.rules} rules`,
      'CPU ms with / without': `${f.cpuMsWithRules.join(' + ')} / ${f.cpuMsWithout.join(' + ')}`,
      'cost ratio': f.costRatio,
      'delivery p50 / p99 ms': `${f.deliveryP50Ms} / ${f.deliveryP99Ms} (${f.deliveries} sent, ${f.missing} missing)`,
      target: `≤ ${TARGETS.costRatio}×, p99 < ${TARGETS.deliveryP99Ms} ms`,
    },
  ];
}
