// A read-only list of one Sentinel class path (`/sentinel/characters?serviceId=…`): every page the
// API gives up to a cap, shown in the VirtualList, with the API's own error when it refuses.

import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Page } from '../../../domain/api.ts';
import { ApiError } from '../../api/http.ts';
import { useApp } from '../../app/deps.tsx';
import { type Column, VirtualList } from '../../ui/VirtualList.tsx';

/** A tab lists what a server holds; beyond this, the section's own list with paging is the place. */
const MAX_ROWS = 5000;

export interface ApiListProps<T> {
  name: string;
  label: string;
  path: string;
  params: Record<string, string>;
  columns: readonly Column<T>[];
  rowKey(row: T): string;
  defaultSort?: { column: string; direction: 'asc' | 'desc' };
  emptyText: string;
  onOpen?(row: T): void;
}

export function errorText(e: unknown): string {
  if (e instanceof ApiError) return e.reason !== e.message ? `${e.message} ${e.reason}` : e.message;
  return e instanceof Error ? e.message : String(e);
}

export function ApiList<T>(props: ApiListProps<T>) {
  const { api } = useApp();
  const qc = useQueryClient();
  const key = ['apiList', props.path, props.params];
  const query = useQuery({
    queryKey: key,
    queryFn: async () => {
      const out: T[] = [];
      for (let page = 1; out.length < MAX_ROWS; page++) {
        const p = await api.http<Page<T>>('GET', props.path, {
          query: { ...props.params, page, pageSize: 250 },
        });
        out.push(...p.results);
        if (page >= p.pages) break;
      }
      return out;
    },
  });
  return (
    <VirtualList<T>
      name={props.name}
      label={props.label}
      rows={query.data ?? []}
      rowKey={props.rowKey}
      columns={props.columns}
      defaultSort={props.defaultSort}
      loading={query.isLoading}
      error={query.error ? errorText(query.error) : null}
      emptyText={props.emptyText}
      onOpen={props.onOpen}
      onRefresh={() => void qc.invalidateQueries({ queryKey: key })}
    />
  );
}
