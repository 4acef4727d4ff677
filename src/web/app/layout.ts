// The split-pane layout as a pure tree: each leaf is a pane with its own route history.
// Pure functions here, atoms in panes.ts; kept in localStorage so a reload restores it.

export interface PaneLeaf {
  type: 'pane';
  id: string;
  history: string[];
  index: number;
}

export interface SplitNode {
  type: 'split';
  id: string;
  direction: 'row' | 'column';
  /** Fraction of the first child, 0.15–0.85. */
  ratio: number;
  children: [LayoutNode, LayoutNode];
}

export type LayoutNode = PaneLeaf | SplitNode;

export interface Layout {
  root: LayoutNode;
  active: string;
}

let counter = 0;
const newId = (p: string) => `${p}${Date.now().toString(36)}${(counter++).toString(36)}`;

export function initialLayout(path: string): Layout {
  const pane: PaneLeaf = { type: 'pane', id: newId('p'), history: [path], index: 0 };
  return { root: pane, active: pane.id };
}

export function panes(node: LayoutNode): PaneLeaf[] {
  return node.type === 'pane' ? [node] : [...panes(node.children[0]), ...panes(node.children[1])];
}

export function findPane(layout: Layout, id: string): PaneLeaf | undefined {
  return panes(layout.root).find((p) => p.id === id);
}

export const currentPath = (p: PaneLeaf): string => p.history[p.index] ?? '/servers';

function mapNode(node: LayoutNode, fn: (n: LayoutNode) => LayoutNode | null): LayoutNode | null {
  const mapped = fn(node);
  if (mapped !== node || mapped.type === 'pane') return mapped;
  const a = mapNode(mapped.children[0], fn);
  const b = mapNode(mapped.children[1], fn);
  if (!a) return b;
  if (!b) return a;
  return a === mapped.children[0] && b === mapped.children[1] ? mapped : { ...mapped, children: [a, b] };
}

function updatePane(layout: Layout, id: string, fn: (p: PaneLeaf) => PaneLeaf): Layout {
  const root = mapNode(layout.root, (n) => (n.type === 'pane' && n.id === id ? fn(n) : n));
  return root ? { ...layout, root } : layout;
}

export function navigate(layout: Layout, id: string, path: string, replace = false): Layout {
  return updatePane(layout, id, (p) => {
    if (currentPath(p) === path) return p;
    const kept = p.history.slice(0, replace ? p.index : p.index + 1).slice(-99);
    return { ...p, history: [...kept, path], index: kept.length };
  });
}

export function step(layout: Layout, id: string, delta: 1 | -1): Layout {
  return updatePane(layout, id, (p) => {
    const index = Math.min(p.history.length - 1, Math.max(0, p.index + delta));
    return index === p.index ? p : { ...p, index };
  });
}

/** Splits the active pane; the new pane opens on the same route and takes focus. */
export function split(layout: Layout, direction: 'right' | 'down'): Layout {
  const active = findPane(layout, layout.active);
  if (!active) return layout;
  const fresh: PaneLeaf = { type: 'pane', id: newId('p'), history: [currentPath(active)], index: 0 };
  const root = mapNode(layout.root, (n) =>
    n === active
      ? {
          type: 'split',
          id: newId('s'),
          direction: direction === 'right' ? 'row' : 'column',
          ratio: 0.5,
          children: [n, fresh],
        }
      : n,
  );
  return { root: root ?? layout.root, active: fresh.id };
}

/** Closes the active pane unless it is the last one; focus moves to its neighbour. */
export function close(layout: Layout): Layout {
  const list = panes(layout.root);
  if (list.length <= 1) return layout;
  const at = list.findIndex((p) => p.id === layout.active);
  const root = mapNode(layout.root, (n) => (n.type === 'pane' && n.id === layout.active ? null : n));
  const next = list[at + 1] ?? list[at - 1];
  return { root: root ?? layout.root, active: next.id };
}

export function focusStep(layout: Layout, delta: 1 | -1): Layout {
  const list = panes(layout.root);
  const at = list.findIndex((p) => p.id === layout.active);
  return { ...layout, active: list[(at + delta + list.length) % list.length].id };
}

/** Moves the divider of the split that directly holds the active pane. */
export function resize(layout: Layout, delta: number): Layout {
  const root = mapNode(layout.root, (n) => {
    if (n.type !== 'split') return n;
    const side = n.children.findIndex((c) => c.type === 'pane' && c.id === layout.active);
    if (side < 0) return n;
    const ratio = Math.min(0.85, Math.max(0.15, n.ratio + (side === 0 ? delta : -delta)));
    return { ...n, ratio };
  });
  return { ...layout, root: root ?? layout.root };
}

export function isLayout(v: unknown): v is Layout {
  const valid = (n: unknown): boolean => {
    const x = n as LayoutNode;
    if (!x || typeof x !== 'object') return false;
    if (x.type === 'pane')
      return typeof x.id === 'string' && Array.isArray(x.history) && x.history.length > 0;
    return (
      x.type === 'split' && Array.isArray(x.children) && x.children.length === 2 && x.children.every(valid)
    );
  };
  const l = v as Layout;
  return !!l && typeof l.active === 'string' && valid(l.root) && panes(l.root).some((p) => p.id === l.active);
}
