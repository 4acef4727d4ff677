// A small registry and entity store shared by the terminal tests.

import {
  bool,
  coords,
  duration,
  type EntityLookup,
  type EntityRef,
  int,
  oneOf,
  ref,
  secret,
  text,
} from '../../commands/args.ts';
import { defineCommand, Registry } from '../../commands/registry.ts';
import { shellCommands } from '../../commands/shell.ts';
import { terminalCommands } from '../../commands/terminal.ts';
import { Perm } from '../../src/domain/permissions.ts';

const none = () => undefined;

export const commands = {
  banCreate: defineCommand({
    id: 'ban.create',
    title: 'Ban player',
    group: 'Players',
    aliases: ['ban'],
    keys: ['mod+b'],
    permission: Perm.ManageBans,
    args: {
      player: ref('player').describe('Player', 'Who to ban'),
      expires: duration().describe('Expires'),
      comments: text().min(1).rest().describe('Comments'),
    },
    run: none,
  }),
  teleport: defineCommand({
    id: 'player.teleport',
    title: 'Teleport player',
    group: 'Players',
    aliases: ['tp'],
    args: { player: ref('player'), to: coords().describe('Destination') },
    run: none,
  }),
  serverList: defineCommand({
    id: 'server.list',
    title: 'List servers',
    group: 'Servers',
    aliases: ['servers'],
    run: none,
  }),
  restart: defineCommand({
    id: 'server.restart',
    title: 'Restart server',
    group: 'Servers',
    args: {
      server: ref('server'),
      force: bool().optional(),
      delayMinutes: int({ min: 0 }).optional().describe('Delay'),
      map: oneOf(['TheIsland', 'Ragnarok', 'Aberration']).optional(),
    },
    run: none,
  }),
  rcon: defineCommand({
    id: 'rcon.password',
    title: 'Set RCON password',
    group: 'Servers',
    aliases: ['rconpw'],
    args: { server: ref('server'), password: secret().describe('Password'), note: text().optional() },
    run: none,
  }),
};

/** The fixtures with the console's own commands and undo, as the app registers them. */
export const registry = () =>
  new Registry().register(
    ...Object.values(commands),
    ...terminalCommands,
    ...shellCommands.filter((c) => c.id === 'ui.undo'),
  );

export const refs: EntityRef[] = [
  { kind: 'player', id: 'p1', label: 'Bob' },
  { kind: 'player', id: 'p2', label: 'Big Bob' },
  { kind: 'player', id: 'p3', label: 'Big Bill' },
  { kind: 'player', id: 'p4', label: 'Alice' },
  { kind: 'server', id: 's1', label: 'Island' },
];

export const entities: EntityLookup = {
  search: (kinds, query, limit) =>
    refs
      .filter((r) => kinds.includes(r.kind) && r.label.toLowerCase().startsWith(query.toLowerCase()))
      .slice(0, limit),
  resolve: async (kinds, t) =>
    refs.filter((r) => kinds.includes(r.kind) && (r.id === t || r.label.toLowerCase() === t.toLowerCase())),
};
