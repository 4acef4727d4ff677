// sentinel.service_event_queue (SENTINEL-API §6): script events for a game server — manual runs
// and webhooks — stored in the original's shape until the server's link delivers them.

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

/**
 * Events of scripts attached to a service, directly or through a group, in the revision that runs:
 * the pinned one, else the newest that is Approved or on Probation (one under review does not run).
 */
export const RUNNABLE_EVENTS = `
  WITH attached AS (
    SELECT ss.script_id, ss.revision_id, ss.parameter_values FROM service_scripts ss WHERE ss.service_id = $1
    UNION ALL
    SELECT gs.script_id, gs.revision_id, gs.parameter_values FROM group_scripts gs
      JOIN group_services gsv ON gsv.group_id = gs.group_id WHERE gsv.service_id = $1
  ), running AS (
    SELECT a.script_id, a.parameter_values, coalesce(a.revision_id, (
      SELECT r.revision_id FROM script_revisions r
       WHERE r.script_id = a.script_id AND r.approval_status IN ('Approved', 'Probation')
       ORDER BY r.date_created DESC LIMIT 1)) AS revision_id
    FROM attached a JOIN scripts sc ON sc.script_id = a.script_id AND NOT sc.deleted
  )
  SELECT DISTINCT ON (e.script_event_id) e.script_event_id AS "scriptEventId", e.context, e.keyword,
         coalesce(e.arguments, '[]'::jsonb) AS arguments, sc.script_id AS "scriptId", sc.name AS "scriptName",
         running.parameter_values AS "parameterValues", r.parameters
    FROM running JOIN script_events e ON e.revision_id = running.revision_id
    JOIN script_revisions r ON r.revision_id = running.revision_id
    JOIN scripts sc ON sc.script_id = running.script_id`;

export interface RunnableEvent {
  scriptEventId: string;
  context: string;
  keyword: string | null;
  arguments: { name: string; type: string; default: unknown; required: boolean }[];
  scriptId: string;
  scriptName: string;
  parameterValues: Record<string, unknown>;
  parameters: { name: string; default?: unknown }[];
}
