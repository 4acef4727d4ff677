// Delivering game commands to services over the link, one result per service, and the
// `adminCommand` log line an admin command leaves (SENTINEL-API §3.16: "Executed `cmd`").

import type { GameCommandResult } from '../../domain/gameCommands.ts';
import type { ServerContext } from '../context.ts';
import { uuidv7 } from '../crypto.ts';
import { ApiException } from '../http/errors.ts';
import type { TargetService } from './commandTarget.ts';
import { publishLogMessage } from './logMessage.ts';

export interface Delivery {
  /** What the game receives: the submitted object without its target keys. */
  command: Record<string, unknown>;
  /** The user who sent it, recorded with admin commands. */
  userId: string;
  /** Shared by the log lines of one command sent to a whole group, so the log shows it once. */
  groupingKey: string | null;
}

async function recordAdminCommand(ctx: ServerContext, serviceId: string, d: Delivery): Promise<void> {
  const id = uuidv7();
  await ctx.db.transaction(async (tx) => {
    // The group's first line is listed, the rest are repeats; the lock queues the group's
    // writers so that exactly one of them finds no earlier line.
    if (d.groupingKey) await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [d.groupingKey]);
    await tx.query(
      `INSERT INTO log_messages (message_id, service_id, event_name, type, level, time, metadata, message,
                                 grouping_key, group_repeat)
       VALUES ($1, $2, 'adminCommand', 'Service', 'Notice', now(), $3::jsonb, $4, $5::uuid,
               EXISTS (SELECT 1 FROM log_messages WHERE grouping_key = $5::uuid))`,
      [
        id,
        serviceId,
        JSON.stringify({ command: d.command.command, userId: d.userId }),
        `Executed \`${String(d.command.command)}\``,
        d.groupingKey,
      ],
    );
  });
  await publishLogMessage(ctx, id);
}

/** Sends to one service and says how it went; only a programming error escapes as an exception. */
export async function deliver(
  ctx: ServerContext,
  target: TargetService,
  d: Delivery,
): Promise<GameCommandResult> {
  const base = {
    serviceId: target.serviceId,
    serviceDisplayName: target.displayName,
    type: String(d.command.type),
  };
  try {
    const result = await ctx.links.sendCommand(target.serviceId, d.command);
    if (d.command.type === 'admin') await recordAdminCommand(ctx, target.serviceId, d);
    return { ...base, ok: true, result: result ?? null };
  } catch (e) {
    if (!(e instanceof ApiException)) throw e;
    return { ...base, ok: false, code: e.code, message: e.message };
  }
}
