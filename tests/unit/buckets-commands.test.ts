// The bucket commands as the console and the forms drive them: the spec's messages before anything
// is sent, what goes over the wire, the API's refusals on the field they concern, the delete
// confirmation that counts the values going with the bucket, undo, and edit buckets (SPEC §6).

import { describe, expect, it, vi } from 'vitest';
import type { EntityLookup, EntityRef } from '../../commands/args.ts';
import type { CommandContext } from '../../commands/context.ts';
import { createRegistry } from '../../commands/index.ts';
import { CommandError, execute, parseArgs } from '../../commands/registry.ts';
import { BUCKET_MESSAGES } from '../../src/domain/buckets.ts';
import { Msg } from '../../src/domain/messages.ts';
import { Perm } from '../../src/domain/permissions.ts';
import { ApiError } from '../../src/web/api/http.ts';
import { parseLine } from '../../src/web/terminal/parse.ts';
import { fakeCommandContext } from './commandContext-fixture.ts';

const ANN = '6f1c3a52-0d3e-4c1b-9a77-2b8f0c4d5e61';
const economy: EntityRef = { kind: 'bucket', id: 'b-eco', label: 'Economy' };
const lookup: EntityLookup = {
  search: () => [],
  resolve: async (kinds, text) => (kinds.includes('bucket') && text === 'Economy' ? [economy] : []),
  label: (kind, id) => (kind === 'bucket' && id === economy.id ? economy.label : undefined),
};
const registry = createRegistry();

type Answer = (
  method: string,
  path: string,
  opts?: { body?: unknown; query?: Record<string, unknown> },
) => unknown;

const value = (over: Record<string, unknown> = {}) => ({
  bucketValueId: 'v1',
  bucketId: economy.id,
  bucketName: 'Economy',
  playerId: null,
  playerName: null,
  key: 'motd',
  value: 'Hello',
  ...over,
});
const page = (results: unknown[], totalResults = results.length) => ({
  results,
  totalResults,
  page: 1,
  pages: 1,
  pageSize: 250,
});

function context(answer: Answer, opts: { mine?: number | null; confirm?: boolean; route?: string } = {}) {
  const http = vi.fn(
    async (method: string, path: string, o?: { body?: unknown; query?: Record<string, unknown> }) =>
      answer(method, path, o),
  );
  const confirm = vi.fn(async (_message: string) => opts.confirm ?? true);
  const copy = vi.fn(async (_text: string) => {});
  const navigate = vi.fn();
  const ctx = fakeCommandContext(http, {
    route: opts.route ?? `/buckets/${economy.id}`,
    entities: lookup,
    app: { dialogs: { confirm }, clipboard: { copy }, navigate },
    mine: opts.mine,
  });
  return { ctx, http, confirm, copy, navigate };
}

async function runLine(line: string, ctx: CommandContext) {
  const parsed = parseLine(line, registry);
  expect(parsed.errors).toEqual([]);
  const { values, errors } = await parseArgs(parsed.cmd!, parsed.raw, lookup, ctx);
  return { errors, run: () => execute(parsed.cmd!, values, ctx) };
}

const writes = (http: ReturnType<typeof context>['http']) =>
  http.mock.calls.filter(([method]) => method !== 'GET').map(([method, path, o]) => [method, path, o?.body]);

describe('bucket.create and bucket.rename', () => {
  it('refuses a blank name before anything is sent', async () => {
    const { ctx, http } = context(() => ({}), { route: '/buckets' });
    const cmd = registry.get('bucket.create')!;
    const { errors } = await parseArgs(cmd, { name: '  ' }, lookup, ctx);
    expect(errors).toEqual({ name: BUCKET_MESSAGES.nameRequired });
    expect(http).not.toHaveBeenCalled();
  });

  it('creates a bucket, opens nothing from the console, and undo deletes it', async () => {
    const { ctx, http, navigate } = context(
      (method) =>
        method === 'POST' ? { created: [{ bucketId: 'b2', name: 'Player stats' }], updated: [] } : true,
      { route: '/buckets' },
    );
    const { run } = await runLine('mkbucket Player stats', ctx);
    const r = await run();
    expect(r?.message).toBe('Bucket Player stats created.');
    expect(navigate).not.toHaveBeenCalled();
    await r?.undo?.();
    expect(writes(http)).toEqual([
      ['POST', '/sentinel/buckets', { name: 'Player stats' }],
      ['DELETE', '/sentinel/buckets/b2', undefined],
    ]);
  });

  it('says a name is taken on the name field (unique per owner)', async () => {
    const { ctx } = context((method) => {
      if (method === 'GET') return { bucketId: economy.id, name: 'Economy' };
      throw new ApiError('An object with these values already exists.', 'duplicate', 400);
    });
    const { run } = await runLine('renamebucket Economy Bank', ctx);
    const e = await run().catch((x) => x);
    expect(e).toBeInstanceOf(CommandError);
    expect({ message: e.message, field: e.field }).toEqual({
      message: BUCKET_MESSAGES.duplicateName('Bank'),
      field: 'name',
    });
  });

  it('renames with undo, and is refused without edit buckets on the bucket', async () => {
    const { ctx, http } = context((method) =>
      method === 'GET' ? { bucketId: economy.id, name: 'Economy' } : { bucketId: economy.id, name: 'Bank' },
    );
    const r = await (await runLine('renamebucket Economy Bank', ctx)).run();
    expect(r?.message).toBe('Economy is now Bank.');
    await r?.undo?.();
    expect(writes(http)).toEqual([
      ['PATCH', `/sentinel/buckets/${economy.id}`, { name: 'Bank' }],
      ['PATCH', `/sentinel/buckets/${economy.id}`, { name: 'Economy' }],
    ]);
    const member = context(() => ({}), { mine: Perm.Membership });
    await expect((await runLine('renamebucket Economy Bank', member.ctx)).run()).rejects.toThrow(
      `${Msg.forbidden} (edit buckets).`,
    );
    expect(member.http).not.toHaveBeenCalled();
  });
});

describe('bucket.delete', () => {
  it('asks with the number of values it deletes, and deletes nothing when cancelled', async () => {
    const { ctx, http, confirm } = context(() => page([value()], 3), { confirm: false });
    const r = await (await runLine('rmbucket Economy', ctx)).run();
    expect(confirm).toHaveBeenCalledWith('Delete bucket Economy and its 3 values? This cannot be undone.');
    expect(r?.message).toBe('Cancelled.');
    expect(writes(http)).toEqual([]);
  });

  it('deletes the bucket and leaves its page', async () => {
    const { ctx, http, navigate } = context((method) => (method === 'GET' ? page([value()], 1) : true));
    const r = await (await runLine('rmbucket Economy', ctx)).run();
    expect(r?.message).toBe('Economy was deleted with its 1 value.');
    expect(writes(http)).toEqual([['DELETE', `/sentinel/buckets/${economy.id}`, undefined]]);
    expect(navigate).toHaveBeenCalledWith('/buckets');
  });
});

describe('bucket.copyId and bucket.open', () => {
  it('copies the id of the bucket in view', async () => {
    const { ctx, copy } = context(() => ({}));
    expect((await (await runLine('bucket.copyId', ctx)).run())?.message).toBe(
      'The id of Economy was copied.',
    );
    expect(copy).toHaveBeenCalledWith(economy.id);
  });

  it('opens a tab, the data tab without a segment', async () => {
    const { ctx, navigate } = context(() => ({}), { route: '/buckets' });
    await (await runLine('bucket Economy guide', ctx)).run();
    await (await runLine('bucket Economy', ctx)).run();
    expect(navigate.mock.calls).toEqual([[`/buckets/${economy.id}/guide`], [`/buckets/${economy.id}`]]);
  });
});

describe('bucketValue.add, edit and delete', () => {
  it('gives the spec messages for a missing key or value and a bad player id, sending nothing', async () => {
    const { ctx, http } = context(() => ({}));
    const cmd = registry.get('bucketValue.add')!;
    const { errors } = await parseArgs(cmd, { key: ' ', value: '', player: 'bob' }, lookup, ctx);
    expect(errors).toEqual({
      key: Msg.bucketKeyRequired,
      value: Msg.bucketValueRequired,
      player: Msg.bucketPlayerBad,
    });
    expect(http).not.toHaveBeenCalled();
  });

  it('adds a global value; undo deletes it', async () => {
    const { ctx, http } = context((method) =>
      method === 'GET' ? page([]) : method === 'POST' ? { created: [value()], updated: [] } : true,
    );
    const r = await (await runLine('setvalue Economy motd Hello there', ctx)).run();
    expect(r?.message).toBe('motd (global) added in Economy.');
    await r?.undo?.();
    expect(writes(http)).toEqual([
      [
        'POST',
        '/sentinel/bucketValues',
        { bucketId: economy.id, key: 'motd', value: 'Hello there', playerId: null },
      ],
      ['DELETE', '/sentinel/bucketValues/v1', undefined],
    ]);
  });

  it("changes a player's value that exists; undo puts the old one back", async () => {
    const ann = value({ playerId: ANN, playerName: 'Ann', key: 'visits', value: '4' });
    const { ctx, http } = context((method) =>
      method === 'GET' ? page([value(), ann]) : { created: [], updated: [{ ...ann, value: '5' }] },
    );
    const r = await (await runLine(`setvalue Economy VISITS 5 --player ${ANN.toUpperCase()}`, ctx)).run();
    expect(r?.message).toBe('visits (for Ann) changed in Economy.');
    await r?.undo?.();
    expect(writes(http)).toEqual([
      ['POST', '/sentinel/bucketValues', { bucketId: economy.id, key: 'VISITS', value: '5', playerId: ANN }],
      ['POST', '/sentinel/bucketValues', { bucketId: economy.id, key: 'visits', value: '4', playerId: ANN }],
    ]);
  });

  it("puts the API's refusals on their fields: an unknown player, a bad player id", async () => {
    for (const [code, message] of [
      ['notFound', BUCKET_MESSAGES.playerNotFound],
      ['badPlayer', Msg.bucketPlayerBad],
    ]) {
      const { ctx } = context((method) => {
        if (method === 'GET') return page([]);
        throw new ApiError(Msg.bucketPlayerBad, code, 400);
      });
      const e = await (await runLine(`setvalue Economy visits 1 --player ${ANN}`, ctx)).run().catch((x) => x);
      expect({ message: e.message, field: e.field }).toEqual({ message, field: 'player' });
    }
  });

  it('edits the value of a key, and says when the bucket has none', async () => {
    const { ctx, http } = context((method) => (method === 'GET' ? page([value()]) : value({ value: 'Bye' })));
    const r = await (await runLine('editvalue Economy MOTD Bye', ctx)).run();
    expect(r?.message).toBe('motd (global) changed in Economy.');
    expect(writes(http)).toEqual([['PATCH', '/sentinel/bucketValues/v1', { value: 'Bye' }]]);
    const none = context(() => page([value()]));
    await expect(
      (await runLine(`editvalue Economy motd Bye --player ${ANN}`, none.ctx)).run(),
    ).rejects.toThrow(BUCKET_MESSAGES.valueNotFound(`motd (for ${ANN})`, 'Economy'));
  });

  it('finds the exact key past a first page of keys that only contain it', async () => {
    const crowd = Array.from({ length: 250 }, (_, i) => value({ bucketValueId: `c${i}`, key: `${i}motd` }));
    const { ctx, http } = context((method, _path, o) => {
      if (method !== 'GET') return value({ value: 'Bye' });
      return o?.query?.page === 1
        ? { ...page(crowd, 251), pages: 2 }
        : { ...page([value()], 251), page: 2, pages: 2 };
    });
    await (await runLine('editvalue Economy motd Bye', ctx)).run();
    expect(http.mock.calls.filter(([m]) => m === 'GET').map(([, , o]) => o?.query?.page)).toEqual([1, 2]);
    expect(writes(http)).toEqual([['PATCH', '/sentinel/bucketValues/v1', { value: 'Bye' }]]);
  });

  it('deletes a value after asking; undo sets it again', async () => {
    const { ctx, http, confirm } = context((method) =>
      method === 'GET' ? page([value()]) : method === 'POST' ? { created: [value()], updated: [] } : true,
    );
    const r = await (await runLine('rmvalue Economy motd', ctx)).run();
    expect(confirm).toHaveBeenCalledWith('Delete value?');
    expect(r?.message).toBe('motd (global) deleted from Economy.');
    await r?.undo?.();
    expect(writes(http)).toEqual([
      ['DELETE', '/sentinel/bucketValues/v1', undefined],
      [
        'POST',
        '/sentinel/bucketValues',
        { bucketId: economy.id, key: 'motd', value: 'Hello', playerId: null },
      ],
    ]);
  });
});
