// Action types (SPEC §3): what a script can do, each with its option fields and their types. A
// Simple script lists actions with options; JavaScript calls beacon.<fn>(…) with the same options
// in the order `options` gives. Both are checked by actionProblem, so a script cannot do in one
// language what the other refuses.

import type { FieldType } from './fields.ts';

export interface OptionSpec {
  name: string;
  type: FieldType;
  required?: boolean;
  description: string;
  min?: number;
  max?: number;
  /** The only values a String option may take. */
  values?: readonly string[];
  /** Text with a shape beyond "any text". */
  format?: 'blueprintPath' | 'url' | 'json';
  /** Required unless `option` is `value` (or not given): a chat line to Everyone names no recipient. */
  requiredUnless?: { option: string; value: string };
}

export interface ActionSpec {
  label: string;
  description: string;
  /** The beacon function that takes this action in JavaScript. */
  fn: string;
  options: readonly OptionSpec[];
  /** A Simple example's options. */
  example: Record<string, string | number | boolean>;
}

const o = {
  playerId: {
    name: 'playerId',
    type: 'String',
    required: true,
    description: "The player's id or EOS id.",
  },
  characterId: { name: 'characterId', type: 'String', required: true, description: "The survivor's id." },
  dinoId: { name: 'dinoId', type: 'String', required: true, description: "The dino's id." },
  itemPath: {
    name: 'itemPath',
    type: 'String',
    required: true,
    format: 'blueprintPath',
    description:
      "The item's class path, such as /Game/PrimalEarth/CoreBlueprints/Items/…/PrimalItem_X.PrimalItem_X_C.",
  },
  quantity: {
    name: 'quantity',
    type: 'Number',
    min: 1,
    max: 1_000_000,
    description: 'How many (default 1).',
  },
  quality: { name: 'quality', type: 'Number', min: 0, max: 100, description: 'Item quality, 0 to 100.' },
  asBlueprint: {
    name: 'asBlueprint',
    type: 'Boolean',
    description: 'Give the blueprint rather than the item.',
  },
  bucketId: { name: 'bucketId', type: 'String', required: true, description: 'The bucket to use.' },
  key: { name: 'key', type: 'String', required: true, description: 'The key (case-insensitive).' },
  bucketPlayerId: {
    name: 'playerId',
    type: 'String',
    description: "A player's id for a value of their own; empty for the global value.",
  },
  offset: (axis: string): OptionSpec => ({
    name: axis,
    type: 'Number',
    required: true,
    description: `The ${axis} coordinate, or the offset along ${axis} when relative.`,
  }),
  relative: {
    name: 'relative',
    type: 'Boolean',
    description: 'Move by the offsets from where it stands rather than to the coordinates.',
  },
  stat: (name: string): OptionSpec => ({ name, type: 'Number', min: 0, description: `The ${name} stat.` }),
} satisfies Record<string, OptionSpec | ((s: string) => OptionSpec)>;

const TELEPORT = [o.offset('x'), o.offset('y'), o.offset('z'), o.relative];

export const ACTIONS = {
  stopProcessing: {
    label: 'Stop processing',
    description: 'Ends the script here; the actions after it do not run.',
    fn: 'stopProcessing',
    options: [],
    example: {},
  },
  banPlayer: {
    label: 'Ban player',
    description: 'Bans the player from this server, or from the group or server named, and removes them.',
    fn: 'banPlayer',
    options: [
      o.playerId,
      { name: 'reason', type: 'String', description: 'Why; shown on the ban.' },
      { name: 'groupOrServerId', type: 'String', description: 'Ban across this group or server instead.' },
      { name: 'lengthDays', type: 'Number', min: 0, description: 'Days until it ends; empty for ever.' },
    ],
    example: { playerId: '{playerId}', reason: 'Hate speech', lengthDays: 7 },
  },
  kickPlayer: {
    label: 'Kick player',
    description: 'Removes the player from the server; they may come back.',
    fn: 'kickPlayer',
    options: [o.playerId],
    example: { playerId: '{playerId}' },
  },
  sendChat: {
    label: 'Send chat',
    description:
      'Says something with source Script: in the global chat, to one survivor, or to the online members of a tribe.',
    fn: 'sendChat',
    options: [
      { name: 'message', type: 'String', required: true, description: 'What to say.' },
      { name: 'senderName', type: 'String', description: 'Who says it (default Server).' },
      {
        name: 'recipientType',
        type: 'String',
        values: ['Everyone', 'Survivor', 'Tribe'],
        description: 'Who hears it: Everyone (the default), one survivor, or a tribe.',
      },
      {
        name: 'recipient',
        type: 'String',
        requiredUnless: { option: 'recipientType', value: 'Everyone' },
        description: 'The survivor or tribe id, for Survivor or Tribe.',
      },
    ],
    example: { message: 'Welcome, {playerName}!' },
  },
  giveItem: {
    label: 'Give item',
    description: "Puts an item in the survivor's inventory.",
    fn: 'giveItem',
    options: [
      o.characterId,
      o.itemPath,
      o.quantity,
      o.quality,
      o.asBlueprint,
      {
        name: 'minRandomQuality',
        type: 'Number',
        min: 0,
        max: 1,
        description: 'The lowest random quality, 0 to 1.',
      },
      { name: 'respectStatClamps', type: 'Boolean', description: "Keep stats within the server's limits." },
    ],
    example: {
      characterId: '{characterId}',
      itemPath:
        '/Game/PrimalEarth/CoreBlueprints/Items/Consumables/PrimalItemConsumable_Berry_Mejoberry.PrimalItemConsumable_Berry_Mejoberry_C',
      quantity: 10,
    },
  },
  giveCustomItem: {
    label: 'Give custom item',
    description: 'Gives an item with the stats given.',
    fn: 'giveCustomItem',
    options: [
      o.characterId,
      o.itemPath,
      o.quantity,
      o.quality,
      o.asBlueprint,
      o.stat('armor'),
      o.stat('durability'),
      o.stat('damage'),
      o.stat('hypothermal'),
      o.stat('hyperthermal'),
      { name: 'itemRating', type: 'Number', min: 0, description: "The item's rating." },
    ],
    example: {
      characterId: '{characterId}',
      itemPath:
        '/Game/PrimalEarth/CoreBlueprints/Items/Armor/Metal/PrimalItemArmor_MetalHelmet.PrimalItemArmor_MetalHelmet_C',
      armor: 120,
      durability: 300,
    },
  },
  setBucketValue: {
    label: 'Set bucket value',
    description: 'Stores a value in a bucket, globally or for one player.',
    fn: 'setBucketValue',
    options: [
      o.bucketId,
      o.key,
      { name: 'value', type: 'String', required: true, description: 'The value to store.' },
      o.bucketPlayerId,
    ],
    example: { bucketId: '00000000-0000-4000-8000-000000000000', key: 'lastSeen', value: '{playerName}' },
  },
  clearBucketValue: {
    label: 'Clear bucket value',
    description: 'Removes a value from a bucket.',
    fn: 'clearBucketValue',
    options: [o.bucketId, o.key, o.bucketPlayerId],
    example: { bucketId: '00000000-0000-4000-8000-000000000000', key: 'lastSeen' },
  },
  renameSurvivor: {
    label: 'Rename survivor',
    description: 'Gives the survivor a new name.',
    fn: 'renameSurvivor',
    options: [
      o.characterId,
      { name: 'newName', type: 'String', required: true, description: 'The new name.' },
    ],
    example: { characterId: '{characterId}', newName: 'Not {characterName}' },
  },
  runAdminCommand: {
    label: 'Run admin command',
    description: "Runs a command on the server's admin console.",
    fn: 'runAdminCommand',
    options: [{ name: 'adminCommand', type: 'String', required: true, description: 'The console command.' }],
    example: { adminCommand: 'saveworld' },
  },
  notifyChatCommunity: {
    label: 'Notify chat community',
    description: "Posts a message to the group's chat community (a Discord webhook).",
    fn: 'notifyChatCommunity',
    options: [
      { name: 'discordMessage', type: 'String', required: true, description: 'What to post.' },
      {
        name: 'webhookUrl',
        type: 'String',
        required: true,
        format: 'url',
        description: 'The https webhook to post to.',
      },
    ],
    example: {
      discordMessage: '{playerName} joined {serviceName}',
      webhookUrl: 'https://discord.com/api/webhooks/…',
    },
  },
  createDino: {
    label: 'Create dino',
    description: 'Spawns a dino for the survivor.',
    fn: 'createDino',
    options: [
      o.characterId,
      {
        name: 'dinoPath',
        type: 'String',
        required: true,
        format: 'blueprintPath',
        description: "The creature's class path.",
      },
      { name: 'name', type: 'String', description: "The dino's name." },
      { name: 'level', type: 'Number', min: 1, max: 10_000, description: 'Its level.' },
      { name: 'age', type: 'Number', min: 0, max: 1, description: 'Its age, 0 (newborn) to 1 (adult).' },
      { name: 'isFemale', type: 'Boolean', description: 'Female rather than male.' },
      { name: 'isSterilized', type: 'Boolean', description: 'Cannot breed.' },
    ],
    example: {
      characterId: '{characterId}',
      dinoPath: '/Game/PrimalEarth/Dinos/Raptor/Raptor_Character_BP.Raptor_Character_BP_C',
      level: 30,
    },
  },
  teleportSurvivor: {
    label: 'Teleport survivor',
    description: 'Moves the survivor to coordinates, or by offsets from where they stand.',
    fn: 'teleportSurvivor',
    options: [o.characterId, ...TELEPORT],
    example: { characterId: '{characterId}', x: 0, y: 0, z: 500, relative: true },
  },
  teleportDino: {
    label: 'Teleport dino',
    description: 'Moves the dino to coordinates, or by offsets from where it stands.',
    fn: 'teleportDino',
    options: [o.dinoId, ...TELEPORT],
    example: { dinoId: '{dinoId}', x: 1000, y: -2000, z: 300 },
  },
  killSurvivor: {
    label: 'Kill survivor',
    description: 'Kills the survivor, even while the player is offline.',
    fn: 'killSurvivor',
    options: [o.characterId],
    example: { characterId: '{characterId}' },
  },
  runSubroutine: {
    label: 'Run subroutine',
    description: 'Runs the subroutine scripts of that name on this server, at once or after a delay.',
    fn: 'runSubroutine',
    options: [
      { name: 'subroutineName', type: 'String', required: true, description: "The subroutine's keyword." },
      {
        name: 'delay',
        type: 'Number',
        min: 0,
        max: 86_400_000,
        description: 'Milliseconds to wait first (default 0).',
      },
    ],
    example: { subroutineName: 'announce', delay: 60_000 },
  },
  destroyInventoryItem: {
    label: 'Destroy inventory item',
    description: 'Removes every one of the item from all player, dino and storage inventories.',
    fn: 'destroyInventoryItem',
    options: [o.itemPath],
    example: {
      itemPath:
        '/Game/PrimalEarth/CoreBlueprints/Items/Armor/Metal/PrimalItemArmor_MetalHelmet.PrimalItemArmor_MetalHelmet_C',
    },
  },
  toggleBuff: {
    label: 'Toggle buff',
    description: 'Adds, removes or toggles a buff on a survivor.',
    fn: 'toggleBuff',
    options: [
      { name: 'targetId', type: 'String', required: true, description: "The survivor's id." },
      {
        name: 'mode',
        type: 'String',
        required: true,
        values: ['add', 'remove', 'toggle'],
        description: 'add, remove or toggle.',
      },
      { name: 'buffPath', type: 'String', required: true, description: "The buff's class path or name." },
    ],
    example: { targetId: '{characterId}', mode: 'toggle', buffPath: 'Well Fed' },
  },
  giveLoot: {
    label: 'Give loot',
    description:
      'Rolls a loot list and gives what comes up to a survivor or to every online member of a tribe.',
    fn: 'giveLoot',
    options: [
      { name: 'recipient', type: 'String', required: true, description: 'The survivor or tribe id.' },
      {
        name: 'recipientType',
        type: 'String',
        required: true,
        values: ['Survivor', 'Tribe'],
        description: 'Survivor or Tribe.',
      },
      {
        name: 'lootSpec',
        type: 'String',
        required: true,
        format: 'json',
        description: 'A JSON list of {itemPath, quantity, quality, chance 0–1}.',
      },
    ],
    example: {
      recipient: '{characterId}',
      recipientType: 'Survivor',
      lootSpec:
        '[{"itemPath":"/Game/PrimalEarth/CoreBlueprints/Resources/PrimalItemResource_Metal.PrimalItemResource_Metal_C","quantity":50,"chance":0.5}]',
    },
  },
} as const satisfies Record<string, ActionSpec>;

export type ActionType = keyof typeof ACTIONS;
export const ACTION_TYPES = Object.keys(ACTIONS) as ActionType[];

export const isActionType = (t: unknown): t is ActionType => typeof t === 'string' && t in ACTIONS;
