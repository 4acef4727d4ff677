// The server limit of SPEC §4: an owner with more servers than their subscription allows has none
// connected. The game-server link asks here before it welcomes a server, and every change of a
// subscription (a plan change, a refund, a renewal or an expiry) drops the links it no longer allows.

import { RealtimeEvent } from '../../domain/api.ts';
import type { LinkRefusal } from '../../domain/billing.ts';
import type { ServerContext } from '../context.ts';
import { publishServiceChanged, publishToUsers } from '../model/service.ts';
import { renewDue } from './subscriptions.ts';

/**
 * The servers `servers` selects (a query answering service_id and user_id), each with its owner's
 * servers, the servers their valid subscriptions allow, and whether they ever subscribed. Owners
 * are counted once each, not once per server: the RCON connector asks for every server it holds at
 * each renewal, and 500 servers of one owner counted per server read 250,000 rows (68 ms of the
 * database's time, every 1.5 s). MATERIALIZED: inlined, the counts moved above the join, once a row.
 */
const withOwnerLimits = (servers: string) => `
  WITH s AS (${servers}),
  owners AS MATERIALIZED (
    SELECT u.user_id,
      (SELECT count(*) FROM services o WHERE o.user_id = u.user_id AND NOT o.deleted)::int AS used,
      (SELECT coalesce(sum(b.units_allowed), 0) FROM subscriptions b
        WHERE b.user_id = u.user_id AND b.product_game_id = 'Sentinel' AND b.expiration > now())::int AS allowed,
      EXISTS (SELECT 1 FROM subscriptions b WHERE b.user_id = u.user_id AND b.product_game_id = 'Sentinel')
        AS subscribed
    FROM (SELECT DISTINCT user_id FROM s) u)
  SELECT s.service_id, owners.used, owners.allowed, owners.subscribed FROM s JOIN owners USING (user_id)`;

interface OwnerLimit {
  used: number;
  allowed: number;
  subscribed: boolean;
}

function refusalOf(l: OwnerLimit): LinkRefusal | null {
  if (!l.subscribed) return 'noSubscription';
  if (l.allowed === 0) return 'expired';
  return l.used > l.allowed ? 'tooManyServers' : null;
}

/**
 * Why this server may not connect now, or null. The reason is kept on the server for its owner to
 * see (the server list and setup page), and anyone watching hears when it changes.
 */
export async function linkRefusal(ctx: ServerContext, serviceId: string): Promise<LinkRefusal | null> {
  return (await linkRefusals(ctx, [serviceId])).get(serviceId) ?? null;
}

/** linkRefusal for many servers in two statements (the RCON connector asks for all it holds). */
export async function linkRefusals(
  ctx: ServerContext,
  serviceIds: readonly string[],
): Promise<Map<string, LinkRefusal | null>> {
  const refusals = new Map<string, LinkRefusal | null>();
  if (serviceIds.length === 0) return refusals;
  const { rows } = await ctx.db.query<OwnerLimit & { service_id: string }>(
    withOwnerLimits('SELECT service_id, user_id FROM services WHERE service_id = ANY($1::uuid[])'),
    [[...serviceIds]],
  );
  for (const r of rows) refusals.set(r.service_id, refusalOf(r));
  const ids = [...refusals.keys()];
  const changed = await ctx.db.query<{ service_id: string }>(
    `UPDATE services s SET link_refusal = v.refusal
       FROM unnest($1::uuid[], $2::text[]) AS v(id, refusal)
      WHERE s.service_id = v.id AND s.link_refusal IS DISTINCT FROM v.refusal
      RETURNING s.service_id`,
    [ids, ids.map((id) => refusals.get(id) ?? null)],
  );
  for (const r of changed.rows) await publishServiceChanged(ctx, r.service_id);
  return refusals;
}

/**
 * Drops the connected game-server links of these owners (all owners when omitted) that their
 * subscription no longer allows; each is refused again, with its reason, when it reconnects.
 */
export async function enforceLimits(ctx: ServerContext, userIds?: readonly string[]): Promise<number> {
  const { rows } = await ctx.db.query<OwnerLimit & { service_id: string }>(
    withOwnerLimits(`SELECT service_id, user_id FROM services
      WHERE is_connected AND NOT deleted AND connection_kind = 'link'
        AND ($1::uuid[] IS NULL OR user_id = ANY($1::uuid[]))`),
    [userIds ? [...userIds] : null],
  );
  let dropped = 0;
  for (const r of rows) {
    const refusal = refusalOf(r);
    if (!refusal) continue;
    await ctx.db.query('UPDATE services SET link_refusal = $2 WHERE service_id = $1', [
      r.service_id,
      refusal,
    ]);
    await publishServiceChanged(ctx, r.service_id);
    ctx.links.kick(r.service_id, 'subscription');
    dropped++;
  }
  return dropped;
}

/**
 * The billing job: renews the plans that are due, then drops the links of every owner whose
 * subscription no longer allows them (one that expired on its date among them).
 */
export async function billingTick(ctx: ServerContext, now = new Date()): Promise<void> {
  const renewed = await renewDue(ctx.db, ctx.billing, ctx.config.plans, now);
  await publishToUsers(ctx, renewed, RealtimeEvent.userUpdated);
  await enforceLimits(ctx);
}
