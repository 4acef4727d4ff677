// Player flags and group watchlists (the alerts issue). A flag is a named, coloured mark with a
// reason that an account puts on a player ("griefer", "watch chat"), shown beside the player's
// name wherever the account sees it; it is its account's own: nobody else sees it, changes it or
// learns it exists. A watchlist is a group's: players its moderators keep an eye on, each with
// why, seen by the group's members and changed by those who may manage its bans.

export const FLAG_COLOURS = ['red', 'orange', 'yellow', 'green', 'blue', 'purple', 'grey'] as const;
export type FlagColour = (typeof FLAG_COLOURS)[number];

export const FLAG_NAME_MAX = 32;
export const FLAG_REASON_MAX = 500;
/** Flags one account keeps at most (a bound on what one user can store). */
export const FLAGS_PER_ACCOUNT = 10_000;

/** A flag as a player carries it: the caller's own flags on that player. */
export interface FlagMark {
  flagId: string;
  name: string;
  colour: FlagColour;
  reason: string;
}

export interface PlayerFlag extends FlagMark {
  playerId: string;
  playerName: string;
  /** Epoch seconds. */
  dateCreated: number;
}

/** A player on a group's watchlist. */
export interface WatchedPlayer {
  watchId: string;
  groupId: string;
  playerId: string;
  playerName: string;
  reason: string;
  /** Who added them, `name#1a2b3c4d`; null once that account is gone. */
  addedBy: string | null;
  /** Epoch seconds. */
  dateAdded: number;
}

/** Players a group's watchlist holds at most. */
export const WATCHLIST_MAX = 5_000;

export const FlagMsg = {
  nameEmpty: 'Name the flag.',
  nameLong: `A flag's name is at most ${FLAG_NAME_MAX} characters.`,
  colourBad: `Choose a colour: ${FLAG_COLOURS.join(', ')}.`,
  reasonEmpty: 'Say why the player is flagged.',
  reasonLong: `A flag's reason is at most ${FLAG_REASON_MAX} characters.`,
  tooMany: `An account keeps at most ${FLAGS_PER_ACCOUNT.toLocaleString('en')} flags: remove some first.`,
  watchReasonEmpty: 'Say why the player is watched.',
  watchlistFull: `A watchlist holds at most ${WATCHLIST_MAX.toLocaleString('en')} players: remove some first.`,
} as const;

type Check = string | null;

/** A check of trimmed text: `empty` when there is none, `long` past `max` characters. */
const trimmedText =
  (empty: string, max: number, long: string) =>
  (v: string): Check => {
    const t = v.trim();
    if (t === '') return empty;
    return t.length > max ? long : null;
  };

export const flagName = trimmedText(FlagMsg.nameEmpty, FLAG_NAME_MAX, FlagMsg.nameLong);
export const flagReason = trimmedText(FlagMsg.reasonEmpty, FLAG_REASON_MAX, FlagMsg.reasonLong);
export const watchReason = trimmedText(FlagMsg.watchReasonEmpty, FLAG_REASON_MAX, FlagMsg.reasonLong);

export const isFlagColour = (v: unknown): v is FlagColour => FLAG_COLOURS.includes(v as FlagColour);
