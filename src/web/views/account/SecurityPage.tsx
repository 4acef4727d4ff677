// The account's Security page: two-factor sign-in (turning it on, backup codes, turning it off)
// and the signed-in devices, each of which its row menu signs out. Live on the user's channel.

import { SIGN_IN_METHODS, type SignIn } from '../../../domain/access.ts';
import { formatTime } from '../../../domain/format.ts';
import { deviceName } from '../../../domain/userAgent.ts';
import { MENUS } from '../../app/menus.ts';
import { usePagedList } from '../../store/pagedList.ts';
import { Toolbar } from '../../ui/Toolbar.tsx';
import { type Column, VirtualList } from '../../ui/VirtualList.tsx';
import { useAccountSecurity, useSecurityUpdates } from './security.ts';
import { TwoFactorPanel } from './TwoFactorPanel.tsx';
import './account.css';

const columns: Column<SignIn>[] = [
  {
    id: 'device',
    title: 'Device',
    value: (s) => `${deviceName(s.userAgent) || 'Unknown device'}${s.current ? ' (this one)' : ''}`,
  },
  { id: 'address', title: 'Address', value: (s) => s.lastAddress || s.address },
  { id: 'created', title: 'Signed in', value: (s) => s.created, render: (s) => formatTime(s.created) },
  { id: 'method', title: 'How', value: (s) => SIGN_IN_METHODS[s.method] ?? s.method, width: '2fr' },
  { id: 'lastUsed', title: 'Last used', value: (s) => s.lastUsed, render: (s) => formatTime(s.lastUsed) },
];

export function SecurityPage() {
  const security = useAccountSecurity();
  const devices = usePagedList({ of: 'signIns', params: {} });
  useSecurityUpdates(devices.refetch);
  return (
    <div className="page page-list security-page">
      <h1 className="page-title">Security</h1>
      {security.data && <TwoFactorPanel security={security.data} />}
      <VirtualList<SignIn>
        {...devices.view}
        name="signed-in-devices"
        label="Signed-in devices"
        rowKey={(s) => s.signInId}
        columns={columns}
        defaultSort={{ column: 'lastUsed', direction: 'desc' }}
        emptyText="No device is signed in."
        menu={() => MENUS.deviceRow}
        menuValues={(rows) => ({ device: rows[0]?.signInId })}
        toolbar={<Toolbar commandIds={MENUS.securityToolbar} label="Security" />}
      />
    </div>
  );
}
