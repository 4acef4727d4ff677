// Argument schemas: one declaration read by the palette's prompts, the console's parser and
// completion, dialogs' forms and `npm run commands`. Parsing is async because an entity name
// may have to be looked up beyond what the store holds.

import { COORDS_MESSAGE, type Coords, parseCoords } from '../src/domain/coords.ts';
import { DURATION_MESSAGE, parseDuration } from '../src/domain/duration.ts';
import { COLOR_CHOICES, type ColorChoice } from '../src/domain/enums.ts';
import type { EntityKind } from '../src/domain/resolver.ts';
import { itemPath } from '../src/domain/validate.ts';

export { ENTITY_KINDS, type EntityKind } from '../src/domain/resolver.ts';

export interface EntityRef {
  kind: EntityKind;
  id: string;
  label: string;
  /** Extra text shown beside the label (server, tribe, …) and searched. */
  detail?: string;
  /** The caller's bits on it, when its record carries them (SENTINEL-API §7). */
  mask?: number;
  /** The server it belongs to (a log line's, a survivor's), whose mask applies to it. */
  server?: string;
}

/** An argument that may hold one picked entity or a list of them, as a list. */
export const asList = (v: EntityRef | EntityRef[] | undefined | null): EntityRef[] =>
  Array.isArray(v) ? v : v ? [v] : [];

/** How the API names a server or group a request is for (bans, chat, game commands). */
export const ownerOf = (t: EntityRef): { groupId: string } | { serviceId: string } =>
  t.kind === 'group' ? { groupId: t.id } : { serviceId: t.id };

/** What parsing and completion need from the app: the entity store, and the API behind it. */
export interface EntityLookup {
  /** Fast, from the store; used for completion on every key press. */
  search(kinds: readonly EntityKind[], query: string, limit: number): EntityRef[];
  /** Exact id or name match, asking the API when the store has none. */
  resolve(kinds: readonly EntityKind[], text: string): Promise<EntityRef[]>;
  /** The name the store holds for an entity, if it holds one. */
  label?(kind: EntityKind, id: string): string | undefined;
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: string };
const ok = <T>(value: T): ParseResult<T> => ({ ok: true, value });
const fail = (error: string): ParseResult<never> => ({ ok: false, error });

type ArgType = 'text' | 'number' | 'boolean' | 'enum' | 'duration' | 'coords' | 'ref' | 'list' | 'blueprint';

export type BlueprintKind = 'item' | 'creature';

interface ArgConfig {
  type: ArgType;
  label?: string;
  help?: string;
  optional: boolean;
  rest: boolean;
  defaultValue?: unknown;
  min?: number;
  max?: number;
  int?: boolean;
  minMessage?: string;
  maxMessage?: string;
  pattern?: RegExp;
  patternMessage?: string;
  check?: (value: unknown) => string | null;
  values?: readonly string[];
  /**
   * How a form shows a value when plain text would not do: a swatch per colour, or a secret
   * (a password) hidden as it is typed.
   */
  widget?: 'colour' | 'secret';
  /** What a text argument is usually given (quality tiers), offered as completions. */
  suggestions?: readonly string[];
  /** A blueprint argument's kind: an item path or a creature path, typed or picked. */
  blueprint?: BlueprintKind;
  kinds?: readonly EntityKind[];
  item?: Arg<unknown>;
  /** Where a missing ref is taken from: the selection or the route (default), the selection only, never. */
  fromView?: 'selection' | 'never';
  /** A field a form shows only while another argument has one of these values (exact stats). */
  when?: { arg: string; is: readonly string[] };
}

const TRUE = new Set(['true', 'yes', 'on', '1', 'y']);
const FALSE = new Set(['false', 'no', 'off', '0', 'n']);
/** Whether typed text means yes (`true`, `on`, `1`, …), as a boolean argument parses it. */
export const isYes = (text: string): boolean => TRUE.has(text.trim().toLowerCase());

/** One argument. Builders return new instances, so a base can be shared and refined. */
export class Arg<T> {
  constructor(readonly cfg: ArgConfig) {}

  private with<U = T>(patch: Partial<ArgConfig>): Arg<U> {
    return new Arg<U>({ ...this.cfg, ...patch });
  }
  get type(): ArgType {
    return this.cfg.type;
  }
  get isOptional(): boolean {
    return this.cfg.optional;
  }
  get isRest(): boolean {
    return this.cfg.rest;
  }
  get values(): readonly string[] | undefined {
    return this.cfg.values;
  }
  get widget(): 'colour' | 'secret' | undefined {
    return this.cfg.widget;
  }
  /** A password: typed hidden, and masked wherever a typed line is kept or shown again. */
  get isSecret(): boolean {
    return this.cfg.widget === 'secret';
  }
  get suggestions(): readonly string[] | undefined {
    return this.cfg.suggestions;
  }
  get blueprint(): BlueprintKind | undefined {
    return this.cfg.blueprint;
  }
  get bounds(): { min?: number; max?: number } {
    return { min: this.cfg.min, max: this.cfg.max };
  }
  get kinds(): readonly EntityKind[] | undefined {
    return this.cfg.kinds ?? this.cfg.item?.kinds;
  }
  get item(): Arg<unknown> | undefined {
    return this.cfg.item;
  }
  get label(): string | undefined {
    return this.cfg.label;
  }
  get help(): string | undefined {
    return this.cfg.help;
  }
  get defaultValue(): unknown {
    return this.cfg.defaultValue;
  }
  get fromView(): 'route' | 'selection' | 'never' {
    return this.cfg.fromView ?? 'route';
  }
  get when(): { arg: string; is: readonly string[] } | undefined {
    return this.cfg.when;
  }

  optional(): Arg<T | undefined> {
    return this.with({ optional: true });
  }
  default(value: T): Arg<T> {
    return this.with({ optional: true, defaultValue: value });
  }
  describe(label: string, help?: string): Arg<T> {
    return this.with({ label, help });
  }
  /** A ref the selection may supply but the route may not (opening what is already open does nothing). */
  selectedOnly(): Arg<T> {
    return this.with({ fromView: 'selection' });
  }
  /** A ref always asked for, never taken from where the user is. */
  alwaysAsked(): Arg<T> {
    return this.with({ fromView: 'never' });
  }
  /** Shown in a form only while `arg` is one of `values`: fields that mean nothing otherwise stay out of the way. */
  shownWhen(arg: string, ...values: string[]): Arg<T> {
    return this.with({ when: { arg, is: values } });
  }
  /** A trailing text argument that takes the rest of the console line. */
  rest(): Arg<T> {
    return this.with({ rest: true });
  }
  min(n: number, message?: string): Arg<T> {
    return this.with({ min: n, minMessage: message });
  }
  max(n: number, message?: string): Arg<T> {
    return this.with({ max: n, maxMessage: message });
  }
  matches(pattern: RegExp, message: string): Arg<T> {
    return this.with({ pattern, patternMessage: message });
  }
  /** Completions offered for a text argument. */
  suggest(values: readonly string[]): Arg<T> {
    return this.with({ suggestions: values });
  }
  /** A domain validator (from src/domain/validate.ts) run after parsing. */
  check(fn: (value: T) => string | null): Arg<T> {
    return this.with({ check: fn as (v: unknown) => string | null });
  }

  /**
   * What a value looks like, in words, for a prompt whose argument has no help of its own: the
   * palette showed `asBlueprint:boolean`, the console's usage form, to people.
   */
  hint(): string {
    const { type, min, max, values, kinds } = this.cfg;
    const range =
      min !== undefined && max !== undefined
        ? ` from ${min} to ${max}`
        : min !== undefined
          ? ` from ${min}`
          : '';
    switch (type) {
      case 'boolean':
        return 'Yes or no.';
      case 'number':
        return `${this.cfg.int ? 'A whole number' : 'A number'}${range}.`;
      case 'enum':
        return `One of: ${(values ?? []).join(', ')}.`;
      case 'duration':
        return 'A length of time, such as 30m, 12h or 7d.';
      case 'coords':
        return 'A place: x y z.';
      case 'ref':
        return `A ${(kinds ?? []).join(' or ')}, by name or id.`;
      case 'list':
        return `${this.cfg.item?.hint().replace(/\.$/, '') ?? 'Values'}, several separated by commas.`;
      case 'blueprint':
        return 'A class path, or pick one from the list.';
      default:
        return '';
    }
  }

  /** `<name>` or `[name]` with the expected form, for help and prompts. */
  usage(name: string): string {
    const shape =
      this.cfg.type === 'enum'
        ? (this.cfg.values ?? []).join('|')
        : this.cfg.type === 'ref'
          ? (this.cfg.kinds ?? []).join('|')
          : this.cfg.type === 'list'
            ? `${this.cfg.item?.usage(name).replace(/^[<[]|[>\]]$/g, '')},…`
            : this.cfg.type;
    const body = shape === name || shape === 'text' ? name : `${name}:${shape}`;
    return this.cfg.optional ? `[${body}]` : `<${body}>`;
  }

  async parse(raw: string, env: EntityLookup): Promise<ParseResult<T>> {
    const text = raw.trim();
    if (text === '' && this.cfg.type !== 'duration' && this.cfg.type !== 'text') {
      if (this.cfg.optional) return ok(this.cfg.defaultValue as T);
      return fail(`${this.cfg.label ?? 'A value'} is required.`);
    }
    const r = await this.parseValue(raw, text, env);
    if (!r.ok) return r;
    const msg = this.cfg.check?.(r.value) ?? null;
    return msg ? fail(msg) : r;
  }

  private async parseValue(raw: string, text: string, env: EntityLookup): Promise<ParseResult<T>> {
    const c = this.cfg;
    const label = c.label ?? 'The value';
    switch (c.type) {
      case 'text': {
        if (text === '' && c.optional) return ok(c.defaultValue as T);
        if (c.min !== undefined && text.length < c.min)
          return fail(
            c.minMessage ??
              (c.min <= 1 ? `${label} is required.` : `${label} needs at least ${c.min} characters.`),
          );
        if (c.max !== undefined && text.length > c.max)
          return fail(c.maxMessage ?? `${label} can be at most ${c.max} characters.`);
        if (c.pattern && !c.pattern.test(text))
          return fail(c.patternMessage ?? `${label} is not in the right form.`);
        // A secret is taken as typed: spaces at either end may be part of a password.
        return ok((c.widget === 'secret' ? raw : c.rest ? raw.trim() : text) as T);
      }
      case 'number': {
        const n = Number(text);
        if (!Number.isFinite(n)) return fail(`${label} must be a number.`);
        if (c.int && !Number.isInteger(n)) return fail(`${label} must be a whole number.`);
        if (c.min !== undefined && n < c.min)
          return fail(c.minMessage ?? `${label} must be at least ${c.min}.`);
        if (c.max !== undefined && n > c.max)
          return fail(c.maxMessage ?? `${label} must be at most ${c.max}.`);
        return ok(n as T);
      }
      case 'boolean': {
        const t = text.toLowerCase();
        if (TRUE.has(t)) return ok(true as T);
        if (FALSE.has(t)) return ok(false as T);
        return fail(`${label} must be yes or no.`);
      }
      case 'enum': {
        const values = c.values ?? [];
        const hit = values.find((v) => v.toLowerCase() === text.toLowerCase());
        return hit ? ok(hit as T) : fail(`${label} must be one of: ${values.join(', ')}.`);
      }
      case 'duration':
        try {
          return ok(parseDuration(text) as T);
        } catch {
          return fail(DURATION_MESSAGE);
        }
      case 'coords':
        try {
          return ok(parseCoords(text) as T);
        } catch {
          return fail(COORDS_MESSAGE);
        }
      case 'ref': {
        const kinds = c.kinds ?? [];
        const hits = await env.resolve(kinds, text);
        const noun = kinds.join(' or ');
        if (hits.length === 0) return fail(`No ${noun} matches "${text}".`);
        if (hits.length > 1) {
          const names = hits
            .slice(0, 5)
            .map((h) => `${h.label} (${h.id})`)
            .join(', ');
          return fail(`Several ${noun}s match "${text}": ${names}. Use the id.`);
        }
        return ok(hits[0] as T);
      }
      case 'blueprint':
        return (await blueprintPath(c.blueprint!, text)) as ParseResult<T>;
      case 'list': {
        const parts = splitList(text);
        const out: unknown[] = [];
        for (const p of parts) {
          const r = await c.item!.parse(p, env);
          if (!r.ok) return r;
          out.push(r.value);
        }
        if (out.length === 0 && !c.optional) return fail(`${label} needs at least one value.`);
        return ok(out as T);
      }
    }
  }

  /** Completions for a partial value, from the store only (synchronous, cheap). */
  complete(prefix: string, env: EntityLookup, limit = 50): string[] {
    const c = this.cfg;
    const p = prefix.toLowerCase();
    switch (c.type) {
      case 'enum':
        return (c.values ?? []).filter((v) => v.toLowerCase().startsWith(p));
      case 'boolean':
        return ['yes', 'no'].filter((v) => v.startsWith(p));
      case 'duration':
        return ['1h', '12h', '1d', '7d', '30d', 'permanent'].filter((v) => v.startsWith(p));
      case 'ref':
        return env.search(c.kinds ?? [], prefix, limit).map((r) => r.label);
      case 'blueprint':
        return blueprintNames(c.blueprint!, prefix, limit);
      case 'text':
        return (c.suggestions ?? []).filter((v) => v.toLowerCase().startsWith(p));
      case 'list': {
        const head = prefix.slice(0, prefix.lastIndexOf(',') + 1);
        const tail = prefix.slice(head.length);
        return c.item!.complete(tail, env, limit).map((v) => head + v);
      }
      default:
        return [];
    }
  }

  toJSON(): Record<string, unknown> {
    const c = this.cfg;
    return {
      type: c.type,
      ...(c.label ? { label: c.label } : {}),
      optional: c.optional,
      ...(c.rest ? { rest: true } : {}),
      ...(c.min !== undefined ? { min: c.min } : {}),
      ...(c.max !== undefined ? { max: c.max } : {}),
      ...(c.int ? { int: true } : {}),
      ...(c.values ? { values: c.values } : {}),
      ...(c.kinds ? { kinds: c.kinds } : {}),
      ...(c.item ? { item: c.item.toJSON() } : {}),
      ...(c.blueprint ? { blueprint: c.blueprint } : {}),
      ...(c.widget === 'secret' ? { secret: true } : {}),
    };
  }
}

// The blueprint catalogue is 600 kB: loaded on first use of a blueprint argument, never with the shell.
type Catalogue = typeof import('../src/domain/blueprints/index.ts');
let catalogue: Catalogue | null = null;
let loading: Promise<Catalogue> | null = null;
export function loadCatalogue(): Promise<Catalogue> {
  loading ??= import('../src/domain/blueprints/index.ts').then((m) => {
    catalogue = m;
    return m;
  });
  return loading;
}

/**
 * A blueprint path as typed (`/Game/…`, `Blueprint'…'`), or a name of the catalogue that names
 * one blueprint of the kind (`Metal Ingot`).
 */
async function blueprintPath(kind: BlueprintKind, text: string): Promise<ParseResult<string>> {
  const m = await loadCatalogue();
  const path = m.normalisePath(text);
  if (path.startsWith('/')) return ok(path);
  const list: readonly { name: string; path: string }[] = kind === 'item' ? m.ITEMS : m.CREATURES;
  const named = list.filter((b) => b.name.toLowerCase() === text.toLowerCase());
  if (named.length === 1) return ok(named[0].path);
  if (named.length > 1)
    return fail(
      `Several ${kind}s are called "${text}": ${named.map((b) => b.path).join(', ')}. Use the path.`,
    );
  // Neither a path nor a name: an item's message is the spec's, a creature's says the same.
  return fail(
    kind === 'item' ? (itemPath(path) ?? '') : `No species is called "${text}"; a path starts with /.`,
  );
}

/** Catalogue names starting with the prefix; none until the catalogue has loaded (it starts loading). */
function blueprintNames(kind: BlueprintKind, prefix: string, limit: number): string[] {
  if (!catalogue) {
    void loadCatalogue();
    return [];
  }
  const p = prefix.toLowerCase();
  const list: readonly { name: string }[] = kind === 'item' ? catalogue.ITEMS : catalogue.CREATURES;
  return [...new Set(list.filter((b) => b.name.toLowerCase().startsWith(p)).map((b) => b.name))].slice(
    0,
    limit,
  );
}

/** Splits `a, "b, c", d` into items, honouring quotes. */
export function splitList(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: string | null = null;
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = null;
      else cur += ch;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === ',') {
      if (cur.trim()) out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

const base = (type: ArgType, extra: Partial<ArgConfig> = {}): ArgConfig => ({
  type,
  optional: false,
  rest: false,
  ...extra,
});

export const text = () => new Arg<string>(base('text'));
export const int = (opts: { min?: number; max?: number } = {}) =>
  new Arg<number>(base('number', { int: true, ...opts }));
export const float = (opts: { min?: number; max?: number } = {}) => new Arg<number>(base('number', opts));
/** Text typed hidden in the palette and forms (a password): write-only, never shown back. */
export const secret = () => new Arg<string>(base('text', { widget: 'secret' }));
export const bool = () => new Arg<boolean>(base('boolean'));
export const oneOf = <const V extends readonly string[]>(values: V) =>
  new Arg<V[number]>(base('enum', { values }));
/** A server colour of SPEC §3, shown as swatches in a form. */
export const colour = () => new Arg<ColorChoice>(base('enum', { values: COLOR_CHOICES, widget: 'colour' }));
/** Seconds, or null for permanent (blank). */
export const duration = () =>
  new Arg<number | null>(base('duration', { optional: true, defaultValue: null }));
export const coords = () => new Arg<Coords>(base('coords'));
/** An item or creature class path, typed, named from the catalogue, or picked in a form. */
export const blueprint = (kind: BlueprintKind) => new Arg<string>(base('blueprint', { blueprint: kind }));
export const ref = (...kinds: EntityKind[]) => new Arg<EntityRef>(base('ref', { kinds }));
export const list = <T>(item: Arg<T>) => new Arg<T[]>(base('list', { item: item as Arg<unknown> }));

export type ArgsShape = Record<string, Arg<unknown>>;
export type ArgValues<A extends ArgsShape> = { [K in keyof A]: A[K] extends Arg<infer T> ? T : never };
