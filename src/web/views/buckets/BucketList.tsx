// Bucket list (SPEC §2 /buckets): name, owner and the caller's bits; toolbar Create Bucket and
// Refresh, row menu Go To Bucket, Rename, Delete, Copy Bucket ID. Live: buckets created, renamed
// or deleted, and groups (which share buckets) changing, on the user's channel. Sorted by name.

import { useAtom } from 'jotai';
import { useEffect } from 'react';
import { type Bucket, userChannel } from '../../../domain/api.ts';
import { bitsText } from '../../../domain/groups.ts';
import { ALL_PERMISSIONS } from '../../../domain/permissions.ts';
import { pathOf, selectionOf } from '../../../domain/resolver.ts';
import { useApp, userOf } from '../../app/deps.tsx';
import { MENUS } from '../../app/menus.ts';
import { usePaneId, usePaneNavigate } from '../../app/PaneView.tsx';
import { selectionAtom } from '../../app/state.ts';
import { useLiveRefetch } from '../../store/liveRefetch.ts';
import { MAX_ROWS, usePagedList } from '../../store/pagedList.ts';
import { Toolbar } from '../../ui/Toolbar.tsx';
import { type Column, VirtualList } from '../../ui/VirtualList.tsx';
import { BUCKETS_UPDATED, bucketRef, GROUPS_UPDATED } from './bucketRef.ts';

export const yourBucketBits = (b: Bucket) =>
  b.permissions >= ALL_PERMISSIONS ? 'Owner' : bitsText(b.permissions);

const columns: Column<Bucket>[] = [
  { id: 'name', title: 'Name', value: (b) => b.name, width: '2fr' },
  { id: 'owner', title: 'Owner', value: (b) => b.usernameFull },
  { id: 'permissions', title: 'Your permissions', value: yourBucketBits, width: '2fr' },
];

export function BucketList() {
  const { auth, realtime, index } = useApp();
  const paneId = usePaneId();
  const go = usePaneNavigate();
  const [, setSelection] = useAtom(selectionAtom);
  const list = usePagedList({ of: 'buckets', params: { sortedColumn: 'name' }, limit: MAX_ROWS });
  const userId = userOf(auth)?.userId;
  useLiveRefetch(realtime, {
    channels: userId ? [userChannel(userId)] : [],
    events: { [BUCKETS_UPDATED]: true, [GROUPS_UPDATED]: true },
    refetch: list.refetch,
  });
  // The palette and commands find buckets, and read the caller's bits on them, from the store.
  useEffect(() => index.upsert(list.rows.map(bucketRef)), [index, list.rows]);

  return (
    <div className="page page-list">
      <h1 className="page-title">Buckets</h1>
      <VirtualList<Bucket>
        {...list.view}
        name="buckets"
        label="Buckets"
        rowKey={(b) => b.bucketId}
        columns={columns}
        defaultSort={{ column: 'name', direction: 'asc' }}
        emptyText="No buckets yet. Create one to keep values your scripts share."
        onOpen={(b) => go(pathOf('bucket', b.bucketId))}
        menu={() => MENUS.bucketRow}
        entity={bucketRef}
        onSelectionChange={(marked, active) =>
          setSelection((all) => ({
            ...all,
            [paneId]: selectionOf((marked.length ? marked : active ? [active] : []).map(bucketRef)),
          }))
        }
        toolbar={<Toolbar commandIds={MENUS.bucketListToolbar} label="Buckets" />}
      />
    </div>
  );
}
