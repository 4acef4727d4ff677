// The signed-in console: top bar, sections, split panes, console dock, palette, toasts, dialogs.

import { useAtom, useAtomValue } from 'jotai';
import { Suspense, useEffect, useMemo } from 'react';
import { SECTIONS } from '../../../commands/sections.ts';
import { type User, userChannel } from '../../domain/api.ts';
import { keyLabels } from '../palette/keyLabels.ts';
import { gameResults } from '../store/gameResults.ts';
import { useChannels } from '../store/liveRefetch.ts';
import { createLookup } from '../store/lookup.ts';
import { useServices } from '../store/services.ts';
import { useUnreadNotifications } from '../views/alerts/notifications.ts';
import { usePushNotifications } from '../views/servers/PushNotifications.tsx';
import { Breadcrumb } from './Breadcrumb.tsx';
import { createCommandRuntime } from './commandRuntime.ts';
import { useApp } from './deps.tsx';
import { GlobalHotkeys } from './Hotkeys.tsx';
import { currentPath, findPane, navigate, panes } from './layout.ts';
import { lazyWhenIdle, prefetch } from './lazyPane.ts';
import { PaneTree } from './PaneView.tsx';
import { canonicalPath } from './routes.ts';
import { CommandRuntimeContext, useCommandRuntime } from './runtime.ts';
import { layoutAtom } from './state.ts';
import { TerminalDock } from './TerminalDock.tsx';
import { Toasts } from './Toasts.tsx';

const Palette = lazyWhenIdle(() => import('../palette/Palette.tsx').then((m) => ({ default: m.Palette })));

const Dialogs = lazyWhenIdle(() => import('./Dialogs.tsx').then((m) => ({ default: m.Dialogs })));

// Its menu library is a quarter of the shell's script: the name shows at once, the menu a moment later.
const UserMenu = lazyWhenIdle(() => import('./UserMenu.tsx').then((m) => ({ default: m.UserMenu })));

// The charts' code and first canvas, made ready before the first server or log page is opened.
prefetch.whenIdle(() => void import('../ui/chartWarmup.ts').then((m) => m.warmCharts()));

/** Keeps the browser URL on the active pane's route and follows the browser's Back/Forward. */
function useUrlSync() {
  const [layout, setLayout] = useAtom(layoutAtom);
  const active = findPane(layout, layout.active);
  const path = active ? currentPath(active) : '/servers';

  useEffect(() => {
    if (window.location.pathname !== path) window.history.pushState(null, '', path);
  }, [path]);

  useEffect(() => {
    const onPop = () =>
      setLayout(navigate(layout, layout.active, canonicalPath(window.location.pathname), true));
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [layout, setLayout]);
}

function ShellBody({ user }: { user: User }) {
  const rt = useCommandRuntime();
  const { api, index, realtime } = useApp();
  const layout = useAtomValue(layoutAtom);
  const only = panes(layout.root).length === 1;
  useUrlSync();
  // The server list feeds the entity index for the palette and completion from the start,
  // and push notifications follow every server, whatever the panes show.
  const servers = useServices(api, index);
  usePushNotifications(servers.data?.map((s) => s.serviceId) ?? []);
  // The game's answers to locate, restore, … reach the commands waiting for them.
  useChannels(realtime, [userChannel(user.userId)], gameResults.handlers);
  const go = (path: string) => rt.context('menu').app.navigate(path);
  const unread = useUnreadNotifications(user.userId);

  return (
    <div className="shell">
      <header className="topbar">
        <span className="brand">Palisade</span>
        <Breadcrumb />
        <span className="spacer" />
        <button
          type="button"
          className="topbar-button"
          onClick={() => rt.context('toolbar').app.palette.open()}
        >
          Commands <kbd>Ctrl K</kbd>
        </button>
        <Suspense fallback={<span className="user-button">{user.username}</span>}>
          <UserMenu user={user} />
        </Suspense>
      </header>
      <nav className="sections" aria-label="Sections">
        {SECTIONS.map((s) => (
          <a
            key={s.id}
            href={s.route}
            onClick={(e) => {
              e.preventDefault();
              go(s.route);
            }}
          >
            <span>
              {s.title}
              {s.id === 'notifications' && unread > 0 && (
                <span className="nav-count">
                  {unread}
                  <span className="visually-hidden"> unread</span>
                </span>
              )}
            </span>{' '}
            <kbd>{keyLabels(s.key).join(' ')}</kbd>
          </a>
        ))}
      </nav>
      <main className="panes">
        <PaneTree node={layout.root} active={layout.active} only={only} />
      </main>
      <TerminalDock rt={rt} userId={user.userId} />
      <Suspense fallback={null}>
        <Palette />
        <Dialogs />
      </Suspense>
      <Toasts />
      <GlobalHotkeys rt={rt} />
    </div>
  );
}

export function Shell({ user }: { user: User }) {
  const deps = useApp();
  const runtime = useMemo(
    () =>
      createCommandRuntime(
        deps,
        createLookup(deps.index, () => deps.api),
      ),
    [deps],
  );
  return (
    <CommandRuntimeContext.Provider value={runtime}>
      <ShellBody user={user} />
    </CommandRuntimeContext.Provider>
  );
}
