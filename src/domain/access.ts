// Access for teams (docs/api.md "Access"): roles, two-factor sign-in, API tokens and signed-in
// devices, as the server checks them and the console shows them.

import { Perm } from './permissions.ts';

/** The built-in roles, in every group; their ids are fixed (036_access.sql). */
export const BUILT_IN_ROLES = [
  {
    roleId: '00000000-0000-4000-8000-000000000001',
    name: 'Moderator',
    permissions: Perm.Membership | Perm.ControlServices | Perm.ManageBans,
  },
  {
    roleId: '00000000-0000-4000-8000-000000000002',
    name: 'Admin',
    permissions:
      Perm.Membership |
      Perm.ControlServices |
      Perm.EditBuckets |
      Perm.EditScripts |
      Perm.EditServices |
      Perm.ManageBans |
      Perm.ManageBuckets |
      Perm.ManageScripts |
      Perm.ManageServices,
  },
  { roleId: '00000000-0000-4000-8000-000000000003', name: 'Owner', permissions: 16383 },
] as const;

/** On the user's channel: two-factor, a device or a token of the account changed. */
export const SECURITY_UPDATED = 'securityUpdated';

export const ROLE_NAME_MAX = 40;
/** Roles of its own a group may have. */
export const ROLES_PER_GROUP = 50;

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30 s; one step either side. */
export const TOTP = { digits: 6, period: 30, window: 1, issuer: 'Palisade' } as const;
export const BACKUP_CODE_COUNT = 10;
/** A backup code as shown: 10 characters of an alphabet without look-alikes, in two halves. */
export const BACKUP_CODE = /^[a-hjkmnp-z2-9]{5}-?[a-hjkmnp-z2-9]{5}$/i;

/** How a sign-in was proven, in words. */
export const SIGN_IN_METHODS: Record<string, string> = {
  password: 'Password',
  'password+totp': 'Password and authenticator code',
  'password+backup': 'Password and backup code',
  'password+passkey': 'Password and passkey',
  passkey: 'Passkey',
};

/** What an API token may do: its scopes, as a person picks them. */
export const TOKEN_ACCESS = {
  read: { label: 'Read only', scopes: ['common', 'sentinel:read', 'users:read'] },
  write: { label: 'Read and write', scopes: ['common', 'sentinel:read', 'sentinel:write', 'users:read'] },
} as const;
export type TokenAccess = keyof typeof TOKEN_ACCESS;

export const TOKEN_LIMITS = {
  nameMax: 60,
  /** Live tokens an account may hold. */
  perUser: 50,
  expiryDaysMax: 365,
  expiryDaysDefault: 90,
} as const;
export const PASSKEY_LIMITS = { perUser: 20, nameMax: 60 } as const;

/** What a token starts with, so it is told from a session's token and found by secret scanners. */
export const TOKEN_PREFIX = 'pat_';

export const ACCESS_MESSAGES = {
  codeInvalid: 'That code is not right. Type the 6 digits your authenticator shows now, or a backup code.',
  codeMissing: 'Type the 6 digits your authenticator shows, or a backup code.',
  totpOn: 'Two-factor sign-in is already on. Turn it off first to set up another authenticator.',
  totpNotStarted: 'Start setting up two-factor sign-in first.',
  totpOff: 'Sign-in with an authenticator app is not on.',
  twoFactorOff: 'Two-factor sign-in is not on: add an authenticator app or a passkey first.',
  passwordMissing: 'Type your password to confirm.',
  passwordWrong: 'That password is not right.',
  tooManyPasswords: (s: number) => `Too many wrong passwords. Try again in ${s} second${s === 1 ? '' : 's'}.`,
  tooManyCodes: (s: number) => `Too many wrong codes. Try again in ${s} second${s === 1 ? '' : 's'}.`,
  signInNotFound: 'That signed-in device was not found; it may have signed out already.',
  tokenNotFound: 'That API token was not found.',
  tokenName: `A token's name is 1 to ${TOKEN_LIMITS.nameMax} characters.`,
  tokenExpiry: `A token lasts 1 to ${TOKEN_LIMITS.expiryDaysMax} days.`,
  tokenCount: `An account may hold ${TOKEN_LIMITS.perUser} live tokens; revoke one first.`,
  tokenScope: 'A token limits to one group or one server, not both.',
  tokenPlace: 'You have no access to that group or server.',
  limitedTokenOwns: 'A token limited to a server or group cannot make groups, buckets or scripts of its own.',
  tokensByToken: 'An API token cannot manage tokens, devices or sign-in; sign in to the console.',
  passkeyRefused: 'That passkey was not accepted. Try again, or use your password.',
  passkeyCount: `An account may hold ${PASSKEY_LIMITS.perUser} passkeys; remove one first.`,
  passkeyName: `A passkey's name is 1 to ${PASSKEY_LIMITS.nameMax} characters.`,
  passkeyNotFound: 'That passkey was not found.',
  roleName: `A role's name is 1 to ${ROLE_NAME_MAX} characters.`,
  roleNameTaken: 'The group already has a role of that name.',
  roleBuiltIn: 'Built-in roles cannot be changed; make a role of the group’s own.',
  roleNotInGroup: 'That role is not one of this group’s.',
  roleCount: `A group may have ${ROLES_PER_GROUP} roles of its own.`,
  twoFactorRequired:
    'This group requires two-factor sign-in: you can see it, but not act in it, until you turn on two-factor sign-in (Account › Security).',
} as const;

/** A backup code as stored and compared: lower case, no dash. */
export const normalBackupCode = (code: string): string => code.replace(/[\s-]/g, '').toLowerCase();

/** A role template of a group, or a built-in one (groupId null). */
export interface GroupRole {
  roleId: string;
  groupId: string | null;
  name: string;
  permissions: number;
  builtIn: boolean;
}

/** A signed-in device: one sign-in and the sessions its refresh tokens rotated through. */
export interface SignIn {
  signInId: string;
  application: string;
  created: number;
  address: string;
  userAgent: string;
  method: string;
  lastUsed: number;
  lastAddress: string;
  current: boolean;
}

export interface ApiToken {
  tokenId: string;
  name: string;
  scopes: string[];
  groupId: string | null;
  groupName: string | null;
  serviceId: string | null;
  serviceName: string | null;
  access: TokenAccess;
  created: number;
  expires: number;
  lastUsed: number | null;
  lastAddress: string | null;
  /** Only in the answer that made it: shown once. */
  token?: string;
}

export interface AccountSecurity {
  totp: boolean;
  /** A setup begun and not yet confirmed by a code. */
  pending: { secret: string; uri: string } | null;
  backupCodesLeft: number;
  /** Groups the account is a member of that require two-factor sign-in. */
  requiredBy: { groupId: string; name: string }[];
  passkeys: Passkey[];
}

export interface Passkey {
  passkeyId: string;
  name: string;
  created: number;
  lastUsed: number | null;
}

/** Whether the account has a second factor: an authenticator app or a passkey. */
export const hasSecondFactor = (s: AccountSecurity): boolean => s.totp || s.passkeys.length > 0;

/** One way a user holds bits on a server (docs/api.md "Where access comes from"). */
export interface AccessSource {
  kind: 'owner' | 'groupOwner' | 'member';
  groupId: string | null;
  groupName: string | null;
  roleName: string | null;
  /** The member's bits in the group, as set (before a two-factor requirement cuts them). */
  memberBits: number | null;
  /** The server's mask in the group. */
  linkMask: number | null;
  readOnlyUntilTwoFactor: boolean;
  /** What this source gives. */
  bits: number;
}

export interface ServiceAccess {
  serviceId: string;
  userId: string;
  permissions: number;
  sources: AccessSource[];
}

/** Where a token reaches, in words. */
export const tokenReach = (t: ApiToken): string =>
  t.serviceName
    ? `Server ${t.serviceName}`
    : t.groupName
      ? `Group ${t.groupName}`
      : 'Everything you can reach';
