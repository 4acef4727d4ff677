// Writes docs/scripting.md, the reference for script authors, from the script catalogue
// (src/domain/scripts). `npm run script-reference`; tests/unit/script-reference.test.ts fails
// when the committed file is stale.

import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { scriptReference } from '../src/domain/scripts/reference.ts';

const target = fileURLToPath(new URL('../docs/scripting.md', import.meta.url));
writeFileSync(target, scriptReference());
console.log(`wrote ${target}`);
