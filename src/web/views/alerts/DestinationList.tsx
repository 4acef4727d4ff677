// Where the account's alerts go besides this console (the alerts issue): Discord and Slack
// webhooks (their secret part never shown), email addresses, and this browser's notifications.
// Rows test, edit or delete it; Enter opens what was sent there.

import { useAtom } from 'jotai';
import { useEffect } from 'react';
import { type AlertDestination, DESTINATION_LABELS } from '../../../domain/alerts.ts';
import { pathOf, selectionOf } from '../../../domain/resolver.ts';
import { useApp } from '../../app/deps.tsx';
import { MENUS } from '../../app/menus.ts';
import { usePaneId, usePaneNavigate } from '../../app/PaneView.tsx';
import { selectionAtom } from '../../app/state.ts';
import { usePagedList } from '../../store/pagedList.ts';
import { Toolbar } from '../../ui/Toolbar.tsx';
import { type Column, VirtualList } from '../../ui/VirtualList.tsx';
import { destinationRef } from './alertRefs.ts';

export const destinationState = (d: AlertDestination) =>
  d.unsubscribed ? 'Unsubscribed by its recipient' : 'Active';

const columns: Column<AlertDestination>[] = [
  { id: 'name', title: 'Name', value: (d) => d.name },
  { id: 'kind', title: 'Kind', value: (d) => DESTINATION_LABELS[d.kind] },
  {
    id: 'address',
    title: 'Address',
    value: (d) => d.address || 'Browsers you are signed in on',
    width: '2fr',
  },
  { id: 'state', title: 'State', value: destinationState },
];

export function DestinationList() {
  const { index } = useApp();
  const paneId = usePaneId();
  const go = usePaneNavigate();
  const [, setSelection] = useAtom(selectionAtom);
  const list = usePagedList({ of: 'alertDestinations', params: { sortedColumn: 'name' } });
  useEffect(() => index.upsert(list.rows.map(destinationRef)), [index, list.rows]);
  return (
    <div className="page page-list">
      <h1 className="page-title">Alert destinations</h1>
      <VirtualList<AlertDestination>
        {...list.view}
        name="alert-destinations"
        label="Alert destinations"
        rowKey={(d) => d.destinationId}
        columns={columns}
        defaultSort={{ column: 'name', direction: 'asc' }}
        emptyText="No destinations yet: alerts show in this console only. Add a Discord or Slack webhook, an email address or this browser."
        onOpen={(d) => go(pathOf('destination', d.destinationId))}
        menu={() => MENUS.destinationRow}
        entity={destinationRef}
        onSelectionChange={(marked, active) =>
          setSelection((all) => ({
            ...all,
            [paneId]: selectionOf((marked.length ? marked : active ? [active] : []).map(destinationRef)),
          }))
        }
        toolbar={<Toolbar commandIds={MENUS.destinationListToolbar} label="Alert destinations" />}
      />
    </div>
  );
}
