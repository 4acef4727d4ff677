// A pane: its own route and history, rendered with react-router's <Routes location>, so several
// panes show different routes side by side under one browser URL (the active pane's).

import { useAtomValue, useSetAtom } from 'jotai';
import {
  createContext,
  type MouseEvent,
  type ReactNode,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useRef,
} from 'react';
import { Route, Routes } from 'react-router';
import { SECTIONS } from '../../../commands/sections.ts';
import { DINO_CREATOR_ROUTE } from '../../domain/dinoBuilder.ts';
import { ListPlaceContext } from '../ui/listPlace.ts';
import { NotFound } from '../views/NotFound.tsx';
import { focusMainWhenReady } from './focusPane.ts';
import { currentPath, type LayoutNode, navigate, type PaneLeaf } from './layout.ts';
import { PaneBoundary } from './PaneBoundary.tsx';
import { canonicalPath } from './routes.ts';
import { lazyView, SECTION_VIEWS } from './sectionViews.ts';
import { layoutAtom } from './state.ts';

const LogPage = lazyView(() => import('../views/logs/LogPage.tsx'), 'LogPage');

const PaneContext = createContext<string>('');
export const usePaneId = () => useContext(PaneContext);

/** Navigate within the pane that renders the caller. */
export function usePaneNavigate(): (to: string) => void {
  const paneId = usePaneId();
  const layout = useAtomValue(layoutAtom);
  const setLayout = useSetAtom(layoutAtom);
  return useCallback(
    (to: string) => setLayout({ ...navigate(layout, paneId, canonicalPath(to)), active: paneId }),
    [layout, paneId, setLayout],
  );
}

export function PaneLink({
  to,
  children,
  className,
}: {
  to: string;
  children: ReactNode;
  className?: string;
}) {
  const go = usePaneNavigate();
  const onClick = (e: MouseEvent) => {
    if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    go(to);
  };
  return (
    <a href={to} onClick={onClick} className={className}>
      {children}
    </a>
  );
}

/** A pane's path as the location its routes see: a query (`/dinos/add?survivors=…`) is the view's to read. */
function paneLocation(path: string): { pathname: string; search: string } {
  const at = path.indexOf('?');
  return at < 0 ? { pathname: path, search: '' } : { pathname: path.slice(0, at), search: path.slice(at) };
}

const DinoCreator = lazyView(() => import('../views/give/DinoCreator.tsx'), 'DinoCreator');

function PaneRoutes({ pane }: { pane: PaneLeaf }) {
  return (
    <PaneBoundary what="This view" resetKey={currentPath(pane)}>
      <Suspense fallback={<p className="page">Loading…</p>}>
        <Routes location={paneLocation(currentPath(pane))}>
          {SECTIONS.flatMap(({ id, route }) => {
            const { list: List, pages } = SECTION_VIEWS[id];
            return [
              <Route key={route} path={route} element={<List />} />,
              ...pages.map(({ path, view: View }) => (
                <Route key={`${route}/${path}`} path={`${route}/${path}`} element={<View />} />
              )),
            ];
          })}
          <Route path="/logs/:messageId" element={<LogPage />} />
          <Route path={DINO_CREATOR_ROUTE} element={<DinoCreator />} />
          <Route path="*" element={<NotFound path={currentPath(pane)} />} />
        </Routes>
      </Suspense>
    </PaneBoundary>
  );
}

function Leaf({ pane, active, only }: { pane: PaneLeaf; active: boolean; only: boolean }) {
  const layout = useAtomValue(layoutAtom);
  const setLayout = useSetAtom(layoutAtom);
  const section = useRef<HTMLElement>(null);
  const path = currentPath(pane);
  // Focus follows navigation: every new route of the active pane (and the first, after signing
  // in) puts focus on its view's main list or form once it is shown.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a route or history step, not a change of active pane, moves focus
  useEffect(() => {
    if (active && section.current) return focusMainWhenReady(section.current);
  }, [path, pane.index]);
  return (
    <PaneContext.Provider value={pane.id}>
      <section
        ref={section}
        className={`pane${active && !only ? ' pane-active' : ''}`}
        aria-label={`Pane: ${path}`}
        data-pane={pane.id}
        tabIndex={-1}
        data-active={active}
        onFocusCapture={() => {
          if (!active) setLayout({ ...layout, active: pane.id });
        }}
      >
        <ListPlaceContext.Provider value={`${pane.id} ${path}`}>
          <PaneRoutes pane={pane} />
        </ListPlaceContext.Provider>
      </section>
    </PaneContext.Provider>
  );
}

export function PaneTree({ node, active, only }: { node: LayoutNode; active: string; only: boolean }) {
  if (node.type === 'pane') return <Leaf pane={node} active={node.id === active} only={only} />;
  const first = `${node.ratio * 100}%`;
  return (
    <div className={`split split-${node.direction}`}>
      <div className="split-child" style={{ flexBasis: first }}>
        <PaneTree node={node.children[0]} active={active} only={false} />
      </div>
      <hr className="split-divider" aria-orientation={node.direction === 'row' ? 'vertical' : 'horizontal'} />
      <div className="split-child" style={{ flexBasis: `calc(100% - ${first})` }}>
        <PaneTree node={node.children[1]} active={active} only={false} />
      </div>
    </div>
  );
}
