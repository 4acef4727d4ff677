// `npm run commands`: the registry as JSON, for ../shared/tools/actions-coverage.mjs and docs.
import { createRegistry } from '../commands/index.ts';

process.stdout.write(`${JSON.stringify(createRegistry().toJSON(), null, 2)}\n`);
