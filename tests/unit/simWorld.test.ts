// The simulator's living world: every §6 event shows up in a run, and the game commands the API
// sends are obeyed with the replies and follow-up events the server and console rely on.

import { describe, expect, it } from 'vitest';
import type { LinkEvent } from '../../src/domain/link.ts';
import { BEHAVIOURS } from '../../src/sim/behaviours.ts';
import { runCommand } from '../../src/sim/commands.ts';
import { MOD_EVENT_NAMES } from '../../src/sim/events.ts';
import { createPopulation } from '../../src/sim/population.ts';
import { createRng } from '../../src/sim/random.ts';
import { World } from '../../src/sim/world.ts';

/** Ticks a world the way SimServer does, without a link. */
function live(seed: number, ticks: number): { world: World; events: LinkEvent[] } {
  const rng = createRng(seed);
  const world = new World(rng.fork(1), createPopulation(rng.fork(0), 60));
  const events: LinkEvent[] = [];
  for (let i = 0; i < ticks; i++) {
    world.advanceClock();
    for (const behave of BEHAVIOURS) events.push(...behave(world));
  }
  return { world, events };
}

describe('simulated world life', () => {
  it('makes every event of SENTINEL-API §6 in a demo-length run of three servers', () => {
    // 600 ticks is half an hour of a demo at the default 3 s tick.
    const seen = new Set([1, 2, 3].flatMap((seed) => live(seed, 600).events.map((e) => e.eventName)));
    expect(MOD_EVENT_NAMES.filter((n) => !seen.has(n))).toEqual([]);
  });

  it('keeps its own records straight: dino states, tribes, babies that grow up', () => {
    const { world, events } = live(11, 800);
    const names = events.map((e) => e.eventName);
    expect(names.filter((n) => n === 'playerSpawned').length).toBe(world.survivors.size);
    for (const e of events.filter((e) => e.eventName === 'dinoMatured'))
      expect(world.dinos.get(e.metadata.dinoId as string)?.age).toBe(1);
    // Every dino event describes its dino fully, so the server can create it from any of them.
    for (const e of events.filter((e) => e.eventName.startsWith('dino')))
      expect(e.metadata).toMatchObject({
        dinoId: expect.any(String),
        dinoNumber64: expect.stringMatching(/^\d+$/),
        dinoSpecies: expect.any(String),
        dinoSpeciesPath: expect.stringMatching(/^\/Game\//),
      });
    const died = events.filter((e) => e.eventName === 'dinoDied');
    expect(died.some((e) => e.metadata.restoreData !== null)).toBe(true);
    expect(died.some((e) => e.metadata.restoreData === null)).toBe(true);
    expect(events.some((e) => e.level === 'Warning')).toBe(true);
    expect(
      new Set(events.filter((e) => e.eventName === 'chat').map((e) => e.metadata.originalLanguage)).size,
    ).toBeGreaterThan(2);
  });
});

describe('simulated game commands', () => {
  const setup = () => {
    const { world } = live(5, 300);
    const survivor = world.onlineSurvivors().find((s) => s.tribeId)!;
    return { world, survivor };
  };

  it('locates survivors and deployed dinos, and does not find a dead dino', () => {
    const { world, survivor } = setup();
    const here = runCommand(world, { type: 'locate', requestId: 'r1', specimenId: survivor.specimenId });
    expect(here.reply).toEqual({
      ok: true,
      result: {
        requestId: 'r1',
        found: true,
        ...survivor.pos,
        lat: expect.any(Number),
        lon: expect.any(Number),
      },
    });
    const alive = [...world.dinos.values()].find((d) => d.status === 'Deployed')!;
    const byHalves = runCommand(world, {
      type: 'locate',
      requestId: 'r2',
      dinoId1: alive.id1,
      dinoId2: alive.id2,
    });
    expect(byHalves.reply.result).toMatchObject({ found: true, x: alive.pos.x, y: alive.pos.y });
    const dead = [...world.dinos.values()].find((d) => d.status === 'Dead')!;
    expect(runCommand(world, { type: 'locate', requestId: 'r3', dinoId: dead.dinoId }).reply).toEqual({
      ok: true,
      result: { requestId: 'r3', found: false, status: 'Dead' },
    });
    expect(runCommand(world, { type: 'locate', dinoId: 'nope' }).reply).toEqual({
      ok: false,
      error: 'No such dino on this server',
    });
  });

  it('teleports, renames and edits dinos, with the events that follow', () => {
    const { world, survivor } = setup();
    const tp = runCommand(world, {
      type: 'teleportCharacter',
      characterId: survivor.characterId,
      x: 1,
      y: 2,
      z: 3,
    });
    expect(tp.reply.ok).toBe(true);
    expect(survivor.pos).toEqual({ x: 1, y: 2, z: 3 });
    const dino = [...world.dinos.values()].find((d) => d.status === 'Deployed' && !d.sterilized)!;
    runCommand(world, { type: 'teleportDino', dinoId: dino.dinoId, toCharacterId: survivor.characterId });
    expect(dino.pos).toEqual({ x: 1, y: 2, z: 3 });
    expect(runCommand(world, { type: 'teleportDino', dinoId: dino.dinoId }).reply).toEqual({
      ok: false,
      error: 'Give x, y or z, or a survivor to teleport to',
    });
    // Relative moves add to where it stands; a value left out stays as it was.
    runCommand(world, { type: 'teleportDino', dinoId: dino.dinoId, x: 10, z: -3, relative: true });
    expect(dino.pos).toEqual({ x: 11, y: 2, z: 0 });
    runCommand(world, { type: 'teleportCharacter', characterId: survivor.characterId, y: 50 });
    expect(survivor.pos).toEqual({ x: 1, y: 50, z: 3 });

    const renamed = runCommand(world, {
      type: 'renamePlayer',
      specimenId: survivor.specimenId,
      newName: 'Renamed One',
    });
    expect(renamed.events.map((e) => [e.eventName, e.metadata.newName])).toEqual([
      ['playerRenamed', 'Renamed One'],
    ]);

    const edit = runCommand(world, {
      type: 'editDino',
      requestId: 'e',
      dinoId1: dino.id1,
      dinoId2: dino.id2,
      isSterilized: true,
    });
    expect(edit.events.map((e) => e.eventName)).toEqual(['dinoSterilized']);
    expect(dino.sterilized).toBe(true);
  });

  it('gives items and dinos, restores from a cryopod backup, and wipes wild dinos', () => {
    const { world, survivor } = setup();
    const item = runCommand(world, {
      type: 'giveItem',
      requestId: 'g1',
      characterId: survivor.characterId,
      itemPath: '/Game/Items/Metal.Metal_C',
      quantity: 50,
      quality: 20,
    });
    expect(item.reply).toEqual({ ok: true, result: { requestId: 'g1' } });
    expect(item.events[0]).toMatchObject({
      eventName: 'itemGiven',
      metadata: {
        characterId: survivor.characterId,
        itemPath: '/Game/Items/Metal.Metal_C',
        quantity: 50,
        quality: 20,
      },
    });

    const given = runCommand(world, {
      type: 'giveDino',
      requestId: 'g2',
      specimenId: survivor.specimenId,
      dinoPath: '/Game/PrimalEarth/Dinos/Rex/Rex_Character_BP.Rex_Character_BP_C',
      name: 'Gift',
      level: 120,
      isFemale: false,
    });
    expect(given.events[0]).toMatchObject({
      eventName: 'dinoCreated',
      metadata: {
        dinoSpecies: 'Rex',
        name: 'Gift',
        level: 120,
        isFemale: false,
        characterId: survivor.characterId,
      },
    });
    const gift = world.dinos.get((given.reply.result as { dinoId: string }).dinoId)!;
    expect(gift).toMatchObject({ name: 'Gift', gender: 'Male', tribeId: survivor.tribeId });

    world.freeze(gift);
    world.unfreeze(gift, survivor);
    world.killDino(gift, 'a test');
    const restored = runCommand(world, {
      type: 'restore',
      requestId: 'r',
      dinoId: gift.dinoId,
      characterId: survivor.characterId,
    });
    expect(restored.events.map((e) => e.eventName)).toEqual(['dinoRestored']);
    expect(gift.status).toBe('Deployed');
    const never = world.giveDino(survivor, gift.species, {}).dino;
    world.killDino(never, 'a test');
    expect(
      runCommand(world, { type: 'restore', dinoId: never.dinoId, characterId: survivor.characterId }).reply,
    ).toEqual({
      ok: false,
      error: 'Restore is not available for this dino',
    });

    const wipe = runCommand(world, { type: 'destroyWildDinos' });
    expect(wipe.reply.result).toMatch(/^Destroyed \d+ wild creatures$/);
    expect(world.wildDinos).toBe(0);
  });
});
