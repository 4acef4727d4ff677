// Access for teams (ACTIONS.md "access issue", src/domain/access.ts): a group's role templates
// and where a user's bits come from; the account's two-factor sign-in, backup codes, API tokens
// and signed-in devices. Every action for the palette, the console pane (`roles`, `mkrole`,
// `assign`, `2fa-on`, `tokens`, `devices`, …), the lists' menus and the Security page's forms.

import {
  type ApiToken,
  BACKUP_CODE_COUNT,
  type GroupRole,
  PASSKEY_LIMITS,
  ROLE_NAME_MAX,
  SIGN_IN_METHODS,
  type SignIn,
  TOKEN_ACCESS,
  TOKEN_LIMITS,
  tokenReach,
} from '../src/domain/access.ts';
import { formatTime } from '../src/domain/format.ts';
import { bitsBeyond, bitsText } from '../src/domain/groups.ts';
import { PERMISSION_LABELS, Perm } from '../src/domain/permissions.ts';
import { qrText } from '../src/domain/qrCode.ts';
import { pathOf } from '../src/domain/resolver.ts';
import { deviceName } from '../src/domain/userAgent.ts';
import { ApiError } from '../src/web/api/http.ts';
import { bool, type EntityRef, int, oneOf, ref, secret, text } from './args.ts';
import type { CommandContext, CommandResult, ResultSection } from './context.ts';
import { grantable, groupArg, membership, permsArg, userArg } from './groups.ts';
import { CommandError, defineCommand, requireBits } from './registry.ts';

const roleGroup = 'Roles';
const accountGroup = 'Account security';

const roleArg = () =>
  text().min(1, 'Name a role.').describe('Role', 'Its name: Moderator, Admin, Owner or the group’s own');
const codeArg = () =>
  text()
    .min(1, 'Type the 6 digits your authenticator shows, or a backup code.')
    .describe('Code', 'From your authenticator app, or a backup code');

/** A role of the group by name (case aside); the refusal lists the ones there are. */
async function roleOf(ctx: CommandContext, g: EntityRef, name: string): Promise<GroupRole> {
  const roles = (await ctx.app.api.groupRoles.list({ groupId: g.id, pageSize: 250 })).results;
  const found = roles.find((r) => r.name.toLowerCase() === name.trim().toLowerCase());
  if (!found)
    throw new CommandError(
      `${g.label} has no role “${name.trim()}”. Its roles: ${roles.map((r) => r.name).join(', ')}.`,
      'role',
    );
  return found;
}

/** A refusal of the API on a field (`field`, or the one `field` finds in it), so a form marks it. */
async function attempt<T>(work: () => Promise<T>, field?: string | ((e: ApiError) => string)): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof ApiError && e.status < 500)
      throw new CommandError(e.message, typeof field === 'function' ? field(e) : field);
    throw e;
  }
}

/** A refusal naming the password marks the password; any other, the code or name typed first. */
const fieldOf = (e: ApiError): string =>
  (e.details as { field?: string } | null)?.field === 'password'
    ? 'password'
    : e.code?.startsWith('code')
      ? 'code'
      : 'name';

/**
 * Secrets shown once (backup codes, a token): whole in the console, never cut to a column's width;
 * a dialog elsewhere. Each way says how to keep them.
 */
function shownOnce(
  ctx: CommandContext,
  title: string,
  sections: ResultSection[],
  note: string,
): CommandResult {
  if (ctx.surface === 'console') return { message: note, sections };
  ctx.app.dialogs.info(title, [...sections.map((s): [string, string] => [s.heading, s.text]), ['', note]]);
  return { message: note };
}

const backupCodeSections = (codes: string[]): ResultSection[] =>
  codes.map((c, i) => ({ heading: `Code ${i + 1}`, text: c }));
const BACKUP_NOTE = `Keep these ${BACKUP_CODE_COUNT} backup codes somewhere safe: each signs you in once if you lose your authenticator. They are not shown again.`;

const signInWhere = (s: SignIn) =>
  [deviceName(s.userAgent) || 'Unknown device', s.address].filter(Boolean).join(', ');
/** A device as the console lists it, and as session.revoke takes it: the first characters of its id. */
const shortId = (id: string) => id.slice(0, 8);

const roleCommands = [
  defineCommand({
    id: 'role.list',
    title: 'Roles',
    description: 'A group’s role templates: the built-in ones and its own, with what each gives',
    group: roleGroup,
    aliases: ['roles'],
    args: { group: groupArg() },
    run: async ({ group: g }, ctx) => {
      if (ctx.surface !== 'console') {
        ctx.app.navigate(pathOf('group', g.id, 'roles'));
        return undefined;
      }
      const [roles, members] = await Promise.all([
        ctx.app.api.groupRoles.list({ groupId: g.id, pageSize: 250 }),
        ctx.app.api.groupUsers.list({ groupId: g.id, pageSize: 250 }),
      ]);
      return {
        table: {
          columns: ['Role', 'Kind', 'Holders', 'Permissions'],
          rows: roles.results.map((r) => [
            r.name,
            r.builtIn ? 'Built in' : 'This group’s',
            String(members.results.filter((m) => m.roleId === r.roleId).length),
            bitsText(r.permissions),
          ]),
        },
      };
    },
  }),
  defineCommand({
    id: 'role.create',
    title: 'Create role',
    description: 'A named set of the group’s permissions, to assign to members',
    group: roleGroup,
    aliases: ['mkrole'],
    form: true,
    args: {
      group: groupArg(),
      name: text()
        .min(1, `A role's name is 1 to ${ROLE_NAME_MAX} characters.`)
        .max(ROLE_NAME_MAX)
        .describe('Name'),
      permissions: permsArg(),
    },
    run: async ({ group: g, name, permissions }, ctx) => {
      requireBits(ctx, g, Perm.ManageUsers);
      const mask = grantable(ctx, g, permissions);
      const made = await attempt(
        () => ctx.app.api.groupRoles.create({ groupId: g.id, name: name.trim(), permissions: mask }),
        'name',
      );
      const role = made.created[0];
      return {
        message: `Role ${role.name} in ${g.label}: ${bitsText(role.permissions)}.`,
        undo: async () => {
          await ctx.app.api.groupRoles.remove(role.roleId);
        },
      };
    },
  }),
  defineCommand({
    id: 'role.edit',
    title: 'Edit role',
    description: 'Renames a role or changes its permissions, for everyone holding it at once',
    group: roleGroup,
    aliases: ['editrole'],
    form: true,
    args: {
      group: groupArg(),
      role: roleArg(),
      name: text().max(ROLE_NAME_MAX).describe('New name').optional(),
      permissions: permsArg().optional(),
    },
    run: async ({ group: g, role: roleName, name, permissions }, ctx) => {
      requireBits(ctx, g, Perm.ManageUsers);
      const role = await roleOf(ctx, g, roleName);
      if (role.builtIn)
        throw new CommandError('Built-in roles cannot be changed; make a role of the group’s own.', 'role');
      const mask = permissions ? grantable(ctx, g, permissions) : undefined;
      const saved = await attempt(
        () =>
          ctx.app.api.groupRoles.patch(role.roleId, {
            ...(name?.trim() ? { name: name.trim() } : {}),
            ...(mask !== undefined ? { permissions: mask } : {}),
          }),
        'name',
      );
      return {
        message: `Role ${saved.name}: ${bitsText(saved.permissions)}, for everyone holding it.`,
        undo: async () => {
          await ctx.app.api.groupRoles.patch(role.roleId, { name: role.name, permissions: role.permissions });
        },
      };
    },
  }),
  defineCommand({
    id: 'role.delete',
    title: 'Delete role',
    description: 'Its holders keep the permissions it gave them, set by hand',
    group: roleGroup,
    aliases: ['rmrole'],
    args: { group: groupArg(), role: roleArg() },
    run: async ({ group: g, role: roleName }, ctx) => {
      requireBits(ctx, g, Perm.ManageUsers);
      const role = await roleOf(ctx, g, roleName);
      if (role.builtIn) throw new CommandError('Built-in roles cannot be deleted.', 'role');
      if (!(await ctx.app.dialogs.confirm(`Delete role ${role.name}? Its holders keep its permissions.`)))
        return { message: 'Cancelled.' };
      await attempt(() => ctx.app.api.groupRoles.remove(role.roleId));
      return { message: `Role ${role.name} deleted; its holders keep ${bitsText(role.permissions)}.` };
    },
  }),
  defineCommand({
    id: 'role.assign',
    title: 'Assign role',
    description: 'Gives a member a role: its permissions, now and as it changes',
    group: roleGroup,
    aliases: ['assign'],
    form: true,
    args: { group: groupArg(), user: userArg(), role: roleArg() },
    run: async ({ group: g, user, role: roleName }, ctx) => {
      requireBits(ctx, g, Perm.ManageUsers);
      const role = await roleOf(ctx, g, roleName);
      const mine = ctx.permissions(g);
      const beyond = mine === null ? [] : bitsBeyond(mine, role.permissions);
      if (beyond.length)
        throw new CommandError(
          `You cannot grant what you do not hold: ${beyond.map((k) => PERMISSION_LABELS[k]).join(', ')}.`,
          'role',
        );
      const row = await membership(ctx, g, user);
      await attempt(() => ctx.app.api.groupUsers.patch(row.groupUserId, { roleId: role.roleId }), 'role');
      return {
        message: `${row.usernameFull} is now ${role.name} in ${g.label}: ${bitsText(role.permissions)}.`,
        undo: async () => {
          await ctx.app.api.groupUsers.patch(
            row.groupUserId,
            row.roleId ? { roleId: row.roleId } : { roleId: null, permissions: row.permissions },
          );
        },
      };
    },
  }),
  defineCommand({
    id: 'access.explain',
    title: 'Explain access',
    description: 'What a user can do on a server, and where each permission comes from',
    group: roleGroup,
    aliases: ['why'],
    args: {
      server: ref('server').describe('Server', 'Blank: the server in view'),
      user: text().describe('User', 'Email, user id or username#discriminator; blank: you').optional(),
    },
    run: async ({ server, user }, ctx) => {
      const who = user?.trim() ? (await ctx.app.api.userLookup(user.trim())).userId : undefined;
      const access = await attempt(() => ctx.app.api.serviceAccess(server.id, who), 'user');
      const rows = access.sources.map((s): [string, string, string] => {
        if (s.kind === 'owner') return ['Owns the server', '', 'Every permission'];
        if (s.kind === 'groupOwner') return [`Owns group ${s.groupName}`, '', bitsText(s.bits)];
        const role = s.roleName ? `Role ${s.roleName}` : 'Set by hand';
        const gives = s.readOnlyUntilTwoFactor ? 'Read only (two-factor required)' : bitsText(s.bits);
        return [`Member of ${s.groupName}`, role, gives];
      });
      const summary = `${server.label}: ${access.permissions ? bitsText(access.permissions) : 'no access'}.`;
      const shown = rows.length ? rows : [['Nothing', '', 'No access']];
      if (ctx.surface === 'console')
        return { message: summary, table: { columns: ['Through', 'Role', 'Gives'], rows: shown } };
      // Elsewhere only a summary would show: the sources are the point, so a dialog lists them.
      ctx.app.dialogs.info(`Access to ${server.label}`, [
        ...shown.map(([through, role, gives]): [string, string] => [
          role ? `${through}, ${role}` : through,
          gives,
        ]),
        ['In all', access.permissions ? bitsText(access.permissions) : 'No access'],
      ]);
      return { message: summary };
    },
  }),
  defineCommand({
    id: 'group.requireTwoFactor',
    title: 'Require two-factor sign-in',
    description: 'Members without it keep read access only until they turn it on',
    group: roleGroup,
    aliases: ['require2fa'],
    args: { group: groupArg(), on: bool().describe('Required').default(true) },
    run: async ({ group: g, on }, ctx) => {
      requireBits(ctx, g, Perm.EditGroup);
      await attempt(() => ctx.app.api.groups.patch(g.id, { requireTwoFactor: on }));
      return {
        message: on
          ? `${g.label} requires two-factor sign-in: members without it can read, not act.`
          : `${g.label} no longer requires two-factor sign-in.`,
        undo: async () => {
          await ctx.app.api.groups.patch(g.id, { requireTwoFactor: !on });
        },
      };
    },
  }),
];

const securityCommands = [
  defineCommand({
    id: 'account.twoFactor.enable',
    title: 'Turn on two-factor sign-in',
    description: 'An authenticator app’s code after your password; with backup codes for a lost device',
    group: accountGroup,
    aliases: ['2fa-on'],
    run: async (_a, ctx) => {
      const state = await ctx.app.api.account.security();
      if (state.totp) return { message: 'Two-factor sign-in with an authenticator app is already on.' };
      const setup = state.pending ?? (await attempt(() => ctx.app.api.account.startTotp()));
      // The Security page shows the code to scan and the form that finishes it (2fa-confirm).
      if (ctx.surface !== 'console') {
        ctx.app.navigate('/security');
        return { message: 'Scan the code with your authenticator app, then type the 6 digits it shows.' };
      }
      return {
        message:
          'Scan this with your authenticator app (or type the key), then run 2fa-confirm with the 6 digits it shows and your password.',
        sections: [
          { heading: 'Scan', text: await qrText(setup.uri) },
          { heading: 'Or type this key', text: setup.secret.replace(/(.{4})/g, '$1 ').trim() },
        ],
      };
    },
  }),
  defineCommand({
    id: 'account.twoFactor.confirm',
    title: 'Finish turning on two-factor sign-in',
    description: 'The first code your authenticator shows, and your password: a session alone cannot do it',
    group: accountGroup,
    aliases: ['2fa-confirm'],
    form: true,
    args: {
      code: codeArg(),
      password: secret()
        .min(1, 'Type your password to confirm.')
        .describe('Password', 'Yours, to confirm it is you'),
    },
    run: async ({ code, password }, ctx) => {
      const done = await attempt(() => ctx.app.api.account.confirmTotp(code.trim(), password), fieldOf);
      const ended = done.signedOut
        ? ` Signed out ${done.signedOut} other device${done.signedOut === 1 ? '' : 's'}.`
        : '';
      return shownOnce(
        ctx,
        'Backup codes',
        backupCodeSections(done.backupCodes),
        `Two-factor sign-in is on.${ended} ${BACKUP_NOTE}`,
      );
    },
  }),
  defineCommand({
    id: 'account.twoFactor.disable',
    title: 'Turn off two-factor sign-in',
    description: 'Needs a code from your authenticator or a backup code',
    group: accountGroup,
    aliases: ['2fa-off'],
    form: true,
    args: { code: codeArg() },
    run: async ({ code }, ctx) => {
      await attempt(() => ctx.app.api.account.disableTotp(code.trim()), 'code');
      return { message: 'Two-factor sign-in is off; your backup codes no longer work.' };
    },
  }),
  defineCommand({
    id: 'account.passkey.add',
    title: 'Add a passkey',
    description:
      'Your device’s passkey (fingerprint, face, PIN or security key): a second factor, or a sign-in without the password',
    group: accountGroup,
    aliases: ['passkey-add'],
    form: true,
    args: {
      name: text()
        .min(1, `A passkey's name is 1 to ${PASSKEY_LIMITS.nameMax} characters.`)
        .max(PASSKEY_LIMITS.nameMax)
        .describe('Name', 'Which device it is on, e.g. Work laptop'),
      password: secret()
        .min(1, 'Type your password to confirm.')
        .describe('Password', 'Yours, to confirm it is you'),
    },
    run: async ({ name, password }, ctx) => {
      const options = await attempt(() => ctx.app.api.account.passkeyOptions(password), fieldOf);
      let response: unknown;
      try {
        response = await ctx.app.passkeys.create(options);
      } catch {
        throw new CommandError('The browser made no passkey (cancelled, or this device cannot).', 'name');
      }
      const added = await attempt(() => ctx.app.api.account.addPasskey(name.trim(), response), 'name');
      const message = `Passkey ${added.name} added: sign in with it, or use it after your password.`;
      if (!added.backupCodes) return { message };
      const ended = added.signedOut
        ? ` Signed out ${added.signedOut} other device${added.signedOut === 1 ? '' : 's'}.`
        : '';
      return shownOnce(
        ctx,
        'Backup codes',
        backupCodeSections(added.backupCodes),
        `${message}${ended} ${BACKUP_NOTE}`,
      );
    },
  }),
  defineCommand({
    id: 'account.passkey.remove',
    title: 'Remove a passkey',
    description: 'It no longer signs you in',
    group: accountGroup,
    aliases: ['passkey-rm'],
    args: { passkey: text().min(1, 'Name a passkey.').describe('Passkey', 'Its name') },
    run: async ({ passkey }, ctx) => {
      const keys = (await ctx.app.api.account.security()).passkeys;
      const found = keys.find((k) => k.name.toLowerCase() === passkey.trim().toLowerCase());
      if (!found)
        throw new CommandError(
          keys.length
            ? `You have no passkey named “${passkey.trim()}”: ${keys.map((k) => k.name).join(', ')}.`
            : 'You have no passkeys.',
          'passkey',
        );
      if (!(await ctx.app.dialogs.confirm(`Remove passkey ${found.name}? It will no longer sign you in.`)))
        return { message: 'Cancelled.' };
      await attempt(() => ctx.app.api.account.removePasskey(found.passkeyId));
      return { message: `Passkey ${found.name} removed.` };
    },
  }),
  defineCommand({
    id: 'account.backupCodes',
    title: 'New backup codes',
    description: 'Replaces your backup codes; the old ones stop working',
    group: accountGroup,
    aliases: ['backup-codes'],
    form: true,
    args: { code: codeArg() },
    run: async ({ code }, ctx) => {
      const done = await attempt(() => ctx.app.api.account.newBackupCodes(code.trim()), 'code');
      return shownOnce(ctx, 'Backup codes', backupCodeSections(done.backupCodes), BACKUP_NOTE);
    },
  }),
  defineCommand({
    id: 'token.list',
    title: 'API tokens',
    description: 'Your tokens for your own tools and bots: what each reaches, until when, last used',
    group: accountGroup,
    aliases: ['tokens'],
    run: async (_a, ctx) => {
      if (ctx.surface !== 'console') {
        ctx.app.navigate('/tokens');
        return undefined;
      }
      const tokens = (await ctx.app.api.apiTokens.list()).results;
      return {
        table: {
          columns: ['Name', 'Access', 'Reaches', 'Expires', 'Last used'],
          rows: tokens.map((t) => [
            t.name,
            TOKEN_ACCESS[t.access].label,
            tokenReach(t),
            formatTime(t.expires),
            lastUse(t),
          ]),
        },
      };
    },
  }),
  defineCommand({
    id: 'token.create',
    title: 'Create API token',
    description:
      'For a tool or bot of yours: read only or read and write, one server or group or all, for a number of days',
    group: accountGroup,
    aliases: ['mktoken'],
    form: true,
    args: {
      name: text()
        .min(1, `A token's name is 1 to ${TOKEN_LIMITS.nameMax} characters.`)
        .max(TOKEN_LIMITS.nameMax)
        .describe('Name', 'What uses it'),
      access: oneOf(['read', 'write'] as const)
        .describe('Access', 'read: read only; write: read and write')
        .default('read'),
      on: ref('server', 'group')
        .describe('Only on', 'A server or group; blank: everything you can reach')
        .optional(),
      days: int({ min: 1, max: TOKEN_LIMITS.expiryDaysMax })
        .describe('Days', `How long it lasts, up to ${TOKEN_LIMITS.expiryDaysMax}`)
        .default(TOKEN_LIMITS.expiryDaysDefault),
    },
    run: async ({ name, access, on, days }, ctx) => {
      const made = await attempt(
        () =>
          ctx.app.api.apiTokens.create({
            name: name.trim(),
            access,
            expiresInDays: days,
            ...(on ? { [on.kind === 'group' ? 'groupId' : 'serviceId']: on.id } : {}),
          }),
        'name',
      );
      const token = made.token ?? '';
      return shownOnce(
        ctx,
        'API token',
        [
          { heading: 'Token', text: token },
          {
            heading: 'Reaches',
            text: `${tokenReach(made)}, ${TOKEN_ACCESS[made.access].label.toLowerCase()}`,
          },
          { heading: 'Expires', text: formatTime(made.expires) },
          {
            heading: 'Use',
            text: 'Send it as the header Authorization: Bearer <token> (see the API reference).',
          },
        ],
        `Token ${made.name} made. Copy it now: it is not shown again.`,
      );
    },
  }),
  defineCommand({
    id: 'token.revoke',
    title: 'Revoke API token',
    description: 'The token stops working at once',
    group: accountGroup,
    aliases: ['rmtoken'],
    args: { token: text().min(1, 'Name a token.').describe('Token', 'Its name') },
    run: async ({ token: name }, ctx) => {
      const tokens = (await ctx.app.api.apiTokens.list()).results;
      const matches = tokens.filter((t) => t.name.toLowerCase() === name.trim().toLowerCase());
      if (matches.length === 0) throw new CommandError(`You have no token named “${name.trim()}”.`, 'token');
      if (
        !(await ctx.app.dialogs.confirm(
          `Revoke token ${matches[0].name}? Whatever uses it stops working at once.`,
        ))
      )
        return { message: 'Cancelled.' };
      await attempt(() => ctx.app.api.apiTokens.revoke(matches[0].tokenId));
      return { message: `Token ${matches[0].name} revoked.` };
    },
  }),
  defineCommand({
    id: 'session.list',
    title: 'Signed-in devices',
    description: 'Where your account is signed in, since when and last used; sign any of them out',
    group: accountGroup,
    aliases: ['devices'],
    run: async (_a, ctx) => {
      if (ctx.surface !== 'console') {
        ctx.app.navigate('/security');
        return undefined;
      }
      const devices = (await ctx.app.api.signIns.list()).results;
      return {
        table: {
          columns: ['Device', 'Where', 'Signed in', 'How', 'Last used'],
          rows: devices.map((s) => [
            s.current ? `${shortId(s.signInId)} (this one)` : shortId(s.signInId),
            signInWhere(s),
            formatTime(s.created),
            SIGN_IN_METHODS[s.method] ?? s.method,
            formatTime(s.lastUsed),
          ]),
        },
      };
    },
  }),
  defineCommand({
    id: 'session.revoke',
    title: 'Sign out a device',
    description: 'Ends a sign-in elsewhere at once; "others" signs out every device but this one',
    group: accountGroup,
    aliases: ['signout-device'],
    args: {
      device: text()
        .min(1, 'Name a device: the first characters of its id, or others.')
        .describe('Device', 'Its id as the list shows it, or others'),
    },
    run: async ({ device }, ctx) => {
      const devices = (await ctx.app.api.signIns.list()).results;
      const wanted = device.trim().toLowerCase();
      const ending =
        wanted === 'others'
          ? devices.filter((s) => !s.current)
          : devices.filter((s) => s.signInId.startsWith(wanted));
      if (ending.length === 0)
        throw new CommandError(
          wanted === 'others' ? 'No other device is signed in.' : 'No signed-in device has that id.',
          'device',
        );
      if (wanted !== 'others' && ending.length > 1)
        throw new CommandError('More than one device starts so; type more of its id.', 'device');
      if (ending.some((s) => s.current))
        throw new CommandError('That is this device: use Log out to sign out here.', 'device');
      for (const s of ending) await attempt(() => ctx.app.api.signIns.end(s.signInId));
      return {
        message:
          ending.length === 1
            ? `Signed out ${signInWhere(ending[0])}.`
            : `Signed out ${ending.length} other devices.`,
      };
    },
  }),
];

function lastUse(t: ApiToken): string {
  return t.lastUsed ? `${formatTime(t.lastUsed)} from ${t.lastAddress ?? 'an unknown address'}` : 'Never';
}

export const accessCommands = [...roleCommands, ...securityCommands];
