// The body of a bulk write (SENTINEL-API §2.2): an object or an array of objects, never empty.

import { BULK_OBJECTS_MAX } from '../../domain/limits.ts';
import { ApiException, badRequest } from '../http/errors.ts';

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** One request must not hold the database: 3,000 groups in one took 5–7 s, every other request waiting. */
export function checkBulkSize(count: number): void {
  if (count > BULK_OBJECTS_MAX)
    throw new ApiException(
      413,
      `Send at most ${BULK_OBJECTS_MAX} objects per request; this one had ${count}.`,
      'tooManyObjects',
      { max: BULK_OBJECTS_MAX, sent: count },
    );
}

export function objectsOf(body: unknown): Record<string, unknown>[] {
  if (!Array.isArray(body) && !isObject(body))
    throw badRequest('notObjectOrArray', 'Send an object or an array.');
  const list = Array.isArray(body) ? body : [body];
  if (list.length === 0) throw badRequest('noObjects', 'No objects were submitted.');
  checkBulkSize(list.length);
  if (!list.every(isObject)) throw badRequest('nonObjectMember', 'Every member must be an object.');
  return list;
}

/** `missingProperties` with the original's wording ("Missing property x." / "Missing properties a and b."). */
export function requireProperties(obj: Record<string, unknown>, names: readonly string[]): void {
  const missing = names.filter((k) => obj[k] === undefined || obj[k] === null);
  if (missing.length === 0) return;
  const list = missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(', ')} and ${missing.at(-1)}`;
  throw badRequest(
    'missingProperties',
    `Missing ${missing.length === 1 ? 'property' : 'properties'} ${list}.`,
    {
      missing,
    },
  );
}

/**
 * Splits writes into rounds in which each key appears once, keeping their order: a set-based
 * statement applies one round, and a key written twice in one body (update after update, or after
 * its own create) is written again in the next, as one statement per object did.
 */
export function rounds<T>(items: readonly T[], key: (item: T) => string): T[][] {
  const out: T[][] = [];
  const seen = new Map<string, number>();
  for (const item of items) {
    const k = key(item);
    const round = seen.get(k) ?? 0;
    seen.set(k, round + 1);
    if (round === out.length) out.push([]);
    out[round].push(item);
  }
  return out;
}
