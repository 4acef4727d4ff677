// A player's sessions on a timeline above their sessions list (issue 35): a lane per server, a
// bar per session, from 24 hours to 30 days. The list below holds every detail for the keyboard;
// the picture shows at a glance when and where the player plays.

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { formatShortTime, formatTime } from '../../../domain/format.ts';
import { useApp } from '../../app/deps.tsx';
import { RangeButtons } from '../../ui/charts.tsx';
import {
  lanesOf,
  playedWords,
  rangeSeconds,
  TIMELINE_RANGES,
  type TimelineRange,
  timelineSummary,
} from './sessionsTimeline.ts';

/** Read again this often: an open session's bar grows. */
const FRESH_MS = 60_000;
/** The newest sessions a timeline reads; a player with more in a month is shown their newest. */
const MOST = 250;

export function SessionsTimeline({ playerId }: { playerId: string }) {
  const { api } = useApp();
  const [range, setRange] = useState<TimelineRange>('7d');
  const q = useQuery({
    queryKey: ['sessionsTimeline', playerId, range],
    queryFn: async () => {
      const until = Math.floor(Date.now() / 1000);
      const page = await api.playerSessions.list({
        playerId,
        activeSince: String(until - rangeSeconds(range)),
        sortedColumn: 'connectTime',
        sortDirection: 'descending',
        pageSize: MOST,
      });
      return { until, sessions: page.results };
    },
    refetchInterval: FRESH_MS,
  });
  const until = q.data?.until ?? 0;
  const since = until - rangeSeconds(range);
  const lanes = q.data ? lanesOf(q.data.sessions, since, until) : [];
  const summary = q.error ? (q.error as Error).message : q.data ? timelineSummary(lanes, range) : 'Loading…';

  return (
    <figure className="timeline" aria-label="Sessions over time">
      <div className="timeline-head">
        <figcaption className="timeline-summary">{summary}</figcaption>
        <RangeButtons label="Timeline range" ranges={TIMELINE_RANGES} value={range} onChange={setRange} />
      </div>
      {lanes.length > 0 && (
        <>
          <ul className="timeline-lanes">
            {lanes.map((lane) => (
              <li key={lane.serviceId} className="timeline-lane">
                <span className="timeline-server">
                  {lane.name}
                  <span className="timeline-played">{playedWords(lane.seconds)}</span>
                </span>
                <span className="timeline-track" aria-hidden="true">
                  {lane.bars.map((b) => (
                    <span
                      key={b.session.playerSessionId}
                      className={`timeline-bar${b.session.isConnected ? ' timeline-bar-open' : ''}`}
                      style={{ left: `${b.left * 100}%`, width: `${b.width * 100}%` }}
                      title={`${formatTime(b.session.connectTime)} to ${
                        b.session.disconnectTime === null ? 'now' : formatTime(b.session.disconnectTime)
                      }`}
                    />
                  ))}
                </span>
              </li>
            ))}
          </ul>
          <div className="timeline-lane" aria-hidden="true">
            <span />
            <span className="timeline-axis">
              <span>{formatShortTime(since)}</span>
              <span>{formatShortTime((since + until) / 2)}</span>
              <span>now</span>
            </span>
          </div>
        </>
      )}
    </figure>
  );
}
