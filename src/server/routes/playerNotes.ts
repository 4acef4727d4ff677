// /sentinel/playerNotes (SENTINEL-API §3.8, SPEC §5/§6): notes anyone may read and write, only
// their author may edit, and nobody may delete. The database keeps each edit's previous text.

import { randomUUID } from 'node:crypto';
import { UUID } from '../../domain/constants.ts';
import { noteContent } from '../../domain/validate.ts';
import type { ServerContext } from '../context.ts';
import type { Queryable } from '../db/db.ts';
import type { Caller } from '../http/auth.ts';
import { readJson } from '../http/body.ts';
import { ApiException, badRequest, forbidden, objectNotFound, validation } from '../http/errors.ts';
import { type ListSpec, Params, planList, runList } from '../http/listQuery.ts';
import { type ApiRouter, type Ctx, json, pageJson, param } from '../http/router.ts';
import { isObject, objectsOf, requireProperties, rounds } from '../model/bulkBody.ts';
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

/** Notes by id, in one query. */
async function getNotes(db: Queryable, ids: string[]): Promise<Map<string, Record<string, unknown>>> {
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT ${NOTE_COLUMNS} FROM ${NOTE_FROM} WHERE n.note_id = ANY($1::uuid[])`,
    [ids],
  );
  return new Map(rows.map((r) => [r.noteId as string, r]));
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

  /**
   * A bulk write in a fixed number of statements (issue 11): one read of the notes named, then
   * each object checked in the body's order (the first refusal wins, as when each was written in
   * turn), then one insert and one update per round (a note written twice in one body keeps both
   * edits), and one read-back.
   */
  const bulk = async (c: Ctx, caller: Caller) => {
    const objects = objectsOf(await readJson(c));
    const named = objects.map((o) => (typeof o.noteId === 'string' && UUID.test(o.noteId) ? o.noteId : null));
    const outcome = await db.transaction(async (tx) => {
      const { rows } = await tx.query<{ id: string; user_id: string }>(
        'SELECT note_id AS id, user_id FROM player_notes WHERE note_id = ANY($1::uuid[])',
        [named.filter((id) => id !== null)],
      );
      const authors = new Map(rows.map((r) => [r.id, r.user_id]));
      const created: string[] = [];
      const updated: string[] = [];
      const inserts: { id: string; playerId: string; content: string }[] = [];
      const edits: { id: string; content: string }[] = [];
      objects.forEach((obj, i) => {
        const id = named[i];
        const author = id === null ? undefined : authors.get(id);
        if (id !== null && author !== undefined) {
          if (author !== caller.userId) throw forbidden(obj);
          if ('content' in obj) edits.push({ id, content: contentOf(obj.content) });
          updated.push(id);
          return;
        }
        requireProperties(obj, ['playerId', 'content']);
        const content = contentOf(obj.content);
        if (typeof obj.playerId !== 'string' || !UUID.test(obj.playerId))
          throw badRequest('notFound', 'The player was not found.', { playerId: obj.playerId });
        const made = id ?? randomUUID();
        inserts.push({ id: made, playerId: obj.playerId, content });
        authors.set(made, caller.userId);
        created.push(made);
      });
      if (inserts.length)
        await tx.query(
          `INSERT INTO player_notes (note_id, player_id, user_id, content)
           SELECT id, player, $4, content FROM unnest($1::uuid[], $2::uuid[], $3::text[]) AS n(id, player, content)`,
          [
            inserts.map((n) => n.id),
            inserts.map((n) => n.playerId),
            inserts.map((n) => n.content),
            caller.userId,
          ],
        );
      for (const round of rounds(edits, (e) => e.id))
        await tx.query(
          `UPDATE player_notes SET content = e.content
             FROM unnest($1::uuid[], $2::text[]) AS e(id, content) WHERE note_id = e.id`,
          [round.map((e) => e.id), round.map((e) => e.content)],
        );
      return { created, updated };
    });
    const notes = await getNotes(db, [...outcome.created, ...outcome.updated]);
    const load = (ids: string[]) => ids.map((id) => notes.get(id));
    return json(c, { created: load(outcome.created), updated: load(outcome.updated) });
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
