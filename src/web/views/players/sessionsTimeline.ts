// A player's sessions on a timeline: the span shown (a range up to now), the sessions of it as
// bars in one lane per server, and the sentences that say what the picture shows.

import type { PlayerSession } from '../../../domain/players.ts';

export const TIMELINE_RANGES = [
  { id: '24h', title: '24 hours', seconds: 86_400 },
  { id: '7d', title: '7 days', seconds: 7 * 86_400 },
  { id: '30d', title: '30 days', seconds: 30 * 86_400 },
] as const;
export type TimelineRange = (typeof TIMELINE_RANGES)[number]['id'];

export const rangeSeconds = (id: TimelineRange) => TIMELINE_RANGES.find((r) => r.id === id)!.seconds;

export interface Bar {
  session: PlayerSession;
  /** Where the bar starts and how wide it is, as fractions of the span. */
  left: number;
  width: number;
  /** Seconds of the session inside the span. */
  seconds: number;
}

export interface Lane {
  serviceId: string;
  name: string;
  bars: Bar[];
  seconds: number;
}

/** The sessions inside since…until as bars, one lane per server, the most played first. */
export function lanesOf(sessions: readonly PlayerSession[], since: number, until: number): Lane[] {
  const span = until - since;
  const lanes = new Map<string, Lane>();
  for (const s of sessions) {
    const from = Math.max(s.connectTime, since);
    const to = Math.min(s.disconnectTime ?? until, until);
    if (to <= from) continue;
    const lane = lanes.get(s.serviceId) ?? {
      serviceId: s.serviceId,
      name: s.serviceDisplayName,
      bars: [],
      seconds: 0,
    };
    lanes.set(s.serviceId, lane);
    lane.bars.push({
      session: s,
      left: (from - since) / span,
      width: (to - from) / span,
      seconds: to - from,
    });
    lane.seconds += to - from;
  }
  return [...lanes.values()].sort((a, b) => b.seconds - a.seconds || a.name.localeCompare(b.name));
}

/** "3 hours 5 minutes", "40 minutes", "under a minute". */
export function playedWords(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const part = (n: number, unit: string) => (n ? `${n} ${unit}${n === 1 ? '' : 's'}` : '');
  return [part(h, 'hour'), part(m, 'minute')].filter(Boolean).join(' ') || 'under a minute';
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What the timeline shows, in a sentence. */
export function timelineSummary(lanes: readonly Lane[], range: TimelineRange): string {
  const title = TIMELINE_RANGES.find((r) => r.id === range)!.title;
  const sessions = lanes.reduce((n, l) => n + l.bars.length, 0);
  if (sessions === 0) return `No sessions in the last ${title}.`;
  const seconds = lanes.reduce((n, l) => n + l.seconds, 0);
  return `${count(sessions, 'session', 'sessions')} on ${count(lanes.length, 'server', 'servers')} in the last ${title}, ${playedWords(seconds)} played.`;
}
