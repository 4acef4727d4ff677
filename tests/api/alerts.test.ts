// Alert rules end to end, against peers we did not write: a receiver that checks what we send
// against Discord's and Slack's published schemas and limits and answers as they do (429 with a
// retry-after among it), and an SMTP server of the Nodemailer project that receives the mail.
// Game events come from the simulator over the mod's link, as in production.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALERT_LIMITS, AlertMsg } from '../../src/domain/alerts.ts';
import { createServer } from '../../src/server/app.ts';
import type { Simulator } from '../../src/sim/index.ts';
import {
  call,
  linkGameServers,
  signIn,
  signInStranger,
  startTestServer,
  type TestServer,
  testDatabaseUrl,
  until,
} from './helpers.ts';
import { type SmtpReceiver, startSmtpReceiver } from './peers/smtpReceiver.ts';
import { startWebhookReceiver, type WebhookReceiver } from './peers/webhookReceiver.ts';

let t: TestServer;
let owner: string;
let moderator: string;
let stranger: string;
let hooks: WebhookReceiver;
let smtp: SmtpReceiver;
let sim: Simulator;
let linked: { serviceId: string; name: string; accessKey: string }[];
let down: { serviceId: string; name: string };

beforeAll(async () => {
  hooks = await startWebhookReceiver();
  smtp = await startSmtpReceiver();
  t = await startTestServer({
    // The clock's tick and the sender's poll are the tests' to call: no timer decides for them.
    alerts: {
      mail: { url: smtp.url, from: 'Palisade <alerts@palisade.test>' },
      tickMs: 3_600_000,
      pollMs: 3_600_000,
    },
  });
  owner = (await signIn(t.base)).access_token;
  moderator = (await signIn(t.base, t.demo.moderator.email, 'palisade-demo')).access_token;
  stranger = await signInStranger(t);
  // The group's two servers are linked; the third never is.
  linked = t.demo.servers.slice(0, 2);
  down = t.demo.servers[2];
  sim = await linkGameServers(t, linked);
});
afterAll(async () => {
  await sim?.stop();
  await t?.close();
  await hooks?.close();
  await smtp?.close();
});

const api = (token: string, method: string, path: string, body?: unknown) =>
  call(t.base, token, method, path, body);

async function destination(
  kind: string,
  address: string,
  name = `${kind} ${Math.random()}`,
): Promise<string> {
  const r = await api(owner, 'POST', '/sentinel/alertDestinations', { name, kind, address });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.destinationId;
}

async function rule(body: Record<string, unknown>, token = owner) {
  return api(token, 'POST', '/sentinel/alertRules', { name: `Rule ${Math.random()}`, ...body });
}

/** Every line handed to the rules is matched, the clock ticked if asked, and what is due sent. */
async function settle(tick = false) {
  await t.server.alerts.settle();
  if (tick) await t.server.alerts.tick();
  await t.server.alerts.settle();
}

const notifications = async (token = owner) =>
  (await api(token, 'GET', '/sentinel/notifications')).body.results;

describe('destinations', () => {
  it('keeps a webhook token secret, refuses addresses inside this machine’s networks, and bad input', async () => {
    const id = await destination('discord', hooks.discordUrl('42'));
    const listed = (await api(owner, 'GET', '/sentinel/alertDestinations')).body.results;
    const shown = listed.find((d: { destinationId: string }) => d.destinationId === id);
    expect(shown.address).toBe(`127.0.0.1:${new URL(hooks.discordUrl('42')).port}/api/webhooks/…`);
    const token = new URL(hooks.discordUrl('42')).pathname.split('/').pop()!;
    expect(JSON.stringify(listed)).not.toContain(token);
    // Nor does the account's activity trail, which says the destination was made.
    const trail = (await api(owner, 'GET', '/sentinel/activity?kind=alertDestinations')).body.results;
    expect(trail.length).toBeGreaterThan(0);
    expect(JSON.stringify(trail)).not.toContain(token);

    const inside = await api(owner, 'POST', '/sentinel/alertDestinations', {
      name: 'Metadata',
      kind: 'slack',
      address: 'http://169.254.169.254/latest/meta-data',
    });
    expect(inside.status).toBe(400);
    expect(inside.body.message).toContain('link-local address');
    const notUrl = await api(owner, 'POST', '/sentinel/alertDestinations', {
      name: 'x',
      kind: 'discord',
      address: 'javascript:alert(1)',
    });
    expect(notUrl.body).toMatchObject({ message: AlertMsg.webhookUrl, details: { field: 'address' } });
    const email = await api(owner, 'POST', '/sentinel/alertDestinations', {
      name: 'x',
      kind: 'email',
      address: 'not an address',
    });
    expect(email.body).toMatchObject({ message: AlertMsg.email, details: { field: 'address' } });
  });

  it('is the owner’s alone: another account neither lists, tests nor deletes it', async () => {
    const id = await destination('slack', hooks.slackUrl());
    expect((await api(stranger, 'GET', '/sentinel/alertDestinations')).body.results).toEqual([]);
    expect((await api(stranger, 'POST', `/sentinel/alertDestinations/${id}/test`)).status).toBe(404);
    expect((await api(stranger, 'DELETE', `/sentinel/alertDestinations/${id}`)).status).toBe(404);
    // Nor can it name it on a rule of its own.
    const r = await rule(
      { serviceId: down.serviceId, condition: { kind: 'scripts' }, destinationIds: [id] },
      stranger,
    );
    expect(r.status).toBe(400);
  });

  it('sends a test to Discord, Slack and mail in the shapes they document', async () => {
    const discord = await destination('discord', hooks.discordUrl('7'), 'Ops Discord');
    const slack = await destination('slack', hooks.slackUrl(), 'Ops Slack');
    const mail = await destination('email', 'admin@example.com', 'Ops mail');
    for (const id of [discord, slack, mail])
      expect((await api(owner, 'POST', `/sentinel/alertDestinations/${id}/test`)).status).toBe(200);
    await settle();
    const d = await hooks.waitFor(
      (r) => r.service === 'discord' && JSON.stringify(r.body).includes('Ops Discord'),
    );
    expect(d.problems).toEqual([]);
    expect(d.status).toBe(204);
    const s = await hooks.waitFor(
      (r) => r.service === 'slack' && JSON.stringify(r.body).includes('Ops Slack'),
    );
    expect(s.problems).toEqual([]);
    const m = await smtp.waitFor((x) => x.subject.includes('Ops mail'));
    expect(m.to).toEqual(['admin@example.com']);
    expect(m.headers['list-unsubscribe']).toMatch(/^<http:\/\/127\.0\.0\.1:\d+\/v4\/unsubscribe\/[\w-]+>$/);
    expect(m.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    // The history says each went, with the answer.
    const history = (await api(owner, 'GET', `/sentinel/alertDeliveries?destinationId=${discord}`)).body
      .results;
    expect(history[0]).toMatchObject({ kind: 'test', status: 'sent', attempts: 1, answer: 'HTTP 204' });
  });

  it('stops mail to a recipient who unsubscribes with one click', async () => {
    const id = await destination('email', 'leave@example.com', 'Leaver');
    await api(owner, 'POST', `/sentinel/alertDestinations/${id}/test`);
    await settle();
    const m = await smtp.waitFor((x) => x.to.includes('leave@example.com'));
    const url = /^<(.+)>$/.exec(m.headers['list-unsubscribe'])![1];
    // RFC 8058: the mail client posts this body to the link, with no cookie and no sign-in.
    const r = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(r.status).toBe(200);
    const [shown] = (await api(owner, 'GET', `/sentinel/alertDestinations?destinationId=${id}`)).body.results;
    expect(shown.unsubscribed).toBe(true);
    const again = await api(owner, 'POST', `/sentinel/alertDestinations/${id}/test`);
    expect(again.body.message).toBe(AlertMsg.unsubscribed);
  });
});

describe('rules', () => {
  it('take the right to edit the server or group, and are their author’s alone', async () => {
    const refused = await rule({ groupId: t.demo.groupId, condition: { kind: 'scripts' } }, moderator);
    expect(refused.body).toMatchObject({ message: AlertMsg.scopeNotYours, details: { field: 'groupId' } });
    const made = await rule({ groupId: t.demo.groupId, condition: { kind: 'scripts' } });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body).toMatchObject({ scopeName: 'Demo Cluster', openIncidents: 0 });
    const id = made.body.ruleId;
    expect((await api(stranger, 'GET', `/sentinel/alertRules/${id}`)).status).toBe(404);
    expect((await api(moderator, 'PATCH', `/sentinel/alertRules/${id}`, { muted: true })).status).toBe(404);
    expect((await api(stranger, 'DELETE', `/sentinel/alertRules/${id}`)).status).toBe(404);
    expect((await api(owner, 'DELETE', `/sentinel/alertRules/${id}`)).status).toBe(200);
  });

  it('refuse conditions that say nothing or too much, naming the field', async () => {
    const cases: [unknown, string, string][] = [
      [{ kind: 'weather' }, AlertMsg.kindBad, 'kind'],
      [{ kind: 'status', minutes: -1 }, AlertMsg.minutes, 'minutes'],
      [{ kind: 'population', direction: 'above', count: 1.5, minutes: 1 }, AlertMsg.count, 'count'],
      [{ kind: 'chat', category: 'rudeness', score: 0.5 }, AlertMsg.category, 'category'],
      [{ kind: 'chat', score: 2 }, AlertMsg.score, 'score'],
      [{ kind: 'log' }, AlertMsg.logEmpty, 'text'],
      [{ kind: 'log', text: 'x'.repeat(201) }, AlertMsg.textLong, 'text'],
      [{ kind: 'log', eventName: 'nope' }, AlertMsg.eventName, 'eventName'],
    ];
    for (const [condition, message, field] of cases) {
      const r = await rule({ serviceId: down.serviceId, condition });
      expect(r.body, JSON.stringify(condition)).toMatchObject({ message, details: { field } });
    }
    expect((await rule({ condition: { kind: 'scripts' } })).body.message).toBe(AlertMsg.scope);
  });
});

describe('incidents', () => {
  it('raise once for a server stopped in the simulator, and clear once when it is back', async () => {
    const hook = await destination('discord', hooks.discordUrl('1001'));
    const isConnected = async () =>
      (
        await t.server.db.query<{ c: boolean }>(
          'SELECT is_connected AS c FROM services WHERE service_id = $1',
          [down.serviceId],
        )
      ).rows[0].c;
    const first = await linkGameServers(t, [down as (typeof linked)[number]]);
    const r = await rule({
      name: 'Down watch',
      serviceId: down.serviceId,
      condition: { kind: 'status', minutes: 0 },
      destinationIds: [hook],
    });
    await settle(true);
    expect((await api(owner, 'GET', `/sentinel/alertRules/${r.body.ruleId}`)).body.openIncidents).toBe(0);

    // The game server stops: the next ticks raise it once.
    await first.stop();
    await until('the server is disconnected', async () => !(await isConnected()));
    await settle(true);
    await settle(true);
    const raised = await hooks.waitFor((x) => JSON.stringify(x.body).includes(`Server down: ${down.name}`));
    expect(raised.problems).toEqual([]);
    const downs = hooks.received.filter((x) => JSON.stringify(x.body).includes(`Server down: ${down.name}`));
    expect(downs).toHaveLength(1);
    expect((await api(owner, 'GET', `/sentinel/alertRules/${r.body.ruleId}`)).body.openIncidents).toBe(1);

    // It starts again: one all-clear.
    const again = await linkGameServers(t, [down as (typeof linked)[number]]);
    try {
      await until('the server is connected', isConnected);
      await settle(true);
      await settle(true);
      const back = await hooks.waitFor((x) =>
        JSON.stringify(x.body).includes(`Server back up: ${down.name}`),
      );
      expect(back.problems).toEqual([]);
      const mine = (await notifications()).filter((n: { ruleId: string }) => n.ruleId === r.body.ruleId);
      expect(mine.map((n: { kind: string }) => n.kind)).toEqual(['cleared', 'raised']);
    } finally {
      await again.stop();
      await api(owner, 'DELETE', `/sentinel/alertRules/${r.body.ruleId}`);
    }
  });

  it('send nothing while snoozed, and again once woken', async () => {
    const r = await rule({
      name: 'Snoozed crowd',
      serviceId: linked[1].serviceId,
      condition: { kind: 'population', direction: 'below', count: 1000, minutes: 0 },
    });
    const id = r.body.ruleId;
    const snoozed = await api(owner, 'PATCH', `/sentinel/alertRules/${id}`, {
      snoozedUntil: Math.round(Date.now() / 1000) + 3600,
    });
    expect(snoozed.body.snoozedUntil).toBeGreaterThan(Date.now() / 1000);
    await settle(true);
    const told = async () =>
      (await notifications())
        .filter((n: { ruleId: string }) => n.ruleId === id)
        .map((n: { kind: string }) => n.kind);
    // The incident is open, silently.
    expect((await api(owner, 'GET', `/sentinel/alertRules/${id}`)).body.openIncidents).toBe(1);
    expect(await told()).toEqual([]);
    // Woken, with the condition set again (which ends what was open), it raises.
    await api(owner, 'PATCH', `/sentinel/alertRules/${id}`, {
      snoozedUntil: null,
      condition: { kind: 'population', direction: 'below', count: 999, minutes: 0 },
    });
    await settle(true);
    expect(await told()).toEqual(['raised']);
    await api(owner, 'DELETE', `/sentinel/alertRules/${id}`);
  });

  it('raise one notification for a flagged player joining, however many lines they bring', async () => {
    const server = sim.servers[0];
    const who = server.world.candidates()[0];
    server.play((w) => w.join(who));
    await until('the player is stored', async () => {
      const r = await t.server.db.query('SELECT 1 FROM players WHERE player_id = $1', [who.playerId]);
      return r.rows.length > 0;
    });
    await api(owner, 'POST', '/sentinel/playerFlags', {
      playerId: who.playerId,
      name: 'Griefer',
      colour: 'red',
      reason: 'Burnt the <b>@everyone</b> base',
    });
    const hook = await destination('discord', hooks.discordUrl('1002'));
    const r = await rule({
      serviceId: linked[0].serviceId,
      condition: { kind: 'watched', flag: 'griefer' },
      destinationIds: [hook],
    });
    server.play((w) => [...w.leave(who, 'left'), ...w.join(who)]);
    server.play((w) => [...w.leave(who, 'left'), ...w.join(who)]);
    await until('both joins are stored', async () => {
      const rows = await t.server.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM log_messages WHERE event_name = 'playerJoined' AND metadata->>'playerId' = $1`,
        [who.playerId],
      );
      return rows.rows[0].n >= 3;
    });
    await settle();
    const got = await hooks.waitFor(
      (x) => x.path.includes('/1002/') && JSON.stringify(x.body).includes('Watched'),
    );
    expect(got.problems).toEqual([]);
    // A player's words are shown, never obeyed: no mention pings, the markup is escaped.
    const body = got.body as { allowed_mentions: unknown; embeds: { fields: { value: string }[] }[] };
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(JSON.stringify(body.embeds)).not.toContain('@everyone');
    expect(hooks.received.filter((x) => x.path.includes('/1002/'))).toHaveLength(1);
    const [incident] = (
      await t.server.db.query('SELECT events FROM alert_incidents WHERE rule_id = $1', [r.body.ruleId])
    ).rows;
    expect(incident.events).toBe(2);
  });

  it('count chat over a score into one incident, and clear it after a quiet spell', async () => {
    const hook = await destination('slack', hooks.slackUrl(), 'Chat watch');
    const r = await rule({
      name: 'Rude chat',
      serviceId: linked[1].serviceId,
      // Every line scores 0 or more: each one matches.
      condition: { kind: 'chat', category: 'any', score: 0 },
      destinationIds: [hook],
    });
    const server = sim.servers[1];
    server.type('first <!everyone> line');
    server.type('second line');
    await until('both lines are counted', async () => {
      await settle();
      const { rows } = await t.server.db.query<{ events: number }>(
        'SELECT events FROM alert_incidents WHERE rule_id = $1',
        [r.body.ruleId],
      );
      return rows[0]?.events === 2;
    });
    const raised = hooks.received.filter((x) => JSON.stringify(x.body).includes('Rule: Rude chat'));
    expect(raised).toHaveLength(1);
    expect(raised[0].problems).toEqual([]);
    // Slack's fallback text is escaped; the blocks are plain text, which Slack never formats.
    expect(raised[0].raw).not.toContain('<!everyone>');

    // Ten minutes pass without another line.
    await t.server.db.query(
      "UPDATE alert_incidents SET last_event = now() - interval '11 minutes' WHERE rule_id = $1",
      [r.body.ruleId],
    );
    await settle(true);
    const clear = await hooks.waitFor((x) => JSON.stringify(x.body).includes('All clear: Chat over 0'));
    expect(clear.problems).toEqual([]);
    expect(JSON.stringify(clear.body)).toContain('2 events in all');
    await api(owner, 'DELETE', `/sentinel/alertRules/${r.body.ruleId}`);
  });

  it('warn of a player joining from a banned player’s address, and a muted rule sends nothing', async () => {
    const server = sim.servers[0];
    const who = server.world.candidates()[1];
    const banned = '22222222-2222-4222-8222-222222222222';
    await t.server.db.query('INSERT INTO players (player_id, name, ip_fingerprint) VALUES ($1, $2, $3)', [
      banned,
      'Banned Alt',
      who.ipFingerprint,
    ]);
    await t.server.db.query(
      "INSERT INTO service_bans (service_id, player_id, comments) VALUES ($1, $2, 'Raiding')",
      [linked[0].serviceId, banned],
    );
    const evasion = await rule({
      name: 'Evasion',
      serviceId: linked[0].serviceId,
      condition: { kind: 'evasion', vpn: false },
    });
    const muted = await rule({
      name: 'Muted evasion',
      serviceId: linked[0].serviceId,
      condition: { kind: 'evasion', vpn: false },
    });
    await api(owner, 'PATCH', `/sentinel/alertRules/${muted.body.ruleId}`, { muted: true });
    server.play((w) => w.join(who));
    const seen = await until('the console is told', async () => {
      await settle();
      return (await notifications()).find((n: { ruleId: string }) => n.ruleId === evasion.body.ruleId);
    });
    expect(seen.title).toBe(`Possible ban evasion: ${who.name}`);
    expect(seen.body).toContain('banned Banned Alt');
    expect((await notifications()).filter((n: { ruleId: string }) => n.ruleId === muted.body.ruleId)).toEqual(
      [],
    );
  });

  it('raise for a player on the group’s watchlist, a failing script and a log line, each its own', async () => {
    const server = sim.servers[0];
    const who = server.world.candidates()[2];
    server.play((w) => [...w.join(who), ...w.leave(who, 'left')]);
    await until('the player is stored', async () => {
      const r = await t.server.db.query('SELECT 1 FROM players WHERE player_id = $1', [who.playerId]);
      return r.rows.length > 0;
    });
    await api(owner, 'POST', '/sentinel/groupWatchlist', {
      groupId: t.demo.groupId,
      playerId: who.playerId,
      reason: 'Alt of a raider',
    });
    const script = await api(owner, 'POST', '/sentinel/scripts', {
      name: 'Brittle',
      events: [{ language: 'JavaScript', context: 'chat', code: "throw new Error('boom');" }],
    });
    await api(owner, 'POST', '/sentinel/serviceScripts', {
      serviceId: linked[0].serviceId,
      scriptId: script.body.created[0].scriptId,
      parameterValues: {},
    });
    const made = await Promise.all([
      rule({ name: 'Watched', groupId: t.demo.groupId, condition: { kind: 'watched', flag: null } }),
      rule({ name: 'Brittle scripts', serviceId: linked[0].serviceId, condition: { kind: 'scripts' } }),
      rule({
        name: 'Joins',
        serviceId: linked[0].serviceId,
        condition: { kind: 'log', eventName: 'playerJoined' },
      }),
    ]);
    server.play((w) => w.join(who));
    server.type('hello there', who.playerId);
    const titles = await until('the three are told', async () => {
      await settle();
      const mine = (await notifications()).filter((n: { ruleId: string }) =>
        made.some((m) => m.body.ruleId === n.ruleId),
      );
      return mine.length >= 3 && mine.map((n: { title: string }) => n.title);
    });
    expect(titles).toEqual(
      expect.arrayContaining([
        `Watched player joined: ${who.name}`,
        'Script failing: Brittle',
        `Joins: ${linked[0].name}`,
      ]),
    );
    const watched = (await notifications()).find((n: { title: string }) => n.title.startsWith('Watched'));
    expect(watched.body).toContain('Why watched: Alt of a raider');
  });

  it('retry a failing webhook with a back-off, and fail one that is gone at once', async () => {
    const flaky = await destination('discord', hooks.discordUrl('1003'), 'Flaky');
    hooks.failNext(2, 502);
    await api(owner, 'POST', `/sentinel/alertDestinations/${flaky}/test`);
    await settle();
    const history = async () =>
      (await api(owner, 'GET', `/sentinel/alertDeliveries?destinationId=${flaky}`)).body.results[0];
    const first = await history();
    expect(first).toMatchObject({
      status: 'pending',
      attempts: 1,
      answer: expect.stringContaining('HTTP 502'),
    });
    expect(first.nextAttempt - Date.now() / 1000).toBeGreaterThan(3);
    for (const attempts of [2, 3]) {
      await t.server.db.query('UPDATE alert_deliveries SET next_attempt = now() WHERE delivery_id = $1', [
        first.deliveryId,
      ]);
      await settle();
      expect((await history()).attempts).toBe(attempts);
    }
    expect(await history()).toMatchObject({ status: 'sent', answer: 'HTTP 204' });

    hooks.failNext(1, 404);
    await api(owner, 'POST', `/sentinel/alertDestinations/${flaky}/test`);
    await settle();
    expect(await history()).toMatchObject({
      status: 'failed',
      attempts: 1,
      answer: expect.stringContaining('HTTP 404'),
    });
  });

  it('refuse a flood of tests', async () => {
    const id = await destination('discord', hooks.discordUrl('1004'), 'Spammed');
    const answers: number[] = [];
    for (let i = 0; i < 8; i++)
      answers.push((await api(owner, 'POST', `/sentinel/alertDestinations/${id}/test`)).status);
    expect(answers).toContain(429);
    await settle();
    const sent = hooks.received.filter((x) => x.path.includes('/1004/'));
    expect(sent.length).toBeLessThanOrEqual(5);
  });

  it('end what was open on a server taken out of the rule’s group, with nothing sent', async () => {
    const g = await api(owner, 'POST', '/sentinel/groups', { name: 'Alert group' });
    const groupId = g.body.created[0].groupId;
    const link = await api(owner, 'POST', '/sentinel/groupServices', {
      groupId,
      serviceId: down.serviceId,
      permissionsMask: 1,
    });
    const r = await rule({
      name: 'Crowd',
      groupId,
      // Fewer than 1,000 players, at once: it holds.
      condition: { kind: 'population', direction: 'below', count: 1000, minutes: 0 },
    });
    await settle(true);
    const open = async () =>
      (await api(owner, 'GET', `/sentinel/alertRules/${r.body.ruleId}`)).body.openIncidents as number;
    expect(await open()).toBe(1);
    await api(owner, 'DELETE', `/sentinel/groupServices/${link.body.created[0].groupServiceId}`);
    await settle(true);
    expect(await open()).toBe(0);
    const told = (await notifications()).filter((n: { ruleId: string }) => n.ruleId === r.body.ruleId);
    expect(told.map((n: { kind: string }) => n.kind)).toEqual(['raised']);
  });

  it('take no more for a destination with its most deliveries waiting, and say so in the history', async () => {
    const id = await destination('discord', hooks.discordUrl('1005'), 'Backed up');
    // A thousand waiting, due in an hour (the destination down, or rate-limited, meanwhile).
    await t.server.db.query(
      `INSERT INTO alert_deliveries (delivery_id, owner_id, destination_id, destination_name, destination_kind,
                                     kind, notice, next_attempt)
       SELECT gen_random_uuid(), $1, $2, 'Backed up', 'discord', 'raised', '{}', now() + interval '1 hour'
         FROM generate_series(1, $3)`,
      [t.demo.userId, id, ALERT_LIMITS.pendingPerDestination],
    );
    const r = await rule({
      name: 'Into a full queue',
      serviceId: down.serviceId,
      condition: { kind: 'scripts' },
      destinationIds: [id],
    });
    expect((await api(owner, 'POST', `/sentinel/alertRules/${r.body.ruleId}/test`)).status).toBe(200);
    const [latest] = (
      await api(owner, 'GET', `/sentinel/alertDeliveries?ruleId=${r.body.ruleId}&destinationId=${id}`)
    ).body.results;
    expect(latest).toMatchObject({ status: 'failed', attempts: 0, answer: AlertMsg.destinationFull });
    // The console is told all the same.
    expect((await notifications()).some((n: { ruleId: string }) => n.ruleId === r.body.ruleId)).toBe(true);
    await t.server.db.query("DELETE FROM alert_deliveries WHERE destination_id = $1 AND status = 'pending'", [
      id,
    ]);
  });

  // Last: it stops the file's server.
  it('honours a 429’s retry-after, and a restart during the wait loses nothing', async () => {
    const hook = await destination('slack', hooks.slackUrl(), 'Limited');
    hooks.limitNext(1, 30);
    await api(owner, 'POST', `/sentinel/alertDestinations/${hook}/test`);
    await settle();
    await hooks.waitFor((x) => x.status === 429);
    const [held] = (await api(owner, 'GET', `/sentinel/alertDeliveries?destinationId=${hook}`)).body.results;
    expect(held).toMatchObject({ status: 'pending', attempts: 0 });
    expect(held.answer).toContain('HTTP 429');
    expect(held.nextAttempt - Date.now() / 1000).toBeGreaterThan(25);

    // The server stops before the wait is over, and another starts on the same database.
    const { rows } = await t.server.db.query<{ s: string }>('SELECT current_schema() AS s');
    await t.server.close();
    const again = await createServer({
      databaseUrl: testDatabaseUrl(),
      dbSchema: rows[0].s,
      staticDir: '/nonexistent',
      outboundAllow: ['127.0.0.1'],
      alerts: { tickMs: 3_600_000, pollMs: 3_600_000 },
    });
    try {
      // The 30 seconds pass (the test does not wait them out).
      await again.db.query('UPDATE alert_destinations SET blocked_until = now() WHERE destination_id = $1', [
        hook,
      ]);
      await again.db.query('UPDATE alert_deliveries SET next_attempt = now() WHERE delivery_id = $1', [
        held.deliveryId,
      ]);
      await again.alerts.settle();
      const sent = await hooks.waitFor((x) => x.status === 200 && JSON.stringify(x.body).includes('Limited'));
      expect(sent.problems).toEqual([]);
      const { rows: after } = await again.db.query<{ status: string; attempts: number }>(
        'SELECT status, attempts FROM alert_deliveries WHERE delivery_id = $1',
        [held.deliveryId],
      );
      expect(after[0]).toEqual({ status: 'sent', attempts: 1 });
    } finally {
      await again.close();
    }
  });
});
