// Dinos: ACTIONS.md "Survivors, tribes, dinos". Beyond the shared actions of world.ts: revive a
// dead dino into a cryopod in a survivor's inventory, change its status, the planner link.
// dino.create (the Custom Dino Creator) is declared with the give commands.

import { DINO_STATUS_LABELS, DINO_STATUSES } from '../src/domain/enums.ts';
import { Msg } from '../src/domain/messages.ts';
import { Perm } from '../src/domain/permissions.ts';
import { dinoStatusOf } from '../src/domain/world.ts';
import { list, oneOf, ref } from './args.ts';
import type { CommandContext } from './context.ts';
import { eachOf, summary } from './outcome.ts';
import { CommandError, defineCommand } from './registry.ts';
import { recordOf, refsOf, worldCommands as w } from './world.ts';

const group = 'Dinos';
const DINOS = ['dino', 'dinos'] as const;

/** The Revive dialog: the survivors of the dino's server, with Name and Tribe (SPEC §2). */
async function chooseSurvivor(ctx: CommandContext, serviceId: string, dino: string) {
  const page = await ctx.app.api.characters.list({
    serviceId,
    sortedColumn: 'characterName',
    pageSize: 250,
  });
  return ctx.app.dialogs.choose({
    title: `Revive ${dino} into a survivor's inventory`,
    columns: ['Name', 'Tribe'],
    rows: page.results.map((c) => ({
      ref: { kind: 'survivor', id: c.characterId, label: c.characterName, server: c.serviceId },
      cells: [c.characterName, c.tribeName ?? ''],
    })),
    emptyText: 'No survivor on this server can receive it.',
  });
}

export const dinoCommands = [
  w.list('dino'),
  w.open('dino'),
  w.goTo('dino', ['self', 'tribe', 'server']),
  w.locate('dino'),
  defineCommand({
    id: 'dino.revive',
    title: 'Revive dino',
    description: "Into a new cryopod in a survivor's inventory, from the dino's cryopod backup",
    group,
    permission: Perm.ControlServices,
    args: {
      dino: ref('dino').describe('Dino', 'A dead dino with a cryopod backup'),
      survivor: ref('survivor')
        .alwaysAsked()
        .optional()
        .describe('Survivor', 'Whose inventory receives the cryopod; blank: choose from a list'),
    },
    run: async ({ dino, survivor }, ctx) => {
      const d = await recordOf(ctx, 'dino', dino.id);
      if (!d.dinoRestoreEligible) throw new CommandError(Msg.restoreNotAvailable, 'dino');
      const to =
        survivor ?? (ctx.surface === 'console' ? null : await chooseSurvivor(ctx, d.serviceId, dino.label));
      if (!to) {
        if (ctx.surface === 'console') throw new CommandError(Msg.reviveNoSelection, 'survivor');
        return { message: 'Cancelled.' };
      }
      const receipt = await ctx.app.api.dinoRestore(dino.id, to.id);
      const r = await ctx.app.game.result(receipt.requestId);
      if ('ok' in r && !r.ok) throw new CommandError(r.error ?? 'The game could not revive it.');
      return { message: `${dino.label} was revived into a cryopod in ${to.label}'s inventory.` };
    },
  }),
  w.teleport('dino'),
  defineCommand({
    id: 'dino.setStatus',
    title: 'Change dino status',
    group,
    permission: Perm.ControlServices,
    args: {
      dinos: list(ref('dino')).describe('Dinos', 'Blank: the marked dinos or the one in view').optional(),
      status: oneOf(DINO_STATUSES.map((s) => DINO_STATUS_LABELS[s])).describe('Status'),
    },
    run: async ({ dinos, status }, ctx) => {
      const value = dinoStatusOf(status);
      if (!value)
        throw new CommandError(`Status must be one of ${Object.values(DINO_STATUS_LABELS).join(', ')}.`);
      const o = await eachOf(
        refsOf('dino', dinos),
        (d) => d.label,
        (d) => ctx.app.api.dinos.patch(d.id, { dinoStatus: value }),
      );
      return summary(`Set ${status} on`, DINOS, o);
    },
  }),
  w.delete('dino'),
  w.runScript('dino'),
  defineCommand({
    id: 'dino.openPlanner',
    title: 'Open the config planner',
    description: "The provider's tool for planning server configuration",
    group,
    run: (_a, ctx) => {
      ctx.app.openExternal(ctx.app.links.planner);
      return { message: 'The planner opened in a new tab.' };
    },
  }),
];
