// The Guide tab: the six examples of src/domain/buckets.ts for the bucket on screen, as text.

import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import type { Bucket } from '../../src/domain/api.ts';
import { BucketGuide } from '../../src/web/views/buckets/BucketGuide.tsx';

afterEach(cleanup);

it('shows reading, setting and deleting a global and a player key, each written for this bucket', () => {
  const bucket: Bucket = {
    bucketId: '0b5e3f7a-2c41-4d8e-9f60-1a2b3c4d5e6f',
    userId: '6f1c3a52-0d3e-4c1b-9a77-2b8f0c4d5e61',
    username: 'Demo',
    usernameFull: 'Demo#6f1c3a52',
    name: 'Economy',
    permissions: 1,
  };
  render(<BucketGuide bucket={bucket} />);
  const titles = screen.getAllByRole('article').map((a) => a.getAttribute('aria-label'));
  expect(titles).toEqual([
    'Read a global key',
    'Set a global key',
    'Delete a global key',
    'Read a player-specific key',
    'Set a player-specific key',
    'Delete a player-specific key',
  ]);
  const code = within(screen.getByRole('article', { name: 'Delete a player-specific key' })).getByText(
    /clearBucketValue/,
  );
  expect(code.tagName).toBe('CODE');
  expect(code.textContent).toBe(
    `beacon.clearBucketValue("${bucket.bucketId}", 'visits', beacon.eventData.playerId);`,
  );
});
