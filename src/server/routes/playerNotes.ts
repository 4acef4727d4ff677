// /sentinel/playerNotes (SENTINEL-API §3.8, SPEC §5/§6): notes anyone may read and write, only
// their author may edit, and nobody may delete. The database keeps each edit's previous text.

import { UUID } from '../../domain/constants.ts';
import { noteContent } from '../../domain/validate.ts';
import type { ServerContext } from '../context.ts';
import type { Queryable } from '../db/db.ts';
import type { Caller } from '../http/auth.ts';
import { readJson } from '../http/body.ts';
import { ApiException, badRequest, forbidden, objectNotFound, validation } from '../http/errors.ts';
import { type ListSpec, Params, planList, runList } from '../http/listQuery.ts';
import { type ApiRouter, type Ctx, json, pageJson, param } from '../http/router.ts';
import { isObject, objectsOf, requireProperties } from '../model/bulkBody.ts';
import { epoch } from '../model/service.ts';

const READ = ['sentinel:read'];
const WRITE = ['sentinel:read', 'sentinel:write'];

const NOTE_COLUMNS = `
  n.note_id AS "noteId", n.player_id AS "playerId", n.user_id AS "userId", u.username,
  u.username || '#' || left(u.user_id::text, 8) AS "usernameFull",
  ${epoch('n.date_created')} AS "dateCreated", ${epoch('n.date_modified')} AS "dateModified", n.content,
  coalesce((SELECT json_agg(json_build_object('previousTimestamp', ${epoch('e.previous_timestamp')},
      'previousContent', e.previous_content) ORDER BY e.previous_timestamp DESC)
    FROM player_note_edits e WHERE e.note_id = n.note_id), '[]'::json) AS edits`;

const NOTE_FROM = 'player_notes n JOIN users u ON u.user_id = n.user_id';

const NOTE_LIST: ListSpec = {
  id: { param: 'noteId', expr: 'n.note_id' },
  filters: {
    playerId: { kind: 'exact', expr: 'n.player_id', type: 'uuid' },
    userId: { kind: 'exact', expr: 'n.user_id', type: 'uuid' },
    content: {
      kind: 'custom',
      sql: (v, p) => {
        const q = p.add(v);
        return `(to_tsvector('english', n.content) @@ websearch_to_tsquery('english', ${q})
          OR n.note_id IN (SELECT note_id FROM player_note_edits
                            WHERE to_tsvector('english', previous_content) @@ websearch_to_tsquery('english', ${q})))`;
      },
    },
  },
  // The original's sort is fixed: newest first.
  sorts: { dateCreated: 'n.date_created' },
  defaultSort: 'dateCreated',
  defaultDirection: 'descending',
  tiebreak: 'n.note_id',
};

function contentOf(v: unknown): string {
  const problem = typeof v === 'string' ? noteContent(v) : noteContent('');
  if (problem) throw validation(problem, { field: 'content' });
  return (v as string).trim();
}

async function getNote(db: Queryable, id: string) {
  const { rows } = await db.query(`SELECT ${NOTE_COLUMNS} FROM ${NOTE_FROM} WHERE n.note_id = $1`, [id]);
  return rows[0] ?? null;
}

const cannotDelete = () => new ApiException(403, 'Player notes cannot be deleted.', 'forbidden');

export function registerPlayerNoteRoutes(router: ApiRouter, ctx: ServerContext): void {
  const { db } = ctx;

  router.authed('GET', '/sentinel/playerNotes', READ, async (c) => {
    const q = new URL(c.req.url).searchParams;
    if (!UUID.test(q.get('playerId') ?? '')) throw forbidden('Filter by playerId.');
    const p = new Params();
    const plan = planList(q, NOTE_LIST, p);
    return pageJson(c, await runList(db, { columns: NOTE_COLUMNS, from: NOTE_FROM, where: [] }, plan, p));
  });

  router.authed('GET', '/sentinel/playerNotes/:noteId', READ, async (c) => {
    const id = param(c, 'noteId');
    const note = UUID.test(id) ? await getNote(db, id) : null;
    if (!note) throw objectNotFound({ noteId: id });
    return json(c, note);
  });

  async function update(tx: Queryable, id: string, obj: Record<string, unknown>, caller: Caller) {
    const { rows } = await tx.query<{ user_id: string }>(
      'SELECT user_id FROM player_notes WHERE note_id = $1',
      [id],
    );
    if (!rows[0]) throw objectNotFound({ noteId: id });
    if (rows[0].user_id !== caller.userId) throw forbidden(obj);
    if ('content' in obj)
      await tx.query('UPDATE player_notes SET content = $2 WHERE note_id = $1', [id, contentOf(obj.content)]);
  }

  async function create(tx: Queryable, obj: Record<string, unknown>, caller: Caller): Promise<string> {
    requireProperties(obj, ['playerId', 'content']);
    const content = contentOf(obj.content);
    if (typeof obj.playerId !== 'string' || !UUID.test(obj.playerId))
      throw badRequest('notFound', 'The player was not found.', { playerId: obj.playerId });
    const given = typeof obj.noteId === 'string' && UUID.test(obj.noteId) ? obj.noteId : null;
    const { rows } = await tx.query<{ note_id: string }>(
      `INSERT INTO player_notes (note_id, player_id, user_id, content)
       VALUES (coalesce($1::uuid, gen_random_uuid()), $2, $3, $4) RETURNING note_id`,
      [given, obj.playerId, caller.userId, content],
    );
    return rows[0].note_id;
  }

  const bulk = async (c: Ctx, caller: Caller) => {
    const objects = objectsOf(await readJson(c));
    const outcome = await db.transaction(async (tx) => {
      const created: string[] = [];
      const updated: string[] = [];
      for (const obj of objects) {
        const id = typeof obj.noteId === 'string' && UUID.test(obj.noteId) ? obj.noteId : null;
        const exists =
          id !== null &&
          (await tx.query('SELECT 1 FROM player_notes WHERE note_id = $1', [id])).rows.length > 0;
        if (exists) {
          await update(tx, id, obj, caller);
          updated.push(id);
        } else created.push(await create(tx, obj, caller));
      }
      return { created, updated };
    });
    const load = (ids: string[]) => Promise.all(ids.map((id) => getNote(db, id)));
    return json(c, { created: await load(outcome.created), updated: await load(outcome.updated) });
  };
  router.authed('POST', '/sentinel/playerNotes', WRITE, bulk);
  router.authed('PATCH', '/sentinel/playerNotes', WRITE, bulk);

  router.authed('PATCH', '/sentinel/playerNotes/:noteId', WRITE, async (c, caller) => {
    const id = param(c, 'noteId');
    const body = await readJson(c);
    if (!isObject(body)) throw badRequest('notObjectOrArray', 'Send an object.');
    if (!UUID.test(id)) throw objectNotFound({ noteId: id });
    await db.transaction((tx) => update(tx, id, body, caller));
    return json(c, await getNote(db, id));
  });

  router.authed('DELETE', '/sentinel/playerNotes/:noteId', WRITE, async () => {
    throw cannotDelete();
  });
  router.authed('DELETE', '/sentinel/playerNotes', WRITE, async () => {
    throw cannotDelete();
  });
}
