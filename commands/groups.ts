// Groups and permissions (ACTIONS.md): list and open groups, create, edit and delete them, share
// servers, buckets and scripts into them, manage their users' bits, and link the chat community.
// Every action for the palette, the console pane (`groups`, `addservers`, `grant`, …), the group
// page's toolbars and the rows' menus.

import type { Group, GroupUser, User } from '../src/domain/api.ts';
import { fromApiColor, toApiColor } from '../src/domain/enums.ts';
import {
  bitsBeyond,
  bitsText,
  COMMUNITY_LINK_LABELS,
  communityLinkState,
  GROUP_MESSAGES,
  GROUP_TABS,
  maskOfSlugs,
  PERM_SLUGS,
  randomLinkCode,
} from '../src/domain/groups.ts';
import { GROUP_NAME_MIN, Msg } from '../src/domain/messages.ts';
import { ALL_PERMISSIONS, hasAny, PERMISSION_LABELS, Perm } from '../src/domain/permissions.ts';
import { pathOf, placeOf } from '../src/domain/resolver.ts';

import { ApiError } from '../src/web/api/http.ts';
import { bool, colour, type EntityRef, list, oneOf, ref, text } from './args.ts';
import type { CommandContext, CommandResult } from './context.ts';
import { CommandError, defineCommand, requireBits } from './registry.ts';
import { detachScript } from './scriptAttachments.ts';

const group = 'Groups';
/** A resource shared into a group allows every bit there: the members' own bits decide (§6). */
const SHARED_MASK = 16383;

export const groupArg = () => ref('group').describe('Group', 'Blank: the group in view');
const nameArg = () =>
  text().min(GROUP_NAME_MIN, Msg.groupNameShort).max(100).describe('Name', 'At least 3 characters');
export const userArg = () =>
  text().min(1, GROUP_MESSAGES.lookupEmpty).describe('User', 'Email, user id or username#discriminator');
/** Bits by name; `none` for membership only, so a change of bits is always stated. */
export const permsArg = () =>
  list(oneOf([...PERM_SLUGS, 'none']).describe('Permission')).describe(
    'Permissions',
    `${PERM_SLUGS.slice(0, 3).join(', ')}, … or none (membership only)`,
  );

/** What one kind of resource is to a group: its link class, its id property and the bits involved. */
const LINKS = {
  server: {
    noun: 'server',
    api: (ctx: CommandContext) => ctx.app.api.groupServices,
    idProp: 'serviceId',
    linkId: (l: { groupServiceId?: string }) => l.groupServiceId!,
    share: PERMISSION_LABELS.ShareServices,
  },
  bucket: {
    noun: 'bucket',
    api: (ctx: CommandContext) => ctx.app.api.groupBuckets,
    idProp: 'bucketId',
    linkId: (l: { groupBucketId?: string }) => l.groupBucketId!,
    share: PERMISSION_LABELS.ShareBuckets,
  },
} as const;
type LinkKind = keyof typeof LINKS;

/** Why adding one resource failed, in the words of SPEC §8 "Add to group: duplicate, forbidden, generic". */
function addFailure(kind: LinkKind, e: unknown): string {
  if (!(e instanceof ApiError)) return (e as Error).message;
  if (e.code === 'duplicate') return GROUP_MESSAGES.duplicate;
  if (e.code === 'forbidden')
    return `${Msg.forbidden} (${LINKS[kind].share} on it, manage ${LINKS[kind].noun}s on the group).`;
  return e.message;
}

/** Adds each resource to the group; the message names every one that failed and why. */
async function addToGroup(
  ctx: CommandContext,
  kind: LinkKind,
  target: EntityRef,
  items: EntityRef[],
): Promise<CommandResult> {
  if (items.length === 0) throw new CommandError(GROUP_MESSAGES.chooseOne, `${kind}s`);
  const link = LINKS[kind];
  const added: EntityRef[] = [];
  const failed: string[] = [];
  for (const item of items) {
    try {
      await link
        .api(ctx)
        .create({ groupId: target.id, [link.idProp]: item.id, permissionsMask: SHARED_MASK });
      added.push(item);
    } catch (e) {
      failed.push(`${item.label}: ${addFailure(kind, e)}`);
    }
  }
  const head = `Added ${added.length} of ${items.length} ${link.noun}${items.length === 1 ? '' : 's'} to ${target.label}.`;
  if (failed.length === 0) return { message: head };
  if (added.length === 0) throw new CommandError(`${head} ${failed.join('; ')}`);
  return { message: `${head} ${failed.join('; ')}` };
}

/** Takes a resource out of the group; undo shares it again with the mask it had. */
async function removeFromGroup(
  ctx: CommandContext,
  kind: LinkKind,
  target: EntityRef,
  item: EntityRef,
): Promise<CommandResult> {
  const link = LINKS[kind];
  const api = link.api(ctx);
  const page = await api.list({ groupId: target.id, [link.idProp]: item.id });
  const row = page.results[0];
  if (!row) throw new CommandError(`${item.label} is not in ${target.label}.`);
  await api.remove(link.linkId(row));
  return {
    message: `${item.label} was taken out of ${target.label}.`,
    undo: async () => {
      await api.create({ groupId: target.id, [link.idProp]: item.id, permissionsMask: row.permissionsMask });
    },
  };
}

/** The user an email, id or username#discriminator names (the server refuses anonymous accounts). */
async function lookUp(ctx: CommandContext, query: string): Promise<Pick<User, 'userId' | 'usernameFull'>> {
  try {
    return await ctx.app.api.userLookup(query.trim());
  } catch (e) {
    if (e instanceof ApiError && (e.code === 'userNotFound' || e.code === 'anonymousUser'))
      throw new CommandError(e.message, 'user');
    throw e;
  }
}

export async function membership(ctx: CommandContext, target: EntityRef, query: string): Promise<GroupUser> {
  const user = await lookUp(ctx, query);
  const page = await ctx.app.api.groupUsers.list({ groupId: target.id, userId: user.userId });
  const row = page.results[0];
  if (!row) throw new CommandError(`${user.usernameFull} is not a member of ${target.label}.`, 'user');
  return row;
}

/** The mask to give, refused before asking the server when it holds a bit the caller lacks. */
export function grantable(ctx: CommandContext, target: EntityRef, slugs: string[] | undefined): number {
  const mask = maskOfSlugs(slugs ?? []);
  const mine = ctx.permissions({ kind: 'group', id: target.id });
  const beyond = mine === null ? [] : bitsBeyond(mine, mask);
  if (beyond.length)
    throw new CommandError(
      `You cannot grant what you do not hold: ${beyond.map((k) => PERMISSION_LABELS[k]).join(', ')}.`,
      'permissions',
    );
  return mask;
}

/**
 * What the group may do on one of its servers (its own mask there, SPEC §6: members get their bits
 * AND it). The API checks the mask; its refusal lands beside the permissions.
 */
async function editServerMask(
  ctx: CommandContext,
  target: EntityRef,
  server: EntityRef,
  slugs: string[],
): Promise<CommandResult> {
  requireBits(ctx, target, Perm.ManageServices);
  const mask = maskOfSlugs(slugs);
  const page = await ctx.app.api.groupServices.list({ groupId: target.id, serviceId: server.id });
  const row = page.results[0];
  if (!row) throw new CommandError(`${server.label} is not in ${target.label}.`, 'server');
  try {
    await ctx.app.api.groupServices.patch(row.groupServiceId, { permissionsMask: mask });
  } catch (e) {
    if (e instanceof ApiError && e.code === 'validation') throw new CommandError(e.message, 'permissions');
    throw e;
  }
  return {
    message: `What ${target.label} may do on ${server.label}: ${bitsText(mask)}.`,
    undo: async () => {
      await ctx.app.api.groupServices.patch(row.groupServiceId, { permissionsMask: row.permissionsMask });
    },
  };
}

/** The settings a command changes, as the API names them; only what was given. */
function settingsPatch(a: {
  name?: string;
  color?: Parameters<typeof toApiColor>[0];
  chatForwarding?: boolean;
  invite?: string;
}): Partial<Group> {
  const patch: Partial<Group> = {};
  if (a.name !== undefined) patch.name = a.name.trim();
  if (a.color !== undefined) patch.color = toApiColor(a.color);
  if (a.chatForwarding !== undefined) patch.enableGroupChat = a.chatForwarding;
  if (a.invite !== undefined) patch.discordInviteCode = a.invite.trim() || null;
  return patch;
}

export const groupCommands = [
  defineCommand({
    id: 'group.list',
    title: 'Group list',
    group,
    aliases: ['groups'],
    run: async (_a, ctx) => {
      if (ctx.surface !== 'console') {
        ctx.app.navigate(pathOf('group'));
        return undefined;
      }
      const page = await ctx.app.api.groups.list({ pageSize: 250 });
      return {
        table: {
          columns: ['Name', 'Colour', 'Chat forwarding', 'Community', 'Your permissions', 'Id'],
          rows: page.results.map((g) => [
            g.name,
            fromApiColor(g.color),
            g.enableGroupChat ? 'on' : 'off',
            COMMUNITY_LINK_LABELS[communityLinkState(g)],
            g.permissions >= ALL_PERMISSIONS ? 'owner' : bitsText(g.permissions),
            g.groupId,
          ]),
        },
      };
    },
  }),
  defineCommand({
    id: 'group.open',
    title: 'Open group',
    group,
    aliases: ['group'],
    args: {
      group: ref('group').selectedOnly().describe('Group'),
      tab: oneOf(GROUP_TABS).describe('Tab').default('services'),
    },
    run: ({ group: g, tab }, ctx) => {
      ctx.app.navigate(pathOf('group', g.id, tab));
      return undefined;
    },
  }),
  defineCommand({
    id: 'group.create',
    title: 'Create group',
    group,
    aliases: ['mkgroup'],
    args: {
      name: nameArg(),
      color: colour().describe('Colour').default('none'),
      chatForwarding: bool()
        .describe('Chat forwarding', 'Relay players’ chat to the other servers')
        .default(false),
      invite: text().describe('Community invite code').optional(),
    },
    run: async (a, ctx) => {
      try {
        const r = await ctx.app.api.groups.create(settingsPatch(a));
        const g = r.created[0];
        if (ctx.surface !== 'console') ctx.app.navigate(pathOf('group', g.groupId));
        return {
          message: `Group ${g.name} created.`,
          undo: async () => {
            await ctx.app.api.groups.remove(g.groupId);
          },
        };
      } catch (e) {
        if (e instanceof ApiError && e.code === 'duplicate')
          throw new CommandError(`You already have a group named ${a.name.trim()}.`, 'name');
        throw e;
      }
    },
  }),
  defineCommand({
    id: 'group.editSettings',
    title: 'Edit group settings',
    description: 'Without a change, opens the settings tab',
    group,
    aliases: ['groupset'],
    permission: { group: Perm.EditGroup },
    args: {
      group: groupArg(),
      name: nameArg().optional(),
      color: colour().describe('Colour').optional(),
      chatForwarding: bool().describe('Chat forwarding').optional(),
      invite: text().describe('Community invite code', 'Blank clears it').optional(),
    },
    run: async ({ group: g, ...a }, ctx) => {
      const patch = settingsPatch(a);
      if (Object.keys(patch).length === 0) {
        if (ctx.surface !== 'console') {
          ctx.app.navigate(pathOf('group', g.id, 'settings'));
          return undefined;
        }
        const s = await ctx.app.api.groups.get(g.id);
        return {
          table: {
            columns: ['Setting', 'Value'],
            rows: [
              ['name', s.name],
              ['color', fromApiColor(s.color)],
              ['chatForwarding', s.enableGroupChat ? 'on' : 'off'],
              ['invite', s.discordInviteCode ?? ''],
              ['community', COMMUNITY_LINK_LABELS[communityLinkState(s)]],
            ],
          },
        };
      }
      const saved = await ctx.app.api.groups.patch(g.id, patch);
      return { message: `${saved.name} saved.` };
    },
  }),
  defineCommand({
    id: 'group.delete',
    title: 'Delete group',
    group,
    aliases: ['rmgroup'],
    danger: 'confirm',
    permission: { group: Perm.EditGroup },
    args: { group: groupArg() },
    run: async ({ group: g }, ctx) => {
      await ctx.app.api.groups.remove(g.id);
      if (ctx.route.startsWith(pathOf('group', g.id))) ctx.app.navigate(pathOf('group'));
      return { message: `${g.label} was deleted.` };
    },
  }),
  defineCommand({
    id: 'group.addServers',
    title: 'Add servers to group',
    group,
    aliases: ['addservers'],
    permission: { group: Perm.ManageServices, server: Perm.ShareServices },
    args: {
      group: groupArg(),
      servers: list(ref('server')).describe('Servers', 'You need share servers on each'),
    },
    run: ({ group: g, servers }, ctx) => addToGroup(ctx, 'server', g, servers),
  }),
  defineCommand({
    id: 'group.removeServer',
    title: 'Remove server from group',
    group,
    aliases: ['rmserverfromgroup'],
    danger: 'confirm',
    permission: { group: Perm.ManageServices, server: Perm.ShareServices },
    args: { group: groupArg(), server: ref('server').describe('Server') },
    run: ({ group: g, server }, ctx) => removeFromGroup(ctx, 'server', g, server),
  }),
  defineCommand({
    id: 'group.addBuckets',
    title: 'Add buckets to group',
    group,
    aliases: ['addbuckets'],
    permission: { group: Perm.ManageBuckets, bucket: Perm.ShareBuckets },
    args: {
      group: groupArg(),
      buckets: list(ref('bucket')).describe('Buckets', 'You need share buckets on each'),
    },
    run: ({ group: g, buckets }, ctx) => addToGroup(ctx, 'bucket', g, buckets),
  }),
  defineCommand({
    id: 'group.removeBucket',
    title: 'Remove bucket from group',
    group,
    aliases: ['rmbucketfromgroup'],
    danger: 'confirm',
    permission: { group: Perm.ManageBuckets, bucket: Perm.ShareBuckets },
    args: { group: groupArg(), bucket: ref('bucket').describe('Bucket') },
    run: ({ group: g, bucket }, ctx) => removeFromGroup(ctx, 'bucket', g, bucket),
  }),
  defineCommand({
    id: 'group.addUser',
    title: 'Add user to group',
    group,
    aliases: ['adduser'],
    permission: { group: Perm.ManageUsers },
    args: { group: groupArg(), user: userArg(), permissions: permsArg().optional() },
    run: async ({ group: g, user, permissions }, ctx) => {
      const mask = grantable(ctx, g, permissions);
      const found = await lookUp(ctx, user);
      try {
        await ctx.app.api.groupUsers.create({ groupId: g.id, userId: found.userId, permissions: mask });
      } catch (e) {
        if (e instanceof ApiError && e.code === 'duplicate')
          throw new CommandError(`${found.usernameFull} is already a member of ${g.label}.`, 'user');
        throw e;
      }
      return { message: `${found.usernameFull} joined ${g.label} with ${bitsText(mask)}.` };
    },
  }),
  defineCommand({
    id: 'group.editPermissions',
    title: 'Edit permissions',
    description: 'A member’s bits in the group, or with --server what the group may do on one of its servers',
    group,
    aliases: ['grant'],
    // Which group bit is needed depends on what is edited: checked in run. Editing what the group
    // may do on a server needs the same bits as sharing it there (SENTINEL-API §3.4).
    permission: { server: Perm.ShareServices },
    enabled: (ctx) => {
      const mine = ctx.permissions();
      return placeOf(ctx.route).kind !== 'group' ||
        mine === null ||
        hasAny(mine, Perm.ManageUsers | Perm.ManageServices)
        ? true
        : `${Msg.forbidden} (${PERMISSION_LABELS.ManageUsers} or ${PERMISSION_LABELS.ManageServices}).`;
    },
    args: {
      group: groupArg(),
      user: userArg().optional(),
      permissions: permsArg(),
      server: ref('server')
        .selectedOnly()
        .optional()
        .describe('Server', 'One of the group’s servers, instead of a member'),
    },
    run: async ({ group: g, user, permissions, server }, ctx) => {
      if (server && user?.trim())
        throw new CommandError('Name a member or one of the group’s servers, not both.', 'server');
      if (server) return editServerMask(ctx, g, server, permissions);
      if (!user?.trim()) throw new CommandError(GROUP_MESSAGES.lookupEmpty, 'user');
      requireBits(ctx, g, Perm.ManageUsers);
      const mask = grantable(ctx, g, permissions);
      const row = await membership(ctx, g, user);
      await ctx.app.api.groupUsers.patch(row.groupUserId, { permissions: mask });
      return {
        message: `${row.usernameFull} now has ${bitsText(mask)} in ${g.label}.`,
        undo: async () => {
          await ctx.app.api.groupUsers.patch(row.groupUserId, { permissions: row.permissions });
        },
      };
    },
  }),
  defineCommand({
    id: 'group.removeUser',
    title: 'Remove user from group',
    group,
    aliases: ['rmuser'],
    danger: 'confirm',
    permission: { group: Perm.ManageUsers },
    args: { group: groupArg(), user: userArg() },
    run: async ({ group: g, user }, ctx) => {
      const row = await membership(ctx, g, user);
      await ctx.app.api.groupUsers.remove(row.groupUserId);
      return {
        message: `${row.usernameFull} was removed from ${g.label}.`,
        undo: async () => {
          await ctx.app.api.groupUsers.create({
            groupId: g.id,
            userId: row.userId,
            permissions: row.permissions,
          });
        },
      };
    },
  }),
  defineCommand({
    id: 'group.linkDiscord',
    title: 'Link chat community',
    description: 'Makes a link code to give the community’s bot',
    group,
    aliases: ['linkcommunity'],
    permission: { group: Perm.EditGroup },
    args: { group: groupArg() },
    run: async ({ group: g }, ctx) => {
      const current = await ctx.app.api.groups.get(g.id);
      if (communityLinkState(current) === 'linked')
        throw new CommandError(
          `${current.name} is linked to ${current.discordGuildName ?? 'a community'}. Unlink it first.`,
        );
      const code = randomLinkCode();
      await ctx.app.api.groups.patch(g.id, { discordLinkCode: code });
      return {
        message: `Link code ${code}: give it to the community’s bot (/link ${code}) to link ${current.name}.`,
        sections: [{ heading: 'Link code', text: code }],
      };
    },
  }),
  defineCommand({
    id: 'group.unlinkDiscord',
    title: 'Unlink chat community',
    group,
    aliases: ['unlinkcommunity'],
    danger: 'confirm',
    permission: { group: Perm.EditGroup },
    args: { group: groupArg() },
    run: async ({ group: g }, ctx) => {
      await ctx.app.api.groups.patch(g.id, {
        discordLinkCode: null,
        discordGuildId: null,
        discordChatChannelId: null,
      });
      return { message: `${g.label} is no longer linked to a chat community.` };
    },
  }),
  defineCommand({
    id: 'group.attachScript',
    title: 'Attach script to group',
    group,
    aliases: ['attachgroupscript'],
    permission: { group: Perm.ManageScripts, script: Perm.ShareScripts },
    args: { group: groupArg(), script: ref('script').describe('Script') },
    run: async ({ group: g, script }, ctx) => {
      try {
        await ctx.app.api.groupScripts.create({
          groupId: g.id,
          scriptId: script.id,
          permissionsMask: SHARED_MASK,
          parameterValues: {},
        });
      } catch (e) {
        if (e instanceof ApiError && e.code === 'duplicate')
          throw new CommandError(`${script.label} is already attached to ${g.label}.`, 'script');
        throw e;
      }
      return { message: `${script.label} is attached to ${g.label}.` };
    },
  }),
  defineCommand({
    id: 'group.detachScript',
    title: 'Detach script from group',
    group,
    aliases: ['detachgroupscript'],
    danger: 'confirm',
    permission: { group: Perm.ManageScripts },
    args: { group: groupArg(), script: ref('script').describe('Script') },
    run: ({ group: g, script }, ctx) => detachScript(ctx, { ...g, kind: 'group' }, script),
  }),
];
