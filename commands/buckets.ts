// Buckets (ACTIONS.md "Buckets"): list and open buckets, create, rename, delete (with its values)
// and copy their ids; add, edit and delete their values, global or per player. Every action for
// the palette, the console pane (`buckets`, `mkbucket`, `setvalue`, …), the bucket list's and
// Data tab's toolbars and the rows' menus. Writing needs edit buckets on the bucket (SPEC §6).

import type { BucketValue } from '../src/domain/api.ts';
import { BUCKET_MESSAGES, BUCKET_TABS, valueScope } from '../src/domain/buckets.ts';
import { UUID } from '../src/domain/constants.ts';
import { bitsText } from '../src/domain/groups.ts';
import { Msg } from '../src/domain/messages.ts';
import { ALL_PERMISSIONS, Perm } from '../src/domain/permissions.ts';
import { pathOf } from '../src/domain/resolver.ts';
import { BUCKET_NAME_MAX } from '../src/domain/validate.ts';
import { ApiError } from '../src/web/api/http.ts';
import { type EntityRef, oneOf, ref, text } from './args.ts';
import type { CommandContext } from './context.ts';
import { counted } from './outcome.ts';
import { CommandError, defineCommand } from './registry.ts';

const group = 'Buckets';
const EDIT = { bucket: Perm.EditBuckets };
const VALUES = ['value', 'values'] as const;

const bucketArg = () => ref('bucket').describe('Bucket', 'By name or id; blank: the bucket in view');
const nameArg = () =>
  text()
    .min(1, BUCKET_MESSAGES.nameRequired)
    .max(BUCKET_NAME_MAX)
    .describe('Name', 'Unique among your buckets');
const keyArg = () => text().min(1, Msg.bucketKeyRequired).describe('Key', 'Not case-sensitive');
const valueArg = () => text().min(1, Msg.bucketValueRequired).describe('Value').rest();
/** A product player id (SPEC §5): the value is that player's own; blank, a global value. */
const playerArg = () =>
  text()
    .describe('Player id', "Blank: a global value; else the player's id")
    .check((v) => (v && !UUID.test(v) ? Msg.bucketPlayerBad : null))
    .optional();

/** A refusal of the API in the words of SPEC §8 "Buckets", on the field it is about. */
function bucketFailure(e: unknown, name?: string): unknown {
  if (!(e instanceof ApiError)) return e;
  if (e.code === 'duplicate' && name !== undefined)
    return new CommandError(BUCKET_MESSAGES.duplicateName(name), 'name');
  if (e.code === 'emptyKey') return new CommandError(e.message, 'key');
  if (e.code === 'emptyValue') return new CommandError(e.message, 'value');
  if (e.code === 'badPlayer') return new CommandError(e.message, 'player');
  if (e.code === 'notFound') return new CommandError(BUCKET_MESSAGES.playerNotFound, 'player');
  if (e.code === 'emptyName' || e.code === 'invalidName') return new CommandError(e.message, 'name');
  return e;
}

async function attempt<T>(work: () => Promise<T>, name?: string): Promise<T> {
  try {
    return await work();
  } catch (e) {
    throw bucketFailure(e, name);
  }
}

const playerOf = (player: string | undefined) => (player ? player.toLowerCase() : null);

/** The stored value of a key (global, or the player's) in a bucket, if there is one. */
async function findValue(
  ctx: CommandContext,
  bucket: EntityRef,
  key: string,
  player: string | null,
): Promise<BucketValue | null> {
  // The key filter finds keys containing it: the exact key (in any case) is picked from them, page
  // after page (sorted by key, "a" may follow "0a", "1a", …).
  const exact = key.trim().toLowerCase();
  for (let page = 1; ; page++) {
    const found = await ctx.app.api.bucketValues.list({
      bucketId: bucket.id,
      key: key.trim(),
      ...(player ? { playerId: player } : {}),
      page,
      pageSize: 250,
    });
    const hit = found.results.find((v) => v.key.toLowerCase() === exact && (v.playerId ?? null) === player);
    if (hit) return hit;
    if (page >= found.pages || found.results.length < 250) return null;
  }
}

const described = (v: Pick<BucketValue, 'key' | 'playerId' | 'playerName'>) =>
  `${v.key} (${valueScope(v.playerName, v.playerId)})`;

async function existingValue(ctx: CommandContext, bucket: EntityRef, key: string, player: string | null) {
  const found = await findValue(ctx, bucket, key, player);
  if (!found)
    throw new CommandError(
      BUCKET_MESSAGES.valueNotFound(
        described({ key: key.trim(), playerId: player, playerName: null }),
        bucket.label,
      ),
      'key',
    );
  return found;
}

/** Sets a value as it was (or as given): the API's create is an upsert on bucket, player and key. */
const putValue = (ctx: CommandContext, v: Pick<BucketValue, 'bucketId' | 'key' | 'playerId' | 'value'>) =>
  ctx.app.api.bucketValues.create({ bucketId: v.bucketId, key: v.key, value: v.value, playerId: v.playerId });

export const bucketCommands = [
  defineCommand({
    id: 'bucket.list',
    title: 'Bucket list',
    group,
    aliases: ['buckets'],
    run: async (_a, ctx) => {
      if (ctx.surface !== 'console') {
        ctx.app.navigate(pathOf('bucket'));
        return undefined;
      }
      const page = await ctx.app.api.buckets.list({ pageSize: 250 });
      return {
        table: {
          columns: ['Name', 'Owner', 'Your permissions', 'Id'],
          rows: page.results.map((b) => [
            b.name,
            b.usernameFull,
            b.permissions >= ALL_PERMISSIONS ? 'owner' : bitsText(b.permissions),
            b.bucketId,
          ]),
        },
      };
    },
  }),
  defineCommand({
    id: 'bucket.open',
    title: 'Go to bucket',
    group,
    aliases: ['bucket'],
    args: {
      bucket: ref('bucket').selectedOnly().describe('Bucket'),
      tab: oneOf(BUCKET_TABS).describe('Tab').default('data'),
    },
    run: ({ bucket, tab }, ctx) => {
      ctx.app.navigate(pathOf('bucket', bucket.id, tab));
      return undefined;
    },
  }),
  defineCommand({
    id: 'bucket.create',
    title: 'Create bucket',
    group,
    aliases: ['mkbucket'],
    args: { name: nameArg().rest() },
    run: async ({ name }, ctx) => {
      const made = await attempt(() => ctx.app.api.buckets.create({ name: name.trim() }), name.trim());
      const b = made.created[0];
      if (ctx.surface !== 'console') ctx.app.navigate(pathOf('bucket', b.bucketId));
      return {
        message: `Bucket ${b.name} created.`,
        undo: async () => {
          await ctx.app.api.buckets.remove(b.bucketId);
        },
      };
    },
  }),
  defineCommand({
    id: 'bucket.rename',
    title: 'Rename bucket',
    group,
    aliases: ['renamebucket'],
    permission: EDIT,
    args: { bucket: bucketArg(), name: nameArg().rest() },
    run: async ({ bucket, name }, ctx) => {
      const before = await ctx.app.api.buckets.get(bucket.id);
      const saved = await attempt(
        () => ctx.app.api.buckets.patch(bucket.id, { name: name.trim() }),
        name.trim(),
      );
      return {
        message: `${before.name} is now ${saved.name}.`,
        undo: async () => {
          await ctx.app.api.buckets.patch(bucket.id, { name: before.name });
        },
      };
    },
  }),
  defineCommand({
    id: 'bucket.delete',
    title: 'Delete bucket',
    description: 'Deletes the bucket and every value in it',
    group,
    aliases: ['rmbucket'],
    permission: EDIT,
    args: { bucket: bucketArg() },
    run: async ({ bucket }, ctx) => {
      // The confirmation says what goes with it (SPEC §4: deleting a bucket deletes its values).
      const held = await ctx.app.api.bucketValues.list({ bucketId: bucket.id, pageSize: 1 });
      const count = `${held.totalIsEstimate ? 'about ' : ''}${counted(held.totalResults, VALUES)}`;
      if (
        !(await ctx.app.dialogs.confirm(
          `Delete bucket ${bucket.label} and its ${count}? This cannot be undone.`,
        ))
      )
        return { message: 'Cancelled.' };
      await ctx.app.api.buckets.remove(bucket.id);
      if (ctx.route.startsWith(pathOf('bucket', bucket.id))) ctx.app.navigate(pathOf('bucket'));
      return { message: `${bucket.label} was deleted with its ${count}.` };
    },
  }),
  defineCommand({
    id: 'bucket.copyId',
    title: 'Copy bucket id',
    group,
    args: { bucket: bucketArg() },
    run: async ({ bucket }, ctx) => {
      await ctx.app.clipboard.copy(bucket.id);
      return { message: `The id of ${bucket.label} was copied.` };
    },
  }),
  defineCommand({
    id: 'bucketValue.add',
    title: 'Add value',
    description: 'A global value, or one player’s',
    group,
    aliases: ['setvalue'],
    form: true,
    permission: EDIT,
    args: { bucket: bucketArg(), key: keyArg(), value: valueArg(), player: playerArg() },
    run: async ({ bucket, key, value, player }, ctx) => {
      const playerId = playerOf(player);
      const before = await findValue(ctx, bucket, key, playerId);
      const r = await attempt(() => putValue(ctx, { bucketId: bucket.id, key, value, playerId }));
      const saved = r.created[0] ?? r.updated[0];
      return {
        message: `${described(saved)} ${before ? 'changed' : 'added'} in ${bucket.label}.`,
        undo: async () => {
          if (before) await putValue(ctx, before);
          else await ctx.app.api.bucketValues.remove(saved.bucketValueId);
        },
      };
    },
  }),
  defineCommand({
    id: 'bucketValue.edit',
    title: 'Edit value',
    group,
    aliases: ['editvalue'],
    form: true,
    permission: EDIT,
    args: { bucket: bucketArg(), key: keyArg(), value: valueArg(), player: playerArg() },
    run: async ({ bucket, key, value, player }, ctx) => {
      const before = await existingValue(ctx, bucket, key, playerOf(player));
      const saved = await attempt(() => ctx.app.api.bucketValues.patch(before.bucketValueId, { value }));
      return {
        message: `${described(saved)} changed in ${bucket.label}.`,
        undo: async () => {
          await ctx.app.api.bucketValues.patch(before.bucketValueId, { value: before.value });
        },
      };
    },
  }),
  defineCommand({
    id: 'bucketValue.delete',
    title: 'Delete value',
    group,
    aliases: ['rmvalue'],
    danger: 'confirm',
    permission: EDIT,
    args: { bucket: bucketArg(), key: keyArg(), player: playerArg() },
    run: async ({ bucket, key, player }, ctx) => {
      const before = await existingValue(ctx, bucket, key, playerOf(player));
      await ctx.app.api.bucketValues.remove(before.bucketValueId);
      return {
        message: `${described(before)} deleted from ${bucket.label}.`,
        undo: async () => {
          await putValue(ctx, before);
        },
      };
    },
  }),
];
