// Script review (SENTINEL-API §3.13, SPEC §4 "Script status"): a revision whose JavaScript uses a
// restricted beacon member waits as Needs Review, and the last approved revision runs meanwhile.
// A reviewer (an admin whose email the server's configuration names) lists what waits and
// approves or rejects it; a rejected script leaves the Workshop and cannot be shared again.

import { UUID } from '../../domain/constants.ts';
import type { ServerContext } from '../context.ts';
import { readJson } from '../http/body.ts';
import { ApiException, badRequest, forbidden } from '../http/errors.ts';
import { type ApiRouter, json, param } from '../http/router.ts';
import { isObject } from '../model/classPath.ts';
import { epoch } from '../model/service.ts';
import { announceScript } from './scripts.ts';

const READ = ['sentinel:read'];
const WRITE = ['sentinel:read', 'sentinel:write'];
const DECISIONS = ['Approved', 'Rejected'] as const;

async function requireReviewer(ctx: ServerContext, userId: string): Promise<void> {
  const { rows } = await ctx.db.query<{ email: string }>('SELECT email FROM users WHERE user_id = $1', [
    userId,
  ]);
  const email = rows[0]?.email.toLowerCase();
  if (!email || !ctx.config.scriptReviewers.includes(email))
    throw forbidden('Only the reviewers this server names may review scripts.');
}

export function registerScriptReviewRoutes(router: ApiRouter, ctx: ServerContext): void {
  router.authed('GET', '/sentinel/scriptReviews', READ, async (c, caller) => {
    await requireReviewer(ctx, caller.userId);
    const { rows } = await ctx.db.query(
      `SELECT r.revision_id AS "revisionId", r.script_id AS "scriptId", s.name AS "scriptName",
              ${epoch('r.date_created')} AS "dateCreated", r.approval_status AS "approvalStatus"
         FROM script_revisions r JOIN scripts s ON s.script_id = r.script_id AND NOT s.deleted
        WHERE r.approval_status = 'Needs Review' ORDER BY r.date_created`,
    );
    return json(c, { revisions: rows });
  });

  router.authed('POST', '/sentinel/scripts/:id/revisions/:revisionId/review', WRITE, async (c, caller) => {
    await requireReviewer(ctx, caller.userId);
    const scriptId = param(c, 'id');
    const revisionId = param(c, 'revisionId');
    const body = await readJson(c);
    const decision = isObject(body) ? body.approvalStatus : undefined;
    if (!(DECISIONS as readonly unknown[]).includes(decision))
      throw badRequest('badRequestBody', 'Send {"approvalStatus": "Approved" or "Rejected"}.');
    const { rows } = await ctx.db.transaction(async (tx) => {
      const updated = await tx.query(
        `UPDATE script_revisions SET approval_status = $3, reviewed_by = $4, review_time = now()
          WHERE revision_id = $2::uuid AND script_id = $1::uuid RETURNING revision_id AS "revisionId", approval_status AS "approvalStatus"`,
        [
          UUID.test(scriptId) ? scriptId : null,
          UUID.test(revisionId) ? revisionId : null,
          decision,
          caller.userId,
        ],
      );
      if (updated.rows.length > 0 && decision === 'Rejected')
        await tx.query(`UPDATE scripts SET community_status = 'Rejected' WHERE script_id = $1`, [scriptId]);
      return updated;
    });
    if (!rows[0])
      throw new ApiException(404, 'No such revision of this script.', 'notFound', { scriptId, revisionId });
    // The status shown wherever the script appears follows the review.
    await announceScript(ctx, scriptId);
    return json(c, rows[0]);
  });
}
