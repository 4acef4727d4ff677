// Groups (SPEC §3 Group, §4 chat-community link, §6 bits): the bits a member can be given by name,
// the link code of the chat community, the link's state, and how a relayed chat line names
// where it came from. Shared by the commands, the views, the server and the simulator.

import { RANDOM_CODE_ALPHABET, RANDOM_CODE_LENGTH } from './constants.ts';
import { definedBits, hasAll, PERMISSION_LABELS, Perm, type PermName } from './permissions.ts';

/** The 13 bits of SPEC §6 a member can be given; Membership is implied by being a member. */
export const GRANTABLE_BITS = (Object.keys(Perm) as PermName[]).filter((k) => k !== 'Membership');

/** `control-servers`, as typed in the console: the label with dashes. */
export const permSlug = (k: PermName) => PERMISSION_LABELS[k].replace(/ /g, '-');
export const PERM_SLUGS = GRANTABLE_BITS.map(permSlug);

/** Slugs → a member's mask (always with Membership). */
export function maskOfSlugs(slugs: readonly string[]): number {
  let mask = Perm.Membership;
  for (const k of GRANTABLE_BITS) if (slugs.includes(permSlug(k))) mask |= Perm[k];
  return mask;
}

/** A mask → the slugs that give it back through maskOfSlugs (`none` for membership only). */
export function slugsOfMask(mask: number): string[] {
  const slugs = GRANTABLE_BITS.filter((k) => hasAll(mask, Perm[k])).map(permSlug);
  return slugs.length ? slugs : ['none'];
}

/** A mask's grantable bits by label, or "membership only". */
export function bitsText(mask: number): string {
  const names = GRANTABLE_BITS.filter((k) => hasAll(mask, Perm[k])).map((k) => PERMISSION_LABELS[k]);
  return names.length ? names.join(', ') : 'membership only';
}

/** Bits in `wanted` the granter does not hold: nobody grants what they lack (SPEC §6). */
export function bitsBeyond(granter: number, wanted: number): PermName[] {
  return GRANTABLE_BITS.filter((k) => hasAll(wanted, Perm[k]) && !hasAll(granter, Perm[k]));
}

/** What a member can do on one server of the group: their bits AND the server's mask there (§6). */
export const effectiveBits = (userBits: number, serverMask: number): number =>
  definedBits(userBits) & definedBits(serverMask);

/** SPEC §9: 6 characters of the random code alphabet. */
export const LINK_CODE = new RegExp(`^[${RANDOM_CODE_ALPHABET}]{${RANDOM_CODE_LENGTH}}$`);

export function randomLinkCode(random: (n: number) => number = cryptoRandom): string {
  let out = '';
  for (let i = 0; i < RANDOM_CODE_LENGTH; i++)
    out += RANDOM_CODE_ALPHABET[random(RANDOM_CODE_ALPHABET.length)];
  return out;
}

function cryptoRandom(n: number): number {
  const a = new Uint32Array(1);
  globalThis.crypto.getRandomValues(a);
  return a[0] % n;
}

/** SPEC §4: not linked → link code requested → linked; unlinking returns to not linked. */
export type CommunityLinkState = 'notLinked' | 'codeRequested' | 'linked';

export function communityLinkState(g: {
  discordLinkCode: string | null;
  discordGuildId: string | null;
}): CommunityLinkState {
  if (g.discordGuildId) return 'linked';
  return g.discordLinkCode ? 'codeRequested' : 'notLinked';
}

export const COMMUNITY_LINK_LABELS: Record<CommunityLinkState, string> = {
  notLinked: 'Not linked',
  codeRequested: 'Link code requested',
  linked: 'Linked',
};

/** Chat forwarding to the community needs group chat forwarding on and the link made (SPEC §5). */
export const forwardsToCommunity = (g: { enableGroupChat: boolean; discordGuildId: string | null }) =>
  g.enableGroupChat && g.discordGuildId !== null;

/**
 * Metadata a relayed chat line carries on the servers it is relayed to: the server (and, from the
 * community, the guild) it was said on. A line with an origin is never relayed again.
 */
export interface ChatOrigin {
  originServiceId?: string;
  originName: string;
}

export const GROUP_MESSAGES = {
  anonymousUser: 'Anonymous users cannot be added to a group.',
  userNotFound: 'No user has that email, user id or username#discriminator.',
  lookupEmpty: 'Type an email, a user id or a username#discriminator.',
  chooseOne: 'Choose at least one server or bucket.',
  duplicate: 'It is already in the group.',
  linkCode: 'A link code is 6 characters of 349ACDEFHJKMNPQRTUVWXY.',
} as const;

/** The tabs of a group's page (SPEC §2), services the default; `servers` is an alias of it. */
export const GROUP_TABS = [
  'services',
  'chat',
  'sessions',
  'users',
  'roles',
  'bans',
  'watchlist',
  'scripts',
  'buckets',
  'settings',
  'activity',
] as const;
export type GroupTab = (typeof GROUP_TABS)[number];

/** How far apart in time the copies of one group-wide line can be stored (seconds). */
export const GROUP_LINE_WINDOW = 30;

/** What tells the copies of one group-wide web line apart from lines that only read the same. */
export interface ChatCopy {
  serviceId: string;
  /** Epoch seconds. */
  time: number;
  /** Sent to the whole group from the web (source WebGroup). */
  groupWide: boolean;
  sender: string;
  text: string;
}

/**
 * A line sent to a group reaches each of its servers, and each stores its own chat line
 * (routes/chat.ts); the copies share no id. They are known as one by being group-wide, with the
 * same sender and text, each on another server, within GROUP_LINE_WINDOW of the first. The same
 * line sent twice is two lines: a server's second copy starts a second one.
 *
 * Returns each line once, in the order given, as its copies (the earliest first); any other line
 * is one copy of itself.
 */
export function onceAcrossServers<T>(lines: readonly T[], copyOf: (line: T) => ChatCopy): T[][] {
  const copies = lines.map(copyOf);
  const byTime = lines.map((_, i) => i).sort((a, b) => copies[a].time - copies[b].time || a - b);
  const open = new Map<string, { first: number; servers: Set<string>; members: number[] }[]>();
  const firstOf = new Map<number, number[]>();
  for (const i of byTime) {
    const c = copies[i];
    if (!c.groupWide) {
      firstOf.set(i, [i]);
      continue;
    }
    const key = `${c.sender}\u0000${c.text}`;
    const clusters = open.get(key) ?? [];
    open.set(key, clusters);
    const joined = clusters.find(
      (k) => c.time - copies[k.first].time <= GROUP_LINE_WINDOW && !k.servers.has(c.serviceId),
    );
    if (joined) {
      joined.servers.add(c.serviceId);
      joined.members.push(i);
    } else {
      const members = [i];
      clusters.push({ first: i, servers: new Set([c.serviceId]), members });
      firstOf.set(i, members);
    }
  }
  return lines.flatMap((_, i) => {
    const members = firstOf.get(i);
    return members ? [members.map((m) => lines[m])] : [];
  });
}
