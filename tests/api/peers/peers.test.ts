// The test peers themselves: the Discord and Slack webhook receiver takes the services' own
// documented examples and refuses what their documented limits refuse, answers as the services do
// (bodies, statuses, rate-limit headers), and the SMTP receiver records a mail sent by Nodemailer
// with the headers a real relay would see. Alert tests rely on these answers being right.

import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SmtpReceiver, startSmtpReceiver } from './smtpReceiver.ts';
import { type Received, startWebhookReceiver, type WebhookReceiver } from './webhookReceiver.ts';

let hooks: WebhookReceiver;
let smtp: SmtpReceiver;

beforeAll(async () => {
  [hooks, smtp] = await Promise.all([startWebhookReceiver(), startSmtpReceiver()]);
});
afterAll(async () => {
  await Promise.all([hooks?.close(), smtp?.close()]);
});

const post = (url: string, body: unknown, contentType = 'application/json') =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

/** The record of the request that just got its answer (recorded before the answer is sent). */
const last = (): Received => hooks.received[hooks.received.length - 1];

const chars = (n: number, c = 'x') => c.repeat(n);

describe('Discord Execute Webhook', () => {
  it('takes the documented examples with 204 No Content', async () => {
    // Discord's Allowed Mentions reference: parse users and roles with an empty users list is valid.
    const res = await post(hooks.discordUrl(), {
      content: '@everyone <@123> <@&124>',
      allowed_mentions: { parse: ['users', 'roles'], users: [] },
    });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(last()).toMatchObject({ service: 'discord', status: 204, problems: [] });

    // Each text at its documented maximum (footer aside, to stay within the 6000 sum, met exactly),
    // with whitespace around the description that Discord trims before counting.
    const full = await post(hooks.discordUrl(), {
      username: 'Palisade alerts',
      avatar_url: 'https://example.test/a.png',
      embeds: [
        {
          title: chars(256),
          description: ` ${chars(4096)}\n`,
          url: 'https://example.test/alert/1',
          timestamp: '2025-05-01T12:30:00.000Z',
          color: 0xffffff,
          footer: { text: chars(112), icon_url: 'https://example.test/f.png' },
          author: { name: chars(256), url: 'https://example.test' },
          thumbnail: { url: 'attachment://chart.png' },
          fields: [{ name: chars(256), value: chars(1024), inline: true }],
        },
      ],
    });
    expect(full.status).toBe(204);
    expect(last().problems).toEqual([]);
  });

  it('answers ?wait=true with the created message', async () => {
    const res = await post(`${hooks.discordUrl()}?wait=true`, { content: 'Server down' });
    expect(res.status).toBe(200);
    const message = await res.json();
    expect(message).toMatchObject({ content: 'Server down', webhook_id: '223704706495545344' });
    expect(message.id).toMatch(/^\d+$/);
  });

  it('refuses a description of 4097 characters with an Invalid Form Body naming the field', async () => {
    const res = await post(hooks.discordUrl(), { embeds: [{ description: chars(4097) }] });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toMatchObject({ code: 50035, message: 'Invalid Form Body' });
    expect(body.errors.embeds['0'].description._errors[0]).toEqual({
      code: 'BASE_TYPE_MAX_LENGTH',
      message: 'Must be 4096 or fewer in length.',
    });
    expect(last().problems).toEqual([
      '/embeds/0/description must be 4096 or fewer characters once trimmed (is 4097)',
    ]);
  });

  it('refuses 11 embeds', async () => {
    const embeds = Array.from({ length: 11 }, (_, i) => ({ title: `Alert ${i}` }));
    const res = await post(hooks.discordUrl(), { embeds });
    expect(res.status).toBe(400);
    expect((await res.json()).errors.embeds._errors[0].code).toBe('BASE_TYPE_MAX_LENGTH');
    expect(last().problems).toEqual(['/embeds must NOT have more than 10 items']);
  });

  it('refuses embeds adding up to more than 6000 characters though each is within its limits', async () => {
    const embed = { title: chars(200), description: chars(2000), footer: { text: chars(800) } }; // 3000 each
    const ok = await post(hooks.discordUrl(), { embeds: [embed, embed] });
    expect(ok.status).toBe(204);
    const res = await post(hooks.discordUrl(), { embeds: [embed, embed, { title: 'one more' }] });
    expect(res.status).toBe(400);
    expect(last().problems).toEqual([
      '/embeds title, description, field names and values, footer text and author names of all embeds add up to 6008 characters, more than 6000',
    ]);
  });

  it('refuses the invalid allowed_mentions combination from the docs', async () => {
    const res = await post(hooks.discordUrl(), {
      content: '@everyone <@123> <@124> <@125> <@&200>',
      allowed_mentions: { parse: ['users'], users: ['123', '124'] },
    });
    expect(res.status).toBe(400);
    expect(last().problems).toEqual([
      '/allowed_mentions must not list users while parse contains "users" (mutually exclusive)',
    ]);
  });

  it('refuses bad colours, timestamps, missing field values and long usernames', async () => {
    const res = await post(hooks.discordUrl(), {
      username: chars(81),
      embeds: [{ color: 0x1000000, timestamp: 'yesterday', fields: [{ name: 'Players' }] }],
    });
    expect(res.status).toBe(400);
    const { errors } = await res.json();
    expect(errors.embeds['0'].fields['0'].value._errors[0].code).toBe('BASE_TYPE_REQUIRED');
    expect(last().problems).toEqual([
      '/username must NOT have more than 80 characters',
      '/embeds/0/timestamp must match format "iso8601"',
      '/embeds/0/color must be <= 16777215',
      '/embeds/0/fields/0/value is required',
    ]);
  });

  it('answers an empty message, bad JSON and a body of another Content-Type as Discord does', async () => {
    const empty = await post(hooks.discordUrl(), { content: '   ', embeds: [] });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({ code: 50006, message: 'Cannot send an empty message' });

    const broken = await post(hooks.discordUrl(), '{"content": ');
    expect(broken.status).toBe(400);
    expect((await broken.json()).code).toBe(50109);
    expect(last().body).toBeNull();

    const plain = await post(hooks.discordUrl(), 'hi', 'text/plain');
    expect(plain.status).toBe(400);
    expect((await plain.json()).code).toBe(50035);
  });

  it('is found only at the webhook path', async () => {
    const before = hooks.received.length;
    const res = await post(`http://127.0.0.1:${hooks.port}/api/webhooks/123`, { content: 'x' });
    expect(res.status).toBe(404);
    expect(hooks.received.length).toBe(before);
    expect((await post(hooks.discordUrl().replace('/api/', '/api/v10/'), { content: 'x' })).status).toBe(204);
  });
});

describe('Slack incoming webhook', () => {
  it('takes the documented Block Kit examples with 200 ok', async () => {
    const res = await post(hooks.slackUrl(), {
      text: 'Fallback for notifications',
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: 'A Heartfelt Header' } },
        {
          type: 'section',
          text: { type: 'mrkdwn', text: 'A message *with some bold text* and _some italicized text_.' },
        },
        {
          type: 'section',
          fields: Array.from({ length: 10 }, () => ({ type: 'mrkdwn', text: chars(2000) })),
        },
        { type: 'divider' },
        {
          type: 'context',
          elements: [
            {
              type: 'image',
              image_url: 'https://image.freepik.com/free-photo/red-drawing-pin_1156-445.jpg',
              alt_text: 'images',
            },
            { type: 'mrkdwn', text: 'Location: **Dogpatch**' },
          ],
        },
      ],
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('ok');
    expect(last()).toMatchObject({ service: 'slack', status: 200, problems: [] });

    const plain = await post(hooks.slackUrl(), { text: 'Hello, World!' });
    expect(await plain.text()).toBe('ok');
  });

  it('takes a form-encoded payload', async () => {
    const form = new URLSearchParams({ payload: JSON.stringify({ text: 'from a form' }) }).toString();
    const res = await post(hooks.slackUrl(), form, 'application/x-www-form-urlencoded');
    expect(res.status).toBe(200);
    expect(last().body).toEqual({ text: 'from a form' });
  });

  it('refuses blocks beyond their documented limits with invalid_blocks', async () => {
    const res = await post(hooks.slackUrl(), {
      text: 'x',
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: chars(151) } },
        { type: 'header', text: { type: 'mrkdwn', text: 'bold?' } },
        { type: 'section', text: { type: 'mrkdwn', text: 'x', emoji: true } },
        { type: 'section', fields: Array.from({ length: 11 }, () => ({ type: 'plain_text', text: 'f' })) },
        { type: 'section', text: { type: 'plain_text', text: chars(3001) } },
        { type: 'context', elements: Array.from({ length: 11 }, () => ({ type: 'plain_text', text: 'c' })) },
      ],
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toBe('invalid_blocks');
    expect(last().problems).toEqual([
      '/blocks/0/text/text must NOT have more than 150 characters',
      '/blocks/1/text/type must be "plain_text"',
      '/blocks/2/text may not have the property "emoji"',
      '/blocks/3/fields must NOT have more than 10 items',
      '/blocks/4/text/text must NOT have more than 3000 characters',
      '/blocks/5/elements must NOT have more than 10 items',
    ]);

    const many = await post(hooks.slackUrl(), {
      text: 'x',
      blocks: Array.from({ length: 51 }, () => ({ type: 'divider' })),
    });
    expect(await many.text()).toBe('invalid_blocks');
    expect(last().problems).toEqual(['/blocks must NOT have more than 50 items']);
  });

  it('answers no_text and invalid_payload as Slack does', async () => {
    const empty = await post(hooks.slackUrl(), { username: 'alerts' });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toBe('no_text');

    const broken = await post(hooks.slackUrl(), '{"text": ');
    expect(broken.status).toBe(400);
    expect(await broken.text()).toBe('invalid_payload');

    const wrongType = await post(hooks.slackUrl(), { text: 42 });
    expect(await wrongType.text()).toBe('invalid_payload');
    expect(last().problems).toEqual(['/text must be string', '(body) has neither text nor blocks (no_text)']);
  });
});

describe('forced answers', () => {
  it('rate-limits the next requests with each service’s headers, then answers normally', async () => {
    hooks.limitNext(2, 1.5);
    const discord = await post(hooks.discordUrl(), { content: 'limited' });
    expect(discord.status).toBe(429);
    expect(discord.headers.get('retry-after')).toBe('2');
    expect(discord.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(discord.headers.get('x-ratelimit-reset-after')).toBe('1.5');
    expect(await discord.json()).toEqual({
      message: 'You are being rate limited.',
      retry_after: 1.5,
      global: false,
    });
    // The payload is still judged, so a test can see a retried request was valid.
    expect(last()).toMatchObject({ status: 429, problems: [] });

    const slack = await post(hooks.slackUrl(), { text: 'limited' });
    expect(slack.status).toBe(429);
    expect(slack.headers.get('retry-after')).toBe('2');
    expect(await slack.text()).toBe('rate_limited');

    expect((await post(hooks.discordUrl(), { content: 'after' })).status).toBe(204);
  });

  it('fails the next requests with the status asked for', async () => {
    hooks.failNext(1, 500);
    const failed = await post(hooks.slackUrl(), { text: 'retry me' });
    expect(failed.status).toBe(500);
    expect(await failed.text()).toBe('rollup_error');
    expect((await post(hooks.slackUrl(), { text: 'retry me' })).status).toBe(200);
  });

  it('waits for a request still to come, without polling', async () => {
    const arrival = hooks.waitFor(
      (r) => (r.body as { content?: string } | null)?.content === 'awaited',
      'the awaited alert',
    );
    await post(hooks.discordUrl(), { content: 'awaited' });
    expect((await arrival).status).toBe(204);
    // Already received: answered from the record.
    expect((await hooks.waitFor((r) => r.status === 429)).service).toBe('discord');
  });

  it('rejects a waiter when the receiver closes', async () => {
    const other = await startWebhookReceiver();
    const never = other.waitFor(() => true, 'anything');
    await other.close();
    await expect(never).rejects.toThrow('webhook receiver closed while waiting for anything');
  });
});

describe('SMTP receiver', () => {
  it('records a mail sent by Nodemailer with its subject, recipients and List-Unsubscribe headers', async () => {
    const transport = nodemailer.createTransport(smtp.url);
    try {
      await transport.sendMail({
        from: 'Palisade <alerts@palisade.test>',
        to: 'admin@example.test',
        bcc: 'audit@example.test',
        subject: 'Server “Island” is down',
        text: 'The Island has not answered for 5 minutes.',
        html: '<p>The Island has not answered for 5 minutes.</p>',
        headers: {
          'List-Unsubscribe':
            '<https://palisade.test/unsubscribe/abc>, <mailto:unsubscribe@palisade.test?subject=abc>',
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        },
      });
    } finally {
      transport.close();
    }
    const mail = await smtp.waitFor((m) => m.subject === 'Server “Island” is down', 'the outage mail');
    expect(mail.from).toBe('alerts@palisade.test');
    expect(mail.to).toEqual(['admin@example.test', 'audit@example.test']);
    expect(mail.text.trim()).toBe('The Island has not answered for 5 minutes.');
    expect(mail.html).toContain('<p>The Island');
    expect(mail.headers['list-unsubscribe']).toBe(
      '<https://palisade.test/unsubscribe/abc>, <mailto:unsubscribe@palisade.test?subject=abc>',
    );
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(mail.headers.bcc).toBeUndefined(); // Bcc travels in the envelope only
    expect(mail.user).toBeNull();
  });

  it('accepts a client that logs in, and records who', async () => {
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: smtp.port,
      secure: false,
      auth: { user: 'relay-user', pass: 'secret' },
    });
    try {
      await transport.sendMail({
        from: 'alerts@palisade.test',
        to: 'a@example.test',
        subject: 'with auth',
        text: 'x',
      });
    } finally {
      transport.close();
    }
    expect((await smtp.waitFor((m) => m.subject === 'with auth')).user).toBe('relay-user');
  });
});
