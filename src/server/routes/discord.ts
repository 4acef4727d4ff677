// GET /sentinel/groups/{id}/discordChatChannels (SENTINEL-API §2.3). This server runs no chat bot,
// so it knows only the channel a group has chosen; the list holds that one, or nothing.

import type { ServerContext } from '../context.ts';
import { ApiException } from '../http/errors.ts';
import { type ApiRouter, json, param } from '../http/router.ts';
import { bitsOn } from '../model/permissions.ts';

export function registerDiscordRoutes(router: ApiRouter, ctx: ServerContext): void {
  router.authed('GET', '/sentinel/groups/:id/discordChatChannels', ['sentinel:read'], async (c, caller) => {
    const groupId = param(c, 'id');
    if ((await bitsOn(ctx.db, 'group', groupId, caller.userId)) === null)
      throw new ApiException(404, 'Not found', 'notFound', { groupId });
    const { rows } = await ctx.db.query(
      `SELECT discord_chat_channel_id AS "channelId", coalesce(discord_chat_channel_name, '') AS name,
              0 AS type, NULL AS "parentChannelId"
         FROM groups WHERE group_id = $1 AND discord_chat_channel_id IS NOT NULL`,
      [groupId],
    );
    return json(c, rows);
  });
}
