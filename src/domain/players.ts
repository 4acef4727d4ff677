// JSON shapes of players, their identifiers, name history, sessions and notes (SENTINEL-API §3.7,
// §3.8), and of bans (§3.14), as the server sends them and the console reads them.

import type { Player } from './api.ts';
import type { FlagMark } from './flags.ts';

/** Ours on top of §3.7: connection facts and every other name the player went by. */
export interface PlayerDetail extends Player {
  isAnonymous: boolean;
  timezone: string | null;
  isUsingVpn: boolean | null;
  ipLookupSuccess: boolean | null;
  ipFingerprint: string | null;
  countryCode: string | null;
  continentCode: string | null;
  otherNames: string[];
  /** The caller's flags on the player (flags.ts), by name. */
  flags: FlagMark[];
}

export interface PlayerIdentifier {
  playerIdentifierId: string;
  playerId: string;
  provider: string;
  identifier: string;
  name: string;
}

export interface PlayerNameChange {
  historyId: string;
  playerId: string;
  name: string;
  changeTime: number;
}

export interface PlayerSession {
  playerSessionId: string;
  playerId: string;
  playerName: string;
  serviceId: string;
  serviceDisplayName: string;
  connectTime: number;
  disconnectTime: number | null;
  playTime: number;
  isConnected: boolean;
  /** The caller's flags on the player. */
  playerFlags: FlagMark[];
}

export interface PlayerNote {
  noteId: string;
  playerId: string;
  userId: string;
  username: string;
  usernameFull: string;
  dateCreated: number;
  dateModified: number;
  content: string;
  edits: { previousTimestamp: number; previousContent: string }[];
}

interface BanBase {
  playerId: string;
  playerName: string;
  /** The caller's flags on the player (none in a write's answer). */
  playerFlags: FlagMark[];
  playerAccounts: { provider: string; name: string; identifier: string }[];
  issuerId: string | null;
  issuerUsername: string | null;
  issuerUsernameFull: string | null;
  /** Epoch seconds, null for permanent. */
  expiration: number | null;
  comments: string;
}

export interface GroupBan extends BanBase {
  groupBanId: string;
  groupId: string;
  groupName: string;
}

export interface ServiceBan extends BanBase {
  serviceBanId: string;
  serviceId: string;
  serviceDisplayName: string;
}

export type Ban = GroupBan | ServiceBan;
