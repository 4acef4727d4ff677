// The public pages, loaded together as one chunk.
export { Affiliate } from './Affiliate.tsx';
export { ApiReference } from './ApiReference.tsx';
export { Landing } from './Landing.tsx';
export { OAuthCallback } from './OAuthCallback.tsx';
export { Privacy } from './Privacy.tsx';
export { Terms } from './Terms.tsx';
export { Welcome } from './Welcome.tsx';
