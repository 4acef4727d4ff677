// Creatures and items of the simulated islands, from the game's blueprint catalogue
// (src/domain/blueprints), so dino lists, species filters and give paths are ARK's own.

import {
  CREATURES,
  type CreatureBlueprint,
  findCreature,
  findItem,
  ITEMS,
  isKnownPath,
  normalisePath,
} from '../domain/blueprints/index.ts';

export interface Species {
  readonly name: string;
  readonly path: string;
  /** Some creatures (Titanosaur, Tek machines) have no gender. */
  readonly gendered: boolean;
}

const GENDERLESS = new Set(['Titanosaur', 'Enforcer', 'Mek', 'Scout', 'Tek Stryder']);

const speciesOf = (c: CreatureBlueprint): Species => ({
  name: c.name,
  path: c.path,
  gendered: !GENDERLESS.has(c.name),
});

/** What islands hold in the wild: the base game's tameable creatures, without event or boss variants. */
export const SPECIES: readonly Species[] = CREATURES.filter(
  (c) => c.pack === 'Base Game' && c.tameable && !c.variants?.length && c.games.includes('ASE'),
).map(speciesOf);

/**
 * The species a blueprint path names; a third-party mod's creature is made up from its class
 * name. Undefined for a path inside an official pack that the game does not have.
 */
export function speciesOfPath(path: string): Species | undefined {
  const known = findCreature(path);
  if (known) return speciesOf(known);
  if (!isKnownPath('creature', path)) return undefined;
  const name =
    /([A-Za-z0-9]+?)(?:_Character_BP)?$/.exec(normalisePath(path).split('.').at(-1) ?? '')?.[1] ?? 'Creature';
  return { name, path: normalisePath(path), gendered: true };
}

/** What daily rewards hand out: resources and consumables players use. */
export const REWARD_ITEMS = ITEMS.filter((i) => i.category === 'Resources' || i.category === 'Consumables');

/** An item's name for messages: the catalogue's, or the class name of a mod's item. */
export const itemName = (path: string): string =>
  findItem(path)?.name ?? normalisePath(path).split('.').at(-1) ?? path;

export const STRUCTURES = [
  'Metal Wall',
  'Stone Foundation',
  'Wooden Door',
  'Tek Generator',
  'Vault',
  'Turret',
];
export const BUFFS = ['Broken Leg', 'Well Rested', 'Hypothermia', 'Enraged', 'Cryo Sickness'];
