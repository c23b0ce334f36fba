/**
 * The creation feed under load for `npm run bench` (`BENCH_ONLY=stream`; issue 25 "Speed"): the
 * built server with STREAM_CLIENTS (200) Server-Sent Events clients connected to `GET
 * /api/v1/stream`, while a writer process (bench/stream-writer.ts) rewrites STREAM_RATE (1,000)
 * records a second in public.db through the project's store. Measures the delay from commit to
 * delivery of every event to every client (the writer notes when each change sequence committed;
 * a client notes when each chunk arrived and the last event id in it), and the server's RSS after
 * the warm-up against the end. Returns a markdown section.
 *
 * The warm-up lasts until the server's RSS has settled: at least BENCH_STREAM_WARMUP_S, then until
 * its highest value so far is within {@link SETTLE_SHARE} of the highest {@link SETTLE_S} s before
 * (the young generation, the allocator's pages for the queued events and SQLite's cache have
 * reached what this load needs), at most BENCH_STREAM_WARMUP_MAX_S (a server whose RSS keeps rising
 * is then measured anyway, and the section says it did not settle).
 * Options (env): BENCH_STREAM_CLIENTS (200), BENCH_STREAM_RATE (1000), BENCH_STREAM_RECORDS (20,000),
 * BENCH_STREAM_WARMUP_S (10), BENCH_STREAM_WARMUP_MAX_S (180), BENCH_STREAM_SECONDS (30),
 * BENCH_STREAM_SERVER_NODE_OPTIONS (NODE_OPTIONS for the server alone, e.g. `--trace-gc`; unset: none).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalJson, sha256Hex } from '../src/core/canonical.ts';
import { loadConfig } from '../src/config.ts';
import { PublicStore } from '../src/db/public-store.ts';
import { PrivateStore } from '../src/db/private-store.ts';
import { KeyService, loadKeySecret } from '../src/access/keys.ts';
import { launchDoc, randomAddress } from '../tests/helpers/launch-doc.ts';
import { cpuMicros, startServer } from './load.ts';
import { ROOT } from './setup.ts';

const CLIENTS = Number(process.env.BENCH_STREAM_CLIENTS ?? 200);
const RATE = Number(process.env.BENCH_STREAM_RATE ?? 1000);
const RECORDS = Number(process.env.BENCH_STREAM_RECORDS ?? 20_000);
const WARMUP_S = Number(process.env.BENCH_STREAM_WARMUP_S ?? 10);
const WARMUP_MAX_S = Math.max(WARMUP_S, Number(process.env.BENCH_STREAM_WARMUP_MAX_S ?? 180));
/** The warm-up is over when the server's highest RSS so far is within this share of its highest SETTLE_S s before. */
const SETTLE_SHARE = 0.02;
const SETTLE_S = 20;
const MEASURE_S = Number(process.env.BENCH_STREAM_SECONDS ?? 30);
const DELAY_BAR_MS = 500;
const RSS_BAR = 0.1;
const log = (s: string) => process.stderr.write(s + '\n');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resident set size of a process, bytes (Linux /proc). */
function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : NaN;
}

/** Seconds the process's main thread ran, and waited on a run queue for a CPU (Linux /proc schedstat). */
function schedOf(pid: number): { ran: number; waited: number } {
  const [ran, waited] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').trim().split(/\s+/).map(Number);
  return { ran: ran! / 1e9, waited: waited! / 1e9 };
}

const pct = (xs: number[], p: number) => {
  const s = Float64Array.from(xs).sort();
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
};

interface Client {
  bytes: number;
  lastId: number;
  /** times the server closed this client's stream (it reconnected with Last-Event-ID) */
  reconnects: number;
  stopped: boolean;
  req: http.ClientRequest;
}

export async function benchStream(): Promise<string> {
  const tmp = mkdtempSync(join(tmpdir(), 'lpa-bench-stream-'));
  const dataDir = join(tmp, 'data');
  const env: Record<string, string> = { DATA_DIR: dataDir, KEY_SECRET: 's'.repeat(40), LOG_LEVEL: 'warn', LOG_FORMAT: 'json' };
  const config = loadConfig(env);
  try {
    log(`bench stream: an archive of ${RECORDS} synthetic records`);
    const store = new PublicStore(config.publicDbPath);
    let docBytes = 0;
    store.db.transaction(() => {
      for (let i = 0; i < RECORDS; i++) {
        const doc = launchDoc(randomAddress(), 1_795_000_000_000 + i * 400);
        const text = canonicalJson(doc);
        docBytes += text.length;
        store.putLaunch(doc, null, text, sha256Hex(text), Date.now());
      }
    })();
    store.close();
    const priv = new PrivateStore(config.privateDbPath);
    const keys = new KeyService(priv, loadKeySecret(config));
    const keyList: string[] = [];
    for (let i = 0; i < Math.ceil(CLIENTS / 2); i++) {
      const k = await keys.create(`stream bench ${i}`);
      priv.setFeed(k.id, Date.now());
      keyList.push(k.key);
    }
    priv.close();

    const serverEnv = process.env.BENCH_STREAM_SERVER_NODE_OPTIONS ? { ...env, NODE_OPTIONS: process.env.BENCH_STREAM_SERVER_NODE_OPTIONS } : env;
    const server = await startServer('Astro (@astrojs/node)', [join(ROOT, 'dist/server/entry.mjs')], serverEnv, '/api/v1/status');
    const pid = server.proc.pid!;
    const { port } = new URL(server.url);
    /** Flat triples (afterId, lastId, arrival ms) of every chunk received in the measured part. */
    const arrivals: number[] = [];
    let measuringFrom = Infinity;
    const agent = new http.Agent({ keepAlive: false, maxSockets: CLIENTS * 2 });
    const clients: Client[] = [];
    /** Connect client `c` (number `i`), resuming after its last id when it had one; resolves once the stream answered 200. */
    const connect = (c: Client, i: number) =>
      new Promise<void>((resolve, reject) => {
        const headers: Record<string, string> = { Authorization: `Bearer ${keyList[i >> 1]}` };
        if (c.lastId > 0) headers['Last-Event-ID'] = String(c.lastId);
        c.req = http.get({ host: '127.0.0.1', port, path: '/api/v1/stream', agent, headers }, (res) => {
          if (res.statusCode !== 200) return reject(new Error(`stream ${i}: ${res.statusCode}`));
          resolve();
          res.on('data', (chunk: Buffer) => {
            const now = Date.now();
            c.bytes += chunk.length;
            // the id of the last event that started in this chunk: every event after the previous
            // chunk's last id up to it arrived now (cheap: no decoding, so the clients keep up)
            let at = chunk.lastIndexOf('\nid: ');
            let from = at + 5;
            if (at < 0 && chunk.subarray(0, 4).toString('latin1') === 'id: ') (at = 0), (from = 4);
            if (at < 0) return;
            const end = chunk.indexOf(10, from);
            if (end <= from) return;
            const id = Number(chunk.subarray(from, end).toString('latin1'));
            if (id > c.lastId) {
              if (now >= measuringFrom) arrivals.push(c.lastId, id, now);
              c.lastId = id;
            }
          });
          res.on('close', () => {
            if (c.stopped) return;
            c.reconnects++; // closed by the server (a client too slow): resume as a real client would
            connect(c, i).catch(() => undefined);
          });
        });
        c.req.on('error', (e) => (c.stopped ? undefined : reject(e)));
      });
    const open = (i: number) => {
      const c: Client = { bytes: 0, lastId: 0, reconnects: 0, stopped: false, req: null! };
      clients.push(c);
      return connect(c, i);
    };
    log(`bench stream: ${CLIENTS} clients connect`);
    for (let i = 0; i < CLIENTS; i += 20) await Promise.all(Array.from({ length: Math.min(20, CLIENTS - i) }, (_, k) => open(i + k)));

    log(`bench stream: writer at ${RATE} records/s, warm-up ${WARMUP_S}–${WARMUP_MAX_S} s (until the server's RSS settles) + ${MEASURE_S} s`);
    const loadStart = loadavg()[0]!;
    const writer = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/stream-writer.ts')], {
      cwd: ROOT,
      env: { ...process.env, ...env, RATE: String(RATE), SECONDS: String(WARMUP_MAX_S + MEASURE_S + 10) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let writerOut = '';
    let ready: () => void;
    const writerReady = new Promise<void>((r) => (ready = r));
    writer.stdout!.on('data', (d) => {
      writerOut += d;
      if (writerOut.includes('ready\n')) ready();
    });
    const writerDone = new Promise<void>((r) => writer.once('exit', () => r()));
    await writerReady;
    const warmStart = Date.now();
    /** The server's RSS each second of the warm-up. */
    const warmRss: number[] = [];
    for (;;) {
      await sleep(1000);
      warmRss.push(rssOf(pid));
      const s = warmRss.length;
      if (s >= WARMUP_MAX_S) break;
      if (s >= Math.max(WARMUP_S, SETTLE_S + 1) && Math.max(...warmRss) <= (1 + SETTLE_SHARE) * Math.max(...warmRss.slice(0, s - SETTLE_S))) break;
    }
    const warmupS = (Date.now() - warmStart) / 1000;
    const settled = warmRss.length < WARMUP_MAX_S;
    log(`bench stream: warm-up ${warmupS.toFixed(0)} s, server RSS ${settled ? 'settled' : 'NOT settled'} at ${(Math.max(...warmRss) / 2 ** 20).toFixed(1)} MB`);
    measuringFrom = Date.now();
    const sched0 = { server: schedOf(pid), bench: schedOf(process.pid) };
    const cpu0 = { server: cpuMicros(pid), writer: cpuMicros(writer.pid!), bench: process.cpuUsage() };
    const rssWarm = rssOf(pid);
    const rssSamples: number[] = [rssWarm];
    const bytesAtWarm = clients.reduce((n, c) => n + c.bytes, 0);
    const sampler = setInterval(() => rssSamples.push(rssOf(pid)), 1000);
    let writerCpu = 0;
    const writerSampler = setInterval(() => {
      try {
        writerCpu = cpuMicros(writer.pid!) - cpu0.writer;
      } catch {
        /* exited */
      }
    }, 500);
    await sleep(MEASURE_S * 1000);
    writer.kill('SIGTERM');
    await writerDone;
    clearInterval(writerSampler);
    const measuredS = (Date.now() - measuringFrom) / 1000;
    const benchCpu = process.cpuUsage(cpu0.bench);
    const sched1 = { server: schedOf(pid), bench: schedOf(process.pid) };
    const waited = { server: sched1.server.waited - sched0.server.waited, bench: sched1.bench.waited - sched0.bench.waited };
    const cpuShare = {
      server: (cpuMicros(pid) - cpu0.server) / 1e6 / measuredS,
      bench: (benchCpu.user + benchCpu.system) / 1e6 / measuredS,
    };
    clearInterval(sampler);
    const rssEnd = rssOf(pid);
    const bytesDelivered = clients.reduce((n, c) => n + c.bytes, 0) - bytesAtWarm;
    const loadEnd = loadavg()[0]!;
    await sleep(2000); // the last events reach every client
    const check = new PublicStore(config.publicDbPath);
    const latest = check.db.prepare('SELECT MAX(change_seq) FROM launch').pluck().get() as number;
    check.close();
    const upToDate = clients.filter((c) => c.lastId === latest).length;
    const reconnects = clients.reduce((n, c) => n + c.reconnects, 0);
    const w = JSON.parse(writerOut.replace('ready\n', '').trim() || '{"written":0,"seconds":1,"commits":[]}') as { written: number; seconds: number; commits: [number, number, number][] };
    // the delay of every event: its arrival − the commit time of its transaction (by change sequence)
    const commitOf = new Map<number, number>();
    for (const [from, to, ms] of w.commits) for (let q = from; q <= to; q++) commitOf.set(q, ms);
    const delays: number[] = [];
    for (let k = 0; k < arrivals.length; k += 3) {
      for (let q = arrivals[k]! + 1; q <= arrivals[k + 1]!; q++) {
        const ms = commitOf.get(q);
        if (ms !== undefined) delays.push(arrivals[k + 2]! - ms);
      }
    }
    for (const c of clients) {
      c.stopped = true;
      c.req.destroy();
    }
    agent.destroy();
    await server.stop();

    const p50 = pct(delays, 50);
    const p99 = pct(delays, 99);
    const max = delays.reduce((m, d) => Math.max(m, d), -Infinity);
    const growth = (rssEnd - rssWarm) / rssWarm;
    const mb = (b: number) => (b / 2 ** 20).toFixed(1);
    log(`bench stream: p50 ${p50} ms, p99 ${p99} ms, max ${max} ms over ${delays.length} events; RSS ${mb(rssWarm)} → ${mb(rssEnd)} MB`);
    return [
      '## Stream: the creation feed under load (issue 25)',
      '',
      `\`GET /api/v1/stream\` on the built server (one Node process, \`STREAM_POLL_MS\` ${config.STREAM_POLL_MS} ms, \`YOUNG_GENERATION_MB\` ${loadConfig({ ...process.env, ...env }).YOUNG_GENERATION_MB}) with **${CLIENTS} connected clients** (node:http in the bench process, 2 per key), ` +
        `while a writer process (bench/stream-writer.ts) rewrote **${(w.written / w.seconds).toFixed(0)} records/s** (target ${RATE}) through the project's PublicStore, one transaction every 50 ms. ` +
        `The archive: ${RECORDS.toLocaleString('en-US')} synthetic records (tests/helpers/launch-doc.ts documents, ${(docBytes / RECORDS / 1024).toFixed(1)} KB each on average) — not the 1,000,000-record archive of the list/batch benches. ` +
        `Warm-up ${warmupS.toFixed(0)} s: ${settled ? `until the server's RSS settled (at least ${WARMUP_S} s, then until its highest value so far was within ${SETTLE_SHARE * 100} % of its highest ${SETTLE_S} s before)` : `the server's RSS did NOT settle within ${WARMUP_MAX_S} s (its highest value still rose more than ${SETTLE_SHARE * 100} % in ${SETTLE_S} s)`}; then ${measuredS.toFixed(0)} s measured. Delay = arrival at the client − the time the writer's transaction committed (the writer notes the change sequences each commit took), for every event every client received in the measured part.`,
      '',
      '| figure | value | bar |',
      '|---|---|---|',
      `| commit → delivery, p50 | ${p50} ms | |`,
      `| commit → delivery, p99 | **${p99} ms** | ≤ ${DELAY_BAR_MS} ms: ${p99 <= DELAY_BAR_MS ? 'met' : 'NOT met'} |`,
      `| commit → delivery, max | ${max} ms | |`,
      `| events measured | ${delays.length.toLocaleString('en-US')} | |`,
      `| delivered to all clients | ${mb(bytesDelivered / measuredS)} MB/s; ${Math.round(delays.length / measuredS).toLocaleString('en-US')} events/s (${Math.round(delays.length / CLIENTS / measuredS).toLocaleString('en-US')} per client) | |`,
      `| server RSS after warm-up → end | ${mb(rssWarm)} → ${mb(rssEnd)} MB (${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)} %; min ${mb(Math.min(...rssSamples))}, max ${mb(Math.max(...rssSamples))}) | within ${RSS_BAR * 100} %: ${Math.abs(growth) <= RSS_BAR ? 'met' : 'NOT met'} |`,
      `| clients holding the newest event id 2 s after the writer stopped | ${upToDate} of ${CLIENTS} | |`,
      `| streams closed by the server as too slow (\`STREAM_BUFFER_KB\` ${config.STREAM_BUFFER_KB}); each resumed with Last-Event-ID | ${reconnects} | |`,
      '',
      `CPU used over the measured part, in cores: server ${cpuShare.server.toFixed(2)}, the ${CLIENTS} clients (bench process) ${cpuShare.bench.toFixed(2)}, writer ${(writerCpu / 1e6 / measuredS).toFixed(2)}. ` +
        `Time the main thread spent ready but waiting for a CPU (\`/proc/<pid>/schedstat\`): server ${waited.server.toFixed(1)} s, bench process ${waited.bench.toFixed(1)} s, of ${measuredS.toFixed(0)} s.` +
        (waited.server > measuredS / 2
          ? ' The server waited for a CPU more than half the time: this run measures the machine\'s load (other jobs), not the feed; run it again on a quiet machine before judging the bars.'
          : ''),
      '',
      `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}; load average (1 min) ${loadStart.toFixed(2)} at the writer's start, ${loadEnd.toFixed(2)} at its end (other jobs shared the machine).`,
    ].join('\n');
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
