// Rules that match events: each stored log line (game events, chat, script runs) is held against
// the rules on its server and its groups, kept per server until the next write (model/readCache.ts):
// most lines meet no rule, and deciding that costs a few comparisons, no query. Matches of one
// batch are counted together, one statement per incident.

import {
  ALERT_LIMITS,
  type AlertCondition,
  isSustained,
  type Notice,
  parseCondition,
  scoreLabel,
} from '../../domain/alerts.ts';
import type { LogMessage } from '../../domain/api.ts';
import { LOG_LEVELS, type LogEventName, MODERATION_SCORES } from '../../domain/enums.ts';
import type { ServerContext } from '../context.ts';
import type { Queryable } from '../db/db.ts';
import { isObject } from '../model/bulkBody.ts';
import { canSee } from '../model/permissions.ts';
import { announce, raise, type Written } from './incidents.ts';

export interface LiveRule {
  ruleId: string;
  ownerId: string;
  name: string;
  groupId: string | null;
  condition: AlertCondition;
}

/** The events a rule looks at, or null for every one (a log rule without an event). */
function eventsOf(c: AlertCondition): readonly string[] | null {
  switch (c.kind) {
    case 'watched':
    case 'evasion':
      return ['playerJoined'];
    case 'chat':
      return ['chat'];
    case 'scripts':
      return ['scriptRun'];
    case 'log':
      return c.eventName ? [c.eventName] : null;
    default:
      return [];
  }
}

/** A server's event rules by the event they look at: a line meets only those that may match it. */
export interface ServiceRules {
  byEvent: ReadonlyMap<string, readonly LiveRule[]>;
  /** Rules that look at every line. */
  any: readonly LiveRule[];
}

/** The event rules that apply on a server: its own and its groups', whose authors still see it. */
export function eventRulesOf(ctx: ServerContext, serviceId: string): Promise<ServiceRules> {
  return ctx.reads.setting(`alertRules:${serviceId}`, async () => {
    const { rows } = await ctx.db.query<{
      rule_id: string;
      owner_id: string;
      name: string;
      group_id: string | null;
      condition: unknown;
    }>(
      `SELECT r.rule_id, r.owner_id, r.name, r.group_id, r.condition FROM alert_rules r
        WHERE (r.service_id = $1 OR r.group_id IN (SELECT group_id FROM group_services WHERE service_id = $1))
          AND ${canSee('service', '$1::uuid', 'r.owner_id')}`,
      [serviceId],
    );
    const byEvent = new Map<string, LiveRule[]>();
    const any: LiveRule[] = [];
    for (const r of rows) {
      const parsed = parseCondition(r.condition);
      if (!('ok' in parsed) || isSustained(parsed.ok)) continue;
      const rule = {
        ruleId: r.rule_id,
        ownerId: r.owner_id,
        name: r.name,
        groupId: r.group_id,
        condition: parsed.ok,
      };
      const events = eventsOf(parsed.ok);
      if (events === null) any.push(rule);
      else for (const e of events) byEvent.set(e, [...(byEvent.get(e) ?? []), rule]);
    }
    return { byEvent, any };
  });
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A match: the incident it belongs to and what it says if it opens one. */
interface Match {
  subject: string;
  notice: Omit<Notice, 'kind' | 'time'>;
}

const playerOf = (line: LogMessage) =>
  text(line.metadata.playerName) || text(line.metadata.senderName) || 'A player';

/** The highest of the line's moderation scores in the category (any: of the nine), or null. */
function chatScore(line: LogMessage, category: string): { score: number; category: string } | null {
  const a = line.metadata.analysis;
  const scores = isObject(a) && isObject(a.scores) ? a.scores : null;
  if (!scores) return null;
  let best: { score: number; category: string } | null = null;
  for (const s of MODERATION_SCORES) {
    if (category !== 'any' && s !== category) continue;
    const v = scores[s];
    if (typeof v === 'number' && (!best || v > best.score)) best = { score: v, category: s };
  }
  return best;
}

/** The groups whose watchlists a rule reads: its own, or those of the server its author belongs to. */
async function watchGroups(q: Queryable, rule: LiveRule, serviceId: string): Promise<string[]> {
  if (rule.groupId) return [rule.groupId];
  const { rows } = await q.query<{ group_id: string }>(
    `SELECT gs.group_id FROM group_services gs WHERE gs.service_id = $1 AND ${canSee('group', 'gs.group_id', '$2')}`,
    [serviceId, rule.ownerId],
  );
  return rows.map((r) => r.group_id);
}

async function matchWatched(
  q: Queryable,
  rule: LiveRule,
  c: Extract<AlertCondition, { kind: 'watched' }>,
  line: LogMessage,
): Promise<Match | null> {
  const playerId = text(line.metadata.playerId);
  if (line.eventName !== 'playerJoined' || !playerId) return null;
  const player = playerOf(line);
  let why: string | undefined;
  if (c.flag) {
    const { rows } = await q.query<{ reason: string }>(
      'SELECT reason FROM player_flags WHERE owner_id = $1 AND player_id = $2 AND lower(name) = lower($3)',
      [rule.ownerId, playerId, c.flag],
    );
    why = rows[0] && `flagged ${c.flag}: ${rows[0].reason}`;
  } else {
    const { rows } = await q.query<{ reason: string }>(
      'SELECT reason FROM group_watchlist WHERE player_id = $1 AND group_id = ANY($2::uuid[]) LIMIT 1',
      [playerId, await watchGroups(q, rule, line.serviceId)],
    );
    why = rows[0]?.reason;
  }
  if (why === undefined) return null;
  return {
    subject: playerId,
    notice: {
      title: `Watched player joined: ${player}`,
      body: `${player} joined ${line.serviceDisplayName}.`,
      fields: [
        { name: 'Server', value: line.serviceDisplayName },
        { name: 'Why watched', value: why },
      ],
    },
  };
}

async function matchEvasion(
  q: Queryable,
  c: Extract<AlertCondition, { kind: 'evasion' }>,
  line: LogMessage,
): Promise<Match | null> {
  const playerId = text(line.metadata.playerId);
  if (line.eventName !== 'playerJoined' || !playerId) return null;
  const player = playerOf(line);
  const details = line.metadata.connectionDetails;
  const vpn = c.vpn && isObject(details) && details.vpn === true;
  const fingerprint = text(line.metadata.ipFingerprint);
  const { rows } = fingerprint
    ? await q.query<{ name: string }>(
        `SELECT p.name FROM players p
          WHERE p.ip_fingerprint = $1 AND p.player_id <> $2
            AND (EXISTS (SELECT 1 FROM service_bans b WHERE b.player_id = p.player_id AND b.service_id = $3
                           AND (b.expiration IS NULL OR b.expiration > now()))
              OR EXISTS (SELECT 1 FROM group_bans b JOIN group_services gs ON gs.group_id = b.group_id
                          WHERE b.player_id = p.player_id AND gs.service_id = $3
                            AND (b.expiration IS NULL OR b.expiration > now())))
          ORDER BY p.name LIMIT 3`,
        [fingerprint, playerId, line.serviceId],
      )
    : { rows: [] };
  if (rows.length === 0 && !vpn) return null;
  const shares = rows.map((r) => r.name).join(', ');
  return {
    subject: playerId,
    notice: {
      title: `Possible ban evasion: ${player}`,
      body: shares
        ? `${player} joined ${line.serviceDisplayName} from the address of banned ${shares}.`
        : `${player} joined ${line.serviceDisplayName} through a VPN.`,
      fields: [
        { name: 'Server', value: line.serviceDisplayName },
        ...(shares ? [{ name: 'Shares an address with', value: shares }] : []),
        ...(vpn ? [{ name: 'VPN', value: 'yes' }] : []),
      ],
    },
  };
}

/**
 * What a rule says of a line, or null when it does not match. Only a join asks the database (a
 * watchlist, a flag, a ban): the rest is decided at once, without a promise per rule and line.
 */
function match(q: Queryable, rule: LiveRule, line: LogMessage): Match | null | Promise<Match | null> {
  const c = rule.condition;
  const server = { name: 'Server', value: line.serviceDisplayName };
  switch (c.kind) {
    case 'watched':
      return matchWatched(q, rule, c, line);
    case 'evasion':
      return matchEvasion(q, c, line);
    case 'chat': {
      if (line.eventName !== 'chat') return null;
      const best = chatScore(line, c.category);
      if (!best || best.score < c.score) return null;
      const category = scoreLabel(best.category as (typeof MODERATION_SCORES)[number]);
      return {
        subject: '',
        notice: {
          title: `Chat over ${c.score} (${category}) on ${line.serviceDisplayName}`,
          body: `${playerOf(line)}: ${text(line.metadata.message) || line.message}`,
          fields: [server, { name: 'Score', value: `${category} ${best.score}` }],
        },
      };
    }
    case 'scripts': {
      if ((line.eventName as LogEventName) !== 'scriptRun') return null;
      const actions = Array.isArray(line.metadata.actions) ? line.metadata.actions : [];
      const failed =
        line.metadata.outcome === 'failure' || actions.some((a) => isObject(a) && a.ok === false);
      if (!failed) return null;
      const script = text(line.metadata.scriptName) || 'A script';
      return {
        subject: text(line.metadata.scriptId),
        notice: { title: `Script failing: ${script}`, body: line.message, fields: [server] },
      };
    }
    case 'log': {
      if (c.eventName && line.eventName !== c.eventName) return null;
      if (c.level && LOG_LEVELS.indexOf(line.level) < LOG_LEVELS.indexOf(c.level)) return null;
      if (c.text && !line.message.toLowerCase().includes(c.text.toLowerCase())) return null;
      return {
        subject: '',
        notice: {
          title: `${rule.name}: ${line.serviceDisplayName}`,
          body: line.message,
          fields: [server, { name: 'Event', value: line.eventName }],
        },
      };
    }
    default:
      return null;
  }
}

/** Holds stored lines against the rules of their servers; what matched raises or counts. */
export async function alertOnLines(ctx: ServerContext, lines: readonly LogMessage[]): Promise<void> {
  const found = new Map<
    string,
    { rule: LiveRule; serviceId: string; match: Match; time: number; n: number }
  >();
  const rulesOf = new Map<string, ServiceRules>();
  for (const id of new Set(lines.map((l) => l.serviceId))) rulesOf.set(id, await eventRulesOf(ctx, id));
  for (const line of lines) {
    const rules = rulesOf.get(line.serviceId)!;
    for (const list of [rules.byEvent.get(line.eventName), rules.any]) {
      for (const rule of list ?? []) {
        const matched = match(ctx.db, rule, line);
        const m = matched instanceof Promise ? await matched : matched;
        if (!m) continue;
        const key = `${rule.ruleId}\n${line.serviceId}\n${m.subject}`;
        const seen = found.get(key);
        if (seen) seen.n++;
        else found.set(key, { rule, serviceId: line.serviceId, match: m, time: line.time, n: 1 });
      }
    }
  }
  if (found.size === 0) return;
  const written: (Written | null)[] = [];
  for (const f of found.values()) {
    const notice: Notice = {
      ...f.match.notice,
      kind: 'raised',
      time: f.time,
      fields: [...f.match.notice.fields, { name: 'Rule', value: f.rule.name }],
    };
    written.push(
      await ctx.db.transaction((tx) =>
        raise(tx, { ruleId: f.rule.ruleId, serviceId: f.serviceId, subject: f.match.subject, notice }, f.n),
      ),
    );
  }
  await announce(ctx, written);
}

/** An event rule's all-clear, after ALERT_LIMITS.quietMinutes without a match. */
export function quietNotice(summary: string, events: number, opened: number): Notice {
  return {
    kind: 'cleared',
    title: `All clear: ${summary}`,
    body: `Nothing more for ${ALERT_LIMITS.quietMinutes} minutes; ${events} event${events === 1 ? '' : 's'} in all.`,
    fields: [{ name: 'Began', value: new Date(opened * 1000).toUTCString() }],
    time: Date.now() / 1000,
  };
}
