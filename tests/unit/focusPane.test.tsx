import { createStore } from 'jotai';
import { afterEach, describe, expect, it } from 'vitest';
import { focusActivePane, focusMainWhenReady } from '../../src/web/app/focusPane.ts';
import { layoutAtom } from '../../src/web/app/state.ts';

afterEach(() => {
  document.body.innerHTML = '';
});

/** A pane as the shell renders it, and a console dock beside it. */
function shell(id = 'p1') {
  document.body.innerHTML = `
    <section data-pane="${id}" tabindex="-1"><p>Loading…</p></section>
    <section class="terminal-dock"><textarea aria-label="Terminal input"></textarea></section>`;
  return document.querySelector<HTMLElement>('[data-pane]')!;
}
const settle = () => new Promise((r) => setTimeout(r, 0));
const nextFrame = () => new Promise((r) => requestAnimationFrame(() => r(undefined)));

describe('focus after navigation', () => {
  it('waits for the view to show its list, then focuses it', async () => {
    const pane = shell();
    focusMainWhenReady(pane);
    expect(document.activeElement).toBe(document.body);
    pane.innerHTML = '<input type="search" aria-label="Filter"><div role="grid" tabindex="0"></div>';
    await settle();
    expect(document.activeElement).toBe(pane.querySelector('[role="grid"]'));
  });

  it("focuses a form's first field when the view has no list", async () => {
    const pane = shell();
    pane.innerHTML = '<h1>Setup</h1><form><label>Name <input name="n"></label><button>Save</button></form>';
    focusMainWhenReady(pane);
    expect(document.activeElement).toBe(pane.querySelector('input'));
  });

  it('leaves focus where the user put it: a click meanwhile, or the console a command was typed in', async () => {
    const pane = shell();
    focusMainWhenReady(pane);
    document.dispatchEvent(new Event('pointerdown'));
    pane.innerHTML = '<div role="grid" tabindex="0"></div>';
    await settle();
    expect(document.activeElement).toBe(document.body);

    const console = document.querySelector('textarea')!;
    console.focus();
    focusMainWhenReady(pane);
    pane.innerHTML = '<div role="grid" tabindex="0"></div>';
    await settle();
    expect(document.activeElement).toBe(console);
  });
});

describe('focus after the console is hidden', () => {
  it('rests on the pane while the view a console command opened still loads, then on its list', async () => {
    const store = createStore();
    const pane = shell(store.get(layoutAtom).active);
    const terminal = document.querySelector('textarea')!;
    terminal.focus();
    focusMainWhenReady(pane); // the navigation's own wait gives way: a command was typed there
    focusActivePane(store);
    await nextFrame();
    expect(document.activeElement).toBe(pane);
    pane.innerHTML = '<div role="grid" tabindex="0" aria-label="Alert rules"></div>';
    await settle();
    expect(document.activeElement).toBe(pane.querySelector('[role="grid"]'));
  });
});
