// The paging of the survivor, tribe and dino lists: a million rows on the server, a few pages held,
// only the reader's place fetched, and nothing from before a reload mixed into what follows it.

import { describe, expect, it } from 'vitest';
import type { Page } from '../../src/domain/api.ts';
import { CACHE_BLOCKS, MAX_INFLIGHT, PAGE_SIZE, PageWindow } from '../../src/web/store/pageWindow.ts';

const TOTAL = 1_000_000;

/** A server of `total()` rows named by position, whose answers wait until released. */
function server(total = () => TOTAL, tag = () => 'a') {
  const waiting: { page: number; release(): void }[] = [];
  const asked: number[] = [];
  const fetch = (page: number) =>
    new Promise<Page<string>>((resolve) => {
      asked.push(page);
      const from = (page - 1) * PAGE_SIZE;
      const t = tag();
      const n = Math.max(0, Math.min(PAGE_SIZE, total() - from));
      waiting.push({
        page,
        release: () =>
          resolve({
            totalResults: total(),
            pageSize: PAGE_SIZE,
            pages: Math.ceil(total() / PAGE_SIZE),
            page,
            results: Array.from({ length: n }, (_, k) => `${t}${from + k}`),
          }),
      });
    });
  const settle = async () => {
    while (waiting.length) {
      for (const w of waiting.splice(0)) w.release();
      await new Promise((r) => setTimeout(r, 0));
    }
  };
  return { fetch, asked, waiting, settle };
}

/** The list's first page, fetched as its owner does, starts the window. */
async function startFrom(w: PageWindow<string>, s: ReturnType<typeof server>) {
  const first = s.fetch(1);
  await s.settle();
  w.start(await first);
}

describe('PageWindow', () => {
  it('knows the total from the first page and fetches only the pages around the reader', async () => {
    const s = server();
    const w = new PageWindow({ fetch: s.fetch, onChange: () => undefined });
    await startFrom(w, s);
    expect(w.count).toBe(TOTAL);
    expect(w.rowAt(0)).toBe('a0');

    s.asked.length = 0;
    w.ensure(500_000, 500_040);
    expect(s.asked.length).toBeLessThanOrEqual(MAX_INFLIGHT);
    await s.settle();
    // The page shown and one either side; nothing from the top to here.
    expect(new Set(s.asked)).toEqual(new Set([2000, 2001, 2002]));
    expect(w.window(500_000, 500_040).rows).toEqual(Array.from({ length: 40 }, (_, k) => `a${500_000 + k}`));
  });

  it('holds a bounded number of rows however far the reader goes', async () => {
    const s = server();
    const w = new PageWindow({ fetch: s.fetch, onChange: () => undefined });
    await startFrom(w, s);
    for (let at = 0; at < TOTAL; at += 37_001) {
      w.ensure(at, at + 40);
      await s.settle();
      expect(w.rowAt(at)).toBe(`a${at}`);
    }
    expect(w.heldRows).toBeLessThanOrEqual(CACHE_BLOCKS * PAGE_SIZE);
  });

  it('a jump leaves the places passed unfetched', async () => {
    const s = server();
    const w = new PageWindow({ fetch: s.fetch, onChange: () => undefined });
    await startFrom(w, s);
    s.asked.length = 0;
    for (const at of [100_000, 200_000, 300_000, 400_000]) w.ensure(at, at + 40);
    await s.settle();
    // The first place's pages were on their way; the two between were never asked for.
    expect(s.asked.some((p) => p > 700 && p < 1500)).toBe(false);
    expect(w.rowAt(400_000)).toBe('a400000');
  });

  it('drops a page asked for before the list started over, and still fetches that page for the new rows', async () => {
    let tag = 'a';
    const s = server(
      () => TOTAL,
      () => tag,
    );
    const w = new PageWindow({ fetch: s.fetch, onChange: () => undefined });
    await startFrom(w, s);
    w.ensure(5_000, 5_040);
    const stale = s.waiting.splice(0);
    tag = 'b';
    await startFrom(w, s);
    s.asked.length = 0;
    w.ensure(5_000, 5_040);
    // The old answer arrives after the new request went out: it neither shows nor cancels it, so
    // the reader moving again does not ask for the page a second time.
    for (const x of stale) x.release();
    await new Promise((r) => setTimeout(r, 0));
    w.ensure(5_000, 5_040);
    expect(s.asked.filter((p) => p === 21)).toHaveLength(1);
    await s.settle();
    expect(w.rowAt(0)).toBe('b0');
    expect(w.rowAt(5_000)).toBe('b5000');
  });

  it('a list that shrank past the reader ends where its page says', async () => {
    let total = 10_000;
    const s = server(() => total);
    const w = new PageWindow({ fetch: s.fetch, onChange: () => undefined });
    await startFrom(w, s);
    total = 5_100;
    w.ensure(5_000, 5_040);
    await s.settle();
    expect(w.count).toBe(5_100);
    expect(w.window(5_000, 6_000).rows).toHaveLength(100);
  });
});
