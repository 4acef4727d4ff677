// A ban's game commands: every one goes out, in order, and a long list leaves the event loop
// turns to serve other requests between its commands.

import { describe, expect, it } from 'vitest';
import type { ServerContext } from '../../src/server/context.ts';
import { BAN_COMMANDS_PER_TURN, tellServices } from '../../src/server/model/ban.ts';

const SERVER = '11111111-1111-4111-8111-111111111111';

/** The database's answer for `n` players on one connected server, and links that record sends. */
function fakeContext(n: number) {
  const sent: string[] = [];
  const ctx = {
    db: {
      query: async () => ({
        rows: Array.from({ length: n }, (_, i) => ({
          service_id: SERVER,
          game_id: `0002${i.toString(16).padStart(28, '0')}`,
          banned: i % 2 === 0,
        })),
      }),
    },
    links: {
      sendCommand: async (_serviceId: string, command: { command: string }) => {
        sent.push(command.command);
      },
    },
  } as unknown as Pick<ServerContext, 'db' | 'links'>;
  return { ctx, sent };
}

describe('tellServices', () => {
  it('sends every command in order, with turns of the event loop between batches', async () => {
    const n = 5 * BAN_COMMANDS_PER_TURN + 3;
    const { ctx, sent } = fakeContext(n);
    // What another request would find when it gets its turn: how many commands had gone out.
    const seenByOthers: number[] = [];
    let watching = true;
    const watch = () => {
      if (!watching) return;
      seenByOthers.push(sent.length);
      setImmediate(watch);
    };
    setImmediate(watch);
    await tellServices(ctx, ['a'], [SERVER]);
    watching = false;

    expect(sent).toHaveLength(n);
    expect(sent[0]).toBe(`banplayer 0002${'0'.repeat(28)}`);
    expect(sent[1]).toMatch(/^unbanplayer 0002/);
    expect(sent[n - 1]).toBe(`banplayer 0002${(n - 1).toString(16).padStart(28, '0')}`);
    // Others had turns while the list was going out, never more than a batch apart.
    const during = seenByOthers.filter((k) => k < n);
    expect(during.length).toBeGreaterThanOrEqual(5);
    for (let i = 1; i < seenByOthers.length; i++)
      expect(seenByOthers[i] - seenByOthers[i - 1]).toBeLessThanOrEqual(BAN_COMMANDS_PER_TURN);
  });
});
