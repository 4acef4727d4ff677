// Scripts and their revisions (SENTINEL-API §3.13). A save writes a revision whose id is the UUID
// v5 of its content, so saving the same content twice names the same revision; the approval status
// follows from the JavaScript it contains.

import { createHash } from 'node:crypto';
import { RESTRICTED_USE } from '../../domain/scripts/beacon.ts';
import { scriptSave } from '../../domain/validate.ts';
import type { Queryable } from '../db/db.ts';
import { mayOwn } from '../http/auth.ts';
import { badRequest } from '../http/errors.ts';
import { check, type Json, missingProperties, type Writer } from './classPath.ts';
import { epoch } from './service.ts';

/** Namespace for revision ids (a fixed random UUID). */
const REVISION_NS = '0f8f5d3c-6a55-4d0e-9c3e-2f4b1f3a7e21';

export function uuidv5(name: string, namespace = REVISION_NS): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  const b = createHash('sha1')
    .update(Buffer.concat([ns, Buffer.from(name)]))
    .digest()
    .subarray(0, 16);
  b[6] = (b[6] & 0x0f) | 0x50;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export interface ScriptEvent {
  language: 'Simple' | 'JavaScript';
  context: string;
  code: string;
  keyword?: string | null;
  arguments?: unknown[] | null;
}

export interface ScriptContent {
  parameters: unknown[];
  commonJavascript: string;
  events: ScriptEvent[];
}

export function approvalStatus(c: ScriptContent): 'Approved' | 'Probation' | 'Needs Review' {
  const js = [c.commonJavascript, ...c.events.filter((e) => e.language === 'JavaScript').map((e) => e.code)];
  const usesJs = c.commonJavascript.trim() !== '' || c.events.some((e) => e.language === 'JavaScript');
  if (!usesJs) return 'Approved';
  return js.some((code) => RESTRICTED_USE.test(code)) ? 'Needs Review' : 'Probation';
}

/** The Script JSON over `scripts x` with the caller's bits as `perm`. */
export const scriptColumns = (perm: string) => `
  x.script_id AS "scriptId", x.user_id AS "userId", x.name, x.preview, x.description,
  ${epoch('x.date_created')} AS "dateCreated", ${epoch('x.date_modified')} AS "dateModified",
  x.community_status AS "communityStatus",
  CASE WHEN v.votes > 0 THEN (v.likes + 1.0) / (v.votes + 2.0) END AS "communityRating",
  CASE WHEN v.votes > 0 THEN v.likes::float8 / v.votes END AS "communityAverage",
  coalesce(v.votes, 0)::int AS "communityVotes", ${perm} AS permissions,
  x.latest_revision_id AS "latestRevisionId", r.approval_status AS "approvalStatus",
  coalesce(r.parameters, '[]'::jsonb) AS parameters, coalesce(r.common_javascript, '') AS "commonJavascript",
  (SELECT coalesce(jsonb_agg(jsonb_build_object('scriptEventId', e.script_event_id, 'language', e.language,
            'context', e.context, 'code', e.code, 'keyword', e.keyword, 'arguments', e.arguments)
          ORDER BY e.context, e.keyword, e.script_event_id), '[]'::jsonb)
     FROM script_events e WHERE e.revision_id = x.latest_revision_id) AS events`;

/** Joins scriptColumns needs after `scripts x`. */
export const SCRIPT_JOINS = `
  LEFT JOIN script_revisions r ON r.revision_id = x.latest_revision_id
  LEFT JOIN LATERAL (SELECT count(*) AS votes, count(*) FILTER (WHERE liked) AS likes
                       FROM script_votes sv WHERE sv.script_id = x.script_id) v ON true`;

async function latestContent(tx: Queryable, scriptId: string): Promise<ScriptContent> {
  const { rows } = await tx.query<ScriptContent>(
    `SELECT coalesce(r.parameters, '[]'::jsonb) AS parameters, coalesce(r.common_javascript, '') AS "commonJavascript",
            (SELECT coalesce(jsonb_agg(jsonb_build_object('language', e.language, 'context', e.context, 'code', e.code,
                      'keyword', e.keyword, 'arguments', e.arguments)), '[]'::jsonb)
               FROM script_events e WHERE e.revision_id = r.revision_id) AS events
       FROM scripts x LEFT JOIN script_revisions r ON r.revision_id = x.latest_revision_id WHERE x.script_id = $1`,
    [scriptId],
  );
  return rows[0] ?? { parameters: [], commonJavascript: '', events: [] };
}

const contentOf = (obj: Json, base: ScriptContent): ScriptContent => ({
  parameters: (obj.parameters as unknown[] | undefined) ?? base.parameters,
  commonJavascript: (obj.commonJavascript as string | undefined) ?? base.commonJavascript,
  events: ((obj.events as ScriptEvent[] | undefined) ?? base.events).map((e) => ({
    language: e.language,
    context: e.context,
    code: e.code,
    keyword: e.keyword ?? null,
    arguments: e.arguments ?? (e.keyword ? [] : null),
  })),
});

async function saveRevision(tx: Queryable, scriptId: string, c: ScriptContent): Promise<void> {
  const revisionId = uuidv5(JSON.stringify([scriptId, c.parameters, c.commonJavascript, c.events]));
  const { rows } = await tx.query(
    `INSERT INTO script_revisions (revision_id, script_id, approval_status, parameters, common_javascript)
     VALUES ($1, $2, $3, $4::jsonb, $5) ON CONFLICT (revision_id) DO NOTHING RETURNING revision_id`,
    [revisionId, scriptId, approvalStatus(c), JSON.stringify(c.parameters), c.commonJavascript],
  );
  if (rows.length > 0)
    for (const [i, e] of c.events.entries())
      await tx.query(
        `INSERT INTO script_events (script_event_id, revision_id, language, context, code, keyword, arguments)
         VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb)`,
        [
          uuidv5(`${revisionId}/${i}`),
          revisionId,
          e.language,
          e.context,
          e.code,
          e.keyword,
          e.arguments ? JSON.stringify(e.arguments) : null,
        ],
      );
  await tx.query('UPDATE scripts SET latest_revision_id = $2, date_modified = now() WHERE script_id = $1', [
    scriptId,
    revisionId,
  ]);
}

async function uniqueName(
  tx: Queryable,
  userId: string,
  name: string,
  scriptId: string | null,
): Promise<void> {
  const { rows } = await tx.query(
    `SELECT 1 FROM scripts WHERE user_id = $1 AND lower(name) = lower($2) AND NOT deleted
        AND script_id IS DISTINCT FROM $3::uuid`,
    [userId, name, scriptId],
  );
  if (rows.length > 0)
    throw badRequest('nameNotUnique', `You already have a script named ${name}.`, { name });
}

const EMPTY: ScriptContent = { parameters: [], commonJavascript: '', events: [] };

export const scriptWriter: Writer = {
  async create(tx, caller, obj, id) {
    mayOwn(caller);
    if (obj.name === undefined) throw missingProperties(['name']);
    check(scriptSave(obj));
    const name = (obj.name as string).trim();
    await uniqueName(tx, caller.userId, name, null);
    const { rows } = await tx.query<{ id: string }>(
      `INSERT INTO scripts (script_id, user_id, name, preview, description)
       VALUES (coalesce($1::uuid, gen_random_uuid()), $2, $3, $4, $5) RETURNING script_id AS id`,
      [id, caller.userId, name, obj.preview ?? '', obj.description ?? ''],
    );
    await saveRevision(tx, rows[0].id, contentOf(obj, EMPTY));
    return { id: rows[0].id, created: true };
  },
  async update(tx, _caller, row, obj, mode) {
    check(scriptSave(obj));
    const scriptId = row.script_id as string;
    const keep = <T>(key: string, current: T, reset: T): T =>
      (obj[key] as T | undefined) ?? (mode === 'merge' ? current : reset);
    if (mode === 'replace' && obj.name === undefined) throw missingProperties(['name']);
    const name = keep('name', row.name as string, '').trim();
    await uniqueName(tx, row.user_id as string, name, scriptId);
    await tx.query('UPDATE scripts SET name = $2, preview = $3, description = $4 WHERE script_id = $1', [
      scriptId,
      name,
      keep('preview', row.preview, ''),
      keep('description', row.description, ''),
    ]);
    await saveRevision(
      tx,
      scriptId,
      contentOf(obj, mode === 'merge' ? await latestContent(tx, scriptId) : EMPTY),
    );
  },
};
