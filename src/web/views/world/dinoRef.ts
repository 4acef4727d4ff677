// Dinos as entity references, and the palette's search of them on the server: by id, by the
// in-game number, or by name, one page of the list in display-name order (SENTINEL-API §3.11).

import type { EntityRef } from '../../../../commands/args.ts';
import type { Dino } from '../../../domain/api.ts';
import { UUID } from '../../../domain/constants.ts';
import type { SentinelApi } from '../../api/sentinel.ts';

/** What one request brings back: more than the palette shows at once, bounded for the server. */
export const DINO_SEARCH_PAGE = 20;

export const dinoRef = (d: Dino): EntityRef => ({
  kind: 'dino',
  id: d.dinoId,
  label: d.dinoDisplayName,
  detail: [d.dinoSpecies, d.tribeName, d.serviceDisplayName].filter(Boolean).join(' · '),
  mask: d.permissions,
  server: d.serviceId,
});

export async function dinoRemote(api: SentinelApi, text: string, signal?: AbortSignal): Promise<EntityRef[]> {
  const query = UUID.test(text)
    ? { 'dinoId[]': text }
    : /^\d+$/.test(text)
      ? { dinoNumber: text }
      : { dinoName: text, sortedColumn: 'dinoDisplayName' };
  const page = await api.dinos.list({ ...query, pageSize: DINO_SEARCH_PAGE }, signal);
  return page.results.map(dinoRef);
}
