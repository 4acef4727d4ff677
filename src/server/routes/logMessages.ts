// /sentinel/logMessages (SENTINEL-API §3.16): events, chat and admin commands of the services the
// caller can see. Read-only. `since`/`until` (epoch seconds) are ours, for refetching after a
// realtime reconnect.

import type { LogMessage } from '../../domain/api.ts';
import { UUID } from '../../domain/constants.ts';
import type { ServerContext } from '../context.ts';
import { objectNotFound } from '../http/errors.ts';
import { type Filter, type ListSpec, Params, planList, runList } from '../http/listQuery.ts';
import { type ApiRouter, json, param } from '../http/router.ts';
import { LOG_FROM, logColumns } from '../model/logMessage.ts';

const inMetadata = (key: string): Filter => ({
  kind: 'custom',
  sql: (v, p) =>
    UUID.test(v) ? `m.metadata @> ${p.add(JSON.stringify({ [key]: v.toLowerCase() }))}::jsonb` : 'false',
});

const timeBound = (op: '>' | '<'): Filter => ({
  kind: 'custom',
  sql: (v, p) =>
    Number.isFinite(Number(v)) && v.trim() !== ''
      ? `m.time ${op} to_timestamp(${p.add(Number(v))})`
      : 'false',
});

const LOG_LIST: ListSpec = {
  id: { param: 'messageId', expr: 'm.message_id' },
  filters: {
    serviceId: { kind: 'exact', expr: 'm.service_id', type: 'uuid' },
    groupId: {
      kind: 'custom',
      sql: (v, p) =>
        UUID.test(v)
          ? `m.service_id IN (SELECT service_id FROM group_services WHERE group_id = ${p.add(v)}::uuid)`
          : 'false',
    },
    eventName: { kind: 'in', expr: 'm.event_name' },
    type: { kind: 'in', expr: 'm.type' },
    level: { kind: 'in', expr: 'm.level' },
    analyzerStatus: { kind: 'in', expr: 'm.analyzer_status' },
    message: {
      kind: 'custom',
      sql: (v, p) => `to_tsvector('english', m.message) @@ websearch_to_tsquery('english', ${p.add(v)})`,
    },
    playerId: inMetadata('playerId'),
    characterId: inMetadata('characterId'),
    tribeId: inMetadata('tribeId'),
    dinoId: inMetadata('dinoId'),
    since: timeBound('>'),
    until: timeBound('<'),
  },
  sorts: {
    time: 'm.time',
    eventName: 'm.event_name',
    type: 'm.type',
    level: 'm.level',
    analyzerStatus: 'm.analyzer_status',
    serviceId: 'm.service_id',
    serviceDisplayName: 'lower(coalesce(s.nickname, s.name))',
    message: 'm.message',
  },
  defaultSort: 'time',
  defaultDirection: 'descending',
  tiebreak: 'm.message_id',
};

const visible = (user: string) =>
  `m.service_id IN (SELECT service_id FROM service_permissions WHERE user_id = ${user}::uuid) AND NOT s.deleted`;

/** Two lower-case letters, so it may be written into SQL as a literal. */
const language = (q: URLSearchParams) => {
  const lang = q.get('lang') ?? 'en';
  return /^[a-z]{2}$/.test(lang) ? lang : 'en';
};

export function registerLogMessageRoutes(router: ApiRouter, ctx: ServerContext): void {
  router.authed('GET', '/sentinel/logMessages', ['sentinel:read'], async (c, caller) => {
    const q = new URL(c.req.url).searchParams;
    const p = new Params();
    const user = p.add(caller.userId);
    const plan = planList(q, LOG_LIST, p);
    // Rows sharing a groupingKey (one command sent to a whole group) appear once.
    const oncePerGroup = `(m.grouping_key IS NULL OR m.message_id = (SELECT min(g.message_id::text)::uuid
      FROM log_messages g WHERE g.grouping_key = m.grouping_key))`;
    const page = await runList<LogMessage>(
      ctx.db,
      { columns: logColumns(`'${language(q)}'`), from: LOG_FROM, where: [visible(user), oncePerGroup] },
      plan,
      p,
    );
    return json(c, page);
  });

  router.authed('GET', '/sentinel/logMessages/:messageId', ['sentinel:read'], async (c, caller) => {
    const id = param(c, 'messageId');
    const q = new URL(c.req.url).searchParams;
    const { rows } = UUID.test(id)
      ? await ctx.db.query<LogMessage>(
          `SELECT ${logColumns('$3::text')} FROM ${LOG_FROM} WHERE m.message_id = $1 AND ${visible('$2')}`,
          [id, caller.userId, language(q)],
        )
      : { rows: [] };
    if (!rows[0]) throw objectNotFound({ messageId: id });
    return json(c, rows[0]);
  });
}
