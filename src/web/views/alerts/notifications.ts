// The console's notifications, live: how many are unread (the nav bar shows it), and a browser
// notification for one a rule with a browser-notification destination raised while this page is
// hidden (the Notification API shows text as text; nothing in it is markup).

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertEvent } from '../../../domain/alerts.ts';
import { userChannel } from '../../../domain/api.ts';
import { useApp } from '../../app/deps.tsx';
import { useChannels } from '../../store/liveRefetch.ts';

export const UNREAD_KEY = ['notifications', 'unread'];

interface Created {
  notificationId: string;
  title: string;
  body: string;
  push: boolean;
}

/** Unread notifications of the user, kept current by their channel. */
export function useUnreadNotifications(userId: string): number {
  const { api, realtime } = useApp();
  const qc = useQueryClient();
  const unread = useQuery({ queryKey: UNREAD_KEY, queryFn: () => api.notifications.unread() });
  const recount = () => void qc.invalidateQueries({ queryKey: UNREAD_KEY });
  useChannels(realtime, [userChannel(userId)], {
    [AlertEvent.notificationCreated]: (data) => {
      recount();
      const n = data as Created | null;
      if (!n?.push || !document.hidden || globalThis.Notification?.permission !== 'granted') return;
      new Notification(n.title, { body: n.body.slice(0, 300), tag: n.notificationId });
    },
    [AlertEvent.notificationsRead]: recount,
    resync: recount,
  });
  return unread.data?.count ?? 0;
}
