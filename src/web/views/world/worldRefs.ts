// Survivors, tribes and dinos as entity references: what the palette, completion and commands
// show and search (a dino by its name, species or number; each with its tribe and server), and how
// one is found on the server when the index does not hold it.

import type { EntityRef } from '../../../../commands/args.ts';
import type { Character, Dino, Tribe } from '../../../domain/api.ts';
import { UUID } from '../../../domain/constants.ts';
import type { SentinelApi } from '../../api/sentinel.ts';

const detail = (...parts: (string | null | undefined)[]) => parts.filter(Boolean).join(' · ');

export const survivorRef = (c: Character): EntityRef => ({
  kind: 'survivor',
  id: c.characterId,
  label: c.characterName,
  detail: detail(c.tribeName, c.serviceDisplayName),
  mask: c.permissions,
  server: c.serviceId,
});

export const tribeRef = (t: Tribe): EntityRef => ({
  kind: 'tribe',
  id: t.tribeId,
  label: t.tribeName,
  detail: detail(`#${t.tribeNumber}`, t.serviceDisplayName),
  mask: t.permissions,
  server: t.serviceId,
});

export const dinoRef = (d: Dino): EntityRef => ({
  kind: 'dino',
  id: d.dinoId,
  label: d.dinoDisplayName,
  detail: detail(d.dinoName ? d.dinoSpecies : null, d.dinoNumber, d.tribeName, d.serviceDisplayName),
  mask: d.permissions,
  server: d.serviceId,
});

const LOOKUP_SIZE = 25;

/** By id, else by name (a dino also by its number). */
export const survivorRemote = async (api: SentinelApi, text: string) =>
  (
    await api.characters.list(
      UUID.test(text) ? { characterId: text } : { characterName: text, pageSize: LOOKUP_SIZE },
    )
  ).results.map(survivorRef);

export const tribeRemote = async (api: SentinelApi, text: string) =>
  (
    await api.tribes.list(UUID.test(text) ? { tribeId: text } : { tribeName: text, pageSize: LOOKUP_SIZE })
  ).results.map(tribeRef);

/** What one palette request brings back: more than it shows at once, bounded for the server. */
export const DINO_SEARCH_PAGE = 20;

/** By id, by the in-game number, or by name in display-name order (an index walk at a million dinos). */
export async function dinoRemote(api: SentinelApi, text: string, signal?: AbortSignal): Promise<EntityRef[]> {
  const query = UUID.test(text)
    ? { 'dinoId[]': text }
    : /^\d+$/.test(text)
      ? { dinoNumber: text }
      : { dinoName: text, sortedColumn: 'dinoDisplayName' };
  const page = await api.dinos.list({ ...query, pageSize: DINO_SEARCH_PAGE }, signal);
  return page.results.map(dinoRef);
}
