// How many log lines a view holds per level over time (docs/api.md "Log volume"): the bars above a
// log list. The server counts (a million lines never cross the wire); the console picks a step
// that keeps a span near VOLUME_BARS bars.

import type { LogLevel } from './enums.ts';

export interface LogVolume {
  /** Epoch seconds: the first step's start, and the end of the last one. */
  since: number;
  until: number;
  /** Seconds per step. */
  step: number;
  /** Lines per step, for each level that has any, least severe first. */
  levels: { level: LogLevel; counts: number[] }[];
}

/** Bars a chart aims for: readable at a pane's width, each wide enough to brush. */
export const VOLUME_BARS = 120;
/** Steps one answer may hold: a step too small for its span is refused, not counted slowly. */
export const VOLUME_MAX_STEPS = 2000;

/** Whole-number steps a reader can tell apart on an axis: seconds, minutes, hours, days. */
const NICE_STEPS = [
  1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800,
];

/** The step for a span of seconds: the smallest nice step that keeps it to VOLUME_BARS bars. */
export function volumeStep(span: number): number {
  return NICE_STEPS.find((s) => span / s <= VOLUME_BARS) ?? NICE_STEPS[NICE_STEPS.length - 1];
}

/** Spans the chart offers when the view sets no time range, and the one it starts at. */
export const VOLUME_RANGES = [
  { id: '1h', title: 'hour', seconds: 3600 },
  { id: '24h', title: '24 hours', seconds: 86_400 },
  { id: '7d', title: '7 days', seconds: 7 * 86_400 },
  { id: '30d', title: '30 days', seconds: 30 * 86_400 },
] as const;
export type VolumeRange = (typeof VOLUME_RANGES)[number]['id'];
