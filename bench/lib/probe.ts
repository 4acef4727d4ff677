// In-page measurement (BROWSER-PERF "Method"): start = performance.now() before a state change or
// the keydown's timeStamp; end = after React committed the expected state, the MessageChannel task
// posted from the first rAF that sees it, or the next rAF, whichever runs first. Long tasks come
// from a PerformanceObserver and are counted when they overlap [start, end].

export interface Sample {
  ms: number;
  /** Until React wrote the expected value to the input (the commit), without the paint. */
  commitMs?: number;
  /** Durations of the long tasks that overlapped the measured interval. */
  longTasks: number[];
}

export interface BenchApi {
  ready: boolean;
  /** Opens (or mounts) the palette and resolves when it has painted. */
  open(): Promise<Sample>;
  /** Arms the next keystroke: its sample ends once the input holds `query`. */
  arm(query: string): void;
  result(): Promise<Sample>;
  /**
   * Arms the wait for the server's rows for `query`, timed from the same keystroke: the paint
   * after the page handed them to the palette (they go below the rows it shows already, so they
   * may be past the list's visible window).
   */
  armRow(query: string): void;
  row(): Promise<Sample>;
  /** Long tasks after the palette painted open and before the first keystroke (ms). */
  idleLongTasks(): number[];
}

declare global {
  interface Window {
    __bench?: BenchApi;
  }
}

const LIMIT_MS = 60_000;
const longTasks: { start: number; end: number }[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) longTasks.push({ start: e.startTime, end: e.startTime + e.duration });
}).observe({ type: 'longtask', buffered: true });

export function overlapping(start: number, end: number): number[] {
  return longTasks.filter((t) => t.end > start && t.start < end).map((t) => t.end - t.start);
}

/** The end mark: first rAF at which `committed()` holds, then its MessageChannel task or the next rAF. */
export function paintedAfter(committed: () => boolean): Promise<number> {
  const deadline = performance.now() + LIMIT_MS;
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!committed()) {
        if (performance.now() > deadline) reject(new Error('no commit within the time limit'));
        else requestAnimationFrame(check);
        return;
      }
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        resolve(performance.now());
      };
      const channel = new MessageChannel();
      channel.port1.onmessage = finish;
      channel.port2.postMessage(null);
      requestAnimationFrame(finish);
    };
    requestAnimationFrame(check);
  });
}

/** The palette's input, in every variant: a combobox, as cmdk's Command.Input is. */
export const INPUT_SELECTOR = '[role="combobox"]';

/** React writes a controlled input's value to its `value` attribute at commit; typing alone does not. */
export function inputCommitted(query: string): boolean {
  return document.querySelector(INPUT_SELECTOR)?.getAttribute('value') === query;
}

/** `answered(query)`: the page's fake server has answered `query` (the remote variant). */
export function installProbe(
  open: () => void,
  isOpen: () => boolean,
  answered: (query: string) => boolean = () => false,
): void {
  let keyStart: number | null = null;
  let firstKey: number | null = null;
  let openEnd = 0;
  let committedAt = 0;
  let pending: Promise<Sample> | null = null;
  let pendingRow: Promise<Sample> | null = null;
  new MutationObserver(() => {
    committedAt = performance.now();
  }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['value'] });
  addEventListener(
    'keydown',
    (e) => {
      keyStart ??= e.timeStamp;
      firstKey ??= e.timeStamp;
    },
    { capture: true },
  );
  window.__bench = {
    ready: true,
    async open() {
      const start = performance.now();
      open();
      const end = await paintedAfter(isOpen);
      openEnd = end;
      return { ms: end - start, longTasks: overlapping(start, end) };
    },
    arm(query) {
      keyStart = null;
      pending = paintedAfter(() => keyStart !== null && inputCommitted(query)).then((end) => ({
        ms: end - keyStart!,
        commitMs: committedAt - keyStart!,
        longTasks: overlapping(keyStart!, end),
      }));
    },
    result() {
      if (!pending) throw new Error('arm() first');
      return pending;
    },
    armRow(query) {
      pendingRow = paintedAfter(() => keyStart !== null && answered(query)).then((end) => ({
        ms: end - keyStart!,
        longTasks: overlapping(keyStart!, end),
      }));
    },
    row() {
      if (!pendingRow) throw new Error('armRow() first');
      return pendingRow;
    },
    idleLongTasks: () => overlapping(openEnd, firstKey ?? performance.now()),
  };
}
