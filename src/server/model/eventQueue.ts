// sentinel.service_event_queue (SENTINEL-API §6): script events for a game server — manual runs,
// webhooks and subroutines called with a delay — stored in the original's shape until the script
// engine of any API process claims and runs them (a delayed one once its time has come).

import { SCRIPT_LIMITS } from '../../domain/scripts/limits.ts';
import type { Queryable } from '../db/db.ts';
import { ApiException } from '../http/errors.ts';

export const QUEUE_FULL = `This server has ${SCRIPT_LIMITS.queuedPerServer} script runs waiting: try again once they have run.`;

/** "Y-m-d H:i:s.v" in GMT, the original's timestamp format. */
export const queueTimestamp = (d = new Date()): string => d.toISOString().replace('T', ' ').replace('Z', '');

/**
 * Queues a run; refused with 429 once the server has SCRIPT_LIMITS.queuedPerServer waiting (a
 * bound, counted by the insert itself: calls racing at the mark may pass it by a few).
 */
export async function queueServiceEvent(
  tx: Queryable,
  serviceId: string,
  event: Record<string, unknown>,
  delayMs = 0,
): Promise<string> {
  const { rows } = await tx.query<{ queue_id: string }>(
    `INSERT INTO service_event_queue (service_id, cluster_id, event_data, queue_time)
     SELECT service_id, cluster_id, $2::jsonb, now() + $3::float8 * interval '1 millisecond'
       FROM services WHERE service_id = $1
        AND (SELECT count(*) FROM (SELECT 1 FROM service_event_queue
                                    WHERE service_id = $1 AND status = 'Waiting' LIMIT $4) w) < $4
     RETURNING queue_id`,
    [
      serviceId,
      JSON.stringify({ timestamp: queueTimestamp(), ...event }),
      delayMs,
      SCRIPT_LIMITS.queuedPerServer,
    ],
  );
  if (!rows[0])
    throw new ApiException(429, QUEUE_FULL, 'tooManyRequests', { serviceId }, { 'Retry-After': '10' });
  return rows[0].queue_id;
}
