// "Where am I", answered once (DESIGN.md): one table of the entity kinds and their routes, read
// both ways (route → kind, id, tab; kind, id, tab → route), and whose permission mask (SENTINEL-API
// §7) applies to what is in view. The palette, the console pane, menus, links and every command
// read it; nothing else parses a route.

export const ENTITY_KINDS = [
  'server',
  'group',
  'player',
  'survivor',
  'tribe',
  'dino',
  'script',
  'bucket',
  'log',
  'alert',
  'destination',
] as const;
export type EntityKind = (typeof ENTITY_KINDS)[number];

/** The kinds that hold a permission mask of their own (§7: service, group, bucket, script views). */
export type MaskHolder = 'server' | 'group' | 'bucket' | 'script';

interface KindRoute {
  /** The first segment of the kind's routes. */
  section: string;
  /** Older first segments that still lead here (SPEC §2 redirects). */
  aliases?: readonly string[];
  /** The tab shown without one in the route, so it is left out of links. */
  defaultTab?: string;
  /** Whose mask applies to an entity of this kind: its own, its server's, or none (players are public). */
  mask: 'own' | 'server' | null;
}

export const KIND_ROUTES: Record<EntityKind, KindRoute> = {
  server: { section: 'servers', aliases: ['services'], defaultTab: 'logs', mask: 'own' },
  group: { section: 'groups', defaultTab: 'services', mask: 'own' },
  player: { section: 'players', defaultTab: 'logs', mask: null },
  survivor: { section: 'characters', aliases: ['survivors'], mask: 'server' },
  tribe: { section: 'tribes', mask: 'server' },
  dino: { section: 'dinos', mask: 'server' },
  script: { section: 'scripts', mask: 'own' },
  bucket: { section: 'buckets', defaultTab: 'data', mask: 'own' },
  log: { section: 'logs', mask: 'server' },
  // An account's own (the alerts issue): no mask, nobody else's to see.
  alert: { section: 'alerts', mask: null },
  destination: { section: 'destinations', mask: null },
};

const KIND_OF_SECTION = new Map<string, EntityKind>(
  ENTITY_KINDS.flatMap((kind) => {
    const r = KIND_ROUTES[kind];
    return [r.section, ...(r.aliases ?? [])].map((s) => [s, kind] as [string, EntityKind]);
  }),
);

/** What a route shows: a section (`servers`), and on an entity's page its kind, id and tab. */
export interface Place {
  section: string;
  kind: EntityKind | null;
  id: string | null;
  /** null on the kind's default tab. */
  tab: string | null;
}

/** The Workshop's place in the scripts section: `/scripts/workshop`, `/scripts/workshop/{id}`. */
export const WORKSHOP = 'workshop';

export function placeOf(route: string): Place {
  const parts = route.split(/[?#]/)[0].split('/').filter(Boolean);
  // `/scripts/workshop/{id}` previews a script of the Workshop: the script is the part after it.
  if (parts[0] === KIND_ROUTES.script.section && parts[1] === WORKSHOP) parts.splice(1, 1);
  const [section = '', rawId, rawTab] = parts;
  const kind = KIND_OF_SECTION.get(section) ?? null;
  // `/dinos/add` and `/scripts/add` are creators in a section, not an entity called "add".
  const id = kind && rawId && rawId !== 'add' ? decodeURIComponent(rawId) : null;
  const tab = id && rawTab && rawTab !== KIND_ROUTES[kind!].defaultTab ? rawTab : null;
  return { section: kind ? KIND_ROUTES[kind].section : section, kind: id ? kind : null, id, tab };
}

/** The route of an entity (its page, or one of its tabs), or of a kind's section without an id. */
export function pathOf(kind: EntityKind, id?: string, tab?: string): string {
  const r = KIND_ROUTES[kind];
  if (id === undefined) return `/${r.section}`;
  const shownTab = tab && tab !== r.defaultTab ? `/${tab}` : '';
  return `/${r.section}/${encodeURIComponent(id)}${shownTab}`;
}

/** The kind whose mask governs an entity of `kind` (its own, its server's), or null when none does. */
export function maskHolderOf(kind: EntityKind | null): MaskHolder | null {
  if (!kind) return null;
  const m = KIND_ROUTES[kind].mask;
  return m === 'own' ? (kind as MaskHolder) : m === 'server' ? 'server' : null;
}

export interface Ref {
  kind: EntityKind;
  id: string;
  label: string;
}

/** The rows a view hands over: their kind, ids and, where it knows them, their labels. */
export interface Selection {
  kind: EntityKind | null;
  ids: string[];
  /** Labels by id, for messages ("Sent to Island PvE"); an id stands in for a missing one. */
  labels?: Readonly<Record<string, string>>;
}

export const NO_SELECTION: Selection = { kind: null, ids: [] };

/** A selection of references, as a list or a page hands it over. */
export function selectionOf(refs: readonly Ref[]): Selection {
  if (refs.length === 0) return NO_SELECTION;
  return {
    kind: refs[0].kind,
    ids: refs.map((r) => r.id),
    labels: Object.fromEntries(refs.map((r) => [r.id, r.label])),
  };
}

/**
 * The entities of `kinds` in view: the selected ones when the selection is of such a kind,
 * else the route's entity when it is. `label` names an entity the selection does not label.
 */
export function refsInView(
  route: string,
  selection: Selection,
  kinds: readonly EntityKind[],
  label: (kind: EntityKind, id: string) => string | undefined = () => undefined,
): Ref[] {
  const named = (kind: EntityKind, id: string): Ref => ({
    kind,
    id,
    label: selection.labels?.[id] ?? label(kind, id) ?? id,
  });
  if (selection.kind && kinds.includes(selection.kind) && selection.ids.length)
    return selection.ids.map((id) => named(selection.kind!, id));
  const place = placeOf(route);
  return place.kind && place.id && kinds.includes(place.kind) ? [named(place.kind, place.id)] : [];
}

/** Bits a command needs: on whatever mask holder is in view, or per kind of holder. */
export type PermissionNeed = number | Partial<Record<MaskHolder, number>>;

/** The bits `need` asks of a holder of `kind`; 0 when it asks none there. */
export function bitsNeeded(need: PermissionNeed | undefined, kind: MaskHolder | null): number {
  if (need === undefined) return 0;
  if (typeof need === 'number') return need;
  return kind ? (need[kind] ?? 0) : 0;
}
