// A bucket's Data tab (SPEC §2): its values with Key, Player and Value, sorted by key; toolbar
// Add Value and Refresh, row menu Edit Value and Delete Value, Enter edits in a form filled in. Live on the bucket's
// channel, whoever wrote the value: a user, or a script as it runs.

import { type Bucket, type BucketValue, channelFor } from '../../../domain/api.ts';
import { selectionOf } from '../../../domain/resolver.ts';
import { useApp } from '../../app/deps.tsx';
import { MENUS } from '../../app/menus.ts';
import { useCommandRuntime } from '../../app/runtime.ts';
import { useLiveRefetch } from '../../store/liveRefetch.ts';
import { MAX_ROWS, usePagedList } from '../../store/pagedList.ts';
import { Toolbar } from '../../ui/Toolbar.tsx';
import { type Column, VirtualList } from '../../ui/VirtualList.tsx';
import { bucketRef, VALUE_UPDATED } from './bucketRef.ts';

const columns: Column<BucketValue>[] = [
  { id: 'key', title: 'Key', value: (v) => v.key },
  {
    id: 'player',
    title: 'Player',
    value: (v) => (v.playerId ? (v.playerName ?? v.playerId) : ''),
    render: (v) =>
      v.playerId ? (v.playerName ?? v.playerId) : <span className="bucket-global">Global</span>,
  },
  { id: 'value', title: 'Value', value: (v) => v.value, width: '3fr' },
];

/** What a value's row tells its commands: which value (key, and player unless global), and what it holds. */
const rowValue = (v: BucketValue) => ({ key: v.key, player: v.playerId ?? undefined, value: v.value });

export function BucketData({ bucket }: { bucket: Bucket }) {
  const { realtime } = useApp();
  const runtime = useCommandRuntime();
  const onBucket = selectionOf([bucketRef(bucket)]);
  const list = usePagedList({
    of: 'bucketValues',
    params: { bucketId: bucket.bucketId, sortedColumn: 'key' },
    limit: MAX_ROWS,
  });
  useLiveRefetch(realtime, {
    channels: [channelFor('buckets', bucket.bucketId)],
    events: { [VALUE_UPDATED]: true },
    refetch: list.refetch,
  });
  // Enter edits the value in its form, what it holds already typed in.
  const edit = (v: BucketValue) =>
    runtime
      .context('menu')
      .app.dialogs.form('bucketValue.edit', { bucket: bucketRef(bucket), ...rowValue(v) });
  return (
    <VirtualList<BucketValue>
      {...list.view}
      name="bucketValues"
      label="Values"
      rowKey={(v) => v.bucketValueId}
      columns={columns}
      defaultSort={{ column: 'key', direction: 'asc' }}
      emptyText="No values yet. Add one, or let a script set them (see the Guide tab)."
      onOpen={edit}
      // One value at a time: a value is named by its key and player, not by an entity to mark.
      menu={(rows) => (rows.length === 1 ? MENUS.bucketValueRow : [])}
      menuValues={(rows) => rowValue(rows[0])}
      toolbar={<Toolbar commandIds={MENUS.bucketValuesToolbar} selection={onBucket} label="Values" />}
    />
  );
}
