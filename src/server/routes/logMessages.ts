// /sentinel/logMessages (SENTINEL-API §3.16): events, chat and admin commands of the services the
// caller can see. Read-only. `since`/`until` (epoch seconds) are ours: with `sinceMessageId` /
// `untilMessageId` they are exact cursors in the list's own order (time, then messageId), so a
// client refetching after a realtime reconnect, or paging a snapshot while new lines arrive, gets
// no gap and no duplicate even when many lines share one timestamp.

import type { LogMessage } from '../../domain/api.ts';
import { UUID } from '../../domain/constants.ts';
import { EPOCH_MAX, isEpochSeconds } from '../../domain/limits.ts';
import { VOLUME_MAX_STEPS, volumeStep } from '../../domain/logVolume.ts';
import type { ServerContext } from '../context.ts';
import { objectNotFound, validation } from '../http/errors.ts';
import { type Filter, type ListSource, type ListSpec, Params, planList, runList } from '../http/listQuery.ts';
import { type ApiRouter, json, pageJson, param } from '../http/router.ts';
import { LOG_FROM, LOG_VERSION, logColumns } from '../model/logMessage.ts';
import { logVolumeOf } from '../model/logVolume.ts';

const inMetadata = (key: string): Filter => ({
  kind: 'custom',
  sql: (v, p) =>
    UUID.test(v) ? `m.metadata @> ${p.add(JSON.stringify({ [key]: v.toLowerCase() }))}::jsonb` : 'false',
});

const isEpoch = (v: string) => v.trim() !== '' && Number.isFinite(Number(v));

/** A time PostgreSQL can hold; -1e308 made to_timestamp fail, and the list answer 500. */
function inRange(field: string, v: string): void {
  if (isEpoch(v) && Math.abs(Number(v)) > EPOCH_MAX)
    throw validation(`${field} must be epoch seconds from -${EPOCH_MAX} to ${EPOCH_MAX}.`, { field });
}

/**
 * `since` is after a line (exclusive), `until` up to and including it. Without a message id they
 * bound the time alone, strictly. The plain time condition lets the (…, time, message_id) indexes
 * narrow the scan before the row comparison settles ties.
 */
function cursorBounds(q: URLSearchParams, p: Params): string[] {
  const out: string[] = [];
  for (const [key, idKey, op, tieOp] of [
    ['since', 'sinceMessageId', '>', '>'],
    ['until', 'untilMessageId', '<', '<='],
  ] as const) {
    const t = q.get(key);
    if (t === null) continue;
    inRange(key, t);
    const id = q.get(idKey);
    // Checked before any value is added: an unused parameter has no type and fails the query.
    if (!isEpoch(t) || (id !== null && !UUID.test(id))) {
      out.push('false');
      continue;
    }
    const time = `to_timestamp(${p.add(Number(t))}::float8)`;
    if (id === null) out.push(`m.time ${op} ${time}`);
    else out.push(`m.time ${op}= ${time} AND (m.time, m.message_id) ${tieOp} (${time}, ${p.add(id)}::uuid)`);
  }
  return out;
}

/**
 * A `message` search over the line's stored words (migration 024). Ordered by time, the list walks
 * the weeks from the newest and stops at the page; within a week the planner reads the words' GIN
 * index when they are rare and walks the time index, testing each line, when they are not.
 */
const matchesWords = (text: string) => `m.message_tsv @@ websearch_to_tsquery('english', ${text})`;

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
    // Planned for their values: a rare event or level is read through the GIN index over the three,
    // a common one by walking the time index.
    eventName: { kind: 'in', expr: 'm.event_name', perValue: true },
    type: { kind: 'in', expr: 'm.type', perValue: true },
    level: { kind: 'in', expr: 'm.level', perValue: true },
    analyzerStatus: { kind: 'in', expr: 'm.analyzer_status' },
    message: {
      kind: 'custom',
      // Planned for its words: a generic plan cannot tell a rare word (read through the index)
      // from a common one (walk the time index), and reading every match of a common word in the
      // newest week and sorting them took 50 ms.
      sql: (v, p) => ({ perValue: matchesWords(p.add(v)) }),
    },
    playerId: inMetadata('playerId'),
    characterId: inMetadata('characterId'),
    tribeId: inMetadata('tribeId'),
    dinoId: inMetadata('dinoId'),
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

/**
 * The caller's services (not deleted) as a list, fetched first: as a subquery over the
 * service_permissions view the planner expects one row and sorts every match by time (134 ms at
 * 200k lines, seconds at a million); with the list it walks the time index backwards and stops at
 * the page (3 ms). Deleted services are left out here so that counting needs no join. Asked for
 * every page of every reader and changed only by writes through the API, it is kept in the read
 * cache: a third of what a page cost the embedded database.
 */
function visibleServiceIds(ctx: ServerContext, userId: string): Promise<string[]> {
  return ctx.reads.setting(`visibleServices:${userId}`, async () => {
    const { rows } = await ctx.db.query<{ service_id: string }>(
      `SELECT p.service_id FROM service_permissions p JOIN services s ON s.service_id = p.service_id
        WHERE p.user_id = $1::uuid AND NOT s.deleted`,
      [userId],
      'visible-services',
    );
    return rows.map((r) => r.service_id);
  });
}

/**
 * Which services' lines the caller may read here, as a condition: all of theirs, or, when a
 * `serviceId` filter names only services of theirs, nothing more than that filter. A console
 * reading one server's log sent the database all of a fleet's ids each time (500 of them bound
 * and compared per request) beside the filter, and the two conditions on one column made the
 * planner expect a handful of lines and sort every line of the server for a page (12 ms at 400
 * lines a server; a 100-line page read alone is well under one).
 */
function readable(q: URLSearchParams, visible: string[], p: Params): string {
  const asked = q
    .getAll('serviceId')
    .flatMap((v) => v.split('|'))
    .map((v) => v.trim().toLowerCase());
  const mine = new Set(visible);
  if (asked.length > 0 && asked.every((id) => UUID.test(id) && mine.has(id))) return 'NOT m.group_repeat';
  return listed(p.add(visible));
}

/** Lines of the caller's services, a group-wide command's once (migration 005). */
const listed = (services: string) => `m.service_id = ANY(${services}::uuid[]) AND NOT m.group_repeat`;

/**
 * The log view takes any total as a guide and finds the true end from a short page
 * (web/views/logs/logFeed.ts); past a thousand lines an exact count costs more than the page
 * (2.3 ms against 0.3 ms at 10,000) and tells a reader nothing.
 */
export const LOG_EXACT_COUNT = 1_000;

/** Two lower-case letters, so it may be written into SQL as a literal. */
const language = (q: URLSearchParams) => {
  const lang = q.get('lang') ?? 'en';
  return /^[a-z]{2}$/.test(lang) ? lang : 'en';
};

/** `since` (inclusive) to `until` (exclusive, default now) by `step` seconds (default: about 120 bars). */
function volumeSpan(q: URLSearchParams): { since: number; until: number; step: number } {
  const seconds = (field: string, fallback?: number) => {
    const raw = q.get(field);
    const v = raw === null || raw === '' ? fallback : Number(raw);
    if (!isEpochSeconds(v))
      throw validation(`${field} must be epoch seconds from 0 to ${EPOCH_MAX}.`, { field });
    return v;
  };
  const until = seconds('until', Math.ceil(Date.now() / 1000));
  const since = seconds('since');
  if (since >= until) throw validation('since must be before until.', { field: 'since' });
  const step = q.get('step') === null ? volumeStep(until - since) : Number(q.get('step'));
  if (!Number.isInteger(step) || step < 1)
    throw validation('step must be a whole number of seconds, at least 1.', { field: 'step' });
  if ((until - since) / step > VOLUME_MAX_STEPS)
    throw validation(`That step is too small for the span: at most ${VOLUME_MAX_STEPS} steps.`, {
      field: 'step',
    });
  return { since, until, step };
}

/**
 * How the list's lines are written (ListSource.writes), where its conditions and order read the
 * line alone: not a group's lines, whose members change without a line changing, nor the order of
 * server names, which a rename changes.
 */
function lineWrites(q: URLSearchParams): ListSource['writes'] {
  const keys = [...q.keys()].flatMap((k) => k.split('|'));
  if (keys.includes('groupId') || q.get('sortedColumn') === 'serviceDisplayName') return undefined;
  return { by: 'm.written_by', partitionKey: 'm.time', idType: 'uuid' };
}

export function registerLogMessageRoutes(router: ApiRouter, ctx: ServerContext): void {
  router.authed('GET', '/sentinel/logMessages', ['sentinel:read'], async (c, caller) => {
    const q = new URL(c.req.url).searchParams;
    const p = new Params();
    const lines = readable(q, await visibleServiceIds(ctx, caller.userId), p);
    const plan = planList(q, LOG_LIST, p);
    const where = [lines, ...cursorBounds(q, p)];
    const page = await runList(
      ctx.db,
      {
        columns: logColumns(`'${language(q)}'`),
        from: LOG_FROM,
        countFrom: 'log_messages m',
        exactCountUpTo: LOG_EXACT_COUNT,
        where,
        // The newest page of a server's log is what every console watching it asks for, again
        // and again between its lines.
        version: LOG_VERSION,
        writes: lineWrites(q),
      },
      plan,
      p,
    );
    return pageJson(c, page);
  });

  // Lines per level per step under the list's filters (docs/api.md "Log volume").
  router.authed('GET', '/sentinel/logMessages/volume', ['sentinel:read'], async (c, caller) => {
    const q = new URL(c.req.url).searchParams;
    const span = volumeSpan(q);
    const p = new Params();
    const lines = readable(q, await visibleServiceIds(ctx, caller.userId), p);
    const { where } = planList(q, LOG_LIST, p);
    return json(c, await logVolumeOf(ctx.db, [lines, ...where], p, span));
  });

  router.authed('GET', '/sentinel/logMessages/:messageId', ['sentinel:read'], async (c, caller) => {
    const id = param(c, 'messageId');
    const q = new URL(c.req.url).searchParams;
    const { rows } = UUID.test(id)
      ? await ctx.db.query<LogMessage>(
          `SELECT ${logColumns('$3::text')} FROM ${LOG_FROM} WHERE m.message_id = $1 AND m.service_id = ANY($2::uuid[])`,
          [id, await visibleServiceIds(ctx, caller.userId), language(q)],
        )
      : { rows: [] };
    if (!rows[0]) throw objectNotFound({ messageId: id });
    return json(c, rows[0]);
  });
}
