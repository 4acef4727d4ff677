// The caller as the lists' SQL names them: their id, and the services whose rows they see, read
// once and passed as one array parameter.

import type { ServerContext } from '../context.ts';
import type { Queryable } from '../db/db.ts';
import type { Params } from '../http/listQuery.ts';

/**
 * The caller's services (not deleted) as a list, fetched first: as a subquery over the
 * service_permissions view the planner expects one row and sorts every match by time (134 ms at
 * 200k log lines, seconds at a million); with the list it walks the time index backwards and
 * stops at the page (3 ms). A query naming the view is also planned with it each time: a dino
 * search walking fourteen names planned it fourteen times, 13-15 ms. Deleted services are left
 * out here so that counting needs no join. Asked for every page of every reader and changed only
 * by writes through the API, it is kept in the read cache: a third of what a log page cost the
 * embedded database.
 */
export function visibleServiceIds(ctx: ServerContext, userId: string, tx?: Queryable): Promise<string[]> {
  // Inside a transaction through it, and not through the cache: on PGlite a read beside the
  // transaction, or another request's cached read still loading, would wait for it to end.
  if (tx) return servicesOf(tx, userId);
  return ctx.reads.get(`visibleServices:${userId}`, () => servicesOf(ctx.db, userId));
}

async function servicesOf(q: Queryable, userId: string): Promise<string[]> {
  const { rows } = await q.query<{ service_id: string }>(
    `SELECT p.service_id FROM service_permissions p JOIN services s ON s.service_id = p.service_id
      WHERE p.user_id = $1::uuid AND NOT s.deleted`,
    [userId],
    'visible-services',
  );
  return rows.map((r) => r.service_id);
}

/** Parameters naming the caller in one statement. */
export interface Viewer {
  /** The caller's id. */
  user: string;
  /** Their services as a uuid[] (visibleServiceIds), added when the SQL first asks for it. */
  services(): string;
}

/**
 * The caller in `p`: their services are read now (in `tx` when the statement is part of it) and
 * added to `p` only if a query uses them.
 */
export async function viewerOf(
  ctx: ServerContext,
  p: Params,
  userId: string,
  tx?: Queryable,
): Promise<Viewer> {
  const user = p.add(userId);
  const ids = await visibleServiceIds(ctx, userId, tx);
  let services: string | undefined;
  return { user, services: () => (services ??= p.add(ids)) };
}
