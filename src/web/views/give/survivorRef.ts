// Survivors as entity references, so Give Item, Give Dino and the console name them by name or id.

import type { EntityRef } from '../../../../commands/args.ts';
import type { Character } from '../../../domain/api.ts';
import { UUID } from '../../../domain/constants.ts';
import type { SentinelApi } from '../../api/sentinel.ts';

export const survivorRef = (c: Character): EntityRef => ({
  kind: 'survivor',
  id: c.characterId,
  label: c.characterName,
  detail: [c.serviceDisplayName, c.tribeName].filter(Boolean).join(' · '),
  mask: c.permissions,
  server: c.serviceId,
});

/** By id, or every survivor whose name matches. */
export async function survivorRemote(api: SentinelApi, text: string): Promise<EntityRef[]> {
  if (UUID.test(text))
    return api.characters.get(text).then(
      (c) => [survivorRef(c)],
      () => [],
    );
  return (await api.characters.list({ characterName: text, pageSize: 25 })).results.map(survivorRef);
}
