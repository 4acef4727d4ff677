// Sentinel permission bits (SENTINEL-API §7, SPEC §6) and their resolution, computed in one place.

export const Perm = {
  Membership: 1,
  ControlServices: 2,
  EditBuckets: 4,
  EditGroup: 8,
  EditScripts: 16,
  EditServices: 32,
  ManageBans: 64,
  ManageBuckets: 128,
  ManageScripts: 256,
  ManageServices: 512,
  ManageUsers: 1024,
  ShareBuckets: 2048,
  ShareScripts: 4096,
  ShareServices: 8192,
} as const;
export type PermName = keyof typeof Perm;

/** What an owner holds: every bit, 2^53−1 as the API returns it. */
export const ALL_PERMISSIONS = 9007199254740991;

export const PERMISSION_LABELS: Record<PermName, string> = {
  Membership: 'membership',
  ControlServices: 'control servers',
  EditBuckets: 'edit buckets',
  EditGroup: 'edit group',
  EditScripts: 'edit scripts',
  EditServices: 'edit servers',
  ManageBans: 'manage bans',
  ManageBuckets: 'manage buckets',
  ManageScripts: 'manage scripts',
  ManageServices: 'manage servers',
  ManageUsers: 'manage users',
  ShareBuckets: 'share buckets',
  ShareScripts: 'share scripts',
  ShareServices: 'share servers',
};

// Bitwise operators truncate to 32 bits; the owner mask is 53 bits, so test with arithmetic.
export function hasAll(mask: number, bits: number): boolean {
  for (let b = 1; b <= 8192; b *= 2) {
    if (bits & b && Math.floor(mask / b) % 2 !== 1) return false;
  }
  return true;
}

export function hasAny(mask: number, bits: number): boolean {
  for (let b = 1; b <= 8192; b *= 2) {
    if (bits & b && Math.floor(mask / b) % 2 === 1) return true;
  }
  return false;
}

/** The 14 defined bits of a mask, as a plain 32-bit int. */
export const definedBits = (mask: number): number => (mask >= ALL_PERMISSIONS ? 16383 : mask & 16383);

export interface GroupGrant {
  /** The resource's mask in the group (service, bucket or script link). */
  linkMask: number;
  /** The caller's bits in the group, or null when the caller owns the group. */
  userBits: number | null;
}

/**
 * Resolve a caller's bits on a resource: owner → all; otherwise the OR over every group that holds
 * the resource of (link mask AND the user's group bits), the group owner getting the link mask whole.
 */
export function resolvePermissions(isOwner: boolean, grants: GroupGrant[]): number {
  if (isOwner) return ALL_PERMISSIONS;
  let bits = 0;
  for (const g of grants)
    bits |= g.userBits === null ? definedBits(g.linkMask) : g.linkMask & g.userBits & 16383;
  return bits;
}

export function permissionNames(mask: number): PermName[] {
  return (Object.keys(Perm) as PermName[]).filter((k) => hasAll(mask, Perm[k]));
}
