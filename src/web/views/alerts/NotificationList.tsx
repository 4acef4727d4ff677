// The console's notifications (the alerts issue): what the account's rules raised and cleared,
// newest first, unread ones marked. Enter on one marks it read and opens its rule; the toolbar
// marks them all read. Live over the user's channel.

import { useQueryClient } from '@tanstack/react-query';
import { AlertEvent, type AppNotification, DELIVERY_KIND_LABELS } from '../../../domain/alerts.ts';
import { userChannel } from '../../../domain/api.ts';
import { formatTime } from '../../../domain/format.ts';
import { pathOf } from '../../../domain/resolver.ts';
import { useApp, userOf } from '../../app/deps.tsx';
import { MENUS } from '../../app/menus.ts';
import { usePaneNavigate } from '../../app/PaneView.tsx';
import { useLiveRefetch } from '../../store/liveRefetch.ts';
import { usePagedList } from '../../store/pagedList.ts';
import { Toolbar } from '../../ui/Toolbar.tsx';
import { type Column, VirtualList } from '../../ui/VirtualList.tsx';
import { UNREAD_KEY } from './notifications.ts';

const columns: Column<AppNotification>[] = [
  { id: 'dateCreated', title: 'When', value: (n) => n.dateCreated, render: (n) => formatTime(n.dateCreated) },
  { id: 'read', title: 'Read', value: (n) => (n.isRead ? 'Read' : 'Unread') },
  { id: 'kind', title: 'Kind', value: (n) => DELIVERY_KIND_LABELS[n.kind] },
  { id: 'title', title: 'What', value: (n) => n.title, width: '2fr' },
  // One line per fact, shown on one line in the list.
  { id: 'body', title: 'Details', value: (n) => n.body.split('\n').join(' · '), width: '3fr' },
];

export function NotificationList() {
  const { api, auth, realtime } = useApp();
  const qc = useQueryClient();
  const go = usePaneNavigate();
  const list = usePagedList({ of: 'notifications', params: { sortedColumn: 'dateCreated' } });
  const userId = userOf(auth)?.userId;
  useLiveRefetch(realtime, {
    channels: userId ? [userChannel(userId)] : [],
    events: { [AlertEvent.notificationCreated]: true, [AlertEvent.notificationsRead]: true },
    refetch: list.refetch,
  });
  const open = async (n: AppNotification) => {
    if (!n.isRead) {
      await api.notifications.markRead({ notificationIds: [n.notificationId] });
      void qc.invalidateQueries({ queryKey: UNREAD_KEY });
    }
    if (n.ruleId) go(pathOf('alert', n.ruleId));
    else list.refetch();
  };
  return (
    <div className="page page-list">
      <h1 className="page-title">Notifications</h1>
      <VirtualList<AppNotification>
        {...list.view}
        name="notifications"
        label="Notifications"
        rowKey={(n) => n.notificationId}
        columns={columns}
        defaultSort={{ column: 'dateCreated', direction: 'desc' }}
        emptyText="No notifications. Your alert rules' alerts and all-clears show here."
        onOpen={(n) => void open(n)}
        toolbar={<Toolbar commandIds={MENUS.notificationListToolbar} label="Notifications" />}
      />
    </div>
  );
}
