// The generic CRUD of SENTINEL-API §2.2 for one class path, declared rather than written: paged
// list, single GET (with a permission check, fixing the quirk), bulk POST/PATCH upserts returning
// {created, updated} all-or-nothing, PUT replace, PATCH merge, DELETE by body or id. A class gives
// its columns, list spec, visibility, writable fields and who may write; realtime notices are
// collected inside the transaction and published once it commits.

import { UUID } from '../../domain/constants.ts';
import type { Problem } from '../../domain/validate.ts';
import { noteRow } from '../activity/trail.ts';
import type { ServerContext } from '../context.ts';
import type { Queryable } from '../db/db.ts';
import type { Caller } from '../http/auth.ts';
import { readJson } from '../http/body.ts';
import { ApiException, badRequest, forbidden, objectNotFound, rejected, validation } from '../http/errors.ts';
import { type ListSpec, Params, planList, runList } from '../http/listQuery.ts';
import {
  type ApiRouter,
  type Ctx,
  json,
  noContent,
  pageJson,
  param,
  pusherSocketOf,
} from '../http/router.ts';
import { isObject, objectsOf } from './bulkBody.ts';
import { bitsOn, type ResourceKind } from './permissions.ts';

export type Row = Record<string, unknown>;
export type Json = Record<string, unknown>;
// The class paths' importers reach the bulk-body checks through here.
export { isObject, objectsOf, rejected };

export interface Field {
  column: string;
  /** 'create': only when the object is made; 'edit': also later. */
  write: 'create' | 'edit';
  required?: boolean;
  /** The column value of a JSON value; throws an ApiException naming the problem. */
  parse?: (value: unknown, field: string) => unknown;
  /** SQL cast for the parameter, e.g. '::jsonb'. */
  cast?: string;
}

export interface Notice {
  channels: string[];
  event: string;
  data: unknown;
}

export type Change = 'created' | 'updated' | 'deleted';

/** How objects are written; the default maps `fields` to columns of `table`. */
export interface Writer {
  /** Returns the written id, and whether it was made (an upsert may update instead). */
  create(
    tx: Queryable,
    caller: Caller,
    obj: Json,
    id: string | null,
  ): Promise<{ id: string; created: boolean }>;
  update(tx: Queryable, caller: Caller, row: Row, obj: Json, mode: 'merge' | 'replace'): Promise<void>;
}

export interface ClassSpec {
  path: string;
  idProp: string;
  table: string;
  idColumn: string;
  /** Scopes beyond `sentinel:read` (all methods) and `sentinel:write` (writes). */
  extraScopes?: string[];
  readOnly?: boolean;
  /** Select list (aliases are the JSON names) over `from`. */
  columns: string;
  /** FROM and joins; `user` is the caller's parameter. The class table's alias must be `x`. */
  from: (user: string) => string;
  list: ListSpec;
  /** Conditions every list gets; may throw 403 when a required filter is missing (§2.4). */
  listWhere: (
    q: URLSearchParams,
    user: string,
    p: Params,
    tx: Queryable,
    caller: Caller,
  ) => Promise<string[]>;
  /** Condition that one object is visible to the caller (single GET). */
  visible: (user: string) => string;
  /** Condition on the table row that still exists (soft deletion). */
  alive?: string;
  fields?: Record<string, Field>;
  /** Columns set from the caller at creation, e.g. the owner. */
  owner?: (caller: Caller) => Record<string, unknown>;
  /** Returns the id of an existing row the new object would collide with, to update instead (upserts). */
  upsertTarget?: (tx: Queryable, values: Record<string, unknown>) => Promise<string | null>;
  /** Columns derived at creation from the values and the caller (e.g. an attachment's origin). */
  derive?: (
    tx: Queryable,
    userId: string,
    values: Record<string, unknown>,
  ) => Promise<Record<string, unknown>>;
  canCreate?: (tx: Queryable, userId: string, values: Record<string, unknown>) => Promise<boolean>;
  /** `obj` is what an update submits. */
  canChange?: (
    tx: Queryable,
    userId: string,
    row: Row,
    change: 'update' | 'delete',
    obj?: Json,
  ) => Promise<boolean>;
  writer?: Writer;
  /** Soft delete: the SET clause, e.g. 'deleted = true'. */
  softDelete?: string;
  /** Realtime notices for a change; runs in the transaction (before a delete, after a write). */
  notify?: (tx: Queryable, row: Row, change: Change) => Promise<Notice[]>;
  /** Extra checks after a write, in the transaction (rules spanning rows). */
  afterWrite?: (tx: Queryable, row: Row) => Promise<void>;
}

const READ = ['sentinel:read'];
const WRITE = ['sentinel:read', 'sentinel:write'];

/** 400 missingProperties, worded as the original ("Missing property x." / "Missing properties a and b."). */
export function missingProperties(names: string[]): ApiException {
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  return badRequest(
    'missingProperties',
    `Missing ${names.length === 1 ? 'property' : 'properties'} ${list}.`,
    { missing: names },
  );
}

/** Throws a validator's problem, if any. */
export function check(p: Problem | null): void {
  if (p) throw rejected(p);
}

// Field parsers shared by the class paths.
export const parse = {
  uuid: (v: unknown, f: string) => {
    if (typeof v !== 'string' || !UUID.test(v)) throw validation(`${f} must be a UUID.`, { field: f });
    return v.toLowerCase();
  },
  uuidOrNull: (v: unknown, f: string) => (v === null || v === '' ? null : parse.uuid(v, f)),
  bool: (v: unknown, f: string) => {
    if (typeof v !== 'boolean') throw validation(`${f} must be true or false.`, { field: f });
    return v;
  },
  text: (max: number) => (v: unknown, f: string) => {
    if (typeof v !== 'string') throw validation(`${f} must be a string.`, { field: f });
    if (v.length > max) throw validation(`${f} can be at most ${max} characters.`, { field: f });
    return v;
  },
  textOrNull: (max: number) => (v: unknown, f: string) => (v === null ? null : parse.text(max)(v, f)),
  oneOf: (values: readonly string[]) => (v: unknown, f: string) => {
    if (typeof v !== 'string' || !values.includes(v))
      throw validation(`${f} must be one of ${values.join(', ')}.`, { field: f });
    return v;
  },
  object: (v: unknown, f: string) => {
    if (!isObject(v)) throw validation(`${f} must be an object.`, { field: f });
    return JSON.stringify(v);
  },
  /** A permission mask: a whole number of defined bits that includes Membership (bit 1). */
  mask: (v: unknown, f: string) => {
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
      throw validation(`${f} must be a whole number of permission bits.`, { field: f });
    if (v % 2 !== 1) throw validation(`${f} must include Membership (1).`, { field: f });
    return v;
  },
};

/** The default writer: fields → columns of the class table. */
function columnWriter(spec: ClassSpec): Writer {
  const fields = Object.entries(spec.fields ?? {});
  const valuesOf = (obj: Json, which: (f: Field) => boolean) => {
    const out: Record<string, unknown> = {};
    for (const [name, f] of fields) {
      if (!which(f) || !(name in obj)) continue;
      out[f.column] = f.parse ? f.parse(obj[name], name) : obj[name];
    }
    return out;
  };
  const castOf = (column: string) => fields.find(([, f]) => f.column === column)?.[1].cast ?? '';
  const requireAll = (obj: Json, names: string[]) => {
    const missing = names.filter((n) => obj[n] === undefined);
    if (missing.length > 0) throw missingProperties(missing);
  };
  async function assign(tx: Queryable, id: string, sets: Record<string, unknown>, resets: string[]) {
    const p = new Params();
    const parts = [
      ...Object.entries(sets).map(([col, v]) => `${col} = ${p.add(v)}${castOf(col)}`),
      ...resets.map((col) => `${col} = DEFAULT`),
    ];
    if (parts.length === 0) return;
    await tx.query(
      `UPDATE ${spec.table} SET ${parts.join(', ')} WHERE ${spec.idColumn} = ${p.add(id)}`,
      p.values,
    );
  }
  return {
    async create(tx, caller, obj, id) {
      requireAll(
        obj,
        fields.filter(([, f]) => f.required).map(([n]) => n),
      );
      const values = { ...valuesOf(obj, () => true), ...spec.owner?.(caller) };
      const existing = await spec.upsertTarget?.(tx, values);
      if (existing) {
        const row = await rowOf(tx, spec, existing);
        if (!row || !(await (spec.canChange?.(tx, caller.userId, row, 'update', obj) ?? true)))
          throw forbidden(obj);
        await assign(
          tx,
          existing,
          valuesOf(obj, (f) => f.write === 'edit'),
          [],
        );
        return { id: existing, created: false };
      }
      if (!(await (spec.canCreate?.(tx, caller.userId, values) ?? true))) throw forbidden(obj);
      Object.assign(values, await spec.derive?.(tx, caller.userId, values));
      const p = new Params();
      const cols = [spec.idColumn, ...Object.keys(values)];
      const vals = [`coalesce(${p.add(id)}::uuid, gen_random_uuid())`];
      for (const [col, v] of Object.entries(values)) vals.push(`${p.add(v)}${castOf(col)}`);
      const { rows } = await tx.query<{ id: string }>(
        `INSERT INTO ${spec.table} (${cols.join(', ')}) VALUES (${vals.join(', ')}) RETURNING ${spec.idColumn} AS id`,
        p.values,
      );
      return { id: rows[0].id, created: true };
    },
    async update(tx, _caller, row, obj, mode) {
      const editable = fields.filter(([, f]) => f.write === 'edit');
      if (mode === 'replace')
        requireAll(
          obj,
          editable.filter(([, f]) => f.required).map(([n]) => n),
        );
      const sets = valuesOf(obj, (f) => f.write === 'edit');
      const resets = mode === 'replace' ? editable.filter(([n]) => !(n in obj)).map(([, f]) => f.column) : [];
      await assign(tx, row[spec.idColumn] as string, sets, resets);
    },
  };
}

async function rowOf(tx: Queryable, spec: ClassSpec, id: string): Promise<Row | null> {
  if (!UUID.test(id)) return null;
  const { rows } = await tx.query<Row>(
    `SELECT * FROM ${spec.table} x WHERE ${spec.idColumn} = $1${spec.alive ? ` AND ${spec.alive}` : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

/** One object as the caller sees it, or null. */
export async function getObject<T = Json>(
  db: Queryable,
  spec: ClassSpec,
  id: string,
  userId: string,
): Promise<T | null> {
  if (!UUID.test(id)) return null;
  const { rows } = await db.query<T>(
    `SELECT ${spec.columns} FROM ${spec.from('$2')} WHERE x.${spec.idColumn} = $1 AND ${spec.visible('$2')}`,
    [id, userId],
  );
  return rows[0] ?? null;
}

export function registerClassPath(router: ApiRouter, ctx: ServerContext, spec: ClassSpec): void {
  const { db } = ctx;
  const extra = spec.extraScopes ?? [];
  const read = [...READ, ...extra];
  const write = [...WRITE, ...extra];
  const writer = spec.writer ?? columnWriter(spec);
  const item = `${spec.path}/:id`;

  async function publish(notices: Notice[], socket?: string) {
    for (const n of notices) await ctx.publisher.publish(n.channels, n.event, n.data, socket);
  }

  const idOf = (obj: Json): string | null => {
    const id = obj[spec.idProp];
    if (id === undefined || id === null) return null;
    if (typeof id !== 'string' || !UUID.test(id)) throw validation(`${spec.idProp} must be a UUID.`, obj);
    return id.toLowerCase();
  };

  /** Writes one object in tx: update when it exists (merge or replace), else create. */
  async function writeOne(
    tx: Queryable,
    caller: Caller,
    obj: Json,
    id: string | null,
    mode: 'merge' | 'replace',
  ) {
    const row = id ? await rowOf(tx, spec, id) : null;
    let change: Change;
    let written: string;
    if (row) {
      if (!(await (spec.canChange?.(tx, caller.userId, row, 'update', obj) ?? true))) throw forbidden(obj);
      await writer.update(tx, caller, row, obj, mode);
      written = row[spec.idColumn] as string;
      change = 'updated';
    } else {
      if (id && (await tx.query(`SELECT 1 FROM ${spec.table} WHERE ${spec.idColumn} = $1`, [id])).rows.length)
        throw badRequest('duplicate', 'An object with this id was deleted.', { [spec.idProp]: id });
      const made = await writer.create(tx, caller, obj, id);
      written = made.id;
      change = made.created ? 'created' : 'updated';
    }
    const after = (await rowOf(tx, spec, written)) as Row;
    noteRow(after);
    await spec.afterWrite?.(tx, after);
    return { id: written, change, notices: (await spec.notify?.(tx, after, change)) ?? [] };
  }

  /**
   * The written objects the caller sees, in the order written, in one query: one query per object
   * queued 250 reads at once on the embedded database, ahead of every other request.
   */
  async function load(ids: string[], userId: string): Promise<Json[]> {
    if (ids.length === 0) return [];
    const { rows } = await db.query<Json>(
      `SELECT ${spec.columns} FROM ${spec.from('$2')} WHERE x.${spec.idColumn} = ANY($1::uuid[]) AND ${spec.visible('$2')}`,
      [ids, userId],
    );
    const byId = new Map(rows.map((r) => [r[spec.idProp], r]));
    return ids.map((id) => byId.get(id)).filter((o): o is Json => o !== undefined);
  }

  router.authed('GET', spec.path, read, async (c, caller) => {
    const q = new URL(c.req.url).searchParams;
    const p = new Params();
    const user = p.add(caller.userId);
    const where = [spec.visible(user), ...(await spec.listWhere(q, user, p, db, caller))];
    const plan = planList(q, spec.list, p);
    return pageJson(c, await runList(db, { columns: spec.columns, from: spec.from(user), where }, plan, p));
  });

  router.authed('GET', item, read, async (c, caller) => {
    const id = param(c, 'id');
    const obj = await getObject(db, spec, id, caller.userId);
    if (!obj) throw objectNotFound({ [spec.idProp]: id });
    return json(c, obj);
  });

  if (spec.readOnly) return;

  async function bulk(c: Ctx, caller: Caller) {
    const objects = objectsOf(await readJson(c));
    const out = await db.transaction(async (tx) => {
      const created: string[] = [];
      const updated: string[] = [];
      const notices: Notice[] = [];
      for (const obj of objects) {
        const r = await writeOne(tx, caller, obj, idOf(obj), 'merge');
        (r.change === 'created' ? created : updated).push(r.id);
        notices.push(...r.notices);
      }
      return { created, updated, notices };
    });
    await publish(out.notices, pusherSocketOf(c));
    return json(c, {
      created: await load(out.created, caller.userId),
      updated: await load(out.updated, caller.userId),
    });
  }
  router.authed('POST', spec.path, write, bulk);
  router.authed('PATCH', spec.path, write, bulk);

  router.authed('PUT', item, write, async (c, caller) => {
    const id = param(c, 'id');
    if (!UUID.test(id)) throw objectNotFound({ [spec.idProp]: id });
    const body = await readJson(c);
    if (!isObject(body)) throw badRequest('notObjectOrArray', 'Send an object.');
    const r = await db.transaction((tx) => writeOne(tx, caller, body, id.toLowerCase(), 'replace'));
    await publish(r.notices, pusherSocketOf(c));
    return json(c, await getObject(db, spec, r.id, caller.userId), r.change === 'created' ? 201 : 200);
  });

  router.authed('PATCH', item, write, async (c, caller) => {
    const id = param(c, 'id');
    const body = await readJson(c);
    if (!isObject(body)) throw badRequest('notObjectOrArray', 'Send an object.');
    const r = await db.transaction(async (tx) => {
      // Fixes the quirk: PATCH of an unknown id is an error, not a create.
      if (!(await getObject(tx, spec, id, caller.userId))) throw objectNotFound({ [spec.idProp]: id });
      return writeOne(tx, caller, body, id.toLowerCase(), 'merge');
    });
    await publish(r.notices, pusherSocketOf(c));
    return json(c, await getObject(db, spec, r.id, caller.userId));
  });

  async function remove(ids: string[], caller: Caller, socket?: string) {
    const notices = await db.transaction(async (tx) => {
      const out: Notice[] = [];
      for (const id of ids) {
        const row = await rowOf(tx, spec, id);
        if (!row) continue;
        noteRow(row);
        if (!(await (spec.canChange?.(tx, caller.userId, row, 'delete') ?? true)))
          throw forbidden({ [spec.idProp]: id });
        out.push(...((await spec.notify?.(tx, row, 'deleted')) ?? []));
        await tx.query(
          spec.softDelete
            ? `UPDATE ${spec.table} SET ${spec.softDelete} WHERE ${spec.idColumn} = $1`
            : `DELETE FROM ${spec.table} WHERE ${spec.idColumn} = $1`,
          [id],
        );
      }
      return out;
    });
    await publish(notices, socket);
  }

  router.authed('DELETE', item, write, async (c, caller) => {
    await remove([param(c, 'id')], caller, pusherSocketOf(c));
    return noContent(c);
  });

  router.authed('DELETE', spec.path, write, async (c, caller) => {
    const ids = objectsOf(await readJson(c)).map((o) => idOf(o));
    await remove(
      ids.filter((id): id is string => id !== null),
      caller,
      pusherSocketOf(c),
    );
    return noContent(c);
  });
}

/** A list that must be narrowed by one of `keys` to a resource the caller can see, else 403 (§2.4). */
export function requireFilter(
  rules: { key: string; kind: ResourceKind }[],
  reason: string,
): ClassSpec['listWhere'] {
  return async (q, _user, _p, tx, caller) => {
    for (const r of rules) {
      const v = q.get(r.key);
      if (v !== null && (await bitsOn(tx, r.kind, v, caller.userId)) !== null) return [];
    }
    throw new ApiException(403, 'Forbidden', 'forbidden', reason);
  };
}
