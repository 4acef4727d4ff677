// The chat community bot's side of the link (SPEC §4, §5; docs/api.md "Chat community bot"). No
// chat service can be reached from here, so this server offers what the bot would call: redeem a
// group's link code for a community, post the community's chat into the group, and read the
// group's chat to post in the community. The bot authenticates with `Authorization: Bot <token>`.

import { timingSafeEqual } from 'node:crypto';
import { GROUP_LINE_WINDOW, LINK_CODE, onceAcrossServers } from '../../domain/groups.ts';
import type { ServerContext } from '../context.ts';
import { readJson } from '../http/body.ts';
import { ApiException, badRequest, validation } from '../http/errors.ts';
import { type ApiRouter, type Ctx, json, noContent } from '../http/router.ts';
import { deliver } from '../model/gameCommand.ts';
import { connectedOf, epoch } from '../model/service.ts';
import { groupAudience } from './groups.ts';

const MESSAGE_MAX = 1000;

interface FeedRow {
  messageId: string;
  time: number;
  serviceDisplayName: string;
  senderName: string;
  message: string;
  serviceId: string;
  source: string | null;
}

interface LinkedGroup {
  group_id: string;
  name: string;
  enable_group_chat: boolean;
  discord_guild_name: string | null;
}

function requireBot(c: Ctx, token: string): void {
  const given = /^Bot (.+)$/.exec(c.req.header('authorization') ?? '')?.[1] ?? '';
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  if (a.length !== b.length || !timingSafeEqual(a, b))
    throw new ApiException(401, 'Unauthorized', 'unauthorized');
}

const text = (v: unknown, field: string, max: number, optional = false): string | null => {
  if ((v === undefined || v === null || v === '') && optional) return null;
  if (typeof v !== 'string' || v.trim() === '') throw validation(`${field} is required.`, { field });
  if (v.length > max) throw validation(`${field} can be at most ${max} characters.`, { field });
  return v.trim();
};

export function registerChatBotRoutes(router: ApiRouter, ctx: ServerContext): void {
  const { db } = ctx;

  async function body(c: Ctx): Promise<Record<string, unknown>> {
    requireBot(c, ctx.config.chatBotToken);
    const b = await readJson(c);
    if (typeof b !== 'object' || b === null || Array.isArray(b))
      throw badRequest('notObject', 'Send a JSON object.');
    return b as Record<string, unknown>;
  }

  /** The group a community is linked to; forwarding also needs the group's chat forwarding (§5). */
  async function linkedGroup(guildId: unknown, needForwarding: boolean): Promise<LinkedGroup> {
    const id = text(guildId, 'guildId', 100)!;
    const { rows } = await db.query<LinkedGroup>(
      'SELECT group_id, name, enable_group_chat, discord_guild_name FROM groups WHERE discord_guild_id = $1',
      [id],
    );
    const g = rows[0];
    if (!g)
      throw new ApiException(404, 'No group is linked to this community.', 'notLinked', { guildId: id });
    if (needForwarding && !g.enable_group_chat)
      throw new ApiException(
        409,
        'The group does not forward chat: turn chat forwarding on.',
        'forwardingOff',
        {
          groupId: g.group_id,
        },
      );
    return g;
  }

  const publish = async (groupId: string) => {
    for (const n of await groupAudience(db, [{ group_id: groupId }]))
      await ctx.publisher.publish(n.channels, n.event, n.data);
  };

  // Redeem a link code: the group the code was made for is linked to the community.
  router.open('POST', '/chatBot/links', async (c) => {
    const b = await body(c);
    const code = text(b.linkCode, 'linkCode', 6)!.toUpperCase();
    if (!LINK_CODE.test(code)) throw validation('linkCode is not a link code.', { field: 'linkCode' });
    const guildId = text(b.guildId, 'guildId', 100)!;
    const guildName = text(b.guildName, 'guildName', 100)!;
    const channelId = text(b.channelId, 'channelId', 100, true);
    const channelName = text(b.channelName, 'channelName', 100, true);
    const { rows } = await db.query<{ group_id: string; name: string }>(
      `UPDATE groups SET discord_link_code = NULL, discord_guild_id = $2, discord_guild_name = $3,
              discord_chat_channel_id = CASE WHEN enable_group_chat THEN $4 END,
              discord_chat_channel_name = CASE WHEN enable_group_chat THEN $5 END
        WHERE discord_link_code = $1 RETURNING group_id, name`,
      [code, guildId, guildName, channelId, channelName],
    );
    if (!rows[0]) throw new ApiException(404, 'No group is waiting for this link code.', 'linkCodeNotFound');
    await publish(rows[0].group_id);
    return json(c, { groupId: rows[0].group_id, groupName: rows[0].name });
  });

  // The community's chat, to every connected server of the linked group, as a Discord line.
  router.open('POST', '/chatBot/messages', async (c) => {
    const b = await body(c);
    const g = await linkedGroup(b.guildId, true);
    const message = text(b.message, 'message', MESSAGE_MAX)!;
    const senderName = text(b.senderName, 'senderName', 100)!;
    const { rows } = await db.query<{ serviceId: string; displayName: string }>(
      `SELECT s.service_id AS "serviceId", coalesce(s.nickname, s.name) AS "displayName"
         FROM group_services gs JOIN services s ON s.service_id = gs.service_id AND NOT s.deleted
        WHERE gs.group_id = $1`,
      [g.group_id],
    );
    const command = {
      type: 'chat',
      message,
      senderName,
      languageCode: 'en',
      source: 'Discord',
      originName: g.discord_guild_name ?? 'Chat community',
    };
    const connected = await connectedOf(ctx.db, rows);
    await Promise.all(connected.map((s) => deliver(ctx, s, { command, userId: '', groupingKey: null })));
    return noContent(c);
  });

  // The group's chat since `after` (epoch seconds), oldest first, for the bot to post; lines from
  // the community itself are left out, and a line sent to the whole group (one copy per server) is
  // posted once: read from a window before `after`, so a copy whose first was posted already is
  // known as one.
  router.open('GET', '/chatBot/messages', async (c) => {
    requireBot(c, ctx.config.chatBotToken);
    const g = await linkedGroup(c.req.query('guildId'), true);
    const after = Number(c.req.query('after') ?? 0);
    if (!Number.isFinite(after)) throw validation('after must be epoch seconds.', { field: 'after' });
    const { rows } = await db.query<FeedRow>(
      `SELECT l.message_id AS "messageId", ${epoch('l.time')} AS time,
              coalesce(s.nickname, s.name) AS "serviceDisplayName",
              coalesce(l.metadata->>'senderName', 'Unknown') AS "senderName",
              coalesce(l.metadata->>'originalMessage', l.message) AS message,
              l.service_id AS "serviceId", l.metadata->>'source' AS source
         FROM log_messages l JOIN group_services gs ON gs.service_id = l.service_id AND gs.group_id = $1
         JOIN services s ON s.service_id = l.service_id
        WHERE l.event_name = 'chat' AND l.time > to_timestamp($2)
          AND coalesce(l.metadata->>'source', '') <> 'Discord' AND l.metadata->>'originName' IS NULL
        ORDER BY l.time, l.message_id LIMIT 250`,
      [g.group_id, after - GROUP_LINE_WINDOW],
    );
    const once = onceAcrossServers(rows, (r) => ({
      serviceId: r.serviceId,
      time: r.time,
      groupWide: r.source === 'WebGroup',
      sender: r.senderName,
      text: r.message,
    }));
    const messages = once
      .map(([first]) => first)
      .filter((r) => r.time > after)
      .map(({ serviceId: _s, source: _k, ...m }) => m);
    return json(c, { messages });
  });
}
