// What was sent for a rule, or to a destination: when, what, to where, its status, attempts and
// the last answer (the alert page's and the destination page's history). Live: a new
// notification means new deliveries; each send changes a row, which the refresh key (r) shows.

import {
  type AlertDelivery,
  AlertEvent,
  DELIVERY_KIND_LABELS,
  type DeliveryStatus,
} from '../../../domain/alerts.ts';
import { userChannel } from '../../../domain/api.ts';
import { formatTime } from '../../../domain/format.ts';
import { useApp, userOf } from '../../app/deps.tsx';
import { MENUS } from '../../app/menus.ts';
import { useLiveRefetch } from '../../store/liveRefetch.ts';
import { usePagedList } from '../../store/pagedList.ts';
import { Toolbar } from '../../ui/Toolbar.tsx';
import { type Column, VirtualList } from '../../ui/VirtualList.tsx';

function statusText(d: AlertDelivery): string {
  const words: Record<DeliveryStatus, string> = { sent: 'Sent', failed: 'Failed', pending: 'Waiting' };
  if (d.status === 'pending' && d.nextAttempt) return `Waiting, next try ${formatTime(d.nextAttempt)}`;
  return words[d.status];
}

const columns: Column<AlertDelivery>[] = [
  { id: 'dateCreated', title: 'When', value: (d) => d.dateCreated, render: (d) => formatTime(d.dateCreated) },
  { id: 'kind', title: 'Kind', value: (d) => DELIVERY_KIND_LABELS[d.kind] },
  { id: 'title', title: 'What', value: (d) => d.title, width: '2fr' },
  { id: 'destinationName', title: 'To', value: (d) => d.destinationName },
  { id: 'status', title: 'Status', value: statusText },
  { id: 'attempts', title: 'Attempts', value: (d) => d.attempts },
  { id: 'answer', title: 'Answer', value: (d) => d.answer ?? '', width: '2fr' },
];

export function DeliveryList({ of }: { of: { ruleId: string } | { destinationId: string } }) {
  const { auth, realtime } = useApp();
  const list = usePagedList({ of: 'alertDeliveries', params: { ...of, sortedColumn: 'dateCreated' } });
  const userId = userOf(auth)?.userId;
  useLiveRefetch(realtime, {
    channels: userId ? [userChannel(userId)] : [],
    events: { [AlertEvent.notificationCreated]: true },
    refetch: list.refetch,
  });
  return (
    <VirtualList<AlertDelivery>
      {...list.view}
      name="alert-deliveries"
      label="What was sent"
      rowKey={(d) => d.deliveryId}
      columns={columns}
      defaultSort={{ column: 'dateCreated', direction: 'desc' }}
      emptyText="Nothing sent yet."
      toolbar={<Toolbar commandIds={MENUS.deliveriesToolbar} label="What was sent" />}
    />
  );
}
