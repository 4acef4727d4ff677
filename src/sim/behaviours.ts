// World life, one small function per kind of happening. Each tick runs them all in order; the
// odds are per tick and per server, tuned so a few minutes of a demo show every event of
// SENTINEL-API §6 and the rare ones (rollbacks, cluster changes) still stay rare.

import { CHAT_SCOPES } from '../domain/enums.ts';
import type { LinkEvent } from '../domain/link.ts';
import * as ev from './events.ts';
import { PHRASES } from './phrases.ts';
import { randomName } from './population.ts';
import { BUFFS, REWARD_ITEMS, SPECIES, STRUCTURES } from './species.ts';
import type { Dino, Survivor, World } from './world.ts';

export type Behaviour = (world: World) => LinkEvent[];

const randomOnline = (world: World) => world.rng.pick([...world.online.values()]);

const TRIBE_WORDS = ['Dodo', 'Rex', 'Alpha', 'Night', 'Tek', 'Crystal', 'Swamp', 'Iron', 'Raptor', 'Sky'];
const TRIBE_KINDS = ['Hunters', 'Clan', 'Legion', 'Tamers', 'Breeders', 'Raiders', 'Collective'];
const DINO_NAMES = [
  'Chompy',
  'Sir Squawks',
  'Big Bertha',
  'Tiny',
  'Rexy',
  'Spike',
  'Nugget',
  'Blue',
  'Zilla',
];
const ATTACKERS = [
  'a wild Rex',
  'a wild Carnotaurus',
  'a Megalodon',
  'fall damage',
  'a turret',
  'a Giganotosaurus',
];

const tribeName = (world: World) => `${world.rng.pick(TRIBE_WORDS)} ${world.rng.pick(TRIBE_KINDS)}`;

/** Something that happens to one random member of a list, with probability p per tick. */
function sometimes<T>(
  world: World,
  p: number,
  items: readonly T[],
  act: (item: T) => LinkEvent[],
): LinkEvent[] {
  if (items.length === 0 || !world.rng.chance(p)) return [];
  return act(world.rng.pick(items));
}

const deployed = (world: World) => [...world.dinos.values()].filter((d) => d.status === 'Deployed');
const withStatus = (world: World, status: Dino['status']) =>
  [...world.dinos.values()].filter((d) => d.status === status);
const inTribe = (world: World) =>
  world.onlineSurvivors().flatMap((s) => {
    const tribe = world.tribeOf(s);
    return tribe ? [{ s, tribe }] : [];
  });

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

/** Tribeless survivors found tribes or join one; members leave; tribes rename and disband. */
export const tribeLife: Behaviour = (world) => {
  const online = world.onlineSurvivors();
  const tribeless = online.filter((s) => !s.tribeId);
  const tribes = [...world.tribes.values()];
  return [
    ...sometimes(world, 0.3, tribeless, (s) =>
      tribes.length > 0 && world.rng.chance(0.5)
        ? world.joinTribe(s, world.rng.pick(tribes))
        : world.createTribe(s, tribeName(world)),
    ),
    ...sometimes(world, 0.01, online, (s) => world.joinTribe(s, null)),
    ...sometimes(world, 0.01, tribes, (t) => world.renameTribe(t, tribeName(world))),
    ...sometimes(world, 0.005, tribes, (t) => world.destroyTribe(t)),
  ];
};

export const taming: Behaviour = (world) =>
  sometimes(world, 0.15, inTribe(world), ({ s, tribe }) => world.tame(s, tribe));

/** Two adults of a species in one tribe have a baby; babies grow up by the tick. */
export const breeding: Behaviour = (world) => {
  const adults = deployed(world).filter((d) => d.age === 1 && d.tribeId && !d.sterilized);
  const births = sometimes(world, 0.08, adults, (mother) => {
    const father = adults.find(
      (d) =>
        d !== mother &&
        d.species === mother.species &&
        d.tribeId === mother.tribeId &&
        d.gender !== mother.gender,
    );
    return father ? world.breed(mother, father) : [];
  });
  return [...births, ...world.grow()];
};

/** Deaths, cryopods, uploads, names, ownership and sterilization of tamed dinos. */
export const dinoLife: Behaviour = (world) => {
  const tribes = [...world.tribes.values()];
  const owned = deployed(world).filter((d) => d.tribeId);
  const unowned = deployed(world).filter((d) => !d.tribeId);
  const anyone = world.onlineSurvivors();
  return [
    ...sometimes(world, 0.05, owned, (d) => world.killDino(d, world.rng.pick(ATTACKERS))),
    ...sometimes(world, 0.06, owned, (d) => world.freeze(d)),
    ...sometimes(world, anyone.length > 0 ? 0.05 : 0, withStatus(world, 'Frozen'), (d) =>
      world.unfreeze(d, world.rng.pick(anyone)),
    ),
    ...sometimes(world, 0.02, owned, (d) => world.upload(d)),
    ...sometimes(world, 0.03, withStatus(world, 'Uploaded'), (d) => world.download(d)),
    ...sometimes(world, 0.04, owned, (d) => world.renameDino(d, world.rng.pick(DINO_NAMES))),
    ...sometimes(world, 0.01, owned, (d) => world.unclaim(d)),
    ...sometimes(world, tribes.length > 0 ? 0.05 : 0, unowned, (d) => world.claim(d, world.rng.pick(tribes))),
    ...sometimes(world, tribes.length > 1 ? 0.01 : 0, owned, (d) =>
      world.transfer(d, world.rng.pick(tribes)),
    ),
    // Each way from its own pool: toggling a random owned dino rarely met one already sterilized.
    ...sometimes(
      world,
      0.01,
      owned.filter((d) => !d.sterilized),
      (d) => world.setSterilized(d, true),
    ),
    ...sometimes(
      world,
      0.01,
      owned.filter((d) => d.sterilized),
      (d) => world.setSterilized(d, false),
    ),
  ];
};

/** What happens to survivors: deaths, handcuffs, buffs, admins at the console. */
export const survivorLife: Behaviour = (world) => {
  const online = world.onlineSurvivors();
  const tribeOf = (s: Survivor) => world.tribeOf(s);
  return [
    ...sometimes(world, 0.03, online, (s) => [ev.playerDied(s, tribeOf(s), world.rng.pick(ATTACKERS))]),
    ...sometimes(world, 0.015, online, (s) => {
      s.cuffed = !s.cuffed;
      return [ev.playerCuffed(s, tribeOf(s), s.cuffed)];
    }),
    ...sometimes(world, 0.03, online, (s) => {
      const buff = world.rng.pick(BUFFS);
      const had = s.buffs.includes(buff);
      s.buffs = had ? s.buffs.filter((b) => b !== buff) : [...s.buffs, buff];
      return [ev.playerBuffsChanged(s, tribeOf(s), had ? [] : [buff], had ? [buff] : [])];
    }),
    ...sometimes(world, 0.01, online, (s) => [
      ev.adminCommand(s, world.rng.pick(['saveworld', 'settimeofday 12:00', 'slomo 1'])),
    ]),
  ];
};

/** What players type to start scripts: slash commands in chat, script commands at the console. */
export const TYPED_COMMANDS = [
  '/kit starter',
  '/discord',
  '/vote day',
  '/rules',
  'cheat scriptcommand daily',
];

/** A line a player types: a slash command, a script command, or plain chat otherwise. */
export function typedLine(world: World, s: Survivor, text: string): LinkEvent[] {
  const tribe = world.tribeOf(s);
  if (text.startsWith('/')) return [ev.typedCommand(s, tribe, 'slashCommand', text)];
  if (/^(cheat\s+)?scriptcommand\s+\S/i.test(text)) return [ev.typedCommand(s, tribe, 'scriptCommand', text)];
  return [
    ev.chat({
      source: 'Game',
      senderName: s.player.name,
      language: 'en',
      translations: { en: text },
      scores: ev.moderationScores(world.rng),
      scope: 'Global',
      player: { playerId: s.player.playerId, characterId: s.characterId },
    }),
  ];
}

/**
 * A player types a line in game. The player (by id or name, else anyone online) joins first if
 * they are away.
 */
export function playerTypes(
  world: World,
  text: string,
  who?: string,
): { events: LinkEvent[]; playerId: string; characterId: string } {
  const p =
    world.population.find((x) => x.playerId === who || x.name === who) ??
    [...world.online.values()][0] ??
    world.candidates()[0];
  const joined = world.join(p);
  const s = world.survivor(p);
  return {
    events: [...joined, ...typedLine(world, s, text)],
    playerId: p.playerId,
    characterId: s.characterId,
  };
}

export const typing: Behaviour = (world) =>
  sometimes(world, 0.04, world.onlineSurvivors(), (s) => typedLine(world, s, world.rng.pick(TYPED_COMMANDS)));

/** Raids on bases. */
export const raids: Behaviour = (world) =>
  sometimes(world, 0.03, [...world.tribes.values()], (t) => [
    ev.structureDestroyed(
      t,
      world.rng.pick(STRUCTURES),
      world.rng.pick(['an enemy tribe', 'a Titanosaur', ...ATTACKERS]),
    ),
  ]);

/**
 * Server scripts at work: a daily reward (an item, now and then a dino) and the occasional restore
 * of a dead dino from its cryopod backup, as Sentinel scripts would do.
 */
export const rewards: Behaviour = (world) => {
  const online = world.onlineSurvivors();
  const restorable = withStatus(world, 'Dead').filter((d) => d.backup && d.tribeId);
  return [
    ...sometimes(world, 0.01, online, (s) => [
      ev.itemGiven(s, world.tribeOf(s), {
        itemPath: world.rng.pick(REWARD_ITEMS).path,
        quantity: 1 + world.rng.int(100),
        quality: world.rng.int(100),
      }),
    ]),
    ...sometimes(
      world,
      0.005,
      online,
      (s) => world.giveDino(s, world.rng.pick(SPECIES), { level: 1 + world.rng.int(50) }).events,
    ),
    ...sometimes(world, 0.02, restorable, (d) => {
      const member = online.find((s) => s.tribeId === d.tribeId);
      return member ? world.restore(d, member) : [];
    }),
  ];
};

/** The server itself: announcements, self-checks, clock trouble and cluster settings. */
export const serverLife: Behaviour = (world) => {
  const events: LinkEvent[] = [];
  const { rng } = world;
  if (rng.chance(0.01)) events.push(ev.customMessage(`Server restart in ${5 + rng.int(55)} minutes`));
  if (rng.chance(0.01)) events.push(ev.broadcasted('Double XP weekend has started!', 'Game'));
  if (rng.chance(0.015)) {
    const correct = Date.now() / 1000;
    events.push(ev.problemDetected('clockDrift', correct - 30 - rng.int(600), correct));
  }
  if (rng.chance(0.003)) events.push(...world.jumpClock(world.gameClock + 5 + rng.int(50), false));
  if (rng.chance(0.002)) events.push(...world.jumpClock(world.gameClock - 1 - rng.int(3), true));
  if (rng.chance(0.004))
    events.push(...world.changeClusterId(world.clusterId.startsWith('00000000') ? rng.uuid() : null));
  return events;
};

export const BEHAVIOURS: readonly Behaviour[] = [
  joins,
  leaves,
  chatter,
  typing,
  renames,
  tribeLife,
  taming,
  breeding,
  dinoLife,
  survivorLife,
  raids,
  rewards,
  serverLife,
];
