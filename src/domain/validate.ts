// Validators with the spec's messages (SPEC §5). Each returns null when valid, else the message,
// so the console can show it in place and the server can answer it in an error body.

import { BUCKET_MESSAGES } from './buckets.ts';
import {
  DINO_LIMITS,
  GIVE_ITEM,
  isDinoColors,
  PIE_CHARACTER_ID,
  SERVER_LANGUAGES_MAX,
  STRUCTURE_RANGE,
  SUPPORTED_LANGUAGES,
  UUID,
} from './constants.ts';
import { levelProblem, type StatPoints, statPointsProblem, traitsProblem } from './dinoBuilder.ts';
import { gameIdProvider } from './gameIds.ts';
import { GROUP_NAME_MIN, Msg, NOTE_MIN_LENGTH } from './messages.ts';
import { CONTEXT_NAMES, isTriggeredContext } from './scripts/contexts.ts';
import { cronExpression } from './scripts/cron.ts';
import { parseSimple } from './scripts/simple.ts';

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
  if (!gameIdProvider(t) && !UUID.test(t)) return Msg.banPlayerFormat;
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
    return problem('emptyName', BUCKET_MESSAGES.nameRequired, 'name');
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

export { cronExpression };

export const SCRIPT_LANGUAGES = ['Simple', 'JavaScript'] as const;
/** Every context a handler may name (the catalogue's). */
export const SCRIPT_CONTEXTS: readonly string[] = CONTEXT_NAMES;
export const PARAMETER_TYPES = ['String', 'Number', 'Boolean'] as const;
const PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ARGUMENT_KEYS = ['default', 'name', 'required', 'type'];

/** A JSON object (not an array, not null). */
export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function scriptArguments(args: unknown): boolean {
  return (
    Array.isArray(args) &&
    args.every(
      (a) =>
        isRecord(a) &&
        Object.keys(a).sort().join() === ARGUMENT_KEYS.join() &&
        typeof a.name === 'string' &&
        PARAMETER_NAME.test(a.name) &&
        (PARAMETER_TYPES as readonly unknown[]).includes(a.type) &&
        typeof a.required === 'boolean',
    )
  );
}

/** One script event (SENTINEL-API §3.13). */
export function scriptEvent(e: unknown, i = 0): Problem | null {
  const field = `events[${i}]`;
  if (!isRecord(e)) return problem('badContext', 'Each event must be an object.', field);
  if (!(SCRIPT_LANGUAGES as readonly unknown[]).includes(e.language))
    return problem(
      'badLanguage',
      `Scripts are written in ${SCRIPT_LANGUAGES.join(' or ')}.`,
      `${field}.language`,
    );
  if (typeof e.context !== 'string' || !SCRIPT_CONTEXTS.includes(e.context))
    return problem(
      'badContext',
      `${String(e.context)} is not an event a script can handle.`,
      `${field}.context`,
    );
  if (typeof e.code !== 'string') return problem('badContext', 'The event needs code.', `${field}.code`);
  if (isTriggeredContext(e.context)) {
    const p = triggerProblem(e, field);
    if (p) return p;
  }
  if (e.language === 'Simple') {
    const simple = parseSimple(e.code, e.context);
    if (typeof simple === 'string') return problem('badCode', simple, `${field}.code`);
  }
  return null;
}

/** The keyword and arguments a triggered context needs. */
function triggerProblem(e: Record<string, unknown>, field: string): Problem | null {
  if (typeof e.keyword !== 'string' || e.keyword.trim() === '')
    return problem('emptyKeyword', `A ${e.context} event needs a keyword.`, `${field}.keyword`);
  if (e.context === 'cron' && !cronExpression(e.keyword))
    return problem('badCronExpression', `${e.keyword} is not a valid cron expression.`, `${field}.keyword`);
  if (!scriptArguments(e.arguments ?? []))
    return problem(
      'badArguments',
      'Arguments are a list of {name, type, default, required}: names are letters, digits and _, not starting with a digit; types String, Number or Boolean.',
      `${field}.arguments`,
    );
  return null;
}

export function scriptParameters(params: unknown): Problem | null {
  const ok =
    Array.isArray(params) &&
    params.every(
      (p) =>
        isRecord(p) &&
        typeof p.name === 'string' &&
        PARAMETER_NAME.test(p.name) &&
        (PARAMETER_TYPES as readonly unknown[]).includes(p.type),
    ) &&
    new Set(params.map((p) => (p as { name: string }).name)).size === params.length;
  return ok
    ? null
    : problem(
        'badParameters',
        'Parameters are a list of {name, type, default} with unique names (letters, digits and _, not starting with a digit) and types String, Number or Boolean.',
        'parameters',
      );
}

/** A script save (create, or the fields an update sends). */
export function scriptSave(s: Record<string, unknown>): Problem | null {
  if ('name' in s && (typeof s.name !== 'string' || s.name.trim() === ''))
    return problem('emptyName', 'A script needs a name.', 'name');
  for (const key of ['preview', 'description', 'commonJavascript'] as const)
    if (key in s && typeof s[key] !== 'string') return problem('validation', `${key} must be text.`, key);
  if ('parameters' in s) {
    const p = scriptParameters(s.parameters);
    if (p) return p;
  }
  if ('events' in s) {
    if (!Array.isArray(s.events)) return problem('badContext', 'events must be a list.', 'events');
    for (const [i, e] of s.events.entries()) {
      const p = scriptEvent(e, i);
      if (p) return p;
    }
  }
  return null;
}

/** Give Item stat fields in the order of the game's stat indices 0–7. */
export const GIVE_ITEM_STATS = [
  'genericQuality',
  'armor',
  'durability',
  'damage',
  'ammo',
  'hypothermal',
  'weight',
  'hyperthermal',
] as const;

/** Blueprint paths look like /Game/…/Name.Name or /Game/…/Name.Name_C. */
const BLUEPRINT_PATH = /^\/[^\s]*\/[^/\s.]+\.[^/\s.]+$/;
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** POST /sentinel/characters/{id}/giveItem (SENTINEL-API §2.3, SPEC §5 Give Item). */
export function giveItemPayload(b: Record<string, unknown>): Problem | null {
  const missing = ['itemPath', 'quantity'].filter((k) => b[k] === undefined);
  if (missing.length > 0) return problem('missingKeys', `Missing ${missing.join(' and ')}.`, missing[0]);
  if (typeof b.itemPath !== 'string' || itemPath(b.itemPath) || !BLUEPRINT_PATH.test(b.itemPath.trim()))
    return problem('invalidPath', Msg.itemPathBad, 'itemPath');
  const quantity = giveItemQuantity(isNum(b.quantity) ? b.quantity : Number.NaN);
  if (quantity) return problem('invalidQuantity', quantity, 'quantity');
  if (b.quality !== undefined) {
    const q = giveItemQuality(isNum(b.quality) ? b.quality : Number.NaN);
    if (q) return problem('invalidQuality', q, 'quality');
  }
  if (b.minRandomQuality !== undefined) {
    const q = minRandomQuality(isNum(b.minRandomQuality) ? b.minRandomQuality : Number.NaN);
    if (q) return problem('invalidQuality', q, 'minRandomQuality');
  }
  for (const flag of ['asBlueprint', 'respectStatClamps'] as const)
    if (b[flag] !== undefined && typeof b[flag] !== 'boolean')
      return problem('validation', `${flag} must be true or false.`, flag);
  for (const stat of [...GIVE_ITEM_STATS, 'itemRating'] as const) {
    if (b[stat] === undefined || b[stat] === null) continue;
    const s = giveItemStat(isNum(b[stat]) ? (b[stat] as number) : Number.NaN);
    if (s) return problem('invalidStat', s, stat);
  }
  return null;
}

/** POST /sentinel/characters/{id}/giveDino (SENTINEL-API §2.3: age and imprint are fractions 0–1). */
export function giveDinoPayload(b: Record<string, unknown>): Problem | null {
  if (typeof b.dinoPath !== 'string' || b.dinoPath.trim() === '' || !b.dinoPath.trim().startsWith('/'))
    return problem('badDinoPath', 'Choose a dino: its path starts with /.', 'dinoPath');
  const blank = (v: unknown) => v === undefined || v === null || v === '';
  if (!blank(b.name) && typeof b.name !== 'string')
    return problem('invalidName', 'The name must be text.', 'name');
  const level = blank(b.level) ? null : isNum(b.level) ? b.level : Number.NaN;
  const badLevel = levelProblem(level);
  if (badLevel) return problem('invalidLevel', badLevel, 'level');
  for (const [key, code, label] of [
    ['age', 'invalidAge', 'Age'],
    ['imprint', 'invalidImprint', 'Imprint'],
  ] as const)
    if (!blank(b[key]) && !(isNum(b[key]) && (b[key] as number) >= 0 && (b[key] as number) <= 1))
      return problem(code, `${label} must be from 0 to 1 (0% to 100%), or blank.`, key);
  if (!blank(b.isFemale) && typeof b.isFemale !== 'boolean')
    return problem('invalidGender', 'Gender is male, female or blank.', 'isFemale');
  if (b.isSterilized !== undefined && typeof b.isSterilized !== 'boolean')
    return problem('invalidSterilized', 'Sterilized is yes or no.', 'isSterilized');
  if (b.colors !== undefined && !isDinoColors(b.colors))
    return problem('invalidColors', `Give exactly ${DINO_LIMITS.colorRegions} colour numbers.`, 'colors');
  if (
    b.traits !== undefined &&
    !(Array.isArray(b.traits) && b.traits.every((t) => typeof t === 'string' && t !== ''))
  )
    return problem('invalidTraits', 'Traits are a list of trait names.', 'traits');
  const badTraits = Array.isArray(b.traits) ? traitsProblem(b.traits as string[]) : null;
  if (badTraits) return problem('invalidTraits', badTraits, 'traits');
  if (b.stats !== undefined) {
    const ok =
      isRecord(b.stats) &&
      Object.entries(b.stats).every(
        ([k, v]) =>
          /^(\d|1[01])$/.test(k) &&
          Number.isInteger(v) &&
          (v as number) >= 0 &&
          (v as number) <= DINO_LIMITS.wildPoints[1],
      );
    if (!ok)
      return problem('invalidStats', 'Stats are points 0 to 255 keyed by stat number 0 to 11.', 'stats');
    const fit = statPointsProblem(b.stats as StatPoints, level);
    if (fit) return problem('invalidStats', fit, 'stats');
  }
  return null;
}

/** POST /sentinel/dinos/{id}/edit: only these keys reach the game. */
export function editDinoPayload(b: Record<string, unknown>): Problem | null {
  const keys = (['isSterilized', 'isFemale'] as const).filter((k) => b[k] !== undefined);
  if (keys.length === 0) return problem('noApprovedKeys', 'Send isSterilized or isFemale.');
  const bad = keys.find((k) => typeof b[k] !== 'boolean');
  return bad ? problem('validation', `${bad} must be true or false.`, bad) : null;
}
