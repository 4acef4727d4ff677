// Every server setting of SPEC §3 with its rule (§5): one declaration read by the settings form,
// the `server.editSettings` command and its console flags. Fields the API names (SENTINEL-API
// §3.1) are sent as themselves; the others live in the service's `gameSpecific` object, which
// the network hands to the mod as `configUpdated`.

import type { Service } from './api.ts';
import { STRUCTURE_RANGE, SUPPORTED_LANGUAGES } from './constants.ts';
import { API_COLORS, type ApiColor } from './enums.ts';
import { serverLanguages, serverNickname, structureRange } from './validate.ts';

export type SettingValue = string | number | boolean | string[] | null;

export interface ServerSetting {
  key: string;
  label: string;
  help?: string;
  kind: 'text' | 'int' | 'bool' | 'color' | 'languages';
  /** A field of the Service, or a key of its gameSpecific object. */
  home: 'service' | 'gameSpecific';
  /** What an unset gameSpecific key means. */
  fallback: SettingValue;
  check(value: SettingValue): string | null;
}

const ok = () => null;

export function rconPort(v: number | null): string | null {
  return v === null || (Number.isInteger(v) && v >= 1 && v <= 65535)
    ? null
    : 'The RCON port must be a whole number from 1 to 65535, or blank.';
}

export function rconAddress(v: string | null): string | null {
  return v === null || /^[A-Za-z0-9.:[\]-]{1,253}$/.test(v)
    ? null
    : 'The RCON address must be a host name or an IP address, or blank.';
}

export function cryopodPath(v: string | null): string | null {
  return v === null || /^\/\S+$/.test(v)
    ? null
    : 'The cryopod path must be a game path starting with /, or blank.';
}

export const SERVER_SETTINGS: readonly ServerSetting[] = [
  {
    key: 'nickname',
    label: 'Nickname',
    help: 'Shown instead of the server browser name.',
    kind: 'text',
    home: 'service',
    fallback: null,
    check: (v) => serverNickname(v as string | null),
  },
  {
    key: 'miniName',
    label: 'Chat name',
    help: 'The short name in group chat.',
    kind: 'text',
    home: 'service',
    fallback: null,
    check: (v) => serverNickname(v as string | null)?.replace('nickname', 'chat name') ?? null,
  },
  { key: 'color', label: 'Colour', kind: 'color', home: 'service', fallback: 'None', check: ok },
  {
    key: 'languages',
    label: 'Languages',
    help: `Chat is translated into these (${SUPPORTED_LANGUAGES.join(', ')}).`,
    kind: 'languages',
    home: 'service',
    fallback: ['en'],
    check: (v) => serverLanguages(v as string[]),
  },
  {
    key: 'structureSearchRange',
    label: 'Structure search range',
    help: `Default ${STRUCTURE_RANGE.default}, from ${STRUCTURE_RANGE.min} to ${STRUCTURE_RANGE.max}.`,
    kind: 'int',
    home: 'gameSpecific',
    fallback: STRUCTURE_RANGE.default,
    check: (v) => (v === null ? null : structureRange(v as number)),
  },
  { key: 'debugMode', label: 'Debug mode', kind: 'bool', home: 'gameSpecific', fallback: false, check: ok },
  { key: 'useRcon', label: 'Use RCON', kind: 'bool', home: 'gameSpecific', fallback: false, check: ok },
  {
    key: 'rconAddress',
    label: 'RCON address override',
    kind: 'text',
    home: 'gameSpecific',
    fallback: null,
    check: (v) => rconAddress(v as string | null),
  },
  {
    key: 'rconPort',
    label: 'RCON port override',
    kind: 'int',
    home: 'gameSpecific',
    fallback: null,
    check: (v) => rconPort(v as number | null),
  },
  {
    key: 'collectDebugLogs',
    label: 'Collect debug logs',
    kind: 'bool',
    home: 'gameSpecific',
    fallback: false,
    check: ok,
  },
  {
    key: 'alternativeCryopodPath',
    label: 'Alternative cryopod path',
    kind: 'text',
    home: 'gameSpecific',
    fallback: null,
    check: (v) => cryopodPath(v as string | null),
  },
  {
    key: 'allowClusterIdChange',
    label: 'Allow cluster id change',
    help: 'Turns itself off after the cluster id has changed.',
    kind: 'bool',
    home: 'service',
    fallback: true,
    check: ok,
  },
  {
    key: 'kickUntrackedPlayers',
    label: 'Kick anonymous players',
    help: 'Players who opted out of tracking are kicked.',
    kind: 'bool',
    home: 'service',
    fallback: true,
    check: ok,
  },
];

export const SETTING_KEYS = SERVER_SETTINGS.map((s) => s.key);

export function settingOf(key: string): ServerSetting | undefined {
  return SERVER_SETTINGS.find((s) => s.key === key);
}

/** The setting's current value on a service. */
export function currentSetting(service: Service, s: ServerSetting): SettingValue {
  const v =
    s.home === 'service'
      ? (service as unknown as Record<string, unknown>)[s.key]
      : service.gameSpecific?.[s.key];
  return v === undefined ? s.fallback : (v as SettingValue);
}

/** A value as text in a form field or the console. */
export function settingText(v: SettingValue): string {
  if (v === null) return '';
  if (Array.isArray(v)) return v.join(', ');
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  return String(v);
}

const TRUE = ['yes', 'true', 'on', '1', 'y'];
const FALSE = ['no', 'false', 'off', '0', 'n'];

/** Typed text to a value, then the setting's own rule: the message, or the value. */
export function parseSetting(
  s: ServerSetting,
  raw: string,
): { ok: true; value: SettingValue } | { ok: false; error: string } {
  const text = raw.trim();
  let value: SettingValue;
  switch (s.kind) {
    case 'text':
      value = text === '' ? null : text;
      break;
    case 'int':
      if (text === '') value = s.key === 'structureSearchRange' ? STRUCTURE_RANGE.default : null;
      else if (!/^-?\d+$/.test(text)) return { ok: false, error: `${s.label} must be a whole number.` };
      else value = Number(text);
      break;
    case 'bool':
      if (TRUE.includes(text.toLowerCase())) value = true;
      else if (FALSE.includes(text.toLowerCase())) value = false;
      else return { ok: false, error: `${s.label} must be yes or no.` };
      break;
    case 'color': {
      const hit = API_COLORS.find((c) => c.toLowerCase() === text.toLowerCase());
      if (!hit) return { ok: false, error: `Colour must be one of: ${API_COLORS.join(', ')}.` };
      value = hit as ApiColor;
      break;
    }
    case 'languages':
      value = [
        ...new Set(
          text
            .split(/[\s,]+/)
            .filter(Boolean)
            .map((l) => l.toLowerCase()),
        ),
      ];
      break;
  }
  const problem = s.check(value);
  return problem ? { ok: false, error: problem } : { ok: true, value };
}

/** The PATCH body that sets these values, merging gameSpecific keys into what the service holds. */
export function settingsPatch(service: Service, values: Record<string, SettingValue>): Partial<Service> {
  const patch: Record<string, unknown> = {};
  const game: Record<string, unknown> = { ...service.gameSpecific };
  let gameChanged = false;
  for (const [key, value] of Object.entries(values)) {
    const s = settingOf(key);
    if (!s) continue;
    if (s.home === 'service') patch[key] = value;
    else {
      gameChanged = true;
      if (value === null) delete game[key];
      else game[key] = value;
    }
  }
  if (gameChanged) patch.gameSpecific = game;
  return patch as Partial<Service>;
}
