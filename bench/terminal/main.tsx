// Bench page: the real console pane (TerminalPane → ConsoleSession → printSlices: the table
// formatted while it is written, in writes sized by xterm's parse rate) printing a 10,000-row result after Enter,
// and BROWSER-PERF §3's baseline in the same page: a bare xterm (DOM renderer, the pane's options
// and size) given the same lines in one write.
// Measured as BROWSER-PERF "Method": from the Enter keydown (or the write call) to the frame
// after the last row shows, with the long tasks that overlap it.

import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import { createRoot } from 'react-dom/client';
import '../../src/web/app/theme.css';
import type { CommandContext } from '../../commands/context.ts';
import { defineCommand, Registry } from '../../commands/registry.ts';
import type { CommandRuntime } from '../../src/web/app/runtime.ts';
import { formatResult } from '../../src/web/terminal/format.ts';
import TerminalPane from '../../src/web/terminal/TerminalPane.tsx';

const ROWS = 10_000;
const COMMAND = 'survivors';

/** A survivor list as the console prints one; the last row's name says the print is done. */
const table = {
  columns: ['Name', 'Id', 'Server', 'Tribe', 'Level', 'Online'],
  rows: Array.from({ length: ROWS }, (_, i) => [
    `Survivor #${i + 1}`,
    `4d6f8a10-1c2b-4e3d-9f80-${(i + 1).toString(16).padStart(12, '0')}`,
    ['Island PvE', 'Scorched PvP', 'Aberration Cluster'][i % 3],
    `Tribe of ${['Bob', 'Alice', 'Mika', 'Ravi'][i % 4]}`,
    1 + ((i * 37) % 450),
    i % 3 === 0,
  ]),
};
const LAST = `Survivor #${ROWS} `;

export interface Sample {
  ms: number;
  /** Until xterm's write callback (parsed), before its render. */
  parsedMs?: number;
  /** Formatting the table into lines (sanitise, widths, padding), ms. */
  formatMs?: number;
  longTasks: number[];
}

declare global {
  interface Window {
    __termBench?: {
      ready: boolean;
      /** The next Enter starts a sample that ends once the last row is painted. */
      arm(): void;
      result(): Promise<Sample>;
      baseline(): Promise<Sample>;
    };
  }
}

const longTasks: { start: number; end: number }[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) longTasks.push({ start: e.startTime, end: e.startTime + e.duration });
}).observe({ type: 'longtask', buffered: true });
const overlapping = (start: number, end: number) =>
  longTasks.filter((t) => t.end > start && t.start < end).map((t) => t.end - t.start);

/** The end mark: the first frame at which `done()` holds, then its MessageChannel task or the next frame. */
function paintedAfter(done: () => boolean): Promise<number> {
  return new Promise((resolve) => {
    const check = () => {
      if (!done()) {
        requestAnimationFrame(check);
        return;
      }
      let settled = false;
      const finish = () => {
        if (!settled) resolve(performance.now());
        settled = true;
      };
      const channel = new MessageChannel();
      channel.port1.onmessage = finish;
      channel.port2.postMessage(null);
      requestAnimationFrame(finish);
    };
    requestAnimationFrame(check);
  });
}

const shows = (host: HTMLElement, text: string) =>
  (host.querySelector('.xterm-rows')?.textContent ?? '').replace(/\u00a0/g, ' ').includes(text);

const registry = new Registry().register(
  defineCommand({ id: COMMAND, title: 'List survivors', group: 'Bench', run: () => ({ table }) }),
);
/** What the pane's session calls; the rest of a runtime is not reached by this bench. */
const session: Pick<CommandRuntime, 'registry' | 'entities' | 'context' | 'run'> = {
  registry,
  entities: { search: () => [], resolve: async () => [] },
  context: (surface) => ({ surface }) as CommandContext,
  run: async (cmd, values, surface) => (await cmd.run(values, { surface } as CommandContext)) ?? undefined,
};
const runtime = session as CommandRuntime;

const ours = document.getElementById('ours')!;
createRoot(ours).render(<TerminalPane runtime={runtime} userId="bench" promptFocusSignal={1} />);

let enterAt: number | null = null;
addEventListener(
  'keydown',
  (e) => {
    if (e.key === 'Enter') enterAt ??= e.timeStamp;
  },
  { capture: true },
);
let pending: Promise<Sample> | null = null;

window.__termBench = {
  get ready() {
    return shows(ours, 'palisade>');
  },
  arm() {
    enterAt = null;
    pending = paintedAfter(() => enterAt !== null && shows(ours, LAST)).then((end) => ({
      ms: end - enterAt!,
      longTasks: overlapping(enterAt!, end),
    }));
  },
  result() {
    if (!pending) throw new Error('arm() first');
    return pending;
  },
  async baseline() {
    const host = document.getElementById('baseline')!;
    const css = getComputedStyle(document.documentElement);
    const term = new Terminal({
      scrollback: 5000,
      fontFamily: css.getPropertyValue('--mono').trim() || 'monospace',
      fontSize: Number.parseFloat(css.getPropertyValue('--fs')) || 13,
    });
    // The pane's size, fitted as the pane fits its own: both print the same lines on as many cells.
    const fit = new FitAddon();
    term.loadAddon(fit);
    term.open(host);
    fit.fit();
    // What the pane does before its first write, timed alone: the baseline starts after it.
    const formatStart = performance.now();
    const text = formatResult({ table }, term.cols)
      .map((l) => `${l}\r\n`)
      .join('');
    const formatMs = performance.now() - formatStart;
    await new Promise((r) => setTimeout(r, 500));
    const start = performance.now();
    let parsed = 0;
    term.write(text, () => {
      parsed = performance.now();
    });
    const end = await paintedAfter(() => parsed > 0 && shows(host, LAST));
    term.dispose();
    return { ms: end - start, parsedMs: parsed - start, formatMs, longTasks: overlapping(start, end) };
  },
};
