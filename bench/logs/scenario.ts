// One run, in the page: lines arrive at RATE a second (in 20 ms bursts, as socket messages would)
// for the whole run; the first third the reader sits at the top, the second scrolls 120 px a
// frame, the last jumps to a random place each frame. Frame times per phase, long tasks, heap.

export const RATE = 2000;
const BURST_MS = 20;

export interface RunFigures {
  frames: { follow: number[]; scroll: number[]; jump: number[] };
  longTasks: number[];
  /** When each long task started, ms into the run (which phase it fell in). */
  longTaskAt: number[];
  /** usedJSHeapSize before and after a forced gc (MB), when the browser exposes them. */
  heapMB: number | null;
  heapAfterGcMB: number | null;
  linesSent: number;
  /** Rows still "Loading…" in view after the run settled. */
  pendingRowsAfter: number;
  extra: Record<string, number>;
}

const longTasks: { start: number; duration: number }[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) longTasks.push({ start: e.startTime, duration: e.duration });
}).observe({ type: 'longtask', buffered: true });

/** mulberry32: the same jumps every run. */
function prng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const memory = () =>
  (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? null;

export async function runScenario(opts: {
  durationMs: number;
  scroller(): HTMLElement;
  /** n new lines arrive. */
  send(n: number): void;
  /** At the top: where new lines show (the top for ours, the bottom for the naive list). */
  follow(el: HTMLElement): void;
  extra?(): Record<string, number>;
}): Promise<RunFigures> {
  const rand = prng(42);
  const frames: RunFigures['frames'] = { follow: [], scroll: [], jump: [] };
  const t0 = performance.now();
  let sent = 0;
  const timer = setInterval(() => {
    const due = Math.floor(((performance.now() - t0) * RATE) / 1000) - sent;
    if (due > 0) {
      opts.send(due);
      sent += due;
    }
  }, BURST_MS);
  await new Promise<void>((resolve) => {
    let last = t0;
    const frame = (ts: number) => {
      const at = ts - t0;
      const third = opts.durationMs / 3;
      const phase = at < third ? 'follow' : at < 2 * third ? 'scroll' : 'jump';
      frames[phase].push(ts - last);
      last = ts;
      const el = opts.scroller();
      if (phase === 'follow') opts.follow(el);
      else if (phase === 'scroll') el.scrollTop += 120;
      else el.scrollTop = rand() * (el.scrollHeight - el.clientHeight);
      if (at < opts.durationMs) requestAnimationFrame(frame);
      else resolve();
    };
    requestAnimationFrame(frame);
  });
  clearInterval(timer);
  const end = performance.now();
  await new Promise((r) => setTimeout(r, 1000));
  const heap = memory();
  (globalThis as unknown as { gc?: () => void }).gc?.();
  const after = memory();
  return {
    frames,
    longTasks: longTasks.filter((t) => t.start >= t0 && t.start < end).map((t) => t.duration),
    longTaskAt: longTasks.filter((t) => t.start >= t0 && t.start < end).map((t) => Math.round(t.start - t0)),
    heapMB: heap === null ? null : heap / 2 ** 20,
    heapAfterGcMB: after === null ? null : after / 2 ** 20,
    linesSent: sent,
    pendingRowsAfter: document.querySelectorAll('.is-pending').length,
    extra: opts.extra?.() ?? {},
  };
}
