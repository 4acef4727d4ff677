// Scripts attached to a server or a group (ACTIONS.md "Scripts": script.attach, script.detach,
// script.setVersion, script.updateToLatest): the server page's and the group page's Scripts tabs
// offer them on their rows, the library and the Workshop attach. group.detachScript is the same
// detaching, named for the group; workshop.addToServer the same attaching, named for the Workshop.

import type {
  GroupScript,
  ScriptLink,
  ScriptParameter,
  ScriptRevision,
  ServiceScript,
} from '../src/domain/api.ts';
import { ALL_PERMISSIONS, definedBits, Perm } from '../src/domain/permissions.ts';
import { revisionChanges } from '../src/domain/scripts/revisionChanges.ts';
import {
  latestApproved,
  UPDATE_MODE_HELP,
  UPDATE_MODES,
  type UpdateMode,
  WorkshopMsg,
} from '../src/domain/workshop.ts';
import { ApiError } from '../src/web/api/http.ts';
import { type EntityRef, oneOf, ref, splitList, text } from './args.ts';
import type { CommandContext, CommandResult } from './context.ts';
import { CommandError, defineCommand } from './registry.ts';

const group = 'Scripts';
type Holder = EntityRef & { kind: 'server' | 'group' };

/** The versions an attachment holds: pinned, accepted, and one waiting for its accept. */
const versionsHeld = (a: ScriptLink) => ({
  revisionId: a.revisionId,
  acceptedRevisionId: a.acceptedRevisionId,
  pendingRevisionId: a.pendingRevisionId,
  hasWebhook: a.hasWebhook,
});

/** The attachments of a script to a server or group, with how to change or remove each. */
async function attachments(ctx: CommandContext, holder: Holder, script: EntityRef) {
  if (holder.kind === 'group') {
    const api = ctx.app.api.groupScripts;
    const page = await api.list({ groupId: holder.id, scriptId: script.id });
    return page.results.map((a: GroupScript) => ({
      ...versionsHeld(a),
      remove: () => api.remove(a.groupScriptId),
      pin: (revisionId: string | null) => api.patch(a.groupScriptId, { revisionId }),
      accept: (acceptedRevisionId: string) => api.patch(a.groupScriptId, { acceptedRevisionId }),
      webhook: () => ctx.app.api.attachmentWebhook('groupScripts', a.groupScriptId),
    }));
  }
  const api = ctx.app.api.serviceScripts;
  const page = await api.list({ serviceId: holder.id, scriptId: script.id });
  return page.results.map((a: ServiceScript) => ({
    ...versionsHeld(a),
    remove: () => api.remove(a.serviceScriptId),
    pin: (revisionId: string | null) => api.patch(a.serviceScriptId, { revisionId }),
    accept: (acceptedRevisionId: string) => api.patch(a.serviceScriptId, { acceptedRevisionId }),
    webhook: () => ctx.app.api.attachmentWebhook('serviceScripts', a.serviceScriptId),
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

/** The versions of a script, newest first, in the words of SPEC §8 "Script versions" when there are none. */
async function versionsOf(ctx: CommandContext, script: EntityRef): Promise<ScriptRevision[]> {
  try {
    const { revisions } = await ctx.app.api.scriptRevisions(script.id);
    if (revisions.length === 0) throw new CommandError(WorkshopMsg.versionsNotFound, 'version');
    return revisions;
  } catch (e) {
    if (e instanceof ApiError && e.code === 'notFound')
      throw new CommandError(WorkshopMsg.versionsNotFound, 'version');
    throw e;
  }
}

/** The version whose id starts with `typed` (SPEC §2 version picker: Date, Version ID). */
async function versionNamed(ctx: CommandContext, script: EntityRef, typed: string): Promise<string> {
  const revisions = await versionsOf(ctx, script);
  const hits = revisions.filter((r) => r.revisionId.startsWith(typed.trim().toLowerCase()));
  if (hits.length === 1) return hits[0].revisionId;
  const known = revisions
    .slice(0, 5)
    .map((r) => `${r.revisionId.slice(0, 8)} (${new Date(r.dateCreated * 1000).toISOString().slice(0, 10)})`)
    .join(', ');
  throw new CommandError(
    `${hits.length ? 'Several versions match' : 'No version matches'} "${typed}". Versions: ${known}.`,
    'version',
  );
}

const dateTime = (epoch: number) => new Date(epoch * 1000).toISOString().slice(0, 16).replace('T', ' ');

/**
 * SPEC §2 version picker: the script's versions (Date, Version ID) and Keep updated, chosen in a
 * dialog; the console, which has none, asks for the version to be typed. null when cancelled.
 */
async function pickVersion(ctx: CommandContext, script: EntityRef): Promise<string | null> {
  const revisions = await versionsOf(ctx, script);
  if (ctx.surface === 'console')
    throw new CommandError(
      `Choose a version, or latest to keep it updated. Versions: ${revisions
        .slice(0, 5)
        .map((r) => `${r.revisionId.slice(0, 8)} (${dateTime(r.dateCreated)})`)
        .join(', ')}.`,
      'version',
    );
  const picked = await ctx.app.dialogs.choose({
    title: `Version of ${script.label}`,
    columns: ['Date', 'Version ID', 'Status'],
    rows: [
      { ref: { kind: 'script', id: LATEST, label: 'Keep updated' }, cells: ['', 'Keep updated', ''] },
      ...revisions.map((r) => ({
        ref: { kind: 'script' as const, id: r.revisionId, label: r.revisionId },
        cells: [dateTime(r.dateCreated), r.revisionId, r.approvalStatus],
      })),
    ],
    emptyText: WorkshopMsg.versionsNotFound,
  });
  return picked?.id ?? null;
}

/** The newest version that may run, or SPEC §8's "none approved". */
async function newestApproved(ctx: CommandContext, script: EntityRef): Promise<ScriptRevision> {
  const newest = latestApproved(await versionsOf(ctx, script));
  if (!newest) throw new CommandError(WorkshopMsg.noneApproved, 'version');
  return newest;
}

/**
 * `name=value, name="text, with a comma"`, checked against what the script declares (an
 * attachment's parameters, a menu item's arguments) and typed by it (Number, Boolean, else text).
 */
export function typedValues(
  typed: string,
  declared: readonly { name: string; type: string }[],
  noun: 'parameter' | 'argument',
): Record<string, string | number | boolean> {
  const field = `${noun}s`;
  const out: Record<string, string | number | boolean> = {};
  for (const pair of splitList(typed)) {
    const eq = pair.indexOf('=');
    if (eq < 1) throw new CommandError(`Write each value as name=value ("${pair}").`, field);
    const name = pair.slice(0, eq).trim();
    const raw = pair.slice(eq + 1).trim();
    const d = declared.find((x) => x.name.toLowerCase() === name.toLowerCase());
    if (!d) {
      const known = declared.map((x) => x.name).join(', ');
      throw new CommandError(
        `The script has no ${noun} ${name}. ${known ? `Its ${field}: ${known}.` : 'It has none.'}`,
        field,
      );
    }
    if (d.type === 'Number') {
      if (raw === '' || !Number.isFinite(Number(raw)))
        throw new CommandError(`${d.name} must be a number.`, field);
      out[d.name] = Number(raw);
    } else if (d.type === 'Boolean') {
      if (!/^(true|false|yes|no|on|off|1|0)$/i.test(raw))
        throw new CommandError(`${d.name} must be yes or no.`, field);
      out[d.name] = /^(true|yes|on|1)$/i.test(raw);
    } else out[d.name] = raw;
  }
  return out;
}

/** A script's parameters, from the library or, for a script of someone else's, the Workshop. */
async function parametersOf(ctx: CommandContext, script: EntityRef): Promise<ScriptParameter[]> {
  const mine = await ctx.app.api.scripts.list({ 'scriptId[]': script.id, pageSize: 1 });
  const found = mine.results[0] ?? (await ctx.app.api.communityScripts.get(script.id));
  return found.parameters ?? [];
}

/** SPEC §8 "Workshop install": duplicate, forbidden, generic. */
function installError(e: unknown): unknown {
  if (!(e instanceof ApiError)) return e;
  if (e.code === 'duplicate') return new CommandError(WorkshopMsg.installDuplicate, 'target');
  if (e.code === 'forbidden' || e.status === 403)
    return new CommandError(WorkshopMsg.installForbidden, 'target');
  if (e.code === 'notFound') return new CommandError(WorkshopMsg.versionsNotFound, 'version');
  return new CommandError(`${WorkshopMsg.installGeneric} ${e.message}`);
}

interface AttachValues {
  script: EntityRef;
  target: EntityRef;
  parameters?: string;
  mode: UpdateMode;
  version?: string;
}

/** Attaches the script to the server or group, in the update mode asked (SPEC §4 attachment). */
async function attach(ctx: CommandContext, v: AttachValues): Promise<CommandResult> {
  const holder = v.target as Holder;
  const parameterValuesGiven = v.parameters?.trim()
    ? typedValues(v.parameters, await parametersOf(ctx, v.script), 'parameter')
    : {};
  if (v.mode === 'locked' && !v.version?.trim())
    throw new CommandError('Choose the version to lock to (its id or first characters).', 'version');
  const revisionId =
    v.mode === 'follow'
      ? null
      : v.mode === 'locked'
        ? await versionNamed(ctx, v.script, v.version ?? '')
        : (await newestApproved(ctx, v.script)).revisionId;
  const attachment = { scriptId: v.script.id, parameterValues: parameterValuesGiven, revisionId };
  try {
    if (holder.kind === 'group')
      await ctx.app.api.groupScripts.create({
        ...attachment,
        groupId: holder.id,
        permissionsMask: definedBits(ALL_PERMISSIONS),
      });
    else await ctx.app.api.serviceScripts.create({ ...attachment, serviceId: holder.id });
  } catch (e) {
    throw installError(e);
  }
  const how = revisionId ? `on version ${revisionId.slice(0, 8)}` : 'kept updated';
  const notice = ctx.app.prefs.get('attachNoticeVisible') === false ? '' : ` ${WorkshopMsg.attachNotice}`;
  return { message: `${v.script.label} is attached to ${holder.label}, ${how}.${notice}` };
}

/** The arguments of attaching: the Add to Server dialog's fields. */
const attachArgs = (scriptHelp: string) => ({
  script: ref('script').describe('Script', scriptHelp),
  target: ref('server', 'group').describe(
    'Server or group',
    'Where it runs: a server, or every server of a group',
  ),
  parameters: text().optional().describe('Parameter values', 'name=value, name=value; blank: the defaults'),
  mode: oneOf(UPDATE_MODES).default('manual').describe('Update mode', UPDATE_MODE_HELP),
  version: text()
    .optional()
    .describe('Version', 'For locked: a version id or its first characters')
    .shownWhen('mode', 'locked'),
});

/** script.attach, and the same attaching as the Workshop's Add to Server. */
export function attachCommand<const Id extends string>(
  id: Id,
  title: string,
  scriptHelp: string,
  aliases: string[],
) {
  return defineCommand({
    id,
    title,
    description: 'Attach to a server or group with parameter values and an update mode (manual recommended)',
    group,
    aliases,
    form: true,
    permission: { server: Perm.ManageScripts, group: Perm.ManageScripts },
    args: attachArgs(scriptHelp),
    run: (values, ctx) => attach(ctx, values as AttachValues),
  });
}

/** The attachments there with a version waiting for the attacher's accept; an error when none. */
async function waiting(ctx: CommandContext, holder: Holder, script: EntityRef) {
  const found = (await attached(ctx, holder, script)).filter((a) => a.pendingRevisionId !== null);
  if (found.length === 0)
    throw new CommandError(`No new version of ${script.label} waits on ${holder.label}.`, 'script');
  return found;
}

const holderArgs = {
  script: ref('script').describe('Script'),
  target: ref('server', 'group').describe('Server or group', 'Blank: the one in view'),
};

export const scriptAttachmentCommands = [
  defineCommand({
    id: 'script.attachmentWebhook',
    title: 'Make script webhook',
    description:
      'A URL and secret that run this script’s webhook events here only; a new one replaces the last',
    group,
    aliases: ['attachmenthook'],
    permission: { server: Perm.ManageScripts, group: Perm.ManageScripts },
    args: holderArgs,
    run: async ({ script, target }, ctx) => {
      const holder = target as Holder;
      const [a, ...more] = await attached(ctx, holder, script);
      if (more.length > 0)
        throw new CommandError(
          `${script.label} is attached to ${holder.label} more than once; make its webhook from the server's Scripts tab row.`,
          'script',
        );
      const { url, secret } = await a!.webhook();
      return {
        message: `${script.label} on ${holder.label} has a new webhook${a!.hasWebhook ? '; the previous secret no longer works' : ''}.`,
        sections: [
          { heading: 'URL', text: url },
          { heading: 'Secret', text: secret },
          {
            heading: 'Calling it',
            text: 'POST {"webhook": "<name>", "parameters": {…}} with Authorization: HmacSHA256 <hex HMAC-SHA256 of "POST\n<unix time / 30>\n<body>", keyed with the secret>, as a server webhook is signed. It runs this script’s webhook events of that name here only; it sets only the arguments they declare.',
          },
        ],
      };
    },
  }),
  defineCommand({
    id: 'script.showUpdate',
    title: 'Show script update',
    description: 'What changed in the version of someone else’s script waiting for your accept',
    group,
    aliases: ['scriptchanges'],
    args: holderArgs,
    run: async ({ script, target }, ctx) => {
      const holder = target as Holder;
      const [a] = await waiting(ctx, holder, script);
      const api = ctx.app.api;
      const [before, after] = await Promise.all([
        api.scriptRevision(script.id, a!.acceptedRevisionId!),
        api.scriptRevision(script.id, a!.pendingRevisionId!),
      ]);
      return {
        message: `${script.label} on ${holder.label}: version ${after.revisionId.slice(0, 8)} waits for your accept; ${holder.label} runs ${before.revisionId.slice(0, 8)}.`,
        sections: [{ heading: 'What changed', text: revisionChanges(before, after) }],
      };
    },
  }),
  defineCommand({
    id: 'script.acceptUpdate',
    title: 'Accept script update',
    description: 'Let the server or group run the waiting version of someone else’s script',
    group,
    aliases: ['scriptaccept'],
    danger: 'confirm',
    permission: { server: Perm.ManageScripts, group: Perm.ManageScripts },
    args: holderArgs,
    run: async ({ script, target }, ctx) => {
      const holder = target as Holder;
      const found = await waiting(ctx, holder, script);
      for (const a of found) await a.accept(a.pendingRevisionId!);
      return {
        message: `${holder.label} now runs version ${found[0]!.pendingRevisionId!.slice(0, 8)} of ${script.label}.`,
        undo: async () => {
          for (const a of found) await a.accept(a.acceptedRevisionId!);
        },
      };
    },
  }),
  attachCommand('script.attach', 'Attach script', 'A script of yours or of the Workshop', ['attach']),
  defineCommand({
    id: 'script.updateToLatest',
    title: 'Update script to latest',
    description: 'Move an attachment on a fixed version to the newest approved one',
    group,
    aliases: ['scriptupdate'],
    permission: { server: Perm.ManageScripts, group: Perm.ManageScripts },
    args: {
      script: ref('script').describe('Script'),
      target: ref('server', 'group').describe('Server or group', 'Blank: the one in view'),
    },
    run: async ({ script, target }, ctx) => {
      const holder = target as Holder;
      const found = await attached(ctx, holder, script);
      const newest = await newestApproved(ctx, script);
      const behind = found.filter((a) => a.revisionId !== null && a.revisionId !== newest.revisionId);
      if (behind.length === 0)
        return { message: `${script.label} on ${holder.label} is already on the newest approved version.` };
      const before = behind.map((a) => a.revisionId);
      for (const a of behind) await a.pin(newest.revisionId);
      return {
        message: `${script.label} on ${holder.label} is on version ${newest.revisionId.slice(0, 8)}.`,
        undo: async () => {
          for (const [i, a] of behind.entries()) await a.pin(before[i]);
        },
      };
    },
  }),
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
        .optional()
        .describe(
          'Version',
          'latest (keep updated), or a version id or its first characters; blank: the version picker',
        ),
    },
    run: async ({ script, target, version }, ctx) => {
      const holder = target as Holder;
      const found = await attached(ctx, holder, script);
      const typed = version?.trim() || (await pickVersion(ctx, script));
      if (typed === null) return { message: 'Cancelled.' };
      const revisionId = typed.toLowerCase() === LATEST ? null : await versionNamed(ctx, script, typed);
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
