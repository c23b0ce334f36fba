/**
 * The keyed API and search over an archive of 1,000,000 records (issues 25 and 23; BENCH_ONLY=archive):
 * the built server on the shared archive of bench/million-archive.ts, at BENCH_CONNECTIONS (50)
 * connections, BENCH_ROUNDS alternating rounds of BENCH_SECONDS, every variant in every round:
 * - the keyed single-token endpoint (`GET /api/v1/token/{mint}`, held mints in turn): the baseline;
 * - list pages, browsing newest first (the first page and pages at cursors all over the archive);
 * - list pages, syncing (`since=<slot>` and sync cursors all over the archive);
 * - a 100-mint batch (`GET /api/v1/tokens?mints=…`, held mints);
 * - search by mint (302), by a symbol prefix, by name words (`GET /search?q=`, cache and limit off).
 * Each request path is taken in turn from a list of distinct ones (autocannon `setupRequest`), so
 * no figure rests on one hot row. The floor of the token, list and batch answers is measured in the
 * same rounds: bare node:http (bench/bare-static-server.mjs) sending one precomputed answer of each,
 * its bytes as the server sent them, under the same load. The load generator is wrk (bench/wrk.ts,
 * one thread as the token section, a Lua script sending the paths in turn) when installed, else autocannon (one Node
 * thread, which parsing 100–300 KB answers makes the bottleneck of the floors). Returns a markdown section.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { loadConfig } from '../src/config.ts';
import { PrivateStore } from '../src/db/private-store.ts';
import { KeyService, loadKeySecret } from '../src/access/keys.ts';
import { encodeCursor } from '../src/server/launches.ts';
import { cpuMicros, median, startServer, type ServerUnderTest } from './load.ts';
import { FIRST_SLOT, WORDS, linkArchiveInto, millionArchive, rng } from './million-archive.ts';
import { ROOT } from './setup.ts';
import { WRK, pathsScript, runWrk } from './wrk.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const log = (s: string) => process.stderr.write(s + '\n');

interface Variant {
  name: string;
  paths: string[];
  keyed: boolean;
  /** the status every answer must have */
  status: number;
  /** the issue's bar: p99 at most, and throughput at least this × the token endpoint's */
  p99Ms?: number;
  ratio?: number;
  /** asked of the second server, which keeps no list page in memory (LIST_CACHE_MB=0): every page built from the database */
  built?: true;
}

interface Figures {
  rps: number;
  p99: number;
  p50: number;
  cpuUs: number;
  bad: number;
}

/** wrk's scripts of the variants (a Lua file each, written once), when wrk is the load generator. */
const scripts = new WeakMap<Variant, string>();

async function round(server: ServerUnderTest, v: Variant, headers: Record<string, string>, seconds: number): Promise<Figures> {
  if (WRK) {
    let script = scripts.get(v);
    if (!script) {
      script = join(mkdtempSync(join(tmpdir(), 'lpa-bench-wrk-')), 'paths.lua');
      writeFileSync(script, pathsScript(v.paths));
      scripts.set(v, script);
    }
    const cpu0 = cpuMicros(server.proc.pid!);
    const w = await runWrk(server.url, v.keyed ? headers : {}, { connections: CONNECTIONS, threads: 1, seconds, script });
    const cpu1 = cpuMicros(server.proc.pid!);
    await drain(server);
    // wrk counts 2xx and 3xx alike: a variant answered 302 (search by mint) is checked by its first answer (benchArchiveApi)
    return { rps: w.rps, p99: w.p99Ms, p50: w.p50Ms ?? NaN, cpuUs: w.requests ? (cpu1 - cpu0) / w.requests : NaN, bad: w.non2xx + w.errors };
  }
  let i = Math.floor(Math.random() * v.paths.length);
  const cpu0 = cpuMicros(server.proc.pid!);
  const r = await autocannon({
    url: server.url,
    headers: v.keyed ? headers : {},
    connections: CONNECTIONS,
    duration: seconds,
    pipelining: 1,
    requests: [{ setupRequest: (req) => ((req.path = v.paths[i++ % v.paths.length]!), req) }],
  });
  const cpu1 = cpuMicros(server.proc.pid!);
  await drain(server);
  const good = r.statusCodeStats?.[String(v.status)]?.count ?? 0;
  return {
    rps: r.requests.average,
    p99: r.latency.p99,
    p50: r.latency.p50 ?? NaN,
    cpuUs: r.requests.total ? (cpu1 - cpu0) / r.requests.total : NaN,
    bad: r.requests.total - good + r.errors + r.timeouts,
  };
}

/**
 * Wait until the server has answered what the load tool left in flight (autocannon stops sending at
 * the end of a round, the server still answers the requests it holds: a batch round leaves seconds
 * of them), so no round pays for the one before: a request sent now is answered after them.
 */
async function drain(server: ServerUnderTest): Promise<void> {
  for (let i = 0; i < 2; i++) await (await fetch(`${server.url}/api/v1/status`)).arrayBuffer();
}

export async function benchArchiveApi(): Promise<string> {
  const archive = await millionArchive();
  const tmp = mkdtempSync(join(tmpdir(), 'lpa-bench-archive-'));
  let server: ServerUnderTest | undefined;
  let builtServer: ServerUnderTest | undefined;
  const floors: ServerUnderTest[] = [];
  try {
    const dataDir = join(tmp, 'data');
    linkArchiveInto(archive, dataDir);
    const env = {
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      KEY_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
      DAILY_QUOTA: '1000000000',
      SEARCH_PER_MINUTE: '0',
      SEARCH_CACHE_MS: '0',
      // no chain: every mint asked is held
      SOLANA_RPC_URL: 'http://127.0.0.1:9',
    };
    const config = loadConfig({ ...env });
    const priv = new PrivateStore(config.privateDbPath);
    const { key } = await new KeyService(priv, loadKeySecret(config)).create('bench');
    priv.close();
    const headers = { Authorization: `Bearer ${key}` };

    // request paths (every 500th record is sampled: sample k is record 500k + 499)
    const r = rng(25);
    const n = archive.sampleMints.length;
    const at = (k: number) => ({ index: 500 * k + 499, mint: archive.sampleMints[k]! });
    const any = () => at(Math.floor(r() * n));
    const token = archive.sampleMints.map((m) => `/api/v1/token/${m}`);
    const browse = ['/api/v1/launches'];
    for (let j = 0; j < 999; j++) {
      const p = any();
      browse.push(`/api/v1/launches?cursor=${encodeCursor({ v: 1, o: 'n', s: FIRST_SLOT + p.index * 5, m: p.mint, f: {} })}`);
    }
    const sync: string[] = [];
    for (let j = 0; j < 1000; j++) {
      const p = any();
      sync.push(j % 2 ? `/api/v1/launches?since=${FIRST_SLOT + p.index * 5}` : `/api/v1/launches?cursor=${encodeCursor({ v: 1, o: 'c', q: p.index + 1, f: {} })}`);
    }
    const batch: string[] = [];
    for (let j = 0; j < 50; j++) {
      const mints = new Set<string>();
      while (mints.size < 100) mints.add(any().mint);
      batch.push(`/api/v1/tokens?mints=${[...mints].join(',')}`);
    }
    const q = (s: string) => `/search?q=${encodeURIComponent(s)}`;
    const byMint = archive.sampleMints.map((m) => q(m));
    const bySymbol = [...new Set(archive.sampleSymbols.map((s) => [...s].slice(0, 2 + Math.floor(r() * 3)).join('')))].map(q);
    const pick = () => WORDS[Math.floor(r() * WORDS.length)]!;
    const words = new Set<string>();
    while (words.size < 1000) words.add(r() < 0.5 ? pick() : `${pick()} ${pick()}`);
    const byWords = [...words].map(q);

    const variants: Variant[] = [
      { name: 'token `GET /api/v1/token/{mint}` (baseline)', paths: token, keyed: true, status: 200 },
      { name: 'list, browsing newest first (`/api/v1/launches`, `?cursor=`; 50 records a page)', paths: browse, keyed: true, status: 200, p99Ms: 20, ratio: 0.5 },
      { name: 'list, syncing (`?since=<slot>`, sync `?cursor=`; 50 records a page)', paths: sync, keyed: true, status: 200, p99Ms: 20, ratio: 0.5 },
      { name: 'list, browsing, every page built (a second server, `LIST_CACHE_MB=0`)', paths: browse, keyed: true, status: 200, built: true },
      { name: 'list, syncing, every page built (the same second server)', paths: sync, keyed: true, status: 200, built: true },
      { name: 'batch of 100 held mints (`/api/v1/tokens?mints=`)', paths: batch, keyed: true, status: 200, p99Ms: 60 },
      { name: 'search by mint (`/search?q=<mint>`: 302)', paths: byMint, keyed: false, status: 302, p99Ms: 20 },
      { name: 'search by symbol prefix (2-4 characters)', paths: bySymbol, keyed: false, status: 200, p99Ms: 20 },
      { name: 'search by name words (one or two words)', paths: byWords, keyed: false, status: 200, p99Ms: 20 },
    ];

    log('bench: archive: starting the server');
    server = await startServer('Astro (@astrojs/node)', [join(ROOT, 'dist/server/entry.mjs')], env, '/api/v1/status');
    // the same built server keeping no list page (its own port): what a page costs that is not held, or after any commit
    builtServer = await startServer('Astro (@astrojs/node), LIST_CACHE_MB=0', [join(ROOT, 'dist/server/entry.mjs')], { ...env, LIST_CACHE_MB: '0' }, '/api/v1/status');
    const serverOf = (v: Variant) => (v.built ? builtServer! : server!);
    // the floors: one answer of each of these variants, sent as it is by a bare server (index into variants → its floor)
    const FLOORED = [0, 1, 5];
    // the variants given a busy floor (the two searches by text), after their rounds
    const BUSY_FLOORED = [7, 8];
    const floorOf = new Map<number, { server: ServerUnderTest; variant: Variant; bytes: number }>();
    for (const [j, v] of variants.entries()) {
      const res = await fetch(serverOf(v).url + v.paths[0], { headers: v.keyed ? headers : {}, redirect: 'manual' });
      const body = Buffer.from(await res.arrayBuffer());
      if (res.status !== v.status) throw new Error(`${v.name}: ${res.status} ${body.toString('utf8').slice(0, 300)}`);
      if (FLOORED.includes(j)) {
        const file = join(tmp, `floor-${j}.body`);
        writeFileSync(file, body);
        const floor = await startServer(`bare node:http, one ${v.name.split(' ')[0]} answer`, [join(ROOT, 'bench/bare-static-server.mjs')], { ...env, BENCH_FILE: file }, '/');
        floors.push(floor);
        floorOf.set(j, { server: floor, variant: { name: `floor of ${v.name.split(' (')[0]}`, paths: ['/'], keyed: false, status: 200 }, bytes: body.length });
      }
      await round(serverOf(v), v, headers, 1); // warm-up
    }
    for (const f of floorOf.values()) await round(f.server, f.variant, headers, 1);
    const loads: string[] = [];
    const results = variants.map(() => [] as Figures[]);
    const floorResults = new Map<number, Figures[]>([...floorOf.keys()].map((j) => [j, []]));
    for (let i = 0; i < ROUNDS; i++) {
      loads.push(loadavg().map((x) => x.toFixed(2)).join(' '));
      const order = i % 2 ? [...variants.keys()].reverse() : [...variants.keys()];
      for (const j of order) {
        const f = await round(serverOf(variants[j]!), variants[j]!, headers, SECONDS);
        results[j]!.push(f);
        log(`  round ${i + 1} ${variants[j]!.name}: ${Math.round(f.rps)} req/s, p99 ${f.p99} ms, server CPU ${f.cpuUs.toFixed(0)} µs/req${f.bad ? `, ${f.bad} unexpected` : ''}`);
        const floor = floorOf.get(j);
        if (floor) {
          const g = await round(floor.server, floor.variant, headers, SECONDS);
          floorResults.get(j)!.push(g);
          log(`  round ${i + 1} ${floor.variant.name}: ${Math.round(g.rps)} req/s, p99 ${g.p99} ms, CPU ${g.cpuUs.toFixed(0)} µs/req`);
        }
      }
    }
    const base = results[0]!;
    const lines = [
      '## API and search over 1,000,000 records (issues 25, 23)',
      '',
      `The built server on the shared archive of bench/million-archive.ts: ${archive.records.toLocaleString('en-US')} records whose documents are real records of a simulated chain collected by the collector, with mint, creator, name, symbol, slot and times changed (${archive.buildSeconds ? `built in ${archive.buildSeconds.toFixed(0)} s this run` : 'reused from the cache (.bench/archive/)'}). ` +
        `${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS} s per variant; each variant takes its request paths in turn from a list of distinct ones (held mints, cursors and slots all over the archive, 2,000 distinct searches). ` +
        `Load: ${WRK ? `wrk (${WRK}, one thread, a Lua script sending the paths in turn)` : 'autocannon (one Node thread in the bench process; BENCH_LOAD=autocannon or wrk not installed)'}, on the same 2 cores as the server. Load average (1/5/15 min) at the start of each round: ${loads.join('; ')}.`,
      '',
      '| variant | req/s per round | median req/s | × token (median of per-round) | median p50 ms | median p99 ms | server CPU µs/req | bar |',
      '|---|---|---:|---:|---:|---:|---:|---|',
    ];
    const verdicts: string[] = [];
    variants.forEach((v, j) => {
      const f = results[j]!;
      const ratio = median(f.map((x, k) => x.rps / base[k]!.rps));
      const p99 = median(f.map((x) => x.p99));
      const bars: string[] = [];
      if (v.p99Ms !== undefined) bars.push(`p99 ≤ ${v.p99Ms} ms: ${p99 <= v.p99Ms ? 'met' : 'NOT met'}`);
      if (v.ratio !== undefined) bars.push(`≥ ${v.ratio} × token: ${ratio >= v.ratio ? 'met' : 'NOT met'}`);
      const bad = f.reduce((a, x) => a + x.bad, 0);
      lines.push(
        `| ${v.name} | ${f.map((x) => Math.round(x.rps)).join(' / ')} | ${Math.round(median(f.map((x) => x.rps)))} | ${j === 0 ? '1' : ratio.toFixed(3)} | ${median(f.map((x) => x.p50)).toFixed(1)} | ${p99.toFixed(1)} | ${median(f.map((x) => x.cpuUs)).toFixed(0)} | ${bars.join('; ') || '—'}${bad ? ` (${bad} answers not ${v.status})` : ''} |`,
      );
      if (bars.length) verdicts.push(`${v.name.split(' (')[0]}: ${bars.join('; ')}`);
    });
    lines.push('', `Bars (issue 25 list and batch, issue 23 search): ${verdicts.join('. ')}.`);
    const pageBytes = floorOf.get(1)?.bytes ?? 0;
    lines.push(
      '',
      `**List pages kept in memory.** The server keeps the list pages it answered while public.db is unchanged (src/server/list-page-memo.ts, \`LIST_CACHE_MB\`, default 128): ` +
        `any commit (the collector's, a rebuild's) forgets them all, so a kept page is never stale, and a node serving public-database generations keeps them until its next generation. ` +
        `Here nothing writes during the rounds, each list variant's ${browse.length.toLocaleString('en-US')} distinct pages (about ${((browse.length * pageBytes) / 1024 / 1024).toFixed(0)} MB) were all asked in its warm-up and fit in the default 128 MB, ` +
        'so the measured rounds answer every page from memory (its bytes written as they are, around a new generatedAt). That is what an API node on a generation, or a single machine between two commits, does for pages asked again; ' +
        'the rows "every page built" (a second server, `LIST_CACHE_MB=0`) are the cost of a page not held: a page first asked, a page asked after a commit (a live collector commits about once a second), or more distinct pages than fit.',
    );
    // the floors: what a server that did no work at all would answer under the same load
    lines.push(
      '',
      '**The floor** (bench/bare-static-server.mjs: bare node:http sending one precomputed answer of the variant, its bytes as the server sent them, measured right after the variant in each round):',
      '',
      '| floor of | answer | req/s per round | median req/s | × token (median of per-round) | median p99 ms | CPU µs/req | the variant ÷ its floor (median of per-round) |',
      '|---|---:|---|---:|---:|---:|---:|---:|',
    );
    for (const [j, f] of floorOf) {
      const g = floorResults.get(j)!;
      const own = results[j]!;
      lines.push(
        `| ${variants[j]!.name.split(' (')[0]} | ${(f.bytes / 1024).toFixed(1)} KB | ${g.map((x) => Math.round(x.rps)).join(' / ')} | ${Math.round(median(g.map((x) => x.rps)))} | ${median(g.map((x, k) => x.rps / base[k]!.rps)).toFixed(3)} | ${median(g.map((x) => x.p99)).toFixed(1)} | ${median(g.map((x) => x.cpuUs)).toFixed(0)} | ${median(own.map((x, k) => x.rps / g[k]!.rps)).toFixed(3)} |`,
      );
    }
    // the busy floors: bare node:http spending each search variant's measured CPU per request in a
    // busy loop, then sending one of its answers — the latency node:http and this load generator give
    // that much work per request at this concurrency, with no SQLite, Astro or page in it
    const busy: string[] = [];
    for (const j of BUSY_FLOORED) {
      const v = variants[j]!;
      const spinUs = Math.round(median(results[j]!.map((x) => x.cpuUs)));
      const res = await fetch(server!.url + v.paths[0], { redirect: 'manual' });
      const file = join(tmp, `busy-${j}.body`);
      writeFileSync(file, Buffer.from(await res.arrayBuffer()));
      const bare = await startServer(`bare node:http, ${spinUs} µs busy per request`, [join(ROOT, 'bench/bare-static-server.mjs')], { ...env, BENCH_FILE: file, BENCH_SPIN_US: String(spinUs) }, '/');
      floors.push(bare);
      const fv: Variant = { name: `busy floor of ${v.name}`, paths: ['/'], keyed: false, status: 200 };
      await round(bare, fv, headers, 1);
      const g: Figures[] = [];
      for (let i = 0; i < ROUNDS; i++) g.push(await round(bare, fv, headers, SECONDS));
      log(`  busy floor of ${v.name}: ${g.map((x) => `${Math.round(x.rps)} req/s p99 ${x.p99} ms`).join('; ')}`);
      const own = results[j]!;
      busy.push(
        `| ${v.name.split(' (')[0]} | ${spinUs} | ${g.map((x) => Math.round(x.rps)).join(' / ')} | ${Math.round(median(g.map((x) => x.rps)))} | ${median(g.map((x) => x.p50)).toFixed(1)} | ${median(g.map((x) => x.p99)).toFixed(1)} | ${median(own.map((x) => x.p99)).toFixed(1)} |`,
      );
    }
    if (busy.length) {
      lines.push(
        '',
        `**The busy floor of the searches** (bench/bare-static-server.mjs with \`BENCH_SPIN_US\`: bare node:http that spends the variant's measured server CPU per request in a busy loop, then sends one of its answers; ${ROUNDS} rounds of ${SECONDS} s after the rounds above, same load generator and connections). ` +
          'Its p99 is what node:http and this load generator give that much work per request at this concurrency, with no SQLite, Astro or page in it: requests are not answered in the order they came, and some connections wait many turns.',
        '',
        '| busy floor of | CPU spent per request µs | req/s per round | median req/s | median p50 ms | median p99 ms | the variant\'s own median p99 ms |',
        '|---|---:|---|---:|---:|---:|---:|',
        ...busy,
      );
    }
    const baseRps = median(base.map((x) => x.rps));
    const floorSentence = () => {
      const list = floorResults.get(1);
      const batch = floorResults.get(5);
      if (!list?.length || !batch?.length) return '';
      return (
        ` The floors say what is left to win: a bare server that does no work but send one list page answered ${median(list.map((x, k) => x.rps / base[k]!.rps)).toFixed(2)} × the token endpoint's rate, ` +
        `and one sending a precomputed 100-mint batch answered at p99 ${median(batch.map((x) => x.p99)).toFixed(0)} ms (rounds: ${batch.map((x) => x.p99).join(' / ')} ms) at ${CONNECTIONS} connections, under the same load generator.`
      );
    };
    lines.push(
      '',
      `Reading the figures: with ${CONNECTIONS} connections in a closed loop every request waits behind the others, so a variant's latency is about ${CONNECTIONS} ÷ its throughput (Little's law): the token endpoint answered ${Math.round(baseRps)} req/s, ${CONNECTIONS} ÷ ${Math.round(baseRps)} = ${((CONNECTIONS / baseRps) * 1000).toFixed(0)} ms, and its median p50 was ${median(base.map((x) => x.p50)).toFixed(0)} ms. ` +
        'A millisecond bar at 50 connections is a throughput bar (p99 ≤ 20 ms needs well over 2,500 req/s); the ratios to the token endpoint are the figures to compare between runs. ' +
        'A batch is 100 lookups (its 100 quota counts in one private.db transaction; each record\'s stored bytes copied into the answer, about 300 KB), so its latency at 50 connections is at least 50 × its own service time: p99 ≤ 60 ms would need over 830 batches a second, 83,000 record lookups and 250 MB of answers a second from one process.' +
        floorSentence(),
    );
    return lines.join('\n');
  } finally {
    await server?.stop();
    await builtServer?.stop();
    for (const f of floors) await f.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}
