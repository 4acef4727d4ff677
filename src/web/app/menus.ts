// Every context menu and toolbar of the console: lists of command ids, nothing else (DESIGN.md).
// The ids are the catalogue's own union, so a misspelt or removed one fails to compile, and
// tests/unit/menus.test.ts checks each against the registry.

import type { CommandId } from '../../../commands/index.ts';

export const MENUS = {
  serverRow: ['server.viewEvents', 'server.setColor', 'server.remove', 'server.setup', 'group.addServers'],
  serverToolbar: ['server.runScript', 'server.runCommand'],
  playerRow: ['player.open', 'player.addNote', 'player.copyId', 'player.sessions', 'ban.create'],
  banRow: ['ban.edit', 'ban.remove', 'ban.goToPlayer'],
  banToolbar: ['ban.create'],
  logRow: ['log.showRaw', 'log.open'],
  logToolbar: ['log.showRaw'],
  groupRow: ['group.open', 'group.editSettings', 'group.delete'],
  groupListToolbar: ['group.create'],
  groupToolbar: ['group.editSettings', 'group.delete'],
  groupServiceRow: ['server.open', 'group.removeServer'],
  groupServicesToolbar: ['group.addServers'],
  groupBucketRow: ['group.removeBucket'],
  groupBucketsToolbar: ['group.addBuckets'],
  groupScriptRow: ['group.detachScript', 'script.setVersion'],
  groupScriptsToolbar: ['group.attachScript'],
  groupUserRow: ['group.editPermissions', 'group.removeUser'],
  groupLinkCommunity: ['group.linkDiscord'],
  groupUnlinkCommunity: ['group.unlinkDiscord'],
  serverUserRow: ['group.editPermissions', 'group.removeUser'],
  serverGroupRow: ['group.open', 'group.removeServer'],
  serverScriptRow: ['script.detach', 'script.setVersion'],
} as const satisfies Record<string, readonly CommandId[]>;
