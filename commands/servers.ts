// Servers (services): ACTIONS.md "Servers". The rest of this catalogue comes with the servers issue.

import { COLOR_CHOICES, SERVER_TABS, toApiColor } from '../src/domain/enums.ts';
import { Perm } from '../src/domain/permissions.ts';
import { oneOf, ref } from './args.ts';
import type { CommandContext } from './context.ts';
import { defineCommand } from './registry.ts';
import { entityPath } from './shell.ts';

const group = 'Servers';

/** The server in view (route) or selected (list), as a typed argument value. */
export function serverInView(ctx: CommandContext) {
  const fromRoute = /^\/servers\/([^/]+)/.exec(ctx.route)?.[1];
  const id = ctx.selection.kind === 'server' ? ctx.selection.ids[0] : fromRoute;
  if (!id || id === 'setup') return {};
  return { server: { kind: 'server' as const, id: decodeURIComponent(id), label: id } };
}

export const serverCommands = [
  defineCommand({
    id: 'server.list',
    title: 'Server list',
    group,
    aliases: ['servers', 'ls'],
    run: async (_a, ctx) => {
      if (ctx.surface !== 'console') {
        ctx.app.navigate('/servers');
        return undefined;
      }
      const page = await ctx.app.api.services.list({ pageSize: 250, sortedColumn: 'displayName' });
      return {
        table: {
          columns: ['Name', 'Status', 'Players', 'Clock', 'Id'],
          rows: page.results.map((s) => [
            s.displayName,
            s.isConnected ? 'connected' : 'disconnected',
            `${s.currentPlayers}/${s.maxPlayers}`,
            formatClock(s.gameClock),
            s.serviceId,
          ]),
        },
      };
    },
  }),
  defineCommand({
    id: 'server.open',
    title: 'Open server',
    group,
    aliases: ['server'],
    args: {
      server: ref('server').describe('Server'),
      tab: oneOf(SERVER_TABS).describe('Tab').default('logs'),
    },
    run: ({ server, tab }, ctx) => {
      ctx.app.navigate(entityPath('server', server.id, tab === 'logs' ? undefined : tab));
      return undefined;
    },
  }),
  defineCommand({
    id: 'server.setColor',
    title: 'Set server colour',
    group,
    aliases: ['color'],
    permission: Perm.EditServices,
    args: { server: ref('server').describe('Server'), color: oneOf(COLOR_CHOICES).describe('Colour') },
    defaults: serverInView,
    run: async ({ server, color }, ctx) => {
      const s = await ctx.app.api.services.patch(server.id, { color: toApiColor(color) });
      return { message: `${s.displayName} is now ${color}.` };
    },
  }),
];

/** Game clock as "Day 12, 13:45": the integer part is the day, the fraction the time of day. */
export function formatClock(clock: number): string {
  if (!Number.isFinite(clock) || clock <= 0) return '—';
  const day = Math.floor(clock);
  const minutes = Math.floor((clock - day) * 1440);
  return `Day ${day}, ${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}
