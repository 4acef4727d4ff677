// The game-server simulator: a fleet of fake ARK servers with the Sentinel mod, each speaking
// the link protocol to the API server, so the console has live players, chat and status to show.

import { createPopulation } from './population.ts';
import { createRng } from './random.ts';
import { type SimRconOptions, SimServer } from './server.ts';

export { SimServer } from './server.ts';

export interface SimulatorOptions {
  linkUrl: string;
  servers: { accessKey: string | null; name: string; rcon?: SimRconOptions }[];
  tickMs?: number;
  seed?: number;
  onLog?: (line: string) => void;
}

export interface Simulator {
  /** Stops world life; links stay up and keep delivering what is queued. */
  pause(): void;
  stop(): Promise<void>;
  servers: SimServer[];
}

const DEFAULT_TICK_MS = 3000;
const DEFAULT_SEED = 20_261_121;
/** Enough people that servers share some players and each has newcomers left to join. */
const PLAYERS_PER_SERVER = 40;

export function startSimulator(opts: SimulatorOptions): Simulator {
  const rng = createRng(opts.seed ?? DEFAULT_SEED);
  const population = createPopulation(rng.fork(0), 20 + PLAYERS_PER_SERVER * opts.servers.length);
  const log = opts.onLog ?? (() => {});
  const servers = opts.servers.map(
    (s, i) => new SimServer({ ...s, linkUrl: opts.linkUrl, rng: rng.fork(i + 1), population, log }),
  );
  // Each server ticks on a phase of its own, as independent machines do: ticking all at one
  // instant turned 50 servers' events into one burst on the API every tick.
  const period = opts.tickMs ?? DEFAULT_TICK_MS;
  for (const s of servers)
    s.rcon?.start().catch((e) => log(`[${s.name}] RCON could not listen: ${(e as Error).message}`));
  const cancels = servers.map((s, i) => every(period, (period * (i + 1)) / servers.length, () => s.tick()));
  const cancel = () => {
    for (const c of cancels) c();
  };

  return {
    servers,
    pause: cancel,
    async stop() {
      cancel();
      await Promise.all(servers.flatMap((s) => [s.link?.stop(), s.rcon?.stop()]));
    },
  };
}

/** fn every `period` ms, the first time after `offset` ms; returns the cancel. */
function every(period: number, offset: number, fn: () => void): () => void {
  let interval: NodeJS.Timeout | undefined;
  const first = setTimeout(() => {
    fn();
    interval = setInterval(fn, period);
  }, offset);
  return () => {
    clearTimeout(first);
    clearInterval(interval);
  };
}
