// Ban rules shared by console and server: expiry parsing and the bans.txt format.

import { describe, expect, it } from 'vitest';
import { BanMsg, formatBanList, parseBanList, parseExpiry } from '../../src/domain/bans.ts';
import { PIE_CHARACTER_ID } from '../../src/domain/constants.ts';
import { Msg } from '../../src/domain/messages.ts';

const NOW = 1_800_000_000;
const A = '0002aaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const B = '0002BBBBBBBBBBBBBBBBBBBBBBBBBBBB';

describe('parseExpiry', () => {
  it('reads durations from now, dates, and blank or perm as permanent', () => {
    expect(parseExpiry('7d', NOW)).toBe(NOW + 7 * 86400);
    expect(parseExpiry('', NOW)).toBeNull();
    expect(parseExpiry('perm', NOW)).toBeNull();
    expect(parseExpiry('2030-01-31', NOW)).toBe(Date.UTC(2030, 0, 31) / 1000);
    expect(parseExpiry('2030-01-31T12:00', NOW)).toBe(Date.UTC(2030, 0, 31, 12) / 1000);
  });
  it('refuses nonsense and the past with their messages', () => {
    expect(() => parseExpiry('soon', NOW)).toThrow(BanMsg.expiryBad);
    expect(() => parseExpiry('2001-01-01', NOW)).toThrow(BanMsg.expiryPast);
  });
});

describe('parseBanList', () => {
  it('names each bad line and why, and keeps the good ones', () => {
    const text = [
      `${A},Ann,${NOW + 60}`,
      'bob',
      '',
      `${B}`,
      `${PIE_CHARACTER_ID}`,
      `${A}`,
      `${B.toLowerCase()},x,5`,
      // Survival Evolved's bans.txt names players by SteamID64.
      '76561198060363401,Steve',
      '7656119806036340,short',
    ].join('\n');
    const { bans, problems } = parseBanList(text, NOW);
    expect(bans).toEqual([
      { line: 1, gameId: A, name: 'Ann', expiration: NOW + 60 },
      { line: 4, gameId: B.toLowerCase(), name: null, expiration: null },
      { line: 8, gameId: '76561198060363401', name: 'Steve', expiration: null },
    ]);
    expect(problems).toEqual([
      { line: 2, text: 'bob', reason: Msg.banPlayerFormat },
      { line: 5, text: PIE_CHARACTER_ID, reason: Msg.banPieCharacter },
      { line: 6, text: A, reason: BanMsg.listRepeated },
      { line: 7, text: `${B.toLowerCase()},x,5`, reason: BanMsg.listExpired },
      { line: 9, text: '7656119806036340,short', reason: Msg.banPlayerFormat },
    ]);
  });
  it('round-trips the export format', () => {
    const out = formatBanList([
      { eosId: A, expiration: null },
      { eosId: B.toLowerCase(), expiration: NOW + 5 },
    ]);
    expect(out).toBe(`${A},0\n${B.toLowerCase()},${NOW + 5}`);
    expect(parseBanList(out, NOW).bans.map((b) => b.expiration)).toEqual([null, NOW + 5]);
  });
});
