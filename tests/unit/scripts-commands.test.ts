// The script library, runner and Workshop commands as the surfaces drive them: what goes over the
// wire, the update modes of attaching, and every refusal of SPEC §8 (Workshop install, share and
// unshare, script versions, script runner) in its words.

import { describe, expect, it, vi } from 'vitest';
import type { EntityLookup, EntityRef } from '../../commands/args.ts';
import type { Choice, CommandContext, Surface } from '../../commands/context.ts';
import { createRegistry } from '../../commands/index.ts';
import { execute, parseArgs } from '../../commands/registry.ts';
import type { Script } from '../../src/domain/api.ts';
import { copyName, likesOf, scriptOrigin, scriptStatus, WorkshopMsg } from '../../src/domain/workshop.ts';
import { ApiError } from '../../src/web/api/http.ts';
import { parseLine } from '../../src/web/terminal/parse.ts';
import { fakeCommandContext } from './commandContext-fixture.ts';

const rules: EntityRef = { kind: 'script', id: 'sc-rules', label: 'Rules bot' };
const island: EntityRef = { kind: 'server', id: 's-island', label: 'Island PvE' };
const scorched: EntityRef = { kind: 'server', id: 's-scorched', label: 'Scorched PvP' };
const frontier: EntityRef = { kind: 'group', id: 'g-front', label: 'Frontier' };
const rex: EntityRef = { kind: 'dino', id: 'd-rex', label: 'Rexy' };
const known = [rules, island, scorched, frontier, rex];
const lookup: EntityLookup = {
  search: () => [],
  resolve: async (kinds, text) => known.filter((e) => kinds.includes(e.kind) && e.label === text),
};
const registry = createRegistry();

const REVISIONS = {
  revisions: [
    { revisionId: 'r3-waiting', dateCreated: 300, approvalStatus: 'Needs Review' },
    { revisionId: 'r2-probation', dateCreated: 200, approvalStatus: 'Probation' },
    { revisionId: 'r1-approved', dateCreated: 100, approvalStatus: 'Approved' },
  ],
};
const SCRIPT = {
  scriptId: 'sc-rules',
  name: 'Rules bot',
  preview: 'Answers !rules',
  description: 'The rules',
  parameters: [
    { name: 'rules', type: 'String', default: 'Be nice' },
    { name: 'times', type: 'Number', default: 1 },
    { name: 'loud', type: 'Boolean', default: false },
  ],
  commonJavascript: '',
  events: [
    { scriptEventId: 'e1', language: 'Simple', context: 'chat', code: '{}', keyword: null, arguments: null },
  ],
  liked: null,
};

interface Sent {
  method: string;
  path: string;
  body?: unknown;
  query?: Record<string, unknown>;
}

function context(opts: {
  surface?: Surface;
  answer?: (s: Sent) => unknown;
  prefs?: Record<string, unknown>;
  chosen?: (c: Choice) => EntityRef | null;
}) {
  const sent: Sent[] = [];
  const http = vi.fn(
    async (method: string, path: string, o?: { body?: unknown; query?: Record<string, unknown> }) => {
      const s = { method, path, body: o?.body, query: o?.query };
      sent.push(s);
      const answered = opts.answer?.(s);
      if (answered instanceof Error) throw answered;
      if (answered !== undefined) return answered;
      if (path.endsWith('/revisions')) return REVISIONS;
      if (path === '/sentinel/scripts' && method === 'GET') return { results: [SCRIPT], totalResults: 1 };
      if (path === '/sentinel/communityScripts/sc-rules') return SCRIPT;
      if (method === 'POST' && path === '/sentinel/scripts')
        return { created: [{ scriptId: 'sc-copy' }], updated: [] };
      if (method === 'POST') return { created: [{}], updated: [] };
      return true;
    },
  );
  const choices: Choice[] = [];
  const navigated: string[] = [];
  const forms: { id: string; known: unknown }[] = [];
  const ctx = fakeCommandContext(http, {
    route: '/scripts',
    surface: opts.surface ?? 'console',
    entities: lookup,
    app: {
      dialogs: {
        confirm: async () => true,
        form: (id: string, known: unknown) => void forms.push({ id, known }),
        choose: async (c: Choice) => {
          choices.push(c);
          return opts.chosen ? opts.chosen(c) : (c.rows[0]?.ref ?? null);
        },
      },
      prefs: { get: (k: string) => opts.prefs?.[k] },
      navigate: (to: string) => void navigated.push(to),
    },
  });
  return { ctx, sent, choices, navigated, forms };
}

const run = (id: string, values: Record<string, unknown>, ctx: CommandContext) =>
  execute(registry.get(id)!, values, ctx);

const apiError = (code: string, status: number, message = code) => new ApiError(message, code, status);

describe('script.attach and workshop.addToServer', () => {
  const posted = (sent: Sent[]) => sent.find((s) => s.method === 'POST')?.body;

  it('manual (recommended): pins the newest approved or probation version, typed parameter values', async () => {
    const { ctx, sent } = context({});
    const r = await run(
      'script.attach',
      {
        script: rules,
        target: island,
        parameters: 'rules="No griefing, please", times=3, loud=yes',
        mode: 'manual',
      },
      ctx,
    );
    expect(posted(sent)).toEqual({
      scriptId: 'sc-rules',
      serviceId: 's-island',
      parameterValues: { rules: 'No griefing, please', times: 3, loud: true },
      revisionId: 'r2-probation',
    });
    expect(r?.message).toBe(
      `Rules bot is attached to Island PvE, on version r2-proba. ${WorkshopMsg.attachNotice}`,
    );
  });

  it('keeps updated with no version; to a group, with every bit the group may pass on; the notice can be hidden', async () => {
    const { ctx, sent } = context({ prefs: { attachNoticeVisible: false } });
    const r = await run('workshop.addToServer', { script: rules, target: frontier, mode: 'follow' }, ctx);
    expect(sent.map((s) => s.path)).toEqual(['/sentinel/groupScripts']);
    expect(posted(sent)).toEqual({
      scriptId: 'sc-rules',
      groupId: 'g-front',
      permissionsMask: 16383,
      parameterValues: {},
      revisionId: null,
    });
    expect(r?.message).toBe('Rules bot is attached to Frontier, kept updated.');
  });

  it('locks to the version named by its first characters, and asks for one', async () => {
    const { ctx, sent } = context({});
    await run('script.attach', { script: rules, target: island, mode: 'locked', version: 'r1' }, ctx);
    expect(posted(sent)).toMatchObject({ revisionId: 'r1-approved' });
    await expect(
      run('script.attach', { script: rules, target: island, mode: 'locked' }, ctx),
    ).rejects.toThrow('Choose the version to lock to');
    await expect(
      run('script.attach', { script: rules, target: island, mode: 'locked', version: 'r9' }, ctx),
    ).rejects.toThrow('No version matches "r9". Versions: r3-waiti (1970-01-01)');
  });

  it('refuses parameters the script does not have, or of the wrong type, before anything is attached', async () => {
    const { ctx, sent } = context({});
    await expect(
      run('script.attach', { script: rules, target: island, parameters: 'colour=red', mode: 'manual' }, ctx),
    ).rejects.toThrow('The script has no parameter colour. Its parameters: rules, times, loud.');
    await expect(
      run('script.attach', { script: rules, target: island, parameters: 'times=many', mode: 'manual' }, ctx),
    ).rejects.toThrow('times must be a number.');
    expect(sent.some((s) => s.method === 'POST')).toBe(false);
  });

  it('says SPEC §8 Workshop install and script versions errors in their words', async () => {
    const cases: [unknown, string][] = [
      [apiError('duplicate', 400), WorkshopMsg.installDuplicate],
      [apiError('forbidden', 403), WorkshopMsg.installForbidden],
      [apiError('generic', 500, 'Boom.'), `${WorkshopMsg.installGeneric} Boom.`],
    ];
    for (const [error, message] of cases) {
      const { ctx } = context({ answer: (s) => (s.method === 'POST' ? error : undefined) });
      await expect(
        run('script.attach', { script: rules, target: island, mode: 'follow' }, ctx),
      ).rejects.toThrow(message);
    }
    const none = context({
      answer: (s) => (s.path.endsWith('/revisions') ? { revisions: [REVISIONS.revisions[0]] } : undefined),
    });
    await expect(
      run('script.attach', { script: rules, target: island, mode: 'manual' }, none.ctx),
    ).rejects.toThrow(WorkshopMsg.noneApproved);
    const gone = context({
      answer: (s) => (s.path.endsWith('/revisions') ? apiError('notFound', 404) : undefined),
    });
    await expect(
      run('script.attach', { script: rules, target: island, mode: 'manual' }, gone.ctx),
    ).rejects.toThrow(WorkshopMsg.versionsNotFound);
  });

  it('is one command line in the console, manual by default', async () => {
    const parsed = parseLine('attach "Rules bot" "Island PvE"', registry);
    expect(parsed.errors).toEqual([]);
    const { ctx } = context({});
    const { values, errors } = await parseArgs(parsed.cmd!, parsed.raw, lookup, ctx);
    expect(errors).toEqual({});
    expect(values).toMatchObject({ script: rules, target: island, mode: 'manual' });
  });
});

describe('script.updateToLatest', () => {
  it('moves pinned attachments to the newest approved version, and undoes it', async () => {
    const { ctx, sent } = context({
      answer: (s) =>
        s.method === 'GET' && s.path === '/sentinel/serviceScripts'
          ? {
              results: [
                { serviceScriptId: 'a1', revisionId: 'r1-approved' },
                { serviceScriptId: 'a2', revisionId: null },
              ],
            }
          : undefined,
    });
    const r = await run('script.updateToLatest', { script: rules, target: island }, ctx);
    expect(r?.message).toBe('Rules bot on Island PvE is on version r2-proba.');
    const patches = () => sent.filter((s) => s.method === 'PATCH');
    expect(patches()).toEqual([
      {
        method: 'PATCH',
        path: '/sentinel/serviceScripts/a1',
        body: { revisionId: 'r2-probation' },
        query: undefined,
      },
    ]);
    await r?.undo?.();
    expect(patches()[1].body).toEqual({ revisionId: 'r1-approved' });
  });
});

describe('script.showUpdate and script.acceptUpdate (a version waiting for the attacher)', () => {
  const revision = (id: string, code: string) => ({
    revisionId: id,
    dateCreated: 1_800_000_000,
    approvalStatus: 'Probation',
    commonJavascript: '',
    parameters: [],
    events: [{ context: 'chat', keyword: null, language: 'JavaScript', code }],
  });
  const answer = (s: Sent) => {
    if (s.method === 'GET' && s.path === '/sentinel/serviceScripts')
      return {
        results: [
          {
            serviceScriptId: 'a1',
            revisionId: null,
            acceptedRevisionId: 'r1-accepted',
            pendingRevisionId: 'r2-waiting',
          },
        ],
      };
    if (s.path === '/sentinel/scripts/sc-rules/revisions/r1-accepted')
      return revision('r1-accepted', "beacon.sendChat('hi');");
    if (s.path === '/sentinel/scripts/sc-rules/revisions/r2-waiting')
      return revision('r2-waiting', "beacon.runAdminCommand('destroywilddinos');");
    return undefined;
  };

  it('shows what changed, line by line, before anything is accepted', async () => {
    const { ctx, sent } = context({ answer });
    const r = await run('script.showUpdate', { script: rules, target: island }, ctx);
    expect(r?.message).toBe(
      'Rules bot on Island PvE: version r2-waiti waits for your accept; Island PvE runs r1-accep.',
    );
    expect(r?.sections).toEqual([
      {
        heading: 'What changed',
        text: "Changed: chat\n-beacon.sendChat('hi');\n+beacon.runAdminCommand('destroywilddinos');",
      },
    ]);
    expect(sent.filter((s) => s.method !== 'GET')).toEqual([]);
  });

  it('accepts the waiting version, and undoes it', async () => {
    const { ctx, sent } = context({ answer });
    const r = await run('script.acceptUpdate', { script: rules, target: island }, ctx);
    expect(r?.message).toBe('Island PvE now runs version r2-waiti of Rules bot.');
    const patches = () => sent.filter((s) => s.method === 'PATCH').map((s) => s.body);
    expect(patches()).toEqual([{ acceptedRevisionId: 'r2-waiting' }]);
    await r?.undo?.();
    expect(patches()[1]).toEqual({ acceptedRevisionId: 'r1-accepted' });
  });

  it('says so when no version waits', async () => {
    const { ctx } = context({
      answer: (s) =>
        s.method === 'GET' && s.path === '/sentinel/serviceScripts'
          ? {
              results: [
                {
                  serviceScriptId: 'a1',
                  revisionId: null,
                  acceptedRevisionId: null,
                  pendingRevisionId: null,
                },
              ],
            }
          : undefined,
    });
    await expect(run('script.acceptUpdate', { script: rules, target: island }, ctx)).rejects.toThrow(
      'No new version of Rules bot waits on Island PvE.',
    );
  });
});

describe('script.attachmentWebhook', () => {
  it('makes the attachment its webhook and shows the URL, the secret and how to sign a call', async () => {
    const { ctx, sent } = context({
      answer: (s) => {
        if (s.method === 'GET' && s.path === '/sentinel/serviceScripts')
          return { results: [{ serviceScriptId: 'a1', revisionId: null, hasWebhook: true }] };
        if (s.method === 'POST' && s.path === '/sentinel/serviceScripts/a1/webhook')
          return { url: 'https://console.test/v4/sentinel/attachmentWebhooks/a1', secret: 's3cret' };
        return undefined;
      },
    });
    const r = await run('script.attachmentWebhook', { script: rules, target: island }, ctx);
    expect(r?.message).toBe(
      'Rules bot on Island PvE has a new webhook; the previous secret no longer works.',
    );
    expect(r?.sections?.slice(0, 2)).toEqual([
      { heading: 'URL', text: 'https://console.test/v4/sentinel/attachmentWebhooks/a1' },
      { heading: 'Secret', text: 's3cret' },
    ]);
    expect(sent.filter((s) => s.method === 'POST').map((s) => s.path)).toEqual([
      '/sentinel/serviceScripts/a1/webhook',
    ]);
  });
});

describe('script.setVersion (the version picker)', () => {
  const attachment = (s: Sent) =>
    s.method === 'GET' && s.path === '/sentinel/serviceScripts'
      ? { results: [{ serviceScriptId: 'a1', revisionId: null }] }
      : undefined;

  it('offers Keep updated and every version by Date and Version ID, and pins the one chosen', async () => {
    const { ctx, sent, choices } = context({
      surface: 'menu',
      answer: attachment,
      chosen: (c) => c.rows[3].ref,
    });
    const r = await run('script.setVersion', { script: rules, target: island }, ctx);
    expect(choices[0].columns).toEqual(['Date', 'Version ID', 'Status']);
    expect(choices[0].rows.map((row) => row.cells[1])).toEqual([
      'Keep updated',
      'r3-waiting',
      'r2-probation',
      'r1-approved',
    ]);
    expect(choices[0].rows[3].cells).toEqual(['1970-01-01 00:01', 'r1-approved', 'Approved']);
    expect(sent.at(-1)).toMatchObject({ method: 'PATCH', body: { revisionId: 'r1-approved' } });
    expect(r?.message).toBe('Rules bot on Island PvE is locked to version r1-appro.');
    const keep = context({ surface: 'menu', answer: attachment, chosen: (c) => c.rows[0].ref });
    await run('script.setVersion', { script: rules, target: island }, keep.ctx);
    expect(keep.sent.at(-1)).toMatchObject({ method: 'PATCH', body: { revisionId: null } });
  });

  it('in the console asks for the version, naming them', async () => {
    const { ctx } = context({ answer: attachment });
    await expect(run('script.setVersion', { script: rules, target: island }, ctx)).rejects.toThrow(
      'Choose a version, or latest to keep it updated. Versions: r3-waiti (1970-01-01 00:05)',
    );
  });
});

describe('script.share and script.unshare', () => {
  it('adds to and removes from the Workshop, each the undo of the other', async () => {
    const { ctx, sent } = context({});
    const r = await run('script.share', { script: rules }, ctx);
    expect(sent[0]).toMatchObject({ method: 'POST', path: '/sentinel/scripts/sc-rules/publish' });
    expect(r?.message).toContain('MIT-0');
    await r?.undo?.();
    expect(sent[1]).toMatchObject({ method: 'DELETE', path: '/sentinel/scripts/sc-rules/publish' });
  });

  it('says SPEC §8 share and unshare errors in their words (a rejected script cannot be shared)', async () => {
    const cases: [ApiError, string][] = [
      [apiError('scriptRejected', 400), WorkshopMsg.scriptRejected],
      [apiError('badScriptId', 400), WorkshopMsg.badScriptId],
      [apiError('scriptNotFound', 404), WorkshopMsg.scriptNotFound],
      [apiError('notFound', 404), WorkshopMsg.unknownRoute],
    ];
    for (const [error, message] of cases)
      for (const id of ['script.share', 'script.unshare']) {
        const { ctx } = context({ answer: () => error });
        await expect(run(id, { script: rules }, ctx)).rejects.toThrow(message);
      }
  });
});

describe('script.run (the script runner menu)', () => {
  const items = (s: Sent) =>
    s.path === '/sentinel/scriptMenuItems'
      ? s.query?.serviceId === 's-scorched'
        ? []
        : [{ menuText: 'Restart', scriptEventId: 'ev-1', arguments: [] }]
      : undefined;

  it('offers the menu items of the target with the notice, and runs the one chosen', async () => {
    const { ctx, sent, choices } = context({ surface: 'toolbar', answer: items });
    const r = await run('script.run', { target: island }, ctx);
    expect(choices[0]).toMatchObject({
      title: 'Run Script on Island PvE',
      notice: WorkshopMsg.runnerNotice,
      rows: [{ ref: { id: 'ev-1', label: 'Restart' }, cells: ['Restart', 'none'] }],
    });
    expect(sent.at(-1)).toMatchObject({
      method: 'POST',
      path: '/sentinel/scriptMenuItems/ev-1',
      body: { serviceId: 's-island', arguments: {} },
    });
    expect(r?.message).toBe('Restart is running on Island PvE.');
  });

  it('runs on a dino of a server with its id, and on each server of a group that has the script', async () => {
    const dino = context({
      answer: (s) =>
        s.path === '/sentinel/dinos/d-rex' ? { dinoId: 'd-rex', serviceId: 's-island' } : items(s),
    });
    await run('script.run', { target: rex, script: 'restart' }, dino.ctx);
    expect(dino.sent.find((s) => s.path === '/sentinel/scriptMenuItems')?.query).toEqual({
      serviceId: 's-island',
      context: 'dinoScriptRun',
    });
    expect(dino.sent.at(-1)?.body).toEqual({ serviceId: 's-island', arguments: {}, dinoId: 'd-rex' });

    const group = context({
      answer: (s) =>
        s.path === '/sentinel/groupServices'
          ? {
              results: [
                { serviceId: 's-island', serviceDisplayName: 'Island PvE' },
                { serviceId: 's-scorched', serviceDisplayName: 'Scorched PvP' },
                { serviceId: 's-ab', serviceDisplayName: 'Aberration' },
              ],
            }
          : items(s),
    });
    const r = await run('script.run', { target: frontier, script: 'Restart' }, group.ctx);
    const runs = group.sent
      .filter((s) => s.method === 'POST')
      .map((s) => (s.body as { serviceId: string }).serviceId);
    expect(runs).toEqual(['s-island', 's-ab']);
    expect(r?.message).toBe('Restart is running on 2 servers.');
  });

  it('in the console lists the menu with the notice; an unknown script names the notice when there are none', async () => {
    const { ctx } = context({ answer: items });
    const r = await run('script.run', { target: island }, ctx);
    expect(r?.table?.rows).toEqual([['Restart', 'none']]);
    expect(r?.message).toContain(WorkshopMsg.runnerNotice);
    const empty = context({ answer: items });
    await expect(run('script.run', { target: scorched, script: 'Restart' }, empty.ctx)).rejects.toThrow(
      `No script "Restart" for Scorched PvP. ${WorkshopMsg.runnerNotice}`,
    );
  });

  it("gives the script's arguments, typed; one chosen from the menu without them opens the form", async () => {
    const kit = (s: Sent) =>
      s.path === '/sentinel/scriptMenuItems'
        ? [
            {
              menuText: 'Give kit',
              scriptEventId: 'ev-kit',
              arguments: [
                { name: 'who', type: 'String', default: null, required: true },
                { name: 'count', type: 'Number', default: 1, required: false },
              ],
            },
          ]
        : undefined;
    const parsed = parseLine('runscript "Island PvE" Give kit --arguments "who=Bob, count=2"', registry);
    expect(parsed.errors).toEqual([]);
    const typed = context({ answer: kit });
    const { values } = await parseArgs(parsed.cmd!, parsed.raw, lookup, typed.ctx);
    await execute(parsed.cmd!, values, typed.ctx);
    expect(typed.sent.at(-1)?.body).toEqual({ serviceId: 's-island', arguments: { who: 'Bob', count: 2 } });

    const console_ = context({ answer: kit });
    await expect(run('script.run', { target: island, script: 'Give kit' }, console_.ctx)).rejects.toThrow(
      `${WorkshopMsg.runMissingKeys} Give kit needs who (String).`,
    );
    const menu = context({ surface: 'toolbar', answer: kit });
    const r = await run('script.run', { target: island }, menu.ctx);
    expect(menu.forms).toEqual([
      { id: 'script.run', known: { target: island, script: 'Give kit', arguments: undefined } },
    ]);
    expect(r?.message).toBe('Give kit needs who (String).');
    expect(menu.sent.some((s) => s.method === 'POST')).toBe(false);
  });

  it('says SPEC §8 script runner errors in their words', async () => {
    const cases: [ApiError, string][] = [
      [apiError('forbidden', 403), WorkshopMsg.runForbidden],
      [
        apiError('missingKeys', 400, 'Missing arguments who.'),
        `${WorkshopMsg.runMissingKeys} Missing arguments who.`,
      ],
      [apiError('eventNotFound', 404), WorkshopMsg.runNotFound],
      [apiError('generic', 500), WorkshopMsg.runInternal],
    ];
    for (const [error, message] of cases) {
      const { ctx } = context({ answer: (s) => (s.method === 'POST' ? error : items(s)) });
      await expect(run('script.run', { target: island, script: 'Restart' }, ctx)).rejects.toThrow(message);
    }
  });
});

describe('the Workshop', () => {
  it('likes, or takes the like back, and undoes it', async () => {
    const { ctx, sent } = context({});
    const r = await run('workshop.like', { script: rules }, ctx);
    expect(sent.at(-1)).toMatchObject({
      method: 'PUT',
      path: '/sentinel/scripts/sc-rules/like',
      body: { liked: true },
    });
    expect(r?.message).toBe('You like Rules bot.');
    await r?.undo?.();
    expect(sent.at(-1)?.body).toEqual({ liked: null });
    const liked = context({
      answer: (s) =>
        s.path === '/sentinel/communityScripts/sc-rules' ? { ...SCRIPT, liked: true } : undefined,
    });
    expect((await run('workshop.like', { script: rules }, liked.ctx))?.message).toBe(
      'You no longer like Rules bot.',
    );
  });

  it('makes a copy of its own under a free name, with the whole script, and shows the library', async () => {
    const { ctx, sent, navigated } = context({
      surface: 'toolbar',
      answer: (s) =>
        s.method === 'GET' && s.path === '/sentinel/scripts'
          ? { results: [{ name: 'Rules bot (copy)' }, { name: 'Rules bot' }] }
          : undefined,
    });
    const r = await run('workshop.copy', { script: rules }, ctx);
    const created = sent.find((s) => s.method === 'POST')!;
    expect(created.body).toEqual({
      name: 'Rules bot (copy 2)',
      preview: SCRIPT.preview,
      description: SCRIPT.description,
      parameters: SCRIPT.parameters,
      commonJavascript: '',
      events: SCRIPT.events,
    });
    expect(r?.message).toBe(`Rules bot (copy 2) is in your library. ${WorkshopMsg.licence}`);
    expect(navigated).toEqual(['/scripts']);
    await r?.undo?.();
    expect(sent.at(-1)).toMatchObject({ method: 'DELETE', path: '/sentinel/scripts/sc-copy' });
  });

  it('g w goes to the Workshop tab; a preview opens by the script', async () => {
    expect(registry.binding('global', ['g>w'])?.command?.id).toBe('nav.workshop');
    const { ctx, navigated } = context({ surface: 'palette' });
    await run('nav.workshop', {}, ctx);
    await run('workshop.preview', { script: rules }, ctx);
    expect(navigated).toEqual(['/scripts/workshop', '/scripts/workshop/sc-rules']);
  });
});

describe('script status, origin, likes and copy names', () => {
  const s = (patch: Partial<Script>) =>
    ({ approvalStatus: 'Approved', communityStatus: 'Private', userId: 'u1', ...patch }) as Script;
  it('reads SPEC §4 script status: under review, rejected, probation, or none', () => {
    expect(scriptStatus(s({ approvalStatus: 'Needs Review' }))).toBe('underReview');
    expect(scriptStatus(s({ approvalStatus: 'Rejected' }))).toBe('rejected');
    expect(scriptStatus(s({ communityStatus: 'Rejected' }))).toBe('rejected');
    expect(scriptStatus(s({ approvalStatus: 'Probation' }))).toBe('probation');
    expect(scriptStatus(s({}))).toBeNull();
  });
  it('names the origin, counts likes and finds a free copy name', () => {
    expect(scriptOrigin(s({}), 'u1')).toBe('My scripts');
    expect(scriptOrigin(s({ communityStatus: 'Approved' }), 'u2')).toBe('Workshop');
    expect(scriptOrigin(s({}), 'u2')).toBe('Group');
    expect(likesOf({ communityAverage: 2 / 3, communityVotes: 3 })).toBe(2);
    expect(likesOf({ communityAverage: null, communityVotes: 0 })).toBe(0);
    expect(copyName('A', new Set(['a (COPY)']))).toBe('A (copy 2)');
  });
});
