// /sentinel/buckets and /sentinel/bucketValues (SENTINEL-API §3.12). Values are upserts on
// (bucket, player, key); writing one needs EditBuckets (see docs/api.md, quirks).

import { channelFor, userChannel } from '../../domain/api.ts';
import { Perm } from '../../domain/permissions.ts';
import { bucketName, bucketValuePayload } from '../../domain/validate.ts';
import type { ServerContext } from '../context.ts';
import type { Queryable } from '../db/db.ts';
import type { ApiRouter } from '../http/router.ts';
import {
  type ClassSpec,
  check,
  type Notice,
  parse,
  registerClassPath,
  requireFilter,
} from '../model/classPath.ts';
import { canSee, holdsAll } from '../model/permissions.ts';

const USERNAME_FULL = `u.username || '#' || left(x.user_id::text, 8)`;

async function bucketsUpdated(tx: Queryable, bucketId: unknown): Promise<Notice[]> {
  const { rows } = await tx.query<{ user_id: string }>(
    'SELECT user_id FROM bucket_permissions WHERE bucket_id = $1',
    [bucketId],
  );
  return [{ channels: rows.map((r) => userChannel(r.user_id)), event: 'bucketsUpdated', data: bucketId }];
}

const editBuckets = (tx: Queryable, userId: string, bucketId: unknown) =>
  holdsAll(tx, 'bucket', bucketId, userId, Perm.EditBuckets);

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
  canChange: (tx, userId, row) => editBuckets(tx, userId, row.bucket_id),
  notify: (tx, row) => bucketsUpdated(tx, row.bucket_id),
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
  upsertTarget: async (tx, v) => {
    const { rows } = await tx.query<{ id: string }>(
      `SELECT bucket_value_id AS id FROM bucket_values
        WHERE bucket_id = $1 AND player_id IS NOT DISTINCT FROM $2::uuid AND lower(key) = lower($3)`,
      [v.bucket_id, v.player_id ?? null, v.key],
    );
    return rows[0]?.id ?? null;
  },
  canCreate: (tx, userId, v) => editBuckets(tx, userId, v.bucket_id),
  canChange: (tx, userId, row) => editBuckets(tx, userId, row.bucket_id),
  notify: async (_tx, row) => [
    { channels: [channelFor('buckets', row.bucket_id as string)], event: 'valueUpdated', data: '' },
  ],
};

export function registerBucketRoutes(router: ApiRouter, ctx: ServerContext): void {
  registerClassPath(router, ctx, BUCKETS);
  registerClassPath(router, ctx, BUCKET_VALUES);
}
