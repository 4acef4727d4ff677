// The LogMessage JSON of SENTINEL-API §3.16; service names are resolved when read, not stored.

import { channelFor, type LogMessage, RealtimeEvent } from '../../domain/api.ts';
import type { ServerContext } from '../context.ts';
import { LIMITS } from '../realtime/publisher.ts';
import { epoch, groupsOfService } from './service.ts';

/** Select list over `log_messages m JOIN services s`; $lang is the parameter holding the language. */
export const logColumns = (lang: string) => `
  m.message_id AS "messageId", m.service_id AS "serviceId",
  coalesce(s.nickname, s.name) AS "serviceDisplayName",
  coalesce(s.mini_name, s.nickname, s.name) AS "serviceMiniDisplayName",
  m.event_name AS "eventName", m.type, ${epoch('m.time')} AS time, m.level,
  m.analyzer_status AS "analyzerStatus", m.metadata,
  coalesce(m.translations ->> ${lang}, m.message) AS message`;

export const LOG_FROM = 'log_messages m JOIN services s ON s.service_id = m.service_id';

/** `logMessage` on the service's and its groups' channels; chat lines also as `chatMessage`. */
export async function publishLogMessage(ctx: ServerContext, messageId: string): Promise<void> {
  const { rows } = await ctx.db.query<LogMessage>(
    `SELECT ${logColumns("'en'")} FROM ${LOG_FROM} WHERE m.message_id = $1`,
    [messageId],
  );
  const msg = rows[0];
  if (!msg) return;
  const channels = [
    channelFor('services', msg.serviceId),
    ...(await groupsOfService(ctx.db, msg.serviceId)).map((g) => channelFor('groups', g)),
  ];
  // Pusher caps an event at 10 kB; for a bigger line, clients are told to refetch instead.
  if (JSON.stringify(msg).length > LIMITS.dataBytes) {
    await ctx.publisher.publish(channels, RealtimeEvent.logsUpdated, '');
    return;
  }
  await ctx.publisher.publish(channels, RealtimeEvent.logMessage, msg);
  if (msg.eventName === 'chat') await ctx.publisher.publish(channels, RealtimeEvent.chatMessage, msg);
}
