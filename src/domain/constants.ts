// Business constants and interface defaults (SPEC §9). Where the spec names a rule but not its
// value, the value chosen here is the one every part of the system uses.

export const TOAST_SUCCESS_MS = 6000;
export const TOAST_ERROR_MS = 10000;
export const Z_OVERLAY = 1000;
export const Z_MODAL = 1100;
export const PRIMARY_COLOR = '#9c0fb0';
export const TOOLTIP_MAX_WIDTH = 400;
export const TOOLTIP_FADE_MS = 250;
export const RIPPLE_MS = 400;

export const RANDOM_CODE_ALPHABET = '349ACDEFHJKMNPQRTUVWXY';
export const RANDOM_CODE_LENGTH = 6;

export const API_VERSION = 'v4';
export const SCOPES = ['common', 'sentinel:read', 'sentinel:write', 'users:read', 'users.billing'] as const;
export const REQUIRED_POLICIES = ['terms', 'privacy'] as const;
export const ANONYMOUS_NAME = 'Anonymous';
export const NIL_DEVICE_ID = '{hash}';

export const ACCESS_TOKEN_SECONDS = 3600;
export const REFRESH_TOKEN_SECONDS = 30 * 86400;
export const AUTH_CODE_SECONDS = 300;
export const AUTH_FLOW_SECONDS = 1800;

export const PAGE_SIZE_MAX = 250;
export const SCRIPT_TEST_TIMEOUT_MS = 60_000;

/** Server languages are capped; the spec does not give the cap. */
export const SERVER_LANGUAGES_MAX = 5;
export const STRUCTURE_RANGE = { default: 3000, min: 500, max: 20000 } as const;

export const GIVE_ITEM = {
  quantity: [1, 99999],
  quality: [0, 100],
  stat: [0, 999999],
  minRandomQuality: [0, 1],
} as const;
export const DINO_LIMITS = {
  age: [0, 100],
  imprint: [0, 100],
  wildPoints: [0, 255],
  stats: 12,
  colorRegions: 6,
  colorId: [0, 255],
} as const;

/** Six region colour ids (0: none, or the game decides), as a give-dino takes and a dino reports. */
export const isDinoColors = (v: unknown): v is number[] =>
  Array.isArray(v) &&
  v.length === DINO_LIMITS.colorRegions &&
  v.every((c) => Number.isInteger(c) && c >= DINO_LIMITS.colorId[0] && c <= DINO_LIMITS.colorId[1]);
export const TRIAL_DAYS = 3;
export const REFUND_DAYS = 14;

/** EOS account ids: `0002` and 28 hex digits. */
export const EOS_ID = /^0002[0-9a-fA-F]{28}$/;
/** The Play-In-Editor character's id, which the game uses for the editor's test pawn. */
export const PIE_CHARACTER_ID = '00020000000000000000000000000000';
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const SUPPORTED_LANGUAGES = [
  'en',
  'de',
  'es',
  'fr',
  'it',
  'ja',
  'ko',
  'pl',
  'pt',
  'ru',
  'zh',
] as const;
