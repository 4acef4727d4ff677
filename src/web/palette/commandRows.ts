// Which commands the palette offers and in what order (DESIGN "Palette"): those whose `when`
// holds; with an empty query the current selection's first, then recently run ones, then the
// rest; with a query, uFuzzy's matches on title, id and aliases.

import type { EntityKind } from '../../../commands/args.ts';
import type { CommandContext } from '../../../commands/context.ts';
import { availability, type Command, isVisible, type Registry } from '../../../commands/registry.ts';
import { FuzzyIndex } from './fuzzy.ts';

export interface CommandRow {
  cmd: Command;
  /** true, or why it cannot run now. */
  avail: true | string;
}

export interface CommandSource {
  /** Ordered for an empty query. */
  readonly initial: readonly CommandRow[];
  search(query: string): CommandRow[];
}

/** A command concerns a kind when it takes a reference to it or lives under its id prefix (`player.…`). */
export function concernsKind(cmd: Command, kind: EntityKind): boolean {
  if (cmd.id.split('.')[0].startsWith(kind)) return true;
  return Object.values(cmd.args ?? {}).some((a) => (a.kinds ?? []).includes(kind));
}

/** Built once per opening: visibility and availability are read from that moment's context. */
export function commandSource(
  registry: Registry,
  ctx: CommandContext,
  recent: readonly string[],
): CommandSource {
  const rows = registry
    .all()
    .filter((cmd) => isVisible(cmd, ctx))
    .map((cmd): CommandRow => ({ cmd, avail: availability(cmd, ctx) }));
  const kind = ctx.selection.kind;
  const recentRank = new Map(recent.map((id, i) => [id, i]));
  const tier = (r: CommandRow) => (kind && concernsKind(r.cmd, kind) ? 0 : recentRank.has(r.cmd.id) ? 1 : 2);
  // Array.prototype.sort is stable: within a tier, registry order stays.
  const initial = rows
    .map((r) => ({ r, t: tier(r), n: recentRank.get(r.cmd.id) ?? 0 }))
    .sort((a, b) => a.t - b.t || (a.t === 1 ? a.n - b.n : 0))
    .map((x) => x.r);
  const fuzzy = new FuzzyIndex(rows.map(({ cmd }) => [cmd.title, cmd.id, ...(cmd.aliases ?? [])].join(' ')));
  return {
    initial,
    search: (query) =>
      query.trim() === '' ? [...initial] : fuzzy.search(query, rows.length).map((i) => rows[i]),
  };
}
