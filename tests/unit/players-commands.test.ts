// The player and ban commands as the console and the palette drive them: what a typed line
// becomes, what is sent, and the messages for what is wrong.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EntityLookup, EntityRef } from '../../commands/args.ts';
import { createRegistry } from '../../commands/index.ts';
import { execute, parseArgs } from '../../commands/registry.ts';
import { BanMsg } from '../../src/domain/bans.ts';
import { Msg } from '../../src/domain/messages.ts';
import { parseLine } from '../../src/web/terminal/parse.ts';
import { fakeCommandContext } from './commandContext-fixture.ts';

const bob: EntityRef = { kind: 'player', id: 'p-bob', label: 'Bob' };
const island: EntityRef = { kind: 'server', id: 's-island', label: 'Island PvE' };
const cluster: EntityRef = { kind: 'group', id: 'g-cluster', label: 'Demo Cluster' };
const known = [bob, island, cluster];

const lookup: EntityLookup = {
  search: () => [],
  resolve: async (kinds, text) => known.filter((e) => kinds.includes(e.kind) && e.label === text),
};

const registry = createRegistry();
const NOW = 1_800_000_000;

function context(route: string) {
  const http = vi.fn(
    async (_method: string, _path: string, _opts?: unknown): Promise<unknown> => ({
      results: [],
    }),
  );
  const ctx = fakeCommandContext(http, { route, entities: lookup });
  return { ctx, http };
}

/** A console line as the console pane reads it: words to raw values, raw values to typed ones. */
async function consoleValues(line: string, route = '/servers/s-island/sessions') {
  const parsed = parseLine(line, registry);
  expect(parsed.errors).toEqual([]);
  const { ctx } = context(route);
  return parseArgs(parsed.cmd!, parsed.raw, lookup, ctx);
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW * 1000);
});
afterEach(() => vi.useRealTimers());

describe('ban.create', () => {
  it('reads `ban Bob 7d griefing on the base` as the player, a 7 day expiry and the comments', async () => {
    const { values, errors } = await consoleValues('ban Bob 7d griefing on the base');
    expect(errors).toEqual({});
    // The server in view is the target; the ban ends 604800 seconds (7 days) from now.
    expect(values).toEqual({
      player: [bob],
      expires: '7d',
      comments: 'griefing on the base',
      targets: [{ kind: 'server', id: 's-island', label: 's-island' }],
    });

    const { ctx, http } = context('/servers/s-island/sessions');
    const result = await registry.get('ban.create')!.run(values as never, ctx);
    expect(result?.message).toBe('Created 1 ban.');
    const [method, path, opts] = http.mock.calls[0];
    expect([method, path]).toEqual(['POST', '/sentinel/serviceBans']);
    const body = (opts as { body: { expiration: number } }).body;
    expect(body).toEqual({
      serviceId: 's-island',
      playerId: 'p-bob',
      comments: 'griefing on the base',
      expiration: NOW + 604800,
    });
    expect(body.expiration - NOW).toBe(604800);
  });

  it('bans on a group by flag, and permanently when the expiry says so', async () => {
    const { values } = await consoleValues('ban Bob perm cheating --targets "Demo Cluster"', '/players');
    const { ctx, http } = context('/players');
    await registry.get('ban.create')!.run(values as never, ctx);
    expect(http).toHaveBeenCalledWith(
      'POST',
      '/sentinel/groupBans',
      expect.objectContaining({
        body: { groupId: 'g-cluster', playerId: 'p-bob', comments: 'cheating', expiration: null },
      }),
    );
  });

  it('names each problem: a bad expiry, no comments, nothing to ban on', async () => {
    expect((await consoleValues('ban Bob soon griefing')).errors).toEqual({ expires: BanMsg.expiryBad });
    expect((await consoleValues('ban Bob 2001-01-01 griefing')).errors).toEqual({
      expires: BanMsg.expiryPast,
    });
    expect((await consoleValues('ban Bob 7d')).errors).toEqual({ comments: 'Comments is required.' });
    const { values } = await consoleValues('ban Bob 7d griefing', '/players');
    const { ctx, http } = context('/players');
    await expect(registry.get('ban.create')!.run(values as never, ctx)).rejects.toMatchObject({
      message: Msg.targetsRequired,
      field: 'targets',
    });
    expect(http).not.toHaveBeenCalled();
  });

  it('reports each failure of a bulk ban and what worked', async () => {
    const { ctx, http } = context('/players');
    http.mockImplementation(async (_m, _p, opts) => {
      if ((opts as { body: { groupId?: string } }).body.groupId) throw new Error(Msg.banDuplicate);
      return {};
    });
    const result = await registry
      .get('ban.create')!
      .run({ player: [bob], expires: '', comments: 'x', targets: [island, cluster] } as never, ctx);
    expect(result?.message).toBe(`Created 1 of 2; 1 failed: Bob on Demo Cluster: ${Msg.banDuplicate}`);
  });
});

describe('ban.edit, ban.remove, ban.import', () => {
  it('edit needs the comments; a blank expiry keeps the old one', async () => {
    expect((await consoleValues('ban.edit Bob 30d')).errors).toEqual({ comments: 'Comments is required.' });
    const { ctx, http } = context('/servers/s-island/bans');
    http.mockImplementation(async (method) =>
      method === 'GET' ? { results: [{ serviceBanId: 'b1', playerName: 'Bob' }] } : {},
    );
    // Run as every surface runs it: the server in view is the target.
    await execute(registry.get('ban.edit')!, { player: bob, expires: '', comments: 'calmer now' }, ctx);
    expect(http).toHaveBeenLastCalledWith('PATCH', '/sentinel/serviceBans/b1', {
      body: { comments: 'calmer now' },
      expect: expect.any(Array),
    });
  });

  it('remove offers an undo that re-creates the ban as it was', async () => {
    const { ctx, http } = context('/servers/s-island/bans');
    const old = {
      serviceBanId: 'b1',
      playerId: 'p-bob',
      playerName: 'Bob',
      comments: 'grief',
      expiration: 2e9,
    };
    http.mockImplementation(async (method) => (method === 'GET' ? { results: [old] } : true));
    const result = await execute(registry.get('ban.remove')!, { player: [bob] }, ctx);
    expect(result?.message).toBe('Removed 1 ban.');
    expect(http).toHaveBeenCalledWith('DELETE', '/sentinel/serviceBans/b1', expect.anything());
    await result!.undo!();
    expect(http).toHaveBeenLastCalledWith('POST', '/sentinel/serviceBans', {
      body: { serviceId: 's-island', playerId: 'p-bob', comments: 'grief', expiration: 2e9 },
      expect: expect.any(Array),
    });
  });

  it('import says which line was skipped and why; with no good line it sends nothing', async () => {
    const { ctx, http } = context('/servers/s-island/bans');
    const good = `0002${'a'.repeat(28)}`;
    const result = await execute(
      registry.get('ban.import')!,
      { source: `${good},Cheater\nnot-an-id\n0002${'b'.repeat(28)}` },
      ctx,
    );
    expect(result?.message).toMatch(/^Imported 2 of 3 lines\. Skipped line 2 \(not-an-id\): /);
    expect(result?.table?.rows).toEqual([[2, 'not-an-id', expect.any(String)]]);
    expect(http).toHaveBeenCalledWith('POST', '/sentinel/services/s-island/bans.txt', expect.anything());

    http.mockClear();
    await expect(execute(registry.get('ban.import')!, { source: 'nope' }, ctx)).rejects.toMatchObject({
      field: 'source',
      message: expect.stringContaining(BanMsg.noValidLines),
    });
    expect(http).not.toHaveBeenCalled();
  });
});

describe('player commands', () => {
  it('a note needs content and more than a few characters, in the console as in the form', async () => {
    const route = '/players/p-bob/notes';
    expect((await consoleValues('note Bob', route)).errors).toEqual({ content: 'Note is required.' });
    expect((await consoleValues('note Bob meh', route)).errors).toEqual({ content: Msg.noteShort });
    const { values } = await consoleValues('note Bob talks about raiding', route);
    const { ctx, http } = context(route);
    await registry.get('player.addNote')!.run(values as never, ctx);
    expect(http).toHaveBeenCalledWith('POST', '/sentinel/playerNotes', {
      body: { playerId: 'p-bob', content: 'talks about raiding' },
      expect: expect.any(Array),
    });
  });

  it('list keys: b bans in a player list, Delete removes in a ban list', () => {
    const keyed = registry
      .all()
      .filter((c) => c.scope === 'list' && c.keys?.length)
      .map((c) => [c.id, c.keys]);
    expect(keyed).toEqual(
      expect.arrayContaining([
        ['ban.create', ['b']],
        ['ban.remove', ['delete']],
      ]),
    );
  });
});
