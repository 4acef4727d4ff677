// A script as its editor, its export file and script.save hold it (SPEC §3 Script): the fields a
// save sends, without the server's own (ids, dates, status). The editor keeps it as a draft; the
// export file is this with a format marker, so a file from one console imports into another.

import type { FieldType } from './fields.ts';
import type { SimpleScript } from './simple.ts';

export type ScriptLanguage = 'Simple' | 'JavaScript';
export type ParameterValue = string | number | boolean | null;

/** A script parameter (Name, Type, Default): attachments give each a value. */
export interface ScriptParameter {
  name: string;
  type: FieldType;
  default: ParameterValue;
}

/** An argument of a triggered context (a command's words, a webhook's parameters). */
export interface ScriptArgumentSpec extends ScriptParameter {
  required: boolean;
}

/** One event or feature of the script: what starts it and what it does. */
export interface ScriptEventDoc {
  language: ScriptLanguage;
  context: string;
  code: string;
  keyword: string | null;
  arguments: ScriptArgumentSpec[] | null;
}

export interface ScriptDocument {
  name: string;
  description: string;
  preview: string;
  parameters: ScriptParameter[];
  commonJavascript: string;
  events: ScriptEventDoc[];
}

export const EXPORT_FORMAT = 'palisade-script';
export const EXPORT_VERSION = 1;

export const emptySimple = (): SimpleScript => ({ match: 'all', conditions: [], actions: [] });
export const simpleCode = (s: SimpleScript): string => JSON.stringify(s, null, 2);

export const newEvent = (context: string, language: ScriptLanguage, triggered: boolean): ScriptEventDoc => ({
  language,
  context,
  code: language === 'Simple' ? simpleCode(emptySimple()) : '',
  keyword: triggered ? '' : null,
  arguments: triggered ? [] : null,
});

export const emptyDocument = (name = ''): ScriptDocument => ({
  name,
  description: '',
  preview: '',
  parameters: [],
  commonJavascript: '',
  events: [newEvent('chat', 'Simple', false)],
});

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const textOf = (v: unknown) => (typeof v === 'string' ? v : '');

/** The document of a script as the API answers it (extra fields are dropped). */
export function documentOf(s: Record<string, unknown>): ScriptDocument {
  const events = Array.isArray(s.events) ? s.events.filter(isRecord) : [];
  return {
    name: textOf(s.name),
    description: textOf(s.description),
    preview: textOf(s.preview),
    parameters: Array.isArray(s.parameters)
      ? (s.parameters.filter(isRecord) as unknown as ScriptParameter[])
      : [],
    commonJavascript: textOf(s.commonJavascript),
    events: events.map((e) => ({
      language: e.language === 'JavaScript' ? 'JavaScript' : 'Simple',
      context: textOf(e.context),
      code: textOf(e.code),
      keyword: typeof e.keyword === 'string' ? e.keyword : null,
      arguments: Array.isArray(e.arguments) ? (e.arguments as ScriptArgumentSpec[]) : null,
    })),
  };
}

export const exportText = (doc: ScriptDocument): string =>
  `${JSON.stringify({ format: EXPORT_FORMAT, version: EXPORT_VERSION, ...doc }, null, 2)}\n`;

export const exportFileName = (name: string): string =>
  `${
    name
      .trim()
      .replace(/[^\w.-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'script'
  }.json`;

export const IMPORT_NOT_SCRIPT = 'This file is not a script exported by the console.';

/** A script export file's document, or why it is not one. */
export function parseImport(text: string): ScriptDocument | string {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return IMPORT_NOT_SCRIPT;
  }
  if (!isRecord(data) || data.format !== EXPORT_FORMAT) return IMPORT_NOT_SCRIPT;
  if (typeof data.version !== 'number' || data.version > EXPORT_VERSION)
    return 'This script was exported by a newer console; update this one to import it.';
  if (typeof data.name !== 'string' || data.name.trim() === '') return 'The script in the file has no name.';
  return documentOf(data);
}

/** `name`, or `name (2)`, `name (3)` … the first not taken (names compare without case). */
export function uniqueName(name: string, taken: readonly string[]): string {
  const used = new Set(taken.map((n) => n.trim().toLowerCase()));
  const base = name.trim().replace(/ \(\d+\)$/, '');
  if (!used.has(name.trim().toLowerCase())) return name.trim();
  for (let i = 2; ; i++) {
    const candidate = `${base} (${i})`;
    if (!used.has(candidate.toLowerCase())) return candidate;
  }
}
