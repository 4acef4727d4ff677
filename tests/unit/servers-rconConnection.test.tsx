// Changing where an RCON server connects and its password: `server.editSettings` sends only the
// fields given and never says the password back, refuses a non-editor before anything is sent,
// and puts the API's refusal of a field beside it; the settings' RCON form is write-only (blank,
// saying only whether a password is stored), runs that command, and is not offered to non-editors.

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EntityRef } from '../../commands/args.ts';
import type { AppServices, CommandContext } from '../../commands/context.ts';
import { createRegistry } from '../../commands/index.ts';
import { type Command, CommandError, execute, parseArgs } from '../../commands/registry.ts';
import type { Service } from '../../src/domain/api.ts';
import { Msg } from '../../src/domain/messages.ts';
import { ALL_PERMISSIONS, Perm } from '../../src/domain/permissions.ts';
import { ApiError, type Http } from '../../src/web/api/http.ts';
import { createSentinelApi } from '../../src/web/api/sentinel.ts';
import { type AppDeps, AppDepsContext } from '../../src/web/app/deps.tsx';
import { CommandRuntimeContext } from '../../src/web/app/runtime.ts';
import { EntityIndex } from '../../src/web/store/entityIndex.ts';
import { parseLine } from '../../src/web/terminal/parse.ts';
import { RconConnection } from '../../src/web/views/servers/RconConnection.tsx';
import { fakeCommandRuntime } from './commandRuntime-fixture.ts';

afterEach(cleanup);

const registry = createRegistry();
const island: EntityRef = { kind: 'server', id: 's-island', label: 'Island PvE' };

const service = (over: Partial<Service> = {}): Service =>
  ({
    serviceId: 's-island',
    displayName: 'Island PvE',
    connectionKind: 'rcon',
    rconHost: '10.0.0.5',
    rconPort: 27020,
    rconPasswordSet: true,
    gameKind: 'evolved',
    rconGame: null,
    permissions: ALL_PERMISSIONS,
    gameSpecific: {},
    ...over,
  }) as Service;

describe('server.editSettings and the RCON connection', () => {
  function context(answer: (method: string, body?: Record<string, unknown>) => unknown, mine: number | null) {
    const http = vi.fn(async (method: string, _path: string, opts?: { body?: Record<string, unknown> }) =>
      answer(method, opts?.body),
    );
    const ctx: CommandContext = {
      route: '/servers/s-island/settings',
      selection: { kind: null, ids: [] },
      user: null,
      surface: 'console',
      entities: { search: () => [], resolve: async () => [island] },
      app: { api: createSentinelApi(http as unknown as Http) } as unknown as AppServices,
      permissions: () => mine,
    };
    return { ctx, http };
  }

  async function runLine(line: string, ctx: CommandContext) {
    const parsed = parseLine(line, registry);
    expect(parsed.errors).toEqual([]);
    const { values, errors } = await parseArgs(parsed.cmd!, parsed.raw, ctx.entities, ctx);
    expect(errors).toEqual({});
    return execute(parsed.cmd!, values, ctx);
  }

  it('sends only the RCON fields given, and never says the password back', async () => {
    const { ctx, http } = context(
      (method) => (method === 'GET' ? service() : service({ rconPort: 27021 })),
      ALL_PERMISSIONS,
    );
    const r = await runLine('settings "Island PvE" --rcon-port 27021 --rcon-password "new secret"', ctx);
    const patch = http.mock.calls.find((c) => c[0] === 'PATCH')!;
    expect(patch[1]).toBe('/sentinel/services/s-island');
    expect(patch[2]?.body).toEqual({ rconPort: 27021, rconPassword: 'new secret' });
    expect(r?.message).toBe(
      'RCON of Island PvE connects to 10.0.0.5:27021. The RCON password of Island PvE was replaced.',
    );
    expect(JSON.stringify(r)).not.toContain('new secret');
  });

  it('refuses someone who may not edit the server before anything is sent', async () => {
    const { ctx, http } = context(() => service(), Perm.Membership | Perm.ControlServices);
    await expect(runLine('settings "Island PvE" --rcon-password stolen', ctx)).rejects.toThrow(
      `${Msg.forbidden} (edit servers).`,
    );
    expect(http).not.toHaveBeenCalled();
  });

  it('puts the API’s refusal of a field beside the argument of that name', async () => {
    const { ctx } = context((method) => {
      if (method === 'GET') return service();
      throw new ApiError('rconHost must be a host name or an IP address.', 'validation', 400, {
        field: 'rconHost',
      });
    }, ALL_PERMISSIONS);
    const refused = await runLine('settings "Island PvE" --rcon-host bad/host', ctx).catch((e) => e);
    expect(refused).toBeInstanceOf(CommandError);
    expect(refused).toMatchObject({
      field: 'rconHost',
      message: 'rconHost must be a host name or an IP address.',
    });
  });
});

describe('the RCON connection form', () => {
  function harness(s: Service, run: (cmd: Command, values: Record<string, unknown>) => Promise<unknown>) {
    const runtime = fakeCommandRuntime(registry, '/servers/s-island/settings', run);
    const http = vi.fn(async () => service({ rconPort: 27021 }));
    const deps = {
      api: createSentinelApi(http as unknown as Http),
      registry,
      index: new EntityIndex(),
    } as unknown as AppDeps;
    const wrap = (ui: ReactNode) => (
      <QueryClientProvider client={new QueryClient()}>
        <AppDepsContext.Provider value={deps}>
          <CommandRuntimeContext.Provider value={runtime}>{ui}</CommandRuntimeContext.Provider>
        </AppDepsContext.Provider>
      </QueryClientProvider>
    );
    render(wrap(<RconConnection service={s} />));
    return { runtime, user: userEvent.setup() };
  }

  it('is write-only: blank, saying a password is stored; a new one is saved through the command', async () => {
    const { runtime, user } = harness(service(), async () => ({
      message: 'The RCON password of Island PvE was replaced.',
    }));
    const form = screen.getByRole('form', { name: 'RCON connection' });
    expect(screen.getByTestId('rcon-password-state').textContent).toBe(
      'A password is stored. It is never shown; type a new one to replace it.',
    );
    const password = form.querySelector<HTMLInputElement>('[data-arg="rconPassword"] input')!;
    expect(password.type).toBe('password');
    expect(password.value).toBe('');
    const port = form.querySelector<HTMLInputElement>('[data-arg="rconPort"] input')!;
    expect(port.value).toBe('27020');

    // The command's own rule, beside its field, before anything runs.
    await user.clear(port);
    await user.type(port, '70000');
    await user.type(password, 'hunter2{Enter}');
    expect(form.querySelector('[data-arg="rconPort"]')!.textContent).toContain(
      'RCON port must be at most 65535.',
    );
    expect(document.activeElement).toBe(port);
    expect(runtime.run).not.toHaveBeenCalled();

    await user.clear(port);
    await user.type(port, '27021{Enter}');
    expect(runtime.run).toHaveBeenCalledWith(
      registry.get('server.editSettings'),
      { server: island, rconPort: 27021, rconPassword: 'hunter2' },
      'form',
    );
    expect((await screen.findByRole('status')).textContent).toBe(
      'The RCON password of Island PvE was replaced.',
    );
    expect(password.value).toBe('');
    expect(port.value).toBe('27021');

    // Nothing changed: nothing is sent.
    await user.click(screen.getByRole('button', { name: 'Save RCON connection' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Nothing to save: type a new password, or change the host, the port or the game.',
    );
    expect(runtime.run).toHaveBeenCalledTimes(1);
  });

  it('says which game the server runs, and sends an admin’s choice of it', async () => {
    const { runtime, user } = harness(service(), async () => ({
      message: 'Island PvE runs Survival Ascended.',
    }));
    expect(screen.getByTestId('rcon-game').textContent).toBe('Game: ARK: Survival Evolved (detected)');
    const form = screen.getByRole('form', { name: 'RCON connection' });
    await user.click(form.querySelector<HTMLElement>('[data-arg="rconGame"] button')!);
    await user.click(await screen.findByRole('option', { name: 'Ascended' }));
    await user.click(screen.getByRole('button', { name: 'Save RCON connection' }));
    expect(runtime.run).toHaveBeenCalledWith(
      registry.get('server.editSettings'),
      { server: island, rconGame: 'ascended' },
      'form',
    );
  });

  it('keeps a refused password typed, with the reason beside the field', async () => {
    const { user } = harness(service({ rconPasswordSet: false }), async () => {
      throw new CommandError('rconPassword must be 1 to 128 characters on one line.', 'rconPassword');
    });
    expect(screen.getByTestId('rcon-password-state').textContent).toBe('No password is stored.');
    const form = screen.getByRole('form', { name: 'RCON connection' });
    const password = form.querySelector<HTMLInputElement>('[data-arg="rconPassword"] input')!;
    await user.type(password, 'x'.repeat(129));
    await user.click(screen.getByRole('button', { name: 'Save RCON connection' }));
    expect(form.querySelector('[data-arg="rconPassword"]')!.textContent).toContain(
      'rconPassword must be 1 to 128 characters on one line.',
    );
    expect(password.value).toBe('x'.repeat(129));
    expect(document.activeElement).toBe(password);
  });

  it('is not offered to someone who may not edit the server', () => {
    harness(service({ permissions: Perm.Membership | Perm.ControlServices, rconHost: null }), async () => {
      throw new Error('must not run');
    });
    expect(screen.queryByRole('form', { name: 'RCON connection' })).toBeNull();
    expect(document.querySelector('input[type="password"]')).toBeNull();
    const section = screen.getByRole('region', { name: 'RCON connection' });
    expect(section.textContent).toContain('A password is stored.');
    expect(section.textContent).toContain(
      'Only the owner and users who may edit servers change where RCON connects and its password.',
    );
  });
});
