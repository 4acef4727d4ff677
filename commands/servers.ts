// Servers (services): ACTIONS.md "Servers". Every server.* action, for the palette, the console
// pane (`servers`, `run`, …), the server list's context menu and the server page's toolbar.

import {
  CONNECTION_KINDS,
  type ScriptMenuItem,
  type ScriptRunContext,
  type Service,
  type ServicePatch,
} from '../src/domain/api.ts';
import { PLATFORMS, SERVER_TABS, toApiColor } from '../src/domain/enums.ts';
import { type GameCommandResult, isDangerousCommand } from '../src/domain/gameCommands.ts';
import { GAME_KIND_NAMES } from '../src/domain/gameIds.ts';
import { Msg } from '../src/domain/messages.ts';
import { Perm } from '../src/domain/permissions.ts';
import { PUSH_LABELS } from '../src/domain/push.ts';
import { pathOf } from '../src/domain/resolver.ts';
import {
  currentSetting,
  parseSetting,
  SETTING_KEYS,
  settingOf,
  settingsPatch,
  settingText,
} from '../src/domain/serverSettings.ts';
import { WorkshopMsg } from '../src/domain/workshop.ts';
import { ApiError } from '../src/web/api/http.ts';
import { colour, type EntityRef, int, list, oneOf, ownerOf, ref, secret, text } from './args.ts';
import type { CommandContext, ResultSection } from './context.ts';
import { CommandError, defineCommand } from './registry.ts';

/** "Which ARK it runs" as a choice: detected from its answers, or one of the two games. */
const RCON_GAME_CHOICES = ['detect', 'evolved', 'ascended'] as const;

const group = 'Servers';

/** What each code of SPEC §8 "Run command" means to the user. */
export const RUN_COMMAND_ERRORS: Record<string, string> = {
  notObjectOrArray: 'The command was not sent in a form the server accepts.',
  noObjects: 'Nothing was submitted.',
  nonObjectMember: 'One of the commands was not in a form the server accepts.',
  missingTargetId: Msg.targetsRequired,
  missingType: 'The command has no type.',
  badType: 'The server does not know this type of command.',
  missingProperties: Msg.commandEmpty,
  forbidden: `${Msg.forbidden} (control servers).`,
  unauthorized: 'Your authorization has expired. Refresh the page to sign in again.',
  serviceNotConnected: Msg.serviceNotConnected,
};

/** An API failure in the words of RUN_COMMAND_ERRORS, keeping the server's reason. */
function runCommandError(e: unknown): unknown {
  if (!(e instanceof ApiError)) return e;
  const code = e.status === 401 ? 'unauthorized' : e.code;
  const message = RUN_COMMAND_ERRORS[code];
  return message ? new ApiError(message, code, e.status, e.message) : e;
}

/** What a server answered; a command that printed nothing ran ("Server received, But no response!!" over RCON). */
export const resultText = (r: GameCommandResult): string =>
  r.ok
    ? r.result === null || r.result === undefined
      ? 'Done.'
      : String(r.result)
    : (r.message ?? 'Failed.');

/** One server's answer in full under its name (with why it failed, when it did). */
const answerSection = (r: GameCommandResult): ResultSection => ({
  heading: r.ok ? r.serviceDisplayName : `${r.serviceDisplayName}: failed`,
  text: resultText(r),
  ...(r.ok ? {} : { failed: true }),
});

/** Sends an admin command to each target and returns one row per server that answered. */
export async function runAdminCommand(
  ctx: CommandContext,
  targets: EntityRef[],
  command: string,
): Promise<GameCommandResult[]> {
  if (targets.length === 0) throw new CommandError(Msg.targetsRequired, 'targets');
  if (command.trim() === '') throw new CommandError(Msg.commandEmpty, 'command');
  const body = targets.map((t) => ({
    type: 'admin' as const,
    command: command.trim(),
    ...ownerOf(t),
  }));
  try {
    const r = await ctx.app.api.gameCommands(body);
    for (const t of targets) ctx.app.commandHistory.remember(t.id, command.trim());
    return r.results;
  } catch (e) {
    throw runCommandError(e);
  }
}

/** What a menu-item script runs on: a server, or a survivor, tribe or dino of one (SPEC §3). */
export interface ScriptTarget {
  serviceId: string;
  label: string;
  /** The survivor, tribe or dino; none for a server's own scripts. */
  of?: { context: Exclude<ScriptRunContext, 'serviceScriptRun'>; ids: Record<string, string> };
}

/** The menu-item scripts of a target (GET /sentinel/scriptMenuItems): those attached to its server or its groups. */
export function menuItems(ctx: CommandContext, target: ScriptTarget): Promise<ScriptMenuItem[]> {
  return ctx.app.api.scriptMenuItems(target.serviceId, target.of?.context ?? 'serviceScriptRun');
}

/** Runs one menu item on the target (POST /sentinel/scriptMenuItems/{id}), refusals in SPEC §8's words. */
export async function runMenuItem(
  ctx: CommandContext,
  item: ScriptMenuItem,
  target: ScriptTarget,
  values: Record<string, unknown> = {},
) {
  try {
    await ctx.app.api.runScript(item.scriptEventId, {
      serviceId: target.serviceId,
      arguments: values,
      ...target.of?.ids,
    });
  } catch (e) {
    throw runnerError(e);
  }
}

/** SPEC §8 "Script runner": forbidden, missingKeys, notFound, internalServerError. */
function runnerError(e: unknown): unknown {
  if (!(e instanceof ApiError)) return e;
  if (e.status === 403) return new CommandError(WorkshopMsg.runForbidden, 'script');
  if (e.code === 'missingKeys')
    return new CommandError(`${WorkshopMsg.runMissingKeys} ${e.message}`, 'script');
  if (e.status === 404) return new CommandError(WorkshopMsg.runNotFound, 'script');
  if (e.status >= 500) return new CommandError(WorkshopMsg.runInternal, 'script');
  return e;
}

/**
 * Runs the menu-item script whose menu text is `script` on the target; its name is returned.
 * Unknown text names the scripts there are.
 */
export async function runMenuScript(
  ctx: CommandContext,
  script: string,
  target: ScriptTarget,
): Promise<string> {
  const items = await menuItems(ctx, target);
  const item = items.find((i) => i.menuText.toLowerCase() === script.trim().toLowerCase());
  if (!item) {
    const known = items.map((i) => i.menuText).join(', ');
    throw new CommandError(
      `No script "${script}" for ${target.label}. ${known ? `Scripts: ${known}.` : WorkshopMsg.runnerNotice}`,
      'script',
    );
  }
  await runMenuItem(ctx, item, target);
  return item.menuText;
}

export const serverCommands = [
  defineCommand({
    id: 'server.list',
    title: 'Server list',
    group,
    aliases: ['servers', 'ls'],
    run: async (_a, ctx) => {
      if (ctx.surface !== 'console') {
        ctx.app.navigate('/servers');
        return undefined;
      }
      const page = await ctx.app.api.services.list({ pageSize: 250, sortedColumn: 'displayName' });
      return {
        table: {
          columns: ['Name', 'Status', 'Players', 'Clock', 'Id'],
          rows: page.results.map((s) => [
            s.displayName,
            s.isConnected ? 'connected' : 'disconnected',
            `${s.currentPlayers}/${s.maxPlayers}`,
            formatClock(s.gameClock),
            s.serviceId,
          ]),
        },
      };
    },
  }),
  defineCommand({
    id: 'server.add',
    title: 'Add server',
    description: 'Connect a server by the game link (access key) or by RCON (host, port, password)',
    group,
    aliases: ['addserver'],
    args: {
      name: text()
        .min(1, 'Give the server a name.')
        .describe('Name', 'As players see it in the server browser'),
      connection: oneOf(CONNECTION_KINDS).describe(
        'Connection',
        'link: the Sentinel mod with an access key · rcon: RCON, no mod',
      ),
      host: text().optional().describe('RCON host', 'The game server’s address (RCON only)'),
      port: int({ min: 1, max: 65535 })
        .optional()
        .describe('RCON port', 'RConPort of the game server (RCON only)'),
      password: secret()
        .optional()
        .describe('RCON password', 'ServerAdminPassword (RCON only); write-only, never shown again'),
      game: oneOf(['ArkSA', 'Ark'] as const)
        .default('ArkSA')
        .describe('Game'),
      platform: oneOf(PLATFORMS).default('PC').describe('Platform'),
    },
    run: async ({ name, connection, host, port, password, game, platform }, ctx) => {
      const rcon = connection === 'rcon';
      if (rcon && !host?.trim()) throw new CommandError('An RCON server needs its host.', 'host');
      if (rcon && port === undefined) throw new CommandError('An RCON server needs its RCON port.', 'port');
      if (rcon && !password) throw new CommandError('An RCON server needs its RCON password.', 'password');
      const { created } = await ctx.app.api.services.add({
        gameId: game,
        name: name.trim(),
        platform,
        languages: ['en'],
        connectionKind: connection,
        ...(rcon ? { rconHost: host!.trim(), rconPort: port, rconPassword: password } : {}),
      });
      const s = created[0];
      if (ctx.surface !== 'console') ctx.app.navigate(pathOf('server', s.serviceId, 'setup'));
      if (rcon)
        return {
          message: `${s.displayName} was added. Palisade connects to ${s.rconHost}:${s.rconPort} over RCON.`,
        };
      const lines = setupLines(s);
      return { ...lines, message: `${s.displayName} was added. ${lines.message}` };
    },
  }),
  defineCommand({
    id: 'server.open',
    title: 'Open server',
    group,
    aliases: ['server'],
    args: {
      server: ref('server').selectedOnly().describe('Server'),
      tab: oneOf(SERVER_TABS).describe('Tab').default('logs'),
    },
    run: ({ server, tab }, ctx) => {
      ctx.app.navigate(pathOf('server', server.id, tab));
      return undefined;
    },
  }),
  defineCommand({
    id: 'server.viewEvents',
    title: 'View server events',
    group,
    aliases: ['events'],
    args: { server: ref('server').describe('Server') },
    run: ({ server }, ctx) => {
      ctx.app.navigate(pathOf('server', server.id));
      return undefined;
    },
  }),
  defineCommand({
    id: 'server.setup',
    title: 'Server setup instructions',
    group,
    aliases: ['setup'],
    args: { server: ref('server').describe('Server') },
    run: async ({ server }, ctx) => {
      if (ctx.surface !== 'console') {
        ctx.app.navigate(pathOf('server', server.id, 'setup'));
        return undefined;
      }
      return setupLines(await ctx.app.api.services.get(server.id));
    },
  }),
  defineCommand({
    id: 'server.regenerateKey',
    title: 'Regenerate access key',
    description: 'Disconnects the game server until its GameUserSettings.ini has the new key',
    group,
    aliases: ['newkey'],
    danger: 'confirm',
    permission: Perm.EditServices,
    args: { server: ref('server').describe('Server') },
    run: async ({ server }, ctx) => {
      const s = await ctx.app.api.services.regenerateKey(server.id);
      const lines = setupLines(s);
      return { ...lines, message: `${s.displayName} has a new access key. ${lines.message}` };
    },
  }),
  defineCommand({
    id: 'server.remove',
    title: 'Remove server',
    group,
    aliases: ['rmserver'],
    danger: 'confirm',
    args: { server: ref('server').describe('Server') },
    run: async ({ server }, ctx) => {
      await ctx.app.api.services.remove(server.id);
      if (ctx.route.startsWith(`/servers/${server.id}`)) ctx.app.navigate('/servers');
      return { message: `${server.label} was removed.` };
    },
  }),
  defineCommand({
    id: 'server.runCommand',
    title: 'Run command',
    description: 'Send a console command to one or many servers or groups',
    group,
    aliases: ['run', 'rcon'],
    permission: Perm.ControlServices,
    args: {
      targets: list(ref('server', 'group')).describe('Servers or groups'),
      command: text().min(1, Msg.commandEmpty).describe('Command').rest(),
    },
    run: async ({ targets, command }, ctx) => {
      if (
        isDangerousCommand(command) &&
        !(await ctx.app.dialogs.confirm(
          `Run "${command}" on ${targets.map((t) => t.label).join(', ')}? This cannot be undone.`,
        ))
      )
        return { message: 'Cancelled.' };
      const results = await runAdminCommand(ctx, targets, command);
      const failed = results.filter((r) => !r.ok).length;
      return {
        message:
          results.length === 0
            ? 'No server received the command.'
            : `Sent to ${results.length - failed} of ${results.length} server${results.length === 1 ? '' : 's'}.`,
        sections: results.map(answerSection),
      };
    },
  }),
  defineCommand({
    id: 'server.runScript',
    title: 'Run script',
    description: 'Run a menu-item script attached to the server',
    group,
    aliases: ['script'],
    permission: Perm.ControlServices,
    args: {
      server: ref('server').describe('Server'),
      script: text().min(1).describe('Script', 'The menu text of a script attached to the server').rest(),
    },
    run: async ({ server, script }, ctx) => {
      const menuText = await runMenuScript(ctx, script, { serviceId: server.id, label: server.label });
      return { message: `${menuText} is running on ${server.label}.` };
    },
  }),
  defineCommand({
    id: 'server.editSettings',
    title: 'Edit server settings',
    description: 'A setting, or where RCON connects and its password; without either, opens the settings tab',
    group,
    aliases: ['settings'],
    permission: Perm.EditServices,
    args: {
      server: ref('server').describe('Server'),
      setting: oneOf(SETTING_KEYS).optional().describe('Setting'),
      value: text().optional().describe('Value').rest(),
      rconHost: text().optional().describe('RCON host', 'Where the game server’s RCON listens'),
      rconPort: int({ min: 1, max: 65535 }).optional().describe('RCON port'),
      rconPassword: secret()
        .optional()
        .describe('RCON password', 'Write-only: never shown. Blank keeps the stored one'),
      rconGame: oneOf(RCON_GAME_CHOICES)
        .optional()
        .describe(
          'Game',
          'Which ARK the server runs, and so which player ids it takes: detect it, or say which',
        ),
    },
    run: async ({ server, setting, value, rconHost, rconPort, rconPassword, rconGame }, ctx) => {
      const connection: ServicePatch = {
        ...(rconHost?.trim() ? { rconHost: rconHost.trim() } : {}),
        ...(rconPort !== undefined ? { rconPort } : {}),
        ...(rconPassword ? { rconPassword } : {}),
        ...(rconGame ? { rconGame: rconGame === 'detect' ? null : rconGame } : {}),
      };
      if (!setting && Object.keys(connection).length === 0) {
        if (ctx.surface === 'console') {
          const s = await ctx.app.api.services.get(server.id);
          const rows = SETTING_KEYS.map((k) => [k, settingText(currentSetting(s, settingOf(k)!))]);
          return { table: { columns: ['Setting', 'Value'], rows: [...rows, ...connectionRows(s)] } };
        }
        ctx.app.navigate(pathOf('server', server.id, 'settings'));
        return undefined;
      }
      const current: Service = await ctx.app.api.services.get(server.id);
      let patch: ServicePatch = connection;
      const def = setting ? settingOf(setting)! : undefined;
      if (def) {
        const parsed = parseSetting(def, value ?? '');
        if (!parsed.ok) throw new CommandError(parsed.error, 'value');
        patch = { ...settingsPatch(current, { [def.key]: parsed.value }), ...connection };
      }
      const saved = await ctx.app.api.services.patch(server.id, patch).catch((e: unknown) => {
        throw connectionRefusal(e);
      });
      const said = [
        def &&
          `${def.label} of ${saved.displayName} is now ${settingText(currentSetting(saved, def)) || '(blank)'}.`,
        (connection.rconHost || connection.rconPort) &&
          `RCON of ${saved.displayName} connects to ${saved.rconHost}:${saved.rconPort}.`,
        connection.rconPassword && `The RCON password of ${saved.displayName} was replaced.`,
        'rconGame' in connection && `${saved.displayName} runs ${gameKindText(saved)}.`,
      ];
      return { message: said.filter(Boolean).join(' ') };
    },
  }),
  defineCommand({
    id: 'server.pushNotifications',
    title: 'Push notifications for a server',
    description: 'Notify about chat and warnings while the console is in the background',
    group,
    aliases: ['push'],
    args: {
      server: ref('server').describe('Server'),
      state: oneOf(['on', 'off'] as const)
        .optional()
        .describe('On or off'),
    },
    run: async ({ server, state }, ctx) => {
      const want = state ? state === 'on' : ctx.app.push.state(server.id) !== 'enabled';
      const now = await ctx.app.push.set(server.id, want);
      if (want && now === 'blocked')
        throw new CommandError(
          'Notifications are blocked by the browser. Allow them in the site settings first.',
        );
      return { message: `Push notifications for ${server.label}: ${PUSH_LABELS[now].toLowerCase()}.` };
    },
  }),
  defineCommand({
    id: 'server.setColor',
    title: 'Set server colour',
    group,
    aliases: ['color'],
    permission: Perm.EditServices,
    args: { server: ref('server').describe('Server'), color: colour().describe('Colour') },
    run: async ({ server, color }, ctx) => {
      const s = await ctx.app.api.services.patch(server.id, { color: toApiColor(color) });
      return { message: `${s.displayName} is now ${color}.` };
    },
  }),
];

const CONNECTION_FIELDS = ['rconHost', 'rconPort', 'rconPassword', 'rconGame'];

/** The API's refusal of an RCON field, beside the argument of the same name. */
function connectionRefusal(e: unknown): unknown {
  const field = e instanceof ApiError ? (e.details as { field?: unknown } | null)?.field : undefined;
  return typeof field === 'string' && CONNECTION_FIELDS.includes(field)
    ? new CommandError((e as ApiError).message, field)
    : e;
}

/** Where an RCON server connects, for those who may see it; the password only as stored or not. */
function connectionRows(s: Service): string[][] {
  if (s.connectionKind !== 'rcon') return [];
  return [
    ['RCON host', s.rconHost ?? '(hidden)'],
    ['RCON port', s.rconPort === null ? '(hidden)' : String(s.rconPort)],
    ['RCON password', s.rconPasswordSet ? 'stored (write-only)' : 'none'],
    ['Game', gameKindText(s)],
  ];
}

/** "ARK: Survival Evolved (detected)", "ARK: Survival Ascended (set by an admin)", or not yet known. */
export function gameKindText(s: Pick<Service, 'gameKind' | 'rconGame'>): string {
  if (!s.gameKind) return 'Not known yet: detected from the player ids it prints';
  return `${GAME_KIND_NAMES[s.gameKind]} (${s.rconGame ? 'set by an admin' : 'detected'})`;
}

/**
 * The two lines of GameUserSettings.ini; the key is shown only to the owner and editors. A
 * section, not a table: a cell would cut the 43-character key the admin has to copy.
 */
function setupLines(s: Service) {
  if (s.accessKey === null) throw new CommandError(Msg.accessKeyHidden);
  return {
    message: 'Add these two lines to GameUserSettings.ini:',
    sections: [{ heading: 'GameUserSettings.ini', text: `[BeaconSentinel]\nAccessKey=${s.accessKey}` }],
  };
}

/** Game clock as "Day 12, 13:45": the integer part is the day, the fraction the time of day. */
export function formatClock(clock: number): string {
  if (!Number.isFinite(clock) || clock <= 0) return '—';
  const day = Math.floor(clock);
  const minutes = Math.floor((clock - day) * 1440);
  return `Day ${day}, ${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}
