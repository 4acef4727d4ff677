// A view that fails to render fails in its pane alone, says so in words, and offers a way on by
// keyboard; the other panes stay as they were.

import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyWhenIdle } from '../../src/web/app/lazyPane.ts';
import { PaneBoundary } from '../../src/web/app/PaneBoundary.tsx';

afterEach(cleanup);

const broken = { now: true };
function Flaky({ name }: { name: string }) {
  if (broken.now) throw new Error('view exploded');
  return <ul aria-label={name} />;
}

function Panes({ path }: { path: string }) {
  return (
    <>
      <section aria-label="Pane 1">
        <PaneBoundary what="This view" resetKey={path}>
          <Flaky name="Players" />
        </PaneBoundary>
      </section>
      <section aria-label="Pane 2">
        <PaneBoundary what="This view" resetKey="/servers">
          <ul aria-label="Servers" />
        </PaneBoundary>
      </section>
    </>
  );
}

describe('PaneBoundary', () => {
  it('shows a sentence in the failed pane only, focuses Try again, and shows the view again when it works', async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    broken.now = true;
    render(<Panes path="/players" />);
    expect(screen.getByRole('alert').textContent).toContain('This view could not be shown.');
    expect(screen.queryByText('view exploded')).toBeNull();
    expect(screen.getByRole('list', { name: 'Servers' })).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Try again' }));

    // Still broken: the same sentence again, not a blank pane.
    await userEvent.keyboard('{Enter}');
    expect(screen.getByRole('alert')).toBeTruthy();

    broken.now = false;
    await userEvent.keyboard('{Enter}');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('list', { name: 'Players' })).toBeTruthy();
    quiet.mockRestore();
  });

  it('leaves the failure behind when the pane goes elsewhere', () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    broken.now = true;
    const { rerender } = render(<Panes path="/players" />);
    expect(screen.getByRole('alert')).toBeTruthy();
    broken.now = false;
    rerender(<Panes path="/players/42" />);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('list', { name: 'Players' })).toBeTruthy();
    quiet.mockRestore();
  });
});

describe('lazyWhenIdle', () => {
  it('asks again for a chunk that failed to load, and shows the view once it comes', async () => {
    let asked = 0;
    const View = lazyWhenIdle(async () => {
      asked += 1;
      if (asked === 1) throw new TypeError('Failed to fetch dynamically imported module');
      return { default: () => <ul aria-label="Dinos" /> };
    });
    render(
      <PaneBoundary what="This view" resetKey="/dinos">
        <Suspense fallback={<p>Loading…</p>}>
          <View />
        </Suspense>
      </PaneBoundary>,
    );
    expect(await screen.findByRole('list', { name: 'Dinos' })).toBeTruthy();
    expect(asked).toBe(2);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
