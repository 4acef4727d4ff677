// The log volume chart's data: the span it covers (the view's time range, else the chosen range up
// to now), the query for it under the view's other filters, what a selection of bars means as a
// time range, and the sentences that say what the bars show.

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { LogLevel } from '../../../domain/enums.ts';
import { formatCount, formatShortTime } from '../../../domain/format.ts';
import { type LogVolume, VOLUME_RANGES, type VolumeRange, volumeStep } from '../../../domain/logVolume.ts';
import { useApp } from '../../app/deps.tsx';
import { type LogCriteria, type LogScope, type QueryParams, toQuery } from './logQuery.ts';

/** Counted again this often: the bars of the last hours move. */
const FRESH_MS = 30_000;

export interface Span {
  since: number;
  until: number;
  step: number;
}

/** The span in view: the list's time range where it has one, else the range ending at `now`, on step bounds. */
export function spanOf(criteria: Pick<LogCriteria, 'from' | 'to'>, range: VolumeRange, now: number): Span {
  const seconds = VOLUME_RANGES.find((r) => r.id === range)!.seconds;
  if (criteria.from !== null || criteria.to !== null) {
    const until = Math.ceil(criteria.to ?? now);
    const since = Math.floor(criteria.from ?? until - seconds);
    return { since, until, step: volumeStep(until - since) };
  }
  // Whole steps from a step's start, so the query's key holds still between two counts.
  const step = volumeStep(seconds);
  const end = Math.ceil(now / step) * step;
  return { since: end - seconds, until: end, step };
}

/** The list's filters but its time range (the span is the chart's) and sort. */
export function volumeQuery(scope: LogScope, criteria: LogCriteria, span: Span): QueryParams {
  const {
    sortedColumn: _c,
    sortDirection: _d,
    ...filters
  } = toQuery(scope, { ...criteria, from: null, to: null });
  return { ...filters, since: String(span.since), until: String(span.until), step: String(span.step) };
}

/** The current second, moved on each FRESH_MS so a range ending now follows the clock. */
function useNow(): number {
  const [now, setNow] = useState(() => Math.floor(Date.now() / 1000));
  useEffect(() => {
    const t = setInterval(() => setNow(Math.floor(Date.now() / 1000)), FRESH_MS);
    return () => clearInterval(t);
  }, []);
  return now;
}

export function useLogVolume(scope: LogScope, criteria: LogCriteria, range: VolumeRange) {
  const { api } = useApp();
  const span = spanOf(criteria, range, useNow());
  const query = volumeQuery(scope, criteria, span);
  return useQuery({
    queryKey: ['logVolume', query],
    queryFn: ({ signal }) => api.logMessages.volume(query, signal),
    refetchInterval: FRESH_MS,
    // The old bars stay while new ones are counted: a chart that blinks empty at each filter is noise.
    placeholderData: keepPreviousData,
  });
}

/** Bars `a` to `b` (either order, inclusive) as the time range they cover. */
export function barsRange(v: Pick<LogVolume, 'since' | 'until' | 'step'>, a: number, b: number) {
  const first = Math.min(a, b);
  const last = Math.max(a, b);
  return { from: v.since + first * v.step, to: Math.min(v.until, v.since + (last + 1) * v.step) };
}

/** The bar a moment falls in, within the chart. */
export const barAt = (v: Pick<LogVolume, 'since' | 'until' | 'step'>, time: number) =>
  Math.max(0, Math.min(Math.ceil((v.until - v.since) / v.step) - 1, Math.floor((time - v.since) / v.step)));

const SEVERE: readonly LogLevel[] = ['Error', 'Critical', 'Alert', 'Emergency'];

const lines = (n: number) => `${formatCount(n)} ${n === 1 ? 'line' : 'lines'}`;

/** Lines in bars `a` to `b`, and of them warnings and errors or worse. */
function tally(v: LogVolume, a = 0, b = Number.POSITIVE_INFINITY) {
  let all = 0;
  let warnings = 0;
  let errors = 0;
  for (const { level, counts } of v.levels)
    for (let i = a; i <= Math.min(b, counts.length - 1); i++) {
      all += counts[i];
      if (level === 'Warning') warnings += counts[i];
      if (SEVERE.includes(level)) errors += counts[i];
    }
  return { all, warnings, errors };
}

function tallyWords(t: ReturnType<typeof tally>): string {
  const worse = [
    t.warnings ? `${formatCount(t.warnings)} ${t.warnings === 1 ? 'warning' : 'warnings'}` : '',
    t.errors ? `${formatCount(t.errors)} ${t.errors === 1 ? 'error' : 'errors'} or worse` : '',
  ].filter(Boolean);
  return worse.length ? `${lines(t.all)}, ${worse.join(' and ')}` : lines(t.all);
}

/** What the chart shows, in a sentence: over the last `range` up to now, else between its times. */
export function volumeSummary(v: LogVolume, range: VolumeRange | null): string {
  const title = VOLUME_RANGES.find((r) => r.id === range)?.title;
  return `${tallyWords(tally(v))} ${title ? `in the last ${title}` : `from ${formatShortTime(v.since)} to ${formatShortTime(v.until)}`}.`;
}

/** What the bars chosen by keyboard hold, and what Enter does with them. */
export function selectionSummary(v: LogVolume, a: number, b: number): string {
  const { from, to } = barsRange(v, a, b);
  return `${formatShortTime(from)} to ${formatShortTime(to)}: ${tallyWords(tally(v, Math.min(a, b), Math.max(a, b)))}. Enter shows them in the list.`;
}
