// The script reference beside the code editor (F1 in the editor): every context and field, action
// and beacon member with an example, as docs/scripting.md says them, narrowed by a search field
// that starts with the word at the cursor. Escape closes it and gives the keyboard back to the editor.

import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { scriptReference } from '../../../../domain/scripts/reference.ts';
import { type Block, filterSections, inlineParts, referenceSections } from './referenceBlocks.ts';

let sectionsOnce: ReturnType<typeof referenceSections> | null = null;
const allSections = () => {
  sectionsOnce ??= referenceSections(scriptReference());
  return sectionsOnce;
};

function Inline({ text }: { text: string }) {
  return inlineParts(text).map((part, i) =>
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string, never reordered
    i % 2 === 1 ? <code key={i}>{part}</code> : <span key={i}>{part}</span>,
  );
}

function BlockView({ block }: { block: Block }) {
  if (block.kind === 'paragraph')
    return (
      <p>
        <Inline text={block.text} />
      </p>
    );
  if (block.kind === 'code') return <pre>{block.text}</pre>;
  return (
    <table>
      <thead>
        <tr>
          {block.head.map((h) => (
            <th key={h} scope="col">
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {block.rows.map((row, r) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows of fixed text in document order
          <tr key={r}>
            {row.map((cell, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a row's cells are its columns, in order
              <td key={i}>
                <Inline text={cell} />
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export interface ScriptReferenceProps {
  /** What the search starts with, selected so that typing replaces it. */
  initialQuery: string;
  /** Closes the panel; the editor takes the focus back. */
  onClose: () => void;
}

export function ScriptReference({ initialQuery, onClose }: ScriptReferenceProps) {
  const [query, setQuery] = useState(initialQuery);
  const sections = useMemo(() => filterSections(allSections(), query), [query]);
  const search = useRef<HTMLInputElement>(null);
  const titleId = useId();
  const searchId = useId();
  useEffect(() => {
    search.current?.focus();
    search.current?.select();
  }, []);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Escape') return;
    // The innermost thing closes first: the panel, not a dialog the editor sits in.
    e.preventDefault();
    e.stopPropagation();
    onClose();
  };

  return (
    <section className="code-reference" aria-labelledby={titleId} onKeyDown={onKeyDown}>
      <div className="code-reference-bar">
        <h2 id={titleId}>Script reference</h2>
        <label htmlFor={searchId}>Search</label>
        <input
          id={searchId}
          ref={search}
          type="search"
          className="code-reference-search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <button type="button" className="ui-button ui-button-small" onClick={onClose}>
          Close <kbd className="ui-key">Esc</kbd>
        </button>
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable to scroll it by keyboard */}
      <section className="code-reference-body" tabIndex={0} aria-label="Reference text">
        {sections.length === 0 ? (
          <p>Nothing in the reference mentions “{query.trim()}”.</p>
        ) : (
          sections.map((s) => {
            // The document's title is the panel's; its sections sit one level below.
            const Heading = s.level === 1 ? null : s.level === 2 ? 'h3' : 'h4';
            return (
              <div key={s.title}>
                {Heading && (
                  <Heading>
                    <Inline text={s.title} />
                  </Heading>
                )}
                {s.blocks.map((b, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a section's blocks are fixed text in document order
                  <BlockView key={i} block={b} />
                ))}
              </div>
            );
          })
        )}
      </section>
    </section>
  );
}
