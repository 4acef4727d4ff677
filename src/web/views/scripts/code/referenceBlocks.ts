// The script reference (src/domain/scripts/reference.ts writes it, docs/scripting.md holds it) as
// blocks the console renders as React text, never as HTML: the help beside the code editor is the
// same document as the docs. It reads only what scriptReference() writes (headings, paragraphs,
// tables, fenced code, `code` spans), so a general Markdown library would be weight for nothing.

export type Block =
  | { kind: 'paragraph'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'table'; head: string[]; rows: string[][] };

export interface Section {
  /** 1 for the title, 2 and 3 below it. */
  level: number;
  title: string;
  blocks: Block[];
}

/** `| a | b \| c |` → ['a', 'b | c']. */
const cells = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim().replace(/\\\|/g, '|'));

export function referenceSections(markdown: string): Section[] {
  const lines = markdown.split('\n');
  const sections: Section[] = [];
  const add = (b: Block) => sections.at(-1)?.blocks.push(b);
  for (let i = 0; i < lines.length; ) {
    const line = lines[i];
    const heading = /^(#{1,3}) (.*)$/.exec(line);
    if (heading) {
      sections.push({ level: heading[1].length, title: heading[2], blocks: [] });
      i++;
    } else if (line.startsWith('```')) {
      const end = lines.indexOf('```', i + 1);
      const close = end < 0 ? lines.length : end;
      add({ kind: 'code', text: lines.slice(i + 1, close).join('\n') });
      i = close + 1;
    } else if (line.startsWith('|')) {
      const rows: string[][] = [];
      for (; lines[i]?.startsWith('|'); i++) rows.push(cells(lines[i]));
      // The second row is the `| --- |` line under the header.
      add({ kind: 'table', head: rows[0], rows: rows.slice(2) });
    } else if (line.trim() === '' || /^<!--.*-->$/.test(line)) {
      i++;
    } else {
      const para: string[] = [];
      for (; i < lines.length && lines[i].trim() !== '' && !/^(#|```|\|)/.test(lines[i]); i++)
        para.push(lines[i]);
      add({ kind: 'paragraph', text: para.join(' ') });
    }
  }
  return sections;
}

/** `a \`b\` c` → [text, code, text]: odd parts are code spans. */
export const inlineParts = (text: string) => text.split('`');

const has = (text: string, q: string) => text.toLowerCase().includes(q);
const rowHas = (row: string[], q: string) => row.some((c) => has(c, q));
const blockHas = (b: Block, q: string) =>
  b.kind === 'table' ? rowHas(b.head, q) || b.rows.some((r) => rowHas(r, q)) : has(b.text, q);

/** The rows that mention q, or all of them when only the header does. */
function matchingRows(rows: string[][], q: string): string[][] {
  const hits = rows.filter((r) => rowHas(r, q));
  return hits.length > 0 ? hits : rows;
}

/**
 * The sections that mention `query`: a section whose title matches keeps all of itself; otherwise
 * only its matching blocks, and a table only its matching rows. The heading above a matching
 * subsection stays, so the result reads in the document's order and outline.
 */
export function filterSections(sections: readonly Section[], query: string): Section[] {
  const q = query.trim().toLowerCase();
  if (q === '') return [...sections];
  const out: Section[] = [];
  let parent: Section | null = null;
  for (const s of sections) {
    if (s.level < 3) parent = s;
    const blocks = has(s.title, q)
      ? s.blocks
      : s.blocks
          .filter((b) => blockHas(b, q))
          .map((b) => (b.kind === 'table' ? { ...b, rows: matchingRows(b.rows, q) } : b));
    if (blocks.length === 0 && !has(s.title, q)) continue;
    if (s.level === 3 && parent && !out.some((o) => o.title === parent?.title))
      out.push({ ...parent, blocks: [] });
    out.push({ ...s, blocks });
  }
  return out;
}
