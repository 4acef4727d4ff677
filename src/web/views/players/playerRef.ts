// Players as entity references: the palette finds a player by any name they went by, because
// former and survivor names ride along in the searched detail.

import type { EntityRef } from '../../../../commands/args.ts';
import type { Page } from '../../../domain/api.ts';
import { UUID } from '../../../domain/constants.ts';
import type { PlayerDetail } from '../../../domain/players.ts';
import type { SentinelApi } from '../../api/sentinel.ts';

/** Beside the name: the caller's flags, then the names the player went by (both searched). */
export const playerRef = (p: PlayerDetail): EntityRef => {
  const detail = [
    ...(p.flags?.length ? [`flagged ${p.flags.map((f) => f.name).join(', ')}`] : []),
    ...(p.otherNames.length ? [`formerly ${p.otherNames.join(', ')}`] : []),
  ];
  return { kind: 'player', id: p.playerId, label: p.playerName, detail: detail.join(' · ') || undefined };
};

/** By id, or every player whose current, former or survivor name or identifier matches. */
export async function playerRemote(api: SentinelApi, text: string): Promise<EntityRef[]> {
  const query = UUID.test(text) ? { 'playerId[]': text } : { name: text };
  const page: Page<PlayerDetail> = await api.players.list({ ...query, pageSize: 25 });
  return page.results.map(playerRef);
}
