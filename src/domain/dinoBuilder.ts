// The Custom Dino Creator's rules (SPEC §5 "Dino builder", "Give Dino"), shared by the console's
// form and the API's giveDino check: wild stat points against the level, and trait caps.

import { DINO_LIMITS, isDinoColors } from './constants.ts';
import { DINO_STATS } from './enums.ts';

/** The route of the Custom Dino Creator (SPEC §2). */
export const DINO_CREATOR_ROUTE = '/dinos/add';

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

/** How a typed stat is named: its index (0–11) or its name in any case (`melee`). */
export function statIndex(key: string): number | null {
  const k = key.trim().toLowerCase();
  if (/^\d+$/.test(k)) return Number(k) < STAT_COUNT ? Number(k) : null;
  const i = DINO_STATS.findIndex((s) => s.toLowerCase() === k);
  return i < 0 ? null : i;
}

/**
 * Stat points as typed in the console: `melee=20 health=10` or `8:20, 0:10`. Each 0–255; a stat
 * not named is for the game to decide.
 */
export function parseStatPoints(text: string): { value: StatPoints } | { error: string } {
  const value: StatPoints = {};
  for (const part of text.split(/[\s,]+/).filter(Boolean)) {
    const [key, raw, extra] = part.split(/[=:]/);
    const index = statIndex(key ?? '');
    const n = Number(raw);
    if (index === null || raw === undefined || extra !== undefined)
      return { error: `"${part}" is not a stat and its points (melee=20, or 8:20).` };
    if (!Number.isInteger(n) || n < 0 || n > WILD_POINTS_MAX)
      return { error: 'Wild stat points must be a whole number from 0 to 255, or blank.' };
    value[index] = n;
  }
  return { value };
}

/** Colour ids for regions 1–6 as typed (`1,2,3,0,0,0`); 0 leaves a region to the game. */
export function parseColors(text: string): { value: number[] } | { error: string } {
  const parts = text.split(/[\s,]+/).filter(Boolean);
  const value = parts.map(Number);
  return isDinoColors(value)
    ? { value }
    : {
        error: `Give exactly ${DINO_LIMITS.colorRegions} colour numbers from 0 to 255 (0: the game decides).`,
      };
}
