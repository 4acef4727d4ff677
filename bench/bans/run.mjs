// Bans import bench (issue 32): 100 consoles read the log list (200,000 lines, 50 linked game
// servers) twice a second each, while an admin imports a 30,000-line bans.txt into a linked
// server, and in alternating phases while nobody imports. A phase with an import lasts until the
// game server has answered every `banplayer` the import sent it (a command sent after them comes
// back): that work is the import's, and left to run on it would be charged to the next phase
// without. Target: the consoles' p99 during imports at most 1.2× their p99 without, in the same
// run; each import completes. Phases alternate (with, without, without, with, …) so the
// machine's drift is not charged to either.
import { runClients } from '../api/clients.mjs';
import { startBenchServer } from '../api/server.mjs';
import { alternatingPhases } from '../lib/phases.mjs';
import { percentile, ratio, round } from '../lib/stats.mjs';

export const needsBrowser = false;
export const TARGETS = { p99Ratio: 1.2, lines: 30_000 };
const CLIENTS = 100;
const CLIENT_RATE = 2;
const WARM_UP_SECONDS = 10;

/** A list of `lines` bans of players never seen, `EOSID,name` each. */
function banList(lines, first) {
  return Array.from(
    { length: lines },
    (_, i) => `0002${(first + i).toString(16).padStart(28, '0')},Griefer ${first + i}`,
  ).join('\n');
}

export async function run({ quick, log }) {
  const rounds = quick ? 1 : 6;
  const seconds = quick ? 8 : 15;
  const server = await startBenchServer({ BENCH_LOG_ROWS: '200000', BENCH_SERVERS: '50' });
  try {
    let n = 0;
    const path = () => `/v4/sentinel/logMessages?serviceId=${server.serviceIds[n++ % 50]}&pageSize=100`;
    const consoles = (s, latencies, _working, until) =>
      runClients({
        until,
        url: server.url,
        token: server.token,
        path,
        clients: CLIENTS,
        ratePerClient: CLIENT_RATE,
        seconds: s,
        latencies,
      });
    /** The size of each server's newest page, summed: what a round of the consoles reads. */
    const pageBytes = async () => {
      let bytes = 0;
      for (const id of server.serviceIds) {
        const res = await fetch(`${server.url}/v4/sentinel/logMessages?serviceId=${id}&pageSize=100`, {
          headers: { authorization: `Bearer ${server.token}` },
        });
        bytes += (await res.arrayBuffer()).byteLength;
      }
      return bytes;
    };
    // Until the pages stop growing: the newest lines, bulk-written ones at first, are replaced by
    // the game servers' own, whose metadata is larger (a page of 41 kB grew to 82 kB in two
    // minutes), and a round read heavier pages than the one before, whichever its kind.
    let bytes = await pageBytes();
    // At most five minutes: pages that never settle are said in the log, and measured as they are.
    for (let i = 0; i < 30; i++) {
      await consoles(WARM_UP_SECONDS);
      const now = await pageBytes();
      log(`  warming up: pages of ${Math.round(now / server.serviceIds.length / 1000)} kB`);
      if (now < bytes * 1.02) break;
      bytes = now;
    }
    /**
     * Once the game server has answered every command sent to it so far: a link hands a server
     * its commands in order, and a command sent last comes back last. One not answered in time
     * is sent again.
     */
    const answered = async (serviceId) => {
      for (;;) {
        const res = await fetch(`${server.url}/v4/sentinel/gameCommands`, {
          method: 'POST',
          headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ type: 'admin', serviceId, command: 'listplayers' }),
        });
        const body = await res.json();
        if (res.status !== 200) throw new Error(`a command answered ${res.status}`);
        if (body.results[0].ok) return;
        if (body.results[0].code !== 'commandTimeout') throw new Error(body.results[0].message);
      }
    };
    const imports = [];
    let next = 0x100000;
    const importOnce = async () => {
      const body = banList(TARGETS.lines, next);
      next += TARGETS.lines;
      const t0 = performance.now();
      const res = await fetch(`${server.url}/v4/sentinel/services/${server.serviceIds[0]}/bans.txt`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.token}`, 'content-type': 'text/plain' },
        body,
      });
      await res.arrayBuffer();
      if (res.status !== 204) throw new Error(`import answered ${res.status}`);
      imports.push(performance.now() - t0);
      await answered(server.serviceIds[0]);
    };
    const { without: w, during: d } = await alternatingPhases({
      rounds,
      seconds,
      measure: consoles,
      task: importOnce,
      names: ['importing', 'quiet'],
      log,
    });
    return {
      clients: CLIENTS,
      rounds,
      seconds,
      without: w,
      during: d,
      p99Ratio: ratio(d.p99Ms, w.p99Ms),
      imports: {
        count: imports.length,
        lines: TARGETS.lines,
        p50Ms: round(percentile(imports, 0.5)),
        maxMs: round(Math.max(...imports)),
      },
      targets: TARGETS,
      ...(await server.memory()),
    };
  } finally {
    await server.stop();
  }
}

export function table(f) {
  return [
    { bench: 'consoles without imports', p50: `${f.without.p50Ms} ms`, p99: `${f.without.p99Ms} ms` },
    {
      bench: `consoles during ${f.imports.lines.toLocaleString('en')}-line bans imports`,
      p50: `${f.during.p50Ms} ms`,
      p99: `${f.during.p99Ms} ms`,
      'vs baseline': `${f.p99Ratio}×`,
      target: `≤ ${TARGETS.p99Ratio}×`,
    },
    {
      bench: 'bans import',
      p50: `${f.imports.p50Ms} ms`,
      p99: `max ${f.imports.maxMs} ms`,
      target: `${f.imports.count} imports completed`,
    },
  ];
}
