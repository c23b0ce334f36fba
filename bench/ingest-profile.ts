/**
 * One catch-up ingest as bench/ingest.ts runs it (500 launches, seed 4242; the replay RPC in its
 * own process), repeated MICRO_RUNS times (default 2) into new data directories, for a CPU profile
 * of the collector's process: `node --cpu-prof --cpu-prof-dir=DIR --import tsx bench/ingest-profile.ts`.
 * Prints CPU µs per transaction of each run (from the start of `collect` to its last batch commit,
 * as the bench's figure); MICRO_WINDOWS=FILE writes those windows (monotonic µs, the clock of a
 * .cpuprofile's timestamps) to select the profile's samples; MICRO_CHAIN=DIR writes the chain there once
 * and reuses it; MICRO_MODE=live runs the bench's live-ingest figure instead (bench/ingest.ts
 * liveIngest). Not part of `npm run bench`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import { PublicStore } from '../src/db/public-store.ts';
import { createArchiveRpc } from '../src/chain/rpc.ts';
import { collect } from '../collector/collect.ts';
import { writeChain } from '../devchain/simulate/write-chain.ts';
import { freePort } from '../tests/helpers/net.ts';
import { PUMP_PROGRAM_ID } from '../src/core/programs.ts';
import { liveIngest } from './ingest.ts';

const ROOT = resolve(import.meta.dirname, '..');
const RUNS = Number(process.env.MICRO_RUNS ?? 2);

const windows: [number, number][] = [];
const tmp = mkdtempSync(join(tmpdir(), 'lpa-ingest-profile-'));
let replay: ChildProcess | null = null;
try {
  // MICRO_CHAIN=DIR: the chain is written there once and reused by later runs (a profile then holds
  // only the collector's work, not the simulator's)
  const chainDir = process.env.MICRO_CHAIN ?? join(tmp, 'chain');
  if (!existsSync(join(chainDir, 'transactions.ndjson'))) writeChain({ launches: Number(process.env.BENCH_INGEST_LAUNCHES ?? 500), seed: 4242, out: chainDir });
  const port = await freePort();
  replay = spawn(process.execPath, [join(ROOT, 'bin/lpa.mjs'), 'replay-rpc', '--chain', chainDir, '--port', String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((ok, fail) => {
    replay!.stdout!.on('data', (d: Buffer) => (String(d).includes('replay RPC on') ? ok() : undefined));
    replay!.once('exit', (c) => fail(new Error(`replay-rpc exited ${c}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  if (process.env.MICRO_MODE === 'live') {
    // the bench's live figure instead (bench/ingest.ts liveIngest: its own live replay process)
    const programSlots = readFileSync(join(chainDir, 'transactions.ndjson'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { slot: number; transaction: { message: { accountKeys: string[] } } })
      .filter((t) => t.transaction.message.accountKeys.includes(PUMP_PROGRAM_ID))
      .map((t) => t.slot)
      .sort((a, b) => a - b);
    for (let r = 0; r < RUNS; r++) {
      const c0 = process.cpuUsage();
      const live = await liveIngest(chainDir, join(tmp, `live-${r}`), programSlots);
      const c1 = process.cpuUsage();
      process.stdout.write(`run ${r}: ${live.transactions} transactions, ${(1e6 / live.cpu).toFixed(1)} µs CPU/tx live (${((c1.user - c0.user + c1.system - c0.system) / live.transactions).toFixed(1)} µs with the harness), ${live.fromLogs} from logs\n`);
    }
  }
  for (let r = 0; r < (process.env.MICRO_MODE === 'live' ? 0 : RUNS); r++) {
    const config = loadConfig({ DATA_DIR: join(tmp, `ingest-${r}`), SOLANA_RPC_URL: url, COLLECT_START: 'earliest', LOG_LEVEL: 'silent' });
    const store = new PublicStore(config.publicDbPath);
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint() / 1000n;
    let atLast = c0;
    let tLast = t0;
    await collect({ config, store, rpc: createArchiveRpc({ url }), log: createLogger('silent') }, { once: true, onBatch: () => ((atLast = process.cpuUsage()), (tLast = process.hrtime.bigint() / 1000n)) });
    // the window of the bench's figure on the monotonic clock (µs), which a .cpuprofile's timestamps use
    windows.push([Number(t0), Number(tLast)]);
    const n = (store.db.prepare('SELECT COUNT(DISTINCT signature) AS n FROM launch_tx').get() as { n: number }).n;
    store.close();
    process.stdout.write(`run ${r}: ${n} transactions, ${((atLast.user - c0.user + atLast.system - c0.system) / n).toFixed(1)} µs CPU/tx to the last commit\n`);
  }
  if (process.env.MICRO_WINDOWS) writeFileSync(process.env.MICRO_WINDOWS, JSON.stringify(windows));
} finally {
  replay?.kill('SIGKILL');
  // MICRO_KEEP=1 keeps the chain and data directories (printed) for experiments on the databases
  if (process.env.MICRO_KEEP) process.stderr.write(`kept ${tmp}\n`);
  else rmSync(tmp, { recursive: true, force: true });
}
