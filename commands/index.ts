// Every command of the console, registered once. A duplicate id or key fails here, at start-up and in tests.

import { accessCommands } from './access.ts';
import { accountCommands } from './account.ts';
import { activityCommands } from './activity.ts';
import { alertCommands, destinationCommands, notificationCommands } from './alerts.ts';
import { banCommands } from './bans.ts';
import { billingCommands } from './billing.ts';
import { bucketCommands } from './buckets.ts';
import { CHART_KEYS } from './chartKeys.ts';
import { chatCommands } from './chat.ts';
import { dinoCommands } from './dinos.ts';
import { flagCommands, watchlistCommands } from './flags.ts';
import { giveCommands } from './give.ts';
import { groupCommands } from './groups.ts';
import { LIST_KEYS } from './listKeys.ts';
import { logCommands } from './logs.ts';
import { playerCommands } from './players.ts';
import { Registry } from './registry.ts';
import { scriptAttachmentCommands } from './scriptAttachments.ts';
import { scriptEditingCommands } from './scriptEditing.ts';
import { scriptCommands } from './scripts.ts';
import { sectionCommands } from './sections.ts';
import { serverCommands } from './servers.ts';
import { shellCommands } from './shell.ts';
import { survivorCommands } from './survivors.ts';
import { terminalCommands } from './terminal.ts';
import { tribeCommands } from './tribes.ts';
import { workshopCommands } from './workshop.ts';

const COMMANDS = [
  ...shellCommands,
  ...sectionCommands,
  ...terminalCommands,
  ...accountCommands,
  ...accessCommands,
  ...billingCommands,
  ...serverCommands,
  ...logCommands,
  ...chatCommands,
  ...playerCommands,
  ...flagCommands,
  ...watchlistCommands,
  ...alertCommands,
  ...destinationCommands,
  ...notificationCommands,
  ...banCommands,
  ...survivorCommands,
  ...tribeCommands,
  ...dinoCommands,
  ...groupCommands,
  ...scriptCommands,
  ...scriptAttachmentCommands,
  ...scriptEditingCommands,
  ...workshopCommands,
  ...giveCommands,
  ...activityCommands,
  ...bucketCommands,
];

/** Every command id of the console, as a type: menus, toolbars and code name commands by it. */
export type CommandId = (typeof COMMANDS)[number]['id'];

export function createRegistry(): Registry {
  return new Registry().reserve(...LIST_KEYS, ...CHART_KEYS).register(...COMMANDS);
}
