// Scripts attached to a server or a group (ACTIONS.md "Scripts": script.detach, script.setVersion):
// the server page's and the group page's Scripts tabs offer them on their rows. group.detachScript
// is the same detaching, named for the group.

import type { GroupScript, ServiceScript } from '../src/domain/api.ts';
import { Perm } from '../src/domain/permissions.ts';
import { type EntityRef, ref, text } from './args.ts';
import type { CommandContext, CommandResult } from './context.ts';
import { CommandError, defineCommand } from './registry.ts';

const group = 'Scripts';
type Holder = EntityRef & { kind: 'server' | 'group' };

/** The attachments of a script to a server or group, with how to change or remove each. */
async function attachments(ctx: CommandContext, holder: Holder, script: EntityRef) {
  if (holder.kind === 'group') {
    const api = ctx.app.api.groupScripts;
    const page = await api.list({ groupId: holder.id, scriptId: script.id });
    return page.results.map((a: GroupScript) => ({
      revisionId: a.revisionId,
      remove: () => api.remove(a.groupScriptId),
      pin: (revisionId: string | null) => api.patch(a.groupScriptId, { revisionId }),
    }));
  }
  const api = ctx.app.api.serviceScripts;
  const page = await api.list({ serviceId: holder.id, scriptId: script.id });
  return page.results.map((a: ServiceScript) => ({
    revisionId: a.revisionId,
    remove: () => api.remove(a.serviceScriptId),
    pin: (revisionId: string | null) => api.patch(a.serviceScriptId, { revisionId }),
  }));
}

async function attached(ctx: CommandContext, holder: Holder, script: EntityRef) {
  const found = await attachments(ctx, holder, script);
  if (found.length === 0)
    throw new CommandError(`${script.label} is not attached to ${holder.label}.`, 'script');
  return found;
}

/** Detaches every attachment of the script there (one per set of parameters). */
export async function detachScript(
  ctx: CommandContext,
  holder: Holder,
  script: EntityRef,
): Promise<CommandResult> {
  for (const a of await attached(ctx, holder, script)) await a.remove();
  return { message: `${script.label} was detached from ${holder.label}.` };
}

const LATEST = 'latest';

export const scriptAttachmentCommands = [
  defineCommand({
    id: 'script.detach',
    title: 'Detach script',
    group,
    aliases: ['detach'],
    danger: 'confirm',
    permission: { server: Perm.ManageScripts, group: Perm.ManageScripts },
    args: {
      script: ref('script').describe('Script'),
      target: ref('server', 'group').describe('Server or group', 'Blank: the one in view'),
    },
    run: ({ script, target }, ctx) => detachScript(ctx, target as Holder, script),
  }),
  defineCommand({
    id: 'script.setVersion',
    title: 'Choose script version',
    description: 'Lock an attachment to one approved version, or keep it updated',
    group,
    aliases: ['scriptversion'],
    permission: { server: Perm.ManageScripts, group: Perm.ManageScripts },
    args: {
      script: ref('script').describe('Script'),
      target: ref('server', 'group').describe('Server or group', 'Blank: the one in view'),
      version: text()
        .min(1, 'Choose a version, or latest to keep it updated.')
        .describe('Version', 'latest (keep updated), or a version id or its first characters'),
    },
    run: async ({ script, target, version }, ctx) => {
      const holder = target as Holder;
      const found = await attached(ctx, holder, script);
      let revisionId: string | null = null;
      if (version.trim().toLowerCase() !== LATEST) {
        const { revisions } = await ctx.app.api.scriptRevisions(script.id);
        const hits = revisions.filter((r) => r.revisionId.startsWith(version.trim().toLowerCase()));
        if (hits.length !== 1) {
          const known = revisions
            .slice(0, 5)
            .map(
              (r) =>
                `${r.revisionId.slice(0, 8)} (${new Date(r.dateCreated * 1000).toISOString().slice(0, 10)})`,
            )
            .join(', ');
          throw new CommandError(
            `${hits.length ? 'Several versions match' : 'No version matches'} "${version}". Versions: ${known || 'none'}.`,
            'version',
          );
        }
        revisionId = hits[0].revisionId;
      }
      const before = found.map((a) => a.revisionId);
      for (const a of found) await a.pin(revisionId);
      return {
        message: `${script.label} on ${holder.label} ${revisionId ? `is locked to version ${revisionId.slice(0, 8)}` : 'keeps updated'}.`,
        undo: async () => {
          for (const [i, a] of found.entries()) await a.pin(before[i]);
        },
      };
    },
  }),
];
