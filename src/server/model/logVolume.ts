// Lines per level per step for the log volume chart (docs/api.md "Log volume"), under the same
// visibility and filters as the log list: one GROUP BY in the database, whatever the lines' number.

import { LOG_LEVELS, type LogLevel } from '../../domain/enums.ts';
import type { LogVolume } from '../../domain/logVolume.ts';
import type { Queryable } from '../db/db.ts';
import type { Params } from '../http/listQuery.ts';

export async function logVolumeOf(
  db: Queryable,
  where: string[],
  p: Params,
  span: { since: number; until: number; step: number },
): Promise<LogVolume> {
  const since = p.add(span.since);
  const step = p.add(span.step);
  const { rows } = await db.query<{ bucket: number; level: LogLevel; n: number }>(
    `SELECT floor((extract(epoch FROM m.time) - ${since}::float8) / ${step}::float8)::int AS bucket,
            m.level, count(*)::int AS n
       FROM log_messages m
      WHERE ${[
        ...where,
        `m.time >= to_timestamp(${since}::float8)`,
        `m.time < to_timestamp(${p.add(span.until)}::float8)`,
      ].join(' AND ')}
      GROUP BY 1, 2`,
    p.values,
  );
  const steps = Math.ceil((span.until - span.since) / span.step);
  const byLevel = new Map<LogLevel, number[]>();
  for (const r of rows) {
    const counts = byLevel.get(r.level) ?? new Array<number>(steps).fill(0);
    byLevel.set(r.level, counts);
    if (r.bucket >= 0 && r.bucket < steps) counts[r.bucket] += r.n;
  }
  return {
    ...span,
    levels: LOG_LEVELS.flatMap((level) => {
      const counts = byLevel.get(level);
      return counts ? [{ level, counts }] : [];
    }),
  };
}
