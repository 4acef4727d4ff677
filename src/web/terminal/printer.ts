// How the console prints output of any length without blocking: lines are formatted and handed to
// xterm in writes sized so that formatting one and parsing one each fit well within a frame.
// xterm parses one write in one go (a 10,000-row write is one ~95 ms task), while many 4 KiB writes
// took up to 60 % longer to print (BROWSER-PERF §3), so the size follows the parse rate that
// xterm's write callbacks show.

import type { Safe } from './sanitise.ts';

/** What the printer needs from a terminal: ordered writes, each with a callback once parsed. */
export interface WriteSink {
  write(data: string, done?: () => void): void;
}

/** Time one task of ours spends formatting before the browser gets a turn. */
export const FORMAT_BUDGET_MS = 8;
/**
 * Time xterm should spend parsing one write: two frames. At 16 ms the first print in a fresh page
 * took 210 ms, its many small writes each paying xterm's fixed cost; at 40 ms a write became a
 * 76 ms task. 32 ms keeps every task under 50 ms with room for a slower machine.
 */
export const PARSE_BUDGET_MS = 32;
/** Write sizes: the first (until a parse rate is known; 64 KiB parses in ~30 ms cold), and the bounds of the rest. */
export const FIRST_WRITE = 64 * 1024;
export const MIN_WRITE = 4 * 1024;
export const MAX_WRITE = 256 * 1024;

/**
 * One write as one update (DEC mode 2026, synchronized output): xterm then moves its scrollbar and
 * paints once at the write's end instead of once per scrolled line, which was most of a fresh
 * page's first print (10,000 viewport syncs, each resetting a timer). Any write can carry it: the
 * mode ends inside the same write, so nothing is left waiting whatever follows.
 */
const synchronized = (text: string) => `\x1b[?2026h${text}\x1b[?2026l`;

/** Lets the browser run (paint, input, xterm's parser) before going on; unlike setTimeout, never clamped to 4 ms. */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** The clock and the way to give the browser a turn (tests pass fakes). */
export interface Scheduler {
  now(): number;
  nextTask(): Promise<void>;
}

const browser: Scheduler = { now: () => performance.now(), nextTask };

/** `text` in pieces of at most `size` UTF-16 units, never splitting a surrogate pair. */
export function splitText(text: string, size: number): string[] {
  const pieces: string[] = [];
  let at = 0;
  while (at < text.length) {
    let end = Math.min(text.length, at + size);
    const c = text.charCodeAt(end - 1);
    if (end < text.length && c >= 0xd800 && c <= 0xdbff) end--;
    pieces.push(text.slice(at, end));
    at = end;
  }
  return pieces;
}

/**
 * Prints slices of lines, each line followed by CRLF; a slice boundary is where formatting may
 * pause (see tableSlices). At most one write is left unparsed in xterm: the next is formatted while
 * xterm parses, and handed over once it has, from a task of our own (never from inside xterm's
 * timer, where the browser would clamp xterm's next timer to 4 ms). Resolves once all is parsed.
 */
export async function printSlices(
  sink: WriteSink,
  slices: Iterable<readonly Safe[]>,
  { now, nextTask }: Scheduler = browser,
): Promise<void> {
  let size = FIRST_WRITE;
  let text = '';
  let taskStart = now();
  /** The write xterm has not parsed yet: its length, and when its callback ran. */
  let pending: { chars: number; parsedAt: Promise<number> } | null = null;

  /** Waits for the pending write to be parsed, sizing the next write by how long that took. */
  const settle = async () => {
    if (!pending) return;
    const waitFrom = now();
    const parsedAt = await pending.parsedAt;
    // xterm parses in a task of its own that can only start once ours has ended, so from then to
    // its callback is the parse (and at most a frame painted first).
    const rate = pending.chars / Math.max(1, parsedAt - waitFrom);
    size = Math.round(Math.min(MAX_WRITE, Math.max(MIN_WRITE, rate * PARSE_BUDGET_MS)));
    pending = null;
  };
  /** Writes what is formatted: right away the first time, else once the last write is parsed. */
  const handOver = async () => {
    if (pending) {
      await settle();
      await nextTask();
      taskStart = now();
    }
    // Only a line far longer than a write (a game's answer may be one) is cut across writes.
    const pieces = text.length > 2 * size ? splitText(text, size) : [text];
    pending = {
      chars: text.length,
      parsedAt: new Promise((resolve) => {
        for (const [i, piece] of pieces.entries())
          sink.write(synchronized(piece), i === pieces.length - 1 ? () => resolve(now()) : undefined);
      }),
    };
    text = '';
  };

  for (const lines of slices) {
    for (const line of lines) {
      text += `${line}\r\n`;
      if (text.length >= size) await handOver();
    }
    if (now() - taskStart >= FORMAT_BUDGET_MS) {
      await nextTask();
      taskStart = now();
    }
  }
  if (text) await handOver();
  await settle();
}
