#!/usr/bin/env node
// `npm start`: build the console, then run the API server (its own PostgreSQL server unless
// DATABASE_URL is set), the game-server simulator and the console on one port. Ctrl+C stops everything cleanly.
import { spawn } from 'node:child_process';
import { SERVER_NODE_ARGS } from './serverNode.mjs';

function run(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: 'inherit', ...opts });
    const forward = (sig) => child.kill(sig);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(code ?? (signal ? 0 : 1));
    });
  });
}

const bin = (name) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;

if (!process.argv.includes('--no-build')) {
  console.log('Building the console…');
  const built = await run(bin('vite'), ['build', '--logLevel', 'warn']);
  if (built !== 0) process.exit(built);
}
// The IPC channel closes when this process ends, however it ends (SIGKILL too): the server then
// stops as on Ctrl+C rather than run on unattended.
process.exit(
  await run(process.execPath, [...SERVER_NODE_ARGS, 'src/server/cli.ts'], {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  }),
);
