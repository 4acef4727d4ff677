// A server's population per step, from its players' sessions: each join counts one up and each
// leave one down, in time order. A step shows the most players on at once in it; a step with no
// join or leave shows the count carried into it. Sessions open at the start count from the start.

import type { Population } from '../../domain/population.ts';
import type { Queryable } from '../db/db.ts';

const STEPS = `
  WITH ev AS (
    SELECT connect_time AS t, 1 AS d FROM player_sessions
     WHERE service_id = $1 AND connect_time < to_timestamp($3)
       AND (disconnect_time IS NULL OR disconnect_time > to_timestamp($2))
    UNION ALL
    SELECT disconnect_time, -1 FROM player_sessions
     WHERE service_id = $1 AND disconnect_time > to_timestamp($2) AND disconnect_time < to_timestamp($3)
  ), run AS (
    -- A leave and a join at one moment: the leave first, so nobody is counted twice.
    SELECT t, sum(d) OVER w AS n, row_number() OVER w AS k FROM ev
    WINDOW w AS (ORDER BY t, d ROWS UNBOUNDED PRECEDING)
  )
  SELECT floor((extract(epoch FROM greatest(t, to_timestamp($2))) - $2) / $4)::int AS step,
         max(n)::int AS peak, (array_agg(n ORDER BY k DESC))[1]::int AS ending
    FROM run GROUP BY 1`;

export async function populationOf(
  db: Queryable,
  serviceId: string,
  since: number,
  until: number,
  step: number,
): Promise<Population> {
  const { rows } = await db.query<{ step: number; peak: number; ending: number }>(STEPS, [
    serviceId,
    since,
    until,
    step,
  ]);
  const byStep = new Map(rows.map((r) => [r.step, r]));
  const points = [];
  let carried = 0;
  for (let i = 0; i < Math.ceil((until - since) / step); i++) {
    const s = byStep.get(i);
    points.push({ time: since + i * step, players: Math.max(s ? Math.max(s.peak, carried) : carried, 0) });
    if (s) carried = s.ending;
  }
  return { serviceId, since, step, points };
}
