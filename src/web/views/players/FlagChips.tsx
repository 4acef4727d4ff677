// The caller's flags on a player, beside the player's name: each its name by a dot of its colour
// (the words carry the meaning; the dot is for the eye, so it needs no contrast of its own).
// With `reasons`, each flag also says why, as on the player's page.

import type { FlagMark } from '../../../domain/flags.ts';

export function FlagChips({ flags, reasons = false }: { flags: readonly FlagMark[]; reasons?: boolean }) {
  if (flags.length === 0) return null;
  return (
    <span className="flag-chips">
      {flags.map((f) => (
        <span key={f.flagId} className="flag-chip">
          <span className={`flag-dot flag-${f.colour}`} aria-hidden="true" />
          <span className="visually-hidden">Flagged </span>
          {f.name}
          {reasons && <span className="flag-reason">: {f.reason}</span>}
        </span>
      ))}
    </span>
  );
}

/** A player's name with the caller's flags beside it, as every list of players shows it. */
export function FlaggedName({ name, flags }: { name: string; flags: readonly FlagMark[] | undefined }) {
  return (
    <>
      {name} <FlagChips flags={flags ?? []} />
    </>
  );
}
