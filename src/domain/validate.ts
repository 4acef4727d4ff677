// Validators with the spec's messages (SPEC §5). Each returns null when valid, else the message,
// so the console can show it in place and the server can answer it in an error body.

import {
  DINO_LIMITS,
  EOS_ID,
  GIVE_ITEM,
  PIE_CHARACTER_ID,
  SERVER_LANGUAGES_MAX,
  STRUCTURE_RANGE,
  SUPPORTED_LANGUAGES,
  UUID,
} from './constants.ts';
import { GROUP_NAME_MIN, Msg, NOTE_MIN_LENGTH } from './messages.ts';

export type Check = string | null;

export function groupName(name: string): Check {
  return name.trim().length < GROUP_NAME_MIN ? Msg.groupNameShort : null;
}

export function noteContent(text: string): Check {
  const t = text.trim();
  if (t === '') return Msg.noteEmpty;
  if (t.length < NOTE_MIN_LENGTH) return Msg.noteShort;
  return null;
}

export function bucketValue(v: { key: string; value: string; playerId?: string | null }): Check {
  if (!v.key.trim()) return Msg.bucketKeyRequired;
  if (!v.value.trim()) return Msg.bucketValueRequired;
  if (v.playerId && !UUID.test(v.playerId)) return Msg.bucketPlayerBad;
  return null;
}

export function banPlayerId(id: string): Check {
  const t = id.trim();
  if (t.toLowerCase() === PIE_CHARACTER_ID) return Msg.banPieCharacter;
  if (!EOS_ID.test(t) && !UUID.test(t)) return Msg.banPlayerFormat;
  return null;
}

const between = (n: number, [lo, hi]: readonly [number, number]) => Number.isFinite(n) && n >= lo && n <= hi;

export function itemPath(path: string): Check {
  return path.trim().startsWith('/') ? null : Msg.itemPathBad;
}

export function giveItemQuantity(q: number): Check {
  return Number.isInteger(q) && between(q, GIVE_ITEM.quantity)
    ? null
    : 'Quantity must be a whole number from 1 to 99999.';
}
export function giveItemQuality(q: number): Check {
  return between(q, GIVE_ITEM.quality) ? null : 'Quality must be a number from 0 to 100.';
}
export function giveItemStat(v: number): Check {
  return between(v, GIVE_ITEM.stat) ? null : 'Each stat must be a number from 0 to 999999.';
}
export function minRandomQuality(v: number): Check {
  return between(v, GIVE_ITEM.minRandomQuality)
    ? null
    : 'The min random quality multiplier must be from 0 to 1.';
}
export function dinoAgeOrImprint(label: 'Age' | 'Imprint', v: number | null): Check {
  return v === null || between(v, DINO_LIMITS.age) ? null : `${label} must be from 0 to 100, or blank.`;
}
export function wildPoints(v: number | null): Check {
  return v === null || (Number.isInteger(v) && between(v, DINO_LIMITS.wildPoints))
    ? null
    : 'Wild stat points must be a whole number from 0 to 255, or blank.';
}

export function serverLanguages(langs: string[]): Check {
  if (langs.length === 0) return 'Choose at least one language.';
  if (langs.length > SERVER_LANGUAGES_MAX) return `Choose at most ${SERVER_LANGUAGES_MAX} languages.`;
  const bad = langs.find((l) => !(SUPPORTED_LANGUAGES as readonly string[]).includes(l));
  return bad ? `Palisade does not support language ${bad}.` : null;
}

export function structureRange(v: number): Check {
  return Number.isInteger(v) && v >= STRUCTURE_RANGE.min && v <= STRUCTURE_RANGE.max
    ? null
    : `The structure search range must be a whole number from ${STRUCTURE_RANGE.min} to ${STRUCTURE_RANGE.max}.`;
}

export function serverNickname(v: string | null): Check {
  return v !== null && v.length > 64 ? 'The nickname can be at most 64 characters.' : null;
}

// Request payloads, checked the same way by the console (before sending) and by the server. Each
// returns the first problem with the API error code the server answers it with, or null.

export interface Problem {
  code: string;
  message: string;
  field?: string;
}

const problem = (code: string, message: string, field?: string): Problem =>
  field === undefined ? { code, message } : { code, message, field };

const BUCKET_CODES: Record<string, [code: string, field: string]> = {
  [Msg.bucketKeyRequired]: ['emptyKey', 'key'],
  [Msg.bucketValueRequired]: ['emptyValue', 'value'],
  [Msg.bucketPlayerBad]: ['badPlayer', 'playerId'],
};

/** A bucket value as the API takes it: key and value strings, playerId a player UUID or null. */
export function bucketValuePayload(v: {
  key?: unknown;
  value?: unknown;
  playerId?: unknown;
}): Problem | null {
  if (v.playerId !== undefined && v.playerId !== null && typeof v.playerId !== 'string')
    return problem('badPlayer', Msg.bucketPlayerBad, 'playerId');
  const message = bucketValue({
    key: typeof v.key === 'string' ? v.key : '',
    value: typeof v.value === 'string' ? v.value : '',
    playerId: (v.playerId as string | null | undefined) ?? null,
  });
  if (!message) return null;
  const [code, field] = BUCKET_CODES[message];
  return problem(code, message, field);
}

export const BUCKET_NAME_MAX = 100;

export function bucketName(name: unknown): Problem | null {
  if (typeof name !== 'string' || name.trim() === '')
    return problem('emptyName', 'A bucket needs a name.', 'name');
  if (name.trim().length > BUCKET_NAME_MAX)
    return problem('invalidName', `A bucket name can be at most ${BUCKET_NAME_MAX} characters.`, 'name');
  return null;
}

export const GROUP_NAME_MAX = 100;

/** A group name as the API takes it (SPEC §5: at least 3 characters). */
export function groupNamePayload(name: unknown): Problem | null {
  if (typeof name !== 'string') return problem('validation', Msg.groupNameShort, 'name');
  const short = groupName(name);
  if (short) return problem('validation', short, 'name');
  if (name.trim().length > GROUP_NAME_MAX)
    return problem('validation', `The group name can be at most ${GROUP_NAME_MAX} characters.`, 'name');
  return null;
}
