// What a log view shows: the scope its page gives it (a server, group, player, …) and the filters
// the reader sets, as /sentinel/logMessages parameters (SENTINEL-API §3.16), and the same rules
// applied to a live line so only matching lines are appended.

import type { LogMessage } from '../../../domain/api.ts';
import { UUID } from '../../../domain/constants.ts';
import {
  LOG_LEVELS,
  LOG_TYPES,
  type LogEventName,
  type LogLevel,
  type LogType,
  levelsAtLeast,
} from '../../../domain/enums.ts';

/** The ids a page fixes; LogView's `filter` prop. */
export interface LogScope {
  serviceId?: string;
  groupId?: string;
  playerId?: string;
  characterId?: string;
  tribeId?: string;
  dinoId?: string;
}

export const METADATA_IDS = ['playerId', 'characterId', 'tribeId', 'dinoId'] as const;
export type MetadataId = (typeof METADATA_IDS)[number];
export const METADATA_ID_LABELS: Record<MetadataId, string> = {
  playerId: 'Player id',
  characterId: 'Survivor id',
  tribeId: 'Tribe id',
  dinoId: 'Dino id',
};

/** `Warning` is that level only; `Warning+` is "Warning and above". */
export type LevelChoice = '' | LogLevel | `${LogLevel}+`;

export interface LogCriteria {
  events: LogEventName[];
  type: '' | LogType;
  level: LevelChoice;
  /** English full text, matched by the server. */
  text: string;
  /** Epoch seconds, inclusive of neither end (the API's since/until). */
  from: number | null;
  to: number | null;
  ids: Partial<Record<MetadataId, string>>;
  /** Time descending unless the reader sorted by another column. */
  sort: { column: string; direction: 'ascending' | 'descending' };
}

export const DEFAULT_SORT = { column: 'time', direction: 'descending' } as const;

export const EMPTY_CRITERIA: LogCriteria = {
  events: [],
  type: '',
  level: '',
  text: '',
  from: null,
  to: null,
  ids: {},
  sort: DEFAULT_SORT,
};

export const levelChoices = (): { value: LevelChoice; label: string }[] => [
  { value: '', label: 'Any level' },
  ...LOG_LEVELS.slice(1).map((l) => ({ value: `${l}+` as const, label: `${l} and above` })),
  ...LOG_LEVELS.map((l) => ({ value: l, label: `${l} only` })),
];

export function levelsOf(choice: LevelChoice): readonly LogLevel[] | null {
  if (choice === '') return null;
  return choice.endsWith('+') ? levelsAtLeast(choice.slice(0, -1) as LogLevel) : [choice as LogLevel];
}

export const isLevelChoice = (v: string): v is LevelChoice => levelChoices().some((c) => c.value === v);
export const isLogType = (v: string): v is LogType => (LOG_TYPES as readonly string[]).includes(v);

/** Why a typed entity id cannot be used, or null when it can (empty clears the filter). */
export function idProblem(kind: MetadataId, value: string): string | null {
  const v = value.trim();
  return v === '' || UUID.test(v)
    ? null
    : `${METADATA_ID_LABELS[kind]} must be a UUID, like 4d6f8a10-1c2b-4e3d-9f80-a1b2c3d4e5f6.`;
}

export function rangeProblem(from: number | null, to: number | null): string | null {
  return from !== null && to !== null && from >= to
    ? 'The start of the time range must be before its end.'
    : null;
}

export type QueryParams = Record<string, string>;

/** The list parameters for scope + criteria, without paging or cursors. */
export function toQuery(scope: LogScope, c: LogCriteria): QueryParams {
  const q: QueryParams = {};
  for (const [k, v] of Object.entries(scope)) if (v) q[k] = v;
  for (const k of METADATA_IDS) {
    const v = c.ids[k]?.trim();
    if (v && !scope[k]) q[k] = v.toLowerCase();
  }
  if (c.events.length) q.eventName = c.events.join(',');
  if (c.type) q.type = c.type;
  const levels = levelsOf(c.level);
  if (levels) q.level = levels.join(',');
  if (c.text.trim()) q.message = c.text.trim();
  if (c.from !== null) q.since = String(c.from);
  if (c.to !== null) q.until = String(c.to);
  q.sortedColumn = c.sort.column;
  q.sortDirection = c.sort.direction;
  return q;
}

/**
 * Whether two criteria ask the server the same thing. A filter re-applied unchanged (the entity
 * id field applies itself on blur, so tabbing through it does) must keep the view's feed: a new
 * one starts empty and reloads, dropping the reader's rows and active row meanwhile.
 */
export function sameQuery(a: LogCriteria, b: LogCriteria): boolean {
  const qa = toQuery({}, a);
  const qb = toQuery({}, b);
  const keys = Object.keys(qa);
  return keys.length === Object.keys(qb).length && keys.every((k) => qa[k] === qb[k]);
}

export const isLiveSort = (c: LogCriteria) =>
  c.sort.column === DEFAULT_SORT.column && c.sort.direction === DEFAULT_SORT.direction;

/**
 * Whether a live line belongs in the view: true or false, or null when only the server can tell
 * (full-text search stems words), so the view asks the server for what is new instead.
 */
export function accepts(scope: LogScope, c: LogCriteria, m: LogMessage): boolean | null {
  if (scope.serviceId && m.serviceId !== scope.serviceId) return false;
  for (const k of METADATA_IDS) {
    const want = scope[k] ?? c.ids[k]?.trim().toLowerCase();
    if (want && String(m.metadata?.[k] ?? '').toLowerCase() !== want) return false;
  }
  if (c.events.length && !c.events.includes(m.eventName)) return false;
  if (c.type && m.type !== c.type) return false;
  const levels = levelsOf(c.level);
  if (levels && !levels.includes(m.level)) return false;
  if (c.from !== null && !(m.time > c.from)) return false;
  if (c.to !== null && !(m.time < c.to)) return false;
  return c.text.trim() ? null : true;
}

/** The realtime channel that carries this scope's new lines, most specific first. */
export function channelKind(
  scope: LogScope,
): ['services' | 'groups' | 'players' | 'characters' | 'tribes' | 'dinos', string] | null {
  if (scope.serviceId) return ['services', scope.serviceId];
  if (scope.groupId) return ['groups', scope.groupId];
  if (scope.playerId) return ['players', scope.playerId];
  if (scope.characterId) return ['characters', scope.characterId];
  if (scope.tribeId) return ['tribes', scope.tribeId];
  if (scope.dinoId) return ['dinos', scope.dinoId];
  return null;
}
