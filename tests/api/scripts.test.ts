// /sentinel/scripts and friends: save rules and error codes, revisions and approval status, PATCH
// keeping what it is not sent, publish/like, community list, tests, menu items and manual runs.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, DEMO, signIn, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let owner: string;
let moderator: string;
let scriptId: string;
const published: { channels: string[]; event: string; data: unknown }[] = [];
const told = (event: string) => published.filter((p) => p.event === event);

const menu = {
  language: 'Simple',
  context: 'serviceScriptRun',
  code: '{}',
  keyword: 'Restart',
  arguments: [],
};

beforeAll(async () => {
  t = await startTestServer();
  [owner, moderator] = await Promise.all([
    signIn(t.base).then((x) => x.access_token),
    signIn(t.base, t.demo.moderator.email, DEMO.password).then((x) => x.access_token),
  ]);
  const publish = t.server.publisher.publish.bind(t.server.publisher);
  t.server.publisher.publish = async (channels, event, data, except) => {
    published.push({ channels, event, data });
    return publish(channels, event, data, except);
  };
});
afterAll(() => t?.close());

it('refuses bad saves with their codes', async () => {
  const cases: [unknown, string][] = [
    [{ name: ' ' }, 'emptyName'],
    [{ name: 'A', events: [{ language: 'Lua', context: 'chat', code: '' }] }, 'badLanguage'],
    [{ name: 'A', events: [{ language: 'Simple', context: 'nope', code: '' }] }, 'badContext'],
    [{ name: 'A', events: [{ language: 'Simple', context: 'slashCommand', code: '' }] }, 'emptyKeyword'],
    [
      { name: 'A', events: [{ language: 'Simple', context: 'cron', code: '', keyword: '61 * * * *' }] },
      'badCronExpression',
    ],
    [{ name: 'A', events: [{ ...menu, arguments: [{ name: 'x', type: 'String' }] }] }, 'badArguments'],
    [{ name: 'A', parameters: [{ name: '1x', type: 'String' }] }, 'badParameters'],
    [{ description: 'no name' }, 'missingProperties'],
  ];
  for (const [body, code] of cases) {
    const r = await call(t.base, owner, 'POST', '/sentinel/scripts', body);
    expect({ body, status: r.status, code: r.body.code }).toEqual({ body, status: 400, code });
  }
});

it('saves revisions with their approval status; PATCH keeps what it is not sent', async () => {
  const made = await call(t.base, owner, 'POST', '/sentinel/scripts', {
    name: 'Restarter',
    preview: 'Restarts',
    events: [menu, { language: 'Simple', context: 'cron', code: '{}', keyword: '0 4 * * *', arguments: [] }],
  });
  const s = made.body.created[0];
  scriptId = s.scriptId;
  expect(s).toMatchObject({ approvalStatus: 'Approved', communityStatus: 'Private', preview: 'Restarts' });
  expect(s.events).toHaveLength(2);
  expect((await call(t.base, owner, 'POST', '/sentinel/scripts', { name: 'restarter' })).body.code).toBe(
    'nameNotUnique',
  );

  const js = await call(t.base, owner, 'PATCH', `/sentinel/scripts/${scriptId}`, {
    commonJavascript: 'let a = 1;',
  });
  expect(js.body).toMatchObject({ name: 'Restarter', preview: 'Restarts', approvalStatus: 'Probation' });
  expect(js.body.events).toHaveLength(2);
  const http = await call(t.base, owner, 'PATCH', `/sentinel/scripts/${scriptId}`, {
    commonJavascript: 'beacon.httpRequest("x")',
  });
  expect(http.body.approvalStatus).toBe('Needs Review');
  const revisions = await call(t.base, owner, 'GET', `/sentinel/scripts/${scriptId}/revisions`);
  expect(revisions.body.revisions.map((r: { approvalStatus: string }) => r.approvalStatus)).toEqual([
    'Needs Review',
    'Probation',
    'Approved',
  ]);
  // Putting the first content back names the first revision again.
  const back = await call(t.base, owner, 'PATCH', `/sentinel/scripts/${scriptId}`, { commonJavascript: '' });
  expect(back.body.latestRevisionId).toBe(revisions.body.revisions[2].revisionId);
  // Every save told the owner's libraries (made, then three changes); the refused one did not.
  expect(told('scriptsUpdated')).toHaveLength(4);
  expect(told('scriptsUpdated')[0]).toEqual({
    channels: [`private-users.${t.demo.userId}`],
    event: 'scriptsUpdated',
    data: scriptId,
  });
});

it('publishes, unpublishes, likes and lists the Workshop', async () => {
  expect(
    (await call(t.base, moderator, 'PUT', `/sentinel/scripts/${scriptId}/like`, { liked: true })).body.code,
  ).toBe('scriptNotFound');
  expect((await call(t.base, moderator, 'POST', `/sentinel/scripts/${scriptId}/publish`)).status).toBe(404);
  published.length = 0;
  const pub = await call(t.base, owner, 'POST', `/sentinel/scripts/${scriptId}/publish`);
  expect(pub.body).toEqual({ scriptId, communityStatus: 'Approved' });
  // Sharing changes the status every library shows.
  expect(told('scriptsUpdated').map((p) => p.data)).toEqual([scriptId]);
  expect(
    (await call(t.base, moderator, 'PUT', `/sentinel/scripts/${scriptId}/like`, { liked: true })).body,
  ).toEqual({
    liked: true,
  });
  const community = await call(t.base, moderator, 'GET', '/sentinel/communityScripts?search=restarts');
  expect(community.body.results[0]).toMatchObject({
    scriptId,
    liked: true,
    communityVotes: 1,
    permissions: 1,
  });
  expect((await call(t.base, owner, 'PUT', '/sentinel/scripts/x/like', { liked: true })).body.code).toBe(
    'badScriptId',
  );
  await t.server.db.query(`UPDATE scripts SET community_status = 'Rejected' WHERE script_id = $1`, [
    scriptId,
  ]);
  expect((await call(t.base, owner, 'POST', `/sentinel/scripts/${scriptId}/publish`)).body.code).toBe(
    'scriptRejected',
  );
});

it('runs one test at a time per user', async () => {
  const body = { context: 'chat', language: 'JavaScript', code: 'while (true) {}' };
  const first = await call(t.base, owner, 'POST', '/sentinel/scriptTests', body);
  expect(first.status).toBe(200);
  expect((await call(t.base, owner, 'POST', '/sentinel/scriptTests', body)).body.code).toBe(
    'testAlreadyRunning',
  );
  expect(
    (await call(t.base, moderator, 'POST', '/sentinel/scriptTests', { ...body, language: 'Lua' })).body.code,
  ).toBe('unsupportedLanguage');
  const mine = await call(t.base, owner, 'GET', `/sentinel/scriptTests/${first.body.requestId}`);
  expect(mine.body).toMatchObject({ pending: true, output: null });
  expect((await call(t.base, moderator, 'GET', `/sentinel/scriptTests/${first.body.requestId}`)).status).toBe(
    404,
  );
});

it('offers menu items of attached scripts and runs one', async () => {
  const serviceId = t.demo.servers[0].serviceId;
  await t.server.db.query(`UPDATE scripts SET community_status = 'Private' WHERE script_id = $1`, [scriptId]);
  await call(t.base, owner, 'POST', '/sentinel/serviceScripts', { serviceId, scriptId, parameterValues: {} });
  const items = await call(
    t.base,
    moderator,
    'GET',
    `/sentinel/scriptMenuItems?serviceId=${serviceId}&context=serviceScriptRun`,
  );
  expect(items.body).toEqual([{ menuText: 'Restart', scriptEventId: expect.any(String), arguments: [] }]);
  const run = await call(
    t.base,
    moderator,
    'POST',
    `/sentinel/scriptMenuItems/${items.body[0].scriptEventId}`,
    { serviceId },
  );
  expect(run.status).toBe(204);
  // The engine takes the queued run and leaves its line on the server.
  let line: { metadata: Record<string, unknown> } | undefined;
  for (let i = 0; i < 200 && !line; i++) {
    line = (
      await t.server.db.query<{ metadata: Record<string, unknown> }>(
        `SELECT metadata FROM log_messages WHERE event_name = 'scriptRun' AND service_id = $1`,
        [serviceId],
      )
    ).rows[0];
    if (!line) await new Promise((r) => setTimeout(r, 50));
  }
  expect(line?.metadata).toMatchObject({
    trigger: 'serviceScriptRun',
    keyword: 'Restart',
    outcome: 'success',
  });
  const elsewhere = await call(
    t.base,
    moderator,
    'POST',
    `/sentinel/scriptMenuItems/${items.body[0].scriptEventId}`,
    {
      serviceId: t.demo.servers[1].serviceId,
    },
  );
  expect(elsewhere.body.code).toBe('eventNotFound');
});
