// Buckets (SPEC §2 bucket list, Data and Guide tabs; §3 Bucket): the page's tabs, the words of a
// bucket's refusals, and the Guide tab's JavaScript examples, written for one bucket's id. The
// examples are generated here once: the Guide tab shows them and a test runs each in the engine.

/** The tabs of a bucket's page, data the default. */
export const BUCKET_TABS = ['data', 'guide'] as const;
export type BucketTab = (typeof BUCKET_TABS)[number];

export const BUCKET_MESSAGES = {
  nameRequired: 'A bucket needs a name.',
  duplicateName: (name: string) => `You already have a bucket named ${name}.`,
  notFound: 'The bucket does not exist or you do not have access to it.',
  playerNotFound: 'No player has this id.',
  valueNotFound: (value: string, bucket: string) => `There is no value ${value} in ${bucket}.`,
} as const;

/** "for Ann" or "global": which value of a key a row or a message means. */
export const valueScope = (playerName: string | null | undefined, playerId: string | null | undefined) =>
  playerId ? `for ${playerName || playerId}` : 'global';

export type GuideScope = 'global' | 'player';
export type GuideOperation = 'read' | 'set' | 'delete';

export interface GuideExample {
  scope: GuideScope;
  operation: GuideOperation;
  title: string;
  /** When to use it, in a sentence. */
  note: string;
  /** The key the example uses. */
  key: string;
  code: string;
}

/** The keys of the examples: a message of the day for everyone, a visit count per player. */
export const GUIDE_KEYS = { global: 'motd', player: 'visits' } as const;
export const GUIDE_MOTD = 'Welcome to the island!';

/**
 * Reading, setting and deleting a global and a player-specific key of the bucket `bucketId`, as a
 * script writes them (docs/scripting.md). A player's key is the player of the event that started
 * the script (`beacon.eventData.playerId`: playerJoined, chat, a survivor menu item …).
 */
export function bucketGuide(bucketId: string): GuideExample[] {
  const id = JSON.stringify(bucketId);
  const player = 'beacon.eventData.playerId';
  const { global: g, player: p } = GUIDE_KEYS;
  return [
    {
      scope: 'global',
      operation: 'read',
      title: 'Read a global key',
      note: 'A global value is one for the whole bucket; null when the key is not set.',
      key: g,
      code: [
        `const motd = beacon.getBucketValue(${id}, '${g}');`,
        `beacon.log(motd ?? 'No message of the day yet.');`,
      ].join('\n'),
    },
    {
      scope: 'global',
      operation: 'set',
      title: 'Set a global key',
      note: 'Values are text; setting a key again replaces its value.',
      key: g,
      code: `beacon.setBucketValue(${id}, '${g}', ${JSON.stringify(GUIDE_MOTD)});`,
    },
    {
      scope: 'global',
      operation: 'delete',
      title: 'Delete a global key',
      note: 'Deleting a key that is not set does nothing.',
      key: g,
      code: `beacon.clearBucketValue(${id}, '${g}');`,
    },
    {
      scope: 'player',
      operation: 'read',
      title: 'Read a player-specific key',
      note: "Each player has their own value of a key; this reads the event's player's.",
      key: p,
      code: [
        `const visits = beacon.getBucketValue(${id}, '${p}', ${player});`,
        `beacon.log(visits ?? '0');`,
      ].join('\n'),
    },
    {
      scope: 'player',
      operation: 'set',
      title: 'Set a player-specific key',
      note: 'Counts the visits of the player who joined: read, add one, store.',
      key: p,
      code: [
        `const visits = Number(beacon.getBucketValue(${id}, '${p}', ${player}) ?? 0);`,
        `beacon.setBucketValue(${id}, '${p}', String(visits + 1), ${player});`,
      ].join('\n'),
    },
    {
      scope: 'player',
      operation: 'delete',
      title: 'Delete a player-specific key',
      note: "Deletes the event's player's value only; other players keep theirs.",
      key: p,
      code: `beacon.clearBucketValue(${id}, '${p}', ${player});`,
    },
  ];
}
