// The API reference the public site shows (SPEC §2 landing links): every route the server has
// registered, as GET /v4/apiReference answers it.

export const API_REFERENCE_PATH = '/apiReference';

/** Anyone; anyone, the caller learnt when a token comes along; or a bearer token with scopes. */
export type RouteAccess = 'open' | 'optional' | 'token';

export interface ApiRouteEntry {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** `/v4/…`, parameters as `:name`. */
  path: string;
  access: RouteAccess;
  /** Scopes a token needs, `common` first (token routes only). */
  scopes: string[];
  /** What the route is about (`Services`, `Sign-in`, …), the reference's headings. */
  topic: string;
  description: string;
}

export interface ApiReference {
  routes: ApiRouteEntry[];
}
