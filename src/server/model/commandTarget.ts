// The services a game command or a web chat line reaches: one service, or every service of a
// group. The caller needs every required bit on each of them (SENTINEL-API §7: gameCommands and
// chat test "all bits"), so one refused service refuses the whole request.

import { UUID } from '../../domain/constants.ts';
import { hasAll } from '../../domain/permissions.ts';
import type { Queryable } from '../db/db.ts';
import { ApiException, badRequest } from '../http/errors.ts';

export interface CommandTarget {
  serviceId?: unknown;
  groupId?: unknown;
}

export interface TargetService {
  serviceId: string;
  displayName: string;
}

const refused = (kind: 'service' | 'group', id: string) =>
  new ApiException(
    403,
    `You do not have the correct permissions on ${kind} ${id}.`,
    'forbidden',
    kind === 'service' ? { serviceId: id } : { groupId: id },
  );

const idOf = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/** Whether the object names a target at all (400 missingTargetId otherwise). */
export const hasTarget = (t: CommandTarget) => idOf(t.serviceId) !== null || idOf(t.groupId) !== null;

export async function servicesForTarget(
  db: Queryable,
  userId: string,
  target: CommandTarget,
  bits: number,
): Promise<TargetService[]> {
  const serviceId = idOf(target.serviceId);
  const groupId = idOf(target.groupId);
  if (serviceId !== null) {
    if (!UUID.test(serviceId)) throw refused('service', serviceId);
    const { rows } = await db.query<TargetService & { permissions: number }>(
      `SELECT s.service_id AS "serviceId", coalesce(s.nickname, s.name) AS "displayName", sp.permissions
         FROM services s JOIN service_permissions sp ON sp.service_id = s.service_id AND sp.user_id = $2
        WHERE s.service_id = $1 AND NOT s.deleted`,
      [serviceId, userId],
    );
    const row = rows[0];
    if (!row || !hasAll(row.permissions, bits)) throw refused('service', serviceId);
    return [{ serviceId: row.serviceId, displayName: row.displayName }];
  }
  if (groupId === null) throw badRequest('missingTargetId', 'Each command needs a serviceId or a groupId.');
  if (!UUID.test(groupId)) throw refused('group', groupId);
  const member = await db.query('SELECT 1 FROM group_permissions WHERE group_id = $1 AND user_id = $2', [
    groupId,
    userId,
  ]);
  if (member.rows.length === 0) throw refused('group', groupId);
  const { rows } = await db.query<TargetService & { permissions: number | null }>(
    `SELECT s.service_id AS "serviceId", coalesce(s.nickname, s.name) AS "displayName", sp.permissions
       FROM group_services gs JOIN services s ON s.service_id = gs.service_id AND NOT s.deleted
       LEFT JOIN service_permissions sp ON sp.service_id = s.service_id AND sp.user_id = $2
      WHERE gs.group_id = $1
      ORDER BY lower(coalesce(s.nickname, s.name)), s.service_id`,
    [groupId, userId],
  );
  for (const r of rows)
    if (r.permissions === null || !hasAll(r.permissions, bits)) throw refused('service', r.serviceId);
  return rows.map(({ serviceId: id, displayName }) => ({ serviceId: id, displayName }));
}
