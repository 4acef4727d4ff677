// The blueprint catalogue's API, which the pickers, the give routes, the simulator and the script
// engine share: look-ups by any form of a class path, search with the mod filter, colours.

import { describe, expect, it } from 'vitest';
import {
  COLORS,
  CREATURES,
  className,
  colorsOf,
  findColor,
  findCreature,
  findItem,
  ITEMS,
  isKnownPath,
  naturalColorsOf,
  PACK_NAMES,
  packOfPath,
  searchBlueprints,
} from '../../src/domain/blueprints/index.ts';
import { colorTitle } from '../../src/domain/words.ts';
import { SPECIES, speciesOfPath } from '../../src/sim/species.ts';

const REX = '/Game/PrimalEarth/Dinos/Rex/Rex_Character_BP.Rex_Character_BP';
const HATCHET =
  '/Game/PrimalEarth/CoreBlueprints/Weapons/PrimalItem_WeaponMetalHatchet.PrimalItem_WeaponMetalHatchet';

describe('blueprint catalogue', () => {
  it('holds the README counts', () => {
    expect(ITEMS).toHaveLength(1923);
    expect(CREATURES).toHaveLength(626);
  });

  it('finds a blueprint by its path in every form an admin types it', () => {
    expect(findCreature(REX)?.name).toBe('Rex');
    expect(findCreature(`${REX}_C`)?.name).toBe('Rex');
    expect(findCreature(`Blueprint'${REX}'`)?.name).toBe('Rex');
    expect(findItem(HATCHET)?.category).toBe('Tools');
    expect(findItem(REX)).toBeUndefined();
    expect(className(REX)).toBe('Rex_Character_BP_C');
  });

  it('knows official packs: their unknown paths are refused, third-party mods pass', () => {
    expect(packOfPath('/Game/Mods/Ragnarok/Dinos/X.X')?.name).toBe('Ragnarok');
    expect(isKnownPath('creature', REX)).toBe(true);
    expect(isKnownPath('creature', '/Game/PrimalEarth/Dinos/Nope/Nope.Nope')).toBe(false);
    expect(isKnownPath('item', '/Game/Mods/SomeonesMod/Item.Item_C')).toBe(true);
  });

  it('searches every word in name or path, kept to the picked mods', () => {
    const ingots = searchBlueprints('item', { text: 'metal ingot' });
    expect(ingots.map((i) => i.name)).toContain('Metal Ingot');
    const rag = searchBlueprints('creature', { text: 'wyvern', packs: ['Ragnarok'] });
    expect(rag.length).toBeGreaterThan(0);
    expect(rag.every((c) => c.pack === 'Ragnarok')).toBe(true);
    expect(PACK_NAMES.filter((n) => n === 'Valguero')).toHaveLength(1);
  });

  it('puts the name asked for first, then names that start with it, then the rest', () => {
    const rex = searchBlueprints('creature', { text: 'rex' }).map((c) => c.name);
    expect(rex[0]).toBe('Rex');
    const firstOther = rex.findIndex((n) => !n.toLowerCase().startsWith('rex'));
    expect(rex.slice(firstOther).every((n) => !n.toLowerCase().startsWith('rex'))).toBe(true);
    expect(searchBlueprints('item', { text: 'metal ingot' })[0].name).toBe('Metal Ingot');
  });

  it('gives each game its colours: region colours and its own dyes', () => {
    expect(naturalColorsOf('ASE').every((c) => c.id <= 100 && !c.dye)).toBe(true);
    expect(colorsOf('ASE').some((c) => c.id === 201 && c.dye)).toBe(true);
    expect(findColor('ASE', 201)?.name).not.toBe(findColor('ASA', 201)?.name);
  });

  it('is what the simulator spawns and gives', () => {
    expect(SPECIES.every((s) => findCreature(s.path))).toBe(true);
    expect(speciesOfPath(`${REX}_C`)?.name).toBe('Rex');
    expect(speciesOfPath('/Game/PrimalEarth/Dinos/Nope/Nope.Nope')).toBeUndefined();
  });
});

describe('colour names for people', () => {
  it('reads every colour of the table as words, not the game’s joined-up names', () => {
    expect(colorTitle({ name: 'WyvernPurple1' })).toBe('Wyvern Purple 1');
    expect(colorTitle({ name: 'BigFoot0' })).toBe('Big Foot 0');
    expect(colorTitle({ name: 'Dino Light Orange' })).toBe('Dino Light Orange');
    for (const c of COLORS) expect(colorTitle(c), c.name).not.toMatch(/[a-z][A-Z0-9]|[0-9][A-Za-z]/);
  });
});
