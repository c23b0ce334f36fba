/**
 * The mainnet-load soak (`npm run soak`, issue 24 item 4; not part of `npm test`): the long-running
 * archive (`lpa start`: the collector and the built server) against a live replay RPC landing
 * mainnet's October 2026 rate — 380 pump and PumpSwap transactions a second, a slot every 400 ms —
 * behind each provider profile of devchain/replay/limiter.ts (`public`, `paid`, `none`), for
 * SOAK_MINUTES each, then a catch-up of at most SOAK_CATCHUP_MINUTES with the chain stopped.
 *
 * Per profile it reports: lag from a creation slot landing to the launch's row in the public
 * database the server answers from (polled every 100 ms); launches of the chain without a record at
 * the end; records still UNKNOWN and why; RPC calls per second by method and refusals (counted in
 * the replay); CPU (share of one core) and RSS of the collector and server processes over time
 * (/proc, every 5 s); `/api/v1/status` over time (lagSlots, state, fallingBehind); gaps; the load
 * average of the machine. Writes a markdown report and the raw figures as JSON (SOAK_OUT, default
 * /tmp/lpa-soak-<time>.{md,json}); a full run (every profile, 10 minutes or more) also writes the
 * soak section of docs/benchmarks.md (not with SOAK_NO_DOCS).
 *
 * Settings (environment): SOAK_MINUTES (10), SOAK_PROFILES (`none,paid,public`), SOAK_TPS (380),
 * SOAK_LAUNCHES_PER_S (0.3: about 26,000 launches a day), SOAK_CATCHUP_MINUTES (15; a profile that has caught up ends at once), SOAK_SEED (24).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { writeChain } from '../devchain/simulate/write-chain.ts';
import { isProfileName, PROFILES, type ProfileName } from '../devchain/replay/limiter.ts';
import type { DenseLaunch, MainnetRateChain } from './soak/mainnet-chain.ts';
import { childrenOf, coreShare, readProc, rssGrowth, type ProcSample } from './soak/proc.ts';
import { settledAtMs } from './soak/working-set.ts';
import { withSoakSection } from './soak/docs-section.ts';
import { freePort, sleep } from '../tests/helpers/net.ts';

const ROOT = resolve(import.meta.dirname, '..');
const LPA = join(ROOT, 'bin/lpa.mjs');

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const PROFILE_LIST = (process.env.SOAK_PROFILES ?? 'none,paid,public').split(',').map((s) => s.trim()).filter(Boolean);
const TPS = Number(process.env.SOAK_TPS ?? 380);
const LAUNCHES_PER_S = Number(process.env.SOAK_LAUNCHES_PER_S ?? 0.3);
const CATCHUP_MINUTES = Number(process.env.SOAK_CATCHUP_MINUTES ?? 15);
const SEED = Number(process.env.SOAK_SEED ?? 24);
const STAMP = new Date().toISOString().replace(/[:.]/g, '-');
const OUT = process.env.SOAK_OUT ?? join(tmpdir(), `lpa-soak-${STAMP}`);
/** samples before this are warm-up for the RSS and CPU figures (the collector's RSS: at least this, see {@link collectorWarmupMs}) */
const WARMUP_MS = Math.min(120_000, (MINUTES * 60_000) / 5);

/**
 * The collector's warm-up for its RSS figure: until the chain's working set has settled (the held
 * history of the launches used within TX_CACHE_IDLE_S, bench/soak/working-set.ts: within 11 % of every
 * later value), at least WARMUP_MS, at most half the run (a working set still growing then is said so).
 * Computed from the chain before the run, not from the RSS measured.
 */
function collectorWarmup(series: readonly number[]): { warmupMs: number; settledMs: number; capped: boolean; growth: number } {
  const capMs = (MINUTES * 60_000) / 2;
  const settledMs = settledAtMs(series, 5_000, 0.9, capMs);
  const warmupMs = Math.max(WARMUP_MS, settledMs);
  // the working set's own growth over the window the RSS growth is measured on (first minute after warm-up → last minute)
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
  const from = Math.floor(warmupMs / 5_000);
  const growth = med(series.slice(-12)) / med(series.slice(from, from + 12)) - 1;
  return { warmupMs, settledMs, capped: settledMs >= capMs, growth };
}

/**
 * What the collector is told about each provider, as the operator would set it (README settings):
 * RPC_MAX_RPS = the plan's calls per second. The collector paces all its calls together, not per
 * method, so on the public RPC it is set to the per-method limit (4 a second, 40 per 10 s), with
 * batches no larger: set to the per-caller 10 a second, getTransaction alone runs into the method's
 * limit, and in a trial the catch-up then failed and restarted from its cursor once a minute without
 * advancing (docs/benchmarks.md, soak).
 */
const COLLECTOR_ENV: Record<ProfileName, Record<string, string>> = {
  none: {},
  paid: { RPC_MAX_RPS: '200' },
  public: { RPC_MAX_RPS: '4', RPC_BATCH_SIZE: '4' },
};

interface StatusSample {
  atMs: number;
  lagSlots: number | null;
  state: string;
  fallingBehind: boolean | null;
}

interface ReplayStats {
  calls: Record<string, number>;
  refused: Record<string, number>;
  httpRequests: number;
  droppedNotifications: number;
  disconnects: number;
  slot: number;
}

/** Everything measured for one profile. */
interface ProfileResult {
  profile: ProfileName;
  chain: MainnetRateChain['summary'] & { launches: number; seconds: number };
  lagMs: { p50: number; p99: number; max: number; n: number };
  /** lag to the first record that is not UNKNOWN (launches that got one) */
  lagToFinalMs: { p50: number; p99: number; n: number };
  missedAtChainEnd: number;
  missed: number;
  /** every launch: creation slot, when it landed and when its row was first seen (null: never) */
  perLaunch: { mint: string; slot: number; landedAtMs: number | null; firstSeenMs: number | null; finalSeenMs: number | null }[];
  catchUpMs: number | null;
  /** from the chain's end to every launch having a record (0: all had one at the end; null: not within the catch-up) */
  allRecordedMs: number | null;
  classes: Record<string, number>;
  unknownReasons: Record<string, number>;
  callsPerSecond: Record<string, number>;
  refusedPerSecond: Record<string, number>;
  replay: ReplayStats;
  collector: ProcFigures;
  server: ProcFigures;
  /** the replay RPC (the provider's side, on the same machine) */
  replayProc: ProcFigures;
  status: StatusSample[];
  fallingBehindSeen: boolean;
  /** the chain's working set (bench/soak/working-set.ts): when it settled, whether the cap was hit, its growth over the RSS window */
  workingSet: { settledMs: number; capped: boolean; growth: number };
  gaps: unknown[];
  dataBytes: number;
  load: { mean1: number; max1: number };
  warnings: Record<string, number>;
}

interface ProcFigures {
  cpuMean: number;
  cpuP95: number;
  rssStartMb: number;
  rssEndMb: number;
  rssMaxMb: number;
  rssGrowth: number;
  /** the warm-up this figure's RSS growth was measured after, ms */
  warmupMs: number;
  /** RSS growth after the fixed WARMUP_MS (for comparison with earlier runs) */
  rssGrowthFixedWarmup: number;
  perMinute: { minute: number; cpu: number; rssMb: number }[];
}

function percentile(xs: number[], p: number): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

function procFigures(samples: ProcSample[], warmupMs = WARMUP_MS): ProcFigures {
  const t0 = samples[0]?.atMs ?? 0;
  const shares: { atMs: number; cpu: number }[] = [];
  for (let i = 1; i < samples.length; i++) shares.push({ atMs: samples[i]!.atMs, cpu: coreShare(samples[i - 1]!, samples[i]!) });
  const warm = shares.filter((s) => s.atMs - t0 >= WARMUP_MS);
  const perMinute: ProcFigures['perMinute'] = [];
  for (let m = 0; ; m++) {
    const inMin = samples.filter((s) => s.atMs - t0 >= m * 60_000 && s.atMs - t0 < (m + 1) * 60_000);
    if (!inMin.length) break;
    const first = inMin[0]!;
    const last = inMin.at(-1)!;
    perMinute.push({ minute: m, cpu: last.atMs > first.atMs ? coreShare(first, last) : NaN, rssMb: Math.round(last.rssBytes / 2 ** 20) });
  }
  const warmRss = samples.filter((s) => s.atMs - t0 >= warmupMs);
  return {
    cpuMean: warm.length ? warm.reduce((a, s) => a + s.cpu, 0) / warm.length : NaN,
    cpuP95: percentile(warm.map((s) => s.cpu), 95),
    rssStartMb: Math.round((warmRss[0]?.rssBytes ?? NaN) / 2 ** 20),
    rssEndMb: Math.round((samples.at(-1)?.rssBytes ?? NaN) / 2 ** 20),
    rssMaxMb: Math.round(Math.max(...samples.map((s) => s.rssBytes)) / 2 ** 20),
    rssGrowth: rssGrowth(samples, warmupMs, 60_000),
    warmupMs,
    rssGrowthFixedWarmup: rssGrowth(samples, WARMUP_MS, 60_000),
    perMinute,
  };
}

function duBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    n += e.isDirectory() ? duBytes(p) : e.isFile() ? statSync(p).size : 0;
  }
  return n;
}

/** The simulated base chain (cached by its parameters: it takes a while to write). */
function baseChain(launches: number): string {
  const dir = join(tmpdir(), `lpa-soak-base-${launches}-${SEED}`);
  if (!existsSync(join(dir, 'truth.json'))) {
    console.log(`simulating ${launches} launches (seed ${SEED}) into ${dir} …`);
    // era2610Share 1: every launch the simulator can put after the 2026-10-08 redeploy (60 %); the
    // replay keeps only those
    writeChain({ launches, seed: SEED, out: dir, era2610Share: 1 });
  }
  return dir;
}

async function runProfile(profile: ProfileName, chainDir: string, runDir: string): Promise<ProfileResult> {
  const seconds = MINUTES * 60;
  const replay = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/soak/replay.ts'), JSON.stringify({ chainDir, seconds, tps: TPS, seed: SEED, profile })], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <T>(pick: (m: Record<string, unknown>) => T | undefined, timeoutMs = 600_000) =>
    new Promise<T>((ok, fail) => {
      const t = setTimeout(() => fail(new Error('replay did not answer')), timeoutMs);
      const on = (m: Record<string, unknown>) => {
        const v = pick(m);
        if (v === undefined) return;
        clearTimeout(t);
        replay.off('message', on);
        replay.off('exit', onExit);
        ok(v);
      };
      const onExit = (c: number | null) => (clearTimeout(t), fail(new Error(`soak replay exited ${c}`)));
      replay.on('message', on);
      replay.once('exit', onExit);
    });
  const stats = async () => (replay.send({ stats: true }), await next((m) => (m.stats as ReplayStats | undefined), 30_000));
  let collector: ChildProcess | null = null;
  let serverPid: number | null = null;
  try {
    const ready = await next((m) => m.ready as { url: string; wsUrl: string; launches: DenseLaunch[]; firstSlot: number; lastSlot: number; summary: MainnetRateChain['summary']; workingSet: number[] } | undefined);
    const warm = collectorWarmup(ready.workingSet);
    console.log(`[${profile}] chain: ${ready.summary.transactions} transactions (${ready.summary.simulated} simulated, ${ready.summary.copies} copied trades, ${ready.summary.failed} failed), ${ready.launches.length} launches, ${ready.summary.perSlot} a slot`);
    const dataDir = join(runDir, 'data');
    const port = await freePort();
    const env = {
      ...process.env,
      DATA_DIR: dataDir,
      SOLANA_RPC_URL: ready.url,
      SOLANA_WS_URL: ready.wsUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: process.env.SOAK_LOG_LEVEL ?? 'warn',
      LOG_FORMAT: 'json',
      ...COLLECTOR_ENV[profile],
    };
    const logPath = join(runDir, 'lpa-start.log');
    const logFd = openSync(logPath, 'a');
    collector = spawn(process.execPath, [LPA, 'start'], { env, stdio: ['ignore', logFd, logFd] });
    const statusUrl = `http://127.0.0.1:${port}/api/v1/status`;
    const readStatus = async (): Promise<Record<string, unknown> | null> => {
      try {
        const r = await fetch(statusUrl);
        return r.ok ? ((await r.json()) as Record<string, unknown>) : null;
      } catch {
        return null;
      }
    };
    // the collector subscribed and the server answers
    for (let i = 0; ; i++) {
      const s = await stats();
      if ((s.calls.logsSubscribe ?? 0) > 0 && (await readStatus())) break;
      if (collector.exitCode !== null) throw new Error(`lpa start exited ${collector.exitCode}; see ${logPath}`);
      if (i > 600) throw new Error('the collector did not subscribe within 60 s');
      await sleep(100);
    }
    serverPid = childrenOf(collector.pid!)[0] ?? null;

    // samplers: the public database (100 ms), /proc and status (5 s)
    const db = new Database(join(dataDir, 'public.db'), { readonly: true, fileMustExist: true });
    const rows = db.prepare('SELECT mint, finding_class AS cls FROM launch');
    const firstSeen = new Map<string, number>();
    const finalSeen = new Map<string, number>();
    const pollDb = setInterval(() => {
      const now = Date.now();
      for (const r of rows.all() as { mint: string; cls: string }[]) {
        if (!firstSeen.has(r.mint)) firstSeen.set(r.mint, now);
        if (r.cls !== 'UNKNOWN' && !finalSeen.has(r.mint)) finalSeen.set(r.mint, now);
      }
    }, 100);
    const procs = { collector: [] as ProcSample[], server: [] as ProcSample[], replay: [] as ProcSample[] };
    const loads: number[] = [];
    const status: StatusSample[] = [];
    const sampleAll = async () => {
      const c = readProc(collector!.pid!);
      if (c) procs.collector.push(c);
      const s = serverPid ? readProc(serverPid) : null;
      if (s) procs.server.push(s);
      const rp = readProc(replay.pid!);
      if (rp) procs.replay.push(rp);
      loads.push(loadavg()[0]!);
      const st = await readStatus();
      const col = st?.collector as { lagSlots?: number | null; state?: string; fallingBehind?: boolean } | undefined;
      if (col) status.push({ atMs: Date.now(), lagSlots: col.lagSlots ?? null, state: col.state ?? '?', fallingBehind: col.fallingBehind ?? null });
    };
    await sampleAll();
    const sampler = setInterval(() => void sampleAll(), 5_000);
    const t0 = Date.now();
    const callSeries: { atMs: number; calls: Record<string, number> }[] = [{ atMs: t0, calls: { ...(await stats()).calls } }];
    replay.send({ go: true });
    const done = next((m) => m.done as { landedAtMs: Record<string, number> } | undefined, seconds * 1000 + 600_000);
    const progress = setInterval(() => {
      const s = status.at(-1);
      console.log(`[${profile}] ${Math.round((Date.now() - t0) / 1000)} s: ${firstSeen.size} records, lagSlots ${s?.lagSlots}, ${s?.state}${s?.fallingBehind ? ', falling behind' : ''}, load ${loadavg()[0]!.toFixed(2)}`);
    }, 60_000);
    const { landedAtMs } = await done;
    const chainEnd = Date.now();
    const atChainEnd = await stats();
    const missedAtChainEnd = ready.launches.filter((l) => !firstSeen.has(l.mint)).length;
    console.log(`[${profile}] chain landed; ${missedAtChainEnd} launches without a record yet; catching up (at most ${CATCHUP_MINUTES} min)`);
    // catch-up: every launch has a record and the collector's cursor is back within a minute of the tip
    let catchUpMs: number | null = null;
    let allRecordedMs: number | null = missedAtChainEnd === 0 ? 0 : null;
    while (Date.now() - chainEnd < CATCHUP_MINUTES * 60_000) {
      const missing = ready.launches.filter((l) => !firstSeen.has(l.mint)).length;
      if (missing === 0) allRecordedMs ??= Date.now() - chainEnd;
      const st = await readStatus();
      const lagSlots = (st?.collector as { lagSlots?: number | null } | undefined)?.lagSlots ?? Infinity;
      if (missing === 0 && lagSlots <= 150) {
        catchUpMs = Date.now() - chainEnd;
        break;
      }
      await sleep(1000);
    }
    // settle the last pages a moment, then the final reads
    await sleep(3_000);
    clearInterval(progress);
    clearInterval(sampler);
    clearInterval(pollDb);
    const final = await stats();
    const finalStatus = await readStatus();
    const launches = ready.launches;
    const lags = launches.filter((l) => firstSeen.has(l.mint) && landedAtMs[l.slot] !== undefined).map((l) => firstSeen.get(l.mint)! - landedAtMs[l.slot]!);
    const finalLags = launches.filter((l) => finalSeen.has(l.mint) && landedAtMs[l.slot] !== undefined).map((l) => finalSeen.get(l.mint)! - landedAtMs[l.slot]!);
    const classes: Record<string, number> = {};
    const unknownReasons: Record<string, number> = {};
    const chainMints = new Set(launches.map((l) => l.mint));
    for (const r of db.prepare('SELECT mint, finding_class AS cls, document FROM launch').all() as { mint: string; cls: string; document: string | null }[]) {
      if (!chainMints.has(r.mint)) continue;
      classes[r.cls] = (classes[r.cls] ?? 0) + 1;
      if (r.cls === 'UNKNOWN') for (const why of unknownWhy(r.document)) unknownReasons[why] = (unknownReasons[why] ?? 0) + 1;
    }
    db.close();
    const elapsedS = (chainEnd - t0) / 1000;
    const perSecond = (a: Record<string, number>, b: Record<string, number>) =>
      Object.fromEntries(Object.entries(b).map(([k, v]): [string, number] => [k, Math.round(((v - (a[k] ?? 0)) / elapsedS) * 100) / 100]).sort((x, y) => y[1] - x[1]));
    return {
      profile,
      chain: { ...ready.summary, launches: launches.length, seconds },
      lagMs: { p50: percentile(lags, 50), p99: percentile(lags, 99), max: Math.max(...lags), n: lags.length },
      lagToFinalMs: { p50: percentile(finalLags, 50), p99: percentile(finalLags, 99), n: finalLags.length },
      missedAtChainEnd,
      missed: launches.filter((l) => !firstSeen.has(l.mint)).length,
      perLaunch: launches.map((l) => ({ mint: l.mint, slot: l.slot, landedAtMs: landedAtMs[l.slot] ?? null, firstSeenMs: firstSeen.get(l.mint) ?? null, finalSeenMs: finalSeen.get(l.mint) ?? null })),
      catchUpMs,
      allRecordedMs,
      classes,
      unknownReasons,
      callsPerSecond: perSecond(callSeries[0]!.calls, atChainEnd.calls),
      refusedPerSecond: perSecond({}, atChainEnd.refused),
      replay: final,
      collector: procFigures(procs.collector, warm.warmupMs),
      server: procFigures(procs.server),
      replayProc: procFigures(procs.replay),
      status,
      fallingBehindSeen: status.some((s) => s.fallingBehind === true),
      workingSet: { settledMs: warm.settledMs, capped: warm.capped, growth: warm.growth },
      gaps: ((finalStatus?.coverage as { gaps?: unknown[] } | undefined)?.gaps ?? (finalStatus?.gaps as unknown[] | undefined) ?? []) as unknown[],
      dataBytes: duBytes(dataDir),
      load: { mean1: loads.reduce((a, b) => a + b, 0) / Math.max(1, loads.length), max1: Math.max(...loads) },
      warnings: countWarnings(logPath),
    };
  } finally {
    if (collector && collector.exitCode === null) {
      collector.kill('SIGTERM');
      await Promise.race([new Promise((r) => collector!.once('exit', r)), sleep(15_000)]);
      if (collector.exitCode === null) {
        console.log(`[${profile}] lpa start did not stop within 15 s of SIGTERM; killing it and its server`);
        collector.kill('SIGKILL');
      }
    }
    // a server left behind by a killed lpa start
    if (serverPid !== null && readProc(serverPid)) {
      try {
        process.kill(serverPid, 'SIGKILL');
      } catch {
        /* gone meanwhile */
      }
    }
    if (replay.exitCode === null) replay.kill('SIGKILL');
  }
}

/** Why a held record is UNKNOWN: its document's `finding.label` (e.g. "Funding not checked"). */
function unknownWhy(document: string | null): string[] {
  if (!document) return ['no document (placeholder)'];
  try {
    const d = JSON.parse(document) as { finding?: { label?: unknown } };
    return [typeof d.finding?.label === 'string' ? d.finding.label : '(no label)'];
  } catch {
    return ['(unreadable document)'];
  }
}

/** Warning and error messages of the lpa start log (json lines), counted by message. */
function countWarnings(path: string): Record<string, number> {
  const out: Record<string, number> = {};
  if (!existsSync(path)) return out;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const m = JSON.parse(line) as { level?: number; msg?: string };
      if ((m.level ?? 0) >= 40) out[m.msg ?? '?'] = (out[m.msg ?? '?'] ?? 0) + 1;
    } catch {
      /* a partial last line */
    }
  }
  return out;
}

/** How the soak measures, for the report (static). */
const METHOD = [
  '**How it is measured.** The chain: a simulated chain of the 2026-10 era (`lpa simulate`, every launch kind, its failed-transaction share) at',
  `SOAK_LAUNCHES_PER_S launches a second (default 0.3, about 26,000 a day), its transactions spread evenly over the run in block order, every slot topped up`,
  'to the rate with copies (new signatures) of recently landed plain buys and sells made after their launch\'s first 30 s by wallets outside its cohort,',
  'each moving its curve to the reserves its event gives (bench/soak/mainnet-chain.ts says why). Block times stay the simulator\'s (the events in the logs carry them); slots follow the wall clock. The replay RPC',
  '(its own process) lands a slot every 400 ms and counts every call; the limiter (devchain/replay/limiter.ts) counts each call of a batch. `lpa start`',
  '(collector and server, COLLECT_START=latest, LOG_LEVEL=warn) is told the provider\'s limit as an operator would: `paid` RPC_MAX_RPS=200; `public`',
  'RPC_MAX_RPS=4, RPC_BATCH_SIZE=4 (the per-method limit: the collector paces all calls together). **Lag** = from the wall time the creation slot landed',
  'to the first time the launch\'s row was seen in public.db, the database the server answers from (polled every 100 ms, read-only) — the commit time,',
  'not an HTTP read; "not UNKNOWN" = to the first row of another class. **Missed** = launches of the chain without a row. CPU = share of one core',
  '(utime + stime from /proc/<pid>/stat), RSS = VmRSS, every 5 s, after a warm-up of min(2 min, a fifth of the run); RSS growth = median of the last minute',
  'over the first minute after warm-up. **The collector\'s RSS** is judged after its own warm-up: until the chain\'s working set has settled, computed from',
  'the chain before the run (bench/soak/working-set.ts: the transactions so far of every launch used within TX_CACHE_IDLE_S, which the collector holds in memory;',
  'settled = within 11 % of every later value; at least the 2 min above, at most half the run). Until then RSS grows because what the collector must hold',
  'grows, not because it leaks; "flat" = RSS growth within 10 % after it. The growth after the fixed 2 min is given beside it, and so is the working set\'s',
  'own growth over the same window. The machine is shared: the load average is given beside the figures.',
].join('\n');

const fmt = (n: number, d = 0) => (Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d }) : '–');

function report(results: ProfileResult[], command: string): string {
  const lines = [
    `## Soak: mainnet's rate behind provider limits (issue 24)`,
    '',
    `\`${command}\` — ${new Date().toISOString()}, Node ${process.version}. Each profile: ${MINUTES} min of a live replay at ${TPS} transactions/s (a slot every 400 ms), then at most ${CATCHUP_MINUTES} min of catch-up with the chain stopped.`,
    '',
    METHOD,
    '',
    '| profile | lag p50 / p99 / max (s) | records not UNKNOWN: lag p50 / p99 (s) | launches | missed at chain end / after catch-up | catch-up | UNKNOWN at end | collector CPU (core) mean / p95 | collector RSS after warm-up → end (growth; after 2 min) | chain working set: settled at (its growth after) | server CPU / RSS | gaps | load avg (1 min) mean / max |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of results) {
    lines.push(
      `| ${r.profile} | ${fmt(r.lagMs.p50 / 1000, 2)} / ${fmt(r.lagMs.p99 / 1000, 2)} / ${fmt(r.lagMs.max / 1000, 2)} | ${fmt(r.lagToFinalMs.p50 / 1000, 2)} / ${fmt(r.lagToFinalMs.p99 / 1000, 2)} (${r.lagToFinalMs.n}) | ${r.chain.launches} | ${r.missedAtChainEnd} / ${r.missed} | ${r.catchUpMs === null ? `not done in ${CATCHUP_MINUTES} min` : `${fmt(r.catchUpMs / 1000, 0)} s`} | ${r.classes.UNKNOWN ?? 0} of ${Object.values(r.classes).reduce((a, b) => a + b, 0)} | ${fmt(r.collector.cpuMean, 2)} / ${fmt(r.collector.cpuP95, 2)} | ${r.collector.rssStartMb} → ${r.collector.rssEndMb} MB (${fmt(r.collector.rssGrowth * 100, 1)} %; ${fmt(r.collector.rssGrowthFixedWarmup * 100, 1)} %) | ${fmt(r.workingSet.settledMs / 60_000, 1)} min${r.workingSet.capped ? ' (not settled: half the run)' : ''} (${fmt(r.workingSet.growth * 100, 1)} %) | ${fmt(r.server.cpuMean, 3)} / ${r.server.rssEndMb} MB (${fmt(r.server.rssGrowth * 100, 1)} %) | ${r.gaps.length} | ${fmt(r.load.mean1, 2)} / ${fmt(r.load.max1, 2)} |`,
    );
  }
  lines.push('');
  for (const r of results) {
    lines.push(`### ${r.profile}`, '');
    lines.push(`- Chain: ${fmt(r.chain.transactions)} transactions in ${r.chain.seconds} s (${fmt(r.chain.transactions / r.chain.seconds)} /s; ${fmt(r.chain.simulated)} simulated, ${fmt(r.chain.copies)} copied trades; ${fmt((r.chain.failed / r.chain.transactions) * 100, 1)} % failed), ${r.chain.launches} launches.`);
    lines.push(`- RPC calls/s by method (replay count, chain phase): ${Object.entries(r.callsPerSecond).map(([k, v]) => `${k} ${v}`).join(', ')}; HTTP requests ${fmt(r.replay.httpRequests)} in all.`);
    if (Object.keys(r.refusedPerSecond).length) lines.push(`- Refused with 429 (per s): ${Object.entries(r.refusedPerSecond).map(([k, v]) => `${k} ${v}`).join(', ')}; notifications dropped ${r.replay.droppedNotifications}, disconnects ${r.replay.disconnects}.`);
    lines.push(`- Every launch had a record ${r.allRecordedMs === null ? `not within the ${CATCHUP_MINUTES} min of catch-up` : r.allRecordedMs === 0 ? 'when the chain ended' : `${fmt(r.allRecordedMs / 1000, 0)} s after the chain ended`}; the catch-up (every launch recorded and the cursor within 150 slots of the tip) ${r.catchUpMs === null ? `was not done in ${CATCHUP_MINUTES} min` : `took ${fmt(r.catchUpMs / 1000, 0)} s`}.`);
    lines.push(`- Classes at the end: ${Object.entries(r.classes).map(([k, v]) => `${k} ${v}`).join(', ')}.${Object.keys(r.unknownReasons).length ? ` UNKNOWN reasons: ${Object.entries(r.unknownReasons).map(([k, v]) => `${k} × ${v}`).join('; ')}.` : ''}`);
    lines.push(`- Status: max lagSlots ${Math.max(0, ...r.status.map((s) => s.lagSlots ?? 0))}; states seen ${[...new Set(r.status.map((s) => s.state))].join(', ')}; fallingBehind ${r.fallingBehindSeen ? `true in ${r.status.filter((s) => s.fallingBehind).length} of ${r.status.length} samples` : 'never true'}.`);
    lines.push(`- Collector per minute (CPU share of a core / RSS MB): ${r.collector.perMinute.map((m) => `${fmt(m.cpu, 2)}/${m.rssMb}`).join(' · ')}.`);
    lines.push(`- Replay RPC process (the provider, same machine): CPU ${fmt(r.replayProc.cpuMean, 2)} of a core (p95 ${fmt(r.replayProc.cpuP95, 2)}), RSS ${r.replayProc.rssEndMb} MB.`);
    lines.push(`- Data directory at the end: ${fmt(r.dataBytes / 2 ** 20, 1)} MB.`);
    if (Object.keys(r.warnings).length) lines.push(`- Warnings logged: ${Object.entries(r.warnings).map(([k, v]) => `"${k}" × ${v}`).join('; ')}.`);
    lines.push('');
  }
  return lines.join('\n');
}

const profiles = PROFILE_LIST.filter(isProfileName);
if (profiles.length !== PROFILE_LIST.length) throw new Error(`SOAK_PROFILES: unknown profile in ${PROFILE_LIST.join(',')} (known: ${Object.keys(PROFILES).join(', ')})`);
// the simulator puts 60 % of its launches in the 2026-10 era; the replay keeps those
const chainDir = baseChain(Math.ceil((MINUTES * 60 * LAUNCHES_PER_S) / 0.6));
const results: ProfileResult[] = [];
for (const p of profiles) {
  const runDir = mkdtempSync(join(tmpdir(), `lpa-soak-${p}-`));
  try {
    results.push(await runProfile(p, chainDir, runDir));
    writeFileSync(`${OUT}.json`, JSON.stringify(results, null, 1));
  } finally {
    if (!process.env.SOAK_KEEP) rmSync(runDir, { recursive: true, force: true });
    else console.log(`[${p}] kept ${runDir}`);
  }
}
const env = ['SOAK_MINUTES', 'SOAK_PROFILES', 'SOAK_TPS', 'SOAK_LAUNCHES_PER_S', 'SOAK_CATCHUP_MINUTES', 'SOAK_SEED'].filter((k) => process.env[k]).map((k) => `${k}=${process.env[k]}`);
const md = report(results, [...env, 'npm run soak'].join(' '));
writeFileSync(`${OUT}.md`, md);
// like npm run bench: the figures go to docs/benchmarks.md (its soak section), for a full run only
if (!process.env.SOAK_NO_DOCS && profiles.length === Object.keys(PROFILES).length && MINUTES >= 10) {
  const docPath = join(ROOT, 'docs/benchmarks.md');
  writeFileSync(docPath, withSoakSection(existsSync(docPath) ? readFileSync(docPath, 'utf8') : '# Benchmarks\n', md));
  console.log(`wrote the soak section of ${docPath}`);
}
console.log(md);
console.log(`written ${OUT}.md and ${OUT}.json`);
