// A page's main-thread tasks as Chromium's trace records them: each task's wall time (what the
// Long Tasks API reads) beside the CPU time its thread actually ran. On a shared machine a task
// can wait, descheduled, for longer than it runs; the trace tells that apart from work of ours.

import { median, round } from './stats.mjs';

const CATEGORIES = ['toplevel', 'disabled-by-default-devtools.timeline'];
/** Tasks shorter than this (wall) are left out: they are far from long. */
const FLOOR_MS = 20;

/** Runs `work` with the browser tracing `page`; resolves to its renderer main thread's tasks. */
export async function tracedTasks(browser, page, work) {
  await browser.startTracing(page, { categories: CATEGORIES });
  let recorded;
  try {
    await work();
  } finally {
    recorded = await browser.stopTracing();
  }
  const trace = JSON.parse(recorded.toString()).traceEvents;
  const main = new Set(
    trace
      .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const tasks = trace
    .filter(
      (e) => e.ph === 'X' && e.name === 'ThreadControllerImpl::RunTask' && main.has(`${e.pid}:${e.tid}`),
    )
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  // Top-level tasks only: a nested run (a task run inside another) is part of its outer one.
  const top = [];
  for (const t of tasks) {
    const outer = top.at(-1);
    if (outer && outer.pid === t.pid && outer.tid === t.tid && t.ts < outer.ts + outer.dur) continue;
    top.push(t);
  }
  return top
    .filter((t) => t.dur / 1000 >= FLOOR_MS)
    .map((t) => ({ wallMs: t.dur / 1000, cpuMs: (t.tdur ?? t.dur) / 1000 }));
}

/** Tasks over `longMs` of wall time, and how much CPU they and all the others used. */
export function summariseTasks(tasks, longMs) {
  const long = tasks.filter((t) => t.wallMs > longMs);
  return {
    tasksOver20Ms: tasks.length,
    longByWall: long.length,
    longByWallCpuMaxMs: round(Math.max(0, ...long.map((t) => t.cpuMs))),
    longByCpu: tasks.filter((t) => t.cpuMs > longMs).length,
    cpuMaxMs: round(Math.max(0, ...tasks.map((t) => t.cpuMs))),
    wallPerCpuMedian: round(median(tasks.map((t) => t.wallMs / Math.max(t.cpuMs, 0.1))), 2),
  };
}
