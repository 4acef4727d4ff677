// bans.txt (SENTINEL-API §2.3): the ban list a game server pulls (its BanListURL), and imports of
// such lists into a server or a group. Served as text/plain (the original says JSON); groups
// have a list too (ours).

import { channelFor } from '../../domain/api.ts';
import { BANS_UPDATED, formatBanList } from '../../domain/bans.ts';
import { UUID } from '../../domain/constants.ts';
import { BODY_BYTES_MAX, textProblem } from '../../domain/limits.ts';
import { hasAll, Perm } from '../../domain/permissions.ts';
import type { ServerContext } from '../context.ts';
import type { Queryable } from '../db/db.ts';
import { readText } from '../http/body.ts';
import { badRequest, forbidden } from '../http/errors.ts';
import { type ApiRouter, type Ctx, noContent, param, pusherSocketOf } from '../http/router.ts';
import { activeBanList, GROUP_BANS, SERVICE_BANS, servicesReached, tellServices } from '../model/ban.ts';
import { importBanList } from '../model/banImport.ts';
import { check } from '../model/classPath.ts';

const WRITE = ['sentinel:read', 'sentinel:write'];

const text = (c: Ctx, body: string, status = 200) =>
  c.body(body, status as 200, { 'Content-Type': 'text/plain; charset=utf-8' });

async function exists(db: Queryable, owner: 'service' | 'group', id: string): Promise<boolean> {
  if (!UUID.test(id)) return false;
  const sql =
    owner === 'service'
      ? 'SELECT 1 FROM services WHERE service_id = $1 AND NOT deleted'
      : 'SELECT 1 FROM groups WHERE group_id = $1';
  return (await db.query(sql, [id])).rows.length > 0;
}

/** ControlServices on the server, or on at least one server of the group (§2.3). */
async function mayImport(
  db: Queryable,
  owner: 'service' | 'group',
  id: string,
  userId: string,
): Promise<boolean> {
  const { rows } = await db.query<{ permissions: number }>(
    owner === 'service'
      ? 'SELECT permissions FROM service_permissions WHERE service_id = $1 AND user_id = $2'
      : `SELECT sp.permissions FROM service_permissions sp JOIN group_services gs ON gs.service_id = sp.service_id
          WHERE gs.group_id = $1 AND sp.user_id = $2`,
    [id, userId],
  );
  return rows.some((r) => hasAll(r.permissions, Perm.ControlServices));
}

export function registerBanListRoutes(router: ApiRouter, ctx: ServerContext): void {
  const { db } = ctx;

  for (const owner of ['service', 'group'] as const) {
    const path = `/sentinel/${owner}s/:id/bans.txt`;
    const k = owner === 'service' ? SERVICE_BANS : GROUP_BANS;

    router.open('GET', path, async (c) => {
      const id = param(c, 'id').toLowerCase();
      if (!(await exists(db, owner, id)))
        return text(
          c,
          owner === 'service' ? "That's not a Beacon Sentinel Server ID." : 'That is not a group id.',
          400,
        );
      return text(c, formatBanList(await activeBanList(db, owner, id)));
    });

    router.authed('POST', path, WRITE, async (c, caller) => {
      const id = param(c, 'id').toLowerCase();
      if (!UUID.test(id)) throw badRequest('badId', `That is not a ${owner} id.`);
      if (!(await mayImport(db, owner, id, caller.userId))) throw forbidden({ [k.ownerProp]: id });
      const list = await readText(c);
      check(textProblem(list, 'The ban list', 'noControls', BODY_BYTES_MAX));
      const players = await importBanList(db, {
        owner,
        ownerId: id,
        issuerId: caller.userId,
        list,
        now: Date.now() / 1000,
      });
      // Telling the game servers needs their links, which are this thread's.
      const services = await db.background(async (conn) => {
        const reached = await servicesReached(conn, k, id);
        await tellServices({ db: conn, links: ctx.links }, players, reached);
        return reached;
      });
      const channels = services.map((s) => channelFor('services', s));
      if (owner === 'group') channels.push(channelFor('groups', id));
      if (channels.length)
        await ctx.publisher.publish(channels, BANS_UPDATED, { [k.ownerProp]: id }, pusherSocketOf(c));
      return noContent(c);
    });
  }
}
