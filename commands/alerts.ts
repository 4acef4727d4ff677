// Alerts (ACTIONS.md "Alerts, notifications and watchlists", src/domain/alerts.ts): the account's
// rules on a server or group, the destinations their notifications go to, and the console's own
// notification list. Every action for the palette, the console pane (`alerts`, `mkalert`,
// `mute`, `snooze`, `dests`, …), the lists' toolbars and rows' menus, and the forms.

import {
  type AlertCondition,
  AlertMsg,
  type AlertRule,
  alertName,
  CONDITION_KINDS,
  type ConditionKind,
  DESTINATION_KINDS,
  DESTINATION_LABELS,
  describeCondition,
  parseCondition,
  ruleState,
} from '../src/domain/alerts.ts';
import { formatDuration } from '../src/domain/duration.ts';
import { LOG_EVENT_NAMES, LOG_LEVELS, MODERATION_SCORES } from '../src/domain/enums.ts';
import { formatTime } from '../src/domain/format.ts';
import { pathOf } from '../src/domain/resolver.ts';
import { ApiError } from '../src/web/api/http.ts';
import { bool, duration, type EntityRef, float, int, list, oneOf, ref, text } from './args.ts';
import { CommandError, defineCommand } from './registry.ts';

const group = 'Alerts';

const alertArg = () => ref('alert').describe('Alert rule', 'By name; blank: the one in view or selected');
const destinationArg = () => ref('destination').describe('Destination', 'By name; blank: the one selected');
const nameArg = () => text().describe('Name').check(alertName);

/** A refusal of the API on the field it names, so a form marks that field. */
async function attempt<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof ApiError && e.code === 'validation') {
      const field = (e.details as { field?: string } | null)?.field;
      throw new CommandError(e.message, field ? (FIELD_ARGS[field] ?? field) : undefined);
    }
    throw e;
  }
}

/** The API's field names as the commands' arguments name them. */
const FIELD_ARGS: Record<string, string> = {
  kind: 'when',
  eventName: 'event',
  serviceId: 'on',
  groupId: 'on',
  destinationIds: 'to',
  address: 'address',
};

/** The condition's fields as arguments, each shown in a form only for the kinds it belongs to. */
const conditionArgs = () => ({
  minutes: int({ min: 0, max: 1440 })
    .describe('For minutes', 'How long it must hold before it raises')
    .optional()
    .shownWhen('when', 'status', 'population'),
  direction: oneOf(['above', 'below'] as const)
    .describe('Above or below')
    .optional()
    .shownWhen('when', 'population'),
  count: int({ min: 0, max: 1000 }).describe('Players').optional().shownWhen('when', 'population'),
  flag: text()
    .describe('Flag', 'A flag of yours; blank: players on the watchlist')
    .optional()
    .shownWhen('when', 'watched'),
  category: oneOf(['any', ...MODERATION_SCORES] as const)
    .describe('Category')
    .optional()
    .shownWhen('when', 'chat'),
  score: float({ min: 0, max: 1 }).describe('Score', 'From 0 to 1').optional().shownWhen('when', 'chat'),
  vpn: bool().describe('Also through a VPN').optional().shownWhen('when', 'evasion'),
  event: oneOf(LOG_EVENT_NAMES).describe('Event').optional().shownWhen('when', 'log'),
  level: oneOf(LOG_LEVELS).describe('Level or above').optional().shownWhen('when', 'log'),
  text: text().describe('Text', 'Lines holding it, in any case').optional().shownWhen('when', 'log'),
});

type ConditionValues = {
  minutes?: number;
  direction?: 'above' | 'below';
  count?: number;
  flag?: string;
  category?: string;
  score?: number;
  vpn?: boolean;
  event?: string;
  level?: string;
  text?: string;
};

/** Defaults for a new condition of a kind: what most admins want first. */
const DEFAULTS: Record<ConditionKind, Record<string, unknown>> = {
  status: { minutes: 5 },
  population: { direction: 'below', count: 1, minutes: 30 },
  watched: { flag: null },
  chat: { category: 'any', score: 0.8 },
  evasion: { vpn: false },
  scripts: {},
  log: { eventName: null, level: null, text: null },
};

/** The condition the arguments say, over `base` (the rule's own when editing, else the kind's defaults). */
function conditionOf(kind: ConditionKind, v: ConditionValues, base: Record<string, unknown>): AlertCondition {
  const given: Record<string, unknown> = {
    minutes: v.minutes,
    direction: v.direction,
    count: v.count,
    flag: v.flag,
    category: v.category,
    score: v.score,
    vpn: v.vpn,
    eventName: v.event,
    level: v.level,
    text: v.text,
  };
  const merged: Record<string, unknown> = { ...DEFAULTS[kind], ...base, kind };
  for (const [k, value] of Object.entries(given)) if (value !== undefined) merged[k] = value;
  const parsed = parseCondition(merged);
  if ('problem' in parsed) throw new CommandError(parsed.problem, FIELD_ARGS[parsed.field] ?? parsed.field);
  return parsed.ok;
}

const scopeOf = (r: AlertRule) => r.scopeName;

const ids = (refs: EntityRef[] | undefined) => refs?.map((r) => r.id);

export const alertCommands = [
  defineCommand({
    id: 'alert.list',
    title: 'Alert rules',
    description: 'Your alert rules, on a server or group or all of them',
    group,
    aliases: ['alerts'],
    args: { on: ref('server', 'group').describe('On', 'A server or group; blank: every rule').optional() },
    run: async ({ on }, ctx) => {
      const scope: Record<string, string> = on
        ? { [on.kind === 'group' ? 'groupId' : 'serviceId']: on.id }
        : {};
      if (ctx.surface !== 'console') {
        ctx.app.navigate(`${pathOf('alert')}${on ? `?${new URLSearchParams(scope)}` : ''}`);
        return undefined;
      }
      const page = await ctx.app.api.alertRules.list({ ...scope, pageSize: 250 });
      return {
        table: {
          columns: ['Name', 'On', 'When', 'State'],
          rows: page.results.map((r) => [r.name, scopeOf(r), describeCondition(r.condition), ruleState(r)]),
        },
      };
    },
  }),
  defineCommand({
    id: 'alert.open',
    title: 'Go to alert rule',
    description: 'The rule, its state and what it sent',
    group,
    aliases: ['alert'],
    args: { alert: ref('alert').selectedOnly().describe('Alert rule') },
    run: ({ alert }, ctx) => {
      ctx.app.navigate(pathOf('alert', alert.id));
      return undefined;
    },
  }),
  defineCommand({
    id: 'alert.create',
    title: 'Create alert rule',
    description: 'Tells you, here and where you choose, when something happens on a server or group',
    group,
    aliases: ['mkalert'],
    form: true,
    args: {
      name: nameArg(),
      on: ref('server', 'group').describe('On', 'A server, or a group for each of its servers'),
      when: oneOf(CONDITION_KINDS).describe('When').default('status'),
      ...conditionArgs(),
      to: list(ref('destination'))
        .describe('Send to', 'Destinations besides this console; blank: the console only')
        .optional(),
    },
    run: async ({ name, on, when, to, ...values }, ctx) => {
      const condition = conditionOf(when, values, {});
      const rule = await attempt(() =>
        ctx.app.api.alertRules.create({
          name: name.trim(),
          ...(on.kind === 'group' ? { groupId: on.id } : { serviceId: on.id }),
          condition,
          destinationIds: ids(to) ?? [],
        }),
      );
      if (ctx.surface !== 'console') ctx.app.navigate(pathOf('alert', rule.ruleId));
      return {
        message: `Alert ${rule.name} on ${rule.scopeName}: ${describeCondition(rule.condition)}.`,
        undo: async () => {
          await ctx.app.api.alertRules.remove(rule.ruleId);
        },
      };
    },
  }),
  defineCommand({
    id: 'alert.edit',
    title: 'Edit alert rule',
    description: 'Changes what is given and keeps the rest',
    group,
    aliases: ['editalert'],
    form: true,
    args: {
      alert: alertArg(),
      name: nameArg().optional(),
      when: oneOf(CONDITION_KINDS).describe('When').optional(),
      ...conditionArgs(),
      to: list(ref('destination')).describe('Send to', 'Replaces where it sends').optional(),
    },
    run: async ({ alert, name, when, to, ...values }, ctx) => {
      const before = await ctx.app.api.alertRules.get(alert.id);
      const kind = when ?? before.condition.kind;
      const given = Object.values(values).some((v) => v !== undefined) || kind !== before.condition.kind;
      const condition = given
        ? conditionOf(kind, values, kind === before.condition.kind ? { ...before.condition } : {})
        : undefined;
      const saved = await attempt(() =>
        ctx.app.api.alertRules.patch(alert.id, {
          ...(name !== undefined ? { name: name.trim() } : {}),
          ...(condition ? { condition } : {}),
          ...(to ? { destinationIds: ids(to) } : {}),
        }),
      );
      return {
        message: `Alert ${saved.name}: ${describeCondition(saved.condition)}.`,
        undo: async () => {
          await ctx.app.api.alertRules.patch(alert.id, {
            name: before.name,
            condition: before.condition,
            destinationIds: before.destinationIds,
          });
        },
      };
    },
  }),
  defineCommand({
    id: 'alert.delete',
    title: 'Delete alert rule',
    description: 'The rule and its history',
    group,
    aliases: ['rmalert'],
    args: { alert: alertArg() },
    run: async ({ alert }, ctx) => {
      if (
        !(await ctx.app.dialogs.confirm(
          `Delete alert rule ${alert.label} and what it sent? This cannot be undone.`,
        ))
      )
        return { message: 'Cancelled.' };
      await ctx.app.api.alertRules.remove(alert.id);
      if (ctx.route.startsWith(pathOf('alert', alert.id))) ctx.app.navigate(pathOf('alert'));
      return { message: `Alert rule ${alert.label} deleted.` };
    },
  }),
  defineCommand({
    id: 'alert.mute',
    title: 'Mute or unmute alert rule',
    description: 'A muted rule sends nothing until unmuted',
    group,
    aliases: ['mute'],
    args: { alert: alertArg() },
    run: async ({ alert }, ctx) => {
      const before = await ctx.app.api.alertRules.get(alert.id);
      const saved = await ctx.app.api.alertRules.patch(alert.id, { muted: !before.muted });
      return {
        message: `${saved.name} is ${saved.muted ? 'muted' : 'unmuted'}.`,
        undo: async () => {
          await ctx.app.api.alertRules.patch(alert.id, { muted: before.muted });
        },
      };
    },
  }),
  defineCommand({
    id: 'alert.snooze',
    title: 'Snooze alert rule',
    description: 'Sends nothing for a while; blank wakes it now',
    group,
    aliases: ['snooze'],
    args: { alert: alertArg(), for: duration().describe('For', 'Like 30m, 2h or 1d; blank: wake it now') },
    run: async ({ alert, for: seconds }, ctx) => {
      const before = await ctx.app.api.alertRules.get(alert.id);
      const until = seconds === null ? null : Math.round(Date.now() / 1000) + seconds;
      const saved = await ctx.app.api.alertRules.patch(alert.id, { snoozedUntil: until });
      return {
        message:
          until === null
            ? `${saved.name} is awake.`
            : `${saved.name} is snoozed for ${formatDuration(seconds)}, until ${formatTime(until)}.`,
        undo: async () => {
          await ctx.app.api.alertRules.patch(alert.id, { snoozedUntil: before.snoozedUntil });
        },
      };
    },
  }),
  defineCommand({
    id: 'alert.test',
    title: 'Test alert rule',
    description: 'Sends a test notification to the rule’s destinations and this console',
    group,
    aliases: ['testalert'],
    args: { alert: alertArg() },
    run: async ({ alert }, ctx) => {
      await ctx.app.api.alertRules.test(alert.id);
      return { message: `A test of ${alert.label} is on its way.` };
    },
  }),
  defineCommand({
    id: 'alert.history',
    title: 'Alert rule history',
    description: 'What the rule sent: when, to where, status, attempts and the answer',
    group,
    aliases: ['alerthistory'],
    args: { alert: alertArg() },
    run: async ({ alert }, ctx) => {
      if (ctx.surface !== 'console') {
        ctx.app.navigate(pathOf('alert', alert.id));
        return undefined;
      }
      const page = await ctx.app.api.alertDeliveries.list({ ruleId: alert.id, pageSize: 50 });
      return {
        table: {
          columns: ['When', 'What', 'To', 'Status', 'Attempts', 'Answer'],
          rows: page.results.map((d) => [
            formatTime(d.dateCreated),
            d.title,
            d.destinationName,
            d.status,
            d.attempts,
            d.answer,
          ]),
        },
      };
    },
  }),
];

export const destinationCommands = [
  defineCommand({
    id: 'destination.list',
    title: 'Alert destinations',
    description: 'Where your alerts go besides this console',
    group,
    aliases: ['dests'],
    run: async (_a, ctx) => {
      if (ctx.surface !== 'console') {
        ctx.app.navigate(pathOf('destination'));
        return undefined;
      }
      const page = await ctx.app.api.alertDestinations.list({ pageSize: 100 });
      return {
        table: {
          columns: ['Name', 'Kind', 'Address'],
          rows: page.results.map((d) => [
            d.name,
            DESTINATION_LABELS[d.kind],
            d.unsubscribed ? `${d.address} (unsubscribed)` : d.address,
          ]),
        },
      };
    },
  }),
  defineCommand({
    id: 'destination.create',
    title: 'Add alert destination',
    description: 'A Discord or Slack webhook, an email address, or this browser’s notifications',
    group,
    aliases: ['mkdest'],
    form: true,
    args: {
      name: nameArg(),
      kind: oneOf(DESTINATION_KINDS).describe('Kind').default('discord'),
      address: text()
        .describe('Address', 'The webhook address, or the email address')
        .optional()
        .shownWhen('kind', 'discord', 'slack', 'email'),
    },
    run: async ({ name, kind, address }, ctx) => {
      if (kind === 'push' && (await ctx.app.push.allow()) !== 'enabled')
        throw new CommandError('Allow notifications for this site in the browser first.', 'kind');
      const made = await attempt(() =>
        ctx.app.api.alertDestinations.create({ name: name.trim(), kind, address: address?.trim() ?? '' }),
      );
      return {
        message: `Destination ${made.name} added.`,
        undo: async () => {
          await ctx.app.api.alertDestinations.remove(made.destinationId);
        },
      };
    },
  }),
  defineCommand({
    id: 'destination.edit',
    title: 'Edit alert destination',
    description: 'Renames it, or points it elsewhere',
    group,
    aliases: ['editdest'],
    form: true,
    args: {
      destination: destinationArg(),
      name: nameArg().optional(),
      address: text().describe('Address', 'A new webhook or email address').optional(),
    },
    run: async ({ destination, name, address }, ctx) => {
      if (name === undefined && address === undefined)
        throw new CommandError('Give a new name or address.', 'name');
      const saved = await attempt(() =>
        ctx.app.api.alertDestinations.patch(destination.id, {
          ...(name !== undefined ? { name: name.trim() } : {}),
          ...(address !== undefined ? { address: address.trim() } : {}),
        }),
      );
      return { message: `Destination ${saved.name} saved.` };
    },
  }),
  defineCommand({
    id: 'destination.delete',
    title: 'Delete alert destination',
    description: 'Rules stop sending there',
    group,
    aliases: ['rmdest'],
    args: { destination: destinationArg() },
    run: async ({ destination }, ctx) => {
      if (
        !(await ctx.app.dialogs.confirm(`Delete destination ${destination.label}? Rules stop sending there.`))
      )
        return { message: 'Cancelled.' };
      await ctx.app.api.alertDestinations.remove(destination.id);
      if (ctx.route.startsWith(pathOf('destination', destination.id)))
        ctx.app.navigate(pathOf('destination'));
      return { message: `Destination ${destination.label} deleted.` };
    },
  }),
  defineCommand({
    id: 'destination.test',
    title: 'Test alert destination',
    description: 'Sends it a test notification',
    group,
    aliases: ['testdest'],
    args: { destination: destinationArg() },
    run: async ({ destination }, ctx) => {
      try {
        await ctx.app.api.alertDestinations.test(destination.id);
      } catch (e) {
        if (e instanceof ApiError && e.message === AlertMsg.unsubscribed) throw new CommandError(e.message);
        throw e;
      }
      return { message: `A test is on its way to ${destination.label}.` };
    },
  }),
];

export const notificationCommands = [
  defineCommand({
    id: 'notification.list',
    title: 'Notifications',
    description: 'What your alert rules raised and cleared, newest first',
    group,
    aliases: ['notifications'],
    run: async (_a, ctx) => {
      if (ctx.surface !== 'console') {
        ctx.app.navigate('/notifications');
        return undefined;
      }
      const page = await ctx.app.api.notifications.list({ pageSize: 25 });
      return {
        table: {
          columns: ['When', 'What', 'Read'],
          rows: page.results.map((n) => [formatTime(n.dateCreated), n.title, n.isRead ? 'yes' : 'no']),
        },
      };
    },
  }),
  defineCommand({
    id: 'notification.markRead',
    title: 'Mark notifications read',
    description: 'Every unread notification',
    group,
    aliases: ['markread'],
    run: async (_a, ctx) => {
      await ctx.app.api.notifications.markRead({ all: true });
      return { message: 'Every notification is read.' };
    },
  }),
];
