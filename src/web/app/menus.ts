// Every context menu and toolbar of the console: lists of command ids, nothing else (DESIGN.md).
// The ids are the catalogue's own union, so a misspelt or removed one fails to compile, and
// tests/unit/menus.test.ts checks each against the registry.

import type { CommandId } from '../../../commands/index.ts';

export const MENUS = {
  serverRow: ['server.viewEvents', 'server.setColor', 'server.remove', 'server.setup'],
  serverToolbar: ['server.runScript', 'server.runCommand'],
  playerRow: ['player.open', 'player.addNote', 'player.copyId', 'player.sessions', 'ban.create'],
  banRow: ['ban.edit', 'ban.remove', 'ban.goToPlayer'],
  banToolbar: ['ban.create'],
  logRow: ['log.showRaw', 'log.open'],
  logToolbar: ['log.showRaw'],
  activityToolbar: ['ui.list.exportCsv'],
} as const satisfies Record<string, readonly CommandId[]>;
