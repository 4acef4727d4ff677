// The account's alert rules (the alerts issue): name, what it is on, when it raises, and its state
// (quiet, open incidents, muted, snoozed). `?serviceId=` or `?groupId=` shows one server's or
// group's (alert.list with a target). Live: a notification means a rule's state changed.

import { useAtom } from 'jotai';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { AlertEvent, type AlertRule, describeCondition, ruleState } from '../../../domain/alerts.ts';
import { userChannel } from '../../../domain/api.ts';
import { pathOf, selectionOf } from '../../../domain/resolver.ts';
import { useApp, userOf } from '../../app/deps.tsx';
import { MENUS } from '../../app/menus.ts';
import { usePaneId, usePaneNavigate } from '../../app/PaneView.tsx';
import { selectionAtom } from '../../app/state.ts';
import { useLiveRefetch } from '../../store/liveRefetch.ts';
import { MAX_ROWS, usePagedList } from '../../store/pagedList.ts';
import { Toolbar } from '../../ui/Toolbar.tsx';
import { type Column, VirtualList } from '../../ui/VirtualList.tsx';
import { alertRef } from './alertRefs.ts';
import './alerts.css';

const columns: Column<AlertRule>[] = [
  { id: 'name', title: 'Name', value: (r) => r.name },
  { id: 'scopeName', title: 'On', value: (r) => r.scopeName },
  { id: 'condition', title: 'When', value: (r) => describeCondition(r.condition), width: '3fr' },
  { id: 'state', title: 'State', value: ruleState },
];

const SCOPES = ['serviceId', 'groupId'] as const;

export function AlertList() {
  const { auth, realtime, index } = useApp();
  const paneId = usePaneId();
  const go = usePaneNavigate();
  const { search } = useLocation();
  const [, setSelection] = useAtom(selectionAtom);
  const query = new URLSearchParams(search);
  const scope = Object.fromEntries(SCOPES.flatMap((k) => (query.get(k) ? [[k, query.get(k)!]] : [])));
  const list = usePagedList({
    of: 'alertRules',
    params: { ...scope, sortedColumn: 'name' },
    limit: MAX_ROWS,
  });
  const userId = userOf(auth)?.userId;
  useLiveRefetch(realtime, {
    channels: userId ? [userChannel(userId)] : [],
    events: { [AlertEvent.notificationCreated]: true },
    refetch: list.refetch,
  });
  useEffect(() => index.upsert(list.rows.map(alertRef)), [index, list.rows]);
  const on = list.rows[0]?.scopeName;

  return (
    <div className="page page-list">
      <h1 className="page-title">
        {Object.keys(scope).length && on ? `Alert rules on ${on}` : 'Alert rules'}
      </h1>
      <VirtualList<AlertRule>
        {...list.view}
        name="alert-rules"
        label="Alert rules"
        rowKey={(r) => r.ruleId}
        columns={columns}
        defaultSort={{ column: 'name', direction: 'asc' }}
        emptyText="No alert rules yet. Create one to hear when a server goes down, a watched player joins or chat turns ugly."
        onOpen={(r) => go(pathOf('alert', r.ruleId))}
        menu={() => MENUS.alertRow}
        entity={alertRef}
        onSelectionChange={(marked, active) =>
          setSelection((all) => ({
            ...all,
            [paneId]: selectionOf((marked.length ? marked : active ? [active] : []).map(alertRef)),
          }))
        }
        toolbar={<Toolbar commandIds={MENUS.alertListToolbar} label="Alert rules" />}
      />
    </div>
  );
}
