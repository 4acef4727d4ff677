// An event's value fields (the catalogue's FIELDS) from what the game sent: the metadata keys of
// SENTINEL-API §6 flattened, the attacker and connection details spread out, the chat analyser's
// scores, and the server the script runs for.

import { MODERATION_SCORES } from '../../domain/enums.ts';
import type { EventValues } from '../../domain/scripts/simple.ts';

export interface ServiceNames {
  serviceId: string;
  serviceName: string;
  serviceNickname: string;
  serviceChatName: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Metadata keys that are value fields under the same name. */
const SAME = [
  'playerId',
  'playerName',
  'specimenId',
  'characterId',
  'characterName',
  'tribeId',
  'tribeName',
  'tribeNumber',
  'oldClock',
  'newClock',
  'dinoId',
  'dinoName',
  'dinoSpecies',
  'dinoAge',
  'dinoLevel',
  'hasCryoSickness',
  'ipFingerprint',
] as const;

function attacker(a: unknown): EventValues {
  if (typeof a === 'string') return { attackerName: a, attackerKind: 'Environment' };
  if (!isRecord(a)) return {};
  return {
    attackerKind: a.kind ?? a.attackerKind,
    attackerName: a.name ?? a.attackerName,
    attackerTribeId: a.tribeId,
    attackerTribeName: a.tribeName,
    attackerTribeNumber: a.tribeNumber,
    attackerLevel: a.level,
    attackerSpecies: a.species,
  };
}

export function eventValues(meta: Record<string, unknown>, service: ServiceNames): EventValues {
  const values: EventValues = { ...service };
  for (const key of SAME) if (meta[key] !== undefined && meta[key] !== null) values[key] = meta[key];
  values.playerName ??= meta.senderName ?? meta.newName;
  values.characterName ??= values.playerName;
  const message = meta.message ?? meta.originalMessage ?? meta.command;
  if (typeof message === 'string') values.message = message;
  Object.assign(values, attacker(meta.attacker));
  const scores = isRecord(meta.analysis) && isRecord(meta.analysis.scores) ? meta.analysis.scores : {};
  for (const s of MODERATION_SCORES) if (typeof scores[s] === 'number') values[s] = scores[s];
  if (isRecord(meta.connectionDetails)) {
    values.countryCode = meta.connectionDetails.countryCode;
    values.continentCode = meta.connectionDetails.continentCode;
    values.isUsingVpn = meta.connectionDetails.vpn;
  }
  for (const [k, v] of Object.entries(values)) if (v === undefined) delete values[k];
  return values;
}
