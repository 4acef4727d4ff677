// The limits every request is held to (docs/api.md "Limits and input validation"), and the check of
// a parsed value against them: no request may hold the server, and nothing PostgreSQL would refuse
// (a NUL, a number out of range) may reach it and come back as a 500.

import { PAGE_SIZE_MAX } from './constants.ts';
import type { Problem } from './validate.ts';

/** A request body, as sent and once inflated. The largest legitimate one, 250 notes, is far below. */
export const BODY_BYTES_MAX = 4 * 1024 * 1024;
/** Objects per bulk write: a page. Larger imports are sent a page at a time. */
export const BULK_OBJECTS_MAX = PAGE_SIZE_MAX;
/**
 * Bans one bans.txt import may hold. The import stores and tells its bans in paced batches (a
 * 30,000-line list takes 45–60 s while a hundred consoles read, model/ban.ts BAN_BATCH), and
 * every connected server of the list is told of each ban, so a larger list is refused whole and
 * split by the admin rather than hold a request for minutes and flood the game servers.
 */
export const BAN_IMPORT_MAX = 50_000;
/** Nesting of JSON; every legitimate body is a few levels deep. */
export const JSON_DEPTH_MAX = 32;
/** One query parameter (a filter value, a comma list of ids). */
export const QUERY_VALUE_MAX = 2_000;
/** Pages of a list: past this the offset would be absurd (and beyond 64 bits at 4e16). */
export const PAGE_MAX = 1_000_000;
/** Epoch seconds of 9999-12-31T23:59:59Z: the largest time a field or filter takes. */
export const EPOCH_MAX = 253_402_300_799;

/** A time a field takes: finite epoch seconds from 1970 to EPOCH_MAX. */
export const isEpochSeconds = (v: unknown): v is number =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= EPOCH_MAX;

/**
 * Characters of a string field, by its property name; anything unnamed gets TEXT_MAX. Fields with
 * a tighter rule of their own (a nickname's 64, a group name's 100) answer it with their own
 * message first; these hold every field that has none.
 */
export const TEXT_MAX = 10_000;
export const TEXT_LIMITS: Readonly<Record<string, number>> = {
  name: 256,
  senderName: 100,
  key: 256,
  keyword: 256,
  comments: 1_000,
  preview: 1_000,
  command: 1_000,
  message: 2_000,
  value: 65_536,
  code: 262_144,
  commonJavascript: 262_144,
};
/** Characters of an object field, as JSON. */
const OBJECT_LIMITS: Readonly<Record<string, number>> = {
  gameSpecific: 65_536,
  parameterValues: 65_536,
  metadata: 65_536,
};

/** Whether `text` (JSON) nests deeper than `max`, found without parsing it. */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** Which characters a text may not hold: NUL alone (what the database refuses), or every control. */
export type Characters = 'noNul' | 'noControls';

// C0 controls but tab, line feed and carriage return; DEL; C1 controls (U+009B is a CSI).
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const NUL = /\u0000/;
/** Half of a surrogate pair without the other half: no UTF-8 can hold it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const hex = (s: string) => `U+${s.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

/** What is wrong with one text, or null. */
export function textProblem(s: string, field: string, characters: Characters, max: number): Problem | null {
  const bad = (characters === 'noNul' ? NUL : CONTROL).exec(s);
  if (bad)
    return {
      code: 'badCharacter',
      message: `${field} contains a control character (${hex(bad[0])}).`,
      field,
    };
  if (LONE_SURROGATE.test(s))
    return {
      code: 'badCharacter',
      message: `${field} contains an unpaired surrogate (invalid Unicode).`,
      field,
    };
  if (s.length > max)
    return { code: 'tooLong', message: `${field} can be at most ${max} characters.`, field };
  return null;
}

export interface InputRules {
  characters: Characters;
  /** Checks lengths by TEXT_LIMITS and OBJECT_LIMITS (a game's events have their own sizes). */
  lengths: boolean;
}

const join = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);
const limitOf = (table: Readonly<Record<string, number>>, name: string): number | undefined =>
  Object.hasOwn(table, name) ? table[name] : undefined;

/**
 * The first problem of a parsed JSON value: a key or string with a refused character or too long,
 * a number JSON.parse made infinite (1e400), nesting past JSON_DEPTH_MAX. `name` is the property
 * whose limit a string or array member takes; `path` names it in the message.
 */
export function inputProblem(v: unknown, rules: InputRules, path = '', name = '', depth = 0): Problem | null {
  const label = path === '' ? 'The body' : path;
  // The body itself has no field to name.
  const at = (p: Problem | null): Problem | null =>
    p && path === '' ? { code: p.code, message: p.message } : p;
  const limit = rules.lengths ? (limitOf(TEXT_LIMITS, name) ?? TEXT_MAX) : Infinity;
  if (typeof v === 'string') return at(textProblem(v, label, rules.characters, limit));
  if (typeof v === 'number')
    return Number.isFinite(v)
      ? null
      : at({ code: 'outOfRange', message: `${label} is out of range.`, field: path });
  if (typeof v !== 'object' || v === null) return null;
  if (depth >= JSON_DEPTH_MAX)
    return at({
      code: 'tooDeep',
      message: `${label} nests deeper than ${JSON_DEPTH_MAX} levels.`,
      field: path,
    });
  const max = rules.lengths ? limitOf(OBJECT_LIMITS, name) : undefined;
  if (max !== undefined && JSON.stringify(v).length > max)
    return { code: 'tooLong', message: `${label} can be at most ${max} characters as JSON.`, field: path };
  if (Array.isArray(v)) {
    for (const [i, item] of v.entries()) {
      const p = inputProblem(item, rules, `${path}[${i}]`, name, depth + 1);
      if (p) return p;
    }
    return null;
  }
  for (const [key, item] of Object.entries(v)) {
    const keyLabel = path === '' ? 'A property name' : `A property name in ${path}`;
    const k = textProblem(key, keyLabel, rules.characters, TEXT_MAX);
    if (k) return { ...k, field: join(path, key) };
    const p = inputProblem(item, rules, join(path, key), key, depth + 1);
    if (p) return p;
  }
  return null;
}
