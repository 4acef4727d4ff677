// /oauth (SPEC §2, §4): redeems the provider's answer, then goes where the user was headed.

import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useAuth } from '../../auth/react.tsx';
import { SignInButton } from './SignInButton.tsx';
import './public.css';

export function OAuthCallback() {
  const { auth } = useAuth();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const [error, setError] = useState<string | null>(null);
  const url = `${window.location.origin}${pathname}${search}`;

  useEffect(() => {
    let mounted = true;
    auth.completeSignIn(url).then(
      (returnTo) => {
        // null: the browser is on its way to sign a policy; keep showing progress.
        if (mounted && returnTo) navigate(returnTo, { replace: true });
      },
      (e: unknown) => {
        if (mounted) setError(e instanceof Error ? e.message : String(e));
      },
    );
    return () => {
      mounted = false;
    };
  }, [auth, navigate, url]);

  return (
    <div className="public">
      <main className="public-card">
        {error === null ? (
          <p role="status">Signing in…</p>
        ) : (
          <>
            <h1>Sign-in failed</h1>
            <p role="alert">{error}</p>
            <SignInButton label="Try again" />
          </>
        )}
      </main>
    </div>
  );
}
