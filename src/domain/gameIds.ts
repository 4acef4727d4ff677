// A player's id as the game prints it: Survival Evolved names players by SteamID64, Survival
// Ascended by their EOS product user id (../shared/ARK-RCON.md "ListPlayers"). Both are stored as
// player identifiers under their provider, so a player, a ban or a note works on either game.

import { EOS_ID } from './constants.ts';

/** A SteamID64 of an individual account: the 7656119… universe, 17 digits. */
export const STEAM_ID = /^7656119\d{10}$/;

export type GameIdProvider = 'EOS' | 'Steam';

/** Which game speaks to a server over RCON, and so which id its commands take. */
export type GameKind = 'evolved' | 'ascended';

/** The provider whose ids a game prints and understands. */
export const PROVIDER_OF: Record<GameKind, GameIdProvider> = { evolved: 'Steam', ascended: 'EOS' };

export const GAME_KIND_NAMES: Record<GameKind, string> = {
  evolved: 'ARK: Survival Evolved',
  ascended: 'ARK: Survival Ascended',
};

/** The provider of a game id, null when the text is neither. */
export function gameIdProvider(text: string): GameIdProvider | null {
  const t = text.trim();
  if (EOS_ID.test(t)) return 'EOS';
  if (STEAM_ID.test(t)) return 'Steam';
  return null;
}

/** The stored form: EOS ids are lower case (the game writes them in either case), Steam ids as they are. */
export const normalGameId = (text: string): string => text.trim().toLowerCase();
