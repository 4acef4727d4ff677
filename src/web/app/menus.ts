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
  // SPEC §2 survivor, tribe and dino lists: the row menus act on the marked rows (bulk actions,
  // also from the toolbars' context menu entry), the toolbars on the marked rows or the one in view.
  survivorRow: [
    'survivor.refresh',
    'survivor.open',
    'survivor.goTo',
    'survivor.teleport',
    'survivor.locate',
    'survivor.runScript',
    'survivor.delete',
  ],
  survivorToolbar: ['survivor.runScript', 'ui.contextMenu', 'survivor.teleport', 'survivor.locate'],
  survivorPage: [
    'survivor.refresh',
    'survivor.goTo',
    'survivor.teleport',
    'survivor.locate',
    'survivor.runScript',
    'survivor.delete',
  ],
  tribeRow: ['tribe.open', 'tribe.goTo', 'tribe.runScript', 'tribe.delete'],
  tribeToolbar: ['ui.list.refresh', 'tribe.runScript', 'ui.contextMenu'],
  tribePage: ['tribe.goTo', 'tribe.runScript', 'tribe.delete'],
  dinoRow: [
    'dino.open',
    'dino.goTo',
    'dino.setStatus',
    'dino.locate',
    'dino.teleport',
    'dino.revive',
    'dino.runScript',
    'dino.delete',
  ],
  dinoToolbar: [
    'ui.list.refresh',
    'dino.locate',
    'dino.openPlanner',
    'dino.runScript',
    'dino.revive',
    'ui.contextMenu',
    'dino.teleport',
  ],
  dinoPage: [
    'dino.goTo',
    'dino.setStatus',
    'dino.locate',
    'dino.teleport',
    'dino.revive',
    'dino.runScript',
    'dino.delete',
  ],
} as const satisfies Record<string, readonly CommandId[]>;
