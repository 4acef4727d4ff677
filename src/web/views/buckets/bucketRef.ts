// A bucket as the entity store holds it: its name and the caller's bits, which commands'
// permission checks read (SENTINEL-API §7).

import type { EntityRef } from '../../../../commands/args.ts';
import type { Bucket } from '../../../domain/api.ts';

export const bucketRef = (b: Bucket): EntityRef => ({
  kind: 'bucket',
  id: b.bucketId,
  label: b.name,
  detail: b.usernameFull,
  mask: b.permissions,
});

/** On the user's channel: a bucket they can see was created, renamed or deleted (docs/api.md). */
export const BUCKETS_UPDATED = 'bucketsUpdated';
/** On the user's channel: a group they are in changed, so buckets shared with them may have come or gone. */
export const GROUPS_UPDATED = 'groupsUpdated';
/** On the bucket's channel: a value was written or deleted, by a user or a script. */
export const VALUE_UPDATED = 'valueUpdated';
