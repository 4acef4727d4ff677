// A script's own webhooks (SPEC §3 "Webhooks (purpose, trigger URL, secret)"): each has a purpose,
// a trigger URL and a secret that signs calls the way a server's access key signs the server
// webhook (SENTINEL-API §2.3: hex HMAC-SHA256 of `METHOD\n<30-second window>\n<trimmed body>`).
// A call runs the script's webhook handlers of that name on the servers where the script's author
// attached it themselves, never on another owner's attachment of it (a shared script's author
// would control every server that uses it; another owner's runs are theirs to start, by their
// server's webhook). Rotating the secret makes the old one useless at once.

import { randomBytes } from 'node:crypto';
import { UUID } from '../../domain/constants.ts';
import { Perm } from '../../domain/permissions.ts';
import type { ServerContext } from '../context.ts';
import { readJson, readText } from '../http/body.ts';
import { ApiException, badRequest, forbidden } from '../http/errors.ts';
import { type ApiRouter, json, noContent, param } from '../http/router.ts';
import { isObject } from '../model/classPath.ts';
import { bitsOn, holdsAll } from '../model/permissions.ts';
import { handlersFor } from '../scripts/handlers.ts';
import { noWebhook, queueWebhook, signatureOf, signed, webhookCall } from './webhook.ts';

const READ = ['sentinel:read'];
const WRITE = ['sentinel:read', 'sentinel:write'];
const PURPOSE_MAX = 200;

const newSecret = () => randomBytes(32).toString('base64url');

export function registerScriptWebhookRoutes(router: ApiRouter, ctx: ServerContext): void {
  const { db } = ctx;
  const urlOf = (webhookId: string) => `${ctx.config.publicUrl}/v4/sentinel/scriptWebhooks/${webhookId}`;
  const shape = (r: { webhook_id: string; purpose: string; secret: string }, withSecret: boolean) => ({
    webhookId: r.webhook_id,
    purpose: r.purpose,
    url: urlOf(r.webhook_id),
    ...(withSecret ? { secret: r.secret } : {}),
  });

  /** The caller's bits on the script: 404 when they cannot see it, 403 when `need` is missing. */
  async function scriptAccess(scriptId: string, userId: string, need: number): Promise<boolean> {
    const bits = UUID.test(scriptId) ? await bitsOn(db, 'script', scriptId, userId) : null;
    if (bits === null) throw new ApiException(404, 'Script not found.', 'scriptNotFound', { scriptId });
    if (need && !(await holdsAll(db, 'script', scriptId, userId, need))) throw forbidden({ scriptId });
    return holdsAll(db, 'script', scriptId, userId, Perm.EditScripts);
  }

  router.authed('GET', '/sentinel/scripts/:id/webhooks', READ, async (c, caller) => {
    const scriptId = param(c, 'id');
    const editor = await scriptAccess(scriptId, caller.userId, 0);
    const { rows } = await db.query<{ webhook_id: string; purpose: string; secret: string }>(
      'SELECT webhook_id, purpose, secret FROM script_webhooks WHERE script_id = $1 ORDER BY lower(purpose), webhook_id',
      [scriptId],
    );
    return json(c, { webhooks: rows.map((r) => shape(r, editor)) });
  });

  router.authed('POST', '/sentinel/scripts/:id/webhooks', WRITE, async (c, caller) => {
    const scriptId = param(c, 'id');
    await scriptAccess(scriptId, caller.userId, Perm.EditScripts);
    const body = await readJson(c);
    const purpose = isObject(body) && typeof body.purpose === 'string' ? body.purpose.trim() : '';
    if (purpose === '' || purpose.length > PURPOSE_MAX)
      throw badRequest('badPurpose', `Say what the webhook is for, in 1 to ${PURPOSE_MAX} characters.`);
    const { rows } = await db.query<{ webhook_id: string; purpose: string; secret: string }>(
      'INSERT INTO script_webhooks (script_id, purpose, secret) VALUES ($1, $2, $3) RETURNING webhook_id, purpose, secret',
      [scriptId, purpose, newSecret()],
    );
    return json(c, shape(rows[0], true));
  });

  router.authed('POST', '/sentinel/scripts/:id/webhooks/:webhookId/secret', WRITE, async (c, caller) => {
    const scriptId = param(c, 'id');
    await scriptAccess(scriptId, caller.userId, Perm.EditScripts);
    const webhookId = param(c, 'webhookId');
    const { rows } = UUID.test(webhookId)
      ? await db.query<{ webhook_id: string; purpose: string; secret: string }>(
          'UPDATE script_webhooks SET secret = $3 WHERE webhook_id = $2 AND script_id = $1 RETURNING webhook_id, purpose, secret',
          [scriptId, webhookId, newSecret()],
        )
      : { rows: [] };
    if (!rows[0]) throw new ApiException(404, 'No such webhook on this script.', 'notFound', { webhookId });
    return json(c, shape(rows[0], true));
  });

  router.authed('DELETE', '/sentinel/scripts/:id/webhooks/:webhookId', WRITE, async (c, caller) => {
    const scriptId = param(c, 'id');
    await scriptAccess(scriptId, caller.userId, Perm.EditScripts);
    const webhookId = param(c, 'webhookId');
    if (UUID.test(webhookId))
      await db.query('DELETE FROM script_webhooks WHERE webhook_id = $2 AND script_id = $1', [
        scriptId,
        webhookId,
      ]);
    return noContent(c);
  });

  router.open('POST', '/sentinel/scriptWebhooks/:webhookId', async (c) => {
    const webhookId = param(c, 'webhookId').toLowerCase();
    const text = await readText(c);
    const { rows } = UUID.test(webhookId)
      ? await db.query<{ script_id: string; secret: string; author: string }>(
          `SELECT w.script_id, w.secret, s.user_id AS author
             FROM script_webhooks w JOIN scripts s ON s.script_id = w.script_id AND NOT s.deleted
            WHERE w.webhook_id = $1`,
          [webhookId],
        )
      : { rows: [] };
    const hook = rows[0];
    if (!hook || !signed(hook.secret, c.req.method, text, signatureOf(c.req.raw.headers))) throw noWebhook();
    const { webhook, parameters } = webhookCall(text);
    const { rows: services } = await db.query<{ service_id: string }>(
      `SELECT ss.service_id FROM service_scripts ss JOIN services s ON s.service_id = ss.service_id AND NOT s.deleted
        WHERE ss.script_id = $1 AND ss.attached_by = $2
       UNION
       SELECT gsv.service_id FROM group_scripts gs JOIN group_services gsv ON gsv.group_id = gs.group_id
         JOIN services s ON s.service_id = gsv.service_id AND NOT s.deleted
        WHERE gs.script_id = $1 AND gs.attached_by = $2`,
      [hook.script_id, hook.author],
    );
    let queued = 0;
    await db.transaction(async (tx) => {
      for (const { service_id } of services) {
        const handlers = (await handlersFor(tx, service_id, { context: 'webhook', keyword: webhook })).filter(
          (h) => h.scriptId === hook.script_id && h.attachedBy === hook.author,
        );
        const once = [...new Map(handlers.map((h) => [h.scriptEventId, h])).values()];
        await queueWebhook(tx, service_id, once, parameters);
        queued += once.length;
      }
    });
    if (queued === 0) throw noWebhook();
    ctx.scripts.wake();
    return noContent(c);
  });
}
