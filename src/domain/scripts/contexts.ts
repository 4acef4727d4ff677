// Script contexts (SPEC §3): the events a script can handle, and the triggered kinds that run it by
// name (a schedule, a webhook, a menu item, a command typed in game, a subroutine call). A context's
// value fields come from fields.ts; its keyword, when it has one, says what starts it.

import { EVENT_NAMES } from '../enums.ts';
import { inWords } from '../words.ts';

export interface ContextSpec {
  description: string;
  /** What the keyword of a triggered context names; game events have none. */
  keyword?: string;
}

const TRIGGERED: Record<string, ContextSpec> = {
  cron: {
    description: 'Runs on a schedule.',
    keyword: 'A cron expression (five fields, names, or @hourly, @daily…).',
  },
  webhook: {
    description: 'Runs when a signed request names its webhook; the request parameters are its arguments.',
    keyword: 'The webhook name.',
  },
  subroutine: { description: 'Runs when another script calls it.', keyword: 'The subroutine name.' },
  scriptCommand: {
    description: 'Runs when a player types `cheat scriptcommand <keyword> …` in game.',
    keyword: 'The command word.',
  },
  slashCommand: {
    description: 'Runs when a player types `/<keyword> …` in chat.',
    keyword: 'The command word.',
  },
  serviceScriptRun: { description: "Runs from a server's Run Script menu.", keyword: 'The menu text.' },
  characterScriptRun: { description: "Runs from a survivor's Run Script menu.", keyword: 'The menu text.' },
  dinoScriptRun: { description: "Runs from a dino's Run Script menu.", keyword: 'The menu text.' },
  tribeScriptRun: { description: "Runs from a tribe's Run Script menu.", keyword: 'The menu text.' },
  customModEvent: {
    description: 'Runs when another mod reports an event of that name.',
    keyword: 'The event name.',
  },
};

/** A context in words: "player died", "tribe log". */
export const contextWords = (context: string) => inWords(context).toLowerCase();

/** Every context: the game events of SENTINEL-API §6 and the triggered kinds. */
export const CONTEXTS: Record<string, ContextSpec> = Object.fromEntries([
  ...EVENT_NAMES.filter((n) => !(n in TRIGGERED)).map((n) => [
    n,
    { description: `Runs when the game reports ${contextWords(n)}.` },
  ]),
  ...Object.entries(TRIGGERED),
]);

export const CONTEXT_NAMES = Object.keys(CONTEXTS);

/**
 * What a server connected over RCON raises (docs/servers-connecting.md "What runs scripts"): what
 * ListPlayers, GetChat and GetGameLog show, and what Palisade starts itself. Every other context
 * needs the mod, which reports what happens in the world (deaths, tames, items…).
 */
export const RCON_CONTEXTS: ReadonlySet<string> = new Set([
  'chat',
  'playerJoined',
  'playerLeft',
  'playerRenamed',
  'adminCommand',
  'tribeLog',
  'customMessage',
  'serverConnected',
  'serverDisconnected',
  'cron',
  'webhook',
  'subroutine',
  'serviceScriptRun',
]);

/** The contexts of `contexts` that a server connected over RCON never raises. */
export const neverOverRcon = (contexts: readonly string[]) => contexts.filter((c) => !RCON_CONTEXTS.has(c));
export const isTriggeredContext = (context: string) => CONTEXTS[context]?.keyword !== undefined;
