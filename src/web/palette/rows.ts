// What one line of the palette's list holds, in either mode (results or argument suggestions).

import type { EntityRef } from '../../../commands/args.ts';
import type { CommandRow } from './commandRows.ts';

export type PaletteRow =
  | ({ type: 'command'; key: string } & CommandRow)
  | { type: 'entity'; key: string; ref: EntityRef }
  | { type: 'suggestion'; key: string; text: string; ref?: EntityRef };

export const commandRow = (r: CommandRow): PaletteRow => ({ type: 'command', key: `c:${r.cmd.id}`, ...r });
export const entityRow = (ref: EntityRef): PaletteRow => ({
  type: 'entity',
  key: `e:${ref.kind}:${ref.id}`,
  ref,
});

export function isRunnable(row: PaletteRow): boolean {
  return row.type !== 'command' || row.avail === true;
}
