// /sentinel/logMessages over a deterministic generator instead of a database: line k (0 = oldest)
// is built when asked for, so a million lines cost nothing until a page holds them. The cursors
// (since/until with a message id), order and paging are those of the real route; filters are not
// used by the bench. Lines appended live are part of the list from then on, as on a real server.

import type { LogMessage, Page } from '../../src/domain/api.ts';
import { EVENT_NAMES, LOG_LEVELS } from '../../src/domain/enums.ts';

const T0 = 1_750_000_000;
const SERVICE = '0a0a0a0a-0000-4000-8000-000000000001';
const WORDS = ['Rex', 'Raptor', 'Bob', 'Alice', 'tamed', 'killed', 'joined', 'left', 'crafted', 'a', 'Stego'];

/** Ten lines a second of game time, so k and time order agree and ties do not occur. */
const timeOf = (k: number) => T0 + k / 10;
const idOf = (k: number) => `00000000-0000-7000-8000-${k.toString(16).padStart(12, '0')}`;
const kOf = (id: string) => Number.parseInt(id.slice(24), 16);

export function lineAt(k: number): LogMessage {
  const w = (i: number) => WORDS[(k * 7 + i * 13) % WORDS.length];
  return {
    messageId: idOf(k),
    serviceId: SERVICE,
    serviceDisplayName: 'Island PvE',
    serviceMiniDisplayName: 'Island',
    eventName: EVENT_NAMES[k % EVENT_NAMES.length],
    type: k % 5 === 0 ? 'Service' : 'Gameplay',
    time: timeOf(k),
    level: LOG_LEVELS[k % 4],
    analyzerStatus: 'Skipped',
    metadata: { playerId: idOf(k % 5000) },
    message: `${w(0)} ${w(1)} ${w(2)} ${w(3)} #${k}`,
  };
}

export class FakeLogServer {
  requests = 0;
  constructor(
    public total: number,
    private readonly latencyMs = 15,
  ) {}

  /** The next line, as the game server would store it. */
  append(): LogMessage {
    return lineAt(this.total++);
  }

  list(q: Record<string, string>): Promise<Page<LogMessage>> {
    this.requests++;
    // [lo, hi): the k range the cursors leave.
    let lo = 0;
    let hi = this.total;
    if (q.since)
      lo = q.sinceMessageId ? kOf(q.sinceMessageId) + 1 : Math.floor((Number(q.since) - T0) * 10) + 1;
    if (q.until) hi = q.untilMessageId ? kOf(q.untilMessageId) + 1 : Math.ceil((Number(q.until) - T0) * 10);
    lo = Math.max(0, lo);
    hi = Math.min(this.total, hi);
    const n = Math.max(0, hi - lo);
    const size = Math.min(250, Number(q.pageSize ?? 250));
    const page = Math.max(1, Number(q.page ?? 1));
    const asc = q.sortDirection === 'ascending';
    const results: LogMessage[] = [];
    for (let i = (page - 1) * size; i < Math.min(n, page * size); i++)
      results.push(lineAt(asc ? lo + i : hi - 1 - i));
    const body = { totalResults: n, pageSize: size, pages: Math.ceil(n / size), page, results };
    return new Promise((r) => setTimeout(() => r(structuredClone(body)), this.latencyMs));
  }
}
