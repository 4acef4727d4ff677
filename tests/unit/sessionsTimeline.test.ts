import { describe, expect, it } from 'vitest';
import type { PlayerSession } from '../../src/domain/players.ts';
import { lanesOf, playedWords, timelineSummary } from '../../src/web/views/players/sessionsTimeline.ts';

const session = (serviceId: string, connectTime: number, disconnectTime: number | null): PlayerSession => ({
  playerSessionId: `${serviceId}-${connectTime}`,
  playerId: 'p',
  playerName: 'Ann',
  playerFlags: [],
  serviceId,
  serviceDisplayName: serviceId === 'a' ? 'Island' : 'Ragnarok',
  connectTime,
  disconnectTime,
  playTime: 0,
  isConnected: disconnectTime === null,
});

describe('sessions timeline', () => {
  it('cuts sessions to the span, a lane per server, the most played first', () => {
    const lanes = lanesOf(
      [
        session('a', 900, 1100), // starts before the span: its part inside counts
        session('b', 1200, 1300),
        session('a', 1500, null), // still on: reaches the end
        session('b', 100, 200), // before the span: left out
      ],
      1000,
      2000,
    );
    expect(lanes.map((l) => [l.name, l.seconds, l.bars.length])).toEqual([
      ['Island', 600, 2],
      ['Ragnarok', 100, 1],
    ]);
    expect(lanes[0].bars.map((b) => [b.left, b.width])).toEqual([
      [0, 0.1],
      [0.5, 0.5],
    ]);
  });

  it('says how many sessions, where, and how long in words', () => {
    const lanes = lanesOf([session('a', 0, 3 * 3600 + 5 * 60), session('b', 0, 60)], 0, 86_400);
    expect(timelineSummary(lanes, '24h')).toBe(
      '2 sessions on 2 servers in the last 24 hours, 3 hours 6 minutes played.',
    );
    expect(timelineSummary([], '7d')).toBe('No sessions in the last 7 days.');
    expect(playedWords(59)).toBe('under a minute');
    expect(playedWords(3600)).toBe('1 hour');
  });
});
