// A command context for command tests: the real typed API over `http` (what a test asserts is
// what would go over the wire), at a route, nothing selected, no permissions known; a test adds the
// services its commands use (dialogs, navigate, clipboard, the game's answers).

import type { AppServices, CommandContext } from '../../commands/context.ts';
import type { Http } from '../../src/web/api/http.ts';
import { createSentinelApi } from '../../src/web/api/sentinel.ts';

export interface FakeContext extends Partial<Omit<CommandContext, 'app' | 'permissions'>> {
  /** Services beside the API; a confirm that always agrees unless given. */
  app?: Record<string, unknown>;
  /** The caller's bits on whatever is in view (null: none known). */
  mine?: number | null;
}

export function fakeCommandContext(http: unknown, over: FakeContext = {}): CommandContext {
  const { app, mine = null, ...rest } = over;
  return {
    route: '/servers',
    selection: { kind: null, ids: [] },
    user: null,
    surface: 'console',
    entities: { search: () => [], resolve: async () => [] },
    ...rest,
    app: {
      api: createSentinelApi(http as Http),
      dialogs: { confirm: async () => true },
      ...app,
    } as unknown as AppServices,
    permissions: () => mine,
  };
}
