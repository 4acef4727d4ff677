// Sends the stored deliveries (incidents.ts) to Discord, Slack and mail. Every process of a
// cluster may send: a delivery is claimed by moving its next attempt a lease ahead in the
// statement that picks it (FOR UPDATE SKIP LOCKED), so two never send the same one, and one a
// process died sending is sent again when the lease runs out. Each destination takes its
// deliveries in the order they were made (an all-clear never before its alert), one at a time.
// A 429's retry-after holds the whole destination back, as Discord and Slack ask; a failure
// that may pass (5xx, no answer) is tried again with a growing back-off, one that will not
// (another 4xx: the webhook was deleted) fails at once.

import { ALERT_LIMITS, type Notice, retryDelaySeconds } from '../../domain/alerts.ts';
import type { ServerContext } from '../context.ts';
import { guardedRequest } from '../net/guardedHttp.ts';
import { cut, discordBody, mailOf, slackBody } from './formats.ts';
import type { Mailer } from './mail.ts';

/** A claimed delivery is another process's to retry after this long (it died while sending). */
const LEASE_SECONDS = 120;
const BATCH = 20;
const REQUEST_TIMEOUT_MS = 10_000;

interface Claimed {
  delivery_id: string;
  destination_id: string;
  kind: 'discord' | 'slack' | 'email';
  address: string;
  unsubscribe_token: string | null;
  notice: Notice;
  attempts: number;
}

/** What an attempt came to. */
type Outcome =
  | { sent: true; answer: string }
  | { sent: false; answer: string; retryAfter?: number; final?: boolean };

const CLAIM = `
  UPDATE alert_deliveries d SET next_attempt = now() + $1 * interval '1 second', attempts = d.attempts + 1
    FROM alert_destinations t
   WHERE t.destination_id = d.destination_id
     AND d.delivery_id IN (
       SELECT d2.delivery_id FROM alert_deliveries d2
         JOIN alert_destinations t2 ON t2.destination_id = d2.destination_id
        WHERE d2.status = 'pending' AND d2.next_attempt <= now()
          AND (t2.blocked_until IS NULL OR t2.blocked_until <= now())
          AND NOT EXISTS (SELECT 1 FROM alert_deliveries e
                           WHERE e.destination_id = d2.destination_id AND e.status = 'pending'
                             AND (e.date_created, e.delivery_id) < (d2.date_created, d2.delivery_id))
        ORDER BY d2.next_attempt LIMIT $2
        FOR UPDATE OF d2 SKIP LOCKED)
  RETURNING d.delivery_id, d.destination_id, t.kind, t.address, t.unsubscribe_token, d.notice, d.attempts`;

/** Seconds a 429 asks to wait: Discord's body says it to the millisecond, both say it in Retry-After. */
function retryAfter(headers: Record<string, string>, body: string): number {
  let seconds = Number(headers['retry-after']);
  try {
    const parsed = JSON.parse(body) as { retry_after?: unknown };
    if (typeof parsed.retry_after === 'number') seconds = parsed.retry_after;
  } catch {
    // Slack answers text.
  }
  if (!Number.isFinite(seconds) || seconds < 0) seconds = retryDelaySeconds(1);
  return Math.min(seconds, ALERT_LIMITS.maxRetryAfterSeconds);
}

async function post(ctx: ServerContext, url: string, body: unknown): Promise<Outcome> {
  try {
    const r = await guardedRequest(
      'POST',
      url,
      JSON.stringify(body),
      { 'Content-Type': 'application/json', 'User-Agent': 'Palisade alerts' },
      {
        allow: ctx.config.outboundAllow,
        timeoutMs: REQUEST_TIMEOUT_MS,
        maxBytes: 64 * 1024,
        label: 'Webhook',
      },
    );
    const answer = cut(`HTTP ${r.status}${r.body ? `: ${r.body.replace(/\s+/g, ' ').trim()}` : ''}`, 300);
    if (r.status >= 200 && r.status < 300) return { sent: true, answer };
    if (r.status === 429) return { sent: false, answer, retryAfter: retryAfter(r.headers, r.body) };
    // A request that will not do better next time: the webhook is gone, or refuses what we send.
    const final = r.status >= 400 && r.status < 500 && r.status !== 408;
    return { sent: false, answer, final };
  } catch (e) {
    return { sent: false, answer: cut((e as Error).message, 300) };
  }
}

async function attempt(ctx: ServerContext, mailer: Mailer | null, d: Claimed): Promise<Outcome> {
  if (d.kind === 'discord') return post(ctx, d.address, discordBody(d.notice));
  if (d.kind === 'slack') return post(ctx, d.address, slackBody(d.notice));
  if (!mailer)
    return { sent: false, answer: 'This installation sends no mail (no relay is configured).', final: true };
  const unsubscribe = d.unsubscribe_token
    ? `${ctx.config.publicUrl}/v4/unsubscribe/${d.unsubscribe_token}`
    : null;
  try {
    const answer = await mailer.send(d.address, mailOf(d.notice, unsubscribe));
    return { sent: true, answer: cut(answer, 300) };
  } catch (e) {
    const code = (e as { responseCode?: number }).responseCode;
    // 5xx from the relay is a permanent refusal (RFC 5321 §4.2.1); 4xx and no answer may pass.
    return { sent: false, answer: cut((e as Error).message, 300), final: code !== undefined && code >= 500 };
  }
}

async function settle(ctx: ServerContext, d: Claimed, o: Outcome): Promise<void> {
  if (o.sent) {
    await ctx.db.query(
      `UPDATE alert_deliveries SET status = 'sent', answer = $2, date_sent = now() WHERE delivery_id = $1`,
      [d.delivery_id, o.answer],
    );
    return;
  }
  if (o.retryAfter !== undefined) {
    // Asked to wait is not a failed attempt: the attempt is given back.
    await ctx.db.transaction(async (tx) => {
      await tx.query(
        `UPDATE alert_deliveries SET attempts = attempts - 1, answer = $2,
                next_attempt = now() + $3 * interval '1 second' WHERE delivery_id = $1`,
        [d.delivery_id, o.answer, o.retryAfter],
      );
      await tx.query(
        `UPDATE alert_destinations SET blocked_until = now() + $2 * interval '1 second' WHERE destination_id = $1`,
        [d.destination_id, o.retryAfter],
      );
    });
    return;
  }
  const failed = o.final === true || d.attempts >= ALERT_LIMITS.attempts;
  await ctx.db.query(
    `UPDATE alert_deliveries SET status = CASE WHEN $3 THEN 'failed' ELSE 'pending' END, answer = $2,
            next_attempt = now() + $4 * interval '1 second' WHERE delivery_id = $1`,
    [d.delivery_id, o.answer, failed, retryDelaySeconds(d.attempts)],
  );
}

export interface Deliverer {
  /** Something was stored to send: look now rather than at the next poll. */
  wake(): void;
  /** Sends what is due until nothing is; resolves when done (tests wait on it). */
  drain(): Promise<void>;
  close(): Promise<void>;
}

export function createDeliverer(ctx: ServerContext, mailer: Mailer | null, pollMs: number): Deliverer {
  let running: Promise<void> | null = null;
  let again = false;
  let closed = false;

  async function round(): Promise<number> {
    const { rows } = await ctx.db.query<Claimed>(CLAIM, [LEASE_SECONDS, BATCH]);
    // Each destination's one delivery of the round goes at the same time as the others'.
    await Promise.all(rows.map(async (d) => settle(ctx, d, await attempt(ctx, mailer, d))));
    return rows.length;
  }

  const drain = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          while (!closed && (await round()) > 0) {}
        } while (again && !closed);
      } catch (e) {
        console.error('alerts: sending failed:', (e as Error).message);
      } finally {
        running = null;
      }
    })();
    return running;
  };

  const timer = setInterval(() => void drain(), pollMs);
  timer.unref();
  return {
    wake: () => void drain(),
    drain,
    async close() {
      closed = true;
      clearInterval(timer);
      await running;
    },
  };
}
