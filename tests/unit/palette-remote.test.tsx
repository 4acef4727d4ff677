// The palette's server search (src/web/palette/remoteSearch.ts): what is worth a request, the
// debounce, cancelling a superseded request, keeping answers; and the palette listing what the
// server found without holding it.

import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore, Provider } from 'jotai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EntityRef } from '../../commands/args.ts';
import { ref } from '../../commands/args.ts';
import type { AppServices, CommandContext, Surface } from '../../commands/context.ts';
import { defineCommand, Registry } from '../../commands/registry.ts';
import type { SentinelApi } from '../../src/web/api/sentinel.ts';
import { type CommandRuntime, CommandRuntimeContext } from '../../src/web/app/runtime.ts';
import { Palette } from '../../src/web/palette/Palette.tsx';
import {
  REMOTE_DEBOUNCE_MS,
  RemoteEntitySearch,
  type RemoteSearch,
  remoteText,
} from '../../src/web/palette/remoteSearch.ts';
import { openPalette } from '../../src/web/palette/state.ts';
import { EntityIndex } from '../../src/web/store/entityIndex.ts';
import { DINO_SEARCH_PAGE, dinoRemote } from '../../src/web/views/world/worldRefs.ts';

const dino = (id: string, label: string): EntityRef => ({
  kind: 'dino',
  id,
  label,
  detail: 'Rex · The Island',
});
const UUID_TEXT = '0b7e3c52-6f1e-4d8a-9c1e-2a4b5c6d7e8f';

describe('remoteText', () => {
  it('asks for ids as typed and names from three characters', () => {
    expect(remoteText('  ka ')).toBeNull();
    expect(remoteText('Kar')).toBe('Kar');
    expect(remoteText(' Karo la ')).toBe('Karo la');
    expect(remoteText('42')).toBe('42');
    expect(remoteText(UUID_TEXT)).toBe(UUID_TEXT);
  });
});

describe('dinoRemote', () => {
  it('asks one bounded page by id, by in-game number or by name, passing the signal on', async () => {
    const list = vi.fn(async () => ({
      results: [
        {
          dinoId: 'd1',
          dinoDisplayName: 'Karola',
          dinoName: 'Karola',
          dinoNumber: '4294967303',
          dinoSpecies: 'Rex',
          tribeName: null,
          serviceDisplayName: 'The Island',
          serviceId: 's1',
          permissions: 7,
        },
      ],
    }));
    const api = { dinos: { list } } as unknown as SentinelApi;
    const signal = new AbortController().signal;
    const [ref] = await dinoRemote(api, 'Karo', signal);
    expect(ref).toEqual({
      kind: 'dino',
      id: 'd1',
      label: 'Karola',
      detail: 'Rex · 4294967303 · The Island',
      mask: 7,
      server: 's1',
    });
    await dinoRemote(api, UUID_TEXT);
    await dinoRemote(api, '4294967303');
    expect(list.mock.calls).toEqual([
      [{ dinoName: 'Karo', sortedColumn: 'dinoDisplayName', pageSize: DINO_SEARCH_PAGE }, signal],
      [{ 'dinoId[]': UUID_TEXT, pageSize: DINO_SEARCH_PAGE }, undefined],
      [{ dinoNumber: '4294967303', pageSize: DINO_SEARCH_PAGE }, undefined],
    ]);
  });
});

describe('RemoteEntitySearch', () => {
  afterEach(() => vi.useRealTimers());

  it('sends one request for the query that stands, cancelling the one before', async () => {
    vi.useFakeTimers();
    const signals: AbortSignal[] = [];
    const search = vi.fn<RemoteSearch>(async (text, signal) => {
      signals.push(signal);
      return [dino(text, text)];
    });
    const r = new RemoteEntitySearch(search);
    const got: string[] = [];
    const onResult = (q: string) => got.push(q);
    r.request('Kar', onResult);
    await vi.advanceTimersByTimeAsync(REMOTE_DEBOUNCE_MS / 2);
    r.request('Karo', onResult);
    await vi.advanceTimersByTimeAsync(REMOTE_DEBOUNCE_MS);
    expect(search.mock.calls.map((c) => c[0])).toEqual(['Karo']);
    expect(got).toEqual(['Karo']);
    expect(r.cached('Karo')?.map((x) => x.id)).toEqual(['Karo']);
    // Asked again: kept, no request.
    r.request('Karo', onResult);
    await vi.advanceTimersByTimeAsync(REMOTE_DEBOUNCE_MS * 2);
    expect(search).toHaveBeenCalledTimes(1);
    expect(signals[0].aborted).toBe(false);
  });

  it('drops the answer of a request a newer query superseded, and aborts it', async () => {
    vi.useFakeTimers();
    let release: (refs: EntityRef[]) => void = () => undefined;
    const signals: AbortSignal[] = [];
    const search = vi.fn<RemoteSearch>((_text, signal) => {
      signals.push(signal);
      return new Promise((r) => {
        release = r;
      });
    });
    const r = new RemoteEntitySearch(search);
    const onResult = vi.fn();
    r.request('Rora', onResult);
    await vi.advanceTimersByTimeAsync(REMOTE_DEBOUNCE_MS);
    r.request('Ror', onResult);
    expect(signals[0].aborted).toBe(true);
    release([dino('late', 'Rora')]);
    await vi.advanceTimersByTimeAsync(0);
    expect(onResult).not.toHaveBeenCalled();
    expect(r.cached('Rora')).toBeUndefined();
  });

  it('asks nothing for short names, and a failure finds nothing without breaking the next query', async () => {
    vi.useFakeTimers();
    const search = vi.fn<RemoteSearch>(async (text) => {
      if (text === 'boom') throw new Error('network');
      return [dino('1', text)];
    });
    const r = new RemoteEntitySearch(search);
    const onResult = vi.fn();
    r.request('ab', onResult);
    expect(r.cached('ab')).toEqual([]);
    r.request('boom', onResult);
    await vi.advanceTimersByTimeAsync(REMOTE_DEBOUNCE_MS);
    r.request('bob', onResult);
    await vi.advanceTimersByTimeAsync(REMOTE_DEBOUNCE_MS);
    expect(search.mock.calls.map((c) => c[0])).toEqual(['boom', 'bob']);
    expect(onResult).toHaveBeenCalledTimes(1);
  });

  it('keeps the answers of the last queries only', async () => {
    vi.useFakeTimers();
    const r = new RemoteEntitySearch(async (t) => [dino(t, t)], { kept: 2 });
    for (const q of ['aaa', 'bbb', 'ccc']) {
      r.request(q, () => undefined);
      await vi.advanceTimersByTimeAsync(REMOTE_DEBOUNCE_MS);
    }
    expect(r.cached('aaa')).toBeUndefined();
    expect(r.cached('ccc')).toHaveLength(1);
  });
});

describe('Palette with a server search', () => {
  afterEach(cleanup);

  function mount(remote: RemoteSearch) {
    const index = new EntityIndex();
    index.upsert([dino('held', 'Karola the held one')]);
    const registry = new Registry().register(
      defineCommand({
        id: 'nav.open',
        title: 'Open',
        group: 'Navigation',
        args: { target: ref('dino') },
        run: () => undefined,
      }),
    );
    const lookup = { search: () => [], resolve: async () => [] };
    const context = (surface: Surface): CommandContext => ({
      route: '/',
      selection: { kind: null, ids: [] },
      user: null,
      surface,
      entities: lookup,
      app: {} as AppServices,
      permissions: () => null,
    });
    const runtime: CommandRuntime = {
      registry,
      entities: lookup,
      index,
      remote,
      context,
      run: async () => undefined,
      recent: () => [],
    };
    const store = createStore();
    render(
      <Provider store={store}>
        <CommandRuntimeContext.Provider value={runtime}>
          <Palette />
        </CommandRuntimeContext.Provider>
      </Provider>,
    );
    act(() => openPalette(store));
    return screen.getByRole('combobox');
  }

  it('lists the dinos the server finds after those it holds, once each', async () => {
    const remote = vi.fn<RemoteSearch>(async () => [
      dino('far', 'Karola of the far server'),
      dino('held', 'Karola the held one'),
    ]);
    const input = mount(remote);
    await userEvent.setup().type(input, 'karola');
    expect(await screen.findByRole('option', { name: /Karola of the far server/ })).toBeTruthy();
    expect(screen.getAllByRole('option', { name: /Karola the held one/ })).toHaveLength(1);
    // The late answer goes below what was shown, so the highlighted row stays where it was.
    const texts = screen.getAllByRole('option').map((o) => o.textContent ?? '');
    expect(texts.findIndex((t) => t.includes('held one'))).toBeLessThan(
      texts.findIndex((t) => t.includes('far server')),
    );
    expect(screen.getByRole('option', { selected: true }).textContent).toContain('held one');
    // Typed at once: the request went out for the query that stood.
    expect(remote.mock.calls.map((c) => c[0])).toEqual(['karola']);
  });
});
