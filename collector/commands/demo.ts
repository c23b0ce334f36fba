import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { join, resolve } from 'node:path';
import { loadConfig, type Config } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { openPrivateState } from '../../src/db/open-private-state.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { KeyService, loadKeySecret } from '../../src/access/keys.ts';
import { startReplayRpc, type ReplayRpc } from '../../devchain/replay/server.ts';
import { loadChain, type LoadedChain } from '../../devchain/replay/load-chain.ts';
import { writeChain } from '../../devchain/simulate/write-chain.ts';
import type { Truth } from '../../devchain/simulate/truth.ts';
import { PUMP_PROGRAM_ID } from '../../src/core/programs.ts';
import { runCollect } from './collect.ts';
import { running } from '../../src/ingest/write-site.ts';
import { startServer } from './start.ts';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
/** The chain folder of real mainnet fixtures shipped with the project. */
export const DEMO_CHAIN = resolve(ROOT, 'tests/fixtures/chains/mainnet');
/** The demo's simulated chain: launches of every kind and era (the 2026-10 era included), fixed seed. */
export const DEMO_LAUNCHES = 200;
export const DEMO_SEED = 20261125;
/** Share of the program's slots landed before the collector starts: their launches are rebuilt on request, not watched. */
export const BEFORE_COVERAGE = 0.1;
/** Share of the program's slots landed at once after the collector starts (a fast catch-up); the rest arrive live. */
export const AT_START = 0.8;
/** The live part lands in this many steps, one every DEMO_STEP_MS: launches keep arriving for about 3 minutes. */
const LIVE_STEPS = 60;
const DEMO_STEP_MS = 3_000;

/** A demo that cannot start (port in use, another demo on its data directory): the message says what to do. */
export class DemoError extends Error {
  override name = 'DemoError';
}

/**
 * Whether `host:port` can be listened on now. Errors: rejects with DemoError naming the port when
 * it is in use (or not allowed), so nothing else is touched.
 */
export async function assertPortFree(host: string, port: number, flag = '--port'): Promise<void> {
  await new Promise<void>((ok, fail) => {
    const probe = createServer();
    probe.once('error', (e: NodeJS.ErrnoException) =>
      fail(new DemoError(e.code === 'EADDRINUSE' ? `port ${port} on ${host} is in use (another demo or server?): stop it, or run the demo with ${flag} N` : `cannot listen on ${host}:${port}: ${e.message}`)),
    );
    probe.listen(port, host, () => probe.close(() => ok()));
  });
}

/**
 * Take the demo data directory `dir` for this process: refuse (DemoError) when its `demo.pid`
 * names a process still running, else empty it and write our pid. Two demos never share a directory.
 */
export function claimDemoDir(dir: string): void {
  const pidFile = join(dir, 'demo.pid');
  if (existsSync(pidFile)) {
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && running(pid)) throw new DemoError(`another demo (pid ${pid}) is using ${dir}: stop it first`);
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(pidFile, `${process.pid}\n`);
}

/** Two loaded chains as one (signatures are distinct: simulated and real). */
export function mergeChains(a: LoadedChain, b: LoadedChain): LoadedChain {
  return { dir: null, transactions: [...a.transactions, ...b.transactions], accounts: [...a.accounts, ...b.accounts], slot: null, blockTimes: new Map([...a.blockTimes, ...b.blockTimes]) };
}

/** The demo's chain: the simulated one (written under `dir`, with its truth) and the real mainnet fixtures. */
export function demoChain(dir: string): { chain: LoadedChain; truth: Truth } {
  const sim = writeChain({ launches: DEMO_LAUNCHES, seed: DEMO_SEED, out: dir });
  return { chain: mergeChains(loadChain(dir), loadChain(DEMO_CHAIN)), truth: sim.truth };
}

/** Example mints of the demo for the start message: one per kind of answer it can show. */
export function examples(truth: Truth, firstWatchedSlot: number): { label: string; mint: string }[] {
  const recs = Object.entries(truth.records).sort((x, y) => x[1].creationSlot - y[1].creationSlot);
  const watched = recs.filter(([, r]) => r.creationSlot > firstWatchedSlot);
  const pick = (label: string, ok: (r: Truth['records'][string]) => boolean, from = watched) => {
    const hit = from.find(([, r]) => ok(r));
    return hit ? [{ label, mint: hit[0] }] : [];
  };
  return [
    ...pick('FINDINGS', (r) => r.findingClass === 'FINDINGS'),
    ...pick('NOTE', (r) => r.findingClass === 'NOTE'),
    ...pick('NO_MARKERS', (r) => r.findingClass === 'NO_MARKERS'),
    ...pick('graduated', (r) => r.graduated),
  ];
}

/** A launch created before the demo's collector started: not held, rebuilt on request (202, then 200). */
export function rebuildExample(truth: Truth, firstWatchedSlot: number): string | undefined {
  return Object.entries(truth.records).find(([, r]) => r.creationSlot <= firstWatchedSlot)?.[0];
}

/**
 * `npm run demo`: the whole archive offline, as a showcase. A simulated chain of about 200 launches
 * of every kind and era plus the real mainnet fixtures is replayed live: the first tenth lands
 * before the collector starts (those launches are rebuilt on request, 202 then 200), most of the
 * rest at once, and the last fifth over about three minutes, so launches keep arriving. The
 * long-running collector and the server both read the replay (SOLANA_RPC_URL), the data directory
 * is `data/demo-<port>`, and every page and status says it is demo data (DEMO=true).
 *
 * Errors: a port in use (the server's, or `rpcPort` for the replayed chain: default any free port)
 * or another demo on the same directory stops it with DemoError before anything is deleted.
 */
export async function runDemo(opts: { port?: number; rpcPort?: number }): Promise<void> {
  const log = createLogger('info', 'demo', { format: process.env.LOG_FORMAT === 'json' || process.env.LOG_FORMAT === 'pretty' ? process.env.LOG_FORMAT : 'auto' });
  // HOST and PORT as the archive's configuration reads them (an invalid one is a ConfigError naming it, before anything starts)
  const settings = loadConfig({ ...process.env });
  const host = settings.HOST;
  const port = opts.port ?? settings.PORT;
  await assertPortFree(host, port);
  if (opts.rpcPort !== undefined && opts.rpcPort !== 0) await assertPortFree('127.0.0.1', opts.rpcPort, '--rpc-port');
  const dataDir = resolve(ROOT, `data/demo-${port}`);
  claimDemoDir(dataDir);
  const { chain, truth } = demoChain(join(dataDir, 'chain'));
  const programSlots = [...new Set(chain.transactions.filter((t) => t.accountKeys.includes(PUMP_PROGRAM_ID)).map((t) => t.slot))].sort((a, b) => a - b);
  const at = (share: number) => programSlots[Math.min(programSlots.length - 1, Math.floor(share * programSlots.length))]!;
  const firstWatched = at(BEFORE_COVERAGE);
  const replay = await startReplayRpc({ chain, live: true, speed: 1, startSlot: firstWatched, port: opts.rpcPort });
  const config = loadConfig({
    ...process.env,
    SOLANA_RPC_URL: replay.url,
    SOLANA_WS_URL: replay.wsUrl,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: host,
    DEMO: 'true',
    COLLECT_START: 'latest',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    // the buyout wallets' afterwards read every 30 s rather than every 10 min, so the demo's few
    // minutes show what they did (the wallet pages' Afterwards column)
    AFTERWARDS_SWEEP_MS: process.env.AFTERWARDS_SWEEP_MS ?? '30000',
  });
  const privateState = openPrivateState(config);
  const { id: keyId, key } = await new KeyService(privateState, loadKeySecret(config)).create('demo');
  // the demo key may open the creation feed, so a newcomer sees it move (on a real archive the
  // operator grants it: `lpa keys grant --feed ID`)
  await privateState.transaction((tx) => tx.setFeed(keyId, Date.now()));
  await privateState.close();

  const ac = new AbortController();
  const collecting = runCollect(config, { once: false }, ac.signal).catch((e: unknown) => log.error({ err: String(e) }, 'demo collector stopped'));
  await waitFor(() => coverageStarted(config), 60_000);
  const server = startServer(config);
  let serverExit: number | null = null;
  let stopping = false;
  server.once('exit', (code) => {
    if (stopping) return; // our own SIGTERM below: a normal stop
    serverExit = code ?? 1;
    ac.abort();
  });
  replay.advanceTo(at(AT_START));
  const lastSlot = Math.max(...chain.transactions.map((t) => t.slot));
  const live = landLive(replay, programSlots, at(AT_START), lastSlot, ac.signal);
  const up = await waitFor(async () => serverExit !== null || (await fetch(`${config.baseUrl}/api/v1/status`).then((r) => r.ok, () => false)), 60_000);
  if (serverExit !== null || !up) {
    ac.abort();
    await collecting;
    await replay.close();
    throw new DemoError(`the demo server did not start on ${config.baseUrl} (exit code ${serverExit ?? 'none'}); see its messages above`);
  }
  const ex = examples(truth, firstWatched);
  const rebuild = rebuildExample(truth, firstWatched);
  const mainnetMint = 'CWiTGbCiDd8BKtNYNE2boT9fJGFG2MU53Uf6HQk4pump';
  process.stdout.write(
    [
      '',
      `Demo archive (demo data: a simulated chain and the real mainnet fixtures, replayed offline) at ${config.baseUrl}`,
      `  data:     ${dataDir}`,
      `  replay:   ${replay.url} (the collector and the server read it; launches keep arriving for about ${Math.round((LIVE_STEPS * DEMO_STEP_MS) / 60_000)} minutes)`,
      `  home:     ${config.baseUrl}/ (latest launches, graduated and FINDINGS lists, moving as launches arrive; the search box takes a mint, creator, name or symbol)`,
      `  status:   ${config.baseUrl}/api/v1/status (in words: ${config.baseUrl}/status.html)`,
      ...ex.map((e) => `  ${e.label}: ${config.baseUrl}/t/${e.mint}.html`),
      `  real mainnet fixture (UNKNOWN: only a few of its transactions are held): ${config.baseUrl}/t/${mainnetMint}.html`,
      `            (the collector's warning "curve accounts disagree with the held history" names it and another partial fixture: expected, that is how such a record becomes UNKNOWN)`,
      `  a record: curl -H "Authorization: Bearer ${key}" ${config.baseUrl}/api/v1/token/${ex[0]?.mint ?? mainnetMint}`,
      ...(rebuild ? [`  rebuilt on request (created before the collector started: 202, then 200): curl -H "Authorization: Bearer ${key}" ${config.baseUrl}/api/v1/token/${rebuild}`] : []),
      `  not a curve launch (404): curl -H "Authorization: Bearer ${key}" ${config.baseUrl}/api/v1/token/So11111111111111111111111111111111111111112`,
      `  the creation feed (server-sent events, newest changes as they commit; Ctrl-C to stop): curl -N -H "Authorization: Bearer ${key}" "${config.baseUrl}/api/v1/stream?after=0"`,
      `Demo API key (shown once):`,
      key,
      '',
    ].join('\n'),
  );
  await new Promise<void>((resolveStop) => {
    const stop = () => resolveStop();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    ac.signal.addEventListener('abort', stop, { once: true });
  });
  stopping = true;
  ac.abort();
  if (server.exitCode === null) server.kill('SIGTERM');
  await Promise.all([collecting, live]);
  await replay.close();
  rmSync(join(dataDir, 'demo.pid'), { force: true });
  if (serverExit !== null && serverExit !== 0) {
    log.error({ code: serverExit }, 'demo server exited');
    process.exitCode = serverExit;
  } else log.info('demo stopped');
}

/** Whether the demo's collector has made its first chain read (coverage has begun). */
export function coverageStarted(config: Pick<Config, 'publicDbPath'>): boolean {
  if (!existsSync(config.publicDbPath)) return false;
  const store = new PublicStore(config.publicDbPath);
  try {
    return store.getMeta('coverage_from_ms') !== undefined;
  } finally {
    store.close();
  }
}

/** Land the rest of the program's slots after `from` in LIVE_STEPS steps DEMO_STEP_MS apart, then the chain's end. */
export async function landLive(replay: ReplayRpc, programSlots: number[], from: number, lastSlot: number, signal: AbortSignal): Promise<void> {
  const rest = programSlots.filter((s) => s > from);
  for (let i = 1; i <= LIVE_STEPS && !signal.aborted; i++) {
    await sleep(DEMO_STEP_MS, signal);
    const target = rest[Math.min(rest.length - 1, Math.ceil((i * rest.length) / LIVE_STEPS) - 1)];
    if (target !== undefined && !signal.aborted) replay.advanceTo(target);
  }
  if (!signal.aborted) replay.advanceTo(lastSlot); // pool trades after the program's last transaction
}

/** Wait `ms`, or less when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((r) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      r();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Poll `ok` every 200 ms until it holds (true) or `timeoutMs` passes (false). */
export async function waitFor(ok: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await ok()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}
