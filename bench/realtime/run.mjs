// Realtime bench (issue 3): 1,000 sockets subscribed to one private service channel of the
// built-in Pusher endpoint; events published through the Pusher HTTP API, publish-to-receive
// latency measured on every socket. Target: p99 under 100 ms. The server runs in its own process
// (bench/api/serve.ts, no log rows) so its peak RSS is its own.
import { createHash, createHmac } from 'node:crypto';
import WebSocket from 'ws';
import { startBenchServer } from '../api/server.mjs';
import { maximum, median, percentile, round } from '../lib/stats.mjs';

export const needsBrowser = false;
export const TARGETS = { p99Ms: 100 };
const SOCKETS = 1000;
const GAP_MS = 100;

const hmac = (secret, text) => createHmac('sha256', secret).update(text).digest('hex');

function openSocket(url, channel, secret, onEvent) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/app/palisade?protocol=7`);
    ws.on('error', reject);
    ws.on('message', (raw) => {
      const f = JSON.parse(raw.toString());
      if (f.event === 'pusher:connection_established') {
        const socketId = JSON.parse(f.data).socket_id;
        const auth = `palisade:${hmac(secret, `${socketId}:${channel}`)}`;
        ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel, auth } }));
      } else if (f.event === 'pusher_internal:subscription_succeeded') resolve(ws);
      else if (f.event === 'benchPing') onEvent(JSON.parse(f.data));
    });
  });
}

/** One event through the Pusher HTTP API, signed as the official SDKs sign it. */
async function publish(url, secret, channel, data) {
  const path = '/apps/palisade/events';
  const body = JSON.stringify({ name: 'benchPing', channels: [channel], data: JSON.stringify(data) });
  const params = {
    auth_key: 'palisade',
    auth_timestamp: String(Math.floor(Date.now() / 1000)),
    auth_version: '1.0',
    body_md5: createHash('md5').update(body).digest('hex'),
  };
  const query = Object.keys(params)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
  params.auth_signature = hmac(secret, `POST\n${path}\n${query}`);
  const res = await fetch(`${url}${path}?${new URLSearchParams(params)}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json' },
  });
  if (!res.ok) throw new Error(`publish: ${res.status} ${await res.text()}`);
}

/** With three simulated game servers writing to the server's database meanwhile, and without. */
export async function run({ quick, log }) {
  const withSim = await fanOut({ quick, log, simulate: true });
  const quiet = await fanOut({ quick, log, simulate: false });
  return {
    ...withSim,
    withoutSimulatedServers: { p50Ms: quiet.p50Ms, p99Ms: quiet.p99Ms, maxMs: quiet.maxMs },
  };
}

async function fanOut({ quick, log, simulate, env = {} }) {
  const events = quick ? 30 : 100;
  const server = await startBenchServer({
    BENCH_LOG_ROWS: '0',
    BENCH_SERVERS: '3',
    BENCH_SIMULATE: simulate ? '1' : '0',
    ...env,
  });
  const sockets = [];
  try {
    const channel = `private-sentinel.services.${server.serviceIds[0]}`;
    const latencies = [];
    const sentAt = new Map();
    const onEvent = (d) => latencies.push(performance.now() - sentAt.get(d.n));
    const connectStart = performance.now();
    for (let i = 0; i < SOCKETS; i += 50)
      sockets.push(
        ...(await Promise.all(
          Array.from({ length: 50 }, () => openSocket(server.url, channel, server.secret, onEvent)),
        )),
      );
    const connectMs = performance.now() - connectStart;
    log(`  ${SOCKETS} sockets subscribed in ${Math.round(connectMs)} ms; publishing ${events} events`);
    for (let n = 0; n < events; n++) {
      sentAt.set(n, performance.now());
      await publish(server.url, server.secret, channel, { n, pad: 'x'.repeat(200) });
      await new Promise((r) => setTimeout(r, GAP_MS));
    }
    await new Promise((r) => setTimeout(r, 1000));
    return {
      sockets: SOCKETS,
      events,
      deliveries: latencies.length,
      expected: SOCKETS * events,
      connectAllMs: Math.round(connectMs),
      p50Ms: round(median(latencies)),
      p99Ms: round(percentile(latencies, 0.99)),
      maxMs: round(maximum(latencies)),
      targets: TARGETS,
      ...(await server.memory()),
    };
  } finally {
    for (const ws of sockets) ws.terminate();
    await server.stop();
  }
}

export function table(f) {
  return [
    {
      bench: `realtime fan-out ${f.sockets} sockets`,
      p50: `${f.p50Ms} ms`,
      p99: `${f.p99Ms} ms`,
      target: `< ${TARGETS.p99Ms} ms`,
      delivered: `${f.deliveries}/${f.expected}`,
    },
    {
      bench: 'realtime fan-out, no simulated servers',
      p50: `${f.withoutSimulatedServers.p50Ms} ms`,
      p99: `${f.withoutSimulatedServers.p99Ms} ms`,
      target: `< ${TARGETS.p99Ms} ms`,
    },
    { bench: 'realtime peak memory (Node + database)', p50: `${f.peakRssMiB} + ${f.databasePeakMiB} MiB` },
  ];
}
