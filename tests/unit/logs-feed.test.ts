// The log view's data: the block cache, live lines that follow at the top and wait while the
// reader is away, folding, and the catch-up after a resubscribe (no gap, no duplicate), against a
// fake of /sentinel/logMessages that honours the same cursors as the real one.

import { describe, expect, it } from 'vitest';
import type { LogMessage, Page } from '../../src/domain/api.ts';
import { BlockCache } from '../../src/web/store/blockCache.ts';
import { compareCursor, cursorOf } from '../../src/web/store/logOrder.ts';
import { CACHE_BLOCKS, PAGE_SIZE, totalSeen } from '../../src/web/store/pageWindow.ts';
import { HEAD_MAX, LogFeed, PENDING_MAX } from '../../src/web/views/logs/logFeed.ts';
import { accepts, EMPTY_CRITERIA, sameQuery, toQuery } from '../../src/web/views/logs/logQuery.ts';

const SERVICE = '11111111-1111-4111-8111-111111111111';
const uuid = (n: number) => `00000000-0000-7000-8000-${n.toString(16).padStart(12, '0')}`;

/** Line n; four lines share each second so ties on time are everywhere. */
const line = (n: number, level: LogMessage['level'] = 'Informational'): LogMessage => ({
  messageId: uuid(n),
  serviceId: SERVICE,
  serviceDisplayName: 'Island',
  serviceMiniDisplayName: 'Island',
  eventName: 'playerJoined',
  type: 'Gameplay',
  time: 1_700_000_000 + Math.floor(n / 4),
  level,
  analyzerStatus: 'Skipped',
  metadata: {},
  message: `line ${n}`,
});

/** The server's list over `rows`, with the cursors of src/server/routes/logMessages.ts. */
class FakeServer {
  rows: LogMessage[] = [];
  calls: Record<string, string>[] = [];
  add(...ms: LogMessage[]) {
    this.rows.push(...ms);
  }
  list = async (q: Record<string, string>): Promise<Page<LogMessage>> => {
    this.calls.push(q);
    await Promise.resolve();
    let r = this.rows.filter((m) => !q.level || q.level.split(',').includes(m.level));
    if (q.since) {
      const c = { time: Number(q.since), id: q.sinceMessageId ?? '' };
      r = r.filter((m) => (q.sinceMessageId ? compareCursor(cursorOf(m), c) > 0 : m.time > c.time));
    }
    if (q.until) {
      const c = { time: Number(q.until), id: q.untilMessageId ?? '' };
      r = r.filter((m) => (q.untilMessageId ? compareCursor(cursorOf(m), c) <= 0 : m.time < c.time));
    }
    const sign = q.sortDirection === 'ascending' ? 1 : -1;
    r.sort((a, b) => sign * compareCursor(cursorOf(a), cursorOf(b)));
    const size = Number(q.pageSize ?? PAGE_SIZE);
    const page = Number(q.page ?? 1);
    return {
      totalResults: r.length,
      pageSize: size,
      pages: Math.ceil(r.length / size),
      page,
      results: r.slice((page - 1) * size, page * size),
    };
  };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

function feedOver(server: FakeServer, criteria = EMPTY_CRITERIA) {
  const scope = { serviceId: SERVICE };
  return new LogFeed({
    list: server.list,
    query: toQuery(scope, criteria),
    accepts: (m) => accepts(scope, criteria, m),
    live: true,
    onChange: () => {},
  });
}

const ids = (feed: LogFeed, start: number, end: number) =>
  Array.from({ length: end - start }, (_, i) => feed.rowAt(start + i)?.messageId);

describe('BlockCache', () => {
  it('holds blocks at any position, drops the least recently used beyond capacity', () => {
    const c = new BlockCache<number>(2);
    c.put(0, [0, 1, 2]);
    c.put(10, [10, 11]);
    c.touch(0, 1);
    c.put(20, [20]);
    expect(c.get(1)).toBe(1);
    expect(c.get(10)).toBeUndefined();
    expect(c.get(20)).toBe(20);
    expect(c.covers(0, 3)).toBe(true);
    expect(c.covers(0, 4)).toBe(false);
  });

  it('moves every block when rows are inserted before them, and replaces blocks a new one spans', () => {
    const c = new BlockCache<string>(4);
    c.put(0, ['a', 'b']);
    c.shift(3);
    expect(c.get(0)).toBeUndefined();
    expect(c.get(3)).toBe('a');
    c.put(3, ['A', 'B', 'C']);
    expect(c.size).toBe(1);
    expect(c.covers(3, 6)).toBe(true);
  });
});

describe('LogFeed paging', () => {
  it('pages a snapshot, holding only blocks near the reader', async () => {
    const server = new FakeServer();
    for (let n = 0; n < 20_000; n++) server.add(line(n));
    const feed = feedOver(server);
    await feed.reload();
    expect(feed.count).toBe(20_000);
    expect(feed.rowAt(0)?.messageId).toBe(uuid(19_999));

    // The reader jumps around; new lines stored meanwhile do not shift the pages.
    server.add(line(20_000), line(20_001));
    for (const at of [19_990, 5_000, 123, 15_000, 7_777, 2_500, 17_500, 12_345, 4_321, 18_000, 600, 10_000]) {
      feed.ensure(at, at + 40);
      await settle();
    }
    expect(feed.rowAt(10_000)?.messageId).toBe(uuid(9_999));
    expect(feed.count).toBe(20_000);
    // The first jump's blocks were the least recently used: dropped, and fetched again on return.
    expect(feed.rowAt(19_999)).toBeUndefined();
    feed.ensure(19_960, 20_000);
    await settle();
    expect(feed.rowAt(19_999)?.messageId).toBe(uuid(0));
    // Every page request carried the snapshot cursor.
    for (const q of server.calls.slice(1)) expect(q.untilMessageId).toBe(uuid(19_999));
    expect(feed.heldRows).toBeLessThanOrEqual(CACHE_BLOCKS * PAGE_SIZE);
    // The window is the contiguous held run.
    const w = feed.window(10_000, 10_040);
    expect(w.offset).toBe(10_000);
    expect(w.rows.map((m) => m.messageId)).toEqual(ids(feed, 10_000, 10_040));
  });
});

describe('LogFeed live lines', () => {
  async function loaded(n = 1000) {
    const server = new FakeServer();
    for (let i = 0; i < n; i++) server.add(line(i));
    const feed = feedOver(server);
    await feed.reload();
    return { server, feed };
  }

  it('follows at the top: a flush puts new lines above, newest first', async () => {
    const { feed } = await loaded();
    feed.receive([line(1001), line(1000), line(1002)]);
    expect(feed.flush(true)).toBe(true);
    expect(ids(feed, 0, 4)).toEqual([uuid(1002), uuid(1001), uuid(1000), uuid(999)]);
    expect(feed.count).toBe(1003);
  });

  it('keeps the reader’s place when scrolled away, and shows the lines on return', async () => {
    const { feed } = await loaded();
    const before = ids(feed, 100, 140);
    feed.receive([line(1000), line(1001)]);
    expect(feed.flush(false)).toBe(false);
    expect(ids(feed, 100, 140)).toEqual(before);
    expect(feed.count).toBe(1000);
    expect(feed.waiting).toBe(2);
    expect(feed.flush(true)).toBe(true);
    expect(feed.waiting).toBe(0);
    expect(feed.rowAt(0)?.messageId).toBe(uuid(1001));
  });

  it('drops duplicates, lines already in the snapshot and lines the filters exclude', async () => {
    const server = new FakeServer();
    for (let i = 0; i < 100; i++) server.add(line(i, i % 10 === 0 ? 'Error' : 'Informational'));
    const feed = feedOver(server, { ...EMPTY_CRITERIA, level: 'Warning+' });
    await feed.reload();
    expect(feed.count).toBe(10);
    feed.receive([line(90, 'Error'), line(100, 'Warning'), line(100, 'Warning'), line(101, 'Notice')]);
    feed.flush(true);
    expect(feed.count).toBe(11);
    expect(feed.rowAt(0)?.messageId).toBe(uuid(100));
  });

  it('asks the server when only it can judge a line (text search)', async () => {
    const server = new FakeServer();
    const feed = feedOver(server, { ...EMPTY_CRITERIA, text: 'tame' });
    await feed.reload();
    feed.receive([line(5)]);
    expect(feed.wantsCatchUp).toBe(true);
    expect(feed.waiting).toBe(0);
  });

  it('folds a long head into the snapshot without moving any row', async () => {
    const { server, feed } = await loaded();
    const fresh = Array.from({ length: HEAD_MAX + 5 }, (_, i) => line(1000 + i));
    server.add(...fresh);
    feed.receive(fresh);
    feed.flush(true);
    const top = ids(feed, 0, 3);
    const deep = ids(feed, HEAD_MAX + 100, HEAD_MAX + 103);
    expect(feed.count).toBe(1000 + HEAD_MAX + 5);
    // Folded: pages now ask for the new snapshot, and rows are where they were.
    feed.ensure(1500, 1540);
    await settle();
    expect(ids(feed, 0, 3)).toEqual(top);
    expect(ids(feed, HEAD_MAX + 100, HEAD_MAX + 103)).toEqual(deep);
    expect(server.calls.at(-1)?.untilMessageId).toBe(uuid(1000 + HEAD_MAX + 4));
  });

  it('reloads from the top when more arrived while away than it holds', async () => {
    const { server, feed } = await loaded(10);
    const flood = Array.from({ length: PENDING_MAX + 10 }, (_, i) => line(10 + i));
    server.add(...flood);
    feed.receive(flood);
    expect(feed.waiting).toBe(PENDING_MAX + 10);
    feed.flush(true);
    await settle();
    await settle();
    expect(feed.count).toBe(10 + PENDING_MAX + 10);
    expect(feed.rowAt(0)?.messageId).toBe(uuid(PENDING_MAX + 19));
  });
});

describe('LogFeed catch-up after a resubscribe', () => {
  it('fetches exactly what was missed, across ties and pages, merged with live lines', async () => {
    const server = new FakeServer();
    for (let i = 0; i < 50; i++) server.add(line(i));
    const feed = feedOver(server);
    await feed.reload();
    feed.receive([line(50)]);
    // Away: 600 lines stored (ties on every second). Back: resubscribed, and two new lines
    // arrive live (one twice) before the catch-up runs.
    server.add(...Array.from({ length: 602 }, (_, i) => line(51 + i)));
    feed.markGap();
    feed.receive([line(651), line(652), line(652)]);
    await feed.catchUp();
    feed.flush(true);
    const shown = ids(feed, 0, feed.count);
    expect(shown.length).toBe(653);
    expect(shown).toEqual(Array.from({ length: 653 }, (_, i) => uuid(652 - i)));
    // Ascending keyset pages from the last line received before the gap.
    const asc = server.calls.filter((q) => q.sortDirection === 'ascending');
    expect(asc[0].sinceMessageId).toBe(uuid(50));
    expect(asc).toHaveLength(3);
    // Closed: the next catch-up starts from the newest line.
    await feed.catchUp();
    expect(server.calls.at(-1)?.sinceMessageId).toBe(uuid(652));
  });

  it('a logsUpdated line (too big to send) is fetched even when later lines arrived live', async () => {
    const server = new FakeServer();
    for (let i = 0; i < 5; i++) server.add(line(i));
    const feed = feedOver(server);
    await feed.reload();
    server.add(line(5), line(6));
    feed.markGap();
    feed.receive([line(6)]);
    await feed.catchUp();
    feed.flush(true);
    expect(ids(feed, 0, 3)).toEqual([uuid(6), uuid(5), uuid(4)]);
  });

  it('starts from the snapshot when nothing arrived live', async () => {
    const server = new FakeServer();
    for (let i = 0; i < 7; i++) server.add(line(i));
    const feed = feedOver(server);
    await feed.reload();
    server.add(line(7), line(8));
    await feed.catchUp();
    expect(server.calls.at(-1)?.sinceMessageId).toBe(uuid(6));
    feed.flush(true);
    expect(ids(feed, 0, 3)).toEqual([uuid(8), uuid(7), uuid(6)]);
  });
});

describe('totalSeen', () => {
  const rows = (n: number) => Array.from({ length: n }, (_, i) => i);
  it('trusts an exact total, and corrects an estimate by what the pages show', () => {
    expect(totalSeen({ totalResults: 600, results: rows(250) }, 250)).toBe(600);
    // A short page is the end, whatever the estimate said.
    expect(totalSeen({ totalResults: 12_000, results: rows(40) }, 11_750)).toBe(11_790);
    // An empty page: the end is before it.
    expect(totalSeen({ totalResults: 12_000, results: [] }, 11_750)).toBe(11_750);
    // A full page past the estimate: there is at least that much.
    expect(totalSeen({ totalResults: 10_500, results: rows(250) }, 10_500)).toBe(10_750);
  });
});

describe('sameQuery', () => {
  it('treats a re-applied empty filter as no change, and a real change as one', () => {
    // Tabbing out of an empty id field re-applies it; that must not reload the view (it did, and
    // emptied the list under the reader for a moment).
    expect(sameQuery(EMPTY_CRITERIA, { ...EMPTY_CRITERIA, ids: {} })).toBe(true);
    expect(sameQuery(EMPTY_CRITERIA, { ...EMPTY_CRITERIA, ids: { playerId: '  ' } })).toBe(true);
    expect(sameQuery(EMPTY_CRITERIA, { ...EMPTY_CRITERIA, level: 'Warning' })).toBe(false);
  });
});
