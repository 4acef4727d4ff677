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
  'bans',
  'scripts',
  'buckets',
  'settings',
  'activity',
] as const;
export type GroupTab = (typeof GROUP_TABS)[number];
