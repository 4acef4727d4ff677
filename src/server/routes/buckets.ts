// /sentinel/buckets and /sentinel/bucketValues (SENTINEL-API §3.12). Values are upserts on
// (bucket, player, key); writing one needs EditBuckets (see docs/api.md, quirks).

import { channelFor } from '../../domain/api.ts';
import { Perm } from '../../domain/permissions.ts';
import { bucketName, bucketValuePayload } from '../../domain/validate.ts';
import type { ServerContext } from '../context.ts';
import type { Queryable } from '../db/db.ts';
import type { ApiRouter } from '../http/router.ts';
import {
  type ClassSpec,
  check,
  parse,
  registerClassPath,
  requireFilter,
  toAudience,
} from '../model/classPath.ts';
import { canSee, holdsAllEach } from '../model/permissions.ts';

const USERNAME_FULL = `u.username || '#' || left(x.user_id::text, 8)`;

const editBuckets = (tx: Queryable, userId: string, rows: Record<string, unknown>[]) =>
  holdsAllEach(
    tx,
    'bucket',
    rows.map((r) => r.bucket_id),
    userId,
    Perm.EditBuckets,
  );

const BUCKETS: ClassSpec = {
  path: '/sentinel/buckets',
  idProp: 'bucketId',
  table: 'buckets',
  idColumn: 'bucket_id',
  columns: `x.bucket_id AS "bucketId", x.user_id AS "userId", u.username, ${USERNAME_FULL} AS "usernameFull",
    x.name, bp.permissions`,
  from: (
    user,
  ) => `buckets x JOIN bucket_permissions bp ON bp.bucket_id = x.bucket_id AND bp.user_id = ${user}::uuid
    JOIN users u ON u.user_id = x.user_id`,
  visible: () => 'true',
  listWhere: async () => [],
  list: {
    id: { param: 'bucketId', expr: 'x.bucket_id' },
    filters: {
      name: { kind: 'ilike', exprs: ['x.name'] },
      username: { kind: 'ilike', exprs: ['u.username'] },
    },
    sorts: { name: 'lower(x.name)', username: 'lower(u.username)' },
    defaultSort: 'name',
    tiebreak: 'x.bucket_id',
  },
  fields: {
    name: {
      column: 'name',
      write: 'edit',
      required: true,
      parse: (v) => {
        check(bucketName(v));
        return (v as string).trim();
      },
    },
  },
  owner: (caller) => ({ user_id: caller.userId }),
  canChange: (tx, userId, rows) => editBuckets(tx, userId, rows),
  notify: toAudience('bucket', 'bucket_id', 'bucketsUpdated'),
};

const BUCKET_VALUES: ClassSpec = {
  path: '/sentinel/bucketValues',
  idProp: 'bucketValueId',
  table: 'bucket_values',
  idColumn: 'bucket_value_id',
  columns: `x.bucket_value_id AS "bucketValueId", x.bucket_id AS "bucketId", b.name AS "bucketName",
    x.player_id AS "playerId", p.name AS "playerName", x.key, x.value`,
  from: () => `bucket_values x JOIN buckets b ON b.bucket_id = x.bucket_id
    LEFT JOIN players p ON p.player_id = x.player_id`,
  visible: (user) => canSee('bucket', 'x.bucket_id', user),
  listWhere: requireFilter([{ key: 'bucketId', kind: 'bucket' }], 'Filter by a bucketId you can see.'),
  list: {
    id: { param: 'bucketValueId', expr: 'x.bucket_value_id' },
    filters: {
      bucketId: { kind: 'exact', expr: 'x.bucket_id', type: 'uuid' },
      playerId: { kind: 'exact', expr: 'x.player_id', type: 'uuid' },
      key: { kind: 'ilike', exprs: ['x.key'] },
      value: { kind: 'ilike', exprs: ['x.value'] },
      playerName: { kind: 'ilike', exprs: ['p.name'] },
      bucketName: { kind: 'ilike', exprs: ['b.name'] },
    },
    sorts: {
      key: 'lower(x.key)',
      playerName: 'lower(p.name)',
      bucketName: 'lower(b.name)',
      value: 'x.value',
    },
    defaultSort: 'key',
    tiebreak: 'x.bucket_value_id',
  },
  fields: {
    bucketId: { column: 'bucket_id', write: 'create', required: true, parse: parse.uuid },
    playerId: {
      column: 'player_id',
      write: 'create',
      parse: (v) => {
        check(bucketValuePayload({ key: 'k', value: 'v', playerId: v }));
        return v === '' || v === undefined ? null : ((v as string | null)?.toLowerCase() ?? null);
      },
    },
    key: {
      column: 'key',
      write: 'create',
      required: true,
      parse: (v) => {
        check(bucketValuePayload({ key: v, value: 'v' }));
        return (v as string).trim();
      },
    },
    value: {
      column: 'value',
      write: 'edit',
      required: true,
      parse: (v) => {
        check(bucketValuePayload({ key: 'k', value: v }));
        return v;
      },
    },
  },
  // A value's key is unique per bucket and player, in any case: a second value of one key in one
  // body updates the first.
  upsertTarget: async (tx, values) => {
    const keyOf = (v: Record<string, unknown>) =>
      `${v.bucket_id} ${v.player_id ?? ''} ${String(v.key).toLowerCase()}`;
    const { rows } = await tx.query<{ id: string; bucket_id: string; player_id: string | null; key: string }>(
      `SELECT v.bucket_value_id AS id, v.bucket_id, v.player_id, v.key
         FROM unnest($1::uuid[], $2::uuid[], $3::text[]) AS k(bucket_id, player_id, key)
         JOIN bucket_values v ON v.bucket_id = k.bucket_id AND v.player_id IS NOT DISTINCT FROM k.player_id
                             AND lower(v.key) = lower(k.key)`,
      [values.map((v) => v.bucket_id), values.map((v) => v.player_id ?? null), values.map((v) => v.key)],
    );
    const stored = new Map(rows.map((r) => [keyOf(r), r.id]));
    const first = new Map<string, number>();
    return values.map((v, i) => {
      const key = keyOf(v);
      const earlier = first.get(key);
      if (!first.has(key)) first.set(key, i);
      return stored.get(key) ?? earlier ?? null;
    });
  },
  canCreate: editBuckets,
  canChange: (tx, userId, rows) => editBuckets(tx, userId, rows),
  notify: async (_tx, rows) =>
    rows.map((row) => ({
      channels: [channelFor('buckets', row.bucket_id as string)],
      event: 'valueUpdated',
      data: '',
    })),
};

export function registerBucketRoutes(router: ApiRouter, ctx: ServerContext): void {
  registerClassPath(router, ctx, BUCKETS);
  registerClassPath(router, ctx, BUCKET_VALUES);
}
