#!/usr/bin/env node
// `npm test`: every check and test of the project, one after another: lint and format, types,
// unit + component + API tests (the API's on the embedded PostgreSQL server, or TEST_DATABASE_URL),
// and the browser tests against the built console, server and simulator.
// Prints each runner's totals and, last, `N passed, N failed` for all of them; exits non-zero on
// any failure.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const bin = (name) => join(root, 'node_modules/.bin', name);
const only = process.argv.slice(2);
const wanted = (name) => only.length === 0 || only.includes(name);
const totals = [];

function run(cmd, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: 'inherit', cwd: root, env: { ...process.env, ...env } });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

function record(name, passed, failed, code) {
  // A runner that crashed before reporting counts as one failure, so it cannot pass silently.
  if (code !== 0 && failed === 0) failed = 1;
  totals.push({ name, passed, failed });
  console.log(`\n${name}: ${passed} passed, ${failed} failed`);
}

async function check(name, cmd, args) {
  const code = await run(cmd, args);
  record(name, code === 0 ? 1 : 0, code === 0 ? 0 : 1, code);
}

async function vitest(name, args, env = {}) {
  const out = join(root, 'test-results', `${name}.json`);
  rmSync(out, { force: true });
  const code = await run(
    bin('vitest'),
    ['run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`],
    {
      NO_COLOR: '1',
      ...env,
    },
  );
  const r = existsSync(out)
    ? JSON.parse(readFileSync(out, 'utf8'))
    : { numPassedTests: 0, numFailedTests: 0 };
  record(name, r.numPassedTests, r.numFailedTests, code);
}

if (wanted('lint')) await check('biome', bin('biome'), ['check', '.']);
if (wanted('types')) await check('tsc', bin('tsc'), ['-p', 'tsconfig.json']);
if (wanted('unit')) await vitest('vitest', []);

if (wanted('e2e')) {
  const built = await run(bin('vite'), ['build', '--logLevel', 'warn']);
  if (built !== 0) record('vite build', 0, 1, built);
  else {
    const out = join(root, 'test-results', 'playwright.json');
    rmSync(out, { force: true });
    const code = await run(bin('playwright'), ['test'], { PLAYWRIGHT_JSON_OUTPUT_NAME: out });
    const s = existsSync(out)
      ? JSON.parse(readFileSync(out, 'utf8')).stats
      : { expected: 0, unexpected: 0, flaky: 0 };
    record('playwright', s.expected + s.flaky, s.unexpected, code);
  }
}

const passed = totals.reduce((n, t) => n + t.passed, 0);
const failed = totals.reduce((n, t) => n + t.failed, 0);
console.log('\nSummary:');
for (const t of totals) console.log(`  ${t.name}: ${t.passed} passed, ${t.failed} failed`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
