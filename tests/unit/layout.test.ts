import { describe, expect, it } from 'vitest';
import * as L from '../../src/web/app/layout.ts';
import { canonicalPath, isPublicPath } from '../../src/web/app/routes.ts';

describe('pane layout', () => {
  it('splits, keeps each pane its own history, focuses and closes', () => {
    let l = L.initialLayout('/servers');
    const first = l.active;
    l = L.split(l, 'right');
    expect(L.panes(l.root)).toHaveLength(2);
    expect(l.active).not.toBe(first);
    l = L.navigate(l, l.active, '/servers/abc');
    expect(L.currentPath(L.findPane(l, l.active)!)).toBe('/servers/abc');
    expect(L.currentPath(L.findPane(l, first)!)).toBe('/servers');
    l = L.step(l, l.active, -1);
    expect(L.currentPath(L.findPane(l, l.active)!)).toBe('/servers');
    l = L.step(l, l.active, 1);
    expect(L.currentPath(L.findPane(l, l.active)!)).toBe('/servers/abc');
    l = L.focusStep(l, 1);
    expect(l.active).toBe(first);
    l = L.split(l, 'down');
    expect(L.panes(l.root)).toHaveLength(3);
    l = L.close(l);
    expect(L.panes(l.root)).toHaveLength(2);
    expect(L.isLayout(JSON.parse(JSON.stringify(l)))).toBe(true);
  });

  it('never closes the last pane', () => {
    const l = L.initialLayout('/servers');
    expect(L.close(l)).toBe(l);
  });

  it('resizes the split that holds the active pane within bounds', () => {
    let l = L.split(L.initialLayout('/servers'), 'right');
    for (let i = 0; i < 20; i++) l = L.resize(l, 0.05);
    expect((l.root as L.SplitNode).ratio).toBeCloseTo(0.15);
  });

  it('rejects a damaged saved layout', () => {
    expect(L.isLayout({ root: { type: 'pane', id: 'x', history: [] }, active: 'x' })).toBe(false);
    expect(L.isLayout(null)).toBe(false);
  });
});

describe('routes', () => {
  it('redirects legacy paths and drops default tab aliases', () => {
    expect(canonicalPath('/services')).toBe('/servers');
    expect(canonicalPath('/services/abc/chat')).toBe('/servers/abc/chat');
    expect(canonicalPath('/survivors/x')).toBe('/characters/x');
    expect(canonicalPath('/servers/abc/logs')).toBe('/servers/abc');
    expect(canonicalPath('/servicesx')).toBe('/servicesx');
  });
  it('knows the public pages', () => {
    expect(isPublicPath('/welcome')).toBe(true);
    expect(isPublicPath('/a/xyz')).toBe(true);
    expect(isPublicPath('/servers')).toBe(false);
  });
});
