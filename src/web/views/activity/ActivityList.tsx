// The activity trail of a server or a group (docs/api.md "Activity trail"): who wrote what, when,
// on what and how it went, newest first, live (each entry is announced on the scope's channel),
// filtered by user, kind and how far back, and exported whole as CSV. The server page mounts it as
// its Activity tab; the group page mounts it the same way with a groupId.

import { useId, useMemo, useState } from 'react';
import { ACTIVITY_EVENT, type ActivityEntry, activityParams, parseSince } from '../../../domain/activity.ts';
import { channelFor } from '../../../domain/api.ts';
import { useApp } from '../../app/deps.tsx';
import { MENUS } from '../../app/menus.ts';
import { useLiveRefetch } from '../../store/liveRefetch.ts';
import { fetchPages, MAX_ROWS, usePagedList } from '../../store/pagedList.ts';
import { Toolbar } from '../../ui/Toolbar.tsx';
import { VirtualList } from '../../ui/VirtualList.tsx';
import { ACTIVITY_COLUMNS } from './activityColumns.ts';
import './activity.css';

export type ActivityScope = { serviceId: string } | { groupId: string };

export interface ActivityListProps {
  scope: ActivityScope;
  /** The server's or group's name: the list's label and the CSV file's name. */
  label: string;
}

/** The tab a server page or group page declares for it. */
export const ACTIVITY_TAB = { id: 'activity', title: 'Activity' } as const;

export function ActivityList({ scope, label }: ActivityListProps) {
  const { api, realtime } = useApp();
  const [user, setUser] = useState('');
  const [kind, setKind] = useState('');
  const [since, setSince] = useState('');
  // A since that cannot be read stays as typed, says why, and the list keeps the last good one.
  const [sinceSeconds, setSinceSeconds] = useState<number | null>(null);
  const [sinceProblem, setSinceProblem] = useState<string | null>(null);
  const sinceError = useId();

  const scopeKey = 'serviceId' in scope ? `s:${scope.serviceId}` : `g:${scope.groupId}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: scopeKey stands for scope; "since" counts back from when it was set.
  const params = useMemo(
    () => ({ ...scope, ...activityParams({ user, kind, sinceSeconds }, Date.now()) }),
    [scopeKey, user, kind, sinceSeconds],
  );
  const list = usePagedList({ of: 'activity', params });
  const channel =
    'serviceId' in scope ? channelFor('services', scope.serviceId) : channelFor('groups', scope.groupId);
  useLiveRefetch(realtime, {
    channels: [channel],
    events: { [ACTIVITY_EVENT]: true },
    refetch: list.refetch,
  });

  const exportCsv = async () => {
    const all = await fetchPages<ActivityEntry>(api.activity.list, params, MAX_ROWS);
    // papaparse loads on the first export, not with the console.
    const [{ activityCsv }, { downloadCsv }] = await Promise.all([
      import('./activityCsv.ts'),
      import('../../ui/csv.ts'),
    ]);
    downloadCsv(`activity-${label}`, activityCsv(all));
  };

  const onSince = (text: string) => {
    setSince(text);
    try {
      setSinceSeconds(parseSince(text));
      setSinceProblem(null);
    } catch (e) {
      setSinceProblem((e as Error).message);
    }
  };

  return (
    <div className="activity">
      {/* biome-ignore lint/a11y/useSemanticElements: a group of filters, not a form that submits. */}
      <div className="activity-filters" role="group" aria-label="Activity filters">
        <label className="activity-filter">
          User
          <input className="ui-input" value={user} onChange={(e) => setUser(e.target.value)} />
        </label>
        <label className="activity-filter">
          Kind
          <input
            className="ui-input"
            value={kind}
            placeholder="chat, services, …"
            onChange={(e) => setKind(e.target.value)}
          />
        </label>
        <label className="activity-filter">
          Since
          <input
            className="ui-input activity-since"
            value={since}
            placeholder="7d"
            aria-invalid={sinceProblem ? true : undefined}
            aria-describedby={sinceProblem ? sinceError : undefined}
            onChange={(e) => onSince(e.target.value)}
          />
        </label>
        {sinceProblem && (
          <span id={sinceError} role="alert" className="activity-filter-error">
            {sinceProblem}
          </span>
        )}
      </div>
      <VirtualList<ActivityEntry>
        name="activity"
        label={`Activity of ${label}`}
        {...list.view}
        rowKey={(e) => e.activityId}
        columns={ACTIVITY_COLUMNS}
        defaultSort={{ column: 'time', direction: 'desc' }}
        emptyText="No activity yet."
        onExportCsv={() => void exportCsv()}
        toolbar={<Toolbar commandIds={MENUS.activityToolbar} label="Activity" />}
      />
    </div>
  );
}
