// Group chat forwarding (SPEC §3 Group "chat forwarding", issue 12): a player's chat line stored
// from one server is relayed in game to the other connected servers of every group of it with
// chat forwarding on, each relay carrying its origin so the line shows where it was said and is
// never relayed again. Anonymous (opted-out) players are never relayed.

import type { ServerContext } from '../context.ts';
import type { TargetService } from './commandTarget.ts';
import { deliver } from './gameCommand.ts';
import { connectedOf } from './service.ts';

interface StoredChat {
  service_id: string;
  origin_name: string;
  metadata: Record<string, unknown>;
  opted_out: boolean | null;
}

/** The other servers of the groups of `serviceId` that forward chat, as kept until the next write. */
function forwardingTo(ctx: ServerContext, serviceId: string): Promise<TargetService[]> {
  return ctx.reads.setting(`chatForwarding:${serviceId}`, async () => {
    const { rows } = await ctx.db.query<TargetService>(
      `SELECT DISTINCT s.service_id AS "serviceId", coalesce(s.nickname, s.name) AS "displayName"
         FROM group_services mine JOIN groups g ON g.group_id = mine.group_id AND g.enable_group_chat
         JOIN group_services other ON other.group_id = g.group_id AND other.service_id <> mine.service_id
         JOIN services s ON s.service_id = other.service_id AND NOT s.deleted
        WHERE mine.service_id = $1`,
      [serviceId],
    );
    return rows;
  });
}

/**
 * The servers a stored line is relayed to; none unless it is a tracked player's own line. Most
 * servers forward to none, and then the line itself is not read.
 */
async function relayTargets(ctx: ServerContext, serviceId: string, messageId: string) {
  const targets = await forwardingTo(ctx, serviceId);
  if (targets.length === 0) return null;
  const { rows } = await ctx.db.query<StoredChat>(
    `SELECT l.service_id, coalesce(s.nickname, s.name) AS origin_name, l.metadata, p.opted_out
       FROM log_messages l JOIN services s ON s.service_id = l.service_id
       LEFT JOIN players p ON p.player_id::text = l.metadata->>'playerId'
      WHERE l.message_id = $1 AND l.event_name = 'chat'`,
    [messageId],
  );
  const line = rows[0];
  // A line from the web, the community or a relay is not a player's; an unknown player is not tracked.
  if (line?.metadata.source !== 'Game' || line.metadata.originName || line.opted_out !== false) return null;
  return { line, targets };
}

export async function relayGroupChat(
  ctx: ServerContext,
  serviceId: string,
  messageId: string,
): Promise<void> {
  const found = await relayTargets(ctx, serviceId, messageId);
  if (!found) return;
  const { line, targets } = found;
  const m = line.metadata;
  const command = {
    type: 'chat',
    message: String(m.originalMessage ?? ''),
    senderName: String(m.senderName ?? 'Survivor'),
    languageCode: String(m.originalLanguage ?? 'en'),
    source: 'Game',
    originServiceId: line.service_id,
    originName: line.origin_name,
  };
  await Promise.all(
    (await connectedOf(ctx.db, targets)).map((t) =>
      deliver(ctx, t, { command, userId: '', groupingKey: null }),
    ),
  );
}
