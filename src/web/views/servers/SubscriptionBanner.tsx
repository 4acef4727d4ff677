// The subscription banners of SPEC §4: no subscription, expired, or more servers than the plan
// allows (then none of them connect). Read from the signed-in user and the servers they own.

import { RealtimeEvent, type Service, type User, userChannel } from '../../../domain/api.ts';
import { productSubscription } from '../../../domain/subscription.ts';
import { useApp, userOf } from '../../app/deps.tsx';
import { useCommandRuntime } from '../../app/runtime.ts';
import { useLiveRefetch } from '../../store/liveRefetch.ts';
import './servers.css';

export type SubscriptionProblem = 'none' | 'expired' | 'tooMany' | null;

export function subscriptionProblem(
  user: User,
  services: readonly Service[],
  nowMs = Date.now(),
): SubscriptionProblem {
  const sub = productSubscription(user);
  if (!sub) return 'none';
  if (sub.expiration * 1000 <= nowMs) return 'expired';
  const owned = services.filter((s) => s.userId === user.userId).length;
  return owned > sub.unitsAllowed ? 'tooMany' : null;
}

const TEXT: Record<Exclude<SubscriptionProblem, null>, string> = {
  none: 'You have no Sentinel subscription, so your servers cannot connect. Start a trial or choose a plan.',
  expired:
    'Your Sentinel subscription has expired, so your servers cannot connect. Renew it to reconnect them.',
  tooMany:
    'You have more servers than your subscription allows, so none of them connect. Remove servers or upgrade your plan.',
};

export function SubscriptionBanner({ services }: { services: readonly Service[] }) {
  const { auth, realtime } = useApp();
  const runtime = useCommandRuntime();
  const user = userOf(auth);
  // A plan change, a renewal or an expiry reaches the user record as userUpdated.
  useLiveRefetch(realtime, {
    channels: user ? [userChannel(user.userId)] : [],
    events: { [RealtimeEvent.userUpdated]: true },
    refetch: () => void auth.reloadUser(),
  });
  const problem = user ? subscriptionProblem(user, services) : null;
  if (!problem || !user) return null;
  // The remedy: a trial (as a form, the account's email filled in) or the billing portal.
  const remedy = () => {
    if (problem === 'none')
      runtime.context('toolbar').app.dialogs.form('account.startTrial', { email: user.email });
    else {
      const cmd = runtime.registry.get('account.managePlan');
      if (cmd) void runtime.run(cmd, {}, 'toolbar').catch(() => {});
    }
  };
  return (
    <p role="status" className="banner banner-warning" data-testid={`subscription-${problem}`}>
      {TEXT[problem]}{' '}
      <button type="button" className="ui-button" onClick={remedy}>
        {problem === 'none' ? 'Start a trial' : 'Manage plan'}
      </button>
    </p>
  );
}
