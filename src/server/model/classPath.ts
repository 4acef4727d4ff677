// The generic CRUD of SENTINEL-API §2.2 for one class path, declared rather than written: paged
// list, single GET (with a permission check, fixing the quirk), bulk POST/PATCH upserts returning
// {created, updated} all-or-nothing, PUT replace, PATCH merge, DELETE by body or id. A class gives
// its columns, list spec, visibility, writable fields and who may write; realtime notices are
// collected inside the transaction and published once it commits.

import { randomUUID } from 'node:crypto';
import { userChannel } from '../../domain/api.ts';
import { UUID } from '../../domain/constants.ts';
import type { Problem } from '../../domain/validate.ts';
import { noteRow } from '../activity/trail.ts';
import type { ServerContext } from '../context.ts';
import type { Queryable } from '../db/db.ts';
import { type Caller, mayOwn } from '../http/auth.ts';
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
import { audienceOf, bitsOn, type ResourceKind } from './permissions.ts';

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

/**
 * `event` (data: the row's id) on the user channel of everyone who can see each row, so their lists
 * of that kind refresh; one query for all the rows.
 */
export const toAudience =
  (kind: ResourceKind, idColumn: string, event: string) =>
  async (tx: Queryable, rows: Row[]): Promise<Notice[]> => {
    const seen = await audienceOf(
      tx,
      kind,
      rows.map((r) => r[idColumn]),
    );
    return rows
      .map((r) => ({
        channels: (seen.get(r[idColumn] as string) ?? []).map(userChannel),
        event,
        data: r[idColumn],
      }))
      .filter((n) => n.channels.length > 0);
  };

/**
 * How objects are written when a class needs more than `fields` mapped to columns of `table`: one
 * object at a time. The default (no writer) writes a whole bulk body in a few set-based statements.
 */
export interface Writer {
  /** Returns the written id, and whether it was made. */
  create(
    tx: Queryable,
    caller: Caller,
    obj: Json,
    id: string | null,
  ): Promise<{ id: string; created: boolean }>;
  update(tx: Queryable, caller: Caller, row: Row, obj: Json, mode: 'merge' | 'replace'): Promise<void>;
}

/**
 * A class path's declaration. Its hooks take every object of a write at once and answer in the
 * same order, so a bulk write of 250 objects costs a few statements rather than a few per object.
 */
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
  /**
   * For each new object's values: the id of a stored row it would collide with (to update instead),
   * the index of an earlier object of the same call it collides with (written once that one is), or
   * null.
   */
  upsertTarget?: (tx: Queryable, values: Record<string, unknown>[]) => Promise<(string | number | null)[]>;
  /** Columns derived at creation from the values and the caller (e.g. an attachment's origin). */
  derive?: (
    tx: Queryable,
    userId: string,
    values: Record<string, unknown>[],
  ) => Promise<Record<string, unknown>[]>;
  canCreate?: (tx: Queryable, userId: string, values: Record<string, unknown>[]) => Promise<boolean[]>;
  /** `objs` are what an update submits. */
  canChange?: (
    tx: Queryable,
    userId: string,
    rows: Row[],
    change: 'update' | 'delete',
    objs?: Json[],
  ) => Promise<boolean[]>;
  writer?: Writer;
  /** Soft delete: the SET clause, e.g. 'deleted = true'. */
  softDelete?: string;
  /**
   * A change of this class may take someone's access away (a member removed, a server taken out
   * of a group): after it commits, live subscriptions are checked again.
   */
  narrowsAccess?: true;
  /** Realtime notices for a change; runs in the transaction (before a delete, after a write). */
  notify?: (tx: Queryable, rows: Row[], change: Change) => Promise<Notice[]>;
  /** Extra checks after a write, in the transaction (rules spanning rows). */
  afterWrite?: (tx: Queryable, rows: Row[]) => Promise<void>;
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

/** What a write did to one object. */
interface Written {
  id: string;
  change: 'created' | 'updated';
}

/** Throws `forbidden` for the first object, in order, whose check failed. */
function refuseFirst(allowed: boolean[], objs: Json[]): void {
  const i = allowed.indexOf(false);
  if (i >= 0) throw forbidden(objs[i]);
}

/**
 * Set-based writes of `fields` to columns of the class table: rows that set different columns are
 * written by one statement per column list, so a bulk body of like objects is one INSERT and one
 * UPDATE.
 */
function columnWrites(spec: ClassSpec) {
  const fields = Object.entries(spec.fields ?? {});
  const castOf = (column: string) => fields.find(([, f]) => f.column === column)?.[1].cast ?? '';
  const valuesOf = (obj: Json, which: (f: Field) => boolean) => {
    const out: Record<string, unknown> = {};
    for (const [name, f] of fields) {
      if (!which(f) || !(name in obj)) continue;
      out[f.column] = f.parse ? f.parse(obj[name], name) : obj[name];
    }
    return out;
  };
  const requireAll = (obj: Json, names: string[]) => {
    const missing = names.filter((n) => obj[n] === undefined);
    if (missing.length > 0) throw missingProperties(missing);
  };
  const required = (which: (f: Field) => boolean) =>
    fields.filter(([, f]) => f.required && which(f)).map(([n]) => n);
  const editable = fields.filter(([, f]) => f.write === 'edit');
  /** Groups rows by the columns they set, so each group is one statement. */
  const byColumns = <T extends { values: Record<string, unknown> }>(rows: T[]) => {
    const groups = new Map<string, T[]>();
    for (const r of rows) {
      const key = Object.keys(r.values).join(',');
      groups.set(key, [...(groups.get(key) ?? []), r]);
    }
    return [...groups.entries()].map(([key, list]) => ({ columns: key ? key.split(',') : [], list }));
  };

  /** Sets columns of stored rows; `resets` go back to their defaults. */
  async function assign(
    tx: Queryable,
    rows: { id: string; values: Record<string, unknown>; resets: string[] }[],
  ): Promise<void> {
    const groups = new Map<string, typeof rows>();
    for (const r of rows) {
      if (Object.keys(r.values).length + r.resets.length === 0) continue;
      const key = `${Object.keys(r.values).join(',')};${r.resets.join(',')}`;
      groups.set(key, [...(groups.get(key) ?? []), r]);
    }
    // A VALUES list does not take its types from the UPDATE: each cell is cast to its column's.
    const types = await columnTypes(tx, spec.table);
    for (const list of groups.values()) {
      const columns = Object.keys(list[0].values);
      const p = new Params();
      const tuples = list.map(
        (r) =>
          `(${[`${p.add(r.id)}::uuid`, ...columns.map((c) => `${p.add(r.values[c])}::${types.get(c)}`)].join(', ')})`,
      );
      const sets = [
        ...columns.map((c, i) => `${c} = v.c${i}`),
        ...list[0].resets.map((c) => `${c} = DEFAULT`),
      ];
      await tx.query(
        `UPDATE ${spec.table} x SET ${sets.join(', ')}
           FROM (VALUES ${tuples.join(', ')}) AS v(${['id', ...columns.map((_, i) => `c${i}`)].join(', ')})
          WHERE x.${spec.idColumn} = v.id`,
        p.values,
      );
    }
  }

  return {
    /** An update's column values and resets, checked. */
    update(obj: Json, mode: 'merge' | 'replace') {
      if (mode === 'replace')
        requireAll(
          obj,
          required((f) => f.write === 'edit'),
        );
      return {
        values: valuesOf(obj, (f) => f.write === 'edit'),
        resets: mode === 'replace' ? editable.filter(([n]) => !(n in obj)).map(([, f]) => f.column) : [],
      };
    },
    /** A new object's column values, checked. */
    create(obj: Json, caller: Caller) {
      if (spec.owner) mayOwn(caller);
      requireAll(
        obj,
        required(() => true),
      );
      return { ...valuesOf(obj, () => true), ...spec.owner?.(caller) };
    },
    assign,
    /** Inserts rows (ids chosen already), one statement per column list. */
    async insert(tx: Queryable, rows: { id: string; values: Record<string, unknown> }[]): Promise<void> {
      for (const { columns, list } of byColumns(rows)) {
        const p = new Params();
        const tuples = list.map(
          (r) =>
            `(${[`${p.add(r.id)}::uuid`, ...columns.map((c) => `${p.add(r.values[c])}${castOf(c)}`)].join(', ')})`,
        );
        await tx.query(
          `INSERT INTO ${spec.table} (${[spec.idColumn, ...columns].join(', ')}) VALUES ${tuples.join(', ')}`,
          p.values,
        );
      }
    },
  };
}

/** Each column's SQL type, read once per table: a VALUES list needs them to hand values to an UPDATE. */
const typesOfTables = new Map<string, Map<string, string>>();
async function columnTypes(tx: Queryable, table: string): Promise<Map<string, string>> {
  let types = typesOfTables.get(table);
  if (!types) {
    const { rows } = await tx.query<{ name: string; type: string }>(
      `SELECT attname AS name, format_type(atttypid, atttypmod) AS type FROM pg_attribute
        WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped`,
      [table],
    );
    types = new Map(rows.map((r) => [r.name, r.type]));
    typesOfTables.set(table, types);
  }
  return types;
}

/** The rows of these ids, alive or not (`alive_` tells), in one query. */
async function rowsOf(tx: Queryable, spec: ClassSpec, ids: string[]): Promise<Map<string, Row>> {
  const asked = [...new Set(ids.filter((id) => UUID.test(id)))];
  if (asked.length === 0) return new Map();
  const { rows } = await tx.query<Row>(
    `SELECT x.*, ${spec.alive ?? 'true'} AS alive_ FROM ${spec.table} x WHERE ${spec.idColumn} = ANY($1::uuid[])`,
    [asked],
  );
  return new Map(rows.map((r) => [r[spec.idColumn] as string, r]));
}

/** The stored row without the liveness flag rowsOf adds. */
const stored = (row: Row): Row => {
  const { alive_: _, ...rest } = row;
  return rest;
};

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
  const columns = columnWrites(spec);
  const item = `${spec.path}/:id`;

  /** After a write commits: its notices, and a check of live subscriptions when access may have narrowed. */
  async function publish(notices: Notice[], socket?: string) {
    if (spec.narrowsAccess) ctx.accessNarrowed();
    for (const n of notices) await ctx.publisher.publish(n.channels, n.event, n.data, socket);
  }

  const idOf = (obj: Json): string | null => {
    const id = obj[spec.idProp];
    if (id === undefined || id === null) return null;
    if (typeof id !== 'string' || !UUID.test(id)) throw validation(`${spec.idProp} must be a UUID.`, obj);
    return id.toLowerCase();
  };

  /**
   * Writes objects in tx, in rounds in which each id appears once: an object naming an id that an
   * earlier one writes waits for the next round and finds its row, as when each was written in turn.
   * Answers what was written, in the objects' order, and the realtime notices.
   */
  async function writeMany(
    tx: Queryable,
    caller: Caller,
    objects: { obj: Json; id: string | null }[],
    mode: 'merge' | 'replace',
  ): Promise<{ written: Written[]; notices: Notice[] }> {
    const written: Written[] = [];
    const notices: Notice[] = [];
    let pending = objects.map((o, i) => ({ ...o, i }));
    while (pending.length > 0) {
      const named = new Set<string>();
      const round: typeof pending = [];
      const later: typeof pending = [];
      for (const o of pending) {
        if (o.id !== null && named.has(o.id)) later.push(o);
        else {
          if (o.id !== null) named.add(o.id);
          round.push(o);
        }
      }
      const waiting = await writeRound(tx, caller, round, mode, written, notices);
      pending = [...waiting, ...later].sort((x, y) => x.i - y.i);
    }
    return { written, notices };
  }

  /**
   * One round of writeMany: one read of the named rows, every object checked (the first refusal in
   * order wins), the writes (set-based for the column writer), one read of the written rows, then
   * afterWrite and notify over all of them. Returns the objects that must wait for the next round.
   */
  async function writeRound<T extends { obj: Json; id: string | null; i: number }>(
    tx: Queryable,
    caller: Caller,
    round: T[],
    mode: 'merge' | 'replace',
    written: Written[],
    notices: Notice[],
  ): Promise<T[]> {
    const named = await rowsOf(
      tx,
      spec,
      round.flatMap((o) => (o.id === null ? [] : [o.id])),
    );
    const updates: (T & { row: Row })[] = [];
    const creates: T[] = [];
    for (const o of round) {
      const row = o.id === null ? undefined : named.get(o.id);
      if (row?.alive_) updates.push({ ...o, row: stored(row) });
      else if (row)
        throw badRequest('duplicate', 'An object with this id was deleted.', { [spec.idProp]: o.id });
      else creates.push(o);
    }
    const waiting: T[] = [];
    const done: Written[] = [];
    const mayChange = async (list: { row: Row; obj: Json }[]) =>
      refuseFirst(
        (await spec.canChange?.(
          tx,
          caller.userId,
          list.map((u) => u.row),
          'update',
          list.map((u) => u.obj),
        )) ?? list.map(() => true),
        list.map((u) => u.obj),
      );
    if (spec.writer) {
      // A class with its own writer writes one object at a time.
      await mayChange(updates);
      for (const u of updates) {
        await spec.writer.update(tx, caller, u.row, u.obj, mode);
        written[u.i] = { id: u.row[spec.idColumn] as string, change: 'updated' };
      }
      for (const c of creates) {
        const made = await spec.writer.create(tx, caller, c.obj, c.id);
        written[c.i] = { id: made.id, change: made.created ? 'created' : 'updated' };
      }
      done.push(...round.map((o) => written[o.i]));
    } else {
      // Permission before validation, as for one object: a caller who may not change a row
      // learns nothing about what they sent.
      await mayChange(updates);
      const edits = updates.map((u) => ({
        ...u,
        id: u.row[spec.idColumn] as string,
        ...columns.update(u.obj, mode),
      }));
      const fresh = creates.map((c) => ({ ...c, values: columns.create(c.obj, caller) }));
      const targets =
        (await spec.upsertTarget?.(
          tx,
          fresh.map((f) => f.values),
        )) ?? fresh.map(() => null);
      const upserted = await rowsOf(
        tx,
        spec,
        targets.filter((t): t is string => typeof t === 'string'),
      );
      // A stored row is written once per round: a second object landing on it waits for the next.
      const claimed = new Set(edits.map((e) => e.id));
      const collisions: (T & { row: Row; id: string; values: Record<string, unknown>; resets: string[] })[] =
        [];
      const made: typeof fresh = [];
      fresh.forEach((f, k) => {
        const target = targets[k];
        const row = typeof target === 'string' ? upserted.get(target) : undefined;
        if (target === null) made.push(f);
        else if (typeof target === 'number' || claimed.has(target)) waiting.push(f);
        else if (!row?.alive_) throw forbidden(f.obj);
        else {
          claimed.add(target);
          collisions.push({
            ...f,
            row: stored(row),
            id: target,
            ...columns.update(f.obj, 'merge'),
            resets: [],
          });
        }
      });
      await mayChange(collisions);
      refuseFirst(
        (await spec.canCreate?.(
          tx,
          caller.userId,
          made.map((m) => m.values),
        )) ?? made.map(() => true),
        made.map((m) => m.obj),
      );
      const derived = await spec.derive?.(
        tx,
        caller.userId,
        made.map((m) => m.values),
      );
      const rows = made.map((m, k) => ({
        id: m.id ?? randomUUID(),
        values: { ...m.values, ...derived?.[k] },
      }));
      await columns.insert(tx, rows);
      await columns.assign(tx, [...edits, ...collisions]);
      for (const e of [...edits, ...collisions]) written[e.i] = { id: e.id, change: 'updated' };
      made.forEach((m, k) => {
        written[m.i] = { id: rows[k].id, change: 'created' };
      });
      done.push(...[...edits, ...collisions, ...made].map((o) => written[o.i]));
    }
    const after = await rowsOf(
      tx,
      spec,
      done.map((w) => w.id),
    );
    for (const row of after.values()) noteRow(row);
    const rowsWith = (change: Change) =>
      done.filter((w) => w.change === change).map((w) => stored(after.get(w.id) as Row));
    await spec.afterWrite?.(tx, [...after.values()].map(stored));
    for (const change of ['created', 'updated'] as const) {
      const rows = rowsWith(change);
      if (rows.length > 0) notices.push(...((await spec.notify?.(tx, rows, change)) ?? []));
    }
    return waiting;
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
    const objects = objectsOf(await readJson(c)).map((obj) => ({ obj, id: idOf(obj) }));
    const out = await db.transaction((tx) => writeMany(tx, caller, objects, 'merge'));
    await publish(out.notices, pusherSocketOf(c));
    const ids = (change: Change) => out.written.filter((w) => w.change === change).map((w) => w.id);
    return json(c, {
      created: await load(ids('created'), caller.userId),
      updated: await load(ids('updated'), caller.userId),
    });
  }
  router.authed('POST', spec.path, write, bulk);
  router.authed('PATCH', spec.path, write, bulk);

  router.authed('PUT', item, write, async (c, caller) => {
    const id = param(c, 'id');
    if (!UUID.test(id)) throw objectNotFound({ [spec.idProp]: id });
    const body = await readJson(c);
    if (!isObject(body)) throw badRequest('notObjectOrArray', 'Send an object.');
    const r = await db.transaction((tx) =>
      writeMany(tx, caller, [{ obj: body, id: id.toLowerCase() }], 'replace'),
    );
    await publish(r.notices, pusherSocketOf(c));
    const [w] = r.written;
    return json(c, await getObject(db, spec, w.id, caller.userId), w.change === 'created' ? 201 : 200);
  });

  router.authed('PATCH', item, write, async (c, caller) => {
    const id = param(c, 'id');
    const body = await readJson(c);
    if (!isObject(body)) throw badRequest('notObjectOrArray', 'Send an object.');
    const r = await db.transaction(async (tx) => {
      // Fixes the quirk: PATCH of an unknown id is an error, not a create.
      if (!(await getObject(tx, spec, id, caller.userId))) throw objectNotFound({ [spec.idProp]: id });
      return writeMany(tx, caller, [{ obj: body, id: id.toLowerCase() }], 'merge');
    });
    await publish(r.notices, pusherSocketOf(c));
    return json(c, await getObject(db, spec, r.written[0].id, caller.userId));
  });

  /** Deletes in three statements: the rows, the checks, one DELETE (or soft delete); unknown ids are skipped. */
  async function remove(ids: string[], caller: Caller, socket?: string) {
    const notices = await db.transaction(async (tx) => {
      const named = await rowsOf(
        tx,
        spec,
        ids.map((id) => id.toLowerCase()),
      );
      const rows = [...named.values()].filter((r) => r.alive_).map(stored);
      if (rows.length === 0) return [];
      for (const row of rows) noteRow(row);
      const allowed = (await spec.canChange?.(tx, caller.userId, rows, 'delete')) ?? rows.map(() => true);
      const refused = allowed.indexOf(false);
      if (refused >= 0) throw forbidden({ [spec.idProp]: rows[refused][spec.idColumn] });
      const out = (await spec.notify?.(tx, rows, 'deleted')) ?? [];
      await tx.query(
        spec.softDelete
          ? `UPDATE ${spec.table} SET ${spec.softDelete} WHERE ${spec.idColumn} = ANY($1::uuid[])`
          : `DELETE FROM ${spec.table} WHERE ${spec.idColumn} = ANY($1::uuid[])`,
        [rows.map((r) => r[spec.idColumn])],
      );
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
