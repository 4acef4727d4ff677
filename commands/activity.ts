// The activity trail (docs/api.md "Activity trail"): `activity <server|group> [--user …] [--kind …]
// [--since 7d]`. Not an ACTIONS.md id: like the console's own commands it is ours, yet offered on
// every surface. The console prints the entries; elsewhere it opens the Activity tab.

import { ACTIVITY_HEADINGS, activityCells, activityParams, parseSince } from '../src/domain/activity.ts';
import { pathOf } from '../src/domain/resolver.ts';
import { ownerOf, ref, text } from './args.ts';
import { CommandError, defineCommand } from './registry.ts';

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
      target: ref('server', 'group').describe('Server or group', 'Blank: the one in view'),
      user: text().optional().describe('User', 'Part of a username'),
      kind: text().optional().describe('Kind', 'chat, gameCommands, serviceBans, services, groupUsers, …'),
      since: text().optional().describe('Since', 'How far back: 30m, 12h, 7d, 2w'),
    },
    run: async ({ target, user, kind, since }, ctx) => {
      const filter = activityParams({ user, kind, sinceSeconds: sinceSeconds(since) }, Date.now());
      if (ctx.surface !== 'console') {
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
      return {
        message: shown ? `Activity of ${target.label}${more}.` : `No activity of ${target.label} matches.`,
        table: shown ? { columns: [...ACTIVITY_HEADINGS], rows: page.results.map(activityCells) } : undefined,
      };
    },
  }),
];
