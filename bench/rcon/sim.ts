// The RCON bench's game servers, in a process of their own as real ones run on other machines:
// BENCH_RCON_SERVERS fake ARK servers (tests/api/fakeArk.ts: the game as ../shared/ARK-RCON.md
// records it, half Evolved and half Ascended), on BENCH_RCON_PORT and up. Each has a crowd that
// comes and goes and talks; on `{ say, server }` over IPC, that server's chat gets the line `say`
// at once, so the runner can time it from here to a console's socket.

import { eosId, type FakeArk, startFakeArk, steamId } from '../../tests/api/fakeArk.ts';

const count = Number(process.env.BENCH_RCON_SERVERS ?? 500);
const base = Number(process.env.BENCH_RCON_PORT);
const password = process.env.BENCH_RCON_PASSWORD ?? 'bench-rcon';
/** Players on each server (the runner's BENCH_RCON_CROWD). */
const CROWD = Number(process.env.BENCH_RCON_CROWD ?? 12);
/** Each second, this share of the servers sees one player leave and another join. */
const CHURN = 0.05;
/** Lines said each second across all servers, besides the bench's own. */
const CHATTER = 25;

let next = 0;
const newPlayer = (ark: FakeArk) => {
  const n = next++;
  return { name: `Survivor ${n}`, id: ark.kind === 'evolved' ? steamId(n) : eosId(n) };
};

const arks = await Promise.all(
  Array.from({ length: count }, (_, i) =>
    startFakeArk({ kind: i % 2 === 0 ? 'evolved' : 'ascended', password, port: base + i }),
  ),
);
for (const ark of arks) ark.players = Array.from({ length: CROWD }, () => newPlayer(ark));

const pick = <T>(xs: readonly T[]) => xs[Math.floor(Math.random() * xs.length)]!;
const life = setInterval(() => {
  for (let i = 0; i < count * CHURN; i++) {
    const ark = pick(arks);
    ark.players.splice(Math.floor(Math.random() * ark.players.length), 1);
    ark.players.push(newPlayer(ark));
  }
  for (let i = 0; i < CHATTER; i++) {
    const ark = pick(arks);
    const who = pick(ark.players);
    ark.chat(who.name, who.name, `chatter ${next++}`);
  }
}, 1000);

process.on(
  'message',
  async (m: { say?: string; server?: number; populated?: true; cpu?: true; stop?: true }) => {
    if (m.say !== undefined) arks[m.server ?? 0]!.chat('Bench', 'Bench', m.say);
    // The crowds are there from the start.
    if (m.populated) process.send?.({ populated: true });
    // What answering the polls costs here, on the machine the bench shares with the API server.
    if (m.cpu) process.send?.({ cpu: process.cpuUsage() });
    if (m.stop) {
      clearInterval(life);
      await Promise.all(arks.map((a) => a.stop()));
      process.exit(0);
    }
  },
);
process.send?.({ ready: true });
