// The lists of a group's tabs: a class path filtered by the group, live on the group's channel
// (groupUpdated: a member, server, bucket or script came or went, or the group changed).

import { channelFor } from '../../../domain/api.ts';
import { useApp } from '../../app/deps.tsx';
import { useLiveRefetch } from '../../store/liveRefetch.ts';
import { type ListName, MAX_ROWS, type PagedList, type RowOf, usePagedList } from '../../store/pagedList.ts';

export const GROUP_UPDATED = 'groupUpdated';
/** On the user's own channel: a group of theirs came, went or changed their access (its id). */
export const GROUPS_UPDATED = 'groupsUpdated';

export function useGroupList<K extends ListName>(of: K, groupId: string): PagedList<RowOf<K>> {
  const { realtime } = useApp();
  const list = usePagedList({ of, params: { groupId }, limit: MAX_ROWS });
  useLiveRefetch(realtime, {
    channels: [channelFor('groups', groupId)],
    events: { [GROUP_UPDATED]: true },
    refetch: list.refetch,
  });
  return list;
}
