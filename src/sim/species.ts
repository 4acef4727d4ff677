// Creatures the simulated islands hold: the names players see and the blueprint paths the mod
// reports, so dino lists, species filters and give-dino paths look like ARK's.

export interface Species {
  readonly name: string;
  readonly path: string;
  /** Some creatures (Titanosaur, Tek) have no gender. */
  readonly gendered: boolean;
}

const bp = (folder: string, name: string) =>
  `/Game/PrimalEarth/Dinos/${folder}/${name}_Character_BP.${name}_Character_BP_C`;

export const SPECIES: readonly Species[] = [
  { name: 'Rex', path: bp('Rex', 'Rex'), gendered: true },
  { name: 'Raptor', path: bp('Raptor', 'Raptor'), gendered: true },
  { name: 'Triceratops', path: bp('Trike', 'Trike'), gendered: true },
  { name: 'Parasaur', path: bp('Para', 'Para'), gendered: true },
  { name: 'Argentavis', path: bp('Argentavis', 'Argent'), gendered: true },
  { name: 'Ankylosaurus', path: bp('Ankylo', 'Ankylo'), gendered: true },
  { name: 'Dodo', path: bp('Dodo', 'Dodo'), gendered: true },
  { name: 'Pteranodon', path: bp('Ptero', 'Ptero'), gendered: true },
  { name: 'Stegosaurus', path: bp('Stego', 'Stego'), gendered: true },
  { name: 'Giganotosaurus', path: bp('Giganotosaurus', 'Gigant'), gendered: true },
  { name: 'Therizinosaurus', path: bp('Therizinosaurus', 'Therizino'), gendered: true },
  { name: 'Titanosaur', path: bp('Titanosaur', 'Titanosaur'), gendered: false },
];

/** The species a blueprint path names, or one made up from the path's last segment. */
export function speciesOfPath(path: string): Species {
  const known = SPECIES.find((s) => s.path === path);
  if (known) return known;
  const name =
    /([A-Za-z0-9]+?)(?:_Character_BP)?(?:_C)?$/.exec(path.split('.').at(-1) ?? '')?.[1] ?? 'Creature';
  return { name, path, gendered: true };
}

export const ITEM_NAMES = ['Metal Ingot', 'Cryopod', 'Fabricated Sniper Rifle', 'Element', 'Narcotic'];
export const STRUCTURES = [
  'Metal Wall',
  'Stone Foundation',
  'Wooden Door',
  'Tek Generator',
  'Vault',
  'Turret',
];
export const BUFFS = ['Broken Leg', 'Well Rested', 'Hypothermia', 'Enraged', 'Cryo Sickness'];
