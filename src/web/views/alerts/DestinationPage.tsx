// An alert destination: its kind, address and state, its actions (test, edit, delete), and what
// was sent there (DeliveryList), the page's main list.

import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useParams } from 'react-router';
import { DESTINATION_LABELS } from '../../../domain/alerts.ts';
import { selectionOf } from '../../../domain/resolver.ts';
import { ApiError } from '../../api/http.ts';
import { useApp } from '../../app/deps.tsx';
import { MENUS } from '../../app/menus.ts';
import { Toolbar } from '../../ui/Toolbar.tsx';
import { destinationRef } from './alertRefs.ts';
import { DeliveryList } from './DeliveryList.tsx';
import { destinationState } from './DestinationList.tsx';
import './alerts.css';

export function DestinationPage() {
  const { destinationId = '' } = useParams();
  const { api, index } = useApp();
  const query = useQuery({
    queryKey: ['alertDestination', destinationId],
    queryFn: () => api.alertDestinations.get(destinationId),
  });
  useEffect(() => {
    if (query.data) index.upsert([destinationRef(query.data)]);
  }, [index, query.data]);

  if (query.error) {
    const gone = query.error instanceof ApiError && query.error.status === 404;
    return (
      <div className="page">
        <h1>Alert destination</h1>
        <p role="alert">{gone ? 'There is no such destination of yours.' : query.error.message}</p>
      </div>
    );
  }
  const d = query.data;
  return (
    <div className="page page-list page-alert">
      <header className="server-header">
        <h1>{d?.name ?? 'Loading…'}</h1>
        {d && (
          <dl className="facts">
            <dt>Kind</dt>
            <dd>{DESTINATION_LABELS[d.kind]}</dd>
            {d.address && (
              <>
                <dt>Address</dt>
                <dd>{d.address}</dd>
              </>
            )}
            <dt>State</dt>
            <dd>{destinationState(d)}</dd>
          </dl>
        )}
        {d && (
          <Toolbar
            commandIds={MENUS.destinationToolbar}
            label="Destination actions"
            selection={selectionOf([destinationRef(d)])}
          />
        )}
      </header>
      <h2>What was sent there</h2>
      <DeliveryList of={{ destinationId }} />
    </div>
  );
}
