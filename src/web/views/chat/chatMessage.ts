// How a chat line (a `chat` log message, SENTINEL-API §3.16) reads in the chat view: its source,
// its text translated or original, its nine moderation scores, and the score filter
// (`hate > 0.5, violence >= 0.2`) moderators type.

import type { LogMessage } from '../../../domain/api.ts';
import { MODERATION_SCORES, type ModerationScore } from '../../../domain/enums.ts';
import { onceAcrossServers } from '../../../domain/groups.ts';

export type ChatSource = 'Game' | 'Discord' | 'Web' | 'Script';

/** SPEC §2 names three sources besides the game; the API's two web origins are one of them. */
export function chatSource(m: LogMessage): ChatSource {
  switch (m.metadata.source) {
    case 'Discord':
      return 'Discord';
    case 'Script':
      return 'Script';
    case 'WebService':
    case 'WebGroup':
    case 'web':
      return 'Web';
    default:
      return 'Game';
  }
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

export function senderOf(m: LogMessage): string {
  return str(m.metadata.senderName) ?? str(m.metadata.sourceName) ?? 'Unknown';
}

/** The English translation (or the stored English message), or what the sender typed. */
export function chatText(m: LogMessage, translated: boolean): string {
  const original = str(m.metadata.originalMessage);
  if (!translated && original) return original;
  const translations = m.metadata.translations as Record<string, unknown> | undefined;
  const english = str(translations?.en);
  if (english) return english;
  // The stored message reads "Sender: text"; without a translation the text is the original.
  return original ?? m.message;
}

/**
 * A group's chat with each line sent to the whole group once (each of its servers stored a copy),
 * naming every server it reached.
 */
export function groupChatLines(lines: readonly LogMessage[]): LogMessage[] {
  const once = onceAcrossServers(lines, (m) => ({
    serviceId: m.serviceId,
    time: m.time,
    groupWide: m.metadata.source === 'WebGroup',
    sender: senderOf(m),
    text: chatText(m, false),
  }));
  return once.map(([first, ...more]) =>
    more.length === 0
      ? first
      : { ...first, serviceDisplayName: [first, ...more].map((m) => m.serviceDisplayName).join(', ') },
  );
}

export function scoresOf(m: LogMessage): Partial<Record<ModerationScore, number>> {
  const scores = (m.metadata.analysis as { scores?: Record<string, unknown> } | undefined)?.scores ?? {};
  const out: Partial<Record<ModerationScore, number>> = {};
  for (const k of MODERATION_SCORES) if (typeof scores[k] === 'number') out[k] = scores[k] as number;
  return out;
}

/** Short names of the scores, as column titles and in the filter. */
export const SCORE_LABELS: Record<ModerationScore, string> = {
  hateScore: 'Hate',
  legalAdviceScore: 'Legal',
  financialAdviceScore: 'Financial',
  medicalAdviceScore: 'Medical',
  identifiableInfoScore: 'Identifiable',
  selfHarmScore: 'Self-harm',
  dangerScore: 'Danger',
  violenceScore: 'Violence',
  sexScore: 'Sex',
};

type Op = '>' | '>=' | '<' | '<=';
export interface ScoreCondition {
  score: ModerationScore;
  op: Op;
  value: number;
}

const squash = (s: string) => s.toLowerCase().replace(/[^a-z]/g, '');

function scoreNamed(name: string): ModerationScore | null {
  const n = squash(name);
  if (!n) return null;
  const hits = MODERATION_SCORES.filter(
    (k) => squash(k).startsWith(n) || squash(SCORE_LABELS[k]).startsWith(n),
  );
  return hits.length === 1 ? hits[0] : null;
}

const SCORE_NAMES = MODERATION_SCORES.map((k) => squash(SCORE_LABELS[k])).join(', ');

/** `hate > 0.5, sex >= 0.2` → conditions, or the message saying what is wrong. */
export function parseScoreFilter(
  text: string,
): { ok: true; conditions: ScoreCondition[] } | { ok: false; error: string } {
  const conditions: ScoreCondition[] = [];
  for (const part of text
    .split(/[,;]|\band\b/i)
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^([A-Za-z -]+?)\s*(>=|<=|>|<)\s*([0-9]*\.?[0-9]+)$/.exec(part);
    if (!m) return { ok: false, error: `"${part}" is not a score condition. Write it like hate > 0.5.` };
    const score = scoreNamed(m[1]);
    if (!score) return { ok: false, error: `"${m[1].trim()}" is not a score. Scores: ${SCORE_NAMES}.` };
    const value = Number(m[3]);
    if (value < 0 || value > 1) return { ok: false, error: 'Scores go from 0 to 1.' };
    conditions.push({ score, op: m[2] as Op, value });
  }
  return { ok: true, conditions };
}

export function matchesScores(m: LogMessage, conditions: readonly ScoreCondition[]): boolean {
  if (conditions.length === 0) return true;
  const scores = scoresOf(m);
  return conditions.every(({ score, op, value }) => {
    const v = scores[score];
    if (v === undefined) return false;
    return op === '>' ? v > value : op === '>=' ? v >= value : op === '<' ? v < value : v <= value;
  });
}

/** How much a score matters: from this much a moderator should look, from `high` act. */
export const SCORE_GRADES = { notable: 0.4, high: 0.7 } as const;

/**
 * The scores worth a moderator's look, highest first: nine columns of mostly zeros cut the
 * message itself short, and a cut 0.91 read like 0.01.
 */
export function notableScores(m: LogMessage): { score: ModerationScore; value: number; high: boolean }[] {
  const scores = scoresOf(m);
  return MODERATION_SCORES.flatMap((score) => {
    const value = scores[score];
    return value !== undefined && value >= SCORE_GRADES.notable
      ? [{ score, value, high: value >= SCORE_GRADES.high }]
      : [];
  }).sort((a, b) => b.value - a.value);
}

/** Whom a line was said to, when not everyone: a script's reply to one survivor or one tribe. */
export function recipientOf(m: LogMessage): string {
  switch (m.metadata.recipientType) {
    case 'Survivor':
      return 'One survivor';
    case 'Tribe':
      return 'Tribe';
    default:
      return 'Everyone';
  }
}
