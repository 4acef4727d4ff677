// PKCE values of SPEC §9 and SENTINEL-API §4: the verifier is base64url of 96 random bytes and
// the challenge base64url(SHA-256(verifier)), which the provider requires to be 43 characters.

const VERIFIER_BYTES = 96;
const STATE_BYTES = 32;

export function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function randomBase64url(length: number): string {
  return base64url(crypto.getRandomValues(new Uint8Array(length)));
}

export function createVerifier(): string {
  return randomBase64url(VERIFIER_BYTES);
}

export function randomState(): string {
  return randomBase64url(STATE_BYTES);
}

export async function challengeFor(verifier: string): Promise<string> {
  // Browsers only offer crypto.subtle on https or localhost; say so rather than fail obscurely.
  if (!crypto.subtle) throw new Error('Sign-in needs a secure page: open the console over https.');
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}
