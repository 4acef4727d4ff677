// Runs the simulator from a shell:
//   tsx src/sim/cli.ts --link ws://127.0.0.1:8080/v4/sentinel/link --key <accessKey> --name "X" [--key … --name …]
//   tsx src/sim/cli.ts --link … --servers-file servers.json   (a JSON array of {accessKey, name})
// Options: --tick <ms> (default 3000), --seed <int>.

import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startSimulator } from './index.ts';

const { values } = parseArgs({
  options: {
    link: { type: 'string' },
    key: { type: 'string', multiple: true, default: [] },
    name: { type: 'string', multiple: true, default: [] },
    'servers-file': { type: 'string' },
    tick: { type: 'string' },
    seed: { type: 'string' },
  },
});

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

function serversFromArgs(): { accessKey: string; name: string }[] {
  const file = values['servers-file'];
  if (file) {
    const list: unknown = JSON.parse(readFileSync(file, 'utf8'));
    const valid =
      Array.isArray(list) &&
      list.every((s) => typeof s?.accessKey === 'string' && typeof s?.name === 'string');
    return valid ? list : fail(`${file}: expected a JSON array of {"accessKey", "name"}`);
  }
  const keys = values.key;
  if (keys.length === 0) fail('Give --key and --name for each server, or --servers-file.');
  return keys.map((accessKey, i) => ({ accessKey, name: values.name[i] ?? `Simulated server ${i + 1}` }));
}

if (!values.link) fail('Missing --link ws://host:port/v4/sentinel/link');
const sim = startSimulator({
  linkUrl: values.link,
  servers: serversFromArgs(),
  tickMs: values.tick ? Number(values.tick) : undefined,
  seed: values.seed ? Number(values.seed) : undefined,
  onLog: (line) => process.stdout.write(`${new Date().toISOString()} ${line}\n`),
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    sim.stop().then(() => process.exit(0));
  });
}
