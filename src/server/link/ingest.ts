// What a game server's connection does to the database, whichever way it connects (the link or
// RCON): events stored once under their key with their side effects, and the connect and
// disconnect lines with the reconnect grace of SENTINEL-API §6.

import { channelFor, RealtimeEvent } from '../../domain/api.ts';
import type { ServerContext } from '../context.ts';
import { uuidv7 } from '../crypto.ts';
import type { Db, Queryable } from '../db/db.ts';
import { publishLogMessage } from '../model/logMessage.ts';
import { groupsOf, publishServiceChanged } from '../model/service.ts';
import { applyGameEvent, closeServiceSessions, type GameEvent } from '../model/world.ts';

/**
 * What makes an event the same event when it arrives twice: the link's sequence number, or the
 * key the RCON connector gave the line when it read it. Service lines have neither.
 */
export type EventKey = { seq: number } | { rconKey: string } | null;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export async function insertLog(
  tx: Queryable,
  serviceId: string,
  e: GameEvent,
  key: EventKey,
): Promise<string> {
  const id = uuidv7(Math.floor(e.time * 1000));
  await tx.query(
    `INSERT INTO log_messages (message_id, service_id, link_seq, rcon_key, event_name, type, level, time, metadata,
                               message, analyzer_status)
     VALUES ($1, $2, $3, $4, $5, $6, $7, to_timestamp($8), $9::jsonb, $10, $11)`,
    [
      id,
      serviceId,
      key && 'seq' in key ? key.seq : null,
      key && 'rconKey' in key ? key.rconKey : null,
      e.eventName,
      e.type,
      e.level,
      e.time,
      JSON.stringify(e.metadata),
      e.message,
      e.eventName === 'chat' ? (isObject(e.metadata.analysis) ? 'Analyzed' : 'Pending') : 'Skipped',
    ],
  );
  return id;
}

export const serviceEvent = (eventName: string, message: string): GameEvent => ({
  eventName,
  time: Date.now() / 1000,
  type: 'Service',
  level: 'Notice',
  message,
  metadata: {},
});

/** What a connect or disconnect did to the log: a line to publish, or an outage's line taken away. */
export type LogChange = { added: string } | { removed: string };

/** Closes the outage's sessions and writes its line, named on the service for a quick reconnect. */
export async function recordDisconnect(tx: Queryable, serviceId: string): Promise<LogChange> {
  await closeServiceSessions(tx, serviceId);
  const added = await insertLog(
    tx,
    serviceId,
    serviceEvent('serverDisconnected', 'The server disconnected.'),
    null,
  );
  await tx.query('UPDATE services SET outage_message_id = $2 WHERE service_id = $1', [serviceId, added]);
  return { added };
}

/**
 * Marks the service connected to `nodeId`. Back within `graceMs` of a recorded disconnect, the
 * outage leaves no trace: its line is deleted and no connect line is written.
 */
export async function recordConnect(
  tx: Queryable,
  serviceId: string,
  nodeId: string,
  graceMs: number,
): Promise<LogChange | null> {
  // FOR UPDATE waits for a disconnect another process is committing, and reads what it wrote.
  const { rows } = await tx.query<{ outage: string | null; recent: boolean }>(
    `SELECT outage_message_id AS outage,
            NOT is_connected AND connection_change_time > now() - $2::float8 * interval '1 millisecond' AS recent
       FROM services WHERE service_id = $1 FOR UPDATE`,
    [serviceId, graceMs],
  );
  if (rows.length === 0) return null;
  await tx.query(
    `UPDATE services SET is_connected = true, connected_to = $2, connection_change_time = now(),
            outage_message_id = NULL
      WHERE service_id = $1`,
    [serviceId, nodeId],
  );
  const { outage, recent } = rows[0];
  if (outage && recent) {
    await tx.query('DELETE FROM log_messages WHERE message_id = $1 AND service_id = $2', [outage, serviceId]);
    return { removed: outage };
  }
  return {
    added: await insertLog(tx, serviceId, serviceEvent('serverConnected', 'The server connected.'), null),
  };
}

/** Marks the service disconnected, unless another process holds its connection now. */
export async function recordDisconnectBy(
  tx: Queryable,
  serviceId: string,
  nodeId: string,
): Promise<LogChange | null> {
  const { rows } = await tx.query(
    `UPDATE services SET is_connected = false, connected_to = NULL, connection_change_time = now()
      WHERE service_id = $1 AND connected_to = $2 RETURNING 1`,
    [serviceId, nodeId],
  );
  return rows.length === 0 ? null : recordDisconnect(tx, serviceId);
}

/** List views on a removed line's channels are told which line went away. */
export async function publishLogChange(
  ctx: ServerContext,
  serviceId: string,
  change: LogChange | null,
): Promise<void> {
  if (!change) return;
  if ('added' in change) await publishLogMessage(ctx, change.added);
  else
    await ctx.publisher.publish(
      [
        channelFor('services', serviceId),
        ...(await groupsOf(ctx, serviceId)).map((g) => channelFor('groups', g)),
      ],
      RealtimeEvent.logMessageRemoved,
      { messageId: change.removed, serviceId },
    );
  await publishServiceChanged(ctx, serviceId);
}

export async function keySeen(tx: Queryable, serviceId: string, key: EventKey): Promise<boolean> {
  if (!key) return false;
  const [column, value] = 'seq' in key ? ['link_seq', key.seq] : ['rcon_key', key.rconKey];
  const { rows } = await tx.query(`SELECT 1 FROM log_messages WHERE service_id = $1 AND ${column} = $2`, [
    serviceId,
    value,
  ]);
  return rows.length > 0;
}

/** A unique (service, key) violation: another process stored the same event first. */
const isDuplicate = (e: unknown) => (e as { code?: unknown }).code === '23505';

/** Stores an event once under its key with its side effects; null when it already was. */
export function storeGameEvent(
  db: Db,
  serviceId: string,
  event: GameEvent,
  key: EventKey,
): Promise<string | null> {
  return (
    db
      .transaction(async (tx) => {
        if (await keySeen(tx, serviceId, key)) return null;
        // Side effects the tables refuse (a survivor number taken twice, a value out of range) must
        // not cost the event itself, or the game's queue would stall on it forever.
        await tx.exec('SAVEPOINT world');
        const metadata = await applyGameEvent(tx, serviceId, event).catch(async (e) => {
          await tx.exec('ROLLBACK TO SAVEPOINT world');
          console.error(
            `${event.eventName} ${JSON.stringify(key)} of ${serviceId}: side effects skipped:`,
            e.message,
          );
          return event.metadata;
        });
        return insertLog(tx, serviceId, { ...event, metadata }, key);
      })
      // The rollback undid this copy's side effects; the stored one keeps its own.
      .catch((e) => {
        if (isDuplicate(e)) return null;
        throw e;
      })
  );
}
