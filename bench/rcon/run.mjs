// RCON bench (issue 17): 50 servers connected over RCON and polled (ListPlayers, GetChat,
// GetGameLog every 2 s), their game servers simulated in a process of their own. Measures
// chat-to-screen latency (a line said in the game until a console's socket has it as
// `chatMessage`) and the log list's p99 under 100 console clients, against the same run with no
// RCON servers. Chat lines carry no time over RCON, so their latency is bounded by the poll
// interval: p50 about half of it, p99 about all of it.
import { fork } from 'node:child_process';
import { createHmac } from 'node:crypto';
import WebSocket from 'ws';
import { runClients } from '../api/clients.mjs';
import { startBenchServer } from '../api/server.mjs';
import { median, percentile, round } from '../lib/stats.mjs';

export const needsBrowser = false;
// Issue 17: chat within a poll interval and a bit, and the log list's p99 as without RCON servers.
export const TARGETS = { chatP99Ms: 2500 };
const SERVERS = 50;
const PASSWORD = 'bench-rcon';
const CLIENTS = 100;
const CLIENT_RATE = 2;
const SIM = new URL('./sim.ts', import.meta.url).pathname;
const WARM_UP_SECONDS = 3;

const hmac = (secret, text) => createHmac('sha256', secret).update(text).digest('hex');

/** One console socket subscribed to every service's channel; `onChat` gets each chat line. */
function subscribe(url, secret, serviceIds, onChat) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/app/palisade?protocol=7`);
    let pending = serviceIds.length;
    ws.on('error', reject);
    ws.on('message', (raw) => {
      const f = JSON.parse(raw.toString());
      if (f.event === 'pusher:connection_established') {
        const socketId = JSON.parse(f.data).socket_id;
        for (const id of serviceIds) {
          const channel = `private-sentinel.services.${id}`;
          const auth = `palisade:${hmac(secret, `${socketId}:${channel}`)}`;
          ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel, auth } }));
        }
      } else if (f.event === 'pusher_internal:subscription_succeeded') {
        if (--pending === 0) resolve(ws);
      } else if (f.event === 'chatMessage') onChat(JSON.parse(f.data));
    });
  });
}

async function until(what, probe, ms = 60_000) {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const logList = (ids) => {
  let n = 0;
  return () => `/v4/sentinel/logMessages?serviceId=${ids[n++ % ids.length]}&pageSize=100`;
};

/** The consoles reading `server`'s log lists for `seconds`. */
const readLogs = (server, seconds) =>
  runClients({
    url: server.url,
    token: server.token,
    path: logList(server.serviceIds),
    clients: CLIENTS,
    ratePerClient: CLIENT_RATE,
    seconds,
  });

/** Both servers measured as ones that have been up a while (connections, prepared statements, JIT). */
const warmUp = (server) => readLogs(server, WARM_UP_SECONDS);

export async function run({ quick, log }) {
  const seconds = quick ? 10 : 30;
  const lines = quick ? 50 : 300;
  const rows = quick ? '20000' : '200000';
  // Below Linux's ephemeral ports (32768–60999), where the bench's own connections land.
  const base = 20_000 + Math.floor(Math.random() * 10_000);

  const sim = fork(SIM, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, BENCH_RCON_SERVERS: String(SERVERS), BENCH_RCON_PORT: String(base) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise((resolve) => sim.once('message', resolve));
  let withRcon;
  const server = await startBenchServer({
    BENCH_LOG_ROWS: rows,
    BENCH_SERVERS: String(SERVERS),
    BENCH_SIMULATE: '0',
    BENCH_RCON_PORT: String(base),
    BENCH_RCON_PASSWORD: PASSWORD,
  });
  try {
    await until(`${SERVERS} RCON servers connected`, async () => {
      const res = await fetch(`${server.url}/v4/sentinel/services?isConnected=true&pageSize=250`, {
        headers: { authorization: `Bearer ${server.token}` },
      });
      return (await res.json()).results.length === SERVERS;
    });
    await warmUp(server);
    log(`  ${SERVERS} RCON servers connected; ${lines} chat lines while ${CLIENTS} clients read logs`);
    const sent = new Map();
    const latencies = [];
    const ws = await subscribe(server.url, server.secret, server.serviceIds, (m) => {
      const at = sent.get(m.metadata?.originalMessage);
      if (at !== undefined) latencies.push(Date.now() - at);
    });
    const speaking = (async () => {
      for (let i = 0; i < lines; i++) {
        const say = `bench line ${i}`;
        sent.set(say, Date.now());
        sim.send({ say, server: i % SERVERS });
        await new Promise((r) => setTimeout(r, (seconds * 1000) / lines));
      }
    })();
    const api = await readLogs(server, seconds);
    await speaking;
    await new Promise((r) => setTimeout(r, 3000));
    ws.terminate();
    withRcon = {
      chat: {
        lines,
        delivered: latencies.length,
        p50Ms: round(median(latencies)),
        p99Ms: round(percentile(latencies, 0.99)),
        maxMs: round(Math.max(0, ...latencies)),
      },
      api,
      peakRssMiB: await server.peakRssMiB(),
    };
  } finally {
    await server.stop();
    sim.send({ stop: true });
  }

  const quiet = await startBenchServer({
    BENCH_LOG_ROWS: rows,
    BENCH_SERVERS: String(SERVERS),
    BENCH_SIMULATE: '0',
  });
  let without;
  try {
    await warmUp(quiet);
    without = await readLogs(quiet, seconds);
  } finally {
    await quiet.stop();
  }
  return { servers: SERVERS, logRows: Number(rows), ...withRcon, apiWithoutRcon: without, targets: TARGETS };
}

export function table(f) {
  return [
    {
      bench: `RCON chat-to-screen, ${f.servers} servers polled`,
      p50: `${f.chat.p50Ms} ms`,
      p99: `${f.chat.p99Ms} ms`,
      target: `< ${TARGETS.chatP99Ms} ms`,
      delivered: `${f.chat.delivered}/${f.chat.lines}`,
    },
    {
      bench: `log list, ${f.servers} RCON servers polled`,
      p50: `${f.api.p50Ms} ms`,
      p99: `${f.api.p99Ms} ms`,
      target: `as without: p50 ${round(f.api.p50Ms / f.apiWithoutRcon.p50Ms)}×, p99 ${round(f.api.p99Ms / f.apiWithoutRcon.p99Ms)}×`,
    },
    {
      bench: 'log list, no RCON servers',
      p50: `${f.apiWithoutRcon.p50Ms} ms`,
      p99: `${f.apiWithoutRcon.p99Ms} ms`,
      target: 'baseline',
    },
    { bench: 'RCON server peak RSS', p50: `${f.peakRssMiB} MiB` },
  ];
}
