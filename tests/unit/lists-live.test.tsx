// Lists through the one paged-list hook and the one live-refetch hook: the page asked for with
// the view's parameters, pages up to a list's limit, an event that refetches only what is newer
// than the newest row held and merges it (chat) or the list again (bans, sessions), a resubscribe
// that does the same because Pusher never replays, and channels that stay subscribed while
// others come and go.

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, renderHook, screen, waitFor, within } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRegistry } from '../../commands/index.ts';
import { ACTIVITY_EVENT, type ActivityEntry, SINCE_MESSAGE } from '../../src/domain/activity.ts';
import {
  type Bucket,
  type BucketValue,
  type Character,
  channelFor,
  type Dino,
  type LogMessage,
  RealtimeEvent,
} from '../../src/domain/api.ts';
import { BANS_UPDATED } from '../../src/domain/bans.ts';
import type { Ban, PlayerDetail, PlayerSession } from '../../src/domain/players.ts';
import type { Http, Query } from '../../src/web/api/http.ts';
import { createSentinelApi } from '../../src/web/api/sentinel.ts';
import { type AppDeps, AppDepsContext } from '../../src/web/app/deps.tsx';
import { CommandRuntimeContext } from '../../src/web/app/runtime.ts';
import { EntityIndex } from '../../src/web/store/entityIndex.ts';
import { useChannels } from '../../src/web/store/liveRefetch.ts';
import { compareCursor, cursorOf } from '../../src/web/store/logOrder.ts';
import { PAGE_SIZE } from '../../src/web/store/pagedList.ts';
import type { Realtime } from '../../src/web/store/realtime.ts';
import { ActivityList } from '../../src/web/views/activity/ActivityList.tsx';
import { BansTab } from '../../src/web/views/bans/BansTab.tsx';
import { BucketData } from '../../src/web/views/buckets/BucketData.tsx';
import { ChatView } from '../../src/web/views/chat/ChatView.tsx';
import { LogView } from '../../src/web/views/logs/LogView.tsx';
import { PlayerList } from '../../src/web/views/players/PlayerList.tsx';
import { SessionsTab } from '../../src/web/views/players/SessionsTab.tsx';
import { DinoList, SurvivorList } from '../../src/web/views/world/WorldList.tsx';
import { fakeCommandRuntime } from './commandRuntime-fixture.ts';
import { fakeRealtime } from './realtime-fixture.ts';

const SERVICE = '11111111-1111-4111-8111-111111111111';
const CHANNEL = channelFor('services', SERVICE);
const registry = createRegistry();

beforeEach(() => {
  localStorage.clear();
  // Enough height for the lists to render their rows.
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return this.classList.contains('vl-grid') ? 600 : 0;
  });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

type Route = (query: Query) => unknown[];

/** GET of class paths answered from `routes`, paged as the API pages. */
function fakeApi(routes: Record<string, Route>) {
  const http = vi.fn(async (_method: string, path: string, opts?: { query?: Query }) => {
    const q = opts?.query ?? {};
    const all = routes[path]?.(q);
    if (!all) throw new Error(`unexpected ${path}`);
    const size = Number(q.pageSize ?? PAGE_SIZE);
    const page = Number(q.page ?? 1);
    const results = all.slice((page - 1) * size, page * size);
    return { totalResults: all.length, pageSize: size, pages: Math.ceil(all.length / size), page, results };
  });
  const calls = (path: string) => http.mock.calls.filter((c) => c[1] === path).map((c) => c[2]?.query ?? {});
  return { http, calls };
}

function show(ui: ReactNode, http: unknown, realtime: Realtime | null) {
  const deps = {
    api: createSentinelApi(http as Http),
    registry,
    realtime,
    index: new EntityIndex(),
  } as unknown as AppDeps;
  const runtime = fakeCommandRuntime(registry, `/servers/${SERVICE}`);
  return render(
    <Provider store={createStore()}>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <AppDepsContext.Provider value={deps}>
          <CommandRuntimeContext.Provider value={runtime}>{ui}</CommandRuntimeContext.Provider>
        </AppDepsContext.Provider>
      </QueryClientProvider>
    </Provider>,
  );
}

const uuid = (n: number) => `00000000-0000-7000-8000-${n.toString(16).padStart(12, '0')}`;
/** Chat line n; two lines share each second, so the cursor's tie on time is settled by id. */
const chat = (n: number): LogMessage => ({
  messageId: uuid(n),
  serviceId: SERVICE,
  serviceDisplayName: 'Island',
  serviceMiniDisplayName: 'Island',
  eventName: 'chat',
  type: 'Gameplay',
  time: 1_700_000_000 + Math.floor(n / 2),
  level: 'Informational',
  analyzerStatus: 'Skipped',
  metadata: { senderName: 'Ann' },
  message: `chat ${n}`,
});

/** /sentinel/logMessages over `stored`: the chat filter, the order and the exact `since` cursor. */
const logRoute =
  (stored: () => LogMessage[]): Route =>
  (q) => {
    const since = q.since === undefined ? null : { time: Number(q.since), id: String(q.sinceMessageId) };
    const sign = q.sortDirection === 'ascending' ? 1 : -1;
    return stored()
      .filter((m) => (q.eventName ? m.eventName === q.eventName : true))
      .filter((m) => !since || compareCursor(cursorOf(m), since) > 0)
      .sort((a, b) => sign * compareCursor(cursorOf(a), cursorOf(b)));
  };

/** The first page of what came after `m`, oldest first (docs/api.md: exact cursors). */
const linesAfter = (m: LogMessage) => ({
  sortedColumn: 'time',
  sortDirection: 'ascending',
  page: expect.anything(),
  since: String(m.time),
  sinceMessageId: m.messageId,
});

const rowsShown = () => screen.getAllByRole('row').length - 1;

describe('chat, a list with a cursor', () => {
  it('fetches the newest page, then on an event only what is newer than the newest line held, merged', async () => {
    let stored = [
      chat(1),
      chat(2),
      { ...chat(3), eventName: 'playerJoined' as const, message: 'Bob joined' },
    ];
    const api = fakeApi({ '/sentinel/logMessages': logRoute(() => stored) });
    const rt = fakeRealtime();
    show(<ChatView serviceId={SERVICE} label="Island" />, api.http, rt.realtime);

    expect(await screen.findByText('chat 2')).toBeTruthy();
    expect(api.calls('/sentinel/logMessages')[0]).toEqual({
      serviceId: SERVICE,
      groupId: undefined,
      eventName: 'chat',
      sortDirection: 'descending',
      page: 1,
      pageSize: PAGE_SIZE,
    });
    expect(screen.queryByText('Bob joined')).toBeNull();

    // Two lines are stored; the event names one, the list asks for both from its newest line.
    stored = [...stored, chat(4), chat(5)];
    const before = api.http.mock.calls.length;
    rt.emit(CHANNEL, RealtimeEvent.chatMessage, chat(4));
    expect(await screen.findByText('chat 5')).toBeTruthy();
    expect(api.http.mock.calls.length).toBe(before + 1);
    expect(api.calls('/sentinel/logMessages').at(-1)).toMatchObject({
      eventName: 'chat',
      ...linesAfter(chat(2)),
    });
    expect(screen.getAllByText(/^chat \d$/).map((e) => e.textContent)).toEqual([
      'chat 5',
      'chat 4',
      'chat 2',
      'chat 1',
    ]);
  });

  it('refetches since the newest line held on every resubscribe, once more for a burst, and holds each line once', async () => {
    let stored = [chat(1), chat(2)];
    const api = fakeApi({ '/sentinel/logMessages': logRoute(() => stored) });
    const rt = fakeRealtime();
    show(<ChatView serviceId={SERVICE} label="Island" />, api.http, rt.realtime);
    await screen.findByText('chat 2');
    await waitFor(() => expect(rt.channels()).toEqual([CHANNEL]));

    // Missed while the socket was away: Pusher will not replay it.
    stored = [...stored, chat(3)];
    const before = api.calls('/sentinel/logMessages').length;
    rt.resubscribe(CHANNEL);
    rt.resubscribe(CHANNEL);
    rt.resubscribe(CHANNEL);
    expect(await screen.findByText('chat 3')).toBeTruthy();
    await waitFor(() => expect(api.calls('/sentinel/logMessages').length).toBe(before + 2));
    const [first, second] = api.calls('/sentinel/logMessages').slice(before);
    expect(first).toMatchObject(linesAfter(chat(2)));
    // The burst's one more catch-up starts from what the first merged.
    expect(second).toMatchObject(linesAfter(chat(3)));
    expect(rowsShown()).toBe(3);
  });

  it('catches up after the first page when the subscription came first', async () => {
    const stored = [chat(1)];
    let release = () => {};
    const api = fakeApi({ '/sentinel/logMessages': logRoute(() => stored) });
    const http = vi.fn(async (method: string, path: string, opts?: { query?: Query }) => {
      // The first page is read now and answers late; a line is stored in between.
      const answer = api.http(method, path, opts);
      if (api.http.mock.calls.length === 1) await new Promise<void>((r) => (release = r));
      return answer;
    });
    const rt = fakeRealtime();
    show(<ChatView serviceId={SERVICE} label="Island" />, http, rt.realtime);
    await waitFor(() => expect(rt.channels()).toEqual([CHANNEL]));
    stored.push(chat(2));
    rt.resubscribe(CHANNEL);
    await act(async () => release());
    expect(await screen.findByText('chat 2')).toBeTruthy();
    expect(api.calls('/sentinel/logMessages')[1]).toMatchObject({ sinceMessageId: chat(1).messageId });
  });
});

describe('the log view, paged by its own feed', () => {
  it('is live through the same hook: a resubscribe fetches the lines after the newest one held', async () => {
    const line = (n: number): LogMessage => ({ ...chat(n), eventName: 'playerJoined', message: `line ${n}` });
    const stored = [line(1), line(2)];
    const api = fakeApi({ '/sentinel/logMessages': logRoute(() => stored) });
    const rt = fakeRealtime();
    show(<LogView filter={{ serviceId: SERVICE }} name="server-logs" />, api.http, rt.realtime);
    expect(await screen.findByText('line 2')).toBeTruthy();
    await waitFor(() => expect(rt.channels()).toEqual([CHANNEL]));

    stored.push(line(3));
    rt.resubscribe(CHANNEL);
    expect(await screen.findByText('line 3')).toBeTruthy();
    expect(api.calls('/sentinel/logMessages').at(-1)).toMatchObject(linesAfter(line(2)));
    expect(screen.getAllByText(/^line \d$/).map((e) => e.textContent)).toEqual([
      'line 3',
      'line 2',
      'line 1',
    ]);
  });
});

describe('lists without a cursor', () => {
  const ban = (n: number): Ban => ({
    serviceBanId: uuid(100 + n),
    serviceId: SERVICE,
    serviceDisplayName: 'Island',
    playerId: uuid(200 + n),
    playerName: `Player ${n}`,
    playerFlags: [],
    playerAccounts: [],
    issuerId: null,
    issuerUsername: null,
    issuerUsernameFull: null,
    expiration: null,
    comments: `ban ${n}`,
  });

  it('bans: bansUpdated fetches the list again, so a removed ban leaves and a new one shows', async () => {
    let stored = [ban(1), ban(2)];
    const api = fakeApi({ '/sentinel/serviceBans': () => stored });
    const rt = fakeRealtime();
    show(<BansTab serviceId={SERVICE} />, api.http, rt.realtime);
    expect(await screen.findByText('Player 1')).toBeTruthy();
    const firstPage = { serviceId: SERVICE, page: 1, pageSize: PAGE_SIZE };
    expect(api.calls('/sentinel/serviceBans')[0]).toEqual(firstPage);

    stored = [ban(2), ban(3)];
    rt.emit(CHANNEL, BANS_UPDATED, { serviceId: SERVICE });
    expect(await screen.findByText('Player 3')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Player 1')).toBeNull());
    expect(api.calls('/sentinel/serviceBans').at(-1)).toEqual(firstPage);
  });

  it('bucket values: asked by key, a global one shown as Global, and fetched again on valueUpdated', async () => {
    const bucket: Bucket = {
      bucketId: uuid(500),
      userId: uuid(501),
      username: 'Demo',
      usernameFull: 'Demo#00000000',
      name: 'Economy',
      permissions: 1,
    };
    const value = (n: number, playerName: string | null): BucketValue => ({
      bucketValueId: uuid(510 + n),
      bucketId: bucket.bucketId,
      bucketName: bucket.name,
      playerId: playerName ? uuid(520 + n) : null,
      playerName,
      key: `key ${n}`,
      value: `value ${n}`,
    });
    let stored = [value(1, null), value(2, 'Ann')];
    const api = fakeApi({ '/sentinel/bucketValues': () => stored });
    const rt = fakeRealtime();
    show(<BucketData bucket={bucket} />, api.http, rt.realtime);
    const grid = await screen.findByRole('grid', { name: 'Values' });
    expect(await within(grid).findByText('value 2')).toBeTruthy();
    expect(within(grid).getByText('Global')).toBeTruthy();
    expect(within(grid).getByText('Ann')).toBeTruthy();
    expect(api.calls('/sentinel/bucketValues')[0]).toEqual({
      bucketId: bucket.bucketId,
      sortedColumn: 'key',
      page: 1,
      pageSize: PAGE_SIZE,
    });
    // A script set a value: the bucket's channel says so, and the tab shows it.
    stored = [value(1, null), value(2, 'Ann'), value(3, null)];
    rt.emit(channelFor('buckets', bucket.bucketId), 'valueUpdated');
    expect(await within(grid).findByText('value 3')).toBeTruthy();
  });

  it('sessions: asks with the scope, sort and filter, and refetches on joins and leaves only', async () => {
    const session = (n: number): PlayerSession => ({
      playerSessionId: uuid(300 + n),
      playerId: uuid(200 + n),
      playerName: `Player ${n}`,
      playerFlags: [],
      serviceId: SERVICE,
      serviceDisplayName: 'Island',
      connectTime: 1_700_000_000 + n,
      disconnectTime: null,
      playTime: 0,
      isConnected: true,
    });
    let stored = [session(1)];
    const api = fakeApi({ '/sentinel/playerSessions': () => stored });
    const rt = fakeRealtime();
    show(<SessionsTab serviceId={SERVICE} />, api.http, rt.realtime);
    expect(await screen.findByText('Player 1')).toBeTruthy();
    expect(api.calls('/sentinel/playerSessions')[0]).toEqual({
      serviceId: SERVICE,
      sortedColumn: 'connectTime',
      sortDirection: 'descending',
      isConnected: 'true',
      page: 1,
      pageSize: PAGE_SIZE,
    });
    await waitFor(() => expect(rt.channels()).toEqual([CHANNEL]));

    const before = api.calls('/sentinel/playerSessions').length;
    rt.emit(CHANNEL, RealtimeEvent.logMessage, { ...chat(1) });
    stored = [session(2), session(1)];
    rt.emit(CHANNEL, RealtimeEvent.logMessage, { ...chat(2), eventName: 'playerJoined' });
    expect(await screen.findByText('Player 2')).toBeTruthy();
    expect(api.calls('/sentinel/playerSessions').length).toBe(before + 1);
  });

  it('players: a search sent to the server keeps the rows held until its answer comes', async () => {
    const player = (n: number, name: string) =>
      ({
        playerId: uuid(400 + n),
        playerName: name,
        otherNames: [],
        countryCode: 'ES',
        isUsingVpn: false,
        flags: [],
      }) as unknown as PlayerDetail;
    const all = [player(1, 'Argy'), player(2, 'ArgyHugger62'), player(3, 'Bea')];
    let answer: (() => void) | null = null;
    const api = fakeApi({
      '/sentinel/players': (q) => all.filter((p) => !q.name || p.playerName.startsWith(String(q.name))),
    });
    const http = vi.fn(async (...args: Parameters<typeof api.http>) => {
      if (args[2]?.query?.name) await new Promise<void>((resolve) => (answer = resolve));
      return api.http(...args);
    });
    show(<PlayerList />, http, null);
    const grid = await screen.findByRole('grid', { name: 'Players' });
    expect(await within(grid).findByText('ArgyHugger62')).toBeTruthy();
    const filter = screen.getByRole('searchbox', { name: 'Filter Players' });
    fireEvent.change(filter, { target: { value: 'ArgyHugger' } });
    // Asked once typing pauses; while the server answers, the rows held stay (not "Loading…").
    await waitFor(() => expect(answer).not.toBeNull());
    expect(within(grid).getByText('ArgyHugger62')).toBeTruthy();
    expect(within(grid).queryByText('Loading…')).toBeNull();
    act(() => answer?.());
    await waitFor(() => expect(http.mock.calls.at(-1)?.[2]?.query?.name).toBe('ArgyHugger'));
    await waitFor(() => expect(within(grid).queryByText('Bea')).toBeNull());
    expect(within(grid).getByText('ArgyHugger62')).toBeTruthy();
    expect(rowsShown()).toBe(1);
  });

  it('a survivor list of 100,000 is paged as the reader moves: End fetches the last page, not those between', async () => {
    const character = (n: number) =>
      ({
        characterId: uuid(400 + n),
        characterName: `Survivor ${String(n).padStart(3, '0')}`,
        serviceDisplayName: 'Island',
        specimenId: n,
        tribeName: '',
      }) as unknown as Character;
    const TOTAL = 100_000;
    const stored = Array.from({ length: TOTAL }, (_, i) => character(i));
    const api = fakeApi({ '/sentinel/characters': () => stored });
    show(<SurvivorList filter={{ serviceId: SERVICE }} name="serverCharacters" />, api.http, null);
    expect(await screen.findByText('Survivor 000')).toBeTruthy();
    const grid = screen.getByRole('grid', { name: 'Survivors' });
    // The whole list's length, from the first page; only the pages near the reader are asked for.
    expect(grid.getAttribute('aria-rowcount')).toBe(String(TOTAL + 1));
    await waitFor(() => expect(api.calls('/sentinel/characters').length).toBeGreaterThanOrEqual(2));
    expect(api.calls('/sentinel/characters').slice(0, 2)).toEqual([
      { serviceId: SERVICE, page: 1, pageSize: PAGE_SIZE },
      { serviceId: SERVICE, page: 2, pageSize: PAGE_SIZE },
    ]);
    grid.focus();
    fireEvent.keyDown(grid, { key: 'End' });
    expect(await screen.findByText(`Survivor ${TOTAL - 1}`)).toBeTruthy();
    const pages = api.calls('/sentinel/characters').map((q) => q.page);
    expect(pages).toContain(TOTAL / PAGE_SIZE);
    // The pages between were never fetched.
    expect(pages.filter((n) => Number(n) > 3 && Number(n) < TOTAL / PAGE_SIZE - 1)).toEqual([]);
  });
});

describe('a tribe’s survivors', () => {
  it('marks each as a member or a former member', async () => {
    const TRIBE = uuid(700);
    const stored = [
      { characterId: uuid(701), characterName: 'Still Here', tribeId: TRIBE, tribeName: 'Alpha' },
      { characterId: uuid(702), characterName: 'Moved On', tribeId: uuid(799), tribeName: 'Beta' },
    ].map((c) => ({ ...c, serviceDisplayName: 'Island', specimenId: 1 }) as unknown as Character);
    const api = fakeApi({ '/sentinel/characters': () => stored });
    show(<SurvivorList filter={{ tribeId: TRIBE }} name="tribe-survivors" />, api.http, null);
    const row = async (name: string) => (await screen.findByText(name)).closest('[role=row]') as HTMLElement;
    expect((await row('Still Here')).textContent).toContain('Member');
    expect((await row('Still Here')).textContent).not.toContain('Former member');
    expect((await row('Moved On')).textContent).toContain('Former member');
  });
});

describe('the dino list', () => {
  const dino = (n: number, status: string, age: number) =>
    ({
      dinoId: uuid(900 + n),
      dinoNumber: String(n),
      dinoDisplayName: `Dino ${n}`,
      dinoSpecies: 'Rex',
      dinoAge: age,
      dinoStatus: status,
      tribeName: 'Alpha',
      serviceDisplayName: 'Island',
    }) as unknown as Dino;

  it('asks for Deployed, Frozen and Uploaded by default, shows Frozen as Cryopodded, the life stage and the disclaimer', async () => {
    const stored = [dino(1, 'Frozen', 0.05), dino(2, 'Deployed', 0.7)];
    const api = fakeApi({ '/sentinel/dinos': () => stored });
    show(<DinoList filter={{ serviceId: SERVICE }} name="serverDinos" />, api.http, null);
    const grid = await screen.findByRole('grid', { name: 'Dinos' });
    await waitFor(() => expect(grid.textContent).toContain('Cryopodded'));
    expect(grid.textContent).toContain('Baby');
    expect(grid.textContent).toContain('Adolescent');
    expect(api.calls('/sentinel/dinos')[0]).toEqual({
      serviceId: SERVICE,
      dinoStatus: 'Deployed,Frozen,Uploaded',
      page: 1,
      pageSize: PAGE_SIZE,
    });
    expect(screen.getByText('Dino level and age may lag behind the game.')).toBeTruthy();
    // Ticking Dead asks for the dead too.
    fireEvent.click(screen.getByRole('checkbox', { name: 'Dead' }));
    await waitFor(() =>
      expect(api.calls('/sentinel/dinos').at(-1)).toMatchObject({
        dinoStatus: 'Deployed,Dead,Uploaded,Frozen',
      }),
    );
  });
});

describe('useChannels', () => {
  it('subscribes only channels that come, ends those that go, and calls the newest handlers', () => {
    const rt = fakeRealtime();
    const seen: string[] = [];
    const { rerender, unmount } = renderHook(
      ({ channels, tag }: { channels: string[]; tag: string }) =>
        useChannels(rt.realtime, channels, { ping: (d) => seen.push(`${tag}:${d}`) }),
      { initialProps: { channels: ['a', 'b'], tag: 'first' } },
    );
    expect(rt.subscribed).toEqual(['a', 'b']);

    rerender({ channels: ['b', 'c'], tag: 'second' });
    expect(rt.subscribed).toEqual(['a', 'b', 'c']);
    expect(rt.channels()).toEqual(['b', 'c']);
    rt.emit('b', 'ping', 1);
    expect(seen).toEqual(['second:1']);

    unmount();
    expect(rt.channels()).toEqual([]);
  });
});

describe('activity, a server’s trail', () => {
  const entry = (n: number): ActivityEntry => ({
    activityId: uuid(400 + n),
    time: 1_700_000_000 + n,
    userId: uuid(500),
    username: 'Ann',
    usernameFull: 'Ann#00000000',
    method: 'POST',
    route: '/sentinel/chat',
    kind: 'chat',
    action: 'send',
    target: SERVICE,
    targetName: 'Island PvE',
    summary: `message: line ${n}`,
    serviceIds: [SERVICE],
    groupIds: [],
    outcome: 'ok',
  });

  it('refetches on activityAdded, and keeps the last good filter while a since is refused', async () => {
    let stored = [entry(1)];
    const api = fakeApi({ '/sentinel/activity': () => stored });
    const rt = fakeRealtime();
    show(<ActivityList scope={{ serviceId: SERVICE }} label="Island" />, api.http, rt.realtime);
    expect(await screen.findByText('message: line 1')).toBeTruthy();
    expect(api.calls('/sentinel/activity')[0]).toEqual({ serviceId: SERVICE, page: 1, pageSize: PAGE_SIZE });

    stored = [entry(2), entry(1)];
    rt.emit(CHANNEL, ACTIVITY_EVENT, { activityId: entry(2).activityId });
    expect(await screen.findByText('message: line 2')).toBeTruthy();

    const since = screen.getByRole('textbox', { name: 'Since' });
    const asked = api.calls('/sentinel/activity').length;
    fireEvent.change(since, { target: { value: 'soon' } });
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', SINCE_MESSAGE);
    expect(since).toHaveProperty('value', 'soon');
    expect(since.getAttribute('aria-invalid')).toBe('true');
    expect(api.calls('/sentinel/activity')).toHaveLength(asked);

    const before = Math.floor(Date.now() / 1000);
    fireEvent.change(since, { target: { value: '1h' } });
    await waitFor(() => expect(api.calls('/sentinel/activity').at(-1)).toHaveProperty('since'));
    const asking = Number(api.calls('/sentinel/activity').at(-1)?.since);
    expect(asking).toBeGreaterThanOrEqual(before - 3600);
    expect(asking).toBeLessThanOrEqual(before - 3600 + 5);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
