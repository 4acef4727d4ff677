// The one CommandRuntime of the console: contexts built from the active pane, commands run with
// toasts for their outcome, recent commands remembered.

import { startRegistration } from '@simplewebauthn/browser';
import type { EntityLookup } from '../../../commands/args.ts';
import type { AppServices, CommandContext, Surface } from '../../../commands/context.ts';
import { type Command, execute } from '../../../commands/registry.ts';
import type { Service } from '../../domain/api.ts';
import { type EntityKind, maskHolderOf, placeOf } from '../../domain/resolver.ts';
import { ApiError } from '../api/http.ts';
import { openPalette } from '../palette/state.ts';
import { commandHistory, recentCommands, rememberCommand, rememberRecent } from '../store/commandHistory.ts';
import { gameResults } from '../store/gameResults.ts';
import { searchRemote } from '../store/lookup.ts';
import { getPref, type PrefKey, prefKeys, setPref } from '../store/prefs.ts';
import { allowNotifications, pushState, setPush } from '../store/push.ts';
import { History } from '../terminal/history.ts';
import { sanitise, sanitiseLines } from '../terminal/sanitise.ts';
import { getActiveList } from '../ui/activeList.ts';
import { downloadText } from '../ui/download.ts';
import { type AppDeps, userOf } from './deps.tsx';
import { focusActivePane } from './focusPane.ts';
import * as L from './layout.ts';
import { canonicalPath } from './routes.ts';
import type { CommandRuntime } from './runtime.ts';
import { dialogAtom, layoutAtom, pushToast, selectionAtom, terminalAtom, undoAtom } from './state.ts';

const FULL = Number.POSITIVE_INFINITY;

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
      history: () => {
        const user = userOf(deps.auth);
        return user ? new History(user.userId).entries() : [];
      },
    },
    catalogue: { all: () => deps.registry.all(), find: (name) => deps.registry.find(name) },
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
    files: { save: (filename, text, type) => downloadText(filename, [text], type) },
    dialogs: {
      // Rows may be a record's raw text (a log line's metadata): controls and bidi overrides are
      // shown, not obeyed, and nothing is cut, as it is the full record.
      info: (title, rows) =>
        store.set(dialogAtom, {
          type: 'info',
          title,
          // Line breaks are kept (laid-out JSON, a game's answer): every other control is shown.
          rows: rows.map(([k, v]): [string, string] => [
            sanitise(k, FULL),
            sanitiseLines(v, FULL).join('\n'),
          ]),
        }),
      confirm: (message) =>
        new Promise((resolve) => store.set(dialogAtom, { type: 'confirm', message, resolve })),
      shortcuts: () => store.set(dialogAtom, { type: 'shortcuts' }),
      form: (commandId, known = {}) => store.set(dialogAtom, { type: 'form', commandId, known }),
      choose: (choice) =>
        new Promise((resolve) => store.set(dialogAtom, { type: 'choose', choice, resolve })),
      pickBlueprint: (kind, query = {}) =>
        new Promise((resolve) => store.set(dialogAtom, { type: 'blueprint', kind, ...query, resolve })),
      pickMods: (selected) =>
        new Promise((resolve) => store.set(dialogAtom, { type: 'mods', selected, resolve })),
    },
    game: {
      result: (requestId, timeoutMs) => gameResults.wait(requestId, timeoutMs),
      output: (requestId, onLines) => gameResults.follow(requestId, onLines),
    },
    undo: {
      available: () => store.get(undoAtom) !== null,
      run: async () => {
        const last = store.get(undoAtom);
        if (!last) throw new Error('Nothing to undo.');
        store.set(undoAtom, null);
        await last.undo();
        return last.title;
      },
    },
    prefs: { get: (key) => getPref(key as PrefKey), set: setPref, keys: prefKeys },
    commandHistory: { list: commandHistory, remember: rememberCommand },
    push: { state: pushState, set: setPush, allow: allowNotifications },
    auth: {
      signIn: (returnTo) => deps.auth.signIn(returnTo),
      signOut: async () => {
        const notice = await deps.auth.signOut();
        if (notice) pushToast(store, 'info', 'Signed out', notice);
      },
      deviceId: () => deps.auth.deviceId(),
    },
    passkeys: {
      create: async (options) =>
        startRegistration({ optionsJSON: options as Parameters<typeof startRegistration>[0]['optionsJSON'] }),
    },
    openExternal: (url) => {
      window.open(url, '_blank', 'noopener,noreferrer');
    },
    links: {
      controlPanel: deps.config.controlPanelUrl,
      console: window.location.origin,
      planner: deps.config.plannerUrl,
    },
  };
}

/**
 * The caller's mask on an entity (SENTINEL-API §7): the one its record carries (servers, groups,
 * and survivors, tribes, dinos with their server's), else its server's, else the cached server
 * list's; null when nothing held says.
 */
function maskOf(deps: AppDeps, of: { kind: EntityKind; id: string }): number | null {
  const holder = maskHolderOf(of.kind);
  if (!holder) return null;
  const ref = deps.index.get(of.kind, of.id);
  if (ref?.mask !== undefined) return ref.mask;
  if (holder !== 'server') return null;
  const serviceId = of.kind === 'server' ? of.id : ref?.server;
  if (!serviceId) return null;
  if (serviceId !== of.id) return maskOf(deps, { kind: 'server', id: serviceId });
  const list = deps.queryClient.getQueryData<Service[]>(['services']);
  return list?.find((s) => s.serviceId === serviceId)?.permissions ?? null;
}

export function createCommandRuntime(deps: AppDeps, entities: EntityLookup): CommandRuntime {
  const app = createAppServices(deps);

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
      permissions: (of) => {
        const place = placeOf(route);
        const target = of ?? (place.kind && place.id ? { kind: place.kind, id: place.id } : null);
        return target ? maskOf(deps, target) : null;
      },
    };
  };

  const runUndo = () => {
    const cmd = deps.registry.get('ui.undo');
    if (cmd) runtime.run(cmd, {}, 'toolbar').catch(() => {});
  };

  const runtime: CommandRuntime = {
    registry: deps.registry,
    entities,
    index: deps.index,
    remote: (text, signal) => searchRemote(deps.api, text, signal),
    context,
    recent: recentCommands,
    async run(cmd: Command, values, surface, opts = {}) {
      const ctx = context(surface);
      // Shown once: where it was asked for, else in one toast or one dialog, never in several.
      const shownHere = surface === 'console' || opts.shownHere === true;
      try {
        const result = await execute(cmd, values, ctx);
        rememberRecent(cmd.id);
        // A command that answered may have changed what lists show, and the realtime events of our
        // own changes are not echoed to us (X-Beacon-Pusher-Id): the lists on screen fetch again.
        if (result) void deps.queryClient.invalidateQueries({ type: 'active' });
        // Whatever surface ran it, its undo is the runtime's: on the toast, and for ui.undo.
        if (result?.undo) deps.store.set(undoAtom, { title: cmd.title, undo: result.undo });
        if (shownHere) return result;
        // A toast holds one line, so sections open in the info dialog (a game command's answer run
        // from the palette, a regenerated access key), the message as its first row.
        if (result?.sections?.length)
          app.dialogs.info(cmd.title, [
            ...(result.message ? [['Result', result.message] as [string, string]] : []),
            ...result.sections.map((s): [string, string] => [s.heading, s.text]),
          ]);
        else if (result?.message)
          pushToast(
            deps.store,
            'success',
            result.message,
            undefined,
            result.undo ? { label: 'Undo', run: () => runUndo() } : undefined,
          );
        return result;
      } catch (e) {
        // The console, the palette and a form show a failure where the user typed.
        if (!shownHere && surface !== 'palette' && surface !== 'form') {
          const reason = e instanceof ApiError ? e.reason : undefined;
          pushToast(deps.store, 'error', `${cmd.title}: ${(e as Error).message}`, reason);
        }
        throw e;
      }
    },
  };
  return runtime;
}
