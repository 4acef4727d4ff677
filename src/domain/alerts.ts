// Alerts (the alerts issue): an account's rules on a server or a group, each with one condition,
// that raise an incident when it holds and clear it when it stops, and the destinations the
// notifications go to besides the console's own list. A rule is its author's, like a flag: nobody
// else sees it; making one on a server or group takes the right to edit it. Shared by the server
// (which checks what it stores), the commands and the forms (which check as the user types).

import {
  LOG_EVENT_NAMES,
  LOG_LEVELS,
  type LogLevel,
  MODERATION_SCORES,
  type ModerationScore,
} from './enums.ts';
import { formatTime } from './format.ts';
import { isRecord } from './validate.ts';

export const CONDITION_KINDS = [
  'status',
  'population',
  'watched',
  'chat',
  'evasion',
  'scripts',
  'log',
] as const;
export type ConditionKind = (typeof CONDITION_KINDS)[number];

export const CONDITION_LABELS: Record<ConditionKind, string> = {
  status: 'Server down',
  population: 'Population',
  watched: 'Watched player joins',
  chat: 'Chat over a score',
  evasion: 'Possible ban evasion',
  scripts: 'Script runs failing',
  log: 'Log lines matching',
};

export type AlertCondition =
  /** Disconnected, or its RCON failing, for `minutes`; clears when it is back. */
  | { kind: 'status'; minutes: number }
  /** Players online above or below `count` for `minutes`. */
  | { kind: 'population'; direction: 'above' | 'below'; count: number; minutes: number }
  /** A player joins who is on a watchlist of the rule's group (of the server's groups), or carries a flag of the author's by `flag`. */
  | { kind: 'watched'; flag: string | null }
  /** A chat line scored at least `score` (0 to 1) in `category`, or in any of the nine. */
  | { kind: 'chat'; category: ModerationScore | 'any'; score: number }
  /** A joining player shares the IP fingerprint of a player banned there; with `vpn`, also one joining through a VPN. */
  | { kind: 'evasion'; vpn: boolean }
  /** A script's run fails. */
  | { kind: 'scripts' }
  /** A log line of the event, at the level or above, holding the text (each when given). */
  | { kind: 'log'; eventName: string | null; level: LogLevel | null; text: string | null };

export const DESTINATION_KINDS = ['discord', 'slack', 'email', 'push'] as const;
export type DestinationKind = (typeof DESTINATION_KINDS)[number];

export const DESTINATION_LABELS: Record<DestinationKind, string> = {
  discord: 'Discord webhook',
  slack: 'Slack webhook',
  email: 'Email',
  push: 'Browser notification',
};

export interface AlertDestination {
  destinationId: string;
  name: string;
  kind: DestinationKind;
  /** A webhook's address shown without its secret part, or the email address; '' for push. */
  address: string;
  /** The recipient of an email destination unsubscribed: nothing more is sent to it. */
  unsubscribed: boolean;
  /** Epoch seconds. */
  dateCreated: number;
}

export interface AlertRule {
  ruleId: string;
  name: string;
  serviceId: string | null;
  groupId: string | null;
  /** The server's or group's name. */
  scopeName: string;
  condition: AlertCondition;
  destinationIds: string[];
  muted: boolean;
  /** Epoch seconds, while snoozed. */
  snoozedUntil: number | null;
  /** Incidents open now. */
  openIncidents: number;
  /** Epoch seconds. */
  dateCreated: number;
}

export interface NewAlertRule {
  name: string;
  /** One of serviceId, groupId. */
  serviceId?: string;
  groupId?: string;
  condition: AlertCondition;
  destinationIds: string[];
}

export type AlertRulePatch = Partial<
  Pick<AlertRule, 'name' | 'condition' | 'destinationIds' | 'muted' | 'snoozedUntil'>
>;

export const DELIVERY_KINDS = ['raised', 'cleared', 'test'] as const;
export type DeliveryKind = (typeof DELIVERY_KINDS)[number];
/** A delivery's or notification's kind as lists show it. */
export const DELIVERY_KIND_LABELS: Record<DeliveryKind, string> = {
  raised: 'Alert',
  cleared: 'All clear',
  test: 'Test',
};

export const DELIVERY_STATUSES = ['pending', 'sent', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** What one notification says, whatever carries it. Every text in it is plain text. */
export interface Notice {
  kind: DeliveryKind;
  /** "Server down: The Island" */
  title: string;
  body: string;
  /** Labelled facts: server, player, score… */
  fields: { name: string; value: string }[];
  /** Epoch seconds of what it tells. */
  time: number;
}

export interface AlertDelivery {
  deliveryId: string;
  ruleId: string | null;
  ruleName: string | null;
  destinationId: string | null;
  /** "Console" for the console's list. */
  destinationName: string;
  destinationKind: DestinationKind | 'console';
  kind: DeliveryKind;
  title: string;
  status: DeliveryStatus;
  attempts: number;
  /** What the destination answered last, or why it could not be reached. */
  answer: string | null;
  /** Epoch seconds. */
  dateCreated: number;
  dateSent: number | null;
  /** While pending: when the next attempt is due. */
  nextAttempt: number | null;
}

export interface AppNotification {
  notificationId: string;
  ruleId: string | null;
  serviceId: string | null;
  kind: DeliveryKind;
  title: string;
  body: string;
  isRead: boolean;
  /** Epoch seconds. */
  dateCreated: number;
}

/** On the user's channel (docs/api.md "Alerts"). */
export const AlertEvent = {
  /** `{notificationId, title, body, push}`: a notification was added; `push`, show it as the browser's too. */
  notificationCreated: 'notificationCreated',
  /** Notifications were marked read (another tab's count follows). */
  notificationsRead: 'notificationsRead',
} as const;

export const ALERT_LIMITS = {
  rulesPerAccount: 200,
  destinationsPerAccount: 20,
  nameMax: 60,
  textMax: 200,
  minutesMax: 1440,
  countMax: 1000,
  /** An event rule's incident clears after this long without another matching event. */
  quietMinutes: 10,
  /** Attempts at a delivery before it is failed. */
  attempts: 8,
  /** The longest wait a destination's 429 is honoured for; longer, the delivery waits this long. */
  maxRetryAfterSeconds: 3600,
  /** Deliveries one destination may have waiting; past them a notice to it is not sent. */
  pendingPerDestination: 1000,
  /** Notifications the console keeps per account; older ones go first. */
  notificationsKept: 1000,
  /** Tests one rule, or one destination, may be sent in a minute (a test button is a way to spam a webhook or inbox). */
  testsPerMinute: 5,
} as const;

/** Seconds before attempt `n + 1` (after n failures): 5 s, 15 s, 45 s … up to 30 minutes. */
export const retryDelaySeconds = (failures: number): number => Math.min(1800, 5 * 3 ** (failures - 1));

export const AlertMsg = {
  nameEmpty: 'Name it.',
  nameLong: `A name is at most ${ALERT_LIMITS.nameMax} characters.`,
  kindBad: `Choose a condition: ${CONDITION_KINDS.join(', ')}.`,
  minutes: `Minutes are a whole number from 0 to ${ALERT_LIMITS.minutesMax}.`,
  count: `The player count is a whole number from 0 to ${ALERT_LIMITS.countMax}.`,
  direction: 'Population is above or below the count.',
  category: `The category is any or one of: ${MODERATION_SCORES.join(', ')}.`,
  score: 'The score is a number from 0 to 1.',
  eventName: 'That is not an event of the log.',
  level: `The level is one of: ${LOG_LEVELS.join(', ')}.`,
  textLong: `The text is at most ${ALERT_LIMITS.textMax} characters.`,
  logEmpty: 'Say what a log line must match: an event, a level or a text.',
  flagLong: `A flag's name is at most 32 characters.`,
  scope: 'Choose one server or one group.',
  scopeNotYours: 'You may not edit that server or group, so you cannot put an alert on it.',
  destinationKind: `The destination is one of: ${DESTINATION_KINDS.join(', ')}.`,
  webhookUrl:
    'Give the webhook address Discord or Slack showed you, starting with https:// (or http:// on a local network).',
  email: 'That is not an email address.',
  destinationUnknown: 'One of those destinations is not yours.',
  tooManyRules: `An account keeps at most ${ALERT_LIMITS.rulesPerAccount} alert rules: remove some first.`,
  tooManyDestinations: `An account keeps at most ${ALERT_LIMITS.destinationsPerAccount} destinations: remove some first.`,
  tooManyTests: `At most ${ALERT_LIMITS.testsPerMinute} tests a minute to one place: wait a little.`,
  unsubscribed: 'Its recipient unsubscribed: nothing is sent there any more.',
  destinationFull: `Not sent: ${ALERT_LIMITS.pendingPerDestination.toLocaleString('en')} notifications were already waiting for this destination.`,
} as const;

type Check = string | null;

export function alertName(v: string): Check {
  const t = v.trim();
  if (t === '') return AlertMsg.nameEmpty;
  return t.length > ALERT_LIMITS.nameMax ? AlertMsg.nameLong : null;
}

const wholeIn = (v: unknown, max: number): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max;

/** Optional text: null or blank is none. */
const optionalText = (v: unknown): string | null =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : null;

/** The condition as stored, or the problem with it (a message and the field it is about). */
export function parseCondition(v: unknown): { ok: AlertCondition } | { problem: string; field: string } {
  const bad = (problem: string, field: string) => ({ problem, field });
  if (!isRecord(v) || !CONDITION_KINDS.includes(v.kind as ConditionKind))
    return bad(AlertMsg.kindBad, 'kind');
  switch (v.kind as ConditionKind) {
    case 'status':
      return wholeIn(v.minutes, ALERT_LIMITS.minutesMax)
        ? { ok: { kind: 'status', minutes: v.minutes } }
        : bad(AlertMsg.minutes, 'minutes');
    case 'population':
      if (v.direction !== 'above' && v.direction !== 'below') return bad(AlertMsg.direction, 'direction');
      if (!wholeIn(v.count, ALERT_LIMITS.countMax)) return bad(AlertMsg.count, 'count');
      if (!wholeIn(v.minutes, ALERT_LIMITS.minutesMax)) return bad(AlertMsg.minutes, 'minutes');
      return { ok: { kind: 'population', direction: v.direction, count: v.count, minutes: v.minutes } };
    case 'watched': {
      const flag = optionalText(v.flag);
      if (flag && flag.length > 32) return bad(AlertMsg.flagLong, 'flag');
      return { ok: { kind: 'watched', flag } };
    }
    case 'chat': {
      const category = v.category ?? 'any';
      if (category !== 'any' && !MODERATION_SCORES.includes(category as ModerationScore))
        return bad(AlertMsg.category, 'category');
      if (typeof v.score !== 'number' || !(v.score >= 0 && v.score <= 1)) return bad(AlertMsg.score, 'score');
      return { ok: { kind: 'chat', category: category as ModerationScore | 'any', score: v.score } };
    }
    case 'evasion':
      return { ok: { kind: 'evasion', vpn: v.vpn === true } };
    case 'scripts':
      return { ok: { kind: 'scripts' } };
    case 'log': {
      const eventName = optionalText(v.eventName);
      if (eventName && !(LOG_EVENT_NAMES as readonly string[]).includes(eventName))
        return bad(AlertMsg.eventName, 'eventName');
      const level = optionalText(v.level);
      if (level && !(LOG_LEVELS as readonly string[]).includes(level)) return bad(AlertMsg.level, 'level');
      const text = optionalText(v.text);
      if (text && text.length > ALERT_LIMITS.textMax) return bad(AlertMsg.textLong, 'text');
      if (!eventName && !level && !text) return bad(AlertMsg.logEmpty, 'text');
      return { ok: { kind: 'log', eventName, level: level as LogLevel | null, text } };
    }
  }
}

/** The condition in a sentence, as lists and notifications show it. */
export function describeCondition(c: AlertCondition): string {
  const forMinutes = (m: number) => (m === 0 ? '' : ` for ${m} minute${m === 1 ? '' : 's'}`);
  switch (c.kind) {
    case 'status':
      return `Disconnected or failing over RCON${forMinutes(c.minutes)}`;
    case 'population':
      return `${c.direction === 'above' ? 'More' : 'Fewer'} than ${c.count} players online${forMinutes(c.minutes)}`;
    case 'watched':
      return c.flag ? `A player flagged ${c.flag} joins` : 'A player on the watchlist joins';
    case 'chat':
      return `A chat line scores ${c.score} or more in ${c.category === 'any' ? 'any category' : scoreLabel(c.category)}`;
    case 'evasion':
      return c.vpn
        ? "A player joins sharing a banned player's address, or through a VPN"
        : "A player joins sharing a banned player's address";
    case 'scripts':
      return 'A script run fails';
    case 'log': {
      const parts = [
        c.eventName ? `event ${c.eventName}` : null,
        c.level ? `level ${c.level} or above` : null,
        c.text ? `holding “${c.text}”` : null,
      ].filter((p) => p !== null);
      return `A log line of ${parts.join(', ')}`;
    }
  }
}

/** "hateScore" → "hate". */
export const scoreLabel = (s: ModerationScore): string =>
  s
    .replace(/Score$/, '')
    .replace(/([A-Z])/g, ' $1')
    .toLowerCase();

/** A condition that must hold for a while, checked on a timer, rather than matched per event. */
export const isSustained = (c: AlertCondition): c is Extract<AlertCondition, { minutes: number }> =>
  c.kind === 'status' || c.kind === 'population';

/** A rule's state in words: muted, snoozed until when, raised, or quiet. */
export function ruleState(r: AlertRule): string {
  if (r.muted) return 'Muted';
  if (r.snoozedUntil) return `Snoozed until ${formatTime(r.snoozedUntil)}`;
  return r.openIncidents > 0 ? `Raised (${r.openIncidents} open)` : 'Quiet';
}

/** Why an address cannot be a webhook of this kind, or null. */
export function webhookProblem(address: string): Check {
  let url: URL;
  try {
    url = new URL(address.trim());
  } catch {
    return AlertMsg.webhookUrl;
  }
  return url.protocol === 'https:' || url.protocol === 'http:' ? null : AlertMsg.webhookUrl;
}

/** A webhook's address as lists show it: scheme, host and the path's first part; the token is a secret. */
export function maskedWebhook(address: string): string {
  try {
    const url = new URL(address);
    const path = url.pathname.split('/').filter(Boolean);
    return `${url.host}/${path.slice(0, 2).join('/')}${path.length > 2 ? '/…' : ''}`;
  } catch {
    return '…';
  }
}
