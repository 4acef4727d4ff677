// The script-writing commands as every surface runs them: save creates or replaces, import with a
// name already taken asks keep both or replace, duplicate and export, the tester's outcomes, and a
// webhook named by its purpose. The API is a fake answering as the server does.

import { describe, expect, it, vi } from 'vitest';
import type { EntityRef } from '../../commands/args.ts';
import type { CommandContext } from '../../commands/context.ts';
import { createRegistry } from '../../commands/index.ts';
import { CommandError, execute } from '../../commands/registry.ts';
import { duplicateNameMessage, parameterValues, TEST_TIMEOUT_TEXT } from '../../commands/scriptEditing.ts';
import {
  emptyDocument,
  exportText,
  IMPORT_NOT_SCRIPT,
  parseImport,
  uniqueName,
} from '../../src/domain/scripts/content.ts';
import { ApiError } from '../../src/web/api/http.ts';
import { saveErrors } from '../../src/web/views/scripts/editor/saveErrors.ts';
import { fakeCommandContext } from './commandContext-fixture.ts';

const registry = createRegistry();
const ME = 'u-me';
const mine = (scriptId: string, name: string) => ({ scriptId, name, userId: ME });
const rules: EntityRef = { kind: 'script', id: 's-1', label: 'Rules' };

interface Fake {
  scripts?: { scriptId: string; name: string; userId: string }[];
  test?: { output: string | null };
  gameAnswers?: boolean;
}

function context(fake: Fake = {}, route = '/scripts/add') {
  const http = vi.fn(async (method: string, path: string, opts?: { body?: unknown }): Promise<unknown> => {
    if (method === 'GET' && path === '/sentinel/scripts') return { results: fake.scripts ?? [] };
    if (method === 'POST' && path === '/sentinel/scripts')
      return { created: [{ scriptId: 's-new', ...(opts?.body as object) }], updated: [] };
    if (method === 'PUT') return opts?.body;
    if (method === 'POST' && path === '/sentinel/scriptTests') return { requestId: 'rq' };
    if (method === 'GET' && path === '/sentinel/scriptTests/rq')
      return { requestId: 'rq', output: fake.test?.output ?? null };
    if (path.endsWith('/webhooks') && method === 'GET')
      return {
        webhooks: [
          { webhookId: 'w-1', purpose: 'Host panel', url: 'https://x/1', secret: 'a' },
          { webhookId: 'w-2', purpose: 'Discord', url: 'https://x/2', secret: 'b' },
        ],
      };
    if (method === 'GET' && path.startsWith('/sentinel/scripts/s-'))
      return { ...emptyDocument('Rules'), scriptId: 's-1', userId: ME, status: 'x' };
    return true;
  });
  const navigate = vi.fn();
  const save = vi.fn();
  const copy = vi.fn(async () => {});
  const ctx = fakeCommandContext(http, {
    route,
    user: { userId: ME } as CommandContext['user'],
    surface: 'form',
    app: {
      navigate,
      files: { save },
      clipboard: { copy },
      game: {
        result: async (requestId: string) => {
          if (fake.gameAnswers === false) throw new Error('no answer');
          return { requestId, ok: true };
        },
      },
    },
  });
  return { ctx, http, navigate, save, copy };
}

const calls = (http: ReturnType<typeof context>['http'], method: string) =>
  http.mock.calls
    .filter(([m]) => m === method)
    .map(([, path, opts]) => [path, (opts as { body?: unknown })?.body]);

const run = (id: string, values: Record<string, unknown>, c = context()) =>
  execute(registry.get(id)!, values, c.ctx).then((result) => ({ ...c, result }));

describe('script.save', () => {
  it('creates a new script from the creator and opens its editor', async () => {
    const doc = emptyDocument('Rules');
    const { http, navigate, result } = await run('script.save', { content: JSON.stringify(doc) });
    expect(calls(http, 'POST')).toEqual([['/sentinel/scripts', doc]]);
    expect(navigate).toHaveBeenCalledWith('/scripts/s-new');
    expect(result?.message).toBe('Rules was created.');
  });

  it('replaces the script in view with the document, every field', async () => {
    const doc = { ...emptyDocument('Rules'), description: 'New words' };
    const { http } = await run('script.save', { script: rules, content: JSON.stringify(doc) });
    expect(calls(http, 'PUT')).toEqual([['/sentinel/scripts/s-1', doc]]);
  });

  it('refuses text that is not a script, naming the argument', async () => {
    await expect(run('script.save', { content: '{oops' })).rejects.toMatchObject({ field: 'content' });
  });

  it('puts a refused field beside its field, the rest on the form', () => {
    const err = (code: string, details: unknown) => new ApiError('Nope.', code, 400, details);
    expect(saveErrors(err('emptyKeyword', { field: 'events[1].keyword' }))).toEqual({
      'events[1].keyword': 'Nope.',
    });
    expect(saveErrors(err('nameNotUnique', { name: 'Rules' }))).toEqual({ name: 'Nope.' });
    expect(saveErrors(err('generic', null))).toEqual({ form: 'Nope.' });
  });
});

describe('script.import', () => {
  const file = exportText({ ...emptyDocument('Rules'), preview: 'From a file' });

  it('reads only the export format', () => {
    expect(parseImport('not json')).toBe(IMPORT_NOT_SCRIPT);
    expect(parseImport('{"name":"x"}')).toBe(IMPORT_NOT_SCRIPT);
    expect(parseImport(file)).toMatchObject({ name: 'Rules', preview: 'From a file' });
  });

  it('a name not taken is imported as it is', async () => {
    const { http, result } = await run('script.import', { source: file, onDuplicate: 'ask' });
    expect(calls(http, 'POST')[0][1]).toMatchObject({ name: 'Rules', preview: 'From a file' });
    expect(result?.message).toBe('Rules was imported.');
  });

  it('a duplicate name asks keep both or replace, and imports nothing yet', async () => {
    const c = context({ scripts: [mine('s-1', 'rules')] });
    const e = await run('script.import', { source: file, onDuplicate: 'ask' }, c).catch((x) => x);
    expect(e).toBeInstanceOf(CommandError);
    expect(e).toMatchObject({ field: 'onDuplicate', message: duplicateNameMessage('Rules') });
    expect(calls(c.http, 'POST')).toEqual([]);
    expect(calls(c.http, 'PUT')).toEqual([]);
  });

  it('keep both imports under a free name; replace overwrites the one of that name', async () => {
    const taken = [mine('s-1', 'Rules'), mine('s-2', 'Rules (2)')];
    const both = await run(
      'script.import',
      { source: file, onDuplicate: 'keepBoth' },
      context({ scripts: taken }),
    );
    expect(calls(both.http, 'POST')[0][1]).toMatchObject({ name: 'Rules (3)' });
    expect(both.result?.undo).toBeTypeOf('function');

    const replace = await run(
      'script.import',
      { source: file, onDuplicate: 'replace' },
      context({ scripts: taken }),
    );
    expect(calls(replace.http, 'PUT')).toEqual([
      ['/sentinel/scripts/s-1', expect.objectContaining({ name: 'Rules' })],
    ]);
    expect(calls(replace.http, 'POST')).toEqual([]);
  });

  it('names taken by other authors do not count', () => {
    expect(uniqueName('Rules', [])).toBe('Rules');
    expect(uniqueName('Rules (2)', ['rules (2)', 'Rules'])).toBe('Rules (3)');
  });
});

describe('script.duplicate and script.export', () => {
  it('duplicates under a free name and opens the copy, with an undo', async () => {
    const c = context({ scripts: [mine('s-1', 'Rules')] }, '/scripts/s-1');
    const { http, navigate, result } = await run('script.duplicate', { script: rules }, c);
    expect(calls(http, 'POST')[0][1]).toMatchObject({ name: 'Rules (2)' });
    expect(navigate).toHaveBeenCalledWith('/scripts/s-new');
    await result?.undo?.();
    expect(http).toHaveBeenLastCalledWith('DELETE', '/sentinel/scripts/s-new', expect.anything());
  });

  it('exports the saved script as a file the importer reads', async () => {
    const { save } = await run('script.export', { script: rules });
    const [filename, text, type] = save.mock.calls[0];
    expect([filename, type]).toEqual(['Rules.json', 'application/json']);
    expect(parseImport(text)).toEqual(emptyDocument('Rules'));
  });
});

describe('script.test', () => {
  const doc = JSON.stringify({
    ...emptyDocument('T'),
    events: [
      { language: 'JavaScript', context: 'chat', code: 'beacon.log(1)', keyword: null, arguments: null },
    ],
  });

  it('sends the event with the parameter values and reports the outcome', async () => {
    const output = JSON.stringify({
      status: 'success',
      output: 'Howdy',
      error: null,
      actions: [],
      durationMs: 3,
    });
    const c = context({ test: { output } });
    const { http, result } = await run(
      'script.test',
      { content: doc, event: 1, parameters: 'greeting=Howdy n=2' },
      c,
    );
    expect(calls(http, 'POST')).toEqual([
      [
        '/sentinel/scriptTests',
        {
          context: 'chat',
          language: 'JavaScript',
          code: 'beacon.log(1)',
          parameters: { greeting: 'Howdy', n: 2 },
        },
      ],
    ]);
    expect(result?.message).toBe('Test: Success');
    expect(result?.sections?.[0]).toEqual({ heading: 'Output', text: 'Howdy' });
  });

  it('with no word from the tester in time and no outcome kept, it is a timeout', async () => {
    const c = context({ gameAnswers: false, test: { output: null } });
    const { result } = await run('script.test', { content: doc, event: 1 }, c);
    expect(result?.message).toBe(`Test: Timeout. ${TEST_TIMEOUT_TEXT}`);
  });

  it('the tester refusals of SPEC §8 come through by their code', async () => {
    const c = context();
    c.http.mockImplementationOnce(async () => {
      throw new ApiError('A test of yours is still running.', 'testAlreadyRunning', 412);
    });
    await expect(run('script.test', { content: doc, event: 1 }, c)).rejects.toMatchObject({
      code: 'testAlreadyRunning',
    });
    expect(() => parameterValues('greeting')).toThrow('"greeting" is not name=value.');
    expect(parameterValues('{"a": true}')).toEqual({ a: true });
  });
});

describe('script webhooks', () => {
  it('names a webhook by its purpose or id; copy puts its URL on the clipboard', async () => {
    const { copy } = await run('script.webhook.copyUrl', { script: rules, webhook: 'discord' });
    expect(copy).toHaveBeenCalledWith('https://x/2');
    const { http } = await run('script.webhook.rotateSecret', { script: rules, webhook: 'w-1' });
    expect(calls(http, 'POST')).toEqual([['/sentinel/scripts/s-1/webhooks/w-1/secret', undefined]]);
    await expect(run('script.webhook.copyUrl', { script: rules, webhook: 'nope' })).rejects.toMatchObject({
      field: 'webhook',
      message: 'No webhook of Rules is named "nope". Webhooks: Host panel, Discord.',
    });
  });
});
