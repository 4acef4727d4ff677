// Footer of the public pages: every link of the landing page (SPEC §2). The blog, support and
// community chat are the server's configuration (/config.json), the policies pages of the site.

import { Link } from 'react-router';
import { useApp } from '../../app/deps.tsx';
import { useLandingSection } from './PublicHeader.tsx';

export function PublicFooter() {
  const { config } = useApp();
  return (
    <footer className="public-footer">
      <nav aria-label="Product" className="public-footer-group">
        <h2>Product</h2>
        <ul>
          <li>
            <Link to={useLandingSection('features')}>Features</Link>
          </li>
          <li>
            <Link to={useLandingSection('pricing')}>Pricing</Link>
          </li>
          <li>
            <Link to="/api-reference">API Reference</Link>
          </li>
        </ul>
      </nav>
      <nav aria-label="Community" className="public-footer-group">
        <h2>Community</h2>
        <ul>
          <li>
            <a href={config.devBlogUrl}>Dev Blog</a>
          </li>
          <li>
            <a href={config.communityChatUrl}>Community Chat</a>
          </li>
          <li>
            <a href={config.supportUrl}>Contact Support</a>
          </li>
        </ul>
      </nav>
      <nav aria-label="Legal" className="public-footer-group">
        <h2>Legal</h2>
        <ul>
          <li>
            <Link to="/privacy">Privacy Policy</Link>
          </li>
          <li>
            <Link to="/terms">Terms of Service</Link>
          </li>
        </ul>
      </nav>
    </footer>
  );
}
