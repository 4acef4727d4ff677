// A bucket (SPEC §2 /buckets/{bucketId}): its name, owner, the caller's bits and id, its toolbar
// (Rename, Delete, Copy Bucket ID), and the Data (default) and Guide tabs. Live: renamed or
// deleted elsewhere, on the user's channel.

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useParams } from 'react-router';
import { type Bucket, userChannel } from '../../../domain/api.ts';
import { BUCKET_MESSAGES, BUCKET_TABS, type BucketTab } from '../../../domain/buckets.ts';
import { pathOf, selectionOf } from '../../../domain/resolver.ts';
import { ApiError } from '../../api/http.ts';
import { useApp, userOf } from '../../app/deps.tsx';
import { MENUS } from '../../app/menus.ts';
import { PaneLink } from '../../app/PaneView.tsx';
import { useLiveRefetch } from '../../store/liveRefetch.ts';
import { Toolbar } from '../../ui/Toolbar.tsx';
import { BucketData } from './BucketData.tsx';
import { BucketGuide } from './BucketGuide.tsx';
import { yourBucketBits } from './BucketList.tsx';
import { BUCKETS_UPDATED, bucketRef } from './bucketRef.ts';
import './buckets.css';

const TITLES: Record<BucketTab, string> = { data: 'Data', guide: 'Guide' };

function TabBody({ tab, bucket }: { tab: BucketTab; bucket: Bucket }) {
  switch (tab) {
    case 'data':
      return <BucketData bucket={bucket} />;
    case 'guide':
      return <BucketGuide bucket={bucket} />;
  }
}

export function BucketPage() {
  const { bucketId = '', tab = 'data' } = useParams();
  const { api, auth, index, realtime } = useApp();
  const qc = useQueryClient();
  const queryKey = ['bucket', bucketId];
  const query = useQuery({ queryKey, queryFn: () => api.buckets.get(bucketId) });
  const userId = userOf(auth)?.userId;
  useLiveRefetch(realtime, {
    channels: userId ? [userChannel(userId)] : [],
    events: { [BUCKETS_UPDATED]: (id) => id === bucketId },
    refetch: () => void qc.invalidateQueries({ queryKey }),
  });
  // Commands read the bucket's name and the caller's bits on it from the store.
  useEffect(() => {
    if (query.data) index.upsert([bucketRef(query.data)]);
  }, [index, query.data]);

  if (query.error) {
    const notFound = query.error instanceof ApiError && query.error.status === 404;
    return (
      <div className="page">
        <h1>Bucket</h1>
        <p role="alert">{notFound ? BUCKET_MESSAGES.notFound : query.error.message}</p>
      </div>
    );
  }
  const b = query.data;
  const current = BUCKET_TABS.find((t) => t === tab);
  return (
    <div className={`page page-bucket${current === 'data' ? ' page-list' : ''}`}>
      <header className="server-header">
        <h1>{b?.name ?? 'Loading…'}</h1>
        {b && (
          <dl className="facts">
            <dt>Owner</dt>
            <dd>{b.usernameFull}</dd>
            <dt>Your permissions</dt>
            <dd>{yourBucketBits(b)}</dd>
            <dt>Bucket id</dt>
            <dd>
              <code>{b.bucketId}</code>
            </dd>
          </dl>
        )}
        {b && (
          <Toolbar
            commandIds={MENUS.bucketToolbar}
            label="Bucket actions"
            selection={selectionOf([bucketRef(b)])}
          />
        )}
      </header>
      <nav className="tabs" aria-label="Bucket tabs">
        {BUCKET_TABS.map((t) => (
          <PaneLink
            key={t}
            to={pathOf('bucket', bucketId, t)}
            className={current === t ? 'tab tab-active' : 'tab'}
          >
            {TITLES[t]}
          </PaneLink>
        ))}
      </nav>
      {!current && <p role="alert">There is no tab "{tab}" on a bucket.</p>}
      {current && b && <TabBody tab={current} bucket={b} />}
    </div>
  );
}
