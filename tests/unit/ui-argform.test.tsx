import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bool, colour, coords, duration, float, int, list, oneOf, ref, text } from '../../commands/args.ts';
import { CommandError, defineCommand } from '../../commands/registry.ts';
import { COORDS_MESSAGE } from '../../src/domain/coords.ts';
import { DURATION_MESSAGE } from '../../src/domain/duration.ts';
import { ArgForm } from '../../src/web/ui/ArgForm.tsx';
import { lookupOf } from './entityLookup-fixture.ts';

afterEach(cleanup);

const servers = [
  { kind: 'server' as const, id: 's1', label: 'Island PvE', detail: 'The Island' },
  { kind: 'server' as const, id: 's2', label: 'Island PvP', detail: 'The Island' },
  { kind: 'server' as const, id: 's3', label: 'Ragnarok' },
];
const lookup = lookupOf(servers);

const cmd = defineCommand({
  id: 'dino.spawn',
  title: 'Spawn dino',
  group: 'Dinos',
  args: {
    server: ref('server').describe('Server'),
    level: int({ min: 1, max: 450 }).describe('Level'),
    scale: float({ min: 0.5 }).describe('Scale').optional(),
    gender: oneOf(['male', 'female'] as const).describe('Gender'),
    tint: colour().describe('Tint').optional(),
    expires: duration().describe('Expires'),
    at: coords().describe('Where'),
    tamed: bool().describe('Tamed'),
    also: list(ref('server')).describe('Also on').optional(),
    note: text().min(3, 'Say more.').describe('Note'),
  },
  run: () => undefined,
});

/**
 * Clicks a completion, then lets a frame pass as a user's next action would: the combobox gives
 * focus back to its input in the next animation frame, so a click elsewhere before it is undone.
 */
async function pick(user: ReturnType<typeof userEvent.setup>, option: string | RegExp) {
  await user.click(screen.getByRole('option', { name: option }));
  await act(() => new Promise((frame) => requestAnimationFrame(frame)));
}

function setup(initial: Record<string, unknown> = {}, onSubmit = vi.fn(async () => undefined)) {
  const onCancel = vi.fn();
  render(<ArgForm cmd={cmd} lookup={lookup} initial={initial} onSubmit={onSubmit} onCancel={onCancel} />);
  const field = (label: string) => screen.getByText(label, { selector: 'label' }).parentElement!;
  const control = (label: string) => screen.getByLabelText(label);
  const message = (label: string) => field(label).querySelector('.argform-error')?.textContent ?? null;
  // Parsing awaits entity look-ups: a macrotask lets every one of them settle.
  const submit = async () => {
    await userEvent.click(screen.getByRole('button', { name: 'Spawn dino' }));
    await act(() => new Promise((r) => setTimeout(r, 0)));
  };
  return { user: userEvent.setup(), field, control, message, submit, onSubmit, onCancel };
}

describe('ArgForm', () => {
  it('has one labelled field per argument, the first focused, each with its help', () => {
    const { control, field } = setup();
    expect([...document.querySelectorAll('label')].map((l) => l.textContent)).toEqual([
      'Server',
      'Level',
      'Scale',
      'Gender',
      'Tint',
      'Expires',
      'Where',
      'Tamed',
      'Also on',
      'Note',
    ]);
    expect(document.activeElement).toBe(control('Server'));
    expect(field('Level').textContent).toContain('A whole number from 1 to 450.');
    expect(field('Scale').textContent).toContain('A number from 0.5. · optional');
    expect(field('Where').textContent).toContain('x y z');
    expect(control('Tamed').getAttribute('role')).toBe('checkbox');
  });

  it('shows each refused value’s message beside its field, keeps every value, and submits once corrected', async () => {
    const { user, control, message, submit, onSubmit } = setup();
    await user.type(control('Server'), 'Nowhere');
    await user.type(control('Level'), '451');
    await user.type(control('Scale'), 'big');
    await user.type(control('Expires'), 'soon');
    await user.type(control('Where'), 'a b');
    await user.type(control('Also on'), 'Ragnarok, Atlantis');
    await user.type(control('Note'), 'hi');
    await submit();
    expect(onSubmit).not.toHaveBeenCalled();
    expect(message('Server')).toBe('No server matches "Nowhere".');
    expect(message('Level')).toBe('Level must be at most 450.');
    expect(message('Scale')).toBe('Scale must be a number.');
    expect(message('Gender')).toBe('Gender is required.');
    expect(message('Tint')).toBeNull();
    expect(message('Expires')).toBe(DURATION_MESSAGE);
    expect(message('Where')).toBe(COORDS_MESSAGE);
    expect(message('Also on')).toBe('No server matches "Atlantis".');
    expect(message('Note')).toBe('Say more.');
    // Each message is the field's description, and focus is on the first refused field.
    expect(control('Level').getAttribute('aria-invalid')).toBe('true');
    expect(control('Level').getAttribute('aria-describedby')).toContain(
      screen.getByText('Level must be at most 450.').id,
    );
    expect(document.activeElement).toBe(control('Server'));
    expect((control('Note') as HTMLInputElement).value).toBe('hi');

    // Corrected: a server picked from the completion, a choice, a swatch colour, a checkbox.
    await user.clear(control('Server'));
    await user.type(control('Server'), 'isl');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Island PvEThe Island',
      'Island PvPThe Island',
    ]);
    expect(message('Server')).toBeNull();
    await pick(user, /Island PvP/);
    for (const [label, value] of [
      ['Level', '120'],
      ['Scale', '1.5'],
      ['Expires', '7d'],
      ['Where', '10 -20 30'],
      ['Also on', 'Ragnarok'],
      ['Note', 'hi there'],
    ])
      await user.clear(control(label)).then(() => user.type(control(label), value));
    await user.click(control('Gender'));
    await user.click(screen.getByRole('option', { name: 'Female' }));
    await user.click(control('Tint'));
    const teal = screen.getByRole('option', { name: 'Teal' });
    expect(teal.querySelector('.color-dot.color-teal')).not.toBeNull();
    await user.click(teal);
    await user.click(control('Tamed'));
    await submit();
    expect(onSubmit).toHaveBeenCalledWith({
      server: servers[1],
      level: 120,
      scale: 1.5,
      gender: 'female',
      tint: 'teal',
      expires: 7 * 86400,
      at: { x: 10, y: -20, z: 30, relative: false },
      tamed: true,
      also: [servers[2]],
      note: 'hi there',
    });
  }, 30_000);

  it('starts from what was typed or known, and offers completions for durations', async () => {
    const { user, control, submit, onSubmit } = setup({
      server: servers[0],
      level: '30',
      gender: 'male',
      expires: '',
      at: '1 2 3',
      tamed: 'yes',
      note: 'from the console',
    });
    expect((control('Server') as HTMLInputElement).value).toBe('Island PvE');
    expect(control('Tamed').getAttribute('aria-checked')).toBe('true');
    await user.type(control('Expires'), '1');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['1h', '12h', '1d']);
    await user.clear(control('Expires'));
    await submit();
    expect(onSubmit).toHaveBeenCalledWith(
      expect.objectContaining({
        server: servers[0],
        level: 30,
        expires: null,
        tamed: true,
        scale: undefined,
      }),
    );
  });

  it('keeps the form after the command refuses, its message beside the field it names or above the buttons', async () => {
    const onSubmit = vi
      .fn()
      .mockRejectedValueOnce(new CommandError('Island PvE is at its dino limit.', 'server'))
      .mockRejectedValueOnce(new Error('The server did not answer.'))
      .mockResolvedValueOnce(undefined);
    const known = { server: servers[0], level: '30', gender: 'male', at: '1 2 3', note: 'test' };
    const { message, control, submit } = setup(known, onSubmit);
    await submit();
    expect(message('Server')).toBe('Island PvE is at its dino limit.');
    expect(document.activeElement).toBe(control('Server'));
    expect((control('Note') as HTMLInputElement).value).toBe('test');
    await submit();
    expect(screen.getByRole('alert').textContent).toBe('The server did not answer.');
    // Ctrl+Enter submits from a field where Enter does something else (a checkbox).
    control('Tamed').focus();
    await userEvent.keyboard('{Control>}{Enter}{/Control}');
    await act(() => new Promise((r) => setTimeout(r, 0)));
    expect(onSubmit).toHaveBeenCalledTimes(3);
    expect(control('Tamed').getAttribute('aria-checked')).toBe('false');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('takes entities picked from the completion by id, two of one name apart', async () => {
    const anas = [
      { kind: 'player' as const, id: 'p1', label: 'Ana Dubois', detail: 'AU' },
      { kind: 'player' as const, id: 'p2', label: 'Ana Dubois', detail: 'BR' },
    ];
    const twins = lookupOf(anas);
    const ban = defineCommand({
      id: 'ban',
      title: 'Ban',
      group: 'g',
      args: { who: list(ref('player')).describe('Players'), one: ref('player').describe('Player') },
      run: () => undefined,
    });
    const onSubmit = vi.fn(async () => undefined);
    render(<ArgForm cmd={ban} lookup={twins} onSubmit={onSubmit} onCancel={() => undefined} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Players'), 'ana');
    await pick(user, 'Ana DuboisBR');
    await user.type(screen.getByLabelText('Players'), ', ana');
    await pick(user, 'Ana DuboisAU');
    expect((screen.getByLabelText('Players') as HTMLInputElement).value).toBe('Ana Dubois, Ana Dubois');
    await user.type(screen.getByLabelText('Player'), 'Ana Dubois');
    await user.click(screen.getByRole('button', { name: 'Ban' }));
    await act(() => new Promise((r) => setTimeout(r, 0)));
    // Typed, not picked: the name alone cannot say which.
    expect(screen.getByText(/Several players match "Ana Dubois"/)).toBeTruthy();
    await user.clear(screen.getByLabelText('Player'));
    await user.type(screen.getByLabelText('Player'), 'ana');
    await pick(user, 'Ana DuboisAU');
    await user.click(screen.getByRole('button', { name: 'Ban' }));
    await act(() => new Promise((r) => setTimeout(r, 0)));
    expect(onSubmit).toHaveBeenCalledWith({ who: [anas[1], anas[0]], one: anas[0] });
  });

  it('cancels without submitting', async () => {
    const { user, onCancel, onSubmit } = setup();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalled();
    expect(onSubmit).not.toHaveBeenCalled();
    expect(within(document.body).getByRole('form', { name: 'Spawn dino' })).toBeDefined();
  });

  it('shows a field only while the choice it belongs to is made', async () => {
    const give = defineCommand({
      id: 'test.give',
      title: 'Give',
      group: 'Test',
      args: {
        who: text().describe('Who'),
        stats: oneOf(['natural', 'exact'] as const)
          .describe('Stats')
          .default('natural'),
        quality: text().describe('Quality').optional().shownWhen('stats', 'natural'),
        armor: float().describe('Armor').optional().shownWhen('stats', 'exact'),
      },
      run: () => undefined,
    });
    const onSubmit = vi.fn(async () => undefined);
    const shown = () => [...document.querySelectorAll('label')].map((l) => l.textContent);
    const { unmount } = render(
      <ArgForm cmd={give} lookup={lookup} initial={{ who: 'Ana' }} onSubmit={onSubmit} onCancel={vi.fn()} />,
    );
    expect(shown()).toEqual(['Who', 'Stats', 'Quality']);
    unmount();
    render(
      <ArgForm
        cmd={give}
        lookup={lookup}
        initial={{ who: 'Ana', stats: 'exact', quality: 'primitive', armor: 5 }}
        onSubmit={onSubmit}
        onCancel={vi.fn()}
      />,
    );
    expect(shown()).toEqual(['Who', 'Stats', 'Armor']);
    await userEvent.click(screen.getByRole('button', { name: 'Give' }));
    await act(() => new Promise((r) => setTimeout(r, 0)));
    // A field not shown is not sent, whatever it held.
    expect(onSubmit).toHaveBeenCalledWith({ who: 'Ana', stats: 'exact', armor: 5 });
  });
});
