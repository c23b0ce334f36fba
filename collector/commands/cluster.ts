import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, resolve } from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { openPrivateState } from '../../src/db/open-private-state.ts';
import { KeyService } from '../../src/access/keys.ts';
import { PUMP_PROGRAM_ID } from '../../src/core/programs.ts';
import { running } from '../../src/ingest/write-site.ts';
import { startReplayRpc } from '../../devchain/replay/server.ts';
import { requirePostgres, startPostgres, type LocalPostgres } from '../../devchain/cluster/postgres.ts';
import { requireNginx, startNginx, type RunningNginx } from '../../devchain/cluster/nginx.ts';
import { freePort } from '../../devchain/cluster/net.ts';
import { AT_START, BEFORE_COVERAGE, DemoError, assertPortFree, coverageStarted, demoChain, examples, landLive, rebuildExample, waitFor } from './demo.ts';
import { runCollect } from './collect.ts';
import { startServer } from './start.ts';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
/** How often the trial's collector publishes a generation of the public database. */
export const CLUSTER_GENERATION_INTERVAL_MS = 5_000;
/** How long startup may take (first generation published and served through nginx). */
const START_TIMEOUT_MS = 120_000;

/** What `lpa cluster` was asked for (cli.ts reads NODES, PG_URL, PORT, HOST, DATA_DIR once). */
export interface ClusterOptions {
  /** API nodes to start (≥ 1). */
  nodes: number;
  /** nginx's port on `host`. */
  port: number;
  host: string;
  /** The trial's folder; default `data/cluster-<port>`. Emptied at start (refused when it holds anything but an earlier trial). */
  dataDir?: string;
  /** An existing PostgreSQL to use instead of a local one under `dataDir/pg` (not started or stopped here). */
  pgUrl?: string;
}

/** The file that names a folder as a cluster trial's: kept when the trial stops, so the next trial may empty the folder and start again. */
export const CLUSTER_TRIAL_MARK = 'cluster-trial';
/** The running trial's pid, removed when it stops. */
export const CLUSTER_PID_FILE = 'cluster.pid';

/**
 * Take the trial's folder: refuse (DemoError) when another trial (its `cluster.pid`) is running on
 * it, or when it is not empty and not a trial's folder (neither its mark nor a pid file: never
 * delete an archive); else empty it, make it enterable by the `postgres` user (0755), and write the
 * mark and our pid. A trial stopped (Ctrl-C, SIGTERM) or killed leaves its folder with the mark, so
 * `npm run cluster` starts again on it.
 */
export function claimClusterDir(dir: string, isRunning: (pid: number) => boolean = running): void {
  const pidFile = join(dir, CLUSTER_PID_FILE);
  if (existsSync(pidFile)) {
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isRunning(pid)) throw new DemoError(`another cluster trial (pid ${pid}) is using ${dir}: stop it first`);
  } else if (existsSync(dir) && readdirSync(dir).length > 0 && !existsSync(join(dir, CLUSTER_TRIAL_MARK))) {
    throw new DemoError(`${dir} is not empty and is not a cluster trial's folder (no ${CLUSTER_TRIAL_MARK} file): choose an empty DATA_DIR, or remove this folder if a trial of an earlier version left it`);
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o755);
  writeFileSync(join(dir, CLUSTER_TRIAL_MARK), 'This folder is a trial of `lpa cluster` (npm run cluster): the next trial empties it.\n');
  writeFileSync(pidFile, `${process.pid}\n`);
}

/** Wait for `proc`'s exit (at once when it has exited). */
function exited(proc: ChildProcess): Promise<void> {
  return proc.exitCode !== null || proc.signalCode !== null ? Promise.resolve() : new Promise((r) => proc.once('exit', () => r()));
}

/**
 * `npm run cluster` (`lpa cluster`): the cluster mode of docs/scaling.md on one machine, for trials
 * and tests. Starts, in order: a PostgreSQL under `DATA_DIR/pg` (or uses `pgUrl`), the replay of the
 * demo's chain (devchain; as `npm run demo`), the collector over it publishing a generation of the
 * public database every 5 s, `nodes` API nodes (the built server, sharing `DATA_DIR/nodes` on this machine,
 * `PRIVATE_DB_URL` and `API_GENERATIONS_DIR` = the collector's `generations/`), and nginx in front
 * (the configuration of `lpa cluster-config`) on `host:port`. Resolves once the first generation is
 * served through nginx, after printing the base URL and an API key; runs until SIGINT or SIGTERM,
 * then stops everything it started (nodes, nginx, collector, replay, PostgreSQL) and waits for them.
 *
 * Errors (before anything starts): DemoError when the port is in use or the folder is taken;
 * PostgresError / NginxError naming the Debian package (`postgresql`, `nginx-light`) when a binary
 * is missing. A start that fails later stops what had started and rethrows.
 */
export async function runCluster(opts: ClusterOptions): Promise<void> {
  const log = createLogger(process.env.LOG_LEVEL === 'debug' ? 'debug' : 'info', 'cluster', { format: process.env.LOG_FORMAT === 'json' || process.env.LOG_FORMAT === 'pretty' ? process.env.LOG_FORMAT : 'auto' });
  if (!Number.isInteger(opts.nodes) || opts.nodes < 1) throw new DemoError(`NODES must be a whole number ≥ 1 (got ${opts.nodes})`);
  if (opts.pgUrl === undefined) requirePostgres();
  requireNginx();
  await assertPortFree(opts.host, opts.port);
  const dir = resolve(opts.dataDir ?? join(ROOT, `data/cluster-${opts.port}`));
  claimClusterDir(dir);

  const stops: (() => Promise<void> | void)[] = []; // run in reverse order
  const ac = new AbortController();
  let stopping = false;
  const stopAll = async () => {
    stopping = true;
    ac.abort();
    for (const stop of stops.reverse()) {
      try {
        await stop();
      } catch (e) {
        log.error({ err: e instanceof Error ? e.message : String(e) }, 'stopping a part of the cluster failed');
      }
    }
    rmSync(join(dir, CLUSTER_PID_FILE), { force: true });
  };
  // SIGINT/SIGTERM at any time: abort (startup stops waiting), then stop everything started
  const onSignal = () => ac.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const aborted = () => ac.signal.aborted;

  try {
    let pg: LocalPostgres | null = null;
    if (opts.pgUrl === undefined) {
      pg = startPostgres({ dir: join(dir, 'pg') });
      stops.push(() => pg!.stop());
    }
    const pgUrl = opts.pgUrl ?? pg!.url;
    const keySecret = process.env.KEY_SECRET && process.env.KEY_SECRET.length >= 32 ? process.env.KEY_SECRET : randomBytes(32).toString('hex');

    const { chain, truth } = demoChain(join(dir, 'chain'));
    const programSlots = [...new Set(chain.transactions.filter((t) => t.accountKeys.includes(PUMP_PROGRAM_ID)).map((t) => t.slot))].sort((a, b) => a - b);
    const at = (share: number) => programSlots[Math.min(programSlots.length - 1, Math.floor(share * programSlots.length))]!;
    const firstWatched = at(BEFORE_COVERAGE);
    const replay = await startReplayRpc({ chain, live: true, speed: 1, startSlot: firstWatched });
    stops.push(() => replay.close());

    const base = `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${opts.port}`;
    const config = loadConfig({
      ...process.env,
      SOLANA_RPC_URL: replay.url,
      SOLANA_WS_URL: replay.wsUrl,
      DATA_DIR: join(dir, 'collector'),
      PUBLIC_BASE_URL: base,
      HOST: '127.0.0.1',
      DEMO: 'true',
      COLLECT_START: 'latest',
      GENERATION_INTERVAL_MS: String(CLUSTER_GENERATION_INTERVAL_MS),
      PRIVATE_DB_URL: pgUrl,
      KEY_SECRET: keySecret,
      TRUSTED_PROXIES: '127.0.0.1',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    });
    const privateState = openPrivateState(config); // creates the schema: nodes then find it ready
    const { key } = await new KeyService(privateState, keySecret).create('cluster trial');
    await privateState.close();

    const collecting = runCollect(config, { once: false }, ac.signal).catch((e: unknown) => {
      if (!stopping) log.error({ err: String(e) }, 'cluster collector stopped');
    });
    stops.push(async () => {
      ac.abort();
      await collecting;
    });
    if (!(await waitFor(() => aborted() || coverageStarted(config), 60_000))) throw new DemoError('the collector did not start reading the replay within 60 s');
    replay.advanceTo(at(AT_START));
    const lastSlot = Math.max(...chain.transactions.map((t) => t.slot));
    const live = landLive(replay, programSlots, at(AT_START), lastSlot, ac.signal);
    stops.push(() => live);

    // the nodes share one DATA_DIR on this machine: a record one of them rebuilds (written to its
    // public.db) is seen by all, and the shared queue in PostgreSQL runs each rebuild once
    const nodes: { port: number; proc: ChildProcess }[] = [];
    for (let i = 1; i <= opts.nodes; i++) {
      const port = await freePort();
      const proc = startServer(config, { DATA_DIR: join(dir, 'nodes'), PORT: String(port), API_GENERATIONS_DIR: config.generationsDir });
      nodes.push({ port, proc });
      proc.once('exit', (code, signal) => {
        if (!stopping) log.error({ node: i, port, code, signal }, `API node ${i} exited; nginx sends its requests to the others`);
      });
      stops.push(async () => {
        if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
        await exited(proc);
      });
    }
    const nginx: RunningNginx = await startNginx({ siteDir: config.siteDir, nodes: nodes.map((n) => `127.0.0.1:${n.port}`), port: opts.port, runDir: join(dir, 'nginx') });
    stops.push(() => nginx.stop());

    // ready: a generation is served through nginx (before the first one the nodes answer 503)
    const up = await waitFor(async () => {
      if (aborted()) return true;
      const res = await fetch(`${base}/api/v1/status`).catch(() => null);
      await res?.body?.cancel();
      return res?.status === 200 && res.headers.has('x-archive-generation');
    }, START_TIMEOUT_MS);
    if (!up) throw new DemoError(`the cluster did not serve a generation through nginx at ${base} within ${START_TIMEOUT_MS / 1000} s; see the messages above`);

    if (!aborted()) {
      const ex = examples(truth, firstWatched);
      const rebuild = rebuildExample(truth, firstWatched);
      process.stdout.write(
        [
          '',
          `Cluster trial (demo data) at ${base}`,
          `  nginx:       ${base} (static tier: pages from ${config.siteDir}; /api/ and the rest to the nodes)`,
          `  API nodes:   ${nodes.map((n) => `http://127.0.0.1:${n.port}`).join(' ')}`,
          `  PostgreSQL:  ${opts.pgUrl === undefined ? `local, under ${join(dir, 'pg')}` : 'PG_URL'} (keys, quota counts, rebuild jobs)`,
          `  collector:   ${config.dataDir} (a generation every ${CLUSTER_GENERATION_INTERVAL_MS / 1000} s into ${config.generationsDir})`,
          `  replay:      ${replay.url}`,
          `  status:      ${base}/api/v1/status`,
          ...ex.map((e) => `  ${e.label}: ${base}/t/${e.mint}.html`),
          `  a record:    curl -i -H "Authorization: Bearer ${key}" ${base}/api/v1/token/${ex[0]?.mint ?? ''}`,
          ...(rebuild ? [`  rebuilt on request (once, whichever node is asked: 202, then 200): curl -i -H "Authorization: Bearer ${key}" ${base}/api/v1/token/${rebuild}`] : []),
          'Cluster API key (shown once):',
          key,
          '',
        ].join('\n'),
      );
    }
    if (!aborted()) await new Promise<void>((r) => ac.signal.addEventListener('abort', () => r(), { once: true }));
  } finally {
    await stopAll();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  log.info('cluster stopped');
}
