// The script tester: every outcome (success, failure, timeout, requires review) with its output,
// the actions described rather than taken, and the refusals (testAlreadyRunning, missingKeys,
// unsupportedLanguage, invalidContext, badParameters). Test runs here may take 4 s and real runs
// 1.5 s, so each outcome is quick to reach, and a one-line script is far inside them however busy
// the machine (one took 424 ms of wall time in a loaded CI run, past the 300 ms once used here).
// Script time per account is left unbounded here; its own test below has a server of its own.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { SCRIPT_LIMITS } from '../../src/domain/scripts/limits.ts';
import { hashPassword } from '../../src/server/crypto.ts';
import {
  call,
  DEMO,
  recording,
  signIn,
  signInStranger,
  startTestServer,
  type TestServer,
  until,
} from './helpers.ts';

let t: TestServer;
let owner: string;
let moderator: string;
const published: { channels: string[]; event: string; data: unknown }[] = [];
/** What announcements of ended tests wait for: a slow realtime service, when a test sets one. */
let announcing: Promise<void> = Promise.resolve();

beforeAll(async () => {
  t = await startTestServer({
    scripts: { testTimeoutMs: 4_000, limits: { timeMs: 1_500 }, secondsPerMinute: 0 },
  });
  const publish = t.server.publisher.publish.bind(t.server.publisher);
  t.server.publisher.publish = async (channels, event, data, except) => {
    published.push({ channels, event, data });
    if (event === 'requestCompleted') await announcing;
    return publish(channels, event, data, except);
  };
  [owner, moderator] = await Promise.all([
    signIn(t.base).then((x) => x.access_token),
    signIn(t.base, t.demo.moderator.email, DEMO.password).then((x) => x.access_token),
  ]);
}, 60_000);
afterAll(() => t?.close());

/** Submits a test (to this file's server unless `base` names another) and waits for its outcome. */
async function test(token: string, body: Record<string, unknown>, base = t.base) {
  const started = await call(base, token, 'POST', '/sentinel/scriptTests', body);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const row = await until(
    'the test to end',
    async () => {
      const r = await call(base, token, 'GET', `/sentinel/scriptTests/${started.body.requestId}`);
      return !r.body.pending && r.body;
    },
    5_000,
  );
  return { ...JSON.parse(row.output), row };
}

it('succeeds with the output and the actions it would take, taking none', async () => {
  const r = await test(owner, {
    context: 'chat',
    language: 'JavaScript',
    chatMessage: 'hello there',
    parameters: { prize: 'berries' },
    code: `console.log(beacon.eventData.message, beacon.params.prize);
           beacon.sendChat('Hi ' + beacon.eventData.playerName);`,
  });
  expect(r).toMatchObject({
    status: 'success',
    output: 'hello there berries',
    error: null,
    actions: [{ type: 'sendChat', options: { message: 'Hi Test Player' } }],
    row: { pending: false, completionTime: expect.any(Number) },
  });
  const simple = await test(owner, {
    context: 'chat',
    language: 'Simple',
    chatMessage: 'buy gold now',
    code: JSON.stringify({
      conditions: [{ field: 'message', operator: 'contains', value: 'gold' }],
      actions: [{ type: 'kickPlayer', options: { playerId: '{playerId}' } }],
    }),
  });
  expect(simple).toMatchObject({ status: 'success', actions: [{ type: 'kickPlayer' }] });
  // The output went out on the tester's channel as it was written, before the test ended.
  const said = published.findIndex((p) => p.event === 'scriptTestOutput');
  expect(published[said]).toEqual({
    channels: [`private-users.${t.demo.userId}`],
    event: 'scriptTestOutput',
    data: { requestId: r.row.requestId, lines: ['hello there berries'] },
  });
  const ended = published.findIndex(
    (p) => p.event === 'requestCompleted' && (p.data as { requestId: string }).requestId === r.row.requestId,
  );
  expect(said).toBeLessThan(ended);
  // The tester's own channel says when each test ended, so a console need not ask again and again.
  expect(published).toContainEqual({
    channels: [`private-users.${t.demo.userId}`],
    event: 'requestCompleted',
    data: { requestId: r.row.requestId, ok: true },
  });
});

it('fails with the script error, and ends as a timeout past the test limit', async () => {
  expect(
    await test(owner, { context: 'chat', language: 'JavaScript', code: "console.log('a'); null.x;" }),
  ).toMatchObject({ status: 'failure', output: 'a', error: expect.stringMatching(/^TypeError/) });
  expect(
    await test(owner, { context: 'chat', language: 'JavaScript', code: 'beacon.giveItem("c", "nope")' }),
  ).toMatchObject({ status: 'failure', error: expect.stringMatching(/itemPath must be a class path/) });
  expect(
    await test(owner, { context: 'chat', language: 'JavaScript', code: 'while (true) {}' }),
  ).toMatchObject({
    status: 'timeout',
    error: 'The test ran longer than 4 seconds.',
  });
});

it('frees the tester for the next test once the row says it ended, however slow the announcement', async () => {
  let release = () => {};
  announcing = new Promise((res) => {
    release = res;
  });
  try {
    expect(await test(owner, { context: 'chat', language: 'JavaScript', code: '1' })).toMatchObject({
      status: 'success',
    });
    expect(await test(owner, { context: 'chat', language: 'JavaScript', code: '2' })).toMatchObject({
      status: 'success',
    });
  } finally {
    release();
    announcing = Promise.resolve();
  }
});

it('requires review for restricted features and for runs too long for real', async () => {
  expect(
    await test(owner, { context: 'cron', language: 'JavaScript', code: "beacon.hash('sha256', 'x')" }),
  ).toMatchObject({ status: 'requiresReview' });
  const slow = await test(owner, {
    context: 'cron',
    language: 'JavaScript',
    code: 'const end = Date.now() + 2_000; while (Date.now() < end) {}',
  });
  expect(slow).toMatchObject({
    status: 'requiresReview',
    error: expect.stringMatching(/real runs stop after 1500 ms/),
  });
});

it('refuses a second test while one runs, and bad tests with their codes', async () => {
  const first = await call(t.base, moderator, 'POST', '/sentinel/scriptTests', {
    context: 'chat',
    language: 'JavaScript',
    code: 'while (true) {}',
  });
  expect(first.status).toBe(200);
  const again = await call(t.base, moderator, 'POST', '/sentinel/scriptTests', {
    context: 'chat',
    language: 'JavaScript',
    code: '1',
  });
  expect([again.status, again.body.code]).toEqual([412, 'testAlreadyRunning']);
  // While it runs in this process, another is refused without asking the database about tests.
  const asked = await recording(t.server.db, async () => {
    const more = await call(t.base, moderator, 'POST', '/sentinel/scriptTests', {
      context: 'chat',
      language: 'JavaScript',
      code: '2',
    });
    expect([more.status, more.body.code]).toEqual([412, 'testAlreadyRunning']);
  });
  expect(asked.filter((sql) => sql.includes('script_tests'))).toEqual([]);
  const cases: [Record<string, unknown>, string][] = [
    [{ language: 'JavaScript', code: '1' }, 'missingKeys'],
    [{ context: 'chat', language: 'Lua', code: '1' }, 'unsupportedLanguage'],
    [{ context: 'teaTime', language: 'JavaScript', code: '1' }, 'invalidContext'],
    [{ context: 'chat', language: 'JavaScript', code: '1', parameters: { a: { b: 1 } } }, 'badParameters'],
  ];
  for (const [body, code] of cases)
    expect((await call(t.base, owner, 'POST', '/sentinel/scriptTests', body)).body.code).toBe(code);
});

it('runs one test per user at a time, however many are sent at once', async () => {
  const body = { context: 'chat', language: 'JavaScript', code: 'while (true) {}' };
  const answers = await Promise.all(
    Array.from({ length: 8 }, () => call(t.base, owner, 'POST', '/sentinel/scriptTests', body)),
  );
  const statuses = answers.map((a) => a.status).sort();
  expect(statuses).toEqual([200, ...Array(7).fill(412)]);
  expect(answers.filter((a) => a.status === 412).every((a) => a.body.code === 'testAlreadyRunning')).toBe(
    true,
  );
  // Wait the running one out, so the tests below start alone.
  const running = answers.find((a) => a.status === 200)!.body.requestId;
  await expect
    .poll(async () => (await call(t.base, owner, 'GET', `/sentinel/scriptTests/${running}`)).body.pending, {
      timeout: 20_000,
    })
    .toBe(false);
});

it('gives up a test its process never finished 60 seconds after it was queued, and starts the next', async () => {
  const stranger = await signInStranger(t);
  const { rows } = await t.server.db.query<{ user_id: string }>(
    "SELECT user_id FROM users WHERE email = 'stranger@palisade.local'",
  );
  const userId = rows[0]!.user_id;
  // Left running by a process that stopped: queued, never completed.
  const insert = (age: number) =>
    t.server.db.query<{ request_id: string }>(
      `INSERT INTO script_tests (user_id, script_data, queue_time)
       VALUES ($1, '{}', now() - make_interval(secs => $2)) RETURNING request_id`,
      [userId, age],
    );
  const body = { context: 'chat', language: 'Simple', code: '{}' };
  const young = (await insert(30)).rows[0]!.request_id;
  // Younger than a minute it may still be running somewhere: the user waits.
  const refused = await call(t.base, stranger, 'POST', '/sentinel/scriptTests', body);
  expect([refused.status, refused.body.code]).toEqual([412, 'testAlreadyRunning']);
  await t.server.db.query(
    "UPDATE script_tests SET queue_time = now() - interval '61 seconds' WHERE request_id = $1",
    [young],
  );
  const next = await call(t.base, stranger, 'POST', '/sentinel/scriptTests', body);
  expect(next.status, JSON.stringify(next.body)).toBe(200);
  const old = await call(t.base, stranger, 'GET', `/sentinel/scriptTests/${young}`);
  expect(old.body).toMatchObject({ pending: false, output: null });
  expect(old.body.completionTime - old.body.queueTime).toBeCloseTo(60, 0);
  // Two at once still start one.
  await expect
    .poll(
      async () =>
        (await call(t.base, stranger, 'GET', `/sentinel/scriptTests/${next.body.requestId}`)).body.pending,
    )
    .toBe(false);
  const both = await Promise.all(
    [1, 2].map(() =>
      call(t.base, stranger, 'POST', '/sentinel/scriptTests', {
        ...body,
        language: 'JavaScript',
        code: 'while (true) {}',
      }),
    ),
  );
  expect(both.map((a) => a.status).sort()).toEqual([200, 412]);
});

it('keeps the first actions of a test that takes very many, and says how many it left out', async () => {
  const r = await test(owner, {
    context: 'chat',
    language: 'JavaScript',
    code: `for (let i = 0; i < 2000; i++) beacon.sendChat('line ' + i);`,
  });
  expect(r.actions).toHaveLength(SCRIPT_LIMITS.testActions);
  expect(r.actions[0]).toEqual({ type: 'sendChat', options: { message: 'line 0' } });
  expect(r.actionsOmitted).toBe(2_000 - SCRIPT_LIMITS.testActions);
  const stored = await t.server.db.query<{ n: number }>(
    'SELECT octet_length(output) AS n FROM script_tests WHERE request_id = $1',
    [r.row.requestId],
  );
  expect(stored.rows[0]!.n).toBeLessThan(64 * 1024);
});

it('matches a Simple pattern in linear time, and refuses one the engine cannot run', async () => {
  const condition = (value: string) =>
    JSON.stringify({
      conditions: [{ field: 'message', operator: 'regex', value }],
      actions: [{ type: 'kickPlayer', options: { playerId: '{playerId}' } }],
    });
  // Backtracking engines take 2^40 steps to say no here; the test ends at once.
  const slow = await test(owner, {
    context: 'chat',
    language: 'Simple',
    chatMessage: `${'a'.repeat(40)}!`,
    code: condition('^(a+)+$'),
  });
  expect(slow).toMatchObject({ status: 'success', actions: [] });
  const hit = await test(owner, {
    context: 'chat',
    language: 'Simple',
    chatMessage: 'AAAA',
    code: condition('(?i)^(a+)+$'),
  });
  expect(hit).toMatchObject({ status: 'success', actions: [{ type: 'kickPlayer' }] });
  const refused = await test(owner, {
    context: 'chat',
    language: 'Simple',
    chatMessage: 'abab',
    code: condition('(ab)\\1'),
  });
  expect(refused.status).toBe('failure');
  expect(refused.error).toMatch(/^Condition 1: The pattern cannot be used: .*back-references/);
});

it("stops an account's looping tests at its script time, says when it comes back, and leaves others' alone", async () => {
  // 0.4 s saved at most, and earned so slowly that none comes back while this test runs.
  const metered = await startTestServer({
    scripts: { testTimeoutMs: 1_500, burstSeconds: 0.4, secondsPerMinute: 0.6 },
  });
  try {
    const [mine, theirs] = await Promise.all([
      signIn(metered.base).then((x) => x.access_token),
      signIn(metered.base, metered.demo.moderator.email, DEMO.password).then((x) => x.access_token),
    ]);
    const run = (token: string, code: string) =>
      test(token, { context: 'chat', language: 'JavaScript', code }, metered.base);
    const outOfTime = {
      status: 'failure',
      error: expect.stringMatching(
        /^Scripts run for this account have used their running time \(0.6 seconds a minute\); they run again in \d+ s\.$/,
      ),
    };
    // Stopped at the account's 0.4 s, not at the test's own 1.5 s.
    expect(await run(mine, 'while (true) {}')).toMatchObject(outOfTime);
    expect(await run(mine, "console.log('next')")).toMatchObject({ ...outOfTime, output: '' });
    expect(await run(theirs, "console.log('mine')")).toMatchObject({ status: 'success', output: 'mine' });
  } finally {
    await metered.close();
  }
});

it('refuses an account past its tests a minute, held and before its body is read, and leaves others alone', async () => {
  // An account of its own, so no test above has started any this minute.
  await t.server.db.query(
    `INSERT INTO users (username, email, password_hash) VALUES ('Looper', 'looper@palisade.local', $1)`,
    [await hashPassword('looper-pass')],
  );
  const looper = (await signIn(t.base, 'looper@palisade.local', 'looper-pass')).access_token;
  const limit = SCRIPT_LIMITS.testsPerMinute;
  // Not even JSON: a refusal past the limit does not get as far as reading it.
  const garbage = async () => {
    const res = await fetch(`${t.base}/sentinel/scriptTests`, {
      method: 'POST',
      headers: { authorization: `Bearer ${looper}`, 'content-type': 'application/json' },
      body: '{',
    });
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() };
  };
  // The limit counts a minute from its start: a count begun just before one starts over with it,
  // so up to twice the limit may be taken before the refusal.
  const taken: number[] = [];
  let refusal: Awaited<ReturnType<typeof garbage>> | undefined;
  while (!refusal && taken.length <= 2 * limit) {
    const r = await garbage();
    if (r.status === 429) refusal = r;
    else taken.push(r.status);
  }
  expect(taken.length).toBeGreaterThanOrEqual(limit);
  expect(new Set(taken)).toEqual(new Set([400]));
  expect(refusal).toEqual({
    status: 429,
    retryAfter: '10',
    body: expect.objectContaining({
      code: 'tooManyTests',
      message: `You have started ${limit} tests in the last minute. Wait a moment before the next.`,
    }),
  });
  // Another account tests as before.
  expect(
    await test(owner, { context: 'chat', language: 'JavaScript', code: "console.log('still')" }),
  ).toMatchObject({ status: 'success', output: 'still' });
});
