// The script library and the script runner (ACTIONS.md "Scripts and Workshop": script.list,
// script.open, script.run, script.share, script.unshare). Attaching is in scriptAttachments.ts,
// the Workshop in workshop.ts; writing scripts is the editor's (scriptEditing.ts).

import type { Script, ScriptMenuItem } from '../src/domain/api.ts';
import { Perm } from '../src/domain/permissions.ts';
import { pathOf } from '../src/domain/resolver.ts';
import {
  contextsOf,
  languagesOf,
  SCRIPT_STATUS,
  scriptOrigin,
  scriptStatus,
  sharingOf,
  WorkshopMsg,
} from '../src/domain/workshop.ts';
import { ApiError } from '../src/web/api/http.ts';
import { type EntityRef, ref, text } from './args.ts';
import type { CommandContext, CommandResult } from './context.ts';
import { eachOf, summary } from './outcome.ts';
import { CommandError, defineCommand } from './registry.ts';
import { typedValues } from './scriptAttachments.ts';
import { menuItems, runMenuItem, type ScriptTarget } from './servers.ts';
import { KINDS, recordOf, type WorldKind } from './world.ts';

const group = 'Scripts';

const day = (epoch: number) => new Date(epoch * 1000).toISOString().slice(0, 10);

/** A library row as the console prints it: the columns of the Library tab. */
export const libraryCells = (s: Script, userId: string | undefined) => [
  s.name,
  languagesOf(s),
  contextsOf(s),
  (() => {
    const st = scriptStatus(s);
    return st ? SCRIPT_STATUS[st].label : 'Approved';
  })(),
  scriptOrigin(s, userId),
  sharingOf(s),
  day(s.dateModified),
];
export const LIBRARY_COLUMNS = ['Name', 'Language', 'Context', 'Status', 'Origin', 'Workshop', 'Updated'];

/** Where a script runs for the runner: one target per server (a group's: each of its servers). */
async function targetsOf(ctx: CommandContext, target: EntityRef): Promise<ScriptTarget[]> {
  if (target.kind === 'server') {
    // A page opened at its address can be in view before the console's index knows its name.
    const label =
      target.label !== target.id ? target.label : (await ctx.app.api.services.get(target.id)).displayName;
    return [{ serviceId: target.id, label }];
  }
  if (target.kind === 'group') {
    const page = await ctx.app.api.groupServices.list({ groupId: target.id, pageSize: 250 });
    return page.results.map((s) => ({ serviceId: s.serviceId, label: s.serviceDisplayName }));
  }
  const kind = target.kind as WorldKind;
  const record = await recordOf(ctx, kind, target.id);
  const spec = KINDS[kind];
  return [
    {
      serviceId: record.serviceId,
      label: target.label,
      of: { context: spec.scriptContext, ids: { [spec.idProp]: target.id } },
    },
  ];
}

/** The runner menu: each menu item once, with the servers it is attached on. */
async function runnerMenu(ctx: CommandContext, targets: readonly ScriptTarget[]) {
  const menu = new Map<string, { item: ScriptMenuItem; on: ScriptTarget[] }>();
  for (const t of targets)
    for (const item of await menuItems(ctx, t)) {
      const entry = menu.get(item.scriptEventId) ?? { item, on: [] };
      entry.on.push(t);
      menu.set(item.scriptEventId, entry);
    }
  return [...menu.values()];
}

const argumentsText = (item: ScriptMenuItem) =>
  item.arguments.map((a) => `${a.name}${a.required ? '' : '?'}: ${a.type}`).join(', ') || 'none';

/** SPEC §8 "Share and unshare": badScriptId, unknownRoute, scriptNotFound, scriptRejected. */
function sharingError(e: unknown): unknown {
  if (!(e instanceof ApiError)) return e;
  const known: Record<string, string> = {
    badScriptId: WorkshopMsg.badScriptId,
    scriptNotFound: WorkshopMsg.scriptNotFound,
    scriptRejected: WorkshopMsg.scriptRejected,
    unknownRoute: WorkshopMsg.unknownRoute,
    // The API answers a route it does not have with a bare notFound.
    notFound: WorkshopMsg.unknownRoute,
  };
  return known[e.code] ? new CommandError(known[e.code], 'script') : e;
}

/** Adds the script to the Workshop or removes it; each undoes the other. */
async function setShared(ctx: CommandContext, script: EntityRef, shared: boolean): Promise<CommandResult> {
  try {
    await ctx.app.api.scriptPublish(script.id, shared);
  } catch (e) {
    throw sharingError(e);
  }
  return {
    message: shared
      ? `${script.label} is in the Workshop. ${WorkshopMsg.licence}`
      : `${script.label} was removed from the Workshop; servers using it keep it.`,
    undo: async () => {
      await ctx.app.api.scriptPublish(script.id, !shared);
    },
  };
}

export const scriptCommands = [
  defineCommand({
    id: 'script.list',
    title: 'Script library',
    group,
    aliases: ['scripts'],
    run: async (_a, ctx) => {
      if (ctx.surface !== 'console') {
        ctx.app.navigate(pathOf('script'));
        return undefined;
      }
      const page = await ctx.app.api.scripts.list({ pageSize: 250, sortedColumn: 'name' });
      return {
        message: page.results.length ? undefined : 'No scripts yet.',
        table: {
          columns: LIBRARY_COLUMNS,
          rows: page.results.map((s) => libraryCells(s, ctx.user?.userId)),
        },
      };
    },
  }),
  defineCommand({
    id: 'script.open',
    title: 'Open script',
    group,
    aliases: ['openscript'],
    args: { script: ref('script').selectedOnly().describe('Script') },
    run: ({ script }, ctx) => {
      ctx.app.navigate(pathOf('script', script.id));
      return undefined;
    },
  }),
  defineCommand({
    id: 'script.run',
    title: 'Run Script',
    description: 'The script runner menu: a menu-item script attached to the server or group, then Run',
    group,
    aliases: ['runscript'],
    permission: Perm.ControlServices,
    args: {
      target: ref('server', 'group', 'survivor', 'tribe', 'dino').describe(
        'Run on',
        'Blank: what is in view',
      ),
      script: text().optional().describe('Script', 'Its menu text; blank: choose from the menu').rest(),
      arguments: text()
        .optional()
        .describe('Arguments', "The script's arguments as name=value, name=value; blank: their defaults"),
    },
    run: async ({ target: given, script, arguments: typed }, ctx) => {
      const targets = await targetsOf(ctx, given);
      const target = given.kind === 'server' ? { ...given, label: targets[0].label } : given;
      const menu = await runnerMenu(ctx, targets);
      let chosen: (typeof menu)[number] | undefined;
      if (script?.trim()) {
        chosen = menu.find((m) => m.item.menuText.toLowerCase() === script.trim().toLowerCase());
        if (!chosen) {
          const known = menu.map((m) => m.item.menuText).join(', ');
          throw new CommandError(
            `No script "${script}" for ${target.label}. ${known ? `Scripts: ${known}.` : WorkshopMsg.runnerNotice}`,
            'script',
          );
        }
      } else if (ctx.surface === 'console') {
        return {
          message: `${WorkshopMsg.runnerNotice} Run one with runscript "${target.label}" <menu text>.`,
          table: {
            columns: ['Script', 'Arguments'],
            rows: menu.map((m) => [m.item.menuText, argumentsText(m.item)]),
          },
        };
      } else {
        const picked = await ctx.app.dialogs.choose({
          title: `Run Script on ${target.label}`,
          columns: ['Script', 'Arguments'],
          rows: menu.map((m) => ({
            ref: { kind: 'script', id: m.item.scriptEventId, label: m.item.menuText },
            cells: [m.item.menuText, argumentsText(m.item)],
          })),
          emptyText: `No menu-item scripts for ${target.label}.`,
          notice: WorkshopMsg.runnerNotice,
        });
        if (!picked) return { message: 'Cancelled.' };
        chosen = menu.find((m) => m.item.scriptEventId === picked.id);
      }
      if (!chosen) return { message: 'Cancelled.' };
      const item = chosen.item;
      const values = typed?.trim() ? typedValues(typed, item.arguments, 'argument') : {};
      const missing = item.arguments.filter((a) => a.required && !(a.name in values));
      if (missing.length > 0) {
        const needed = `${item.menuText} needs ${missing.map((a) => `${a.name} (${a.type})`).join(', ')}.`;
        if (ctx.surface === 'console' || ctx.surface === 'form')
          throw new CommandError(`${WorkshopMsg.runMissingKeys} ${needed}`, 'arguments');
        // Chosen from the menu: the same command as a form, to give them.
        ctx.app.dialogs.form('script.run', { target, script: item.menuText, arguments: typed });
        return { message: needed };
      }
      if (chosen.on.length === 1) {
        await runMenuItem(ctx, item, chosen.on[0], values);
        return { message: `${item.menuText} is running on ${target.label}.` };
      }
      // A group's: on each of its servers that has it, each failure named.
      const o = await eachOf(
        chosen.on,
        (t) => t.label,
        (t) => runMenuItem(ctx, item, t),
      );
      return summary(`${item.menuText} is running on`, ['server', 'servers'], o);
    },
  }),
  defineCommand({
    id: 'script.share',
    title: 'Add to Workshop',
    description: 'Share the script with everyone (MIT-0); a rejected script cannot be shared',
    group,
    aliases: ['share'],
    permission: { script: Perm.ShareScripts },
    args: { script: ref('script').describe('Script') },
    run: ({ script }, ctx) => setShared(ctx, script, true),
  }),
  defineCommand({
    id: 'script.unshare',
    title: 'Remove from Workshop',
    description: 'Servers already using it keep it; attaching it then needs share permission',
    group,
    aliases: ['unshare'],
    permission: { script: Perm.ShareScripts },
    args: { script: ref('script').describe('Script') },
    run: ({ script }, ctx) => setShared(ctx, script, false),
  }),
];
