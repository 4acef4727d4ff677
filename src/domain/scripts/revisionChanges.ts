// What changed between two versions of a script, for whoever keeps someone else's script updated
// and must accept each new version: the events added, removed and changed, each change as the
// lines taken out (-) and put in (+) with a little context, as code reviews show them. The line
// diff is jsdiff's (`diff`), a maintained implementation of Myers' algorithm.

import { structuredPatch } from 'diff';
import type { ScriptRevisionContent } from '../api.ts';

type Event = ScriptRevisionContent['events'][number];

const CONTEXT_LINES = 2;

/** An event's name for people: its context and keyword. */
const nameOf = (e: Event) => (e.keyword ? `${e.context} "${e.keyword}"` : e.context);
const keyOf = (e: Event) => `${e.context}\u0000${e.keyword ?? ''}`;

/** The changed lines of one text, as -/+ lines with context; empty when nothing changed. */
function changedLines(before: string, after: string): string[] {
  // Each line ends in a break, so that a missing one at the end is not reported as a change.
  const lines = (text: string) => (text === '' ? '' : `${text}\n`);
  const patch = structuredPatch('before', 'after', lines(before), lines(after), '', '', {
    context: CONTEXT_LINES,
  });
  return patch.hunks.flatMap((h, i) => [...(i > 0 ? ['…'] : []), ...h.lines]);
}

/** The differences between two versions, a block of lines per part that changed. */
export function revisionChanges(before: ScriptRevisionContent, after: ScriptRevisionContent): string {
  const blocks: string[] = [];
  const old = new Map(before.events.map((e) => [keyOf(e), e]));
  const now = new Map(after.events.map((e) => [keyOf(e), e]));
  for (const [key, e] of now) {
    const was = old.get(key);
    if (!was)
      blocks.push(
        [`Added: ${nameOf(e)} (${e.language})`, ...e.code.split('\n').map((l) => `+${l}`)].join('\n'),
      );
    else {
      const lines = changedLines(was.code, e.code);
      const language = was.language === e.language ? '' : ` (${was.language} → ${e.language})`;
      if (lines.length > 0 || language)
        blocks.push([`Changed: ${nameOf(e)}${language}`, ...lines].join('\n'));
    }
  }
  for (const [key, e] of old)
    if (!now.has(key))
      blocks.push([`Removed: ${nameOf(e)}`, ...e.code.split('\n').map((l) => `-${l}`)].join('\n'));
  const common = changedLines(before.commonJavascript ?? '', after.commonJavascript ?? '');
  if (common.length > 0) blocks.push(['Changed: the common JavaScript', ...common].join('\n'));
  const params = (r: ScriptRevisionContent) =>
    (r.parameters ?? [])
      .map((p) => `${p.name} (${p.type}), default ${String(p.default ?? 'none')}`)
      .join('\n');
  const parameters = changedLines(params(before), params(after));
  if (parameters.length > 0) blocks.push(['Changed: the parameters', ...parameters].join('\n'));
  return blocks.length > 0 ? blocks.join('\n\n') : 'Nothing that runs changed.';
}
