// DESIGN.md: `commands` imports `domain` and the web API calls, nothing else of the console (no
// stores, no terminal, no React), so browser persistence and the DOM stay behind AppServices.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const DIR = join(__dirname, '../../commands');
const ALLOWED = [/^\.\/[^/]+\.ts$/, /^\.\.\/src\/domain\//, /^\.\.\/src\/web\/api\//];
/** Every module a file imports or re-exports, type-only ones included. */
const IMPORT = /^\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]/gm;

function importsOf(source: string): string[] {
  return [...source.matchAll(IMPORT)].map((m) => m[1] ?? m[2]);
}

describe('commands/ imports', () => {
  it('reads every form of import', () => {
    const src = [
      "import { a } from './a.ts';",
      "import type { B } from '../src/web/store/b.ts';",
      "export { c } from '../src/domain/c.ts';",
      "import {\n  d,\n  e,\n} from 'react';",
      "import './side.css';",
    ].join('\n');
    expect(importsOf(src)).toEqual([
      './a.ts',
      '../src/web/store/b.ts',
      '../src/domain/c.ts',
      'react',
      './side.css',
    ]);
  });

  it('only src/domain, src/web/api and each other', () => {
    const files = readdirSync(DIR).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(5);
    const wrong = files.flatMap((f) =>
      importsOf(readFileSync(join(DIR, f), 'utf8'))
        .filter((spec) => !ALLOWED.some((re) => re.test(spec)))
        .map((spec) => `${f} imports ${spec}`),
    );
    expect(wrong).toEqual([]);
  });

  it('touches neither browser storage nor notifications', () => {
    const files = readdirSync(DIR).filter((f) => f.endsWith('.ts'));
    const touching = files.filter((f) =>
      /localStorage|sessionStorage|\bdocument\.|\bwindow\.|\bNotification\.|globalThis\.Notification/.test(
        readFileSync(join(DIR, f), 'utf8'),
      ),
    );
    expect(touching).toEqual([]);
  });
});
