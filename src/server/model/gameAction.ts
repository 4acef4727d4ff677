// Actions that reach a game server (locate, editDino, giveItem, giveDino, restore): sent over the
// link, answered at once with {requestId}; the game's result is published later as `locateResult`
// or `requestCompleted` on the service channel and the requester's user channel.

import { randomUUID } from 'node:crypto';
import { ActionEvent, channelFor, type LocateResult, userChannel } from '../../domain/api.ts';
import { UUID } from '../../domain/constants.ts';
import { Msg } from '../../domain/messages.ts';
import { hasAll, Perm } from '../../domain/permissions.ts';
import { noteRow } from '../activity/trail.ts';
import type { ServerContext } from '../context.ts';
import type { Queryable } from '../db/db.ts';
import { ApiException, badRequest, forbidden, serviceNotConnected } from '../http/errors.ts';
import { connectedOf } from './service.ts';

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function locateResult(requestId: string, result: unknown): LocateResult {
  const r = (typeof result === 'object' && result) || {};
  const o = r as Record<string, unknown>;
  return {
    requestId,
    found: o.found === true,
    x: num(o.x),
    y: num(o.y),
    z: num(o.z),
    lat: num(o.lat),
    lon: num(o.lon),
  };
}

export async function dispatch(
  ctx: ServerContext,
  serviceId: string,
  userId: string,
  command: Record<string, unknown>,
  kind: 'locate' | 'request',
): Promise<{ requestId: string }> {
  await ctx.links.assertCanRun(serviceId, command);
  if ((await connectedOf(ctx.db, [{ serviceId }])).length === 0) throw serviceNotConnected(serviceId);
  const requestId = randomUUID();
  const channels = [channelFor('services', serviceId), userChannel(userId)];
  const publish = (event: string, data: unknown) =>
    ctx.publisher.publish(channels, event, data).catch((e) => console.error(`publishing ${event} failed`, e));
  ctx.links.sendCommand(serviceId, { ...command, requestId }).then(
    (result) =>
      kind === 'locate'
        ? publish(ActionEvent.locateResult, locateResult(requestId, result))
        : publish(ActionEvent.requestCompleted, { requestId, ok: true }),
    (e: Error) => publish(ActionEvent.requestCompleted, { requestId, ok: false, error: e.message }),
  );
  return { requestId };
}

const TARGETS = {
  dino: {
    table: 'dinos',
    id: 'dino_id',
    idProp: 'dinoId',
    invalid: 'invalidDinoId',
    missing: Msg.dinoUnknown,
  },
  character: {
    table: 'characters',
    id: 'character_id',
    idProp: 'characterId',
    invalid: 'invalidCharacterId',
    missing: 'The survivor is not known to the product.',
  },
} as const;

/**
 * The dino or character an action is about, as its table row. 400 for a malformed id, 404 when the
 * caller cannot see it, 403 without ControlServices on its server (the original accepts any bit).
 */
export async function actionTarget(
  db: Queryable,
  kind: keyof typeof TARGETS,
  id: string,
  userId: string,
): Promise<Record<string, unknown> & { service_id: string }> {
  const t = TARGETS[kind];
  if (!UUID.test(id)) throw badRequest(t.invalid, `That is not a ${kind} id.`, { [t.idProp]: id });
  const { rows } = await db.query<Record<string, unknown> & { service_id: string; bits: number }>(
    `SELECT x.*, sp.permissions AS bits FROM ${t.table} x
       JOIN service_permissions sp ON sp.service_id = x.service_id AND sp.user_id = $2
      WHERE x.${t.id} = $1 AND NOT x.deleted`,
    [id, userId],
  );
  const row = rows[0];
  if (!row) throw new ApiException(404, t.missing, 'notFound', { [t.idProp]: id });
  noteRow(row);
  if (!hasAll(row.bits, Perm.ControlServices)) throw forbidden({ [t.idProp]: id });
  return row;
}
