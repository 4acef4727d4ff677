// Commands over many things at once (marked rows, every player on every server): each is tried,
// and the outcome names every failure, so nothing is silently lost (SPEC §8 bulk failure summaries).

import type { CommandResult } from './context.ts';
import { CommandError, permissionRefusal } from './registry.ts';

export interface Outcome<T> {
  done: T[];
  failed: string[];
}

/** Runs `act` for each item in turn, collecting what worked and, under the item's label, why the rest failed. */
export async function eachOf<I, T>(
  items: readonly I[],
  label: (item: I) => string,
  act: (item: I) => Promise<T>,
): Promise<Outcome<T>> {
  const out: Outcome<T> = { done: [], failed: [] };
  for (const item of items) {
    try {
      out.done.push(await act(item));
    } catch (e) {
      // A refusal of one of them reads as it would for a single one (SPEC §8 permission).
      out.failed.push(`${label(item)}: ${(permissionRefusal(e) as Error).message}`);
    }
  }
  return out;
}

/** "1 ban" or "3 bans". */
export const counted = (n: number, noun: readonly [string, string]) => `${n} ${n === 1 ? noun[0] : noun[1]}`;

/**
 * One line for everything done ("Deleted 3 dinos."); with failures, a line naming each; when all
 * failed, an error with that line.
 */
export function summary<T>(
  verb: string,
  noun: readonly [string, string],
  o: Outcome<T>,
  extra: Partial<CommandResult> = {},
): CommandResult {
  const total = o.done.length + o.failed.length;
  if (o.failed.length === 0) return { message: `${verb} ${counted(total, noun)}.`, ...extra };
  const head = `${verb} ${o.done.length} of ${total}; ${o.failed.length} failed: `;
  if (o.done.length === 0) throw new CommandError(head + o.failed.join('; '));
  return { message: head + o.failed.join('; '), ...extra };
}
