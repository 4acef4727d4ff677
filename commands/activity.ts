// The activity trail (docs/api.md "Activity trail"): `activity <server|group> [--user …] [--kind …]
// [--since 7d]`. Not an ACTIONS.md id: like the console's own commands it is ours, yet offered on
// every surface. The console prints the entries. Elsewhere, without a filter it opens the Activity
// tab (whose filters are fields of their own); with one, it shows the matching entries in a dialog.

import { ACTIVITY_HEADINGS, activityCells, activityParams, parseSince } from '../src/domain/activity.ts';
import { pathOf } from '../src/domain/resolver.ts';
import { ownerOf, ref, text } from './args.ts';
import { CommandError, defineCommand } from './registry.ts';

export const TARGET_MESSAGE = 'Choose a server or group.';

/** Entries the console prints; the Activity tab and its CSV hold the rest. */
export const ACTIVITY_PRINTED = 100;

/** A "since" as typed, in seconds; the message names the field when it cannot be read. */
function sinceSeconds(since: string | undefined): number | null {
  try {
    return parseSince(since ?? '');
  } catch (e) {
    throw new CommandError((e as Error).message, 'since');
  }
}

export const activityCommands = [
  defineCommand({
    id: 'activity.show',
    title: 'Show activity',
    description: 'Who changed what on a server or group: filter by user, kind and how far back',
    group: 'Activity',
    aliases: ['activity'],
    args: {
      target: ref('server', 'group').describe('Server or group', 'Blank: the one in view').optional(),
      user: text().optional().describe('User', 'Part of a username'),
      kind: text().optional().describe('Kind', 'chat, gameCommands, serviceBans, services, groupUsers, …'),
      since: text().optional().describe('Since', 'How far back: 30m, 12h, 7d, 2w'),
    },
    run: async ({ target, user, kind, since }, ctx) => {
      // The registry fills a blank target from the view; nothing in view leaves it blank.
      if (!target) throw new CommandError(TARGET_MESSAGE, 'target');
      const filter = activityParams({ user, kind, sinceSeconds: sinceSeconds(since) }, Date.now());
      const inConsole = ctx.surface === 'console';
      if (!inConsole && Object.keys(filter).length === 0) {
        ctx.app.navigate(pathOf(target.kind, target.id, 'activity'));
        return undefined;
      }
      const page = await ctx.app.api.activity.list({
        ...ownerOf(target),
        ...filter,
        pageSize: ACTIVITY_PRINTED,
      });
      const shown = page.results.length;
      const more = page.totalResults > shown ? ` (the newest ${shown} of ${page.totalResults})` : '';
      const message = shown
        ? `Activity of ${target.label}${more}.`
        : `No activity of ${target.label} matches.`;
      const rows = page.results.map(activityCells);
      if (inConsole) return { message, table: shown ? { columns: [...ACTIVITY_HEADINGS], rows } : undefined };
      // A dialog row each: when and who, then what happened and how it went.
      ctx.app.dialogs.info(
        message,
        rows.map(([time, who, ...what]): [string, string] => [
          `${time} ${who}`,
          what.filter(Boolean).join(' · '),
        ]),
      );
      return undefined;
    },
  }),
];
