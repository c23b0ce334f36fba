/**
 * Collector figures for `npm run bench` (issue 3): sustained ingest — program transactions fetched
 * from the replay RPC, decoded, built into records and committed, per wall second and per CPU
 * second of the collector process (one core: Node runs the collector on one thread) — against a
 * baseline measured in the same run: fetching the same transactions through the same RPC client
 * and doing nothing else; and sustained live ingest, the long-running collector fed by its WebSocket
 * watch (`liveIngest`). Then the lag from a creation transaction landing on the live replay to
 * its record being in the database the server reads (p50/p99), with the long-running collector
 * woken by its WebSocket watch. The replay RPC runs in its own process. Returns a markdown section.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import PQueue from 'p-queue';
import Database from 'better-sqlite3';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import { PublicStore } from '../src/db/public-store.ts';
import { createArchiveRpc } from '../src/chain/rpc.ts';
import { createTransactionReader } from '../src/chain/transaction-reader.ts';
import { collect } from '../collector/collect.ts';
import { writeChain } from '../devchain/simulate/write-chain.ts';
import { startReplayRpc } from '../devchain/replay/server.ts';
import { PUMP_PROGRAM_ID } from '../src/core/programs.ts';
import { decodeTransaction } from '../src/core/decode/index.ts';
import { median } from './load.ts';
import { freePort, sleep } from '../tests/helpers/net.ts';

const ROOT = resolve(import.meta.dirname, '..');
const LPA = join(ROOT, 'bin/lpa.mjs');

/** Mainnet pump.fun's peak, transactions per second (issue 3: "a few hundred"); the target is 20 × this. */
const MAINNET_PEAK_TPS = 300;

async function replayProcess(chainDir: string, port: number): Promise<ChildProcess> {
  const p = spawn(process.execPath, [LPA, 'replay-rpc', '--chain', chainDir, '--port', String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((ok, fail) => {
    p.stdout!.on('data', (d: Buffer) => (String(d).includes('replay RPC on') ? ok() : undefined));
    p.once('exit', (c) => fail(new Error(`replay-rpc exited ${c}`)));
  });
  return p;
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

/** One round of the live-ingest figure. */
export interface LiveIngest {
  /** program transactions committed */
  transactions: number;
  /** of them, taken from their notifications' logs */
  fromLogs: number;
  /** transactions per CPU second of the process / of its main thread, from the first slot landed to the last commit's pages written */
  cpu: number;
  main: number;
}

/** Program transactions landed per step of the live figure: one second of a 300 tx/s mainnet peak. */
const LIVE_STEP_TRANSACTIONS = MAINNET_PEAK_TPS;

/**
 * Sustained live ingest: the long-running collector (in this process, woken only by its WebSocket
 * watch; poll interval 10 min) against a live replay in its own process. The chain lands in steps
 * of {@link LIVE_STEP_TRANSACTIONS} program transactions, each as soon as the collector has
 * committed the one before, so the collector never waits on the chain: CPU per transaction
 * committed, from the first slot landed to the pages and documents of the last commit written —
 * notifications, signatures, transactions taken from logs or fetched whole, decode, build and
 * classify, funder lookups, commits, heartbeats, and the pages and documents (written at most every
 * LIVE_SITE_WRITE_MS, or SITE_WRITE_SPACING × the last pass's time when that is longer).
 */
export async function liveIngest(chainDir: string, dataDir: string, programSlots: number[]): Promise<LiveIngest> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/live-replay.ts'), chainDir], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = <T>(pick: (m: Record<string, unknown>) => T | undefined) =>
    new Promise<T>((ok, fail) => {
      const on = (m: Record<string, unknown>) => {
        const v = pick(m);
        if (v !== undefined) {
          child.off('message', on);
          child.off('exit', onExit);
          ok(v);
        }
      };
      const onExit = (c: number | null) => fail(new Error(`live replay exited ${c}`));
      child.on('message', on);
      child.once('exit', onExit);
    });
  const ac = new AbortController();
  try {
    const { url, wsUrl } = await next((m) => (typeof m.wsUrl === 'string' ? (m as { url: string; wsUrl: string }) : undefined));
    const config = loadConfig({ DATA_DIR: dataDir, SOLANA_RPC_URL: url, SOLANA_WS_URL: wsUrl, COLLECT_START: 'earliest', POLL_INTERVAL_MS: '600000', LOG_LEVEL: 'silent' });
    const store = new PublicStore(config.publicDbPath);
    let cursorSlot = 0;
    let transactions = 0;
    let fromLogs = 0;
    // the harness waits on the collector's own callbacks, not by polling: a timer loop in this
    // process would be measured as the collector's CPU
    let reached: { slot: number; resolve: () => void } | null = null;
    const running = collect({ config, store, rpc: createArchiveRpc({ url }), log: createLogger('silent') }, {
      once: false,
      wsUrl,
      signal: ac.signal,
      onBatch: (b) => {
        cursorSlot = b.cursorSlot ?? cursorSlot;
        transactions += b.transactions;
        fromLogs += b.fromLogs;
        if (reached && cursorSlot >= reached.slot) {
          reached.resolve();
          reached = null;
        }
      },
    });
    const committedTo = (slot: number) =>
      new Promise<void>((ok, fail) => {
        if (cursorSlot >= slot) return ok();
        const t = setTimeout(() => fail(new Error(`live collector did not reach slot ${slot} within 60 s`)), 60_000);
        reached = { slot, resolve: () => (clearTimeout(t), ok()) };
      });
    // subscribed, and the first (empty) catch-up and its periodic jobs done
    for (let i = 0; ; i++) {
      child.send({ stats: true });
      const calls = await next((m) => (m.calls ? (m.calls as Record<string, number>) : undefined));
      if ((calls.logsSubscribe ?? 0) > 0 && (calls.getSlot ?? 0) >= 2) break;
      if (i > 2000) throw new Error('the collector did not subscribe');
      await sleep(5);
    }
    await sleep(500);
    const cpu0 = process.cpuUsage();
    const main0 = process.threadCpuUsage();
    for (let k = LIVE_STEP_TRANSACTIONS; ; k += LIVE_STEP_TRANSACTIONS) {
      const target = programSlots[Math.min(k, programSlots.length) - 1]!;
      child.send({ advanceTo: target });
      await next((m) => (m.landed === target ? true : undefined));
      await committedTo(target);
      if (k >= programSlots.length) break;
    }
    // and the pages and documents of the last commits (written at most every LIVE_SITE_WRITE_MS or
    // SITE_WRITE_SPACING × the last pass);
    // polled every 50 ms: the figure's end is the CPU used when they are found written, and idle
    // waiting between polls uses none
    for (let t0 = performance.now(); store.hasPendingPages(); ) {
      if (performance.now() - t0 > 60_000) throw new Error('live collector did not write its pages within 60 s');
      await sleep(50);
    }
    const end = { cpu: process.cpuUsage(), main: process.threadCpuUsage() };
    ac.abort();
    await running;
    store.close();
    return {
      transactions,
      fromLogs,
      cpu: transactions / cpuSecondsBetween(cpu0, end.cpu),
      main: transactions / cpuSecondsBetween(main0, end.main),
    };
  } finally {
    ac.abort();
    child.kill('SIGKILL');
  }
}

/** CPU seconds from usage `a` to usage `b` (user + system). */
const cpuSecondsBetween = (a: NodeJS.CpuUsage, b: NodeJS.CpuUsage) => (b.user - a.user + b.system - a.system) / 1e6;

export async function benchIngest(): Promise<string> {
  const tmp = mkdtempSync(join(tmpdir(), 'lpa-bench-ingest-'));
  const procs: ChildProcess[] = [];
  try {
    const chainDir = join(tmp, 'chain');
    const chain = writeChain({ launches: Number(process.env.BENCH_INGEST_LAUNCHES ?? 500), seed: 4242, out: chainDir });
    const programTxs = readFileSync(join(chainDir, 'transactions.ndjson'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { slot: number; transaction: { signatures: string[]; message: { accountKeys: string[] } } })
      .filter((t) => t.transaction.message.accountKeys.includes(PUMP_PROGRAM_ID));
    const programSigs = programTxs.map((t) => t.transaction.signatures[0]!);
    const programSlots = programTxs.map((t) => t.slot).sort((a, b) => a - b);
    const port = await freePort();
    procs.push(await replayProcess(chainDir, port));
    const url = `http://127.0.0.1:${port}`;

    const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
    // Ingest (issue 3: "transactions decoded and committed") runs from the start of `collect` to its
    // last batch commit: signatures, fetch, decode, build and classify, funder lookups, commit. What the
    // run does after that commit — the pages and documents of every changed record, the periodic jobs
    // and the bulk downloads — is measured on its own: in a long run they are paced by their intervals
    // (SITE_WRITE_INTERVAL_MS, DOWNLOADS_INTERVAL_MS, …), not by the transactions ingested.
    const ingest: { wall: number; cpu: number; main: number; wholeCpu: number; tailCpuMs: number; records: number }[] = [];
    const liveRounds: LiveIngest[] = [];
    const baseline: number[] = [];
    const fetchCpu: number[] = [];
    const fetchDecodeCpu: number[] = [];
    /** main-thread CPU inside decodeTransaction per transaction (µs), measured around the calls themselves */
    const decodeUs: number[] = [];
    for (let r = 0; r < rounds; r++) {
      // Baseline: the same getTransaction calls, same batched reader, batch size and concurrency, nothing else.
      // Then the floor under ingest: the same reads, each answer decoded, nothing kept (CPU per transaction).
      for (const decode of [false, true]) {
        const defaults = loadConfig({ DATA_DIR: tmp });
        const reader = createTransactionReader({ url, batchSize: defaults.RPC_BATCH_SIZE });
        const q = new PQueue({ concurrency: defaults.RPC_CONCURRENCY });
        const chunks: string[][] = [];
        for (let i = 0; i < programSigs.length; i += defaults.RPC_BATCH_SIZE) chunks.push(programSigs.slice(i, i + defaults.RPC_BATCH_SIZE));
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        let decodingUs = 0;
        await Promise.all(chunks.map((c) => q.add(async () => {
          const answers = await reader.getTransactions(c);
          if (!decode) return;
          const d0 = process.threadCpuUsage();
          for (const a of answers) if (a && !(a instanceof Error)) decodeTransaction(a);
          const d1 = process.threadCpuUsage();
          decodingUs += d1.user - d0.user + d1.system - d0.system;
        })));
        const wall = programSigs.length / ((performance.now() - t0) / 1000);
        const perCpu = programSigs.length / cpuSecondsBetween(c0, process.cpuUsage());
        if (decode) {
          fetchDecodeCpu.push(perCpu);
          decodeUs.push(decodingUs / programSigs.length);
        } else {
          baseline.push(wall);
          fetchCpu.push(perCpu);
        }
      }
      // The collector: fetch, decode, build, commit (plus its funder lookups and account reads).
      {
        const dataDir = join(tmp, `ingest-${r}`);
        const config = loadConfig({ DATA_DIR: dataDir, SOLANA_RPC_URL: url, COLLECT_START: 'earliest', LOG_LEVEL: 'silent' });
        const store = new PublicStore(config.publicDbPath);
        const cpu0 = process.cpuUsage();
        const main0 = process.threadCpuUsage();
        const t0 = performance.now();
        let atLastCommit = { cpu: cpu0, main: main0, wall: t0 };
        const onBatch = () => (atLastCommit = { cpu: process.cpuUsage(), main: process.threadCpuUsage(), wall: performance.now() });
        await collect({ config, store, rpc: createArchiveRpc({ url }), log: createLogger('silent') }, { once: true, onBatch });
        const end = process.cpuUsage();
        const n = (store.db.prepare('SELECT COUNT(DISTINCT signature) AS n FROM launch_tx').get() as { n: number }).n;
        const records = (store.db.prepare('SELECT COUNT(*) AS n FROM launch').get() as { n: number }).n;
        store.close();
        ingest.push({
          wall: n / ((atLastCommit.wall - t0) / 1000),
          cpu: n / cpuSecondsBetween(cpu0, atLastCommit.cpu),
          main: n / cpuSecondsBetween(main0, atLastCommit.main),
          wholeCpu: n / cpuSecondsBetween(cpu0, end),
          tailCpuMs: cpuSecondsBetween(atLastCommit.cpu, end) * 1000,
          records,
        });
      }
      liveRounds.push(await liveIngest(chainDir, join(tmp, `live-${r}`), programSlots));
    }
    const wallTps = median(ingest.map((x) => x.wall));
    const cpuTps = median(ingest.map((x) => x.cpu));
    const mainTps = median(ingest.map((x) => x.main));
    const wholeTps = median(ingest.map((x) => x.wholeCpu));
    const tailMs = median(ingest.map((x) => x.tailCpuMs));
    const records = ingest[0]?.records ?? 0;
    const baseTps = median(baseline);
    const fetchCpuTps = median(fetchCpu);
    const fetchDecodeCpuTps = median(fetchDecodeCpu);
    const decodeUsPerTx = median(decodeUs);
    const liveCpuTps = median(liveRounds.map((x) => x.cpu));
    const liveMainTps = median(liveRounds.map((x) => x.main));
    // each round measures the floor, then catch-up, then live: per-round ratios compare runs minutes apart
    const ingestToFloor = median(ingest.map((x, i) => x.cpu / fetchCpu[i]!));
    const liveToFloor = median(liveRounds.map((x, i) => x.cpu / fetchCpu[i]!));
    const perRound = (xs: number[]) => xs.map((x) => Math.round(x).toLocaleString('en')).join(' / ');
    const liveFromLogs = median(liveRounds.map((x) => x.fromLogs / x.transactions));

    // Lag: live replay in this process (the bench lands slots), the collector as its own long-running process.
    const live = await startReplayRpc({ chainDir, live: true, speed: 1e-6 });
    const lagDir = join(tmp, 'lag');
    const collector = spawn(process.execPath, [LPA, 'collect'], {
      env: { ...process.env, SOLANA_RPC_URL: live.url, SOLANA_WS_URL: live.wsUrl, DATA_DIR: lagDir, COLLECT_START: 'earliest', POLL_INTERVAL_MS: '600000', LOG_LEVEL: 'warn' },
      stdio: 'ignore',
    });
    procs.push(collector);
    const dbPath = join(lagDir, 'public.db');
    let db: Database.Database | null = null;
    for (let i = 0; !db; i++) {
      try {
        const d = new Database(dbPath, { readonly: true, fileMustExist: true });
        if (d.prepare("SELECT value FROM meta WHERE key = 'coverage_from_slot'").get()) db = d;
        else d.close();
      } catch {
        /* not yet created */
      }
      if (!db) await sleep(20);
      if (i > 1000) throw new Error('collector did not start');
    }
    const creations = Object.entries(chain.truth.records).map(([mint, t]) => ({ mint, slot: t.creationSlot })).sort((a, b) => a.slot - b.slot);
    const sample = creations.filter((_, i) => i % Math.max(1, Math.floor(creations.length / 100)) === 0).slice(0, 100);
    const held = db.prepare('SELECT 1 FROM launch WHERE mint = ?');
    const lags: number[] = [];
    for (const c of sample) {
      live.advanceTo(c.slot);
      const t0 = performance.now();
      while (!held.get(c.mint)) {
        if (performance.now() - t0 > 60_000) throw new Error(`record of ${c.mint} not served within 60 s`);
        await sleep(1);
      }
      lags.push(performance.now() - t0);
    }
    db.close();
    collector.kill('SIGTERM');
    await live.close();

    const target = 20 * MAINNET_PEAK_TPS;
    return [
      '## Collector: sustained ingest and lag',
      '',
      `${programSigs.length.toLocaleString('en')} pump transactions of ${Object.keys(chain.truth.records).length} simulated launches, served by \`lpa replay-rpc\` in its own process. ` +
        `\`collect --once\` from the first signature with the default settings. **Ingest** is measured from the start of the run to its last batch commit: signatures, fetch (JSON-RPC batches of RPC_BATCH_SIZE, RPC_CONCURRENCY requests at once), decode, build and classify, funder lookups, commit. ` +
        `What the run does after that commit (pages and documents of the ${records.toLocaleString('en')} changed records, periodic jobs, bulk downloads) is paced by its own intervals in a long run, so it is given apart, and the whole run as well. Median of ${rounds} rounds, alternating with the baseline.`,
      '',
      '| Measure | Transactions/s |',
      '|---|---:|',
      `| Baseline: the same getTransaction calls through the same batched reader, nothing else (per wall second) | ${Math.round(baseTps).toLocaleString('en')} |`,
      `| Floor: the same reads only, per CPU second of the process | ${Math.round(fetchCpuTps).toLocaleString('en')} |`,
      `| Floor: the same reads, each transaction decoded (\`decodeTransaction\`), nothing kept, per CPU second of the process | ${Math.round(fetchDecodeCpuTps).toLocaleString('en')} |`,
      `| Ingest, per wall second | ${Math.round(wallTps).toLocaleString('en')} |`,
      `| Ingest, per CPU second of the process (all its threads: main, GC, JIT, libuv) | ${Math.round(cpuTps).toLocaleString('en')} |`,
      `| Ingest, per CPU second of the main thread (the one core that runs the pipeline) | ${Math.round(mainTps).toLocaleString('en')} |`,
      `| Whole run including the work after the last commit, per CPU second of the process | ${Math.round(wholeTps).toLocaleString('en')} |`,
      `| Live ingest (long-running collector, WebSocket watch), per CPU second of the process | ${Math.round(liveCpuTps).toLocaleString('en')} |`,
      `| Live ingest, per CPU second of the main thread | ${Math.round(liveMainTps).toLocaleString('en')} |`,
      '',
      `**Live ingest**: the long-running collector (in the bench process, woken only by its WebSocket watch) against a live replay in its own process; the chain lands in steps of ${LIVE_STEP_TRANSACTIONS} program transactions (one second of a ${MAINNET_PEAK_TPS} tx/s peak), each as soon as the one before is committed. ` +
        `Measured from the first slot landed to the pages and documents of the last commit written: notifications, signatures, transactions taken from their logs or fetched whole, decode, build, funder lookups, commits, heartbeats, and the pages and documents (written at most once a second, LIVE_SITE_WRITE_MS, and at most a fifth of the time, SITE_WRITE_SPACING). ` +
        `${(liveFromLogs * 100).toFixed(1)} % of the transactions were taken from their notifications' logs without being fetched (methodology "Transactions taken from their logs"); the rest were fetched, and kept in their logs form when they are later curve trades (methodology "One row per transaction, however it was read").`,
      '',
      `Per transaction, in CPU time: reading ${(1e6 / fetchCpuTps).toFixed(0)} µs (the reads-only floor, process), everything else ingest does ${(1e6 / cpuTps - 1e6 / fetchCpuTps).toFixed(0)} µs (decoding — whole, or for a later curve trade only its logs (methodology "One row per transaction, however it was read") — build, classify, funder lookups, account reads, commit); the target of ${target.toLocaleString('en')} per CPU second leaves ${(1e6 / target).toFixed(0)} µs for all of it. ` +
        `Decoding a transaction whole (\`decodeTransaction\`, measured around the calls in the second floor, main thread) takes ${decodeUsPerTx.toFixed(0)} µs; ingest spends it only on the transactions it keeps whole. ` +
        'The two floors are separate runs on a shared machine, so their difference is not a measure of decoding.',
      '',
      `After the last commit the run spent ${Math.round(tailMs).toLocaleString('en')} ms of CPU (pages and documents of ${records.toLocaleString('en')} records, periodic jobs, bulk downloads).`,
      '',
      `**Ingest wall throughput = ${(wallTps / baseTps).toFixed(3)} × the fetch-only baseline.** Per CPU second of the process it sustains ${Math.round(cpuTps).toLocaleString('en')} transactions/s = ` +
        `${(cpuTps / MAINNET_PEAK_TPS).toFixed(1)} × a ${MAINNET_PEAK_TPS} tx/s mainnet peak (target 20 × = ${target.toLocaleString('en')}: ${cpuTps >= target ? 'met' : 'not met'}); ` +
        `live, ${Math.round(liveCpuTps).toLocaleString('en')} = ${(liveCpuTps / MAINNET_PEAK_TPS).toFixed(1)} × (${liveCpuTps >= target ? 'met' : 'not met'}).`,
      '',
      `Per round, per CPU second of the process: reads-only floor ${perRound(fetchCpu)}; catch-up ingest ${perRound(ingest.map((x) => x.cpu))}; live ${perRound(liveRounds.map((x) => x.cpu))}. ` +
        `The host's load moves all three together, so the ratio to the floor of the same round moves less: catch-up ingest = ${ingestToFloor.toFixed(3)} × the floor, live = ${liveToFloor.toFixed(3)} × (medians of the per-round ratios). ` +
        `With these ratios the ${target.toLocaleString('en')} target holds while the host lets the reads alone run at ${Math.round(target / ingestToFloor).toLocaleString('en')} (catch-up) and ${Math.round(target / liveToFloor).toLocaleString('en')} (live) per CPU second or more.`,
      '',
      `Lag from a creation transaction landing (live replay, slot landed by the bench) to its record in the database the server reads, long-running \`lpa collect\` woken by its WebSocket watch (poll interval 10 min), ${lags.length} launches: ` +
        `**p50 ${Math.round(percentile(lags, 50))} ms, p99 ${Math.round(percentile(lags, 99))} ms**.`,
    ].join('\n');
  } finally {
    for (const p of procs) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
    rmSync(tmp, { recursive: true, force: true });
  }
}
