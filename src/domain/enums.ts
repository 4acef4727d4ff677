// Enumerations of SPEC §3 and SENTINEL-API §3/§6, shared by the console, the server and the simulator.

export const EVENT_NAMES = [
  'adminCommand',
  'broadcasted',
  'chat',
  'clockTamperingDetected',
  'clusterIdChanged',
  'cron',
  'customMessage',
  'dinoClaimed',
  'dinoCreated',
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
  'itemGiven',
  'characterScriptRun',
  'dinoScriptRun',
  'serviceScriptRun',
  'tribeScriptRun',
  'noClusterId',
  'playerBuffsChanged',
  'playerJoined',
  'playerCuffed',
  'playerDied',
  'playerLeft',
  'playerRenamed',
  'playerSpawned',
  'playerTribeChanged',
  'playerUncuffed',
  'problemDetected',
  'rollbackDetected',
  'scriptCommand',
  'serverConnected',
  'serverDisconnected',
  'slashCommand',
  'structureDestroyed',
  'subroutine',
  'tribeCreated',
  'tribeDestroyed',
  // A line of a tribe's log, which only RCON carries (ServerRCONOutputTribeLogs).
  'tribeLog',
  'tribeRenamed',
  'webhook',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

/** Lines the product writes itself beside the game's events; the log filters offer them too. */
export const PRODUCT_EVENT_NAMES = ['eventRefused', 'scriptRun'] as const;
export type LogEventName = EventName | (typeof PRODUCT_EVENT_NAMES)[number];
export const LOG_EVENT_NAMES: readonly LogEventName[] = [...EVENT_NAMES, ...PRODUCT_EVENT_NAMES].sort();

export const TRIGGERED_KINDS = [
  'characterScriptRun',
  'dinoScriptRun',
  'serviceScriptRun',
  'tribeScriptRun',
  'cron',
  'scriptCommand',
  'slashCommand',
  'subroutine',
  'webhook',
] as const;

export const LOG_TYPES = ['Service', 'Gameplay'] as const;
export type LogType = (typeof LOG_TYPES)[number];

/** Low to high; the index is the severity rank used by "Warning and above" filters. */
export const LOG_LEVELS = [
  'Debug',
  'Informational',
  'Notice',
  'Warning',
  'Error',
  'Critical',
  'Alert',
  'Emergency',
] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export function levelsAtLeast(level: LogLevel): LogLevel[] {
  return LOG_LEVELS.slice(LOG_LEVELS.indexOf(level));
}

/** Colour choices as the console names them (SPEC §3) … */
export const COLOR_CHOICES = [
  'none',
  'blue',
  'brown',
  'grey',
  'green',
  'indigo',
  'orange',
  'pink',
  'purple',
  'red',
  'teal',
  'yellow',
] as const;
export type ColorChoice = (typeof COLOR_CHOICES)[number];
/** … and as the API spells them (SENTINEL-API §3.0 `public.color`). */
export const API_COLORS = [
  'None',
  'Blue',
  'Brown',
  'Grey',
  'Green',
  'Indigo',
  'Orange',
  'Pink',
  'Purple',
  'Red',
  'Teal',
  'Yellow',
] as const;
export type ApiColor = (typeof API_COLORS)[number];
export const toApiColor = (c: ColorChoice): ApiColor => API_COLORS[COLOR_CHOICES.indexOf(c)];
export const fromApiColor = (c: ApiColor): ColorChoice => COLOR_CHOICES[API_COLORS.indexOf(c)];

export const PLATFORMS = ['PC', 'Xbox', 'PlayStation', 'Switch', 'Universal'] as const;
export const GAMES = ['Ark', 'ArkSA'] as const;

export const SERVER_STATUSES = ['connected', 'disconnected', 'rconError'] as const;
export type ServerStatus = (typeof SERVER_STATUSES)[number];
export const SERVER_STATUS_LABELS: Record<ServerStatus, string> = {
  connected: 'Connected',
  disconnected: 'Disconnected',
  rconError: 'RCON error',
};

export const DINO_STATUSES = ['Deployed', 'Dead', 'Uploaded', 'Frozen'] as const;
export type DinoStatus = (typeof DINO_STATUSES)[number];
export const DINO_STATUS_LABELS: Record<DinoStatus, string> = {
  Deployed: 'Deployed',
  Dead: 'Dead',
  Uploaded: 'Uploaded',
  Frozen: 'Cryopodded',
};
export const DINO_DEFAULT_STATUS_FILTER: DinoStatus[] = ['Deployed', 'Frozen', 'Uploaded'];

export const LIFE_STAGES = ['Baby', 'Juvenile', 'Adolescent', 'Adult'] as const;
export function lifeStage(age: number): (typeof LIFE_STAGES)[number] {
  if (age < 0.1) return 'Baby';
  if (age < 0.5) return 'Juvenile';
  if (age < 1.0) return 'Adolescent';
  return 'Adult';
}

export const DINO_STATS = [
  'Health',
  'Stamina',
  'Torpor',
  'Oxygen',
  'Food',
  'Water',
  'Temperature',
  'Weight',
  'Melee',
  'Speed',
  'Fortitude',
  'Crafting',
] as const;

/**
 * Quality tiers in both readings of SPEC §3: `value` is the quality the game gives the tier,
 * `tooltip` where its tooltip says the tier starts.
 */
export const ITEM_QUALITY_TIERS = [
  { name: 'primitive', value: 0, tooltip: 0 },
  { name: 'ramshackle', value: 1.26, tooltip: 1.25 },
  { name: 'apprentice', value: 2.51, tooltip: 2.5 },
  { name: 'journeyman', value: 4.51, tooltip: 4.5 },
  { name: 'mastercraft', value: 7.01, tooltip: 7 },
  { name: 'ascendant', value: 10.01, tooltip: 10 },
] as const;
export const QUALITY_READINGS = ['game', 'tooltip'] as const;
export type QualityReading = (typeof QUALITY_READINGS)[number];

/** A typed quality: a number, or a tier name read as the game's value or the tooltip's start. */
export function qualityOf(text: string, reading: QualityReading = 'game'): number {
  const t = text.trim().toLowerCase();
  const tier = ITEM_QUALITY_TIERS.find((q) => q.name === t);
  if (tier) return reading === 'game' ? tier.value : tier.tooltip;
  return t === '' ? Number.NaN : Number(t);
}

export const MODERATION_SCORES = [
  'hateScore',
  'legalAdviceScore',
  'financialAdviceScore',
  'medicalAdviceScore',
  'identifiableInfoScore',
  'selfHarmScore',
  'dangerScore',
  'violenceScore',
  'sexScore',
] as const;
export type ModerationScore = (typeof MODERATION_SCORES)[number];

export const CHAT_SOURCES = ['Game', 'Script', 'Discord', 'WebService', 'WebGroup'] as const;
export const CHAT_SCOPES = ['Global', 'Alliance', 'Tribe', 'Local', 'Radio'] as const;

export const SERVER_TABS = [
  'logs',
  'chat',
  'sessions',
  'bans',
  'settings',
  'users',
  'groups',
  'scripts',
  'characters',
  'tribes',
  'dinos',
  'activity',
] as const;
export const PLAYER_TABS = ['logs', 'sessions', 'identifiers', 'characters', 'nameHistory', 'notes'] as const;

export const LOCATOR_FORMATS = ['SetPlayerPos', 'CopyCoordsToClipboard', 'GPS'] as const;
export type LocatorFormat = (typeof LOCATOR_FORMATS)[number];

/** The console's look: light, dark, or as the operating system says (the default). */
export const THEMES = ['light', 'dark', 'system'] as const;
export type Theme = (typeof THEMES)[number];
