// Ban rules shared by the console and the server (SPEC §5 bans, SENTINEL-API §2.3 bans.txt):
// when a ban expires, and the ban list format the game pulls and admins import.

import { DURATION_MESSAGE, parseDuration } from './duration.ts';
import { formatCount } from './format.ts';
import { gameIdProvider, normalGameId } from './gameIds.ts';
import { BAN_IMPORT_MAX, isEpochSeconds } from './limits.ts';
import { banPlayerId } from './validate.ts';

export const BanMsg = {
  expiryBad: `${DURATION_MESSAGE.replace(/\.$/, '')}; or a date like 2030-01-31.`,
  expiryPast: 'The expiration must be in the future.',
  commentsRequired: 'Say why the player is banned.',
  listEosOnly:
    'A ban list line starts with an EOS id (0002 and 28 hex digits) or a SteamID64 (17 digits from 7656119).',
  listExpirationBad: 'The expiration must be epoch seconds (0 for permanent).',
  listExpired: 'This ban has already expired.',
  listRepeated: 'This player is already on an earlier line.',
  noValidLines: 'The list has no valid, unexpired ban lines.',
  importEmpty: 'There is nothing to import.',
  listTooLong: (n: number) =>
    `A ban list may hold at most ${formatCount(BAN_IMPORT_MAX)} bans; this one holds ${formatCount(n)}. Split it and import each part.`,
} as const;

const DATE = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2})?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * Epoch seconds a ban ends at, or null for permanent (blank, `perm`). Accepts a duration from
 * now (`7d`, `12h`) or a date (`2030-01-31`, `2030-01-31T12:00`, read as UTC unless it says).
 * Throws the message to show.
 */
export function parseExpiry(text: string, nowSeconds: number): number | null {
  const t = text.trim();
  if (DATE.test(t)) {
    const iso = t.replace(' ', 'T');
    const ms = Date.parse(/[zZ]|[+-]\d{2}:?\d{2}$/.test(iso) || !iso.includes('T') ? iso : `${iso}Z`);
    if (!Number.isFinite(ms)) throw new Error(BanMsg.expiryBad);
    const at = Math.floor(ms / 1000);
    if (at <= nowSeconds) throw new Error(BanMsg.expiryPast);
    return at;
  }
  let seconds: number | null;
  try {
    seconds = parseDuration(t);
  } catch {
    throw new Error(BanMsg.expiryBad);
  }
  return seconds === null ? null : Math.floor(nowSeconds) + seconds;
}

/** null when the text is a valid expiry, else the message. */
export function expiryProblem(text: string, nowSeconds: number): string | null {
  try {
    parseExpiry(text, nowSeconds);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

export interface BanLine {
  /** 1-based line number in the text. */
  line: number;
  /** An EOS id or a SteamID64, in its stored form. */
  gameId: string;
  name: string | null;
  /** Epoch seconds, null for permanent. */
  expiration: number | null;
}

export interface BanLineProblem {
  line: number;
  text: string;
  reason: string;
}

/** One line of a ban list as a ban, or the reason it is not one. */
function readBanLine(lineText: string, nowSeconds: number): Omit<BanLine, 'line'> | string {
  const fields = lineText.split(',').map((f) => f.trim());
  const id = fields[0];
  const idProblem = banPlayerId(id);
  if (idProblem) return idProblem;
  if (!gameIdProvider(id)) return BanMsg.listEosOnly;
  // A trailing number is the expiration; a name may itself contain commas.
  let nameFields = fields.slice(1);
  let expiration: number | null = null;
  const last = nameFields.at(-1);
  if (last !== undefined && /^-?\d+(\.\d+)?$/.test(last)) {
    const n = Number(last);
    if (!isEpochSeconds(n)) return BanMsg.listExpirationBad;
    if (n > 0 && n <= nowSeconds) return BanMsg.listExpired;
    expiration = n === 0 ? null : Math.floor(n);
    nameFields = nameFields.slice(0, -1);
  }
  const name = nameFields.join(',').trim();
  return { gameId: normalGameId(id), name: name === '' ? null : name, expiration };
}

/** A whole ban list read at once (banListReader says how). */
export function parseBanList(
  text: string,
  nowSeconds: number,
): { bans: BanLine[]; problems: BanLineProblem[] } {
  const reader = banListReader(nowSeconds);
  for (const [i, raw] of banListLines(text).entries()) reader.read(raw, i + 1);
  return { bans: reader.bans, problems: reader.problems };
}

/** A ban list's lines, whatever its line ends. */
export const banListLines = (text: string): string[] => text.split(/\r\n|\n|\r/);

/**
 * Reads a ban list a line at a time (a server reads a long one between other requests): one
 * `EOSID[,name][,expirationEpoch]` per line, blank lines skipped. Every other line is either a ban
 * or a problem naming its line and why; a player listed twice is a problem the second time.
 */
export function banListReader(nowSeconds: number): {
  bans: BanLine[];
  problems: BanLineProblem[];
  read(raw: string, line: number): void;
} {
  const bans: BanLine[] = [];
  const problems: BanLineProblem[] = [];
  const seen = new Set<string>();
  return {
    bans,
    problems,
    read(raw, line) {
      const lineText = raw.trim();
      if (lineText === '') return;
      const read = readBanLine(lineText, nowSeconds);
      if (typeof read === 'string') problems.push({ line, text: lineText, reason: read });
      else if (seen.has(read.gameId)) problems.push({ line, text: lineText, reason: BanMsg.listRepeated });
      else {
        seen.add(read.gameId);
        bans.push({ line, ...read });
      }
    },
  };
}

/** The game's ban list: `EOSID,expirationEpoch` per line, 0 for permanent. */
export function formatBanList(entries: readonly { eosId: string; expiration: number | null }[]): string {
  return entries.map((e) => `${e.eosId},${e.expiration === null ? 0 : Math.floor(e.expiration)}`).join('\n');
}

/** Whether a ban with this expiration (epoch seconds, null permanent) holds at `nowSeconds`. */
export const banActive = (expiration: number | null, nowSeconds: number) =>
  expiration === null || expiration > nowSeconds;

/** Realtime event on a server's and a group's channel when their bans change (docs/api.md). */
export const BANS_UPDATED = 'bansUpdated';
