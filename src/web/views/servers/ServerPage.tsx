// A server: header with its live facts and toolbar, and every tab of SPEC §2 (logs by default).

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { formatClock } from '../../../../commands/servers.ts';
import type { Service } from '../../../domain/api.ts';
import { Msg } from '../../../domain/messages.ts';
import { pathOf, selectionOf } from '../../../domain/resolver.ts';
import { ApiError } from '../../api/http.ts';
import { useApp, userOf } from '../../app/deps.tsx';
import { MENUS } from '../../app/menus.ts';
import { PaneLink } from '../../app/PaneView.tsx';
import { patchService, useLiveServices } from '../../store/services.ts';
import { Toolbar } from '../../ui/Toolbar.tsx';
import { ACTIVITY_TAB, ActivityList } from '../activity/ActivityList.tsx';
import { BansTab } from '../bans/BansTab.tsx';
import { ChatView } from '../chat/ChatView.tsx';
import { LogView } from '../logs/LogView.tsx';
import { SessionsTab } from '../players/SessionsTab.tsx';
import { DinoList, SurvivorList, TribeList } from '../world/WorldList.tsx';
import { historyLabel, population, serverStatus, statusLabel } from './format.ts';
import { PopulationChart } from './PopulationChart.tsx';
import { GroupsTab, ScriptsTab, UsersTab } from './ServerAccessTabs.tsx';
import { ServerCommandBar } from './ServerCommandBar.tsx';
import { ServerSettings } from './ServerSettings.tsx';
import './servers.css';

const TABS = [
  { id: 'logs', title: 'Logs' },
  { id: 'chat', title: 'Chat' },
  { id: 'sessions', title: 'Sessions' },
  { id: 'bans', title: 'Bans' },
  { id: 'settings', title: 'Settings' },
  { id: 'users', title: 'Users' },
  { id: 'groups', title: 'Groups' },
  { id: 'scripts', title: 'Scripts' },
  { id: 'characters', title: 'Survivors' },
  { id: 'tribes', title: 'Tribes' },
  { id: 'dinos', title: 'Dinos' },
  ACTIVITY_TAB,
] as const;
type TabId = (typeof TABS)[number]['id'];

function TabBody({ tab, service }: { tab: TabId; service: Service }) {
  const serviceId = service.serviceId;
  switch (tab) {
    case 'logs':
      return <LogView filter={{ serviceId }} name="serverLogs" />;
    case 'chat':
      return <ChatView serviceId={serviceId} label={service.displayName} />;
    case 'sessions':
      return <SessionsTab serviceId={serviceId} />;
    case 'bans':
      return <BansTab serviceId={serviceId} />;
    case 'settings':
      return <ServerSettings key={serviceId} service={service} />;
    case 'users':
      return <UsersTab serviceId={serviceId} />;
    case 'groups':
      return <GroupsTab serviceId={serviceId} />;
    case 'scripts':
      return <ScriptsTab serviceId={serviceId} overRcon={service.connectionKind === 'rcon'} />;
    case 'characters':
      return <SurvivorList filter={{ serviceId }} name="serverCharacters" />;
    case 'tribes':
      return <TribeList filter={{ serviceId }} name="serverTribes" />;
    case 'dinos':
      return <DinoList filter={{ serviceId }} name="serverDinos" />;
    case 'activity':
      return <ActivityList scope={{ serviceId }} label={service.displayName} />;
  }
}

export function ServerPage() {
  const { serviceId = '', tab = 'logs' } = useParams();
  const { api, index, auth, realtime } = useApp();
  const qc = useQueryClient();
  const query = useQuery({
    queryKey: ['service', serviceId],
    queryFn: async () => {
      const s = await api.services.get(serviceId);
      patchService(qc, index, s);
      return s;
    },
  });
  useLiveServices(realtime, qc, index, userOf(auth)?.userId, query.data ? [serviceId] : []);
  const history = useQuery({
    queryKey: ['serviceHistory', serviceId],
    queryFn: () => api.services.history(serviceId),
    enabled: query.data !== undefined,
  });

  if (query.error) {
    const notFound = query.error instanceof ApiError && query.error.status === 404;
    return (
      <div className="page">
        <h1>Server</h1>
        <p role="alert">{notFound ? Msg.serverNotFound : query.error.message}</p>
      </div>
    );
  }
  const s: Service | undefined = query.data;
  const current = TABS.find((t) => t.id === tab);
  return (
    <div className="page page-server">
      <header className="server-header">
        <h1>
          <span className={`color-dot color-${(s?.color ?? 'None').toLowerCase()}`} aria-hidden="true" />
          {s?.displayName ?? 'Loading…'}
        </h1>
        {s && (
          <dl className="facts">
            <dt>Status</dt>
            <dd className={`status status-${serverStatus(s)}`}>{statusLabel(s)}</dd>
            <dt>Population</dt>
            <dd data-testid="server-population">{population(s)}</dd>
            <dt>Clock</dt>
            <dd>{formatClock(s.gameClock)}</dd>
            {history.data && (
              <>
                <dt>History</dt>
                <dd data-testid="server-history">{historyLabel(history.data)}</dd>
              </>
            )}
          </dl>
        )}
        {s && <PopulationChart serviceId={serviceId} name={s.displayName} />}
        <Toolbar
          commandIds={MENUS.serverToolbar}
          label="Server actions"
          selection={selectionOf([{ kind: 'server', id: serviceId, label: s?.displayName ?? serviceId }])}
        />
        {s && <ServerCommandBar serviceId={serviceId} label={s.displayName} />}
      </header>
      <nav className="tabs" aria-label="Server tabs">
        {TABS.map((t) => (
          <PaneLink
            key={t.id}
            to={pathOf('server', serviceId, t.id)}
            className={tab === t.id ? 'tab tab-active' : 'tab'}
          >
            {t.title}
          </PaneLink>
        ))}
        <PaneLink to={pathOf('server', serviceId, 'setup')} className="tab">
          Setup
        </PaneLink>
      </nav>
      {!current && <p role="alert">There is no tab "{tab}" on a server.</p>}
      {current && s && <TabBody tab={current.id} service={s} />}
    </div>
  );
}
