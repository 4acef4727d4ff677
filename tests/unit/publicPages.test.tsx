import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { User } from '../../src/domain/api.ts';
import { AuthProvider } from '../../src/web/auth/react.tsx';
import type { Auth, AuthState } from '../../src/web/auth/session.ts';
import { Affiliate } from '../../src/web/views/public/Affiliate.tsx';
import { Landing } from '../../src/web/views/public/Landing.tsx';
import { OAuthCallback } from '../../src/web/views/public/OAuthCallback.tsx';
import { WELCOME_MESSAGES, Welcome } from '../../src/web/views/public/Welcome.tsx';
import { PublicDeps } from './publicDeps-fixture.tsx';

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

function renderAt(path: string, auth: Auth) {
  return render(
    <AuthProvider auth={auth}>
      <PublicDeps>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/" element={<Landing />} />
            <Route path="/features" element={<Landing />} />
            <Route path="/welcome" element={<Welcome />} />
            <Route path="/oauth" element={<OAuthCallback />} />
            <Route path="/a/:affiliateId" element={<Affiliate />} />
            <Route path="*" element={<Where />} />
          </Routes>
        </MemoryRouter>
      </PublicDeps>
    </AuthProvider>,
  );
}

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
    expect(screen.getByRole('link', { name: 'Pricing' }).getAttribute('href')).toBe('/features#pricing');
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

  it('shows why sign-in could not start', async () => {
    const { auth } = fakeAuth();
    auth.signIn.mockRejectedValueOnce(new Error('Sign-in needs a secure page: open the console over https.'));
    renderAt('/', auth);
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/secure page/);
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
