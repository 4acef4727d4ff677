// The RCON bench's game servers, in a process of their own as real ones run on other machines:
// BENCH_RCON_SERVERS simulated servers, RCON only, on BENCH_RCON_PORT and up, living their normal
// life. On `{ say, server }` over IPC, that server's chat gets the line `say` at once, so the
// runner can time it from here to a console's socket; `{ populated }` answers whether the servers
// have (nine tenths of) the players they draw to, about two minutes after they start.

import { plainChat } from '../../src/sim/events.ts';
import { startSimulator } from '../../src/sim/index.ts';

const count = Number(process.env.BENCH_RCON_SERVERS ?? 50);
const base = Number(process.env.BENCH_RCON_PORT);
const password = process.env.BENCH_RCON_PASSWORD ?? 'bench-rcon';

const sim = startSimulator({
  linkUrl: 'ws://127.0.0.1:1/unused',
  servers: Array.from({ length: count }, (_, i) => ({
    accessKey: null,
    name: `RCON bench ${i + 1}`,
    rcon: { port: base + i, password },
  })),
  tickMs: 3000,
});
await Promise.all(sim.servers.map((s) => s.rcon?.start()));

process.on(
  'message',
  async (m: { say?: string; server?: number; populated?: true; cpu?: true; stop?: true }) => {
    if (m.say !== undefined) sim.servers[m.server ?? 0].play(() => [plainChat('Bench', m.say!)]);
    if (m.populated) {
      // Each server hovers around the crowd it draws to, so together they reach nine tenths of it.
      const sum = (f: (w: (typeof sim.servers)[number]['world']) => number) =>
        sim.servers.reduce((n, s) => n + f(s.world), 0);
      process.send?.({ populated: sum((w) => w.online.size) >= 0.9 * sum((w) => w.targetPopulation) });
    }
    // What answering the polls costs here, on the machine the bench shares with the API server.
    if (m.cpu) process.send?.({ cpu: process.cpuUsage() });
    if (m.stop) {
      await sim.stop();
      process.exit(0);
    }
  },
);
process.send?.({ ready: true });
