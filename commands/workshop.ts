// The Workshop (ACTIONS.md "Scripts and Workshop": workshop.list, workshop.preview, workshop.like,
// workshop.copy, workshop.addToServer; and nav.workshop): community scripts, best rated first,
// liked, copied under MIT-0 into the user's library, or attached as they are.

import type { CommunityScript } from '../src/domain/api.ts';
import { pathOf } from '../src/domain/resolver.ts';
import { copyName, likesOf, WorkshopMsg, workshopPath } from '../src/domain/workshop.ts';
import { ApiError } from '../src/web/api/http.ts';
import { type EntityRef, ref, text } from './args.ts';
import type { CommandContext } from './context.ts';
import { CommandError, defineCommand } from './registry.ts';
import { attachCommand } from './scriptAttachments.ts';

const group = 'Workshop';

const rating = (s: CommunityScript) =>
  s.communityRating === null ? 'No votes' : `${Math.round(s.communityRating * 100)}%`;

/** A Workshop row as the console prints it: the columns of the Workshop tab. */
export const workshopCells = (s: CommunityScript) => [
  s.name,
  s.preview,
  s.usernameFull,
  rating(s),
  String(likesOf(s)),
  s.liked ? 'Yes' : '',
];
export const WORKSHOP_COLUMNS = ['Name', 'Preview', 'Author', 'Rating', 'Likes', 'You like it'];

/** The script as the Workshop shows it; one that is not (or no longer) there says so. */
async function communityScript(ctx: CommandContext, script: EntityRef): Promise<CommunityScript> {
  try {
    return await ctx.app.api.communityScripts.get(script.id);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404)
      throw new CommandError(`${script.label} is not in the Workshop.`, 'script');
    throw e;
  }
}

async function setLiked(ctx: CommandContext, script: EntityRef, liked: boolean | null) {
  try {
    await ctx.app.api.scriptLike(script.id, liked);
  } catch (e) {
    if (e instanceof ApiError && e.code === 'badScriptId')
      throw new CommandError(WorkshopMsg.badScriptId, 'script');
    if (e instanceof ApiError && e.status === 404)
      throw new CommandError(`${script.label} is not in the Workshop.`, 'script');
    throw e;
  }
}

const scriptArg = () => ref('script').describe('Script', 'A Workshop script; blank: the one in view');

export const workshopCommands = [
  defineCommand({
    id: 'nav.workshop',
    title: 'Go to Workshop',
    group: 'Navigation',
    keys: ['g>w'],
    run: (_a, ctx) => {
      ctx.app.navigate(workshopPath());
      return undefined;
    },
  }),
  defineCommand({
    id: 'workshop.list',
    title: 'Workshop',
    description: 'Community scripts, best rated first',
    group,
    aliases: ['workshop'],
    args: { search: text().optional().describe('Search', 'Part of a name, preview or description').rest() },
    run: async ({ search }, ctx) => {
      if (ctx.surface !== 'console') {
        ctx.app.navigate(workshopPath());
        return undefined;
      }
      const page = await ctx.app.api.communityScripts.list({
        pageSize: 250,
        sortedColumn: 'communityRating',
        sortDirection: 'descending',
        ...(search?.trim() ? { search: search.trim() } : {}),
      });
      return {
        message: page.results.length ? undefined : 'No Workshop scripts match.',
        table: { columns: WORKSHOP_COLUMNS, rows: page.results.map(workshopCells) },
      };
    },
  }),
  defineCommand({
    id: 'workshop.preview',
    title: 'Preview Workshop script',
    group,
    aliases: ['preview'],
    args: { script: scriptArg() },
    run: ({ script }, ctx) => {
      ctx.app.navigate(workshopPath(script.id));
      return undefined;
    },
  }),
  defineCommand({
    id: 'workshop.like',
    title: 'Like',
    description: 'Like a Workshop script, or take the like back',
    group,
    aliases: ['like'],
    args: { script: scriptArg() },
    run: async ({ script }, ctx) => {
      const before = (await communityScript(ctx, script)).liked;
      const liked = before === true ? null : true;
      await setLiked(ctx, script, liked);
      return {
        message: liked ? `You like ${script.label}.` : `You no longer like ${script.label}.`,
        undo: () => setLiked(ctx, script, before),
      };
    },
  }),
  defineCommand({
    id: 'workshop.copy',
    title: 'Make a Copy',
    description: 'A copy of your own in your library, under the MIT-0 licence',
    group,
    aliases: ['copyscript'],
    args: { script: scriptArg() },
    run: async ({ script }, ctx) => {
      const s = await communityScript(ctx, script);
      const mine = await ctx.app.api.scripts.list({ pageSize: 250, name: s.name });
      const name = copyName(s.name, new Set(mine.results.map((m) => m.name)));
      const made = await ctx.app.api.scripts.create({
        name,
        preview: s.preview,
        description: s.description,
        parameters: s.parameters,
        commonJavascript: s.commonJavascript,
        events: s.events,
      });
      const copy = made.created[0];
      // The copy is the user's own now: the library shows it (the console only reports it).
      if (ctx.surface !== 'console') ctx.app.navigate(pathOf('script'));
      return {
        message: `${name} is in your library. ${WorkshopMsg.licence}`,
        undo: async () => {
          await ctx.app.api.scripts.remove(copy.scriptId);
        },
      };
    },
  }),
  attachCommand('workshop.addToServer', 'Add to Server', 'A Workshop script; blank: the one in view', [
    'addtoserver',
  ]),
];
