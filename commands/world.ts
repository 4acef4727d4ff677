// Survivors, tribes and dinos (ACTIONS.md "Survivors, tribes, dinos"). What the three kinds share
// is declared once and built per kind: list, open, go to, delete, run a menu-item script; survivors
// and dinos also teleport and locate. survivors.ts, tribes.ts and dinos.ts add what is their own.

import type { Character, Dino, ScriptRunContext, Tribe } from '../src/domain/api.ts';
import { type Coords, formatLocator } from '../src/domain/coords.ts';
import { DINO_DEFAULT_STATUS_FILTER } from '../src/domain/enums.ts';
import { Msg } from '../src/domain/messages.ts';
import { Perm } from '../src/domain/permissions.ts';
import { pathOf } from '../src/domain/resolver.ts';
import {
  DINO_COLUMNS,
  dinoIdHalves,
  SURVIVOR_COLUMNS,
  TRIBE_COLUMNS,
  type WorldColumn,
} from '../src/domain/world.ts';
import type { ListParams } from '../src/web/api/sentinel.ts';
import { type ArgsShape, asList, bool, coords, type EntityRef, list, oneOf, ref, text } from './args.ts';
import type { CommandContext, CommandResult } from './context.ts';
import { counted, eachOf, summary } from './outcome.ts';
import { CommandError, defineCommand } from './registry.ts';
import { runMenuScript } from './servers.ts';

export type WorldKind = 'survivor' | 'tribe' | 'dino';
type WorldRecord = Character | Tribe | Dino;

interface KindSpec<T extends WorldRecord> {
  group: string;
  noun: readonly [string, string];
  /** The class path's calls in the typed API. */
  api(ctx: CommandContext): {
    get(id: string): Promise<T>;
    list(params: ListParams): Promise<{ results: T[]; totalResults: number }>;
    remove(id: string): Promise<true>;
  };
  idProp: 'characterId' | 'tribeId' | 'dinoId';
  scriptContext: Exclude<ScriptRunContext, 'serviceScriptRun'>;
  columns: readonly WorldColumn<T>[];
  /** The filter a console search goes to. */
  search: string;
  /** What the list shows unless told otherwise (dinos: alive ones, SPEC §4). */
  defaults?: ListParams;
  nameOf(r: T): string;
}

const SURVIVOR: KindSpec<Character> = {
  group: 'Survivors',
  noun: ['survivor', 'survivors'],
  api: (ctx) => ctx.app.api.characters,
  idProp: 'characterId',
  scriptContext: 'characterScriptRun',
  columns: SURVIVOR_COLUMNS,
  search: 'characterName',
  nameOf: (c) => c.characterName,
};
const TRIBE: KindSpec<Tribe> = {
  group: 'Tribes',
  noun: ['tribe', 'tribes'],
  api: (ctx) => ctx.app.api.tribes,
  idProp: 'tribeId',
  scriptContext: 'tribeScriptRun',
  columns: TRIBE_COLUMNS,
  search: 'tribeName',
  nameOf: (t) => t.tribeName,
};
const DINO: KindSpec<Dino> = {
  group: 'Dinos',
  noun: ['dino', 'dinos'],
  api: (ctx) => ctx.app.api.dinos,
  idProp: 'dinoId',
  scriptContext: 'dinoScriptRun',
  columns: DINO_COLUMNS,
  search: 'dinoDisplayName',
  defaults: { dinoStatus: DINO_DEFAULT_STATUS_FILTER.join(',') },
  nameOf: (d) => d.dinoDisplayName,
};

export const KINDS = { survivor: SURVIVOR, tribe: TRIBE, dino: DINO } as const;
type SpecOf<K extends WorldKind> = (typeof KINDS)[K];
type RecordOf<K extends WorldKind> = SpecOf<K> extends KindSpec<infer T> ? T : never;

const spec = <K extends WorldKind>(kind: K) => KINDS[kind] as unknown as KindSpec<RecordOf<K>>;

/** The entities given, or the marked rows or the one in view (the registry fills them); one at least. */
export function refsOf(kind: WorldKind, given: EntityRef | EntityRef[] | undefined): EntityRef[] {
  const refs = asList(given);
  if (refs.length === 0) throw new CommandError(`Choose a ${kind}.`, kind);
  return refs;
}

export const recordOf = <K extends WorldKind>(ctx: CommandContext, kind: K, id: string) =>
  spec(kind).api(ctx).get(id);

const capital = (s: string) => s[0].toUpperCase() + s.slice(1);

/** The one entity of the kind, by its kind's name (`--dino Rex`). */
const oneArg = (kind: WorldKind) =>
  ref(kind).describe(capital(kind), `By name or id; blank: the ${kind} in view`);
/** Many of the kind (`--dinos a,b`); blank takes the marked rows or the one in view. */
const manyArg = (kind: WorldKind) =>
  list(ref(kind))
    .describe(capital(spec(kind).noun[1]), `Blank: the marked ${spec(kind).noun[1]} or the one in view`)
    .optional();
const manyName = (kind: WorldKind) => spec(kind).noun[1];

type Values = Record<string, unknown>;
const refArg = (values: Values, name: string) => values[name] as EntityRef | EntityRef[] | undefined;

/** `survivor.list`: the section, or in the console a table (with a name search). */
function listCommand<K extends WorldKind>(kind: K) {
  const s = spec(kind);
  return defineCommand({
    id: `${kind}.list` as `${K}.list`,
    title: `${capital(kind)} list`,
    group: s.group,
    aliases: [s.noun[1]],
    args: { search: text().optional().describe('Search', 'Part of a name').rest() },
    run: async ({ search }, ctx) => {
      if (ctx.surface !== 'console') {
        ctx.app.navigate(pathOf(kind));
        return undefined;
      }
      const page = await s
        .api(ctx)
        .list({ pageSize: 100, ...s.defaults, ...(search ? { [s.search]: search } : {}) });
      const idOf = (r: RecordOf<K>) => (r as unknown as Record<string, string>)[s.idProp];
      return {
        table: {
          columns: [...s.columns.map((c) => c.title), 'Id'],
          rows: page.results.map((r) => [...s.columns.map((c) => c.value(r)), idOf(r)]),
        },
        message: counted(page.totalResults, s.noun),
      };
    },
  });
}

/** `dino.open`, or `tribe.open` at a tab: the entity's page. */
function openCommand<K extends WorldKind>(kind: K, tabs?: readonly [string, ...string[]]) {
  const args: ArgsShape = {
    [kind]: oneArg(kind).selectedOnly(),
  };
  if (tabs) args.tab = oneOf(tabs).describe('Tab').default(tabs[0]);
  return defineCommand({
    id: `${kind}.open` as `${K}.open`,
    title: `Open ${kind}`,
    group: spec(kind).group,
    aliases: [kind],
    args,
    run: (values, ctx) => {
      const [target] = refsOf(kind, refArg(values, kind));
      ctx.app.navigate(pathOf(kind, target.id, values.tab as string | undefined));
      return undefined;
    },
  });
}

/** Where "go to" leads from an entity of a kind: itself, or what it belongs to. */
const PLACES = {
  self: (kind: WorldKind, _r: WorldRecord, id: string) => pathOf(kind, id),
  player: (_k: WorldKind, r: WorldRecord) => ('playerId' in r ? pathOf('player', r.playerId) : null),
  server: (_k: WorldKind, r: WorldRecord) => pathOf('server', r.serviceId),
  tribe: (_k: WorldKind, r: WorldRecord) => ('tribeId' in r && r.tribeId ? pathOf('tribe', r.tribeId) : null),
} as const;
type Place = keyof typeof PLACES;

/** `survivor.goTo`: the survivor, its player, server or tribe (SPEC §2 context menus). */
function goToCommand<K extends WorldKind>(kind: K, places: readonly Place[]) {
  const choices = places.map((p) => (p === 'self' ? kind : p)) as [string, ...string[]];
  return defineCommand({
    id: `${kind}.goTo` as `${K}.goTo`,
    title: `Go to ${kind}, ${choices.slice(1).join(' or ')}`,
    group: spec(kind).group,
    args: {
      [kind]: oneArg(kind),
      to: oneOf(choices).describe('Go to', choices.join(', ')),
    } as ArgsShape,
    run: async (values, ctx) => {
      const [target] = refsOf(kind, refArg(values, kind));
      const to = values.to as string;
      const place: Place = to === kind ? 'self' : (to as Place);
      const path = PLACES[place](kind, await recordOf(ctx, kind, target.id), target.id);
      if (!path) throw new CommandError(`${target.label} has no ${to}.`, 'to');
      ctx.app.navigate(path);
      return undefined;
    },
  });
}

/** `tribe.delete`: one or many, each failure named; they reappear when the game reports them (SPEC §4). */
function deleteCommand<K extends WorldKind>(kind: K, also = '') {
  const s = spec(kind);
  return defineCommand({
    id: `${kind}.delete` as `${K}.delete`,
    title: `Delete ${s.noun[1]}`,
    description: `${also}They reappear when their server reports them again.`,
    group: s.group,
    danger: 'confirm',
    permission: Perm.ControlServices,
    args: { [manyName(kind)]: manyArg(kind) },
    run: async (values, ctx) => {
      const refs = refsOf(kind, refArg(values, manyName(kind)));
      const o = await eachOf(
        refs,
        (r) => r.label,
        (r) => s.api(ctx).remove(r.id),
      );
      if (o.done.length && refs.some((r) => ctx.route === pathOf(kind, r.id))) ctx.app.navigate(pathOf(kind));
      return summary('Deleted', s.noun, o);
    },
  });
}

/** `dino.runScript`: a menu-item script attached to the entity's server or one of its groups. */
function runScriptCommand<K extends WorldKind>(kind: K) {
  const s = spec(kind);
  return defineCommand({
    id: `${kind}.runScript` as `${K}.runScript`,
    title: `Run script on ${kind}`,
    description: `Run a menu-item script on a ${kind}`,
    group: s.group,
    permission: Perm.ControlServices,
    args: {
      [kind]: oneArg(kind),
      script: text().min(1).describe('Script', `The menu text of a ${kind} script`).rest(),
    } as ArgsShape,
    run: async (values, ctx) => {
      const [target] = refsOf(kind, refArg(values, kind));
      const r = await recordOf(ctx, kind, target.id);
      const menuText = await runMenuScript(ctx, values.script as string, {
        serviceId: r.serviceId,
        label: target.label,
        of: { context: s.scriptContext, ids: { [s.idProp]: target.id } },
      });
      return { message: `${menuText} is running on ${target.label}.` };
    },
  });
}

/** The game command fields naming a survivor or a dino (SENTINEL-API §2.3). */
function gameIds(r: Character | Dino): Record<string, string | number> {
  return 'characterId' in r
    ? { characterId: r.characterId, specimenId: r.specimenId }
    : { dinoId: r.dinoId, ...dinoIdHalves(r.dinoNumber64) };
}

const where = (p: { x: number | null; y: number | null; z: number | null }) =>
  [p.x, p.y, p.z].map((n) => (n === null ? '?' : n.toFixed(2))).join(' ');

/**
 * `survivor.teleport`: to coordinates (absolute, or relative to where each stands) or to another
 * survivor. Without a destination, menus and toolbars open it as the Teleport form.
 */
function teleportCommand<K extends 'survivor' | 'dino'>(kind: K) {
  const s = spec(kind);
  const id = `${kind}.teleport` as `${K}.teleport`;
  return defineCommand({
    id,
    title: `Teleport ${kind}`,
    description:
      'To coordinates (~ before a value, or Relative, moves by it; _ keeps a value) or to a survivor',
    group: s.group,
    permission: Perm.ControlServices,
    args: {
      [manyName(kind)]: manyArg(kind),
      to: coords().optional().describe('To', 'x y z; ~ or Relative moves by the values; _ keeps one'),
      relative: bool().default(false).describe('Relative', 'Move by the values from where it stands'),
      toSurvivor: ref('survivor')
        .alwaysAsked()
        .optional()
        .describe('Or to survivor', 'Stand next to this survivor'),
    } as ArgsShape,
    run: async (values, ctx) => {
      const targets = refsOf(kind, refArg(values, manyName(kind)));
      const to = values.to as Coords | undefined;
      const toSurvivor = values.toSurvivor as EntityRef | undefined;
      if (!to && !toSurvivor) {
        if (ctx.surface === 'console' || ctx.surface === 'form')
          throw new CommandError(Msg.teleportNoValues, 'to');
        ctx.app.dialogs.form(id, { [manyName(kind)]: targets });
        return undefined;
      }
      if (to && toSurvivor)
        throw new CommandError('Teleport to coordinates or to a survivor, not both.', 'toSurvivor');
      const relative = (values.relative as boolean) || to?.relative === true;
      const destination = toSurvivor
        ? { toCharacterId: toSurvivor.id }
        : {
            ...Object.fromEntries(
              (['x', 'y', 'z'] as const).filter((k) => to![k] !== null).map((k) => [k, to![k]]),
            ),
            relative,
          };
      const o = await eachOf(
        targets,
        (t) => t.label,
        async (t) => {
          const r = (await recordOf(ctx, kind, t.id)) as Character | Dino;
          const { results } = await ctx.app.api.gameCommands([
            {
              type: kind === 'dino' ? 'teleportDino' : 'teleportCharacter',
              serviceId: r.serviceId,
              ...gameIds(r),
              ...destination,
            },
          ]);
          const answer = results[0];
          if (!answer?.ok) throw new Error(answer?.message ?? 'The game did not move it.');
          return `${t.label} to ${where(answer.result as { x: number; y: number; z: number })}`;
        },
      );
      if (targets.length === 1 && o.done.length === 1) return { message: `Teleported ${o.done[0]}.` };
      return summary('Teleported', s.noun, o);
    },
  });
}

/**
 * `dino.locate`: asks the game where it is and waits for the answer (the locate result event).
 * Found: the place in the locatorResultsFormat preference, copied to the clipboard. A dino not
 * found is assumed dead (SPEC §4).
 */
function locateCommand<K extends 'survivor' | 'dino'>(kind: K) {
  return defineCommand({
    id: `${kind}.locate` as `${K}.locate`,
    title: `Locate ${kind}`,
    description: 'Where it is, as SetPlayerPos, coordinates or GPS, as the Locate results preference says',
    group: spec(kind).group,
    permission: Perm.ControlServices,
    args: { [kind]: oneArg(kind) },
    run: async (values, ctx): Promise<CommandResult> => {
      const [target] = refsOf(kind, refArg(values, kind));
      if (ctx.surface !== 'console') ctx.app.toast('info', `Locating ${target.label}…`);
      const receipt =
        kind === 'dino'
          ? await ctx.app.api.dinoLocate(target.id)
          : await ctx.app.api.characterLocate(target.id);
      const r = await ctx.app.game.result(receipt.requestId);
      if (!('found' in r)) throw new CommandError(r.error ?? `${target.label} could not be located.`);
      if (!r.found || r.x === null || r.y === null || r.z === null)
        return {
          message:
            kind === 'dino'
              ? `${target.label} was not found on its server; it is assumed dead.`
              : `${target.label} was not found on its server.`,
        };
      const format = String(ctx.app.prefs.get('locatorResultsFormat') ?? 'SetPlayerPos');
      const place = { x: r.x, y: r.y, z: r.z, lat: r.lat ?? undefined, lon: r.lon ?? undefined };
      const shown = formatLocator(place, format);
      const copied = await ctx.app.clipboard.copy(shown).then(
        () => ' (copied)',
        (e: Error) => `. Copying failed: ${e.message}`,
      );
      return {
        message: `${target.label} found: ${shown}${copied}`,
        table: {
          columns: ['X', 'Y', 'Z', 'Latitude', 'Longitude'],
          rows: [[r.x, r.y, r.z, r.lat, r.lon]],
        },
      };
    },
  });
}

export const worldCommands = {
  list: listCommand,
  open: openCommand,
  goTo: goToCommand,
  delete: deleteCommand,
  runScript: runScriptCommand,
  teleport: teleportCommand,
  locate: locateCommand,
};
