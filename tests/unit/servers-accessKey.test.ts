// server.setup and server.regenerateKey: the key is shown only when the server sends it, a new
// one is asked for (after a confirmation) with the route of docs/api.md "Access keys".

import { describe, expect, it, vi } from 'vitest';
import type { AppServices, CommandContext } from '../../commands/context.ts';
import { createRegistry } from '../../commands/index.ts';
import { execute } from '../../commands/registry.ts';
import type { Service } from '../../src/domain/api.ts';
import { Msg } from '../../src/domain/messages.ts';
import { Perm } from '../../src/domain/permissions.ts';
import type { Http } from '../../src/web/api/http.ts';
import { createSentinelApi } from '../../src/web/api/sentinel.ts';

const registry = createRegistry();
const server = { kind: 'server' as const, id: 's-1', label: 'Island PvE' };
const service = (accessKey: string | null) =>
  ({ serviceId: 's-1', displayName: 'Island PvE', accessKey }) as Service;

function context(answer: Service, { confirm = true, bits = Perm.EditServices as number } = {}) {
  const http = vi.fn(async (_method: string, _path: string, _opts?: unknown) => answer);
  const ctx: CommandContext = {
    route: '/servers/s-1/setup',
    selection: { kind: null, ids: [] },
    user: null,
    surface: 'console',
    entities: { search: () => [], resolve: async () => [] },
    app: {
      // The real typed API over a spy: what is asserted is what goes over the wire.
      api: createSentinelApi(http as unknown as Http),
      dialogs: { confirm: vi.fn(async () => confirm) },
    } as unknown as AppServices,
    permissions: () => bits,
  };
  return { ctx, http };
}

describe('access key commands', () => {
  it('server.setup shows the key, or says who may see it', async () => {
    const cmd = registry.get('server.setup')!;
    const shown = await execute(cmd, { server }, context(service('k'.repeat(43))).ctx);
    expect(shown?.sections).toEqual([
      { heading: 'GameUserSettings.ini', text: `[BeaconSentinel]\nAccessKey=${'k'.repeat(43)}` },
    ]);
    await expect(execute(cmd, { server }, context(service(null)).ctx)).rejects.toThrow(Msg.accessKeyHidden);
  });

  it('server.regenerateKey asks first, posts to the key route and shows the new lines', async () => {
    const cmd = registry.get('server.regenerateKey')!;
    const cancelled = context(service('new'), { confirm: false });
    expect(await execute(cmd, { server }, cancelled.ctx)).toEqual({ message: 'Cancelled.' });
    expect(cancelled.http).not.toHaveBeenCalled();

    const { ctx, http } = context(service('new'));
    const result = await execute(cmd, { server }, ctx);
    expect(http).toHaveBeenCalledWith('POST', '/sentinel/services/s-1/accessKey', expect.anything());
    expect(result?.message).toMatch(/^Island PvE has a new access key\./);
    expect(result?.sections?.[0].text.split('\n')).toContain('AccessKey=new');
  });

  it('server.regenerateKey needs edit servers', async () => {
    const { ctx, http } = context(service('new'), { bits: Perm.Membership | Perm.ControlServices });
    await expect(execute(registry.get('server.regenerateKey')!, { server }, ctx)).rejects.toThrow(
      /edit servers/,
    );
    expect(http).not.toHaveBeenCalled();
  });
});
