// The LogMessage JSON of SENTINEL-API §3.16; service names are resolved when read, not stored.

import { channelFor, type LogMessage, RealtimeEvent } from '../../domain/api.ts';
import { UUID } from '../../domain/constants.ts';
import type { ServerContext } from '../context.ts';
import { LIMITS, publishAll } from '../realtime/publisher.ts';
import { coalesce } from './coalesce.ts';
import { epoch, groupsOf } from './service.ts';

/** Select list over `log_messages m JOIN services s`; $lang is the parameter holding the language. */
export const logColumns = (lang: string) => `
  m.message_id AS "messageId", m.service_id AS "serviceId",
  coalesce(s.nickname, s.name) AS "serviceDisplayName",
  coalesce(s.mini_name, s.nickname, s.name) AS "serviceMiniDisplayName",
  m.event_name AS "eventName", m.type, ${epoch('m.time')} AS time, m.level,
  m.analyzer_status AS "analyzerStatus", m.metadata,
  coalesce(m.translations ->> ${lang}, m.message) AS message`;

export const LOG_FROM = 'log_messages m JOIN services s ON s.service_id = m.service_id';

/**
 * A line's version as logColumns shows it (ListSource.version): the line, its row version, and
 * its server's names as shown (a rename shows in the line). The names, not the server's row
 * version: the game's status rewrites the row every few seconds, which made every kept page of a
 * fleet's search stale within moments and each check a second walk for nothing.
 */
export const LOG_VERSION = `m.message_id::text || ':' || m.xmin::text || ':' ||
  ROW(coalesce(s.nickname, s.name), coalesce(s.mini_name, s.nickname, s.name))::text`;

/** Metadata keys naming an entity whose channel hears about its new lines. */
const ENTITY_CHANNELS = [
  ['playerId', 'players'],
  ['characterId', 'characters'],
  ['tribeId', 'tribes'],
  ['dinoId', 'dinos'],
] as const;

/**
 * `logMessage` on the service's and its groups' channels; chat lines also as `chatMessage`.
 * The channels of the player, survivor, tribe and dino it names get `logsUpdated` (the PHP API
 * meant to and named the key instead of the id): no line there, since anyone may join a player's
 * channel; the client refetches through the list, which checks what the caller may see.
 */
export function publishLogMessage(ctx: ServerContext, messageId: string): Promise<void> {
  let publish = publishers.get(ctx);
  if (!publish) {
    publish = coalesce((ids: string[]) => publishLogMessages(ctx, ids));
    publishers.set(ctx, publish);
  }
  return publish(messageId);
}

/** Per server, lines published while a round is read go out together (one query a round). */
const publishers = new WeakMap<ServerContext, (messageId: string) => Promise<void>>();

/** publishLogMessage for many lines, read in one query. */
export async function publishLogMessages(ctx: ServerContext, messageIds: string[]): Promise<void> {
  const { rows } = await ctx.db.query<LogMessage>(
    `SELECT ${logColumns("'en'")} FROM ${LOG_FROM} WHERE m.message_id = ANY($1::uuid[]) ORDER BY m.message_id`,
    [messageIds],
    'log-messages-published',
  );
  await publishLogRows(ctx, rows);
}

/**
 * Publishes lines in hand, as the log list shows them (e.g. returned by the insert that wrote
 * them), and hands them to the alert rules: every stored line, whatever wrote it, comes here.
 */
export async function publishLogRows(ctx: ServerContext, rows: readonly LogMessage[]): Promise<void> {
  ctx.alerts.onLines(rows);
  const groups = new Map<string, string[]>();
  for (const id of new Set(rows.map((msg) => msg.serviceId))) groups.set(id, await groupsOf(ctx, id));
  const sends = rows.flatMap((msg) => publications(ctx, msg, groups.get(msg.serviceId)!));
  await publishAll(ctx.publisher, sends);
}

function publications(ctx: ServerContext, msg: LogMessage, groupIds: string[]): (() => Promise<void>)[] {
  const channels = [channelFor('services', msg.serviceId), ...groupIds.map((g) => channelFor('groups', g))];
  const named = ENTITY_CHANNELS.flatMap(([key, kind]) => {
    const id = msg.metadata[key];
    return typeof id === 'string' && UUID.test(id) ? [channelFor(kind, id)] : [];
  });
  const publish = (to: string[], event: string, data: unknown) => () =>
    ctx.publisher.publish(to, event, data);
  // Pusher caps an event at 10 kB; for a bigger line, clients are told to refetch instead.
  if (JSON.stringify(msg).length > LIMITS.dataBytes)
    return [publish([...channels, ...named], RealtimeEvent.logsUpdated, '')];
  return [
    publish(channels, RealtimeEvent.logMessage, msg),
    ...(msg.eventName === 'chat' ? [publish(channels, RealtimeEvent.chatMessage, msg)] : []),
    ...(named.length ? [publish(named, RealtimeEvent.logsUpdated, '')] : []),
  ];
}
