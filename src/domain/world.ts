// Survivors, tribes and dinos as every surface shows them (SPEC §2 lists): one column declaration
// per kind, read by the console's lists (with widths) and the console pane's tables, and the
// API sort each column maps to (§9 default sorts: name; dinos by display name).

import type { Character, Dino, Tribe } from './api.ts';
import { DINO_STATUS_LABELS, type DinoStatus, lifeStage } from './enums.ts';

export interface WorldColumn<T> {
  id: string;
  title: string;
  value(row: T): string | number;
  /** The API's `sortedColumn` for it, when the API sorts by it. */
  sort?: string;
  width?: string;
  align?: 'end';
  /** The state a cell shows, which the console marks with its colour and shape (`state-dead`). */
  state?(row: T): string;
}

export const SURVIVOR_COLUMNS: readonly WorldColumn<Character>[] = [
  { id: 'name', title: 'Name', value: (c) => c.characterName, sort: 'characterName', width: '2fr' },
  { id: 'server', title: 'Server', value: (c) => c.serviceDisplayName, sort: 'serviceDisplayName' },
  { id: 'implant', title: 'Implant', value: (c) => c.specimenId, sort: 'specimenId', align: 'end' },
  { id: 'tribe', title: 'Tribe', value: (c) => c.tribeName ?? '', sort: 'tribeName' },
];

/**
 * On a tribe's page its survivors include those who left it (the tribe's history): each says
 * which it is, so a former member is not read as one of them.
 */
export const membershipColumn = (tribeId: string): WorldColumn<Character> => ({
  id: 'membership',
  title: 'Membership',
  value: (c) => (c.tribeId === tribeId ? 'Member' : 'Former member'),
});

export const TRIBE_COLUMNS: readonly WorldColumn<Tribe>[] = [
  { id: 'name', title: 'Name', value: (t) => t.tribeName, sort: 'tribeName', width: '2fr' },
  { id: 'server', title: 'Server', value: (t) => t.serviceDisplayName, sort: 'serviceDisplayName' },
  { id: 'tribeId', title: 'Tribe ID', value: (t) => t.tribeNumber, sort: 'tribeNumber', align: 'end' },
];

export const DINO_COLUMNS: readonly WorldColumn<Dino>[] = [
  { id: 'name', title: 'Name', value: (d) => d.dinoDisplayName, sort: 'dinoDisplayName', width: '2fr' },
  { id: 'species', title: 'Species', value: (d) => d.dinoSpecies },
  { id: 'lifeStage', title: 'Life Stage', value: (d) => lifeStage(d.dinoAge) },
  { id: 'dinoId', title: 'Dino Id', value: (d) => d.dinoNumber, sort: 'dinoNumber' },
  { id: 'tribe', title: 'Tribe', value: (d) => d.tribeName ?? '', sort: 'tribeName' },
  { id: 'server', title: 'Server', value: (d) => d.serviceDisplayName, sort: 'serviceDisplayName' },
  {
    id: 'status',
    title: 'Status',
    value: (d) => DINO_STATUS_LABELS[d.dinoStatus],
    state: (d) => d.dinoStatus.toLowerCase(),
  },
];

export const DINO_DISCLAIMER = 'Dino level and age may lag behind the game.';

/** A status as typed or shown (Cryopodded) to the API's value (Frozen). */
export function dinoStatusOf(text: string): DinoStatus | null {
  const t = text.trim().toLowerCase();
  const hit = (Object.entries(DINO_STATUS_LABELS) as [DinoStatus, string][]).find(
    ([value, label]) => value.toLowerCase() === t || label.toLowerCase() === t,
  );
  return hit ? hit[0] : null;
}

/** The uint64 dino number as the two uint32 halves game commands carry (SENTINEL-API §2.3). */
export function dinoIdHalves(dinoNumber64: string | number): { dinoId1: number; dinoId2: number } {
  const n = BigInt(dinoNumber64);
  return { dinoId1: Number(n >> 32n), dinoId2: Number(n & 0xffffffffn) };
}
