// Server list (SPEC §2): name, status, last change, clock, population; live; sorted by display name.

import { useQueryClient } from '@tanstack/react-query';
import { useAtom } from 'jotai';
import { formatClock } from '../../../../commands/servers.ts';
import type { Service } from '../../../domain/api.ts';
import { pathOf, selectionOf } from '../../../domain/resolver.ts';
import { useApp, userOf } from '../../app/deps.tsx';
import { MENUS } from '../../app/menus.ts';
import { usePaneId, usePaneNavigate } from '../../app/PaneView.tsx';
import { selectionAtom } from '../../app/state.ts';
import { serviceRef } from '../../store/lookup.ts';
import { servicesKey, useLiveServices, useServices } from '../../store/services.ts';
import { Toolbar } from '../../ui/Toolbar.tsx';
import type { Column } from '../../ui/VirtualList.tsx';
import { VirtualList } from '../../ui/VirtualList.tsx';
import { TwoFactorBanner } from '../account/TwoFactorBanner.tsx';
import { population, relativeTime, serverStatus, statusLabel } from './format.ts';
import { PopulationSparkline } from './PopulationChart.tsx';
import { SubscriptionBanner } from './SubscriptionBanner.tsx';

const columns: Column<Service>[] = [
  {
    id: 'name',
    title: 'Name',
    value: (s) => s.displayName,
    render: (s) => (
      <span className="server-name">
        <span className={`color-dot color-${s.color.toLowerCase()}`} aria-hidden="true" />
        {s.displayName}
      </span>
    ),
  },
  {
    id: 'status',
    title: 'Status',
    value: statusLabel,
    render: (s) => <span className={`status status-${serverStatus(s)}`}>{statusLabel(s)}</span>,
  },
  {
    id: 'lastChange',
    title: 'Last change',
    value: (s) => s.connectionChangeTime,
    render: (s) => relativeTime(s.connectionChangeTime),
  },
  { id: 'clock', title: 'Clock', value: (s) => s.gameClock, render: (s) => formatClock(s.gameClock) },
  { id: 'population', title: 'Population', value: (s) => s.currentPlayers, render: population, align: 'end' },
  {
    id: 'lastDay',
    title: 'Last 24 hours',
    value: (s) => s.currentPlayers,
    render: (s) => <PopulationSparkline serviceId={s.serviceId} />,
    width: '7rem',
  },
];

export function ServerList() {
  const { api, index, auth, realtime } = useApp();
  const qc = useQueryClient();
  const paneId = usePaneId();
  const go = usePaneNavigate();
  const [, setSelection] = useAtom(selectionAtom);
  const query = useServices(api, index);
  const rows = query.data ?? [];
  useLiveServices(
    realtime,
    qc,
    index,
    userOf(auth)?.userId,
    rows.map((s) => s.serviceId),
  );

  return (
    <div className="page page-list">
      <h1 className="page-title">Servers</h1>
      <SubscriptionBanner services={rows} />
      <TwoFactorBanner />
      <VirtualList<Service>
        name="servers"
        rows={rows}
        rowKey={(s) => s.serviceId}
        columns={columns}
        defaultSort={{ column: 'name', direction: 'asc' }}
        loading={query.isLoading}
        error={
          query.error ? ((query.error as Error & { summary?: string }).summary ?? query.error.message) : null
        }
        emptyText="No servers yet."
        onOpen={(s) => go(pathOf('server', s.serviceId))}
        onRefresh={() => void qc.invalidateQueries({ queryKey: servicesKey })}
        menu={() => MENUS.serverRow}
        toolbar={<Toolbar commandIds={MENUS.serverListToolbar} label="Servers" />}
        entity={serviceRef}
        onSelectionChange={(marked, active) =>
          setSelection((all) => ({
            ...all,
            [paneId]: selectionOf((marked.length ? marked : active ? [active] : []).map(serviceRef)),
          }))
        }
      />
    </div>
  );
}
