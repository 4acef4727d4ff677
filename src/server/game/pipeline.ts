// What follows a game event once it is stored, whatever brought it (the mod's link, RCON, the
// simulator through either): its line published to the consoles, a chat line relayed to the
// server's groups, the scripts attached to the server run. Both connections call this one place,
// so a server connected over RCON does all that a linked one does.

import type { LogMessage } from '../../domain/api.ts';
import type { ServerContext } from '../context.ts';
import { relayGroupChat } from '../model/groupChat.ts';
import { publishLogRows } from '../model/logMessage.ts';
import type { GameEvent } from '../model/world.ts';

/**
 * `stored[i]` is `events[i]`'s line, null when it was stored before (a repeat): a repeat is
 * neither published nor relayed, and runs no script a second time.
 */
export async function afterStored(
  ctx: ServerContext,
  serviceId: string,
  events: readonly GameEvent[],
  stored: readonly (LogMessage | null)[],
): Promise<void> {
  await publishLogRows(
    ctx,
    stored.filter((line) => line !== null),
  );
  for (const [i, event] of events.entries()) {
    const line = stored[i];
    if (!line) continue;
    // A relay waits on other servers' answers: it must not hold up this server's next events.
    if (event.eventName === 'chat')
      relayGroupChat(ctx, serviceId, line.messageId).catch((e) =>
        console.error(`game: relaying ${serviceId}'s chat failed:`, e.message),
      );
    ctx.scripts.onGameEvent(serviceId, event);
  }
}
