// Which script handlers run for a trigger on a server: every attachment of a script to the server
// or to one of its groups, each with its own parameter values, in the revision that runs for it.
// That is the attachment's pinned revision (version locked), or for keep updated the newest one
// its attacher accepted (someone else's script) or the newest (their own), unless it waits for
// review or was rejected: then the newest Approved or Probation revision before it.

import type { Queryable } from '../db/db.ts';

export interface Handler {
  attachmentId: string;
  scriptId: string;
  scriptName: string;
  /** Who attached the script here: the run acts with their rights, never the author's. */
  attachedBy: string;
  revisionId: string;
  approvalStatus: string;
  scriptEventId: string;
  language: 'Simple' | 'JavaScript';
  context: string;
  keyword: string | null;
  code: string;
  commonJavascript: string;
  /** The script's parameters with the attachment's values over their defaults. */
  params: Record<string, unknown>;
  arguments: { name: string; type: string; default: unknown; required: boolean }[];
}

const RUNS = `r.approval_status IN ('Approved', 'Probation')`;

const HANDLERS = `
  WITH attached AS (
    SELECT ss.service_script_id AS attachment_id, ss.script_id, ss.revision_id, ss.parameter_values,
           ss.attached_by, ss.accepted_revision_id
      FROM service_scripts ss WHERE ss.service_id = $1
    UNION ALL
    SELECT gs.group_script_id, gs.script_id, gs.revision_id, gs.parameter_values, gs.attached_by,
           gs.accepted_revision_id
      FROM group_scripts gs
      JOIN group_services gsv ON gsv.group_id = gs.group_id WHERE gsv.service_id = $1
  ), wanted AS (
    SELECT a.*, t.date_created AS target_date, sc.name, sc.user_id
      FROM attached a JOIN scripts sc ON sc.script_id = a.script_id AND NOT sc.deleted
      JOIN script_revisions t ON t.revision_id = coalesce(a.revision_id, a.accepted_revision_id, sc.latest_revision_id)
  ), running AS (
    SELECT w.*, (SELECT r.revision_id FROM script_revisions r
                  WHERE r.script_id = w.script_id AND ${RUNS} AND r.date_created <= w.target_date
                  ORDER BY r.date_created DESC LIMIT 1) AS run_revision
      FROM wanted w
  )
  SELECT running.attachment_id AS "attachmentId", running.script_id AS "scriptId", running.name AS "scriptName",
         running.attached_by AS "attachedBy", r.revision_id AS "revisionId", r.approval_status AS "approvalStatus",
         e.script_event_id AS "scriptEventId", e.language, e.context, e.keyword, e.code,
         r.common_javascript AS "commonJavascript", r.parameters, running.parameter_values AS "parameterValues",
         coalesce(e.arguments, '[]'::jsonb) AS arguments
    FROM running JOIN script_revisions r ON r.revision_id = running.run_revision
    JOIN script_events e ON e.revision_id = r.revision_id`;

interface Row extends Omit<Handler, 'params'> {
  parameters: { name: string; default?: unknown }[];
  parameterValues: Record<string, unknown>;
}

export interface HandlerQuery {
  /** Every context when absent (a handler named by scriptEventId). */
  context?: string;
  /** Triggered contexts: the keyword that names the handler (case-insensitive), when one does. */
  keyword?: string;
  /** One handler: a menu item's or a queued event's. */
  scriptEventId?: string;
}

/** Every handler on a server, in the order they run: by script name, attachment and handler. */
export async function serviceHandlers(db: Queryable, serviceId: string): Promise<Handler[]> {
  const { rows } = await db.query<Row>(
    `${HANDLERS} ORDER BY running.name, running.attachment_id, e.script_event_id`,
    [serviceId],
    'script-handlers',
  );
  return rows.map(({ parameters, parameterValues, ...h }) => ({
    ...h,
    params: {
      ...Object.fromEntries((parameters ?? []).map((p) => [p.name, p.default ?? null])),
      ...parameterValues,
    },
  }));
}

/** The handlers among `all` that a trigger names, in their order. */
export function matching(all: readonly Handler[], q: HandlerQuery): Handler[] {
  const keyword = q.keyword?.toLowerCase();
  const eventId = q.scriptEventId?.toLowerCase();
  return all.filter(
    (h) =>
      (q.context === undefined || h.context === q.context) &&
      (keyword === undefined || h.keyword?.toLowerCase() === keyword) &&
      (eventId === undefined || h.scriptEventId === eventId),
  );
}

export async function handlersFor(db: Queryable, serviceId: string, q: HandlerQuery): Promise<Handler[]> {
  return matching(await serviceHandlers(db, serviceId), q);
}

/** Every cron handler on every server, for the scheduler. */
export async function cronHandlers(db: Queryable): Promise<(Handler & { serviceId: string })[]> {
  const { rows } = await db.query<{ service_id: string }>(
    `SELECT DISTINCT s.service_id FROM services s
       JOIN (SELECT service_id FROM service_scripts
             UNION SELECT gsv.service_id FROM group_scripts gs JOIN group_services gsv ON gsv.group_id = gs.group_id) a
         ON a.service_id = s.service_id
      WHERE NOT s.deleted`,
  );
  const all = await Promise.all(
    rows.map(async (r) =>
      (await handlersFor(db, r.service_id, { context: 'cron' })).map((h) => ({
        ...h,
        serviceId: r.service_id,
      })),
    ),
  );
  return all.flat();
}
