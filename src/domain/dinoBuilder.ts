// The Custom Dino Creator's rules (SPEC §5 "Dino builder", "Give Dino"), shared by the console's
// form and the API's giveDino check: wild stat points against the level, and trait caps.

import { DINO_LIMITS } from './constants.ts';
import { DINO_STATS } from './enums.ts';

/**
 * The highest level a custom dino may have. The spec names a maximum without its value; 450 is
 * the level above which official servers destroy tames (DestroyTamesOverLevelClamp).
 */
export const DINO_MAX_LEVEL = 450;

/** Wild points by stat index (0–11); a stat left out is for the game to decide. */
export type StatPoints = Partial<Record<number, number>>;

export const pointsUsed = (stats: StatPoints): number =>
  Object.values(stats).reduce<number>((sum, v) => sum + (v ?? 0), 0);

/**
 * Points left to assign: a wild dino of level L has L − 1 points. With no level asked, the
 * maximum level is the bound. Negative when the points ask for too much.
 */
export const pointsRemaining = (stats: StatPoints, level: number | null): number =>
  (level ?? DINO_MAX_LEVEL) - 1 - pointsUsed(stats);

/** Why the points do not fit (SPEC §5), or null. */
export function statPointsProblem(stats: StatPoints, level: number | null): string | null {
  const used = pointsUsed(stats);
  if (used + 1 > DINO_MAX_LEVEL)
    return `The stat points need level ${used + 1}, above the maximum dino level of ${DINO_MAX_LEVEL}.`;
  if (level !== null && used + 1 > level)
    return `The stat points need level ${used + 1}, higher than the level asked (${level}).`;
  return null;
}

export const levelProblem = (level: number | null): string | null =>
  level === null || (Number.isInteger(level) && level >= 1 && level <= DINO_MAX_LEVEL)
    ? null
    : `Level must be a whole number from 1 to ${DINO_MAX_LEVEL}, or blank.`;

export const STAT_COUNT = DINO_STATS.length;
export const WILD_POINTS_MAX = DINO_LIMITS.wildPoints[1];

/**
 * Traits a custom dino may carry, each with how many times it may be added (the spec caps each
 * trait without naming them). A trait given more than once stacks: its tiers.
 */
export const DINO_TRAITS = [
  { name: 'Aggressive', max: 3 },
  { name: 'Athletic', max: 3 },
  { name: 'Carrier', max: 3 },
  { name: 'Cautious', max: 3 },
  { name: 'Frail', max: 1 },
  { name: 'Inheritor', max: 1 },
  { name: 'Kin', max: 3 },
  { name: 'Nimble', max: 3 },
  { name: 'Numb', max: 3 },
  { name: 'Protective', max: 3 },
  { name: 'Robust', max: 3 },
  { name: 'Wasteful', max: 1 },
] as const;

export type TraitName = (typeof DINO_TRAITS)[number]['name'];

export const traitCapMessage = (traitName: string) => `You cannot add any more ${traitName} traits.`;

/** The cap of a trait, or null for a name the creator does not know. */
export const traitCap = (name: string): number | null =>
  DINO_TRAITS.find((t) => t.name === name)?.max ?? null;

/** Whether one more `name` may join `traits`: null, or the message (unknown trait, or the cap). */
export function addTraitProblem(traits: readonly string[], name: string): string | null {
  const cap = traitCap(name);
  if (cap === null) return `${name} is not a trait.`;
  return traits.filter((t) => t === name).length >= cap ? traitCapMessage(name) : null;
}

/** The first problem of a whole list of traits, or null. */
export function traitsProblem(traits: readonly string[]): string | null {
  const seen: string[] = [];
  for (const t of traits) {
    const p = addTraitProblem(seen, t);
    if (p) return p;
    seen.push(t);
  }
  return null;
}
