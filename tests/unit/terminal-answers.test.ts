// A game command's answer as the console prints it: in full, every line, under its server.

import { describe, expect, it, vi } from 'vitest';
import type { AppServices, CommandContext } from '../../commands/context.ts';
import { createRegistry } from '../../commands/index.ts';
import type { GameCommandResult } from '../../src/domain/gameCommands.ts';
import type { SentinelApi } from '../../src/web/api/sentinel.ts';
import { formatResult } from '../../src/web/terminal/format.ts';

const plain = (lines: readonly string[]) => lines.map((l) => l.replace(/\x1b\[[0-9;]*m/g, ''));

const EOS = '000232a1e12692f36e6ae5765b3c4d21';
const answers: GameCommandResult[] = [
  {
    serviceId: 's-island',
    serviceDisplayName: 'Island PvE',
    type: 'admin',
    ok: true,
    result: `0. Kai Tamer, ${EOS}\n1. Mira \x1b]52;c;evil\x07Stone, 0002ffee00112233445566778899aabb`,
  },
  {
    serviceId: 's-scorched',
    serviceDisplayName: 'Scorched PvP',
    type: 'admin',
    ok: false,
    code: 'serviceNotConnected',
    message: 'The server is not connected.',
  },
];

/** A console context whose API is `api`. */
const consoleContext = (api: unknown) =>
  ({
    route: '/servers',
    selection: { kind: null, ids: [] },
    user: null,
    surface: 'console',
    entities: { search: () => [], resolve: async () => [] },
    app: { api: api as SentinelApi, commandHistory: { remember: () => {} } } as unknown as AppServices,
    permissions: () => null,
  }) as CommandContext;

async function runOnCluster(command: string) {
  const ctx = consoleContext({ gameCommands: vi.fn(async () => ({ results: answers })) });
  const cmd = createRegistry().get('server.runCommand')!;
  const targets = [{ kind: 'group', id: 'g-cluster', label: 'Demo Cluster' }];
  return cmd.run({ targets, command }, ctx);
}

describe('a game command’s answer', () => {
  it('is summarised in one line and given in full per server', async () => {
    const result = await runOnCluster('listplayers');
    expect(result?.message).toBe('Sent to 1 of 2 servers.');
    expect(result?.table).toBeUndefined();
    expect(result?.sections).toEqual([
      { heading: 'Island PvE', text: answers[0].result },
      { heading: 'Scorched PvP: failed', text: 'The server is not connected.', failed: true },
    ]);
  });

  it('prints every line in full under its server, sanitised, at any width', async () => {
    const result = await runOnCluster('listplayers');
    for (const cols of [40, 120]) {
      expect(plain(formatResult(result, cols))).toEqual([
        'Sent to 1 of 2 servers.',
        'Island PvE',
        `0. Kai Tamer, ${EOS}`,
        '1. Mira ␛]52;c;evil␇Stone, 0002ffee00112233445566778899aabb',
        'Scorched PvP: failed',
        'The server is not connected.',
      ]);
    }
    const lines = formatResult(result, 80);
    expect(lines[4]).toBe('\x1b[31mScorched PvP: failed\x1b[0m');
  });

  it('keeps a line longer than any cell or line limit whole', () => {
    const long = `${'x'.repeat(5000)}!`;
    const lines = plain(formatResult({ sections: [{ heading: 'Island PvE', text: long }] }, 80));
    expect(lines).toEqual(['Island PvE', long]);
  });
});

describe('server setup in the console', () => {
  it('prints the access key whole', async () => {
    const accessKey = 'Zr3Xq0Jm7cYb2Wf5Kd8Ls1Pv4Hn6Tg9Rq2Ue5Yi8Oa';
    const ctx = consoleContext({ services: { get: async () => ({ accessKey }) } });
    const cmd = createRegistry().get('server.setup')!;
    const result = await cmd.run({ server: { kind: 'server', id: 's-island', label: 'Island PvE' } }, ctx);
    expect(plain(formatResult(result, 40))).toEqual([
      'Add these two lines to GameUserSettings.ini:',
      'GameUserSettings.ini',
      '[BeaconSentinel]',
      `AccessKey=${accessKey}`,
    ]);
  });
});

describe('raw log data in the console', () => {
  it('prints the record once, laid out, every property in full, a player’s EOS id included', async () => {
    const message = { messageId: 'm-1', message: 'Kai joined', metadata: { eosId: EOS } };
    const ctx = consoleContext({ logMessages: { get: async () => message } });
    const cmd = createRegistry().get('log.showRaw')!;
    const result = await cmd.run({ message: { kind: 'log', id: 'm-1', label: 'm-1' } }, ctx);
    expect(plain(formatResult(result, 40))).toEqual([
      'JSON',
      ...JSON.stringify(message, null, 2).split('\n'),
    ]);
    expect(plain(formatResult(result, 40)).join('\n')).toContain(EOS);
  });
});
