// Route rules of SPEC §2 that do not depend on React: aliases, redirects, what is public.

const REDIRECTS: [RegExp, string][] = [
  [/^\/services(?=\/|$)/, '/servers'],
  [/^\/survivors(?=\/|$)/, '/characters'],
];

/** The canonical form of an app path: legacy prefixes redirected, the default tab alias dropped. */
export function canonicalPath(path: string): string {
  let p = path || '/';
  for (const [re, to] of REDIRECTS) p = p.replace(re, to);
  p = p.replace(/^(\/servers\/[^/]+)\/logs\/?$/, '$1');
  p = p.replace(/^(\/groups\/[^/]+)\/(services|servers)\/?$/, '$1');
  p = p.replace(/^(\/players\/[^/]+)\/logs\/?$/, '$1');
  return p.length > 1 ? p.replace(/\/$/, '') : p;
}

export const PUBLIC_PATHS = [
  /^\/$/,
  /^\/welcome$/,
  /^\/features$/,
  /^\/oauth$/,
  /^\/a\/[^/]+$/,
  /^\/(api-reference|privacy|terms)$/,
];
export const isPublicPath = (path: string) => PUBLIC_PATHS.some((re) => re.test(path));

export const RETURN_KEY = 'palisade.returnTo';
