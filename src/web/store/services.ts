// Servers: the query every server view reads, kept live by realtime events.

import { type QueryClient, useQuery } from '@tanstack/react-query';
import type { Service } from '../../domain/api.ts';
import { channelFor, RealtimeEvent, userChannel } from '../../domain/api.ts';
import { Msg } from '../../domain/messages.ts';
import type { SentinelApi } from '../api/sentinel.ts';
import type { EntityIndex } from './entityIndex.ts';
import { useChannels, useLiveRefetch } from './liveRefetch.ts';
import { serviceRef } from './lookup.ts';
import { fetchPages } from './pagedList.ts';
import type { Realtime } from './realtime.ts';

export const servicesKey = ['services'] as const;

export function useServices(api: SentinelApi, index: EntityIndex) {
  return useQuery({
    queryKey: servicesKey,
    queryFn: async () => {
      try {
        // Every server, however many: the shell, the palette and the commands read this list.
        const list = await fetchPages(
          api.services.list,
          { sortedColumn: 'displayName' },
          Number.POSITIVE_INFINITY,
        );
        index.upsert(list.map(serviceRef));
        return list;
      } catch (e) {
        throw Object.assign(e as Error, { summary: Msg.serverListFailed });
      }
    },
  });
}

export function patchService(qc: QueryClient, index: EntityIndex, service: Service): void {
  qc.setQueryData<Service[]>(servicesKey, (list) =>
    list?.map((s) => (s.serviceId === service.serviceId ? { ...s, ...service } : s)),
  );
  // A realtime payload leaves out the caller's own fields (permissions, access key, where RCON
  // listens): it only updates a server already fetched, never stands in for one.
  qc.setQueryData(['service', service.serviceId], (old: Service | undefined) =>
    old ? { ...old, ...service } : undefined,
  );
  index.upsert([serviceRef(service)]);
}

/** Live updates for the user's server list and each listed server. */
export function useLiveServices(
  rt: Realtime | null,
  qc: QueryClient,
  index: EntityIndex,
  userId: string | undefined,
  ids: string[],
): void {
  useLiveRefetch(rt, {
    channels: userId ? [userChannel(userId)] : [],
    events: { [RealtimeEvent.servicesUpdated]: true },
    refetch: () => void qc.invalidateQueries({ queryKey: servicesKey }),
  });
  useChannels(
    rt,
    ids.map((id) => channelFor('services', id)),
    {
      [RealtimeEvent.serviceUpdated]: (data) => {
        if (data && typeof data === 'object') patchService(qc, index, data as Service);
      },
    },
  );
}
