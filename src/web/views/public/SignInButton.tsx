// The one Sign In action of the public pages. Starting sign-in can fail before the browser leaves
// (an insecure page has no crypto.subtle), so the reason is shown beside the button.

import { useState } from 'react';
import { useAuth } from '../../auth/react.tsx';

interface Props {
  label?: string;
  /** Signs the current account out first (the welcome page's wrong-account case). */
  switchAccount?: boolean;
  /** Where signing in returns to; the route guard's saved address when not given. */
  returnTo?: string;
}

export function SignInButton({ label = 'Sign In', switchAccount = false, returnTo }: Props) {
  const { auth, state } = useAuth();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function start() {
    setBusy(true);
    setError(null);
    try {
      if (switchAccount && state.status === 'signedIn') await auth.signOut();
      await auth.signIn(returnTo);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setBusy(false);
    }
  }

  return (
    <>
      <button type="button" className="public-button" onClick={start} disabled={busy}>
        {label}
      </button>
      {error && (
        <p className="public-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
