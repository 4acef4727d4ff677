// Links as routes see them: each service reached the way it connects, the game link or RCON.

import type { Links, ServerContext } from '../context.ts';
import type { LinkServer } from './link/linkServer.ts';
import type { RconConnector } from './rcon/connector.ts';
import { toRconCommand } from './rcon/translate.ts';

/**
 * Commands handed to a server's connection between two turns of the event loop. One is cheap, but
 * a 30,000-line ban import is 30,000 of them: sent as one chain of promises, which runs to its end
 * without a turn between, they held the server's thread for 0.3–0.45 s, and every console's
 * request waited that long.
 */
export const COMMANDS_PER_TURN = 200;

/**
 * Commands sent to one server and not yet answered, at most. Its answers come back as fast as it
 * works through them: 30,000 sent at once came back in bursts of thousands, each burst read and
 * settled without a turn between (10 ms and more), while a game server sent a flood it can only
 * queue. A server that stops answering holds its own queue only, and each wait ends with the
 * commands' timeout or the link's.
 */
export const COMMANDS_IN_FLIGHT = COMMANDS_PER_TURN;

interface Waiting {
  command: Record<string, unknown>;
  resolve(answer: unknown): void;
  reject(e: unknown): void;
}

const nextTurn = () => new Promise((r) => setImmediate(r));

export function combinedLinks(
  ctx: Pick<ServerContext, 'db' | 'reads'>,
  link: LinkServer,
  rcon: RconConnector,
): Links {
  const overRcon = async (serviceId: string) =>
    (await ctx.reads.setting(`connection:${serviceId}`, async () => {
      const { rows } = await ctx.db.query<{ kind: string }>(
        'SELECT connection_kind AS kind FROM services WHERE service_id = $1',
        [serviceId],
      );
      return rows[0]?.kind;
    })) === 'rcon';
  /**
   * Per server, the commands not yet handed to its connection, in call order. One drain per server
   * hands them over one after another: look-ups on separate connections of a pool finish in any
   * order, and a script's kill then loot must not reach the game as loot then kill. A turn's
   * commands are answered (COMMANDS_IN_FLIGHT) before the next turn's are sent.
   */
  const queues = new Map<string, Waiting[]>();
  async function drain(serviceId: string, queue: Waiting[]): Promise<void> {
    // Commands asked for in the same turn as the first go in its batch, not a turn after it.
    await Promise.resolve();
    for (;;) {
      const answers: Promise<unknown>[] = [];
      for (const { command, resolve, reject } of queue.splice(0, COMMANDS_IN_FLIGHT)) {
        try {
          const answer = (await overRcon(serviceId))
            ? rcon.sendCommand(serviceId, command as { type: string })
            : link.sendCommand(serviceId, command);
          answer.then(resolve, reject);
          answers.push(answer);
        } catch (e) {
          reject(e);
        }
      }
      if (queue.length === 0) break;
      await Promise.allSettled(answers);
      await nextTurn();
    }
    queues.delete(serviceId);
  }
  return {
    sendCommand(serviceId, command) {
      return new Promise((resolve, reject) => {
        const queue = queues.get(serviceId);
        if (queue) return void queue.push({ command, resolve, reject });
        const fresh = [{ command, resolve, reject }];
        queues.set(serviceId, fresh);
        void drain(serviceId, fresh);
      });
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
