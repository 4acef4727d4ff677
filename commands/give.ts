// Giving to survivors and the blueprint catalogue (ACTIONS.md "Survivors, tribes, dinos"): Give Item
// to many survivors at once, a custom dino (the creator at /dinos/add), and the blueprint and mod
// pickers. Every payload is checked with the API's own validators before it is sent.

import {
  DINO_CREATOR_ROUTE,
  DINO_MAX_LEVEL,
  levelProblem,
  parseColors,
  parseStatPoints,
  type StatPoints,
  traitsProblem,
} from '../src/domain/dinoBuilder.ts';
import { ITEM_QUALITY_TIERS, QUALITY_READINGS, type QualityReading, qualityOf } from '../src/domain/enums.ts';
import { Perm } from '../src/domain/permissions.ts';
import {
  dinoAgeOrImprint,
  GIVE_ITEM_STATS,
  giveDinoPayload,
  giveItemPayload,
  giveItemQuality,
  giveItemQuantity,
  giveItemStat,
  minRandomQuality,
  type Problem,
} from '../src/domain/validate.ts';
import { ApiError } from '../src/web/api/http.ts';
import {
  asList,
  blueprint,
  bool,
  type EntityRef,
  float,
  int,
  list,
  loadCatalogue,
  oneOf,
  ref,
  text,
} from './args.ts';
import type { CommandContext, CommandResult } from './context.ts';
import { CommandError, defineCommand } from './registry.ts';

const group = 'Survivors';

/** The Custom Dino Creator's address, with the survivors it gives to. */
export const dinoCreatorPath = (survivors: readonly EntityRef[]) =>
  survivors.length
    ? `${DINO_CREATOR_ROUTE}?survivors=${survivors.map((s) => s.id).join(',')}`
    : DINO_CREATOR_ROUTE;

const survivorsArg = () =>
  list(ref('survivor')).describe('Survivors', 'One or more survivors by name or id; blank: the marked ones');

const stat = (label: string) =>
  float()
    .describe(label, 'Exact stats: 0 to 999999')
    .check((v) => giveItemStat(v))
    .optional()
    .shownWhen('stats', 'exact');

const TIER_HELP = ITEM_QUALITY_TIERS.map((t) => `${t.name} ${t.value} (tooltip ${t.tooltip})`).join(', ');

/** A refused payload, named by the field the form shows it beside. */
const refuse = (p: Problem): never => {
  throw new CommandError(p.message, p.field);
};

/** How long a give waits for the game to answer each survivor's request. */
const RESULT_MS = 10_000;

type Outcome = { given: true } | { given: false; why: string; sent: boolean };

const refusalText = (e: Error) =>
  e instanceof ApiError && e.reason ? `${e.message} ${e.reason}` : e.message;

/**
 * Sends one request per survivor and reports what the game answered for each (its itemGiven or
 * dinoCreated also lands in the survivor's log). Refusals are named; all refused is a failure.
 */
async function toEach(
  ctx: CommandContext,
  survivors: EntityRef[],
  send: (id: string) => Promise<{ requestId: string }>,
  what: string,
): Promise<CommandResult> {
  const outcomes = await Promise.all(
    survivors.map((s) =>
      send(s.id).then(
        async ({ requestId }): Promise<Outcome> => {
          const answer = await ctx.app.game.result(requestId, RESULT_MS).then(
            (r) => ('ok' in r ? r : null),
            () => null,
          );
          if (answer?.ok) return { given: true };
          return answer
            ? { given: false, sent: true, why: `the game refused: ${answer.error ?? 'no reason given'}` }
            : { given: false, sent: true, why: 'sent; the game has not answered yet' };
        },
        (e: Error): Outcome => ({ given: false, sent: false, why: refusalText(e) }),
      ),
    ),
  );
  const problems = survivors.flatMap((s, i) => {
    const o = outcomes[i];
    return o.given ? [] : [`${s.label}: ${o.why}`];
  });
  if (outcomes.every((o) => !o.given && !o.sent)) {
    // One survivor's refusal is the refusal itself, kept beside the field it names.
    if (survivors.length === 1) throw new CommandError((outcomes[0] as { why: string }).why);
    throw new CommandError(`Nothing was sent. ${problems.join('; ')}`);
  }
  const given = outcomes.filter((o) => o.given).length;
  return {
    message:
      `${what} given to ${given} survivor${given === 1 ? '' : 's'}.` +
      (problems.length ? ` ${problems.join('; ')}` : ''),
    table: {
      columns: ['Survivor', 'Server', 'Result'],
      rows: survivors.map((s, i) => {
        const o = outcomes[i];
        return [s.label, s.detail ?? '', o.given ? 'given' : o.why];
      }),
    },
  };
}

function survivorsOf(given: EntityRef | EntityRef[] | undefined): EntityRef[] {
  const s = asList(given);
  if (s.length === 0) throw new CommandError('Choose at least one survivor.', 'survivors');
  return s;
}

export const giveCommands = [
  defineCommand({
    id: 'survivor.giveItem',
    title: 'Give item',
    group,
    aliases: ['give'],
    description: 'Give an item, or its blueprint, to one or more survivors.',
    form: true,
    // In a list of survivors: give to the marked ones (or the active one); i for inventory.
    keys: ['i'],
    scope: 'list',
    args: {
      survivors: survivorsArg(),
      item: blueprint('item').describe(
        'Item path',
        'A path /Game/… or an item name; Choose… opens the picker',
      ),
      quantity: int()
        .describe('Quantity', 'A whole number from 1 to 99999')
        .check((v) => giveItemQuantity(v))
        .default(1),
      asBlueprint: bool().describe('As blueprint').default(false),
      stats: oneOf(['natural', 'exact'] as const)
        .describe('Stats', 'natural: quality decides them; exact: the stat values below')
        .default('natural'),
      quality: text()
        .describe('Quality', `0 to 100, or a tier: ${TIER_HELP}`)
        .suggest(ITEM_QUALITY_TIERS.map((t) => t.name))
        .check((v) => giveItemQuality(qualityOf(v)))
        .optional()
        .shownWhen('stats', 'natural'),
      tierReading: oneOf(QUALITY_READINGS)
        .describe('Tier reading', "A tier's quality as the game gives it, or where its tooltip starts")
        .default('game')
        .shownWhen('stats', 'natural'),
      minRandomQuality: float()
        .describe('Min random quality multiplier', '0 to 1; 0 gives the most randomness')
        .check((v) => minRandomQuality(v))
        .optional()
        .shownWhen('stats', 'natural'),
      respectStatClamps: bool().describe('Respect stat clamps').default(false).shownWhen('stats', 'natural'),
      itemRating: stat('Item rating'),
      genericQuality: stat('Generic quality'),
      armor: stat('Armor'),
      durability: stat('Durability'),
      damage: stat('Damage'),
      ammo: stat('Ammo'),
      hypothermal: stat('Hypothermal insulation'),
      hyperthermal: stat('Hyperthermal insulation'),
      weight: stat('Weight'),
    },
    permission: { server: Perm.ControlServices },
    run: async (a, ctx) => {
      const survivors = survivorsOf(a.survivors);
      const exact = a.stats === 'exact';
      const statValues = Object.fromEntries(
        (['itemRating', ...GIVE_ITEM_STATS] as const).flatMap((k) => (a[k] === undefined ? [] : [[k, a[k]]])),
      );
      if (exact && Object.keys(statValues).length === 0)
        throw new CommandError('Exact stats need at least one stat value.', 'itemRating');
      const payload: Record<string, unknown> = {
        itemPath: a.item,
        quantity: a.quantity,
        asBlueprint: a.asBlueprint,
        ...(exact
          ? statValues
          : {
              ...(a.quality ? { quality: qualityOf(a.quality, a.tierReading as QualityReading) } : {}),
              ...(a.minRandomQuality === undefined ? {} : { minRandomQuality: a.minRandomQuality }),
              respectStatClamps: a.respectStatClamps,
            }),
      };
      const p = giveItemPayload(payload);
      if (p) refuse(p.field === 'itemPath' ? { ...p, field: 'item' } : p);
      return toEach(ctx, survivors, (id) => ctx.app.api.giveItem(id, payload), 'Item');
    },
  }),
  defineCommand({
    id: 'survivor.giveDino',
    title: 'Give dino',
    group,
    aliases: ['givedino'],
    description:
      'Give a custom dino to one or more survivors. Without a species it opens the Custom Dino Creator.',
    keys: ['shift+i'],
    scope: 'list',
    args: {
      survivors: survivorsArg(),
      species: blueprint('creature')
        .describe('Species', 'A creature path /Game/… or a species name; blank: open the creator')
        .optional(),
      name: text().describe('Name', 'Blank: the game names it').optional(),
      level: int()
        .describe('Level', `1 to ${DINO_MAX_LEVEL}; blank: the game decides`)
        .check((v) => levelProblem(v))
        .optional(),
      stats: text()
        .describe('Wild stat points', 'melee=20 health=10 (0 to 255 each); a stat left out: the game decides')
        .check((v) => {
          const r = parseStatPoints(v);
          return 'error' in r ? r.error : null;
        })
        .optional(),
      gender: oneOf(['random', 'male', 'female'] as const)
        .describe('Gender')
        .default('random'),
      sterilized: bool().describe('Sterilized', 'Whether it cannot breed; no by default').default(false),
      age: float()
        .describe('Age %', '0 to 100; blank: adult')
        .check((v) => dinoAgeOrImprint('Age', v))
        .optional(),
      imprint: float()
        .describe('Imprint %', '0 to 100')
        .check((v) => dinoAgeOrImprint('Imprint', v))
        .optional(),
      colors: text()
        .describe('Colours', 'Six colour ids for regions 1–6, e.g. 1,2,3,0,0,0 (0: the game decides)')
        .check((v) => {
          const r = parseColors(v);
          return 'error' in r ? r.error : null;
        })
        .optional(),
      traits: list(text())
        .describe('Traits', 'Trait names, a name again for each more of it')
        .check((v) => traitsProblem(v))
        .optional(),
    },
    permission: { server: Perm.ControlServices },
    run: async (a, ctx) => {
      const survivors = asList(a.survivors);
      if (!a.species) {
        ctx.app.navigate(dinoCreatorPath(survivors));
        return undefined;
      }
      const payload = giveDinoRequest({
        species: a.species,
        name: a.name,
        level: a.level,
        stats: a.stats ? (parseStatPoints(a.stats) as { value: StatPoints }).value : undefined,
        gender: a.gender,
        sterilized: a.sterilized,
        age: a.age,
        imprint: a.imprint,
        colors: a.colors ? (parseColors(a.colors) as { value: number[] }).value : undefined,
        traits: a.traits,
      });
      return toEach(ctx, survivorsOf(survivors), (id) => ctx.app.api.giveDino(id, payload), 'Dino');
    },
  }),
  defineCommand({
    id: 'dino.create',
    title: 'Custom dino creator',
    group: 'Dinos',
    aliases: ['newdino'],
    description: 'Open the Custom Dino Creator.',
    args: {
      survivors: list(ref('survivor'))
        .describe('Survivors', 'Who receives it; blank: choose in the creator')
        .optional(),
    },
    run: ({ survivors }, ctx) => {
      ctx.app.navigate(dinoCreatorPath(asList(survivors)));
      return undefined;
    },
  }),
  defineCommand({
    id: 'pick.blueprint',
    title: 'Find blueprint',
    group: 'Blueprints',
    aliases: ['blueprints'],
    description: "Search the game's items or species; the chosen path is copied.",
    args: {
      kind: oneOf(['item', 'creature'] as const)
        .describe('Kind')
        .default('item'),
      search: text().describe('Search', 'Words of the name or path').optional().rest(),
    },
    run: async ({ kind, search }, ctx) => {
      if (ctx.surface === 'console') {
        const m = await loadCatalogue();
        const hits = m.searchBlueprints(kind, { text: search });
        return {
          message: `${hits.length} ${kind === 'item' ? 'items' : 'creatures'}${hits.length > 100 ? ', the first 100 shown' : ''}`,
          table: {
            columns: ['Name', 'Path', 'Mod'],
            rows: hits.slice(0, 100).map((b) => [b.name, b.path, b.pack]),
          },
        };
      }
      return copyPicked(ctx, await ctx.app.dialogs.pickBlueprint(kind, { text: search }));
    },
  }),
  defineCommand({
    id: 'pick.mod',
    title: 'Find blueprint by mod',
    group: 'Blueprints',
    aliases: ['mods'],
    description: 'Choose mods (content packs), then an item or species of theirs; the path is copied.',
    args: {
      kind: oneOf(['item', 'creature'] as const)
        .describe('Kind')
        .default('item'),
    },
    run: async ({ kind }, ctx) => {
      if (ctx.surface === 'console') {
        const m = await loadCatalogue();
        return {
          table: { columns: ['Mod Name', 'Folder'], rows: m.PACKS.map((p) => [p.name, `/Game/${p.folder}`]) },
        };
      }
      const packs = await ctx.app.dialogs.pickMods([]);
      if (!packs) return { message: 'Cancelled.' };
      return copyPicked(ctx, await ctx.app.dialogs.pickBlueprint(kind, { packs }));
    },
  }),
];

async function copyPicked(ctx: CommandContext, path: string | null): Promise<CommandResult> {
  if (!path) return { message: 'Cancelled.' };
  await ctx.app.clipboard.copy(path);
  return { message: `Copied ${path}` };
}

/** What the Custom Dino Creator and the console hold, before it becomes the API's request. */
interface DinoDraft {
  species: string;
  name?: string;
  level?: number;
  stats?: StatPoints;
  gender: 'random' | 'male' | 'female';
  sterilized: boolean;
  /** Percent, 0–100, as the form shows it; the API takes a fraction. */
  age?: number;
  imprint?: number;
  colors?: number[];
  traits?: string[];
}

/** The giveDino request of a draft, checked by the API's validator: its refusal names the field. */
function giveDinoRequest(d: DinoDraft): Record<string, unknown> {
  const stats = d.stats && Object.keys(d.stats).length ? d.stats : undefined;
  const payload: Record<string, unknown> = {
    dinoPath: d.species,
    ...(d.name ? { name: d.name } : {}),
    ...(d.level === undefined ? {} : { level: d.level }),
    ...(stats ? { stats: Object.fromEntries(Object.entries(stats).map(([k, v]) => [String(k), v])) } : {}),
    ...(d.gender === 'random' ? {} : { isFemale: d.gender === 'female' }),
    isSterilized: d.sterilized,
    ...(d.age === undefined ? {} : { age: d.age / 100 }),
    ...(d.imprint === undefined ? {} : { imprint: d.imprint / 100 }),
    ...(d.colors ? { colors: d.colors } : {}),
    ...(d.traits?.length ? { traits: d.traits } : {}),
  };
  const p = giveDinoPayload(payload);
  if (p) refuse(p.field === 'dinoPath' ? { ...p, field: 'species' } : p);
  return payload;
}
