// The one CommandRuntime of the console: contexts built from the active pane, commands run with
// toasts for their outcome, recent commands remembered.

import type { EntityLookup } from '../../../commands/args.ts';
import type { AppServices, CommandContext, Surface } from '../../../commands/context.ts';
import { type Command, execute } from '../../../commands/registry.ts';
import type { Service } from '../../domain/api.ts';
import { ApiError } from '../api/http.ts';
import { openPalette } from '../palette/state.ts';
import { prefKeys, setPref } from '../store/prefs.ts';
import { getActiveList } from '../ui/activeList.ts';
import { type AppDeps, userOf } from './deps.tsx';
import { focusActivePane } from './focusPane.ts';
import * as L from './layout.ts';
import { canonicalPath } from './routes.ts';
import type { CommandRuntime } from './runtime.ts';
import { dialogAtom, layoutAtom, pushToast, selectionAtom, terminalAtom } from './state.ts';

const RECENT_KEY = 'palisade.recentCommands';

export function createAppServices(deps: AppDeps): AppServices {
  const { store } = deps;
  const layout = () => store.get(layoutAtom);
  const setLayout = (fn: (l: L.Layout) => L.Layout) => store.set(layoutAtom, fn(layout()));
  return {
    navigate: (to) => setLayout((l) => L.navigate(l, l.active, canonicalPath(to))),
    back: () => setLayout((l) => L.step(l, l.active, -1)),
    forward: () => setLayout((l) => L.step(l, l.active, 1)),
    api: deps.api,
    toast: (kind, summary, reason) => pushToast(store, kind, summary, reason),
    palette: { open: (query) => openPalette(store, query) },
    terminal: {
      toggle: () =>
        store.set(terminalAtom, (t) => ({ open: !t.open, focusSignal: t.focusSignal + (t.open ? 0 : 1) })),
      focus: () => store.set(terminalAtom, (t) => ({ open: true, focusSignal: t.focusSignal + 1 })),
    },
    panes: {
      split: (direction) => {
        setLayout((l) => L.split(l, direction));
        focusActivePane(store);
      },
      close: () => setLayout(L.close),
      focus: (delta) => {
        setLayout((l) => L.focusStep(l, delta));
        focusActivePane(store);
      },
      resize: (delta) => setLayout((l) => L.resize(l, delta)),
    },
    list: getActiveList,
    clipboard: {
      copy: async (text) => {
        await navigator.clipboard.writeText(text);
      },
    },
    dialogs: {
      info: (title, rows) => store.set(dialogAtom, { type: 'info', title, rows }),
      confirm: (message) =>
        new Promise((resolve) => store.set(dialogAtom, { type: 'confirm', message, resolve })),
      shortcuts: () => store.set(dialogAtom, { type: 'shortcuts' }),
      form: (commandId, known = {}) => store.set(dialogAtom, { type: 'form', commandId, known }),
    },
    prefs: { set: setPref, keys: prefKeys },
    auth: {
      signIn: (returnTo) => deps.auth.signIn(returnTo),
      signOut: async () => {
        const notice = await deps.auth.signOut();
        if (notice) pushToast(store, 'info', 'Signed out', notice);
      },
      deviceId: () => deps.auth.deviceId(),
    },
    openExternal: (url) => {
      window.open(url, '_blank', 'noopener,noreferrer');
    },
    links: { controlPanel: deps.config.controlPanelUrl, billingPortal: deps.config.billingPortalUrl },
  };
}

/** The caller's bits on the server in view, from the cached server list. */
function permissionsInView(deps: AppDeps, route: string): number | null {
  const id = /^\/servers\/([^/]+)/.exec(route)?.[1];
  if (!id) return null;
  const list = deps.queryClient.getQueryData<Service[]>(['services']);
  return list?.find((s) => s.serviceId === decodeURIComponent(id))?.permissions ?? null;
}

export function createCommandRuntime(deps: AppDeps, entities: EntityLookup): CommandRuntime {
  const app = createAppServices(deps);
  const recent = (): string[] => {
    try {
      return JSON.parse(localStorage.getItem(RECENT_KEY) ?? '[]');
    } catch {
      return [];
    }
  };

  const context = (surface: Surface): CommandContext => {
    const layout = deps.store.get(layoutAtom);
    const pane = L.findPane(layout, layout.active);
    const route = pane ? L.currentPath(pane) : '/servers';
    return {
      route,
      selection: deps.store.get(selectionAtom)[layout.active] ?? { kind: null, ids: [] },
      user: userOf(deps.auth),
      surface,
      entities,
      app,
      permissions: () => permissionsInView(deps, route),
    };
  };

  return {
    registry: deps.registry,
    entities,
    index: deps.index,
    context,
    recent,
    async run(cmd: Command, values, surface) {
      const ctx = context(surface);
      try {
        const result = await execute(cmd, values, ctx);
        localStorage.setItem(
          RECENT_KEY,
          JSON.stringify([cmd.id, ...recent().filter((id) => id !== cmd.id)].slice(0, 10)),
        );
        if (surface !== 'console' && result?.message) pushToast(deps.store, 'success', result.message);
        return result;
      } catch (e) {
        // The console, the palette and a form show a failure where the user typed.
        if (surface !== 'console' && surface !== 'palette' && surface !== 'form') {
          const reason = e instanceof ApiError ? e.reason : undefined;
          pushToast(deps.store, 'error', `${cmd.title}: ${(e as Error).message}`, reason);
        }
        throw e;
      }
    },
  };
}
