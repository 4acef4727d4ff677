#!/usr/bin/env node
// The system the browser tests drive: the built console on the real server, a fresh embedded
// database each run, the simulator ticking fast so live changes show within seconds.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVER_NODE_ARGS } from './serverNode.mjs';

const dataDir = mkdtempSync(join(tmpdir(), 'palisade-e2e-'));
// Run as root, the database server is another user, who must be able to enter the folder.
chmodSync(dataDir, 0o711);
const child = spawn(process.execPath, [...SERVER_NODE_ARGS, 'src/server/cli.ts'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    PORT: process.argv[2] ?? '4179',
    // The browser reaches it by name: passkeys (tests/e2e/access.spec.ts) need a host name.
    PALISADE_PUBLIC_URL: `http://localhost:${process.argv[2] ?? '4179'}`,
    PALISADE_DATA_DIR: dataDir,
    PALISADE_SIM_TICK_MS: '700',
    // The browser tests play the chat community's bot with this token (tests/e2e/groups.spec.ts).
    PALISADE_CHAT_BOT_TOKEN: 'e2e-chat-bot',
    // The simulated servers answer RCON too (tests/e2e/rcon.spec.ts adds one as an RCON server).
    PALISADE_SIM_RCON_PORT: String(Number(process.argv[2] ?? '4179') + 1000),
    PALISADE_SIM_RCON_PASSWORD: 'sim-rcon-password',
    // tests/e2e/rcon.spec.ts stops and starts one simulated server's RCON side through this.
    PALISADE_SIM_CONTROL_PORT: String(Number(process.argv[2] ?? '4179') + 2000),
    DATABASE_URL: '',
    // One user drives every test, a hundred screens in two minutes: more than the console's 600
    // requests a minute. The limit itself is tested in tests/api.
    PALISADE_RATE_LIMIT: '6000',
  },
});
const stop = (sig) => child.kill(sig);
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
child.on('exit', (code) => {
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
