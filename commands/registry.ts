// The command registry: types, `defineCommand`, and the one `execute` every surface calls.
// Modelled on VS Code's registerAction2 (one declaration, many surfaces) and Excalidraw's
// action manager (it refuses two actions on one key).

import { Msg } from '../src/domain/messages.ts';
import { hasAll, PERMISSION_LABELS, Perm, type PermName } from '../src/domain/permissions.ts';
import {
  bitsNeeded,
  type EntityKind,
  maskHolderOf,
  type PermissionNeed,
  placeOf,
  refsInView,
} from '../src/domain/resolver.ts';
import { ApiError } from '../src/web/api/http.ts';
import { type ArgsShape, type ArgValues, asList, type EntityLookup, type EntityRef } from './args.ts';
import type { CommandContext, CommandResult } from './context.ts';

/** Where a hotkey applies. A key may mean different things in different scopes, never twice in one. */
export type KeyScope = 'global' | 'list' | 'chart' | 'terminal';
/** Scopes whose keys are pressed while global sequences are live (the terminal takes every key). */
const NESTED_SCOPES: readonly KeyScope[] = ['list', 'chart'];

export interface CommandSpec<A extends ArgsShape = ArgsShape, Id extends string = string> {
  id: Id;
  title: string;
  group: string;
  description?: string;
  /** Short names for the console pane (`ban`, `servers`, …). */
  aliases?: string[];
  args?: A;
  /** Key strings: chords by `+` (`mod+k`, `shift+f10`), sequences by `>` (`g>s`); see keyNames.ts. */
  keys?: string[];
  scope?: KeyScope;
  /** Whether its keys act in text fields too; by default keys with a modifier do (Ctrl+Z undoes the field's text). */
  keysInFields?: boolean;
  /**
   * Bits needed (SPEC §6) on the mask holder in view and on each server or group the command is
   * given: the same bits everywhere, or per kind of holder (a group ban needs manage bans where a
   * server ban needs control servers).
   */
  permission?: PermissionNeed;
  /** Whether the command is offered here at all. */
  when?: (ctx: CommandContext) => boolean;
  /** true, or why it cannot run now. */
  enabled?: (ctx: CommandContext) => true | string;
  danger?: 'confirm';
  /** A dialog of the spec (Give Item): menus, toolbars and hotkeys open it as a form to fill in, not the palette. */
  form?: true;
  run: (
    args: ArgValues<A>,
    ctx: CommandContext,
  ) => Promise<CommandResult | undefined> | CommandResult | undefined;
}

export type Command<Id extends string = string> = CommandSpec<ArgsShape, Id>;

/** One command; its id stays a literal type, so the catalogue's ids form a union (CommandId). */
export function defineCommand<const Id extends string, A extends ArgsShape>(
  spec: CommandSpec<A, Id>,
): Command<Id> {
  return spec as unknown as Command<Id>;
}

/**
 * A key a surface handles itself (a list's j/k, Space, Enter), declared so the conflict check and
 * the shortcuts dialog know it as they know commands' keys.
 */
export interface ReservedKey {
  id: string;
  title: string;
  keys: readonly string[];
  scope: KeyScope;
}

/** A maker of a surface's own keys in its scope: `reservedKeys('list')('list.next', 'Next row', 'j')`. */
export const reservedKeys =
  <S extends KeyScope>(scope: S) =>
  <const I extends string>(id: I, title: string, ...keys: string[]) =>
    ({ id, title, keys, scope }) as const satisfies ReservedKey;

/** What a key means in a scope: a command to run or a key its surface handles. */
export type KeyBinding = { command: Command; reserved?: never } | { reserved: ReservedKey; command?: never };

export class Registry {
  private byId = new Map<string, Command>();
  private byName = new Map<string, Command>();
  private byKey = new Map<string, KeyBinding>();
  /** `scope:g` for every sequence `g>…`, so a dispatcher knows to wait for the next key. */
  private prefixes = new Set<string>();
  private reservedKeys: ReservedKey[] = [];

  /**
   * Throws when one of the keys is taken in the scope, naming both owners; or when a global
   * sequence goes on with a key a list or chart takes itself (`g` then `k` in a list is the list's
   * `k`: the sequence could never be typed there).
   */
  private checkKeys(id: string, scope: KeyScope, keys: readonly string[]): void {
    for (const key of keys) {
      const k = normaliseKey(key);
      const other = this.byKey.get(`${scope}:${k}`);
      if (other)
        throw new Error(
          `Key ${key} of ${id} is already bound to ${other.command?.id ?? other.reserved?.id} in scope ${scope}.`,
        );
      if (scope !== 'global') continue;
      for (const chord of k.split('>').slice(1))
        for (const inner of NESTED_SCOPES) {
          const taken = this.byKey.get(`${inner}:${chord}`);
          if (taken)
            throw new Error(
              `Key ${key} of ${id} goes on with ${chord}, which ${taken.command?.id ?? taken.reserved?.id} takes in scope ${inner}.`,
            );
        }
    }
  }

  private bind(scope: KeyScope, keys: readonly string[], binding: KeyBinding): void {
    for (const key of keys) {
      const k = normaliseKey(key);
      this.byKey.set(`${scope}:${k}`, binding);
      const chords = k.split('>');
      for (let i = 1; i < chords.length; i++) this.prefixes.add(`${scope}:${chords.slice(0, i).join('>')}`);
    }
  }

  register(...commands: Command[]): this {
    for (const c of commands) {
      if (this.byId.has(c.id)) throw new Error(`Command ${c.id} is registered twice.`);
      for (const name of c.aliases ?? []) {
        const other = this.byName.get(name) ?? this.byId.get(name);
        if (other) throw new Error(`Alias "${name}" of ${c.id} is already taken by ${other.id}.`);
      }
      this.checkKeys(c.id, c.scope ?? 'global', c.keys ?? []);
      this.byId.set(c.id, c);
      for (const name of c.aliases ?? []) this.byName.set(name, c);
      this.bind(c.scope ?? 'global', c.keys ?? [], { command: c });
    }
    return this;
  }

  reserve(...keys: readonly ReservedKey[]): this {
    for (const r of keys) {
      this.checkKeys(r.id, r.scope, r.keys);
      this.bind(r.scope, r.keys, { reserved: r });
      this.reservedKeys.push(r);
    }
    return this;
  }

  /** The first of `names` (most specific first, see keyNames) bound in the scope. */
  binding(scope: KeyScope, names: readonly string[]): KeyBinding | undefined {
    for (const n of names) {
      const hit = this.byKey.get(`${scope}:${n}`);
      if (hit) return hit;
    }
    return undefined;
  }

  /** Whether one of `names` starts a key sequence in the scope (`g` of `g>s`). */
  startsSequence(scope: KeyScope, names: readonly string[]): boolean {
    return names.some((n) => this.prefixes.has(`${scope}:${n}`));
  }

  reserved(): readonly ReservedKey[] {
    return this.reservedKeys;
  }

  get(id: string): Command | undefined {
    return this.byId.get(id);
  }

  /** An id or an alias, as typed in the console. */
  find(name: string): Command | undefined {
    return this.byId.get(name) ?? this.byName.get(name);
  }

  all(): Command[] {
    return [...this.byId.values()];
  }

  names(): string[] {
    return [...this.byId.keys(), ...this.byName.keys()];
  }

  toJSON() {
    return this.all().map((c) => ({
      id: c.id,
      title: c.title,
      group: c.group,
      aliases: c.aliases ?? [],
      args: Object.fromEntries(Object.entries(c.args ?? {}).map(([k, a]) => [k, a.toJSON()])),
      keys: c.keys ?? [],
      scope: c.scope ?? 'global',
      permission: c.permission ?? null,
      danger: c.danger ?? null,
    }));
  }
}

export const unknownCommandMessage = (name: string) =>
  `Unknown command "${name}". Type help to list commands.`;

/** `ban.create <player> [expires:duration] <comments>…` */
export function usage(cmd: Command): string {
  const args = Object.entries(cmd.args ?? {}).map(([n, a]) => a.usage(n) + (a.isRest ? '…' : ''));
  return [cmd.id, ...args].join(' ');
}

/** `Mod+Shift+K` and `shift+mod+k` are one key. */
export function normaliseKey(key: string): string {
  return key
    .toLowerCase()
    .split('>')
    .map((chord) => chord.split('+').sort().join('+'))
    .join('>');
}

/** The refusal of SPEC §8, naming the bits that are missing. */
function permissionReason(bits: number): string {
  return `${Msg.forbidden} (${bitNames(bits).join(' and ')}).`;
}

const bitNames = (bits: number) =>
  (Object.keys(Perm) as PermName[]).filter((k) => bits & Perm[k]).map((k) => PERMISSION_LABELS[k]);

/** A command's permission in words, for help: "control servers", or per kind of holder. */
export function permissionText(need: PermissionNeed | undefined): string {
  if (need === undefined) return '';
  if (typeof need === 'number') return bitNames(need).join(', ');
  return Object.entries(need)
    .map(([kind, bits]) => `${bitNames(bits ?? 0).join(', ')} on a ${kind}`)
    .join('; ');
}

/** Why the caller's mask on `of` (the holder in view when omitted) refuses the command, if it does. */
function refusal(cmd: Command, ctx: CommandContext, of?: { kind: EntityKind; id: string }): string | null {
  if (cmd.permission === undefined) return null;
  const bits = bitsNeeded(cmd.permission, maskHolderOf(of?.kind ?? placeOf(ctx.route).kind));
  if (!bits) return null;
  const mask = ctx.permissions(of);
  return mask !== null && !hasAll(mask, bits) ? permissionReason(bits) : null;
}

/**
 * Refuses with the same words as a declared permission when the caller's mask on `target` lacks
 * `bits`: for a command whose need depends on which arguments were given.
 */
export function requireBits(ctx: CommandContext, target: EntityRef, bits: number): void {
  const mask = ctx.permissions(target);
  if (mask !== null && !hasAll(mask, bits))
    throw new CommandError(`${target.label}: ${permissionReason(bits)}`);
}

/** true when the command can run in ctx, or the reason it cannot. */
export function availability(cmd: Command, ctx: CommandContext): true | string {
  return refusal(cmd, ctx) ?? cmd.enabled?.(ctx) ?? true;
}

const refKinds = (cmd: Command, name: string): readonly EntityKind[] | undefined => {
  const arg = cmd.args?.[name];
  return arg && (arg.type === 'ref' || arg.item?.type === 'ref') ? arg.kinds : undefined;
};

/**
 * Values for the `ref` and `list(ref)` arguments not given, from the selection or the route
 * (through the resolver): views hand over their selection, never argument names.
 */
export function valuesInView(cmd: Command, ctx: CommandContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, arg] of Object.entries(cmd.args ?? {})) {
    const kinds = refKinds(cmd, name);
    if (!kinds || arg.fromView === 'never') continue;
    const route = arg.fromView === 'selection' ? '/' : ctx.route;
    const refs = refsInView(route, ctx.selection, kinds, (k, id) => ctx.entities.label?.(k, id));
    if (refs.length) out[name] = arg.type === 'list' ? refs : refs[0];
  }
  return out;
}

/** What is given, with what the view supplies for the rest. */
function withView(
  cmd: Command,
  values: Record<string, unknown>,
  ctx: CommandContext,
): Record<string, unknown> {
  const given = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
  return { ...valuesInView(cmd, ctx), ...given };
}

export function isVisible(cmd: Command, ctx: CommandContext): boolean {
  return cmd.when?.(ctx) ?? true;
}

export type ArgErrors = Record<string, string>;

/** Parses raw strings (console tokens or palette prompts) into typed values, collecting each message. */
export async function parseArgs(
  cmd: Command,
  raw: Record<string, string | undefined>,
  env: EntityLookup,
  ctx?: CommandContext,
): Promise<{ values: Record<string, unknown>; errors: ArgErrors }> {
  const values: Record<string, unknown> = {};
  const errors: ArgErrors = {};
  const fromContext = ctx ? valuesInView(cmd, ctx) : {};
  for (const [name, arg] of Object.entries(cmd.args ?? {})) {
    const given = raw[name];
    if (given === undefined) {
      if (fromContext[name] !== undefined) values[name] = fromContext[name];
      else if (arg.isOptional) values[name] = arg.defaultValue;
      else errors[name] = `${arg.label ?? name} is required.`;
      continue;
    }
    const r = await arg.parse(given, env);
    if (r.ok) values[name] = r.value;
    else errors[name] = r.error;
  }
  return { values, errors };
}

export class CommandError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/**
 * Runs a command with parsed values: checks availability, asks before dangerous ones, reports.
 * Errors are thrown back to the surface, which keeps what the user typed.
 */
export async function execute(
  cmd: Command,
  given: Record<string, unknown>,
  ctx: CommandContext,
): Promise<CommandResult | undefined> {
  const values = withView(cmd, given, ctx);
  const targets = Object.keys(cmd.args ?? {})
    .filter((name) => refKinds(cmd, name))
    .flatMap((name) => asList(values[name] as EntityRef | EntityRef[] | undefined).map((t) => ({ name, t })));
  // The permission is the one on what the command acts on (SPEC §6): the targets it names, or
  // the place in view when it names none. A server banned from the group's page is judged by the
  // caller's bits on that server, as from anywhere else.
  const avail = targets.length > 0 ? (cmd.enabled?.(ctx) ?? true) : availability(cmd, ctx);
  if (avail !== true) throw new CommandError(avail);
  for (const { name, t } of targets) {
    const why = refusal(cmd, ctx, t);
    if (why) throw new CommandError(`${t.label}: ${why}`, name);
  }
  if (cmd.danger === 'confirm' && !(await ctx.app.dialogs.confirm(`${cmd.title}?`))) {
    return { message: 'Cancelled.' };
  }
  try {
    return (await cmd.run(values as never, ctx)) ?? undefined;
  } catch (e) {
    throw permissionRefusal(e);
  }
}

/**
 * A 403 in the words of SPEC §8, the server's own text kept as the reason; a command that already
 * said it in the spec's words (run command: Forbidden…) is left as it is.
 */
export function permissionRefusal(e: unknown): unknown {
  if (!(e instanceof ApiError) || e.status !== 403 || e.message.startsWith(Msg.forbidden)) return e;
  return new ApiError(Msg.noPermission, 'forbidden', 403, e.reason === Msg.noDetails ? e.message : e.reason);
}
