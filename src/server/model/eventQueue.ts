// sentinel.service_event_queue (SENTINEL-API §6): script events for a game server — manual runs,
// webhooks and subroutines called with a delay — stored in the original's shape until the script
// engine of any API process claims and runs them (a delayed one once its time has come).

import type { Queryable } from '../db/db.ts';

/** "Y-m-d H:i:s.v" in GMT, the original's timestamp format. */
export const queueTimestamp = (d = new Date()): string => d.toISOString().replace('T', ' ').replace('Z', '');

export async function queueServiceEvent(
  tx: Queryable,
  serviceId: string,
  event: Record<string, unknown>,
  delayMs = 0,
): Promise<string> {
  const { rows } = await tx.query<{ queue_id: string }>(
    `INSERT INTO service_event_queue (service_id, cluster_id, event_data, queue_time)
     SELECT service_id, cluster_id, $2::jsonb, now() + $3::float8 * interval '1 millisecond'
       FROM services WHERE service_id = $1 RETURNING queue_id`,
    [serviceId, JSON.stringify({ timestamp: queueTimestamp(), ...event }), delayMs],
  );
  return rows[0].queue_id;
}
