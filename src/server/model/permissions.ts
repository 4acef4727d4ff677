// The caller's resolved bits on one resource, read from the permission views of
// 002_permissions.sql (the one place §7 is computed); null when the caller has no access at all.

import { UUID } from '../../domain/constants.ts';
import { hasAll, hasAny } from '../../domain/permissions.ts';
import type { Queryable } from '../db/db.ts';

export type ResourceKind = 'service' | 'group' | 'bucket' | 'script';

const VIEW: Record<ResourceKind, { view: string; id: string }> = {
  service: { view: 'service_permissions', id: 'service_id' },
  group: { view: 'group_permissions', id: 'group_id' },
  bucket: { view: 'bucket_permissions', id: 'bucket_id' },
  script: { view: 'script_permissions', id: 'script_id' },
};

export async function bitsOn(
  db: Queryable,
  kind: ResourceKind,
  id: unknown,
  userId: string,
): Promise<number | null> {
  if (typeof id !== 'string' || !UUID.test(id)) return null;
  const v = VIEW[kind];
  const { rows } = await db.query<{ permissions: number }>(
    `SELECT permissions FROM ${v.view} WHERE ${v.id} = $1 AND user_id = $2`,
    [id, userId],
  );
  return rows[0]?.permissions ?? null;
}

/** The caller's bits on each of many resources of one kind, in one query (null: no access). */
export async function bitsOnEach(
  db: Queryable,
  kind: ResourceKind,
  ids: unknown[],
  userId: string,
): Promise<(number | null)[]> {
  const asked = [...new Set(ids.filter((id): id is string => typeof id === 'string' && UUID.test(id)))];
  if (asked.length === 0) return ids.map(() => null);
  const v = VIEW[kind];
  const { rows } = await db.query<{ id: string; permissions: number }>(
    `SELECT ${v.id} AS id, permissions FROM ${v.view} WHERE ${v.id} = ANY($1::uuid[]) AND user_id = $2`,
    [asked, userId],
  );
  const bits = new Map(rows.map((r) => [r.id, r.permissions]));
  return ids.map((id) => (typeof id === 'string' ? (bits.get(id.toLowerCase()) ?? null) : null));
}

/** holdsAll for each of many resources of one kind, in one query. */
export async function holdsAllEach(
  db: Queryable,
  kind: ResourceKind,
  ids: unknown[],
  userId: string,
  bits: number,
): Promise<boolean[]> {
  return (await bitsOnEach(db, kind, ids, userId)).map((mask) => mask !== null && hasAll(mask, bits));
}

/** A check of the caller's mask on a resource: every one of the bits, or at least one. */
const holding =
  (test: (mask: number, bits: number) => boolean) =>
  async (db: Queryable, kind: ResourceKind, id: unknown, userId: string, bits: number): Promise<boolean> => {
    const mask = await bitsOn(db, kind, id, userId);
    return mask !== null && test(mask, bits);
  };

/** Every one of `bits` on the resource. */
export const holdsAll = holding(hasAll);
/** At least one of `bits` on the resource. */
export const holdsAny = holding(hasAny);

/** Who can see each of many resources of one kind (id → user ids), in one query: whom a list change concerns. */
export async function audienceOf(
  db: Queryable,
  kind: ResourceKind,
  ids: unknown[],
): Promise<Map<string, string[]>> {
  const v = VIEW[kind];
  const { rows } = await db.query<{ id: string; user_id: string }>(
    `SELECT ${v.id} AS id, user_id FROM ${v.view} WHERE ${v.id} = ANY($1::uuid[])`,
    [ids],
  );
  const out = new Map<string, string[]>();
  for (const r of rows) out.set(r.id, [...(out.get(r.id) ?? []), r.user_id]);
  return out;
}

/** SQL: the caller ($user) has any access to the resource whose id is `idExpr`. */
export const canSee = (kind: ResourceKind, idExpr: string, user: string): string =>
  `EXISTS (SELECT 1 FROM ${VIEW[kind].view} pv WHERE pv.${VIEW[kind].id} = ${idExpr} AND pv.user_id = ${user}::uuid)`;
