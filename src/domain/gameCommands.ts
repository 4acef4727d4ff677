// Game commands of SENTINEL-API §2.3 (`POST /sentinel/gameCommands`): the types, the bits each
// needs (all of them), the per-target answer we return, and which admin commands the console
// confirms before sending.

import { Perm } from './permissions.ts';

export const GAME_COMMAND_BITS = {
  admin: Perm.ControlServices,
  chat: Perm.Membership,
  broadcast: Perm.Membership,
  locate: Perm.ControlServices,
  renamePlayer: Perm.ControlServices,
  destroyWildDinos: Perm.ControlServices,
  teleportDino: Perm.ControlServices,
  teleportCharacter: Perm.ControlServices,
  /** Ours: `kickplayer` with the id the server's game knows the player by (`playerId`). */
  kickPlayer: Perm.ControlServices,
} as const;
export type GameCommandType = keyof typeof GAME_COMMAND_BITS;
export const GAME_COMMAND_TYPES = Object.keys(GAME_COMMAND_BITS) as GameCommandType[];

/** What one target (a service, or each service of a group) answered. */
export interface GameCommandResult {
  serviceId: string;
  serviceDisplayName: string;
  type: string;
  ok: boolean;
  /** The game's reply, when it gave one. */
  result?: unknown;
  /** Why it failed: serviceNotConnected, commandFailed, commandTimeout. */
  code?: string;
  message?: string;
}

export interface GameCommandResponse {
  results: GameCommandResult[];
}

/** Admin commands that remove players, wipe creatures or stop the server. */
export const DANGEROUS_ADMIN_COMMANDS = [
  'banplayer',
  'kickplayer',
  'killplayer',
  'shutdown',
  'doexit',
  'quit',
  'destroywilddinos',
  'destroyall',
  'destroyallenemies',
  'destroystructures',
  'destroytribeid',
  'destroytribeiddinos',
  'destroytribeidplayers',
  'destroytribeidstructures',
  'destroytribedinos',
  'destroytribestructures',
  'wipe',
] as const;

/** The console verb of a command line, without the `cheat`/`admincheat` prefix players type. */
export function commandVerb(command: string): string {
  const words = command.trim().toLowerCase().split(/\s+/);
  return (words[0] === 'cheat' || words[0] === 'admincheat' ? words[1] : words[0]) ?? '';
}

export function isDangerousCommand(command: string): boolean {
  return (DANGEROUS_ADMIN_COMMANDS as readonly string[]).includes(commandVerb(command));
}
