// Give Item, Give Dino and the blueprint look-ups as the console drives them: a typed line
// becomes one request per survivor, with the API's payload, and refusals name their field.

import { describe, expect, it, vi } from 'vitest';
import type { EntityLookup, EntityRef } from '../../commands/args.ts';
import { createRegistry } from '../../commands/index.ts';
import { type CommandError, execute, parseArgs } from '../../commands/registry.ts';
import { qualityOf } from '../../src/domain/enums.ts';
import { parseLine } from '../../src/web/terminal/parse.ts';
import { fakeCommandContext } from './commandContext-fixture.ts';

const ana: EntityRef = { kind: 'survivor', id: 'c-ana', label: 'Ana', detail: 'Island PvE' };
const bob: EntityRef = { kind: 'survivor', id: 'c-bob', label: 'Bob', detail: 'Island PvE' };
const cat: EntityRef = { kind: 'survivor', id: 'c-cat', label: 'Cat', detail: 'Island PvE' };
const lookup: EntityLookup = {
  search: () => [],
  resolve: async (kinds, text) => [ana, bob, cat].filter((e) => kinds.includes(e.kind) && e.label === text),
};
const registry = createRegistry();
const INGOT =
  '/Game/PrimalEarth/CoreBlueprints/Resources/PrimalItemResource_MetalIngot.PrimalItemResource_MetalIngot';

function context(fail?: (path: string) => Error | null) {
  const http = vi.fn(async (_method: string, path: string, _opts?: unknown): Promise<unknown> => {
    const e = fail?.(path);
    if (e) throw e;
    return { requestId: `r-${path.split('/')[3]}` };
  });
  const navigate = vi.fn();
  const ctx = fakeCommandContext(http, {
    entities: lookup,
    app: {
      navigate,
      // The game answers each request: Cat's is refused.
      game: {
        result: async (requestId: string) =>
          requestId.includes('c-cat')
            ? { requestId, ok: false, error: 'No such survivor on this server' }
            : { requestId, ok: true },
      },
    },
  });
  return { ctx, http, navigate };
}

async function run(line: string, fail?: (path: string) => Error | null) {
  const parsed = parseLine(line, registry);
  expect(parsed.errors).toEqual([]);
  const c = context(fail);
  const { values, errors } = await parseArgs(parsed.cmd!, parsed.raw, lookup, c.ctx);
  if (Object.keys(errors).length) return { ...c, errors, result: undefined };
  const result = await execute(parsed.cmd!, values, c.ctx);
  return { ...c, errors, result };
}

const bodies = (http: ReturnType<typeof context>['http']) =>
  http.mock.calls.map(([, path, opts]) => [path, (opts as { body: unknown }).body]);

describe('survivor.giveItem', () => {
  it('gives an item named from the catalogue to each survivor, quality by tier in either reading', async () => {
    const { http, result } = await run('give "Ana, Bob" "Metal Ingot" 5 --quality mastercraft');
    expect(bodies(http)).toEqual(
      ['c-ana', 'c-bob'].map((id) => [
        `/sentinel/characters/${id}/giveItem`,
        { itemPath: INGOT, quantity: 5, asBlueprint: false, quality: 7.01, respectStatClamps: false },
      ]),
    );
    expect(result?.message).toBe('Item given to 2 survivors.');
    const tooltip = await run('give Ana "Metal Ingot" --quality mastercraft --tierReading tooltip');
    expect(bodies(tooltip.http)[0][1]).toMatchObject({ quality: 7 });
    expect(qualityOf('ascendant', 'tooltip')).toBe(10);
  });

  it('sends exact stats only in exact mode, and asks for one at least', async () => {
    const { http } = await run(`give Ana ${INGOT}_C --stats exact --armor 40 --quality 50`);
    expect(bodies(http)[0][1]).toEqual({ itemPath: INGOT, quantity: 1, asBlueprint: false, armor: 40 });
    await expect(run(`give Ana ${INGOT} --stats exact`)).rejects.toThrow(
      'Exact stats need at least one stat value.',
    );
  });

  it('refuses with the spec messages, beside the field', async () => {
    expect((await run('give Ana "Metal Ingot" 0')).errors).toEqual({
      quantity: 'Quantity must be a whole number from 1 to 99999.',
    });
    expect((await run('give Ana Game/Foo')).errors.item).toBe(
      'This item path does not appear to be correct. All Ark paths start with /.',
    );
    expect((await run('give Ana "Metal Ingot" --quality 101')).errors.quality).toBe(
      'Quality must be a number from 0 to 100.',
    );
  });

  it('names each survivor the API or the game refused, and fails when all were refused', async () => {
    const notConnected = (path: string) =>
      path.includes('c-bob') ? new Error('The server is disconnected.') : null;
    const some = await run('give "Ana, Bob" "Metal Ingot"', notConnected);
    expect(some.result?.message).toBe('Item given to 1 survivor. Bob: The server is disconnected.');
    expect(some.result?.table?.rows).toEqual([
      ['Ana', 'Island PvE', 'given'],
      ['Bob', 'Island PvE', 'The server is disconnected.'],
    ]);
    const refused = await run('give "Ana, Cat" "Metal Ingot"');
    expect(refused.result?.message).toBe(
      'Item given to 1 survivor. Cat: the game refused: No such survivor on this server',
    );
    await expect(run('give "Ana, Bob" "Metal Ingot"', () => new Error('down'))).rejects.toThrow(
      'Nothing was sent. Ana: down; Bob: down',
    );
  });
});

describe('survivor.giveDino', () => {
  it('turns the creator fields into the API request: stats by name, percentages as fractions', async () => {
    expect((await run('givedino Ana Rex_Character_BP')).errors.species).toBe(
      'No species is called "Rex_Character_BP"; a path starts with /.',
    );
    const path = '/Game/PrimalEarth/Dinos/Rex/Rex_Character_BP.Rex_Character_BP';
    const ok = await run(
      `givedino Ana ${path} --level 30 --stats "health=20 melee=9" --gender female --age 50 --colors 1,2,3,0,0,0 --traits Robust,Robust`,
    );
    expect(bodies(ok.http)).toEqual([
      [
        '/sentinel/characters/c-ana/giveDino',
        {
          dinoPath: path,
          level: 30,
          stats: { 0: 20, 8: 9 },
          isFemale: true,
          isSterilized: false,
          age: 0.5,
          colors: [1, 2, 3, 0, 0, 0],
          traits: ['Robust', 'Robust'],
        },
      ],
    ]);
  });

  it('refuses points beyond the level and a trait over its cap, and opens the creator without a species', async () => {
    const path = '/Game/PrimalEarth/Dinos/Rex/Rex_Character_BP.Rex_Character_BP';
    const error = await run(`givedino Ana ${path} --level 10 --stats melee=10`).catch((e: CommandError) => e);
    expect(error).toMatchObject({
      message: 'The stat points need level 11, higher than the level asked (10).',
      field: 'stats',
    });
    expect((await run(`givedino Ana ${path} --traits Frail,Frail`)).errors.traits).toBe(
      'You cannot add any more Frail traits.',
    );
    const { navigate } = await run('givedino "Ana, Bob"');
    expect(navigate).toHaveBeenCalledWith('/dinos/add?survivors=c-ana,c-bob');
  });
});

describe('pick.blueprint and pick.mod in the console', () => {
  it('lists what matches, with the mod of each', async () => {
    const { result } = await run('blueprints creature rex_character_bp.rex_character_bp');
    expect(result?.table?.rows).toEqual([
      ['Rex', '/Game/PrimalEarth/Dinos/Rex/Rex_Character_BP.Rex_Character_BP', 'Base Game'],
    ]);
    const mods = await run('mods');
    expect(mods.result?.table?.columns).toEqual(['Mod Name', 'Folder']);
    expect(mods.result?.table?.rows).toContainEqual(['Ragnarok', '/Game/Mods/Ragnarok']);
  });
});
