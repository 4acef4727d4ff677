// The webhook example code signs as the API checks: the shell line's signature is the server's,
// and the call it makes carries the webhook's name and parameters.

import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { webhookSignature } from '../../src/server/routes/webhook.ts';
import { cronChoiceOf, cronExpressionOf, nextRuns } from '../../src/web/views/scripts/editor/cronChoices.ts';
import { webhookExample } from '../../src/web/views/scripts/editor/webhookExample.ts';

const hook = { webhookId: 'w', purpose: 'p', url: "https://example.test/v4/x'y", secret: "s3cr'et" };

describe('webhook example code', () => {
  it('computes the signature the server expects (bash and openssl, as an admin would run it)', () => {
    const example = webhookExample(hook, 'restart', [
      { name: 'minutes', type: 'Number', default: 5, required: true },
      { name: 'why', type: 'String', default: "it's late", required: false },
    ]);
    // Instead of calling, print what curl would send.
    const shown = execFileSync(
      'bash',
      ['-c', example.replace(/^curl .*$/m, 'printf "%s\\n%s" "$SIG" "$BODY"')],
      {
        encoding: 'utf8',
      },
    );
    const [sig, body] = shown.split('\n');
    expect(JSON.parse(body)).toEqual({ webhook: 'restart', parameters: { minutes: 5, why: "it's late" } });
    // The window may have turned between the two; either side of it is accepted by the server too.
    const now = Date.now();
    expect([
      webhookSignature(hook.secret, 'POST', body, now),
      webhookSignature(hook.secret, 'POST', body, now - 30_000),
    ]).toContain(sig);
    expect(example).toContain(`'https://example.test/v4/x'\\''y'`);
  });
});

describe('cron choices', () => {
  it('every plain choice reads back as itself', () => {
    for (const c of [
      { kind: 'minutes', every: 1 },
      { kind: 'minutes', every: 20 },
      { kind: 'hourly', minute: 5 },
      { kind: 'daily', hour: 23, minute: 59 },
      { kind: 'weekly', day: 0, hour: 6, minute: 30 },
    ] as const)
      expect(cronChoiceOf(cronExpressionOf(c))).toEqual(c);
    expect(cronChoiceOf('0 0 1 * *')).toEqual({ kind: 'advanced', expression: '0 0 1 * *' });
    expect(cronChoiceOf('61 * * * *').kind).toBe('advanced');
  });

  it('gives the next five runs in UTC, none for what the engine would refuse', () => {
    const from = new Date('2026-11-24T10:07:00Z');
    expect(nextRuns('0 12 * * 1', 5, from)?.map((d) => d.toISOString())).toEqual([
      '2026-11-30T12:00:00.000Z',
      '2026-12-07T12:00:00.000Z',
      '2026-12-14T12:00:00.000Z',
      '2026-12-21T12:00:00.000Z',
      '2026-12-28T12:00:00.000Z',
    ]);
    expect(nextRuns('@hourly', 2, from)?.map((d) => d.toISOString())).toEqual([
      '2026-11-24T11:00:00.000Z',
      '2026-11-24T12:00:00.000Z',
    ]);
    expect(nextRuns('* * * * * *')).toBeNull();
  });
});
