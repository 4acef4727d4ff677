// sentinel.service_event_queue (SENTINEL-API §6): script events for a game server — manual runs
// and webhooks — stored in the original's shape until the script engine of any API process
// claims and runs them.

import type { Queryable } from '../db/db.ts';

/** "Y-m-d H:i:s.v" in GMT, the original's timestamp format. */
export const queueTimestamp = (d = new Date()): string => d.toISOString().replace('T', ' ').replace('Z', '');

export async function queueServiceEvent(
  tx: Queryable,
  serviceId: string,
  event: Record<string, unknown>,
): Promise<string> {
  const { rows } = await tx.query<{ queue_id: string }>(
    `INSERT INTO service_event_queue (service_id, cluster_id, event_data)
     SELECT service_id, cluster_id, $2::jsonb FROM services WHERE service_id = $1 RETURNING queue_id`,
    [serviceId, JSON.stringify({ timestamp: queueTimestamp(), ...event })],
  );
  return rows[0].queue_id;
}
