// The game's blueprint catalogue (README.md beside it): items, creatures, content packs and colour
// ids of ARK (ASE and ASA), shared by the console's pickers, the API's path checks, the simulator
// and the script engine. The console loads this module lazily (it is 600 kB of JSON): import it
// with `import()` from web code, never statically from the shell.

import data from './ark-blueprints.json' with { type: 'json' };

export type Game = 'ASE' | 'ASA';

export interface ItemBlueprint {
  readonly name: string;
  /** `Package.Object`, without `Blueprint'…'` and without `_C`; unique across the catalogue. */
  readonly path: string;
  readonly category: string;
  readonly pack: string;
  readonly blueprintable: boolean;
  readonly stackSize: number;
}

export interface CreatureBlueprint {
  readonly name: string;
  readonly path: string;
  readonly pack: string;
  readonly tameable: boolean;
  readonly variants?: readonly string[];
  readonly games: readonly Game[];
}

/** A content pack ("mod" in the pickers): official DLC maps and packs, by their folder under /Game/. */
export interface Pack {
  readonly name: string;
  readonly folder: string;
}

export interface DinoColor {
  readonly id: number;
  readonly name: string;
  readonly hex: string;
  readonly dye: boolean;
  readonly games: readonly Game[];
}

export type Blueprint = ItemBlueprint | CreatureBlueprint;
export type BlueprintKind = 'item' | 'creature';

const catalogue = data as unknown as {
  items: ItemBlueprint[];
  creatures: CreatureBlueprint[];
  packs: Pack[];
  colors: DinoColor[];
};

export const ITEMS: readonly ItemBlueprint[] = catalogue.items;
export const CREATURES: readonly CreatureBlueprint[] = catalogue.creatures;
export const PACKS: readonly Pack[] = catalogue.packs;
export const COLORS: readonly DinoColor[] = catalogue.colors;

/** Pack names once each, in the catalogue's order (Valguero, Lost Island and Fjordur span two folders). */
export const PACK_NAMES: readonly string[] = [...new Set(PACKS.map((p) => p.name))];

/**
 * The catalogue's form of a class path as an admin may type it: `Blueprint'…'` unwrapped, `_C`
 * dropped, spaces trimmed.
 */
export function normalisePath(path: string): string {
  const t = path.trim();
  const inner = /^Blueprint'(.*)'$/i.exec(t)?.[1] ?? t;
  return inner.replace(/_C$/, '');
}

const byPath = <T extends Blueprint>(list: readonly T[]) => new Map(list.map((b) => [b.path, b]));
const ITEM_BY_PATH = byPath(ITEMS);
const CREATURE_BY_PATH = byPath(CREATURES);

export const findItem = (path: string): ItemBlueprint | undefined => ITEM_BY_PATH.get(normalisePath(path));
export const findCreature = (path: string): CreatureBlueprint | undefined =>
  CREATURE_BY_PATH.get(normalisePath(path));

/** The pack a path belongs to, by its folder after /Game/ (two segments for Mods/ and Packs/), if official. */
export function packOfPath(path: string): Pack | undefined {
  const parts = normalisePath(path).split('/').filter(Boolean);
  if (parts[0] !== 'Game') return undefined;
  const folder = ['Mods', 'Packs'].includes(parts[1]) ? `${parts[1]}/${parts[2]}` : parts[1];
  return PACKS.find((p) => p.folder === folder);
}

/**
 * Whether the game can have this blueprint as far as the catalogue knows: a catalogue entry of the
 * kind, or a path outside the official packs (third-party mod content the catalogue does not list).
 * A path inside an official pack that the catalogue lacks is a typo or a removed class.
 */
export function isKnownPath(kind: BlueprintKind, path: string): boolean {
  const found = kind === 'item' ? findItem(path) : findCreature(path);
  return found !== undefined || packOfPath(path) === undefined;
}

export interface BlueprintQuery {
  /** Words that must all occur in the name or the path, in any case. */
  text?: string;
  /** Pack names to keep (the Pick Mods filter); empty or absent keeps all. */
  packs?: readonly string[];
}

/**
 * How well a name answers the query: the name itself, then names starting with it, then a word
 * of the name starting with it, then the rest (the words somewhere in the name or only in the
 * path). "rex" finds Rex before Rex Saddle, Tek Rex and Giganotosaurus's path.
 */
function rank(name: string, query: string): number {
  const n = name.toLowerCase();
  if (n === query) return 0;
  if (n.startsWith(query)) return 1;
  if (n.split(/[\s(-]+/).some((w) => w.startsWith(query))) return 2;
  return 3;
}

/**
 * Items or creatures whose name or path holds every word of the query, the best answers first
 * (rank), in catalogue order among equals.
 */
export function searchBlueprints<K extends BlueprintKind>(
  kind: K,
  query: BlueprintQuery = {},
): (K extends 'item' ? ItemBlueprint : CreatureBlueprint)[] {
  const text = (query.text ?? '').toLowerCase().trim();
  const words = text.split(/\s+/).filter(Boolean);
  const packs = query.packs?.length ? new Set(query.packs) : null;
  const list: readonly Blueprint[] = kind === 'item' ? ITEMS : CREATURES;
  const found = list.filter((b) => {
    if (packs && !packs.has(b.pack)) return false;
    const hay = `${b.name} ${b.path}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  });
  if (!text) return found as never;
  // Array.prototype.sort is stable: equals keep the catalogue's order.
  return found
    .map((b) => ({ b, r: rank(b.name, text) }))
    .sort((x, y) => x.r - y.r)
    .map((x) => x.b) as never;
}

/** The colours a creature of `game` can wear: region colours 1–100 and that game's dyes. */
export const colorsOf = (game: Game): DinoColor[] => COLORS.filter((c) => c.games.includes(game));
/** Region colours only: what a creature of the species can be born with (not dyes). */
export const naturalColorsOf = (game: Game): DinoColor[] => colorsOf(game).filter((c) => !c.dye);
export const findColor = (game: Game, id: number): DinoColor | undefined =>
  COLORS.find((c) => c.id === id && c.games.includes(game));

/** The game a creature's colours follow: ASE's table when it is in ASE, else ASA's. */
export const gameOf = (c: CreatureBlueprint | undefined): Game =>
  c && !c.games.includes('ASE') ? 'ASA' : 'ASE';

/** The class name a console command takes (`Rex_Character_BP_C`). */
export const className = (path: string): string => `${normalisePath(path).split('.').at(-1)}_C`;
