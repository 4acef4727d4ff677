// Phases with and without some extra work, alternating (with, without, without, with, …) so the
// machine's drift over a run is charged to neither; the consoles' latencies of each kind pooled.
import { summarize } from '../api/clients.mjs';

/**
 * `measure(seconds, latencies, working)` runs the consoles for a phase; `work()` starts the extra
 * work and answers a function that stops it and resolves once it has ended.
 * @param {{ rounds: number, seconds: number, measure: (s: number, l: number[], working: boolean) => Promise<{ p99Ms: number }>, work: () => () => Promise<unknown>, names: [string, string], log: (line: string) => void }} o
 */
export async function alternatingPhases(o) {
  const without = [];
  const during = [];
  for (let r = 0; r < o.rounds; r++)
    for (const working of r % 2 === 0 ? [true, false] : [false, true]) {
      const stop = working ? o.work() : null;
      const f = await o.measure(o.seconds, working ? during : without, working);
      await stop?.();
      o.log(`  round ${r + 1} ${o.names[working ? 0 : 1]}: consoles p99 ${f.p99Ms} ms`);
    }
  return {
    without: summarize(without, o.seconds * o.rounds, 0),
    during: summarize(during, o.seconds * o.rounds, 0),
  };
}

/** Runs `step` again and again until stopped: the answer stops it and waits for the step under way. */
export function repeat(step) {
  let stopped = false;
  const done = (async () => {
    while (!stopped) await step();
  })();
  return async () => {
    stopped = true;
    await done;
  };
}
