// The `beacon` object a JavaScript script sees, besides one function per action (actions.ts):
// values about the run, helpers, and buckets. `restricted` members reach outside the game or make
// secrets; a script that uses one needs a human review before it runs (SENTINEL-API §3.13).

import { ACTIONS, type ActionSpec } from './actions.ts';
import { LIMITS_TEXT } from './limits.ts';

export interface BeaconMember {
  signature: string;
  description: string;
  restricted?: boolean;
}

export const BEACON_MEMBERS = {
  serviceId: { signature: 'beacon.serviceId', description: 'The id of the server the script runs for.' },
  serviceName: { signature: 'beacon.serviceName', description: "The server's name." },
  serviceNickname: {
    signature: 'beacon.serviceNickname',
    description: "The server's nickname (or its name).",
  },
  serviceChatName: {
    signature: 'beacon.serviceChatName',
    description: 'The short name the server uses in chat.',
  },
  params: {
    signature: 'beacon.params',
    description: "The script's parameters with the attachment's values, and the trigger's arguments.",
  },
  gameEvent: {
    signature: 'beacon.gameEvent',
    description: 'The context that started the run, such as chat or cron.',
  },
  eventData: {
    signature: 'beacon.eventData',
    description: "The event's value fields (see Fields), and for a command the words typed after it as args.",
  },
  now: { signature: 'beacon.now', description: 'When the run started, in epoch seconds.' },
  log: {
    signature: 'beacon.log(...values)',
    description: "Adds a line to the run's output (console.log does too).",
  },
  encodeBase64: { signature: 'beacon.encodeBase64(text)', description: 'UTF-8 text as base64.' },
  decodeBase64: { signature: 'beacon.decodeBase64(base64)', description: 'base64 back to UTF-8 text.' },
  generateRandomBytes: {
    signature: 'beacon.generateRandomBytes(length)',
    description: 'length (1–1024) random bytes, hex encoded.',
    restricted: true,
  },
  generateUuidV4: { signature: 'beacon.generateUuidV4()', description: 'A random UUID.', restricted: true },
  generateUuidV5: {
    signature: 'beacon.generateUuidV5(name, namespace)',
    description: 'The name-based UUID of name in namespace (a UUID).',
    restricted: true,
  },
  generateUuidV7: {
    signature: 'beacon.generateUuidV7()',
    description: 'A time-ordered UUID.',
    restricted: true,
  },
  hash: {
    signature: 'beacon.hash(algorithm, text)',
    description: 'The hex digest of text; algorithm md5, sha1, sha256 or sha512.',
    restricted: true,
  },
  hmac: {
    signature: 'beacon.hmac(algorithm, key, text)',
    description: 'The hex HMAC of text with key; algorithm sha1, sha256 or sha512.',
    restricted: true,
  },
  httpRequest: {
    signature: 'beacon.httpRequest(method, url, body?, headers?)',
    description: `Calls a public http(s) address and answers {status, headers, body}; at most ${LIMITS_TEXT.http}, never to private addresses.`,
    restricted: true,
  },
  getBucketValue: {
    signature: 'beacon.getBucketValue(bucketId, key, playerId?)',
    description: "A bucket's value (global, or the player's own), or null.",
  },
} as const satisfies Record<string, BeaconMember>;

const RESTRICTED_MEMBERS = Object.entries(BEACON_MEMBERS as Record<string, BeaconMember>)
  .filter(([, m]) => m.restricted)
  .map(([name]) => name);

/** `beacon.x(…)` for any restricted x, allowing spaces and bracket access by a literal name. */
export const RESTRICTED_USE = new RegExp(
  `beacon\\s*(\\.\\s*(${RESTRICTED_MEMBERS.join('|')})\\b|\\[\\s*['"\`](${RESTRICTED_MEMBERS.join('|')})['"\`]\\s*\\])`,
);

/** The JavaScript call of an action: beacon.fn(option1, option2, …). */
export const actionSignature = (a: ActionSpec) =>
  `beacon.${a.fn}(${a.options.map((o) => (o.required ? o.name : `${o.name}?`)).join(', ')})`;

/** Every beacon function an action gives. */
export const ACTION_FUNCTIONS = Object.fromEntries(
  Object.entries(ACTIONS).map(([type, a]) => [a.fn, type]),
) as Record<string, keyof typeof ACTIONS>;
