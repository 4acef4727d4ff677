// An attachment's own webhook (docs/workshop.md "Whose rights a script runs with"): whoever
// manages the server or group a script is attached to makes (or rotates) a secret, and a call
// signed with it (as a server's webhook is signed with its access key, SENTINEL-API §2.3) runs that
// script's webhook handlers there only: on that attachment's server, or on each server of its
// group, with the attachment's values and its attacher's rights. The script's author reaches
// nothing through it; rotating makes the old secret useless at once.

import { randomBytes } from 'node:crypto';
import { UUID } from '../../domain/constants.ts';
import { Perm } from '../../domain/permissions.ts';
import type { ServerContext } from '../context.ts';
import type { Queryable } from '../db/db.ts';
import { readText } from '../http/body.ts';
import { ApiException, forbidden } from '../http/errors.ts';
import { type ApiRouter, json, noContent, param } from '../http/router.ts';
import { bitsOn, holdsAll } from '../model/permissions.ts';
import { handlersFor } from '../scripts/handlers.ts';
import { noWebhook, queueWebhook, signatureOf, signed, webhookCall } from './webhook.ts';

const WRITE = ['sentinel:read', 'sentinel:write'];

interface Holding {
  kind: 'service' | 'group';
  table: string;
  idColumn: string;
  path: string;
}

const HOLDINGS: Holding[] = [
  {
    kind: 'service',
    table: 'service_scripts',
    idColumn: 'service_script_id',
    path: '/sentinel/serviceScripts',
  },
  { kind: 'group', table: 'group_scripts', idColumn: 'group_script_id', path: '/sentinel/groupScripts' },
];

/** The attachment's holder and secret; null when there is no such attachment. */
async function attachmentOf(db: Queryable, h: Holding, id: string) {
  if (!UUID.test(id)) return null;
  const { rows } = await db.query<{ holder: string; secret: string | null }>(
    `SELECT ${h.kind}_id AS holder, webhook_secret AS secret FROM ${h.table} WHERE ${h.idColumn} = $1`,
    [id],
  );
  return rows[0] ?? null;
}

/** The servers a call of an attachment's webhook runs on. */
async function serversOf(db: Queryable, h: Holding, holder: string): Promise<string[]> {
  if (h.kind === 'service') return [holder];
  const { rows } = await db.query<{ service_id: string }>(
    `SELECT gs.service_id FROM group_services gs JOIN services s ON s.service_id = gs.service_id AND NOT s.deleted
      WHERE gs.group_id = $1`,
    [holder],
  );
  return rows.map((r) => r.service_id);
}

export function registerAttachmentWebhookRoutes(router: ApiRouter, ctx: ServerContext): void {
  const { db } = ctx;
  const urlOf = (id: string) => `${ctx.config.publicUrl}/v4/sentinel/attachmentWebhooks/${id}`;

  for (const h of HOLDINGS) {
    /** The attachment, when the caller manages its holder: 404 when they cannot see it, 403 otherwise. */
    const managed = async (id: string, userId: string) => {
      const a = await attachmentOf(db, h, id);
      if (!a || (await bitsOn(db, h.kind, a.holder, userId)) === null)
        throw new ApiException(404, 'No such script attachment.', 'notFound', { id });
      if (!(await holdsAll(db, h.kind, a.holder, userId, Perm.ManageScripts))) throw forbidden({ id });
      return a;
    };

    router.authed('POST', `${h.path}/:id/webhook`, WRITE, async (c, caller) => {
      const id = param(c, 'id').toLowerCase();
      await managed(id, caller.userId);
      const secret = randomBytes(32).toString('base64url');
      await db.query(`UPDATE ${h.table} SET webhook_secret = $2 WHERE ${h.idColumn} = $1`, [id, secret]);
      return json(c, { url: urlOf(id), secret });
    });

    router.authed('DELETE', `${h.path}/:id/webhook`, WRITE, async (c, caller) => {
      const id = param(c, 'id').toLowerCase();
      await managed(id, caller.userId);
      await db.query(`UPDATE ${h.table} SET webhook_secret = NULL WHERE ${h.idColumn} = $1`, [id]);
      return noContent(c);
    });
  }

  router.open('POST', '/sentinel/attachmentWebhooks/:id', async (c) => {
    const id = param(c, 'id').toLowerCase();
    const text = await readText(c);
    let found: { h: Holding; holder: string } | null = null;
    for (const h of HOLDINGS) {
      const a = await attachmentOf(db, h, id);
      if (a?.secret && signed(a.secret, c.req.method, text, signatureOf(c.req.raw.headers)))
        found = { h, holder: a.holder };
    }
    if (!found) throw noWebhook();
    const { webhook, parameters } = webhookCall(text);
    let queued = 0;
    await db.transaction(async (tx) => {
      for (const serviceId of await serversOf(tx, found.h, found.holder)) {
        const handlers = (await handlersFor(tx, serviceId, { context: 'webhook', keyword: webhook })).filter(
          (e) => e.attachmentId === id,
        );
        await queueWebhook(tx, serviceId, handlers, parameters);
        queued += handlers.length;
      }
    });
    if (queued === 0) throw noWebhook();
    ctx.scripts.wake();
    return noContent(c);
  });
}
