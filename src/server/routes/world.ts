// The generic class paths for survivors, tribes and dinos (SENTINEL-API §2.2/§2.4, §3.9–3.11):
// list with every filter and sort, get one, update (dinos: status and gender; survivors and
// tribes have nothing editable) and delete, needing ControlServices on the service. Creating is
// not a feature of these classes: the game reports them. Fixes: a single GET checks visibility
// (404 otherwise), and PATCH of an unknown id is 404 instead of a create.

import { UUID } from '../../domain/constants.ts';
import { hasAll, Perm } from '../../domain/permissions.ts';
import { noteRow } from '../activity/trail.ts';
import type { ServerContext } from '../context.ts';
import type { Queryable } from '../db/db.ts';
import { readJson } from '../http/body.ts';
import { badRequest, forbidden, objectNotFound, validation } from '../http/errors.ts';
import { Params, planList, runList } from '../http/listQuery.ts';
import { type ApiRouter, type Ctx, json, noContent, pageJson, param } from '../http/router.ts';
import { isObject, objectsOf, rounds } from '../model/bulkBody.ts';
import { CHARACTER } from '../model/character.ts';
import { DINO } from '../model/dino.ts';
import { TRIBE } from '../model/tribe.ts';
import type { WorldClass } from '../model/worldClass.ts';

const READ = ['sentinel:read'];
const WRITE = ['sentinel:read', 'sentinel:write'];

type Row = Record<string, unknown> & { permissions: number };
type Body = Record<string, unknown>;

function registerClass(router: ApiRouter, ctx: ServerContext, wc: WorldClass): void {
  const { db } = ctx;
  const idCol = `${wc.alias}.${wc.idColumn}`;
  const live = `NOT ${wc.alias}.deleted`;

  async function load(q: Queryable, id: string, userId: string): Promise<Row | null> {
    if (!UUID.test(id)) return null;
    const { rows } = await q.query<Row>(
      `SELECT ${wc.columns('$2')} FROM ${wc.from('$2')} WHERE ${idCol} = $1 AND ${live}`,
      [id, userId],
    );
    if (rows[0]) noteRow(rows[0]);
    return rows[0] ?? null;
  }

  /** The visible live rows of these ids, by lower-case id, in one query. */
  async function loadMany(q: Queryable, ids: string[], userId: string): Promise<Map<string, Row>> {
    const { rows } = await q.query<Row>(
      `SELECT ${wc.columns('$2')} FROM ${wc.from('$2')} WHERE ${idCol} = ANY($1::uuid[]) AND ${live}`,
      [ids.filter((id) => UUID.test(id)), userId],
    );
    return new Map(rows.map((r) => [r[wc.idProp] as string, r]));
  }

  /**
   * Updates the objects in a fixed number of statements (issue 11): one read of the rows, each
   * object checked in the body's order (the first refusal wins, as when each was written in turn),
   * then one UPDATE per round (a row named twice gets the later values).
   */
  async function update(tx: Queryable, userId: string, objects: { id: string; body: Body }[]) {
    const rows = await loadMany(
      tx,
      objects.map((o) => o.id),
      userId,
    );
    const fields = Object.entries(wc.editable);
    const writes: { id: string; values: (string | null)[] }[] = [];
    for (const { id, body } of objects) {
      const row = rows.get(id.toLowerCase());
      if (!row) throw objectNotFound({ [wc.idProp]: id });
      if (!hasAll(row.permissions, Perm.ControlServices)) throw forbidden(body);
      const values = fields.map(([field, spec]) => {
        if (!(field in body)) return null;
        if (!spec.values.includes(body[field] as string))
          throw validation(`${field} must be one of ${spec.values.join(', ')}.`, { field });
        return body[field] as string;
      });
      if (values.some((v) => v !== null)) writes.push({ id, values });
    }
    // A field left out is null here and keeps its value: no editable column holds null.
    const sets = fields.map(([, f]) => `${f.column} = coalesce(u.${f.column}, ${wc.alias}.${f.column})`);
    const names = ['id', ...fields.map(([, f]) => f.column)];
    const arrays = ['$1::uuid[]', ...fields.map((_, i) => `$${i + 2}::text[]`)];
    for (const round of rounds(writes, (w) => w.id.toLowerCase()))
      await tx.query(
        `UPDATE ${wc.table} ${wc.alias} SET ${sets.join(', ')}
           FROM unnest(${arrays.join(', ')}) AS u(${names.join(', ')}) WHERE ${idCol} = u.id`,
        [round.map((w) => w.id), ...fields.map((_, i) => round.map((w) => w.values[i]))],
      );
  }

  /** Unknown or invisible ids are skipped (204 all the same); a visible one without the bit refuses all. */
  async function remove(ids: string[], userId: string): Promise<void> {
    await db.transaction(async (tx) => {
      const gone: string[] = [];
      for (const id of ids) {
        const row = await load(tx, id, userId);
        if (!row) continue;
        if (!hasAll(row.permissions, Perm.ControlServices)) throw forbidden({ [wc.idProp]: id });
        gone.push(id);
      }
      if (gone.length === 0) return;
      await tx.query(`UPDATE ${wc.table} SET deleted = true WHERE ${wc.idColumn} = ANY($1::uuid[])`, [gone]);
      await wc.cascade?.(tx, gone);
    });
  }

  router.authed('GET', wc.path, READ, async (c, caller) => {
    const p = new Params();
    const user = p.add(caller.userId);
    const query = new URL(c.req.url).searchParams;
    const resolved = await wc.resolveFilters?.(ctx, query);
    const spec = resolved ? { ...wc.list, filters: { ...wc.list.filters, ...resolved } } : wc.list;
    const plan = planList(query, spec, p);
    return pageJson(
      c,
      await runList(
        db,
        {
          columns: wc.columns(user),
          from: wc.from(user),
          countFrom: wc.countFrom?.(user),
          exactCountUpTo: wc.exactCountUpTo,
          countFirst: wc.countFirst,
          where: [live],
          keepCount: ctx.reads.get,
        },
        plan,
        p,
      ),
    );
  });

  router.authed('GET', `${wc.path}/:id`, READ, async (c, caller) => {
    const id = param(c, 'id');
    const row = await load(db, id, caller.userId);
    if (!row) throw objectNotFound({ [wc.idProp]: id });
    return json(c, row);
  });

  router.authed('PATCH', `${wc.path}/:id`, WRITE, async (c, caller) => {
    const id = param(c, 'id');
    const body = await readJson(c);
    if (!isObject(body)) throw badRequest('notObjectOrArray', 'Send an object.');
    await db.transaction((tx) => update(tx, caller.userId, [{ id, body }]));
    return json(c, await load(db, id, caller.userId));
  });

  const bulk = async (c: Ctx, userId: string) => {
    const objects = objectsOf(await readJson(c)).map((body) => ({
      id: typeof body[wc.idProp] === 'string' ? (body[wc.idProp] as string) : '',
      body,
    }));
    await db.transaction((tx) => update(tx, userId, objects));
    const rows = await loadMany(
      db,
      objects.map((o) => o.id),
      userId,
    );
    return json(c, { created: [], updated: objects.map((o) => rows.get(o.id.toLowerCase()) ?? null) });
  };
  router.authed('POST', wc.path, WRITE, (c, caller) => bulk(c, caller.userId));
  router.authed('PATCH', wc.path, WRITE, (c, caller) => bulk(c, caller.userId));

  router.authed('DELETE', `${wc.path}/:id`, WRITE, async (c, caller) => {
    await remove([param(c, 'id')], caller.userId);
    return noContent(c);
  });

  router.authed('DELETE', wc.path, WRITE, async (c, caller) => {
    const ids = objectsOf(await readJson(c))
      .map((o) => o[wc.idProp])
      .filter((id): id is string => typeof id === 'string');
    await remove(ids, caller.userId);
    return noContent(c);
  });
}

export function registerWorldRoutes(router: ApiRouter, ctx: ServerContext): void {
  for (const wc of [CHARACTER, TRIBE, DINO]) registerClass(router, ctx, wc);
}
