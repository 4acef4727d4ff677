// (a) Plain cmdk as its docs show it: every entity a Command.Item, the built-in filter, an
// uncontrolled input, a 400 px list that is not virtualised.
import { Command } from 'cmdk';
import { atom, createStore, Provider, useAtomValue } from 'jotai';
import type { Root } from 'react-dom/client';
import type { BenchEntity } from '../lib/entities.ts';
import { INPUT_SELECTOR, installProbe } from '../lib/probe.ts';

const openAtom = atom(false);

function PlainPalette({ data }: { data: BenchEntity[] }) {
  if (!useAtomValue(openAtom)) return null;
  return (
    <Command label="Command palette">
      <Command.Input autoFocus />
      <Command.List style={{ height: 400, overflow: 'auto' }}>
        {data.map((e) => (
          <Command.Item key={e.id} value={e.text}>
            {e.text}
          </Command.Item>
        ))}
      </Command.List>
    </Command>
  );
}

export function mountPlain(root: Root, data: BenchEntity[]): void {
  const store = createStore();
  root.render(
    <Provider store={store}>
      <PlainPalette data={data} />
    </Provider>,
  );
  installProbe(
    () => store.set(openAtom, true),
    () => document.querySelector(INPUT_SELECTOR) !== null,
  );
}
