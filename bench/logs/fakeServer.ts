// /sentinel/logMessages over a deterministic generator instead of a database: line k (0 = oldest)
// is built when asked for, so a million lines cost nothing until a page holds them. The cursors
// (since/until with a message id), order and paging are those of the real route; filters are not
// used by the bench. Lines appended live are part of the list from then on, as on a real server.

import type { LogMessage, Page } from '../../src/domain/api.ts';
import { EVENT_NAMES, LOG_LEVELS } from '../../src/domain/enums.ts';
import type { LogVolume } from '../../src/domain/logVolume.ts';

export const T0 = 1_750_000_000;
const SERVICE = '0a0a0a0a-0000-4000-8000-000000000001';
const WORDS = ['Rex', 'Raptor', 'Bob', 'Alice', 'tamed', 'killed', 'joined', 'left', 'crafted', 'a', 'Stego'];

/** Ten lines a second of game time, so k and time order agree and ties do not occur. */
export const LINES_PER_SECOND = 10;
const timeOf = (k: number) => T0 + k / LINES_PER_SECOND;
/** Line k's level cycles through the first four. */
const LEVELS_USED = 4;
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
    level: LOG_LEVELS[k % LEVELS_USED],
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

  /**
   * /sentinel/logMessages/volume, counted from the generator's rule (line k at T0 + k/10 s, level
   * k mod 4) as the database would count the stored lines: no line is built, so a million cost
   * nothing here and the page's work is the chart's alone.
   */
  volume(q: Record<string, string>): Promise<LogVolume> {
    this.requests++;
    const since = Number(q.since);
    const until = Number(q.until);
    const step = Number(q.step);
    const steps = Math.ceil((until - since) / step);
    /** The first line at or after a moment. */
    const firstAt = (t: number) => Math.min(this.total, Math.max(0, Math.ceil((t - T0) * LINES_PER_SECOND)));
    /** Lines lo…hi-1 whose level is the r-th. */
    const ofLevel = (lo: number, hi: number, r: number) =>
      Math.max(0, Math.ceil((hi - r) / LEVELS_USED) - Math.ceil((lo - r) / LEVELS_USED));
    const levels = LOG_LEVELS.slice(0, LEVELS_USED).map((level, r) => ({
      level,
      counts: Array.from({ length: steps }, (_, i) =>
        ofLevel(firstAt(since + i * step), firstAt(Math.min(until, since + (i + 1) * step)), r),
      ),
    }));
    const body = { since, until, step, levels: levels.filter((l) => l.counts.some((n) => n > 0)) };
    return new Promise((r) => setTimeout(() => r(body), this.latencyMs));
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
