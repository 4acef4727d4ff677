// Event value fields (SPEC §3): what a script can read about the event that started it, each typed,
// and the contexts it is valid in. Simple conditions and placeholders name these; JavaScript reads
// the same values from beacon.eventData. Contexts list the events that carry the field.

import { type EventName, MODERATION_SCORES } from '../enums.ts';

export type FieldType = 'String' | 'Number' | 'Boolean';

export interface FieldSpec {
  type: FieldType;
  description: string;
  /** Events that carry it; 'all' for the server fields and random values. */
  contexts: readonly EventName[] | 'all';
  /** Usable in conditions only, never as a placeholder (moderation scores, network details). */
  conditionOnly?: boolean;
  /** A fresh random value each time it is read. */
  random?: boolean;
}

/** Events about a survivor: they carry the player, survivor and tribe fields. */
const SURVIVOR_EVENTS = [
  'chat',
  'adminCommand',
  'itemGiven',
  'playerBuffsChanged',
  'playerCuffed',
  'playerDied',
  'playerRenamed',
  'playerSpawned',
  'playerTribeChanged',
  'playerUncuffed',
  'dinoCreated',
  'dinoRestored',
  'dinoUnfrozen',
  'tribeCreated',
  'characterScriptRun',
  'scriptCommand',
  'slashCommand',
] as const satisfies readonly EventName[];

const PLAYER_EVENTS = [
  ...SURVIVOR_EVENTS,
  'playerJoined',
  'playerLeft',
] as const satisfies readonly EventName[];

const DINO_EVENTS = [
  'dinoClaimed',
  'dinoDied',
  'dinoDownloaded',
  'dinoFrozen',
  'dinoMatured',
  'dinoRenamed',
  'dinoRestored',
  'dinoSterilized',
  'dinoTamed',
  'dinoTribeChanged',
  'dinoUnclaimed',
  'dinoUnfrozen',
  'dinoUnsterilized',
  'dinoUploaded',
  'dinoScriptRun',
] as const satisfies readonly EventName[];

const TRIBE_EVENTS = [
  ...SURVIVOR_EVENTS,
  ...DINO_EVENTS,
  'structureDestroyed',
  'tribeDestroyed',
  'tribeRenamed',
  'tribeScriptRun',
] as const satisfies readonly EventName[];

const ATTACKED = ['playerDied', 'dinoDied', 'structureDestroyed'] as const satisfies readonly EventName[];
const CLOCK = ['clockTamperingDetected', 'rollbackDetected'] as const satisfies readonly EventName[];
const MESSAGE_EVENTS = [
  'chat',
  'broadcasted',
  'customMessage',
  'scriptCommand',
  'slashCommand',
] as const satisfies readonly EventName[];

const str = (description: string, contexts: FieldSpec['contexts']): FieldSpec => ({
  type: 'String',
  description,
  contexts,
});
const num = (description: string, contexts: FieldSpec['contexts']): FieldSpec => ({
  type: 'Number',
  description,
  contexts,
});

const SCORE_FIELDS = Object.fromEntries(
  MODERATION_SCORES.map((s) => [
    s,
    {
      type: 'Number',
      description: `The chat analyser's ${s.replace(/Score$/, '').replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`)} score, 0 to 1.`,
      contexts: ['chat'],
      conditionOnly: true,
    } satisfies FieldSpec as FieldSpec,
  ]),
) as Record<(typeof MODERATION_SCORES)[number], FieldSpec>;

export const FIELDS = {
  serviceId: str('The server the script runs for.', 'all'),
  serviceName: str("The server's name.", 'all'),
  serviceNickname: str("The server's nickname, or its name when it has none.", 'all'),
  serviceChatName: str('The short name the server uses in chat.', 'all'),
  playerName: str("The player's name.", PLAYER_EVENTS),
  playerId: str("The player's id.", PLAYER_EVENTS),
  specimenId: num("The survivor's implant number.", SURVIVOR_EVENTS),
  characterId: str("The survivor's id.", SURVIVOR_EVENTS),
  characterName: str("The survivor's name.", SURVIVOR_EVENTS),
  tribeId: str("The tribe's id.", TRIBE_EVENTS),
  tribeName: str("The tribe's name.", TRIBE_EVENTS),
  tribeNumber: num("The tribe's number.", TRIBE_EVENTS),
  attackerKind: str('What attacked: Player, Dino, Structure or Environment.', ATTACKED),
  attackerName: str("The attacker's name.", ATTACKED),
  attackerTribeId: str("The attacker's tribe id.", ATTACKED),
  attackerTribeName: str("The attacker's tribe name.", ATTACKED),
  attackerTribeNumber: num("The attacker's tribe number.", ATTACKED),
  attackerLevel: num("The attacker's level.", ATTACKED),
  attackerSpecies: str("The attacking creature's species.", ATTACKED),
  oldClock: num('The game clock before the jump.', CLOCK),
  newClock: num('The game clock after the jump.', CLOCK),
  dinoId: str("The dino's id.", DINO_EVENTS),
  dinoSpecies: str("The dino's species.", DINO_EVENTS),
  dinoAge: num("The dino's age, 0 (newborn) to 1 (adult).", DINO_EVENTS),
  dinoName: str("The dino's name.", DINO_EVENTS),
  dinoLevel: num("The dino's level.", DINO_EVENTS),
  hasCryoSickness: {
    type: 'Boolean',
    description: 'Whether the dino came out of its cryopod sick.',
    contexts: ['dinoUnfrozen'],
  },
  generateRandomUsername: {
    type: 'String',
    description: 'A made-up name, new each time it is read.',
    contexts: 'all',
    random: true,
  },
  randomNumber: {
    type: 'Number',
    description: 'A random number from 0 to 1, new each time it is read.',
    contexts: 'all',
    random: true,
  },
  randomDigit: {
    type: 'Number',
    description: 'A random digit from 0 to 9, new each time it is read.',
    contexts: 'all',
    random: true,
  },
  message: {
    type: 'String',
    description: 'The text of the chat line, broadcast, message or command.',
    contexts: MESSAGE_EVENTS,
    conditionOnly: true,
  },
  ...SCORE_FIELDS,
  countryCode: {
    type: 'String',
    description: "The player's country (ISO 3166 code) as seen from their address.",
    contexts: ['playerJoined'],
    conditionOnly: true,
  },
  continentCode: {
    type: 'String',
    description: "The player's continent code as seen from their address.",
    contexts: ['playerJoined'],
    conditionOnly: true,
  },
  isUsingVpn: {
    type: 'Boolean',
    description: 'Whether the player connects through a VPN.',
    contexts: ['playerJoined'],
    conditionOnly: true,
  },
  ipFingerprint: {
    type: 'String',
    description: "A fingerprint of the player's address (never the address itself).",
    contexts: ['playerJoined'],
    conditionOnly: true,
  },
} as const satisfies Record<string, FieldSpec>;

export type FieldName = keyof typeof FIELDS;
const FIELD_NAMES = Object.keys(FIELDS) as FieldName[];

export function fieldValidIn(name: string, context: string): boolean {
  const f = (FIELDS as Record<string, FieldSpec>)[name];
  if (!f) return false;
  return f.contexts === 'all' || (f.contexts as readonly string[]).includes(context);
}

/** The fields a script of this context can read, in catalogue order. */
export const fieldsOf = (context: string): FieldName[] =>
  FIELD_NAMES.filter((name) => fieldValidIn(name, context));
