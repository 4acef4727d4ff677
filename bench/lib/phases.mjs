// Phases with and without some extra work, alternating (with, without, without, with, …) so the
// machine's drift over a run is charged to neither; the consoles' latencies of each kind pooled.
import { summarize } from '../api/clients.mjs';

/**
 * `measure(seconds, latencies, working, until)` runs the consoles for a phase, or until `until`
 * settles when it is given, and answers their figures with the seconds they ran.
 *
 * The extra work is either `work()`, which starts it and answers a function that stops it and
 * resolves once it has ended (each phase then lasts `seconds`), or `task()`, one piece of work
 * run to its end: a phase with it lasts as long as the task, whatever it leaves behind included,
 * and the phase without, as long as the last phase with it, so the two pool as many requests.
 * @param {{ rounds: number, seconds: number, measure: (s: number, l: number[], working: boolean, until?: Promise<unknown>) => Promise<{ p99Ms: number, seconds: number }>, work?: () => () => Promise<unknown>, task?: () => Promise<unknown>, names: [string, string], log: (line: string) => void }} o
 */
export async function alternatingPhases(o) {
  const latencies = { true: [], false: [] };
  const seconds = { true: 0, false: 0 };
  let last = o.seconds;
  for (let r = 0; r < o.rounds; r++)
    for (const working of r % 2 === 0 ? [true, false] : [false, true]) {
      const stop = working && o.work ? o.work() : null;
      const task = working && o.task ? o.task() : undefined;
      // Clients are drawn for at most forty phases' length; a task that outlasts them is waited
      // for, and the log says how long it went on unmeasured.
      const started = performance.now();
      const f = await o.measure(task ? 40 * o.seconds : last, latencies[working], working, task);
      await Promise.all([stop?.(), task]);
      if (task) last = f.seconds;
      seconds[working] += f.seconds;
      const unmeasured = Math.round((performance.now() - started) / 1000 - f.seconds);
      o.log(
        `  round ${r + 1} ${o.names[working ? 0 : 1]}: consoles p99 ${f.p99Ms} ms over ${Math.round(f.seconds)} s${unmeasured > 1 ? `, then ${unmeasured} s unmeasured` : ''}`,
      );
    }
  return {
    without: summarize(latencies.false, seconds.false, 0),
    during: summarize(latencies.true, seconds.true, 0),
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
