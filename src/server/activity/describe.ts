// What an entry of the activity trail says about a write, read from the request alone (route,
// path parameters, JSON body) so that no route describes its own writes: the kind and action,
// the object acted on, a one-line summary, and the servers and groups whose trail shows it.

import { UUID } from '../../domain/constants.ts';
import { isEpochSeconds } from '../../domain/limits.ts';
import { inWords } from '../../domain/words.ts';

export interface WriteFacts {
  kind: string;
  action: string;
  target: string | null;
  summary: string;
  serviceIds: string[];
  groupIds: string[];
}

const VERB: Record<string, string> = { POST: 'create', PUT: 'replace', PATCH: 'update', DELETE: 'delete' };
/** Routes that send rather than create; every other POST makes or upserts objects. */
const SENDS: Record<string, string> = { '/sentinel/gameCommands': 'run', '/sentinel/chat': 'send' };
/**
 * Never copied into a summary: keys whose value lets its holder act as someone, or post where
 * they post (a webhook's address, an alert destination's).
 */
const SECRET = /key|secret|password|token|webhook|address|code|credential/i;
/** Routes whose last segment is not the action a person would name. */
const NAMED: Record<string, { kind: string; action: string }> = {
  'POST /sentinel/account/totp': { kind: 'twoFactor', action: 'start setup' },
  'POST /sentinel/account/totp/confirm': { kind: 'twoFactor', action: 'turn on' },
  'DELETE /sentinel/account/totp': { kind: 'twoFactor', action: 'turn off' },
  'POST /sentinel/account/backupCodes': { kind: 'backupCodes', action: 'replace' },
  'DELETE /sentinel/account/signIns/:signInId': { kind: 'signIns', action: 'sign out' },
  'POST /sentinel/account/passkeys': { kind: 'passkeys', action: 'add' },
  'POST /sentinel/account/passkeys/options': { kind: 'passkeys', action: 'start adding' },
};
const SUMMARY_MAX = 300;
const OBJECTS_SUMMED = 5;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const objectsOf = (body: unknown): Record<string, unknown>[] =>
  (Array.isArray(body) ? body : [body]).filter(isObject);

const isUuid = (v: unknown): v is string => typeof v === 'string' && UUID.test(v);

/** Fields that hold a moment as epoch seconds (a ban's expiration): a reader sees a date. */
const MOMENT = /expiration|time|date/i;

/** A field's value as a reader sees it: a moment as its UTC date and time, the rest as given. */
function valueText(key: string, v: unknown): string {
  if (typeof v === 'number' && MOMENT.test(key) && isEpochSeconds(v) && v > 0)
    return `${new Date(v * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return String(v);
}

/**
 * Scalar fields as `Name: value` (the field's name in words), one level of nested objects as
 * `Name, sub: value`; never ids or secrets.
 */
function fieldsOf(o: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(o).flatMap(([k, v]) => {
    if (k.endsWith('Id') || SECRET.test(k) || v === null || v === undefined) return [];
    if (isObject(v)) return prefix ? [] : fieldsOf(v, `${inWords(k)}, `);
    const name = prefix ? `${prefix}${inWords(k).toLowerCase()}` : inWords(k);
    return typeof v === 'object' ? [] : [`${name}: ${valueText(k, v)}`];
  });
}

function summaryOf(objects: Record<string, unknown>[]): string {
  const parts = objects.slice(0, OBJECTS_SUMMED).map((o) => fieldsOf(o).join(', '));
  if (objects.length > OBJECTS_SUMMED) parts.push(`${objects.length - OBJECTS_SUMMED} more`);
  const text = parts.filter(Boolean).join('; ');
  return text.length > SUMMARY_MAX ? `${text.slice(0, SUMMARY_MAX - 1)}…` : text;
}

/** The first id the body names other than its server or group: the player banned, the user added. */
function targetOf(objects: Record<string, unknown>[]): string | null {
  for (const o of objects)
    for (const [k, v] of Object.entries(o))
      if (k.endsWith('Id') && k !== 'serviceId' && k !== 'groupId' && typeof v === 'string') return v;
  const first = objects[0];
  return typeof first?.serviceId === 'string'
    ? first.serviceId
    : typeof first?.groupId === 'string'
      ? first.groupId
      : null;
}

export function describeWrite(
  method: string,
  route: string,
  params: Record<string, string>,
  body: unknown,
): WriteFacts {
  const segments = route.split('/').filter(Boolean); // ['sentinel', kind, ...]
  const kind = segments[1] ?? route;
  const trailing = segments.length > 2 ? segments[segments.length - 1] : '';
  const named = NAMED[`${method} ${route}`];
  const action =
    named?.action ??
    (trailing && !trailing.startsWith(':') ? trailing : (SENDS[route] ?? VERB[method] ?? method));
  const objects = objectsOf(body);
  const serviceIds = new Set<string>();
  const groupIds = new Set<string>();
  for (const o of objects) {
    if (isUuid(o.serviceId)) serviceIds.add(o.serviceId.toLowerCase());
    if (isUuid(o.groupId)) groupIds.add(o.groupId.toLowerCase());
  }
  // /sentinel/services/:serviceId… and /sentinel/groups/:id… are writes to that server or group.
  const pathId = segments[2]?.startsWith(':') ? params[segments[2].slice(1)] : undefined;
  if (isUuid(pathId) && kind === 'services') serviceIds.add(pathId.toLowerCase());
  if (isUuid(pathId) && kind === 'groups') groupIds.add(pathId.toLowerCase());
  return {
    kind: named?.kind ?? kind,
    action,
    target: pathId ?? targetOf(objects),
    summary: summaryOf(objects),
    serviceIds: [...serviceIds],
    groupIds: [...groupIds],
  };
}
