// Cron with two API processes on one PostgreSQL: both tick the same minute, the schedule runs once
// (one run, one log line), and a queued webhook is run by exactly one of them.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SeedResult, seedDemo } from '../../src/server/seed.ts';
import { call, DEMO, signIn } from './helpers.ts';
import { startTwoServers, type TwoServers } from './twoServers.ts';

let servers: TwoServers;
let demo: SeedResult;

describe('scripts with two server processes on one PostgreSQL', () => {
  beforeAll(async () => {
    servers = await startTwoServers('scriptcron', { scripts: { manualCron: true, queuePollMs: 50 } });
    demo = await seedDemo(servers.a.db, { ...DEMO, servers: 1 });
    const base = `${servers.a.url}/v4`;
    const token = (await signIn(base)).access_token;
    const made = await call(base, token, 'POST', '/sentinel/scripts', {
      name: 'Hourly',
      events: [
        {
          language: 'JavaScript',
          context: 'cron',
          keyword: '@hourly',
          arguments: [],
          code: "console.log('tick')",
        },
        {
          language: 'JavaScript',
          context: 'serviceScriptRun',
          keyword: 'Now',
          arguments: [],
          code: "console.log('now')",
        },
      ],
    });
    await call(base, token, 'POST', '/sentinel/serviceScripts', {
      serviceId: demo.servers[0].serviceId,
      scriptId: made.body.created[0].scriptId,
      parameterValues: {},
    });
  }, 60_000);
  afterAll(() => servers?.close());

  const runs = async (trigger: string) =>
    (
      await servers.a.db.query(
        `SELECT 1 FROM log_messages WHERE event_name = 'scriptRun' AND metadata->>'trigger' = $1`,
        [trigger],
      )
    ).rows.length;

  it('runs a schedule once per tick when both processes tick', async () => {
    const minute = new Date('2031-05-01T08:00:00Z');
    const ran = await Promise.all([servers.a.scripts.cronTick(minute), servers.b.scripts.cronTick(minute)]);
    expect(ran.sort()).toEqual([0, 1]);
    expect(await runs('cron')).toBe(1);
    expect(await servers.b.scripts.cronTick(new Date('2031-05-01T08:30:00Z'))).toBe(0);
    expect(await servers.b.scripts.cronTick(new Date('2031-05-01T09:00:00Z'))).toBe(1);
    expect(await runs('cron')).toBe(2);
  });

  it('runs a queued menu item once though both processes read the queue', async () => {
    const base = `${servers.b.url}/v4`;
    const token = (await signIn(base)).access_token;
    const serviceId = demo.servers[0].serviceId;
    const items = await call(
      base,
      token,
      'GET',
      `/sentinel/scriptMenuItems?serviceId=${serviceId}&context=serviceScriptRun`,
    );
    for (let i = 0; i < 5; i++)
      expect(
        (
          await call(base, token, 'POST', `/sentinel/scriptMenuItems/${items.body[0].scriptEventId}`, {
            serviceId,
          })
        ).status,
      ).toBe(204);
    for (let i = 0; i < 100 && (await runs('serviceScriptRun')) < 5; i++)
      await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300));
    expect(await runs('serviceScriptRun')).toBe(5);
  });
});
