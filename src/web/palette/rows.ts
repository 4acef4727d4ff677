// What one line of the palette's list holds, in either mode (results or argument suggestions).

import type { EntityRef } from '../../../commands/args.ts';
import type { CommandRow } from './commandRows.ts';

export type PaletteRow =
  | ({ type: 'command' } & CommandRow)
  | { type: 'entity'; ref: EntityRef }
  | { type: 'suggestion'; text: string; ref?: EntityRef };

// One row object per command or entity, so a row that stays in place while typing is the same
// object and its memoised view does not re-render.
const commandRows = new WeakMap<CommandRow, PaletteRow>();
const entityRows = new WeakMap<EntityRef, PaletteRow>();

function cachedRow<K extends object>(
  cache: WeakMap<K, PaletteRow>,
  key: K,
  make: () => PaletteRow,
): PaletteRow {
  const found = cache.get(key);
  if (found) return found;
  const row = make();
  cache.set(key, row);
  return row;
}

export const commandRow = (r: CommandRow): PaletteRow =>
  cachedRow(commandRows, r, () => ({ type: 'command', ...r }));
export const entityRow = (ref: EntityRef): PaletteRow =>
  cachedRow(entityRows, ref, () => ({ type: 'entity', ref }));
