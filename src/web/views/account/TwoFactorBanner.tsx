// Tells a member of a group that requires two-factor sign-in, while they have none, why they can
// see its servers but not act on them, and offers the way out: turning it on.

import { hasSecondFactor } from '../../../domain/access.ts';
import { useCommandRuntime } from '../../app/runtime.ts';
import { useAccountSecurity } from './security.ts';

export function TwoFactorBanner() {
  const security = useAccountSecurity();
  const runtime = useCommandRuntime();
  const s = security.data;
  if (!s || s.requiredBy.length === 0 || hasSecondFactor(s)) return null;
  const names = s.requiredBy.map((g) => g.name).join(', ');
  const turnOn = () => {
    const cmd = runtime.registry.get('account.twoFactor.enable');
    if (cmd) void runtime.run(cmd, {}, 'toolbar').catch(() => {});
  };
  return (
    <p role="status" className="banner banner-warning" data-testid="two-factor-required">
      {names} require{s.requiredBy.length === 1 ? 's' : ''} two-factor sign-in: you can see{' '}
      {s.requiredBy.length === 1 ? 'its' : 'their'} servers but not act on them until you turn it on.{' '}
      <button type="button" className="ui-button" onClick={turnOn}>
        Turn on two-factor sign-in
      </button>
    </p>
  );
}
