// Servers: the query every server view reads, kept live by realtime events.

import { type QueryClient, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Page, Service } from '../../domain/api.ts';
import { channelFor, RealtimeEvent, userChannel } from '../../domain/api.ts';
import { Msg } from '../../domain/messages.ts';
import type { SentinelApi } from '../api/sentinel.ts';
import type { EntityIndex } from './entityIndex.ts';
import { serviceRef } from './lookup.ts';
import type { Realtime } from './realtime.ts';

export const servicesKey = ['services'] as const;

export async function fetchAllServices(api: SentinelApi): Promise<Service[]> {
  const out: Service[] = [];
  for (let page = 1; ; page++) {
    const p: Page<Service> = await api.services.list({ page, pageSize: 250, sortedColumn: 'displayName' });
    out.push(...p.results);
    if (page >= p.pages) return out;
  }
}

export function useServices(api: SentinelApi, index: EntityIndex) {
  return useQuery({
    queryKey: servicesKey,
    queryFn: async () => {
      try {
        const list = await fetchAllServices(api);
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
  qc.setQueryData(['service', service.serviceId], (old: Service | undefined) => ({ ...old, ...service }));
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
  useEffect(() => {
    if (!rt || !userId) return;
    return rt.subscribe(userChannel(userId), {
      [RealtimeEvent.servicesUpdated]: () => void qc.invalidateQueries({ queryKey: servicesKey }),
      resync: () => void qc.invalidateQueries({ queryKey: servicesKey }),
    });
  }, [rt, qc, userId]);

  const key = ids.join(',');
  useEffect(() => {
    if (!rt || !key) return;
    const offs = key.split(',').map((id) =>
      rt.subscribe(channelFor('services', id), {
        [RealtimeEvent.serviceUpdated]: (data) => {
          if (data && typeof data === 'object') patchService(qc, index, data as Service);
        },
      }),
    );
    return () => {
      for (const off of offs) off();
    };
  }, [rt, qc, index, key]);
}
