// The server's event log, newest first, with live events prepended as they arrive.
// (The full log view — filters, paging over millions of rows, raw data — is the logs issue.)

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { channelFor, type LogMessage, type Page, RealtimeEvent } from '../../../domain/api.ts';
import { useApp } from '../../app/deps.tsx';
import type { Column } from '../../ui/VirtualList.tsx';
import { VirtualList } from '../../ui/VirtualList.tsx';

const columns: Column<LogMessage>[] = [
  { id: 'message', title: 'Message', value: (m) => m.message, width: '50%' },
  {
    id: 'time',
    title: 'Time',
    value: (m) => m.time,
    render: (m) => new Date(m.time * 1000).toLocaleString('en'),
  },
  { id: 'event', title: 'Event', value: (m) => m.eventName },
  { id: 'type', title: 'Type', value: (m) => m.type },
  { id: 'level', title: 'Level', value: (m) => m.level },
];

const MAX_HELD = 5000;

export function ServerLogs({ serviceId }: { serviceId: string }) {
  const { api, realtime } = useApp();
  const qc = useQueryClient();
  const key = useMemo(() => ['logs', serviceId], [serviceId]);
  const query = useQuery({
    queryKey: key,
    queryFn: async () =>
      (
        await api.http<Page<LogMessage>>('GET', '/sentinel/logMessages', {
          query: { serviceId, pageSize: 250, sortedColumn: 'time', sortDirection: 'descending' },
        })
      ).results,
  });

  useEffect(() => {
    if (!realtime) return;
    return realtime.subscribe(channelFor('services', serviceId), {
      [RealtimeEvent.logMessage]: (data) => {
        const m = data as LogMessage;
        if (m?.serviceId !== serviceId) return;
        qc.setQueryData<LogMessage[]>(key, (list) =>
          list?.some((x) => x.messageId === m.messageId) ? list : [m, ...(list ?? [])].slice(0, MAX_HELD),
        );
      },
      resync: () => void qc.invalidateQueries({ queryKey: key }),
    });
  }, [realtime, qc, serviceId, key]);

  return (
    <VirtualList<LogMessage>
      name="serverLogs"
      rows={query.data ?? []}
      rowKey={(m) => m.messageId}
      columns={columns}
      defaultSort={{ column: 'time', direction: 'desc' }}
      loading={query.isLoading}
      error={query.error?.message ?? null}
      emptyText="No events yet."
      onRefresh={() => void qc.invalidateQueries({ queryKey: key })}
    />
  );
}
