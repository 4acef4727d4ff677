// POST /sentinel/services/{id}/webhook (SENTINEL-API §2.3): an HMAC-signed trigger of the "webhook"
// script events attached to a server, for callers without a token. The signature is hex
// HMAC-SHA256, keyed with the server's access key, of `METHOD\n<30-second window>\n<trimmed body>`.
// Unlike the original, a refusal never reveals the expected signature, and one window of clock
// skew is allowed.

import { createHmac, timingSafeEqual } from 'node:crypto';
import { UUID } from '../../domain/constants.ts';
import type { ServerContext } from '../context.ts';
import type { Queryable } from '../db/db.ts';
import { parseJson, readText } from '../http/body.ts';
import { ApiException, badRequest } from '../http/errors.ts';
import { type ApiRouter, noContent, param } from '../http/router.ts';
import { isObject } from '../model/classPath.ts';
import { queueServiceEvent } from '../model/eventQueue.ts';
import { type Handler, handlersFor } from '../scripts/handlers.ts';

export const WEBHOOK_WINDOW_SECONDS = 30;

export function webhookSignature(accessKey: string, method: string, body: string, at = Date.now()): string {
  const window = Math.floor(at / 1000 / WEBHOOK_WINDOW_SECONDS);
  return createHmac('sha256', accessKey)
    .update(`${method.toUpperCase()}\n${window}\n${body.trim()}`)
    .digest('hex');
}

/** The same answer for an unknown server, a bad signature and an unknown webhook: nothing to probe. */
export const noWebhook = () => new ApiException(404, 'No webhook matches this request.', 'notFound');

export function signatureOf(headers: Headers): string {
  const auth = /^HmacSHA256\s+([0-9a-f]+)$/i.exec(headers.get('authorization') ?? '');
  return (auth?.[1] ?? headers.get('x-beacon-token') ?? '').toLowerCase();
}

/** Whether `given` signs the body with the key in this 30-second window or the one before. */
export function signed(accessKey: string, method: string, body: string, given: string): boolean {
  const now = Date.now();
  return [now, now - WEBHOOK_WINDOW_SECONDS * 1000].some((at) => {
    const expected = Buffer.from(webhookSignature(accessKey, method, body, at));
    const actual = Buffer.from(given);
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  });
}

/** A signed webhook body: `{webhook: name, parameters: {…}}`. */
export function webhookCall(text: string): { webhook: string; parameters: Record<string, unknown> } {
  const body = parseJson(text);
  if (
    !isObject(body) ||
    typeof body.webhook !== 'string' ||
    (body.parameters !== undefined && !isObject(body.parameters))
  )
    throw badRequest('badRequestBody', 'Send {"webhook": "<name>", "parameters": {…}}.');
  return {
    webhook: body.webhook,
    parameters: (body.parameters as Record<string, unknown> | undefined) ?? {},
  };
}

/**
 * Queues a run of each handler, its argument defaults overlaid by the call's parameters: only the
 * arguments the handler declares; a call sets nothing else (the attachment's parameter values
 * stay the attacher's, scripts/engine.ts).
 */
export async function queueWebhook(
  tx: Queryable,
  serviceId: string,
  handlers: Handler[],
  parameters: Record<string, unknown>,
): Promise<void> {
  for (const e of handlers) {
    const args = Object.fromEntries(
      e.arguments.map((a) => [a.name, Object.hasOwn(parameters, a.name) ? parameters[a.name] : a.default]),
    );
    await queueServiceEvent(tx, serviceId, {
      event: 'webhook',
      scriptId: e.scriptId,
      scriptName: e.scriptName,
      scriptEventId: e.scriptEventId,
      arguments: args,
    });
  }
}

export function registerWebhookRoutes(router: ApiRouter, ctx: ServerContext): void {
  router.open('POST', '/sentinel/services/:id/webhook', async (c) => {
    const serviceId = param(c, 'id').toLowerCase();
    const text = await readText(c);
    const { rows } = UUID.test(serviceId)
      ? await ctx.db.query<{ access_key: string }>(
          'SELECT access_key FROM services WHERE service_id = $1 AND NOT deleted',
          [serviceId],
        )
      : { rows: [] };
    if (!rows[0] || !signed(rows[0].access_key, c.req.method, text, signatureOf(c.req.raw.headers)))
      throw noWebhook();

    const { webhook, parameters } = webhookCall(text);

    // Every handler of that name, on every attachment of its script, runs once.
    const handlers = await handlersFor(ctx.db, serviceId, { context: 'webhook', keyword: webhook });
    const events = [...new Map(handlers.map((h) => [h.scriptEventId, h])).values()];
    if (events.length === 0) throw noWebhook();
    await ctx.db.transaction((tx) => queueWebhook(tx, serviceId, events, parameters));
    ctx.scripts.wake();
    return noContent(c);
  });
}
