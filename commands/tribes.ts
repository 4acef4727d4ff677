// Tribes: ACTIONS.md "Survivors, tribes, dinos". A tribe's page has tabs logs, survivors
// (characters) and dinos; deleting one takes its survivors and dinos with it (SPEC §4).

import { worldCommands as w } from './world.ts';

export const TRIBE_TABS = ['logs', 'characters', 'dinos'] as const;

export const tribeCommands = [
  w.list('tribe'),
  w.open('tribe', TRIBE_TABS),
  w.goTo('tribe', ['self', 'server']),
  w.delete('tribe', 'Its survivors and dinos are deleted with it. '),
  w.runScript('tribe'),
];
