// What the activity trail says of a write, in words a person reads: field names in words, a ban's
// expiration as a date rather than epoch seconds, never ids or secrets.

import { describe, expect, it } from 'vitest';
import { describeWrite } from '../../src/server/activity/describe.ts';

const SERVER = '11111111-1111-4111-8111-111111111111';
const PLAYER = '22222222-2222-4222-8222-222222222222';

describe('an activity entry of a write', () => {
  it('names the fields in words and a moment as a date', () => {
    const facts = describeWrite(
      'POST',
      '/sentinel/serviceBans',
      {},
      {
        serviceId: SERVER,
        playerId: PLAYER,
        comments: 'griefing',
        expiration: 1796434974,
      },
    );
    expect(facts).toMatchObject({
      kind: 'serviceBans',
      action: 'create',
      target: PLAYER,
      serviceIds: [SERVER],
      summary: 'Comments: griefing, Expiration: 2026-12-05 01:42 UTC',
    });
    expect(facts.summary).not.toMatch(/1796434974|Id\b/);
  });

  it('leaves out secrets, and says nested fields by their parent', () => {
    const facts = describeWrite(
      'PATCH',
      '/sentinel/services/:serviceId',
      { serviceId: SERVER },
      {
        rconPassword: 'hunter2',
        gameSpecific: { structureSearchRange: 4321 },
      },
    );
    expect(facts.summary).toBe('Game specific, structure search range: 4321');
  });
});
