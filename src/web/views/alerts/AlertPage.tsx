// An alert rule: what it is on, when it raises, where it sends and its state, its actions (edit,
// mute, snooze, test, delete), and what it sent (DeliveryList), the page's main list.

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useParams } from 'react-router';
import { AlertEvent, describeCondition, ruleState } from '../../../domain/alerts.ts';
import { userChannel } from '../../../domain/api.ts';
import { selectionOf } from '../../../domain/resolver.ts';
import { ApiError } from '../../api/http.ts';
import { useApp, userOf } from '../../app/deps.tsx';
import { MENUS } from '../../app/menus.ts';
import { useLiveRefetch } from '../../store/liveRefetch.ts';
import { Toolbar } from '../../ui/Toolbar.tsx';
import { alertRef } from './alertRefs.ts';
import { DeliveryList } from './DeliveryList.tsx';
import './alerts.css';

export function AlertPage() {
  const { ruleId = '' } = useParams();
  const { api, auth, index, realtime } = useApp();
  const qc = useQueryClient();
  const queryKey = ['alertRule', ruleId];
  const rule = useQuery({ queryKey, queryFn: () => api.alertRules.get(ruleId) });
  const destinations = useQuery({
    queryKey: ['alertDestinations'],
    queryFn: () => api.alertDestinations.list({ pageSize: 100 }),
  });
  const userId = userOf(auth)?.userId;
  useLiveRefetch(realtime, {
    channels: userId ? [userChannel(userId)] : [],
    events: { [AlertEvent.notificationCreated]: true },
    refetch: () => void qc.invalidateQueries({ queryKey }),
  });
  useEffect(() => {
    if (rule.data) index.upsert([alertRef(rule.data)]);
  }, [index, rule.data]);

  if (rule.error) {
    const gone = rule.error instanceof ApiError && rule.error.status === 404;
    return (
      <div className="page">
        <h1>Alert rule</h1>
        <p role="alert">{gone ? 'There is no such alert rule of yours.' : rule.error.message}</p>
      </div>
    );
  }
  const r = rule.data;
  const names = new Map(destinations.data?.results.map((d) => [d.destinationId, d.name]));
  const sendsTo = [
    'This console',
    ...(r?.destinationIds.map((id) => names.get(id) ?? 'A destination') ?? []),
  ];
  return (
    <div className="page page-list page-alert">
      <header className="server-header">
        <h1>{r?.name ?? 'Loading…'}</h1>
        {r && (
          <dl className="facts">
            <dt>On</dt>
            <dd>{r.scopeName}</dd>
            <dt>When</dt>
            <dd>{describeCondition(r.condition)}</dd>
            <dt>Sends to</dt>
            <dd>{sendsTo.join(', ')}</dd>
            <dt>State</dt>
            <dd>{ruleState(r)}</dd>
          </dl>
        )}
        {r && (
          <Toolbar
            commandIds={MENUS.alertToolbar}
            label="Alert rule actions"
            selection={selectionOf([alertRef(r)])}
          />
        )}
      </header>
      <h2>What it sent</h2>
      <DeliveryList of={{ ruleId }} />
    </div>
  );
}
