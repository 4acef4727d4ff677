// One page of a class path list as a query, refetched when realtime says it changed.

import { useQuery } from '@tanstack/react-query';
import type { Page } from '../../../domain/api.ts';
import type { Query } from '../../api/http.ts';
import { useApp } from '../../app/deps.tsx';

export function usePage<T>(path: string, query: Query, enabled = true) {
  const { api } = useApp();
  return useQuery({
    queryKey: [path, query],
    enabled,
    queryFn: async () =>
      (await api.http<Page<T>>('GET', path, { query: { pageSize: 250, ...query } })).results,
  });
}

export const formatTime = (epoch: number | null) =>
  epoch === null ? '' : new Date(epoch * 1000).toLocaleString('en');
