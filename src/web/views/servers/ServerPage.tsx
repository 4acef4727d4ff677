// A server: header with its live facts, and its tabs (SPEC §2). Logs is the default tab.

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { formatClock } from '../../../../commands/servers.ts';
import type { Service } from '../../../domain/api.ts';
import { Msg } from '../../../domain/messages.ts';
import { ApiError } from '../../api/http.ts';
import { useApp, userOf } from '../../app/deps.tsx';
import { PaneLink } from '../../app/PaneView.tsx';
import { patchService, useLiveServices } from '../../store/services.ts';
import { population, serverStatus, statusLabel } from './format.ts';
import { ServerLogs } from './ServerLogs.tsx';

const TABS = [{ id: 'logs', title: 'Logs' }] as const;

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
          </dl>
        )}
      </header>
      <nav className="tabs" aria-label="Server tabs">
        {TABS.map((t) => (
          <PaneLink
            key={t.id}
            to={`/servers/${serviceId}/${t.id}`}
            className={tab === t.id ? 'tab tab-active' : 'tab'}
          >
            {t.title}
          </PaneLink>
        ))}
        <PaneLink to={`/servers/${serviceId}/setup`} className="tab">
          Setup
        </PaneLink>
      </nav>
      {tab === 'logs' && <ServerLogs serviceId={serviceId} />}
    </div>
  );
}
