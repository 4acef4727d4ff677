// POST /sentinel/chat (SENTINEL-API §2.3): a web chat line to a service or to every service of a
// group, needing Membership on each. The original queues it for a watcher; here the line goes
// straight to each connected game server as a `chat` game command, and the game's own chat event
// (stored and published like any other) is what the chat views show.

import { Msg } from '../../domain/messages.ts';
import { Perm } from '../../domain/permissions.ts';
import type { ServerContext } from '../context.ts';
import { readJson } from '../http/body.ts';
import { ApiException, badRequest } from '../http/errors.ts';
import { type ApiRouter, noContent } from '../http/router.ts';
import { hasTarget, servicesForTarget } from '../model/commandTarget.ts';
import { deliver } from '../model/gameCommand.ts';
import { connectedOf } from '../model/service.ts';

const WRITE = ['sentinel:read', 'sentinel:write'];
const MESSAGE_MAX = 1000;

export function registerChatRoutes(router: ApiRouter, ctx: ServerContext): void {
  router.authed('POST', '/sentinel/chat', WRITE, async (c, caller) => {
    const body = await readJson(c);
    const b = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<
      string,
      unknown
    >;
    const message = typeof b.message === 'string' ? b.message.trim() : '';
    if (message === '') throw badRequest('missingMessage', 'The chat message is empty.');
    if (message.length > MESSAGE_MAX)
      throw badRequest('validation', `A chat message can be at most ${MESSAGE_MAX} characters.`);
    if (!hasTarget(b)) throw badRequest('missingTargetId', 'Send a serviceId or a groupId.');
    const senderName =
      typeof b.senderName === 'string' && b.senderName.trim() !== '' ? b.senderName.trim() : 'Server';

    const targets = await servicesForTarget(ctx.db, caller.userId, b, Perm.Membership);
    const connected = await connectedOf(ctx.db, targets);
    if (connected.length === 0)
      throw new ApiException(412, Msg.serviceNotConnected, 'serviceNotConnected', {
        serviceId: b.serviceId ?? null,
        groupId: b.groupId ?? null,
      });
    // The game shows (and stores) whether the line was sent to the server or to its group.
    const source = typeof b.groupId === 'string' && b.groupId !== '' ? 'WebGroup' : 'WebService';
    const command = { type: 'chat', message, senderName, languageCode: 'en', source };
    const results = await Promise.all(
      connected.map((t) => deliver(ctx, t, { command, userId: caller.userId, groupingKey: null })),
    );
    const failed = results.find((r) => !r.ok);
    if (failed && results.every((r) => !r.ok))
      throw new ApiException(502, failed.message ?? 'The chat message was not delivered.', failed.code);
    return noContent(c);
  });
}
