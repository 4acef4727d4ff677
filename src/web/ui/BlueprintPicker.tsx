// The blueprint and mod pickers of SPEC §2: an item or a species from the game's catalogue, with a
// Search field and a Pick Mods filter; the mods (content packs) with a Mod Name column; a dino
// colour for the Custom Dino Creator's regions. Keyboard
// first: Search has focus, ↓ or Enter goes to the list, Enter picks, Space marks mods. Both lists
// are the one VirtualList; the catalogue loads with the first picker, not with the shell.

import { useMemo, useState } from 'react';
import type { BlueprintKind } from '../../../commands/args.ts';
import type { Blueprint, DinoColor, Pack } from '../../domain/blueprints/index.ts';
import { colorTitle } from '../../domain/words.ts';
import { useCatalogue } from './catalogue.ts';
import { Dialog } from './Dialog.tsx';
import { type Column, VirtualList } from './VirtualList.tsx';

const focusGrid = (e: React.KeyboardEvent<HTMLElement>) => {
  if (e.key !== 'ArrowDown' && e.key !== 'Enter') return;
  e.preventDefault();
  e.currentTarget.closest('.ui-dialog')?.querySelector<HTMLElement>('[role="grid"]')?.focus();
};

/** A picker's search field: ↓ or Enter moves to the dialog's list; `helpId` names its hint. */
function PickerSearch({
  value,
  onChange,
  helpId,
}: {
  value: string;
  onChange(v: string): void;
  helpId: string;
}) {
  return (
    <label className="picker-search">
      <span>Search</span>
      <input
        type="search"
        className="ui-input"
        value={value}
        autoFocus
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={focusGrid}
        aria-describedby={helpId}
      />
    </label>
  );
}

const blueprintColumns: Column<Blueprint>[] = [
  { id: 'name', title: 'Name', value: (b) => b.name, width: '2fr' },
  {
    id: 'category',
    title: 'Category',
    value: (b) => ('category' in b ? b.category : (b.variants?.join(', ') ?? '')),
  },
  { id: 'mod', title: 'Mod', value: (b) => b.pack },
  { id: 'path', title: 'Path', value: (b) => b.path, width: '3fr', defaultVisible: false },
];

export interface BlueprintPickerProps {
  kind: BlueprintKind;
  initialText?: string;
  initialPacks?: readonly string[];
  onPick(path: string): void;
  onClose(): void;
}

export function BlueprintPicker({
  kind,
  initialText = '',
  initialPacks = [],
  onPick,
  onClose,
}: BlueprintPickerProps) {
  const m = useCatalogue();
  const [text, setText] = useState(initialText);
  const [packs, setPacks] = useState<readonly string[]>(initialPacks);
  const [pickingMods, setPickingMods] = useState(false);
  const rows = useMemo(() => (m ? m.searchBlueprints(kind, { text, packs }) : []), [m, kind, text, packs]);
  const noun = kind === 'item' ? 'item' : 'species';
  return (
    <Dialog open onClose={onClose} title={kind === 'item' ? 'Choose an item' : 'Choose a species'}>
      <div className="picker">
        <div className="picker-bar">
          <PickerSearch value={text} onChange={setText} helpId="picker-help" />
          <button type="button" className="ui-button" onClick={() => setPickingMods(true)}>
            Pick Mods{packs.length ? ` (${packs.length})` : ''}
          </button>
        </div>
        <p id="picker-help" className="picker-help">
          {packs.length ? `Only ${packs.join(', ')}. ` : ''}↓ to the list, Enter picks the {noun}.
        </p>
        <div className="picker-list">
          <VirtualList<Blueprint>
            name={`picker-${kind}`}
            label={kind === 'item' ? 'Items' : 'Species'}
            rows={rows}
            rowKey={(b) => b.path}
            columns={blueprintColumns}
            loading={!m}
            emptyText={`No ${noun} matches.`}
            onOpen={(b) => onPick(b.path)}
          />
        </div>
      </div>
      {pickingMods && (
        <ModPicker
          selected={packs}
          onPick={(p) => {
            setPacks(p);
            setPickingMods(false);
          }}
          onClose={() => setPickingMods(false)}
        />
      )}
    </Dialog>
  );
}

const modColumns: Column<Pack>[] = [
  { id: 'name', title: 'Mod Name', value: (p) => p.name, width: '2fr' },
  { id: 'folder', title: 'Folder', value: (p) => `/Game/${p.folder}` },
];

export interface ModPickerProps {
  selected: readonly string[];
  onPick(packs: string[]): void;
  onClose(): void;
}

/** Mods by name (a pack spanning two folders is one row): Space marks several, Enter takes them. */
export function ModPicker({ selected, onPick, onClose }: ModPickerProps) {
  const m = useCatalogue();
  const rows = useMemo(
    () => (m ? m.PACK_NAMES.map((name) => m.PACKS.find((p) => p.name === name)!) : []),
    [m],
  );
  const [marked, setMarked] = useState<string[]>([...selected]);
  const take = (active: Pack | null) => onPick(marked.length ? marked : active ? [active.name] : []);
  return (
    <Dialog
      open
      onClose={onClose}
      title="Pick Mods"
      actions={
        <>
          <button type="button" className="ui-button" onClick={() => onPick([])}>
            All mods
          </button>
          <button type="button" className="ui-button ui-button-primary" onClick={() => take(null)}>
            Use marked mods
          </button>
        </>
      }
    >
      <p className="picker-help">
        Space marks a mod, Enter uses the marked ones (or the one under the cursor).
      </p>
      <div className="picker picker-list">
        <VirtualList<Pack>
          name="picker-mods"
          label="Mods"
          rows={rows}
          rowKey={(p) => p.name}
          columns={modColumns}
          loading={!m}
          onSelectionChange={(rows) => setMarked(rows.map((p) => p.name))}
          onOpen={take}
        />
      </div>
    </Dialog>
  );
}

const colorColumns: Column<DinoColor>[] = [
  {
    id: 'name',
    title: 'Colour',
    value: (c) => colorTitle(c),
    render: (c) => (
      <>
        <span className="dino-swatch" style={{ background: c.hex }} aria-hidden="true" />
        {colorTitle(c)}
      </>
    ),
    width: '2fr',
  },
  { id: 'id', title: 'Id', value: (c) => c.id, align: 'end' },
  { id: 'dye', title: 'Dye', value: (c) => (c.dye ? 'dye' : '') },
];

export interface ColorPickerProps {
  title: string;
  colors: readonly DinoColor[];
  onPick(id: number): void;
  onClose(): void;
}

/** One colour of the game's table (region colours and dyes): Search by name or id, Enter picks it. */
export function ColorPicker({ title, colors, onPick, onClose }: ColorPickerProps) {
  const [text, setText] = useState('');
  const q = text.trim().toLowerCase();
  // The game's name (`wyvernpurple`) or the one shown (`wyvern purple`) finds a colour.
  const rows = q
    ? colors.filter(
        (c) =>
          c.name.toLowerCase().includes(q) || colorTitle(c).toLowerCase().includes(q) || String(c.id) === q,
      )
    : colors;
  return (
    <Dialog open onClose={onClose} title={title}>
      <div className="picker">
        <PickerSearch value={text} onChange={setText} helpId="color-picker-help" />
        <p id="color-picker-help" className="picker-help">
          A name or an id; ↓ to the list, Enter picks the colour.
        </p>
      </div>
      <div className="picker picker-list">
        <VirtualList<DinoColor>
          name="picker-colors"
          label="Colours"
          rows={rows}
          rowKey={(c) => String(c.id)}
          columns={colorColumns}
          onOpen={(c) => onPick(c.id)}
        />
      </div>
    </Dialog>
  );
}
