// The Workshop as the console uses it: a shared script's versions are public like the script
// (the preview's version picker), attachments are pinned to a version at once (manual update mode)
// and a second one with the same parameters is a duplicate (SPEC §4 attachment, §8 Workshop install).

import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, DEMO, signIn, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let owner: string;
let moderator: string;

beforeAll(async () => {
  t = await startTestServer();
  [owner, moderator] = await Promise.all([
    signIn(t.base).then((x) => x.access_token),
    signIn(t.base, t.demo.moderator.email, DEMO.password).then((x) => x.access_token),
  ]);
});
afterAll(() => t?.close());

const rulesBot = {
  name: 'Rules bot',
  preview: 'Answers !rules',
  parameters: [{ name: 'rules', type: 'String', default: 'Be nice' }],
  events: [{ language: 'Simple', context: 'serviceScriptRun', code: '{}', keyword: 'Rules', arguments: [] }],
};

it("shows a Workshop script's versions to everyone, a private one's only to those who hold it", async () => {
  const made = await call(t.base, owner, 'POST', '/sentinel/scripts', rulesBot);
  const scriptId = made.body.created[0].scriptId;
  const path = `/sentinel/scripts/${scriptId}/revisions`;
  expect((await call(t.base, moderator, 'GET', path)).body.code).toBe('notFound');
  await call(t.base, owner, 'POST', `/sentinel/scripts/${scriptId}/publish`);
  const seen = await call(t.base, moderator, 'GET', path);
  expect(seen.status).toBe(200);
  expect(seen.body.revisions).toEqual([
    {
      revisionId: made.body.created[0].latestRevisionId,
      dateCreated: expect.any(Number),
      approvalStatus: 'Approved',
    },
  ]);
  // Taken out of the Workshop, its versions are private again.
  await call(t.base, owner, 'DELETE', `/sentinel/scripts/${scriptId}/publish`);
  expect((await call(t.base, moderator, 'GET', path)).status).toBe(404);
  expect((await call(t.base, moderator, 'GET', `/sentinel/scripts/not-a-uuid/revisions`)).status).toBe(404);
});

it('pins an attachment to a version as it is made, and refuses the same one twice', async () => {
  const made = await call(t.base, owner, 'POST', '/sentinel/scripts', { ...rulesBot, name: 'Pinned bot' });
  const { scriptId, latestRevisionId } = made.body.created[0];
  const serviceId = t.demo.servers[0].serviceId;
  const attachment = {
    serviceId,
    scriptId,
    parameterValues: { rules: 'No griefing' },
    revisionId: latestRevisionId,
  };
  const first = await call(t.base, owner, 'POST', '/sentinel/serviceScripts', attachment);
  // Each attachment says the script's status, for its badge (SPEC §4).
  expect(first.body.created[0]).toMatchObject({
    revisionId: latestRevisionId,
    origin: 'Direct',
    approvalStatus: 'Approved',
    communityStatus: 'Private',
  });
  const again = await call(t.base, owner, 'POST', '/sentinel/serviceScripts', attachment);
  expect({ status: again.status, code: again.body.code }).toEqual({ status: 400, code: 'duplicate' });
  // The moderator may not attach to a server without manage scripts there.
  await call(t.base, owner, 'POST', `/sentinel/scripts/${scriptId}/publish`);
  const refused = await call(t.base, moderator, 'POST', '/sentinel/serviceScripts', {
    ...attachment,
    parameterValues: {},
  });
  expect(refused.status).toBe(403);
  const listed = await call(
    t.base,
    owner,
    'GET',
    `/sentinel/serviceScripts?serviceId=${serviceId}&scriptId=${scriptId}`,
  );
  expect(listed.body.results).toEqual([expect.objectContaining({ communityStatus: 'Approved' })]);
});
