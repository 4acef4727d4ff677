// Every command of the console, registered once. A duplicate id or key fails here, at start-up and in tests.

import { accountCommands } from './account.ts';
import { banCommands } from './bans.ts';
import { chatCommands } from './chat.ts';
import { LIST_KEYS } from './listKeys.ts';
import { logCommands } from './logs.ts';
import { playerCommands } from './players.ts';
import { Registry } from './registry.ts';
import { sectionCommands } from './sections.ts';
import { serverCommands } from './servers.ts';
import { shellCommands } from './shell.ts';

export function createRegistry(): Registry {
  return new Registry()
    .reserve(...LIST_KEYS)
    .register(
      ...shellCommands,
      ...sectionCommands,
      ...accountCommands,
      ...serverCommands,
      ...logCommands,
      ...chatCommands,
      ...playerCommands,
      ...banCommands,
    );
}
