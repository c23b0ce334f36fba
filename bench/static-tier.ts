/**
 * Static tier vs API (issue 23 "the home page is served at ≥ 5,000 req/s (static file through the
 * server or the static tier)"; issue 26 "the static tier serves token pages at ≥ 10 × the API's
 * req/s"): in one run, over the bench archive, nginx with the `lpa cluster-config` configuration
 * (collector/cluster/nginx-config.ts) serving a token page from disk and passing the home page to the
 * API node (which sends the collector's file while it runs, else the page of the facts now), and the
 * keyed token endpoint of one API node (the built Astro server, quota counting on). Alternating
 * rounds, every target driven by the same load generator on the same machine: wrk (Debian's `wrk`,
 * C, two threads) when installed, else autocannon in the bench process, which one Node thread
 * bounds at about 15,000 req/s here — below nginx's rate, so the section then says its nginx
 * figures are the load generator's ceiling, not nginx's.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { BENCH_MINT, ROOT, type BenchArchive } from './setup.ts';
import { cpuMicros, startServer } from './load.ts';
import { WRK, runWrk } from './wrk.ts';
import { startNginx } from '../tests/helpers/nginx.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const log = (s: string) => process.stderr.write(s + '\n');

interface Target {
  name: string;
  url: string;
  headers: Record<string, string>;
  /** the processes that serve it (nginx's master and workers, the API node): their CPU is counted per request */
  pids: () => number[];
  rps: number[];
  p99: number[];
  /** server CPU per request, µs, per round */
  cpu: number[];
  bad: number;
}

/** A process and its children (nginx's workers are its master's), by /proc. */
function withChildren(pid: number): number[] {
  const out = [pid];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${d}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
      if (ppid === pid) out.push(Number(d));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** User + system CPU of these processes so far, µs (a process gone meanwhile counts 0). */
function cpuOf(pids: number[]): number {
  let sum = 0;
  for (const p of pids) {
    try {
      sum += cpuMicros(p);
    } catch {
      // gone
    }
  }
  return sum;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** wrk's threads for nginx's workers: one per core, as its documentation advises. */
const WRK_THREADS = cpus().length;

type RoundResult = { rps: number; p99: number; bad: number; cpuPerRequest: number };

async function round(t: Target, seconds: number): Promise<RoundResult> {
  const pids = t.pids();
  const c0 = cpuOf(pids);
  if (WRK) {
    const r = await runWrk(t.url, t.headers, { connections: CONNECTIONS, threads: WRK_THREADS, seconds });
    return { rps: r.rps, p99: r.p99Ms, bad: r.non2xx + r.errors, cpuPerRequest: r.requests ? (cpuOf(pids) - c0) / r.requests : NaN };
  }
  const r = await autocannon({ url: t.url, headers: t.headers, connections: CONNECTIONS, duration: seconds, pipelining: 1 });
  return { rps: r.requests.average, p99: r.latency.p99, bad: r.non2xx + r.errors + r.timeouts, cpuPerRequest: r.requests.total ? (cpuOf(pids) - c0) / r.requests.total : NaN };
}

/** The section of docs/benchmarks.md. */
export async function benchStaticTier(archive: BenchArchive): Promise<string> {
  const siteDir = join(archive.dataDir, 'site');
  const pages = readdirSync(join(siteDir, 't')).filter((f) => f.endsWith('.html'));
  const page = existsSync(join(siteDir, 't', `${BENCH_MINT}.html`)) ? `${BENCH_MINT}.html` : pages[0]!;
  if (!existsSync(join(siteDir, 'index.html'))) throw new Error('the bench archive has no home page (site/index.html)');
  const loadBefore = loadavg().map((l) => l.toFixed(2)).join(' ');
  const api = await startServer('API node', [join(ROOT, 'dist/server/entry.mjs')], { ...archive.env, DAILY_QUOTA: '1000000000' }, '/api/v1/status');
  const nginx = await startNginx({ siteDir, nodes: [new URL(api.url).host], workers: 'auto' });
  try {
    const nginxPids = () => withChildren(nginx.proc.pid!);
    const apiPids = () => [api.proc.pid!];
    const targets: Target[] = [
      { name: 'home page `/`, nginx passing it to the API node', url: `${nginx.base}/`, headers: {}, pids: () => [...nginxPids(), ...apiPids()], rps: [], p99: [], cpu: [], bad: 0 },
      { name: `token page \`/t/{mint}.html\`, nginx from disk`, url: `${nginx.base}/t/${page}`, headers: {}, pids: nginxPids, rps: [], p99: [], cpu: [], bad: 0 },
      { name: 'keyed token endpoint `/api/v1/token/{mint}`, one API node (Astro)', url: `${api.url}/api/v1/token/${BENCH_MINT}`, headers: { Authorization: `Bearer ${archive.key}` }, pids: apiPids, rps: [], p99: [], cpu: [], bad: 0 },
    ];
    for (const t of targets) {
      const r = await fetch(t.url, { headers: t.headers });
      await r.arrayBuffer();
      if (r.status !== 200) throw new Error(`${t.name}: ${r.status}`);
      await round(t, 2); // warm-up
    }
    for (let i = 0; i < ROUNDS; i++) {
      const order = i % 2 ? [...targets].reverse() : targets;
      for (const t of order) {
        const r = await round(t, SECONDS);
        t.rps.push(r.rps);
        t.p99.push(r.p99);
        t.cpu.push(r.cpuPerRequest);
        t.bad += r.bad;
        log(`  round ${i + 1} ${t.name}: ${Math.round(r.rps)} req/s, p99 ${r.p99} ms${r.bad ? `, non-2xx/errors ${r.bad}` : ''}`);
      }
    }
    const [home, token, apiT] = targets as [Target, Target, Target];
    const ratio = median(token.rps.map((r, i) => r / apiT.rps[i]!));
    const cpuRatio = median(apiT.cpu.map((c, i) => c / token.cpu[i]!));
    const homeRps = median(home.rps);
    // nginx's most on this machine: every core its own at the CPU per token page measured (µs)
    const ceiling = (cpus().length * 1e6) / median(token.cpu);
    const loadAfter = loadavg().map((l) => l.toFixed(2)).join(' ');
    return [
      '## Static tier (nginx) vs the API (issues 23 and 26)',
      '',
      `nginx ${'(`lpa cluster-config`, `worker_processes auto`: ' + cpus().length + ' workers)'} serving the bench archive's written site from disk (the home page \`/\` passed to the API node, as the configuration does: a stopped collector's file would say it is live), and one API node (the built Astro server, quota counting on) answering the keyed token endpoint, in the same run: ` +
        `${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS} s after a 2 s warm-up each. ` +
        (WRK
          ? `Every target is driven by wrk (${WRK}, ${WRK_THREADS} threads, \`--latency\`) on the same ${cpus().length} cores as nginx and the node: the load generator takes CPU from the servers it measures, nginx's figures included.`
          : `autocannon runs in the bench process on the same ${cpus().length} cores as nginx and the node (wrk is not installed: \`apt-get install wrk\`), so the nginx figures are what one autocannon process could drive here: a lower bound for nginx, not its ceiling.`),
      '',
      '| target | req/s per round | median req/s | median p99 ms | server CPU µs/req (median) | non-2xx + errors |',
      '|---|---|---|---|---:|---|',
      ...targets.map((t) => `| ${t.name} | ${t.rps.map(Math.round).join(' / ')} | ${Math.round(median(t.rps))} | ${median(t.p99).toFixed(1)} | ${median(t.cpu).toFixed(1)} | ${t.bad} |`),
      '',
      `**Home page through the static tier: ${Math.round(homeRps)} req/s** (issue 23 target ≥ 5,000: ${homeRps >= 5000 ? 'met' : 'NOT met'}). ` +
        `**Token pages through the static tier = ${ratio.toFixed(2)} × the keyed endpoint's req/s** (median of per-round ratios; issue 26 target ≥ 10 ×: ${ratio >= 10 ? 'met' : 'NOT met'}).`,
      '',
      `Server CPU per request (user + system of nginx's master and workers, of the API node's process, over each round ÷ its requests): a token page from nginx costs ${median(token.cpu).toFixed(1)} µs, a keyed token answer ${median(apiT.cpu).toFixed(1)} µs, so **per CPU second the static tier serves ${cpuRatio.toFixed(2)} × the token pages the API node serves answers** (median of per-round ratios). ` +
        'That is the ratio apart from how the two cores are shared with the load generator (which takes one of them whatever it drives); the bar is stated in req/s, and is judged on the line above. ' +
        `The ceiling on this machine: were every one of its ${cpus().length} cores nginx's alone (no load generator), nginx at its measured CPU per token page would serve at most ${Math.round(ceiling).toLocaleString('en')} req/s, ` +
        `${(ceiling / median(apiT.rps)).toFixed(2)} × the API node's ${Math.round(median(apiT.rps)).toLocaleString('en')} req/s of this run (the bar needs ${Math.round(10 * median(apiT.rps)).toLocaleString('en')}).`,
      '',
      `Load average (1, 5, 15 min) at the start of this section: ${loadBefore}; at its end: ${loadAfter} (${cpus().length} cores).`,
    ].join('\n');
  } finally {
    await nginx.stop();
    await api.stop();
  }
}
