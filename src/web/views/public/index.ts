// The public pages, loaded together as one chunk.
export { Affiliate } from './Affiliate.tsx';
export { Landing } from './Landing.tsx';
export { OAuthCallback } from './OAuthCallback.tsx';
export { Welcome } from './Welcome.tsx';
