// Deterministic test entities (BROWSER-PERF "Method"): `Rex 12 (Lvl 150) — Tribe of Bob — The Island`,
// 30 species numbered per species, levels 1–450, 40 tribes, 12 maps, from mulberry32.

import type { EntityRef } from '../../commands/args.ts';

export function mulberry32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SPECIES = [
  'Rex',
  'Raptor',
  'Giganotosaurus',
  'Argentavis',
  'Triceratops',
  'Stegosaurus',
  'Ankylosaurus',
  'Brontosaurus',
  'Carnotaurus',
  'Allosaurus',
  'Spinosaurus',
  'Therizinosaurus',
  'Quetzal',
  'Pteranodon',
  'Dodo',
  'Parasaur',
  'Mammoth',
  'Sabertooth',
  'Direwolf',
  'Baryonyx',
  'Megalodon',
  'Mosasaurus',
  'Tapejara',
  'Wyvern',
  'Griffin',
  'Yutyrannus',
  'Pachy',
  'Dilophosaur',
  'Trike',
  'Moschops',
];
const TRIBES = [
  'Bob',
  'Alice',
  'Carol',
  'Dave',
  'Eve',
  'Frank',
  'Grace',
  'Heidi',
  'Ivan',
  'Judy',
  'Mallory',
  'Niaj',
  'Olivia',
  'Peggy',
  'Rupert',
  'Sybil',
  'Trent',
  'Uma',
  'Victor',
  'Walter',
  'Xena',
  'Yara',
  'Zed',
  'Aaron',
  'Bella',
  'Cody',
  'Dana',
  'Eli',
  'Fay',
  'Gus',
  'Hank',
  'Iris',
  'Jack',
  'Kara',
  'Liam',
  'Mona',
  'Ned',
  'Opal',
  'Pia',
  'Quinn',
];
const MAPS = [
  'The Island',
  'Scorched Earth',
  'Aberration',
  'Extinction',
  'The Center',
  'Ragnarok',
  'Valguero',
  'Genesis',
  'Crystal Isles',
  'Lost Island',
  'Fjordur',
  'Svartalfheim',
];

export interface BenchEntity extends EntityRef {
  /** The whole line, as plain cmdk's item value. */
  text: string;
}

export function generateEntities(n: number, seed = 42): BenchEntity[] {
  const rnd = mulberry32(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  const perSpecies = new Map<string, number>();
  const out: BenchEntity[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const species = pick(SPECIES);
    const num = (perSpecies.get(species) ?? 0) + 1;
    perSpecies.set(species, num);
    const label = `${species} ${num} (Lvl ${1 + Math.floor(rnd() * 450)})`;
    const detail = `Tribe of ${pick(TRIBES)} — ${pick(MAPS)}`;
    out[i] = { kind: 'dino', id: `d${i}`, label, detail, text: `${label} — ${detail}` };
  }
  return out;
}
