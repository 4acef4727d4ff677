// Bans (ACTIONS.md "Players, sessions, bans"): create on servers and/or groups, edit, remove with
// undo, import a ban list, go to the banned player. Many players × many targets run as one
// command whose outcome names every failure.

import { BanMsg, expiryProblem, parseBanList, parseExpiry } from '../src/domain/bans.ts';
import { readLink } from '../src/domain/importer.ts';
import { Msg } from '../src/domain/messages.ts';
import { Perm } from '../src/domain/permissions.ts';
import type { Ban, GroupBan, ServiceBan } from '../src/domain/players.ts';
import { pathOf } from '../src/domain/resolver.ts';
import { asList, type EntityRef, list, ownerOf, ref, text } from './args.ts';
import type { CommandContext, CommandResult } from './context.ts';
import { onePlayer, playersOf } from './players.ts';
import { CommandError, defineCommand } from './registry.ts';

const group = 'Players';
/** A server ban needs control servers on the server; a group ban manage bans on the group (§7). */
const BAN_PERMISSION = { server: Perm.ControlServices, group: Perm.ManageBans };
type Target = EntityRef & { kind: 'server' | 'group' };

/** The ban class of a target (§3.14): its API calls, owner property and the id of one of its bans. */
const classOf = (ctx: CommandContext, t: Target) =>
  t.kind === 'server'
    ? {
        api: ctx.app.api.serviceBans,
        owner: ownerOf(t),
        idOf: (b: Ban) => (b as ServiceBan).serviceBanId,
      }
    : { api: ctx.app.api.groupBans, owner: ownerOf(t), idOf: (b: Ban) => (b as GroupBan).groupBanId };

/** The servers and groups given or in view (the registry fills them); at least one is needed. */
function targetsOf(given: EntityRef | EntityRef[] | undefined): Target[] {
  const t = asList(given) as Target[];
  if (t.length === 0) throw new CommandError(Msg.targetsRequired, 'targets');
  return t;
}

/** The player's ban on a server or group, if there is one. */
async function findBan(ctx: CommandContext, player: EntityRef, target: Target): Promise<Ban | null> {
  const k = classOf(ctx, target);
  const page = await k.api.list({ ...k.owner, playerId: player.id });
  return page.results[0] ?? null;
}

interface Outcome<T> {
  done: T[];
  failed: string[];
}

/** Runs `act` for every player on every target, collecting what worked and why the rest failed. */
async function eachPair<T>(
  players: EntityRef[],
  targets: Target[],
  act: (p: EntityRef, t: Target) => Promise<T>,
): Promise<Outcome<T>> {
  const out: Outcome<T> = { done: [], failed: [] };
  for (const p of players)
    for (const t of targets) {
      try {
        out.done.push(await act(p, t));
      } catch (e) {
        out.failed.push(`${p.label} on ${t.label}: ${(e as Error).message}`);
      }
    }
  return out;
}

/** One line for everything done; with failures, an error naming each, so nothing is silently lost. */
function summary<T>(verb: string, o: Outcome<T>, extra: Partial<CommandResult> = {}): CommandResult {
  const total = o.done.length + o.failed.length;
  if (o.failed.length === 0)
    return { message: `${verb} ${total === 1 ? '1 ban' : `${total} bans`}.`, ...extra };
  const head = `${verb} ${o.done.length} of ${total}; ${o.failed.length} failed: `;
  if (o.done.length === 0) throw new CommandError(head + o.failed.join('; '));
  return { message: head + o.failed.join('; '), ...extra };
}

const playersArg = () =>
  list(ref('player'))
    .describe('Players', 'Names, ids or EOS ids; blank: the marked players or the one in view')
    .optional();
const targetsArg = () =>
  list(ref('server', 'group')).describe('Servers or groups', 'Blank: the server or group in view').optional();
const expiresArg = (help: string) =>
  text()
    .describe('Expires', help)
    // Blank (undefined from the palette) means permanent, or "keep" when editing.
    .check((v) => (v ? expiryProblem(v, Date.now() / 1000) : null))
    .optional();

function expiryOf(text: string | undefined): number | null {
  try {
    return parseExpiry(text ?? '', Date.now() / 1000);
  } catch (e) {
    throw new CommandError((e as Error).message, 'expires');
  }
}

export const banCommands = [
  defineCommand({
    id: 'ban.create',
    title: 'Ban player',
    group,
    aliases: ['ban'],
    permission: BAN_PERMISSION,
    // In a list of players: ban the marked ones (or the active one).
    keys: ['b'],
    scope: 'list',
    args: {
      player: playersArg(),
      expires: expiresArg('7d, 12h, a date like 2030-01-31, or blank (perm) for permanent'),
      comments: text()
        .min(1, BanMsg.commentsRequired)
        .describe('Comments', 'Why the player is banned')
        .rest(),
      targets: targetsArg(),
    },
    run: async (a, ctx) => {
      const expiration = expiryOf(a.expires);
      const players = playersOf(a.player);
      const targets = targetsOf(a.targets);
      const o = await eachPair<unknown>(players, targets, (p, t) => {
        const k = classOf(ctx, t);
        return k.api.create({ ...k.owner, playerId: p.id, comments: a.comments, expiration });
      });
      return summary('Created', o);
    },
  }),
  defineCommand({
    id: 'ban.edit',
    title: 'Edit ban',
    group,
    permission: BAN_PERMISSION,
    // Comments are required: a ban always says why, so an edit states it (and the palette asks for
    // it when a row's menu hands the command over with only the player and the server or group).
    args: {
      player: ref('player').describe('Player').optional(),
      expires: expiresArg('New expiry: 7d, a date, or perm for permanent; blank keeps it'),
      comments: text()
        .min(1, BanMsg.commentsRequired)
        .describe('Comments', 'Why the player is banned')
        .rest(),
      target: ref('server', 'group').describe('Server or group', 'Blank: the one in view').optional(),
    },
    run: async (a, ctx) => {
      const player = onePlayer(a.player);
      const [target] = targetsOf(a.target);
      const patch: Record<string, unknown> = { comments: a.comments.trim() };
      if (a.expires?.trim()) patch.expiration = expiryOf(a.expires);
      const ban = await findBan(ctx, player, target);
      if (!ban) throw new CommandError(`${player.label} is not banned on ${target.label}.`);
      const k = classOf(ctx, target);
      await k.api.patch(k.idOf(ban), patch);
      return { message: `Ban of ${ban.playerName} updated.` };
    },
  }),
  defineCommand({
    id: 'ban.remove',
    title: 'Remove ban',
    group,
    aliases: ['unban'],
    permission: BAN_PERMISSION,
    danger: 'confirm',
    // In a list of bans: remove the marked ones (or the active one).
    keys: ['delete'],
    scope: 'list',
    args: { player: playersArg(), targets: targetsArg() },
    run: async (a, ctx) => {
      const players = playersOf(a.player);
      const targets = targetsOf(a.targets);
      const o = await eachPair(players, targets, async (p, t) => {
        const ban = await findBan(ctx, p, t);
        if (!ban) throw new Error('not banned there, so not removed');
        const k = classOf(ctx, t);
        await k.api.remove(k.idOf(ban));
        return { target: t, ban };
      });
      // The API has no undelete; undo re-creates each removed ban with its player, comments and expiry.
      const undo = async () => {
        for (const { target, ban } of o.done) {
          const k = classOf(ctx, target);
          await k.api.create({
            ...k.owner,
            playerId: ban.playerId,
            comments: ban.comments,
            expiration: ban.expiration,
          });
        }
      };
      return summary('Removed', o, o.done.length ? { undo } : {});
    },
  }),
  defineCommand({
    id: 'ban.import',
    title: 'Import bans',
    group,
    permission: BAN_PERMISSION,
    args: {
      target: ref('server', 'group').describe('Server or group', 'Blank: the one in view').optional(),
      source: text()
        .min(1, BanMsg.importEmpty)
        .describe('Ban list or link', 'Lines of EOSID[,name][,expiry], or an https:// link to such a list')
        .rest(),
    },
    run: async (a, ctx) => {
      const [target] = targetsOf(a.target);
      const source = a.source.trim();
      const body = /^https?:\/\/\S+$/i.test(source) ? await readLink(source) : source;
      const { bans, problems } = parseBanList(body, Date.now() / 1000);
      const skipped = problems.map((p) => `line ${p.line} (${p.text}): ${p.reason}`);
      if (bans.length === 0) throw new CommandError([BanMsg.noValidLines, ...skipped].join(' '), 'source');
      await ctx.app.api.importBans(classOf(ctx, target).owner, body);
      const head = `Imported ${bans.length} of ${bans.length + problems.length} lines.`;
      return {
        message: skipped.length ? `${head} Skipped ${skipped.join('; ')}` : head,
        table: skipped.length
          ? { columns: ['Line', 'Text', 'Why'], rows: problems.map((p) => [p.line, p.text, p.reason]) }
          : undefined,
      };
    },
  }),
  defineCommand({
    id: 'ban.goToPlayer',
    title: 'Go to banned player',
    group,
    args: { player: ref('player').describe('Player').optional() },
    run: ({ player }, ctx) => {
      ctx.app.navigate(pathOf('player', onePlayer(player).id));
      return undefined;
    },
  }),
];
