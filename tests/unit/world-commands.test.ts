// The survivor, tribe and dino commands as the surfaces drive them: what goes over the wire, what
// comes back from the game, and the message for each refusal.

import { describe, expect, it, vi } from 'vitest';
import type { EntityLookup, EntityRef } from '../../commands/args.ts';
import type { AppServices, Choice, CommandContext, Surface } from '../../commands/context.ts';
import { createRegistry } from '../../commands/index.ts';
import { CommandError, execute, parseArgs } from '../../commands/registry.ts';
import { Msg } from '../../src/domain/messages.ts';
import { ApiError, type Http } from '../../src/web/api/http.ts';
import { createSentinelApi } from '../../src/web/api/sentinel.ts';
import { createGameResults, GAME_NO_ANSWER } from '../../src/web/store/gameResults.ts';
import { parseLine } from '../../src/web/terminal/parse.ts';

const SERVICE = 's-island';
const rex: EntityRef = { kind: 'dino', id: 'd-rex', label: 'Rexy' };
const raptor: EntityRef = { kind: 'dino', id: 'd-raptor', label: 'Raptor' };
const bob: EntityRef = { kind: 'survivor', id: 'c-bob', label: 'Bob' };
const alpha: EntityRef = { kind: 'tribe', id: 't-alpha', label: 'Alpha' };
const beta: EntityRef = { kind: 'tribe', id: 't-beta', label: 'Beta' };
const known = [rex, raptor, bob, alpha, beta];

const lookup: EntityLookup = {
  search: () => [],
  resolve: async (kinds, text) => known.filter((e) => kinds.includes(e.kind) && e.label === text),
};
const registry = createRegistry();

const RECORDS: Record<string, unknown> = {
  '/sentinel/dinos/d-rex': {
    dinoId: 'd-rex',
    dinoNumber64: String(2 ** 32 + 7),
    dinoDisplayName: 'Rexy',
    dinoRestoreEligible: true,
    serviceId: SERVICE,
  },
  '/sentinel/dinos/d-raptor': {
    dinoId: 'd-raptor',
    dinoNumber64: '9',
    dinoDisplayName: 'Raptor',
    dinoRestoreEligible: false,
    serviceId: SERVICE,
  },
  '/sentinel/characters/c-bob': {
    characterId: 'c-bob',
    characterName: 'Bob',
    specimenId: 42,
    serviceId: SERVICE,
    tribeName: 'Alpha',
    serviceDisplayName: 'Island PvE',
  },
};

interface Sent {
  method: string;
  path: string;
  body?: unknown;
}

function context(opts: {
  route?: string;
  surface?: Surface;
  selection?: EntityRef[];
  answer?: (s: Sent) => unknown;
  game?: unknown;
  prefs?: Record<string, unknown>;
}) {
  const sent: Sent[] = [];
  const http = vi.fn(async (method: string, path: string, o?: { body?: unknown }) => {
    const s = { method, path, body: o?.body };
    sent.push(s);
    const answered = opts.answer?.(s);
    if (answered !== undefined) return answered;
    if (method === 'GET' && RECORDS[path]) return RECORDS[path];
    if (method === 'GET') return { results: [RECORDS['/sentinel/characters/c-bob']], totalResults: 1 };
    if (path.endsWith('/locate') || path.endsWith('/restore')) return { requestId: 'r-1' };
    return true;
  });
  const copied: string[] = [];
  const forms: unknown[] = [];
  const choices: Choice[] = [];
  const ctx: CommandContext = {
    route: opts.route ?? '/dinos',
    selection: opts.selection
      ? {
          kind: opts.selection[0].kind,
          ids: opts.selection.map((r) => r.id),
          labels: Object.fromEntries(opts.selection.map((r) => [r.id, r.label])),
        }
      : { kind: null, ids: [] },
    user: null,
    surface: opts.surface ?? 'console',
    entities: lookup,
    app: {
      api: createSentinelApi(http as unknown as Http),
      dialogs: {
        confirm: async () => true,
        form: (id: string, known: unknown) => forms.push({ id, known }),
        choose: async (c: Choice) => {
          choices.push(c);
          return bob;
        },
      },
      game: { result: async () => opts.game },
      prefs: { get: (k: string) => opts.prefs?.[k] },
      clipboard: { copy: async (t: string) => void copied.push(t) },
      toast: () => {},
      navigate: () => {},
    } as unknown as AppServices,
    permissions: () => null,
  };
  return { ctx, sent, copied, forms, choices };
}

async function run(id: string, values: Record<string, unknown>, ctx: CommandContext) {
  return execute(registry.get(id)!, values, ctx);
}

describe('teleport', () => {
  it('sends a relative move with only the values given (~ in the console)', async () => {
    const parsed = parseLine('dino.teleport --dinos Rexy --to "~10 _ -5"', registry);
    expect(parsed.errors).toEqual([]);
    const { ctx, sent } = context({
      answer: (s) =>
        s.path === '/sentinel/gameCommands'
          ? { results: [{ ok: true, result: { x: 110, y: 200, z: 295 } }] }
          : undefined,
    });
    const { values, errors } = await parseArgs(parsed.cmd!, parsed.raw, lookup, ctx);
    expect(errors).toEqual({});
    const r = await run('dino.teleport', values, ctx);
    expect(sent.find((s) => s.path === '/sentinel/gameCommands')?.body).toEqual([
      {
        type: 'teleportDino',
        serviceId: SERVICE,
        dinoId: 'd-rex',
        dinoId1: 1,
        dinoId2: 7,
        x: 10,
        z: -5,
        relative: true,
      },
    ]);
    expect(r?.message).toBe('Teleported Rexy to 110.00 200.00 295.00.');
  });

  it('sends a survivor next to another survivor', async () => {
    const { ctx, sent } = context({
      answer: (s) =>
        s.path === '/sentinel/gameCommands'
          ? { results: [{ ok: true, result: { x: 1, y: 2, z: 3 } }] }
          : undefined,
    });
    await run('survivor.teleport', { survivors: [bob], toSurvivor: bob }, ctx);
    expect(sent.find((s) => s.path === '/sentinel/gameCommands')?.body).toEqual([
      {
        type: 'teleportCharacter',
        serviceId: SERVICE,
        characterId: 'c-bob',
        specimenId: 42,
        toCharacterId: 'c-bob',
      },
    ]);
  });

  it('needs somewhere to go: the console says so, a toolbar opens the Teleport form', async () => {
    const typed = context({});
    await expect(run('dino.teleport', { dinos: [rex] }, typed.ctx)).rejects.toThrow(Msg.teleportNoValues);
    const toolbar = context({ surface: 'toolbar', selection: [rex] });
    expect(await run('dino.teleport', {}, toolbar.ctx)).toBeUndefined();
    expect(toolbar.forms).toEqual([{ id: 'dino.teleport', known: { dinos: [rex] } }]);
    expect(toolbar.sent).toEqual([]);
  });

  it('refuses coordinates and a survivor at once', async () => {
    const { ctx } = context({});
    const to = { x: 1, y: null, z: null, relative: false };
    await expect(run('dino.teleport', { dinos: [rex], to, toSurvivor: bob }, ctx)).rejects.toThrow(
      'Teleport to coordinates or to a survivor, not both.',
    );
  });

  it('names each dino the game did not move', async () => {
    const { ctx } = context({
      answer: (s) =>
        s.path === '/sentinel/gameCommands'
          ? {
              results: [
                {
                  ok: (s.body as { dinoId: string }[])[0].dinoId === 'd-rex',
                  result: { x: 0, y: 0, z: 0 },
                  message: 'The dino is not in the world',
                },
              ],
            }
          : undefined,
    });
    const to = { x: 5, y: null, z: null, relative: false };
    const r = await run('dino.teleport', { dinos: [rex, raptor], to }, ctx);
    expect(r?.message).toBe('Teleported 1 of 2; 1 failed: Raptor: The dino is not in the world');
  });
});

describe('locate', () => {
  const found = { requestId: 'r-1', found: true, x: 1.5, y: -2, z: 300, lat: 50.1, lon: 40.2 };

  it('copies the place in the locatorResultsFormat preference', async () => {
    for (const [format, text] of [
      [undefined, 'SetPlayerPos 1.50 -2.00 300.00'],
      ['CopyCoordsToClipboard', '1.50 -2.00 300.00'],
      ['GPS', '50.1, 40.2'],
    ] as const) {
      const { ctx, copied } = context({ game: found, prefs: { locatorResultsFormat: format } });
      const r = await run('dino.locate', { dino: rex }, ctx);
      expect(copied).toEqual([text]);
      expect(r?.message).toBe(`Rexy found: ${text} (copied)`);
    }
  });

  it('takes a dino that is not found for dead, a survivor just not found', async () => {
    const missing = { requestId: 'r-1', found: false, x: null, y: null, z: null, lat: null, lon: null };
    expect((await run('dino.locate', { dino: rex }, context({ game: missing }).ctx))?.message).toBe(
      'Rexy was not found on its server; it is assumed dead.',
    );
    expect((await run('survivor.locate', { survivor: bob }, context({ game: missing }).ctx))?.message).toBe(
      'Bob was not found on its server.',
    );
  });

  it('shows the server’s refusal (disconnected) in its words', async () => {
    const { ctx } = context({
      answer: (s) => {
        if (s.path.endsWith('/locate'))
          throw new ApiError(Msg.serviceNotConnected, 'serviceNotConnected', 412);
        return undefined;
      },
    });
    await expect(run('dino.locate', { dino: rex }, ctx)).rejects.toThrow(Msg.serviceNotConnected);
  });
});

describe('revive', () => {
  it('revives into the survivor chosen in the Revive dialog', async () => {
    const { ctx, sent, choices } = context({ surface: 'toolbar', game: { requestId: 'r-1', ok: true } });
    const r = await run('dino.revive', { dino: rex }, ctx);
    // The dialog lists the survivors of the dino's server with Name and Tribe.
    expect(sent).toContainEqual({
      method: 'GET',
      path: '/sentinel/characters',
      body: undefined,
    });
    expect(choices.map((c) => [c.columns, c.rows.map((row) => row.cells)])).toEqual([
      [['Name', 'Tribe'], [['Bob', 'Alpha']]],
    ]);
    expect(sent.find((s) => s.path.endsWith('/restore'))?.body).toEqual({ characterId: 'c-bob' });
    expect(r?.message).toBe("Rexy was revived into a cryopod in Bob's inventory.");
  });

  it('refuses a dino without a backup, a missing survivor in the console, and a failure of the game', async () => {
    await expect(run('dino.revive', { dino: raptor, survivor: bob }, context({}).ctx)).rejects.toThrow(
      Msg.restoreNotAvailable,
    );
    await expect(run('dino.revive', { dino: rex }, context({}).ctx)).rejects.toThrow(Msg.reviveNoSelection);
    const failed = context({
      game: { requestId: 'r-1', ok: false, error: 'Restore is not available for this dino' },
    });
    await expect(run('dino.revive', { dino: rex, survivor: bob }, failed.ctx)).rejects.toThrow(
      'Restore is not available for this dino',
    );
  });
});

describe('status, delete, go to', () => {
  it('sets Cryopodded as the API’s Frozen on each marked dino', async () => {
    const { ctx, sent } = context({ selection: [rex, raptor] });
    const r = await run('dino.setStatus', { status: 'Cryopodded' }, ctx);
    expect(sent.filter((s) => s.method === 'PATCH').map((s) => [s.path, s.body])).toEqual([
      ['/sentinel/dinos/d-rex', { dinoStatus: 'Frozen' }],
      ['/sentinel/dinos/d-raptor', { dinoStatus: 'Frozen' }],
    ]);
    expect(r?.message).toBe('Set Cryopodded on 2 dinos.');
  });

  it('deletes the marked tribes one by one and names each failure', async () => {
    const { ctx } = context({
      selection: [alpha, beta],
      answer: (s) => {
        if (s.method === 'DELETE' && s.path.endsWith('t-beta'))
          throw new ApiError('Forbidden', 'forbidden', 403);
        return undefined;
      },
    });
    const r = await run('tribe.delete', {}, ctx);
    expect(r?.message).toBe(`Deleted 1 of 2; 1 failed: Beta: ${Msg.noPermission}`);
  });

  it('needs something to delete', async () => {
    await expect(run('survivor.delete', {}, context({}).ctx)).rejects.toBeInstanceOf(CommandError);
  });

  it('goes to a survivor’s tribe, and says when there is none', async () => {
    const navigate = vi.fn();
    const { ctx } = context({});
    (ctx.app as { navigate: unknown }).navigate = navigate;
    await run('survivor.goTo', { survivor: bob, to: 'server' }, ctx);
    expect(navigate).toHaveBeenCalledWith(`/servers/${SERVICE}`);
    await expect(run('survivor.goTo', { survivor: bob, to: 'tribe' }, ctx)).rejects.toThrow(
      'Bob has no tribe.',
    );
  });
});

describe('game results', () => {
  it('hands an answer to the waiter, even one that came before it waited', async () => {
    const results = createGameResults();
    results.handlers.locateResult({ requestId: 'early', found: false });
    await expect(results.wait('early')).resolves.toMatchObject({ requestId: 'early' });
    const later = results.wait('later');
    results.handlers.requestCompleted({ requestId: 'later', ok: true });
    await expect(later).resolves.toEqual({ requestId: 'later', ok: true });
  });

  it('gives up after a while without an answer', async () => {
    vi.useFakeTimers();
    const waiting = createGameResults().wait('never', 1000);
    vi.advanceTimersByTime(1001);
    await expect(waiting).rejects.toThrow(GAME_NO_ANSWER);
    vi.useRealTimers();
  });
});
