// Header of the public pages: the product name, the landing's sections, the API reference, and the
// way in (Sign In, or Go To Dashboard when signed in).

import { Link, useLocation } from 'react-router';
import { useAuth } from '../../auth/react.tsx';
import { SignInButton } from './SignInButton.tsx';

const LANDING_PATHS = ['/', '/features'];

/** A section of the landing page: in-page where the landing is shown, else on /features. */
export function useLandingSection(id: string): string {
  const { pathname } = useLocation();
  return `${LANDING_PATHS.includes(pathname) ? pathname : '/features'}#${id}`;
}

export function PublicHeader() {
  const { state } = useAuth();
  return (
    <header className="public-header">
      <Link to="/" className="public-brand">
        Palisade
      </Link>
      <nav aria-label="Site" className="public-nav">
        <Link to={useLandingSection('features')}>Features</Link>
        <Link to={useLandingSection('pricing')}>Pricing</Link>
        <Link to="/api-reference">API Reference</Link>
        {state.status === 'signedIn' ? (
          <Link to="/servers" className="public-button">
            Go To Dashboard
          </Link>
        ) : (
          <SignInButton />
        )}
      </nav>
    </header>
  );
}
