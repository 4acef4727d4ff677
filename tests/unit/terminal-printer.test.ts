import { describe, expect, it } from 'vitest';
import {
  FIRST_WRITE,
  FORMAT_BUDGET_MS,
  MIN_WRITE,
  PARSE_BUDGET_MS,
  printSlices,
  splitText,
} from '../../src/web/terminal/printer.ts';
import type { Safe } from '../../src/web/terminal/sanitise.ts';

/**
 * A terminal on a fake clock: like xterm, it parses queued writes in a task of its own, one write
 * after another, at `charsPerMs`; formatting a slice costs `formatMs`. `task` counts the turns the
 * printer gives the browser, so what it did within one task can be told apart.
 */
function fakeTerminal(charsPerMs: number, formatMs = 0) {
  let clock = 0;
  let task = 0;
  /** What each write shows, without the synchronized-output marks around it. */
  const writes: string[] = [];
  /** How many writes came as one synchronized update (DEC mode 2026). */
  let synchronized = 0;
  const queue: { data: string; done?: () => void }[] = [];
  let unparsed = 0;
  let maxUnparsed = 0;
  const parse = () => {
    for (const { data, done } of queue.splice(0)) {
      clock += data.length / charsPerMs;
      unparsed -= data.length;
      done?.();
    }
  };
  const formatTime = new Map<number, number>();
  return {
    writes,
    scheduler: {
      now: () => clock,
      nextTask: () =>
        new Promise<void>((resolve) =>
          setImmediate(() => {
            task++;
            resolve();
          }),
        ),
    },
    get synchronized() {
      return synchronized;
    },
    get maxUnparsed() {
      return maxUnparsed;
    },
    formatTime,
    sink: {
      write(data: string, done?: () => void) {
        const update = /^\x1b\[\?2026h([\s\S]*)\x1b\[\?2026l$/.exec(data);
        if (update) synchronized++;
        const shown = update ? update[1] : data;
        writes.push(shown);
        if (queue.length === 0) setTimeout(parse);
        queue.push({ data: shown, done });
        unparsed += shown.length;
        maxUnparsed = Math.max(maxUnparsed, unparsed);
      },
    },
    *slices(count: number, rowsPerSlice: number): Generator<Safe[]> {
      for (let s = 0; s < count; s++) {
        clock += formatMs;
        formatTime.set(task, (formatTime.get(task) ?? 0) + formatMs);
        yield Array.from(
          { length: rowsPerSlice },
          (_, r) => `row ${s * rowsPerSlice + r} ${'x'.repeat(60)}` as Safe,
        );
      }
    },
  };
}

const expected = (count: number, rowsPerSlice: number) =>
  Array.from({ length: count * rowsPerSlice }, (_, i) => `row ${i} ${'x'.repeat(60)}\r\n`).join('');

describe('printSlices', () => {
  it('hands the terminal every line in order, each ended by CRLF', async () => {
    const t = fakeTerminal(1000);
    await printSlices(t.sink, t.slices(40, 100), t.scheduler);
    expect(t.writes.join('')).toBe(expected(40, 100));
    expect(t.writes.length).toBeGreaterThan(1);
    expect(t.synchronized).toBe(t.writes.length);
  });

  it('writes short output at once, before anything else the caller writes next', async () => {
    const t = fakeTerminal(1000);
    const printed = printSlices(t.sink, [['a', 'b'] as Safe[]], t.scheduler);
    t.sink.write('prompt');
    await printed;
    expect(t.writes).toEqual(['a\r\nb\r\n', 'prompt']);
  });

  it('sizes each write by the parse rate so that parsing one takes about a frame', async () => {
    const charsPerMs = 3000;
    const t = fakeTerminal(charsPerMs);
    await printSlices(t.sink, t.slices(200, 100), t.scheduler);
    const frame = charsPerMs * PARSE_BUDGET_MS;
    expect(t.writes[0].length).toBeGreaterThanOrEqual(FIRST_WRITE);
    expect(t.writes[0].length).toBeLessThan(FIRST_WRITE + 100);
    // Each write is formatted while the one before parses: from the third on, each but the last
    // is a frame's worth at the rate the one before it showed (plus the end of a line).
    for (const w of t.writes.slice(2, -1)) {
      expect(w.length).toBeGreaterThanOrEqual(frame);
      expect(w.length).toBeLessThan(frame + 100);
    }
    // A slow terminal gets small writes, never below the floor.
    const slow = fakeTerminal(100);
    await printSlices(slow.sink, slow.slices(20, 100), slow.scheduler);
    for (const w of slow.writes.slice(2, -1)) expect(w.length).toBeLessThan(MIN_WRITE + 100);
  });

  it('hands over the next write only once the last is parsed', async () => {
    const t = fakeTerminal(3000);
    await printSlices(t.sink, t.slices(200, 100), t.scheduler);
    const all = expected(200, 100).length;
    expect(t.maxUnparsed).toBeLessThan(3000 * PARSE_BUDGET_MS + 100);
    expect(t.maxUnparsed).toBeLessThan(all / 10);
  });

  it('formats for at most a budget per task, letting the browser run between', async () => {
    const t = fakeTerminal(3000, 3);
    await printSlices(t.sink, t.slices(60, 10), t.scheduler);
    expect(t.formatTime.size).toBeGreaterThan(10);
    for (const ms of t.formatTime.values()) expect(ms).toBeLessThanOrEqual(FORMAT_BUDGET_MS + 3);
  });

  it('cuts a line far longer than a write across writes, never inside a surrogate pair', async () => {
    const t = fakeTerminal(1000);
    const line = `${'🦖'.repeat(FIRST_WRITE)}end` as Safe;
    await printSlices(t.sink, [[line]], t.scheduler);
    expect(t.writes.join('')).toBe(`${line}\r\n`);
    expect(t.writes.length).toBeGreaterThan(1);
    for (const w of t.writes) expect(w.charCodeAt(w.length - 1) >> 10).not.toBe(0xd800 >> 10);
  });
});

describe('splitText', () => {
  it('cuts text into pieces of at most the size that join back', () => {
    const text = 'ab🦖cd'.repeat(100);
    const pieces = splitText(text, 7);
    expect(pieces.join('')).toBe(text);
    for (const p of pieces) expect(p.length).toBeLessThanOrEqual(7);
    for (const p of pieces) expect(p.charCodeAt(p.length - 1) >> 10).not.toBe(0xd800 >> 10);
    expect(splitText('', 7)).toEqual([]);
  });
});
