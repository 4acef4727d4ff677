// A bucket's Guide tab (SPEC §2): JavaScript for reading, setting and deleting a global and a
// player-specific key of this bucket, from src/domain/buckets.ts (the same examples a test runs in
// the script engine). Shown as text: nothing here is HTML.

import type { Bucket } from '../../../domain/api.ts';
import { bucketGuide } from '../../../domain/buckets.ts';

export function BucketGuide({ bucket }: { bucket: Bucket }) {
  const examples = bucketGuide(bucket.bucketId);
  return (
    <section className="bucket-guide" aria-label="Guide">
      <p>
        Scripts reach this bucket by its id. A global key holds one value for the bucket; a player-specific
        key holds one value per player, here the player of the event that started the script (
        <code>beacon.eventData.playerId</code>, in player events such as a player joining or chatting). Values
        are text. The script's owner needs access to the bucket to read it and edit buckets to change it.
      </p>
      {examples.map((e) => (
        <article key={`${e.scope}-${e.operation}`} className="bucket-example" aria-label={e.title}>
          <h2>{e.title}</h2>
          <p>{e.note}</p>
          <pre>
            <code>{e.code}</code>
          </pre>
        </article>
      ))}
    </section>
  );
}
