// Private-channel authorisation for pusher-js (SENTINEL-API §5): who may listen to what.

import { UUID } from '../../domain/constants.ts';
import type { ServerContext } from '../context.ts';
import type { Queryable } from '../db/db.ts';
import { readFields, str } from '../http/body.ts';
import { ApiException, badRequest, forbidden } from '../http/errors.ts';
import { type ApiRouter, json } from '../http/router.ts';
import { signChannel } from '../realtime/pusherServer.ts';
import { userChannelAuth } from '../realtime/signing.ts';

/** Channel kind → the id property named in a refusal and the SQL proving Membership ($1 id, $2 user). */
const MEMBERSHIP: Record<string, { idProp: string; sql: string }> = {
  services: {
    idProp: 'serviceId',
    sql: 'SELECT 1 FROM service_permissions WHERE service_id = $1 AND user_id = $2',
  },
  characters: {
    idProp: 'characterId',
    sql: `SELECT 1 FROM characters x JOIN service_permissions sp ON sp.service_id = x.service_id
           WHERE x.character_id = $1 AND sp.user_id = $2`,
  },
  tribes: {
    idProp: 'tribeId',
    sql: `SELECT 1 FROM tribes x JOIN service_permissions sp ON sp.service_id = x.service_id
           WHERE x.tribe_id = $1 AND sp.user_id = $2`,
  },
  dinos: {
    idProp: 'dinoId',
    sql: `SELECT 1 FROM dinos x JOIN service_permissions sp ON sp.service_id = x.service_id
           WHERE x.dino_id = $1 AND sp.user_id = $2`,
  },
  buckets: {
    idProp: 'bucketId',
    sql: 'SELECT 1 FROM bucket_permissions WHERE bucket_id = $1 AND user_id = $2',
  },
  scripts: {
    idProp: 'scriptId',
    sql: 'SELECT 1 FROM script_permissions WHERE script_id = $1 AND user_id = $2',
  },
  groups: { idProp: 'groupId', sql: 'SELECT 1 FROM group_permissions WHERE group_id = $1 AND user_id = $2' },
};

const notFound = (details: unknown) => new ApiException(404, 'Not found', 'notFound', details);

/** Throws the refusal of §5 unless userId may join channel. */
export async function authorizeChannel(db: Queryable, userId: string, channel: string): Promise<void> {
  if (!channel.startsWith('private-')) return;
  const users = /^private-users\.(.+)$/.exec(channel);
  if (users) {
    if (users[1].toLowerCase() !== userId) throw forbidden({ channel });
    return;
  }
  const sentinel = /^private-sentinel\.([a-z]+)\.(.+)$/.exec(channel);
  if (sentinel) {
    const [, kind, id] = sentinel;
    if (kind === 'players') return;
    const rule = MEMBERSHIP[kind];
    if (rule) {
      const ok = UUID.test(id) && (await db.query(rule.sql, [id.toLowerCase(), userId])).rows.length > 0;
      if (!ok) throw notFound({ [rule.idProp]: id });
      return;
    }
  }
  throw notFound({ prefix: channel.split('.')[0] });
}

export function registerPusherRoutes(router: ApiRouter, ctx: ServerContext): void {
  router.authed('POST', '/pusher/channelAuth', [], async (c, caller) => {
    const f = await readFields(c);
    const socketId = str(f.socket_id);
    const channel = str(f.channel_name);
    if (!/^\d+\.\d+$/.test(socketId) || !channel)
      throw badRequest('missingParameters', 'Send socket_id and channel_name.');
    await authorizeChannel(ctx.db, caller.userId, channel);
    const { key, secret, builtIn } = ctx.config.pusher;
    // Our own endpoint takes a grant naming the user, and checks it again when access narrows;
    // a Pusher service takes only its own format.
    return json(c, {
      auth: builtIn
        ? userChannelAuth(key, secret, socketId, channel, caller.userId)
        : `${key}:${signChannel(secret, socketId, channel)}`,
    });
  });
}
