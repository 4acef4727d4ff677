// The game commands every route and script sends: each server's go out in call order, whichever
// connection carries them, and a long list leaves the event loop turns to serve other requests.

import { describe, expect, it } from 'vitest';
import type { ServerContext } from '../../src/server/context.ts';
import type { LinkServer } from '../../src/server/game/link/linkServer.ts';
import { COMMANDS_IN_FLIGHT, COMMANDS_PER_TURN, combinedLinks } from '../../src/server/game/links.ts';
import type { RconConnector } from '../../src/server/game/rcon/connector.ts';
import { createReadCache } from '../../src/server/model/readCache.ts';

const MOD = '11111111-1111-4111-8111-111111111111';
const RCON = '22222222-2222-4222-8222-222222222222';

/**
 * Links over a mod server and an RCON server that record what each was sent and answer `ok
 * <command>`; `held`, the mod server answers only once the test says so.
 */
function links({ lookupFails = false, held = false } = {}) {
  const sent: string[] = [];
  const waiting: (() => void)[] = [];
  const answer = (via: string) => async (serviceId: string, c: Record<string, unknown>) => {
    sent.push(`${via} ${serviceId === MOD ? 'mod' : 'rcon'} ${String(c.command)}`);
    if (held && serviceId === MOD) await new Promise<void>((r) => waiting.push(r));
    if (c.command === 'refuse') throw new Error('refused');
    return `ok ${String(c.command)}`;
  };
  const ctx = {
    db: {
      query: async (_sql: string, [id]: string[]) => {
        if (lookupFails) throw new Error('database down');
        // A lookup that takes longer for the mod server: call order must win over answer order.
        await new Promise((r) => setTimeout(r, id === MOD ? 5 : 0));
        return { rows: [{ kind: id === RCON ? 'rcon' : 'link' }] };
      },
    },
    reads: createReadCache(),
  } as unknown as Pick<ServerContext, 'db' | 'reads'>;
  const link = { sendCommand: answer('link') } as unknown as LinkServer;
  const rcon = { sendCommand: answer('rcon') } as unknown as RconConnector;
  /** Answers every command the mod server holds so far. */
  const answerHeld = () => {
    for (const r of waiting.splice(0)) r();
  };
  return { links: combinedLinks(ctx, link, rcon), sent, answerHeld };
}

/** One turn of the event loop. */
const settle = () => new Promise((r) => setTimeout(r, 0));

const admin = (command: string) => ({ type: 'admin', command });

describe('combinedLinks.sendCommand', () => {
  it('sends every command of a long list in call order, with turns of the event loop between batches', async () => {
    const { links: l, sent } = links();
    const n = 5 * COMMANDS_PER_TURN + 3;
    // What another request would find when it gets its turn: how many commands had gone out.
    const seenByOthers: number[] = [];
    let watching = true;
    const watch = () => {
      if (!watching) return;
      seenByOthers.push(sent.length);
      setImmediate(watch);
    };
    setImmediate(watch);
    const answers = await Promise.all(
      Array.from({ length: n }, (_, i) => l.sendCommand(MOD, admin(`c${i}`))),
    );
    watching = false;
    seenByOthers.push(sent.length);

    expect(sent).toEqual(Array.from({ length: n }, (_, i) => `link mod c${i}`));
    expect(answers[n - 1]).toBe(`ok c${n - 1}`);
    // Others saw the list part sent, at each batch, and never more than a batch gone since their last turn.
    expect(new Set(seenByOthers.filter((k) => k > 0 && k < n)).size).toBeGreaterThanOrEqual(5);
    for (let i = 1; i < seenByOthers.length; i++)
      expect(seenByOthers[i]! - seenByOthers[i - 1]!).toBeLessThanOrEqual(COMMANDS_PER_TURN);
  });

  it('keeps each server’s order, sends each by its own connection, and passes on each answer or refusal', async () => {
    const { links: l, sent } = links();
    const results = await Promise.allSettled([
      l.sendCommand(MOD, admin('kill')),
      l.sendCommand(RCON, admin('a')),
      l.sendCommand(MOD, admin('refuse')),
      l.sendCommand(MOD, admin('loot')),
      l.sendCommand(RCON, admin('b')),
    ]);
    expect(sent.filter((s) => s.includes(' mod '))).toEqual([
      'link mod kill',
      'link mod refuse',
      'link mod loot',
    ]);
    expect(sent.filter((s) => s.includes(' rcon '))).toEqual(['rcon rcon a', 'rcon rcon b']);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([
      'ok kill',
      'ok a',
      'refused',
      'ok loot',
      'ok b',
    ]);
    // Once a server's queue is empty, a later command starts a new one.
    await expect(l.sendCommand(MOD, admin('again'))).resolves.toBe('ok again');
  });

  it('keeps at most a window of commands unanswered per server, sending more as they are answered', async () => {
    const { links: l, sent, answerHeld } = links({ held: true });
    const n = 2 * COMMANDS_IN_FLIGHT + 5;
    const all = Promise.all(Array.from({ length: n }, (_, i) => l.sendCommand(MOD, admin(`c${i}`))));
    // Another server's commands do not wait for this one's answers.
    await expect(l.sendCommand(RCON, admin('elsewhere'))).resolves.toBe('ok elsewhere');
    const toMod = () => sent.filter((s) => s.includes(' mod ')).length;
    for (const window of [COMMANDS_IN_FLIGHT, 2 * COMMANDS_IN_FLIGHT, n]) {
      await expect.poll(toMod).toBe(window);
      // Nothing more goes out in the turns that follow while they are unanswered.
      for (let i = 0; i < 5; i++) await settle();
      expect(toMod()).toBe(window);
      answerHeld();
    }
    expect((await all)[n - 1]).toBe(`ok c${n - 1}`);
  });

  it('refuses a command whose connection cannot be looked up', async () => {
    const { links: l, sent } = links({ lookupFails: true });
    await expect(l.sendCommand(MOD, admin('x'))).rejects.toThrow('database down');
    expect(sent).toEqual([]);
  });
});
