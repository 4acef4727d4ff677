// World life, one small function per kind of happening. Each tick runs them all in order; richer
// life (tribes, dinos, taming, deaths) is added as more entries of BEHAVIOURS.

import { CHAT_SCOPES } from '../domain/enums.ts';
import type { LinkEvent } from '../domain/link.ts';
import * as ev from './events.ts';
import { PHRASES } from './phrases.ts';
import { randomName } from './population.ts';
import type { World } from './world.ts';

export type Behaviour = (world: World) => LinkEvent[];

const randomOnline = (world: World) => world.rng.pick([...world.online.values()]);

export const joins: Behaviour = (world) => {
  const below = world.online.size < world.targetPopulation;
  const candidates = world.candidates();
  if (candidates.length === 0 || !world.rng.chance(below ? 0.6 : 0.15)) return [];
  return world.join(world.rng.pick(candidates));
};

export const leaves: Behaviour = (world) => {
  const above = world.online.size > world.targetPopulation;
  if (world.online.size === 0 || !world.rng.chance(above ? 0.5 : 0.12)) return [];
  return world.leave(randomOnline(world), 'left');
};

export const chatter: Behaviour = (world) => {
  if (world.online.size === 0 || !world.rng.chance(0.5)) return [];
  const p = randomOnline(world);
  const phrase = world.rng.pick(PHRASES);
  const language = phrase.text[p.language] ? p.language : 'en';
  return [
    ev.chat({
      source: 'Game',
      senderName: p.name,
      language,
      translations: phrase.text,
      scores: ev.moderationScores(world.rng, phrase.flags),
      scope: world.rng.chance(0.8) ? 'Global' : world.rng.pick(CHAT_SCOPES),
      player: { playerId: p.playerId, characterId: world.characterId(p) },
    }),
  ];
};

export const renames: Behaviour = (world) => {
  if (world.online.size === 0 || !world.rng.chance(0.02)) return [];
  return world.rename(randomOnline(world), randomName(world.rng));
};

export const BEHAVIOURS: readonly Behaviour[] = [joins, leaves, chatter, renames];
