import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { User } from '../../src/domain/api.ts';
import type { ApiReference as Reference } from '../../src/domain/apiReference.ts';
import { SITE_LINK_DEFAULTS } from '../../src/domain/siteLinks.ts';
import { ApiError } from '../../src/web/api/http.ts';
import { type AppDeps, AppDepsContext } from '../../src/web/app/deps.tsx';
import { AuthProvider } from '../../src/web/auth/react.tsx';
import type { Auth, AuthState } from '../../src/web/auth/session.ts';
import { Affiliate } from '../../src/web/views/public/Affiliate.tsx';
import { ApiReference } from '../../src/web/views/public/ApiReference.tsx';
import { FEATURES, Landing } from '../../src/web/views/public/Landing.tsx';
import { OAuthCallback } from '../../src/web/views/public/OAuthCallback.tsx';
import { Privacy } from '../../src/web/views/public/Privacy.tsx';
import { Terms } from '../../src/web/views/public/Terms.tsx';
import { WELCOME_MESSAGES, Welcome } from '../../src/web/views/public/Welcome.tsx';
import { fakeBillingApi } from './publicDeps-fixture.tsx';

const user = { userId: 'u1', usernameFull: 'Ann#1', subscriptions: [] } as unknown as User;

/** An Auth whose state the test sets; every action is a spy. */
function fakeAuth(initial: AuthState = { status: 'signedOut', reason: null }) {
  const listeners = new Set<() => void>();
  let state = initial;
  const auth = {
    get state() {
      return state;
    },
    subscribe: (fn: () => void) => {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    start: vi.fn(() => () => {}),
    signIn: vi.fn(async () => {}),
    setReturnTo: vi.fn(),
    completeSignIn: vi.fn(async (_url: string): Promise<string | null> => '/servers'),
    accessToken: vi.fn(async () => null),
    onUnauthorized: vi.fn(async () => false),
    signOut: vi.fn(async () => null),
    reloadUser: vi.fn(async () => {}),
    deviceId: () => '{hash}',
  } satisfies Auth;
  const setState = (next: AuthState) => {
    state = next;
    for (const fn of listeners) fn();
  };
  return { auth, setState };
}

function Where() {
  const { pathname, search } = useLocation();
  return <p data-testid="where">{pathname + search}</p>;
}

const LINKS = {
  ...SITE_LINK_DEFAULTS,
  devBlogUrl: 'https://blog.example.com/',
  supportUrl: 'mailto:help@example.com',
  communityChatUrl: 'https://chat.example.com/invite',
};

const REFERENCE: Reference = {
  routes: [
    {
      method: 'POST',
      path: '/v4/login',
      access: 'open',
      scopes: [],
      topic: 'Sign-in',
      description: 'Exchanges an authorization code or a refresh token for tokens.',
    },
    {
      method: 'GET',
      path: '/v4/sentinel/services',
      access: 'token',
      scopes: ['common', 'sentinel:read'],
      topic: 'Services',
      description: 'Lists services, paged, filtered and sorted by the query.',
    },
    {
      method: 'DELETE',
      path: '/v4/sentinel/services/:serviceId',
      access: 'token',
      scopes: ['common', 'sentinel:read', 'sentinel:write'],
      topic: 'Services',
      description: 'Deletes one service.',
    },
  ],
};

/** What the public pages use of the app: the configuration and the reference call. */
function fakeDeps(apiReference = vi.fn(async (): Promise<Reference> => REFERENCE)) {
  const deps = {
    config: { apiUrl: 'https://api.example.com/v4', ...LINKS },
    api: { apiReference, ...fakeBillingApi() },
  } as unknown as AppDeps;
  return { deps, apiReference };
}

function renderAt(path: string, auth: Auth, deps = fakeDeps().deps) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <AppDepsContext.Provider value={deps}>
        <AuthProvider auth={auth}>
          <MemoryRouter initialEntries={[path]}>
            <Routes>
              <Route path="/" element={<Landing />} />
              <Route path="/features" element={<Landing />} />
              <Route path="/welcome" element={<Welcome />} />
              <Route path="/oauth" element={<OAuthCallback />} />
              <Route path="/a/:affiliateId" element={<Affiliate />} />
              <Route path="/api-reference" element={<ApiReference />} />
              <Route path="/privacy" element={<Privacy />} />
              <Route path="/terms" element={<Terms />} />
              <Route path="*" element={<Where />} />
            </Routes>
          </MemoryRouter>
        </AuthProvider>
      </AppDepsContext.Provider>
    </QueryClientProvider>,
  );
}

const link = (name: string | RegExp) => screen.getAllByRole('link', { name })[0];

afterEach(() => {
  cleanup();
  localStorage.clear();
});

describe('landing', () => {
  it('shows the features, the configured pricing, the family, and a Sign In when signed out', async () => {
    const { auth } = fakeAuth();
    renderAt('/features', auth);
    expect(screen.getByRole('heading', { name: 'Features' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Dino locator' })).toBeTruthy();
    const pricing = screen.getByRole('region', { name: 'Pricing' });
    await screen.findAllByText(/\$4\.00 a month each/);
    expect(pricing.textContent).toMatch(/number of servers/);
    expect(pricing.textContent).toMatch(/3 day free trial/);
    expect(screen.getByRole('region', { name: 'Part of the family' })).toBeTruthy();
    expect(link('Pricing').getAttribute('href')).toBe('/features#pricing');
    expect(screen.queryByRole('link', { name: 'Go To Dashboard' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(auth.signIn).toHaveBeenCalledTimes(1);
  });

  it('offers the dashboard instead once signed in, following the session', () => {
    const { auth, setState } = fakeAuth();
    renderAt('/features', auth);
    act(() => setState({ status: 'signedIn', user }));
    expect(screen.getByRole('link', { name: 'Go To Dashboard' }).getAttribute('href')).toBe('/servers');
    expect(screen.queryByRole('button', { name: 'Sign In' })).toBeNull();
  });

  it('has a section for every landing feature, a marked spot for pricing and for the trial, and the family', () => {
    const { auth } = fakeAuth();
    renderAt('/', auth);
    const features = screen.getByRole('region', { name: 'Features' });
    expect(FEATURES).toHaveLength(9);
    for (const f of FEATURES)
      expect(within(features).getByRole('heading', { name: f.title, level: 3 })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Pricing' }).id).toBe('pricing');
    expect(screen.getByRole('region', { name: 'Start your free trial' }).id).toBe('trial');
    const family = screen.getByRole('region', { name: 'Part of the family' });
    expect(
      within(family).getByRole('link', { name: 'Open the config-planning tool' }).getAttribute('href'),
    ).toBe(LINKS.plannerUrl);
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
  });

  it('links every page of SPEC §2: in-page pricing, the reference, the policies, and the configured blog, support and chat', () => {
    const { auth } = fakeAuth();
    renderAt('/', auth);
    expect(link('Pricing').getAttribute('href')).toBe('/#pricing');
    expect(link('API Reference').getAttribute('href')).toBe('/api-reference');
    expect(link('Privacy Policy').getAttribute('href')).toBe('/privacy');
    expect(link('Terms of Service').getAttribute('href')).toBe('/terms');
    expect(link('Dev Blog').getAttribute('href')).toBe(LINKS.devBlogUrl);
    expect(link('Contact Support').getAttribute('href')).toBe(LINKS.supportUrl);
    expect(link('Community Chat').getAttribute('href')).toBe(LINKS.communityChatUrl);
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeTruthy();
  });

  it('leaves focus at the top on arrival, then puts it on the section an in-page link names', async () => {
    const { auth } = fakeAuth();
    renderAt('/', auth);
    expect(document.activeElement).toBe(document.body);
    await userEvent.click(screen.getByRole('link', { name: 'See pricing' }));
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Pricing' }));
    await userEvent.click(screen.getByRole('link', { name: 'Start your free trial' }));
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Start your free trial' }));
  });

  it('skips to the content with the first link of the page', async () => {
    const { auth } = fakeAuth();
    renderAt('/features', auth);
    await userEvent.tab();
    const skip = screen.getByRole('link', { name: 'Skip to content' });
    expect(document.activeElement).toBe(skip);
    await userEvent.keyboard('{Enter}');
    expect(document.activeElement).toBe(screen.getByRole('main'));
  });

  it('shows why sign-in could not start', async () => {
    const { auth } = fakeAuth();
    auth.signIn.mockRejectedValueOnce(new Error('Sign-in needs a secure page: open the console over https.'));
    renderAt('/', auth);
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/secure page/);
  });
});

describe('policies', () => {
  it('moves focus to the privacy policy’s heading, which says what is kept and for how long', async () => {
    const { auth } = fakeAuth();
    renderAt('/', auth);
    await userEvent.click(link('Privacy Policy'));
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Privacy Policy', level: 1 }));
    for (const name of ['Your account', "Your servers' logs", 'Chat', 'Player data', 'How long it is kept'])
      expect(screen.getByRole('heading', { name })).toBeTruthy();
    expect(screen.getByRole('main').textContent).toMatch(/retention period of your plan/);
    expect(
      within(screen.getByRole('main')).getByRole('link', { name: 'Contact Support' }).getAttribute('href'),
    ).toBe(LINKS.supportUrl);
  });

  it('states the trial, renewal, proration and refund rules in the terms', () => {
    const { auth } = fakeAuth();
    renderAt('/terms', auth);
    const text = screen.getByRole('main').textContent ?? '';
    expect(text).toMatch(/3 day free trial/);
    expect(text).toMatch(/refund within 14 days/);
    expect(text).toMatch(/renew automatically/);
    expect(text).toMatch(/prorated/);
    expect(text).toMatch(/MIT-0/);
  });
});

describe('API reference', () => {
  it('lists the server’s routes by topic, with who may call them, and filters them', async () => {
    const { auth } = fakeAuth();
    renderAt('/api-reference', auth);
    const services = await screen.findByRole('table', { name: 'Services' });
    const rows = within(services).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      'GET/v4/sentinel/servicesToken: common, sentinel:readLists services, paged, filtered and sorted by the query.',
      'DELETE/v4/sentinel/services/:serviceIdToken: common, sentinel:read, sentinel:writeDeletes one service.',
    ]);
    expect(within(screen.getByRole('table', { name: 'Sign-in' })).getByText('Anyone')).toBeTruthy();
    expect(screen.getByRole('main').textContent).toContain('https://api.example.com');
    await userEvent.type(screen.getByRole('searchbox', { name: 'Filter routes' }), 'delete');
    expect(await screen.findByText('1 of 3 routes')).toBeTruthy();
    expect(screen.queryByRole('table', { name: 'Sign-in' })).toBeNull();
  });

  it('says why the reference could not load, and tries again', async () => {
    const { auth } = fakeAuth();
    const { deps, apiReference } = fakeDeps();
    apiReference.mockRejectedValueOnce(new ApiError('Rate limit exceeded', 'rateLimited', 429));
    renderAt('/api-reference', auth, deps);
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /could not be loaded: Rate limit exceeded/,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table', { name: 'Services' })).toBeTruthy();
  });
});

describe('welcome', () => {
  it.each(Object.keys(WELCOME_MESSAGES) as (keyof typeof WELCOME_MESSAGES)[])(
    'shows the %s message',
    (reason) => {
      const { auth } = fakeAuth();
      renderAt(`/welcome?reason=${reason}`, auth);
      expect(screen.getByText(WELCOME_MESSAGES[reason].text)).toBeTruthy();
    },
  );

  it('falls back to the not-signed-in message for an unknown reason', () => {
    const { auth } = fakeAuth();
    renderAt('/welcome?reason=<b>x</b>', auth);
    expect(screen.getByText(WELCOME_MESSAGES.notSignedIn.text)).toBeTruthy();
  });

  it('signs the wrong account out before signing in again', async () => {
    const { auth } = fakeAuth({ status: 'signedIn', user });
    renderAt('/welcome?reason=wrongAccount', auth);
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(auth.signOut).toHaveBeenCalledTimes(1);
    expect(auth.signIn).toHaveBeenCalledTimes(1);
    expect(auth.signOut.mock.invocationCallOrder[0]).toBeLessThan(auth.signIn.mock.invocationCallOrder[0]);
  });
});

describe('sign-in return', () => {
  it('redeems the address it was opened at, then goes to the return address', async () => {
    const { auth } = fakeAuth();
    auth.completeSignIn.mockResolvedValueOnce('/players?q=1');
    renderAt('/oauth?code=c&state=s', auth);
    expect(screen.getByRole('status').textContent).toBe('Signing in…');
    expect((await screen.findByTestId('where')).textContent).toBe('/players?q=1');
    expect(auth.completeSignIn).toHaveBeenCalledWith(`${window.location.origin}/oauth?code=c&state=s`);
  });

  it('shows the error with a Try again button that starts a new sign-in', async () => {
    const { auth } = fakeAuth();
    auth.completeSignIn.mockRejectedValueOnce(new Error('Invalid code'));
    renderAt('/oauth?code=c&state=s', auth);
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid code');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(auth.signIn).toHaveBeenCalledTimes(1);
  });

  it('keeps showing progress while the browser leaves to sign a policy', async () => {
    const { auth } = fakeAuth();
    auth.completeSignIn.mockResolvedValueOnce(null);
    renderAt('/oauth?code=c&state=s', auth);
    await act(async () => {});
    expect(screen.getByRole('status').textContent).toBe('Signing in…');
    expect(screen.queryByTestId('where')).toBeNull();
  });
});

describe('affiliate link', () => {
  it('stores the affiliate id as a preference and goes to the landing page', async () => {
    const { auth } = fakeAuth();
    renderAt('/a/partner_42', auth);
    expect(await screen.findByRole('heading', { name: 'Features' })).toBeTruthy();
    expect(JSON.parse(localStorage.getItem('palisade.pref.affiliateId')!)).toBe('partner_42');
  });

  it('ignores an id that is not an affiliate code', async () => {
    const { auth } = fakeAuth();
    renderAt(`/a/${encodeURIComponent('<img src=x>')}`, auth);
    await screen.findByRole('heading', { name: 'Features' });
    expect(localStorage.getItem('palisade.pref.affiliateId')).toBeNull();
  });
});
