import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore, Provider } from 'jotai';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CommandError } from '../../commands/registry.ts';
import { duplicateNameMessage } from '../../commands/scriptEditing.ts';
import { emptyDocument, exportText, simpleCode } from '../../src/domain/scripts/content.ts';
import { parseSimple, type SimpleScript } from '../../src/domain/scripts/simple.ts';
import { CronField } from '../../src/web/views/scripts/editor/CronField.tsx';
import { ImportPanel } from '../../src/web/views/scripts/editor/ImportPanel.tsx';
import { SimpleEditor } from '../../src/web/views/scripts/editor/SimpleEditor.tsx';

afterEach(cleanup);

/** The editor with its code held as the page holds it; `code()` reads what it wrote. */
function setup(context: string, initial: SimpleScript = { match: 'all', conditions: [], actions: [] }) {
  let current = simpleCode(initial);
  function Host() {
    const [code, setCode] = useState(current);
    return (
      <SimpleEditor
        context={context}
        code={code}
        onChange={(c) => {
          current = c;
          setCode(c);
        }}
        errorId="t"
      />
    );
  }
  render(
    <Provider store={createStore()}>
      <Host />
    </Provider>,
  );
  return { user: userEvent.setup(), code: () => JSON.parse(current) as SimpleScript, raw: () => current };
}

const nextFrame = () => act(() => new Promise((r) => requestAnimationFrame(() => r(undefined))));

describe('conditions', () => {
  it('adds a Field, Operator, Value row from the context, typed by its field', async () => {
    const { user, code, raw } = setup('chat');
    await user.click(screen.getByRole('button', { name: 'Add condition' }));
    await nextFrame();
    // The new row's form has focus, on its first field; chat offers the message.
    expect(document.activeElement).toBe(screen.getByLabelText('Field'));
    expect(code().conditions).toEqual([{ field: 'message', operator: 'contains', value: '' }]);
    await user.type(screen.getByLabelText('Value'), '!rules');
    expect(code().conditions[0].value).toBe('!rules');
    expect(
      within(screen.getByRole('grid', { name: 'Conditions' })).getByRole('row', {
        name: /Message contains !rules/,
      }),
    ).toBeTruthy();

    // A number field: its operators, and the value is a number in the script.
    await user.selectOptions(screen.getByLabelText('Field'), 'specimenId');
    const ops = within(screen.getByLabelText('Operator'))
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(ops).toEqual(['=', '≠', '<', '≤', '>', '≥']);
    await user.clear(screen.getByLabelText('Value'));
    await user.type(screen.getByLabelText('Value'), '42');
    await user.selectOptions(screen.getByLabelText('Operator'), 'greaterThan');
    expect(code().conditions[0]).toEqual({ field: 'specimenId', operator: 'greaterThan', value: 42 });

    // Match any; the engine's own parser takes what the editor wrote.
    await user.click(screen.getByRole('radio', { name: 'Any condition' }));
    expect(code().match).toBe('any');
    expect(parseSimple(raw(), 'chat')).toMatchObject({ match: 'any' });
  });

  it('offers only the fields of the context, and Escape returns to the list', async () => {
    const { user } = setup('dinoTamed');
    await user.click(screen.getByRole('button', { name: 'Add condition' }));
    await nextFrame();
    const fields = within(screen.getByLabelText('Field'))
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(fields).toContain('Dino species');
    expect(fields).not.toContain('Message');
    await user.keyboard('{Escape}');
    expect(document.activeElement).toBe(screen.getByRole('grid', { name: 'Conditions' }));
  });
});

describe('actions and their options', () => {
  it('shows each option as a field of its catalogue type and writes typed values', async () => {
    const { user, code, raw } = setup('chat');
    await user.click(screen.getByRole('button', { name: 'Add action' }));
    await nextFrame();
    expect(document.activeElement).toBe(screen.getByLabelText('Action'));
    expect(screen.getByLabelText('Message (required)')).toBeTruthy();
    expect(screen.getByLabelText('Sender name')).toBeTruthy();

    await user.selectOptions(screen.getByLabelText('Action'), 'giveItem');
    expect(screen.queryByLabelText('message (required)')).toBeNull();
    await user.type(screen.getByLabelText('Quantity'), '5');
    await user.selectOptions(screen.getByLabelText('As blueprint'), 'true');
    // A number option may hold a placeholder until the event fills it.
    await user.type(screen.getByLabelText('Quality'), '{{dinoLevel}');
    expect(code().actions[0]).toEqual({
      type: 'giveItem',
      options: { quantity: 5, asBlueprint: true, quality: '{dinoLevel}' },
    });
    // Unset again, an option is left out rather than sent empty.
    await user.selectOptions(screen.getByLabelText('As blueprint'), '');
    expect(code().actions[0].options).not.toHaveProperty('asBlueprint');
    // Fixed values are a choice, not free text.
    await user.selectOptions(screen.getByLabelText('Action'), 'toggleBuff');
    const modes = within(screen.getByLabelText('Mode (required)'))
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(modes).toEqual(['(not set)', 'add', 'remove', 'toggle']);
    expect(typeof raw()).toBe('string');
  });

  it('inserts a field placeholder where the cursor is', async () => {
    const { user, code } = setup('chat');
    await user.click(screen.getByRole('button', { name: 'Add action' }));
    const message = screen.getByLabelText('Message (required)') as HTMLInputElement;
    await user.type(message, 'Hello !');
    message.setSelectionRange(6, 6);
    const inserter = within(message.parentElement!).getByLabelText('Insert field');
    // Only fields the chat event carries and that may stand in text (not the message itself).
    const offered = within(inserter)
      .getAllByRole('option')
      .map((o) => (o as HTMLOptionElement).value);
    expect(offered).toContain('playerName');
    expect(offered).not.toContain('message');
    expect(offered).not.toContain('dinoName');
    await user.selectOptions(inserter, 'playerName');
    expect(code().actions[0].options.message).toBe('Hello {playerName}!');
    await nextFrame();
    expect(document.activeElement).toBe(message);
  });

  it('keeps the order the user gives: Move up and Move down reorder the actions', async () => {
    const { user, code } = setup('chat', {
      match: 'all',
      conditions: [],
      actions: [
        { type: 'sendChat', options: { message: 'first' } },
        { type: 'kickPlayer', options: { playerId: '{playerId}' } },
      ],
    });
    const grid = screen.getByRole('grid', { name: 'Actions' });
    grid.focus();
    await user.keyboard('{ArrowDown}');
    await user.click(screen.getByRole('button', { name: 'Move up' }));
    expect(code().actions.map((a) => a.type)).toEqual(['kickPlayer', 'sendChat']);
    await user.click(screen.getByRole('button', { name: 'Remove action' }));
    expect(code().actions.map((a) => a.type)).toEqual(['sendChat']);
  });
});

describe('cron field', () => {
  function cron(initial: string) {
    let current = initial;
    function Host() {
      const [v, setV] = useState(initial);
      return (
        <CronField
          expression={v}
          onChange={(x) => {
            current = x;
            setV(x);
          }}
        />
      );
    }
    render(<Host />);
    return { user: userEvent.setup(), value: () => current };
  }
  const runs = () =>
    within(screen.getByRole('list', { name: 'Next five runs' }))
      .getAllByRole('listitem')
      .map((li) => li.textContent);

  it('reads a plain schedule back as its choice and shows the next five runs', async () => {
    const { user, value } = cron('*/15 * * * *');
    expect((screen.getByLabelText('Runs') as HTMLInputElement).value).toBe('minutes');
    expect((screen.getByLabelText('Every (minutes)') as HTMLInputElement).value).toBe('15');
    const five = runs();
    expect(five).toHaveLength(5);
    const minutes = five.map((t) => Number(t?.slice(14, 16)));
    for (const m of minutes) expect(m % 15).toBe(0);

    await user.selectOptions(screen.getByLabelText('Runs'), 'weekly');
    expect(value()).toBe('0 12 * * 1');
    await user.selectOptions(screen.getByLabelText('On'), 'Friday');
    expect(value()).toBe('0 12 * * 5');
    for (const t of runs()) {
      expect(t).toMatch(/ 12:00 UTC$/);
      expect(new Date(`${t?.slice(0, 10)}T00:00:00Z`).getUTCDay()).toBe(5);
    }
  });

  it('Advanced takes any expression; an invalid one says so and has no runs', async () => {
    const { user, value } = cron('0 6 * * *');
    expect((screen.getByLabelText('Runs') as HTMLInputElement).value).toBe('daily');
    expect(screen.getByLabelText('Cron expression').hasAttribute('readonly')).toBe(true);
    await user.selectOptions(screen.getByLabelText('Runs'), 'advanced');
    const raw = screen.getByLabelText('Cron expression');
    await user.clear(raw);
    await user.type(raw, '0 0 1 1 *');
    expect(value()).toBe('0 0 1 1 *');
    expect((screen.getByLabelText('Runs') as HTMLInputElement).value).toBe('advanced');
    expect(runs()[0]).toMatch(/-01-01 00:00 UTC$/);
    await user.type(raw, ' 7');
    expect(screen.getByRole('alert').textContent).toBe('0 0 1 1 * 7 is not a valid cron expression.');
    expect(screen.getByText('None until the expression is valid.')).toBeTruthy();
  });
});

describe('import with a name already taken', () => {
  it('asks keep both or replace, and runs the import again with the answer', async () => {
    const taken = new CommandError(duplicateNameMessage('Rules'), 'onDuplicate');
    const run = vi.fn(async (_source: string, choice: string) => {
      if (choice === 'ask') throw taken;
      return choice === 'keepBoth' ? 'Rules (2) was imported.' : 'Rules was replaced by the imported script.';
    });
    render(<ImportPanel run={run} />);
    const user = userEvent.setup();
    const file = exportText(emptyDocument('Rules'));
    await user.click(screen.getByRole('textbox', { name: 'Text to import' }));
    await user.paste(file);
    await user.click(screen.getByRole('button', { name: /^Import/ }));
    expect(run).toHaveBeenLastCalledWith(file, 'ask');
    expect(await screen.findByText(duplicateNameMessage('Rules'))).toBeTruthy();
    const choice = screen.getByRole('group', { name: 'The name is taken' });
    await user.click(within(choice).getByRole('button', { name: 'Keep both' }));
    expect(run).toHaveBeenLastCalledWith(file, 'keepBoth');
    expect(await screen.findByText('Rules (2) was imported.')).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'The name is taken' })).toBeNull();
  });

  it('Replace overwrites; a refusal of the import itself is shown where it was made', async () => {
    const run = vi.fn(async (_source: string, choice: string) => {
      if (choice === 'ask') throw new CommandError(duplicateNameMessage('Rules'), 'onDuplicate');
      throw new Error('Forbidden: You do not have the required permission (edit scripts).');
    });
    render(<ImportPanel run={run} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('textbox', { name: 'Text to import' }));
    await user.paste('{"format":"palisade-script"}');
    await user.click(screen.getByRole('button', { name: /^Import/ }));
    await user.click(await screen.findByRole('button', { name: 'Replace' }));
    expect(run).toHaveBeenLastCalledWith('{"format":"palisade-script"}', 'replace');
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /^Forbidden: You do not have the required permission/,
    );
  });
});
