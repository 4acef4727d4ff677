// Header of the public pages: the product name and the way in (Sign In, or the dashboard when signed in).

import { Link } from 'react-router';
import { useAuth } from '../../auth/react.tsx';
import { SignInButton } from './SignInButton.tsx';

export function PublicHeader() {
  const { state } = useAuth();
  return (
    <header className="public-header">
      <Link to="/" className="public-brand">
        Palisade
      </Link>
      <nav aria-label="Site" className="public-nav">
        <Link to="/features#features">Features</Link>
        <Link to="/features#pricing">Pricing</Link>
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
