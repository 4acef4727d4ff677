// /sentinel/logMessages: every filter of SENTINEL-API §3.16, the default order, visibility, and the
// exact since/until cursors the log view pages and resyncs with (ties on time settled by messageId).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogMessage, Page } from '../../src/domain/api.ts';
import { ensureLogPartitions, logPartition } from '../../src/server/db/retention.ts';
import { call, signIn, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let owner: string;
let moderator: string;

// 2001-09-09: far before anything the seed or the server writes, so these rows are known.
const T0 = 1_000_000_000;
const PLAYER = '4d6f8a10-1c2b-4e3d-9f80-a1b2c3d4e5f6';
const TRIBE = '7a2b9c10-1c2b-4e3d-9f80-a1b2c3d4e5f6';

interface Row {
  id: string;
  service: number;
  event: string;
  type: string;
  level: string;
  time: number;
  message: string;
  metadata?: Record<string, unknown>;
}

const uuid = (n: number) => `00000000-0000-7000-8000-${n.toString(16).padStart(12, '0')}`;

async function insert(rows: Row[]) {
  for (const r of rows)
    await t.server.db.query(
      `INSERT INTO log_messages (message_id, service_id, event_name, type, level, time, metadata, message)
       VALUES ($1, $2, $3, $4, $5, to_timestamp($6::float8), $7::jsonb, $8)`,
      [
        r.id,
        t.demo.servers[r.service].serviceId,
        r.event,
        r.type,
        r.level,
        r.time,
        JSON.stringify(r.metadata ?? {}),
        r.message,
      ],
    );
}

const FIXED: Row[] = [
  {
    id: uuid(1),
    service: 0,
    event: 'playerJoined',
    type: 'Gameplay',
    level: 'Informational',
    time: T0 + 1,
    message: 'Bob joined the server',
    metadata: { playerId: PLAYER },
  },
  {
    id: uuid(2),
    service: 0,
    event: 'tribeMemberAdded',
    type: 'Gameplay',
    level: 'Notice',
    time: T0 + 2,
    message: 'Bob joined the tribe Raptors',
    metadata: { playerId: PLAYER, tribeId: TRIBE },
  },
  {
    id: uuid(3),
    service: 1,
    event: 'serverDisconnected',
    type: 'Service',
    level: 'Warning',
    time: T0 + 3,
    message: 'The server went away',
  },
  {
    id: uuid(4),
    service: 1,
    event: 'dinoDied',
    type: 'Gameplay',
    level: 'Error',
    time: T0 + 4,
    message: 'A raptor died horribly',
  },
  {
    id: uuid(5),
    service: 0,
    event: 'chat',
    type: 'Gameplay',
    level: 'Critical',
    time: T0 + 5,
    message: 'Alice: raptors everywhere',
  },
];

const list = async (query: Record<string, string>, token = owner) => {
  const q = new URLSearchParams({ until: String(T0 + 10), since: String(T0), ...query });
  const r = await call(t.base, token, 'GET', `/sentinel/logMessages?${q}`);
  expect(r.status).toBe(200);
  return r.body as Page<LogMessage>;
};
const ids = (p: Page<LogMessage>) => p.results.map((m) => m.messageId);

beforeAll(async () => {
  t = await startTestServer();
  owner = (await signIn(t.base)).access_token;
  moderator = (await signIn(t.base, t.demo.moderator.email, 'palisade-demo')).access_token;
  await insert(FIXED);
});
afterAll(() => t?.close());

describe('filters of §3.16', () => {
  it('lists newest first by default and ascending on request', async () => {
    expect(ids(await list({}))).toEqual([uuid(5), uuid(4), uuid(3), uuid(2), uuid(1)]);
    expect(ids(await list({ sortDirection: 'ascending' }))).toEqual([
      uuid(1),
      uuid(2),
      uuid(3),
      uuid(4),
      uuid(5),
    ]);
  });

  it('filters by service, group, event, type and level lists', async () => {
    const island = t.demo.servers[0].serviceId;
    expect(ids(await list({ serviceId: island }))).toEqual([uuid(5), uuid(2), uuid(1)]);
    expect((await list({ groupId: t.demo.groupId })).totalResults).toBeGreaterThan(0);
    expect(ids(await list({ eventName: 'playerJoined,dinoDied' }))).toEqual([uuid(4), uuid(1)]);
    expect(ids(await list({ type: 'Service' }))).toEqual([uuid(3)]);
    // "Warning and above" as the log view sends it.
    expect(ids(await list({ level: 'Warning,Error,Critical,Alert,Emergency' }))).toEqual([
      uuid(5),
      uuid(4),
      uuid(3),
    ]);
  });

  it('searches the message as English full text', async () => {
    // "raptor" stems to match "raptors" too.
    expect(ids(await list({ message: 'raptor' }))).toEqual([uuid(5), uuid(4), uuid(2)]);
    expect(ids(await list({ message: 'raptor -died' }))).toEqual([uuid(5), uuid(2)]);
  });

  it('finds lines by the entity ids in their metadata, and nothing for a malformed id', async () => {
    expect(ids(await list({ playerId: PLAYER }))).toEqual([uuid(2), uuid(1)]);
    expect(ids(await list({ tribeId: TRIBE }))).toEqual([uuid(2)]);
    expect((await list({ playerId: 'not-a-uuid' })).totalResults).toBe(0);
  });

  it('shows only the servers the caller can see, and 404 for a line of another', async () => {
    const all = await list({});
    const mine = await list({}, moderator);
    expect(mine.totalResults).toBeLessThanOrEqual(all.totalResults);
    for (const m of mine.results) expect(all.results.map((x) => x.messageId)).toContain(m.messageId);
    const one = await call(t.base, owner, 'GET', `/sentinel/logMessages/${uuid(3)}`);
    expect(one.status).toBe(200);
    expect(one.body.message).toBe('The server went away');
    const stranger = await call(t.base, owner, 'GET', `/sentinel/logMessages/${uuid(999)}`);
    expect(stranger.status).toBe(404);
  });

  it('treats a malformed time bound as matching nothing', async () => {
    expect((await list({ since: 'yesterday' })).totalResults).toBe(0);
    expect((await list({ untilMessageId: 'nope' })).totalResults).toBe(0);
  });
});

describe('exact cursors', () => {
  // 40 lines on 4 timestamps (10 share each), interleaved ids, on their own server.
  const BASE = T0 + 100;
  const TIES: Row[] = Array.from({ length: 40 }, (_, i) => ({
    id: uuid(1000 + ((i * 7) % 40)),
    service: 2,
    event: 'itemCrafted',
    type: 'Gameplay',
    level: 'Informational',
    // A fraction that is not exact in binary, so float round-trips are exercised.
    time: BASE + Math.floor(i / 10) + 0.123457,
    message: `line ${i}`,
  }));
  const scope = () => ({ serviceId: t.demo.servers[2].serviceId, since: String(BASE - 1) });

  beforeAll(() => insert(TIES));

  it('pages a snapshot with until + untilMessageId, inclusive of the cursor row', async () => {
    const all = await list({ ...scope(), until: String(BASE + 10) });
    expect(all.totalResults).toBe(40);
    const top = all.results[0];
    const snap = await list({
      ...scope(),
      until: String(top.time),
      untilMessageId: top.messageId,
      pageSize: '15',
    });
    expect(snap.totalResults).toBe(40);
    expect(snap.results[0].messageId).toBe(top.messageId);
    // A row in the middle of a tie: everything after it in list order, nothing before.
    const mid = all.results[17];
    const rest = await list({ ...scope(), until: String(mid.time), untilMessageId: mid.messageId });
    expect(ids(rest)).toEqual(ids(all).slice(17));
  });

  it('resyncs with since + sinceMessageId: ascending keyset pages, no gap, no duplicate', async () => {
    const all = await list({ ...scope(), until: String(BASE + 10), sortDirection: 'ascending' });
    // The client holds the first 13 (cut inside a tie) and asks for what came after, 5 at a time.
    let cursor = all.results[12];
    const got: string[] = [];
    for (;;) {
      const page = await list({
        ...scope(),
        until: String(BASE + 10),
        since: String(cursor.time),
        sinceMessageId: cursor.messageId,
        sortDirection: 'ascending',
        pageSize: '5',
      });
      got.push(...ids(page));
      if (page.results.length < 5) break;
      cursor = page.results.at(-1)!;
    }
    expect(got).toEqual(ids(all).slice(13));
  });

  it('keeps the plain time bounds strict', async () => {
    const at = String(BASE + 1.123457);
    expect((await list({ ...scope(), until: at })).totalResults).toBe(10);
    expect((await list({ ...scope(), since: at, until: String(BASE + 10) })).totalResults).toBe(20);
  });
});

describe('weeks', () => {
  // Lines of the last four days, each in its week's partition, and the same words in 2001, which
  // falls before every week and is kept in the range before them.
  const DAY = 86_400;
  const now = Math.floor(Date.now() / 1000);
  const SPREAD: Row[] = Array.from({ length: 24 }, (_, i) => ({
    id: uuid(3000 + i),
    service: 2,
    event: 'chat',
    type: 'Gameplay',
    level: 'Informational',
    time: i < 20 ? now - (i % 4) * DAY - i : T0 + 500 + i,
    message: `Zebras graze quietly near camp ${i}`,
  }));
  const window = { since: String(T0), until: String(now + 60) };

  beforeAll(async () => {
    await ensureLogPartitions(t.server.db, new Date((now - 4 * DAY) * 1000), new Date(now * 1000));
    await insert(SPREAD);
  });

  it('keeps each line in its week, and one before every week in the range before them', async () => {
    const { rows } = await t.server.db.query<{ id: string; part: string }>(
      'SELECT message_id AS id, tableoid::regclass::text AS part FROM log_messages WHERE message_id = ANY($1::uuid[])',
      [SPREAD.map((r) => r.id)],
    );
    const where = new Map(rows.map((r) => [r.id, r.part]));
    for (const r of SPREAD)
      expect(where.get(r.id)).toBe(
        r.time < now - 5 * DAY ? 'log_messages_before' : logPartition(new Date(r.time * 1000)),
      );
  });

  it('finds words across the weeks in time order, with exact cursors, and websearch operators', async () => {
    const byTime = [...SPREAD].sort((a, b) => b.time - a.time).map((r) => r.id);
    const all = await list({ ...window, message: 'zebra grazing' });
    expect(ids(all)).toEqual(byTime);
    const mid = all.results[9];
    const rest = await list({
      ...window,
      message: 'zebra',
      until: String(mid.time),
      untilMessageId: mid.messageId,
    });
    expect(ids(rest)).toEqual(byTime.slice(9));
    const asc = await list({
      ...window,
      message: 'zebra',
      sortDirection: 'ascending',
      pageSize: '5',
      page: '2',
    });
    expect(ids(asc)).toEqual([...byTime].reverse().slice(5, 10));
    expect((await list({ ...window, message: 'zebra -camp' })).totalResults).toBe(0);
    expect((await list({ ...window, message: '"graze quietly" or nothing' })).totalResults).toBe(24);
  });
});
