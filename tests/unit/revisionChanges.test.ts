// What changed between two versions of a script, as the attacher reviewing an update reads it.

import { expect, it } from 'vitest';
import type { ScriptRevisionContent } from '../../src/domain/api.ts';
import { revisionChanges } from '../../src/domain/scripts/revisionChanges.ts';

const version = (events: ScriptRevisionContent['events'], over: Partial<ScriptRevisionContent> = {}) =>
  ({
    revisionId: 'r',
    dateCreated: 0,
    approvalStatus: 'Probation',
    commonJavascript: '',
    parameters: [],
    events,
    ...over,
  }) as ScriptRevisionContent;

const chat = (code: string) => ({ context: 'chat', keyword: null, language: 'JavaScript', code });

it('shows a changed event as lines taken out and put in, with their context', () => {
  const before = version([chat('const a = 1;\nbeacon.sendChat("hi");\nconst z = 2;')]);
  const after = version([chat('const a = 1;\nbeacon.runAdminCommand("destroywilddinos");\nconst z = 2;')]);
  expect(revisionChanges(before, after)).toBe(
    [
      'Changed: chat',
      ' const a = 1;',
      '-beacon.sendChat("hi");',
      '+beacon.runAdminCommand("destroywilddinos");',
      ' const z = 2;',
    ].join('\n'),
  );
});

it('names events added and removed, the common code and the parameters, and says when nothing changed', () => {
  const hook = { context: 'webhook', keyword: 'wipe', language: 'Simple', code: '{}' };
  const before = version([chat('x();')], { parameters: [{ name: 'bucket', type: 'String', default: 'a' }] });
  const after = version([hook], {
    commonJavascript: 'function x() {}',
    parameters: [{ name: 'bucket', type: 'String', default: 'b' }],
  });
  const text = revisionChanges(before, after);
  expect(text).toContain('Added: webhook "wipe" (Simple)\n+{}');
  expect(text).toContain('Removed: chat\n-x();');
  expect(text).toContain('Changed: the common JavaScript\n+function x() {}');
  expect(text).toContain('Changed: the parameters\n-bucket (String), default a\n+bucket (String), default b');
  expect(revisionChanges(before, before)).toBe('Nothing that runs changed.');
});
