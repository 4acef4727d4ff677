// The scripts section's screens over a fake API: the Library with status badges and origins, the
// Workshop asked best rated first, and the preview, whose untrusted text stays text and whose
// toolbar offers Remove from Workshop to the author only.

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { createRegistry } from '../../commands/index.ts';
import { type CommunityScript, type Script, userChannel } from '../../src/domain/api.ts';
import type { Http } from '../../src/web/api/http.ts';
import { createSentinelApi } from '../../src/web/api/sentinel.ts';
import { type AppDeps, AppDepsContext } from '../../src/web/app/deps.tsx';
import { CommandRuntimeContext } from '../../src/web/app/runtime.ts';
import { EntityIndex } from '../../src/web/store/entityIndex.ts';
import type { Realtime } from '../../src/web/store/realtime.ts';
import { ScriptsPage } from '../../src/web/views/scripts/ScriptsPage.tsx';
import { WorkshopPreview } from '../../src/web/views/workshop/WorkshopPreview.tsx';
import { fakeCommandRuntime } from './commandRuntime-fixture.ts';
import { fakeRealtime } from './realtime-fixture.ts';

const registry = createRegistry();
const ME = 'u-me';

beforeEach(() => {
  localStorage.clear();
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return this.classList.contains('vl-grid') ? 600 : 0;
  });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const script = (patch: Partial<CommunityScript>): CommunityScript => ({
  scriptId: 'sc-1',
  userId: ME,
  name: 'Rules bot',
  preview: 'Answers !rules',
  description: '',
  dateCreated: 1_700_000_000,
  dateModified: 1_700_000_000,
  communityStatus: 'Private',
  permissions: 1,
  approvalStatus: 'Approved',
  latestRevisionId: 'r1',
  communityRating: null,
  communityAverage: null,
  communityVotes: 0,
  parameters: [],
  commonJavascript: '',
  events: [],
  username: 'Demo',
  usernameFull: 'Demo#1',
  liked: null,
  ...patch,
});

type Query = Record<string, unknown>;

/** Answers each path from `answers`: a value, or a function of the query asked on every call. */
function show(path: string, answers: Record<string, unknown>, realtime: Realtime | null = null) {
  const http = vi.fn(async (_m: string, p: string, opts?: { query?: Query }) => {
    if (!(p in answers)) throw new Error(`unexpected ${p}`);
    const answer = answers[p];
    return typeof answer === 'function' ? answer(opts?.query ?? {}) : answer;
  });
  const deps = {
    api: createSentinelApi(http as unknown as Http),
    registry,
    realtime,
    index: new EntityIndex(),
    auth: { state: { status: 'signedIn', user: { userId: ME } } },
  } as unknown as AppDeps;
  render(
    <Provider store={createStore()}>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <AppDepsContext.Provider value={deps}>
          <CommandRuntimeContext.Provider value={fakeCommandRuntime(registry, path)}>
            <MemoryRouter initialEntries={[path]}>
              <Routes>
                <Route path="/scripts" element={<ScriptsPage />} />
                <Route path="/scripts/workshop" element={<ScriptsPage />} />
                <Route path="/scripts/workshop/:scriptId" element={<WorkshopPreview />} />
              </Routes>
            </MemoryRouter>
          </CommandRuntimeContext.Provider>
        </AppDepsContext.Provider>
      </QueryClientProvider>
    </Provider>,
  );
  return http;
}

const page = (results: Script[]) => ({ results, totalResults: results.length, pages: 1, page: 1 });

it('lists the library with each status badge and origin', async () => {
  show('/scripts', {
    '/sentinel/scripts': page([
      script({ name: 'Alpha', approvalStatus: 'Needs Review' }),
      script({ scriptId: 'sc-2', name: 'Beta', userId: 'u-other', communityStatus: 'Approved' }),
      script({ scriptId: 'sc-3', name: 'Gamma', approvalStatus: 'Rejected', communityStatus: 'Rejected' }),
    ]),
  });
  const grid = await screen.findByRole('grid', { name: 'Library' });
  await within(grid).findByText('Gamma');
  const rows = within(grid).getAllByRole('row');
  expect(rows.slice(1).map((r) => r.textContent)).toEqual([
    expect.stringMatching(/^AlphaUnder review.*Under review.*My scripts.*Private/),
    expect.stringMatching(/^Beta.*Approved.*Workshop.*In the Workshop/),
    expect.stringMatching(/^GammaRejected.*Rejected.*My scripts.*Rejected/),
  ]);
  expect(screen.getByRole('link', { name: 'Library' }).className).toContain('tab-active');
});

it('lists again when a script the user can see changes elsewhere (scriptsUpdated on their channel)', async () => {
  let held = [script({ name: 'Alpha' })];
  const rt = fakeRealtime();
  show('/scripts', { '/sentinel/scripts': () => page(held) }, rt.realtime);
  const grid = await screen.findByRole('grid', { name: 'Library' });
  await within(grid).findByText('Alpha');
  // Another admin of a shared group saved a new script.
  held = [...held, script({ scriptId: 'sc-2', name: 'Beta' })];
  rt.emit(userChannel(ME), 'scriptsUpdated', 'sc-2');
  expect(await within(grid).findByText('Beta')).toBeTruthy();
});

it('searches the whole Workshop on the server and sorts what it finds here', async () => {
  const all = [
    script({ name: 'Rules bot', communityRating: 0.5 }),
    script({ scriptId: 'sc-2', name: 'Welcome bot', communityRating: 0.9 }),
    script({ scriptId: 'sc-3', name: 'Restarter', communityRating: 0.7 }),
  ];
  const http = show('/scripts/workshop', {
    '/sentinel/communityScripts': (q: Query) =>
      page(q.search ? all.filter((s) => s.name.includes(String(q.search))) : all),
  });
  const grid = await screen.findByRole('grid', { name: 'Workshop' });
  await within(grid).findByText('Restarter');
  fireEvent.change(screen.getByRole('searchbox', { name: 'Filter Workshop' }), {
    target: { value: ' bot ' },
  });
  // What the server found, best rated first as the list sorts them.
  await waitFor(() =>
    expect(
      within(grid)
        .getAllByRole('row')
        .slice(1)
        .map((r) => r.textContent),
    ).toEqual([expect.stringMatching(/^Welcome bot/), expect.stringMatching(/^Rules bot/)]),
  );
  const asked = http.mock.calls.map((c) => c[2]?.query?.search).filter(Boolean);
  expect(asked).toEqual(['bot']);
});

it('asks the Workshop best rated first and shows likes', async () => {
  const http = show('/scripts/workshop', {
    '/sentinel/communityScripts': page([
      script({ name: 'Liked', communityRating: 0.75, communityAverage: 1, communityVotes: 2, liked: true }),
      script({ scriptId: 'sc-2', name: 'Unrated' }),
    ]),
  });
  const grid = await screen.findByRole('grid', { name: 'Workshop' });
  await within(grid).findByText('Unrated');
  const rows = within(grid).getAllByRole('row');
  expect(rows[1].textContent).toMatch(/^Liked.*75%2Yes$/);
  expect(rows[2].textContent).toMatch(/^Unrated.*No votes0$/);
  expect(http.mock.calls[0][2]).toMatchObject({
    query: { sortedColumn: 'communityRating', sortDirection: 'descending' },
  });
  expect(screen.getByRole('link', { name: 'Workshop' }).className).toContain('tab-active');
});

it('previews a Workshop script as text; only its author may remove it', async () => {
  const shown = script({
    userId: 'u-author',
    communityStatus: 'Approved',
    approvalStatus: 'Probation',
    description: 'Read <b>this</b>',
    events: [
      {
        scriptEventId: 'e1',
        language: 'JavaScript',
        context: 'chat',
        code: '<script>alert(1)</script>',
        keyword: null,
        arguments: null,
      },
    ],
  });
  const answers = {
    '/sentinel/communityScripts/sc-1': shown,
    '/sentinel/scripts/sc-1/revisions': {
      revisions: [{ revisionId: 'r1-abc', dateCreated: 1_700_000_000, approvalStatus: 'Probation' }],
    },
  };
  show('/scripts/workshop/sc-1', answers);
  expect(await screen.findByRole('heading', { name: /Rules bot/ })).toBeTruthy();
  expect(screen.getByText('Read <b>this</b>')).toBeTruthy();
  expect(document.querySelector('b')).toBeNull();
  expect(screen.getByText('<script>alert(1)</script>').tagName).toBe('PRE');
  expect(screen.getAllByText('Probation').length).toBeGreaterThan(0);
  const versions = await screen.findByRole('grid', { name: 'Versions' });
  expect(await within(versions).findByText('r1-abc')).toBeTruthy();
  const toolbar = screen.getByRole('toolbar', { name: 'Workshop script' });
  expect(
    within(toolbar)
      .getAllByRole('button')
      .map((b) => b.textContent),
  ).toEqual(['Like', 'Make a Copy', 'Add to Server']);
  cleanup();
  show('/scripts/workshop/sc-1', { ...answers, '/sentinel/communityScripts/sc-1': { ...shown, userId: ME } });
  const own = await screen.findByRole('toolbar', { name: 'Workshop script' });
  expect(within(own).getByRole('button', { name: 'Remove from Workshop' })).toBeTruthy();
});
