// Syntax errors marked as the author types. acorn parses the code as the sandbox runs it (a plain
// script, not a module nor a function body) and names the mistake ("Unterminated string
// constant", "'return' outside of function"), where the highlighter's error nodes only mark it.
// acorn is a chunk of its own, fetched for the first check: the editor shows without waiting for it.

import { type Diagnostic, linter } from '@codemirror/lint';
import type { parse as acornParse } from 'acorn';

export interface SyntaxProblem {
  from: number;
  to: number;
  message: string;
}

/** The first syntax error of `code`, or null when it parses. */
export function syntaxProblem(parse: typeof acornParse, code: string): SyntaxProblem | null {
  try {
    parse(code, { ecmaVersion: 'latest', sourceType: 'script' });
    return null;
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e;
    const { pos, raisedAt } = e as SyntaxError & { pos: number; raisedAt: number };
    // acorn ends its message with the position, which the editor shows as a line and column.
    const message = e.message.replace(/\s*\(\d+:\d+\)$/, '');
    return { from: pos, to: Math.min(Math.max(raisedAt, pos), code.length), message };
  }
}

/** How long typing pauses before the code is checked again. */
const CHECK_DELAY_MS = 300;

export const syntaxLinter = linter(
  async (view): Promise<Diagnostic[]> => {
    const { parse } = await import('acorn');
    const problem = syntaxProblem(parse, view.state.doc.toString());
    return problem ? [{ ...problem, severity: 'error', source: 'Syntax' }] : [];
  },
  { delay: CHECK_DELAY_MS },
);
