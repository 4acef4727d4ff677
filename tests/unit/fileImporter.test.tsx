// The importer says it is importing while a long import runs, then shows the outcome in its place.

import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it } from 'vitest';
import { FileImporter, type ImportSource } from '../../src/web/ui/FileImporter.tsx';

afterEach(cleanup);

it('says "Importing…" until the import answers, then its outcome', async () => {
  let answer: (outcome: string) => void = () => {};
  const asked: ImportSource[] = [];
  render(
    <FileImporter
      onImport={(source) => {
        asked.push(source);
        return new Promise((resolve) => {
          answer = resolve;
        });
      }}
    />,
  );
  await userEvent.click(screen.getByRole('radio', { name: 'Copy & Paste' }));
  await userEvent.type(screen.getByRole('textbox', { name: 'Text to import' }), 'one,line');
  await userEvent.keyboard('{Control>}{Enter}{/Control}');
  expect(await screen.findByRole('status')).toHaveProperty('textContent', 'Importing…');
  expect(asked).toEqual([{ text: 'one,line' }]);
  answer('Imported 1 of 1 lines.');
  expect(await screen.findByText('Imported 1 of 1 lines.')).toHaveProperty(
    'textContent',
    'Imported 1 of 1 lines.',
  );
  expect(screen.getByRole('status').textContent).toBe('Imported 1 of 1 lines.');
});
