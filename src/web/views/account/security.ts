// The account's security state (two-factor sign-in, a setup under way, groups requiring it), read
// once for the Security page and live over the user's channel: any device's change shows here.

import { useQuery } from '@tanstack/react-query';
import { SECURITY_UPDATED } from '../../../domain/access.ts';
import { userChannel } from '../../../domain/api.ts';
import { useApp, userOf } from '../../app/deps.tsx';
import { useLiveRefetch } from '../../store/liveRefetch.ts';

/** Refetches `refetch` whenever the account's security changes, on any of its devices. */
export function useSecurityUpdates(refetch: () => void): void {
  const { auth, realtime } = useApp();
  const userId = userOf(auth)?.userId;
  useLiveRefetch(realtime, {
    channels: userId ? [userChannel(userId)] : [],
    events: { [SECURITY_UPDATED]: true },
    refetch,
  });
}

export function useAccountSecurity() {
  const { api } = useApp();
  const q = useQuery({ queryKey: ['accountSecurity'], queryFn: () => api.account.security() });
  useSecurityUpdates(() => void q.refetch());
  return q;
}
