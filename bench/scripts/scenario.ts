// One run of the scripts bench, in a process of its own: a server (PGlite in memory, or
// PostgreSQL with BENCH_DATABASE_URL), one game server played by a bare link client, and one
// script attached (BENCH_LANGUAGE Simple or JavaScript): one condition (the chat line contains
// "ping"), one action (send chat). Chat events go up the link at BENCH_RATE a second for
// BENCH_SECONDS; each one's latency runs from sending the event to its chat command reaching the
// game (the nth command answers the nth event). Prints the figures as one JSON line.

import WebSocket from 'ws';
import { createServer } from '../../src/server/app.ts';
import { LINK_PATH } from '../../src/server/link/linkServer.ts';
import { seedDemo } from '../../src/server/seed.ts';
import { call, DEMO, signIn } from '../../tests/api/helpers.ts';
import { percentile } from '../lib/stats.mjs';

const language = process.env.BENCH_LANGUAGE === 'JavaScript' ? 'JavaScript' : 'Simple';
const rate = Number(process.env.BENCH_RATE ?? 1000);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const databaseUrl = process.env.BENCH_DATABASE_URL || undefined;

const CODE = {
  Simple: JSON.stringify({
    conditions: [{ field: 'message', operator: 'contains', value: 'ping' }],
    actions: [{ type: 'sendChat', options: { message: 'pong' } }],
  }),
  JavaScript: "if (beacon.eventData.message.includes('ping')) beacon.sendChat('pong');",
};

const server = await createServer({
  databaseUrl,
  dbSchema: databaseUrl ? `bench_scripts_${process.pid}` : undefined,
  dataDir: 'memory://',
  staticDir: '/nonexistent',
  rateLimit: 1_000_000_000,
  scripts: { manualCron: true },
});
const demo = await seedDemo(server.db, { ...DEMO, servers: 1 });
const base = `${server.url}/v4`;
const token = (await signIn(base)).access_token;
const made = await call(base, token, 'POST', '/sentinel/scripts', {
  name: 'Bench pong',
  events: [{ language, context: 'chat', code: CODE[language] }],
});
await call(base, token, 'POST', '/sentinel/serviceScripts', {
  serviceId: demo.servers[0].serviceId,
  scriptId: made.body.created[0].scriptId,
  parameterValues: {},
});

const sentAt = new Map<number, number>();
const latencies: number[] = [];
const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}${LINK_PATH}`);
await new Promise((r) => ws.once('open', r));
const welcomed = new Promise<void>((resolve) =>
  ws.on('message', (raw) => {
    const f = JSON.parse(raw.toString());
    if (f.type === 'welcome') resolve();
    if (f.type !== 'command') return;
    ws.send(JSON.stringify({ type: 'commandResult', seq: f.seq, ok: true, result: null }));
    // Runs take their events in order, so the nth command answers the nth event.
    const at = sentAt.get(latencies.length + 1);
    if (at !== undefined) latencies.push(performance.now() - at);
  }),
);
ws.send(JSON.stringify({ type: 'hello', accessKey: demo.servers[0].accessKey, protocol: 1 }));
await welcomed;

const total = rate * seconds;
const started = performance.now();
for (let i = 1; i <= total; i++) {
  const due = started + (i * 1000) / rate;
  const wait = due - performance.now();
  if (wait > 1) await new Promise((r) => setTimeout(r, wait));
  sentAt.set(i, performance.now());
  ws.send(
    JSON.stringify({
      type: 'event',
      seq: i,
      event: {
        eventName: 'chat',
        time: Date.now() / 1000,
        type: 'Gameplay',
        level: 'Informational',
        message: `Bench: ping ${i}`,
        metadata: { originalMessage: `ping ${i}`, senderName: 'Bench', source: 'Game' },
      },
    }),
  );
}
const until = performance.now() + 30_000;
while (latencies.length < total && performance.now() < until) await new Promise((r) => setTimeout(r, 100));
const elapsed = (performance.now() - started) / 1000;
console.log(
  JSON.stringify({
    language,
    sent: total,
    answered: latencies.length,
    runsPerSecond: Math.round(latencies.length / elapsed),
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
  }),
);
ws.close();
await server.close();
process.exit(0);
