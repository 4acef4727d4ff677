// /sentinel/serviceScripts (SENTINEL-API §3.6): scripts attached to one server. The declaration is
// shared with /sentinel/groupScripts (model/scriptAttachment.ts); only the holder differs.

import type { ServerContext } from '../context.ts';
import type { ApiRouter } from '../http/router.ts';
import { registerClassPath } from '../model/classPath.ts';
import { scriptAttachment } from '../model/scriptAttachment.ts';

export function registerServiceScriptRoutes(router: ApiRouter, ctx: ServerContext): void {
  registerClassPath(router, ctx, scriptAttachment('service'));
}
