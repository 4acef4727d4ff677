// EntityLookup over the entity index, asking the API for what the index does not hold.

import type { EntityKind, EntityLookup, EntityRef } from '../../../commands/args.ts';
import type { Service } from '../../domain/api.ts';
import { UUID } from '../../domain/constants.ts';
import type { SentinelApi } from '../api/sentinel.ts';
import { alertRef, destinationRef } from '../views/alerts/alertRefs.ts';
import { bucketRef } from '../views/buckets/bucketRef.ts';
import { groupRef } from '../views/groups/groupRef.ts';
import { logRemote } from '../views/logs/logRef.ts';
import { playerRemote } from '../views/players/playerRef.ts';
import { dinoRemote, survivorRemote, tribeRemote } from '../views/world/worldRefs.ts';
import type { EntityIndex } from './entityIndex.ts';

export const serviceRef = (s: Service): EntityRef => ({
  kind: 'server',
  id: s.serviceId,
  label: s.displayName,
  detail: s.name !== s.displayName ? s.name : undefined,
  mask: s.permissions,
});

/** Remote lookups by kind: what the index may not hold yet (a fresh session holds only servers). */
type Remote = (api: SentinelApi, text: string, signal?: AbortSignal) => Promise<EntityRef[]>;
const REMOTE: Partial<Record<EntityKind, Remote>> = {
  player: playerRemote,
  log: logRemote,
  survivor: survivorRemote,
  tribe: tribeRemote,
  dino: dinoRemote,
  server: async (api, text) => {
    const query = UUID.test(text) ? { 'serviceId[]': text } : { searchableName: text };
    return (await api.services.list({ ...query, pageSize: 25 })).results.map(serviceRef);
  },
  group: async (api, text) => {
    const query = UUID.test(text) ? { 'groupId[]': text } : { name: text };
    return (await api.groups.list({ ...query, pageSize: 25 })).results.map(groupRef);
  },
  bucket: async (api, text) => {
    const query = UUID.test(text) ? { 'bucketId[]': text } : { name: text };
    return (await api.buckets.list({ ...query, pageSize: 25 })).results.map(bucketRef);
  },
  alert: async (api, text) => {
    const query = UUID.test(text) ? { 'ruleId[]': text } : { name: text };
    return (await api.alertRules.list({ ...query, pageSize: 25 })).results.map(alertRef);
  },
  destination: async (api, text) => {
    const query = UUID.test(text) ? { 'destinationId[]': text } : { name: text };
    return (await api.alertDestinations.list({ ...query, pageSize: 25 })).results.map(destinationRef);
  },
  // The user's scripts, and the Workshop's (which hold no bits of the user's: no mask).
  script: async (api, text) => {
    const query = UUID.test(text) ? { 'scriptId[]': text } : { name: text };
    const [mine, community] = await Promise.all([
      api.scripts.list({ ...query, pageSize: 25 }),
      api.communityScripts.list({ ...query, pageSize: 25 }),
    ]);
    const own = mine.results.map(
      (s): EntityRef => ({ kind: 'script', id: s.scriptId, label: s.name, mask: s.permissions }),
    );
    const seen = new Set(own.map((r) => r.id));
    return [
      ...own,
      ...community.results
        .filter((s) => !seen.has(s.scriptId))
        .map((s): EntityRef => ({ kind: 'script', id: s.scriptId, label: s.name, detail: s.usernameFull })),
    ];
  },
};

export function createLookup(index: EntityIndex, api: () => SentinelApi): EntityLookup {
  const search = (kinds: readonly EntityKind[], query: string, limit: number): EntityRef[] => {
    const q = query.toLowerCase();
    const starts: EntityRef[] = [];
    const contains: EntityRef[] = [];
    for (const kind of kinds) {
      for (const r of index.ofKind(kind)) {
        const label = r.label.toLowerCase();
        if (label.startsWith(q) || r.id === query) starts.push(r);
        else if (label.includes(q)) contains.push(r);
      }
    }
    return [...starts, ...contains].slice(0, limit);
  };

  return {
    search,
    label: (kind, id) => index.get(kind, id)?.label,
    async resolve(kinds, text) {
      const t = text.trim();
      const exact = (refs: EntityRef[]) => {
        const byId = refs.filter((r) => r.id.toLowerCase() === t.toLowerCase());
        if (byId.length) return byId;
        return refs.filter((r) => r.label.toLowerCase() === t.toLowerCase());
      };
      const local = exact(kinds.flatMap((k) => index.ofKind(k)));
      if (local.length) return local;
      const found: EntityRef[] = [];
      for (const kind of kinds) {
        const remote = REMOTE[kind];
        if (remote) found.push(...(await remote(api(), t)));
      }
      index.upsert(found);
      const hits = exact(found);
      if (hits.length) return hits;
      // The server matched on something the label does not show (an old name, an EOS id): trust a lone hit.
      if (found.length === 1) return found;
      // A unique prefix is as good as the full name when typing fast.
      const prefixed = search(kinds, t, 2);
      return prefixed.length === 1 ? prefixed : [];
    },
  };
}

/**
 * What the palette asks the server for a settled query: every kind it can open by name, one
 * bounded request each, so a group, a player or a bucket is found in a fresh session before its
 * list was ever opened. Servers are all held from the start; log lines are not opened by name.
 */
export async function searchRemote(
  api: SentinelApi,
  text: string,
  signal?: AbortSignal,
): Promise<EntityRef[]> {
  const kinds = (Object.keys(REMOTE) as EntityKind[]).filter((k) => k !== 'server' && k !== 'log');
  const found = await Promise.all(kinds.map((k) => REMOTE[k]!(api, text, signal).catch(() => [])));
  return found.flat();
}
