// Builders for the events the simulated mod sends: one place decides each event's wording,
// level and metadata keys (SENTINEL-API §6), so behaviours and commands cannot disagree.

import {
  EVENT_NAMES,
  type EventName,
  MODERATION_SCORES,
  type ModerationScore,
  TRIGGERED_KINDS,
} from '../domain/enums.ts';
import type { LinkEvent } from '../domain/link.ts';
import type { PlayerIdentity } from './population.ts';
import type { Rng } from './random.ts';
import { itemName } from './species.ts';
import type { Dino, Survivor, Tribe } from './world.ts';

const now = () => Date.now() / 1000;

/** The 64-bit dino number: the game's high and low 32-bit halves. */
export const dinoNumber64 = (d: Pick<Dino, 'id1' | 'id2'>): string =>
  ((BigInt(d.id1) << 32n) | BigInt(d.id2)).toString();

/**
 * Every event a mod reports (SENTINEL-API §6): script contexts, the network's own connect notices
 * and the tribe log that only RCON carries aside.
 */
export const MOD_EVENT_NAMES: readonly EventName[] = EVENT_NAMES.filter(
  (n) =>
    !(TRIGGERED_KINDS as readonly string[]).includes(n) &&
    n !== 'serverConnected' &&
    n !== 'serverDisconnected' &&
    n !== 'tribeLog',
);

function gameplay(
  eventName: LinkEvent['eventName'],
  message: string,
  metadata: Record<string, unknown>,
  level: LinkEvent['level'] = 'Informational',
): LinkEvent {
  return { eventName, time: now(), type: 'Gameplay', level, message, metadata };
}

/** Who a survivor is, so the server can create the survivor (and its tribe) from any event. */
const survivorMeta = (s: Survivor, tribe: Tribe | null | undefined) => ({
  playerId: s.player.playerId,
  eosId: s.player.eosId,
  playerName: s.player.name,
  characterId: s.characterId,
  characterName: s.player.name,
  specimenId: s.specimenId,
  ...tribeMeta(tribe),
});

const tribeMeta = (tribe: Tribe | null | undefined) => ({
  tribeId: tribe?.tribeId ?? null,
  tribeName: tribe?.name ?? null,
  tribeNumber: tribe?.tribeNumber ?? null,
});

/** What a dino is, so the server can create it from whichever event it sees first. */
const dinoMeta = (d: Dino, tribe?: Tribe | null) => ({
  dinoId: d.dinoId,
  dinoId1: d.id1,
  dinoId2: d.id2,
  dinoNumber64: dinoNumber64(d),
  dinoName: d.name,
  dinoSpecies: d.species.name,
  dinoSpeciesPath: d.species.path,
  dinoLevel: d.level,
  dinoGender: d.gender,
  dinoAge: d.age,
  dinoColors: d.colors,
  ...tribeMeta(tribe),
  tribeId: d.tribeId,
});

const dinoLabel = (d: Dino) =>
  d.name ? `${d.name} (${d.species.name} ${d.level})` : `${d.species.name} ${d.level}`;

export const playerJoined = (p: PlayerIdentity): LinkEvent =>
  gameplay('playerJoined', `${p.name} joined the server`, {
    playerId: p.playerId,
    playerName: p.name,
    eosId: p.eosId,
    ipFingerprint: p.ipFingerprint,
    connectionDetails: { ...p.connectionDetails },
  });

export type LeaveReason = 'left' | 'kicked' | 'banned';
const LEAVE_TEXT: Record<LeaveReason, string> = {
  left: 'left the server',
  kicked: 'was kicked from the server',
  banned: 'was banned from the server',
};

export const playerLeft = (p: PlayerIdentity, reason: LeaveReason): LinkEvent =>
  gameplay('playerLeft', `${p.name} ${LEAVE_TEXT[reason]}`, { playerId: p.playerId, playerName: p.name });

export const playerRenamed = (
  p: PlayerIdentity,
  characterId: string,
  tribeId: string | null,
  oldName: string,
): LinkEvent =>
  gameplay(
    'playerRenamed',
    `${oldName} is now known as ${p.name}`,
    { playerId: p.playerId, eosId: p.eosId, characterId, tribeId, oldName, newName: p.name },
    'Notice',
  );

export const playerSpawned = (s: Survivor, tribe: Tribe | null): LinkEvent =>
  gameplay('playerSpawned', `${s.player.name} spawned a new survivor`, {
    ...survivorMeta(s, tribe),
    identityProvider: 'EOS',
    identityProviderId: s.player.eosId,
  });

export const playerDied = (s: Survivor, tribe: Tribe | null, attacker: string): LinkEvent =>
  gameplay(
    'playerDied',
    `${s.player.name} was killed by ${attacker}`,
    { ...survivorMeta(s, tribe), attacker },
    'Notice',
  );

export const playerCuffed = (s: Survivor, tribe: Tribe | null, cuffed: boolean): LinkEvent =>
  gameplay(
    cuffed ? 'playerCuffed' : 'playerUncuffed',
    `${s.player.name} was ${cuffed ? 'handcuffed' : 'released from handcuffs'}`,
    survivorMeta(s, tribe),
  );

export const playerBuffsChanged = (
  s: Survivor,
  tribe: Tribe | null,
  added: string[],
  removed: string[],
): LinkEvent =>
  gameplay(
    'playerBuffsChanged',
    `${s.player.name}: ${[...added.map((b) => `+${b}`), ...removed.map((b) => `-${b}`)].join(', ')}`,
    {
      ...survivorMeta(s, tribe),
      buffsAdded: added,
      buffsRemoved: removed,
    },
  );

export const tribeCreated = (tribe: Tribe, founder: Survivor): LinkEvent =>
  gameplay(
    'tribeCreated',
    `${founder.player.name} founded the tribe ${tribe.name}`,
    survivorMeta(founder, tribe),
  );

export const playerTribeChanged = (s: Survivor, oldTribeId: string | null, tribe: Tribe | null): LinkEvent =>
  gameplay(
    'playerTribeChanged',
    tribe ? `${s.player.name} joined the tribe ${tribe.name}` : `${s.player.name} left their tribe`,
    {
      ...survivorMeta(s, tribe),
      oldTribeId,
      newTribeId: tribe?.tribeId ?? null,
    },
  );

export const tribeRenamed = (tribe: Tribe, oldTribeName: string): LinkEvent =>
  gameplay('tribeRenamed', `The tribe ${oldTribeName} is now called ${tribe.name}`, {
    ...tribeMeta(tribe),
    oldTribeName,
    newTribeName: tribe.name,
  });

export const tribeDestroyed = (tribe: Tribe): LinkEvent =>
  gameplay('tribeDestroyed', `The tribe ${tribe.name} was disbanded`, tribeMeta(tribe), 'Notice');

export const dinoTamed = (d: Dino, tribe: Tribe): LinkEvent =>
  gameplay('dinoTamed', `${tribe.name} tamed a ${d.species.name} (level ${d.level})`, dinoMeta(d, tribe));

export const dinoClaimed = (d: Dino, tribe: Tribe): LinkEvent =>
  gameplay('dinoClaimed', `${tribe.name} claimed ${dinoLabel(d)}`, dinoMeta(d, tribe));

export const dinoUnclaimed = (d: Dino, oldTribeId: string): LinkEvent =>
  gameplay('dinoUnclaimed', `${dinoLabel(d)} was unclaimed`, { ...dinoMeta(d), tribeId: oldTribeId });

export const dinoMatured = (d: Dino): LinkEvent =>
  gameplay('dinoMatured', `${dinoLabel(d)} has grown up`, dinoMeta(d));

export const dinoDied = (d: Dino, attacker: string): LinkEvent =>
  gameplay(
    'dinoDied',
    `${dinoLabel(d)} was killed by ${attacker}`,
    {
      ...dinoMeta(d),
      attacker,
      // What a cryopod kept of the dino, when it was ever in one: enough for the game to restore it.
      restoreData: d.backup ? { level: d.level, species: d.species.path, gender: d.gender } : null,
    },
    'Notice',
  );

export const dinoFrozen = (d: Dino): LinkEvent =>
  gameplay('dinoFrozen', `${dinoLabel(d)} was put in a cryopod`, dinoMeta(d));

export const dinoUnfrozen = (d: Dino, by: Survivor, hasCryoSickness: boolean): LinkEvent =>
  gameplay('dinoUnfrozen', `${dinoLabel(d)} was released from a cryopod`, {
    ...dinoMeta(d),
    characterId: by.characterId,
    hasCryoSickness,
  });

export const dinoUploaded = (d: Dino): LinkEvent =>
  gameplay('dinoUploaded', `${dinoLabel(d)} was uploaded`, dinoMeta(d));

export const dinoDownloaded = (d: Dino): LinkEvent =>
  gameplay('dinoDownloaded', `${dinoLabel(d)} was downloaded`, dinoMeta(d));

export const dinoRenamed = (d: Dino, oldDinoName: string): LinkEvent =>
  gameplay('dinoRenamed', `${oldDinoName || d.species.name} was renamed to ${d.name}`, {
    ...dinoMeta(d),
    oldDinoName,
    newDinoName: d.name,
  });

export const dinoTribeChanged = (d: Dino, oldTribeId: string, to: Tribe): LinkEvent =>
  gameplay('dinoTribeChanged', `${dinoLabel(d)} now belongs to ${to.name}`, {
    ...dinoMeta(d, to),
    oldTribeId,
    newTribeId: to.tribeId,
  });

export const dinoSterilized = (d: Dino, tribe?: Tribe): LinkEvent =>
  gameplay('dinoSterilized', `${dinoLabel(d)} was sterilized`, dinoMeta(d, tribe));

export const dinoUnsterilized = (d: Dino, tribe?: Tribe): LinkEvent =>
  gameplay('dinoUnsterilized', `${dinoLabel(d)} can breed again`, dinoMeta(d, tribe));

export const dinoRestored = (d: Dino, to: Survivor): LinkEvent =>
  gameplay('dinoRestored', `${dinoLabel(d)} was restored from its cryopod backup for ${to.player.name}`, {
    ...dinoMeta(d),
    characterId: to.characterId,
    playerId: to.player.playerId,
  });

/** What a give-dino command asked for (SENTINEL-API §2.3). */
export interface GivenDino {
  name?: string;
  level?: number;
  age?: number;
  isFemale?: boolean;
  isSterilized?: boolean;
  imprint?: number;
  colors?: number[];
  stats?: Record<string, number>;
  traits?: string[];
}

export const dinoCreated = (d: Dino, to: Survivor, given: GivenDino): LinkEvent =>
  gameplay('dinoCreated', `${to.player.name} received ${dinoLabel(d)}`, {
    ...dinoMeta(d),
    playerId: to.player.playerId,
    characterId: to.characterId,
    dinoPath: d.species.path,
    name: d.name,
    level: d.level,
    age: d.age,
    isFemale: d.gender === 'Female',
    isSterilized: d.sterilized,
    imprint: given.imprint ?? 0,
    colors: given.colors ?? [],
    stats: given.stats ?? {},
    traits: given.traits ?? [],
  });

export interface GivenItem {
  itemPath: string;
  quantity: number;
  quality?: number;
  asBlueprint?: boolean;
  minRandomQuality?: number;
  respectStatClamps?: boolean;
  itemRating?: number;
  stats?: { index: number; value: number }[];
}

export const itemGiven = (to: Survivor, tribe: Tribe | null, item: GivenItem): LinkEvent =>
  gameplay(
    'itemGiven',
    `${to.player.name} received ${item.quantity} × ${itemName(item.itemPath)}${item.asBlueprint ? ' (blueprint)' : ''}`,
    {
      ...survivorMeta(to, tribe),
      ...item,
    },
  );

export const structureDestroyed = (tribe: Tribe, structureName: string, attacker: string): LinkEvent =>
  gameplay(
    'structureDestroyed',
    `${tribe.name}'s ${structureName} was destroyed by ${attacker}`,
    {
      ...tribeMeta(tribe),
      structureName,
      attacker,
    },
    'Notice',
  );

export const adminCommand = (s: Survivor, command: string): LinkEvent =>
  gameplay(
    'adminCommand',
    `${s.player.name} executed \`${command}\``,
    { command, playerId: s.player.playerId },
    'Notice',
  );

/** A command a player typed: `/kw …` in chat (slashCommand) or `cheat scriptcommand kw …` (scriptCommand). */
export const typedCommand = (
  s: Survivor,
  tribe: Tribe | null,
  kind: 'slashCommand' | 'scriptCommand',
  command: string,
): LinkEvent =>
  gameplay(kind, `${s.player.name} typed \`${command}\``, {
    ...survivorMeta(s, tribe),
    command,
    message: command,
  });

export const customMessage = (message: string): LinkEvent => gameplay('customMessage', message, { message });

export const clockTamperingDetected = (oldClock: number, newClock: number): LinkEvent =>
  gameplay(
    'clockTamperingDetected',
    `The game clock jumped from day ${Math.floor(oldClock)} to day ${Math.floor(newClock)}`,
    {
      oldClock,
      newClock,
    },
    'Warning',
  );

export const rollbackDetected = (oldClock: number, newClock: number): LinkEvent =>
  gameplay(
    'rollbackDetected',
    `The world was rolled back from day ${Math.floor(oldClock)} to day ${Math.floor(newClock)}`,
    {
      oldClock,
      newClock,
    },
    'Error',
  );

export const clusterIdChanged = (): LinkEvent => ({
  ...gameplay('clusterIdChanged', 'The cluster id changed', {}, 'Notice'),
  type: 'Service',
});

export const noClusterId = (): LinkEvent => ({
  ...gameplay('noClusterId', 'The server has no cluster id', {}, 'Warning'),
  type: 'Service',
});

/** The mod's self-checks: a clock that disagrees with the network, an event it could not send. */
export const problemDetected = (problemType: string, sentEpoch: number, correctEpoch: number): LinkEvent => ({
  ...gameplay(
    'problemDetected',
    `Problem detected: ${problemType}`,
    {
      problemType,
      timestamp: new Date(sentEpoch * 1000).toISOString(),
      sentEpoch,
      correctEpoch,
    },
    'Warning',
  ),
  type: 'Service',
});

/** Mostly near zero; the phrase's flags and a rare random spike are what moderators look for. */
export function moderationScores(rng: Rng, flags: Partial<Record<ModerationScore, number>> = {}) {
  const spike = rng.chance(0.03) ? rng.pick(MODERATION_SCORES) : null;
  const scores = {} as Record<ModerationScore, number>;
  for (const name of MODERATION_SCORES) {
    const low = rng.next() ** 4 * 0.12;
    const high = flags[name] ?? (name === spike ? rng.range(0.6, 1) : 0);
    scores[name] = Math.round(Math.max(low, high) * 1000) / 1000;
  }
  return scores;
}

export interface ChatLine {
  source: 'Game' | 'WebService' | 'WebGroup' | 'Discord' | 'Script';
  senderName: string;
  language: string;
  translations: Record<string, string>;
  scores: Record<ModerationScore, number>;
  scope: string;
  player?: { playerId: string; characterId: string };
  /** A line relayed from elsewhere: the server (or community) it was said on. */
  origin?: { originName: string; originServiceId: string | null };
  /** A line said to one survivor or one tribe rather than to everyone. */
  to?: { recipientType: 'Survivor' | 'Tribe'; recipientId: string };
}

/**
 * A line said in the game with nothing but its sender and text, what RCON's GetChat carries: the
 * benches and tests say these on cue.
 */
export const plainChat = (senderName: string, text: string): LinkEvent =>
  gameplay('chat', text, { source: 'Game', senderName, originalMessage: text });

export const chat = (line: ChatLine): LinkEvent => {
  const originalMessage = line.translations[line.language];
  return gameplay('chat', `${line.senderName}: ${line.translations.en ?? originalMessage}`, {
    source: line.source,
    sourceId: line.player?.playerId ?? null,
    sourceName: line.senderName,
    originalMessage,
    originalLanguage: line.language,
    senderName: line.senderName,
    scope: line.scope,
    playerId: line.player?.playerId ?? null,
    characterId: line.player?.characterId ?? null,
    translations: line.translations,
    analysis: { success: true, scores: line.scores },
    ...line.origin,
    ...line.to,
  });
};

export const broadcasted = (message: string, source: string): LinkEvent =>
  gameplay('broadcasted', `Broadcast: ${message}`, { originalMessage: message, source });
