// GET /v4/apiReference: the public site's API reference, read from the router at the time of the
// request, so a route registered anywhere shows up (http/routeReference.ts).

import { API_REFERENCE_PATH } from '../../domain/apiReference.ts';
import { routeReference } from '../http/routeReference.ts';
import { type ApiRouter, json } from '../http/router.ts';

export function registerApiReferenceRoutes(router: ApiRouter): void {
  router.open('GET', API_REFERENCE_PATH, (c) => json(c, routeReference(router.routes())));
}
