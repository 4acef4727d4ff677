// Pure rules behind the server views and commands: settings parsing and the PATCH they make,
// destructive-command detection, the chat score filter and texts, subscription banners.

import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { LogMessage, Service, User } from '../../src/domain/api.ts';
import { commandVerb, isDangerousCommand } from '../../src/domain/gameCommands.ts';
import { parseSetting, settingOf, settingsPatch } from '../../src/domain/serverSettings.ts';
import { EntityIndex } from '../../src/web/store/entityIndex.ts';
import { patchService } from '../../src/web/store/services.ts';
import {
  chatSource,
  chatText,
  groupChatLines,
  matchesScores,
  parseScoreFilter,
} from '../../src/web/views/chat/chatMessage.ts';
import { subscriptionProblem } from '../../src/web/views/servers/SubscriptionBanner.tsx';

const setting = (key: string) => settingOf(key)!;

describe('server settings', () => {
  it('checks each value with its rule and keeps the message of SPEC §5', () => {
    expect(parseSetting(setting('structureSearchRange'), '99')).toEqual({
      ok: false,
      error: 'The structure search range must be a whole number from 500 to 20000.',
    });
    expect(parseSetting(setting('structureSearchRange'), '')).toEqual({ ok: true, value: 3000 });
    expect(parseSetting(setting('structureSearchRange'), '12.5')).toMatchObject({ ok: false });
    expect(parseSetting(setting('languages'), 'en, de,fr')).toEqual({ ok: true, value: ['en', 'de', 'fr'] });
    expect(parseSetting(setting('languages'), 'en de fr es it ja')).toEqual({
      ok: false,
      error: 'Choose at most 5 languages.',
    });
    expect(parseSetting(setting('languages'), 'xx')).toMatchObject({ ok: false });
    expect(parseSetting(setting('rconPort'), '70000')).toMatchObject({ ok: false });
    expect(parseSetting(setting('rconPort'), '')).toEqual({ ok: true, value: null });
    expect(parseSetting(setting('alternativeCryopodPath'), 'Game/Cryo')).toMatchObject({ ok: false });
    expect(parseSetting(setting('debugMode'), 'maybe')).toEqual({
      ok: false,
      error: 'Debug mode must be yes or no.',
    });
    expect(parseSetting(setting('color'), 'teal')).toEqual({ ok: true, value: 'Teal' });
  });

  it('sends API fields as themselves and merges the rest into gameSpecific', () => {
    const service = { gameSpecific: { debugMode: true, keep: 1 } } as unknown as Service;
    expect(
      settingsPatch(service, { nickname: 'Isle', structureSearchRange: 4000, debugMode: null, bogus: 1 }),
    ).toEqual({ nickname: 'Isle', gameSpecific: { keep: 1, structureSearchRange: 4000 } });
  });
});

describe('destructive commands', () => {
  it('are recognised by their verb, with or without the cheat prefix', () => {
    expect(commandVerb('  cheat DestroyWildDinos ')).toBe('destroywilddinos');
    expect(isDangerousCommand('admincheat banplayer 0002abc')).toBe(true);
    expect(isDangerousCommand('KickPlayer 0002abc')).toBe(true);
    expect(isDangerousCommand('listplayers')).toBe(false);
    expect(isDangerousCommand('saveworld')).toBe(false);
  });
});

const line = (metadata: Record<string, unknown>, message = 'Ann: hello'): LogMessage =>
  ({ messageId: 'm', metadata, message }) as unknown as LogMessage;

describe('chat lines', () => {
  const hateful = line({ analysis: { scores: { hateScore: 0.8, sexScore: 0.1 } } });
  const calm = line({ analysis: { scores: { hateScore: 0.1, sexScore: 0.6 } } });

  it('filters by scores like "hate > 0.5"', () => {
    const f = parseScoreFilter('hate > 0.5');
    expect(f).toEqual({ ok: true, conditions: [{ score: 'hateScore', op: '>', value: 0.5 }] });
    if (!f.ok) return;
    expect([hateful, calm].filter((m) => matchesScores(m, f.conditions))).toEqual([hateful]);
    const both = parseScoreFilter('self-harm>=0, sex<0.5');
    expect(both.ok && both.conditions.map((c) => c.score)).toEqual(['selfHarmScore', 'sexScore']);
    expect(parseScoreFilter('')).toEqual({ ok: true, conditions: [] });
  });

  it('explains a filter it cannot read', () => {
    expect(parseScoreFilter('hate')).toMatchObject({
      ok: false,
      error: expect.stringContaining('hate > 0.5'),
    });
    expect(parseScoreFilter('rage > 0.5')).toMatchObject({
      ok: false,
      error: expect.stringContaining('not a score'),
    });
    expect(parseScoreFilter('hate > 2')).toEqual({ ok: false, error: 'Scores go from 0 to 1.' });
  });

  it('names the sources of SPEC §2 and shows translated or original text', () => {
    expect(chatSource(line({ source: 'WebGroup' }))).toBe('Web');
    expect(chatSource(line({ source: 'Discord' }))).toBe('Discord');
    expect(chatSource(line({ source: 'Game' }))).toBe('Game');
    const m = line({ originalMessage: 'Hallo', translations: { en: 'Hello', de: 'Hallo' } });
    expect(chatText(m, true)).toBe('Hello');
    expect(chatText(m, false)).toBe('Hallo');
  });
});

describe('subscription banners', () => {
  const user = (subs: User['subscriptions']) => ({ userId: 'u', subscriptions: subs }) as User;
  const sub = (expiration: number, unitsAllowed: number) =>
    ({ productGameId: 'Sentinel', expiration, unitsAllowed }) as User['subscriptions'][number];
  const owned = (n: number) => Array.from({ length: n }, () => ({ userId: 'u' }) as Service);
  const now = 1_000_000_000_000;

  it('no subscription, expired, too many servers, or none', () => {
    expect(subscriptionProblem(user([]), [], now)).toBe('none');
    expect(subscriptionProblem(user([sub(now / 1000 - 1, 5)]), [], now)).toBe('expired');
    expect(subscriptionProblem(user([sub(now / 1000 + 60, 2)]), owned(3), now)).toBe('tooMany');
    expect(subscriptionProblem(user([sub(now / 1000 + 60, 3)]), owned(3), now)).toBeNull();
  });
});

describe('a group’s chat', () => {
  let n = 0;
  const said = (
    serviceDisplayName: string,
    time: number,
    text: string,
    source = 'WebGroup',
    sender = 'Ann',
  ) =>
    ({
      messageId: `m${++n}`,
      serviceId: `s-${serviceDisplayName}`,
      serviceDisplayName,
      time,
      metadata: { source, senderName: sender, originalMessage: text },
      message: `${sender}: ${text}`,
    }) as unknown as LogMessage;

  it('shows a line sent to the whole group once, naming every server it reached', () => {
    // Newest first, as the chat view lists them; each server stored its own copy.
    const lines = [
      said('Scorched', 1003, 'restart soon'),
      said('Island', 1002, 'restart soon'),
      said('Island', 1001, 'hi', 'Game', 'Bob'),
    ];
    const shown = groupChatLines(lines);
    expect(shown.map((m) => [m.messageId, m.serviceDisplayName, chatText(m, false)])).toEqual([
      [lines[1].messageId, 'Island, Scorched', 'restart soon'],
      [lines[2].messageId, 'Island', 'hi'],
    ]);
  });

  it('keeps lines that only read the same: sent twice, from the server alone, by another, or later', () => {
    const twice = [
      said('Island', 1000, 'restart soon'),
      said('Scorched', 1001, 'restart soon'),
      said('Island', 1002, 'restart soon'),
      said('Scorched', 1002, 'restart soon'),
    ];
    expect(groupChatLines(twice).map((m) => m.serviceDisplayName)).toEqual([
      'Island, Scorched',
      'Island, Scorched',
    ]);
    const alike = [
      said('Island', 1000, 'gg'),
      said('Scorched', 1000, 'gg', 'WebService'),
      said('Ragnarok', 1000, 'gg', 'WebGroup', 'Bob'),
      said('Aberration', 1031, 'gg'),
      said('Island', 1001, 'gg', 'Game'),
      said('Scorched', 1001, 'gg', 'Game'),
    ];
    expect(groupChatLines(alike)).toHaveLength(alike.length);
  });
});

describe('a server’s live update', () => {
  it('updates a server already fetched, and never stands in for one not fetched', () => {
    const qc = new QueryClient();
    const index = new EntityIndex();
    // serviceUpdated leaves out the caller's own fields (permissions, where RCON listens).
    const payload = { serviceId: 's1', displayName: 'Island', rconError: 'Refused.' } as Service;
    patchService(qc, index, payload);
    expect(qc.getQueryData(['service', 's1'])).toBeUndefined();
    qc.setQueryData(['service', 's1'], { serviceId: 's1', displayName: 'Isle', permissions: 33 });
    patchService(qc, index, payload);
    expect(qc.getQueryData(['service', 's1'])).toEqual({ ...payload, permissions: 33 });
  });
});
