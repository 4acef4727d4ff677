// Links as routes see them: each service reached the way it connects, the game link or RCON.

import type { Links, ServerContext } from '../context.ts';
import type { LinkServer } from './link/linkServer.ts';
import type { RconConnector } from './rcon/connector.ts';
import { toRconCommand } from './rcon/translate.ts';

export function combinedLinks(
  ctx: Pick<ServerContext, 'db' | 'reads'>,
  link: LinkServer,
  rcon: RconConnector,
): Links {
  const overRcon = async (serviceId: string) =>
    (await ctx.reads.get(`connection:${serviceId}`, async () => {
      const { rows } = await ctx.db.query<{ kind: string }>(
        'SELECT connection_kind AS kind FROM services WHERE service_id = $1',
        [serviceId],
      );
      return rows[0]?.kind;
    })) === 'rcon';
  /** Per server, the look-up of the command sent last: the next waits for it before its own. */
  const turns = new Map<string, Promise<unknown>>();
  return {
    sendCommand(serviceId, command) {
      // Commands leave in call order: look-ups on separate connections of a pool finish in any
      // order, and a script's kill then loot must not reach the game as loot then kill.
      const turn = (turns.get(serviceId) ?? Promise.resolve()).then(() => overRcon(serviceId));
      const answer = turn.then((viaRcon) =>
        viaRcon
          ? rcon.sendCommand(serviceId, command as { type: string })
          : link.sendCommand(serviceId, command),
      );
      turns.set(
        serviceId,
        turn.catch(() => {}),
      );
      return answer;
    },
    isConnected: (serviceId) => link.isConnected(serviceId) || rcon.isConnected(serviceId),
    kick(serviceId, why) {
      link.kick(serviceId, why);
      // The holder of an RCON server notices a removal or a new password at its next renewal.
      void rcon.renew();
    },
    async assertCanRun(serviceId, command) {
      if (await overRcon(serviceId)) toRconCommand(command as { type: string });
    },
  };
}
