// Routes of SPEC §2 at the top level: public pages, the sign-in return, and the guarded console.

import { QueryClientProvider } from '@tanstack/react-query';
import { Provider as JotaiProvider } from 'jotai';
import { lazy, Suspense, useEffect, useMemo } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router';
import { AuthProvider, useAuth } from '../auth/react.tsx';
import { createRealtime, type Realtime } from '../store/realtime.ts';
import { applyTheme } from './applyTheme.ts';
import { type AppDeps, AppDepsContext } from './deps.tsx';
import { canonicalPath } from './routes.ts';
import { Shell } from './Shell.tsx';

// The public pages are one chunk: a signed-in admin, the usual visitor, never loads them.
const publicPage = <K extends keyof typeof import('../views/public/index.ts')>(name: K) =>
  lazy(() => import('../views/public/index.ts').then((m) => ({ default: m[name] })));
const Affiliate = publicPage('Affiliate');
const ApiReference = publicPage('ApiReference');
const Landing = publicPage('Landing');
const OAuthCallback = publicPage('OAuthCallback');
const Privacy = publicPage('Privacy');
const Terms = publicPage('Terms');
const Welcome = publicPage('Welcome');

interface Props {
  base: Omit<AppDeps, 'realtime'>;
  live: { realtime: Realtime | null };
}

/** SPEC §4 route guard: signed out → remember where the user wanted to go, then the landing page. */
function Guarded() {
  const { auth, state } = useAuth();
  const location = useLocation();
  const wanted = canonicalPath(location.pathname);
  if (wanted !== location.pathname) return <Navigate to={wanted} replace />;
  if (state.status === 'signingIn') return <p className="boot">Signing in…</p>;
  if (state.status !== 'signedIn') {
    auth.setReturnTo(location.pathname + location.search);
    return <Navigate to="/" replace />;
  }
  return <Shell user={state.user} />;
}

function Home() {
  const { state } = useAuth();
  if (state.status === 'signedIn') return <Navigate to="/servers" replace />;
  return <Landing />;
}

export function App({ base, live }: Props) {
  return (
    <AuthProvider auth={base.auth}>
      <AppRoutes base={base} live={live} />
    </AuthProvider>
  );
}

function AppRoutes({ base, live }: Props) {
  const { state } = useAuth();
  const userId = state.status === 'signedIn' ? state.user.userId : null;
  const realtime = useMemo(
    () => (userId ? createRealtime(base.config.pusher, () => base.api) : null),
    [userId, base.config.pusher, base.api],
  );
  useEffect(() => {
    live.realtime = realtime;
    return () => realtime?.disconnect();
  }, [realtime, live]);
  useEffect(() => applyTheme(base.store), [base.store]);
  const deps = useMemo<AppDeps>(() => ({ ...base, realtime }), [base, realtime]);

  return (
    <JotaiProvider store={base.store}>
      <QueryClientProvider client={base.queryClient}>
        <AppDepsContext.Provider value={deps}>
          <BrowserRouter>
            <Suspense fallback={<p className="boot">Loading…</p>}>
              <Routes>
                <Route path="/" element={<Home />} />
                <Route path="/features" element={<Landing />} />
                <Route path="/welcome" element={<Welcome />} />
                <Route path="/api-reference" element={<ApiReference />} />
                <Route path="/privacy" element={<Privacy />} />
                <Route path="/terms" element={<Terms />} />
                <Route path="/oauth" element={<OAuthCallback />} />
                <Route path="/a/:affiliateId" element={<Affiliate />} />
                <Route path="*" element={<Guarded />} />
              </Routes>
            </Suspense>
          </BrowserRouter>
        </AppDepsContext.Provider>
      </QueryClientProvider>
    </JotaiProvider>
  );
}
